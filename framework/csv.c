/* CSV datasets.  Two passes over the text: the first checks every cell and
 * learns which columns are kept and whether the values need rationals, the
 * second fills a dataset of exactly the right shape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_impl.h"
#include "dataset_impl.h"
#include "pdt_plugin.h"

static void loader_init(csv_loader *L, const char *text, size_t len, const char *name,
                        const pdt_csv_options *opt)
{
    memset(L, 0, sizeof *L);
    L->name = name ? name : "<memory>";
    if (opt) L->opt = *opt;
    csv_lexer_init(&L->lx, text, len, L->name, L->opt.delimiter);
    csv_record_init(&L->rec);
    mpq_init(L->scratch);
    pdt_label_table_init(&L->labels);
    L->label = L->weight = SIZE_MAX;
}

static void loader_clear(csv_loader *L)
{
    for (size_t c = 0; L->cols && c < L->n_cols; c++) {
        free(L->cols[c].name);
        free(L->cols[c].text_seen);
        free(L->cols[c].fraction_seen);
        pdt_label_table_clear(&L->cols[c].categories);
    }
    free(L->cols);
    free(L->drop);
    csv_lexer_clear(&L->lx);
    csv_record_clear(&L->rec);
    mpq_clear(L->scratch);
    pdt_label_table_clear(&L->labels);
    pdt_dataset_free(&L->ds);
}

typedef struct name_key {
    const char *name;
    size_t column;
} name_key;

static int name_key_cmp(const void *a, const void *b)
{
    const name_key *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->column > y->column) - (x->column < y->column);
}

/* Reports the duplicate name whose second appearance comes first. */
static pdt_status check_duplicates(const csv_loader *L, pdt_error *err)
{
    name_key *keys = malloc(L->n_cols * sizeof *keys);
    if (!keys) return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory", L->name);
    for (size_t c = 0; c < L->n_cols; c++) keys[c] = (name_key){L->cols[c].name, c};
    qsort(keys, L->n_cols, sizeof *keys, name_key_cmp);
    size_t first = SIZE_MAX, second = SIZE_MAX;
    for (size_t k = 1; k < L->n_cols; k++)
        if (strcmp(keys[k].name, keys[k - 1].name) == 0 && keys[k].column < second) {
            first = keys[k - 1].column;
            second = keys[k].column;
        }
    free(keys);
    if (second == SIZE_MAX) return PDT_OK;
    const csv_field *f = &L->rec.fields[second];
    return pdt_error_set(err, PDT_EINVAL,
                         "%s:%zu:%zu: duplicate column name \"%s\" (columns %zu and %zu)", L->name,
                         f->line, f->col, L->cols[second].name, first + 1, second + 1);
}

/* Without a header the columns are col1, col2, ... and the first record is data. */
static char *column_name(const csv_loader *L, size_t c)
{
    if (L->has_header) return pdt_strndup(L->rec.fields[c].text, L->rec.fields[c].len);
    char name[32];
    snprintf(name, sizeof name, "col%zu", c + 1);
    return pdt_strndup(name, strlen(name));
}

static pdt_status read_header(csv_loader *L, pdt_error *err)
{
    char sep = L->opt.delimiter;
    if (sep == '"' || sep == '\n' || sep == '\r')
        return pdt_error_set(err, PDT_EINVAL, "%s: option --delimiter: a quote or a line end cannot separate fields",
                             L->name);
    bool more;
    pdt_status st = csv_read_record(&L->rec, &more, &L->lx, err);
    if (st != PDT_OK) return st;
    if (!more) return pdt_error_set(err, PDT_EINVAL, "%s: the file is empty", L->name);
    L->has_header = L->opt.header != PDT_CSV_HEADER_NO;
    L->header_line = L->rec.fields[0].line;
    L->cols = calloc(L->rec.n, sizeof *L->cols);
    if (!L->cols) return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory", L->name);
    L->n_cols = L->rec.n;
    for (size_t c = 0; c < L->n_cols; c++) {
        L->cols[c].name = column_name(L, c);
        if (!L->cols[c].name) return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory", L->name);
    }
    if (!L->has_header) csv_lexer_rewind(&L->lx);
    return L->has_header ? check_duplicates(L, err) : PDT_OK;
}

/* A detected delimiter that left one column, on lines that hold blanks, is
 * a guess gone wrong (a space-separated file): refused with the option. */
static pdt_status check_one_column(const csv_loader *L, pdt_error *err)
{
    if (L->opt.delimiter || L->n_cols != 1) return PDT_OK;
    const csv_field *f = &L->rec.fields[0];
    const char *blank = memchr(f->text, ' ', f->len);
    if (!blank || f->quoted) return PDT_OK;
    return pdt_error_set(err, PDT_EINVAL,
                         "%s:%zu: read with the delimiter ',' (detected: no ',' ';' or tab on the first line) "
                         "the file has one column, \"%.*s%s\", and its lines hold spaces; for columns "
                         "separated by blanks pass --delimiter space (or name the delimiter with --delimiter)",
                         L->name, f->line, PDT_SHOW_TEXT(f->text, f->len));
}

/* A header whose feature names are all numbers is the first data row of a
 * file without a header: refused unless the options say which it is. */
static pdt_status check_numeric_header(csv_loader *L, pdt_error *err)
{
    if (!L->has_header || L->opt.header == PDT_CSV_HEADER_YES) return PDT_OK;
    size_t features = 0;
    for (size_t c = 0; c < L->n_cols; c++) {
        if (L->cols[c].role != CSV_FEATURE) continue;
        const char *name = L->cols[c].name;
        if (!pdt_parse_rational(L->scratch, name, strlen(name))) return PDT_OK;
        features++;
    }
    if (!features) return PDT_OK;
    return pdt_error_set(err, PDT_EINVAL,
                         "%s:%zu: the header row holds numbers where the feature names belong (\"%s\", ...): "
                         "if the file has no header pass --no-header; if these are the names pass --header",
                         L->name, L->header_line, L->cols[0].name);
}

/* --skip-nonnumeric must not leave a dataset without features unnoticed. */
static pdt_status check_dropped(const csv_loader *L, pdt_error *err)
{
    if (L->d || !L->opt.skip_nonnumeric) return PDT_OK;
    char list[600];
    size_t used = 0, dropped = 0;
    list[0] = '\0';
    for (size_t c = 0; c < L->n_cols; c++) {
        const csv_column *col = &L->cols[c];
        if (col->role != CSV_DROPPED) continue;
        dropped++;
        if (used + strlen(col->name) + 40 < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s\"%s\" (%zu:%zu)", used ? ", " : "",
                                     col->name, col->dropped_line, col->dropped_col);
        else if (used + 5 < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, ", ...");
    }
    if (!dropped) return PDT_OK;
    return pdt_error_set(err, PDT_EINVAL,
                         "%s: --skip-nonnumeric dropped every feature column: %zu column%s with a non-number, "
                         "first at LINE:COLUMN: %s",
                         L->name, dropped, dropped == 1 ? "" : "s", list);
}

/* Records whether record k is left out (--missing drop). */
static pdt_status note_drop(csv_loader *L, size_t k, bool drop, pdt_error *err)
{
    if (k >= L->drop_cap) {
        size_t cap = L->drop_cap ? 2 * L->drop_cap : 1024;
        uint8_t *grown = realloc(L->drop, cap);
        if (!grown) return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory", L->name);
        L->drop = grown;
        L->drop_cap = cap;
    }
    L->drop[k] = drop;
    return PDT_OK;
}

static pdt_status scan_rows(csv_loader *L, pdt_error *err)
{
    for (;;) {
        bool more, drop = false;
        pdt_status st = csv_read_record(&L->rec, &more, &L->lx, err);
        if (st != PDT_OK) return st;
        if (!more) break;
        if (L->n_records + 1 >= UINT32_MAX)
            return pdt_error_set(err, PDT_ELIMIT, "%s:%zu: too many rows (at most %lu)", L->name,
                                 L->rec.fields[0].line, (unsigned long)UINT32_MAX - 1);
        st = csv_check_width(L, err);
        for (size_t c = 0; c < L->n_cols && st == PDT_OK; c++)
            st = csv_scan_cell(L, &L->cols[c], &L->rec.fields[c], &drop, err);
        if (st == PDT_OK) st = note_drop(L, L->n_records++, drop, err);
        if (st != PDT_OK) return st;
        L->n_rows += !drop;
    }
    if (L->n_records == 0)
        return pdt_error_set(err, PDT_EINVAL, "%s: a header but no data rows", L->name);
    if (L->n_rows == 0)
        return pdt_error_set(err, PDT_EINVAL, "%s: --missing drop left out every one of the %zu rows",
                             L->name, L->n_records);
    for (size_t c = 0; c < L->n_cols; c++) {
        pdt_status st = csv_check_column(L, &L->cols[c], err);
        if (st != PDT_OK) return st;
        if (L->cols[c].role != CSV_FEATURE) continue;
        if (L->cols[c].forced) L->cols[c].categorical = true;
        L->cols[c].feature = L->d++;
        L->exact |= L->cols[c].exact && !L->cols[c].categorical;
    }
    return PDT_OK;
}

static pdt_status build(csv_loader *L, pdt_error *err)
{
    pdt_status st = pdt_dataset_alloc(&L->ds, L->n_rows, L->d, L->exact, err);
    if (st == PDT_OK) st = pdt_dataset_set_name(L->ds, L->name, err);
    for (size_t c = 0; c < L->n_cols && st == PDT_OK; c++)
        if (L->cols[c].role == CSV_FEATURE)
            st = pdt_dataset_set_feature(L->ds, L->cols[c].feature, L->cols[c].name,
                                         strlen(L->cols[c].name), err);
    if (st == PDT_OK && L->label != SIZE_MAX) st = pdt_dataset_alloc_labels(L->ds, err);
    if (st == PDT_OK && L->weight != SIZE_MAX) st = pdt_dataset_alloc_weights(L->ds, err);
    return st;
}

static pdt_status fill_rows(csv_loader *L, pdt_error *err)
{
    bool more;
    csv_lexer_rewind(&L->lx);
    pdt_status st = L->has_header ? csv_read_record(&L->rec, &more, &L->lx, err) : PDT_OK; /* the header */
    for (size_t k = 0, i = 0; k < L->n_records && st == PDT_OK; k++) {
        st = csv_read_record(&L->rec, &more, &L->lx, err);
        if (st == PDT_OK && (!more || L->rec.n != L->n_cols))
            return pdt_error_set(err, PDT_EINTERNAL, "%s: the second pass disagrees with the first",
                                 L->name);
        if (L->drop[k]) continue;
        for (size_t c = 0; c < L->n_cols && st == PDT_OK; c++)
            st = csv_fill_cell(L, i, &L->cols[c], &L->rec.fields[c], err);
        i++;
    }
    for (size_t c = 0; c < L->n_cols && st == PDT_OK; c++)
        if (L->cols[c].role == CSV_FEATURE && L->cols[c].categorical)
            st = csv_finish_categories(L, &L->cols[c], err);
    if (st == PDT_OK) L->ds->dropped = L->n_records - L->n_rows;
    return st;
}

pdt_status pdt_dataset_read_csv(pdt_dataset **out, const char *text, size_t len, const char *name,
                                const pdt_csv_options *opt, pdt_error *err)
{
    *out = NULL;
    csv_loader L;
    loader_init(&L, text ? text : "", text ? len : 0, name, opt);
    pdt_status st = read_header(&L, err);
    if (st == PDT_OK) st = check_one_column(&L, err);
    if (st == PDT_OK) st = csv_assign_roles(&L, err);
    if (st == PDT_OK) st = check_numeric_header(&L, err);
    if (st == PDT_OK) st = scan_rows(&L, err);
    if (st == PDT_OK) st = check_dropped(&L, err);
    if (st == PDT_OK) st = build(&L, err);
    if (st == PDT_OK) st = fill_rows(&L, err);
    if (st == PDT_OK && L.ds->has_labels) st = pdt_label_table_finish(L.ds, &L.labels, err);
    if (st == PDT_OK) st = pdt_dataset_finish(L.ds, err);
    if (st == PDT_OK) {
        *out = L.ds;
        L.ds = NULL;
    }
    loader_clear(&L);
    return st;
}

pdt_status pdt_dataset_load_csv(pdt_dataset **out, const char *path, const pdt_csv_options *opt,
                                pdt_error *err)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    pdt_status st = pdt_file_read(&text, &len, path, err);
    if (st == PDT_OK) st = pdt_dataset_read_csv(out, text, len, path, opt, err);
    free(text);
    return st;
}
