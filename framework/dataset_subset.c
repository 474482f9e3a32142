/* A dataset made of some rows of another: same columns, same classes (so class
 * indices agree between the two), ranks recomputed over the chosen rows. */
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"

static pdt_status copy_classes(pdt_dataset *sub, const pdt_dataset *ds, pdt_error *err)
{
    if (!ds->n_classes) return PDT_OK;
    sub->classes = calloc(ds->n_classes, sizeof *sub->classes);
    if (!sub->classes) return pdt_error_set(err, PDT_ENOMEM, "out of memory (class names)");
    sub->n_classes = ds->n_classes;
    for (size_t c = 0; c < ds->n_classes; c++) {
        sub->classes[c] = pdt_strndup(ds->classes[c], strlen(ds->classes[c]));
        if (!sub->classes[c]) return pdt_error_set(err, PDT_ENOMEM, "out of memory (class names)");
    }
    return PDT_OK;
}

/* Column j's category names of ds become column to's of sub. */
static pdt_status copy_categories(pdt_dataset *sub, size_t to, const pdt_dataset *ds, size_t j,
                                  pdt_error *err)
{
    size_t k = ds->n_categories[j];
    char **names = calloc(k ? k : 1, sizeof *names);
    for (size_t v = 0; names && v < k; v++) {
        names[v] = pdt_strndup(ds->categories[j][v], strlen(ds->categories[j][v]));
        if (!names[v]) {
            for (size_t u = 0; u < v; u++) free(names[u]);
            free(names);
            names = NULL;
        }
    }
    if (!names) return pdt_error_set(err, PDT_ENOMEM, "out of memory (category names)");
    return pdt_dataset_set_categories(sub, to, names, k, err);
}

static pdt_status copy_names(pdt_dataset *sub, const pdt_dataset *ds, pdt_error *err)
{
    pdt_status st = ds->name ? pdt_dataset_set_name(sub, ds->name, err) : PDT_OK;
    for (size_t j = 0; j < ds->d && st == PDT_OK; j++)
        if (ds->features[j])
            st = pdt_dataset_set_feature(sub, j, ds->features[j], strlen(ds->features[j]), err);
    for (size_t j = 0; ds->categories && j < ds->d && st == PDT_OK; j++)
        if (ds->categories[j]) st = copy_categories(sub, j, ds, j, err);
    return st == PDT_OK ? copy_classes(sub, ds, err) : st;
}

static pdt_status copy_row(pdt_dataset *sub, size_t to, const pdt_dataset *ds, size_t from,
                           pdt_error *err)
{
    const size_t d = ds->d;
    memcpy(sub->x + to * d, ds->x + from * d, d * sizeof *ds->x);
    if (ds->labels) sub->labels[to] = ds->labels[from];
    if (ds->weights) mpq_set(sub->weights[to], ds->weights[from]);
    pdt_status st = PDT_OK;
    for (size_t j = 0; ds->q && j < d && st == PDT_OK; j++)
        st = pdt_dataset_store_exact(sub, to * d + j, ds->q[from * d + j], err);
    return st;
}

static pdt_status fill_subset(pdt_dataset *sub, const pdt_dataset *ds, const uint32_t *rows,
                              pdt_error *err)
{
    pdt_status st = copy_names(sub, ds, err);
    if (st == PDT_OK && ds->has_labels) st = pdt_dataset_alloc_labels(sub, err);
    if (st == PDT_OK && ds->has_weights) st = pdt_dataset_alloc_weights(sub, err);
    if (st != PDT_OK) return st;
    for (size_t k = 0; k < sub->n && st == PDT_OK; k++) st = copy_row(sub, k, ds, rows[k], err);
    return st == PDT_OK ? pdt_dataset_finish(sub, err) : st;
}

pdt_status pdt_dataset_subset(pdt_dataset **out, const pdt_dataset *ds, const uint32_t *rows,
                              size_t n_rows, pdt_error *err)
{
    *out = NULL;
    for (size_t k = 0; k < n_rows; k++)
        if (rows[k] >= ds->n)
            return pdt_error_set(err, PDT_EINVAL, "%s: subset row %lu is out of range (%zu rows)",
                                 pdt_dataset_name(ds), (unsigned long)rows[k], ds->n);
    pdt_dataset *sub = NULL;
    pdt_status st = pdt_dataset_alloc(&sub, n_rows, ds->d, ds->q != NULL, err);
    if (st == PDT_OK) st = fill_subset(sub, ds, rows, err);
    if (st != PDT_OK) {
        pdt_dataset_free(&sub);
        return st;
    }
    *out = sub;
    return PDT_OK;
}

/* ------------------------------------------------------------ columns */

static pdt_status fill_columns(pdt_dataset *sub, const pdt_dataset *ds, const size_t *cols,
                               pdt_error *err)
{
    pdt_status st = ds->name ? pdt_dataset_set_name(sub, ds->name, err) : PDT_OK;
    for (size_t k = 0; k < sub->d && st == PDT_OK; k++) {
        size_t j = cols[k];
        if (ds->features[j])
            st = pdt_dataset_set_feature(sub, k, ds->features[j], strlen(ds->features[j]), err);
        if (st == PDT_OK && ds->categories && ds->categories[j]) st = copy_categories(sub, k, ds, j, err);
    }
    if (st == PDT_OK) st = copy_classes(sub, ds, err);
    if (st == PDT_OK && ds->has_labels) st = pdt_dataset_alloc_labels(sub, err);
    if (st == PDT_OK && ds->has_weights) st = pdt_dataset_alloc_weights(sub, err);
    for (size_t i = 0; i < ds->n && st == PDT_OK; i++) {
        if (ds->labels) sub->labels[i] = ds->labels[i];
        if (ds->weights) mpq_set(sub->weights[i], ds->weights[i]);
        for (size_t k = 0; k < sub->d && st == PDT_OK; k++) {
            sub->x[i * sub->d + k] = ds->x[i * ds->d + cols[k]];
            if (ds->q) st = pdt_dataset_store_exact(sub, i * sub->d + k, ds->q[i * ds->d + cols[k]], err);
        }
    }
    sub->dropped = ds->dropped;
    return st == PDT_OK ? pdt_dataset_finish(sub, err) : st;
}

pdt_status pdt_dataset_columns(pdt_dataset **out, const pdt_dataset *ds, const size_t *cols,
                               size_t n_cols, pdt_error *err)
{
    *out = NULL;
    for (size_t k = 0; k < n_cols; k++)
        if (cols[k] >= ds->d)
            return pdt_error_set(err, PDT_EINVAL, "%s: column %zu is out of range (%zu columns)",
                                 pdt_dataset_name(ds), cols[k], ds->d);
    pdt_dataset *sub = NULL;
    pdt_status st = pdt_dataset_alloc(&sub, ds->n, n_cols, ds->q != NULL, err);
    if (st == PDT_OK) st = fill_columns(sub, ds, cols, err);
    if (st != PDT_OK) {
        pdt_dataset_free(&sub);
        return st;
    }
    *out = sub;
    return PDT_OK;
}
