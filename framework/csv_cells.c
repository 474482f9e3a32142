/* CSV cells: features are exact numbers, weights exact numbers >= 0, labels
 * any non-empty text.  The first pass checks, the second stores. */
#include <stdlib.h>
#include <strings.h>

#include "csv_impl.h"
#include "pdt_plugin.h"

#define SHOW(f) PDT_SHOW_TEXT((f)->text, (f)->len)

typedef enum { CELL_INTEGER, CELL_RATIONAL, CELL_NONFINITE, CELL_TEXT } cell_kind;

/* The cell's text without surrounding blanks (quoted cells keep theirs). */
static csv_field trimmed(const csv_field *f)
{
    csv_field t = *f;
    while (t.len && (t.text[0] == ' ' || t.text[0] == '\t')) t.text++, t.len--;
    while (t.len && (t.text[t.len - 1] == ' ' || t.text[t.len - 1] == '\t')) t.len--;
    return t;
}

/* [+-]digits, at most 15 of them: an integer below 2^53 without GMP. */
static bool short_integer(const char *s, size_t len)
{
    size_t k = len && (s[0] == '+' || s[0] == '-');
    if (len == k || len - k > 15) return false;
    for (; k < len; k++)
        if (s[k] < '0' || s[k] > '9') return false;
    return true;
}

static double short_integer_value(const char *s, size_t len)
{
    size_t k = s[0] == '+' || s[0] == '-';
    int64_t v = 0;
    for (size_t i = k; i < len; i++) v = v * 10 + (s[i] - '0');
    return (double)(s[0] == '-' ? -v : v);
}

static bool is_nonfinite(const char *s, size_t len)
{
    if (len && (s[0] == '+' || s[0] == '-')) s++, len--;
    return (len == 3 && (strncasecmp(s, "nan", 3) == 0 || strncasecmp(s, "inf", 3) == 0)) ||
           (len == 8 && strncasecmp(s, "infinity", 8) == 0);
}

static bool small_integer(mpq_srcptr q)
{
    return mpz_cmp_ui(mpq_denref(q), 1) == 0 && mpz_sizeinbase(mpq_numref(q), 2) <= 53;
}

static cell_kind classify(mpq_ptr scratch, const csv_field *f)
{
    if (short_integer(f->text, f->len)) return CELL_INTEGER;
    if (pdt_parse_rational(scratch, f->text, f->len))
        return small_integer(scratch) ? CELL_INTEGER : CELL_RATIONAL;
    return is_nonfinite(f->text, f->len) ? CELL_NONFINITE : CELL_TEXT;
}

pdt_status csv_check_width(const csv_loader *L, pdt_error *err)
{
    const csv_record *rec = &L->rec;
    if (rec->n == L->n_cols) return PDT_OK;
    size_t line = rec->n < L->n_cols ? rec->end_line : rec->fields[L->n_cols].line;
    size_t col = rec->n < L->n_cols ? rec->end_col : rec->fields[L->n_cols].col;
    return pdt_error_set(err, PDT_EINVAL, "%s:%zu:%zu: expected %zu fields, found %zu", L->name,
                         line, col, L->n_cols, rec->n);
}

/* "?", an empty cell or "NA" (any case). */
static bool is_missing(const csv_field *t)
{
    return t->len == 0 || (t->len == 1 && t->text[0] == '?') ||
           (t->len == 2 && strncasecmp(t->text, "na", 2) == 0);
}

static void remember(csv_position *at, char **seen, const csv_field *f, const csv_field *t)
{
    if (at->line) return;
    *at = (csv_position){f->line, f->col};
    if (seen) *seen = pdt_strndup(t->text, t->len > 60 ? 60 : t->len);
}

static const char *const missing_hint =
    "say what missing values mean with --missing drop (leave the row out) or --missing category "
    "(a category \"?\" in a categorical column)";

/* A missing feature cell: an error, the row dropped, or a category. */
static pdt_status scan_missing(csv_loader *L, csv_column *col, const csv_field *f,
                               const csv_field *t, bool *drop_row, pdt_error *err)
{
    switch (L->opt.missing) {
    case PDT_MISSING_DROP: *drop_row = true; return PDT_OK;
    case PDT_MISSING_CATEGORY: remember(&col->missing, NULL, f, t); return PDT_OK;
    default:
        return pdt_error_set(err, PDT_EINVAL, "%s:%zu:%zu: missing value \"%.*s%s\" in column \"%s\"; %s",
                             L->name, f->line, f->col, SHOW(t), col->name, missing_hint);
    }
}

static pdt_status scan_feature(csv_loader *L, csv_column *col, const csv_field *f, bool *drop_row,
                               pdt_error *err)
{
    csv_field t = trimmed(f);
    if (is_missing(&t)) return scan_missing(L, col, f, &t, drop_row, err);
    if (col->forced) return PDT_OK; /* every cell names a category */
    cell_kind kind = classify(L->scratch, &t);
    if (kind == CELL_RATIONAL) {
        col->exact = true;
        if (mpz_cmp_ui(mpq_denref(L->scratch), 1) != 0) remember(&col->fraction, &col->fraction_seen, f, &t);
    }
    if (kind == CELL_INTEGER || kind == CELL_RATIONAL) return PDT_OK;
    if (L->opt.skip_nonnumeric) {
        if (col->role != CSV_DROPPED) col->dropped_line = f->line, col->dropped_col = f->col;
        col->role = CSV_DROPPED;
        return PDT_OK;
    }
    if (kind == CELL_NONFINITE)
        return pdt_error_set(err, PDT_EINVAL,
                             "%s:%zu:%zu: \"%.*s%s\" is not a finite number (column \"%s\")",
                             L->name, f->line, f->col, SHOW(&t), col->name);
    if (L->opt.numeric_only)
        return pdt_error_set(err, PDT_EINVAL,
                             "%s:%zu:%zu: column \"%s\" holds \"%.*s%s\", which is not a number; "
                             "use --skip-nonnumeric or --skip %s",
                             L->name, f->line, f->col, col->name, SHOW(&t), col->name);
    col->categorical = true;
    remember(&col->text, &col->text_seen, f, &t);
    return PDT_OK;
}

pdt_status csv_check_column(const csv_loader *L, const csv_column *col, pdt_error *err)
{
    if (col->role != CSV_FEATURE) return PDT_OK;
    if (col->categorical && !col->forced && col->fraction.line)
        return pdt_error_set(err, PDT_EINVAL,
                             "%s:%zu:%zu: column \"%s\" holds the text \"%s\" among numbers such as \"%s\" "
                             "(%zu:%zu); if the column is categorical pass --categorical %s, if the text "
                             "marks a missing value write it as ? and pass --missing drop",
                             L->name, col->text.line, col->text.col, col->name,
                             col->text_seen ? col->text_seen : "", col->fraction_seen ? col->fraction_seen : "",
                             col->fraction.line, col->fraction.col, col->name);
    if (!col->categorical && col->missing.line)
        return pdt_error_set(err, PDT_EINVAL,
                             "%s:%zu:%zu: missing value in the numeric column \"%s\": --missing category "
                             "applies to categorical columns; pass --missing drop, or --categorical %s",
                             L->name, col->missing.line, col->missing.col, col->name, col->name);
    return PDT_OK;
}

static pdt_status scan_weight(csv_loader *L, const csv_column *col, const csv_field *f,
                              pdt_error *err)
{
    csv_field t = trimmed(f);
    cell_kind kind = classify(L->scratch, &t);
    if (kind == CELL_NONFINITE)
        return pdt_error_set(err, PDT_EINVAL,
                             "%s:%zu:%zu: \"%.*s%s\" is not a finite number (column \"%s\")",
                             L->name, f->line, f->col, SHOW(&t), col->name);
    if (kind == CELL_TEXT)
        return pdt_error_set(err, PDT_EINVAL,
                             "%s:%zu:%zu: weight \"%.*s%s\" is not a number (column \"%s\")",
                             L->name, f->line, f->col, SHOW(&t), col->name);
    if (pdt_parse_rational(L->scratch, t.text, t.len) && mpq_sgn(L->scratch) < 0)
        return pdt_error_set(err, PDT_EINVAL,
                             "%s:%zu:%zu: weight \"%.*s%s\" is negative (column \"%s\")", L->name,
                             f->line, f->col, SHOW(&t), col->name);
    return PDT_OK;
}

static pdt_status scan_label(csv_loader *L, const csv_column *col, const csv_field *f,
                             bool *drop_row, pdt_error *err)
{
    csv_field t = trimmed(f);
    if (!is_missing(&t) && f->len) return PDT_OK;
    if (L->opt.missing == PDT_MISSING_DROP) {
        *drop_row = true;
        return PDT_OK;
    }
    if (!t.len)
        return pdt_error_set(err, PDT_EINVAL, "%s:%zu:%zu: the label is empty (column \"%s\"); "
                             "--missing drop leaves such rows out",
                             L->name, f->line, f->col, col->name);
    return pdt_error_set(err, PDT_EINVAL,
                         "%s:%zu:%zu: the label is missing (\"%.*s%s\", column \"%s\"); --missing drop "
                         "leaves such rows out",
                         L->name, f->line, f->col, SHOW(&t), col->name);
}

pdt_status csv_scan_cell(csv_loader *L, csv_column *col, const csv_field *f, bool *drop_row,
                         pdt_error *err)
{
    switch (col->role) {
    case CSV_FEATURE: return scan_feature(L, col, f, drop_row, err);
    case CSV_WEIGHT: return scan_weight(L, col, f, err);
    case CSV_LABEL: return scan_label(L, col, f, drop_row, err);
    default: return PDT_OK;
    }
}

/* Parses a cell the first pass accepted. */
static pdt_status fill_rational(mpq_ptr q, const csv_loader *L, const csv_field *f, pdt_error *err)
{
    csv_field t = trimmed(f);
    if (pdt_parse_rational(q, t.text, t.len)) return PDT_OK;
    return pdt_error_set(err, PDT_EINTERNAL, "%s:%zu:%zu: the second pass disagrees with the first",
                         L->name, f->line, f->col);
}

/* A category's raw id (order of appearance) until csv_finish_categories. */
static pdt_status fill_category(csv_loader *L, size_t i, csv_column *col, const csv_field *f,
                                pdt_error *err)
{
    csv_field t = trimmed(f);
    if (is_missing(&t)) t.text = "?", t.len = 1;
    uint32_t id = 0;
    pdt_status st = pdt_label_table_add(&id, &col->categories, t.text, t.len, err);
    L->ds->x[i * L->d + col->feature] = id;
    return st;
}

pdt_status csv_finish_categories(csv_loader *L, csv_column *col, pdt_error *err)
{
    char **names = NULL;
    size_t k = 0;
    uint32_t *code_of = NULL;
    pdt_dataset *ds = L->ds;
    pdt_status st = pdt_label_table_sort(&names, &k, &code_of, &col->categories, err);
    if (st == PDT_OK) st = pdt_dataset_set_categories(ds, col->feature, names, k, err);
    for (size_t i = 0; i < ds->n && st == PDT_OK; i++) {
        size_t cell = i * L->d + col->feature;
        ds->x[cell] = code_of[(uint32_t)ds->x[cell]];
        if (ds->q) {
            mpq_set_d(L->scratch, ds->x[cell]);
            st = pdt_dataset_store_exact(ds, cell, L->scratch, err);
        }
    }
    free(code_of);
    return st;
}

static pdt_status fill_feature(csv_loader *L, size_t i, csv_column *col, const csv_field *f,
                               pdt_error *err)
{
    if (col->categorical) return fill_category(L, i, col, f, err);
    csv_field t = trimmed(f);
    size_t cell = i * L->d + col->feature;
    pdt_dataset *ds = L->ds;
    if (!ds->q && short_integer(t.text, t.len)) {
        ds->x[cell] = short_integer_value(t.text, t.len);
        return PDT_OK;
    }
    pdt_status st = fill_rational(L->scratch, L, f, err);
    if (st == PDT_OK) ds->x[cell] = pdt_rational_to_double(L->scratch);
    if (st == PDT_OK && ds->q) st = pdt_dataset_store_exact(ds, cell, L->scratch, err);
    return st;
}

pdt_status csv_fill_cell(csv_loader *L, size_t i, csv_column *col, const csv_field *f,
                         pdt_error *err)
{
    switch (col->role) {
    case CSV_FEATURE: return fill_feature(L, i, col, f, err);
    case CSV_WEIGHT: return fill_rational(L->ds->weights[i], L, f, err);
    case CSV_LABEL: {
        csv_field t = trimmed(f);
        return pdt_label_table_add(&L->ds->labels[i], &L->labels, t.text, t.len, err);
    }
    default: return PDT_OK;
    }
}
