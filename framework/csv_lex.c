/* CSV records (RFC 4180 quotes, CRLF / LF / CR line ends, a UTF-8 BOM) with
 * the line and byte column of every field, for messages. */
#include <stdlib.h>
#include <string.h>

#include "csv_impl.h"

static char detect_separator(const char *s, size_t len)
{
    size_t commas = 0, semicolons = 0, tabs = 0;
    bool quoted = false;
    for (size_t k = 0; k < len; k++) {
        char c = s[k];
        if (c == '"') quoted = !quoted;
        if (quoted) continue;
        if (c == '\n' || c == '\r') break;
        commas += c == ',';
        semicolons += c == ';';
        tabs += c == '\t';
    }
    if (commas || (!semicolons && !tabs)) return ',';
    return semicolons >= tabs ? ';' : '\t';
}

void csv_lexer_init(csv_lexer *lx, const char *text, size_t len, const char *name, char sep)
{
    memset(lx, 0, sizeof *lx);
    lx->name = name;
    lx->text = text;
    lx->len = len;
    lx->start = pdt_bom_length(text, len);
    lx->sep = sep ? sep : detect_separator(text + lx->start, len - lx->start);
    csv_lexer_rewind(lx);
}

void csv_lexer_clear(csv_lexer *lx)
{
    free(lx->buf);
    lx->buf = NULL;
    lx->buf_len = lx->buf_cap = 0;
}

void csv_lexer_rewind(csv_lexer *lx)
{
    lx->pos = lx->line_start = lx->start;
    lx->line = 1;
}

void csv_record_init(csv_record *rec) { memset(rec, 0, sizeof *rec); }

void csv_record_clear(csv_record *rec)
{
    free(rec->fields);
    csv_record_init(rec);
}

static bool is_blank(const csv_lexer *lx, char c)
{
    return c == ' ' || (c == '\t' && lx->sep != '\t');
}

/* With sep ' ' any run of blanks separates; read_field consumes the run. */
static bool is_sep(const csv_lexer *lx, char c)
{
    return c == lx->sep || (lx->sep == ' ' && c == '\t');
}
static bool is_line_end(char c) { return c == '\n' || c == '\r'; }
static size_t column(const csv_lexer *lx, size_t pos) { return pos - lx->line_start + 1; }

/* Past the line end at pos (CRLF counts once). */
static void next_line(csv_lexer *lx)
{
    if (lx->text[lx->pos] == '\r' && lx->pos + 1 < lx->len && lx->text[lx->pos + 1] == '\n')
        lx->pos++;
    lx->pos++;
    lx->line++;
    lx->line_start = lx->pos;
}

/* False when only blank lines are left. */
static bool skip_blank_lines(csv_lexer *lx)
{
    for (;;) {
        size_t p = lx->pos;
        while (p < lx->len && is_blank(lx, lx->text[p])) p++;
        if (p >= lx->len) return false;
        if (!is_line_end(lx->text[p])) return true;
        lx->pos = p;
        next_line(lx);
    }
}

static pdt_status nul_error(const csv_lexer *lx, size_t pos, pdt_error *err)
{
    return pdt_error_set(err, PDT_EINVAL, "%s:%zu:%zu: a NUL byte (is this a text file?)", lx->name,
                         lx->line, column(lx, pos));
}

static bool buf_push(csv_lexer *lx, char c)
{
    if (lx->buf_len == lx->buf_cap) {
        size_t cap = lx->buf_cap ? 2 * lx->buf_cap : 256;
        char *p = realloc(lx->buf, cap);
        if (!p) return false;
        lx->buf = p;
        lx->buf_cap = cap;
    }
    lx->buf[lx->buf_len++] = c;
    return true;
}

/* After a closing quote only blanks may come before the separator. */
static pdt_status after_quote(const csv_lexer *lx, pdt_error *err)
{
    size_t p = lx->pos, q = p;
    if (p >= lx->len || is_sep(lx, lx->text[p]) || is_line_end(lx->text[p])) return PDT_OK;
    if (lx->sep == ' ' && is_blank(lx, lx->text[p - 1])) return PDT_OK; /* the blanks were the separator */
    while (q < lx->len && q - p < 20 && !is_sep(lx, lx->text[q]) && !is_line_end(lx->text[q])) q++;
    return pdt_error_set(err, PDT_EINVAL,
                         "%s:%zu:%zu: text after the closing quote of a field (found \"%.*s\")",
                         lx->name, lx->line, column(lx, p), (int)(q - p), lx->text + p);
}

/* A quoted field; pos is at the opening quote. Doubled quotes stand for one. */
static pdt_status read_quoted(csv_field *f, csv_lexer *lx, pdt_error *err)
{
    f->quoted = true;
    f->offset = lx->buf_len;
    for (lx->pos++;; lx->pos++) {
        if (lx->pos >= lx->len)
            return pdt_error_set(
                err, PDT_EINVAL,
                "%s:%zu:%zu: unterminated quoted field (the file ends inside quotes)", lx->name,
                f->line, f->col);
        char c = lx->text[lx->pos];
        if (c == '\0') return nul_error(lx, lx->pos, err);
        if (c == '"' && !(lx->pos + 1 < lx->len && lx->text[lx->pos + 1] == '"')) break;
        if (c == '"') lx->pos++;
        if (!buf_push(lx, c)) return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory", lx->name);
        bool crlf = c == '\r' && lx->pos + 1 < lx->len && lx->text[lx->pos + 1] == '\n';
        if (is_line_end(c) && !crlf) {
            lx->line++;
            lx->line_start = lx->pos + 1;
        }
    }
    f->len = lx->buf_len - f->offset;
    lx->pos++;
    while (lx->pos < lx->len && is_blank(lx, lx->text[lx->pos])) lx->pos++;
    return after_quote(lx, err);
}

/* An unquoted field, blanks trimmed. */
static pdt_status read_plain(csv_field *f, csv_lexer *lx, pdt_error *err)
{
    const char *s = lx->text;
    size_t begin = lx->pos, p = begin;
    for (; p < lx->len && !is_sep(lx, s[p]) && !is_line_end(s[p]); p++)
        if (s[p] == '\0') return nul_error(lx, p, err);
    size_t end = p;
    while (end > begin && is_blank(lx, s[end - 1])) end--;
    f->quoted = false;
    f->offset = begin;
    f->len = end - begin;
    lx->pos = p;
    return PDT_OK;
}

/* One field and its separator; *last when a line end or the end follows. */
static pdt_status read_field(csv_field *f, bool *last, csv_lexer *lx, pdt_error *err)
{
    f->line = lx->line;
    f->col = column(lx, lx->pos);
    while (lx->pos < lx->len && is_blank(lx, lx->text[lx->pos])) lx->pos++;
    bool quoted = lx->pos < lx->len && lx->text[lx->pos] == '"';
    pdt_status st = quoted ? read_quoted(f, lx, err) : read_plain(f, lx, err);
    if (st != PDT_OK) return st;
    if (lx->sep == ' ') { /* a run of blanks separates; trailing blanks end the record */
        while (lx->pos < lx->len && is_blank(lx, lx->text[lx->pos])) lx->pos++;
        *last = lx->pos >= lx->len || is_line_end(lx->text[lx->pos]);
        return PDT_OK;
    }
    *last = !(lx->pos < lx->len && lx->text[lx->pos] == lx->sep);
    if (!*last) lx->pos++;
    return PDT_OK;
}

static bool grow_record(csv_record *rec)
{
    size_t cap = rec->cap ? 2 * rec->cap : 16;
    csv_field *p = realloc(rec->fields, cap * sizeof *p);
    if (!p) return false;
    rec->fields = p;
    rec->cap = cap;
    return true;
}

pdt_status csv_read_record(csv_record *rec, bool *more, csv_lexer *lx, pdt_error *err)
{
    rec->n = 0;
    lx->buf_len = 0;
    *more = skip_blank_lines(lx);
    if (!*more) return PDT_OK;
    for (bool last = false; !last; rec->n++) {
        if (rec->n == rec->cap && !grow_record(rec))
            return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory", lx->name);
        pdt_status st = read_field(&rec->fields[rec->n], &last, lx, err);
        if (st != PDT_OK) return st;
    }
    rec->end_line = lx->line;
    rec->end_col = column(lx, lx->pos);
    if (lx->pos < lx->len) next_line(lx);
    for (size_t k = 0; k < rec->n; k++) {
        csv_field *f = &rec->fields[k];
        f->text = !f->quoted ? lx->text + f->offset : lx->buf ? lx->buf + f->offset : "";
    }
    return PDT_OK;
}
