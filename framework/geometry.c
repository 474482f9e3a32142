/* Filtered geometric predicates: a double-precision determinant with a proven
 * error bound (docs/exactness.md), exact GMP evaluation when it cannot decide.
 *
 * The bound assumes IEEE double arithmetic, round to nearest, each operation
 * rounded separately: no excess precision, no reassociation, and no fused
 * multiply-add contraction (CMakeLists.txt compiles this file with
 * -ffp-contract=off; the bound would survive contraction anyway, see the doc). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "geometry_exact.h"
#include "pdt_geometry.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the filter's error bound needs double evaluation without excess precision"
#endif
#ifdef __FAST_MATH__
#error "geometry.c must not be compiled with -ffast-math: the error bound needs IEEE arithmetic"
#endif
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define CELLS (PDT_DET_MAX * PDT_DET_MAX)
#define MAX_MINOR_TRIES 32 /* minors the independence filter tries before going exact */

/* τ_m = 2^-floor(900/m): when every nonzero |entry| >= τ_m, every product of at
 * most m entries is >= 2^-900, so neither dynamic programme underflows in a way
 * the bound does not cover (docs/exactness.md, "Range"). */
static const double range_floor[PDT_DET_MAX + 1] = {
    0, 0x1p-900, 0x1p-450, 0x1p-300, 0x1p-225, 0x1p-180, 0x1p-150,
    0x1p-128, 0x1p-112, 0x1p-100, 0x1p-90, 0x1p-81, 0x1p-75,
};

double pdt_det_filter_coefficient(size_t m, unsigned ulps)
{
    /* An integer below 2^37, times 1025/1024, times 2^-53: every step exact. */
    uint64_t k = (uint64_t)m * (m + 1) / 2 + (uint64_t)m * ulps;
    return (double)k * (1.0 + 0x1p-10) * 0x1p-53;
}

/* Next integer above x != 0 with the same number of set bits (Gosper's hack,
 * without the division). */
static unsigned next_subset(unsigned x)
{
    unsigned t = x | (x - 1);
    return (t + 1) | (((~t & -~t) - 1) >> (__builtin_ctz(x) + 1));
}

/* One minor by expansion along row r (the last row of the minor): the signed
 * sum over the columns j of S, in increasing order, of a[r][j]·D[S∖{j}], and
 * the same on magnitudes for the permanent.  Summed left to right. */
static void expand_minor(double *det, double *perm, const double *row, unsigned set, size_t r)
{
    double d = 0, p = 0, sign = (r & 1) ? -1.0 : 1.0;
    for (unsigned rest = set; rest; rest &= rest - 1) {
        unsigned bit = rest & -rest, sub = set ^ bit;
        double x = row[__builtin_ctz(bit)];
        d += sign * (x * det[sub]);
        p += fabs(x) * perm[sub];
        sign = -sign;
    }
    det[set] = d;
    perm[set] = p;
}

/* Determinant and permanent of |a| by expansion by minors over column subsets:
 * det[S] (|S| = r + 1) is the minor of rows 0..r and the columns in S. */
static inline __attribute__((always_inline)) void minors_dp(size_t m, const double *a, double *det,
                                                           double *perm)
{
    for (size_t j = 0; j < m; j++) {
        det[1u << j] = a[j];
        perm[1u << j] = fabs(a[j]);
    }
    const unsigned end = 1u << m;
    for (size_t r = 1; r < m; r++)
        for (unsigned set = (2u << r) - 1; set < end; set = next_subset(set))
            expand_minor(det, perm, a + r * m, set, r);
}

typedef enum { FILTER_DECIDED, FILTER_UNSURE, FILTER_RANGE, FILTER_NONFINITE } filter_result;

/* Checks the range precondition: entries finite, nonzero ones >= τ_m. */
static filter_result check_range(size_t m, const double *a)
{
    const double floor_m = range_floor[m];
    for (size_t k = 0; k < m * m; k++) {
        double x = fabs(a[k]);
        if (!(x <= DBL_MAX)) return FILTER_NONFINITE;
        if (x < floor_m && x != 0) return FILTER_RANGE;
    }
    return FILTER_DECIDED;
}

/* The filter proper on a matrix that passed check_range. */
static filter_result filter_run(size_t m, const double *a, unsigned ulps, int *sign)
{
    double det[1u << PDT_DET_MAX], perm[1u << PDT_DET_MAX];
    switch (m) { /* constant orders let the compiler unroll the small cases */
    case 2: minors_dp(2, a, det, perm); break;
    case 3: minors_dp(3, a, det, perm); break;
    case 4: minors_dp(4, a, det, perm); break;
    default: minors_dp(m, a, det, perm); break;
    }
    const double d = det[(1u << m) - 1], p = perm[(1u << m) - 1];
    if (!(fabs(d) <= DBL_MAX && p <= DBL_MAX)) return FILTER_RANGE;
    const double bound = pdt_det_filter_coefficient(m, ulps) * p;
    if (!(fabs(d) > bound)) return FILTER_UNSURE;
    *sign = d > 0 ? 1 : -1;
    return FILTER_DECIDED;
}

/* Binary exponent e with |x| in [2^(e-1), 2^e); x nonzero and finite. */
static int exponent_of(double x)
{
    int e;
    frexp(x, &e);
    return e;
}

/* Scales by powers of two, b = R·a·C with positive diagonal R, C (the sign of
 * the determinant is unchanged, the ulps contract carries over): every column,
 * then every row, gets its largest magnitude in [1/2, 1).  Each entry is scaled
 * in one step from the original; false when a nonzero entry would fall below
 * τ_m (where the scaling might round, or the range precondition fails). */
static bool scale_to_range(size_t m, double *b, const double *a)
{
    int col[PDT_DET_MAX], row[PDT_DET_MAX];
    for (size_t j = 0; j < m; j++) col[j] = INT_MIN;
    for (size_t i = 0; i < m; i++) row[i] = INT_MIN;
    for (size_t k = 0; k < m * m; k++)
        if (a[k] != 0 && exponent_of(a[k]) > col[k % m]) col[k % m] = exponent_of(a[k]);
    for (size_t k = 0; k < m * m; k++)
        if (a[k] != 0 && exponent_of(a[k]) - col[k % m] > row[k / m])
            row[k / m] = exponent_of(a[k]) - col[k % m];
    for (size_t k = 0; k < m * m; k++) {
        if (a[k] == 0) {
            b[k] = 0;
            continue;
        }
        b[k] = ldexp(a[k], -col[k % m] - row[k / m]);
        if (!(fabs(b[k]) >= range_floor[m])) return false;
    }
    return true;
}

/* Filter with one retry on a power-of-two scaled copy when the entries are
 * out of range; true when the sign is decided. */
static bool det_filter(size_t m, const double *a, unsigned ulps, int *sign)
{
    filter_result r = check_range(m, a);
    if (r == FILTER_DECIDED) r = filter_run(m, a, ulps, sign);
    if (r != FILTER_RANGE) return r == FILTER_DECIDED;
    double b[CELLS];
    return scale_to_range(m, b, a) && filter_run(m, b, ulps, sign) == FILTER_DECIDED;
}

/* -------------------------------------------------------------- exact path */

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
    if (det_filter(m, approx, ulps, &sign)) {
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

int pdt_orient(size_t n, const double *const *pts, unsigned ulps, pdt_entry_fn exact, void *ctx,
               pdt_geom_stats *stats)
{
    if (n + 1 > PDT_DET_MAX || !pts) return 2;
    double a[CELLS];
    homog_matrix(a, n + 1, n, pts);
    homog_ctx h = {exact, ctx, n};
    return pdt_det_sign(n + 1, a, ulps, exact ? homog_entry : NULL, &h, stats);
}

/* Filter on k×k minors of the k×(n+1) matrix a that keep the ones column (a
 * rank-k matrix has such a nonzero minor: extend the nonzero ones column to a
 * basis of the column space).  True when one is certified nonzero. */
static bool some_minor_nonzero(const double *a, size_t n, size_t k, unsigned ulps)
{
    double minor[CELLS];
    int tries = 0, sign;
    for (unsigned set = (1u << (k - 1)) - 1; set < (1u << n) && tries < MAX_MINOR_TRIES;
         set = next_subset(set), tries++) {
        unsigned cols[PDT_DET_MAX], c = 0;
        for (unsigned j = 0; j < n; j++)
            if (set >> j & 1) cols[c++] = j;
        cols[c] = (unsigned)n;
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < k; j++) minor[i * k + j] = a[i * (n + 1) + cols[j]];
        if (det_filter(k, minor, ulps, &sign)) return true;
    }
    return false;
}

bool pdt_affinely_independent(size_t n, size_t k, const double *const *pts, unsigned ulps,
                              pdt_entry_fn exact, void *ctx, pdt_geom_stats *stats)
{
    if (n + 1 > PDT_DET_MAX || k > n + 1) return false;
    if (k <= 1) return true;
    double a[CELLS];
    homog_matrix(a, k, n, pts);
    if (some_minor_nonzero(a, n, k, ulps)) {
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
