/* An errorless tree found greedily, as a bound for --lexicographic.
 *
 * The lexicographic search turns to its errorless regime (witnesses, the
 * sample test on every item set, wide similarity slots: binary_witness.c,
 * binary_perfect.c) only once the root has an errorless tree.  Until then it
 * searches the first root feature against the depth-2 tree, which has
 * errors, as the error-first search does: on audiology and lymph at depth 5
 * that first feature alone was a fifth of the search, and serial (the warm
 * start, binary_threads.c).  A greedy tree with no error, when one exists,
 * says at once that the root's optimum has no error and at most its size.
 *
 * The tree: the given root feature (the root's first-ranked, by its best
 * depth-3 tree), then at every node of depth ≥ 3 left the feature of least
 * weighted Gini impurity, and at depth ≤ 2 the depth-2 solver's exact least
 * errorless tree.  Its size is counted, not trusted: a node with no errorless
 * completion makes the whole attempt fail (no bound).  The size is an upper
 * bound on the optimum only; the search still finds and proves the optimum,
 * and the answer does not depend on it (binary_threads.c uses it as a bound
 * of unknown position, never as a tree). */
#include <stdlib.h>
#include <string.h>

#include "binary_solver.h"
#include "bitset.h"

#define GR_NONE UINT32_MAX

/* Weighted Gini impurity of a side with m items and per-class counts cnt, times m. */
static double gini_mass(const uint32_t *cnt, size_t nc, uint32_t m)
{
    double sq = 0;
    for (size_t c = 0; c < nc; c++) sq += (double)cnt[c] * cnt[c];
    return m ? (double)m - sq / m : 0;
}

/* The feature of least weighted Gini impurity splitting D (m items) in two
 * non-empty parts, ties to the smallest index; GR_NONE when none splits. */
static uint32_t gini_feature(const bs_search *s, const uint64_t *D, uint32_t m, uint32_t *in, uint32_t *r)
{
    const bs_data *dt = s->data;
    const size_t W = s->words, nc = s->nc;
    for (size_t c = 0; c < nc; c++) in[c] = pdt_bits_and_count(D, dt->cls + c * W, W);
    uint32_t best = GR_NONE;
    double best_v = 0;
    for (uint32_t f = 0; f < dt->nf; f++) {
        const uint64_t *col = dt->cols + (size_t)f * W;
        uint32_t mr = 0;
        for (size_t c = 0; c < nc; c++) {
            r[nc + c] = pdt_bits_and3_count(D, col, dt->cls + c * W, W);
            r[c] = in[c] - r[nc + c];
            mr += r[nc + c];
        }
        if (mr == 0 || mr == m) continue;
        const double v = gini_mass(r, nc, m - mr) + gini_mass(r + nc, nc, mr);
        if (best == GR_NONE || v < best_v) best = f, best_v = v;
    }
    return best;
}

static uint32_t grow(bs_search *s, uint64_t *buf, uint32_t *cnt, const uint64_t *D, uint32_t m, uint32_t d,
                     uint32_t first);

/* Nodes of D split by f, each side grown within depth d − 1 (GR_NONE: a side failed). */
static uint32_t grow_split(bs_search *s, uint64_t *buf, uint32_t *cnt, const uint64_t *D, uint32_t m, uint32_t d,
                           uint32_t f)
{
    const size_t W = s->words;
    const uint64_t *col = s->data->cols + (size_t)f * W;
    uint64_t *L = buf, *R = buf + W;
    for (size_t w = 0; w < W; w++) L[w] = D[w] & ~col[w], R[w] = D[w] & col[w];
    const uint32_t mr = pdt_bits_count(R, W);
    if (mr == 0 || mr == m) return GR_NONE;
    const uint32_t a = grow(s, buf + 2 * W, cnt, L, m - mr, d - 1, GR_NONE);
    if (a == GR_NONE) return GR_NONE;
    const uint32_t b = grow(s, buf + 2 * W, cnt, R, mr, d - 1, GR_NONE);
    return b == GR_NONE ? GR_NONE : 1 + a + b;
}

/* Branch nodes of an errorless tree of D (m items) within depth d, the root
 * split by `first` when it is a feature; GR_NONE when the greedy finds none.
 * At depth 3 a Gini feature with no errorless completion is replaced by the
 * first feature that has one (two depth-2 solves per feature tried).
 * buf: 2 · words per remaining level; cnt: 3 · nc counts. */
static uint32_t grow(bs_search *s, uint64_t *buf, uint32_t *cnt, const uint64_t *D, uint32_t m, uint32_t d,
                     uint32_t first)
{
    if (m == 0 || bs_leaf(s->data, D, NULL) == 0) return 0;
    if (d == 0) return GR_NONE;
    if (d == 1) return d1_value(s->d2, D, m) == 0 ? 1 : GR_NONE;
    if (d == 2) {
        uint32_t v[3];
        d2_values(s->d2, D, m, v); /* v[k − 1]: the least errors with ≤ k nodes */
        for (uint32_t k = 1; k <= 3; k++)
            if (v[k - 1] == 0) return k;
        return GR_NONE;
    }
    if (first < s->data->nf) return grow_split(s, buf, cnt, D, m, d, first);
    const uint32_t f = gini_feature(s, D, m, cnt, cnt + s->nc);
    if (f == GR_NONE) return GR_NONE;
    uint32_t size = grow_split(s, buf, cnt, D, m, d, f);
    for (uint32_t g = 0; d == 3 && size == GR_NONE && g < s->data->nf && !bs_tick(s); g++) /* (a time limit) */
        if (g != f) size = grow_split(s, buf, cnt, D, m, d, g);
    return size;
}

/* True when two of the items have the same features and different classes
 * (two classes, from the item rows of binary_perfect.c): no tree separates
 * them, so none is errorless and the greedy need not try.  False when not
 * known (no rows, no memory): the greedy then finds out for itself. */
static bool conflicting(const bs_search *s, const uint64_t *items)
{
    const size_t FW = s->bp_fw, n = s->data->n;
    if (!s->bp_rows) return false;
    size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    uint32_t *slot = calloc(cap, sizeof *slot); /* item + 1 */
    bool found = false;
    for (size_t i = 0; slot && i < n && !found; i++) {
        if (!(items[i / 64] >> (i % 64) & 1)) continue;
        const uint64_t *row = s->bp_rows + i * FW;
        uint64_t h = 0x9e3779b97f4a7c15u;
        for (size_t w = 0; w < FW; w++) h = (h ^ row[w]) * 0xff51afd7ed558ccdu;
        size_t p = (size_t)(h >> 17) & (cap - 1);
        for (; slot[p] && !found; p = (p + 1) & (cap - 1)) {
            const size_t j = slot[p] - 1;
            if (memcmp(row, s->bp_rows + j * FW, FW * sizeof *row)) continue;
            found = (s->data->cls[i / 64] >> (i % 64) & 1) != (s->data->cls[j / 64] >> (j % 64) & 1);
            break; /* the same row is kept once */
        }
        if (!found && !slot[p]) slot[p] = (uint32_t)i + 1;
    }
    free(slot);
    return found;
}

bs_value bs_greedy_errorless(bs_search *s, const uint64_t *items, uint32_t m, uint32_t d, uint32_t n,
                             uint32_t first)
{
    bs_normalise(&d, &n);
    if (conflicting(s, items)) return BS_VNONE;
    uint64_t *buf = malloc((2 * (size_t)d + 1) * s->words * sizeof *buf);
    uint32_t *cnt = malloc((3 * s->nc + 1) * sizeof *cnt);
    const uint32_t size = buf && cnt ? grow(s, buf, cnt, items, m, d, first) : GR_NONE;
    free(buf);
    free(cnt);
    return size == GR_NONE || size > n ? BS_VNONE : (bs_value)size * s->per_node;
}
