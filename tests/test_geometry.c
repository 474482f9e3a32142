/* Filtered determinant and orientation: every answer is checked against an
 * independent exact oracle (tests/support/geom_oracle.c), on random,
 * near-degenerate, extreme-magnitude and lifted (ulps > 1) inputs. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom_oracle.h"
#include "pdt_geometry.h"

static int64_t rand_range(tu_rng *r, int64_t range)
{
    return (int64_t)(tu_rand(r) % (uint64_t)(2 * range + 1)) - range;
}

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

/* ------------------------------------------------------------ the oracle */

static void test_geometry_oracle_agrees_with_laplace(void **state)
{
    tu_rng r = {1};
    for (size_t m = 1; m <= 5; m++)
        for (int t = 0; t < 200; t++) {
            go_matrix a;
            go_init(&a, m, m);
            for (size_t k = 0; k < m * m; k++) go_set_decimal(&a, k, rand_range(&r, 2), -1);
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
                    go_set_decimal(&a, k, rand_range(&r, ranges[ri]), 0);
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
                go_set_decimal(&a, k, rand_range(&r, 9), -digits + (int)tu_below(&r, 2));
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
                go_set_decimal(&a, k, rand_range(&r, t < 20 ? 2 : 999), -(int)tu_below(&r, 4));
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
    for (size_t k = 0; k < (m - 1) * m; k++) num[k] = rand_range(r, range);
    for (size_t i = 0; i + 1 < m; i++) {
        int64_t c = rand_range(r, 3);
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
                go_set_decimal(&p, k, rand_range(&r, range), -(int)tu_below(&r, 5));
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
            for (size_t j = 0; j < n; j++) base[i][j] = rand_range(&r, 999);
        for (size_t j = 0; j < n; j++) { /* last point = affine combination of the first n */
            int64_t c = rand_range(&r, 5), d = rand_range(&r, 5);
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
                go_set_decimal(&p, k, rand_range(&r, 999999), -(int)tu_below(&r, 7));
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
                    go_set_decimal(&p, k, 100 + rand_range(&r, 99), exps[e]);
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
            go_set_decimal(&p, k, rand_range(&r, 9), exps[tu_below(&r, 4)] * (int)tu_below(&r, 2));
        if (t % 3 == 0)
            for (size_t j = 0; j < n; j++) { /* p_n := p_0, a duplicate */
                mpq_set(p.q[n * n + j], p.q[j]);
                p.d[n * n + j] = p.d[j];
            }
        check_orient(&p, 1, NULL);
        go_clear(&p);
    }
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

/* ------------------------------------ approximations at the contract limit */

/* The double as far from a as the contract allows (|d − a| <= (1 − 2^-10)·ulps·2^-53·|a|),
 * on the side `away` (+1: |d| > |a|, −1: |d| < |a|); a nonzero, in the normal range. */
static double adversarial(mpq_srcptr a, int away, unsigned ulps)
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
                    px *= a.d[kx] = adversarial(a.q[kx], dir, ulps_list[u]);
                    py *= a.d[ky] = adversarial(a.q[ky], -dir, ulps_list[u]);
                }
                assert_int_equal(check_det(&a, ulps_list[u], NULL), 0);
                double naive = fabs(px) - fabs(py), perm = fabs(px) + fabs(py);
                ulps_blind_would_fail += fabs(naive) > 1.01 * pdt_det_filter_coefficient(m, 0) * perm;
                go_clear(&a);
            }
    assert_true(ulps_blind_would_fail > 150);
}

/* Points near (1000, …, 1000) with 6 decimals: n random points, the last an
 * integer affine combination of them (exactly on their hyperplane), optionally
 * nudged by one unit of the last decimal.  Approximations at the contract limit,
 * in random directions. */
static void far_points(go_matrix *p, tu_rng *r, size_t n, unsigned ulps, bool nudge)
{
    int64_t num[GO_MAX * GO_MAX];
    for (size_t k = 0; k < n * n; k++) num[k] = 1000000000 + rand_range(r, 1000000);
    int64_t w[GO_MAX], sum = 0;
    for (size_t i = 0; i + 1 < n; i++) sum += w[i] = rand_range(r, 2);
    w[n - 1] = 1 - sum;
    for (size_t j = 0; j < n; j++) {
        num[n * n + j] = 0;
        for (size_t i = 0; i < n; i++) num[n * n + j] += w[i] * num[i * n + j];
    }
    if (nudge) num[n * n + tu_below(r, (uint32_t)n)] += tu_below(r, 2) ? 1 : -1;
    for (size_t k = 0; k < (n + 1) * n; k++) {
        go_set_decimal(p, k, num[k], -6);
        if (ulps > 1) p->d[k] = adversarial(p->q[k], tu_below(r, 2) ? 1 : -1, ulps);
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
                go_set_decimal(&p, k, 1000000000 + rand_range(&r, 1000000), -6);
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
            for (size_t k = 0; k < m * m; k++) go_set_decimal(&a, k, rand_range(&r, 99999), -3);
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
        cmocka_unit_test(test_geometry_orient_random),
        cmocka_unit_test(test_geometry_orient_collinear_decimals),
        cmocka_unit_test(test_geometry_orient_perturbed_collinear),
        cmocka_unit_test(test_geometry_orient_duplicates),
        cmocka_unit_test(test_geometry_orient_huge_and_tiny),
        cmocka_unit_test(test_geometry_det_underflow_in_minor),
        cmocka_unit_test(test_geometry_orient_lifted_conic),
        cmocka_unit_test(test_geometry_det_worst_case_input_error),
        cmocka_unit_test(test_geometry_orient_far_from_origin),
        cmocka_unit_test(test_geometry_filter_decides_random_input),
        cmocka_unit_test(test_geometry_exact_path_on_degenerate_input),
        cmocka_unit_test(test_geometry_det_without_callback),
        cmocka_unit_test(test_geometry_filter_coefficient_is_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
