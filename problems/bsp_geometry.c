/* The exact geometry of auto-partitions, done once per input: which pairs
 * cross (rejected), which segments share a supporting line, where every line
 * cuts every segment (exact rational parameters), the elementary pieces
 * between consecutive cuts and, for every segment's line, the pieces lying
 * strictly left, strictly right or on it.  A region's fragments are exactly
 * the pieces it contains (a convex region meets a segment in one interval
 * whose ends are cut points), so the search works on piece bitsets. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "bsp_impl.h"
#include "pdt_geometry.h"

typedef struct orient_ctx {
    mpq_srcptr c[3][2];
} orient_ctx;

static void orient_entry(mpq_ptr out, void *ctx, size_t i, size_t j)
{
    mpq_set(out, ((const orient_ctx *)ctx)->c[i][j]);
}

int bsp_orient_sign(const bsp_point *a, const bsp_point *b, const bsp_point *c)
{
    const double *pts[3] = {a->d, b->d, c->d};
    orient_ctx ctx = {{{a->x, a->y}, {b->x, b->y}, {c->x, c->y}}};
    return pdt_orient(2, pts, 2, orient_entry, &ctx, NULL);
}

void bsp_orient_value(mpq_ptr out, const bsp_point *a, const bsp_point *b, const bsp_point *c)
{
    mpq_t u, v;
    mpq_inits(u, v, NULL);
    mpq_sub(u, b->x, a->x);
    mpq_sub(v, c->y, a->y);
    mpq_mul(out, u, v);
    mpq_sub(u, b->y, a->y);
    mpq_sub(v, c->x, a->x);
    mpq_mul(u, u, v);
    mpq_sub(out, out, u);
    mpq_clears(u, v, NULL);
}

/* ------------------------------------------------------------ crossings */

/* Collinear segments overlap when their projections on a coordinate axis
 * along the line share more than a point. */
static bool collinear_overlap(const bsp_segment *s, const bsp_segment *t)
{
    bool use_x = !mpq_equal(s->a.x, s->b.x);
    mpq_srcptr s0 = use_x ? s->a.x : s->a.y, s1 = use_x ? s->b.x : s->b.y;
    mpq_srcptr t0 = use_x ? t->a.x : t->a.y, t1 = use_x ? t->b.x : t->b.y;
    mpq_srcptr slo = mpq_cmp(s0, s1) < 0 ? s0 : s1, shi = slo == s0 ? s1 : s0;
    mpq_srcptr tlo = mpq_cmp(t0, t1) < 0 ? t0 : t1, thi = tlo == t0 ? t1 : t0;
    mpq_srcptr lo = mpq_cmp(slo, tlo) > 0 ? slo : tlo, hi = mpq_cmp(shi, thi) < 0 ? shi : thi;
    return mpq_cmp(lo, hi) < 0;
}

/* "(x, y)" where t crosses the line of s. */
static void crossing_text(pdt_buf *out, const bsp_segment *s, const bsp_segment *t)
{
    mpq_t oa, ob, lam, x, d;
    mpq_inits(oa, ob, lam, x, d, NULL);
    bsp_orient_value(oa, &s->a, &s->b, &t->a);
    bsp_orient_value(ob, &s->a, &s->b, &t->b);
    mpq_sub(d, oa, ob);
    mpq_div(lam, oa, d);
    pdt_buf_puts(out, "(");
    for (int k = 0; k < 2; k++) {
        mpq_srcptr a = k ? t->a.y : t->a.x, b = k ? t->b.y : t->b.x;
        mpq_sub(x, b, a);
        mpq_mul(x, x, lam);
        mpq_add(x, x, a);
        if (k) pdt_buf_puts(out, ", ");
        pdt_buf_mpq_decimal(out, x);
    }
    pdt_buf_puts(out, ")");
    mpq_clears(oa, ob, lam, x, d, NULL);
}

static pdt_status check_pair(const pdt_bsp *b, const bsp_segment *s, const bsp_segment *t, pdt_error *err)
{
    int o1 = bsp_orient_sign(&s->a, &s->b, &t->a), o2 = bsp_orient_sign(&s->a, &s->b, &t->b);
    if (o1 == 0 && o2 == 0) {
        if (!collinear_overlap(s, t)) return PDT_OK;
        return pdt_error_set(err, PDT_EINVAL, "%s:%zu: the segment overlaps the segment of line %zu "
                             "(collinear, sharing more than a point)", b->name, t->line, s->line);
    }
    if (o1 * o2 >= 0) return PDT_OK; /* t on one side of s's line, or touching it */
    int o3 = bsp_orient_sign(&t->a, &t->b, &s->a), o4 = bsp_orient_sign(&t->a, &t->b, &s->b);
    if (o3 * o4 >= 0) return PDT_OK;
    pdt_buf where;
    pdt_buf_init(&where);
    crossing_text(&where, s, t);
    pdt_status st = pdt_error_set(err, PDT_EINVAL, "%s:%zu: the segment crosses the segment of line %zu "
                                  "at %s", b->name, t->line, s->line, where.data ? where.data : "?");
    pdt_buf_clear(&where);
    return st;
}

pdt_status bsp_check_crossings(const pdt_bsp *b, pdt_error *err)
{
    for (size_t j = 1; j < b->n; j++)
        for (size_t i = 0; i < j; i++) {
            pdt_status st = check_pair(b, &b->seg[i], &b->seg[j], err);
            if (st) return st;
        }
    return PDT_OK;
}

/* ------------------------------------------------------------ pieces */

typedef struct cut {
    mpq_t lambda;
    uint32_t by; /* the segment whose line makes it */
} cut;

static int cut_cmp(const void *x, const void *y)
{
    int c = mpq_cmp(((const cut *)x)->lambda, ((const cut *)y)->lambda);
    return (c > 0) - (c < 0);
}

typedef struct build {
    pdt_bsp *b;
    signed char *sign; /* (s · n + t) · 2 + end: sign of orient(line s, endpoint of t) */
    int32_t *cut_at;   /* s · n + t: index of the cut of t by s's line, −1 for none */
    cut *scratch;
} build;

/* Sorted distinct cuts of segment t; records which cut each line makes. */
static pdt_status cut_segment(build *B, size_t t, pdt_error *err)
{
    pdt_bsp *b = B->b;
    bsp_segment *T = &b->seg[t];
    size_t m = 0;
    mpq_t ob, d;
    mpq_inits(ob, d, NULL);
    for (size_t s = 0; s < b->n; s++) {
        const signed char *sg = B->sign + (s * b->n + t) * 2;
        if (sg[0] * sg[1] >= 0) continue;
        cut *c = &B->scratch[m++];
        bsp_orient_value(c->lambda, &b->seg[s].a, &b->seg[s].b, &T->a);
        bsp_orient_value(ob, &b->seg[s].a, &b->seg[s].b, &T->b);
        mpq_sub(d, c->lambda, ob);
        mpq_div(c->lambda, c->lambda, d);
        c->by = (uint32_t)s;
    }
    mpq_clears(ob, d, NULL);
    qsort(B->scratch, m, sizeof *B->scratch, cut_cmp);
    T->cuts = malloc((m ? m : 1) * sizeof *T->cuts);
    if (!T->cuts) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    uint32_t k = 0;
    for (size_t i = 0; i < m; i++) {
        if (i == 0 || !mpq_equal(B->scratch[i].lambda, B->scratch[i - 1].lambda))
            mpq_init(T->cuts[k]), mpq_set(T->cuts[k], B->scratch[i].lambda), k++;
        B->cut_at[B->scratch[i].by * b->n + t] = (int32_t)k - 1;
    }
    T->n_pieces = k + 1;
    return PDT_OK;
}

static void line_ids(build *B)
{
    pdt_bsp *b = B->b;
    for (size_t t = 0; t < b->n; t++) {
        size_t s = 0;
        while (B->sign[(s * b->n + t) * 2] || B->sign[(s * b->n + t) * 2 + 1]) s++;
        b->seg[t].line_id = (uint32_t)s; /* the first segment on t's line (t at the latest) */
    }
}

static void fill_sides(build *B, size_t s)
{
    pdt_bsp *b = B->b;
    uint64_t *L = b->left + s * b->words, *R = b->right + s * b->words, *O = b->on + s * b->words;
    for (size_t t = 0; t < b->n; t++) {
        const bsp_segment *T = &b->seg[t];
        const signed char *sg = B->sign + (s * b->n + t) * 2;
        int32_t k = B->cut_at[s * b->n + t];
        for (uint32_t j = 0; j < T->n_pieces; j++) {
            int side = k >= 0 ? sg[(int32_t)j <= k ? 0 : 1] : (sg[0] ? sg[0] : sg[1]);
            uint64_t *dst = b->seg[s].line_id == T->line_id ? O : side > 0 ? L : R;
            pdt_bit_set(dst, T->first + j);
        }
    }
}

static pdt_status pieces_tables(build *B, pdt_error *err)
{
    pdt_bsp *b = B->b;
    size_t total = 0;
    for (size_t t = 0; t < b->n; t++) b->seg[t].first = (uint32_t)total, total += b->seg[t].n_pieces;
    b->n_pieces = total;
    b->words = pdt_bits_words(total);
    if ((double)b->n * (double)b->words * 24.0 > (double)((size_t)1 << 31))
        return pdt_error_set(err, PDT_ELIMIT, "%s: %zu segments cut into %zu pieces need too large side "
                             "tables", b->name, b->n, total);
    b->piece_seg = malloc(total * sizeof *b->piece_seg);
    b->left = calloc(b->n * b->words, sizeof *b->left);
    b->right = calloc(b->n * b->words, sizeof *b->right);
    b->on = calloc(b->n * b->words, sizeof *b->on);
    b->stamp = calloc(b->n, sizeof *b->stamp);
    if (!b->piece_seg || !b->left || !b->right || !b->on || !b->stamp)
        return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu pieces)", total);
    for (size_t t = 0; t < b->n; t++)
        for (uint32_t j = 0; j < b->seg[t].n_pieces; j++) b->piece_seg[b->seg[t].first + j] = (uint32_t)t;
    for (size_t s = 0; s < b->n; s++) fill_sides(B, s);
    return PDT_OK;
}

pdt_status bsp_build_pieces(pdt_bsp *b, pdt_error *err)
{
    const size_t n = b->n;
    build B = {b, malloc(n * n * 2), malloc(n * n * sizeof(int32_t)), malloc(n * sizeof(cut))};
    pdt_status st = B.sign && B.cut_at && B.scratch ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; B.scratch && i < n; i++) mpq_init(B.scratch[i].lambda);
    for (size_t s = 0; !st && s < n; s++)
        for (size_t t = 0; t < n; t++) {
            B.sign[(s * n + t) * 2] = (signed char)bsp_orient_sign(&b->seg[s].a, &b->seg[s].b, &b->seg[t].a);
            B.sign[(s * n + t) * 2 + 1] = (signed char)bsp_orient_sign(&b->seg[s].a, &b->seg[s].b, &b->seg[t].b);
            B.cut_at[s * n + t] = -1;
        }
    if (!st) line_ids(&B);
    for (size_t t = 0; !st && t < n; t++) st = cut_segment(&B, t, err);
    if (!st) st = pieces_tables(&B, err);
    for (size_t i = 0; B.scratch && i < n; i++) mpq_clear(B.scratch[i].lambda);
    free(B.sign);
    free(B.cut_at);
    free(B.scratch);
    return st;
}
