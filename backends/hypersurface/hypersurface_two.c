/* The hypersurface backend's trees of two branch nodes: every root rule,
 * and for each the best split of a child by a rule defined inside it (see
 * hypersurface_solve.c for why this is the engine's optimum). */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "hypersurface_solve_impl.h"
#include "pdt_parallel.h"

/* ------------------------------------------------------------ K = 2 */

static void eval_rank(hss *h, const hss_region *r, uint64_t rank, const uint32_t *t, hss_split *out)
{
    if (h->kind[rank] == 1) {
        hss_eval_general(h, r, h->base + rank * h->words, t, out);
    } else if (h->kind[rank] == 2) {
        size_t ne;
        const hss_exc *e = hss_exceptions_of(h, rank, &ne);
        hss_eval_degenerate(h, r, h->base + rank * h->words, t, e, ne, out);
    }
}

static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

/* Tuples by increasing value on all rows, while value − wR < out->value: a
 * rule's cost on X is at least its cost on all rows minus the weight wR of
 * the rows outside X (each row adds at most its weight to a leaf). */
static void search_sorted(hss *h, const hss_region *r, int64_t wR, hss_split *out)
{
    uint32_t t[HS_MAX_LIFTED];
    for (uint64_t i = 0; i < h->n_order && out->value > 0; i++) {
        if (i % HSS_CHECK_TUPLES == HSS_CHECK_TUPLES - 1 && hss_out_of_time(h)) return;
        uint64_t rank = h->order[i];
        if (h->value[rank] >= sat_add(out->value, wR)) break;
        size_t k = 0;
        if (h->order_pts) {
            const uint8_t *p = h->order_pts + i * h->G;
            while (k < h->G && pdt_bit_get(r->items, p[k])) t[k] = p[k], k++;
        } else {
            hss_unrank(h, rank, t);
            while (k < h->G && pdt_bit_get(r->items, t[k])) k++;
        }
        if (k == h->G) eval_rank(h, r, rank, t, out);
    }
}

/* Every G-subset of the region's m items, skipping tuples the bound excludes. */
static void search_subsets(hss *h, const hss_region *r, const uint32_t *it, size_t m, int64_t wR, hss_split *out)
{
    const size_t G = h->G;
    uint32_t pos[HS_MAX_LIFTED], t[HS_MAX_LIFTED];
    for (size_t k = 0; k < G; k++) pos[k] = (uint32_t)k;
    for (uint64_t count = 1; out->value > 0; count++) {
        if (count % HSS_CHECK_TUPLES == 0 && hss_out_of_time(h)) return;
        for (size_t k = 0; k < G; k++) t[k] = it[pos[k]];
        uint64_t rank = hss_colex_rank(h, t);
        if (h->value[rank] < sat_add(out->value, wR)) eval_rank(h, r, rank, t, out);
        if (!pdt_comb_next(pos, G, m)) break;
    }
}

/* Number of sorted tuples whose value is below v. */
static uint64_t sorted_below(const hss *h, int64_t v)
{
    uint64_t lo = 0, hi = h->n_order;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (h->value[h->order[mid]] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The best split of a region by a rule defined inside it, if it costs less
 * than bound: out->value is then that cost; otherwise out->value >= bound.
 * Regions are cached by item set with the optimum or a lower bound. */
static void best_split(hss *h, const uint64_t *items, int64_t bound, hss_split *out)
{
    bool fresh = false;
    hss_split *cached = hss_map_get(&h->memo, items, &fresh);
    if (cached && !fresh && (cached->exact || cached->value >= bound)) {
        *out = *cached;
        h->memo_hits++;
        return;
    }
    if (h->n_cert && hss_certs_bound(h, items, bound, h->tmp) >= bound) { /* no split costs less */
        *out = (hss_split){.value = bound};
        if (cached) *cached = *out;
        return;
    }
    h->regions++;
    out->value = bound;
    int64_t *tot = h->cnt + 6 * h->C, w_region = 0;
    hss_region r;
    hss_region_init(h, &r, items, h->by_class, tot);
    for (size_t c = 0; c < h->C; c++) w_region += tot[c] * h->ci.weight[c];
    size_t m = 0;
    for (size_t i = 0; i < h->n; i++)
        if (pdt_bit_get(items, i)) h->items[m++] = (uint32_t)i;
    if (m >= h->G && r.size >= 2 * h->lo) {
        int64_t wR = h->weight_all - w_region;
        if (sorted_below(h, sat_add(bound, wR)) < hss_binom(h, m, h->G)) search_sorted(h, &r, wR, out);
        else search_subsets(h, &r, h->items, m, wR, out);
    }
    out->exact = out->value < bound; /* a split found after the time limit is still a real tree */
    if (!out->exact) out->value = bound;
    if (cached && !h->stopped) *cached = *out; /* an interrupted search proves no bound */
    else if (cached) cached->exact = false, cached->value = 0;
}



/* Left side of root rule (t, m): base, the assigned points, surface rows. */
static void root_left(const hss *h, uint64_t *left, uint64_t rank, const uint32_t *t, int64_t m)
{
    memcpy(left, h->base + rank * h->words, h->words * 8);
    for (size_t k = 0; k < h->G; k++)
        if ((m >> k) & 1) pdt_bit_set(left, t[k]);
    if (h->kind[rank] == 2) {
        size_t ne;
        const hss_exc *e = hss_exceptions_of(h, rank, &ne);
        for (size_t k = 0; k < ne; k++)
            if ((e[k].left >> m) & 1) pdt_bit_set(left, e[k].row);
    }
}

static int64_t side_leaf(hss *h, const uint64_t *side)
{
    int64_t *c = h->cnt + 7 * h->C;
    for (size_t k = 0; k < h->C; k++)
        c[k] = (int64_t)pdt_bits_and_count(side, h->ci.class_bits + k * h->words, h->words);
    return hss_leaf_cost(h, c);
}

/* ------------------------------------------------------------ positions
 *
 * The serial search takes the root rules in a fixed order — the warm start,
 * then tuple rank, assignment m, split child s (left, right) — and keeps a
 * tree only when it is strictly better than everything before it: the answer
 * is the FIRST position reaching the least value.  Position p of warm-start
 * tuple i (h->order[i]) is ((i << G) | m)·2 + s, below warm_span; of the
 * enumeration's tuple of colex rank r, warm_span + ((r << G) | m)·2 + s.  The
 * incumbent before them (a leaf or one split) has position −1.
 * A tree at p is kept when it beats the best (value v, position q) known:
 * below v when q < p, at most v when q > p (threads and ranks find later
 * positions first at times).  So the serial answer is reached on any number
 * of workers and any schedule, and the best (value, position) of all workers
 * is the winner. */

static int64_t position(const hss *h, uint64_t rank, int64_t m)
{
    return h->warm_span + (int64_t)(((rank << h->G) | (uint64_t)m) * 2);
}

/* The position of warm-start tuple i (h->order[i]), assignment m. */
static int64_t warm_position(const hss *h, uint64_t i, int64_t m) { return (int64_t)(((i << h->G) | (uint64_t)m) * 2); }

/* Trees at position p must cost less than this. */
static int64_t limit(const hss_tree *b, int64_t p) { return b->pos < p ? b->value : b->value + 1; }

/* One root partition: the better of "split the left child" and "split the right one". */
static void try_root(hss *h, hss_tree *best, const uint64_t *const *side, const int64_t *leaf,
                     const uint32_t *t, int64_t m, int64_t p0)
{
    for (int s = 0; s < 2; s++) {
        int64_t lim = limit(best, p0 + s);
        if (leaf[1 - s] >= lim) continue; /* the split child costs at least 0 */
        hss_split child;
        best_split(h, side[s], lim - leaf[1 - s], &child);
        /* a cached optimum may have been found under a looser bound */
        if (!child.exact || leaf[1 - s] + child.value >= lim) continue;
        best->value = h->best_value = leaf[1 - s] + child.value;
        best->size = 2;
        memcpy(best->root.t, t, h->G * sizeof *t);
        best->root.mask = m;
        best->child_left = s == 0;
        best->child = child;
        best->pos = p0 + s;
    }
}

/* The partition of root rule (t, m) (rank given): left, right, their leaf costs;
 * false when a side is smaller than the leaf-size limit. */
static bool root_partition(hss *h, uint64_t rank, const uint32_t *t, int64_t m, int64_t *leaf)
{
    root_left(h, h->left, rank, t, m);
    uint32_t nl = pdt_bits_count(h->left, h->words);
    if (nl < h->lo || h->n - nl < h->lo) return false;
    for (size_t w = 0; w < h->words; w++) h->right[w] = h->all[w] & ~h->left[w];
    leaf[0] = side_leaf(h, h->left);
    leaf[1] = side_leaf(h, h->right);
    return true;
}

/* Tries root partition (rank, t, m) at position p0 unless it cannot help or was tried. */
static void consider_root(hss *h, hss_tree *best, uint64_t rank, const uint32_t *t, int64_t m, int64_t p0)
{
    int64_t leaf[2];
    const uint64_t *side[2] = {h->left, h->right};
    if (!root_partition(h, rank, t, m, leaf)) return;
    int64_t lim = limit(best, p0);
    if (leaf[0] >= lim && leaf[1] >= lim) return;
    /* a partition met at an earlier position gave the same trees there (its
     * mirror too: the key is the side holding row 0) */
    const uint64_t *key = pdt_bit_get(h->left, 0) ? h->left : h->right;
    bool first;
    if (h->seen_shared) {
#pragma omp critical(hss_seen)
        {
            first = hss_map_first(h->seen_shared, key, p0);
            if (first && h->hints) hss_hints_note(h->hints, key, p0);
        }
    } else {
        first = hss_map_first(&h->seen, key, p0);
    }
    if (first) try_root(h, best, side, leaf, t, m, p0);
}

/* The 2^G root rules of a tuple in general position differ only in where
 * its own points go: their leaf costs follow from the base's class counts,
 * and only the rules that could beat the incumbent with a leaf child are
 * built as partitions (consider_root repeats the test on the bitsets). */
static void consider_general(hss *h, hss_tree *best, uint64_t rank, const uint32_t *t, const int64_t *tot, int64_t at)
{
    const size_t C = h->C, G = h->G, words = h->words;
    int64_t *b = h->cnt + 9 * (C + 1), *L = b + C, *R = L + C;
    const uint64_t *base = h->base + rank * words;
    for (size_t c = 0; c < C; c++) b[c] = (int64_t)pdt_bits_and_count(base, h->ci.class_bits + c * words, words);
    for (int64_t m = 0; m < (INT64_C(1) << G); m++) {
        int64_t p0 = at + 2 * m, lim = limit(best, p0);
        if (lim <= 0) break;
        memcpy(L, b, C * sizeof *L);
        for (size_t k = 0; k < G; k++)
            if ((m >> k) & 1) L[h->label[t[k]]]++;
        int64_t nl = 0;
        for (size_t c = 0; c < C; c++) R[c] = tot[c] - L[c], nl += L[c];
        if (nl < (int64_t)h->lo || (int64_t)h->n - nl < (int64_t)h->lo) continue;
        if (hss_leaf_cost(h, L) >= lim && hss_leaf_cost(h, R) >= lim) continue;
        consider_root(h, best, rank, t, m, p0);
    }
}

/* Root rules of tuple t (colex rank given), assignment m at position at + 2m. */
static void consider_tuple(hss *h, hss_tree *best, uint64_t rank, const uint32_t *t, const int64_t *tot, int64_t at)
{
    if (h->kind[rank] == 1) consider_general(h, best, rank, t, tot, at);
    for (int64_t m = 0; h->kind[rank] == 2 && m < (INT64_C(1) << h->G); m++) {
        int64_t p0 = at + 2 * m;
        if (limit(best, p0) <= 0) break;
        consider_root(h, best, rank, t, m, p0);
    }
}

/* A good incumbent first, the warm start: the tuples of the best single
 * splits of all rows (the first of h->order) as roots, every assignment, so
 * that the enumeration prunes with a tight bound.  Its positions come before
 * the enumeration's, and the workers share it like the enumeration (its
 * tuples are few but their child regions large; it ran on one thread of
 * every rank before).  A partition it met is not tried again later. */
static void warm_init(hss *h)
{
    /* PDT_HYPERSURFACE_WARM=0 (tests): no warm start, every tree from the enumeration */
    const char *env = getenv("PDT_HYPERSURFACE_WARM");
    uint64_t warm = env ? strtoull(env, NULL, 10) : HSS_WARM;
    h->n_warm = warm < h->n_order ? warm : h->n_order;
    h->warm_span = warm_position(h, h->n_warm, 0);
}

/* ------------------------------------------------------------ workers */

/* What the workers share: the best tree (value and position) under a lock. */
typedef struct team {
    hss_tree best;
    pdt_work work;
    atomic_bool halt;
    int64_t remote;     /* least value another rank published (INT64_MAX: none) */
    int64_t remote_pos; /* its position (INT64_MAX: unknown, so later than any) */
    bool packed;        /* ranks publish (value, position + 1) as value·2^32 + position + 1 */
    bool failed;
    bool warm;      /* the loop over the warm start's tuples (else the enumeration's) */
} team;

/* best := the better of best and other by (value, position). */
static void merge(hss_tree *best, const hss_tree *other)
{
    if (other->value < best->value || (other->value == best->value && other->pos < best->pos)) *best = *other;
}

/* A worker's own scratch and caches (the tables are shared, read only). */
static bool clone(hss *w, const hss *h, pdt_fit_options *opt)
{
    *w = *h;
    *opt = *h->opt;
    opt->progress = NULL; /* one reporter: the first thread */
    w->opt = opt;
    w->candidates = w->regions = w->memo_hits = 0;
    w->cnt = malloc(12 * (h->C + 1) * sizeof *w->cnt);
    w->all = malloc(((4 + h->C) * h->words + 1) * sizeof *w->all);
    w->items = malloc((h->n + 1) * sizeof *w->items);
    w->on_t = malloc(h->n + 1);
    w->order_pts = h->order_pts;
    memset(&w->seen, 0, sizeof w->seen);
    memset(&w->memo, 0, sizeof w->memo);
    w->seen_shared = (hss_map *)&h->seen; /* one set of partitions met, with their first positions */
    pdt_error ignored;
    bool ok = w->cnt && w->all && w->items && w->on_t &&
              !hss_map_init(&w->memo, h->words, HSS_MEMO_MAX, true, &ignored);
    if (!ok) return false;
    memcpy(w->all, h->all, h->words * sizeof *w->all);
    w->left = w->all + h->words;
    w->right = w->left + h->words;
    w->tmp = w->right + h->words;
    w->by_class = w->tmp + h->words;
    return true;
}

static void unclone(hss *w)
{
    free(w->cnt);
    free(w->all);
    free(w->items);
    free(w->on_t);
    hss_map_free(&w->seen);
    hss_map_free(&w->memo);
}

/* Reads the team's best into the worker's (and publishes the worker's). */
static void exchange(team *tm, hss_tree *mine)
{
#pragma omp critical(hss_team)
    {
        merge(&tm->best, mine);
        *mine = tm->best;
        if (tm->remote < mine->value || (tm->remote == mine->value && tm->remote_pos < mine->pos)) {
            mine->value = tm->remote; /* another rank's */
            mine->pos = tm->remote_pos;
            mine->size = -1; /* not a tree of this rank: never published as one */
        }
    }
}

/* Warm-start tuples [lo, hi) (indices into h->order). */
static void run_warm(hss *h, hss_tree *best, uint64_t lo, uint64_t hi, const int64_t *tot)
{
    uint32_t t[HS_MAX_LIFTED];
    for (uint64_t i = lo; i < hi && !hss_out_of_time(h); i++) {
        if (limit(best, warm_position(h, i, 0)) <= 0) return;
        hss_unrank(h, h->order[i], t);
        consider_tuple(h, best, h->order[i], t, tot, warm_position(h, i, 0));
    }
}

/* Tuples of ranks [lo, hi). */
static void run_chunk(hss *h, hss_tree *best, uint64_t lo, uint64_t hi, const int64_t *tot)
{
    uint32_t t[HS_MAX_LIFTED];
    hss_unrank(h, lo, t);
    for (uint64_t rank = lo; rank < hi; rank++) {
        if (rank % HSS_CHECK_EVERY == 0 && hss_out_of_time(h)) return;
        if (limit(best, position(h, rank, 0)) <= 0) return;
        consider_tuple(h, best, rank, t, tot, position(h, rank, 0));
        size_t k = 0; /* next tuple in colex order */
        while (k + 1 < h->G && t[k] + 1 == t[k + 1]) k++;
        t[k]++;
        for (size_t j = 0; j < k; j++) t[j] = (uint32_t)j;
    }
}

static void share_ranks(team *tm)
{
    const pdt_distributor *d = tm->work.dist;
    if (!d) return;
#pragma omp critical(pdt_distributor)
    {
        int64_t mine;
#pragma omp critical(hss_team)
        mine = !tm->packed ? tm->best.value
               : tm->best.value < INT32_MAX ? tm->best.value * (INT64_C(1) << 32) + tm->best.pos + 1
                                            : INT64_MAX;
        int64_t all = d->share(d->user, mine);
#pragma omp critical(hss_team)
        if (!tm->packed) {
            tm->remote = all;
        } else if (all != INT64_MAX) {
            tm->remote = all >> 32;
            tm->remote_pos = (all & INT64_C(0xffffffff)) - 1;
        }
    }
}

/* This rank's partitions tried, told to the other ranks; theirs entered. */
static void share_hints(team *tm, hss *w)
{
    const pdt_distributor *d = tm->work.dist;
    if (!d || !w->hints) return;
#pragma omp critical(pdt_distributor)
    hss_hints_swap(w->hints, w->seen_shared, d);
}

static void worker(hss *w, team *tm, const int64_t *tot)
{
    hss_tree mine = {.pos = INT64_MAX, .value = INT64_MAX};
    uint64_t lo, hi, chunks = 0;
    exchange(tm, &mine);
    while (!hss_out_of_time(w) && pdt_work_next(&tm->work, &lo, &hi)) {
        if (tm->warm) run_warm(w, &mine, lo, hi, tot);
        else run_chunk(w, &mine, lo, hi, tot);
        if (mine.size < 0) mine.value = INT64_MAX, mine.pos = INT64_MAX; /* a remote bound only */
        exchange(tm, &mine);
        share_hints(tm, w);
        if (++chunks % 8 == 0) share_ranks(tm);
    }
    if (mine.size >= 0) exchange(tm, &mine);
}

static void add_counts(hss *h, const hss *w)
{
    h->candidates += w->candidates;
    h->regions += w->regions;
    h->memo_hits += w->memo_hits;
    if (w->stopped) h->stopped = true;
    if (w->regions > h->work_max) h->work_max = w->regions;
    h->work_total += w->regions;
}

static void tree_at(hss *h, hss_tree *best, int64_t value, uint64_t pos);

/* Between the warm start and the enumeration (one thread, the others
 * waiting): the ranks agree on the warm start's winner, the least (value,
 * position), so that every rank starts the enumeration with it; then the
 * enumeration's tuples are handed out. */
static void between_loops(hss *h, team *tm, uint64_t chunk)
{
    const pdt_distributor *d = tm->work.dist;
    if (d) {
        hss_tree *b = &tm->best;
        int64_t value = b->pos >= 0 ? b->value : INT64_MAX;
        uint64_t pos = b->pos >= 0 ? (uint64_t)b->pos : UINT64_MAX, work = 0, total = 0;
        bool complete = true;
        if (h->hints) hss_hints_end(h->hints, d);
        d->finish(d->user, &value, &pos, &complete, &work, &total);
        if (pos != UINT64_MAX && (b->pos < 0 || (uint64_t)b->pos != pos)) tree_at(h, b, value, pos);
        tm->remote = tm->remote_pos = INT64_MAX;
    }
    tm->warm = false;
    pdt_work_begin_in_order(&tm->work, d, h->n_tuples, chunk);
}

/* Every thread works on a clone (own scratch, caches and counts) through
 * both loops: the warm start's tuples, then the enumeration's. */
static void run_workers(hss *h, team *tm, unsigned threads, const int64_t *tot, uint64_t chunk)
{
    h->work_max = h->work_total = 0;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        bool first = hss_first_thread();
        hss w;
        pdt_fit_options opt;
        bool ok = clone(&w, h, &opt);
        if (first) opt.progress = h->opt->progress;
        if (!ok) atomic_store(&tm->halt, true);
        if (ok) worker(&w, tm, tot);
#pragma omp barrier
#pragma omp single
        between_loops(h, tm, chunk);
        if (ok) worker(&w, tm, tot);
#pragma omp critical(hss_team)
        {
            if (ok) add_counts(h, &w);
            else tm->failed = true;
        }
        unclone(&w);
    }
}

/* The split child of the winner again, as the first tuple in subset order
 * (then first assignment) reaching its value: which of several equally good
 * child splits the search met first depends on its bounds and caches, this
 * does not.  Also gives the child of another rank's winner. */
static void canonical_child(hss *h, hss_tree *best, int64_t child_value)
{
    pdt_fit_options plain = *h->opt;
    const pdt_fit_options *saved = h->opt;
    bool stopped = h->stopped;
    plain.time_limit = 0; /* the winner's tree must be completed */
    plain.stop = NULL;
    plain.progress = NULL;
    h->opt = &plain;
    h->stopped = false;
    uint64_t rank = hss_colex_rank(h, best->root.t);
    root_left(h, h->left, rank, best->root.t, best->root.mask);
    for (size_t w = 0; w < h->words; w++) h->right[w] = h->all[w] & ~h->left[w];
    const uint64_t *items = best->child_left ? h->left : h->right;
    int64_t *tot = h->cnt + 6 * h->C, w_region = 0;
    hss_region r;
    hss_region_init(h, &r, items, h->by_class, tot);
    for (size_t c = 0; c < h->C; c++) w_region += tot[c] * h->ci.weight[c];
    size_t m = 0;
    for (size_t i = 0; i < h->n; i++)
        if (pdt_bit_get(items, i)) h->items[m++] = (uint32_t)i;
    hss_split out = {.value = child_value + 1};
    if (m >= h->G) search_subsets(h, &r, h->items, m, h->weight_all - w_region, &out);
    if (out.value == child_value) best->child = out, best->child.exact = true;
    h->opt = saved;
    h->stopped = stopped;
}

/* The tree at position pos (another rank's winner): root rule and side. */
static void tree_at(hss *h, hss_tree *best, int64_t value, uint64_t pos)
{
    bool warm = pos < (uint64_t)h->warm_span;
    uint64_t q = (warm ? pos : pos - (uint64_t)h->warm_span) / 2, rank = q >> h->G;
    if (warm) rank = h->order[rank];
    int64_t m = (int64_t)(q & ((UINT64_C(1) << h->G) - 1)), leaf[2];
    hss_unrank(h, rank, best->root.t);
    best->root.mask = m;
    root_partition(h, rank, best->root.t, m, leaf);
    best->child_left = pos % 2 == 0;
    best->value = value;
    best->size = 2;
    best->pos = (int64_t)pos;
    best->child.value = value - leaf[best->child_left ? 1 : 0];
}

/* Every rank's winner: the least (value, position); false when no rank found
 * one in the enumeration (the warm start's tree stands, the same everywhere). */
static void finish_ranks(hss *h, const pdt_distributor *d, hss_tree *best)
{
    int64_t value = best->pos >= 0 ? best->value : INT64_MAX;
    uint64_t pos = best->pos >= 0 ? (uint64_t)best->pos : UINT64_MAX, work = h->work_total, total = 0;
    bool complete = !h->stopped;
    d->finish(d->user, &value, &pos, &complete, &work, &total);
    h->stopped = !complete;
    h->work_max = work;
    h->work_total = total;
    if (pos != UINT64_MAX && (best->pos < 0 || (uint64_t)best->pos != pos)) tree_at(h, best, value, pos);
}

/* Every root rule (tuple in colex order, every assignment) on the workers;
 * partitions that cannot beat the incumbent with a leaf child are skipped,
 * the others are tried once per worker (a partition and its mirror give the
 * same trees). */
pdt_status hss_search_two(hss *h, hss_tree *best, pdt_error *err)
{
    hss_order_points(h);
    pdt_status st = hss_certs_build(h, err);
    if (st) return st;
    warm_init(h);
    int64_t *tot = malloc((h->C + 1) * sizeof *tot); /* class totals of all rows, for consider_general */
    if (!tot) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t c = 0; c < h->C; c++) tot[c] = (int64_t)pdt_bits_count(h->ci.class_bits + c * h->words, h->words);
    const pdt_distributor *d = pdt_distributor_get();
    if (d && d->size <= 1) d = NULL;
    unsigned threads = pdt_threads_resolve(h->opt->threads);
    if (h->n_tuples * h->n < pdt_parallel_min()) threads = 1; /* small: one thread */
    uint64_t ways = (uint64_t)threads * (uint64_t)(d ? d->size : 1), chunk = h->n_tuples / (64 * ways);
    team tm = {.best = *best, .remote = INT64_MAX, .remote_pos = INT64_MAX, .warm = true};
    /* With its position, another rank's tree bounds later positions strictly
     * (at N = 80 a rank searched for ties of the optimum another had found:
     * two ranks used 43 % more CPU than one process); when values and
     * positions fit in one int64, they travel together. */
    tm.packed = h->weight_all < INT32_MAX && position(h, h->n_tuples, 0) < INT64_C(0xffffffff) - 1;
    atomic_init(&tm.halt, false);
    pdt_work_begin_in_order(&tm.work, d, h->n_warm, 1);
    h->halt = &tm.halt;
    hss_hints hints = {.words = h->words};
    h->hints = d && d->post && d->poll && d->drain ? &hints : NULL;
    run_workers(h, &tm, threads, tot, chunk < 1 ? 1 : chunk > 256 ? 256 : chunk);
    if (h->hints) hss_hints_end(h->hints, d);
    h->hints = NULL;
    hss_hints_free(&hints);
    h->halt = NULL;
    free(tot);
    h->workers = d ? (unsigned)d->size : threads;
    if (tm.failed) return pdt_error_set(err, PDT_ENOMEM, "out of memory for a search thread");
    *best = tm.best;
    if (d) finish_ranks(h, d, best);
    if (best->size == 2 && best->pos >= 0) canonical_child(h, best, best->child.value);
    return PDT_OK;
}
