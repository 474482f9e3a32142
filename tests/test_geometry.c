/* Filtered determinant sign: every answer is checked against an independent
 * exact oracle (tests/support/geom_oracle.c), on random, near-degenerate,
 * underflowing and worst-case (contract-limit) inputs; plus the filter's
 * constant and contract.  Orientation: test_geometry_orient.c. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom_oracle.h"
#include "pdt_geometry.h"

/* pdt_det_sign on a square go_matrix must equal the oracle; returns the sign. */
static int check_det(const go_matrix *a, unsigned ulps, pdt_geom_stats *st)
{
    int want = go_det_sign(a);
    int got = pdt_det_sign(a->rows, a->d, ulps, go_entry, (void *)a, st);
    if (got != want) {
        fprintf(stderr, "det sign %d, oracle %d, m=%zu ulps=%u\n", got, want, a->rows, ulps);
        for (size_t k = 0; k < a->rows * a->cols; k++) fprintf(stderr, " %.17g", a->d[k]);
        fprintf(stderr, "\n");
    }
    assert_int_equal(got, want);
    return want;
}

/* ------------------------------------------------------------ the oracle */

static void test_geometry_oracle_agrees_with_laplace(void **state)
{
    tu_rng r = {1};
    for (size_t m = 1; m <= 5; m++)
        for (int t = 0; t < 200; t++) {
            go_matrix a;
            go_init(&a, m, m);
            for (size_t k = 0; k < m * m; k++) go_set_decimal(&a, k, go_rand_range(&r.s, 2), -1);
            assert_int_equal(go_det_sign(&a), go_det_sign_laplace(&a));
            go_clear(&a);
        }
}

/* ------------------------------------------------------- random matrices */

static void test_geometry_det_random_integers(void **state)
{
    static const int64_t ranges[] = {1, 3, 1000, 1000000000};
    tu_rng r = {2};
    pdt_geom_stats st = {0};
    int zeros = 0;
    for (size_t m = 1; m <= 8; m++)
        for (size_t ri = 0; ri < 4; ri++)
            for (int t = 0; t < 150; t++) {
                go_matrix a;
                go_init(&a, m, m);
                for (size_t k = 0; k < m * m; k++)
                    go_set_decimal(&a, k, go_rand_range(&r.s, ranges[ri]), 0);
                zeros += check_det(&a, 0, &st) == 0;
                go_clear(&a);
            }
    assert_true(zeros > 100); /* small ranges give singular matrices: the exact path ran */
    assert_true(st.exact >= (uint64_t)zeros);
    assert_int_equal(st.filtered + st.exact, 8 * 4 * 150);
}

static void test_geometry_det_random_decimals(void **state)
{
    tu_rng r = {3};
    pdt_geom_stats st = {0};
    for (size_t m = 1; m <= 8; m++)
        for (int t = 0; t < 400; t++) {
            go_matrix a;
            go_init(&a, m, m);
            int digits = 1 + (int)tu_below(&r, 6);
            for (size_t k = 0; k < m * m; k++)
                go_set_decimal(&a, k, go_rand_range(&r.s, 9), -digits + (int)tu_below(&r, 2));
            check_det(&a, 1, &st);
            go_clear(&a);
        }
    assert_true(st.exact > 0 && st.filtered > 0);
}

/* The exact path alone (NAN approximations force it) on random matrices. */
static void test_geometry_det_forced_exact_path(void **state)
{
    tu_rng r = {4};
    pdt_geom_stats st = {0};
    for (size_t m = 1; m <= PDT_DET_MAX; m++)
        for (int t = 0; t < 40; t++) {
            go_matrix a;
            go_init(&a, m, m);
            for (size_t k = 0; k < m * m; k++) {
                go_set_decimal(&a, k, go_rand_range(&r.s, t < 20 ? 2 : 999), -(int)tu_below(&r, 4));
                if (tu_below(&r, 2)) a.d[k] = NAN;
            }
            a.d[0] = NAN;
            check_det(&a, 1, &st);
            go_clear(&a);
        }
    assert_int_equal(st.filtered, 0);
    assert_int_equal(st.exact, PDT_DET_MAX * 40);
}

/* ------------------------------------------------- near-degenerate input */

/* Rows 0..m-2 random, the last a random integer combination of them, rows
 * shuffled; entries num·10^exp10 (decimals not representable in binary). */
static void make_singular(go_matrix *a, tu_rng *r, size_t m, int64_t range, int exp10)
{
    int64_t num[GO_MAX * GO_MAX] = {0};
    for (size_t k = 0; k < (m - 1) * m; k++) num[k] = go_rand_range(&r->s, range);
    for (size_t i = 0; i + 1 < m; i++) {
        int64_t c = go_rand_range(&r->s, 3);
        for (size_t j = 0; j < m; j++) num[(m - 1) * m + j] += c * num[i * m + j];
    }
    size_t swap = tu_below(r, (uint32_t)m);
    for (size_t j = 0; j < m; j++) {
        int64_t t = num[swap * m + j];
        num[swap * m + j] = num[(m - 1) * m + j];
        num[(m - 1) * m + j] = t;
    }
    for (size_t k = 0; k < m * m; k++) go_set_decimal(a, k, num[k], exp10);
}

static void test_geometry_det_near_singular(void **state)
{
    tu_rng r = {5};
    pdt_geom_stats st = {0};
    int signs[3] = {0};
    for (size_t m = 2; m <= 8; m++)
        for (int t = 0; t < 300; t++) {
            go_matrix a;
            go_init(&a, m, m);
            bool big = t % 2;
            make_singular(&a, &r, m, big ? 999999999999999 : 9, big ? -15 : -1);
            assert_int_equal(check_det(&a, 1, &st), 0);
            /* One unit in the last decimal: about 1e-15 relative for the big entries. */
            size_t k = tu_below(&r, (uint32_t)(m * m));
            mpq_t one;
            mpq_init(one);
            mpq_set_ui(one, 1, big ? 1000000000000000u : 10u);
            if (tu_below(&r, 2)) mpq_add(a.q[k], a.q[k], one);
            else mpq_sub(a.q[k], a.q[k], one);
            a.d[k] = mpq_get_d(a.q[k]); /* truncation: within 2 roundings, ulps 2 */
            signs[check_det(&a, 2, &st) + 1]++;
            mpq_clear(one);
            go_clear(&a);
        }
    assert_true(signs[0] > 100 && signs[2] > 100);
}

/* A product in the minors underflows while the permanent looks comfortably
 * large: a filter guarding underflow only by "permanent >= 1e-250" decides the
 * wrong sign here (det = a(ab − c) > 0 with a = 2^-600, b = 2^1000, c < ab). */
static void test_geometry_det_underflow_in_minor(void **state)
{
    const double a = 0x1p-600, b = 0x1p1000, c = 0x1p400 - 0x1p348;
    go_matrix m;
    go_init(&m, 3, 3);
    const double entries[9] = {a, 0, 1, 0, a, 0, c, 0, b};
    for (size_t k = 0; k < 9; k++) go_set_double(&m, k, entries[k]);
    double naive = c * (0 * 0 - 1 * a) + b * (a * a - 0 * 0); /* a·a underflows to 0 */
    assert_true(naive < 0);
    assert_int_equal(check_det(&m, 0, NULL), 1);
    assert_int_equal(pdt_det_sign(3, entries, 0, NULL, NULL, NULL), 1);
    go_clear(&m);
}

/* ------------------------------------ approximations at the contract limit */

/* Cyclic bidiagonal a_ii = x_i, a_i,i+1 = y_i with Πy = ±Πx chosen so det = 0
 * exactly, while every entry's first-order effect on det has the same sign:
 * moving |x̃| up and |ỹ| down by ε gives det(Ã) ≈ m·ε·perm(|A|), the largest
 * input error the bound must absorb (the m·ρ term is tight).  A filter that
 * ignored ulps decides a nonzero sign here. */
static void test_geometry_det_worst_case_input_error(void **state)
{
    static const unsigned ulps_list[] = {1, 2, 3, 5, 7};
    tu_rng r = {13};
    int ulps_blind_would_fail = 0;
    for (size_t m = 2; m <= PDT_DET_MAX; m++)
        for (size_t u = 0; u < 5; u++)
            for (int t = 0; t < 10; t++) {
                go_matrix a;
                go_init(&a, m, m);
                int64_t x[GO_MAX], y[GO_MAX];
                for (size_t i = 0; i < m; i++)
                    x[i] = y[i] = (1 + (int64_t)tu_below(&r, 999)) * (tu_below(&r, 2) ? 1 : -1);
                for (size_t i = m - 1; i > 0; i--) { /* y := a shuffle of x */
                    size_t j = tu_below(&r, (uint32_t)(i + 1));
                    int64_t tmp = y[i];
                    y[i] = y[j], y[j] = tmp;
                }
                if (m % 2) y[0] = -y[0]; /* det = Πx + (−1)^(m−1)·Πy = 0 */
                int dir = t % 2 ? 1 : -1;
                double px = 1, py = 1;
                for (size_t i = 0; i < m; i++) {
                    size_t kx = i * m + i, ky = i * m + (i + 1) % m;
                    go_set_decimal(&a, kx, x[i], -2);
                    go_set_decimal(&a, ky, y[i], -2);
                    px *= a.d[kx] = go_adversarial(a.q[kx], dir, ulps_list[u]);
                    py *= a.d[ky] = go_adversarial(a.q[ky], -dir, ulps_list[u]);
                }
                assert_int_equal(check_det(&a, ulps_list[u], NULL), 0);
                double naive = fabs(px) - fabs(py), perm = fabs(px) + fabs(py);
                ulps_blind_would_fail += fabs(naive) > 1.01 * pdt_det_filter_coefficient(m, 0) * perm;
                go_clear(&a);
            }
    assert_true(ulps_blind_would_fail > 150);
}

/* --------------------------------------------------- the filter filters */

static void test_geometry_filter_decides_random_input(void **state)
{
    tu_rng r = {11};
    for (size_t m = 1; m <= PDT_DET_MAX; m++) {
        pdt_geom_stats st = {0};
        int trials = m <= 8 ? 500 : 60;
        for (int t = 0; t < trials; t++) {
            go_matrix a;
            go_init(&a, m, m);
            for (size_t k = 0; k < m * m; k++) go_set_decimal(&a, k, go_rand_range(&r.s, 99999), -3);
            check_det(&a, 1, &st);
            go_clear(&a);
        }
        assert_int_equal(st.exact, 0);
        assert_int_equal(st.filtered, trials);
    }
}

static void test_geometry_exact_path_on_degenerate_input(void **state)
{
    tu_rng r = {12};
    for (size_t m = 2; m <= PDT_DET_MAX; m++) {
        pdt_geom_stats st = {0};
        for (int t = 0; t < 20; t++) {
            go_matrix a;
            go_init(&a, m, m);
            make_singular(&a, &r, m, 999, -2);
            assert_int_equal(check_det(&a, 1, &st), 0);
            go_clear(&a);
        }
        assert_int_equal(st.filtered, 0);
        assert_int_equal(st.exact, 20);
    }
}

/* ------------------------------------------------------------- contract */

static void test_geometry_det_without_callback(void **state)
{
    const double singular[4] = {1, 2, 2, 4}, regular[4] = {1, 2, 3, 4};
    pdt_geom_stats st = {0};
    assert_int_equal(pdt_det_sign(2, singular, 0, NULL, NULL, &st), 0); /* doubles are exact */
    assert_int_equal(st.exact, 1);
    assert_int_equal(pdt_det_sign(2, regular, 1, NULL, NULL, &st), -1); /* filter decides */
    assert_int_equal(pdt_det_sign(2, singular, 1, NULL, NULL, NULL), 2); /* exact needed, none */
    const double nan_entry[4] = {NAN, 2, 2, 4};
    assert_int_equal(pdt_det_sign(2, nan_entry, 0, NULL, NULL, NULL), 2);
    assert_int_equal(pdt_det_sign(0, regular, 0, NULL, NULL, NULL), 2);
    assert_int_equal(pdt_det_sign(PDT_DET_MAX + 1, regular, 0, NULL, NULL, NULL), 2);
    assert_int_equal(pdt_det_sign(2, NULL, 0, NULL, NULL, NULL), 2);
    const double p0[1] = {0.5}, p1[1] = {0.25};
    assert_int_equal(pdt_orient(1, (const double *const[]){p0, p1}, 0, NULL, NULL, NULL), 1);
    assert_int_equal(pdt_orient(1, (const double *const[]){p0, p0}, 0, NULL, NULL, NULL), 0);
    assert_int_equal(pdt_orient(PDT_DET_MAX, (const double *const[]){p0}, 0, NULL, NULL, NULL), 2);
}

/* out = γ_k = k·u / (1 − k·u), u = 2^-53. */
static void gamma_q(mpq_ptr out, unsigned long k)
{
    mpq_t ku;
    mpq_init(ku);
    mpz_set_ui(mpq_numref(ku), k);
    mpz_ui_pow_ui(mpq_denref(ku), 2, 53);
    mpq_canonicalize(ku);
    mpq_set_ui(out, 1, 1);
    mpq_sub(out, out, ku);
    mpq_div(out, ku, out);
    mpq_clear(ku);
}

/* out = base^e for a rational base. */
static void pow_q(mpq_ptr out, mpq_srcptr base, unsigned long e)
{
    mpz_pow_ui(mpq_numref(out), mpq_numref(base), e);
    mpz_pow_ui(mpq_denref(out), mpq_denref(base), e);
    mpq_canonicalize(out);
}

/* The exact error coefficient of docs/exactness.md, in rational arithmetic:
 *   e_1 = 0,  e_k = (1 + γ_{k−1})((1 + u)e_{k−1} + u + u') + γ_{k−1}   (u' = 2^-175)
 *   E = [e_m + ((1+u)^(m·ulps) − 1) / (2 − (1+u)^ulps)^m] / (1 − γ_{m(m+1)/2 − 1}). */
static void exact_coefficient(mpq_ptr total, size_t m, unsigned ulps)
{
    mpq_t u, up, one, e, g, t, x;
    mpq_inits(u, up, one, e, g, t, x, NULL);
    mpq_set_ui(one, 1, 1);
    mpz_ui_pow_ui(mpq_denref(u), 2, 53);
    mpz_set_ui(mpq_numref(u), 1);
    mpz_ui_pow_ui(mpq_denref(up), 2, 175);
    mpz_set_ui(mpq_numref(up), 1);
    mpq_add(t, one, u);
    for (size_t k = 2; k <= m; k++) {
        gamma_q(g, k - 1);
        mpq_mul(e, e, t);
        mpq_add(e, e, u);
        mpq_add(e, e, up);
        mpq_add(x, one, g);
        mpq_mul(e, e, x);
        mpq_add(e, e, g);
    }
    pow_q(x, t, ulps);  /* 1 + ρ */
    mpq_add(g, one, one);
    mpq_sub(g, g, x);   /* 1 − ρ */
    pow_q(g, g, m);
    pow_q(x, x, m);
    mpq_sub(x, x, one);
    mpq_div(x, x, g);
    mpq_add(e, e, x);
    gamma_q(g, m * (m + 1) / 2 - 1);
    mpq_sub(g, one, g);
    mpq_div(total, e, g);
    mpq_clears(u, up, one, e, g, t, x, NULL);
}

static void test_geometry_filter_coefficient_is_safe(void **state)
{
    static const unsigned ulps_list[] = {0, 1, 2, 3, 4, 5, 7, 9, 11, 15, 23, 31, 64, 100, 1000};
    mpq_t exact, k, one_minus_u;
    mpq_inits(exact, k, one_minus_u, NULL);
    mpz_ui_pow_ui(mpq_denref(one_minus_u), 2, 53);
    mpz_sub_ui(mpq_numref(one_minus_u), mpq_denref(one_minus_u), 1);
    for (size_t m = 1; m <= PDT_DET_MAX; m++)
        for (size_t i = 0; i < sizeof ulps_list / sizeof *ulps_list; i++) {
            exact_coefficient(exact, m, ulps_list[i]);
            /* fl(K·P) >= K·P·(1 − 2^-53) must still cover the exact coefficient. */
            mpq_set_d(k, pdt_det_filter_coefficient(m, ulps_list[i]));
            mpq_mul(k, k, one_minus_u);
            assert_true(mpq_cmp(k, exact) >= 0);
            /* and is tight to 0.2%: (d + m·ulps)/(d − 1 + m·ulps) aside */
            mpq_set_d(k, pdt_det_filter_coefficient(m, ulps_list[i]));
            double ratio = mpq_get_d(k) / mpq_get_d(exact);
            double slack = (double)(m * (m + 1) / 2 + m * ulps_list[i]) /
                           (double)(m * (m + 1) / 2 - 1 + m * ulps_list[i]);
            assert_true(m == 1 && ulps_list[i] == 0 ? ratio > 1 : ratio < slack * 1.002);
        }
    mpq_clears(exact, k, one_minus_u, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry_oracle_agrees_with_laplace),
        cmocka_unit_test(test_geometry_det_random_integers),
        cmocka_unit_test(test_geometry_det_random_decimals),
        cmocka_unit_test(test_geometry_det_forced_exact_path),
        cmocka_unit_test(test_geometry_det_near_singular),
        cmocka_unit_test(test_geometry_det_underflow_in_minor),
        cmocka_unit_test(test_geometry_det_worst_case_input_error),
        cmocka_unit_test(test_geometry_filter_decides_random_input),
        cmocka_unit_test(test_geometry_exact_path_on_degenerate_input),
        cmocka_unit_test(test_geometry_det_without_callback),
        cmocka_unit_test(test_geometry_filter_coefficient_is_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
