/* Internals of the geometric predicates, shared by geometry.c (the public
 * predicates), geometry_filter.c (all floating-point arithmetic: the filters
 * and their error bounds) and geometry_exact.c (GMP linear algebra).
 * docs/exactness.md proves the filters. */
#ifndef PDT_GEOMETRY_IMPL_H
#define PDT_GEOMETRY_IMPL_H

#include "pdt_geometry.h"

/* ------------------------------------------------------------- filters */

/* Relative filter: sign of det(A) for the m×m approx under the ulps contract.
 * True (and *sign = ±1) when decided; false when the exact path is needed.
 * Retries once on a power-of-two scaled copy when the entries are out of range. */
bool pdt_geom_filter_det(size_t m, const double *approx, unsigned ulps, int *sign);

/* Mixed filter: sign of det(B) for an m×m B known only through doubles b and
 * absolute bounds alpha, |b_ij − B_ij| <= alpha_ij (both arrays row-major). */
bool pdt_geom_filter_det_mixed(size_t m, const double *b, const double *alpha, int *sign);

/* Row i−1 of b (rows × n) := fl(pts[i] − pts[0]) for i = 1..rows, and alpha :=
 * bounds on |b − (exact p_i − exact p_0)| under the ulps contract of pts.
 * False when a coordinate is outside the range the bound is proven for. */
bool pdt_geom_translate(double *b, double *alpha, size_t n, size_t rows, const double *const *pts,
                        unsigned ulps);

/* Next integer above x != 0 with the same number of set bits. */
unsigned pdt_geom_next_subset(unsigned x);

/* ----------------------------------------------------------- exact path */

/* Sign of the determinant of the m×m matrix with exact entries entry(i, j),
 * 1 <= m <= PDT_DET_MAX. */
int pdt_geom_exact_det_sign(size_t m, pdt_entry_fn entry, void *ctx);

/* Rank of the rows×cols matrix with exact entries entry(i, j), both sizes
 * between 1 and PDT_DET_MAX. */
size_t pdt_geom_exact_rank(size_t rows, size_t cols, pdt_entry_fn entry, void *ctx);

#endif
