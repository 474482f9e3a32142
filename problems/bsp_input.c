/* Reading a segment file: "x1 y1 x2 y2" per line, exact numbers, '#'
 * comments; every error names the file, the line and (for a bad number) the
 * column. */
#include <stdlib.h>
#include <string.h>

#include "bsp_impl.h"
#include "dataset_impl.h"
#include "pdt_linalg.h"

static void point_init(bsp_point *p) { mpq_inits(p->x, p->y, NULL); }
static void point_clear(bsp_point *p) { mpq_clears(p->x, p->y, NULL); }

static void point_finish(bsp_point *p)
{
    p->d[0] = pdt_filter_double(p->x);
    p->d[1] = pdt_filter_double(p->y);
}

void pdt_bsp_free(pdt_bsp **bsp)
{
    if (!bsp || !*bsp) return;
    pdt_bsp *b = *bsp;
    for (size_t i = 0; i < b->n; i++) {
        point_clear(&b->seg[i].a);
        point_clear(&b->seg[i].b);
        for (uint32_t k = 0; b->seg[i].cuts && k + 1 < b->seg[i].n_pieces; k++) mpq_clear(b->seg[i].cuts[k]);
        free(b->seg[i].cuts);
    }
    free(b->seg);
    free(b->name);
    free(b->piece_seg);
    free(b->left);
    free(b->right);
    free(b->on);
    free(b->stamp);
    free(b->nodes);
    free(b->frags);
    pdt_lex_sum_algebra.clear(&b->value);
    free(b);
    *bsp = NULL;
}

static bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == ','; }

/* One line's four numbers into seg; `text` is the line without its newline. */
static pdt_status parse_line(bsp_segment *seg, const char *name, size_t line, const char *text,
                             size_t len, pdt_error *err)
{
    mpq_ptr v[4] = {seg->a.x, seg->a.y, seg->b.x, seg->b.y};
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        if (is_blank(text[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && !is_blank(text[j])) j++;
        if (n < 4 && !pdt_parse_rational(v[n], text + i, j - i))
            return pdt_error_set(err, PDT_EINVAL, "%s:%zu:%zu: \"%.*s%s\" is not a number", name, line,
                                 i + 1, PDT_SHOW_TEXT(text + i, j - i));
        n++;
        i = j;
    }
    if (n != 4)
        return pdt_error_set(err, PDT_EINVAL, "%s:%zu: expected 4 numbers (x1 y1 x2 y2), found %zu",
                             name, line, n);
    if (mpq_equal(seg->a.x, seg->b.x) && mpq_equal(seg->a.y, seg->b.y)) {
        pdt_buf b;
        pdt_buf_init(&b);
        pdt_buf_mpq_decimal(&b, seg->a.x);
        pdt_buf_puts(&b, ", ");
        pdt_buf_mpq_decimal(&b, seg->a.y);
        pdt_status st = pdt_error_set(err, PDT_EINVAL, "%s:%zu: zero-length segment (both endpoints "
                                      "are (%s))", name, line, b.data ? b.data : "?");
        pdt_buf_clear(&b);
        return st;
    }
    point_finish(&seg->a);
    point_finish(&seg->b);
    seg->line = line;
    return PDT_OK;
}

static pdt_status add_segment(pdt_bsp *b, size_t *cap, pdt_error *err)
{
    if (b->n == *cap) {
        size_t c = *cap ? 2 * *cap : 16;
        bsp_segment *s = realloc(b->seg, c * sizeof *s);
        if (!s) return pdt_error_set(err, PDT_ENOMEM, "out of memory reading %s", b->name);
        b->seg = s;
        *cap = c;
    }
    bsp_segment *s = &b->seg[b->n++];
    memset(s, 0, sizeof *s);
    point_init(&s->a);
    point_init(&s->b);
    return PDT_OK;
}

static pdt_status parse_text(pdt_bsp *b, const char *text, size_t len, pdt_error *err)
{
    size_t cap = 0, line = 0;
    for (size_t i = pdt_bom_length(text, len); i < len;) {
        line++;
        const char *eol = memchr(text + i, '\n', len - i);
        size_t end = eol ? (size_t)(eol - text) : len, stop = i;
        while (stop < end && text[stop] != '#') stop++;
        size_t k = i;
        while (k < stop && is_blank(text[k])) k++;
        if (k < stop) {
            pdt_status st = add_segment(b, &cap, err);
            if (!st) st = parse_line(&b->seg[b->n - 1], b->name, line, text + i, stop - i, err);
            if (st) return st;
        }
        i = end + 1;
    }
    if (b->n == 0) return pdt_error_set(err, PDT_EINVAL, "%s: no segments", b->name);
    if (b->n >= INT32_MAX / 4) return pdt_error_set(err, PDT_ELIMIT, "%s: too many segments", b->name);
    return PDT_OK;
}

pdt_status pdt_bsp_read(pdt_bsp **out, const char *text, size_t len, const char *name, pdt_error *err)
{
    pdt_bsp *b = calloc(1, sizeof *b);
    if (!b) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_lex_sum_algebra.init(&b->value);
    b->name = strdup(name ? name : "segments");
    pdt_status st = b->name ? parse_text(b, text, len, err) : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (!st) st = bsp_check_crossings(b, err);
    if (!st) st = bsp_build_pieces(b, err);
    if (st) {
        pdt_bsp_free(&b);
        return st;
    }
    *out = b;
    return PDT_OK;
}

pdt_status pdt_bsp_load(pdt_bsp **out, const char *path, pdt_error *err)
{
    char *text = NULL;
    size_t len = 0;
    pdt_status st = pdt_file_read(&text, &len, path, err);
    if (!st) st = pdt_bsp_read(out, text, len, path, err);
    free(text);
    return st;
}

size_t pdt_bsp_segments(const pdt_bsp *bsp) { return bsp->n; }
size_t pdt_bsp_pieces(const pdt_bsp *bsp) { return bsp->n_pieces; }
size_t pdt_bsp_segment_line(const pdt_bsp *bsp, size_t i) { return bsp->seg[i].line; }

void pdt_bsp_segment_ends(mpq_ptr x1, mpq_ptr y1, mpq_ptr x2, mpq_ptr y2, const pdt_bsp *bsp, size_t i)
{
    const bsp_segment *s = &bsp->seg[i];
    mpq_set(x1, s->a.x);
    mpq_set(y1, s->a.y);
    mpq_set(x2, s->b.x);
    mpq_set(y2, s->b.y);
}
