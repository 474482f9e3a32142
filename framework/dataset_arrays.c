/* Datasets from arrays (the Python binding): every double is kept as the
 * rational it is exactly, or every cell is a text read as an exact decimal or
 * fraction; labels are class codes with names given in order.  Categorical
 * columns hold names (texts, or codes into given names) coded as the CSV
 * loader codes them; missing cells follow the loader's policies.
 * The result is built with the allocators and the ranking the CSV loader
 * uses, so the two agree on the same values. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dataset_impl.h"
#include "pdt_plugin.h"

/* A double that is an integer below 2^53 in magnitude: exact without GMP. */
static bool plain_integer(double v) { return v == trunc(v) && fabs(v) < 9007199254740992.0; }

static const char *data_name(const pdt_array_data *in) { return in->name ? in->name : "<arrays>"; }

static bool categorical(const pdt_array_data *in, size_t j)
{
    return in->kinds && in->kinds[j] == PDT_COLUMN_CATEGORICAL;
}

/* What the CSV loader reads as missing: "?", an empty cell or "NA" (any case). */
static bool missing_text(const char *t, size_t len)
{
    return len == 0 || (len == 1 && t[0] == '?') || (len == 2 && strncasecmp(t, "na", 2) == 0);
}

/* The text without blanks around it, as the CSV loader trims a cell. */
static const char *trim(size_t *len, const char *t)
{
    size_t n = strlen(t);
    while (n && (*t == ' ' || *t == '\t')) t++, n--;
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\t')) n--;
    *len = n;
    return t;
}

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

/* A numeric cell that is missing: NaN, a NULL cell, or a missing text. */
static bool numeric_missing(const pdt_array_data *in, size_t k)
{
    if (!in->cells) return isnan(in->x[k]);
    if (!in->cells[k]) return true;
    size_t len;
    const char *t = trim(&len, in->cells[k]);
    return missing_text(t, len);
}

static int cell_where(char *buf, size_t size, const pdt_array_data *in, size_t i, size_t j)
{
    const char *name = in->feature_names ? in->feature_names[j] : NULL;
    return snprintf(buf, size, "%s: row %zu, column %zu%s%s%s", data_name(in), i + 1, j + 1,
                    name ? " (\"" : "", name ? name : "", name ? "\")" : "");
}

static const char *const missing_hint =
    "say what missing values mean: missing drop (leave the row out) or missing category (a category "
    "\"?\" of a categorical column)";

static pdt_status bad_cell(const pdt_array_data *in, size_t i, size_t j, pdt_error *err)
{
    char what[96], where[400];
    const size_t k = i * in->d + j;
    if (in->cells)
        snprintf(what, sizeof what, "\"%.60s%s\" is not a number", in->cells[k] ? in->cells[k] : "",
                 in->cells[k] && strlen(in->cells[k]) > 60 ? "..." : "");
    else
        snprintf(what, sizeof what, "%s is not a finite number", isnan(in->x[k]) ? "NaN" : "an infinity");
    cell_where(where, sizeof where, in, i, j);
    bool missing = numeric_missing(in, k);
    return pdt_error_set(err, PDT_EINVAL, "%s: %s%s%s", where, what, missing ? ", a missing value; " : "",
                         missing ? missing_hint : "");
}

/* The code of a categorical cell given by codes: the double, or the cell's
 * integer text; -1 when missing (NaN, -1, a NULL cell); -2 when malformed. */
static long long cell_code(const pdt_array_data *in, size_t k)
{
    if (!in->cells) {
        double v = in->x[k];
        if (isnan(v)) return -1;
        return v == trunc(v) && v >= -1 && v < 9007199254740992.0 ? (long long)v : -2;
    }
    if (!in->cells[k]) return -1;
    size_t len;
    const char *t = trim(&len, in->cells[k]);
    char *end = NULL;
    errno = 0;
    long long c = len && !isspace((unsigned char)t[0]) ? strtoll(t, &end, 10) : -2;
    return end == t + len && !errno && c >= -1 ? c : -2;
}

/* The name in categorical cell (i, j), trimmed; *text NULL when missing. */
static pdt_status category_cell(const char **text, size_t *len, const pdt_array_data *in, size_t i, size_t j,
                                pdt_error *err)
{
    const size_t k = i * in->d + j;
    const char *const *names = in->category_names ? in->category_names[j] : NULL;
    char where[400];
    *text = NULL;
    *len = 0;
    if (names) {
        size_t count = in->n_category_names ? in->n_category_names[j] : 0;
        long long c = cell_code(in, k);
        if (c == -1) return PDT_OK;
        if (c < 0 || (unsigned long long)c >= count || !names[c]) {
            cell_where(where, sizeof where, in, i, j);
            return pdt_error_set(err, PDT_EINVAL, "%s: the category code is not one of the %zu codes given", where,
                                 count);
        }
        *text = trim(len, names[c]);
    } else if (!in->cells) {
        cell_where(where, sizeof where, in, i, j);
        return pdt_error_set(err, PDT_EINVAL, "%s: a categorical column given as doubles needs its category "
                             "names (category_names), or give the cells as text", where);
    } else if (in->cells[k]) {
        *text = trim(len, in->cells[k]);
    }
    if (*text && missing_text(*text, *len)) *text = NULL;
    return PDT_OK;
}

/* A missing cell in (i, j) under the policy: *drop_row, accepted, or refused. */
static pdt_status scan_missing(bool *drop_row, const pdt_array_data *in, size_t i, size_t j, pdt_error *err)
{
    char where[400];
    cell_where(where, sizeof where, in, i, j);
    switch (in->missing) {
    case PDT_MISSING_DROP: *drop_row = true; return PDT_OK;
    case PDT_MISSING_CATEGORY:
        if (categorical(in, j)) return PDT_OK;
        return pdt_error_set(err, PDT_EINVAL, "%s: missing value in a numeric column: missing category "
                             "applies to categorical columns; leave the row out (missing drop) or make the "
                             "column categorical", where);
    default: return pdt_error_set(err, PDT_EINVAL, "%s: missing value; %s", where, missing_hint);
    }
}

/* Checks cell (i, j); may mark the row dropped and the dataset exact. */
static pdt_status scan_cell(bool *drop_row, bool *exact, mpq_ptr q, const pdt_array_data *in, size_t i,
                            size_t j, pdt_error *err)
{
    const size_t k = i * in->d + j;
    if (categorical(in, j)) {
        const char *text;
        size_t len;
        pdt_status st = category_cell(&text, &len, in, i, j, err);
        return st == PDT_OK && !text ? scan_missing(drop_row, in, i, j, err) : st;
    }
    double v;
    if (read_cell(q, &v, in, k)) {
        if (mpz_cmp_ui(mpq_denref(q), 1) != 0 || !plain_integer(v)) *exact = true;
        return PDT_OK;
    }
    if (numeric_missing(in, k) && in->missing != PDT_MISSING_ERROR) return scan_missing(drop_row, in, i, j, err);
    return bad_cell(in, i, j, err);
}

/* Refuses what is neither a finite number nor a category naming the 1-based
 * row and column; drop[i] marks the rows left out; *exact says whether some
 * value needs a rational (not an integer below 2^53). */
static pdt_status check_values(bool *exact, uint8_t *drop, size_t *kept, const pdt_array_data *in,
                               pdt_error *err)
{
    *exact = false;
    *kept = 0;
    pdt_status st = PDT_OK;
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < in->n && st == PDT_OK; i++) {
        bool dropped = false;
        for (size_t j = 0; j < in->d && st == PDT_OK; j++) st = scan_cell(&dropped, exact, q, in, i, j, err);
        drop[i] = dropped;
        *kept += !dropped;
    }
    mpq_clear(q);
    if (st == PDT_OK && in->n && !*kept)
        st = pdt_error_set(err, PDT_EINVAL, "%s: missing drop left out every one of the %zu rows", data_name(in),
                           in->n);
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

static pdt_status check_kinds(const pdt_array_data *in, pdt_error *err)
{
    if (in->missing > PDT_MISSING_CATEGORY)
        return pdt_error_set(err, PDT_EINVAL, "%s: unknown missing-value policy %d", data_name(in), (int)in->missing);
    for (size_t j = 0; in->kinds && j < in->d; j++)
        if (in->kinds[j] != PDT_COLUMN_NUMERIC && in->kinds[j] != PDT_COLUMN_CATEGORICAL)
            return pdt_error_set(err, PDT_EINVAL, "%s: column %zu: unknown kind %d", data_name(in), j + 1,
                                 (int)in->kinds[j]);
    return PDT_OK;
}

static pdt_status check_input(bool *exact, uint8_t *drop, size_t *kept, const pdt_array_data *in,
                              pdt_error *err)
{
    if (in->n && in->d && !in->x == !in->cells)
        return pdt_error_set(err, PDT_EINVAL, "%s: give the values as doubles or as texts (one of the two)",
                             data_name(in));
    pdt_status st = check_kinds(in, err);
    if (st == PDT_OK && in->feature_names)
        st = check_names(in->feature_names, in->d, "feature column", "feature columns", in, err);
    if (st == PDT_OK) st = check_values(exact, drop, kept, in, err);
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

/* Categorical column j: names by raw id (order of appearance) into the
 * cells, then coded in name order as the CSV loader codes them. */
static pdt_status set_categories(pdt_dataset *ds, const pdt_array_data *in, const uint8_t *drop, size_t j,
                                 pdt_error *err)
{
    pdt_label_table t;
    pdt_label_table_init(&t);
    pdt_status st = PDT_OK;
    for (size_t i = 0, r = 0; i < in->n && st == PDT_OK; i++) {
        if (drop[i]) continue;
        const char *text;
        size_t len;
        uint32_t id = 0;
        st = category_cell(&text, &len, in, i, j, err);
        if (st == PDT_OK) st = pdt_label_table_add(&id, &t, text ? text : "?", text ? len : 1, err);
        ds->x[r++ * ds->d + j] = id;
    }
    if (st == PDT_OK) st = pdt_dataset_code_categories(ds, j, &t, err);
    pdt_label_table_clear(&t);
    return st;
}

static pdt_status set_values(pdt_dataset *ds, const pdt_array_data *in, const uint8_t *drop, pdt_error *err)
{
    pdt_status st = PDT_OK;
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0, r = 0; i < in->n && st == PDT_OK; i++) {
        if (drop[i]) continue;
        for (size_t j = 0; j < in->d && st == PDT_OK; j++) {
            size_t cell = r * in->d + j;
            if (categorical(in, j)) continue;
            if (!read_cell(q, &ds->x[cell], in, i * in->d + j))
                st = pdt_error_set(err, PDT_EINTERNAL, "%s: cell %zu changed while read", data_name(in), cell);
            else if (ds->q)
                st = pdt_dataset_store_exact(ds, cell, q, err);
        }
        r++;
    }
    mpq_clear(q);
    for (size_t j = 0; j < in->d && st == PDT_OK; j++)
        if (categorical(in, j)) st = set_categories(ds, in, drop, j, err);
    return st;
}

static pdt_status set_classes(pdt_dataset *ds, const pdt_array_data *in, const uint8_t *drop, pdt_error *err)
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
    for (size_t i = 0, r = 0; i < in->n; i++)
        if (!drop[i]) ds->labels[r++] = in->labels[i];
    return PDT_OK;
}

static pdt_status set_weights(pdt_dataset *ds, const pdt_array_data *in, const uint8_t *drop, pdt_error *err)
{
    pdt_status st = pdt_dataset_alloc_weights(ds, err);
    for (size_t i = 0, r = 0; i < in->n && st == PDT_OK; i++)
        if (!drop[i]) mpq_set_d(ds->weights[r++], in->weights[i]);
    return st;
}

static pdt_status build(pdt_dataset **out, const pdt_array_data *in, uint8_t *drop, pdt_error *err)
{
    bool exact = false;
    size_t kept = 0;
    pdt_dataset *ds = NULL;
    pdt_status st = check_input(&exact, drop, &kept, in, err);
    if (st == PDT_OK) st = pdt_dataset_alloc(&ds, kept, in->d, exact, err);
    if (st == PDT_OK) st = pdt_dataset_set_name(ds, data_name(in), err);
    if (st == PDT_OK) st = set_features(ds, in, err);
    if (st == PDT_OK) st = set_values(ds, in, drop, err);
    if (st == PDT_OK && in->labels) st = set_classes(ds, in, drop, err);
    if (st == PDT_OK && in->weights) st = set_weights(ds, in, drop, err);
    if (st == PDT_OK) st = pdt_dataset_finish(ds, err);
    if (st == PDT_OK) {
        ds->dropped = in->n - kept;
        *out = ds;
        ds = NULL;
    }
    pdt_dataset_free(&ds);
    return st;
}

pdt_status pdt_dataset_from_arrays(pdt_dataset **out, const pdt_array_data *in, pdt_error *err)
{
    *out = NULL;
    uint8_t *drop = calloc(in->n ? in->n : 1, 1);
    if (!drop) return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu rows)", in->n);
    pdt_status st = build(out, in, drop, err);
    free(drop);
    return st;
}
