/* The dynamic programme over branches (discrete.h). */
#include "discrete_impl.h"
#include "pdt_parallel.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DC_INF INT64_MAX

/* ------------------------------------------------------------ the search */

const char dc_paused[] = "paused";
const char dc_halted[] = "halted";

static double elapsed(const dc_search *s)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec);
}

static bool out_of_time(dc_search *s)
{
    if (s->stopped_by) return true;
    if (s->halt && __atomic_load_n(s->halt, __ATOMIC_RELAXED)) return s->stopped_by = dc_halted, true;
    if (s->work_limit && s->evaluations >= s->work_limit) return s->stopped_by = dc_paused, true;
    if (s->row_limit && s->rows >= s->row_limit) return s->stopped_by = "row budget", true;
    /* the clock at every call: an evaluation on many features takes milliseconds (wine with
     * axis rules, 1 300 thresholds and 3 classes: every 256th call overran a 1 s limit by
     * 0.8 s), a reading of the clock tens of nanoseconds */
    const dc_problem *p = s->p;
    if (pdt_stop_requested(p->stop)) s->stopped_by = "interrupt";
    if (p->time_limit > 0 || p->progress) {
        const double t = elapsed(s);
        if (p->time_limit > 0 && t >= p->time_limit) s->stopped_by = "time limit";
        if (p->progress && t >= s->next_progress) {
            s->next_progress = t + 1;
            p->progress(p->progress_user, s->evaluations, s->have && *s->have ? s->best : NULL);
        }
    }
    if (dc_memo_full(s->memo)) s->stopped_by = "memory limit";
    return s->stopped_by != NULL;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The depth left to a region at `depth` (the memo's key). */
static uint32_t depth_left(const dc_search *s, size_t depth)
{
    return s->max_depth == PDT_UNLIMITED ? PDT_UNLIMITED : s->max_depth - (uint32_t)depth;
}

/* Branch c plus the condition (f, v), sorted, into out; its length. */
static size_t extend(uint32_t *out, const uint32_t *c, size_t len, uint32_t f, uint32_t v)
{
    size_t k = 0, o = 0;
    while (k < len && (c[k] >> 16) < f) out[o++] = c[k++];
    out[o++] = f << 16 | v;
    while (k < len) out[o++] = c[k++];
    return o;
}

static int cand_cmp(const void *a, const void *b)
{
    const dc_cand *x = a, *y = b;
    if (x->lb != y->lb) return x->lb < y->lb ? -1 : 1;
    return (x->f > y->f) - (x->f < y->f);
}

/* Least cost of a child: its leaf, or a split over its unavoidable errors,
 * or what the memo knows of it (e, or NULL). */
static int64_t child_bound(const dc_search *s, uint64_t errors, uint64_t floor, bool can_split, const dc_entry *e)
{
    const dc_problem *p = s->p;
    int64_t lb = (int64_t)errors * p->err_cost;
    if (can_split && errors > floor) lb = min64(lb, p->split_cost + (int64_t)floor * p->err_cost);
    if (e && e->solved) return e->lb;
    if (e && e->lb > lb) lb = e->lb;
    return lb;
}

/* The bound of the split on f from its children's counts (fr's cells of f):
 * its cost plus each child's leaf or one more split; DC_INF when the split
 * is needless.  A split is needless when it gains no more than its cost
 * over one child's tree alone: that tree T (of child u, where f is constant)
 * applied to the whole region errs at most on every row of the other
 * children and has no more nodes, so the split costs at least
 * cost(T) + split_cost + sum over v != u of the children's bounds, and T on
 * the region at most cost(T) + sum over v != u of rows(v) errors.  When
 * split_cost covers sum over v != u of (rows(v) errors - bound(v)) for the
 * u of the largest such term, some tree with fewer nodes and no larger cost
 * has another root (by induction on nodes: a leaf or a split not needless),
 * so the region's optimum is the least of its leaf and its other splits. */
static int64_t count_bound(const dc_search *s, const dc_frame *fr, uint32_t f, bool child_split)
{
    const dc_problem *p = s->p;
    const size_t at = (size_t)f * s->maxk;
    int64_t q = p->split_cost, gain = 0, most = 0;
    for (size_t v = 0; v < p->k[f]; v++) {
        if (!fr->cm[at + v]) continue;
        int64_t lb = child_bound(s, fr->cerr[at + v], fr->cfl[at + v], child_split, NULL);
        int64_t g = (int64_t)fr->cm[at + v] * p->err_cost - lb;
        q += lb;
        gain += g;
        if (g > most) most = g;
    }
    return gain - most <= p->split_cost ? DC_INF : q;
}

/* The counts of a region (items, len) into fr: when it is child v of its
 * parent's split on two-valued f (parent: else NULL), from the parent's
 * bitsets (dc_kids_count: both children at once, kept for the other and
 * for the child's search after its look-ahead); else from its items.  True
 * when fr holds the region's bitsets (dc_class_bits). */
static bool count_region(dc_search *s, dc_frame *fr, const uint32_t *items, size_t len, dc_frame *parent, uint32_t f,
                         uint32_t v)
{
    if (parent && s->p->k[f] == 2 && (parent->kid[v].ready || dc_kids_count(s, parent, f, parent->cm + (size_t)f * s->maxk))) {
        dc_kid_load(s, fr, &parent->kid[v], items, len);
        return true;
    }
    return dc_class_bits(s, fr, items, len);
}

/* Child v of fr's node (items, len: or NULL, 0 when the memo gets the
 * child's rows) split on f, as the memo's subset: by bitsets too when the
 * node has them and f is two-valued (keys are then compared a word at a
 * time).  c, n_cond: a branch selecting the child's rows, or its parent's
 * (the memo's check of a key of conditions allows (f, v)). */
static dc_subset child_of(const dc_search *s, const dc_frame *fr, uint32_t f, uint32_t v, const uint32_t *items,
                          size_t len, const uint32_t *c, size_t n_cond)
{
    const dc_problem *p = s->p;
    dc_subset sub = {items, len, s->col + (size_t)f * p->n, v, NULL, NULL, NULL, 0, c, n_cond, f};
    if (fr->has_bits && p->k[f] == 2 && s->bit_at[f] != SIZE_MAX) {
        sub.all = fr->rc + p->nc * s->words, sub.one = s->bits + s->bit_at[f];
        if (fr->has_sum) sub.nz = fr->nz, sub.n_nz = fr->n_nz; /* (the memo's checks read those words only) */
    }
    return sub;
}

/* The Debug builds: dc_binary_bounds (in fr->qb) against count_bound, feature by feature. */
static void check_bounds(dc_search *s, dc_frame *fr, const uint32_t *rows, size_t m, bool child_split)
{
#ifndef NDEBUG
    const dc_problem *p = s->p;
    for (size_t g = 0; g < p->nf; g++) {
        if (s->tpos[g] == UINT32_MAX) continue;
        size_t at = g * s->maxk;
        const size_t ways = dc_count_cells(s, fr, true, (uint32_t)g, rows, m, fr->cm + at, fr->cerr + at, fr->cfl + at);
        const int64_t want = ways < 2 ? DC_INF : count_bound(s, fr, (uint32_t)g, child_split);
        const int32_t got = fr->qb[s->tpos[g]];
        assert(got == INT32_MAX ? want == DC_INF : want == got);
    }
#else
    (void)s, (void)fr, (void)rows, (void)m, (void)child_split;
#endif
}

/* A lower bound of a region (rows, m; at `depth`; rows NULL when its
 * parent's split is lazy_split) from its own look-ahead:
 * its leaf (errors given), or a split whose children are each a leaf or one
 * more split.  Stops at `known` (nothing better is sought).  Scratch: the
 * frame of `depth`, free while the region's parent chooses its split. */
static int64_t look_bound(dc_search *s, const uint32_t *rows, size_t m, size_t depth, uint64_t errors, uint64_t floor,
                          int64_t known, dc_frame *parent, uint32_t f, uint32_t v)
{
    const dc_problem *p = s->p;
    int64_t best = (int64_t)errors * p->err_cost;
    if (!(s->max_depth == PDT_UNLIMITED || depth < s->max_depth) || errors <= floor || best <= known) return best;
    dc_frame *fr = dc_frame_at(s, depth);
    if (!fr) return known;
    const bool child_split = s->max_depth == PDT_UNLIMITED || depth + 1 < s->max_depth;
    const bool bits = count_region(s, fr, rows, m, parent, f, v);
    const bool at_once = bits && s->narrow; /* the binary features' bounds in one pass */
    if (at_once) {
        dc_binary_bounds(s, fr, child_split, fr->qb);
        int32_t least = INT32_MAX;
        for (size_t j = 0; j < s->nb; j++) least = fr->qb[j] < least ? fr->qb[j] : least;
        if (least < INT32_MAX) best = min64(best, least);
        check_bounds(s, fr, rows, m, child_split);
    }
    for (size_t g = 0; g < p->nf && best > known; g++) {
        size_t at = g * s->maxk;
        if (at_once && s->tpos[g] != UINT32_MAX) continue;
        if (dc_count_cells(s, fr, bits, (uint32_t)g, rows, m, fr->cm + at, fr->cerr + at, fr->cfl + at) < 2) continue;
        best = min64(best, count_bound(s, fr, (uint32_t)g, child_split));
    }
    return best > known ? best : known;
}

/* Whether fr's node's split on f need not part its items until a child is
 * searched: the node has its bitsets and f is among tbits, so the
 * children's counts, memo entries and look-ahead are all made from bitsets
 * (count_region, dc_memo_get_at by a subset, dc_count_codes without items).
 * (kr-vs-kp one-hot, λ = 0.003: the items of 1.8 million splits parted, 0.95
 * million regions searched.) */
static bool lazy_split(const dc_search *s, const dc_frame *fr, uint32_t f)
{
    return fr->has_bits && s->tbits && s->tpos[f] != UINT32_MAX;
}

/* The children of the split on f of branch c (part, start; the children at
 * `depth`), each bound clb[v] raised by what the memo knows now and by the
 * child's own look-ahead (kept in the memo); their sum.  part NULL: the
 * items are not yet parted (lazy_split: the children are then known by
 * fr's bitsets alone). */
static int64_t sharpen(dc_search *s, dc_frame *fr, uint32_t f, const uint32_t *c, const uint32_t *part,
                       const uint32_t *start, size_t depth, int64_t *clb)
{
    const dc_problem *p = s->p;
    int64_t sum = 0;
    for (size_t v = 0; v < p->k[f]; v++) {
        size_t m = start[v + 1] - start[v];
        if (!m) continue;
        size_t kl = extend(fr->key, c, depth - 1, f, (uint32_t)v);
        const dc_subset sub = child_of(s, fr, f, (uint32_t)v, NULL, 0, c, depth - 1);
        const uint32_t *rows = part ? part + start[v] : NULL;
        const uint64_t h = fr->chash[f * s->maxk + v];
        dc_entry *e = dc_memo_get_at(s->memo, h, rows, m, depth_left(s, depth), fr->key, kl, &sub, true);
        if (e && !e->solved && !e->looked) { /* (look_bound counts in frames; the memo stays where it is) */
            const int64_t known = min64(clb[v], e->lb);
            const dc_entry was = *e;
            const uint64_t gen = dc_memo_gen(s->memo);
            dc_memo_unlock(s->memo);
            const int64_t lb = look_bound(s, rows, m, depth, fr->cerr[f * s->maxk + v], fr->cfl[f * s->maxk + v],
                                          known, fr, f, (uint32_t)v);
            if (s->memo->locks) { /* the thread beside may have moved the table, or collected it */
                bool stale;
                e = dc_memo_again(s->memo, &was, gen, &stale);
                if (stale) {
                    dc_memo_unlock(s->memo);
                    e = dc_memo_get_at(s->memo, h, rows, m, depth_left(s, depth), fr->key, kl, &sub, true);
                }
            }
            if (e && !e->solved) {
                if (lb > e->lb) e->lb = lb;
                e->looked = true;
            }
            if (lb > clb[v]) clb[v] = lb;
        }
        if (e && e->solved) clb[v] = e->lb;
        else if (e && e->lb > clb[v]) clb[v] = e->lb;
        dc_memo_unlock(s->memo);
        sum += clb[v];
    }
    return sum;
}

static int64_t solve(dc_search *s, const uint32_t *items, size_t len, const uint32_t *c, size_t depth,
                     int64_t ub, dc_frame *parent, uint32_t f, uint32_t v);
static void dc_deepen(dc_search *s);

/* The similarity bound (MurTree's): an optimal tree of region R with `rem`
 * levels, applied to a region Q searched earlier with as many levels, errs
 * on at most |Q \ R| rows more than on R and has no more nodes once those
 * left with one way or none are dropped, so cost(R) ≥ cost(Q) −
 * err_cost·|Q \ R|, and what Q's search returned is at most cost(Q) (its
 * optimum, or a lower bound).  The largest such bound over the regions fr
 * keeps (0: none), for R child v of a two-valued split: its parent's rows
 * `all` and the feature's code-1 rows `one` (no bitset of R is made). */
static int64_t similar(const dc_search *s, const dc_frame *fr, const uint64_t *all, const uint64_t *one, uint32_t v,
                       uint32_t rem)
{
    const size_t words = s->words;
    const int64_t err_cost = s->p->err_cost;
    const uint64_t flip = v ? 0 : ~UINT64_C(0);
    int64_t best = 0;
    for (uint32_t r = 0; err_cost > 0 && r < fr->n_seen; r++) {
        if (fr->seen_rem[r] != rem || fr->seen_cost[r] <= best) continue;
        const uint64_t *q = fr->seen + (size_t)r * words;
        const int64_t room = (fr->seen_cost[r] - best - 1) / err_cost; /* rows of Q outside R that keep it above best */
        int64_t out = 0;
        for (size_t w = 0; w < words && out <= room; w++) out += __builtin_popcountll(q[w] & ~(all[w] & (one[w] ^ flip)));
        if (out <= room) best = fr->seen_cost[r] - out * err_cost;
    }
    return best;
}

/* The node's rows (its bitsets, fr->rc) and what its search returned, kept for the next regions at its depth. */
static void keep_seen(const dc_search *s, dc_frame *fr, size_t len, int64_t cost, uint32_t rem)
{
    const uint32_t r = fr->seen_next;
#ifndef NDEBUG
    size_t rows = 0; /* (the bitsets are the node's: as many rows) */
    for (size_t w = 0; w < s->words; w++) rows += (size_t)__builtin_popcountll(fr->rc[s->p->nc * s->words + w]);
    assert(rows == len);
#else
    (void)len;
#endif
    memcpy(fr->seen + (size_t)r * s->words, fr->rc + s->p->nc * s->words, s->words * sizeof *fr->seen);
    fr->seen_cost[r] = cost;
    fr->seen_rem[r] = rem;
    fr->seen_next = (r + 1) % DC_SEEN;
    if (fr->n_seen < DC_SEEN) fr->n_seen++;
}

/* Another thread is searching the region of memo hash h at `depth` under a
 * budget of at least ub: its answer will be this one's (busy: children()). */
static bool busy_elsewhere(const dc_search *s, size_t depth, uint64_t h, int64_t ub)
{
    const size_t stride = s->p->nf + 2;
    for (uint32_t t = 0; t < s->proof_threads; t++) {
        if (t == s->root_turn) continue;
        const int64_t *b = s->busy + (t * stride + depth) * 2;
        if ((uint64_t)__atomic_load_n(&b[0], __ATOMIC_RELAXED) == h && __atomic_load_n(&b[1], __ATOMIC_RELAXED) >= ub)
            return true;
    }
    return false;
}

static void busy_mark(const dc_search *s, size_t depth, uint64_t h, int64_t ub)
{
    int64_t *b = s->busy + ((size_t)s->root_turn * (s->p->nf + 2) + depth) * 2;
    __atomic_store_n(&b[1], ub, __ATOMIC_RELAXED);
    __atomic_store_n(&b[0], (int64_t)h, __ATOMIC_RELAXED);
}

/* A turn's order (children() and least_split): the k children not done,
 * the least bound first, ties by code (by_codes: by code alone); their
 * number. */
static size_t turn_order(const int64_t *lb, const uint8_t *done, size_t k, bool by_codes, uint32_t *order)
{
    size_t n = 0;
    for (uint32_t v = 0; v < k; v++) {
        if (done[v]) continue;
        size_t at = n++;
        for (; at > 0 && !by_codes && lb[order[at - 1]] > lb[v]; at--) order[at] = order[at - 1];
        order[at] = v;
    }
    return n;
}

/* The children of the split on f (fr->part, fr->start, the node's items
 * parted there first unless *parted; bounds clb of f's
 * cells, *total: the split's cost plus their sum) searched until all are
 * solved (true; *total their cost) or *total reaches bound (false; *total a
 * lower bound of the split) or the search stops.  Budgets grow by doubling
 * steps, each child in turn: a child is asked first whether it costs less
 * than its bound plus a split, not whether it fits under all the budget its
 * siblings' weak bounds leave (a deep, failing search when a sibling's bound
 * is about to rise past it).  A child whose siblings are all solved is
 * asked under all the budget at once (one thread, evaluations: anneal
 * 849 643 → 697 784, nursery one-hot 0.001 1 837 124 → 1 554 818, kr-vs-kp
 * one-hot 0.001 2 850 102 → 1 912 078, kr-vs-kp multiway 0.001 1 945 563
 * → 1 185 364; docs/categorical.md, eighteenth pass).  With threads, a
 * child another thread is searching under as large a budget is left for
 * later in the turn (its answer will be in the memo), and searched anyway
 * only in a turn that
 * could search nothing else: two threads in one subtree then part its
 * regions between them (they meet in the same subtree when regions under
 * different root splits coincide, and when the first thread takes up the
 * others' root splits at the end). */
static bool children(dc_search *s, dc_frame *fr, uint32_t f, const uint32_t *c, size_t depth, int64_t bound,
                     int64_t *total, const uint32_t *items, size_t len, bool *parted)
{
    const dc_problem *p = s->p;
    if (!*parted) dc_partition(s, f, items, len, fr->cm + (size_t)f * s->maxk, fr->part, fr->start), *parted = true;
    const uint32_t *start = fr->start;
    int64_t *clb = fr->clb + (size_t)f * s->maxk;
    uint8_t *done = fr->done;
    size_t unsolved = 0; /* the children not solved */
    for (size_t v = 0; v < p->k[f]; v++) unsolved += !(done[v] = start[v + 1] == start[v]);
    int64_t step = p->split_cost > p->err_cost ? p->split_cost : p->err_cost;
    uint32_t *order = fr->order;
    for (bool anyway = false;;) {
        bool all = true, searched = false;
        const size_t n = turn_order(clb, done, p->k[f], s->by_codes, order);
        for (size_t u = 0; u < n; u++) {
            const uint32_t v = order[u];
            int64_t slack = bound - *total;
            if (slack <= 0) return false;
            /* the last child left unsolved gets all the room at once: the steps keep a child from
             * a deep search while a sibling's bound may still rise and end the split, and it has
             * none (also when the siblings before it in this turn were solved in it) */
            int64_t child_ub = clb[v] + (unsolved > 1 && step < slack ? step : slack);
            const uint64_t h = fr->chash[f * s->maxk + v];
            if (s->busy && !anyway && h && ((s->busy_half && h & 1) || busy_elsewhere(s, depth + 1, h, child_ub))) {
                all = false;
                continue;
            }
            size_t kl = extend(fr->key, c, depth, f, v);
            if (s->busy) busy_mark(s, depth + 1, h, child_ub);
            int64_t got = solve(s, fr->part + start[v], start[v + 1] - start[v], fr->key, kl, child_ub, fr, f, v);
            if (s->busy) busy_mark(s, depth + 1, 0, 0);
            searched = true;
            if (s->stopped_by) return false;
            if (got > clb[v]) *total += got - clb[v], clb[v] = got;
            if (got < child_ub) done[v] = 1, unsolved--;
            else all = false;
        }
        if (*total >= bound) return false;
        if (all) return true;
        if ((anyway = !searched)) continue; /* (every child left was another's: the same turn again) */
        step = step > INT64_MAX / 2 ? INT64_MAX : 2 * step;
    }
}

/* A region's leaf errors and unavoidable errors (its label is not wanted):
 * when it is child v of its parent's split on f, the parent's cells of that
 * split hold them (counted for the split's bound; every split searched was
 * counted so); else counted from its items (a child's, just parted and no
 * longer in cache: kr-vs-kp one-hot, λ = 0.003, a sixth of the search's time
 * with the items parted lazily). */
static dc_stats stats_of(dc_search *s, const uint32_t *items, size_t len, const dc_frame *parent, uint32_t f,
                         uint32_t v)
{
    if (!parent) return dc_region_stats(s, items, len);
    const size_t cell = (size_t)f * s->maxk + v;
    const dc_stats st = {.errors = parent->cerr[cell], .floor = parent->cfl[cell]};
#ifndef NDEBUG
    const dc_stats by_items = dc_region_stats(s, items, len);
    assert(parent->cm[cell] == len && by_items.errors == st.errors && by_items.floor == st.floor);
#endif
    return st;
}

/* The entry of branch c (items, len) after the memo was let go: by its
 * place (was) while no collection has moved keys, else by its rows
 * (created when absent, unless the search was stopped). */
static dc_entry *entry_again(dc_search *s, const dc_entry *was, uint64_t gen, const uint32_t *items, size_t len,
                             uint32_t rem, const uint32_t *c, size_t depth)
{
    bool stale = true;
    dc_entry *e = was->hash ? dc_memo_again(s->memo, was, gen, &stale) : NULL;
    if (!stale) return e;
    if (was->hash) dc_memo_unlock(s->memo);
    return dc_memo_get(s->memo, items, len, rem, c, depth, !s->stopped_by);
}

/* The optimum of branch c (items, len; `depth` conditions) if it is below
 * ub, else a lower bound that is at least ub. */
static int64_t solve(dc_search *s, const uint32_t *items, size_t len, const uint32_t *c, size_t depth,
                     int64_t ub, dc_frame *parent, uint32_t f_parent, uint32_t v_parent)
{
    const dc_problem *p = s->p;
    const uint32_t rem = depth_left(s, depth);
    dc_entry *e; /* (its block held until dc_memo_unlock) */
    if (parent) {
        const dc_subset as_child = child_of(s, parent, f_parent, v_parent, NULL, 0, c, depth);
        e = dc_memo_get_at(s->memo, parent->chash[f_parent * s->maxk + v_parent], items, len, rem, c, depth, &as_child,
                           true);
    } else {
        e = dc_memo_get(s->memo, items, len, rem, c, depth, true);
    }
    if (e && (e->solved || e->lb >= ub)) {
        const int64_t known = e->lb;
        dc_memo_unlock(s->memo);
        return known;
    }
    const dc_entry was = e ? *e : (dc_entry){0};
    const uint64_t gen = dc_memo_gen(s->memo); /* (a collection in the search below moves entries) */
    dc_memo_unlock(s->memo);
    if (out_of_time(s)) return ub;
    /* a child of a two-valued split like a region searched just before at its depth may cost
     * too much already */
    dc_frame *fr = dc_frame_at(s, depth);
    if (!fr) {
        s->stopped_by = "memory limit";
        return ub;
    }
    int64_t within = 0;
    if (parent && parent->has_bits && p->k[f_parent] == 2 && s->bit_at[f_parent] != SIZE_MAX) {
        within = similar(s, fr, parent->rc + p->nc * s->words, s->bits + s->bit_at[f_parent], v_parent, rem);
        if (within >= ub) {
            if (s->memo->locks) e = entry_again(s, &was, gen, items, len, rem, c, depth);
            if (e && !e->solved && e->lb < within) e->lb = within;
            dc_memo_unlock(s->memo);
            return within;
        }
    }
    s->evaluations++;
    s->rows += len;
    if (s->next_deeper && s->evaluations >= s->next_deeper && (dc_deepen(s), s->stopped_by)) return ub;
    const dc_stats st = stats_of(s, items, len, parent, f_parent, v_parent);
    int64_t leaf = (int64_t)st.errors * p->err_cost;
    int64_t best = leaf, bound = leaf < ub ? leaf : ub;
    uint32_t best_f = DC_LEAF;
    int64_t lower = leaf; /* when nothing beats ub: the least bound of the leaf and every split */
    /* `within`, a lower bound of the region's cost: the similarity bound, and without a depth
     * limit any of its subsets' (a tree of the region errs there on no more rows, once nodes
     * left with one way or no rows are dropped) */
    bool can_split = (s->max_depth == PDT_UNLIMITED || depth < s->max_depth) && st.errors > st.floor;
    if (can_split) lower = min64(lower, p->split_cost + (int64_t)st.floor * p->err_cost);
    bool counted = false; /* fr holds the region's bitsets (and so has room for them in seen) */
    if (can_split && p->split_cost + (int64_t)st.floor * p->err_cost < bound && within < bound) {
        lower = leaf;
        bool child_split = s->max_depth == PDT_UNLIMITED || depth + 1 < s->max_depth;
        size_t n_cand = 0;
        uint32_t *part = fr->part, *start = fr->start;
        /* every split's bound, one level of look-ahead; its children's bounds kept.  First
         * every child's size and errors: a split whose bound from these alone (each child its
         * leaf or one more split) reaches `bound` is out without a look at the memo, which can
         * only raise bounds.  Then the others' hashes (memo slots prefetched), then the memo */
        const uint32_t child_rem = depth_left(s, depth + 1);
        size_t n_split = 0;
        const bool bits = count_region(s, fr, items, len, parent, f_parent, v_parent);
        counted = bits;
        const bool at_once = bits && s->narrow; /* the binary features' bounds in one pass */
        if (at_once) dc_binary_bounds(s, fr, child_split, fr->qb), check_bounds(s, fr, items, len, child_split);
        for (size_t f = 0, used = 0; f < p->nf; f++) {
            size_t at = f * s->maxk;
            while (used < depth && (c[used] >> 16) < f) used++;
            if (used < depth && (c[used] >> 16) == f) continue; /* constant here */
            /* (needless: DC_INF; in the pass at once, INT32_MAX also for a child empty) */
            const bool by_pass = at_once && s->tpos[f] != UINT32_MAX;
            const int32_t q = by_pass ? fr->qb[s->tpos[f]] : 0;
            if (by_pass && q >= bound) {
                if (q < INT32_MAX) lower = min64(lower, q);
                continue;
            }
            /* (the split's cells, for its search, also when its bound is known) */
            if (dc_count_cells(s, fr, bits, (uint32_t)f, items, len, fr->cm + at, fr->cerr + at, fr->cfl + at) < 2)
                continue;
            if (!by_pass) {
                int64_t quick = count_bound(s, fr, (uint32_t)f, child_split);
                if (quick >= bound) {
                    lower = min64(lower, quick);
                    continue;
                }
            }
            fr->split[n_split++] = (uint32_t)f;
            dc_hash_codes(s, fr, bits, (uint32_t)f, items, len, fr->cm + at, child_rem, fr->chash + at);
        }
        for (size_t t = 0; t < n_split; t++) /* the slots have had the counting's time to load */
            for (size_t v = 0, at = fr->split[t] * s->maxk; v < p->k[fr->split[t]]; v++)
                if (fr->cm[at + v]) dc_memo_prefetch_key(s->memo, fr->chash[at + v]);
        for (size_t t = 0; t < n_split; t++) {
            const uint32_t f = fr->split[t];
            size_t at = f * s->maxk;
            int64_t lb = p->split_cost, *clb = fr->clb + at;
            for (size_t v = 0; v < p->k[f]; v++)
                lb += clb[v] = fr->cm[at + v] ? child_bound(s, fr->cerr[at + v], fr->cfl[at + v], child_split, NULL) : 0;
            /* the children's bounds from their counts, then from the memo, the larger child first,
             * until the split is out (the rest keep their counts' bounds: fewer lookups, and on
             * tic-tac-toe one-hot at 0.001 15 % fewer evaluations, anneal 0.4 % more) */
            for (size_t k = 0; k < p->k[f] && lb < bound; k++) {
                size_t v = p->k[f] == 2 ? (fr->cm[at] < fr->cm[at + 1] ? 1 - k : k) : k;
                size_t m = fr->cm[at + v];
                if (!m) continue;
                lb -= clb[v];
                const dc_subset sub = child_of(s, fr, f, (uint32_t)v, items, len, c, depth);
                const dc_entry *ce = dc_memo_find_subset(s->memo, fr->chash[at + v], m, child_rem, &sub);
                lb += clb[v] = child_bound(s, fr->cerr[at + v], fr->cfl[at + v], child_split, ce);
                dc_memo_unlock(s->memo);
                if (ce && rem == PDT_UNLIMITED && clb[v] > within) within = clb[v];
            }
            if (lb < bound) fr->cand[n_cand++] = (dc_cand){lb, f};
            else lower = min64(lower, lb);
        }
        if (fr) qsort(fr->cand, n_cand, sizeof *fr->cand, cand_cmp);
        /* the root with threads beside: each takes the next split no thread has taken (claimed,
         * by feature); the full search's thread then searches those others took, whose
         * children's bounds in the memo mostly end them at once (or it helps finish them) */
        uint8_t *later = depth == 0 && s->claimed && !s->root_turn ? calloc(n_cand ? n_cand : 1, 1) : NULL;
        const bool shared_root = depth == 0 && s->claimed && (s->root_turn || later); /* (no memory: takes all) */
        const int passes = later ? 2 : 1;
        for (int pass = 0; pass < passes; pass++)
        for (size_t t = 0; t < n_cand && !s->stopped_by && within < bound; t++) {
            if (fr->cand[t].lb >= bound) { /* and every later one */
                lower = min64(lower, fr->cand[t].lb);
                break;
            }
            uint32_t f = fr->cand[t].f;
            if (shared_root && pass == 0 && __atomic_exchange_n(&s->claimed[f], 1, __ATOMIC_ACQ_REL)) {
                if (later) later[t] = 1;
                continue;
            }
            if (pass == 1 && !later[t]) continue;
            int64_t *clb = fr->clb + (size_t)f * s->maxk;
            /* (sizes counted above) the items are parted only when a child is searched: most
             * splits tried end at their children's look-ahead, which bitsets alone can make */
            bool parted = !lazy_split(s, fr, f);
            if (parted) dc_partition(s, f, items, len, fr->cm + (size_t)f * s->maxk, part, start);
            else dc_starts(s, f, fr->cm + (size_t)f * s->maxk, start);
            /* every child's own look-ahead before any is solved: a costly sibling ends the split
             * before a cheap first child is searched under a loose budget */
            fr->kid[0].ready = fr->kid[1].ready = false; /* (of the last split searched) */
            int64_t sum = p->split_cost + sharpen(s, fr, f, c, parted ? part : NULL, start, depth + 1, clb);
            bool complete = sum < bound && children(s, fr, f, c, depth, bound, &sum, items, len, &parted);
            lower = min64(lower, sum); /* the children's costs and bounds */
            for (size_t v = 0; rem == PDT_UNLIMITED && v < p->k[f]; v++) /* (the children are subsets) */
                if (start[v + 1] > start[v] && clb[v] > within) within = clb[v];
            if (complete && sum < bound) {
                best = sum;
                best_f = f;
                bound = sum;
            }
        }
        free(later);
        /* Splits not searched once a subset's bound (within) reached the budget: their bounds
         * are in `lower` too, which bounds the region only as the least over every split.
         * (Until 2026-11-28 they were left out, and a region the budget cut could keep a
         * bound above its optimum: with those splits' bounds below `within`, lower must be
         * within, not the least of the splits searched.) */
        for (size_t t = 0; within >= bound && t < n_cand; t++) lower = min64(lower, fr->cand[t].lb);
    }
    if (depth == 0 && s->root_turn) return ub; /* a thread beside: some of the root's splits prove nothing */
    /* the table may have moved; a collection may have moved the key too, or dropped the entry */
    e = entry_again(s, &was, gen, items, len, rem, c, depth);
    if (s->stopped_by) { /* proves nothing; the best complete split is kept for the answer */
        if (e && !e->solved && best_f != DC_LEAF) e->feature = (uint16_t)best_f, e->incumbent = true;
        dc_memo_unlock(s->memo);
        return ub;
    }
    if (best < ub) {
        if (e) *e = (dc_entry){.hash = e->hash, .key = e->key, .len = e->len, .rem = e->rem, .n_cond = e->n_cond,
                               .lb = best, .solved = true,
                               .feature = best_f == DC_LEAF ? DC_ENTRY_LEAF : (uint16_t)best_f};
        dc_memo_unlock(s->memo);
        if (counted) keep_seen(s, fr, len, best, rem);
        return best;
    }
    if (lower < within) lower = within;
    if (lower < ub) lower = ub; /* (cannot happen: every way was cut at ub or above) */
    if (e && !e->solved && e->lb < lower) e->lb = lower;
    dc_memo_unlock(s->memo);
    if (counted) keep_seen(s, fr, len, lower, rem);
    return lower;
}

/* ------------------------------------------------------------ the tree */

typedef struct dc_build {
    dc_search *s;
    dc_result *r;
    size_t cap;
    pdt_error *err;
    bool solved;    /* the search finished: every region the tree needs has an optimum, in the memo or to be found */
    bool least;     /* solved, and the tree will be kept: of equal splits, the least feature's (least_split) */
} dc_build;

static pdt_status build_node(dc_build *b, size_t at, const uint32_t *items, size_t len, uint32_t *c,
                             size_t depth);

pdt_status dc_result_reserve(dc_result *r, size_t *cap, size_t need, size_t nc, pdt_error *err)
{
    if (r->n_nodes + need <= *cap) return PDT_OK;
    size_t grown = *cap ? 2 * *cap : 64;
    while (grown < r->n_nodes + need) grown *= 2;
    dc_node *nodes = realloc(r->nodes, grown * sizeof *nodes);
    if (nodes) r->nodes = nodes;
    uint64_t *counts = realloc(r->counts, grown * nc * sizeof *counts);
    if (counts) r->counts = counts;
    if (!nodes || !counts) return pdt_error_set(err, PDT_ENOMEM, "out of memory (the tree)");
    *cap = grown;
    return PDT_OK;
}

static pdt_status grow_nodes(dc_build *b, size_t need)
{
    return dc_result_reserve(b->r, &b->cap, need, b->s->p->nc, b->err);
}

/* The least feature whose split of branch c (items, len; `depth`
 * conditions) costs `cost`, the region's optimum, which the split on f
 * (found by the search) costs: the tree does not depend on which of equal
 * splits a search met first.  That order follows the bounds the memo holds
 * (another memo, a collected one, gives another), and with threads which
 * thread solved a region (the threads meet regions in other orders).
 * Each g < f is out when its children's bounds (their counts, the memo)
 * leave no room; else its children are searched in turns under growing
 * budgets, as children() does (its turns' order too), until they cost what
 * the optimum leaves them or more.  part, start, lb, done, order (maxk) and
 * branch (depth + 1) are scratch.  A limit stopping a check keeps f (the
 * answer stays proven: f is optimal). */
static uint32_t least_split(dc_search *s, const uint32_t *items, size_t len, const uint32_t *c, size_t depth,
                            int64_t cost, uint32_t f, uint32_t *part, uint32_t *start, int64_t *lb,
                            uint8_t *done, uint32_t *order, uint32_t *branch)
{
    const dc_problem *p = s->p;
    const char *stopped = s->stopped_by;
    const bool child_split = s->max_depth == PDT_UNLIMITED || depth + 1 < s->max_depth;
    const uint32_t child_rem = depth_left(s, depth + 1);
    const int64_t left = cost - p->split_cost; /* what the children may cost together */
    for (uint32_t g = 0, used = 0; g < f && !s->stopped_by; g++) {
        while (used < depth && (c[used] >> 16) < g) used++;
        if (used < depth && (c[used] >> 16) == g) continue; /* constant here */
        dc_partition(s, g, items, len, NULL, part, start);
        size_t ways = 0;
        int64_t sum = 0;
        for (size_t v = 0; v < p->k[g]; v++) {
            const size_t m = start[v + 1] - start[v];
            if (!(ways += m > 0, m)) continue;
            const dc_stats st = dc_region_stats(s, part + start[v], m);
            const dc_entry *ce = dc_memo_get(s->memo, part + start[v], m, child_rem, NULL, 0, false);
            sum += lb[v] = child_bound(s, st.errors, st.floor, child_split, ce);
            dc_memo_unlock(s->memo);
        }
        if (ways < 2 || sum > left) continue;
        size_t unsolved = 0;
        for (size_t v = 0; v < p->k[g]; v++) unsolved += !(done[v] = start[v + 1] == start[v]);
        int64_t step = p->split_cost > p->err_cost ? p->split_cost : p->err_cost;
        for (bool all = false; !all && sum <= left && !s->stopped_by; step = step > INT64_MAX / 2 ? INT64_MAX : 2 * step) {
            all = true;
            const size_t n = turn_order(lb, done, p->k[g], s->by_codes, order);
            for (size_t u = 0; u < n && sum <= left; u++) {
                const uint32_t v = order[u];
                const int64_t room = left - (sum - lb[v]); /* the most it may cost */
                const int64_t ub = (unsolved > 1 && step < room - lb[v] ? lb[v] + step : room) + 1;
                const size_t kl = extend(branch, c, depth, g, v);
                const int64_t got = solve(s, part + start[v], start[v + 1] - start[v], branch, kl, ub, NULL, 0, 0);
                if (s->stopped_by) break;
                sum += got - lb[v];
                lb[v] = got;
                if (got < ub) done[v] = 1, unsolved--; /* solved */
                else all = false;
            }
        }
        if (!s->stopped_by && sum <= left) {
            f = g;
            break;
        }
    }
    s->stopped_by = stopped;
    return f;
}

/* Fills node `at` (allocated by the caller) for the items of branch c. */
static pdt_status build_node(dc_build *b, size_t at, const uint32_t *items, size_t len, uint32_t *c,
                             size_t depth)
{
    dc_search *s = b->s;
    const dc_problem *p = s->p;
    dc_result *r = b->r;
    dc_stats st = dc_region_stats(s, items, len);
    uint64_t *counts = r->counts + at * p->nc;
    memset(counts, 0, p->nc * sizeof *counts);
    for (size_t t = 0; t < len; t++) counts[p->y[items[t]]]++;
    dc_node *nd = &r->nodes[at];
    nd->label = st.label;
    nd->n_items = len;
    nd->errors = st.errors;
    nd->feature = DC_LEAF;
    nd->first = nd->n_children = 0;
    /* (a copy: a deeper search's tree is built while threads beside the full search change the memo) */
    const dc_entry *got = dc_memo_get(s->memo, items, len, depth_left(s, depth), NULL, 0, false);
    dc_entry e = got ? *got : (dc_entry){0};
    dc_memo_unlock(s->memo);
    if (at && b->solved && !e.solved) { /* an optimum a full memo let go (dc_memo_collect): found again */
        solve(s, items, len, c, depth, DC_INF, NULL, 0, 0);
        got = dc_memo_get(s->memo, items, len, depth_left(s, depth), NULL, 0, false);
        e = got ? *got : (dc_entry){0};
        dc_memo_unlock(s->memo);
        if (!e.solved && !s->stopped_by) s->stopped_by = "memory limit"; /* (not kept: no proof) */
    }
    if (!e.hash || !(e.solved || e.incumbent) || e.feature == DC_ENTRY_LEAF) {
        r->errors += st.errors;
        return PDT_OK;
    }
    uint32_t f = e.feature;
    uint32_t *part = malloc((len ? len : 1) * sizeof *part);
    uint32_t *start = malloc((s->maxk + 1) * sizeof *start);
    uint32_t *branch = malloc((depth + 1) * sizeof *branch);
    int64_t *lb = malloc(s->maxk * sizeof *lb);
    uint8_t *done = malloc(s->maxk);
    uint32_t *order = malloc(s->maxk * sizeof *order);
    if (!part || !start || !branch || !lb || !done || !order) {
        free(part);
        free(start);
        free(branch);
        free(lb);
        free(done);
        free(order);
        return pdt_error_set(b->err, PDT_ENOMEM, "out of memory (the tree)");
    }
    if (b->least && e.solved) f = least_split(s, items, len, c, depth, e.lb, f, part, start, lb, done, order, branch);
    free(branch);
    free(lb);
    free(done);
    free(order);
    dc_partition(s, f, items, len, NULL, part, start);
    size_t present = 0;
    for (size_t v = 0; v < p->k[f]; v++) present += start[v + 1] > start[v];
    pdt_status st2 = grow_nodes(b, present);
    if (st2 == PDT_OK) {
        size_t first = r->n_nodes;
        r->n_nodes += present;
        nd = &r->nodes[at];
        nd->feature = f;
        nd->first = (uint32_t)first;
        nd->n_children = (uint32_t)present;
        r->splits++;
        size_t k = 0;
        for (size_t v = 0; v < p->k[f] && st2 == PDT_OK; v++) {
            size_t m = start[v + 1] - start[v];
            if (!m) continue;
            r->nodes[first + k].code = (uint16_t)v;
            uint32_t *key = malloc((depth + 1) * sizeof *key);
            if (!key) {
                st2 = pdt_error_set(b->err, PDT_ENOMEM, "out of memory (the tree)");
                break;
            }
            size_t kl = extend(key, c, depth, f, (uint32_t)v);
            st2 = build_node(b, first + k, part + start[v], m, key, kl);
            free(key);
            k++;
        }
    }
    free(part);
    free(start);
    return st2;
}

void dc_result_clear(dc_result *r)
{
    free(r->nodes);
    free(r->counts);
    memset(r, 0, sizeof *r);
}

static void search_clear(dc_search *s)
{
    for (size_t d = 0; s->frames && d <= s->p->nf; d++) dc_frame_free(&s->frames[d]);
    free(s->frames);
    dc_memo_clear(s->memo);
    free(s->col);
    free(s->salt);
    free(s->hx);
    free(s->hw);
    free(s->bits);
    free(s->bit_at);
    free(s->tbits);
    free(s->tpos);
    free(s->pcount);
    free(s->group);
    free(s->fl);
    free(s->planes);
    free(s->ccount);
}

/* The threads beside the full search: the same search of the root, each
 * taking the next of its splits no thread has taken (dc_search.claimed),
 * with scratch of its own and the memo shared (an entry is a fact whoever
 * wrote it).  The full search's thread then searches the splits the others
 * took, mostly ended at once by their children's bounds in the memo, and
 * answers for the root: a thread beside proves nothing of it. */
typedef struct dc_beside {
    dc_search s;
    const uint32_t *all;
    int64_t ub;
    pthread_t thread;
} dc_beside;

static void *beside_main(void *arg)
{
    dc_beside *b = arg;
    uint32_t none = 0;
    solve(&b->s, b->all, b->s.p->n, &none, 0, b->ub, NULL, 0, 0);
    return NULL;
}

static void beside_free(dc_beside *b)
{
    for (size_t d = 0; b->s.frames && d <= b->s.p->nf; d++) dc_frame_free(&b->s.frames[d]);
    free(b->s.frames);
    free(b->s.ccount);
    free(b->s.pcount);
    free(b->s.hx);
    free(b->s.hw);
}

/* Starts the threads beside s's search of the root under ub (s->proof_threads - 1 of them; fewer
 * when memory or threads are lacking), each with row_share rows when s has a budget of rows;
 * how many. */
static uint32_t beside_start(dc_beside *b, dc_search *s, const uint32_t *all, int64_t ub, int *halt,
                             uint64_t row_share)
{
    const dc_problem *p = s->p;
    *halt = 0;
    s->claimed = calloc(p->nf ? p->nf : 1, 1);
    const char *busy = getenv("PDT_DISCRETE_BUSY"); /* off (measurements), half (tests) */
    s->busy = busy && !strcmp(busy, "off") ? NULL : calloc((size_t)s->proof_threads * (p->nf + 2) * 2, sizeof *s->busy);
    s->busy_half = busy && !strcmp(busy, "half");
    if (!s->claimed || !dc_memo_share(s->memo))
        return free(s->claimed), free(s->busy), s->claimed = NULL, s->busy = NULL, 0;
    s->halt = halt;
    uint32_t n = 0;
    for (uint32_t i = 1; i < s->proof_threads; i++) {
        dc_beside *h = &b[n];
        *h = (dc_beside){.s = *s, .all = all, .ub = ub};
        dc_search *t = &h->s;
        t->frames = calloc(p->nf + 1, sizeof *t->frames);
        t->ccount = malloc(p->nc * sizeof *t->ccount);
        t->pcount = malloc(s->maxk * p->nc * sizeof *t->pcount);
        t->hx = malloc(s->maxk * sizeof *t->hx);
        t->hw = malloc(s->maxk * sizeof *t->hw);
        t->evaluations = t->rows = 0;
        if (t->row_limit) t->row_limit = row_share;
        t->next_deeper = 0, t->work_limit = 0;
        t->next_progress = HUGE_VAL; /* (reports come from the full search's thread) */
        t->root_turn = i;
        if (!t->frames || !t->ccount || !t->pcount || !t->hx || !t->hw ||
            pthread_create(&h->thread, NULL, beside_main, h)) {
            beside_free(h);
            break;
        }
        n++;
    }
    if (!n) dc_memo_unshare(s->memo), s->halt = NULL, free(s->claimed), s->claimed = NULL, free(s->busy), s->busy = NULL;
    return n;
}

/* Ends the n threads beside (their searches stop, or have ended) and waits
 * for them; the most evaluations one of them made. */
static uint64_t beside_end(dc_beside *b, uint32_t n, dc_search *s)
{
    uint64_t most = 0;
    __atomic_store_n(s->halt, 1, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n; i++) {
        pthread_join(b[i].thread, NULL);
        if (b[i].s.evaluations > most) most = b[i].s.evaluations;
        s->evaluations += b[i].s.evaluations;
        s->rows += b[i].s.rows;
        beside_free(&b[i]);
    }
    dc_memo_unshare(s->memo);
    s->halt = NULL;
    free(s->claimed);
    s->claimed = NULL;
    free(s->busy);
    s->busy = NULL;
    return most;
}

/* One search of the whole problem at depth <= max_depth for a tree below
 * ub; then the tree the memo holds (the root's optimum, or its best complete
 * split when stopped) into r.  The memo is kept from run to run: an entry is what is known of
 * a row set with a number of levels left (PDT_UNLIMITED: no limit), true
 * whatever the run's depth limit and budget — optima, and lower bounds — and
 * a run stopped part way leaves only such facts (and, for the answer, its
 * best complete splits). */
static pdt_status run(dc_search *s, dc_result *r, uint32_t max_depth, int64_t ub, const uint32_t *all,
                      pdt_error *err)
{
    const dc_problem *p = s->p;
    s->max_depth = max_depth;
    uint32_t none = 0;
    /* the full search on proof_threads threads (not the warm runs, nor the deeper ones) */
    const bool many = s->proof_threads > 1 && max_depth == p->max_depth && !s->work_limit &&
                      s->salt; /* (hashes all alike, a test's, would fill a block of the shared memo) */
    dc_beside *beside = many ? malloc((s->proof_threads - 1) * sizeof *beside) : NULL;
    int halt;
    /* a budget of rows (p->max_rows) is the threads' together: each gets an equal share of what
     * the runs before left of it */
    const uint64_t left = s->row_limit > s->rows ? s->row_limit - s->rows : 0;
    const uint64_t share = left / s->proof_threads ? left / s->proof_threads : 1;
    const uint32_t n_beside = beside ? beside_start(beside, s, all, ub, &halt, share) : 0; /* (none: one thread) */
    if (n_beside && s->row_limit) s->row_limit = s->rows + share;
    if (n_beside + 1 > s->proof_ran) s->proof_ran = n_beside + 1;
    const uint64_t before = s->evaluations;
    solve(s, all, p->n, &none, 0, ub, NULL, 0, 0);
    if (n_beside) {
        const uint64_t mine = s->evaluations - before, most = beside_end(beside, n_beside, s);
        const uint64_t busiest = mine > most ? mine : most;
        if (busiest > s->work_max) s->work_max = busiest, s->work_total = s->evaluations - before;
    }
    free(beside);
    memset(r, 0, sizeof *r);
    dc_build b = {s, r, 0, err, !s->stopped_by, false};
    if (b.solved) { /* a tree the caller keeps (keep_best) only when cheaper than its best, or `ub`'s */
        const int64_t keep_below = s->have && *s->have ? ub - 1 : ub;
        const dc_entry *root = dc_memo_get(s->memo, all, p->n, depth_left(s, 0), NULL, 0, false);
        b.least = root && root->solved && root->lb < keep_below;
        dc_memo_unlock(s->memo);
    }
    pdt_status st = grow_nodes(&b, 1);
    if (st == PDT_OK) {
        r->n_nodes = 1;
        r->nodes[0].code = 0; /* (the root is no way of a parent) */
        const char *stopped = s->stopped_by;
        const uint64_t deeper = s->next_deeper;
        s->stopped_by = NULL; /* the rebuild runs to its end (but for a search again that a limit stops) */
        s->next_deeper = 0;
        st = build_node(&b, 0, all, p->n, &none, 0);
        s->next_deeper = deeper;
        if (stopped) s->stopped_by = stopped;
    }
    r->cost = (int64_t)r->errors * p->err_cost + (int64_t)r->splits * p->split_cost;
    return st;
}

/* Keeps the cheaper of *best and *r if it beats `bound` (r is cleared either way). */
static void keep_best(dc_result *best, bool *have, dc_result *r, int64_t bound)
{
    if (*have ? r->cost < best->cost : r->cost < bound) {
        dc_result_clear(best);
        *best = *r;
        *have = true;
        memset(r, 0, sizeof *r);
    }
    dc_result_clear(r);
}

/* Shallow searches first give the deep one an incumbent: each depth d < 4
 * only has to beat the last, and the full search only the best of them, so
 * its children's budgets are tight from the start and a time limit still
 * returns a tree. */
#define DC_WARM_DEPTH 3

/* The anytime schedule: when the full search has made DC_WORK, 2·DC_WORK,
 * 4·DC_WORK ... evaluations, it runs a search one level deeper than the last
 * finished one (4, 5, ...) for a better incumbent, under an eighth of that
 * count (resumed at the next turn when that is not enough), with the scratch
 * of its own and the memo shared (its entries have other depths left).  The
 * full search goes on as it was, under its first bound: a row proven before
 * DC_WORK runs as without the schedule, the others spend at most about a
 * quarter more.  (Pausing the full search for the deeper one instead, and
 * resuming it from the memo, cost tic-tac-toe one-hot at λ = 0.001 342 662 →
 * 457 152 evaluations: every region on the way loses its budgets' steps.) */
#define DC_WORK 50000
#define DC_DEEPER_SHARE 8

/* One run at depth <= depth for a tree below the best so far (or `given`);
 * its tree kept if it is the best. */
static pdt_status scheduled(dc_search *s, dc_result *best, bool *have, uint32_t depth, int64_t given,
                            const uint32_t *all, pdt_error *err)
{
    dc_result r = {0};
    pdt_status st = run(s, &r, depth, *have ? best->cost + 1 : given, all, err);
    if (st == PDT_OK) keep_best(best, have, &r, given);
    dc_result_clear(&r);
    return st;
}

/* The cost of the best tree the schedule knows: the search's, or one made outside it. */
static int64_t schedule_best(const dc_search *s)
{
    return min64(*s->have ? s->best->cost : DC_INF, s->outside);
}

static void dc_deepen(dc_search *s)
{
    const dc_problem *p = s->p;
    uint64_t work = s->next_deeper / DC_DEEPER_SHARE + 1;
    s->next_deeper = s->next_deeper > UINT64_MAX / 2 ? 0 : 2 * s->next_deeper;
    if (!(s->deeper < p->max_depth && s->deeper <= p->nf)) return;
    const int64_t before = schedule_best(s);
    if (p->deeper) { /* made outside: an eighth of the time so far, as the evaluations below */
        int64_t cost = DC_INF;
        const size_t room = dc_memo_room(s->memo);
        const int done = p->deeper(p->deeper_user, s->deeper, elapsed(s) / DC_DEEPER_SHARE, room, &cost);
        s->outside = min64(s->outside, cost);
        if (done > 0) s->deeper++;
        if (done < 0) {
            s->next_deeper = 0;
            return;
        }
    } else {
        dc_search t = *s;
        t.frames = calloc(p->nf + 1, sizeof *t.frames);
        if (!t.frames) return;
        /* its root is its own: with the full search's claims it would take every split of the
         * root no thread had taken yet, and the threads beside would find none left */
        t.claimed = NULL, t.busy = NULL;
        t.next_deeper = 0;
        t.work_limit = s->evaluations + work;
        pdt_error err;
        scheduled(&t, s->best, s->have, s->deeper, s->given, s->all, &err);
        for (size_t d = 0; d <= p->nf; d++) dc_frame_free(&t.frames[d]);
        free(t.frames);
        s->evaluations = t.evaluations;
        s->next_progress = t.next_progress;
        s->rows = t.rows;
        if (t.stopped_by != dc_paused) s->deeper++;
        if (t.stopped_by && t.stopped_by != dc_paused) s->stopped_by = t.stopped_by;
    }
    /* DC_DEEPER_IDLE turns in a row with no cheaper tree: no more, their turns are the full
     * search's time (anneal, DL8.5, λ = 0.01, the binary fit's: the depth-5 fit never beat
     * the warm start, the optimum, and the proof took 10.6 s with those turns, 9.8 s without) */
    s->deeper_idle = schedule_best(s) < before ? 0 : s->deeper_idle + 1;
    if (s->deeper_idle >= DC_DEEPER_IDLE) s->next_deeper = 0;
}

static void audit_entry(void *user, const uint32_t *rows, const dc_entry *e)
{
    const dc_problem *p = user;
    p->audit(p->audit_user, rows, e->len, e->rem == UINT16_MAX ? PDT_UNLIMITED : e->rem, e->lb, e->solved);
}

pdt_status dc_solve(dc_result *out, const dc_problem *p, pdt_error *err)
{
    memset(out, 0, sizeof *out);
    if (p->nf > 65535)
        return pdt_error_set(err, PDT_ELIMIT, "%zu features: the branch search takes at most 65535", p->nf);
    if (p->n == 0 || p->nc == 0) return pdt_error_set(err, PDT_EINVAL, "no rows to fit");
    dc_memo memo = {0};
    dc_search s = {.p = p, .memo = &memo, .next_progress = 1, .row_limit = p->max_rows};
    memo.limit = p->memo_bytes ? p->memo_bytes : (size_t)1 << 30;
    memo.n_rows = p->n;
    for (size_t f = 0; f < p->nf; f++)
        if (p->k[f] > s.maxk) s.maxk = p->k[f];
    if (!s.maxk) s.maxk = 1;
    pdt_status st = dc_make_groups(&s, err);
    if (st == PDT_OK) {
        s.fl = calloc(p->n, sizeof *s.fl);
        s.ccount = malloc(p->nc * sizeof *s.ccount);
        s.pcount = malloc(s.maxk * p->nc * sizeof *s.pcount);
        s.col = malloc((p->n * p->nf + 1) * sizeof *s.col);
        s.salt = malloc(2 * (p->n / 64 + 1) * sizeof *s.salt);
        s.hx = malloc(s.maxk * sizeof *s.hx);
        s.hw = malloc(s.maxk * sizeof *s.hw);
        s.frames = calloc(p->nf + 1, sizeof *s.frames);
        if (!s.fl || !s.ccount || !s.pcount || !s.col || !s.salt || !s.hx || !s.hw || !s.frames)
            st = pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu rows)", p->n);
        for (size_t i = 0; st == PDT_OK && i < p->n; i++)
            for (size_t f = 0; f < p->nf; f++) s.col[f * p->n + i] = p->x[i * p->nf + f];
        if (st == PDT_OK && !dc_salt_fill(s.salt, p->n / 64 + 1)) free(s.salt), s.salt = NULL;
        memo.salt = s.salt;
        if (st == PDT_OK) st = dc_make_floors(&s, err);
        if (st == PDT_OK) st = dc_make_bits(&s, err);
        s.narrow = st == PDT_OK && dc_narrow(&s);
    }
    uint32_t *all = st == PDT_OK ? malloc(p->n * sizeof *all) : NULL;
    if (st == PDT_OK && !all) st = pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu rows)", p->n);
    memo.x = p->x, memo.nf = p->nf, memo.k = p->k, memo.bits = s.bits, memo.bit_at = s.bit_at, memo.words = s.words;
    dc_memo_knobs(&memo);
    s.proof_threads = p->threads < 1 ? 1 : p->threads > DC_PROOF_THREADS ? DC_PROOF_THREADS : p->threads;
    { /* (measurements: the turns in the order of the codes, as before 2026-11-28) */
        const char *turns = getenv("PDT_DISCRETE_TURNS");
        s.by_codes = turns && !strcmp(turns, "codes");
    }
    dc_result best = {0};
    bool have = false;
    const int64_t given = p->incumbent > 0 ? p->incumbent : DC_INF; /* to beat */
    uint64_t evaluations = 0;
    if (st == PDT_OK) {
        for (size_t i = 0; i < p->n; i++) all[i] = (uint32_t)i;
        clock_gettime(CLOCK_MONOTONIC, &s.start);
        s.best = &best, s.have = &have; /* (the reports' best so far) */
        if (given == DC_INF) { /* the first incumbent */
            dc_result g;
            st = dc_greedy(&s, &g, err);
            if (st == PDT_OK) keep_best(&best, &have, &g, given);
        }
        for (uint32_t d = 1; given == DC_INF && d <= DC_WARM_DEPTH && d < p->max_depth && st == PDT_OK && !s.stopped_by; d++)
            st = scheduled(&s, &best, &have, d, given, all, err);
        if (st == PDT_OK && !s.stopped_by) {
            const char *env = getenv("PDT_DISCRETE_WORK"); /* tests: deeper searches after a few evaluations */
            const uint64_t first = env ? strtoull(env, NULL, 10) : 0;
            s.next_deeper = given != DC_INF ? 0 : first ? first : DC_WORK;
            s.deeper = p->deeper ? p->deeper_from : DC_WARM_DEPTH + 1;
            s.all = all, s.given = given;
            s.outside = p->deeper_had > 0 ? p->deeper_had : DC_INF;
            /* not solved and not stopped: nothing beats the incumbent, which is then optimal */
            st = scheduled(&s, &best, &have, p->max_depth, given, all, err);
            s.next_deeper = 0;
        }
        evaluations = s.evaluations;
    }
    if (st == PDT_OK && p->audit) dc_memo_each(&memo, audit_entry, (void *)p);
    if (st == PDT_OK) {
        *out = best;
        out->found = have;
        out->optimal = !s.stopped_by;
        out->stopped_by = s.stopped_by;
        out->evaluations = evaluations;
        out->memo_entries = memo.used;
        out->memo_collections = memo.gen;
        out->memo_moved_by_runs = memo.moved_by_runs;
        out->threads = s.proof_ran ? s.proof_ran : 1;
        out->work_max = s.work_max, out->work_total = s.work_total;
    } else {
        dc_result_clear(&best);
    }
    free(all);
    search_clear(&s);
    return st;
}

