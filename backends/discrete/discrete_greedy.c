/* The branch search's first incumbent: a greedy tree, pruned exactly.
 *
 * The tree is grown as C4.5 grows it — each node split on the feature of
 * least entropy left in its children (ties: the smaller feature), one child
 * per code present — until a node is pure, no feature splits it, or the depth
 * limit; then cut back, bottom-up, to its cheapest subtree for the search's
 * costs: a node stays split only when split_cost plus its children's pruned
 * costs is below its leaf's (an exact integer comparison; entropy only
 * chooses the features).  That is the least cost of any subtree of the grown
 * tree, found in one pass.  The same again with the Gini impurity (as CART),
 * and the cheaper of the two is kept: neither is always better (with
 * scikit-learn's trees, pruned so, at λ = 0.001: kr-vs-kp one-hot 0.02626 by
 * entropy and 0.03114 by Gini; nursery one-hot 0.09278 and 0.09201).
 *
 * Why: on the rows whose optima are deep, the shallow warm searches and the
 * deeper ones within the full search leave a poor incumbent for a long time.
 * kr-vs-kp one-hot at λ = 0.001 answered 0.03534 at 10 s, 40 % above its
 * optimum 0.02526 (20 errors, 19 nodes, depth 12, proven in 269 s); this
 * tree costs 0.02626 (20 errors, 20 nodes) at once.  A tree, never a bound:
 * the search still proves what it proves.
 *
 * Its work is capped (DC_GREEDY_WORK codes read): past it, nodes not yet
 * grown stay leaves, and the tree is still a tree of the problem. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "discrete_impl.h"

#define DC_GREEDY_WORK ((uint64_t)50 * 1000 * 1000)

typedef struct greedy {
    dc_search *s;
    bool gini;       /* the Gini impurity left, not the entropy */
    dc_result *r;
    size_t cap;
    uint32_t *cell;  /* 3 * maxk: dc_count_codes's rows, errors and unavoidable errors by code */
    uint64_t work;
    pdt_error *err;
} greedy;

static double xlogx(uint32_t x) { return x ? (double)x * log((double)x) : 0.0; }

/* The feature of least entropy (or Gini impurity) in its children among
 * those with two codes or more present in items, or DC_LEAF. */
static uint32_t choose(greedy *g, const uint32_t *items, size_t len)
{
    const dc_problem *p = g->s->p;
    const size_t nc = p->nc;
    uint32_t best_f = DC_LEAF;
    double best = 0;
    const size_t maxk = g->s->maxk;
    for (size_t f = 0; f < p->nf; f++) {
        const size_t kf = p->k[f];
        /* rows by code and class (s->pcount[v * nc + c]), by items: no frame holds this node */
        uint32_t *m = g->cell;
        if (dc_count_codes(g->s, NULL, false, (uint32_t)f, items, len, m, m + maxk, m + 2 * maxk) < 2) continue;
        const uint32_t *count = g->s->pcount;
        double h = 0; /* N·(entropy left): Σ_v n_v log n_v − Σ_v,c n_vc log n_vc; or N·(Gini
                         impurity left): Σ_v (n_v − Σ_c n_vc² / n_v) */
        for (size_t v = 0; v < kf; v++) {
            const uint32_t nv = m[v];
            double sq = 0;
            for (size_t c = 0; nv && c < nc; c++) {
                const uint32_t x = count[v * nc + c];
                if (g->gini) sq += (double)x * x;
                else h -= xlogx(x);
            }
            if (nv) h += g->gini ? nv - sq / nv : xlogx(nv);
        }
        if (best_f == DC_LEAF || h < best) best = h, best_f = (uint32_t)f;
    }
    g->work += (uint64_t)len * p->nf;
    return best_f;
}

static pdt_status reserve(greedy *g, size_t need)
{
    return dc_result_reserve(g->r, &g->cap, need, g->s->p->nc, g->err);
}

/* Grows and prunes node `at` (allocated) for items (the node's own copy,
 * reordered here); *cost its pruned subtree's cost.  A pruned node's
 * descendants are the nodes after its children's block: cut by n_nodes. */
static pdt_status grow(greedy *g, size_t at, uint32_t *items, size_t len, size_t depth, int64_t *cost)
{
    const dc_problem *p = g->s->p;
    const size_t nc = p->nc;
    dc_result *r = g->r;
    const dc_stats st0 = dc_region_stats(g->s, items, len); /* (class counts in s->ccount) */
    for (size_t c = 0; c < nc; c++) r->counts[at * nc + c] = g->s->ccount[c];
    r->nodes[at] = (dc_node){.feature = DC_LEAF, .label = st0.label, .code = r->nodes[at].code, .n_items = len,
                             .errors = st0.errors};
    const int64_t leaf = (int64_t)st0.errors * p->err_cost;
    *cost = leaf;
    /* no split pays when the errors are unavoidable or cost less than a node */
    if (st0.errors == st0.floor || (p->max_depth != PDT_UNLIMITED && depth >= p->max_depth) ||
        g->work >= DC_GREEDY_WORK || leaf <= p->split_cost)
        return PDT_OK;
    const uint32_t f = choose(g, items, len);
    if (f == DC_LEAF) return PDT_OK;
    uint32_t *part = malloc(len * sizeof *part), *start = malloc((g->s->maxk + 1) * sizeof *start);
    pdt_status st = part && start ? PDT_OK : pdt_error_set(g->err, PDT_ENOMEM, "out of memory (the greedy tree)");
    size_t present = 0;
    if (!st) {
        dc_partition(g->s, f, items, len, NULL, part, start);
        for (size_t v = 0; v < p->k[f]; v++) present += start[v + 1] > start[v];
        st = reserve(g, present);
    }
    const size_t first = r->n_nodes;
    int64_t split = p->split_cost;
    if (!st) {
        r->n_nodes += present;
        for (size_t v = 0, k = 0; v < p->k[f]; v++)
            if (start[v + 1] > start[v]) r->nodes[first + k++].code = (uint16_t)v;
    }
    for (size_t v = 0, k = 0; !st && v < p->k[f]; v++) {
        if (start[v + 1] == start[v]) continue;
        int64_t c;
        st = grow(g, first + k++, part + start[v], start[v + 1] - start[v], depth + 1, &c);
        split += c;
    }
    free(part);
    free(start);
    if (st) return st;
    if (split < leaf) {
        r->nodes[at].feature = f;
        r->nodes[at].first = (uint32_t)first;
        r->nodes[at].n_children = (uint32_t)present;
        *cost = split;
    } else {
        r->n_nodes = first; /* its children's block and everything grown under it */
    }
    return PDT_OK;
}

/* The tree grown by one criterion and pruned, into r. */
static pdt_status greedy_tree(dc_search *s, bool gini, uint32_t *items, uint32_t *cell, dc_result *r, pdt_error *err)
{
    const dc_problem *p = s->p;
    memset(r, 0, sizeof *r);
    greedy g = {.s = s, .gini = gini, .r = r, .cell = cell, .err = err};
    int64_t cost = 0;
    pdt_status st = reserve(&g, 1);
    if (!st) {
        for (size_t i = 0; i < p->n; i++) items[i] = (uint32_t)i;
        r->n_nodes = 1;
        r->nodes[0].code = 0;
        st = grow(&g, 0, items, p->n, 0, &cost);
    }
    if (st) {
        dc_result_clear(r);
        return st;
    }
    for (size_t t = 0; t < r->n_nodes; t++) {
        if (r->nodes[t].feature == DC_LEAF) r->errors += r->nodes[t].errors;
        else r->splits++;
    }
    r->cost = (int64_t)r->errors * p->err_cost + (int64_t)r->splits * p->split_cost;
    assert(r->cost == cost);
    r->found = true;
    return PDT_OK;
}

pdt_status dc_greedy(dc_search *s, dc_result *r, pdt_error *err)
{
    const dc_problem *p = s->p;
    memset(r, 0, sizeof *r);
    uint32_t *items = malloc(p->n * sizeof *items), *cell = malloc(3 * s->maxk * sizeof *cell);
    pdt_status st = items && cell ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory (the greedy tree)");
    dc_result other = {0};
    if (!st) st = greedy_tree(s, false, items, cell, r, err);
    if (!st) st = greedy_tree(s, true, items, cell, &other, err);
    if (!st && other.cost < r->cost) {
        dc_result_clear(r);
        *r = other;
    } else {
        dc_result_clear(&other);
    }
    if (st) dc_result_clear(r);
    free(items);
    free(cell);
    return st;
}
