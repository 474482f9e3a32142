/* Exact geometric predicates for rule plugins (hyperplanes, hypersurfaces, BSP).
 *
 * Every predicate first evaluates in double precision with a proven error
 * bound and falls back to exact GMP arithmetic only when the floating-point
 * result cannot decide the sign.  See docs/exactness.md for the proof.
 *
 * The approximation contract ("ulps").  Each approximate entry must be
 *     approx = a · (1 + δ)   with   |δ| <= (1 + 2^-53)^ulps − 1
 * for the exact entry a.  This holds when approx was obtained from a by at most
 * `ulps` roundings to nearest in a chain of multiplications, each rounding
 * landing in the normal double range [2^-1022, DBL_MAX] (or being exact):
 *   - ulps = 0: approx is a exactly (an integer or dyadic value that fits a double);
 *   - ulps = 1: approx is a decimal correctly rounded (strtod) to a normal double;
 *   - ulps = 2g − 1: approx is a product of g such decimals computed in double
 *     (g input roundings + g − 1 product roundings), e.g. a lifted monomial.
 * In particular approx is 0 exactly when a is 0.  A value that underflowed or
 * overflowed on the way does not satisfy the contract: pass NAN (any non-finite
 * approximation) for it instead; the predicate then defers to the exact path.
 * Rounding mode must be the default round-to-nearest.
 *
 * All functions are thread-safe (no global mutable state) and use at most
 * about 70 KB of stack; GMP scratch is allocated per exact evaluation.  Invalid
 * arguments (caller bugs) make the sign functions return 2, never a
 * valid-looking sign. */
#ifndef PDT_GEOMETRY_H
#define PDT_GEOMETRY_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PDT_DET_MAX 12 /* largest matrix order the predicates accept */

/* Counts of how predicates were decided (for tests and benchmarks). */
typedef struct pdt_geom_stats {
    uint64_t filtered; /* decided in floating point */
    uint64_t exact;    /* needed the GMP fallback */
} pdt_geom_stats;

/* Writes the exact entry (i, j) of a matrix. */
typedef void (*pdt_entry_fn)(mpq_ptr out, void *ctx, size_t i, size_t j);

/* Sign (-1, 0, +1) of det(A) for an m×m matrix, 1 <= m <= PDT_DET_MAX.
 * approx[i*m + j] approximates the exact entry a_ij under the ulps contract
 * above.  The exact entries are asked from `exact` only when the filter fails;
 * exact may be NULL when ulps == 0 (the doubles are then the exact entries).
 * stats may be NULL.  Returns 2 for m out of range, or when the exact path is
 * needed but no exact entries are available (exact == NULL, ulps > 0, or a
 * non-finite approx with ulps == 0). */
int pdt_det_sign(size_t m, const double *approx, unsigned ulps, pdt_entry_fn exact, void *ctx,
                 pdt_geom_stats *stats);

/* The filter's error coefficient K(m, ulps) = (m(m+1)/2 + m·ulps)·(1 + 2^-10)·2^-53:
 * the computed determinant is within fl(K · P) of the exact one, where P is the
 * computed permanent of |approx| (docs/exactness.md).  Exposed for tests. */
double pdt_det_filter_coefficient(size_t m, unsigned ulps);

/* Orientation of n+1 points in R^n: the sign of
 *     det [ p_0 1 ; p_1 1 ; ... ; p_n 1 ]   (rows are the points, last column ones),
 * 1 <= n + 1 <= PDT_DET_MAX.  pts[k] points to the n approximate coordinates of
 * point k; exact(out, ctx, k, j) gives coordinate j of point k exactly (it is
 * never asked for the ones column).  ulps, NULL exact and the return value 2
 * as for pdt_det_sign.  The filter works on the translated form
 * det [p_i − p_0] first, so points far from the origin are still decided in
 * floating point. */
int pdt_orient(size_t n, const double *const *pts, unsigned ulps, pdt_entry_fn exact, void *ctx,
               pdt_geom_stats *stats);

/* True when the k points in R^n are affinely independent, i.e. the k×(n+1)
 * matrix [p_i 1] has rank k.  k = 0 and k = 1 are independent; k > n + 1 never
 * is.  Arguments as for pdt_orient; false also for invalid arguments
 * (n + 1 > PDT_DET_MAX, or the exact path needed but unavailable). */
bool pdt_affinely_independent(size_t n, size_t k, const double *const *pts, unsigned ulps,
                              pdt_entry_fn exact, void *ctx, pdt_geom_stats *stats);

/* For x lying in the affine hull of the n affinely independent points
 * p_0..p_{n-1} in R^n (a hyperplane), the unique λ with x = Σ λ_i p_i and
 * Σ λ_i = 1 exists; returns the sign of Σ λ_i · s_i (s_i is usually ±1, any
 * int weight works).  Exact (GMP) throughout: pts(out, ctx, k, j) gives
 * coordinate j of point k for k < n and of x for k == n; 1 <= n <= PDT_DET_MAX.
 * Returns 2 when x is not in the affine hull, the points are dependent, or the
 * arguments are invalid (caller bugs). */
int pdt_affine_weighted_sign(size_t n, pdt_entry_fn pts, void *ctx, const int *s);

/* ------------------------------------------------ staged determinant filter
 *
 * For many determinants that share their first m − 1 rows (the orientation of
 * every data point against one tuple of defining points): the rows are pushed
 * one at a time, the minors of the rows pushed so far are kept, and the sign
 * for a last row costs m products.  The floating-point operations are exactly
 * those pdt_det_sign's relative filter performs on the whole matrix, in the
 * same order, so its proven bound applies unchanged (docs/exactness.md §3.11).
 * The filter only ever certifies a sign; 0 means "not decided" and the caller
 * must use an exact predicate.  Rows can be popped and pushed again, so nested
 * enumerations of tuples share their prefixes. */
typedef struct pdt_minors {
    size_t m;          /* matrix order, 2 <= m <= PDT_DET_MAX */
    size_t rows;       /* rows pushed so far (<= m − 1) */
    unsigned ulps;     /* the approximation contract of every entry */
    unsigned bad;      /* rows pushed that break the range precondition */
    bool bad_row[PDT_DET_MAX];
    double det[1u << PDT_DET_MAX], perm[1u << PDT_DET_MAX];
} pdt_minors;

void pdt_minors_init(pdt_minors *mn, size_t m, unsigned ulps);
/* Pushes row number mn->rows (m entries); needs mn->rows < m − 1. */
void pdt_minors_push(pdt_minors *mn, const double *row);
/* Forgets the last pushed row. */
void pdt_minors_pop(pdt_minors *mn);
/* With m − 1 rows pushed: the sign (±1) of the determinant whose last row is
 * `row`, or 0 when the filter cannot decide. */
int pdt_minors_last_sign(const pdt_minors *mn, const double *row);
/* With m − 1 rows pushed: true when one of their (m − 1)-minors is certified
 * nonzero (the rows are linearly independent); false means "not decided". */
bool pdt_minors_independent(const pdt_minors *mn);

#ifdef __cplusplus
}
#endif
#endif
