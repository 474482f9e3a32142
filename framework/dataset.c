/* Datasets: allocation, release, accessors and lookups by name. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "pdt_plugin.h"

char *pdt_strndup(const char *s, size_t len)
{
    char *p = malloc(len + 1);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

/* calloc that returns a usable pointer for zero elements too. */
static void *alloc_zeroed(size_t count, size_t size) { return calloc(count ? count : 1, size); }

/* out becomes a read-only view (GMP's MPZ_ROINIT_N) of |size| normalised
 * limbs with the sign of size; GMP never writes through such a view.  Storing
 * a cell again leaves its old limbs unused in the blocks. */
static mp_limb_t limb_zero = 0, limb_one = 1;

static void view(mpz_ptr out, mp_limb_t *limbs, mp_size_t size)
{
    mpz_t v = MPZ_ROINIT_N(size ? limbs : &limb_zero, size);
    *out = v[0];
}

/* Every cell the view of 0/1: no allocation until a value is stored. */
static mpq_t *alloc_views(size_t count)
{
    mpq_t *q = alloc_zeroed(count, sizeof *q);
    if (q)
        for (size_t k = 0; k < count; k++) {
            view(mpq_numref(q[k]), NULL, 0);
            view(mpq_denref(q[k]), &limb_one, 1);
        }
    return q;
}

static mp_limb_t *take_limbs(pdt_dataset *ds, size_t count)
{
    pdt_limb_block *b = ds->limbs;
    if (!b || b->cap - b->used < count) {
        size_t cap = count > 65536 ? count : 65536;
        b = malloc(sizeof *b + cap * sizeof(mp_limb_t));
        if (!b) return NULL;
        *b = (pdt_limb_block){ds->limbs, cap, 0};
        ds->limbs = b;
    }
    b->used += count;
    return b->limbs + b->used - count;
}

/* Copies z's limbs into the dataset and points out at them. */
static bool store_integer(mpz_ptr out, pdt_dataset *ds, mpz_srcptr z)
{
    size_t size = mpz_size(z);
    if (size == 1 && mpz_getlimbn(z, 0) == 1) {
        view(out, &limb_one, mpz_sgn(z));
        return true;
    }
    mp_limb_t *limbs = size ? take_limbs(ds, size) : NULL;
    if (size && !limbs) return false;
    if (size) memcpy(limbs, mpz_limbs_read(z), size * sizeof *limbs);
    view(out, limbs, mpz_sgn(z) < 0 ? -(mp_size_t)size : (mp_size_t)size);
    return true;
}

pdt_status pdt_dataset_store_exact(pdt_dataset *ds, size_t cell, mpq_srcptr v, pdt_error *err)
{
    assert(ds->q && cell < ds->n * ds->d);
    if (store_integer(mpq_numref(ds->q[cell]), ds, mpq_numref(v)) &&
        store_integer(mpq_denref(ds->q[cell]), ds, mpq_denref(v)))
        return PDT_OK;
    return pdt_error_set(err, PDT_ENOMEM, "out of memory (the exact values of %zu rows)", ds->n);
}

static void free_limbs(pdt_limb_block *b)
{
    while (b) {
        pdt_limb_block *next = b->next;
        free(b);
        b = next;
    }
}

static mpq_t *alloc_rationals(size_t count)
{
    mpq_t *q = alloc_zeroed(count, sizeof *q);
    if (q)
        for (size_t k = 0; k < count; k++) mpq_init(q[k]);
    return q;
}

static void free_rationals(mpq_t *q, size_t count)
{
    if (!q) return;
    for (size_t k = 0; k < count; k++) mpq_clear(q[k]);
    free(q);
}

static void free_names(char **names, size_t count)
{
    if (!names) return;
    for (size_t k = 0; k < count; k++) free(names[k]);
    free(names);
}

pdt_status pdt_dataset_alloc(pdt_dataset **out, size_t n, size_t d, bool exact, pdt_error *err)
{
    *out = NULL;
    if (n >= UINT32_MAX)
        return pdt_error_set(err, PDT_ELIMIT, "%zu rows: at most %lu are supported", n,
                             (unsigned long)UINT32_MAX - 1);
    if (d && n > SIZE_MAX / sizeof(mpq_t) / d)
        return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu rows of %zu columns)", n, d);
    pdt_dataset *ds = calloc(1, sizeof *ds);
    if (!ds) return pdt_error_set(err, PDT_ENOMEM, "out of memory (a dataset)");
    ds->n = n;
    ds->d = d;
    ds->binary = true;
    ds->features = alloc_zeroed(d, sizeof *ds->features);
    ds->x = alloc_zeroed(n * d, sizeof *ds->x);
    ds->rank = alloc_zeroed(n * d, sizeof *ds->rank);
    ds->n_distinct = alloc_zeroed(d, sizeof *ds->n_distinct);
    if (exact) ds->q = alloc_views(n * d);
    if (!ds->features || !ds->x || !ds->rank || !ds->n_distinct || (exact && !ds->q)) {
        pdt_dataset_free(&ds);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu rows of %zu columns)", n, d);
    }
    *out = ds;
    return PDT_OK;
}

pdt_status pdt_dataset_alloc_labels(pdt_dataset *ds, pdt_error *err)
{
    ds->labels = alloc_zeroed(ds->n, sizeof *ds->labels);
    if (!ds->labels) return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu labels)", ds->n);
    ds->has_labels = true;
    return PDT_OK;
}

pdt_status pdt_dataset_alloc_weights(pdt_dataset *ds, pdt_error *err)
{
    ds->weights = alloc_rationals(ds->n);
    if (!ds->weights) return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu weights)", ds->n);
    for (size_t i = 0; i < ds->n; i++) mpq_set_ui(ds->weights[i], 1, 1);
    ds->has_weights = true;
    return PDT_OK;
}

pdt_status pdt_dataset_set_name(pdt_dataset *ds, const char *name, pdt_error *err)
{
    char *copy = pdt_strndup(name, strlen(name));
    if (!copy) return pdt_error_set(err, PDT_ENOMEM, "out of memory (a dataset name)");
    free(ds->name);
    ds->name = copy;
    return PDT_OK;
}

pdt_status pdt_dataset_set_feature(pdt_dataset *ds, size_t j, const char *name, size_t len,
                                   pdt_error *err)
{
    assert(j < ds->d);
    char *copy = pdt_strndup(name, len);
    if (!copy) return pdt_error_set(err, PDT_ENOMEM, "out of memory (a feature name)");
    free(ds->features[j]);
    ds->features[j] = copy;
    return PDT_OK;
}

void pdt_dataset_free(pdt_dataset **pds)
{
    if (!pds || !*pds) return;
    pdt_dataset *ds = *pds;
    free(ds->name);
    free_names(ds->features, ds->d);
    free_names(ds->classes, ds->n_classes);
    free(ds->labels);
    free_rationals(ds->weights, ds->n);
    free(ds->q); /* views: the limbs are freed as blocks */
    free_limbs(ds->limbs);
    free(ds->x);
    free(ds->rank);
    free(ds->n_distinct);
    for (size_t j = 0; ds->categories && j < ds->d; j++)
        free_names(ds->categories[j], ds->n_categories[j]);
    free(ds->categories);
    free(ds->n_categories);
    free(ds);
    *pds = NULL;
}

const char *pdt_dataset_name(const pdt_dataset *ds) { return ds->name ? ds->name : ""; }
size_t pdt_dataset_rows(const pdt_dataset *ds) { return ds->n; }
size_t pdt_dataset_dims(const pdt_dataset *ds) { return ds->d; }
bool pdt_dataset_has_labels(const pdt_dataset *ds) { return ds->has_labels; }
bool pdt_dataset_has_weights(const pdt_dataset *ds) { return ds->has_weights; }
size_t pdt_dataset_classes(const pdt_dataset *ds) { return ds->n_classes; }
bool pdt_dataset_is_binary(const pdt_dataset *ds) { return ds->binary; }

bool pdt_dataset_has_categorical(const pdt_dataset *ds) { return ds->categories != NULL; }
size_t pdt_dataset_dropped(const pdt_dataset *ds) { return ds->dropped; }

bool pdt_dataset_is_categorical(const pdt_dataset *ds, size_t j)
{
    assert(j < ds->d);
    return ds->categories && ds->categories[j];
}

size_t pdt_dataset_categories(const pdt_dataset *ds, size_t j)
{
    return pdt_dataset_is_categorical(ds, j) ? ds->n_categories[j] : 0;
}

const char *pdt_dataset_category_name(const pdt_dataset *ds, size_t j, size_t code)
{
    assert(pdt_dataset_is_categorical(ds, j) && code < ds->n_categories[j]);
    return ds->categories[j][code];
}

pdt_status pdt_dataset_set_categories(pdt_dataset *ds, size_t j, char **names, size_t k,
                                      pdt_error *err)
{
    assert(j < ds->d);
    if (!ds->categories) {
        ds->categories = alloc_zeroed(ds->d, sizeof *ds->categories);
        ds->n_categories = alloc_zeroed(ds->d, sizeof *ds->n_categories);
        if (!ds->categories || !ds->n_categories) {
            free(ds->categories);
            free(ds->n_categories);
            ds->categories = NULL;
            ds->n_categories = NULL;
            free_names(names, k);
            return pdt_error_set(err, PDT_ENOMEM, "out of memory (category names)");
        }
    }
    if (k > UINT32_MAX - 1) {
        free_names(names, k);
        return pdt_error_set(err, PDT_ELIMIT, "column \"%s\": %zu categories", ds->features[j], k);
    }
    free_names(ds->categories[j], ds->n_categories[j]);
    ds->categories[j] = names;
    ds->n_categories[j] = (uint32_t)k;
    ds->binary = false;
    return PDT_OK;
}

/* Equal names, or equal numbers ("1" and "1.0"). */
static bool same_name(const char *a, const char *b, mpq_ptr qa, mpq_ptr qb)
{
    if (strcmp(a, b) == 0) return true;
    return pdt_parse_rational(qa, a, strlen(a)) && pdt_parse_rational(qb, b, strlen(b)) &&
           mpq_equal(qa, qb);
}

size_t pdt_dataset_find_category(const pdt_dataset *ds, size_t j, const char *name)
{
    size_t k = pdt_dataset_categories(ds, j), found = SIZE_MAX;
    for (size_t v = 0; v < k && found == SIZE_MAX; v++)
        if (strcmp(ds->categories[j][v], name) == 0) found = v;
    if (found != SIZE_MAX) return found;
    mpq_t qa, qb;
    mpq_init(qa);
    mpq_init(qb);
    for (size_t v = 0; v < k && found == SIZE_MAX; v++)
        if (same_name(ds->categories[j][v], name, qa, qb)) found = v;
    mpq_clear(qa);
    mpq_clear(qb);
    return found;
}

const char *pdt_dataset_class_name(const pdt_dataset *ds, size_t c)
{
    assert(c < ds->n_classes);
    return ds->classes[c];
}

const char *pdt_dataset_feature_name(const pdt_dataset *ds, size_t j)
{
    assert(j < ds->d);
    return ds->features[j];
}

size_t pdt_dataset_find_feature(const pdt_dataset *ds, const char *name)
{
    for (size_t j = 0; j < ds->d; j++)
        if (ds->features[j] && strcmp(ds->features[j], name) == 0) return j;
    return SIZE_MAX;
}

/* The class whose name is numerically equal to want, or SIZE_MAX. */
static size_t find_class_number(const pdt_dataset *ds, mpq_srcptr want)
{
    size_t found = SIZE_MAX;
    mpq_t have;
    mpq_init(have);
    for (size_t c = 0; c < ds->n_classes && found == SIZE_MAX; c++) {
        const char *s = ds->classes[c];
        if (pdt_parse_rational(have, s, strlen(s)) && mpq_equal(have, want)) found = c;
    }
    mpq_clear(have);
    return found;
}

size_t pdt_dataset_find_class(const pdt_dataset *ds, const char *name)
{
    for (size_t c = 0; c < ds->n_classes; c++)
        if (strcmp(ds->classes[c], name) == 0) return c;
    size_t found = SIZE_MAX;
    mpq_t want;
    mpq_init(want);
    if (pdt_parse_rational(want, name, strlen(name))) found = find_class_number(ds, want);
    mpq_clear(want);
    return found;
}

uint32_t pdt_dataset_label(const pdt_dataset *ds, size_t i)
{
    assert(i < ds->n);
    return ds->labels ? ds->labels[i] : 0;
}

double pdt_dataset_value(const pdt_dataset *ds, size_t i, size_t j)
{
    assert(i < ds->n && j < ds->d);
    return ds->x[i * ds->d + j];
}

void pdt_dataset_value_exact(mpq_ptr out, const pdt_dataset *ds, size_t i, size_t j)
{
    assert(i < ds->n && j < ds->d);
    if (ds->q)
        mpq_set(out, ds->q[i * ds->d + j]);
    else
        mpq_set_d(out, ds->x[i * ds->d + j]); /* an integer below 2^53: exact */
}

void pdt_dataset_weight_exact(mpq_ptr out, const pdt_dataset *ds, size_t i)
{
    assert(i < ds->n);
    if (ds->weights)
        mpq_set(out, ds->weights[i]);
    else
        mpq_set_ui(out, 1, 1);
}

uint32_t pdt_dataset_rank(const pdt_dataset *ds, size_t i, size_t j)
{
    assert(i < ds->n && j < ds->d);
    return ds->rank[i * ds->d + j];
}

size_t pdt_dataset_distinct(const pdt_dataset *ds, size_t j)
{
    assert(j < ds->d);
    return ds->n_distinct[j];
}
