/* DL8.5 / MurTree files: one item per line, "label f1 f2 ...", separated by
 * spaces or tabs; the label is a non-negative integer, the features 0 or 1.
 * The first pass checks every line and counts, the second fills. */
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"

typedef struct dl85_reader {
    const char *name, *text;
    size_t len, start, pos;
    size_t line, begin, end; /* the current line: number and byte span (no line end) */
    size_t n, d;
    pdt_label_table labels;
    pdt_dataset *ds;
} dl85_reader;

typedef struct dl85_token {
    const char *text;
    size_t len, col;
} dl85_token;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static void reader_rewind(dl85_reader *r)
{
    r->pos = r->start;
    r->line = 0;
}

/* Moves to the next line holding a token; false at the end. */
static bool next_line(dl85_reader *r)
{
    while (r->pos < r->len) {
        const char *nl = memchr(r->text + r->pos, '\n', r->len - r->pos);
        r->begin = r->pos;
        r->end = nl ? (size_t)(nl - r->text) : r->len;
        r->pos = nl ? r->end + 1 : r->len;
        r->line++;
        size_t p = r->begin;
        while (p < r->end && is_space(r->text[p])) p++;
        if (p < r->end) return true;
    }
    return false;
}

/* The next token at or after *p on the current line; false when none. */
static bool next_token(dl85_token *t, size_t *p, const dl85_reader *r)
{
    while (*p < r->end && is_space(r->text[*p])) (*p)++;
    if (*p >= r->end) return false;
    size_t b = *p;
    while (*p < r->end && !is_space(r->text[*p])) (*p)++;
    *t =
        (dl85_token){r->text + b, *p - b, b - r->begin + 1}; /* the first line begins after a BOM */
    return true;
}

static bool all_digits(const dl85_token *t)
{
    for (size_t k = 0; k < t->len; k++)
        if (t->text[k] < '0' || t->text[k] > '9') return false;
    return t->len > 0;
}

#define SHOW(t) PDT_SHOW_TEXT((t)->text, (t)->len)

static pdt_status check_token(const dl85_reader *r, const dl85_token *t, size_t index,
                              pdt_error *err)
{
    if (index == 0 && !all_digits(t))
        return pdt_error_set(err, PDT_EINVAL,
                             "%s:%zu:%zu: label \"%.*s%s\" is not a non-negative integer", r->name,
                             r->line, t->col, SHOW(t));
    if (index > 0 && !(t->len == 1 && (t->text[0] == '0' || t->text[0] == '1')))
        return pdt_error_set(err, PDT_EINVAL, "%s:%zu:%zu: feature value \"%.*s%s\" is not 0 or 1",
                             r->name, r->line, t->col, SHOW(t));
    return PDT_OK;
}

static pdt_status width_error(const dl85_reader *r, size_t found, size_t col, pdt_error *err)
{
    return pdt_error_set(err, PDT_EINVAL, "%s:%zu:%zu: expected %zu values, found %zu", r->name,
                         r->line, col, r->d + 1, found);
}

/* First pass over one line: every token valid, as many as on the first line. */
static pdt_status scan_line(dl85_reader *r, pdt_error *err)
{
    dl85_token t;
    size_t p = r->begin, count = 0, extra_col = 0;
    while (next_token(&t, &p, r)) {
        pdt_status st = check_token(r, &t, count, err);
        if (st != PDT_OK) return st;
        if (r->n > 0 && count == r->d + 1 && !extra_col) extra_col = t.col;
        count++;
    }
    if (r->n == 0) r->d = count - 1;
    if (count != r->d + 1) {
        size_t end = r->end;
        while (end > r->begin && is_space(r->text[end - 1])) end--;
        return width_error(r, count, extra_col ? extra_col : end - r->begin + 1, err);
    }
    if (r->n + 1 >= UINT32_MAX)
        return pdt_error_set(err, PDT_ELIMIT, "%s:%zu: too many rows", r->name, r->line);
    r->n++;
    return PDT_OK;
}

/* Second pass over one checked line. */
static pdt_status fill_line(dl85_reader *r, size_t i, pdt_error *err)
{
    dl85_token t;
    size_t p = r->begin;
    next_token(&t, &p, r);
    while (t.len > 1 && t.text[0] == '0') t.text++, t.len--; /* "007" is class "7" */
    pdt_status st = pdt_label_table_add(&r->ds->labels[i], &r->labels, t.text, t.len, err);
    for (size_t j = 0; j < r->d && next_token(&t, &p, r); j++)
        r->ds->x[i * r->d + j] = t.text[0] == '1';
    return st;
}

static pdt_status read_all(dl85_reader *r, pdt_error *err)
{
    pdt_status st = PDT_OK;
    while (st == PDT_OK && next_line(r)) st = scan_line(r, err);
    if (st != PDT_OK) return st;
    if (r->n == 0) return pdt_error_set(err, PDT_EINVAL, "%s: the file is empty", r->name);
    st = pdt_dataset_alloc(&r->ds, r->n, r->d, false, err);
    if (st == PDT_OK) st = pdt_dataset_set_name(r->ds, r->name, err);
    if (st == PDT_OK) st = pdt_dataset_alloc_labels(r->ds, err);
    for (size_t j = 0; j < r->d && st == PDT_OK; j++) {
        char feature[32];
        int len = snprintf(feature, sizeof feature, "f%zu", j);
        st = pdt_dataset_set_feature(r->ds, j, feature, (size_t)len, err);
    }
    reader_rewind(r);
    for (size_t i = 0; i < r->n && st == PDT_OK && next_line(r); i++) st = fill_line(r, i, err);
    if (st == PDT_OK) st = pdt_label_table_finish(r->ds, &r->labels, err);
    if (st == PDT_OK) st = pdt_dataset_finish(r->ds, err);
    return st;
}

pdt_status pdt_dataset_read_dl85(pdt_dataset **out, const char *text, size_t len, const char *name,
                                 pdt_error *err)
{
    *out = NULL;
    dl85_reader r;
    memset(&r, 0, sizeof r);
    r.name = name ? name : "<memory>";
    r.text = text ? text : "";
    r.len = text ? len : 0;
    r.start = pdt_bom_length(r.text, r.len);
    reader_rewind(&r);
    pdt_label_table_init(&r.labels);
    pdt_status st = read_all(&r, err);
    if (st == PDT_OK) {
        *out = r.ds;
        r.ds = NULL;
    }
    pdt_label_table_clear(&r.labels);
    pdt_dataset_free(&r.ds);
    return st;
}

pdt_status pdt_dataset_load_dl85(pdt_dataset **out, const char *path, pdt_error *err)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    pdt_status st = pdt_file_read(&text, &len, path, err);
    if (st == PDT_OK) st = pdt_dataset_read_dl85(out, text, len, path, err);
    free(text);
    return st;
}
