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

#include "binary_solver.h"
#include "bitset.h"

/* ------------------------------------------------------------ depth ≤ 2 */

static void d2_result(bs_search *s, bs_out *o, const bc_node *nd, uint32_t d, uint32_t n, int64_t ub)
{
    uint32_t errors, k = bc_d2_size(nd, d, n, &errors);
    bs_value v = (bs_value)errors * s->unit + (bs_value)k * s->per_node;
    o->lb = v;
    if (v > (bs_value)ub) return;
    o->cost = v;
    if (k == 0) return; /* the leaf: feature BS_NONE, size 0 */
    o->feature = BS_D2;
    o->nl = k;
    o->size = k;
    o->depth = k == 1 ? 1 : 2;
}

/* Lexicographic values at depth 2: the best stump (single counts, cheap) first.
 * A stump with no error is optimal (every d2 value is 0); otherwise every tree
 * is the leaf, the stump, or has ≥ 2 nodes and ≥ lb's errors.  True when
 * that settles the subproblem (its bound exceeds ub, or the stump is optimal). */
static bool stump_first(bs_search *s, bs_out *o, bs_set *D, bc_node *nd, uint32_t n, int64_t ub, bs_value lb)
{
    if (nd->d2[0] == BS_NONE) {
        nd->d2[0] = d1_value(s->d2, D->bits, D->m);
        s->stats.d1_calls++;
    }
    const bs_value u = s->unit, v1 = (bs_value)nd->d2[0] * u + 1, leaf = bs_leaf_value(s, D);
    if (nd->d2[0] == 0) {
        nd->d2[1] = nd->d2[2] = 0;
        d2_result(s, o, nd, 2, n, ub);
        return true;
    }
    bs_value two = (lb / u) * u + 2, any = leaf < v1 ? leaf : v1;
    if (two < lb) two = lb;
    if (two < any) any = two;
    if (any < lb) any = lb;
    if ((int64_t)any <= ub) return false;
    o->lb = any;
    s->stats.pruned++;
    return true;
}

static void solve_small(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub, bs_value lb)
{
    bc_node *nd = bs_node_of(s, D), local = {.leaf = D->leaf, .d2 = {BS_NONE, BS_NONE, BS_NONE}};
    if (!nd) nd = &local; /* the cache is full: solve anyway, keep nothing */
    if (d == 2 && s->proven && stump_first(s, o, D, nd, n, ub, lb)) return;
    if (d == 1) {
        nd->d2[0] = d1_value_in(s->d2, D->bits, D->m, D->gen, D->via_f, D->via_side);
        s->stats.d1_calls++;
    } else {
        d2_values_in(s->d2, D->bits, D->m, D->gen, D->via_f, D->via_side, nd->d2);
        s->stats.d2_calls++;
    }
    d2_result(s, o, nd, d, n, ub);
    if (nd != &local) bs_sim_push(s, D, d);
    bs_tick(s);
}

/* ------------------------------------------------------------ the general case */

static void solve(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub, size_t level);

/* Lexicographic, two classes: the fewest nodes of an errorless tree of D
 * within depth d, up to k ≤ 3 (binary_perfect.c), kept as a lower bound: no
 * errorless tree of fewer than L nodes within depth d means no value below
 * min(L, unit) for every smaller depth (for every depth when L − 1 ≤ d: such
 * trees are at most L − 1 deep).  *depth as bp_least's. */
static void errorless_keep(bs_search *s, bs_set *D, uint32_t d, uint32_t k, uint32_t least, uint32_t depth)
{
    const bs_value v = (bs_value)least < s->unit ? (bs_value)least : s->unit;
    bc_node *nd = bs_node_of(s, D);
    if (depth && depth <= 2 && least <= k) { /* the least at every depth ≥ 2 (smaller trees are ≤ 2 deep) */
        bc_entry e = {UINT32_MAX, UINT32_MAX, least, least, BS_D2, least, least, depth};
        bc_store_optimum(&s->cache, nd, &e);
    } else if (v > 0) {
        bc_store_lower(&s->cache, nd, least - 1 <= d ? UINT32_MAX : d, UINT32_MAX, v);
    }
}

static uint32_t errorless_least(bs_search *s, bs_set *D, uint32_t d, uint32_t k, uint32_t *depth)
{
    const uint32_t least = bp_least(s, D->bits, D->m, d, k, depth);
    errorless_keep(s, D, d, k, least, *depth);
    return least;
}

/* Lexicographic with ub below one error: only trees with no error and at most
 * ub nodes are within the bound, and with at most three of them (or depth ≤ 2,
 * where every tree has ≤ 3) errorless_least decides.  True when that settles
 * the subproblem: none exists (bound ub + 1), or the least is a tree of depth
 * ≤ 2 (the depth-2 solver rebuilds it).  Otherwise *lb is raised. */
static bool errorless_small(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub, bs_value *lb)
{
    if (!s->proven || !s->bp_rows || (bs_value)ub >= s->unit || D->m < s->bp_min_items) return false;
    const uint32_t most = (uint32_t)ub < n ? (uint32_t)ub : n, k = most < 3 ? most : 3;
    if (k < most && d > 2) return false; /* more than 3 nodes: the search decides */
    uint32_t depth, least = errorless_least(s, D, d, k, &depth);
    if (least > k) { /* no errorless tree within the limits and ub */
        s->stats.pruned++;
        o->lb = (bs_value)ub + 1 > *lb ? (bs_value)ub + 1 : *lb;
        bc_store_lower(&s->cache, bs_node_of(s, D), d, n, o->lb);
        return true;
    }
    if (least <= k && depth && depth <= 2) { /* the least errorless tree: the optimum (kept) */
        o->cost = o->lb = least;
        o->feature = BS_D2, o->nl = o->size = least, o->depth = depth;
        return true;
    }
    if (least > *lb) *lb = least;
    return false;
}

/* Lexicographic: what the child's own small trees say about its size, before
 * it is searched — the best stump for a depth-2 child (single counts), the
 * depth-2 optima for a deeper one (which its search needs anyway). */
static void child_floor(bs_search *s, bs_level *lv, bs_set *C, uint32_t dch, uint32_t nch, int64_t cub,
                        bs_value other)
{
    if (C->leaf == 0 || C->m == 0) return;
    bc_node *nd = bs_node_of(s, C);
    if (!nd) return;
    if (s->bp_rows && (bs_value)cub < s->unit && C->m >= s->bp_min_items) { /* only errorless trees count */
        /* enough to cut the configuration: more than cub − 1 − other nodes */
        const bs_value want = (bs_value)cub - other; /* cub ≥ other + 1 */
        uint32_t depth;
        if (want <= 4) {
            uint32_t d = dch, n = nch;
            bs_normalise(&d, &n);
            if (bs_lower_of(s, C, d, n) >= want || bc_optimum(nd, d, n)) return; /* known */
            bp_parent *p = &lv->sample;
            if (!p->c) {
                p->c = malloc(s->data->nf * sizeof *p->c);
                p->uc = malloc(s->data->nf * sizeof *p->uc);
                p->ufid = malloc(s->data->nf * sizeof *p->ufid);
            }
            if (!p->ready && p->c && p->uc && p->ufid) bp_parent_build(s, p, lv->node->bits, lv->node->m);
            const uint32_t k = (uint32_t)want - 1;
            const uint32_t least = lv->sample.ready
                ? bp_least_in(s, &lv->sample, C->via_f, C->via_side, C->bits, C->m, d, k, &depth)
                : bp_least(s, C->bits, C->m, d, k, &depth);
            errorless_keep(s, C, d, k, least, depth);
        }
        return; /* else a floor of ≤ 4 nodes cannot cut it */
    }
    if (dch >= 3 && nd->d2[1] == BS_NONE) {
        d2_values(s->d2, C->bits, C->m, nd->d2);
        s->stats.d2_calls++;
    } else if (nd->d2[0] == BS_NONE) {
        nd->d2[0] = d1_value(s->d2, C->bits, C->m);
        s->stats.d1_calls++;
        if (nd->d2[0] == 0) nd->d2[1] = nd->d2[2] = 0;
    }
}

/* Lexicographic below one error: the witnesses' bounds (a bit test), then
 * with the cache's (a lookup), before the similarity bound (a scan of the
 * old sets), which is only needed when they do not cut the configuration.
 * True with *local when they do. */
static bool cheap_cut(bs_search *s, bs_set *a, bs_set *b, uint32_t dch, uint32_t na, uint32_t nb, int64_t cub,
                      bs_value *local)
{
    bs_value v = bs_lower_witness(s, a, dch, na) + bs_lower_witness(s, b, dch, nb) + s->per_node;
    if ((int64_t)v <= cub) v = bs_lower_cheap(s, a, dch, na) + bs_lower_cheap(s, b, dch, nb) + s->per_node;
    if ((int64_t)v <= cub) return false;
    *local = v;
    s->stats.pruned++;
    return true;
}

/* One root configuration: children l, r with nl, nr nodes at depth dch.
 * True with the tree's value and shape when it is ≤ cub; else *local is a
 * lower bound on every tree of this configuration. */
static bool configuration(bs_search *s, bs_level *lv, uint32_t dch, uint32_t nl, uint32_t nr,
                          int64_t cub, size_t level, bs_out *res, bs_value *local)
{
    bs_set *first = &lv->l, *second = &lv->r;
    uint32_t n1 = nl, n2 = nr;
    const bs_value pn = s->per_node;
    s->stats.configs++;
    if (lv->r.leaf > lv->l.leaf) { /* dynamic order: more leaf errors first */
        first = &lv->r, second = &lv->l;
        n1 = nr, n2 = nl;
    }
    if (s->errorless_root && cub < (int64_t)s->unit && cheap_cut(s, first, second, dch, n1, n2, cub, local))
        return false;
    bs_value lb1 = bs_lower_of(s, first, dch, n1), lb2 = bs_lower_of(s, second, dch, n2);
    if (s->proven && (int64_t)(lb1 + lb2 + pn) <= cub) {
        child_floor(s, lv, first, dch, n1, cub, lb2);
        lb1 = bs_lower_of(s, first, dch, n1);
        if ((int64_t)(lb1 + lb2 + pn) <= cub) child_floor(s, lv, second, dch, n2, cub, lb1);
        lb2 = bs_lower_of(s, second, dch, n2);
    }
    if ((int64_t)(lb1 + lb2 + pn) > cub) {
        *local = lb1 + lb2 + pn;
        s->stats.pruned++;
        return false;
    }
    bs_out o1, o2;
    solve(s, &o1, first, dch, n1, cub - (int64_t)(lb2 + pn), level + 1);
    if (s->aborted) return false;
    if (o1.cost == BS_VNONE) {
        *local = (o1.lb > lb1 ? o1.lb : lb1) + lb2 + pn;
        return false;
    }
    solve(s, &o2, second, dch, n2, cub - (int64_t)(o1.cost + pn), level + 1);
    if (s->aborted) return false;
    if (o2.cost == BS_VNONE) {
        *local = o1.cost + (o2.lb > lb2 ? o2.lb : lb2) + pn;
        return false;
    }
    res->cost = o1.cost + o2.cost + pn;
    res->left = first == &lv->l ? o1.cost : o2.cost;
    res->has_left = true;
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
static void incumbent(const bs_search *s, bs_out *best, const bs_set *D, uint32_t n)
{
    *best = (bs_out){.cost = bs_leaf_value(s, D), .feature = BS_NONE};
    const bc_node *nd = D->node;
    if (!nd || nd->d2[1] == BS_NONE) return;
    uint32_t errors, j = bc_d2_size(nd, 2, n < 3 ? n : 3, &errors);
    if (j == 0) return;
    *best = (bs_out){.cost = (bs_value)errors * s->unit + (bs_value)j * s->per_node, .feature = BS_D2,
                     .nl = j, .size = j, .depth = j == 1 ? 1 : 2};
}

/* Lexicographic, errorless: a tree with no error and fewer than v nodes has
 * depth < v, so when v − 1 ≤ d (≤ n) and none lies within (d, n), none exists
 * at any depth and size: v bounds every limit of D (stored under the largest). */
static void errorless_bound(bs_search *s, bs_set *D, uint32_t d, bs_value v)
{
    if (s->proven && v > 0 && v < s->unit && v - 1 <= d && D->node)
        bc_store_lower(&s->cache, D->node, UINT32_MAX, UINT32_MAX, v);
}

static void general(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub,
                    bs_value lb, size_t level)
{
    bs_level *lv = bs_level_get(s, level);
    if (!lv) return bs_fail_oom(s);
    bc_node *nd = bs_node_of(s, D);
    const bool errorless = s->bp_rows && (bs_value)ub < s->unit && D->m >= s->bp_min_items;
    if (s->proven && nd && nd->d2[1] == BS_NONE && !errorless) {
        /* lexicographic: the depth-2 optima give the incumbent and the fewest nodes
         * a tree with the bound's errors needs (the search stops when reached);
         * below one error, on many items, the errorless test is cheaper */
        d2_values(s->d2, D->bits, D->m, nd->d2);
        s->stats.d2_calls++;
        lb = bc_size_floor(lb, D->leaf, nd->d2, n, s->unit);
        if (lb >= bs_leaf_value(s, D)) lb = bs_leaf_value(s, D);
    }
    bs_out best;
    incumbent(s, &best, D, n);
    bool have = (int64_t)best.cost <= ub;
    if (level == 0) s->root_best = best.cost;
    const uint32_t dch = d - 1, nmax = bs_cap(dch) < n - 1 ? bs_cap(dch) : n - 1, nmin = n - 1 - nmax;
    bs_value rlb = BS_VNONE;
    memset(lv->seen_hash, 0, lv->seen_cap * sizeof *lv->seen_hash);
    lv->node = D;
    lv->sample.ready = false;
    lv->wit_ready = false;
    lv->wit_dch = d - 1;
    lv->l.gen = lv->r.gen = d2_context_enter_child(s->d2, D->bits, D->m, d, D->gen, D->via_f, D->via_side);
    for (uint32_t f = 0; f < s->data->nf && !s->aborted; f++) {
        if (have && (best.cost <= lb || (!s->proven && best.cost / s->unit <= lb / s->unit)))
            break; /* the bound is reached: optimal (in errors only, unless the size is to be proven) */
        if (bs_tick(s)) break;
        bs_value cut;
        const int64_t cub0 = have && (int64_t)best.cost - 1 < ub ? (int64_t)best.cost - 1 : ub;
        if (bw_feature_cut(s, lv, f, n - 1, nmin, nmax, cub0, &cut)) { /* no split needed */
            if (cut < rlb) rlb = cut;
            continue;
        }
        bs_split(s, D, f, &lv->l, &lv->r);
        if (lv->l.m == 0 || lv->r.m == 0 || tried_before(s, lv, D, f)) continue;
        for (uint32_t nl = nmin; nl <= nmax && !s->aborted; nl++) {
            int64_t cub = have && (int64_t)best.cost - 1 < ub ? (int64_t)best.cost - 1 : ub;
            bs_out res;
            bs_value local = 0;
            if (configuration(s, lv, dch, nl, n - 1 - nl, cub, level, &res, &local)) {
                best = (bs_out){.cost = res.cost, .feature = f, .nl = nl, .size = res.size, .depth = res.depth};
                have = true;
                if (level == 0) s->root_best = best.cost;
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
        bc_store_optimum(&s->cache, bs_node_of(s, D), &e);
        errorless_bound(s, D, d, best.cost);
    } else {
        bs_value L = (bs_value)ub + 1 > lb ? (bs_value)ub + 1 : lb, leaf = bs_leaf_value(s, D);
        if (rlb != BS_VNONE && rlb > L) L = rlb;
        o->lb = L > leaf ? leaf : L;
        bc_store_lower(&s->cache, bs_node_of(s, D), d, n, o->lb);
        if ((bs_value)ub + 1 <= o->lb) errorless_bound(s, D, d, (bs_value)ub + 1);
    }
    bs_sim_push(s, D, d);
}

static void solve(bs_search *s, bs_out *o, bs_set *D, uint32_t d, uint32_t n, int64_t ub, size_t level)
{
    bs_normalise(&d, &n);
    *o = (bs_out){.cost = BS_VNONE, .feature = BS_NONE, .d = d, .n = n};
    const bs_value leaf = bs_leaf_value(s, D);
    if (d == 0 || D->leaf == 0) { /* the leaf is optimal */
        o->lb = leaf;
        if ((int64_t)leaf <= ub) o->cost = leaf;
        return;
    }
    if (ub < 0 || s->aborted) return;
    s->stats.nodes++;
    bs_lookup(s, D);
    bs_value lb = 0;
    if (D->node) {
        const bc_node *nd = D->node;
        if ((d == 1 && nd->d2[0] != BS_NONE) || (d == 2 && nd->d2[1] != BS_NONE)) {
            s->stats.cache_hits++;
            return d2_result(s, o, nd, d, n, ub);
        }
        const bc_entry *e = d >= 3 ? bc_optimum(nd, d, n) : NULL;
        if (e) {
            s->stats.cache_hits++;
            o->lb = e->opt;
            if ((int64_t)e->opt <= ub)
                *o = (bs_out){e->opt, e->opt, e->size, e->depth, e->feature, e->nl, e->d, e->n, 0, false};
            return;
        }
        lb = bs_node_lower(s, nd, d, n);
    }
    bs_value sim = bs_similarity_lb(s, D, d, n), wit = bw_lower(s, D, d, n);
    if (sim > lb) lb = sim;
    if (wit > lb) lb = wit;
    if (s->per_node) lb = bc_size_floor(lb, D->leaf, D->node ? D->node->d2 : NULL, n, s->unit);
    if (lb >= leaf) { /* no tree beats the leaf */
        o->lb = leaf;
        if ((int64_t)leaf <= ub) o->cost = leaf;
        return;
    }
    if ((int64_t)lb > ub) {
        o->lb = lb;
        s->stats.pruned++;
        if (D->node && d >= 3) bc_store_lower(&s->cache, D->node, d, n, lb);
        return;
    }
    if (errorless_small(s, o, D, d, n, ub, &lb)) return;
    if (d <= 2) return solve_small(s, o, D, d, n, ub, lb);
    general(s, o, D, d, n, ub, lb, level);
}

void bs_solve_items(bs_search *s, bs_out *o, const uint64_t *items, uint32_t d, uint32_t n, int64_t ub)
{
    uint32_t *cc = malloc(s->nc * sizeof *cc);
    if (!cc) {
        *o = (bs_out){.cost = BS_VNONE, .feature = BS_NONE};
        return bs_fail_oom(s);
    }
    bs_set D = {.bits = (uint64_t *)items, .cc = cc}; /* gen 0: no context */
    for (size_t c = 0; c < s->nc; c++) {
        cc[c] = pdt_bits_and_count(items, s->data->cls + c * s->words, s->words);
        D.m += cc[c];
    }
    D.leaf = bs_leaf_of(cc, s->nc, D.m);
    D.hash = bc_hash(items, s->words);
    solve(s, o, &D, d, n, ub, 0);
    free(cc);
}

/* One configuration of a root whose children are in level 0's l and r (the
 * threaded root loop, binary_threads.c): as the general case tries it. */
bool bs_root_configuration(bs_search *s, uint32_t dch, uint32_t nl, uint32_t nr, int64_t cub, bs_out *res,
                           bs_value *local)
{
    return configuration(s, s->levels[0], dch, nl, nr, cub, 0, res, local);
}
