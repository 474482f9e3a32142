/* Column ranks, distinct counts and the binary flag of a loaded dataset.
 * Values are ordered exactly: by the rationals when the dataset keeps them,
 * else by the doubles, which are then exact integers.  Rounding to the nearest
 * double is monotone, so different doubles already decide the order of their
 * rationals; only equal doubles need GMP. */
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"

/* A column's rows in the order of their doubles: the double's bits made
 * unsigned-comparable, sorted by a least-significant-digit radix sort (stable,
 * so equal doubles keep row order; a digit all keys share costs no pass). */
typedef struct sort_key {
    uint64_t bits;
    uint32_t row;
} sort_key;

static uint64_t order_bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

/* Sorts keys[0..n) by bits; tmp has room for n keys.  Returns where the
 * result is (keys or tmp). */
static sort_key *radix_sort(sort_key *keys, sort_key *tmp, size_t n)
{
    size_t count[8][256] = {{0}};
    for (size_t i = 0; i < n; i++)
        for (int p = 0; p < 8; p++) count[p][(keys[i].bits >> (8 * p)) & 255]++;
    for (int p = 0; p < 8; p++) {
        size_t *c = count[p], sum = 0;
        if (c[(keys[0].bits >> (8 * p)) & 255] == n) continue; /* one digit: already in order */
        for (int b = 0; b < 256; b++) {
            size_t k = c[b];
            c[b] = sum;
            sum += k;
        }
        for (size_t i = 0; i < n; i++) tmp[c[(keys[i].bits >> (8 * p)) & 255]++] = keys[i];
        sort_key *t = keys;
        keys = tmp;
        tmp = t;
    }
    return keys;
}

/* Equal canonical rationals have equal limbs: no GMP call per comparison. */
static bool same_integer(mpz_srcptr a, mpz_srcptr b)
{
    size_t size = mpz_size(a);
    if (mpz_sgn(a) != mpz_sgn(b) || mpz_size(b) != size) return false;
    for (size_t k = 0; k < size; k++)
        if (mpz_getlimbn(a, (mp_size_t)k) != mpz_getlimbn(b, (mp_size_t)k)) return false;
    return true;
}

static bool same_value(mpq_srcptr a, mpq_srcptr b)
{
    return same_integer(mpq_numref(a), mpq_numref(b)) && same_integer(mpq_denref(a), mpq_denref(b));
}

typedef struct ctx_key {
    mpq_srcptr v;
    uint32_t row;
} ctx_key;

static int ctx_key_cmp(const void *a, const void *b)
{
    int c = mpq_cmp(((const ctx_key *)a)->v, ((const ctx_key *)b)->v);
    return (c > 0) - (c < 0);
}

/* Ranks a run of rows with equal doubles from rank r; returns the next rank.
 * Rounding to the nearest double is monotone, so only such runs can hold
 * different rationals (GMP orders them). */
static pdt_status rank_run(uint32_t *r, pdt_dataset *ds, size_t j, const sort_key *run, size_t len,
                           pdt_error *err)
{
    const size_t d = ds->d;
    size_t k = 1;
    if (!ds->q) k = len; /* the doubles are the exact values */
    while (k < len && same_value(ds->q[run[k].row * d + j], ds->q[run[0].row * d + j])) k++;
    if (k == len) {
        for (k = 0; k < len; k++) ds->rank[run[k].row * d + j] = *r;
        ++*r;
        return PDT_OK;
    }
    ctx_key *keys = malloc(len * sizeof *keys);
    if (!keys) return pdt_error_set(err, PDT_ENOMEM, "out of memory (ranking %zu rows)", ds->n);
    for (k = 0; k < len; k++) keys[k] = (ctx_key){ds->q[run[k].row * d + j], run[k].row};
    qsort(keys, len, sizeof *keys, ctx_key_cmp);
    for (k = 0; k < len; k++) {
        if (k > 0 && mpq_cmp(keys[k].v, keys[k - 1].v) != 0) ++*r;
        ds->rank[keys[k].row * d + j] = *r;
    }
    free(keys);
    ++*r;
    return PDT_OK;
}

static pdt_status rank_column(pdt_dataset *ds, size_t j, sort_key *keys, sort_key *tmp,
                              pdt_error *err)
{
    const size_t n = ds->n, d = ds->d;
    for (size_t i = 0; i < n; i++) keys[i] = (sort_key){order_bits(ds->x[i * d + j]), (uint32_t)i};
    const sort_key *sorted = radix_sort(keys, tmp, n);
    uint32_t r = 0;
    pdt_status st = PDT_OK;
    for (size_t b = 0, e; b < n && st == PDT_OK; b = e) {
        for (e = b + 1; e < n && ds->x[sorted[e].row * d + j] == ds->x[sorted[b].row * d + j];) e++;
        st = rank_run(&r, ds, j, sorted + b, e - b, err);
    }
    ds->n_distinct[j] = r;
    return st;
}

static bool cell_is_binary(const pdt_dataset *ds, size_t cell)
{
    if (ds->q) return mpq_sgn(ds->q[cell]) == 0 || mpq_cmp_ui(ds->q[cell], 1, 1) == 0;
    return ds->x[cell] == 0.0 || ds->x[cell] == 1.0;
}

/* Every cell 0 or 1 (every DL8.5 file): all ranks in two passes over the rows. */
static bool rank_all_binary(pdt_dataset *ds)
{
    const size_t n = ds->n, d = ds->d;
    uint8_t *seen = calloc(d ? d : 1, 1); /* bit 0: a 0 seen, bit 1: a 1 seen */
    if (!seen) return false;
    bool binary = true;
    for (size_t i = 0; i < n && binary; i++)
        for (size_t j = 0; j < d; j++) {
            double v = ds->x[i * d + j];
            binary = binary && (v == 0.0 || v == 1.0) && (!ds->q || cell_is_binary(ds, i * d + j));
            seen[j] |= (uint8_t)(v == 1.0 ? 2 : 1);
        }
    if (binary) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d; j++) ds->rank[i * d + j] = (seen[j] & 1) && ds->x[i * d + j] == 1.0;
        for (size_t j = 0; j < d; j++) ds->n_distinct[j] = (seen[j] & 1) + (seen[j] >> 1);
    }
    free(seen);
    return binary;
}

pdt_status pdt_dataset_finish(pdt_dataset *ds, pdt_error *err)
{
    if (ds->n && rank_all_binary(ds)) {
        ds->binary = !ds->categories;
        return PDT_OK;
    }
    sort_key *keys = malloc((2 * ds->n + 1) * sizeof *keys);
    if (!keys) return pdt_error_set(err, PDT_ENOMEM, "out of memory (ranking %zu rows)", ds->n);
    pdt_status st = PDT_OK;
    for (size_t j = 0; j < ds->d && st == PDT_OK; j++)
        st = ds->n ? rank_column(ds, j, keys, keys + ds->n, err) : PDT_OK;
    free(keys);
    ds->binary = !ds->categories;
    for (size_t cell = 0; cell < ds->n * ds->d && ds->binary; cell++)
        ds->binary = cell_is_binary(ds, cell);
    return st;
}
