/* The staged filter pdt_minors (docs/exactness.md §3.11): a certified sign is
 * the exact sign; singular matrices are never decided; it decides exactly
 * when pdt_det_sign's filter does (same operations); popping rows and pushing
 * others gives the answers a fresh start gives; out-of-range rows defer. */
#include <math.h>
#include <string.h>

#include "geom_oracle.h"
#include "pdt_geometry.h"
#include "test_util.h"

/* Random decimal entries with d digits (0.x…), ulps 1. */
static void random_matrix(go_matrix *a, size_t m, uint64_t *rng, int digits)
{
    go_init(a, m, m);
    int64_t range = 1;
    for (int k = 0; k < digits; k++) range *= 10;
    for (size_t k = 0; k < m * m; k++) go_set_decimal(a, k, go_rand_range(rng, range), -digits);
}

static int staged_sign(const go_matrix *a, size_t m, unsigned ulps)
{
    pdt_minors mn;
    pdt_minors_init(&mn, m, ulps);
    for (size_t r = 0; r + 1 < m; r++) pdt_minors_push(&mn, a->d + r * m);
    return pdt_minors_last_sign(&mn, a->d + (m - 1) * m);
}

static void test_geometry_minors_agree_with_exact(void **state)
{
    (void)state;
    uint64_t rng = 77;
    size_t decided = 0, total = 0;
    for (size_t m = 2; m <= 9; m++)
        for (int t = 0; t < 300; t++) {
            go_matrix a;
            random_matrix(&a, m, &rng, 1 + t % 3);
            int s = staged_sign(&a, m, 1);
            int full = pdt_det_sign(m, a.d, 1, go_entry, &a, NULL);
            int exact = go_det_sign(&a);
            assert_int_equal(full, exact);
            if (s) assert_int_equal(s, exact), decided++;
            total++;
            go_clear(&a);
        }
    assert_true(decided > total * 9 / 10); /* random nonsingular input is decided in floating point */
}

/* Last row = sum of two earlier rows (exactly singular, doubles too): never decided. */
static void test_geometry_minors_singular(void **state)
{
    (void)state;
    uint64_t rng = 5;
    for (size_t m = 2; m <= 8; m++)
        for (int t = 0; t < 50; t++) {
            go_matrix a;
            go_init(&a, m, m);
            for (size_t k = 0; k < m * m; k++) go_set_decimal(&a, k, go_rand_range(&rng, 99), 0);
            for (size_t j = 0; j < m; j++) go_set_double(&a, (m - 1) * m + j, a.d[j] + (m > 2 ? a.d[m + j] : 0));
            assert_int_equal(go_det_sign(&a), 0);
            assert_int_equal(staged_sign(&a, m, 1), 0);
            go_clear(&a);
        }
}

/* Pushing, popping and pushing other rows = starting afresh. */
static void test_geometry_minors_pop(void **state)
{
    (void)state;
    uint64_t rng = 11;
    const size_t m = 6;
    go_matrix a, b;
    random_matrix(&a, m, &rng, 3);
    random_matrix(&b, m, &rng, 3);
    pdt_minors mn;
    pdt_minors_init(&mn, m, 1);
    for (size_t r = 0; r + 1 < m; r++) pdt_minors_push(&mn, a.d + r * m);
    pdt_minors_pop(&mn);
    pdt_minors_pop(&mn);
    for (size_t r = m - 3; r + 1 < m; r++) pdt_minors_push(&mn, b.d + r * m);
    go_matrix c; /* rows 0..2 of a, rows 3..5 of b: what a fresh staged run sees */
    go_init(&c, m, m);
    memcpy(c.d, a.d, 3 * m * sizeof *c.d);
    memcpy(c.d + 3 * m, b.d + 3 * m, 3 * m * sizeof *c.d);
    int s = pdt_minors_last_sign(&mn, b.d + (m - 1) * m);
    assert_int_equal(s, staged_sign(&c, m, 1));
    assert_true(s != 0);
    go_clear(&a);
    go_clear(&b);
    go_clear(&c);
}

static void test_geometry_minors_independence_and_range(void **state)
{
    (void)state;
    pdt_minors mn;
    const double r0[] = {1, 2, 3}, r1[] = {2, 4, 6}, r2[] = {0, 1, 5};
    pdt_minors_init(&mn, 3, 0);
    pdt_minors_push(&mn, r0);
    pdt_minors_push(&mn, r1); /* parallel to r0 */
    assert_false(pdt_minors_independent(&mn));
    pdt_minors_pop(&mn);
    pdt_minors_push(&mn, r2);
    assert_true(pdt_minors_independent(&mn));
    const double last[] = {1, 0, 0}, tiny[] = {1e-300, 0, 0}, nan_row[] = {NAN, 0, 0};
    assert_int_equal(pdt_minors_last_sign(&mn, last), 1); /* det [1 2 3; 0 1 5; 1 0 0] = 7 */
    assert_int_equal(pdt_minors_last_sign(&mn, tiny), 0); /* below the range floor: not decided */
    assert_int_equal(pdt_minors_last_sign(&mn, nan_row), 0);
    pdt_minors_pop(&mn);
    pdt_minors_push(&mn, nan_row);
    assert_false(pdt_minors_independent(&mn));
    assert_int_equal(pdt_minors_last_sign(&mn, last), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry_minors_agree_with_exact),
        cmocka_unit_test(test_geometry_minors_singular),
        cmocka_unit_test(test_geometry_minors_pop),
        cmocka_unit_test(test_geometry_minors_independence_and_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
