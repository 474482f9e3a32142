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
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "axis_numeric.h"

typedef struct an_scan {
    an_ctx *c;
    const an_node *nd;
    uint32_t level, d, kl, kr; /* the node's depth limit; the children's budgets */
    int32_t f;
    uint32_t split, rank; /* the budget split's and the feature's place in the search order */
    bool ties;       /* keys decide between equal costs (at the root) */
    const an_item *list;
    const uint32_t *bnd;
    const int64_t *wpre;
    an_inc *inc;
    int64_t *lb;   /* the least lower bound of the candidates looked at */
    an_entry *out;
    uint32_t *len;
} an_scan;

/* The root's candidates are keyed by the order the serial search meets them
 * in, so that a tie needs a second look only when threads met candidates out
 * of that order: within a budget split, every feature's best single threshold
 * (the probes, by feature rank), then the other thresholds by feature rank
 * and, within a feature, breadth-first over the bisection of its thresholds
 * (an_span's heap number: every interval before its halves, left before
 * right).  The order depends on the data alone — not on bounds, the cache or
 * the schedule.  The leaf is key 0, the best stump key 1. */
static inline uint64_t an_key_probe(uint32_t split, uint32_t rank, size_t nf)
{
    return (uint64_t)(2 * split * nf + rank + 1) << 32 | 1;
}

static inline uint64_t an_key_span(uint32_t split, uint32_t rank, size_t nf, uint32_t heap)
{
    return (uint64_t)((2 * split + 1) * nf + rank + 1) << 32 | heap;
}

/* The slack is a quarter of the interval's larger half: the whole half-width
 * (ConTree's choice) makes every child search looser than it pays for on these
 * data (measured on raisin, wilt, page, rice, occupancy, fault at depth 3:
 * 1/4 was fastest or within noise of it everywhere; 0 was 4–10× slower).  It
 * is at most the incumbent's cost (eval_deep): near a perfect tree a slack of
 * hundreds of items made every child find its true optimum instead of failing
 * fast (bank depth 4: 9 566 → 3 947 evaluations; wilt depth 4 −7 %, bidding
 * −35 %; the depth-3 rows unchanged). */
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

/* Whether a candidate costing `cost` with key `key` beats the incumbent.  Keys
 * count at the root (where threads may meet candidates out of order); below
 * it the search meets them in key order, so the first of the least cost is
 * the one kept. */
static inline bool beats(const an_scan *s, int64_t cost, uint64_t key)
{
    return s->ties ? an_beats(cost, key, s->inc) : cost < s->inc->cost;
}

/* A root candidate (cost, key) was found: tell the other tasks. */
static void publish(an_ctx *c, int64_t cost, uint64_t key)
{
    if (!c->shared) {
        c->root_best = cost;
        return;
    }
#pragma omp critical(an_shared)
    {
        int64_t seen = atomic_load_explicit(&c->shared->cost, memory_order_relaxed);
        if (cost < seen || (cost == seen && key < c->shared->key)) {
            atomic_store_explicit(&c->shared->cost, cost, memory_order_relaxed);
            c->shared->key = key;
        }
    }
}

/* A root task's bound: the least (cost, key) found by any task, when it beats
 * the task's own.  Knowing the key, a task drops the candidates that would
 * only tie with a tree another task found first in key order. */
static void refresh(an_ctx *c, an_inc *inc)
{
    an_ranks_share(c, inc);
    if (!c->shared || atomic_load_explicit(&c->shared->cost, memory_order_relaxed) > inc->cost) return;
    int64_t cost;
    uint64_t key;
#pragma omp critical(an_shared)
    {
        cost = atomic_load_explicit(&c->shared->cost, memory_order_relaxed);
        key = c->shared->key;
    }
    if (an_beats(cost, key, inc)) *inc = (an_inc){cost, key, false};
}

/* A candidate replaces the incumbent. */
static bool take(an_scan *s, const an_point *q, uint64_t key)
{
    int64_t cost = q->l + q->r;
    if (!beats(s, cost, key)) return false;
    *s->inc = (an_inc){cost, key, true};
    if (s->level == 0) publish(s->c, cost, key);
    return true;
}

static bool pure_rules_out(an_scan *s, an_point *q, uint64_t key);

/* Depth 2: both children are stumps (or leaves), found by one sweep. */
static bool eval_d2(an_scan *s, an_point *q, uint64_t key)
{
    an_ctx *c = s->c;
    const size_t nc = c->nc;
    if (pure_rules_out(s, q, key)) return false; /* also leaves the children's class counts */
    int64_t *tl = c->cnt + 2 * nc, *tr = c->cnt + 3 * nc;
    for (uint32_t k = 0; k < q->pos; k++) c->mark[s->list[k].row] = 1;
    an_stump sl, sr;
    an_stumps(c, s->nd, tl, tr, &sl, &sr, NULL);
    for (uint32_t k = 0; k < q->pos; k++) c->mark[s->list[k].row] = 0;
    c->stats.evaluated++;
    q->l = s->kl ? sl.best : sl.leaf;
    q->r = s->kr ? sr.best : sr.leaf;
    if (!take(s, q, key)) return false;
    an_entry a[3], b[3];
    uint32_t la = leaf_or_stump(a, &sl, s->kl), lb = leaf_or_stump(b, &sr, s->kr);
    compose(s, s->list[q->pos - 1].row, a, la, b, lb);
    return true;
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

/* Leaves of a tree of depth ≤ d with ≤ k branch nodes, at most. */
static inline uint32_t max_leaves(uint32_t d, uint32_t k)
{
    return d < 31 && k + 1 > (1u << d) ? 1u << d : k + 1;
}

/* The children's class counts (c->cnt + 2C the left's, + 3C the right's),
 * and whether they alone rule the threshold out: with more classes than a
 * child has leaves, its bounds rise to an_pure_bound's. */
static bool pure_rules_out(an_scan *s, an_point *q, uint64_t key)
{
    an_ctx *c = s->c;
    const size_t nc = c->nc;
    int64_t *tl = c->cnt + 2 * nc, *tr = c->cnt + 3 * nc;
    const int64_t *tot = c->frames[s->level].tot;
    memset(tl, 0, nc * sizeof *tl);
    for (uint32_t k = 0; k < q->pos; k++) tl[s->list[k].label] += c->unit ? 1 : c->cw[s->list[k].label];
    for (size_t k = 0; k < nc; k++) tr[k] = tot[k] - tl[k];
    if (nc <= 2) return false;
    q->l = max64(q->l, an_pure_bound(tl, nc, max_leaves(s->d - 1, s->kl)));
    q->r = max64(q->r, an_pure_bound(tr, nc, max_leaves(s->d - 1, s->kr)));
    if (beats(s, q->l + q->r, key)) return false;
    c->stats.pure++;
    return true;
}

/* Depth ≥ 3: the children by recursion, the larger first.  Both are searched
 * against the incumbent plus `slack` (after ConTree's interval half-distance):
 * a threshold proven to cost at least best + slack bounds every neighbour
 * within slack of it, so a whole stretch of the interval falls at once.  A
 * candidate whose key precedes the incumbent's wins a tie, so its children
 * get one more. */
static bool eval_deep(an_scan *s, an_point *q, int64_t slack, uint64_t key)
{
    an_ctx *c = s->c;
    an_frame *fr = &c->frames[s->level];
    const uint32_t m = s->nd->m, pos = q->pos;
    if (c->nc > 2 && pure_rules_out(s, q, key)) return false; /* two classes: no bound, no count */
    partition(c, s->nd, s->list, pos, fr->lists);
    an_node left = {pos, fr->lists}, right = {m - pos, fr->lists + (size_t)pos * c->nf};
    c->stats.evaluated++;
    bool left_first = pos >= m - pos;
    const an_node *n1 = left_first ? &left : &right, *n2 = left_first ? &right : &left;
    int64_t *b1 = left_first ? &q->l : &q->r, *b2 = left_first ? &q->r : &q->l;
    uint32_t k1 = left_first ? s->kl : s->kr, k2 = left_first ? s->kr : s->kl;
    an_entry *t1 = left_first ? fr->tl : fr->tr, *t2 = left_first ? fr->tr : fr->tl;
    uint32_t l1 = 0, l2 = 0;
    if (slack > s->inc->cost) slack = s->inc->cost;
    int64_t budget = s->inc->cost + slack + (s->ties && key < s->inc->key);
    int64_t ub1 = budget - *b2;
    int64_t v1 = an_solve(c, n1, s->level + 1, s->d - 1, k1, ub1, t1, &l1);
    *b1 = max64(*b1, v1);
    if (v1 >= ub1) return false;
    int64_t ub2 = budget - v1;
    int64_t v2 = an_solve(c, n2, s->level + 1, s->d - 1, k2, ub2, t2, &l2);
    *b2 = max64(*b2, v2);
    if (v2 >= ub2) return false;
    an_point got = {pos, left_first ? v1 : v2, left_first ? v2 : v1};
    if (!take(s, &got, key)) return false;
    if (left_first) compose(s, s->list[pos - 1].row, t1, l1, t2, l2);
    else compose(s, s->list[pos - 1].row, t2, l2, t1, l1);
    return true;
}

static inline void note_lb(an_scan *s, int64_t v)
{
    if (v < *s->lb) *s->lb = v;
}

/* key: the candidate's (at the root; below it, keys are not compared). */
static bool evaluate(an_scan *s, an_point *q, int64_t slack, uint64_t key)
{
    return s->d == 2 ? eval_d2(s, q, key) : eval_deep(s, q, slack, key);
}

/* The threshold iq between a and b: its bounds from theirs, and its subtrees
 * evaluated when those do not already rule it out; leaves its lower bound. */
static void visit(an_scan *s, const an_point *a, const an_point *b, int32_t iq, const an_point *known,
                  uint64_t key, an_point *q)
{
    *q = (an_point){s->bnd[iq], 0, 0};
    q->l = max64(a->l, b->l - (s->wpre[b->pos] - s->wpre[q->pos]));
    q->r = max64(b->r, a->r - (s->wpre[q->pos] - s->wpre[a->pos]));
    if (known && known->pos == q->pos) {
        q->l = max64(q->l, known->l);
        q->r = max64(q->r, known->r);
    } else if (beats(s, q->l + q->r, key) && !an_tick(s->c)) {
        int64_t wa = s->wpre[q->pos] - s->wpre[a->pos], wb = s->wpre[b->pos] - s->wpre[q->pos];
        evaluate(s, q, (wa > wb ? wa : wb) / AN_SLACK_DIV, key);
    } else {
        s->c->stats.skipped++;
    }
    note_lb(s, q->l + q->r);
}

/* Every threshold of the feature between the ends a and b (nb of them),
 * breadth-first over their bisection (ConTree's queue of intervals): an
 * interval is looked at after every interval of a smaller heap number, so
 * the candidates are met in key order (an_key_span) — an order fixed by the
 * data, whatever the bounds prune.  An interval whose least key, its own
 * middle's, cannot beat the incumbent is dropped with every threshold inside
 * it.  The first interval (the whole feature) starts at the probe iq0,
 * already evaluated (`known`).  Every threshold looked at or ruled out leaves
 * a lower bound in *lb. */
static void bb(an_scan *s, const an_point *a, const an_point *b, int32_t nb, int32_t iq0, const an_point *known)
{
    an_span *q = s->c->frames[s->level].spans;
    size_t head = 0, tail = 0;
    q[tail++] = (an_span){*a, *b, -1, nb, 1};
    while (head < tail && !s->c->aborted) {
        const an_span sp = q[head++];
        if (s->level == 0) refresh(s->c, s->inc); /* the root's tasks share their incumbent */
        uint64_t key = an_key_span(s->split, s->rank, s->c->nf, sp.heap);
        if (!beats(s, sp.a.l + sp.b.r, key)) {
            note_lb(s, sp.a.l + sp.b.r);
            continue;
        }
        int32_t iq = sp.heap == 1 && iq0 > sp.ia && iq0 < sp.ib ? iq0 : sp.ia + (sp.ib - sp.ia) / 2;
        an_point m;
        visit(s, &sp.a, &sp.b, iq, sp.heap == 1 ? known : NULL, key, &m);
        if (iq - sp.ia > 1) q[tail++] = (an_span){sp.a, m, sp.ia, iq, 2 * sp.heap};
        if (sp.ib - iq > 1) q[tail++] = (an_span){m, sp.b, iq, sp.ib, 2 * sp.heap + 1};
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

/* The splits of the budget s − 1 between the children: kl from hi down to lo. */
static void budgets(uint32_t d, uint32_t s, uint32_t *lo, uint32_t *hi)
{
    uint32_t full = d - 1 >= 31 ? UINT32_MAX : (1u << (d - 1)) - 1; /* a child's largest useful budget */
    *hi = s - 1 < full ? s - 1 : full;
    *lo = s - 1 > full ? s - 1 - full : 0;
    if (*lo > *hi) *lo = *hi;
}

/* Whether a candidate keyed `least` or later can still beat the incumbent
 * (keys of the search's later steps are larger; costs are ≥ 0). */
static inline bool open_from(const an_inc *inc, uint64_t least, bool ties)
{
    return inc->cost > 0 || (ties && inc->key > least);
}

static inline uint64_t least_key(uint32_t split, uint32_t rank, size_t nf, unsigned phase)
{
    return phase ? an_key_span(split, rank, nf, 1) : an_key_probe(split, rank, nf);
}

/* A feature's best single threshold, evaluated first (phase 0), then every
 * other threshold by branch-and-bound between the ends (phase 1).  fr: the
 * scratch for the thresholds; the probe is the node's own. */
static void scan_feature(an_scan *sc, an_frame *fr, an_point *probe, const an_guide *guide,
                         const an_stump *whole, unsigned phase)
{
    an_ctx *c = sc->c;
    if (phase == 0) {
        *probe = (an_point){guide->pos, 0, 0};
        if (probe->pos && !an_tick(c)) evaluate(sc, probe, 0, an_key_probe(sc->split, sc->rank, c->nf));
        return;
    }
    uint32_t nb = thresholds(c, fr, sc->list, sc->nd->m);
    /* At depth 2 the children of the end points are known: all items on one
     * side, a leaf or the node's own best stump. */
    int64_t all_l = sc->d > 2 ? 0 : sc->kl ? whole->best : whole->leaf;
    int64_t all_r = sc->d > 2 ? 0 : sc->kr ? whole->best : whole->leaf;
    an_point a = {0, 0, all_r}, b = {sc->nd->m, all_l, 0};
    if (!nb) return;
    int32_t first = first_threshold(fr->bnd, nb, probe->pos);
    bb(sc, &a, &b, (int32_t)nb, first, probe);
}

/* Every feature, every split of the budget s − 1 between the children.  Each
 * feature's best single threshold is evaluated first, for all features before
 * any interval search: a good incumbent early prunes every later interval.
 * At the root, candidates are keyed (an_key_probe, an_key_span) and the least
 * (cost, key) wins, so the split found does not depend on the order the
 * candidates are met in, on the upper bound, or on what the cache holds.
 */
static void search(an_ctx *c, const an_node *nd, uint32_t level, uint32_t d, uint32_t s,
                   const an_stump *whole, an_inc *inc, int64_t *lb, an_entry *out, uint32_t *len)
{
    an_frame *fr = &c->frames[level];
    uint32_t lo, hi, split = 0;
    budgets(d, s, &lo, &hi);
    order_features(c, fr);
    for (uint32_t kl = hi + 1; kl-- > lo && !c->aborted; split++) {
        for (unsigned phase = 0; phase < 2; phase++) {
            for (uint32_t t = 0; t < c->nf && !c->aborted; t++) {
                uint32_t f = fr->order[t];
                bool ties = level == 0;
                if (!open_from(inc, least_key(split, t, c->nf, phase), ties)) break;
                an_scan sc = {c, nd, level, d, kl, s - 1 - kl, (int32_t)f, split, t, ties,
                              nd->lists + (size_t)f * nd->m, fr->bnd, fr->wpre, inc, lb, out, len};
                scan_feature(&sc, fr, &fr->probe[f], &fr->guide[f], whole, phase);
            }
        }
    }
}

#ifdef _OPENMP
/* One root task: feature rank t of a phase and budget split, searched by
 * worker w from the root's incumbent; what it finds replaces the incumbent
 * when it is less (in a critical section when workers run side by side). */
typedef struct an_tasks {
    an_ctx *c;
    const an_node *nd;
    uint32_t d, s, kl, split;
    unsigned phase;
    const an_stump *whole;
    an_inc *inc;
    int64_t *lb;
    an_entry *out;
    uint32_t *len;
} an_tasks;

static void merge_task(const an_tasks *x, const an_inc *mine, int64_t least, const an_entry *tree, uint32_t n)
{
    if (mine->own && an_beats(mine->cost, mine->key, x->inc)) {
        *x->inc = *mine;
        memcpy(x->out, tree, n * sizeof *tree);
        *x->len = n;
    }
    if (least < *x->lb) *x->lb = least;
}

/* This thread's CPU time in ns. */
static uint64_t thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void run_task(const an_tasks *x, an_ctx *w, uint32_t t, bool side_by_side)
{
    an_ctx *c = x->c;
    an_frame *fr = &c->frames[0];
    uint32_t f = fr->order[t], n = 0;
    an_inc mine;
    int64_t least = AN_INF;
    if (side_by_side) {
#pragma omp critical(an_incumbent)
        mine = *x->inc;
    } else {
        mine = *x->inc;
    }
    mine.own = false;
    if (w->aborted || !open_from(&mine, least_key(x->split, t, c->nf, x->phase), true)) return;
    refresh(w, &mine);
    w->stats.tasks++;
    const uint64_t t0 = thread_ns();
    an_scan sc = {w, x->nd, 0, x->d, x->kl, x->s - 1 - x->kl, (int32_t)f, x->split, t, true,
                  x->nd->lists + (size_t)f * x->nd->m, w->frames[0].bnd, w->frames[0].wpre, &mine, &least,
                  w->out, &n};
    scan_feature(&sc, &w->frames[0], &fr->probe[f], &fr->guide[f], x->whole, x->phase);
    w->stats.task_ns += thread_ns() - t0;
    if (side_by_side) {
#pragma omp critical(an_incumbent)
        merge_task(x, &mine, least, w->out, n);
    } else {
        merge_task(x, &mine, least, w->out, n);
    }
}

/* The root's features as tasks handed out to the workers (each with its own
 * scratch and marks, sharing the cache): a worker starts a task from the
 * root's incumbent and lowers its own bound whenever any task has found a
 * better tree (the shared least (cost, key); refresh).  A task ends with the
 * least (cost, key) of its feature below its bound; the incumbent takes it
 * when it is less.  The least (cost, key) over all tasks is the serial
 * search's answer, so the tree is the same for any number of threads and any
 * schedule.  For the first c->solo seconds the first worker runs the tasks
 * alone, one after the other, and the others start only if tasks remain: a
 * search done sooner (most of those under 50 ms) runs as fast on one thread,
 * and another worker's speculative tasks would only add work. */
static void search_tasks(an_ctx *c, const an_node *nd, uint32_t d, uint32_t s, const an_stump *whole,
                         an_inc *inc, int64_t *lb, an_entry *out, uint32_t *len)
{
    an_frame *fr = &c->frames[0];
    uint32_t lo, hi, split = 0;
    budgets(d, s, &lo, &hi);
    order_features(c, fr);
    atomic_store(&c->shared->cost, inc->cost);
    c->shared->key = inc->key;
    for (uint32_t w = 0; w < c->n_workers; w++) memcpy(c->workers[w].frames[0].tot, fr->tot, c->nc * sizeof *fr->tot);
    /* with ranks every rank must reach every loop (each begins collectively):
     * after a time limit the loops still run, their tasks return at once */
    const bool all_loops = c->dist != NULL;
    for (uint32_t kl = hi + 1; kl-- > lo && (all_loops || !c->aborted); split++) {
        for (unsigned phase = 0; phase < 2 && (all_loops || !c->aborted); phase++) {
            const an_tasks x = {c, nd, d, s, kl, split, phase, whole, inc, lb, out, len};
            _Atomic uint32_t next;
            uint32_t t;
            bool more = true;
            an_tasks_begin(c, &next);
            while (an_elapsed(c) < c->solo && (more = an_tasks_next(c, &next, &t)))
                run_task(&x, &c->workers[0], t, false);
            if (more) {
#pragma omp parallel num_threads(c->n_workers) private(t)
                for (an_ctx *w = &c->workers[omp_get_thread_num()]; an_tasks_next(c, &next, &t);)
                    run_task(&x, w, t, true);
            }
            for (uint32_t w = 0; w < c->n_workers; w++) c->aborted |= c->workers[w].aborted;
        }
    }
}
#endif

/* The threshold (its left size) of the root candidate keyed `key`: a probe's
 * is the feature's best single threshold; an interval's is found by walking
 * the bisection from the whole feature to the interval's heap number as bb()
 * does.  Leaves the feature's thresholds in fr. */
static uint32_t key_position(an_ctx *c, an_frame *fr, const an_node *nd, uint32_t f, bool probe, uint32_t heap)
{
    uint32_t pos = fr->guide[f].pos;
    uint32_t nb = thresholds(c, fr, nd->lists + (size_t)f * nd->m, nd->m);
    if (probe || !nb) return probe ? pos : 0;
    int32_t iq0 = first_threshold(fr->bnd, nb, pos), ia = -1, ib = (int32_t)nb;
    int32_t iq = iq0 > ia && iq0 < ib ? iq0 : ia + (ib - ia) / 2;
    for (int bit = 30 - __builtin_clz(heap | 1); bit >= 0; bit--) {
        if (heap >> bit & 1) ia = iq;
        else ib = iq;
        iq = ia + (ib - ia) / 2;
    }
    return iq > ia && iq < ib ? fr->bnd[iq] : 0;
}

/* Another rank's winner (inc: its cost and key): its tree derived again here,
 * from the key (an_key_probe, an_key_span) and a search of its children
 * against a bound just above its cost.  Every rank has the same feature
 * order and guides, and a node's tree is a function of its items. */
static bool an_adopt(an_ctx *c, const an_node *nd, uint32_t d, uint32_t s, an_inc *inc, an_entry *out, uint32_t *len)
{
    an_frame *fr = &c->frames[0];
    uint32_t lo, hi, ctrl = (uint32_t)(inc->key >> 32), heap = (uint32_t)inc->key;
    budgets(d, s, &lo, &hi);
    if (ctrl == 0 || c->nf == 0) return false;
    uint32_t q = (ctrl - 1) / (uint32_t)c->nf, t = (ctrl - 1) % (uint32_t)c->nf, split = q / 2;
    if (split > hi - lo) return false;
    uint32_t kl = hi - split, f = fr->order[t];
    uint32_t pos = key_position(c, fr, nd, f, q % 2 == 0, heap);
    if (pos == 0 || pos >= nd->m) return false;
    an_inc bound = {inc->cost + 1, 0, false};
    int64_t least = AN_INF;
    bool aborted = c->aborted, deadline = c->has_deadline;
    c->aborted = c->has_deadline = false; /* the winner's tree must be completed */
    an_scan sc = {c, nd, 0, d, kl, s - 1 - kl, (int32_t)f, split, t, true, nd->lists + (size_t)f * nd->m,
                  fr->bnd, fr->wpre, &bound, &least, out, len};
    an_point p = {pos, 0, 0};
    bool found = evaluate(&sc, &p, 0, inc->key) && bound.cost == inc->cost;
    c->aborted = aborted;
    c->has_deadline = deadline;
    if (found) inc->own = true;
    return found;
}

/* What the cache knows decides the subproblem: its optimum, or a lower bound
 * that already reaches ub.  Returns true with the answer in *v. */
static bool cached(an_ctx *c, const an_key *k, const an_node *nd, int64_t ub, an_entry *out, uint32_t *len,
                   int64_t *v)
{
    int64_t lb, exact;
    if (!an_cache_get(c->cache, k, nd, c->mark, ub, &lb, &exact, out, len)) return false;
    if (exact != AN_INF) {
        *v = exact;
    } else if (lb >= ub) {
        *v = lb;
    } else {
        return false;
    }
    c->stats.hits++;
    return true;
}

/* The tree found is the first of the least cost in key order (the leaf, the
 * stump, then the candidates as search() meets them), its subtrees found the
 * same way: so it is a function of the node's items alone — not of ub (once
 * above the optimum), the slack, what the cache holds (whose trees were found
 * the same way), or the threads, which break ties at the root by key. */
int64_t an_solve(an_ctx *c, const an_node *nd, uint32_t level, uint32_t d, uint32_t s, int64_t ub,
                 an_entry *out, uint32_t *len)
{
    c->stats.nodes++;
    an_frame *fr = &c->frames[level];
    const uint32_t m = nd->m;
    memset(fr->tot, 0, c->nc * sizeof *fr->tot);
    for (uint32_t k = 0; k < m; k++) fr->tot[nd->lists[k].label] += c->unit ? 1 : c->cw[nd->lists[k].label];
    /* Keys: the leaf 0, the best stump 1, deeper trees from 2^32 on; the
     * bound ub ties with nothing. */
    an_inc inc = {ub, 0, false};
    int64_t leaf = an_leaf_cost(fr->tot, c->nc);
    if (leaf < inc.cost) {
        inc = (an_inc){leaf, 0, true};
        out[0] = (an_entry){-1, 0};
        *len = 1;
    }
    if (m < 2 || s == 0 || d == 0 || inc.cost == 0) return inc.cost;
    if ((level > 0 || !c->dist) && an_tick(c)) return inc.cost; /* ranks: every one reaches the root's loops */
    if (s > m - 1) s = m - 1;
    if (d > s) d = s;
    if (d < 31 && s > (1u << d) - 1) s = (1u << d) - 1;
    if (c->nc > 2) {
        int64_t pure = an_pure_bound(fr->tot, c->nc, s + 1);
        if (pure >= inc.cost) {
            c->stats.pure++;
            return pure >= ub ? pure : inc.cost; /* a bound ≥ ub, or the leaf is optimal */
        }
    }
    an_key key;
    int64_t v;
    bool memo = c->cache && level > 0 && d >= 2;
    if (memo) an_cache_key(&key, c->cache, nd, d, s);
    if (memo && cached(c, &key, nd, ub, out, len, &v)) return v;
    an_stump st;
    an_stumps(c, nd, NULL, fr->tot, NULL, &st, fr->guide);
    if (st.best < inc.cost) {
        inc = (an_inc){st.best, 1, true};
        *len = leaf_or_stump(out, &st, true);
    }
    if (level == 0) c->root_best = inc.cost;
    if (d < 2 || inc.cost == 0) return inc.cost;
    /* Every candidate leaves a lower bound; their least (and the leaf's and
     * stump's costs) bounds the optimum when no tree beats ub. */
    int64_t lb = st.best;
    uint32_t dd = d == 2 || s == 2 ? 2 : d;
#ifdef _OPENMP
    if (level == 0 && c->workers && c->nf > 1) {
        search_tasks(c, nd, dd, s, &st, &inc, &lb, out, len);
        if (c->dist && !an_ranks_finish(c, &inc)) c->rank_error = !an_adopt(c, nd, dd, s, &inc, out, len);
    } else
#endif
        search(c, nd, level, dd, s, &st, &inc, &lb, out, len);
    if (level == 0) c->root_best = inc.cost;
    v = inc.cost < ub ? inc.cost : (lb > ub ? lb : ub);
    if (memo && !c->aborted) an_cache_put(c->cache, &key, nd, c->mark, v, v < ub ? v : AN_INF, out, *len);
    return v;
}
