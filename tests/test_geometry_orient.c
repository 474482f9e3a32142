/* Filtered orientation: every answer is checked against an independent exact
 * oracle (tests/support/geom_oracle.c), on random, collinear/coplanar decimal,
 * perturbed, duplicate, extreme-magnitude, lifted (ulps 3 and 5) and clustered
 * far-from-origin inputs. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom_oracle.h"
#include "pdt_geometry.h"

/* (n+1) points of R^n as the rows of p; the oracle sees [p 1]. */
static int check_orient(const go_matrix *p, unsigned ulps, pdt_geom_stats *st)
{
    size_t n = p->cols;
    go_matrix h;
    go_init(&h, n + 1, n + 1);
    for (size_t i = 0; i <= n; i++) {
        for (size_t j = 0; j < n; j++) mpq_set(h.q[i * (n + 1) + j], p->q[i * n + j]);
        mpq_set_ui(h.q[i * (n + 1) + n], 1, 1);
    }
    int want = go_det_sign(&h);
    go_clear(&h);
    const double *pts[GO_MAX];
    for (size_t i = 0; i <= n; i++) pts[i] = &p->d[i * n];
    int got = pdt_orient(n, pts, ulps, go_entry, (void *)p, st);
    assert_int_equal(got, want);
    return want;
}

/* ----------------------------------------------------------- orientation */

static void test_geometry_orient_random(void **state)
{
    tu_rng r = {6};
    pdt_geom_stats st = {0};
    for (size_t n = 1; n <= 5; n++)
        for (int t = 0; t < 800; t++) {
            go_matrix p;
            go_init(&p, n + 1, n);
            int64_t range = t < 200 ? 2 : 99999;
            for (size_t k = 0; k < (n + 1) * n; k++)
                go_set_decimal(&p, k, go_rand_range(&r.s, range), -(int)tu_below(&r, 5));
            check_orient(&p, 1, &st);
            go_clear(&p);
        }
    assert_true(st.exact > 0 && st.filtered > 0);
}

/* Points given as decimal strings; a row per point. */
static void set_points(go_matrix *p, const int64_t *num, int exp10)
{
    for (size_t k = 0; k < p->rows * p->cols; k++) go_set_decimal(p, k, num[k], exp10);
}

/* Exact orientation of the doubles themselves (not of the decimals they approximate). */
static int orient_of_doubles(const go_matrix *p)
{
    go_matrix d;
    go_init(&d, p->rows, p->cols);
    for (size_t k = 0; k < p->rows * p->cols; k++) go_set_double(&d, k, p->d[k]);
    const double *pts[GO_MAX];
    for (size_t i = 0; i < p->rows; i++) pts[i] = &d.d[i * p->cols];
    int s = pdt_orient(p->cols, pts, 0, go_entry, &d, NULL);
    go_clear(&d);
    return s;
}

static void test_geometry_orient_collinear_decimals(void **state)
{
    go_matrix p;
    go_init(&p, 3, 2);
    /* (0.1,0.2) (0.3,0.4) (0.5,0.6): collinear decimals whose doubles are not collinear. */
    set_points(&p, (const int64_t[]){1, 2, 3, 4, 5, 6}, -1);
    assert_int_equal(orient_of_doubles(&p), -1);
    pdt_geom_stats st = {0};
    assert_int_equal(check_orient(&p, 1, &st), 0);
    assert_int_equal(st.exact, 1);
    /* (0.1,0.1) (0.2,0.2) (0.3,0.3): here the doubles happen to be collinear too (y = x). */
    set_points(&p, (const int64_t[]){1, 1, 2, 2, 3, 3}, -1);
    assert_int_equal(orient_of_doubles(&p), 0);
    assert_int_equal(check_orient(&p, 1, NULL), 0);
    go_clear(&p);

    /* Four coplanar points of R^3 on z = x + y, in every order. */
    static const int64_t plane[4][3] = {{1, 2, 3}, {4, 5, 9}, {7, 1, 8}, {3, 3, 6}};
    static const int perm[6][4] = {{0, 1, 2, 3}, {1, 0, 2, 3}, {3, 2, 1, 0},
                                   {2, 3, 0, 1}, {0, 3, 1, 2}, {1, 2, 3, 0}};
    for (int q = 0; q < 6; q++) {
        go_init(&p, 4, 3);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                go_set_decimal(&p, (size_t)(i * 3 + j), plane[perm[q][i]][j], -1);
        assert_int_equal(check_orient(&p, 1, NULL), 0);
        go_clear(&p);
    }
}

static void test_geometry_orient_perturbed_collinear(void **state)
{
    /* (0.1,0.1) (0.2,0.2) (0.3, 0.3 + e): orient = 0.1·e, so its sign is sign(e). */
    static const int64_t eps[] = {1, -1, 3, -3, 100, -100};
    for (size_t t = 0; t < sizeof eps / sizeof *eps; t++)
        for (int scale = 16; scale <= 18; scale++) {
            go_matrix p;
            go_init(&p, 3, 2);
            int64_t s = 1;
            for (int k = 0; k < scale - 1; k++) s *= 10; /* 0.1 = s·10^-scale */
            set_points(&p, (const int64_t[]){s, s, 2 * s, 2 * s, 3 * s, 3 * s + eps[t]}, -scale);
            assert_int_equal(check_orient(&p, 1, NULL), eps[t] > 0 ? 1 : -1);
            go_clear(&p);
        }
    /* Random collinear triples (and 4 coplanar points) nudged by one unit in the 16th digit. */
    tu_rng r = {7};
    int signs[3] = {0};
    for (int t = 0; t < 2000; t++) {
        size_t n = 2 + (size_t)(t % 2);
        go_matrix p;
        go_init(&p, n + 1, n);
        int64_t base[4][3], num[12];
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) base[i][j] = go_rand_range(&r.s, 999);
        for (size_t j = 0; j < n; j++) { /* last point = affine combination of the first n */
            int64_t c = go_rand_range(&r.s, 5), d = go_rand_range(&r.s, 5);
            base[n][j] = base[0][j] + c * (base[1][j] - base[0][j]);
            if (n == 3) base[n][j] += d * (base[2][j] - base[0][j]);
        }
        for (size_t i = 0; i <= n; i++)
            for (size_t j = 0; j < n; j++) num[i * n + j] = base[i][j] * 10000000000000;
        num[tu_below(&r, (uint32_t)((n + 1) * n))] += tu_below(&r, 2) ? 1 : -1;
        set_points(&p, num, -16);
        signs[check_orient(&p, 1, NULL) + 1]++;
        go_clear(&p);
    }
    assert_true(signs[0] > 500 && signs[2] > 500);
}

static void test_geometry_orient_duplicates(void **state)
{
    tu_rng r = {8};
    for (size_t n = 1; n <= 5; n++)
        for (int t = 0; t < 100; t++) {
            go_matrix p;
            go_init(&p, n + 1, n);
            for (size_t k = 0; k < (n + 1) * n; k++)
                go_set_decimal(&p, k, go_rand_range(&r.s, 999999), -(int)tu_below(&r, 7));
            size_t a = tu_below(&r, (uint32_t)(n + 1));
            size_t b = (a + 1 + tu_below(&r, (uint32_t)n)) % (n + 1); /* b != a */
            for (size_t j = 0; j < n; j++) {
                mpq_set(p.q[b * n + j], p.q[a * n + j]);
                p.d[b * n + j] = p.d[a * n + j];
            }
            assert_int_equal(check_orient(&p, 1, NULL), 0);
            go_clear(&p);
        }
}

/* ----------------------------------------------- extreme magnitudes */

static void test_geometry_orient_huge_and_tiny(void **state)
{
    static const int exps[] = {200, -200, 290, -290};
    tu_rng r = {9};
    for (size_t e = 0; e < 4; e++) {
        pdt_geom_stats st = {0};
        for (size_t n = 1; n <= 5; n++)
            for (int t = 0; t < 200; t++) {
                go_matrix p;
                go_init(&p, n + 1, n);
                for (size_t k = 0; k < (n + 1) * n; k++)
                    go_set_decimal(&p, k, 100 + go_rand_range(&r.s, 99), exps[e]);
                check_orient(&p, 1, &st);
                go_clear(&p);
            }
        /* Uniformly huge or tiny points are rescaled by powers of two, not sent to GMP. */
        assert_true(st.exact < st.filtered / 20);
    }
    /* Mixed: each coordinate independently huge, tiny or moderate; and degenerate. */
    for (int t = 0; t < 1000; t++) {
        size_t n = 1 + (size_t)(t % 4);
        go_matrix p;
        go_init(&p, n + 1, n);
        for (size_t k = 0; k < (n + 1) * n; k++)
            go_set_decimal(&p, k, go_rand_range(&r.s, 9), exps[tu_below(&r, 4)] * (int)tu_below(&r, 2));
        if (t % 3 == 0)
            for (size_t j = 0; j < n; j++) { /* p_n := p_0, a duplicate */
                mpq_set(p.q[n * n + j], p.q[j]);
                p.d[n * n + j] = p.d[j];
            }
        check_orient(&p, 1, NULL);
        go_clear(&p);
    }
}

/* --------------------------------------------------- lifted coordinates */

/* The 36 lattice points of x² + y² = 65², scaled by 10^-2 (radius 0.65). */
static size_t circle_points(int64_t xy[][2])
{
    static const int64_t base[][2] = {{16, 63}, {25, 60}, {33, 56}, {39, 52},
                                      {52, 39}, {56, 33}, {60, 25}, {63, 16}};
    size_t count = 0;
    for (int s = 0; s < 4; s++)
        for (size_t i = 0; i < 8; i++) {
            xy[count][0] = (s & 1) ? -base[i][0] : base[i][0];
            xy[count][1] = (s & 2) ? -base[i][1] : base[i][1];
            count++;
        }
    static const int64_t axes[4][2] = {{65, 0}, {-65, 0}, {0, 65}, {0, -65}};
    for (int i = 0; i < 4; i++, count++) xy[count][0] = axes[i][0], xy[count][1] = axes[i][1];
    return count;
}

/* Row i of p := the lift of (x, y) = num·10^exp10 to all monomials of degree
 * 1..g (g = 2: 5 columns, g = 3: 9 columns), computed in double. */
static void lift_point(go_matrix *p, size_t i, const int64_t num[2], int exp10, int g)
{
    size_t c = p->cols, k = i * c;
    go_set_decimal(p, k + 0, num[0], exp10);
    go_set_decimal(p, k + 1, num[1], exp10);
    go_set_product(p, k + 2, k + 0, k + 0); /* x² */
    go_set_product(p, k + 3, k + 0, k + 1); /* xy */
    go_set_product(p, k + 4, k + 1, k + 1); /* y² */
    if (g < 3) return;
    go_set_product(p, k + 5, k + 2, k + 0); /* x³ */
    go_set_product(p, k + 6, k + 2, k + 1); /* x²y */
    go_set_product(p, k + 7, k + 3, k + 1); /* xy² */
    go_set_product(p, k + 8, k + 4, k + 1); /* y³ */
}

static void test_geometry_orient_lifted_conic(void **state)
{
    int64_t xy[40][2];
    size_t count = circle_points(xy);
    tu_rng r = {10};
    int signs[3] = {0};
    pdt_geom_stats st = {0};
    for (int t = 0; t < 3000; t++) {
        int g = t % 5 == 4 ? 3 : 2;
        size_t n = g == 2 ? 5 : 9;
        unsigned ulps = g == 2 ? 3 : 5;
        go_matrix p;
        go_init(&p, n + 1, n);
        bool nudge = t % 2;
        size_t odd = tu_below(&r, (uint32_t)(n + 1));
        for (size_t i = 0; i <= n; i++) { /* points on the circle, possibly repeated */
            const int64_t *c = xy[tu_below(&r, (uint32_t)count)];
            int64_t num[2] = {c[0] * 100000000000000, c[1] * 100000000000000};
            if (nudge && i == odd) num[tu_below(&r, 2)] += tu_below(&r, 2) ? 1 : -1;
            lift_point(&p, i, num, -16, g); /* coordinates c·10^-2, nudged by 10^-16 */
        }
        int s = check_orient(&p, ulps, &st);
        if (!nudge) assert_int_equal(s, 0); /* n+1 points on one conic */
        signs[s + 1]++;
        go_clear(&p);
    }
    assert_true(signs[1] > 1000 && st.exact > 1000);
}

/* Points near (1000, …, 1000) with 6 decimals: n random points, the last an
 * integer affine combination of them (exactly on their hyperplane), optionally
 * nudged by one unit of the last decimal.  Approximations at the contract limit,
 * in random directions. */
static void far_points(go_matrix *p, tu_rng *r, size_t n, unsigned ulps, bool nudge)
{
    int64_t num[GO_MAX * GO_MAX];
    for (size_t k = 0; k < n * n; k++) num[k] = 1000000000 + go_rand_range(&r->s, 1000000);
    int64_t w[GO_MAX], sum = 0;
    for (size_t i = 0; i + 1 < n; i++) sum += w[i] = go_rand_range(&r->s, 2);
    w[n - 1] = 1 - sum;
    for (size_t j = 0; j < n; j++) {
        num[n * n + j] = 0;
        for (size_t i = 0; i < n; i++) num[n * n + j] += w[i] * num[i * n + j];
    }
    if (nudge) num[n * n + tu_below(r, (uint32_t)n)] += tu_below(r, 2) ? 1 : -1;
    for (size_t k = 0; k < (n + 1) * n; k++) {
        go_set_decimal(p, k, num[k], -6);
        if (ulps > 1) p->d[k] = go_adversarial(p->q[k], tu_below(r, 2) ? 1 : -1, ulps);
    }
}

/* Far from the origin the homogeneous bound grows like |p|^n; the translated
 * form keeps deciding, and stays exact on coplanar input. */
static void test_geometry_orient_far_from_origin(void **state)
{
    static const unsigned ulps_list[] = {1, 3, 7};
    tu_rng r = {14};
    for (size_t n = 1; n <= 7; n++) {
        pdt_geom_stats st = {0};
        for (int t = 0; t < 150; t++) { /* random, clustered: 1000 ± 1 */
            go_matrix p;
            go_init(&p, n + 1, n);
            for (size_t k = 0; k < (n + 1) * n; k++)
                go_set_decimal(&p, k, 1000000000 + go_rand_range(&r.s, 1000000), -6);
            check_orient(&p, 1, &st);
            go_clear(&p);
        }
        assert_true(st.exact <= 2);
        for (size_t u = 0; u < 3; u++) {
            st = (pdt_geom_stats){0};
            for (int t = 0; t < 40; t++) {
                go_matrix p;
                go_init(&p, n + 1, n);
                far_points(&p, &r, n, ulps_list[u], t % 2);
                int s = check_orient(&p, ulps_list[u], &st);
                if (t % 2 == 0) assert_int_equal(s, 0);
                go_clear(&p);
            }
            assert_true(st.filtered >= 15); /* the nudged half: a 1e-6 change is visible */
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry_orient_random),
        cmocka_unit_test(test_geometry_orient_collinear_decimals),
        cmocka_unit_test(test_geometry_orient_perturbed_collinear),
        cmocka_unit_test(test_geometry_orient_duplicates),
        cmocka_unit_test(test_geometry_orient_huge_and_tiny),
        cmocka_unit_test(test_geometry_orient_lifted_conic),
        cmocka_unit_test(test_geometry_orient_far_from_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
