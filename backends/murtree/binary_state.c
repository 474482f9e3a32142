/* The binary backend's search state: setup, per-level scratch, the clock,
 * item sets (splits, hashes, cache nodes) and the bounds that need no search:
 * the cache's and the similarity bound (MurTree §4.5): T(D_old, d, n) −
 * |D_old \ D| ≤ T(D, d, n) for the last two item sets solved at depth d. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binary_solver.h"
#include "bitset.h"
#include "clock_gate.h"
#include "pdt_parallel.h"

/* ------------------------------------------------------------ setup */

/* SIM_WIDE, or fewer from PDT_BINARY_SIM_SLOTS: the oracle tests set 3, so
 * that the slots of their small instances are replaced often, and 2 for the
 * plain search they compare with (no wide mode at all). */
static size_t wide_slots(void)
{
    const char *env = getenv("PDT_BINARY_SIM_SLOTS");
    char *end = NULL;
    unsigned long k = env ? strtoul(env, &end, 10) : 0;
    return env && *env && end && !*end && k >= SIM_SLOTS && k <= SIM_WIDE ? (size_t)k : SIM_WIDE;
}

pdt_status bs_search_new(bs_search **out, const bs_data *data, size_t cache_bytes, double time_limit,
                         pdt_progress_fn progress, void *progress_user, pdt_error *err)
{
    *out = NULL;
    bs_search *s = calloc(1, sizeof *s);
    if (!s) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    s->data = data;
    s->words = data->words ? data->words : 1;
    s->nc = data->nc ? data->nc : 1;
    bc_init(&s->cache, s->words, cache_bytes);
    pdt_status st = d2_new(&s->d2, data, err);
    if (st) {
        bs_search_free(&s);
        return st;
    }
    s->progress = progress;
    s->progress_user = progress_user;
    s->root_best = BS_VNONE;
    s->unit = 1;
    s->sim_wide_slots = wide_slots();
    clock_gettime(CLOCK_MONOTONIC, &s->start);
    if (time_limit > 0) s->deadline = pdt_time_after(s->start, time_limit), s->has_deadline = true;
    *out = s;
    return PDT_OK;
}

static void level_free(bs_level *lv)
{
    if (!lv) return;
    free(lv->l.bits);
    free(lv->r.bits);
    free(lv->l.cc);
    free(lv->r.cc);
    free(lv->seen_hash);
    free(lv->seen_f);
    free(lv->sample.c);
    free(lv->sample.uc);
    free(lv->sample.ufid);
    free(lv->wit_k);
    free(lv->wit_in);
    free(lv);
}

void bs_search_free(bs_search **sp)
{
    if (!sp || !*sp) return;
    bs_search *s = *sp;
    for (size_t k = 0; k < s->n_levels; k++) level_free(s->levels[k]);
    free(s->levels);
    for (size_t k = 0; k < s->sim_depths * SIM_WIDE; k++) free(s->sim[k].bits);
    free(s->sim);
    bc_clear(&s->cache);
    d2_free(&s->d2);
    bp_clear(s);
    bw_clear(s);
    free(s);
    *sp = NULL;
}

void bs_set_lexicographic(bs_search *s, uint32_t max_size, bool proven)
{
    s->unit = (bs_value)max_size + 1;
    s->per_node = 1;
    s->proven = proven;
    if (proven) bp_init(s); /* the errorless test (binary_perfect.c) */
}

bs_value bs_unit(const bs_search *s) { return s->unit; }
bool bs_aborted(const bs_search *s) { return s->aborted; }
bool bs_out_of_memory(const bs_search *s) { return s->oom; }
void bs_clear_deadline(bs_search *s)
{
    s->has_deadline = s->aborted = false;
    s->stop = NULL;
}

void bs_set_stop(bs_search *s, const volatile sig_atomic_t *stop) { s->stop = stop; }
const bs_stats *bs_search_stats(bs_search *s)
{
    s->stats.cache_nodes = s->cache.n_nodes;
    return &s->stats;
}
d2_solver *bs_search_d2(bs_search *s) { return s->d2; }

void bs_fail_oom(bs_search *s)
{
    s->oom = s->aborted = true;
}

bs_level *bs_level_get(bs_search *s, size_t level)
{
    if (level < s->n_levels && s->levels[level]) return s->levels[level];
    if (level >= s->n_levels) {
        size_t n = s->n_levels ? 2 * s->n_levels : 8;
        while (n <= level) n *= 2;
        bs_level **lv = realloc(s->levels, n * sizeof *lv);
        if (!lv) return NULL;
        memset(lv + s->n_levels, 0, (n - s->n_levels) * sizeof *lv);
        s->levels = lv;
        s->n_levels = n;
    }
    bs_level *lv = calloc(1, sizeof *lv);
    if (!lv) return NULL;
    lv->seen_cap = 16;
    while (lv->seen_cap < 2 * s->data->nf + 2) lv->seen_cap *= 2;
    lv->l.bits = malloc(s->words * sizeof *lv->l.bits);
    lv->r.bits = malloc(s->words * sizeof *lv->r.bits);
    lv->l.cc = malloc(s->nc * sizeof *lv->l.cc);
    lv->r.cc = malloc(s->nc * sizeof *lv->r.cc);
    lv->seen_hash = malloc(lv->seen_cap * sizeof *lv->seen_hash);
    lv->seen_f = malloc(lv->seen_cap * sizeof *lv->seen_f);
    if (!lv->l.bits || !lv->r.bits || !lv->l.cc || !lv->r.cc || !lv->seen_hash || !lv->seen_f) {
        level_free(lv);
        return NULL;
    }
    lv->l.owner = lv->r.owner = lv;
    lv->index = level;
    s->levels[level] = lv;
    return lv;
}

static void report(bs_search *s, const struct timespec *now)
{
    double elapsed = (double)(now->tv_sec - s->start.tv_sec) + 1e-9 * (double)(now->tv_nsec - s->start.tv_nsec);
    if (elapsed - s->last_progress < 1.0) return;
    s->last_progress = elapsed;
    char best[32] = "?";
    if (s->root_best != BS_VNONE) snprintf(best, sizeof best, "%llu", (unsigned long long)(s->root_best / s->unit));
    pdt_progress p = {elapsed, s->stats.nodes, best};
    s->progress(s->progress_user, &p);
}

bool bs_tick(bs_search *s)
{
    if (s->aborted) return true;
    if ((!s->has_deadline && !s->progress && !s->stop) || (++s->tick % TICK_EVERY)) return false;
    if (pdt_stop_requested(s->stop)) s->aborted = true;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (s->has_deadline && pdt_time_reached(now, s->deadline)) s->aborted = true;
    if (s->progress) report(s, &now);
    return s->aborted;
}

/* ------------------------------------------------------------ item sets */

uint32_t bs_leaf_of(const uint32_t *cc, size_t nc, uint32_t m)
{
    uint32_t best = 0;
    for (size_t c = 0; c < nc; c++)
        if (cc[c] > best) best = cc[c];
    return m - best;
}

/* r = D ∧ f, l = D ∧ ¬f with their sizes, class counts and leaf costs; hashes
 * only when the split is not degenerate. */
void bs_split(bs_search *s, const bs_set *D, size_t f, bs_set *l, bs_set *r)
{
    const size_t W = s->words, nc = s->nc;
    const uint64_t *restrict col = s->data->cols + f * W, *restrict db = D->bits;
    const uint64_t *restrict c0 = s->data->cls;
    uint64_t *restrict rb = r->bits, *restrict lb = l->bits;
    uint32_t rm = 0, r0 = 0;
    for (size_t k = 0; k < W; k++) {
        uint64_t x = db[k] & col[k];
        rb[k] = x;
        lb[k] = db[k] & ~col[k];
        rm += (uint32_t)__builtin_popcountll(x);
        r0 += (uint32_t)__builtin_popcountll(x & c0[k]);
    }
    r->m = rm;
    l->m = D->m - rm;
    l->node = r->node = NULL;
    l->looked_up = r->looked_up = false;
    l->via_f = r->via_f = (uint32_t)f;
    l->via_side = 0, r->via_side = 1;
    if (rm == 0 || rm == D->m) return;
    uint32_t rest = rm - r0;
    r->cc[0] = r0;
    for (size_t c = 1; c + 1 < nc; c++) {
        r->cc[c] = pdt_bits_and_count(rb, s->data->cls + c * W, W);
        rest -= r->cc[c];
    }
    if (nc > 1) r->cc[nc - 1] = rest; /* the last class by difference */
    for (size_t c = 0; c < nc; c++) l->cc[c] = D->cc[c] - r->cc[c];
    r->leaf = bs_leaf_of(r->cc, nc, r->m);
    l->leaf = bs_leaf_of(l->cc, nc, l->m);
    r->hash = bc_hash(rb, W);
    l->hash = bc_hash(lb, W);
    if (s->cache.n_slots) { /* the lookups that follow (bs_lookup) start from these slots */
        const size_t mask = s->cache.n_slots - 1;
        __builtin_prefetch(&s->cache.slots[r->hash & mask]);
        __builtin_prefetch(&s->cache.slots[l->hash & mask]);
    }
    if (s->shared) bt_shared_prefetch(s, r->hash), bt_shared_prefetch(s, l->hash);
}

void bs_lookup(bs_search *s, bs_set *D)
{
    if (D->looked_up) return;
    D->node = bc_find(&s->cache, D->bits, D->hash, D->m);
    if (!D->node && s->shared) D->node = bt_shared_fetch(s, D);
    else if (D->node && s->shared) bt_shared_refresh(s, D); /* the other workers' newer bounds for it */
    D->looked_up = true;
}

bc_node *bs_node_of(bs_search *s, bs_set *D)
{
    bs_lookup(s, D);
    if (!D->node) D->node = bc_insert(&s->cache, D->bits, D->hash, D->m, D->leaf);
    return D->node;
}

/* ------------------------------------------------------------ similarity bound */

/* Slots per depth: many for --lexicographic once the root has an errorless
 * tree (only errorless trees are wanted then): most subproblems have none,
 * and an old set with e errors more than the items it lacks of the new one
 * proves that the new one has none either.  With errors left at the root
 * the extra slots cost more than they prune (yeast depth 5: 0.6 → 0.9 s). */
static size_t sim_slots(const bs_search *s)
{
    return s->sim_wide ? s->sim_wide_slots : SIM_SLOTS;
}

static sim_slot *sim_at(bs_search *s, uint32_t d)
{
    if (d >= s->sim_depths) {
        size_t n = d + 8;
        sim_slot *p = realloc(s->sim, n * SIM_WIDE * sizeof *p);
        if (!p) return NULL;
        memset(p + s->sim_depths * SIM_WIDE, 0, (n - s->sim_depths) * SIM_WIDE * sizeof *p);
        s->sim = p;
        s->sim_depths = n;
    }
    return s->sim + (size_t)d * SIM_WIDE;
}

/* The old set's bound for (d, n): kept when it was pushed for d ≤ 2 (n ≤ 3). */
static bs_value slot_lower(const bs_search *s, const sim_slot *slot, uint32_t d, uint32_t n)
{
    if (d <= 2) return slot->v[n - 1];
    return bs_node_lower(s, slot->node, d, n);
}

bs_value bs_similarity_lb(bs_search *s, const bs_set *D, uint32_t d, uint32_t n)
{
    if (d >= s->sim_depths) return 0;
    const sim_slot *slot = s->sim + (size_t)d * SIM_WIDE;
    const size_t W = s->words, slots = sim_slots(s);
    bs_value best = 0;
    for (size_t k = 0; k < slots; k++) {
        if (!slot[k].node) continue;
        bs_value v = slot_lower(s, &slot[k], d, n);
        if (v <= best) continue;
        bs_value out = 0; /* |D_old \ D| · unit: each item can add one error */
        for (size_t w = 0; w < W && out < v; w++)
            out += (bs_value)__builtin_popcountll(slot[k].bits[w] & ~D->bits[w]) * s->unit;
        if (v > out && v - out > best) best = v - out;
    }
    return best;
}

/* D was solved at depth d: it takes a free slot, or replaces the most similar set. */
void bs_sim_push(bs_search *s, const bs_set *D, uint32_t d)
{
    if (!D->node) return;
    if (s->shared) bt_shared_publish(s, D);
    sim_slot *slot = sim_at(s, d);
    if (!slot) return;
    const size_t W = s->words, slots = sim_slots(s);
    size_t at = 0;
    uint32_t least = UINT32_MAX;
    for (size_t k = 0; k < slots; k++) {
        if (!slot[k].node) {
            at = k;
            break;
        }
        uint32_t diff = 0;
        for (size_t w = 0; w < W && diff < least; w++)
            diff += (uint32_t)__builtin_popcountll(slot[k].bits[w] ^ D->bits[w]);
        if (diff < least) least = diff, at = k;
    }
    if (!slot[at].bits && !(slot[at].bits = malloc(W * sizeof *slot[at].bits))) return;
    memcpy(slot[at].bits, D->bits, W * sizeof *D->bits);
    slot[at].node = D->node;
    for (uint32_t k = 1; d <= 2 && k <= 3; k++) { /* bounds only grow: these stay valid */
        uint32_t dd = d, nn = k;
        bs_normalise(&dd, &nn);
        slot[at].v[k - 1] = bs_node_lower(s, D->node, dd, nn);
    }
}

/* ------------------------------------------------------------ bounds */

/* The witnesses' bound alone (a bit test, no cache lookup). */
bs_value bs_lower_witness(bs_search *s, bs_set *D, uint32_t d, uint32_t n)
{
    bs_normalise(&d, &n);
    const bs_value leaf = bs_leaf_value(s, D);
    if (d == 0) return leaf;
    if (D->leaf == 0) return 0;
    const bs_value wit = bw_lower(s, D, d, n);
    return wit < leaf ? wit : leaf;
}

/* The cache's and the witnesses' bounds, and the similarity bound when asked. */
static bs_value lower(bs_search *s, bs_set *D, uint32_t d, uint32_t n, bool similarity)
{
    bs_normalise(&d, &n);
    const bs_value leaf = bs_leaf_value(s, D);
    if (d == 0) return leaf;
    if (D->leaf == 0) return 0;
    bs_lookup(s, D);
    bs_value lb = D->node ? bs_node_lower(s, D->node, d, n) : 0, wit = bw_lower(s, D, d, n);
    if (wit > lb) lb = wit;
    if (similarity) {
        bs_value sim = bs_similarity_lb(s, D, d, n);
        if (sim > lb) lb = sim;
    }
    if (s->per_node) lb = bc_size_floor(lb, D->leaf, D->node ? D->node->d2 : NULL, n, s->unit);
    return lb < leaf ? lb : leaf;
}

/* bs_lower_of without the similarity bound: the cache's and the witnesses'. */
bs_value bs_lower_cheap(bs_search *s, bs_set *D, uint32_t d, uint32_t n) { return lower(s, D, d, n, false); }

/* The best lower bound known for (D, d, n) without searching. */
bs_value bs_lower_of(bs_search *s, bs_set *D, uint32_t d, uint32_t n) { return lower(s, D, d, n, true); }
