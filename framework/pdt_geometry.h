/* Exact geometric predicates for rule plugins (hyperplanes, hypersurfaces, BSP).
 *
 * Every predicate first evaluates in double precision with a proven error
 * bound and falls back to exact GMP rational arithmetic only when the
 * floating-point result cannot decide the sign.  See docs/exactness.md. */
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
 * approx[i*m + j] must satisfy |approx - a| <= ulps · 2^-53 · |a| for the
 * exact entry a (ulps = 0: approx is exact; a correctly rounded decimal input
 * has ulps = 1; a product of g such inputs has ulps = 2g - 1).  The exact
 * entries are asked from `exact` only when the filter fails.  stats may be NULL. */
int pdt_det_sign(size_t m, const double *approx, unsigned ulps, pdt_entry_fn exact, void *ctx,
                 pdt_geom_stats *stats);

/* Orientation of n+1 points in R^n: the sign of
 *     det [ p_0 1 ; p_1 1 ; ... ; p_n 1 ]   (rows are the points, last column ones).
 * pts[k] points to the n approximate coordinates of point k; exact(out, ctx, k, j)
 * gives coordinate j of point k exactly.  ulps as for pdt_det_sign. */
int pdt_orient(size_t n, const double *const *pts, unsigned ulps, pdt_entry_fn exact, void *ctx,
               pdt_geom_stats *stats);

/* True when the k points (k <= n + 1) in R^n are affinely independent, i.e.
 * the k×(n+1) matrix [p_i 1] has rank k.  Arguments as for pdt_orient. */
bool pdt_affinely_independent(size_t n, size_t k, const double *const *pts, unsigned ulps,
                              pdt_entry_fn exact, void *ctx, pdt_geom_stats *stats);

/* For x lying in the affine hull of the n affinely independent points
 * p_0..p_{n-1} in R^n (a hyperplane), the unique λ with x = Σ λ_i p_i and
 * Σ λ_i = 1 exists; returns the sign of Σ λ_i · s_i where s_i ∈ {-1, +1}.
 * Exact (GMP) throughout: pts(out, ctx, k, j) gives coordinate j of point k for
 * k < n and of x for k == n.  Returns 2 when x is not in the affine hull or the
 * points are dependent (a caller bug). */
int pdt_affine_weighted_sign(size_t n, pdt_entry_fn pts, void *ctx, const int *s);

#ifdef __cplusplus
}
#endif
#endif
