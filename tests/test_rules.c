/* Rule plugins: conformance of every registered family, and the exact
 * semantics of axis-parallel and hyperplane rules checked against
 * computations written independently here. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "geom_oracle.h"
#include "pdt_plugin.h"
#include "test_util.h"

static pdt_dataset *csv(const char *text)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "test.csv", NULL, &err))
        fail_msg("%s", err.message);
    return ds;
}

static pdt_ruleset *rules(const pdt_dataset *ds, const char *family)
{
    pdt_ruleset *rs = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_ruleset_build(&rs, ds, family, NULL, &err)) fail_msg("%s", err.message);
    return rs;
}

/* A random small data set on an integer grid (many ties, collinear points). */
static char *grid_csv(tu_rng *g, size_t n, size_t d, int range)
{
    size_t cap = 64 + n * (d + 1) * 16;
    char *s = malloc(cap), *p = s;
    for (size_t j = 0; j < d; j++) p += sprintf(p, "x%zu,", j);
    p += sprintf(p, "c\n");
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < d; j++) {
            uint32_t v = tu_below(g, (uint32_t)range + 1);
            if (tu_below(g, 5) == 0) p += sprintf(p, "0.%u,", v); /* decimals not exact in binary */
            else p += sprintf(p, "%u,", v);
        }
        p += sprintf(p, "%u\n", tu_below(g, 2));
    }
    return s;
}

/* ------------------------------------------------------------ conformance */

static void test_rules_registry_conformance(void **state)
{
    (void)state;
    size_t n = pdt_rule_class_count();
    assert_true(n >= 2);
    for (size_t i = 0; i < n; i++) {
        const pdt_rule_class *c = pdt_rule_class_at(i);
        assert_int_equal(c->version, PDT_RULE_V1);
        assert_non_null(c->name);
        assert_non_null(c->description);
        assert_non_null(c->generate);
        assert_non_null(c->describe);
        if (c->route) { /* multiway: routed, fitted by its backend only */
            assert_non_null(c->solve);
            assert_non_null(c->describe_way);
            assert_non_null(c->validate);
            assert_ptr_equal(pdt_rule_class_find(c->name), c);
            continue;
        }
        assert_non_null(c->sides);
        assert_non_null(c->export_rule);
        assert_non_null(c->classify);
        assert_ptr_equal(pdt_rule_class_find(c->name), c);
        for (size_t j = 0; j < i; j++) assert_string_not_equal(pdt_rule_class_at(j)->name, c->name);
    }
}

/* classify(export(r), row i) must equal the training side bit, for every
 * registered family whose rules apply to 2-D numeric data. */
static void check_export_agrees(const pdt_dataset *ds, const char *family)
{
    pdt_ruleset *rs = rules(ds, family);
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    mpq_t *x = malloc(n * d * sizeof *x);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++) {
            mpq_init(x[i * d + j]);
            pdt_dataset_value_exact(x[i * d + j], ds, i, j);
        }
    pdt_error err;
    for (size_t r = 0; r < pdt_ruleset_size(rs); r++) {
        pdt_rule rule;
        assert_int_equal(pdt_ruleset_export(&rule, rs, r, &err), PDT_OK);
        if (rule.cls->validate) assert_int_equal(rule.cls->validate(&rule, d, &err), PDT_OK);
        for (size_t i = 0; i < n; i++) {
            bool left = false;
            assert_int_equal(rule.cls->classify(&left, &rule, x[i * d], d, &err), PDT_OK);
            assert_int_equal(left, pdt_bit_get(pdt_ruleset_sides(rs, r), i));
        }
        pdt_rule_clear(&rule);
    }
    for (size_t k = 0; k < n * d; k++) mpq_clear(x[k]);
    free(x);
    pdt_ruleset_free(&rs);
}

static void test_rules_export_agrees_with_sides(void **state)
{
    (void)state;
    tu_rng g = {11};
    for (int t = 0; t < 30; t++) {
        char *text = grid_csv(&g, 3 + tu_below(&g, 7), 2, 3);
        pdt_dataset *ds = csv(text);
        for (size_t i = 0; i < pdt_rule_class_count(); i++) {
            const pdt_rule_class *c = pdt_rule_class_at(i);
            if (strcmp(c->name, "axis") && strcmp(c->name, "hyperplane")) continue; /* 2-D numeric families */
            check_export_agrees(ds, c->name);
        }
        pdt_dataset_free(&ds);
        free(text);
    }
}

/* ------------------------------------------------------------ axis */

static void test_rules_axis_sides_with_ties(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,c\n3,a\n1,b\n3,a\n2,b\n");
    pdt_ruleset *rs = rules(ds, "axis");
    assert_int_equal(pdt_ruleset_size(rs), 4); /* D·N */
    /* rule r is x <= x[r]: left sets {all}, {1}, {all}, {1,3} */
    const uint64_t expect[] = {0xF, 0x2, 0xF, 0xA};
    for (size_t r = 0; r < 4; r++) {
        assert_int_equal(pdt_ruleset_sides(rs, r)[0], expect[r]);
        size_t n_def;
        const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
        assert_int_equal(n_def, 1);
        assert_int_equal(def[0], r);
    }
    /* relation: where the defining point of rj lies relative to ri */
    assert_int_equal(pdt_ruleset_relation(rs, 3, 1), PDT_REL_LEFT);  /* 1 <= 2 */
    assert_int_equal(pdt_ruleset_relation(rs, 1, 3), PDT_REL_RIGHT); /* 2 > 1 */
    assert_int_equal(pdt_ruleset_relation(rs, 0, 2), PDT_REL_LEFT);  /* tie: 3 <= 3 */
    assert_int_equal(pdt_ruleset_relation(rs, 2, 2), PDT_REL_NONE);  /* never its own ancestor */
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

static void test_rules_axis_exact_boundary(void **state)
{
    (void)state;
    /* thresholds are exact rationals: 1/3 as a fraction cell */
    pdt_dataset *ds = csv("x,c\n1/3,a\n0.9,b\n");
    pdt_ruleset *rs = rules(ds, "axis");
    pdt_rule rule;
    pdt_error err;
    assert_int_equal(pdt_ruleset_export(&rule, rs, 0, &err), PDT_OK);
    mpq_t x;
    mpq_init(x);
    bool left;
    const char *cases[][2] = {{"1/3", "1"}, {"0.3333333333333333", "1"}, {"0.33333333333333334", "0"},
                              {"0.3333333333333333333333333333333334", "0"}};
    for (size_t i = 0; i < 4; i++) {
        assert_true(pdt_parse_rational(x, cases[i][0], strlen(cases[i][0])));
        assert_int_equal(rule.cls->classify(&left, &rule, x, 1, &err), PDT_OK);
        assert_int_equal(left, cases[i][1][0] == '1');
    }
    pdt_buf b;
    pdt_buf_init(&b);
    const char *names[] = {"x"};
    assert_int_equal(rule.cls->describe(&b, &rule, names, 1, &err), PDT_OK);
    assert_string_equal(b.data, "x ≤ 1/3");
    pdt_buf_clear(&b);
    mpq_clear(x);
    pdt_rule_clear(&rule);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

/* ------------------------------------------------------------ hyperplanes */

/* Independent exact side: orientation by rational Gaussian elimination; a
 * point on the hyperplane by its affine coordinates from the Gram system. */
static void gram_lambda(mpq_t *lam, size_t d, mpq_t (*p)[3], const mpq_t *x)
{
    size_t m = d - 1; /* unknowns λ_1..λ_{d-1}; λ_0 = 1 − Σ */
    mpq_t a[2][3], t, u;
    mpq_inits(t, u, NULL);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j <= m; j++) {
            mpq_init(a[i][j]);
            for (size_t c = 0; c < d; c++) {
                mpq_sub(t, p[i + 1][c], p[0][c]);
                if (j < m) mpq_sub(u, p[j + 1][c], p[0][c]);
                else mpq_sub(u, x[c], p[0][c]);
                mpq_mul(t, t, u);
                mpq_add(a[i][j], a[i][j], t);
            }
        }
    if (m == 1) {
        mpq_div(lam[1], a[0][1], a[0][0]);
    } else { /* Cramer on the 2×2 Gram system */
        mpq_t det;
        mpq_init(det);
        mpq_mul(t, a[0][0], a[1][1]);
        mpq_mul(u, a[0][1], a[1][0]);
        mpq_sub(det, t, u);
        mpq_mul(t, a[0][2], a[1][1]);
        mpq_mul(u, a[0][1], a[1][2]);
        mpq_sub(lam[1], t, u);
        mpq_div(lam[1], lam[1], det);
        mpq_mul(t, a[0][0], a[1][2]);
        mpq_mul(u, a[0][2], a[1][0]);
        mpq_sub(lam[2], t, u);
        mpq_div(lam[2], lam[2], det);
        mpq_clear(det);
    }
    mpq_set_ui(lam[0], 1, 1);
    for (size_t i = 1; i < d; i++) mpq_sub(lam[0], lam[0], lam[i]);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j <= m; j++) mpq_clear(a[i][j]);
    mpq_clears(t, u, NULL);
}

static size_t on_plane_cases; /* rows decided by the assignment rule (degenerate data) */

static bool reference_left(const pdt_dataset *ds, const uint32_t *def, int64_t mask, size_t row)
{
    size_t d = pdt_dataset_dims(ds);
    go_matrix m;
    go_init(&m, d + 1, d + 1);
    mpq_t p[3][3], x[3];
    for (size_t k = 0; k <= d; k++)
        for (size_t j = 0; j <= d; j++) {
            if (j == d) mpq_set_ui(m.q[k * (d + 1) + j], 1, 1);
            else pdt_dataset_value_exact(m.q[k * (d + 1) + j], ds, k < d ? def[k] : row, j);
        }
    int sign = go_det_sign(&m);
    if (sign == 0) {
        on_plane_cases++;
        for (size_t k = 0; k < d; k++)
            for (size_t j = 0; j < d; j++) mpq_init(p[k][j]), mpq_set(p[k][j], m.q[k * (d + 1) + j]);
        for (size_t j = 0; j < d; j++) mpq_init(x[j]), mpq_set(x[j], m.q[d * (d + 1) + j]);
        mpq_t lam[3], s;
        for (size_t k = 0; k < d; k++) mpq_init(lam[k]);
        mpq_init(s);
        gram_lambda(lam, d, p, x);
        for (size_t k = 0; k < d; k++) ((mask >> k) & 1) ? mpq_sub(s, s, lam[k]) : mpq_add(s, s, lam[k]);
        sign = mpq_sgn(s) <= 0 ? -1 : 1;
        for (size_t k = 0; k < d; k++) mpq_clear(lam[k]);
        mpq_clear(s);
        for (size_t k = 0; k < d; k++)
            for (size_t j = 0; j < d; j++) mpq_clear(p[k][j]);
        for (size_t j = 0; j < d; j++) mpq_clear(x[j]);
    }
    go_clear(&m);
    return sign < 0;
}

static void test_rules_hyperplane_sides_exact(void **state)
{
    (void)state;
    tu_rng g = {2024};
    on_plane_cases = 0;
    for (int t = 0; t < 60; t++) {
        size_t d = 2 + (size_t)(t % 2), n = d + 1 + tu_below(&g, 6);
        char *text = grid_csv(&g, n, d, 3);
        pdt_dataset *ds = csv(text);
        pdt_ruleset *rs = rules(ds, "hyperplane");
        for (size_t r = 0; r < pdt_ruleset_size(rs); r++) {
            size_t n_def;
            const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
            assert_int_equal(n_def, d);
            int64_t mask = (int64_t)(r % ((size_t)1 << d)); /* generated in mask order per tuple */
            for (size_t i = 0; i < n; i++) {
                bool ref = reference_left(ds, def, mask, i);
                if (ref != pdt_bit_get(pdt_ruleset_sides(rs, r), i)) fail_msg("instance %d rule %zu row %zu:\n%s", t, r, i, text);
            }
        }
        pdt_ruleset_free(&rs);
        pdt_dataset_free(&ds);
        free(text);
    }
    /* defining points alone give d·|rules| such cases; the grid adds collinear ones */
    assert_true(on_plane_cases > 0);
}

/* The defining points follow the assignment; mirrored masks complement them. */
static void test_rules_hyperplane_assignment(void **state)
{
    (void)state;
    /* the line y = x through (0,0) and (1,1); (2,2) on it, (0,1) above, (1,0) below */
    pdt_dataset *ds = csv("x,y,c\n0,0,a\n1,1,a\n2,2,b\n0,1,b\n1,0,a\n");
    pdt_ruleset *rs = rules(ds, "hyperplane");
    /* tuple (0,1) comes first: masks 0..3 */
    /* orient((0,0),(1,1),(x,y)) = y − x: (1,0) is left (negative), (0,1) right */
    const uint64_t l01 = 0x10; /* row 4 */
    /* mask bit k set = defining point k assigned left; (2,2) = −1·p0 + 2·p1:
       Σλs = −s0 + 2 s1, so it follows p1 unless both are assigned alike */
    assert_int_equal(pdt_ruleset_sides(rs, 0)[0], l01);              /* both right: (2,2) right */
    assert_int_equal(pdt_ruleset_sides(rs, 1)[0], l01 | 0x1);        /* p0 left: −(−1)+2 = 3 > 0 → right */
    assert_int_equal(pdt_ruleset_sides(rs, 2)[0], l01 | 0x2 | 0x4);  /* p1 left: −1 − 2 < 0 → left */
    assert_int_equal(pdt_ruleset_sides(rs, 3)[0], l01 | 0x1 | 0x2 | 0x4);
    pdt_rule rule;
    pdt_error err;
    assert_int_equal(pdt_ruleset_export(&rule, rs, 0, &err), PDT_OK);
    pdt_buf b;
    pdt_buf_init(&b);
    const char *names[] = {"x", "y"};
    assert_int_equal(rule.cls->describe(&b, &rule, names, 2, &err), PDT_OK);
    assert_string_equal(b.data, "−x + y ≤ 0");
    pdt_buf_clear(&b);
    pdt_rule_clear(&rule);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

/* True when no D+1 of the points lie on a hyperplane (exact). */
static bool general_position(const pdt_dataset *ds)
{
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    size_t idx[4];
    for (size_t k = 0; k <= d; k++) idx[k] = k;
    for (;;) {
        go_matrix m;
        go_init(&m, d + 1, d + 1);
        for (size_t k = 0; k <= d; k++)
            for (size_t j = 0; j <= d; j++) {
                if (j == d) mpq_set_ui(m.q[k * (d + 1) + j], 1, 1);
                else pdt_dataset_value_exact(m.q[k * (d + 1) + j], ds, idx[k], j);
            }
        int s = go_det_sign(&m);
        go_clear(&m);
        if (s == 0) return false;
        size_t k = d + 1;
        while (k > 0 && idx[k - 1] == n - (d + 1) + k - 1) k--;
        if (k == 0) return true;
        idx[k - 1]++;
        for (size_t t = k; t <= d; t++) idx[t] = idx[t - 1] + 1;
    }
}

/* Cover: N points in general position in R^D have 2·Σ_{k=0..D} C(N−1, k)
 * linearly separable ordered dichotomies.  The family holds one orientation
 * per point tuple; its mirror (swapping the children) is the same tree, so
 * the ordered partitions it induces are its left sets and their complements. */
static void test_rules_hyperplane_cover_count(void **state)
{
    (void)state;
    tu_rng g = {77};
    for (size_t d = 2; d <= 3; d++)
        for (size_t n = d + 1; n <= 15; n++) {
            pdt_dataset *ds = NULL;
            do {
                pdt_dataset_free(&ds);
                char text[4096], *p = text;
                p += sprintf(p, d == 2 ? "x,y,c\n" : "x,y,z,c\n");
                for (size_t i = 0; i < n; i++) {
                    for (size_t j = 0; j < d; j++) p += sprintf(p, "%u.%03u,", tu_below(&g, 1000), tu_below(&g, 1000));
                    p += sprintf(p, "0\n");
                }
                ds = csv(text);
            } while (!general_position(ds));
            pdt_ruleset *rs = rules(ds, "hyperplane");
            size_t m = pdt_ruleset_size(rs);
            uint64_t full = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
            uint64_t *sets = malloc(2 * m * sizeof *sets);
            for (size_t r = 0; r < m; r++) {
                sets[2 * r] = pdt_ruleset_sides(rs, r)[0];
                sets[2 * r + 1] = full & ~sets[2 * r];
            }
            qsort(sets, 2 * m, sizeof *sets, tu_cmp_u64);
            size_t distinct = 0;
            for (size_t i = 0; i < 2 * m; i++) distinct += i == 0 || sets[i] != sets[i - 1];
            uint64_t cover = 0;
            for (size_t k = 0; k <= d; k++) cover += tu_binom(n - 1, k);
            cover *= 2;
            if (distinct != cover) fail_msg("D=%zu N=%zu: %zu ordered partitions, Cover's count %llu", d, n,
                                            distinct, (unsigned long long)cover);
            free(sets);
            pdt_ruleset_free(&rs);
            pdt_dataset_free(&ds);
        }
}

/* What "optimal" means for D >= 3: a region with fewer than D items admits no
 * rule defined inside it.  Two points of different classes in R^3 can be
 * separated by a plane, but no plane passes through 3 data points here, so
 * the best hyperplane tree is the leaf (1 error) while one axis split is
 * perfect.  docs/optimality.md states this. */
static void test_rules_hyperplane_small_region_gap(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,y,z,c\n0,0,0,a\n1,2,3,b\n");
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.max_size = 1;
    pdt_model *m = NULL;
    pdt_error err;
    mpq_t obj;
    mpq_init(obj);
    o.rules = "hyperplane";
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_OK);
    pdt_model_objective(obj, m);
    assert_int_equal(mpq_cmp_ui(obj, 1, 1), 0);
    assert_int_equal(pdt_model_size(m), 0);
    pdt_model_free(&m);
    o.rules = "axis";
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_OK);
    pdt_model_objective(obj, m);
    assert_int_equal(mpq_sgn(obj), 0);
    pdt_model_free(&m);
    mpq_clear(obj);
    pdt_dataset_free(&ds);
}

static void test_rules_hyperplane_validate(void **state)
{
    (void)state;
    const pdt_rule_class *c = pdt_rule_class_find("hyperplane");
    pdt_rule rule;
    pdt_error err;
    assert_int_equal(pdt_rule_init(&rule, c, 2, 4, &err), PDT_OK);
    rule.ints[0] = 1;
    rule.ints[1] = 2;
    mpq_set_ui(rule.rats[0], 1, 2), mpq_set_ui(rule.rats[1], 1, 2); /* the same point twice */
    mpq_set_ui(rule.rats[2], 1, 2), mpq_set_ui(rule.rats[3], 1, 2);
    assert_int_equal(c->validate(&rule, 2, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "affinely dependent"));
    mpq_set_ui(rule.rats[3], 3, 2);
    assert_int_equal(c->validate(&rule, 2, &err), PDT_OK);
    rule.ints[0] = 4; /* 2 points: masks 0..3 */
    assert_int_equal(c->validate(&rule, 2, &err), PDT_EINVAL);
    pdt_rule_clear(&rule);
}

/* A candidate list that would not fit in memory is refused before it is
 * built, with the count: iris has C(150, 4)·2^4 ≈ 3.2e8 hyperplanes in 4-D
 * (over 2^26); its first 40 rows in 2 columns are C(40, 2)·4 = 3120. */
static void test_rules_hyperplane_too_many(void **state)
{
    (void)state;
    pdt_dataset *ds = NULL;
    pdt_ruleset *rs = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_load_csv(&ds, tu_data("iris.csv"), NULL, &err), PDT_OK);
    assert_int_equal(pdt_ruleset_build(&rs, ds, "hyperplane", NULL, &err), PDT_ELIMIT);
    assert_null(rs);
    assert_non_null(strstr(err.message, "C(150, 4)·2^4 ≈ 3.24e+08 hyperplane rules are too many"));
    pdt_dataset_free(&ds);
    char text[4096], *p = text;
    p += sprintf(p, "x,y,c\n");
    for (int i = 0; i < 40; i++) p += sprintf(p, "%d,%d,%d\n", i, (i * 7) % 40, i % 2);
    ds = csv(text);
    assert_int_equal(pdt_ruleset_build(&rs, ds, "hyperplane", NULL, &err), PDT_OK);
    assert_int_equal(pdt_ruleset_size(rs), 3120);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_registry_conformance),
        cmocka_unit_test(test_rules_export_agrees_with_sides),
        cmocka_unit_test(test_rules_axis_sides_with_ties),
        cmocka_unit_test(test_rules_axis_exact_boundary),
        cmocka_unit_test(test_rules_hyperplane_sides_exact),
        cmocka_unit_test(test_rules_hyperplane_assignment),
        cmocka_unit_test(test_rules_hyperplane_cover_count),
        cmocka_unit_test(test_rules_hyperplane_small_region_gap),
        cmocka_unit_test(test_rules_hyperplane_validate),
        cmocka_unit_test(test_rules_hyperplane_too_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
