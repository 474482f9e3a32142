/* The worked example plugin (examples/plugins/circle.c), as a user and a
 * plugin author meet it: found in the registry without a framework edit,
 * usable from `pdt fit --rules circle`, exact standalone rules that agree
 * with training, readable circles, its errors.  Its optimum against the
 * brute-force specification: oracle_circle.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "pdt_plugin.h"
#include "test_util.h"

static pdt_dataset *csv(const char *text)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "circle.csv", NULL, &err)) fail_msg("%s", err.message);
    return ds;
}

static const char *ring =
    "x,y,c\n1,0,in\n0,1,in\n-1,0,in\n0,0,in\n0.5,0.5,in\n3,0,out\n0,3,out\n-3,0.5,out\n0,-3,out\n2,2,out\n";

static void test_circle_registered_and_fits(void **state)
{
    (void)state;
    const pdt_rule_class *c = pdt_rule_class_find("circle");
    assert_non_null(c);
    assert_non_null(strstr(pdt_rule_class_description(c), "examples/plugins"));
    char *path = tu_write_file("ring.csv", ring);
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", path, "--rules", "circle", "--size", "1", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "if x² + y² ≤ 1:"));
    assert_non_null(strstr(r.out, "objective 0 (optimal)"));
    tu_run_free(&r);
    free(path);
}

static void test_circle_describe_centre_and_radius(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,y,c\n3,-1,a\n1,1,a\n-1,-1,a\n");
    pdt_ruleset *rs = NULL;
    pdt_error err;
    assert_int_equal(pdt_ruleset_build(&rs, ds, "circle", NULL, &err), PDT_OK);
    assert_int_equal(pdt_ruleset_size(rs), 8);
    pdt_rule rule;
    assert_int_equal(pdt_ruleset_export(&rule, rs, 0, &err), PDT_OK);
    pdt_buf b;
    pdt_buf_init(&b);
    const char *names[] = {"u", "v"};
    assert_int_equal(rule.cls->describe(&b, &rule, names, 2, &err), PDT_OK);
    assert_string_equal(b.data, "(u − 1)² + (v + 1)² ≤ 4"); /* centre (1, −1), radius 2 */
    pdt_buf_clear(&b);
    /* the centre is inside whatever the assignment; a far point outside */
    mpq_t p[2];
    mpq_inits(p[0], p[1], NULL);
    bool left = false;
    mpq_set_si(p[0], 1, 1), mpq_set_si(p[1], -1, 1);
    assert_int_equal(rule.cls->classify(&left, &rule, p[0], 2, &err), PDT_OK);
    assert_true(left);
    mpq_set_si(p[0], 1, 1), mpq_set_si(p[1], 5, 1);
    assert_int_equal(rule.cls->classify(&left, &rule, p[0], 2, &err), PDT_OK);
    assert_false(left);
    mpq_clears(p[0], p[1], NULL);
    pdt_rule_clear(&rule);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

/* Points on a circle follow the assignment of the defining points, and a
 * standalone rule says the same as training for every row. */
static void test_circle_ties_and_export(void **state)
{
    (void)state;
    /* 4 concyclic points (the unit circle) and the centre */
    pdt_dataset *ds = csv("x,y,c\n1,0,a\n0,1,a\n-1,0,b\n0,-1,b\n0,0,b\n");
    pdt_ruleset *rs = NULL;
    pdt_error err;
    assert_int_equal(pdt_ruleset_build(&rs, ds, "circle", NULL, &err), PDT_OK);
    mpq_t x[5][2];
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 2; j++) mpq_init(x[i][j]), pdt_dataset_value_exact(x[i][j], ds, i, j);
    /* C(5,3) = 10 triples, 2 collinear (through the centre): 8 circles, 8 assignments each */
    assert_int_equal(pdt_ruleset_size(rs), 64);
    size_t unit = 0;
    for (size_t r = 0; r < pdt_ruleset_size(rs); r++) {
        pdt_rule rule;
        assert_int_equal(pdt_ruleset_export(&rule, rs, r, &err), PDT_OK);
        assert_int_equal(rule.cls->validate(&rule, 2, &err), PDT_OK);
        const uint64_t *side = pdt_ruleset_sides(rs, r);
        size_t n_def;
        const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
        bool centre_defines = false;
        for (size_t k = 0; k < n_def; k++) centre_defines = centre_defines || def[k] == 4;
        if (!centre_defines) { /* the unit circle: the centre is strictly inside, so left */
            assert_true(pdt_bit_get(side, 4));
            unit++;
        }
        for (size_t k = 0; k < n_def; k++) /* a defining point sits where its assignment says */
            assert_int_equal(pdt_bit_get(side, def[k]), (rule.ints[0] >> k) & 1);
        for (size_t i = 0; i < 5; i++) {
            bool left = false;
            assert_int_equal(rule.cls->classify(&left, &rule, x[i][0], 2, &err), PDT_OK);
            assert_int_equal(left, pdt_bit_get(side, i));
        }
        pdt_rule_clear(&rule);
    }
    assert_int_equal(unit, 4 * 8); /* 4 triples of the concyclic points */
    for (size_t i = 0; i < 5; i++) mpq_clears(x[i][0], x[i][1], NULL);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

static void test_circle_errors(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,c\n1,a\n2,b\n3,a\n");
    pdt_ruleset *rs = NULL;
    pdt_error err;
    assert_int_equal(pdt_ruleset_build(&rs, ds, "circle", NULL, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "circle"));
    assert_non_null(strstr(err.message, "2 features"));
    pdt_dataset_free(&ds);
    ds = csv("x,y,c\n0,0,a\n1,1,b\n2,2,a\n"); /* collinear: no circle */
    assert_int_equal(pdt_ruleset_build(&rs, ds, "circle", NULL, &err), PDT_OK);
    assert_int_equal(pdt_ruleset_size(rs), 0);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_circle_registered_and_fits),
        cmocka_unit_test(test_circle_describe_centre_and_radius),
        cmocka_unit_test(test_circle_ties_and_export),
        cmocka_unit_test(test_circle_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
