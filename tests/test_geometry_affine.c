/* Affine independence and the exact barycentric weighted sign, against the
 * independent oracle of tests/support/geom_oracle.c and hand-computed cases. */
#include "test_util.h"

#include "geom_oracle.h"
#include "pdt_geometry.h"

#define PTS(...) ((const int64_t[]){__VA_ARGS__}) /* points, row after row */
#define S(...) ((const int[]){__VA_ARGS__})        /* the weights s_i */

/* The k rows of p (points of R^n, n = p->cols) padded with a ones column. */
static void homogenise(go_matrix *h, const go_matrix *p)
{
    size_t n = p->cols;
    go_init(h, p->rows, n + 1);
    for (size_t i = 0; i < p->rows; i++) {
        for (size_t j = 0; j < n; j++) mpq_set(h->q[i * (n + 1) + j], p->q[i * n + j]);
        mpq_set_ui(h->q[i * (n + 1) + n], 1, 1);
    }
}

static bool check_independent(const go_matrix *p, unsigned ulps, pdt_geom_stats *st)
{
    go_matrix h;
    homogenise(&h, p);
    bool want = go_rank(&h) == p->rows;
    go_clear(&h);
    const double *pts[GO_MAX];
    for (size_t i = 0; i < p->rows; i++) pts[i] = &p->d[i * p->cols];
    bool got = pdt_affinely_independent(p->cols, p->rows, pts, ulps, go_entry, (void *)p, st);
    assert_int_equal(got, want);
    return want;
}

static void set_points(go_matrix *p, const int64_t *num, int exp10)
{
    for (size_t k = 0; k < p->rows * p->cols; k++) go_set_decimal(p, k, num[k], exp10);
}

/* ---------------------------------------------------- affine independence */

static void test_geometry_affine_independent_random(void **state)
{
    tu_rng r = {21};
    int outcome[2] = {0};
    pdt_geom_stats st = {0};
    for (size_t n = 1; n <= 7; n++)
        for (size_t k = 0; k <= n + 2 && k <= GO_MAX; k++)
            for (int t = 0; t < 60; t++) {
                go_matrix p;
                go_init(&p, k, n);
                int64_t num[GO_MAX * GO_MAX];
                for (size_t c = 0; c < k * n; c++) num[c] = go_rand_range(&r.s, t < 10 ? 1 : 999);
                if (k >= 2 && t % 2) { /* last point: an affine combination of the others */
                    int64_t w[GO_MAX], sum = 0;
                    for (size_t i = 0; i + 2 < k; i++) sum += w[i] = go_rand_range(&r.s, 3);
                    w[k - 2] = 1 - sum;
                    for (size_t j = 0; j < n; j++) {
                        num[(k - 1) * n + j] = 0;
                        for (size_t i = 0; i + 1 < k; i++)
                            num[(k - 1) * n + j] += w[i] * num[i * n + j];
                    }
                }
                set_points(&p, num, -2);
                outcome[check_independent(&p, 1, &st)]++;
                go_clear(&p);
            }
    assert_true(outcome[0] > 500 && outcome[1] > 500);
    assert_true(st.exact > 300 && st.filtered > 300);
}

static void test_geometry_affine_independent_cases(void **state)
{
    pdt_geom_stats st = {0};
    go_matrix p;
    /* Collinear decimals in R^2 (doubles not collinear): dependent, certified exactly. */
    go_init(&p, 3, 2);
    set_points(&p, PTS(1, 2, 3, 4, 5, 6), -1);
    assert_false(check_independent(&p, 1, &st));
    assert_int_equal(st.exact, 1);
    go_clear(&p);
    /* The same line in R^3: any two of the points independent, all three not. */
    go_init(&p, 3, 3);
    set_points(&p, PTS(1, 2, 3, 2, 4, 6, 3, 6, 9), -1);
    assert_false(check_independent(&p, 1, &st));
    p.rows = 2;
    assert_true(check_independent(&p, 1, &st));
    go_clear(&p);
    /* Duplicates. */
    go_init(&p, 2, 3);
    set_points(&p, PTS(7, -1, 3, 7, -1, 3), -3);
    assert_false(check_independent(&p, 1, &st));
    go_clear(&p);
    /* Independent points in the plane x = 0 of R^3: the minors with the x column
     * vanish, the filter must find another one. */
    go_init(&p, 3, 3);
    set_points(&p, PTS(0, 1, 2, 0, 5, -3, 0, 4, 4), -1);
    st = (pdt_geom_stats){0};
    assert_true(check_independent(&p, 1, &st));
    assert_int_equal(st.filtered, 1);
    go_clear(&p);
    /* Trivial sizes and too many points. */
    const double a[2] = {0.5, 0.5}, b[2] = {1, 2}, c[2] = {3, 1}, d[2] = {2, 2};
    const double *const pts[4] = {a, b, c, d};
    assert_true(pdt_affinely_independent(2, 0, pts, 0, NULL, NULL, NULL));
    assert_true(pdt_affinely_independent(2, 1, pts, 0, NULL, NULL, NULL));
    assert_true(pdt_affinely_independent(2, 3, pts, 0, NULL, NULL, NULL));
    assert_false(pdt_affinely_independent(2, 4, pts, 0, NULL, NULL, NULL));
    assert_false(pdt_affinely_independent(PDT_DET_MAX, 2, pts, 0, NULL, NULL, NULL));
    assert_false(pdt_affinely_independent(2, 2, NULL, 0, NULL, NULL, NULL));
    /* Exact doubles without a callback: (0.5,0.5), (1,2), (2,5) are collinear. */
    const double e[2] = {2, 5};
    const double *const line[3] = {a, b, e};
    assert_false(pdt_affinely_independent(2, 3, line, 0, NULL, NULL, NULL));
    assert_false(pdt_affinely_independent(2, 3, line, 1, NULL, NULL, NULL)); /* no exact entries */
}

/* ------------------------------------------------------- weighted sign */

/* Points p_0..p_{n-1} then x, one row each, as decimals num·10^exp10. */
static int weighted(size_t n, const int64_t *num, int exp10, const int *s)
{
    go_matrix p;
    go_init(&p, n + 1, n);
    set_points(&p, num, exp10);
    int sign = pdt_affine_weighted_sign(n, go_entry, &p, s);
    go_clear(&p);
    return sign;
}

static void test_geometry_affine_weighted_sign_1d_2d(void **state)
{
    assert_int_equal(weighted(1, PTS(2, 2), 0, S(-1)), -1);
    assert_int_equal(weighted(1, PTS(2, 2), 0, S(1)), 1);
    assert_int_equal(weighted(1, PTS(2, 3), 0, S(1)), 2); /* off the point */
    const int s[2] = {-1, 1};
    /* the line through (0,0) and (2,2) */
    assert_int_equal(weighted(2, PTS(0, 0, 2, 2, 1, 1), 0, s), 0);   /* midpoint */
    assert_int_equal(weighted(2, PTS(0, 0, 2, 2, 3, 3), 0, s), 1);   /* beyond p1 */
    assert_int_equal(weighted(2, PTS(0, 0, 2, 2, -1, -1), 0, s), -1); /* beyond p0 */
    assert_int_equal(weighted(2, PTS(0, 0, 2, 2, 1, 2), 0, s), 2);   /* off the line */
    assert_int_equal(weighted(2, PTS(0, 0, 2, 2, 2, 2), 0, s), 1);   /* at p1 */
    assert_int_equal(weighted(2, PTS(1, 1, 1, 1, 1, 1), 0, s), 2);   /* p0 = p1 */
    /* decimals: (0.1,0.1) (0.3,0.3), x = (0.2,0.2) is exactly the midpoint */
    assert_int_equal(weighted(2, PTS(1, 1, 3, 3, 2, 2), -1, s), 0);
    assert_int_equal(weighted(2, PTS(1, 1, 3, 3, 2, 2), -1, S(1, 1)), 1);
    /* a vertical line: the first coordinate gives no pivot, row pivoting needed */
    assert_int_equal(weighted(2, PTS(10, 0, 10, 50, 10, 40), -1, S(1, -1)), -1);
    assert_int_equal(weighted(2, PTS(10, 0, 10, 50, 10, 25), -1, S(1, -1)), 0);
    assert_int_equal(pdt_affine_weighted_sign(0, go_entry, NULL, s), 2);
    assert_int_equal(pdt_affine_weighted_sign(PDT_DET_MAX + 1, go_entry, NULL, s), 2);
}

static void test_geometry_affine_weighted_sign_3d(void **state)
{
    /* the plane z = 0 through (0,0,0) (1,0,0) (0,1,0) */
#define PLANE 0, 0, 0, 100, 0, 0, 0, 100, 0
    /* x = (0.25, 0.25, 0): λ = (0.5, 0.25, 0.25) */
    assert_int_equal(weighted(3, PTS(PLANE, 25, 25, 0), -2, S(1, -1, -1)), 0);
    assert_int_equal(weighted(3, PTS(PLANE, 25, 25, 0), -2, S(1, 1, -1)), 1);
    assert_int_equal(weighted(3, PTS(PLANE, 25, 25, 0), -2, S(-1, 1, 1)), 0);
    assert_int_equal(weighted(3, PTS(PLANE, 25, 25, 0), -2, S(-1, -1, 1)), -1);
    /* x = (0.2, 0.2, 0): λ = (0.6, 0.2, 0.2) */
    assert_int_equal(weighted(3, PTS(PLANE, 20, 20, 0), -2, S(1, -1, -1)), 1);
    assert_int_equal(weighted(3, PTS(PLANE, 0, 0, 100), -2, S(1, -1, -1)), 2);
#undef PLANE
    /* the tilted plane x + y + z = 1 through (0,0,1) (0,1,0) (1,0,0); x = (0.5, 0.5, 0) */
#define TILT 0, 0, 10, 0, 10, 0, 10, 0, 0
    assert_int_equal(weighted(3, PTS(TILT, 5, 5, 0), -1, S(1, 1, -1)), 0);
    assert_int_equal(weighted(3, PTS(TILT, 5, 5, 0), -1, S(-1, 1, 1)), 1);
    assert_int_equal(weighted(3, PTS(TILT, 5, 5, 0), -1, S(1, -1, -1)), -1);
    assert_int_equal(weighted(3, PTS(TILT, 5, 5, 5), -1, S(1, -1, -1)), 2);
    /* beyond p2 along p1 → p2: x = 2·p2 − p1 = (2, −1, 0), λ = (0, −1, 2) */
    assert_int_equal(weighted(3, PTS(TILT, 20, -10, 0), -1, S(-1, 1, 1)), 1);
    assert_int_equal(weighted(3, PTS(TILT, 20, -10, 0), -1, S(1, 1, -1)), -1);
#undef TILT
    /* dependent: p2 = 2·p1 − p0 */
    assert_int_equal(weighted(3, PTS(0, 0, 1, 1, 1, 2, 2, 2, 3, 1, 1, 2), 0, S(1, 1, 1)), 2);
}

/* Random λ with Σ λ_i = 1; on tie trials (n >= 2) s_0 = +1, s_1 = −1 and both
 * sign classes get weight 1/2, so Σ s_i λ_i = 0 exactly. */
static void random_lambda(mpq_t *lambda, int *s, size_t n, bool tie, tu_rng *r)
{
    mpq_t rest[2];
    mpq_inits(rest[0], rest[1], NULL);
    mpq_set_ui(rest[0], tie ? 1 : 0, tie ? 2 : 1);
    mpq_set_ui(rest[1], tie ? 1 : 1, tie ? 2 : 1);
    for (size_t i = 0; i < n; i++) {
        s[i] = tu_below(r, 2) ? 1 : -1;
        mpq_set_si(lambda[i], go_rand_range(&r->s, 20), 1 + tu_below(r, 9));
        mpq_canonicalize(lambda[i]);
    }
    if (tie) s[0] = 1, s[1] = -1;
    for (size_t i = tie ? 2 : 1; i < n; i++) {
        mpq_ptr class_rest = rest[tie ? s[i] < 0 : 1];
        mpq_sub(class_rest, class_rest, lambda[i]);
    }
    mpq_set(lambda[0], rest[tie ? 0 : 1]);
    if (tie) mpq_set(lambda[1], rest[1]);
    mpq_clears(rest[0], rest[1], NULL);
}

/* Random points (sometimes with a duplicate), x = Σ λ_i p_i exactly. */
static void test_geometry_affine_weighted_sign_random(void **state)
{
    tu_rng r = {22};
    int outcome[4] = {0};
    mpq_t lambda[GO_MAX], sum, t;
    for (size_t i = 0; i < GO_MAX; i++) mpq_init(lambda[i]);
    mpq_inits(sum, t, NULL);
    for (size_t n = 1; n <= 8; n++)
        for (int trial = 0; trial < 150; trial++) {
            go_matrix p, h, sq;
            go_init(&p, n + 1, n);
            for (size_t k = 0; k < n * n; k++)
                go_set_decimal(&p, k, go_rand_range(&r.s, 99), -(int)tu_below(&r, 3));
            if (n >= 2 && trial % 7 == 3)
                for (size_t j = 0; j < n; j++) mpq_set(p.q[(n - 1) * n + j], p.q[j]);
            int s[GO_MAX];
            random_lambda(lambda, s, n, n >= 2 && trial % 3 == 0, &r);
            mpq_set_ui(sum, 0, 1);
            for (size_t i = 0; i < n; i++) {
                mpq_set_si(t, s[i], 1);
                mpq_mul(t, t, lambda[i]);
                mpq_add(sum, sum, t);
            }
            for (size_t j = 0; j < n; j++) { /* x_j = Σ λ_i p_ij */
                mpq_ptr x = p.q[n * n + j];
                mpq_set_ui(x, 0, 1);
                for (size_t i = 0; i < n; i++) {
                    mpq_mul(t, lambda[i], p.q[i * n + j]);
                    mpq_add(x, x, t);
                }
            }
            p.rows = n;
            homogenise(&h, &p);
            bool independent = go_rank(&h) == n;
            p.rows = n + 1;
            int want = independent ? mpq_sgn(sum) : 2;
            assert_int_equal(pdt_affine_weighted_sign(n, go_entry, &p, s), want);
            outcome[want + 1]++;
            /* Nudge x along a coordinate: off the hyperplane unless that direction lies in it. */
            mpq_set_si(t, 1, 1000003);
            size_t j = n * n + tu_below(&r, (uint32_t)n);
            mpq_add(p.q[j], p.q[j], t);
            homogenise(&sq, &p);
            int got = pdt_affine_weighted_sign(n, go_entry, &p, s);
            if (!independent || go_det_sign(&sq) != 0) assert_int_equal(got, 2);
            else assert_true(got >= -1 && got <= 1);
            go_clear(&sq);
            go_clear(&h);
            go_clear(&p);
        }
    assert_true(outcome[0] > 100 && outcome[1] > 100 && outcome[2] > 100 && outcome[3] > 50);
    for (size_t i = 0; i < GO_MAX; i++) mpq_clear(lambda[i]);
    mpq_clears(sum, t, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry_affine_independent_random),
        cmocka_unit_test(test_geometry_affine_independent_cases),
        cmocka_unit_test(test_geometry_affine_weighted_sign_1d_2d),
        cmocka_unit_test(test_geometry_affine_weighted_sign_3d),
        cmocka_unit_test(test_geometry_affine_weighted_sign_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
