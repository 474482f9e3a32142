/* The "at most K" search for idempotent non-selective algebras (issue 10):
 *
 *   F(items, k) = leaf(items) ⊕ ⊕_{r} ⊕_{k1+k2=k−1} F(items ∩ L(r), k1) ⊗ F(items ∩ R(r), k2)
 *
 * with the leaf term at every budget, as the selective search has it.  With ⊕
 * idempotent (the union of Pareto fronts) a degenerate split or a repeated
 * partition adds nothing, so both are skipped and subproblems are cached by
 * item set, budget and remaining depth, exactly as for the selective search.
 *
 * Pruning by the partial order: F is built up split by split; a split whose
 * lower bound (the problem's lower_bound of each child, ⊗-combined; after
 * the first child is solved, its value ⊗ the other's bound) is absorbed by
 * what the node has so far (algebra->absorbed: for fronts, every point weakly
 * dominated) cannot change the node's value and is not solved further.  The
 * value stays exact — only the node's own incumbent prunes, nothing is passed
 * down — so every cached value is the subproblem's whole value.
 *
 * Then the tree of any point of the root's front: pdt_front_search_tree walks
 * down again, at each node finding a leaf point or a split and two child
 * points (from the cached child fronts) whose sum is the point. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "engine_impl.h"
#include "front.h"
#include "pdt_parallel.h"

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

static void check_stop(pdt_search_state *s)
{
    if ((!s->has_deadline && !s->o.stop) || !pdt_gate_due(&s->gate, s->stats.nodes)) return;
    struct timespec now;
    pdt_gate_read(&s->gate, s->stats.nodes, &now, NULL);
    if (pdt_stop_requested(s->o.stop)) s->aborted = true;
    if (s->has_deadline && pdt_time_reached(now, s->deadline)) s->aborted = true;
}

/* lb(l, k1) ⊗ lb(r, k2), or (when v_l is given) v_l ⊗ lb(r, k2), absorbed by the node's value so far. */
static pdt_status split_absorbed(pdt_search_state *s, pdt_frame *f, const pdt_node *l, uint32_t k1,
                                 const pdt_node *r, uint32_t k2, const void *v_l, bool *absorbed)
{
    const pdt_algebra *a = s->alg;
    *absorbed = false;
    if (!s->pc->lower_bound || !a->absorbed || s->pc->branch) return PDT_OK;
    pdt_status st = s->pc->lower_bound(f->v_lb2, s->inst, r, k2, s->err);
    if (!st && !v_l) st = s->pc->lower_bound(f->v_lb, s->inst, l, k1, s->err);
    if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
    a->mul(f->v_ubl, v_l ? v_l : f->v_lb, f->v_lb2);
    *absorbed = a->absorbed(f->v_ubl, f->v_best);
    return PDT_OK;
}

static pdt_status try_pair(pdt_search_state *s, pdt_frame *f, const pdt_node *node, int64_t payload,
                           pdt_node *l, const pdt_lazy_rules *ll, pdt_node *r, const pdt_lazy_rules *lr,
                           uint32_t k1, uint32_t k2, uint32_t child_drem)
{
    const pdt_algebra *a = s->alg;
    bool gone;
    pdt_status st = split_absorbed(s, f, l, k1, r, k2, NULL, &gone);
    if (!st && !gone) st = pdt_engine_union(s, l, ll, k1, child_drem, f->v_l);
    if (st || s->aborted) return st;
    if (gone || a->is_zero(f->v_l)) {
        s->stats.pruned++;
        return PDT_OK;
    }
    st = split_absorbed(s, f, l, k1, r, k2, f->v_l, &gone);
    if (!st && !gone) st = pdt_engine_union(s, r, lr, k2, child_drem, f->v_r);
    if (st || s->aborted) return st;
    if (gone) {
        s->stats.pruned++;
        return PDT_OK;
    }
    if (s->pc->branch) {
        st = s->pc->branch(f->v_c, s->inst, node, payload, f->v_l, f->v_r, s->err);
        if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
    } else {
        a->mul(f->v_c, f->v_l, f->v_r);
    }
    a->add(f->v_best, f->v_c);
    return PDT_OK;
}

/* The node's own lower bound is absorbed by its value so far: no split can add anything. */
static pdt_status node_absorbed(pdt_search_state *s, pdt_frame *f, const pdt_node *node, uint32_t k, bool *stop)
{
    *stop = false;
    if (!s->pc->lower_bound || !s->alg->absorbed || s->pc->branch) return PDT_OK;
    pdt_status st = s->pc->lower_bound(f->v_lb, s->inst, node, k, s->err);
    if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
    *stop = s->alg->absorbed(f->v_lb, f->v_best);
    return PDT_OK;
}

/* The budget pairs of a split, as the selective search gives them: a child
 * never gets more than its depth allows, the at-most semantics covers less. */
static pdt_status union_split(pdt_search_state *s, pdt_frame *f, const pdt_node *node, uint32_t k,
                              uint32_t drem, int64_t payload, pdt_node *l, const pdt_lazy_rules *ll,
                              pdt_node *r, const pdt_lazy_rules *lr)
{
    uint32_t child_drem = pdt_engine_child_depth(drem), cap = pdt_engine_depth_cap(child_drem);
    if (k == PDT_UNLIMITED) return try_pair(s, f, node, payload, l, ll, r, lr, cap, cap, child_drem);
    uint32_t kmax = min_u32(k - 1, cap), kmin = k - 1 > cap ? k - 1 - cap : 0;
    for (uint32_t k1 = kmin; k1 <= kmax && !s->aborted; k1++) {
        pdt_status st = try_pair(s, f, node, payload, l, ll, r, lr, k1, k - 1 - k1, child_drem);
        if (st) return st;
    }
    return PDT_OK;
}

/* The splits of a node, added to f->v_best.  At the root a split is added
 * whole or not at all: when the search stops inside one, the root keeps the
 * splits before it (s->root_done of them), each tree of which can be found
 * again from complete, cached child values. */
static pdt_status node_splits(pdt_search_state *s, pdt_frame *f, pdt_node *node, uint32_t k, uint32_t drem)
{
    const pdt_algebra *a = s->alg;
    uint32_t n = pdt_engine_split_count(s, node);
    bool dedup = s->dedup_on, root = node->depth == 0, stop = false;
    void *keep = root ? malloc(a->size) : NULL;
    if (root && !keep) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory for the search");
    if (root) a->init(keep);
    if (dedup) pdt_engine_seen_reset(f);
    pdt_status st = node_absorbed(s, f, node, k, &stop);
    for (uint32_t i = 0; i < n && !st && !s->aborted && !stop; i++) {
        bool ok = false;
        int64_t payload = 0;
        pdt_node l, r;
        pdt_lazy_rules ll, lr;
        st = pdt_engine_split_at(s, f, node, i, &ok, &payload, &l, &ll, &r, &lr);
        if (st || !ok) continue;
        s->stats.candidates++;
        bool skip = (s->rs && (l.n_items == 0 || r.n_items == 0)) || /* a smaller tree's value again */
                    (s->o.min_leaf && (l.n_items < s->o.min_leaf || r.n_items < s->o.min_leaf)) ||
                    (dedup && pdt_engine_seen_before(s, f, l.items, n));
        if (root) a->set(keep, f->v_best);
        if (!skip) st = union_split(s, f, node, k, drem, payload, &l, &ll, &r, &lr);
        if (root && s->aborted) a->set(f->v_best, keep); /* the split in progress is left out */
        if (root && !s->aborted) s->root_done = i + 1;
        if (!st && !skip) st = node_absorbed(s, f, node, k, &stop);
    }
    if (root) a->clear(keep);
    free(keep);
    return st;
}

pdt_status pdt_engine_union(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz, uint32_t k,
                            uint32_t drem, void *out)
{
    const pdt_algebra *a = s->alg;
    s->stats.nodes++;
    check_stop(s);
    pdt_frame *f = pdt_engine_frame(s, node->depth);
    if (!f) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory for the search");
    k = min_u32(k, pdt_engine_depth_cap(drem));
    drem = min_u32(drem, k);
    node->rules = NULL;
    node->n_rules = lz->root == UINT32_MAX ? lz->n : 0;
    pdt_status st = s->pc->leaf(f->v_best, s->inst, node, s->err);
    if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
    uint32_t smallest = s->o.min_leaf > 1 ? s->o.min_leaf : 1;
    if (k == 0 || (s->rs && node->n_items < 2 * smallest) || s->aborted) {
        a->set(out, f->v_best);
        return PDT_OK;
    }
    pdt_memo_entry *e = s->memo_on ? pdt_memo_find(s->memo, node->items, k, drem, 0) : NULL;
    if (e) {
        s->stats.memo_hits++;
        a->set(out, pdt_memo_value(e));
        return PDT_OK;
    }
    node->n_rules = pdt_engine_derive_rules(s, f->rules, lz);
    node->rules = f->rules;
    if (k == 1 && s->stump_on) { /* one branch node: the problem's loop over the rules' sides */
        for (uint32_t i = 0; i < node->n_rules; i++) f->sides[i] = s->sides + (size_t)node->rules[i] * s->words;
        uint32_t idx;
        st = s->pc->stump(f->v_c, &idx, s->inst, node, f->sides, node->n_rules, s->o.min_leaf, NULL, s->err);
        if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
        s->stats.candidates += node->n_rules;
        a->add(f->v_best, f->v_c);
        goto done;
    }
    st = node_splits(s, f, node, k, drem);
    if (st) return st;
done:
    if (s->memo_on && !s->aborted) {
        pdt_memo_entry *put = pdt_memo_put(s->memo, node->items, k, drem, 0);
        if (put) {
            put->kind = PDT_MEMO_EXACT;
            a->set(pdt_memo_value(put), f->v_best);
        }
    }
    a->set(out, f->v_best);
    return PDT_OK;
}

/* ------------------------------------------------------------ sessions */

struct pdt_front_search {
    pdt_search_state s;
    pdt_node root;
    uint32_t *root_rules;
    pdt_front front;
};

pdt_status pdt_front_search_run(pdt_front_search **out, const pdt_problem_class *pc, void *inst,
                                const pdt_ruleset *rs, size_t words, const pdt_node *root,
                                const pdt_search_opts *opts, pdt_error *err)
{
    *out = NULL;
    if (pc->algebra != &pdt_algebra_front)
        return pdt_error_set(err, PDT_EINTERNAL, "problem \"%s\": a front search needs the front algebra",
                             pc->name);
    pdt_front_search *fs = calloc(1, sizeof *fs);
    if (!fs) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_front_init(&fs->front);
    pdt_status st = pdt_engine_begin(&fs->s, pc, inst, rs, words, root->n_rules, opts, err);
    fs->root = *root;
    fs->root_rules = malloc((root->n_rules ? root->n_rules : 1) * sizeof *fs->root_rules);
    if (!st && !fs->root_rules) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (!st) {
        if (root->n_rules) memcpy(fs->root_rules, root->rules, root->n_rules * sizeof *root->rules);
        fs->root.rules = fs->root_rules;
        pdt_node node = fs->root;
        pdt_lazy_rules lz = {fs->root_rules, root->n_rules, UINT32_MAX, PDT_REL_LEFT};
        st = pdt_engine_union(&fs->s, &node, &lz, opts->max_size, opts->max_depth, &fs->front);
    }
    fs->s.stats.seconds = pdt_engine_elapsed(&fs->s);
    if (fs->s.memo) fs->s.stats.memo_entries = pdt_memo_count(fs->s.memo);
    *out = fs;
    return st;
}

const pdt_front *pdt_front_search_front(const pdt_front_search *fs) { return &fs->front; }
bool pdt_front_search_complete(const pdt_front_search *fs) { return !fs->s.aborted; }
const pdt_search_stats *pdt_front_search_stats(const pdt_front_search *fs) { return &fs->s.stats; }

void pdt_front_search_free(pdt_front_search **fsp)
{
    pdt_front_search *fs = *fsp;
    if (!fs) return;
    if (fs->s.memo) fs->s.stats.memo_entries = pdt_memo_count(fs->s.memo);
    pdt_engine_end(&fs->s);
    pdt_front_clear(&fs->front);
    free(fs->root_rules);
    free(fs);
    *fsp = NULL;
}

void pdt_front_tree_clear(pdt_front_tree *t)
{
    free(t->pre);
    free(t->leaf_how);
    memset(t, 0, sizeof *t);
}

static bool tree_push(pdt_front_tree *t, int64_t payload, uint32_t how)
{
    if (t->len == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        int64_t *p = realloc(t->pre, cap * sizeof *p);
        if (!p) return false;
        t->pre = p;
        uint32_t *h = realloc(t->leaf_how, cap * sizeof *h);
        if (!h) return false;
        t->leaf_how = h;
        t->cap = cap;
    }
    t->leaf_how[t->len] = how;
    t->pre[t->len++] = payload;
    return true;
}

typedef struct owned {
    pdt_node node;
    pdt_lazy_rules lz;
    uint64_t *items;
    uint32_t *rules;
} owned;

/* A copy of a child's items; its rules stay lazy (derived from the parent's
 * list, which outlives it, only when the child is searched). */
static bool own(pdt_search_state *s, owned *o, const pdt_node *n, const pdt_lazy_rules *lz)
{
    o->items = malloc((s->words ? s->words : 1) * sizeof *o->items);
    if (!o->items) return false;
    memcpy(o->items, n->items, s->words * sizeof *o->items);
    o->node = *n;
    o->node.items = o->items;
    o->lz = *lz;
    return true;
}

static void unown(owned *o)
{
    free(o->items);
    free(o->rules);
    memset(o, 0, sizeof *o);
}

static pdt_status tree_of(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz, uint32_t k,
                          uint32_t drem, uint32_t fp, uint32_t fn, pdt_front_tree *t, uint32_t splits);

/* Split i of node: its children's points summing to (fp, fn) under some budget pair. */
static pdt_status try_split_tree(pdt_search_state *s, pdt_node *node, uint32_t i, uint32_t k, uint32_t drem,
                                 uint32_t fp, uint32_t fn, pdt_front *fl, pdt_front *fr, pdt_front_tree *t,
                                 bool *done)
{
    pdt_frame *f = s->frames[node->depth];
    bool ok = false;
    int64_t payload = 0;
    pdt_node l, r;
    pdt_lazy_rules ll, lr;
    pdt_status st = pdt_engine_split_at(s, f, node, i, &ok, &payload, &l, &ll, &r, &lr);
    if (st || !ok) return st;
    if (s->rs && (l.n_items == 0 || r.n_items == 0)) return PDT_OK;
    if (s->o.min_leaf && (l.n_items < s->o.min_leaf || r.n_items < s->o.min_leaf)) return PDT_OK;
    owned ol = {0}, orr = {0};
    if (!own(s, &ol, &l, &ll) || !own(s, &orr, &r, &lr)) {
        unown(&ol), unown(&orr);
        return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    uint32_t child_drem = pdt_engine_child_depth(drem), cap = pdt_engine_depth_cap(child_drem);
    uint32_t kmin = 0, kmax = 0;
    if (k == PDT_UNLIMITED) kmin = kmax = cap;
    else kmax = min_u32(k - 1, cap), kmin = k - 1 > cap ? k - 1 - cap : 0;
    for (uint32_t k1 = kmin; k1 <= kmax && !st && !*done; k1++) {
        uint32_t k2 = k == PDT_UNLIMITED ? cap : k - 1 - k1;
        pdt_node a = ol.node, b = orr.node;
        st = pdt_engine_union(s, &a, &ol.lz, k1, child_drem, fl);
        if (!st) st = pdt_engine_union(s, &b, &orr.lz, k2, child_drem, fr);
        if (st) break;
        for (size_t x = 0; x < fl->n && !*done; x++) {
            const pdt_front_point *p = &fl->p[x];
            if (p->fp > fp || p->fn > fn) continue;
            if (pdt_front_find(fr, fp - p->fp, fn - p->fn) == SIZE_MAX) continue;
            uint32_t lfp = p->fp, lfn = p->fn;
            *done = true;
            if (!tree_push(t, payload, 0)) st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
            pdt_node a2 = ol.node, b2 = orr.node;
            if (!st) st = tree_of(s, &a2, &ol.lz, k1, child_drem, lfp, lfn, t, UINT32_MAX);
            if (!st) st = tree_of(s, &b2, &orr.lz, k2, child_drem, fp - lfp, fn - lfn, t, UINT32_MAX);
        }
    }
    unown(&ol), unown(&orr);
    return st;
}

/* splits: how many of the node's splits may hold the point (a stopped search's root: those it completed). */
static pdt_status tree_of(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz, uint32_t k,
                          uint32_t drem, uint32_t fp, uint32_t fn, pdt_front_tree *t, uint32_t splits)
{
    pdt_frame *f = pdt_engine_frame(s, node->depth);
    if (!f) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    k = min_u32(k, pdt_engine_depth_cap(drem));
    drem = min_u32(drem, k);
    node->rules = NULL;
    node->n_rules = lz->root == UINT32_MAX ? lz->n : 0;
    pdt_front leaf, fl, fr;
    pdt_front_init(&leaf), pdt_front_init(&fl), pdt_front_init(&fr);
    pdt_status st = s->pc->leaf(&leaf, s->inst, node, s->err);
    if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
    size_t at = pdt_front_find(&leaf, fp, fn);
    bool done = at != SIZE_MAX;
    if (done && !tree_push(t, PDT_LEAF, leaf.p[at].how)) st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    uint32_t *rules = NULL;
    if (!done && k > 0) {
        rules = malloc((lz->n ? lz->n : 1) * sizeof *rules);
        if (!rules) st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
        else {
            node->n_rules = pdt_engine_derive_rules(s, rules, lz);
            node->rules = rules;
        }
        uint32_t n = st ? 0 : min_u32(pdt_engine_split_count(s, node), splits);
        for (uint32_t i = 0; i < n && !st && !done; i++)
            st = try_split_tree(s, node, i, k, drem, fp, fn, &fl, &fr, t, &done);
    }
    if (!st && !done)
        st = pdt_error_set(s->err, PDT_EINTERNAL, "no tree of the front has the point (%u, %u)", fp, fn);
    free(rules);
    pdt_front_clear(&leaf), pdt_front_clear(&fl), pdt_front_clear(&fr);
    return st;
}

pdt_status pdt_front_search_tree(pdt_front_tree *out, pdt_front_search *fs, uint32_t fp, uint32_t fn,
                                 pdt_error *err)
{
    memset(out, 0, sizeof *out);
    pdt_search_state *s = &fs->s;
    s->err = err;
    bool deadline = s->has_deadline;
    const volatile sig_atomic_t *stop = s->o.stop;
    s->has_deadline = false; /* the tree must be completed */
    s->o.stop = NULL;
    bool aborted = s->aborted;
    s->aborted = false;
    pdt_node node = fs->root;
    pdt_lazy_rules lz = {fs->root_rules, fs->root.n_rules, UINT32_MAX, PDT_REL_LEFT};
    pdt_status st = tree_of(s, &node, &lz, s->o.max_size, s->o.max_depth, fp, fn, out, aborted ? s->root_done : UINT32_MAX);
    s->has_deadline = deadline;
    s->o.stop = stop;
    s->aborted = aborted;
    if (st) pdt_front_tree_clear(out);
    return st;
}
