/* Independent exact oracles for the geometry tests: determinant sign and rank
 * by rational Gaussian elimination (mpq), determinant by Laplace expansion, and
 * a test matrix with exact rational entries and their double approximations.
 * Written without looking at framework/geometry*.c on purpose. */
#ifndef PDT_GEOM_ORACLE_H
#define PDT_GEOM_ORACLE_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#define GO_MAX 12

/* A rows×cols matrix: exact rationals and doubles approximating them. */
typedef struct go_matrix {
    size_t rows, cols;
    mpq_t q[GO_MAX * GO_MAX];
    double d[GO_MAX * GO_MAX];
} go_matrix;

void go_init(go_matrix *a, size_t rows, size_t cols);
void go_clear(go_matrix *a);
/* Entry k (row-major) := num · 10^exp10 exactly, approximated by the correctly
 * rounded double (strtod of the decimal string). */
void go_set_decimal(go_matrix *a, size_t k, int64_t num, int exp10);
/* Entry k := the double x, exactly. */
void go_set_double(go_matrix *a, size_t k, double x);
/* Entry k := the product of entries i and j exactly, approximated by the
 * double product of their approximations. */
void go_set_product(go_matrix *a, size_t k, size_t i, size_t j);
/* pdt_entry_fn reading go_matrix entries; ctx is the go_matrix. */
void go_entry(mpq_ptr out, void *ctx, size_t i, size_t j);

/* Uniform integer in [−range, range] from a splitmix64 state (tu_rng's). */
int64_t go_rand_range(uint64_t *state, int64_t range);
/* The double as far from a as the ulps contract allows, |d − a| <=
 * (1 − 2^-10)·ulps·2^-53·|a|, on the side `away` (+1: |d| > |a|, −1: |d| < |a|);
 * a nonzero and in the normal range. */
double go_adversarial(mpq_srcptr a, int away, unsigned ulps);

/* Sign of det(q) for a square matrix by rational Gaussian elimination. */
int go_det_sign(const go_matrix *a);
/* Sign of det(q) by Laplace expansion along the first row (m <= 6). */
int go_det_sign_laplace(const go_matrix *a);
/* Rank of q by rational Gaussian elimination. */
size_t go_rank(const go_matrix *a);

#endif
