/* The lifting of the hypersurface plugin and its exact side tests (see
 * hypersurface.h).  The orientation of a point against a tuple is one
 * (G+1)×(G+1) determinant; the tuple's G rows are shared by every point, so
 * they are pushed once into a staged filter (pdt_minors) and each point costs
 * G + 1 products.  Undecided cases go to pdt_orient, which ends in GMP. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hypersurface.h"

/* Exponent vectors of total degree `left` for dimensions j.., largest first. */
static void list_monomials(hs_lift *L, uint8_t *e, size_t j, size_t left)
{
    if (j + 1 == L->d) {
        e[j] = (uint8_t)left;
        memcpy(L->exps[L->G++], e, L->d);
        return;
    }
    for (size_t k = left + 1; k-- > 0;) {
        e[j] = (uint8_t)k;
        list_monomials(L, e, j + 1, left - k);
    }
}

pdt_status hs_lift_init(hs_lift *L, size_t d, unsigned degree, pdt_error *err)
{
    memset(L, 0, sizeof *L);
    size_t g = degree ? degree : HS_DEFAULT_DEGREE;
    if (g < 2)
        return pdt_error_set(err, PDT_EINVAL, "option --degree: hypersurfaces have degree 2 or more "
                             "(degree 1 is --rules hyperplane)");
    /* G = C(d+g, g) − 1, computed until it passes the limit */
    uint64_t c = 1;
    for (size_t i = 1; i <= g && c <= HS_MAX_LIFTED + 1; i++) c = c * (d + i) / i;
    if (d < 1 || c - 1 > HS_MAX_LIFTED)
        return pdt_error_set(err, PDT_EINVAL, "degree %zu in %zu dimensions lifts to more than %d "
                             "monomials; the exact predicates handle at most %d (try a lower --degree)",
                             g, d, HS_MAX_LIFTED, HS_MAX_LIFTED);
    L->d = d;
    L->g = g;
    L->ulps = (unsigned)(3 * g - 1);
    uint8_t e[HS_MAX_LIFTED];
    for (size_t k = 1; k <= g; k++) list_monomials(L, e, 0, k);
    return PDT_OK;
}

double hs_filter_input(mpq_srcptr exact, double v)
{
    if (v != 0.0 && (!isnormal(v) || fabs(v) > 0x1p1000 || fabs(v) < 0x1p-1000)) return NAN;
    if (v == 0.0 && mpq_sgn(exact)) return NAN;
    return v;
}

void hs_lift_row(double *out, const hs_lift *L, const double *x)
{
    for (size_t k = 0; k < L->G; k++) {
        double v = 1.0;
        bool first = true;
        for (size_t j = 0; j < L->d; j++)
            for (uint8_t t = 0; t < L->exps[k][j]; t++) {
                v = first ? x[j] : v * x[j]; /* one rounding per product */
                first = false;
                if (v != 0.0 && !isnormal(v)) v = NAN; /* underflow/overflow: breaks the contract */
            }
        out[k] = v;
    }
    out[L->G] = 1.0;
}

void hs_lift_exact(mpq_ptr out, const hs_lift *L, const mpq_t *x, size_t k)
{
    mpq_set_ui(out, 1, 1);
    if (k >= L->G) return;
    for (size_t j = 0; j < L->d; j++)
        for (uint8_t t = 0; t < L->exps[k][j]; t++) mpq_mul(out, out, x[j]);
}

void hs_monomial_name(pdt_buf *out, const hs_lift *L, size_t k, const char *const *names)
{
    static const char *const sup[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    bool first = true;
    for (size_t j = 0; j < L->d; j++) {
        unsigned e = L->exps[k][j];
        if (!e) continue;
        pdt_buf_printf(out, "%s%s", first ? "" : "·", names[j]);
        if (e >= 10) pdt_buf_puts(out, sup[e / 10]);
        if (e >= 2) pdt_buf_puts(out, sup[e % 10]);
        first = false;
    }
}

/* ------------------------------------------------------------ data */

pdt_status hs_data_init(hs_data *hd, const pdt_dataset *ds, unsigned degree, pdt_error *err)
{
    memset(hd, 0, sizeof *hd);
    pdt_status s = hs_lift_init(&hd->L, pdt_dataset_dims(ds), degree, err);
    if (s) return s;
    size_t n = pdt_dataset_rows(ds), d = hd->L.d, w = hd->L.G + 1;
    hd->q = malloc((n * d + 1) * sizeof *hd->q);
    hd->x = malloc((n * w + 1) * sizeof *hd->x);
    if (!hd->q || !hd->x) {
        hs_data_clear(hd);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    double raw[HS_MAX_LIFTED];
    for (size_t i = 0; i < n; i++) {
        const double *row = pdt_dataset_row(ds, i);
        for (size_t j = 0; j < d; j++) {
            mpq_init(hd->q[i * d + j]);
            pdt_dataset_value_exact(hd->q[i * d + j], ds, i, j);
            raw[j] = hs_filter_input(hd->q[i * d + j], row[j]);
        }
        hd->n = i + 1;
        hs_lift_row(hd->x + i * w, &hd->L, raw);
    }
    return PDT_OK;
}

void hs_data_clear(hs_data *hd)
{
    if (hd->q)
        for (size_t k = 0; k < hd->n * hd->L.d; k++) mpq_clear(hd->q[k]);
    free(hd->q);
    free(hd->x);
    hd->q = NULL;
    hd->x = NULL;
    hd->n = 0;
}

bool hs_data_tuple(hs_eval *e, const hs_data *hd, const uint32_t *t)
{
    const mpq_t *pts[HS_MAX_LIFTED];
    const double *rows[HS_MAX_LIFTED];
    for (size_t k = 0; k < hd->L.G; k++) {
        pts[k] = hs_data_point(hd, t[k]);
        rows[k] = hs_data_row(hd, t[k]);
    }
    return hs_eval_tuple(e, pts, rows);
}

/* ------------------------------------------------------------ evaluation */

static void eval_entry(mpq_ptr out, void *ctx, size_t i, size_t j)
{
    const hs_eval *e = ctx;
    hs_lift_exact(out, e->L, e->pts[i], j);
}

void hs_eval_init(hs_eval *e, const hs_lift *L)
{
    memset(e, 0, offsetof(hs_eval, mn));
    e->L = L;
    e->G = L->G;
    pdt_minors_init(&e->mn, L->G + 1, L->ulps);
    e->stats = (pdt_geom_stats){0, 0};
}

bool hs_eval_tuple(hs_eval *e, const mpq_t *const *pts, const double *const *rows)
{
    size_t keep = 0;
    while (keep < e->n_set && e->pts[keep] == pts[keep] && e->rows[keep] == rows[keep]) keep++;
    while (e->mn.rows > keep) pdt_minors_pop(&e->mn);
    for (size_t k = keep; k < e->G; k++) {
        e->pts[k] = pts[k];
        e->rows[k] = rows[k];
        pdt_minors_push(&e->mn, rows[k]);
    }
    e->n_set = e->G;
    if (pdt_minors_independent(&e->mn)) {
        e->stats.filtered++;
        return true;
    }
    return pdt_affinely_independent(e->G, e->G, e->rows, e->L->ulps, eval_entry, e, &e->stats);
}

int hs_eval_sign(hs_eval *e, const mpq_t *x, const double *row)
{
    e->pts[e->G] = x;
    e->rows[e->G] = row;
    int s = pdt_minors_last_sign(&e->mn, row);
    if (s) {
        e->stats.filtered++;
        return s;
    }
    return pdt_orient(e->G, e->rows, e->L->ulps, eval_entry, e, &e->stats);
}

int hs_eval_on_surface(hs_eval *e, const mpq_t *x, int64_t mask)
{
    int s[HS_MAX_LIFTED];
    for (size_t k = 0; k < e->G; k++) s[k] = (mask >> k) & 1 ? -1 : 1;
    e->pts[e->G] = x;
    int sg = pdt_affine_weighted_sign(e->G, eval_entry, e, s);
    return sg == 2 ? 2 : sg <= 0 ? -1 : 1;
}

bool hs_eval_left(hs_eval *e, const mpq_t *x, const double *row, int64_t mask, bool *broken)
{
    int s = hs_eval_sign(e, x, row);
    if (s == 0) s = hs_eval_on_surface(e, x, mask);
    if (s == 2) *broken = true;
    return s < 0;
}
