/* Depth-1 subtrees of the numeric backend: one sweep of every feature's
 * sorted items with running class counts gives the best threshold of one
 * part of the node (all items), or of two parts at once (the items marked as
 * the left part of a parent's split and the others) — the depth-2 solver's
 * inner loop, O(m·F) per call with no pair-count table.  Thresholds sit only
 * between different values, so equal values are never separated.
 *
 * Skipping (as ConTree's depth-one sweep): a threshold whose split costs g
 * more than the part's best so far is followed by thresholds that move items
 * of total weight w from right to left, and each moved item changes the cost
 * by at most its weight; so none of them can improve on the best until
 * w > g, and their costs are not computed.  A part whose items still to come
 * are all of one class (their cost 0) is done (as ConTree's "is_zero"): from
 * there on every threshold costs at least as much, since adding items to the
 * left never lowers its cost and the right stays at 0. */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "axis_numeric.h"

/* Misclassifications of the split of a part into cnt and tot − cnt; *right
 * gets the second part's. */
static inline int64_t split_cost(const int64_t *cnt, const int64_t *tot, size_t nc, int64_t *right)
{
    if (nc == 2) {
        int64_t a = cnt[0] < cnt[1] ? cnt[0] : cnt[1];
        int64_t r0 = tot[0] - cnt[0], r1 = tot[1] - cnt[1];
        *right = r0 < r1 ? r0 : r1;
        return a + *right;
    }
    int64_t a = 0, amax = 0, b = 0, bmax = 0;
    for (size_t k = 0; k < nc; k++) {
        int64_t x = cnt[k], y = tot[k] - cnt[k];
        a += x;
        b += y;
        if (x > amax) amax = x;
        if (y > bmax) bmax = y;
    }
    *right = b - bmax;
    return a - amax + *right;
}

/* One feature, one part (all the items).  Skipping as in the two-part sweep
 * below: the next threshold is costed once the weight so far passes `lim`
 * (AN_INF: no later threshold can improve); −1 at first, so the first
 * threshold always is.  Returns the least cost computed and its left size: the
 * feature's best single split when every threshold was computed, else a guide
 * for ordering the features (cost AN_INF when none was computed). */
static an_guide sweep_one(an_ctx *c, const an_item *list, uint32_t m, const int64_t *tot, an_stump *s,
                          int32_t f)
{
    const size_t nc = c->nc;
    int64_t *cnt = c->cnt, n = 0, lim = s->best == 0 ? AN_INF : -1;
    memset(cnt, 0, nc * sizeof *cnt);
    an_guide g = {AN_INF, 0};
    for (uint32_t k = 0; k + 1 < m && lim != AN_INF; k++) {
        int64_t w = c->unit ? 1 : c->cw[list[k].label];
        cnt[list[k].label] += w;
        n += w;
        if (n <= lim || list[k + 1].rank == list[k].rank) continue;
        int64_t right, cost = split_cost(cnt, tot, nc, &right);
        if (cost < s->best) {
            s->best = cost;
            s->rule = (an_entry){f, list[k].row};
        }
        lim = right == 0 || s->best == 0 ? AN_INF : n + (cost - s->best);
        if (cost < g.cost) g = (an_guide){cost, k + 1};
    }
    return g;
}

/* One feature, two parts (st[1]: the marked items, st[0] the others), any
 * classes and weights.  Each part's weight so far and its limit (the skip
 * budget above as an absolute weight: the part's next threshold is costed
 * once its weight passes it; 0 at first, so a part is costed once it has an
 * item) stay in registers, and the defining row of a
 * costed threshold is looked up only when it becomes the best: the version
 * that kept the parts' skip, last row and counts in memory took one item per
 * 2.0 ns against 1.35 ns here (avila, 12 classes, 20 867 rows, best of 200). */

/* The last item of part `side` among the first k + 1 of the list. */
static inline uint32_t last_of(const an_item *list, uint32_t k, const uint8_t *mark, uint32_t side)
{
    while (mark[list[k].row] != side) k--;
    return list[k].row;
}

/* The threshold after item k, for the part `side` of weight n so far (counts
 * cnt, totals tot): its cost if it improves on the part's best; returns the
 * part's next limit (AN_INF: no later threshold can improve). */
static int64_t offer_at(const an_ctx *c, const an_item *list, uint32_t k, uint32_t side, int64_t n,
                        const int64_t *cnt, const int64_t *tot, an_stump *s, int32_t f)
{
    int64_t right, cost = split_cost(cnt, tot, c->nc, &right);
    if (cost < s->best) {
        s->best = cost;
        s->rule = (an_entry){f, last_of(list, k, c->mark, side)};
    }
    return right == 0 || s->best == 0 ? AN_INF : n + (cost - s->best);
}

static inline __attribute__((always_inline)) void
sweep_two_as(const an_ctx *c, const an_item *list, uint32_t m, an_stump *const st[2],
             const int64_t *const tot[2], int32_t f, const bool unit)
{
    const size_t nc = c->nc;
    const uint8_t *mark = c->mark;
    const int64_t *cw = c->cw;
    int64_t *const cnt = c->cnt; /* part 0's counts, then part 1's */
    memset(cnt, 0, 2 * nc * sizeof *cnt);
    int64_t n0 = 0, n1 = 0;
    int64_t lim0 = st[0]->best == 0 ? AN_INF : 0, lim1 = st[1]->best == 0 ? AN_INF : 0;
    for (uint32_t k = 0; k + 1 < m; k++) {
        const uint32_t side = mark[list[k].row], label = list[k].label;
        int64_t w = 1;
        if (unit) {
            n1 += side;
            n0 = (int64_t)k + 1 - n1;
        } else {
            w = cw[label];
            const int64_t mine = w & -(int64_t)side;
            n1 += mine;
            n0 += w - mine;
        }
        cnt[side * nc + label] += w;
        if (__builtin_expect((n0 > lim0) | (n1 > lim1), 0) && list[k + 1].rank != list[k].rank) {
            if (n0 > lim0) lim0 = offer_at(c, list, k, 0, n0, cnt, tot[0], st[0], f);
            if (n1 > lim1) lim1 = offer_at(c, list, k, 1, n1, cnt + nc, tot[1], st[1], f);
            if (lim0 == AN_INF && lim1 == AN_INF) break;
        }
    }
}

static void sweep_two(const an_ctx *c, const an_item *list, uint32_t m, an_stump *const st[2],
                      const int64_t *const tot[2], int32_t f)
{
    if (c->unit) sweep_two_as(c, list, m, st, tot, f, true);
    else sweep_two_as(c, list, m, st, tot, f, false);
}

/* The same for two classes of weight 1 (most data sets), kept in registers:
 * the four counts (part × class) are 16-bit fields of one word, flushed into
 * wide counters before a field can overflow, so an item costs one add and no
 * store-to-load chain through memory.  Both parts' costs are computed at every
 * threshold without a branch (a handful of instructions; the skip budgets of
 * the generic sweep cost more in mispredicted branches than they save here);
 * only a new best branches.  Every 64 items a part whose remaining items are of
 * one class, or whose best is 0, is done (no later threshold can be better). */
#define FIELD(side, label) (16u * (2u * (side) + (label)))
#define FLUSH_EVERY 32768u

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static inline __attribute__((always_inline)) void
sweep_two_binary_as(const an_ctx *c, const an_item *list, uint32_t m, an_stump *const st[2],
                    const int64_t *const tot[2], int32_t f, const bool flushes)
{
    const uint8_t *mark = c->mark;
    int64_t w00 = 0, w01 = 0, w10 = 0, w11 = 0; /* flushed counts: part, class */
    uint64_t packed = 0;
    uint32_t since_flush = 0;
    const int64_t t00 = tot[0][0], t01 = tot[0][1], t10 = tot[1][0], t11 = tot[1][1];
    int64_t best0 = st[0]->best, best1 = st[1]->best;
    uint32_t last[2] = {0, 0};
    for (uint32_t k = 0; k + 1 < m; k++) {
        const an_item *it = &list[k];
        unsigned side = mark[it->row];
        packed += UINT64_C(1) << FIELD(side, it->label);
        last[side] = it->row;
        if (flushes && ++since_flush == FLUSH_EVERY) {
            w00 += (int64_t)(packed & 0xffff);
            w01 += (int64_t)(packed >> 16 & 0xffff);
            w10 += (int64_t)(packed >> 32 & 0xffff);
            w11 += (int64_t)(packed >> 48);
            packed = 0;
            since_flush = 0;
        }
        if (list[k + 1].rank == it->rank) continue;
        int64_t a0 = w00 + (int64_t)(packed & 0xffff), a1 = w01 + (int64_t)(packed >> 16 & 0xffff);
        int64_t b0 = w10 + (int64_t)(packed >> 32 & 0xffff), b1 = w11 + (int64_t)(packed >> 48);
        int64_t ra = min64(t00 - a0, t01 - a1), rb = min64(t10 - b0, t11 - b1);
        int64_t ca = min64(a0, a1) + ra, cb = min64(b0, b1) + rb;
        if (ca < best0) {
            best0 = ca;
            st[0]->rule = (an_entry){f, last[0]};
        }
        if (cb < best1) {
            best1 = cb;
            st[1]->rule = (an_entry){f, last[1]};
        }
        if ((k & 63) == 63 && (ra == 0 || best0 == 0) && (rb == 0 || best1 == 0)) break;
    }
    st[0]->best = best0;
    st[1]->best = best1;
}

/* Under FLUSH_EVERY items (most nodes) the fields never overflow: the loop
 * without the wide counters keeps every count in a register. */
static void sweep_two_binary(const an_ctx *c, const an_item *list, uint32_t m, an_stump *const st[2],
                             const int64_t *const tot[2], int32_t f)
{
    if (m <= FLUSH_EVERY) sweep_two_binary_as(c, list, m, st, tot, f, false);
    else sweep_two_binary_as(c, list, m, st, tot, f, true);
}

static void stump_init(an_stump *s, const int64_t *tot, size_t nc)
{
    s->leaf = s->best = an_leaf_cost(tot, nc);
    s->rule = (an_entry){-1, 0};
}

/* The two-part sweep of feature f: st[1] gets the marked items' best stump,
 * st[0] the others'. */
static void sweep_feature(an_ctx *c, const an_node *nd, const int64_t *const tot[2], an_stump *const st[2],
                          size_t f)
{
    const uint32_t m = nd->m;
    const size_t nc = c->nc;
    const an_item *list = nd->lists + f * m;
    if (nc == 2 && c->unit) {
        sweep_two_binary(c, list, m, st, tot, (int32_t)f);
        return;
    }
    sweep_two(c, list, m, st, tot, (int32_t)f);
}

int64_t an_pure_bound(const int64_t *cnt, size_t nc, uint32_t leaves)
{
    if (leaves >= nc) return 0;
    int64_t top[8] = {0}, total = 0, kept = 0;
    if (leaves > 8) leaves = 8; /* a weaker bound, still a bound */
    for (size_t k = 0; k < nc; k++) {
        total += cnt[k];
        int64_t x = cnt[k];
        for (uint32_t j = 0; j < leaves && x > 0; j++) {
            if (x > top[j]) {
                int64_t y = top[j];
                top[j] = x;
                x = y;
            }
        }
    }
    for (uint32_t j = 0; j < leaves; j++) kept += top[j];
    return total - kept;
}

unsigned an_threads(uint32_t requested)
{
#ifdef _OPENMP
    unsigned t = requested ? requested : (unsigned)omp_get_max_threads();
    return t < 1 ? 1 : t > AN_MAX_THREADS ? AN_MAX_THREADS : t;
#else
    (void)requested;
    return 1;
#endif
}

void an_stumps(an_ctx *c, const an_node *nd, const int64_t *tot_marked, const int64_t *tot_other,
               an_stump *marked, an_stump *other, an_guide *guide)
{
    const uint32_t m = nd->m;
    const size_t nc = c->nc;
    stump_init(other, tot_other, nc);
    if (!marked && !guide) {
        for (size_t f = 0; f < c->nf; f++) sweep_one(c, nd->lists + f * m, m, tot_other, other, (int32_t)f);
        return;
    }
    if (!marked) {
        /* Each feature swept against its own best: its guide is then its best
         * single threshold (the first of the cheapest), not whatever was
         * computed before the other features' best made the sweep skip —
         * the probe the search evaluates first for that feature. */
        for (size_t f = 0; f < c->nf; f++) {
            an_stump own;
            stump_init(&own, tot_other, nc);
            an_guide g = sweep_one(c, nd->lists + f * m, m, tot_other, &own, (int32_t)f);
            guide[f] = own.rule.feature < 0 ? (an_guide){own.best, 0} : g;
            if (own.best < other->best) *other = own;
        }
        return;
    }
    stump_init(marked, tot_marked, nc);
    an_stump *const st[2] = {other, marked};
    const int64_t *const tot[2] = {tot_other, tot_marked};
    for (size_t f = 0; f < c->nf && (other->best > 0 || marked->best > 0); f++)
        sweep_feature(c, nd, tot, st, f);
}
