/* Exact linear algebra for the geometric predicates: integer Bareiss
 * elimination (determinant sign, rank) and the exact barycentric weighted sign.
 * Rare path: GMP scratch lives on the stack and is cleared before returning. */
#include "geometry_impl.h"

#define CELLS (PDT_DET_MAX * PDT_DET_MAX)

/* Reads row i (cols entries) and writes it scaled by the positive lcm of its
 * denominators, so the integer row has the same sign structure as the exact one. */
static void load_integer_row(mpz_t *row, size_t cols, size_t i, pdt_entry_fn entry, void *ctx)
{
    mpq_t q[PDT_DET_MAX];
    mpz_t lcm;
    mpz_init_set_ui(lcm, 1);
    for (size_t j = 0; j < cols; j++) {
        mpq_init(q[j]);
        entry(q[j], ctx, i, j);
        mpq_canonicalize(q[j]);
        mpz_lcm(lcm, lcm, mpq_denref(q[j]));
    }
    for (size_t j = 0; j < cols; j++) {
        mpz_divexact(row[j], lcm, mpq_denref(q[j]));
        mpz_mul(row[j], row[j], mpq_numref(q[j]));
        mpq_clear(q[j]);
    }
    mpz_clear(lcm);
}

static void swap_rows(mpz_t *m, size_t cols, size_t a, size_t b)
{
    for (size_t j = 0; j < cols; j++) mpz_swap(m[a * cols + j], m[b * cols + j]);
}

/* Fraction-free Gaussian elimination (Bareiss) with row pivoting and column
 * skipping, in place.  After the pivot (r, c) every entry (i, j), i > r, j > c,
 * is the minor of the pivot rows/columns so far plus row i and column j, so
 * each division by the previous pivot is exact (Sylvester's identity).
 * Returns the rank; *swaps_odd tells whether an odd number of row swaps was made. */
static size_t bareiss(mpz_t *m, size_t rows, size_t cols, int *swaps_odd)
{
    mpz_t prev;
    mpz_init_set_ui(prev, 1);
    size_t r = 0;
    *swaps_odd = 0;
    for (size_t c = 0; c < cols && r < rows; c++) {
        size_t p = r;
        while (p < rows && mpz_sgn(m[p * cols + c]) == 0) p++;
        if (p == rows) continue;
        if (p != r) {
            swap_rows(m, cols, p, r);
            *swaps_odd ^= 1;
        }
        const mpz_t *pivot_row = (const mpz_t *)&m[r * cols];
        for (size_t i = r + 1; i < rows; i++) {
            mpz_t *row = &m[i * cols];
            for (size_t j = c + 1; j < cols; j++) {
                mpz_mul(row[j], row[j], pivot_row[c]);
                mpz_submul(row[j], row[c], pivot_row[j]);
                mpz_divexact(row[j], row[j], prev);
            }
            mpz_set_ui(row[c], 0);
        }
        mpz_set(prev, pivot_row[c]);
        r++;
    }
    mpz_clear(prev);
    return r;
}

/* Loads the integer matrix, eliminates, and reports the rank and (for a
 * square matrix of full rank) the determinant sign. */
static size_t eliminate(size_t rows, size_t cols, pdt_entry_fn entry, void *ctx, int *det_sign)
{
    mpz_t m[CELLS];
    for (size_t k = 0; k < rows * cols; k++) mpz_init(m[k]);
    for (size_t i = 0; i < rows; i++) load_integer_row(&m[i * cols], cols, i, entry, ctx);
    int swaps_odd;
    size_t rank = bareiss(m, rows, cols, &swaps_odd);
    *det_sign = 0;
    if (rows == cols && rank == rows) {
        int s = mpz_sgn(m[rows * cols - 1]);
        *det_sign = swaps_odd ? -s : s;
    }
    for (size_t k = 0; k < rows * cols; k++) mpz_clear(m[k]);
    return rank;
}

int pdt_geom_exact_det_sign(size_t m, pdt_entry_fn entry, void *ctx)
{
    int sign;
    eliminate(m, m, entry, ctx, &sign);
    return sign;
}

size_t pdt_geom_exact_rank(size_t rows, size_t cols, pdt_entry_fn entry, void *ctx)
{
    int sign;
    return eliminate(rows, cols, entry, ctx, &sign);
}

/* ------------------------------------------------ barycentric weighted sign */

/* The n×n augmented system [p_1 − p_0 … p_{n−1} − p_0 | x − p_0], one row per
 * coordinate, with the unknowns λ_1..λ_{n−1}. */
static void load_system(mpq_t *a, size_t n, pdt_entry_fn pts, void *ctx)
{
    mpq_t p0;
    mpq_init(p0);
    for (size_t j = 0; j < n; j++) {
        pts(p0, ctx, 0, j);
        mpq_canonicalize(p0);
        for (size_t k = 1; k <= n; k++) {
            mpq_t *cell = &a[j * n + (k - 1)];
            pts(*cell, ctx, k, j);
            mpq_canonicalize(*cell);
            mpq_sub(*cell, *cell, p0);
        }
    }
    mpq_clear(p0);
}

/* Gaussian elimination of the n−1 unknown columns with row pivoting; false when
 * a column has no pivot (the points are affinely dependent). */
static bool forward_eliminate(mpq_t *a, size_t n, mpq_ptr f, mpq_ptr t)
{
    for (size_t c = 0; c + 1 < n; c++) {
        size_t p = c;
        while (p < n && mpq_sgn(a[p * n + c]) == 0) p++;
        if (p == n) return false;
        for (size_t j = 0; p != c && j < n; j++) mpq_swap(a[p * n + j], a[c * n + j]);
        for (size_t i = c + 1; i < n; i++) {
            if (mpq_sgn(a[i * n + c]) == 0) continue;
            mpq_div(f, a[i * n + c], a[c * n + c]);
            for (size_t j = c; j < n; j++) {
                mpq_mul(t, f, a[c * n + j]);
                mpq_sub(a[i * n + j], a[i * n + j], t);
            }
        }
    }
    return true;
}

/* Back substitution: the solution λ_{c+1} overwrites the right-hand side of
 * pivot row c.  Then returns sign(Σ s_i λ_i) with λ_0 = 1 − Σ_{i>=1} λ_i. */
static int weighted_sign(mpq_t *a, size_t n, const int *s, mpq_ptr t)
{
    for (size_t c = n - 1; c-- > 0;) {
        mpq_ptr rhs = a[c * n + n - 1];
        for (size_t k = c + 1; k + 1 < n; k++) {
            mpq_mul(t, a[c * n + k], a[k * n + n - 1]);
            mpq_sub(rhs, rhs, t);
        }
        mpq_div(rhs, rhs, a[c * n + c]);
    }
    mpq_t sum, lambda0;
    mpq_init(sum);
    mpq_init(lambda0);
    mpq_set_ui(lambda0, 1, 1);
    for (size_t c = 0; c + 1 < n; c++) {
        mpq_srcptr lambda = a[c * n + n - 1];
        mpq_sub(lambda0, lambda0, lambda);
        mpq_set_si(t, s[c + 1], 1);
        mpq_mul(t, t, lambda);
        mpq_add(sum, sum, t);
    }
    mpq_set_si(t, s[0], 1);
    mpq_mul(t, t, lambda0);
    mpq_add(sum, sum, t);
    int sign = mpq_sgn(sum);
    mpq_clear(sum);
    mpq_clear(lambda0);
    return sign;
}

int pdt_affine_weighted_sign(size_t n, pdt_entry_fn pts, void *ctx, const int *s)
{
    if (n == 0 || n > PDT_DET_MAX || !pts || !s) return 2;
    mpq_t a[CELLS], f, t;
    for (size_t k = 0; k < n * n; k++) mpq_init(a[k]);
    mpq_init(f);
    mpq_init(t);
    load_system(a, n, pts, ctx);
    int result = 2;
    /* After n−1 pivots the last row holds 0 … 0 | residual: x is on the hull iff it is 0. */
    if (forward_eliminate(a, n, f, t) && mpq_sgn(a[n * n - 1]) == 0)
        result = weighted_sign(a, n, s, t);
    mpq_clear(f);
    mpq_clear(t);
    for (size_t k = 0; k < n * n; k++) mpq_clear(a[k]);
    return result;
}
