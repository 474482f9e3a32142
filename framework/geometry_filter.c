/* Floating-point filters for determinant signs, with proven error bounds
 * (docs/exactness.md).  All of pdt's geometric floating-point arithmetic is in
 * this file.
 *
 * The bounds assume IEEE double arithmetic, round to nearest, each operation
 * rounded separately: no excess precision, no reassociation, and no fused
 * multiply-add contraction (CMakeLists.txt compiles this file with
 * -ffp-contract=off; the bounds would survive contraction anyway, see the doc). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "geometry_impl.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the filter's error bound needs double evaluation without excess precision"
#endif
#ifdef __FAST_MATH__
#error "geometry_filter.c must not be compiled with -ffast-math: the bounds need IEEE arithmetic"
#endif
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define CELLS (PDT_DET_MAX * PDT_DET_MAX)
#define COORD_RANGE 0x1p800 /* translated coordinates must lie in [2^-800, 2^800] (or be 0) */

/* τ_m = 2^-floor(900/m): when every nonzero |entry| >= τ_m, every product of at
 * most m entries is >= 2^-900, so no dynamic programme below underflows in a
 * way the bound does not cover (docs/exactness.md, "Range"). */
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

/* Gosper's hack without the division. */
unsigned pdt_geom_next_subset(unsigned x)
{
    unsigned t = x | (x - 1);
    return (t + 1) | (((~t & -~t) - 1) >> (__builtin_ctz(x) + 1));
}

/* ----------------------------------------------------- relative filter */

/* One minor by expansion along row r (the last row of the minor): the signed
 * sum over the columns j of S, in increasing order, of a[r][j]·D[S∖{j}], and
 * the same on magnitudes for the permanent.  Summed left to right. */
static inline __attribute__((always_inline)) void expand_terms(double *d_out, double *p_out,
                                                               const double *det, const double *perm,
                                                               const double *row, unsigned set, size_t r)
{
    double d = 0, p = 0, sign = (r & 1) ? -1.0 : 1.0;
    for (unsigned rest = set; rest; rest &= rest - 1) {
        unsigned bit = rest & -rest, sub = set ^ bit;
        double x = row[__builtin_ctz(bit)];
        d += sign * (x * det[sub]);
        p += fabs(x) * perm[sub];
        sign = -sign;
    }
    *d_out = d;
    *p_out = p;
}

static void expand_minor(double *det, double *perm, const double *row, unsigned set, size_t r)
{
    expand_terms(&det[set], &perm[set], det, perm, row, set, r);
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
        for (unsigned set = (2u << r) - 1; set < end; set = pdt_geom_next_subset(set))
            expand_minor(det, perm, a + r * m, set, r);
}

typedef enum { FILTER_DECIDED, FILTER_UNSURE, FILTER_RANGE, FILTER_NONFINITE } filter_result;

/* The range precondition: entries finite, nonzero ones >= τ_m. */
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

bool pdt_geom_filter_det(size_t m, const double *approx, unsigned ulps, int *sign)
{
    filter_result r = check_range(m, approx);
    if (r == FILTER_DECIDED) r = filter_run(m, approx, ulps, sign);
    if (r != FILTER_RANGE) return r == FILTER_DECIDED;
    double b[CELLS];
    return scale_to_range(m, b, approx) && filter_run(m, b, ulps, sign) == FILTER_DECIDED;
}

/* -------------------------------------------------------- mixed filter */

/* As expand_minor, plus R[S] = perm(|B|+α)[S] − perm(|B|)[S] by the
 * subtraction-free recurrence R[S] = Σ_j α_j·P[S∖j] + (|b_j| + α_j)·R[S∖j]. */
static void expand_minor_mixed(double *det, double *perm, double *extra, const double *row,
                               const double *alpha, unsigned set, size_t r)
{
    double d = 0, p = 0, q = 0, sign = (r & 1) ? -1.0 : 1.0;
    for (unsigned rest = set; rest; rest &= rest - 1) {
        unsigned bit = rest & -rest, sub = set ^ bit;
        int j = __builtin_ctz(bit);
        double x = row[j], al = alpha[j];
        d += sign * (x * det[sub]);
        p += fabs(x) * perm[sub];
        q += al * perm[sub] + (fabs(x) + al) * extra[sub];
        sign = -sign;
    }
    det[set] = d;
    perm[set] = p;
    extra[set] = q;
}

bool pdt_geom_filter_det_mixed(size_t m, const double *b, const double *alpha, int *sign)
{
    if (m == 0 || m >= PDT_DET_MAX) return false; /* keeps the tables at 2^11 entries */
    if (check_range(m, b) != FILTER_DECIDED || check_range(m, alpha) != FILTER_DECIDED) return false;
    double det[1u << (PDT_DET_MAX - 1)], perm[1u << (PDT_DET_MAX - 1)];
    double extra[1u << (PDT_DET_MAX - 1)];
    for (size_t j = 0; j < m; j++) {
        det[1u << j] = b[j];
        perm[1u << j] = fabs(b[j]);
        extra[1u << j] = alpha[j];
    }
    for (size_t r = 1; r < m; r++)
        for (unsigned set = (2u << r) - 1; set < (1u << m); set = pdt_geom_next_subset(set))
            expand_minor_mixed(det, perm, extra, b + r * m, alpha + r * m, set, r);
    const double d = det[(1u << m) - 1], p = perm[(1u << m) - 1], q = extra[(1u << m) - 1];
    if (!(fabs(d) <= DBL_MAX && p <= DBL_MAX && q <= DBL_MAX)) return false;
    /* error <= K(m,0)(1−u)·p + (1 + 2^-45)·q; the factors 1 + 2^-40 absorb the roundings here */
    const double bound = pdt_det_filter_coefficient(m, 0) * p * (1 + 0x1p-40) + q * (1 + 0x1p-40);
    if (!(fabs(d) > bound)) return false;
    *sign = d > 0 ? 1 : -1;
    return true;
}

bool pdt_geom_translate(double *b, double *alpha, size_t n, size_t rows, const double *const *pts,
                        unsigned ulps)
{
    /* c >= ρ/(1−ρ)/(1−u)^3 with ρ = (1+u)^ulps − 1; 4u|b| >= u|b|/(1−u) */
    const double c = (double)ulps * (1.0 + 0x1p-8) * 0x1p-53;
    for (size_t j = 0; j < n; j++) {
        double x0 = pts[0][j];
        if (!(fabs(x0) <= COORD_RANGE) || (x0 != 0 && fabs(x0) < 1 / COORD_RANGE)) return false;
        for (size_t i = 1; i <= rows; i++) {
            double x = pts[i][j];
            if (!(fabs(x) <= COORD_RANGE) || (x != 0 && fabs(x) < 1 / COORD_RANGE)) return false;
            double d = x - x0;
            b[(i - 1) * n + j] = d;
            alpha[(i - 1) * n + j] = fabs(d) * 0x1p-51 + (fabs(x) + fabs(x0)) * c;
        }
    }
    return true;
}

/* ------------------------------------------------ staged relative filter */

/* The same operations as minors_dp and filter_run, row by row (§3.11). */

static bool row_in_range(size_t m, const double *row)
{
    const double floor_m = range_floor[m];
    for (size_t j = 0; j < m; j++) {
        double x = fabs(row[j]);
        if (!(x <= DBL_MAX) || (x < floor_m && x != 0)) return false;
    }
    return true;
}

void pdt_minors_init(pdt_minors *mn, size_t m, unsigned ulps)
{
    mn->m = m;
    mn->rows = 0;
    mn->ulps = ulps;
    mn->bad = 0;
}

void pdt_minors_push(pdt_minors *mn, const double *row)
{
    const size_t m = mn->m, r = mn->rows;
    if (m < 2 || m > PDT_DET_MAX || r + 1 >= m) return;
    bool bad = !row_in_range(m, row);
    mn->bad_row[r] = bad;
    mn->bad += bad;
    mn->rows++;
    if (r == 0) {
        for (size_t j = 0; j < m; j++) {
            mn->det[1u << j] = row[j];
            mn->perm[1u << j] = fabs(row[j]);
        }
        return;
    }
    for (unsigned set = (2u << r) - 1; set < (1u << m); set = pdt_geom_next_subset(set))
        expand_minor(mn->det, mn->perm, row, set, r);
}

void pdt_minors_pop(pdt_minors *mn)
{
    if (mn->rows == 0) return;
    mn->rows--;
    mn->bad -= mn->bad_row[mn->rows];
}

int pdt_minors_last_sign(const pdt_minors *mn, const double *row)
{
    const size_t m = mn->m;
    if (m < 2 || m > PDT_DET_MAX || mn->rows + 1 != m || mn->bad || !row_in_range(m, row)) return 0;
    double d, p;
    expand_terms(&d, &p, mn->det, mn->perm, row, (1u << m) - 1, m - 1);
    if (!(fabs(d) <= DBL_MAX && p <= DBL_MAX)) return 0;
    const double bound = pdt_det_filter_coefficient(m, mn->ulps) * p;
    if (!(fabs(d) > bound)) return 0;
    return d > 0 ? 1 : -1;
}

bool pdt_minors_independent(const pdt_minors *mn)
{
    const size_t m = mn->m;
    if (m < 2 || m > PDT_DET_MAX || mn->rows + 1 != m || mn->bad) return false;
    const double coefficient = pdt_det_filter_coefficient(m - 1, mn->ulps);
    for (size_t j = 0; j < m; j++) {
        unsigned set = ((1u << m) - 1) ^ (1u << j);
        double d = mn->det[set], p = mn->perm[set];
        if (fabs(d) <= DBL_MAX && p <= DBL_MAX && fabs(d) > coefficient * p) return true;
    }
    return false;
}
