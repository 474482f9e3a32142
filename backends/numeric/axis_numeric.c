/* The numeric backend's search (ConTree-class, Briţa, van der Linden and
 * Demirović, AAAI 2025): the optimal tree of depth ≤ d with ≤ s branch nodes
 * over one node's items, found by trying every feature and, within a
 * feature, its thresholds with branch-and-bound.
 *
 * Bounds over the thresholds of one feature.  Let L(p) and R(p) be the
 * optimal costs of the left and right subtrees (each within its depth and
 * node budget) when the threshold puts the first p items (in the feature's
 * order) on the left.  A subtree optimum never decreases when items are
 * added and grows by at most the weight of the added items (the same tree
 * misclassifies at most those).  So for thresholds a < q < b:
 *     L(q) ≥ L(a),  L(q) ≥ L(b) − w(q..b),  R(q) ≥ R(b),  R(q) ≥ R(a) − w(a..q),
 * where w(x..y) is the weight of the items between the two thresholds.  One
 * evaluated threshold therefore bounds a whole interval of neighbours: an
 * interval is skipped when L(a) + R(b) cannot beat the incumbent, and a
 * threshold whose derived bounds cannot beat it is never evaluated.  The
 * bounds hold for lower bounds in place of optima, which is what a subtree
 * search cut off by its upper bound returns.
 *
 * Upper bounds go down (eval_deep): the larger child is searched against the
 * incumbent plus a slack minus the other child's lower bound, the other
 * against what the first leaves.  A search that finds nothing under its bound
 * returns the least lower bound it proved.  Features are tried in the order
 * of their best single threshold, which is evaluated first.  Depth-2 subtrees
 * are solved by sweeps (an_stumps), deeper ones by recursion on the
 * children's sorted lists, which a split partitions stably (O(m·F) per split,
 * O(N·F) memory per level); the cache (axis_numeric_cache.c) answers item sets
 * met again. */
#include <string.h>

#include "axis_numeric.h"

typedef struct an_scan {
    an_ctx *c;
    const an_node *nd;
    uint32_t level, d, kl, kr; /* the node's depth limit; the children's budgets */
    int32_t f;
    const an_item *list;
    const uint32_t *bnd;
    const int64_t *wpre;
    int64_t *best;
    int64_t *lb;   /* the least lower bound of the thresholds that did not improve */
    an_entry *out;
    uint32_t *len;
} an_scan;

/* The slack is a quarter of the interval's larger half: the whole half-width
 * (ConTree's choice) makes every child search looser than it pays for on these
 * data (measured on raisin, wilt, page, rice, occupancy, fault at depth 3:
 * 1/4 was fastest or within noise of it everywhere; 0 was 4–10× slower). */
#define AN_SLACK_DIV 4

static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static uint32_t leaf_or_stump(an_entry *t, const an_stump *s, bool split)
{
    if (!split || s->rule.feature < 0) {
        t[0] = (an_entry){-1, 0};
        return 1;
    }
    t[0] = s->rule;
    t[1] = t[2] = (an_entry){-1, 0};
    return 3;
}

static void compose(an_scan *s, uint32_t row, const an_entry *tl, uint32_t ll, const an_entry *tr,
                    uint32_t lr)
{
    s->out[0] = (an_entry){s->f, row};
    memcpy(s->out + 1, tl, ll * sizeof *tl);
    memcpy(s->out + 1 + ll, tr, lr * sizeof *tr);
    *s->len = 1 + ll + lr;
}

/* Depth 2: both children are stumps (or leaves), found by one sweep. */
static void eval_d2(an_scan *s, an_point *q)
{
    an_ctx *c = s->c;
    const size_t nc = c->nc;
    int64_t *tl = c->cnt + 2 * nc, *tr = c->cnt + 3 * nc;
    const int64_t *tot = c->frames[s->level].tot;
    memset(tl, 0, nc * sizeof *tl);
    for (uint32_t k = 0; k < q->pos; k++) {
        const an_item *it = &s->list[k];
        c->mark[it->row] = 1;
        tl[it->label] += c->unit ? 1 : c->cw[it->label];
    }
    for (size_t k = 0; k < nc; k++) tr[k] = tot[k] - tl[k];
    an_stump sl, sr;
    an_stumps(c, s->nd, tl, tr, &sl, &sr, NULL);
    for (uint32_t k = 0; k < q->pos; k++) c->mark[s->list[k].row] = 0;
    c->stats.evaluated++;
    q->l = s->kl ? sl.best : sl.leaf;
    q->r = s->kr ? sr.best : sr.leaf;
    if (q->l + q->r >= *s->best) return;
    *s->best = q->l + q->r;
    an_entry a[3], b[3];
    uint32_t la = leaf_or_stump(a, &sl, s->kl), lb = leaf_or_stump(b, &sr, s->kr);
    compose(s, s->list[q->pos - 1].row, a, la, b, lb);
}

/* The children's sorted lists: a stable partition of every list. */
static void partition(an_ctx *c, const an_node *nd, const an_item *left_list, uint32_t pos, an_item *out)
{
    const uint32_t m = nd->m;
    for (uint32_t k = 0; k < pos; k++) c->mark[left_list[k].row] = 1;
    an_item *lo = out, *ro = out + (size_t)pos * c->nf;
    for (size_t g = 0; g < c->nf; g++) {
        const an_item *list = nd->lists + g * m;
        for (uint32_t k = 0; k < m; k++) {
            if (c->mark[list[k].row]) *lo++ = list[k];
            else *ro++ = list[k];
        }
    }
    for (uint32_t k = 0; k < pos; k++) c->mark[left_list[k].row] = 0;
}

/* Depth ≥ 3: the children by recursion, the larger first.  Both are searched
 * against the incumbent plus `slack` (after ConTree's interval half-distance):
 * a threshold proven to cost at least best + slack bounds every neighbour
 * within slack of it, so a whole stretch of the interval falls at once. */
static void eval_deep(an_scan *s, an_point *q, int64_t slack)
{
    an_ctx *c = s->c;
    an_frame *fr = &c->frames[s->level];
    const uint32_t m = s->nd->m, pos = q->pos;
    partition(c, s->nd, s->list, pos, fr->lists);
    an_node left = {pos, fr->lists}, right = {m - pos, fr->lists + (size_t)pos * c->nf};
    c->stats.evaluated++;
    bool left_first = pos >= m - pos;
    const an_node *n1 = left_first ? &left : &right, *n2 = left_first ? &right : &left;
    int64_t *b1 = left_first ? &q->l : &q->r, *b2 = left_first ? &q->r : &q->l;
    uint32_t k1 = left_first ? s->kl : s->kr, k2 = left_first ? s->kr : s->kl;
    an_entry *t1 = left_first ? fr->tl : fr->tr, *t2 = left_first ? fr->tr : fr->tl;
    uint32_t l1 = 0, l2 = 0;
    int64_t budget = *s->best + slack;
    int64_t ub1 = budget - *b2;
    int64_t v1 = an_solve(c, n1, s->level + 1, s->d - 1, k1, ub1, t1, &l1);
    *b1 = max64(*b1, v1);
    if (v1 >= ub1) return;
    int64_t ub2 = budget - v1;
    int64_t v2 = an_solve(c, n2, s->level + 1, s->d - 1, k2, ub2, t2, &l2);
    *b2 = max64(*b2, v2);
    if (v2 >= ub2 || v1 + v2 >= *s->best) return;
    *s->best = v1 + v2;
    if (left_first) compose(s, s->list[pos - 1].row, t1, l1, t2, l2);
    else compose(s, s->list[pos - 1].row, t2, l2, t1, l1);
}

static inline void note_lb(an_scan *s, int64_t v)
{
    if (v < *s->lb) *s->lb = v;
}

static void evaluate(an_scan *s, an_point *q, int64_t slack)
{
    if (s->d == 2) eval_d2(s, q);
    else eval_deep(s, q, slack);
}

/* The thresholds strictly between a and b; the first one looked at is iq
 * (−1: the middle), already evaluated when it is `known`. */
static void bb(an_scan *s, const an_point *a, const an_point *b, int32_t ia, int32_t ib, int32_t iq,
               const an_point *known)
{
    if (ib - ia <= 1 || s->c->aborted) return;
    if (a->l + b->r >= *s->best) {
        note_lb(s, a->l + b->r);
        return;
    }
    if (iq <= ia || iq >= ib) iq = ia + (ib - ia) / 2;
    an_point q = {s->bnd[iq], 0, 0};
    q.l = max64(a->l, b->l - (s->wpre[b->pos] - s->wpre[q.pos]));
    q.r = max64(b->r, a->r - (s->wpre[q.pos] - s->wpre[a->pos]));
    int64_t before = *s->best;
    if (known && known->pos == q.pos) {
        q.l = max64(q.l, known->l);
        q.r = max64(q.r, known->r);
        before = AN_INF; /* noted below: a lower bound in any case */
    } else if (q.l + q.r < before && !an_tick(s->c)) {
        int64_t wa = s->wpre[q.pos] - s->wpre[a->pos], wb = s->wpre[b->pos] - s->wpre[q.pos];
        evaluate(s, &q, (wa > wb ? wa : wb) / AN_SLACK_DIV);
    } else {
        s->c->stats.skipped++;
    }
    if (*s->best == before || before == AN_INF) note_lb(s, q.l + q.r);
    if (a->l + q.r <= q.l + b->r) {
        bb(s, a, &q, ia, iq, -1, NULL);
        bb(s, &q, b, iq, ib, -1, NULL);
    } else {
        bb(s, &q, b, iq, ib, -1, NULL);
        bb(s, a, &q, ia, iq, -1, NULL);
    }
}

/* Thresholds of feature f at this node: left sizes and prefix weights. */
static uint32_t thresholds(const an_ctx *c, an_frame *fr, const an_item *list, uint32_t m)
{
    uint32_t nb = 0;
    fr->wpre[0] = 0;
    for (uint32_t k = 0; k < m; k++) {
        fr->wpre[k + 1] = fr->wpre[k] + (c->unit ? 1 : c->cw[list[k].label]);
        if (k + 1 < m && list[k + 1].rank != list[k].rank) fr->bnd[nb++] = k + 1;
    }
    return nb;
}

/* The index of the threshold with `pos` items on its left (−1: none), where
 * the search of a feature starts: its best single split. */
static int32_t first_threshold(const uint32_t *bnd, uint32_t nb, uint32_t pos)
{
    uint32_t lo = 0, hi = nb;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (bnd[mid] < pos) lo = mid + 1;
        else hi = mid;
    }
    return lo < nb && bnd[lo] == pos ? (int32_t)lo : -1;
}

static void order_features(an_ctx *c, an_frame *fr)
{
    for (uint32_t f = 0; f < c->nf; f++) {
        uint32_t k = f;
        for (; k > 0 && fr->guide[fr->order[k - 1]].cost > fr->guide[f].cost; k--) fr->order[k] = fr->order[k - 1];
        fr->order[k] = f;
    }
}

/* Every feature, every split of the budget s − 1 between the children.  Each
 * feature's best single threshold is evaluated first, for all features before
 * any interval search: a good incumbent early prunes every later interval. */
static void search(an_ctx *c, const an_node *nd, uint32_t level, uint32_t d, uint32_t s,
                   const an_stump *whole, int64_t *best, int64_t *lb, an_entry *out, uint32_t *len)
{
    an_frame *fr = &c->frames[level];
    uint32_t full = d - 1 >= 31 ? UINT32_MAX : (1u << (d - 1)) - 1; /* a child's largest useful budget */
    uint32_t hi = s - 1 < full ? s - 1 : full, lo = s - 1 > full ? s - 1 - full : 0;
    if (lo > hi) lo = hi;
    order_features(c, fr);
    for (uint32_t kl = hi + 1; kl-- > lo && !c->aborted;) {
        an_scan sc = {c, nd, level, d, kl, s - 1 - kl, 0, NULL, fr->bnd, fr->wpre, best, lb, out, len};
        for (uint32_t t = 0; t < c->nf && !c->aborted && *best > 0; t++) {
            uint32_t f = fr->order[t];
            fr->probe[f] = (an_point){fr->guide[f].pos, 0, 0};
            if (!fr->probe[f].pos || an_tick(c)) continue;
            sc.f = (int32_t)f;
            sc.list = nd->lists + (size_t)f * nd->m;
            evaluate(&sc, &fr->probe[f], 0);
        }
        for (uint32_t t = 0; t < c->nf && !c->aborted && *best > 0; t++) {
            uint32_t f = fr->order[t];
            sc.f = (int32_t)f;
            sc.list = nd->lists + (size_t)f * nd->m;
            uint32_t nb = thresholds(c, fr, sc.list, nd->m);
            /* At depth 2 the children of the end points are known: all items
             * on one side, a leaf or the node's own best stump. */
            int64_t all_l = d > 2 ? 0 : kl ? whole->best : whole->leaf;
            int64_t all_r = d > 2 ? 0 : s - 1 - kl ? whole->best : whole->leaf;
            an_point a = {0, 0, all_r}, b = {nd->m, all_l, 0};
            if (nb) bb(&sc, &a, &b, -1, (int32_t)nb, first_threshold(fr->bnd, nb, fr->probe[f].pos), &fr->probe[f]);
        }
    }
}

/* What the cache knows decides the subproblem: its optimum, or a lower bound
 * that already reaches ub.  Returns true with the answer in *v. */
static bool cached(an_ctx *c, const an_key *k, const an_node *nd, int64_t ub, an_entry *out, uint32_t *len,
                   int64_t *v)
{
    int64_t lb, exact;
    const an_entry *tree;
    uint32_t n;
    if (!an_cache_get(c->cache, k, nd, c->mark, &lb, &exact, &tree, &n)) return false;
    if (exact != AN_INF) {
        if (exact < ub) memcpy(out, tree, n * sizeof *tree), *len = n;
        *v = exact;
    } else if (lb >= ub) {
        *v = lb;
    } else {
        return false;
    }
    c->stats.hits++;
    return true;
}

int64_t an_solve(an_ctx *c, const an_node *nd, uint32_t level, uint32_t d, uint32_t s, int64_t ub,
                 an_entry *out, uint32_t *len)
{
    c->stats.nodes++;
    an_frame *fr = &c->frames[level];
    const uint32_t m = nd->m;
    memset(fr->tot, 0, c->nc * sizeof *fr->tot);
    for (uint32_t k = 0; k < m; k++) fr->tot[nd->lists[k].label] += c->unit ? 1 : c->cw[nd->lists[k].label];
    int64_t local, *best = level ? &local : &c->root_best; /* the root's incumbent is shown in progress */
    *best = ub;
    int64_t leaf = an_leaf_cost(fr->tot, c->nc);
    if (leaf < *best) {
        *best = leaf;
        out[0] = (an_entry){-1, 0};
        *len = 1;
    }
    if (m < 2 || s == 0 || d == 0 || *best == 0 || an_tick(c)) return *best;
    if (s > m - 1) s = m - 1;
    if (d > s) d = s;
    if (d < 31 && s > (1u << d) - 1) s = (1u << d) - 1;
    an_key key;
    int64_t v;
    bool memo = c->cache && level > 0 && d >= 2;
    if (memo) an_cache_key(&key, c->cache, nd, d, s);
    if (memo && cached(c, &key, nd, ub, out, len, &v)) return v;
    an_stump st;
    an_stumps(c, nd, NULL, fr->tot, NULL, &st, fr->guide);
    if (st.best < *best) {
        *best = st.best;
        *len = leaf_or_stump(out, &st, true);
    }
    if (d < 2 || *best == 0) return *best;
    /* Every threshold not improving the incumbent has a lower bound; their
     * least (and the leaf's and stump's costs) bounds the optimum when no tree
     * beats ub. */
    int64_t lb = st.best;
    search(c, nd, level, d == 2 || s == 2 ? 2 : d, s, &st, best, &lb, out, len);
    v = *best < ub ? *best : (lb > ub ? lb : ub);
    if (memo && !c->aborted) an_cache_put(c->cache, &key, nd, c->mark, v, v < ub ? v : AN_INF, out, *len);
    return v;
}
