/* The hypersurface backend's tuple table: one base bitset per tuple of G
 * rows (the rows with negative orientation), the rows exactly on its surface
 * with their side under every assignment, each tuple's best split of all
 * rows, and the arithmetic that evaluates every assignment of a tuple in a
 * region from class counts (see hypersurface_solve.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bitset.h"
#include "hypersurface_solve_impl.h"
#include "pdt_parallel.h"

/* ------------------------------------------------------------ small things */

bool hss_first_thread(void)
{
#ifdef _OPENMP
    return omp_get_thread_num() == 0;
#else
    return true;
#endif
}

double hss_elapsed(const hss *h)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - h->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - h->start.tv_nsec);
}

/* The time limit, and a progress report about once a second. */
bool hss_out_of_time(hss *h)
{
    if (h->halt && !h->stopped && atomic_load_explicit(h->halt, memory_order_relaxed)) h->stopped = true;
    if (h->stopped || (h->opt->time_limit <= 0 && !h->opt->progress && !h->opt->stop)) return h->stopped;
    if (h->opt->stop && *h->opt->stop) h->stopped = true;
    double t = hss_elapsed(h);
    if (h->opt->time_limit > 0 && t > h->opt->time_limit) h->stopped = true;
    if (h->opt->progress && t >= h->next_report) {
        h->next_report = t + 1;
        char best[32];
        snprintf(best, sizeof best, "%lld", (long long)h->best_value);
        pdt_progress p = {t, h->regions, best};
        h->opt->progress(h->opt->progress_user, &p);
    }
    if (h->stopped && h->halt) atomic_store(h->halt, true);
    return h->stopped;
}


uint64_t hss_colex_rank(const hss *h, const uint32_t *t)
{
    uint64_t r = 0;
    for (size_t k = 0; k < h->G; k++) r += hss_binom(h, t[k], k + 1);
    return r;
}

int64_t hss_leaf_cost(const hss *h, const int64_t *c)
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

pdt_status hss_map_init(hss_map *m, size_t words, size_t max, bool values, pdt_error *err)
{
    m->words = words;
    m->cap = 1024;
    m->n = 0;
    m->max = max;
    m->hash = calloc(m->cap, sizeof *m->hash);
    m->keys = malloc(m->cap * words * sizeof *m->keys);
    m->val = values ? malloc(m->cap * sizeof *m->val) : NULL;
    m->tag = values ? NULL : malloc(m->cap * sizeof *m->tag);
    if (!m->hash || !m->keys || (values ? !m->val : !m->tag)) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    return PDT_OK;
}

void hss_map_free(hss_map *m)
{
    free(m->hash);
    free(m->keys);
    free(m->val);
    free(m->tag);
}

static size_t map_slot(const hss_map *m, const uint64_t *key, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t p = (size_t)h & mask;; p = (p + 1) & mask)
        if (m->hash[p] == 0 || (m->hash[p] == h && !memcmp(m->keys + p * m->words, key, m->words * 8))) return p;
}

static bool map_grow(hss_map *m)
{
    hss_map big = {m->words, 2 * m->cap, m->n, m->max, NULL, NULL, NULL, NULL};
    big.hash = calloc(big.cap, sizeof *big.hash);
    big.keys = malloc(big.cap * m->words * sizeof *big.keys);
    big.val = m->val ? malloc(big.cap * sizeof *big.val) : NULL;
    big.tag = m->tag ? malloc(big.cap * sizeof *big.tag) : NULL;
    if (!big.hash || !big.keys || (m->val && !big.val) || (m->tag && !big.tag)) {
        hss_map_free(&big);
        return false;
    }
    for (size_t p = 0; p < m->cap; p++) {
        if (!m->hash[p]) continue;
        size_t q = map_slot(&big, m->keys + p * m->words, m->hash[p]);
        big.hash[q] = m->hash[p];
        memcpy(big.keys + q * m->words, m->keys + p * m->words, m->words * 8);
        if (m->val) big.val[q] = m->val[p];
        if (m->tag) big.tag[q] = m->tag[p];
    }
    hss_map_free(m);
    *m = big;
    return true;
}

/* Looks key up and inserts it when absent (and the table is not full):
 * *fresh tells whether it was absent.  Returns its value slot (NULL for a
 * table without values, or when full). */
hss_split *hss_map_get(hss_map *m, const uint64_t *key, bool *fresh)
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

bool hss_map_first(hss_map *m, const uint64_t *key, int64_t pos)
{
    uint64_t h = pdt_bits_hash(key, m->words, 0x9e3779b97f4a7c15u) | 1;
    size_t p = map_slot(m, key, h);
    if (m->hash[p] != 0) {
        if (m->tag[p] < pos) return false;
        m->tag[p] = pos;
        return true;
    }
    if (m->n >= m->max) return true;
    if (2 * (m->n + 1) > m->cap) {
        if (!map_grow(m)) return true;
        p = map_slot(m, key, h);
    }
    m->hash[p] = h;
    memcpy(m->keys + p * m->words, key, m->words * 8);
    m->tag[p] = pos;
    m->n++;
    return true;
}

/* ------------------------------------------------------------ one tuple in one region */



/* Best assignment of tuple t (general position) for region r: updates *best
 * when one beats best->value.  The left class counts are b_c + a_c with
 * 0 <= a_c <= n_c (a_c of T's n_c class-c points assigned left).  The cost
 * Σ_c w_c·(L_c + R_c) − max_c w_c·L_c − max_c w_c·R_c is concave in a (a
 * constant minus two maxima of affine functions), so over the whole box its
 * minimum is at a corner, a_c ∈ {0, n_c}; when the leaf-size limit cuts the
 * box every point is tried. */
void hss_eval_general(hss *h, const hss_region *r, const uint64_t *base, const uint32_t *t,
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
    const bool two_corners = corners && C == 2 && !h->ci.weighted; /* the common case */
    bool found = false;
    if (two_corners) { /* the same corners in the same order as the general loop */
        for (int q = 0; q < 4; q++) {
            int64_t l0 = b[0] + (q & 1 ? nt[0] : 0), l1 = b[1] + (q & 2 ? nt[1] : 0);
            int64_t r0 = r->tot[0] - l0, r1 = r->tot[1] - l1;
            int64_t v = (l0 < l1 ? l0 : l1) + (r0 < r1 ? r0 : r1);
            if (v < best->value) {
                best->value = v;
                arg[0] = q & 1 ? nt[0] : 0;
                arg[1] = q & 2 ? nt[1] : 0;
                found = true;
            }
        }
        h->candidates += 4;
    }
    while (!two_corners) {
        int64_t nl = 0;
        for (size_t c = 0; c < C; c++) {
            L[c] = b[c] + a[c];
            R[c] = r->tot[c] - L[c];
            nl += L[c];
        }
        h->candidates++;
        if (nl >= h->lo && (int64_t)r->size - nl >= h->lo) {
            int64_t v = hss_leaf_cost(h, L) + hss_leaf_cost(h, R);
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
void hss_eval_degenerate(hss *h, const hss_region *r, const uint64_t *base, const uint32_t *t,
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
        int64_t v = hss_leaf_cost(h, L) + hss_leaf_cost(h, R);
        if (v < best->value) {
            best->value = v;
            memcpy(best->t, t, G * sizeof *t);
            best->mask = m;
        }
    }
}

void hss_region_init(hss *h, hss_region *r, const uint64_t *items, uint64_t *by_class, int64_t *tot)
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

/* One tuple: its sides, kind and value (kept when `keep`), its best split
 * of all rows into *one; false on an error. */
static pdt_status scan_one(hss *h, bool keep, const uint32_t *t, const hss_region *all, hss_split *one,
                           pdt_error *err)
{
    uint64_t rank = hss_colex_rank(h, t);
    uint64_t *base = keep ? h->base + rank * h->words : h->tmp;
    bool ok = hs_data_tuple(&h->ev, &h->hd, t);
    one->value = INT64_MAX;
    if (keep) h->kind[rank] = ok;
    if (ok) {
        size_t first;
        pdt_status st = tuple_sides(h, t, rank, base, &first, err);
        if (st) return st;
        if (h->n_exc > first) {
            if (keep) h->kind[rank] = 2;
            hss_eval_degenerate(h, all, base, t, h->exc + first, h->n_exc - first, one);
            if (!keep) h->n_exc = first;
        } else {
            hss_eval_general(h, all, base, t, one);
        }
    }
    if (keep) h->value[rank] = one->value;
    return PDT_OK;
}

/* The tuples whose two smallest rows are (a, b), in lexicographic order (the
 * filter shares row prefixes); the first strictly better than *root there. */
static pdt_status scan_prefix(hss *h, bool keep, uint32_t a, uint32_t b, hss_split *root, const hss_region *all,
                              pdt_error *err)
{
    const size_t G = h->G;
    uint32_t t[HS_MAX_LIFTED];
    t[0] = a, t[1] = b;
    for (size_t k = 2; k < G; k++) t[k] = b + (uint32_t)k - 1;
    if (t[G - 1] >= h->n) return PDT_OK;
    do {
        hss_split one;
        pdt_status st = scan_one(h, keep, t, all, &one, err);
        if (st) return st;
        if (one.value < root->value) *root = one;
    } while (pdt_comb_next(t + 2, G - 2, h->n));
    return PDT_OK;
}

/* A worker of the table scan: the shared tables, its own evaluator, scratch
 * and surface rows. */
static bool scan_clone(hss *w, const hss *h, pdt_fit_options *opt, atomic_bool *halt, bool first)
{
    *w = *h;
    *opt = *h->opt;
    if (!first) opt->progress = NULL;
    w->opt = opt;
    w->halt = halt;
    w->candidates = 0;
    w->exc = NULL, w->n_exc = w->cap_exc = 0;
    hs_eval_init(&w->ev, &w->hd.L);
    w->cnt = malloc(12 * (h->C + 1) * sizeof *w->cnt);
    w->tmp = malloc((h->words + 1) * sizeof *w->tmp);
    w->on_t = malloc(h->n + 1);
    return w->cnt && w->tmp && w->on_t;
}

/* Rows (a, b) of prefix number i in lexicographic order. */
static void prefix_of(const hss *h, uint64_t i, uint32_t *a, uint32_t *b)
{
    uint32_t x = 0;
    while (i >= h->n - 1 - x) i -= h->n - 1 - x, x++;
    *a = x;
    *b = x + 1 + (uint32_t)i;
}

/* The tuples of the prefixes (a, b) this rank is handed (all of them
 * without ranks: framework/pdt_parallel.h, static blocks then dynamically, so
 * that ranks whose prefixes cost more get fewer), shared over its threads;
 * the best split of all rows is the first strictly best in lexicographic
 * order, as serially (*at: its prefix, UINT64_MAX when none beat *root). */
static pdt_status scan_parallel(hss *h, bool keep, hss_split *root, const hss_region *all, unsigned threads,
                                const pdt_distributor *d, uint64_t *at, pdt_error *err)
{
    const uint64_t prefixes = (uint64_t)h->n * (h->n - 1) / 2;
    atomic_bool halt;
    atomic_init(&halt, false);
    pdt_work work;
    pdt_work_begin(&work, d, prefixes, 1);
    hss_split best = *root;
    uint64_t best_at = UINT64_MAX;
    pdt_status st = PDT_OK;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        bool first = hss_first_thread();
        hss w;
        pdt_fit_options opt;
        pdt_error e;
        pdt_status mine = scan_clone(&w, h, &opt, &halt, first) ? PDT_OK : pdt_error_set(&e, PDT_ENOMEM, "out of memory");
        hss_split my = *root;
        uint64_t my_at = UINT64_MAX;
        for (uint64_t i, end; !mine && !hss_out_of_time(&w) && pdt_work_next(&work, &i, &end);) {
            uint32_t a, b;
            prefix_of(h, i, &a, &b);
            hss_split found = *root;
            mine = scan_prefix(&w, keep, a, b, &found, all, &e);
            if (found.value < my.value || (found.value == my.value && i < my_at)) my = found, my_at = i;
        }
        if (mine) atomic_store(&halt, true);
#pragma omp critical(hss_scan)
        {
            if (mine && !st) st = mine, *err = e;
            if (my.value < best.value || (my.value == best.value && my_at < best_at)) best = my, best_at = my_at;
            h->candidates += w.candidates;
            if (w.stopped) h->stopped = true;
            if (keep && w.n_exc) {
                hss_exc *x = realloc(h->exc, (h->n_exc + w.n_exc) * sizeof *x);
                if (x) {
                    memcpy(x + h->n_exc, w.exc, w.n_exc * sizeof *x);
                    h->exc = x;
                    h->n_exc += w.n_exc;
                    h->cap_exc = h->n_exc;
                } else if (!st) {
                    st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
                }
            }
        }
        free(w.cnt);
        free(w.tmp);
        free(w.on_t);
        free(w.exc);
    }
    if (best_at != UINT64_MAX) *root = best, h->best_value = best.value;
    *at = best_at;
    return st;
}

/* Ranks: each filled the table for its prefixes; the tables are combined and
 * the surface rows gathered (collectively, even after an error), and the
 * root's best split is the least (value, prefix) over the ranks, found again
 * in its prefix by the ranks that do not hold it. */
static pdt_status ranks_table(hss *h, const pdt_distributor *d, bool keep, hss_split *root, uint64_t at,
                              const hss_region *all, pdt_status st, pdt_error *err)
{
    if (keep) {
        d->combine(d->user, h->base, h->n_tuples * h->words, PDT_COMBINE_OR);
        d->combine(d->user, h->kind, h->n_tuples, PDT_COMBINE_MAXB);
        d->combine(d->user, h->value, h->n_tuples, PDT_COMBINE_MIN);
        uint64_t bytes = 0;
        hss_exc *exc = d->gather(d->user, h->exc, h->n_exc * sizeof *h->exc, &bytes);
        if (!exc && !st) st = pdt_error_set(err, PDT_ENOMEM, "out of memory for the surface rows");
        if (exc) {
            free(h->exc);
            h->exc = exc;
            h->n_exc = h->cap_exc = bytes / sizeof *exc;
        }
    }
    int64_t value = at != UINT64_MAX ? root->value : INT64_MAX;
    uint64_t pos = at, work = h->candidates, total = 0;
    bool complete = !h->stopped && !st;
    d->finish(d->user, &value, &pos, &complete, &work, &total);
    h->stopped = !complete;
    if (st || pos == UINT64_MAX || pos == at) return st;
    uint32_t a, b;
    prefix_of(h, pos, &a, &b);
    hss_split found = {.value = value + 1}; /* the prefix's first split of that value */
    st = scan_prefix(h, false, a, b, &found, all, err);
    if (!st && found.value == value) *root = found, h->best_value = value;
    return st;
}

/* Every tuple (on threads when there are many, split over the ranks of an
 * MPI job); the root's best split on the way; bases kept when `keep`. */
pdt_status hss_scan_tuples(hss *h, bool keep, hss_split *root, const hss_region *all, pdt_error *err)
{
    const size_t G = h->G, n = h->n;
    uint32_t t[HS_MAX_LIFTED];
    if (n < G) return PDT_OK;
    const pdt_distributor *d = pdt_distributor_get();
    if (d && (d->size <= 1 || G < 2)) d = NULL;
    unsigned threads = pdt_threads_resolve(h->opt->threads);
    if (h->n_tuples * n < pdt_parallel_min() || G < 2) threads = 1;
    pdt_status st = PDT_OK;
    if (d && keep) { /* neutral entries for the tuples other ranks fill */
        memset(h->base, 0, h->n_tuples * h->words * sizeof *h->base);
        for (uint64_t r = 0; r < h->n_tuples; r++) h->value[r] = INT64_MAX;
    }
    if (threads > 1 || d) {
        uint64_t at = UINT64_MAX;
        st = scan_parallel(h, keep, root, all, threads, d, &at, err);
        if (d) st = ranks_table(h, d, keep, root, at, all, st, err);
    } else {
        for (size_t k = 0; k < G; k++) t[k] = (uint32_t)k;
        for (uint64_t count = 0; !st; count++) {
            if (count % HSS_CHECK_EVERY == 0 && hss_out_of_time(h)) return PDT_OK;
            hss_split one;
            st = scan_one(h, keep, t, all, &one, err);
            if (!st && one.value < root->value) *root = one, h->best_value = one.value;
            if (!pdt_comb_next(t, G, n)) break;
        }
    }
    if (st || h->stopped) return st;
    if (keep && h->n_exc) qsort(h->exc, h->n_exc, sizeof *h->exc, cmp_exc); /* exc is NULL when empty */
    return keep ? sort_tuples(h, err) : PDT_OK;
}

/* Surface rows of a kept tuple (binary search in the sorted exceptions). */
const hss_exc *hss_exceptions_of(const hss *h, uint64_t rank, size_t *count)
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

