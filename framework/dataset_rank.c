/* Column ranks, distinct counts and the binary flag of a loaded dataset.
 * Values are ordered exactly: by the rationals when the dataset keeps them,
 * else by the doubles, which are then exact integers.  Rounding to the nearest
 * double is monotone, so different doubles already decide the order of their
 * rationals; only equal doubles need GMP. */
#include <stdlib.h>

#include "dataset_impl.h"

typedef struct exact_key {
    double x;
    mpq_srcptr v;
    uint32_t row;
} exact_key;

typedef struct double_key {
    double v;
    uint32_t row;
} double_key;

/* Sorting by the doubles alone, then each run of equal doubles by the
 * rationals, keeps GMP off all but the ties. */
static int exact_key_cmp_double(const void *a, const void *b)
{
    double x = ((const exact_key *)a)->x, y = ((const exact_key *)b)->x;
    return (x > y) - (x < y);
}

static int exact_key_cmp(const void *a, const void *b)
{
    int c = mpq_cmp(((const exact_key *)a)->v, ((const exact_key *)b)->v);
    return (c > 0) - (c < 0);
}

static bool run_all_equal(const exact_key *run, size_t len)
{
    for (size_t k = 1; k < len; k++)
        if (!mpq_equal(run[k].v, run[0].v)) return false;
    return true;
}

/* Ranks a run of equal doubles starting at rank r; returns the next rank. */
static uint32_t rank_run(pdt_dataset *ds, size_t j, exact_key *run, size_t len, uint32_t r)
{
    const size_t d = ds->d;
    if (len > 1 && !run_all_equal(run, len)) {
        qsort(run, len, sizeof *run, exact_key_cmp);
        for (size_t k = 0; k < len; k++) {
            if (k > 0 && mpq_cmp(run[k].v, run[k - 1].v) != 0) r++;
            ds->rank[run[k].row * d + j] = r;
        }
        return r + 1;
    }
    for (size_t k = 0; k < len; k++) ds->rank[run[k].row * d + j] = r;
    return r + 1;
}

static uint32_t rank_exact(pdt_dataset *ds, size_t j, exact_key *keys)
{
    const size_t n = ds->n, d = ds->d;
    for (size_t i = 0; i < n; i++)
        keys[i] = (exact_key){ds->x[i * d + j], ds->q[i * d + j], (uint32_t)i};
    qsort(keys, n, sizeof *keys, exact_key_cmp_double);
    uint32_t r = 0;
    for (size_t b = 0, e; b < n; b = e) {
        for (e = b + 1; e < n && keys[e].x == keys[b].x;) e++;
        r = rank_run(ds, j, keys + b, e - b, r);
    }
    return r;
}

static int double_key_cmp(const void *a, const void *b)
{
    double x = ((const double_key *)a)->v, y = ((const double_key *)b)->v;
    return (x > y) - (x < y);
}

static uint32_t rank_double(pdt_dataset *ds, size_t j, double_key *keys)
{
    const size_t n = ds->n, d = ds->d;
    for (size_t i = 0; i < n; i++) keys[i] = (double_key){ds->x[i * d + j], (uint32_t)i};
    qsort(keys, n, sizeof *keys, double_key_cmp);
    uint32_t r = 0;
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && keys[k].v != keys[k - 1].v) r++;
        ds->rank[keys[k].row * d + j] = r;
    }
    return n ? r + 1 : 0;
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
        ds->binary = true;
        return PDT_OK;
    }
    size_t key_size = ds->q ? sizeof(exact_key) : sizeof(double_key);
    void *keys = malloc((ds->n ? ds->n : 1) * key_size);
    if (!keys) return pdt_error_set(err, PDT_ENOMEM, "out of memory (ranking %zu rows)", ds->n);
    for (size_t j = 0; j < ds->d; j++)
        ds->n_distinct[j] = ds->q ? rank_exact(ds, j, keys) : rank_double(ds, j, keys);
    free(keys);
    ds->binary = true;
    for (size_t cell = 0; cell < ds->n * ds->d && ds->binary; cell++)
        ds->binary = cell_is_binary(ds, cell);
    return PDT_OK;
}
