/* The hypersurface backend: fits with at most 2 branch nodes without a
 * candidate list.
 *
 * Conics in the plane already give C(N,5)·32 candidates (7.7·10^8 at N = 80),
 * far more than side bitsets can be stored for.  But the 2^G rules of one
 * tuple T differ only in where T's own points (and, in degenerate position,
 * other points on the surface) go: every other row is on the side its
 * orientation says.  So per tuple we keep one bitset, `base` (the rows with
 * negative orientation), and treat the assignments arithmetically:
 *
 *   - K = 1: for the root region, the class counts of base ∩ X plus any choice
 *     of a_c of T's class-c points (0 ≤ a_c ≤ n_c) give every partition the
 *     2^G assignments make; the tuples are streamed, nothing is stored.
 *   - K = 2: a root rule (T1, m1) any tuple and assignment; one child split by
 *     a rule whose G defining points lie in that child (the proper-tree
 *     condition), the other child a leaf.  The best split of a child region X
 *     enumerates the G-subsets of X's items, looks their bases up by colex
 *     rank and evaluates the assignments as above.
 *
 * The trees searched, the rules admissible at each node and the costs are
 * exactly those of the fused engine over the explicit candidate list (the
 * oracle tests compare them), so the optimum is the same; only the work is
 * organised differently.  Root partitions are deduplicated (a partition and
 * its mirror give the same trees) and the best split of a child region is
 * cached by its item set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../problems/classification.h"
#include "bitset.h"
#include "hypersurface.h"

#define HSS_MAX_G 6                          /* surface-point tables have one bit per assignment */
#define HSS_TABLE_BYTES (UINT64_C(3) << 30)  /* tuple bases kept for K = 2 */
#define HSS_SEEN_MAX (UINT64_C(1) << 23)     /* root partitions remembered */
#define HSS_MEMO_MAX (UINT64_C(1) << 21)     /* child regions cached */
#define HSS_CHECK_EVERY 1024u     /* root tuples between time checks */
#define HSS_CHECK_TUPLES 65536u   /* tuples of a region search between time checks */
#define HSS_WARM 64u              /* best single splits tried first as roots */

/* A row on the surface of a tuple that is not one of its points. */
typedef struct hss_exc {
    uint64_t rank;
    uint32_t row;
    uint64_t left; /* bit m: the row goes left under assignment m */
} hss_exc;

/* A split of a region: value, the tuple (by rank and rows) and the assignment. */
typedef struct hss_split {
    int64_t value; /* INT64_MAX: none */
    uint32_t t[HS_MAX_LIFTED];
    int64_t mask;
    bool exact;    /* cached regions: value is the optimum (else a lower bound) */
} hss_split;

/* Item sets (bitsets) → a split, open addressing. */
typedef struct hss_map {
    size_t words, cap, n, max;
    uint64_t *hash, *keys;
    hss_split *val;
} hss_map;

typedef struct hss {
    const pdt_dataset *ds;
    const pdt_fit_options *opt;
    hs_data hd;
    hs_eval ev;
    cls_inst ci;
    size_t n, G, words, C;
    uint32_t lo, *label;
    uint64_t *binom; /* C(i, k) at i·(G+1) + k */
    uint64_t n_tuples;
    uint64_t *base;  /* n_tuples · words, or NULL (K = 1) */
    uint8_t *kind;   /* per tuple: 0 dependent, 1 general, 2 with surface rows */
    int64_t *value;  /* per tuple: its best split of all rows (INT64_MAX: none) */
    uint32_t *order; /* ranks of the tuples with a split, by increasing value */
    uint64_t n_order;
    int64_t weight_all; /* weight of all rows */
    hss_exc *exc;
    size_t n_exc, cap_exc;
    int64_t *cnt;      /* scratch: 8·C counts */
    uint64_t *all, *left, *right, *tmp, *by_class; /* scratch bitsets (by_class: C of them) */
    uint32_t *items;   /* scratch: n row indices */
    uint8_t *on_t;     /* scratch: n flags */
    hss_map seen, memo;
    struct timespec start;
    double next_report;
    int64_t best_value; /* best tree value so far (progress reports) */
    bool stopped;
    uint64_t candidates, regions;
} hss;

/* ------------------------------------------------------------ small things */

static double elapsed(const hss *h)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - h->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - h->start.tv_nsec);
}

/* The time limit, and a progress report about once a second. */
static bool out_of_time(hss *h)
{
    if (h->stopped || (h->opt->time_limit <= 0 && !h->opt->progress)) return h->stopped;
    double t = elapsed(h);
    if (h->opt->time_limit > 0 && t > h->opt->time_limit) h->stopped = true;
    if (h->opt->progress && t >= h->next_report) {
        h->next_report = t + 1;
        char best[32];
        snprintf(best, sizeof best, "%lld", (long long)h->best_value);
        pdt_progress p = {t, h->regions, best};
        h->opt->progress(h->opt->progress_user, &p);
    }
    return h->stopped;
}

static uint64_t binom(const hss *h, size_t i, size_t k) { return h->binom[i * (h->G + 1) + k]; }

static uint64_t colex_rank(const hss *h, const uint32_t *t)
{
    uint64_t r = 0;
    for (size_t k = 0; k < h->G; k++) r += binom(h, t[k], k + 1);
    return r;
}

static int64_t leaf_cost(const hss *h, const int64_t *c)
{
    int64_t total = 0, best = 0;
    for (size_t k = 0; k < h->C; k++) {
        int64_t v = c[k] * h->ci.weight[k];
        total += v;
        if (v > best) best = v;
    }
    return total - best;
}

/* ------------------------------------------------------------ hash tables */

static pdt_status map_init(hss_map *m, size_t words, size_t max, bool values, pdt_error *err)
{
    m->words = words;
    m->cap = 1024;
    m->n = 0;
    m->max = max;
    m->hash = calloc(m->cap, sizeof *m->hash);
    m->keys = malloc(m->cap * words * sizeof *m->keys);
    m->val = values ? malloc(m->cap * sizeof *m->val) : NULL;
    if (!m->hash || !m->keys || (values && !m->val)) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    return PDT_OK;
}

static void map_free(hss_map *m)
{
    free(m->hash);
    free(m->keys);
    free(m->val);
}

static size_t map_slot(const hss_map *m, const uint64_t *key, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t p = (size_t)h & mask;; p = (p + 1) & mask)
        if (m->hash[p] == 0 || (m->hash[p] == h && !memcmp(m->keys + p * m->words, key, m->words * 8))) return p;
}

static bool map_grow(hss_map *m)
{
    hss_map big = {m->words, 2 * m->cap, m->n, m->max, NULL, NULL, NULL};
    big.hash = calloc(big.cap, sizeof *big.hash);
    big.keys = malloc(big.cap * m->words * sizeof *big.keys);
    big.val = m->val ? malloc(big.cap * sizeof *big.val) : NULL;
    if (!big.hash || !big.keys || (m->val && !big.val)) {
        map_free(&big);
        return false;
    }
    for (size_t p = 0; p < m->cap; p++) {
        if (!m->hash[p]) continue;
        size_t q = map_slot(&big, m->keys + p * m->words, m->hash[p]);
        big.hash[q] = m->hash[p];
        memcpy(big.keys + q * m->words, m->keys + p * m->words, m->words * 8);
        if (m->val) big.val[q] = m->val[p];
    }
    map_free(m);
    *m = big;
    return true;
}

/* Looks key up and inserts it when absent (and the table is not full):
 * *fresh tells whether it was absent.  Returns its value slot (NULL for a
 * table without values, or when full). */
static hss_split *map_get(hss_map *m, const uint64_t *key, bool *fresh)
{
    uint64_t h = pdt_bits_hash(key, m->words, 0x9e3779b97f4a7c15u) | 1;
    size_t p = map_slot(m, key, h);
    *fresh = m->hash[p] == 0;
    if (!*fresh) return m->val ? &m->val[p] : NULL;
    if (m->n >= m->max) return NULL;
    if (2 * (m->n + 1) > m->cap) {
        if (!map_grow(m)) return NULL;
        p = map_slot(m, key, h);
    }
    m->hash[p] = h;
    memcpy(m->keys + p * m->words, key, m->words * 8);
    m->n++;
    return m->val ? &m->val[p] : NULL;
}

/* ------------------------------------------------------------ one tuple in one region */

/* A region: its items, class counts and per-class item bitsets. */
typedef struct hss_region {
    const uint64_t *items;
    uint64_t *by_class; /* C · words */
    int64_t *tot;       /* C */
    uint32_t size;
} hss_region;

/* Best assignment of tuple t (general position) for region r: updates *best
 * when one beats best->value.  The left class counts are b_c + a_c with
 * 0 <= a_c <= n_c (a_c of T's n_c class-c points assigned left).  The cost
 * Σ_c w_c·(L_c + R_c) − max_c w_c·L_c − max_c w_c·R_c is concave in a (a
 * constant minus two maxima of affine functions), so over the whole box its
 * minimum is at a corner, a_c ∈ {0, n_c}; when the leaf-size limit cuts the
 * box every point is tried. */
static void eval_general(hss *h, const hss_region *r, const uint64_t *base, const uint32_t *t,
                         hss_split *best)
{
    const size_t C = h->C, G = h->G, words = h->words;
    int64_t *b = h->cnt, *nt = b + C, *a = nt + C, *L = a + C, *R = L + C, *arg = R + C, sum = 0;
    for (size_t c = 0; c < C; c++) {
        b[c] = (int64_t)pdt_bits_and_count(base, r->by_class + c * words, words);
        nt[c] = a[c] = 0;
        sum += b[c];
    }
    for (size_t k = 0; k < G; k++) nt[h->label[t[k]]]++;
    const bool corners = sum >= h->lo && sum + (int64_t)G + h->lo <= (int64_t)r->size;
    bool found = false;
    for (;;) {
        int64_t nl = 0;
        for (size_t c = 0; c < C; c++) {
            L[c] = b[c] + a[c];
            R[c] = r->tot[c] - L[c];
            nl += L[c];
        }
        h->candidates++;
        if (nl >= h->lo && (int64_t)r->size - nl >= h->lo) {
            int64_t v = leaf_cost(h, L) + leaf_cost(h, R);
            if (v < best->value) {
                best->value = v;
                memcpy(arg, a, C * sizeof *a);
                found = true;
            }
        }
        size_t c = 0;
        while (c < C && a[c] == nt[c]) a[c++] = 0;
        if (c == C) break;
        a[c] = corners ? nt[c] : a[c] + 1;
    }
    if (!found) return;
    memcpy(best->t, t, G * sizeof *t);
    best->mask = 0;
    for (size_t k = 0; k < G; k++) /* the first a_c points of class c go left */
        if (arg[h->label[t[k]]] > 0) arg[h->label[t[k]]]--, best->mask |= INT64_C(1) << k;
}

/* The same for a tuple with other rows on its surface (exc[0..n_exc)): every assignment. */
static void eval_degenerate(hss *h, const hss_region *r, const uint64_t *base, const uint32_t *t,
                           const hss_exc *exc, size_t n_exc, hss_split *best)
{
    const size_t C = h->C, G = h->G, words = h->words;
    int64_t *b = h->cnt, *L = b + 3 * C, *R = L + C;
    for (size_t c = 0; c < C; c++) b[c] = (int64_t)pdt_bits_and_count(base, r->by_class + c * words, words);
    for (int64_t m = 0; m < (INT64_C(1) << G); m++) {
        memcpy(L, b, C * sizeof *L);
        for (size_t k = 0; k < G; k++)
            if ((m >> k) & 1) L[h->label[t[k]]]++;
        for (size_t e = 0; e < n_exc; e++)
            if (pdt_bit_get(r->items, exc[e].row) && ((exc[e].left >> m) & 1)) L[h->label[exc[e].row]]++;
        int64_t nl = 0;
        for (size_t c = 0; c < C; c++) R[c] = r->tot[c] - L[c], nl += L[c];
        h->candidates++;
        if (nl < h->lo || (int64_t)r->size - nl < h->lo) continue;
        int64_t v = leaf_cost(h, L) + leaf_cost(h, R);
        if (v < best->value) {
            best->value = v;
            memcpy(best->t, t, G * sizeof *t);
            best->mask = m;
        }
    }
}

static void region_init(hss *h, hss_region *r, const uint64_t *items, uint64_t *by_class, int64_t *tot)
{
    r->items = items;
    r->by_class = by_class;
    r->tot = tot;
    r->size = 0;
    for (size_t c = 0; c < h->C; c++) {
        uint64_t *bc = by_class + c * h->words;
        for (size_t w = 0; w < h->words; w++) bc[w] = items[w] & h->ci.class_bits[c * h->words + w];
        tot[c] = (int64_t)pdt_bits_count(bc, h->words);
        r->size += (uint32_t)tot[c];
    }
}

/* ------------------------------------------------------------ the tuples */

static pdt_status add_exception(hss *h, uint64_t rank, uint32_t row, uint64_t left, pdt_error *err)
{
    if (h->n_exc == h->cap_exc) {
        size_t cap = h->cap_exc ? 2 * h->cap_exc : 64;
        hss_exc *e = realloc(h->exc, cap * sizeof *e);
        if (!e) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
        h->exc = e;
        h->cap_exc = cap;
    }
    h->exc[h->n_exc++] = (hss_exc){rank, row, left};
    return PDT_OK;
}

/* Orientation of every row against tuple t: base bits, surface rows as exceptions. */
static pdt_status tuple_sides(hss *h, const uint32_t *t, uint64_t rank, uint64_t *base, size_t *first_exc,
                              pdt_error *err)
{
    const hs_data *hd = &h->hd;
    uint8_t *on_t = h->on_t;
    memset(on_t, 0, h->n);
    for (size_t k = 0; k < h->G; k++) on_t[t[k]] = 1;
    pdt_bits_clear(base, h->words);
    *first_exc = h->n_exc;
    for (size_t i = 0; i < h->n; i++) {
        if (on_t[i]) continue;
        int s = hs_eval_sign(&h->ev, hs_data_point(hd, i), hs_data_row(hd, i));
        if (s < 0) pdt_bit_set(base, i);
        if (s == 2) return pdt_error_set(err, PDT_EINTERNAL, "orientation of row %zu failed", i);
        if (s != 0) continue;
        uint64_t left = 0;
        for (int64_t m = 0; m < (INT64_C(1) << h->G); m++) {
            int side = hs_eval_on_surface(&h->ev, hs_data_point(hd, i), m);
            if (side == 2) return pdt_error_set(err, PDT_EINTERNAL, "row %zu on a degenerate surface", i);
            if (side < 0) left |= UINT64_C(1) << m;
        }
        pdt_status st = add_exception(h, rank, (uint32_t)i, left, err);
        if (st) return st;
    }
    return PDT_OK;
}

static int cmp_exc(const void *a, const void *b)
{
    const hss_exc *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

typedef struct hss_pair {
    int64_t value;
    uint32_t rank;
} hss_pair;

static int cmp_pair(const void *a, const void *b)
{
    const hss_pair *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* h->order: the tuples with a split by increasing value (counting sort when
 * the values are small, as for unweighted data). */
static pdt_status sort_tuples(hss *h, pdt_error *err)
{
    int64_t top = -1;
    for (uint64_t r = 0; r < h->n_tuples; r++)
        if (h->value[r] != INT64_MAX && h->value[r] > top) top = h->value[r];
    h->order = malloc((h->n_tuples + 1) * sizeof *h->order);
    if (!h->order) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    h->n_order = 0;
    if (top < (INT64_C(1) << 24)) {
        uint64_t *start = calloc((size_t)top + 2, sizeof *start);
        if (!start) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
        for (uint64_t r = 0; r < h->n_tuples; r++)
            if (h->value[r] != INT64_MAX) start[h->value[r] + 1]++;
        for (int64_t v = 0; v <= top; v++) start[v + 1] += start[v];
        for (uint64_t r = 0; r < h->n_tuples; r++)
            if (h->value[r] != INT64_MAX) h->order[start[h->value[r]]++] = (uint32_t)r, h->n_order++;
        free(start);
        return PDT_OK;
    }
    hss_pair *p = malloc((h->n_tuples + 1) * sizeof *p);
    if (!p) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (uint64_t r = 0; r < h->n_tuples; r++)
        if (h->value[r] != INT64_MAX) p[h->n_order++] = (hss_pair){h->value[r], (uint32_t)r};
    qsort(p, h->n_order, sizeof *p, cmp_pair);
    for (uint64_t i = 0; i < h->n_order; i++) h->order[i] = p[i].rank;
    free(p);
    return PDT_OK;
}

/* Every tuple in lexicographic order (the filter shares row prefixes); the
 * root's best split on the way; bases kept when `keep`. */
static pdt_status scan_tuples(hss *h, bool keep, hss_split *root, const hss_region *all, pdt_error *err)
{
    const size_t G = h->G, n = h->n;
    uint32_t t[HS_MAX_LIFTED];
    uint64_t *tmp = h->tmp;
    if (n < G) return PDT_OK;
    for (size_t k = 0; k < G; k++) t[k] = (uint32_t)k;
    for (uint64_t count = 0;; count++) {
        if (count % HSS_CHECK_EVERY == 0 && out_of_time(h)) return PDT_OK;
        uint64_t rank = colex_rank(h, t);
        uint64_t *base = keep ? h->base + rank * h->words : tmp;
        bool ok = hs_data_tuple(&h->ev, &h->hd, t);
        hss_split one = {.value = INT64_MAX};
        if (keep) h->kind[rank] = ok;
        if (ok) {
            size_t first;
            pdt_status st = tuple_sides(h, t, rank, base, &first, err);
            if (st) return st;
            if (h->n_exc > first) {
                if (keep) h->kind[rank] = 2;
                eval_degenerate(h, all, base, t, h->exc + first, h->n_exc - first, &one);
                if (!keep) h->n_exc = first;
            } else {
                eval_general(h, all, base, t, &one);
            }
        }
        if (keep) h->value[rank] = one.value;
        if (one.value < root->value) *root = one, h->best_value = one.value;
        size_t k = G;
        while (k > 0 && t[k - 1] == n - G + k - 1) k--;
        if (k == 0) break;
        t[k - 1]++;
        for (size_t i = k; i < G; i++) t[i] = t[i - 1] + 1;
    }
    if (keep) qsort(h->exc, h->n_exc, sizeof *h->exc, cmp_exc);
    return keep ? sort_tuples(h, err) : PDT_OK;
}

/* Surface rows of a kept tuple (binary search in the sorted exceptions). */
static const hss_exc *exceptions_of(const hss *h, uint64_t rank, size_t *count)
{
    size_t lo = 0, hi = h->n_exc;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (h->exc[mid].rank < rank) lo = mid + 1;
        else hi = mid;
    }
    size_t end = lo;
    while (end < h->n_exc && h->exc[end].rank == rank) end++;
    *count = end - lo;
    return h->exc + lo;
}

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
            if (binom(h, mid, k + 1) <= r) lo = mid;
            else top = mid;
        }
        t[k] = (uint32_t)lo;
        r -= binom(h, lo, k + 1);
        hi = lo;
    }
}

static void eval_rank(hss *h, const hss_region *r, uint64_t rank, const uint32_t *t, hss_split *out)
{
    if (h->kind[rank] == 1) {
        eval_general(h, r, h->base + rank * h->words, t, out);
    } else if (h->kind[rank] == 2) {
        size_t ne;
        const hss_exc *e = exceptions_of(h, rank, &ne);
        eval_degenerate(h, r, h->base + rank * h->words, t, e, ne, out);
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
        if (i % HSS_CHECK_TUPLES == HSS_CHECK_TUPLES - 1 && out_of_time(h)) return;
        uint64_t rank = h->order[i];
        if (h->value[rank] >= sat_add(out->value, wR)) break;
        unrank(h, rank, t);
        size_t k = 0;
        while (k < h->G && pdt_bit_get(r->items, t[k])) k++;
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
        if (count % HSS_CHECK_TUPLES == 0 && out_of_time(h)) return;
        for (size_t k = 0; k < G; k++) t[k] = it[pos[k]];
        uint64_t rank = colex_rank(h, t);
        if (h->value[rank] < sat_add(out->value, wR)) eval_rank(h, r, rank, t, out);
        size_t k = G;
        while (k > 0 && pos[k - 1] == m - G + k - 1) k--;
        if (k == 0) break;
        pos[k - 1]++;
        for (size_t i = k; i < G; i++) pos[i] = pos[i - 1] + 1;
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
    hss_split *cached = map_get(&h->memo, items, &fresh);
    if (cached && !fresh && (cached->exact || cached->value >= bound)) {
        *out = *cached;
        return;
    }
    h->regions++;
    out->value = bound;
    int64_t *tot = h->cnt + 6 * h->C, w_region = 0;
    hss_region r;
    region_init(h, &r, items, h->by_class, tot);
    for (size_t c = 0; c < h->C; c++) w_region += tot[c] * h->ci.weight[c];
    size_t m = 0;
    for (size_t i = 0; i < h->n; i++)
        if (pdt_bit_get(items, i)) h->items[m++] = (uint32_t)i;
    if (m >= h->G && r.size >= 2 * h->lo) {
        int64_t wR = h->weight_all - w_region;
        if (sorted_below(h, sat_add(bound, wR)) < binom(h, m, h->G)) search_sorted(h, &r, wR, out);
        else search_subsets(h, &r, h->items, m, wR, out);
    }
    out->exact = out->value < bound; /* a split found after the time limit is still a real tree */
    if (!out->exact) out->value = bound;
    if (cached && !h->stopped) *cached = *out; /* an interrupted search proves no bound */
    else if (cached) cached->exact = false, cached->value = 0;
}

typedef struct hss_tree {
    int64_t value;
    int size;            /* branch nodes: 0, 1 or 2 */
    hss_split root;      /* size >= 1 */
    bool child_left;     /* size 2: the left child is split */
    hss_split child;
} hss_tree;

/* Left side of root rule (t, m): base, the assigned points, surface rows. */
static void root_left(const hss *h, uint64_t *left, uint64_t rank, const uint32_t *t, int64_t m)
{
    memcpy(left, h->base + rank * h->words, h->words * 8);
    for (size_t k = 0; k < h->G; k++)
        if ((m >> k) & 1) pdt_bit_set(left, t[k]);
    if (h->kind[rank] == 2) {
        size_t ne;
        const hss_exc *e = exceptions_of(h, rank, &ne);
        for (size_t k = 0; k < ne; k++)
            if ((e[k].left >> m) & 1) pdt_bit_set(left, e[k].row);
    }
}

static int64_t side_leaf(hss *h, const uint64_t *side)
{
    int64_t *c = h->cnt + 7 * h->C;
    for (size_t k = 0; k < h->C; k++)
        c[k] = (int64_t)pdt_bits_and_count(side, h->ci.class_bits + k * h->words, h->words);
    return leaf_cost(h, c);
}

/* One root partition: the better of "split the left child" and "split the right one". */
static void try_root(hss *h, hss_tree *best, const uint64_t *const *side, const int64_t *leaf,
                     const uint32_t *t, int64_t m)
{
    for (int s = 0; s < 2; s++) {
        if (leaf[1 - s] >= best->value) continue; /* the split child costs at least 0 */
        hss_split child;
        best_split(h, side[s], best->value - leaf[1 - s], &child);
        if (!child.exact) continue;
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
    map_get(&h->seen, pdt_bit_get(h->left, 0) ? h->left : h->right, &fresh);
    if (fresh) try_root(h, best, side, leaf, t, m);
}

/* A good incumbent first: the best single splits of all rows as roots (every
 * assignment), so that the full enumeration prunes with a tight bound. */
static void warm_start(hss *h, hss_tree *best)
{
    uint32_t t[HS_MAX_LIFTED];
    for (uint64_t i = 0; i < h->n_order && i < HSS_WARM && best->value > 0 && !out_of_time(h); i++) {
        uint64_t rank = h->order[i];
        unrank(h, rank, t);
        for (int64_t m = 0; m < (INT64_C(1) << h->G) && best->value > 0; m++) consider_root(h, best, rank, t, m);
    }
}

/* Every root rule (tuple in colex order, every assignment); partitions that
 * cannot beat the incumbent with a leaf child are skipped, the others are
 * tried once (a partition and its mirror give the same trees). */
static void search_two(hss *h, hss_tree *best)
{
    const size_t G = h->G;
    uint32_t t[HS_MAX_LIFTED];
    warm_start(h, best);
    for (size_t k = 0; k < G; k++) t[k] = (uint32_t)k;
    for (uint64_t rank = 0; rank < h->n_tuples && best->value > 0; rank++) {
        if (rank % HSS_CHECK_EVERY == 0 && out_of_time(h)) return;
        for (int64_t m = 0; h->kind[rank] && m < (INT64_C(1) << G) && best->value > 0; m++)
            consider_root(h, best, rank, t, m);
        size_t k = 0; /* next tuple in colex order */
        while (k + 1 < G && t[k] + 1 == t[k + 1]) k++;
        t[k]++;
        for (size_t j = 0; j < k; j++) t[j] = (uint32_t)j;
    }
}

/* ------------------------------------------------------------ setup */

static pdt_status hss_init(hss *h, const pdt_dataset *ds, const pdt_fit_options *opt, bool keep, pdt_error *err)
{
    h->ds = ds;
    h->opt = opt;
    clock_gettime(CLOCK_MONOTONIC, &h->start);
    pdt_status st = hs_data_init(&h->hd, ds, opt->rule_params.degree, err);
    if (!st) st = cls_inst_init(&h->ci, ds, opt->class_weights, err);
    if (st) return st;
    h->n = pdt_dataset_rows(ds);
    h->G = h->hd.L.G;
    h->words = pdt_bits_words(h->n);
    h->C = pdt_dataset_classes(ds);
    h->lo = opt->min_leaf ? opt->min_leaf : 1;
    hs_eval_init(&h->ev, &h->hd.L);
    const size_t n = h->n, G = h->G, w = h->words;
    h->binom = calloc((n + 1) * (G + 1), sizeof *h->binom);
    h->label = malloc((n + 1) * sizeof *h->label);
    h->cnt = malloc(8 * (h->C + 1) * sizeof *h->cnt);
    h->all = calloc((4 + h->C) * w + 1, sizeof *h->all);
    h->items = malloc((n + 1) * sizeof *h->items);
    h->on_t = malloc(n + 1);
    if (!h->binom || !h->label || !h->cnt || !h->all || !h->items || !h->on_t)
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    h->left = h->all + w;
    h->right = h->left + w;
    h->tmp = h->right + w;
    h->by_class = h->tmp + w;
    pdt_bits_fill(h->all, n);
    for (size_t i = 0; i < n; i++) {
        h->label[i] = pdt_dataset_label(ds, i);
        h->weight_all += h->ci.weight[h->label[i]];
    }
    for (size_t i = 0; i <= n; i++) {
        h->binom[i * (G + 1)] = 1;
        for (size_t k = 1; k <= G && i > 0; k++)
            h->binom[i * (G + 1) + k] = h->binom[(i - 1) * (G + 1) + k - 1] + h->binom[(i - 1) * (G + 1) + k];
    }
    h->n_tuples = binom(h, n, G);
    if (!keep) return PDT_OK;
    if (h->n_tuples > HSS_TABLE_BYTES / (8 * w + 1))
        return pdt_error_set(err, PDT_ELIMIT, "%llu point tuples need more than %llu GiB for 2-node "
                             "hypersurface trees; use fewer items", (unsigned long long)h->n_tuples,
                             (unsigned long long)(HSS_TABLE_BYTES >> 30));
    h->base = malloc((h->n_tuples * w + 1) * sizeof *h->base);
    h->kind = calloc(h->n_tuples + 1, 1);
    h->value = malloc((h->n_tuples + 1) * sizeof *h->value);
    if (!h->base || !h->kind || !h->value) return pdt_error_set(err, PDT_ENOMEM, "out of memory for the tuple table");
    st = map_init(&h->seen, w, HSS_SEEN_MAX, false, err);
    if (!st) st = map_init(&h->memo, w, HSS_MEMO_MAX, true, err);
    return st;
}

static void hss_clear(hss *h)
{
    hs_data_clear(&h->hd);
    cls_inst_clear(&h->ci);
    free(h->binom);
    free(h->label);
    free(h->cnt);
    free(h->all);
    free(h->items);
    free(h->on_t);
    free(h->base);
    free(h->kind);
    free(h->value);
    free(h->order);
    free(h->exc);
    map_free(&h->seen);
    map_free(&h->memo);
}

/* The model: rules exported from the tuples, the tree in preorder. */
static pdt_status make_model(pdt_model **out, hss *h, const hss_tree *best, pdt_error *err)
{
    pdt_rule rules[2];
    int32_t pre[5];
    size_t n_rules = 0, len = 0;
    pdt_status st = PDT_OK;
    if (best->size >= 1) st = hs_export_tuple(&rules[n_rules++], &h->hd, best->root.t, best->root.mask, err);
    if (!st && best->size == 2) st = hs_export_tuple(&rules[n_rules++], &h->hd, best->child.t, best->child.mask, err);
    if (st) {
        for (size_t r = 0; r + 1 < n_rules; r++) pdt_rule_clear(&rules[r]);
        return st;
    }
    if (best->size == 0) pre[len++] = -1;
    if (best->size == 1) pre[0] = 0, pre[1] = pre[2] = -1, len = 3;
    if (best->size == 2 && best->child_left) memcpy(pre, (int32_t[]){0, 1, -1, -1, -1}, sizeof pre), len = 5;
    if (best->size == 2 && !best->child_left) memcpy(pre, (int32_t[]){0, -1, 1, -1, -1}, sizeof pre), len = 5;
    st = cls_model_from_tree(out, h->ds, h->opt, rules, n_rules, pre, len, best->value, "hypersurface", err);
    if (st) return st;
    (*out)->optimal = !h->stopped;
    (*out)->stats.nodes = 1 + h->regions;
    (*out)->stats.candidates = h->candidates;
    (*out)->stats.memo_entries = h->memo.n;
    (*out)->seconds = elapsed(h);
    (*out)->stats.seconds = (*out)->seconds;
    return PDT_OK;
}

static pdt_status hss_run(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, uint32_t k,
                          pdt_error *err)
{
    hss h;
    memset(&h, 0, sizeof h);
    pdt_status st = hss_init(&h, ds, opt, k >= 2, err);
    hss_tree best = {0};
    if (!st) {
        int64_t *tot = h.cnt + 6 * h.C;
        hss_region all;
        region_init(&h, &all, h.all, h.by_class, tot);
        best.value = h.best_value = leaf_cost(&h, tot);
        hss_split root = {.value = best.value};
        if (k >= 1) st = scan_tuples(&h, k >= 2, &root, &all, err);
        if (!st && root.value < best.value) {
            best.value = root.value;
            best.size = 1;
            best.root = root;
        }
        if (!st && k >= 2 && !h.stopped) search_two(&h, &best);
    }
    if (!st) st = make_model(out, &h, &best, err);
    hss_clear(&h);
    return st;
}

/* Effective size bound: K, and what the depth allows. */
static uint32_t size_bound(const pdt_fit_options *opt)
{
    uint32_t k = opt->max_size, d = opt->max_depth;
    if (d < 31 && ((UINT32_C(1) << d) - 1) < k) k = (UINT32_C(1) << d) - 1;
    return k;
}

pdt_status hs_solve(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    hs_lift L;
    pdt_status st = hs_lift_init(&L, pdt_dataset_dims(ds), opt->rule_params.degree, err);
    if (st) return st;
    if (opt->sparse || opt->lexicographic)
        return pdt_error_set(err, PDT_EINVAL, "options --sparse and --lexicographic are not supported "
                             "for hypersurface rules");
    uint32_t k = size_bound(opt);
    if (k <= 2 && L.G <= HSS_MAX_G && !opt->trace) return hss_run(out, ds, opt, k, err);
    if (opt->engine == PDT_ENGINE_BACKEND)
        return pdt_error_set(err, PDT_EINVAL, "option --engine backend: the hypersurface backend fits "
                             "at most 2 branch nodes with G <= %d lifted dimensions and no tracing "
                             "(use --engine fused)", HSS_MAX_G);
    pdt_fit_options fused = *opt;
    fused.engine = PDT_ENGINE_FUSED;
    return pdt_fit(out, ds, &fused, err);
}
