/* Small exact linear algebra over GMP rationals, for rule plugins that need
 * equations of hyperplanes (describe, rendering) rather than signs. */
#ifndef PDT_LINALG_H
#define PDT_LINALG_H

#include "pdt_geometry.h"

/* The double to hand a filtered predicate for an exact value: mpq_get_d
 * (within 2 roundings, ulps = 2) when the value is safely inside the normal
 * double range, NaN otherwise (which sends the predicate to the exact path). */
double pdt_filter_double(mpq_srcptr q);

/* out = det(a) for the m×m row-major matrix a (a is destroyed). */
void pdt_mpq_det(mpq_ptr out, size_t m, mpq_t *a);

/* The affine function f(x) = Σ coef[j]·x[j] + coef[n] with
 * f(x) = det [ p_0 1 ; ... ; p_{n-1} 1 ; x 1 ]  (the orientation of x against
 * the n points in R^n); coef has n + 1 initialised entries.  pts(out, ctx, k, j)
 * gives coordinate j of point k. */
void pdt_hyperplane_equation(mpq_t *coef, size_t n, pdt_entry_fn pts, void *ctx);

/* Writes "2·x − 3·y ≤ 1" for Σ coef[j]·x_j + coef[n] ≤ 0, scaled to coprime
 * integers; names are the variable names. */
struct pdt_buf;
void pdt_buf_linear(struct pdt_buf *out, const mpq_t *coef, size_t n, const char *const *names,
                    const char *relation);

#endif
