/* The general case of MurTree (Algorithms 1–3): optimal trees for an item set
 * within depth d and n branch nodes, against an upper bound ub.
 *
 *   T(D, d, n) = min( leaf(D),  min_{f, nl + nr = n − 1}  T(D ∧ ¬f, d − 1, nl) + T(D ∧ f, d − 1, nr) )
 *
 * Subproblems of depth ≤ 2 go to the depth-2 solver.  A subproblem either
 * returns its optimum (when some tree costs ≤ ub) or a lower bound > ub, and
 * either is kept in the dataset cache.  Bounds: the cache's lower bounds for
 * (d', n') ≥ (d, n), the similarity bound T(D_old) − |D_old \ D| against the
 * last two item sets solved at the same depth, the refined bound (the least
 * sum of the children's bounds over all root configurations) and ub + 1 when
 * nothing beats ub.  The child with more leaf errors is solved first, against
 * ub minus the other child's lower bound; features splitting the items as an
 * earlier one did (or its complement) are skipped, and so are degenerate ones. */
#include <stdlib.h>
#include <string.h>

#include "binary_search.h"
#include "bitset.h"

#define SIM_SLOTS 2
#define TICK_EVERY 64u

typedef struct bs_set {
    uint64_t *bits;
    uint32_t *cc; /* items per class */
    uint32_t m, leaf;
    uint64_t hash;
    bc_node *node;
    bool looked_up;
    uint64_t gen;    /* the depth-2 context of the parent (0: none) ... */
    uint32_t via_f;  /* ... and the split that made these items: feature, */
    int via_side;    /* side (1: the feature holds) */
} bs_set;

typedef struct bs_level {
    bs_set l, r;          /* the children of the split being tried */
    uint64_t *seen_hash;  /* partitions already tried at this node (right item set) */
    uint32_t *seen_f;
    size_t seen_cap;
} bs_level;

typedef struct sim_slot {
    uint64_t *bits;
    bc_node *node;
} sim_slot;

struct bs_search {
    const bs_data *data;
    size_t words, nc;
    bc_cache cache;
    d2_solver *d2;
    bs_level **levels;
    size_t n_levels;
    sim_slot *sim; /* SIM_SLOTS per depth */
    size_t sim_depths;
    bool has_deadline, aborted, oom;
    struct timespec deadline;
    uint32_t tick;
    bs_stats stats;
};

/* ------------------------------------------------------------ setup */

pdt_status bs_search_new(bs_search **out, const bs_data *data, size_t cache_bytes, double time_limit,
                         pdt_error *err)
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
    if (time_limit > 0) {
        clock_gettime(CLOCK_MONOTONIC, &s->deadline);
        double whole = (double)(time_t)time_limit;
        s->deadline.tv_sec += (time_t)whole;
        s->deadline.tv_nsec += (long)((time_limit - whole) * 1e9);
        if (s->deadline.tv_nsec >= 1000000000L) s->deadline.tv_sec++, s->deadline.tv_nsec -= 1000000000L;
        s->has_deadline = true;
    }
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
    free(lv);
}

void bs_search_free(bs_search **sp)
{
    if (!sp || !*sp) return;
    bs_search *s = *sp;
    for (size_t k = 0; k < s->n_levels; k++) level_free(s->levels[k]);
    free(s->levels);
    for (size_t k = 0; k < s->sim_depths * SIM_SLOTS; k++) free(s->sim[k].bits);
    free(s->sim);
    bc_clear(&s->cache);
    d2_free(&s->d2);
    free(s);
    *sp = NULL;
}

bool bs_aborted(const bs_search *s) { return s->aborted; }
void bs_clear_deadline(bs_search *s) { s->has_deadline = s->aborted = false; }
const bs_stats *bs_search_stats(const bs_search *s) { return &s->stats; }
d2_solver *bs_search_d2(bs_search *s) { return s->d2; }

static void fail_oom(bs_search *s)
{
    s->oom = s->aborted = true;
}

static bs_level *level_get(bs_search *s, size_t level)
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
    s->levels[level] = lv;
    return lv;
}

static bool tick(bs_search *s)
{
    if (s->aborted) return true;
    if (!s->has_deadline || (++s->tick % TICK_EVERY)) return false;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > s->deadline.tv_sec ||
        (now.tv_sec == s->deadline.tv_sec && now.tv_nsec >= s->deadline.tv_nsec))
        s->aborted = true;
    return s->aborted;
}

/* ------------------------------------------------------------ item sets */

static uint32_t leaf_of(const uint32_t *cc, size_t nc, uint32_t m)
{
    uint32_t best = 0;
    for (size_t c = 0; c < nc; c++)
        if (cc[c] > best) best = cc[c];
    return m - best;
}

/* r = D ∧ f, l = D ∧ ¬f with their sizes, class counts and leaf costs; hashes
 * only when the split is not degenerate. */
static void split(bs_search *s, const bs_set *D, size_t f, bs_set *l, bs_set *r)
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
    r->leaf = leaf_of(r->cc, nc, r->m);
    l->leaf = leaf_of(l->cc, nc, l->m);
    r->hash = bc_hash(rb, W);
    l->hash = bc_hash(lb, W);
}

static void lookup(bs_search *s, bs_set *D)
{
    if (D->looked_up) return;
    D->node = bc_find(&s->cache, D->bits, D->hash, D->m);
    D->looked_up = true;
}

static bc_node *node_of(bs_search *s, bs_set *D)
{
    lookup(s, D);
    if (!D->node) D->node = bc_insert(&s->cache, D->bits, D->hash, D->m);
    return D->node;
}

/* ------------------------------------------------------------ similarity bound */

static sim_slot *sim_at(bs_search *s, uint32_t d)
{
    if (d >= s->sim_depths) {
        size_t n = d + 8;
        sim_slot *p = realloc(s->sim, n * SIM_SLOTS * sizeof *p);
        if (!p) return NULL;
        memset(p + s->sim_depths * SIM_SLOTS, 0, (n - s->sim_depths) * SIM_SLOTS * sizeof *p);
        s->sim = p;
        s->sim_depths = n;
    }
    return s->sim + (size_t)d * SIM_SLOTS;
}

static uint32_t similarity_lb(bs_search *s, const bs_set *D, uint32_t d, uint32_t n)
{
    if (d >= s->sim_depths) return 0;
    const sim_slot *slot = s->sim + (size_t)d * SIM_SLOTS;
    const size_t W = s->words;
    uint32_t best = 0;
    for (size_t k = 0; k < SIM_SLOTS; k++) {
        if (!slot[k].node) continue;
        uint32_t v = bc_lower(slot[k].node, d, n);
        if (v <= best) continue;
        uint32_t out = 0;
        for (size_t w = 0; w < W && out < v; w++)
            out += (uint32_t)__builtin_popcountll(slot[k].bits[w] & ~D->bits[w]);
        if (v > out && v - out > best) best = v - out;
    }
    return best;
}

/* D was solved at depth d: it replaces the more similar of the two slots. */
static void sim_push(bs_search *s, const bs_set *D, uint32_t d)
{
    if (!D->node) return;
    sim_slot *slot = sim_at(s, d);
    if (!slot) return;
    const size_t W = s->words;
    size_t at = 0;
    if (slot[0].node && !slot[1].node) {
        at = 1;
    } else if (slot[0].node) {
        uint32_t diff[2] = {0, 0};
        for (size_t k = 0; k < 2; k++)
            for (size_t w = 0; w < W; w++)
                diff[k] += (uint32_t)__builtin_popcountll(slot[k].bits[w] ^ D->bits[w]);
        at = diff[1] < diff[0];
    }
    if (!slot[at].bits && !(slot[at].bits = malloc(W * sizeof *slot[at].bits))) return;
    memcpy(slot[at].bits, D->bits, W * sizeof *D->bits);
    slot[at].node = D->node;
}

/* ------------------------------------------------------------ bounds */

/* The best lower bound known for (D, d, n) without searching. */
static uint32_t lower_of(bs_search *s, bs_set *D, uint32_t d, uint32_t n)
{
    bs_normalise(&d, &n);
    if (d == 0) return D->leaf;
    if (D->leaf == 0) return 0;
    lookup(s, D);
    uint32_t lb = D->node ? bc_lower(D->node, d, n) : 0;
    uint32_t sim = similarity_lb(s, D, d, n);
    if (sim > lb) lb = sim;
    return lb < D->leaf ? lb : D->leaf;
}

/* ------------------------------------------------------------ depth ≤ 2 */

static void d2_result(bs_out *o, const bs_set *D, const bc_node *nd, uint32_t d, uint32_t n, int64_t ub)
{
    uint32_t v = d == 1 ? nd->d2[0] : nd->d2[n - 1];
    o->lb = v;
    if ((int64_t)v > ub) return;
    o->cost = v;
    if (v == D->leaf) return; /* the leaf: feature BS_NONE, size 0 */
    uint32_t k = 1;
    while (k < n && nd->d2[k - 1] != v) k++;
    o->feature = BS_D2;
    o->nl = k;
    o->size = k;
    o->depth = k == 1 ? 1 : 2;
}

static void solve_small(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub)
{
    bc_node *nd = node_of(s, D), local = {.d2 = {BS_NONE, BS_NONE, BS_NONE}};
    if (!nd) nd = &local; /* the cache is full: solve anyway, keep nothing */
    if (d == 1) {
        nd->d2[0] = d1_value(s->d2, D->bits, D->m);
        s->stats.d1_calls++;
    } else {
        d2_values_in(s->d2, D->bits, D->m, D->gen, D->via_f, D->via_side, nd->d2);
        s->stats.d2_calls++;
    }
    d2_result(o, D, nd, d, n, ub);
    if (nd != &local) sim_push(s, D, d);
    tick(s);
}

/* ------------------------------------------------------------ the general case */

static void solve(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub, size_t level);

/* One root configuration: children l, r with nl, nr nodes at depth dch.
 * True with the tree's cost and shape when it costs ≤ cub; else *local is a
 * lower bound on every tree of this configuration. */
static bool configuration(bs_search *s, bs_level *lv, uint32_t dch, uint32_t nl, uint32_t nr,
                          int64_t cub, size_t level, bs_out *res, uint64_t *local)
{
    bs_set *first = &lv->l, *second = &lv->r;
    uint32_t n1 = nl, n2 = nr;
    if (lv->r.leaf > lv->l.leaf) { /* dynamic order: more leaf errors first */
        first = &lv->r, second = &lv->l;
        n1 = nr, n2 = nl;
    }
    uint32_t lb1 = lower_of(s, first, dch, n1), lb2 = lower_of(s, second, dch, n2);
    if ((int64_t)lb1 + lb2 > cub) {
        *local = (uint64_t)lb1 + lb2;
        s->stats.pruned++;
        return false;
    }
    bs_out o1, o2;
    solve(s, &o1, first, dch, n1, cub - lb2, level + 1);
    if (s->aborted) return false;
    if (o1.cost == BS_NONE) {
        *local = (uint64_t)(o1.lb > lb1 ? o1.lb : lb1) + lb2;
        return false;
    }
    solve(s, &o2, second, dch, n2, cub - o1.cost, level + 1);
    if (s->aborted) return false;
    if (o2.cost == BS_NONE) {
        *local = (uint64_t)o1.cost + (o2.lb > lb2 ? o2.lb : lb2);
        return false;
    }
    res->cost = o1.cost + o2.cost;
    res->size = 1 + o1.size + o2.size;
    res->depth = 1 + (o1.depth > o2.depth ? o1.depth : o2.depth);
    return true;
}

/* True when the split of D by f equals (or complements) one tried before at this node. */
static bool tried_before(bs_search *s, bs_level *lv, const bs_set *D, uint32_t f)
{
    const size_t W = s->words, mask = lv->seen_cap - 1;
    const uint64_t hr = lv->r.hash | 1, hl = lv->l.hash | 1;
    for (int side = 0; side < 2; side++) {
        uint64_t h = side ? hl : hr;
        const uint64_t *want = side ? lv->l.bits : lv->r.bits;
        for (size_t p = (size_t)h & mask; lv->seen_hash[p]; p = (p + 1) & mask) {
            if (lv->seen_hash[p] != h) continue;
            const uint64_t *col = s->data->cols + (size_t)lv->seen_f[p] * W;
            bool same = true;
            for (size_t k = 0; k < W && same; k++) same = (D->bits[k] & col[k]) == want[k];
            if (same) return true;
        }
    }
    size_t p = (size_t)hr & mask;
    while (lv->seen_hash[p]) p = (p + 1) & mask;
    lv->seen_hash[p] = hr;
    lv->seen_f[p] = f;
    return false;
}

/* The incumbent before the search: the leaf, or the depth-2 tree when known. */
static void incumbent(bs_out *best, const bs_set *D, uint32_t n)
{
    *best = (bs_out){.cost = D->leaf, .feature = BS_NONE};
    const bc_node *nd = D->node;
    if (!nd || nd->d2[1] == BS_NONE) return;
    uint32_t k = n < 3 ? n : 3, v = nd->d2[k - 1];
    if (v >= D->leaf) return;
    uint32_t j = 1;
    while (j < k && nd->d2[j - 1] != v) j++;
    *best = (bs_out){.cost = v, .feature = BS_D2, .nl = j, .size = j, .depth = j == 1 ? 1 : 2};
}

static void general(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub,
                    uint32_t lb, size_t level)
{
    bs_level *lv = level_get(s, level);
    if (!lv) return fail_oom(s);
    bs_out best;
    incumbent(&best, D, n);
    bool have = (int64_t)best.cost <= ub;
    const uint32_t dch = d - 1, nmax = bs_cap(dch) < n - 1 ? bs_cap(dch) : n - 1, nmin = n - 1 - nmax;
    uint64_t rlb = UINT64_MAX;
    memset(lv->seen_hash, 0, lv->seen_cap * sizeof *lv->seen_hash);
    lv->l.gen = lv->r.gen = d == 3 ? d2_context_enter(s->d2, D->bits, D->m) : 0;
    for (uint32_t f = 0; f < s->data->nf && !s->aborted; f++) {
        if (have && best.cost <= lb) break; /* the bound is reached: optimal */
        if (tick(s)) break;
        split(s, D, f, &lv->l, &lv->r);
        if (lv->l.m == 0 || lv->r.m == 0 || tried_before(s, lv, D, f)) continue;
        for (uint32_t nl = nmin; nl <= nmax && !s->aborted; nl++) {
            int64_t cub = have && (int64_t)best.cost - 1 < ub ? (int64_t)best.cost - 1 : ub;
            bs_out res;
            uint64_t local = 0;
            if (configuration(s, lv, dch, nl, n - 1 - nl, cub, level, &res, &local)) {
                best = (bs_out){.cost = res.cost, .feature = f, .nl = nl, .size = res.size, .depth = res.depth};
                have = true;
            } else if (local < rlb) {
                rlb = local;
            }
        }
    }
    o->d = d, o->n = n;
    if (s->aborted) { /* the best so far, for the anytime answer at the root; nothing is kept */
        if (have) o->cost = best.cost, o->feature = best.feature, o->nl = best.nl, o->size = best.size,
                  o->depth = best.depth;
        return;
    }
    if (have) {
        o->cost = o->lb = best.cost;
        o->feature = best.feature, o->nl = best.nl, o->size = best.size, o->depth = best.depth;
        bc_entry e = {d, n, best.cost, best.cost, best.feature, best.nl, best.size, best.depth};
        bc_store_optimum(&s->cache, node_of(s, D), &e);
    } else {
        uint64_t L = (uint64_t)ub + 1 > lb ? (uint64_t)ub + 1 : lb;
        if (rlb != UINT64_MAX && rlb > L) L = rlb;
        o->lb = L > D->leaf ? D->leaf : (uint32_t)L;
        bc_store_lower(&s->cache, node_of(s, D), d, n, o->lb);
    }
    sim_push(s, D, d);
}

static void solve(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub, size_t level)
{
    bs_normalise(&d, &n);
    *o = (bs_out){.cost = BS_NONE, .feature = BS_NONE, .d = d, .n = n};
    if (d == 0 || D->leaf == 0) { /* the leaf is optimal */
        o->lb = D->leaf;
        if ((int64_t)D->leaf <= ub) o->cost = D->leaf;
        return;
    }
    if (ub < 0 || s->aborted) return;
    s->stats.nodes++;
    lookup(s, D);
    uint32_t lb = 0;
    if (D->node) {
        const bc_node *nd = D->node;
        if ((d == 1 && nd->d2[0] != BS_NONE) || (d == 2 && nd->d2[1] != BS_NONE)) {
            s->stats.cache_hits++;
            return d2_result(o, D, nd, d, n, ub);
        }
        const bc_entry *e = d >= 3 ? bc_optimum(nd, d, n) : NULL;
        if (e) {
            s->stats.cache_hits++;
            o->lb = e->opt;
            if ((int64_t)e->opt <= ub)
                *o = (bs_out){e->opt, e->opt, e->size, e->depth, e->feature, e->nl, e->d, e->n};
            return;
        }
        lb = bc_lower(nd, d, n);
    }
    uint32_t sim = similarity_lb(s, D, d, n);
    if (sim > lb) lb = sim;
    if (lb >= D->leaf) { /* no tree beats the leaf */
        o->lb = D->leaf;
        if ((int64_t)D->leaf <= ub) o->cost = D->leaf;
        return;
    }
    if ((int64_t)lb > ub) {
        o->lb = lb;
        s->stats.pruned++;
        if (D->node && d >= 3) bc_store_lower(&s->cache, D->node, d, n, lb);
        return;
    }
    if (d <= 2) return solve_small(s, o, D, d, n, ub);
    general(s, o, D, d, n, ub, lb, level);
}

void bs_solve_items(bs_search *s, bs_out *o, const uint64_t *items, uint32_t d, uint32_t n, int64_t ub)
{
    uint32_t *cc = malloc(s->nc * sizeof *cc);
    if (!cc) {
        *o = (bs_out){.cost = BS_NONE, .feature = BS_NONE};
        return fail_oom(s);
    }
    bs_set D = {.bits = (uint64_t *)items, .cc = cc}; /* gen 0: no context */
    for (size_t c = 0; c < s->nc; c++) {
        cc[c] = pdt_bits_and_count(items, s->data->cls + c * s->words, s->words);
        D.m += cc[c];
    }
    D.leaf = leaf_of(cc, s->nc, D.m);
    D.hash = bc_hash(items, s->words);
    solve(s, o, &D, d, n, ub, 0);
    free(cc);
}

bool bs_out_of_memory(const bs_search *s) { return s->oom; }
