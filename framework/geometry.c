/* The public geometric predicates: floating-point filters first
 * (geometry_filter.c), exact GMP evaluation when they cannot decide
 * (geometry_exact.c).  See docs/exactness.md. */
#include <math.h>
#include <string.h>

#include "geometry_impl.h"

#define CELLS (PDT_DET_MAX * PDT_DET_MAX)
#define MAX_MINOR_TRIES 32 /* minors the independence filter tries per form */

/* ------------------------------------------------------------ exact path */

typedef struct doubles_ctx {
    const double *a;
    size_t cols;
} doubles_ctx;

static void doubles_entry(mpq_ptr out, void *ctx, size_t i, size_t j)
{
    const doubles_ctx *c = ctx;
    mpq_set_d(out, c->a[i * c->cols + j]);
}

static bool all_finite(const double *a, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (!isfinite(a[k])) return false;
    return true;
}

/* Exact sign, with the doubles as exact entries when no callback is given. */
static int det_exact(size_t m, const double *a, unsigned ulps, pdt_entry_fn exact, void *ctx)
{
    if (exact) return pdt_geom_exact_det_sign(m, exact, ctx);
    if (ulps != 0 || !all_finite(a, m * m)) return 2;
    doubles_ctx dc = {a, m};
    return pdt_geom_exact_det_sign(m, doubles_entry, &dc);
}

int pdt_det_sign(size_t m, const double *approx, unsigned ulps, pdt_entry_fn exact, void *ctx,
                 pdt_geom_stats *stats)
{
    if (m == 0 || m > PDT_DET_MAX || !approx) return 2;
    int sign;
    if (pdt_geom_filter_det(m, approx, ulps, &sign)) {
        if (stats) stats->filtered++;
        return sign;
    }
    if (stats) stats->exact++;
    return det_exact(m, approx, ulps, exact, ctx);
}

/* ----------------------------------------------- homogeneous point matrices */

/* Exact entries of [p_i 1]: the column n is the ones column. */
typedef struct homog_ctx {
    pdt_entry_fn exact;
    void *ctx;
    size_t n;
} homog_ctx;

static void homog_entry(mpq_ptr out, void *ctx, size_t i, size_t j)
{
    const homog_ctx *h = ctx;
    if (j == h->n) mpq_set_ui(out, 1, 1);
    else h->exact(out, h->ctx, i, j);
}

/* Row-major rows×(n+1) matrix [p_i 1]. */
static void homog_matrix(double *a, size_t rows, size_t n, const double *const *pts)
{
    for (size_t i = 0; i < rows; i++) {
        if (n) memcpy(a + i * (n + 1), pts[i], n * sizeof *a);
        a[i * (n + 1) + n] = 1;
    }
}

/* det [p_i 1] = (−1)^n det [p_i − p_0]_{i=1..n}: the translated form first (its
 * bound does not grow with the distance of the points from the origin), then
 * the homogeneous one. */
static bool orient_filter(size_t n, const double *const *pts, unsigned ulps, int *sign)
{
    double a[CELLS], alpha[CELLS];
    if (n > 0 && pdt_geom_translate(a, alpha, n, n, pts, ulps) &&
        pdt_geom_filter_det_mixed(n, a, alpha, sign)) {
        if (n % 2) *sign = -*sign;
        return true;
    }
    homog_matrix(a, n + 1, n, pts);
    return pdt_geom_filter_det(n + 1, a, ulps, sign);
}

int pdt_orient(size_t n, const double *const *pts, unsigned ulps, pdt_entry_fn exact, void *ctx,
               pdt_geom_stats *stats)
{
    if (n + 1 > PDT_DET_MAX || !pts) return 2;
    int sign;
    if (orient_filter(n, pts, ulps, &sign)) {
        if (stats) stats->filtered++;
        return sign;
    }
    if (stats) stats->exact++;
    double a[CELLS];
    homog_matrix(a, n + 1, n, pts);
    homog_ctx h = {exact, ctx, n};
    return det_exact(n + 1, a, ulps, exact ? homog_entry : NULL, &h);
}

/* ------------------------------------------------------ affine independence */

/* The k×k minor of the rows×cols matrix a on the columns in `set`, plus column
 * `last` when last < cols. */
static size_t pick_columns(double *minor, const double *a, size_t rows, size_t cols, unsigned set,
                           size_t last)
{
    size_t idx[PDT_DET_MAX], k = 0;
    for (size_t j = 0; j < cols; j++)
        if (set >> j & 1) idx[k++] = j;
    if (last < cols) idx[k++] = last;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < k; j++) minor[i * k + j] = a[i * cols + idx[j]];
    return k;
}

/* rank [p_i 1] = k iff rank [p_i − p_0]_{i>=1} = k − 1 iff some (k−1)-minor of
 * the differences is nonzero; tried with the mixed filter. */
static bool translated_minor_nonzero(size_t n, size_t k, const double *const *pts, unsigned ulps)
{
    double b[CELLS], alpha[CELLS], mb[CELLS], ma[CELLS];
    if (!pdt_geom_translate(b, alpha, n, k - 1, pts, ulps)) return false;
    int tries = 0, sign;
    for (unsigned set = (1u << (k - 1)) - 1; set < (1u << n) && tries < MAX_MINOR_TRIES;
         set = pdt_geom_next_subset(set), tries++) {
        pick_columns(mb, b, k - 1, n, set, n);
        size_t m = pick_columns(ma, alpha, k - 1, n, set, n);
        if (pdt_geom_filter_det_mixed(m, mb, ma, &sign)) return true;
    }
    return false;
}

/* The k×k minors of [p_i 1] that keep the ones column (a rank-k matrix has
 * one that is nonzero: extend the nonzero ones column to a basis of the column
 * space); tried with the relative filter. */
static bool homog_minor_nonzero(const double *a, size_t n, size_t k, unsigned ulps)
{
    double minor[CELLS];
    int tries = 0, sign;
    for (unsigned set = (1u << (k - 1)) - 1; set < (1u << n) && tries < MAX_MINOR_TRIES;
         set = pdt_geom_next_subset(set), tries++) {
        size_t m = pick_columns(minor, a, k, n + 1, set, n);
        if (pdt_geom_filter_det(m, minor, ulps, &sign)) return true;
    }
    return false;
}

bool pdt_affinely_independent(size_t n, size_t k, const double *const *pts, unsigned ulps,
                              pdt_entry_fn exact, void *ctx, pdt_geom_stats *stats)
{
    if (n + 1 > PDT_DET_MAX || k > n + 1) return false;
    if (k <= 1) return true;
    if (!pts) return false;
    double a[CELLS];
    homog_matrix(a, k, n, pts);
    if (translated_minor_nonzero(n, k, pts, ulps) || homog_minor_nonzero(a, n, k, ulps)) {
        if (stats) stats->filtered++;
        return true;
    }
    if (stats) stats->exact++;
    homog_ctx h = {exact, ctx, n};
    doubles_ctx dc = {a, n + 1};
    if (exact) return pdt_geom_exact_rank(k, n + 1, homog_entry, &h) == k;
    if (ulps != 0 || !all_finite(a, k * (n + 1))) return false;
    return pdt_geom_exact_rank(k, n + 1, doubles_entry, &dc) == k;
}
