/* Column ranks, distinct counts and the binary flag of a loaded dataset.
 * Values are ordered exactly: by the rationals when the dataset keeps them,
 * else by the doubles, which are then exact integers. */
#include <stdlib.h>

#include "dataset_impl.h"

typedef struct exact_key {
    mpq_srcptr v;
    uint32_t row;
} exact_key;

typedef struct double_key {
    double v;
    uint32_t row;
} double_key;

static int exact_key_cmp(const void *a, const void *b)
{
    int c = mpq_cmp(((const exact_key *)a)->v, ((const exact_key *)b)->v);
    return (c > 0) - (c < 0);
}

static int double_key_cmp(const void *a, const void *b)
{
    double x = ((const double_key *)a)->v, y = ((const double_key *)b)->v;
    return (x > y) - (x < y);
}

static uint32_t rank_exact(pdt_dataset *ds, size_t j, exact_key *keys)
{
    const size_t n = ds->n, d = ds->d;
    for (size_t i = 0; i < n; i++) keys[i] = (exact_key){ds->q[i * d + j], (uint32_t)i};
    qsort(keys, n, sizeof *keys, exact_key_cmp);
    uint32_t r = 0;
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && mpq_cmp(keys[k].v, keys[k - 1].v) != 0) r++;
        ds->rank[keys[k].row * d + j] = r;
    }
    return n ? r + 1 : 0;
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

pdt_status pdt_dataset_finish(pdt_dataset *ds, pdt_error *err)
{
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
