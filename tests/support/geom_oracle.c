/* Independent exact oracles for the geometry tests (see geom_oracle.h). */
#include "geom_oracle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void go_init(go_matrix *a, size_t rows, size_t cols)
{
    a->rows = rows;
    a->cols = cols;
    for (size_t k = 0; k < GO_MAX * GO_MAX; k++) {
        mpq_init(a->q[k]);
        a->d[k] = 0;
    }
}

void go_clear(go_matrix *a)
{
    for (size_t k = 0; k < GO_MAX * GO_MAX; k++) mpq_clear(a->q[k]);
}

void go_set_decimal(go_matrix *a, size_t k, int64_t num, int exp10)
{
    char text[64];
    snprintf(text, sizeof text, "%llde%d", (long long)num, exp10);
    a->d[k] = strtod(text, NULL);
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, (unsigned long)abs(exp10));
    mpq_set_si(a->q[k], 0, 1);
    mpz_set_si(mpq_numref(a->q[k]), (long)num);
    if (exp10 >= 0) mpz_mul(mpq_numref(a->q[k]), mpq_numref(a->q[k]), p);
    else mpz_set(mpq_denref(a->q[k]), p);
    mpq_canonicalize(a->q[k]);
    mpz_clear(p);
}

void go_set_double(go_matrix *a, size_t k, double x)
{
    a->d[k] = x;
    mpq_set_d(a->q[k], x);
}

void go_set_product(go_matrix *a, size_t k, size_t i, size_t j)
{
    mpq_mul(a->q[k], a->q[i], a->q[j]);
    a->d[k] = a->d[i] * a->d[j];
}

int64_t go_rand_range(uint64_t *state, int64_t range)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15)); /* splitmix64, as tu_rand */
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return (int64_t)(z % (uint64_t)(2 * range + 1)) - range;
}

double go_adversarial(mpq_srcptr a, int away, unsigned ulps)
{
    mpq_t lim, diff, dq;
    mpq_inits(lim, diff, dq, NULL);
    mpq_abs(lim, a);
    mpq_mul_2exp(diff, lim, 10);
    mpq_sub(lim, diff, lim); /* |a|·(2^10 − 1) */
    mpz_mul_ui(mpq_numref(lim), mpq_numref(lim), ulps);
    mpq_div_2exp(lim, lim, 63);
    const double toward = (away > 0) == (mpq_sgn(a) > 0) ? INFINITY : -INFINITY;
    double d = mpq_get_d(a), candidate = nextafter(d, mpq_sgn(a) * INFINITY);
    for (int first = 1;; first = 0) {
        mpq_set_d(dq, candidate);
        mpq_sub(diff, dq, a);
        mpq_abs(diff, diff);
        if (mpq_cmp(diff, lim) > 0 && !first) break;
        if (first) { /* start from the nearest double: truncated or the next one out */
            mpq_set_d(dq, d);
            mpq_sub(dq, dq, a);
            mpq_abs(dq, dq);
            if (mpq_cmp(diff, dq) < 0) d = candidate;
        } else {
            d = candidate;
        }
        candidate = nextafter(d, toward);
    }
    mpq_clears(lim, diff, dq, NULL);
    return d;
}

void go_entry(mpq_ptr out, void *ctx, size_t i, size_t j)
{
    const go_matrix *a = ctx;
    mpq_set(out, a->q[i * a->cols + j]);
}

/* Row echelon form of a copy by rational elimination; returns the rank and the
 * determinant sign (square matrices only, else 0). */
static size_t echelon(const go_matrix *a, int *det_sign)
{
    size_t rows = a->rows, cols = a->cols, rank = 0;
    mpq_t m[GO_MAX * GO_MAX], f, t;
    mpq_init(f);
    mpq_init(t);
    for (size_t k = 0; k < rows * cols; k++) {
        mpq_init(m[k]);
        mpq_set(m[k], a->q[k]);
    }
    int sign = 1;
    for (size_t c = 0; c < cols && rank < rows; c++) {
        size_t p = rank;
        while (p < rows && mpq_sgn(m[p * cols + c]) == 0) p++;
        if (p == rows) {
            sign = 0;
            continue;
        }
        if (p != rank) {
            for (size_t j = 0; j < cols; j++) mpq_swap(m[p * cols + j], m[rank * cols + j]);
            sign = -sign;
        }
        sign *= mpq_sgn(m[rank * cols + c]);
        for (size_t i = rank + 1; i < rows; i++) {
            mpq_div(f, m[i * cols + c], m[rank * cols + c]);
            for (size_t j = c; j < cols; j++) {
                mpq_mul(t, f, m[rank * cols + j]);
                mpq_sub(m[i * cols + j], m[i * cols + j], t);
            }
        }
        rank++;
    }
    for (size_t k = 0; k < rows * cols; k++) mpq_clear(m[k]);
    mpq_clear(f);
    mpq_clear(t);
    *det_sign = (rows == cols && rank == rows) ? sign : 0;
    return rank;
}

int go_det_sign(const go_matrix *a)
{
    int sign;
    echelon(a, &sign);
    return sign;
}

size_t go_rank(const go_matrix *a)
{
    int sign;
    return echelon(a, &sign);
}

/* det of the minor of rows first..m-1 and the columns in `cols` (bitmask). */
static void laplace(mpq_ptr out, const go_matrix *a, size_t first, unsigned cols)
{
    size_t m = a->cols;
    if (first == m) {
        mpq_set_ui(out, 1, 1);
        return;
    }
    mpq_t sub, t;
    mpq_init(sub);
    mpq_init(t);
    mpq_set_ui(out, 0, 1);
    int sign = 1;
    for (size_t j = 0; j < m; j++) {
        if (!(cols >> j & 1)) continue;
        laplace(sub, a, first + 1, cols & ~(1u << j));
        mpq_mul(t, sub, a->q[first * m + j]);
        if (sign > 0) mpq_add(out, out, t);
        else mpq_sub(out, out, t);
        sign = -sign;
    }
    mpq_clear(sub);
    mpq_clear(t);
}

int go_det_sign_laplace(const go_matrix *a)
{
    mpq_t d;
    mpq_init(d);
    laplace(d, a, 0, (1u << a->cols) - 1);
    int s = mpq_sgn(d);
    mpq_clear(d);
    return s;
}
