/* Datasets from arrays (the Python binding): every double is kept as the
 * rational it is exactly, or every cell is a text read as an exact decimal or
 * fraction; labels are class codes with names given in order.
 * The result is built with the allocators and the ranking the CSV loader
 * uses, so the two agree on the same values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "pdt_plugin.h"

/* A double that is an integer below 2^53 in magnitude: exact without GMP. */
static bool plain_integer(double v) { return v == trunc(v) && fabs(v) < 9007199254740992.0; }

static const char *data_name(const pdt_array_data *in) { return in->name ? in->name : "<arrays>"; }

/* Cell k as a rational and its nearest double; false for NaN, an infinity
 * or a text that is not an exact decimal or fraction. */
static bool read_cell(mpq_ptr q, double *v, const pdt_array_data *in, size_t k)
{
    if (in->cells) {
        const char *t = in->cells[k] ? in->cells[k] : "";
        if (!pdt_parse_rational(q, t, strlen(t))) return false;
        *v = pdt_rational_to_double(q);
        return true;
    }
    *v = in->x[k] == 0.0 ? 0.0 : in->x[k]; /* -0.0 is 0 */
    if (!isfinite(*v)) return false;
    mpq_set_d(q, *v); /* exact: a double is a dyadic rational */
    return true;
}

static pdt_status bad_cell(const pdt_array_data *in, size_t i, size_t j, pdt_error *err)
{
    char what[96];
    const size_t k = i * in->d + j;
    if (in->cells)
        snprintf(what, sizeof what, "\"%.60s%s\" is not a number", in->cells[k] ? in->cells[k] : "",
                 in->cells[k] && strlen(in->cells[k]) > 60 ? "..." : "");
    else
        snprintf(what, sizeof what, "%s is not a finite number", isnan(in->x[k]) ? "NaN" : "an infinity");
    const char *name = in->feature_names ? in->feature_names[j] : NULL;
    return pdt_error_set(err, PDT_EINVAL, "%s: row %zu, column %zu%s%s%s: %s", data_name(in), i + 1, j + 1,
                         name ? " (\"" : "", name ? name : "", name ? "\")" : "", what);
}

/* Refuses what is not a finite number naming the 1-based row and column;
 * *exact says whether some value needs a rational (not an integer below 2^53). */
static pdt_status check_values(bool *exact, const pdt_array_data *in, pdt_error *err)
{
    *exact = false;
    pdt_status st = PDT_OK;
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < in->n && st == PDT_OK; i++)
        for (size_t j = 0; j < in->d && st == PDT_OK; j++) {
            double v;
            if (!read_cell(q, &v, in, i * in->d + j)) st = bad_cell(in, i, j, err);
            else if (mpz_cmp_ui(mpq_denref(q), 1) != 0 || !plain_integer(v)) *exact = true;
        }
    mpq_clear(q);
    return st;
}

static pdt_status check_names(const char *const *names, size_t count, const char *what, const char *plural,
                              const pdt_array_data *in, pdt_error *err)
{
    for (size_t a = 0; a < count; a++) {
        if (!names[a] || !names[a][0])
            return pdt_error_set(err, PDT_EINVAL, "%s: %s %zu has an empty name", data_name(in), what, a + 1);
        for (size_t b = 0; b < a; b++)
            if (strcmp(names[a], names[b]) == 0)
                return pdt_error_set(err, PDT_EINVAL, "%s: %s %zu and %zu are both named \"%s\"",
                                     data_name(in), plural, b + 1, a + 1, names[a]);
    }
    return PDT_OK;
}

static pdt_status check_labels(const pdt_array_data *in, pdt_error *err)
{
    if (!in->labels) return PDT_OK;
    if (in->n_classes == 0 || !in->class_names)
        return pdt_error_set(err, PDT_EINVAL, "%s: labels without class names", data_name(in));
    if (in->n_classes >= UINT32_MAX)
        return pdt_error_set(err, PDT_ELIMIT, "%s: %zu classes: too many", data_name(in), in->n_classes);
    for (size_t i = 0; i < in->n; i++)
        if (in->labels[i] >= in->n_classes)
            return pdt_error_set(err, PDT_EINVAL, "%s: row %zu: class code %lu is not below the %zu classes",
                                 data_name(in), i + 1, (unsigned long)in->labels[i], in->n_classes);
    return check_names(in->class_names, in->n_classes, "class", "classes", in, err);
}

static pdt_status check_weights(const pdt_array_data *in, pdt_error *err)
{
    for (size_t i = 0; in->weights && i < in->n; i++)
        if (!isfinite(in->weights[i]) || in->weights[i] < 0)
            return pdt_error_set(err, PDT_EINVAL, "%s: row %zu: weight %g is not a finite number >= 0",
                                 data_name(in), i + 1, in->weights[i]);
    return PDT_OK;
}

static pdt_status check_input(bool *exact, const pdt_array_data *in, pdt_error *err)
{
    if (in->n && in->d && !in->x == !in->cells)
        return pdt_error_set(err, PDT_EINVAL, "%s: give the values as doubles or as texts (one of the two)",
                             data_name(in));
    pdt_status st = PDT_OK;
    if (in->feature_names)
        st = check_names(in->feature_names, in->d, "feature column", "feature columns", in, err);
    if (st == PDT_OK) st = check_values(exact, in, err);
    if (st == PDT_OK) st = check_labels(in, err);
    if (st == PDT_OK) st = check_weights(in, err);
    return st;
}

static pdt_status set_features(pdt_dataset *ds, const pdt_array_data *in, pdt_error *err)
{
    pdt_status st = PDT_OK;
    for (size_t j = 0; j < in->d && st == PDT_OK; j++) {
        char generated[32];
        snprintf(generated, sizeof generated, "col%zu", j + 1);
        const char *name = in->feature_names ? in->feature_names[j] : generated;
        st = pdt_dataset_set_feature(ds, j, name, strlen(name), err);
    }
    return st;
}

static pdt_status set_values(pdt_dataset *ds, const pdt_array_data *in, pdt_error *err)
{
    pdt_status st = PDT_OK;
    mpq_t q;
    mpq_init(q);
    for (size_t cell = 0; cell < in->n * in->d && st == PDT_OK; cell++) {
        if (!read_cell(q, &ds->x[cell], in, cell))
            st = pdt_error_set(err, PDT_EINTERNAL, "%s: cell %zu changed while read", data_name(in), cell);
        else if (ds->q)
            st = pdt_dataset_store_exact(ds, cell, q, err);
    }
    mpq_clear(q);
    return st;
}

static pdt_status set_classes(pdt_dataset *ds, const pdt_array_data *in, pdt_error *err)
{
    pdt_status st = pdt_dataset_alloc_labels(ds, err);
    if (st != PDT_OK) return st;
    ds->classes = calloc(in->n_classes, sizeof *ds->classes);
    if (!ds->classes) return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu class names)", in->n_classes);
    ds->n_classes = in->n_classes;
    for (size_t c = 0; c < in->n_classes; c++) {
        ds->classes[c] = pdt_strndup(in->class_names[c], strlen(in->class_names[c]));
        if (!ds->classes[c]) return pdt_error_set(err, PDT_ENOMEM, "out of memory (a class name)");
    }
    memcpy(ds->labels, in->labels, in->n * sizeof *ds->labels);
    return PDT_OK;
}

static pdt_status set_weights(pdt_dataset *ds, const pdt_array_data *in, pdt_error *err)
{
    pdt_status st = pdt_dataset_alloc_weights(ds, err);
    for (size_t i = 0; i < in->n && st == PDT_OK; i++) mpq_set_d(ds->weights[i], in->weights[i]);
    return st;
}

pdt_status pdt_dataset_from_arrays(pdt_dataset **out, const pdt_array_data *in, pdt_error *err)
{
    *out = NULL;
    bool exact = false;
    pdt_dataset *ds = NULL;
    pdt_status st = check_input(&exact, in, err);
    if (st == PDT_OK) st = pdt_dataset_alloc(&ds, in->n, in->d, exact, err);
    if (st == PDT_OK) st = pdt_dataset_set_name(ds, data_name(in), err);
    if (st == PDT_OK) st = set_features(ds, in, err);
    if (st == PDT_OK) st = set_values(ds, in, err);
    if (st == PDT_OK && in->labels) st = set_classes(ds, in, err);
    if (st == PDT_OK && in->weights) st = set_weights(ds, in, err);
    if (st == PDT_OK) st = pdt_dataset_finish(ds, err);
    if (st == PDT_OK) {
        *out = ds;
        ds = NULL;
    }
    pdt_dataset_free(&ds);
    return st;
}
