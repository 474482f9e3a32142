/* The rule splitter (and the hook for problem splitters): which rules may be
 * the root of a subproblem and what each child receives (downward
 * accumulation on item bitsets, admissible rules from the ancestry relation). */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "engine_impl.h"

/* Admissible rules of a child: the parent's rules related to root on dir. */
uint32_t pdt_engine_derive_rules(const pdt_search_state *s, uint32_t *out, const pdt_lazy_rules *lz)
{
    if (lz->root == UINT32_MAX) {
        if (lz->n) memcpy(out, lz->from, lz->n * sizeof *out); /* from may be NULL when empty */
        return lz->n;
    }
    uint32_t m = 0;
    if (s->data_defined) { /* rj goes left of root iff its defining points lie left of it */
        const uint64_t *side = s->sides + (size_t)lz->root * s->words;
        const uint64_t want = lz->dir == PDT_REL_LEFT;
        uint32_t last_group = UINT32_MAX;
        bool keep = false;
        for (uint32_t i = 0; i < lz->n; i++) {
            uint32_t j = lz->from[i];
            if (j == lz->root) continue;
            if (s->group[j] != last_group) { /* rules sharing defining points share the answer */
                last_group = s->group[j];
                keep = true;
                for (uint32_t k = s->def_off[j]; k < s->def_off[j + 1] && keep; k++)
                    keep = ((side[s->def[k] >> 6] >> (s->def[k] & 63)) & 1) == want;
            }
            if (keep) out[m++] = j;
        }
        return m;
    }
    for (uint32_t i = 0; i < lz->n; i++) {
        uint32_t j = lz->from[i];
        if (j != lz->root && (pdt_ruleset_relation(s->rs, lz->root, j) & lz->dir)) out[m++] = j;
    }
    return m;
}

uint32_t pdt_engine_split_count(const pdt_search_state *s, const pdt_node *node)
{
    return s->pc->split ? s->pc->split_count(s->inst, node) : node->n_rules;
}

/* The i-th split of node: children items in the frame; rules either filled
 * (problem splitter) or described lazily (rule splitter). */
pdt_status pdt_engine_split_at(pdt_search_state *s, pdt_frame *f, const pdt_node *node, uint32_t i,
                           bool *ok, int64_t *payload, pdt_node *l, pdt_lazy_rules *ll, pdt_node *r,
                           pdt_lazy_rules *lr)
{
    l->items = f->litems;
    r->items = f->ritems;
    l->depth = r->depth = node->depth + 1;
    if (s->pc->split) {
        pdt_child cl = {f->litems, 0, f->lrules, 0}, cr = {f->ritems, 0, f->rrules, 0};
        pdt_status st = s->pc->split(ok, payload, &cl, &cr, s->inst, node, i, s->err);
        if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
        l->n_items = cl.n_items;
        r->n_items = cr.n_items;
        *ll = (pdt_lazy_rules){f->lrules, cl.n_rules, UINT32_MAX, PDT_REL_LEFT};
        *lr = (pdt_lazy_rules){f->rrules, cr.n_rules, UINT32_MAX, PDT_REL_RIGHT};
        return PDT_OK;
    }
    uint32_t rule = node->rules[i];
    const uint64_t *side = s->sides + (size_t)rule * s->words;
    l->n_items = pdt_bits_and(f->litems, node->items, side, s->words);
    r->n_items = node->n_items - l->n_items;
    pdt_bits_andnot(f->ritems, node->items, side, s->words);
    *ll = (pdt_lazy_rules){node->rules, node->n_rules, rule, PDT_REL_LEFT};
    *lr = (pdt_lazy_rules){node->rules, node->n_rules, rule, PDT_REL_RIGHT};
    *payload = rule;
    *ok = true;
    return PDT_OK;
}

/* True when the left item set was already split off at this node. */
bool pdt_engine_seen_before(pdt_search_state *s, pdt_frame *f, const uint64_t *items, uint32_t n_split)
{
    if (f->seen_cap < 2 * n_split + 2) {
        uint32_t cap = 16;
        while (cap < 2 * n_split + 2) cap *= 2;
        free(f->seen_hash);
        free(f->seen_items);
        f->seen_hash = calloc(cap, sizeof *f->seen_hash); /* 0 marks a free slot */
        f->seen_items = malloc((size_t)cap * s->words * sizeof *f->seen_items);
        if (!f->seen_hash || !f->seen_items) {
            f->seen_cap = 0;
            return false;
        }
        f->seen_cap = cap;
    }
    uint64_t h = pdt_bits_hash(items, s->words, 7) | 1;
    uint32_t mask = f->seen_cap - 1;
    for (uint32_t p = (uint32_t)h & mask;; p = (p + 1) & mask) {
        if (f->seen_hash[p] == 0) {
            f->seen_hash[p] = h;
            memcpy(f->seen_items + (size_t)p * s->words, items, s->words * sizeof *items);
            f->seen_n++;
            return false;
        }
        if (f->seen_hash[p] == h && pdt_bits_equal(f->seen_items + (size_t)p * s->words, items, s->words))
            return true;
    }
}

void pdt_engine_seen_reset(pdt_frame *f)
{
    if (f->seen_cap) memset(f->seen_hash, 0, f->seen_cap * sizeof *f->seen_hash);
    f->seen_n = 0;
}

/* Children of node for the split with this payload (index: a hint, or UINT32_MAX). */
pdt_status pdt_engine_split_payload(pdt_search_state *s, const pdt_node *node, int64_t payload,
                                    uint32_t index, pdt_node *l, pdt_lazy_rules *ll, pdt_node *r,
                                    pdt_lazy_rules *lr)
{
    pdt_frame *f = s->frames[node->depth];
    uint32_t n = pdt_engine_split_count(s, node);
    for (uint32_t t = 0; t <= n; t++) {
        uint32_t i = t == 0 ? index : t - 1; /* the hint first */
        if (i >= n || (!s->pc->split && node->rules[i] != payload)) continue;
        bool ok = false;
        int64_t p = 0;
        pdt_status st = pdt_engine_split_at(s, f, node, i, &ok, &p, l, ll, r, lr);
        if (st) return st;
        if (ok && p == payload) return PDT_OK;
    }
    return pdt_error_set(s->err, PDT_EINTERNAL, "split %lld not found while rebuilding the tree",
                         (long long)payload);
}
