/* Exact rational determinants and hyperplane equations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pdt_linalg.h"
#include "pdt_plugin.h"

double pdt_filter_double(mpq_srcptr q)
{
    if (mpq_sgn(q) == 0) return 0.0;
    long num = (long)mpz_sizeinbase(mpq_numref(q), 2), den = (long)mpz_sizeinbase(mpq_denref(q), 2);
    if (num - den > 1000 || num - den < -1000) return NAN;
    return mpq_get_d(q);
}

void pdt_mpq_det(mpq_ptr out, size_t m, mpq_t *a)
{
    mpq_t t, u;
    mpq_inits(t, u, NULL);
    mpq_set_ui(out, 1, 1);
    for (size_t c = 0; c < m; c++) {
        size_t p = c;
        while (p < m && mpq_sgn(a[p * m + c]) == 0) p++;
        if (p == m) {
            mpq_set_ui(out, 0, 1);
            break;
        }
        if (p != c) {
            for (size_t j = 0; j < m; j++) mpq_swap(a[p * m + j], a[c * m + j]);
            mpq_neg(out, out);
        }
        mpq_mul(out, out, a[c * m + c]);
        for (size_t r = c + 1; r < m; r++) {
            if (mpq_sgn(a[r * m + c]) == 0) continue;
            mpq_div(t, a[r * m + c], a[c * m + c]);
            for (size_t j = c; j < m; j++) {
                mpq_mul(u, t, a[c * m + j]);
                mpq_sub(a[r * m + j], a[r * m + j], u);
            }
        }
    }
    mpq_clears(t, u, NULL);
}

/* Cofactor expansion of the orientation determinant along its last row. */
void pdt_hyperplane_equation(mpq_t *coef, size_t n, pdt_entry_fn pts, void *ctx)
{
    mpq_t *minor = malloc(n * n * sizeof *minor);
    if (!minor) return;
    for (size_t i = 0; i < n * n; i++) mpq_init(minor[i]);
    for (size_t col = 0; col <= n; col++) {
        /* minor without the last row and column `col`: rows are the n points */
        for (size_t k = 0; k < n; k++) {
            size_t jj = 0;
            for (size_t j = 0; j <= n; j++) {
                if (j == col) continue;
                if (j == n) mpq_set_ui(minor[k * n + jj], 1, 1);
                else pts(minor[k * n + jj], ctx, k, j);
                jj++;
            }
        }
        pdt_mpq_det(coef[col], n, minor);
        if ((n + col) % 2) mpq_neg(coef[col], coef[col]);
    }
    for (size_t i = 0; i < n * n; i++) mpq_clear(minor[i]);
    free(minor);
}

void pdt_buf_linear(pdt_buf *out, const mpq_t *coef, size_t n, const char *const *names,
                    const char *relation)
{
    mpz_t l, g, v;
    mpz_inits(l, g, v, NULL);
    mpz_set_ui(l, 1);
    for (size_t j = 0; j <= n; j++) mpz_lcm(l, l, mpq_denref(coef[j]));
    mpz_t *c = malloc((n + 1) * sizeof *c);
    if (!c) {
        mpz_clears(l, g, v, NULL);
        return;
    }
    for (size_t j = 0; j <= n; j++) {
        mpz_init(c[j]);
        mpz_divexact(c[j], l, mpq_denref(coef[j]));
        mpz_mul(c[j], c[j], mpq_numref(coef[j]));
        mpz_gcd(g, g, c[j]);
    }
    bool first = true;
    for (size_t j = 0; j < n; j++) {
        if (mpz_sgn(c[j]) == 0) continue;
        if (mpz_sgn(g)) mpz_divexact(c[j], c[j], g);
        mpz_abs(v, c[j]);
        const char *sign = mpz_sgn(c[j]) < 0 ? (first ? "−" : " − ") : (first ? "" : " + ");
        char *digits = mpz_get_str(NULL, 10, v);
        if (mpz_cmp_ui(v, 1) == 0) pdt_buf_printf(out, "%s%s", sign, names[j]);
        else pdt_buf_printf(out, "%s%s·%s", sign, digits ? digits : "?", names[j]);
        void (*gmp_free)(void *, size_t);
        mp_get_memory_functions(NULL, NULL, &gmp_free);
        if (digits) gmp_free(digits, strlen(digits) + 1);
        first = false;
    }
    if (first) pdt_buf_puts(out, "0");
    if (mpz_sgn(g)) mpz_divexact(c[n], c[n], g);
    mpz_neg(v, c[n]);
    bool negative = mpz_sgn(v) < 0;
    mpz_abs(v, v);
    char *digits = mpz_get_str(NULL, 10, v);
    pdt_buf_printf(out, " %s %s%s", relation, negative ? "−" : "", digits ? digits : "?");
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    if (digits) gmp_free(digits, strlen(digits) + 1);
    for (size_t j = 0; j <= n; j++) mpz_clear(c[j]);
    free(c);
    mpz_clears(l, g, v, NULL);
}
