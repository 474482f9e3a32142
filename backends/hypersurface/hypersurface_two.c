/* The hypersurface backend's trees of two branch nodes: every root rule,
 * and for each the best split of a child by a rule defined inside it (see
 * hypersurface_solve.c for why this is the engine's optimum). */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "hypersurface_solve_impl.h"

/* ------------------------------------------------------------ K = 2 */

/* The tuple of colex rank r. */
static void unrank(const hss *h, uint64_t r, uint32_t *t)
{
    size_t hi = h->n;
    for (size_t k = h->G; k-- > 0;) {
        size_t lo = k; /* largest x in [k, hi) with C(x, k+1) <= r */
        size_t top = hi;
        while (top - lo > 1) {
            size_t mid = (lo + top) / 2;
            if (hss_binom(h, mid, k + 1) <= r) lo = mid;
            else top = mid;
        }
        t[k] = (uint32_t)lo;
        r -= hss_binom(h, lo, k + 1);
        hi = lo;
    }
}

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
            unrank(h, rank, t);
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

/* One root partition: the better of "split the left child" and "split the right one". */
static void try_root(hss *h, hss_tree *best, const uint64_t *const *side, const int64_t *leaf,
                     const uint32_t *t, int64_t m)
{
    for (int s = 0; s < 2; s++) {
        if (leaf[1 - s] >= best->value) continue; /* the split child costs at least 0 */
        hss_split child;
        best_split(h, side[s], best->value - leaf[1 - s], &child);
        /* a cached optimum may have been found under a looser bound */
        if (!child.exact || leaf[1 - s] + child.value >= best->value) continue;
        best->value = h->best_value = leaf[1 - s] + child.value;
        best->size = 2;
        memcpy(best->root.t, t, h->G * sizeof *t);
        best->root.mask = m;
        best->child_left = s == 0;
        best->child = child;
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

/* Tries root partition (rank, t, m) unless it cannot help or was tried. */
static void consider_root(hss *h, hss_tree *best, uint64_t rank, const uint32_t *t, int64_t m)
{
    int64_t leaf[2];
    const uint64_t *side[2] = {h->left, h->right};
    if (!root_partition(h, rank, t, m, leaf)) return;
    if (leaf[0] >= best->value && leaf[1] >= best->value) return;
    bool fresh = true;
    hss_map_get(&h->seen, pdt_bit_get(h->left, 0) ? h->left : h->right, &fresh);
    if (fresh) try_root(h, best, side, leaf, t, m);
}

/* The 2^G root rules of a tuple in general position differ only in where
 * its own points go: their leaf costs follow from the base's class counts,
 * and only the rules that could beat the incumbent with a leaf child are
 * built as partitions (consider_root repeats the test on the bitsets). */
static void consider_general(hss *h, hss_tree *best, uint64_t rank, const uint32_t *t, const int64_t *tot)
{
    const size_t C = h->C, G = h->G, words = h->words;
    int64_t *b = h->cnt + 9 * (C + 1), *L = b + C, *R = L + C;
    const uint64_t *base = h->base + rank * words;
    for (size_t c = 0; c < C; c++) b[c] = (int64_t)pdt_bits_and_count(base, h->ci.class_bits + c * words, words);
    for (int64_t m = 0; m < (INT64_C(1) << G) && best->value > 0; m++) {
        memcpy(L, b, C * sizeof *L);
        for (size_t k = 0; k < G; k++)
            if ((m >> k) & 1) L[h->label[t[k]]]++;
        int64_t nl = 0;
        for (size_t c = 0; c < C; c++) R[c] = tot[c] - L[c], nl += L[c];
        if (nl < (int64_t)h->lo || (int64_t)h->n - nl < (int64_t)h->lo) continue;
        if (hss_leaf_cost(h, L) >= best->value && hss_leaf_cost(h, R) >= best->value) continue;
        consider_root(h, best, rank, t, m);
    }
}

/* A good incumbent first: the best single splits of all rows as roots (every
 * assignment), so that the full enumeration prunes with a tight bound. */
static void warm_start(hss *h, hss_tree *best)
{
    uint32_t t[HS_MAX_LIFTED];
    for (uint64_t i = 0; i < h->n_order && i < HSS_WARM && best->value > 0 && !hss_out_of_time(h); i++) {
        uint64_t rank = h->order[i];
        unrank(h, rank, t);
        for (int64_t m = 0; m < (INT64_C(1) << h->G) && best->value > 0; m++) consider_root(h, best, rank, t, m);
    }
}

/* Every root rule (tuple in colex order, every assignment); partitions that
 * cannot beat the incumbent with a leaf child are skipped, the others are
 * tried once (a partition and its mirror give the same trees). */
void hss_search_two(hss *h, hss_tree *best)
{
    const size_t G = h->G;
    uint32_t t[HS_MAX_LIFTED];
    if (h->n <= 256 && !h->order_pts && (h->order_pts = malloc(h->n_order * G + 1)))
        for (uint64_t i = 0; i < h->n_order; i++) { /* tuples by value: their points at hand */
            unrank(h, h->order[i], t);
            for (size_t k = 0; k < G; k++) h->order_pts[i * G + k] = (uint8_t)t[k];
        }
    warm_start(h, best);
    int64_t *tot = h->cnt + 8 * (h->C + 1); /* class totals of all rows, for consider_general */
    for (size_t c = 0; c < h->C; c++) tot[c] = (int64_t)pdt_bits_count(h->ci.class_bits + c * h->words, h->words);
    for (size_t k = 0; k < G; k++) t[k] = (uint32_t)k;
    for (uint64_t rank = 0; rank < h->n_tuples && best->value > 0; rank++) {
        if (rank % HSS_CHECK_EVERY == 0 && hss_out_of_time(h)) return;
        if (h->kind[rank] == 1) consider_general(h, best, rank, t, tot);
        for (int64_t m = 0; h->kind[rank] == 2 && m < (INT64_C(1) << G) && best->value > 0; m++)
            consider_root(h, best, rank, t, m);
        size_t k = 0; /* next tuple in colex order */
        while (k + 1 < G && t[k] + 1 == t[k + 1]) k++;
        t[k]++;
        for (size_t j = 0; j < k; j++) t[j] = (uint32_t)j;
    }
}

