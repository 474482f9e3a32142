/* The binary rule family: binarisation (thresholds, 0/1 flags, one-hot),
 * standalone rules that classify raw rows exactly as training split them, the
 * relation BOTH, and models of binarised CSV data predicting raw rows. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "model_impl.h"
#include "pdt_plugin.h"
#include "test_util.h"

static pdt_dataset *csv_text(const char *text)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "test.csv", NULL, &err)) fail_msg("%s", err.message);
    return ds;
}

static pdt_dataset *csv_file(const char *rel, bool skip_nonnumeric)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_csv_options o = {.skip_nonnumeric = skip_nonnumeric};
    if (pdt_dataset_load_csv(&ds, tu_data(rel), &o, &err)) fail_msg("%s", err.message);
    return ds;
}

static pdt_ruleset *binary_rules(const pdt_dataset *ds, const char *options)
{
    pdt_ruleset *rs = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_rule_params p = {.options = options};
    if (pdt_ruleset_build(&rs, ds, "binary", &p, &err)) fail_msg("%s", err.message);
    return rs;
}

static char *rule_text(const pdt_rule *rule, const pdt_dataset *ds)
{
    size_t d = pdt_dataset_dims(ds);
    const char **names = malloc(d * sizeof *names);
    for (size_t j = 0; j < d; j++) names[j] = pdt_dataset_feature_name(ds, j);
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_error err;
    assert_int_equal(rule->cls->describe(&b, rule, names, d, &err), PDT_OK);
    free(names);
    return b.data;
}

/* ------------------------------------------------------------ binarisation */

/* Thresholds between consecutive distinct values; a 0/1 column is one flag;
 * a constant column gives nothing. */
static void test_binary_features_of_a_csv(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_text("a,b,k,c\n3,0,7,x\n1.5,1,7,y\n3,1,7,x\n-2,0,7,y\n");
    pdt_ruleset *rs = binary_rules(ds, NULL);
    assert_int_equal(pdt_ruleset_size(rs), 3); /* a: 2 thresholds, b: 1 flag, k: none */
    const char *expect[] = {"a ≤ -2", "a ≤ 1.5", "b = 0"};
    const uint64_t left[] = {0x8, 0xA, 0x9}; /* rows 3 / 1,3 / 0,3 */
    pdt_error err;
    for (size_t r = 0; r < 3; r++) {
        pdt_rule rule;
        assert_int_equal(pdt_ruleset_export(&rule, rs, r, &err), PDT_OK);
        char *text = rule_text(&rule, ds);
        assert_string_equal(text, expect[r]);
        free(text);
        pdt_rule_clear(&rule);
        assert_int_equal(pdt_ruleset_sides(rs, r)[0], left[r]);
    }
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

/* iris: Σ (distinct values − 1) threshold features over the four columns. */
static void test_binary_iris_threshold_count(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_file("iris.csv", false);
    size_t expect = 0;
    for (size_t j = 0; j < pdt_dataset_dims(ds); j++) expect += pdt_dataset_distinct(ds, j) - 1;
    pdt_ruleset *rs = binary_rules(ds, NULL);
    assert_int_equal(pdt_ruleset_size(rs), expect);
    assert_true(expect > 100);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

/* onehot=NAME: one "x ≠ v" feature per category (one when there are two). */
static void test_binary_onehot(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_text("colour,size,two,c\n2,10,5,x\n0,20,6,y\n1,10,5,x\n2,30,6,y\n");
    pdt_ruleset *rs = binary_rules(ds, "onehot=colour:two");
    /* colour: 3 categories, size: 2 thresholds, two: 1 category feature */
    assert_int_equal(pdt_ruleset_size(rs), 6);
    pdt_error err;
    pdt_rule rule;
    assert_int_equal(pdt_ruleset_export(&rule, rs, 1, &err), PDT_OK);
    char *text = rule_text(&rule, ds);
    assert_string_equal(text, "colour ≠ 1");
    free(text);
    pdt_rule_clear(&rule);
    assert_int_equal(pdt_ruleset_sides(rs, 1)[0], 0xB); /* every row but row 2 (colour 1) */
    pdt_ruleset_free(&rs);
    rs = binary_rules(ds, "onehot=*");
    assert_int_equal(pdt_ruleset_size(rs), 3 + 3 + 1);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

static void test_binary_bad_options(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_text("a,c\n1,x\n2,y\n");
    pdt_error err;
    pdt_ruleset *rs = NULL;
    pdt_rule_params p = {.options = "onehot=nope"};
    assert_int_equal(pdt_ruleset_build(&rs, ds, "binary", &p, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "no feature column \"nope\""));
    p.options = "thresholds=3";
    assert_int_equal(pdt_ruleset_build(&rs, ds, "binary", &p, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "\"thresholds=3\" is not onehot="));
    assert_null(rs);
    pdt_dataset_free(&ds);
}

/* classify(export(r), raw row) equals the training side, on real data with
 * and without one-hot columns. */
static void check_export_agrees(const pdt_dataset *ds, const char *options)
{
    pdt_ruleset *rs = binary_rules(ds, options);
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    mpq_t *x = malloc(n * d * sizeof *x);
    for (size_t i = 0; i < n * d; i++) {
        mpq_init(x[i]);
        pdt_dataset_value_exact(x[i], ds, i / d, i % d);
    }
    pdt_error err;
    for (size_t r = 0; r < pdt_ruleset_size(rs); r++) {
        pdt_rule rule;
        assert_int_equal(pdt_ruleset_export(&rule, rs, r, &err), PDT_OK);
        assert_int_equal(rule.cls->validate(&rule, d, &err), PDT_OK);
        for (size_t i = 0; i < n; i++) {
            bool left = false;
            assert_int_equal(rule.cls->classify(&left, &rule, x[i * d], d, &err), PDT_OK);
            assert_int_equal(left, pdt_bit_get(pdt_ruleset_sides(rs, r), i));
        }
        pdt_rule_clear(&rule);
    }
    for (size_t i = 0; i < n * d; i++) mpq_clear(x[i]);
    free(x);
    pdt_ruleset_free(&rs);
}

static void test_binary_export_agrees_with_sides(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_file("wine.csv", false);
    check_export_agrees(ds, NULL);
    pdt_dataset_free(&ds);
    ds = csv_file("zoo.csv", true);
    check_export_agrees(ds, NULL);
    check_export_agrees(ds, "onehot=legs");
    pdt_dataset_free(&ds);
}

static void test_binary_relation_both_and_validate(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_file("mouse.csv", false);
    pdt_ruleset *rs = binary_rules(ds, NULL);
    assert_false(pdt_ruleset_data_defined(rs));
    assert_true(pdt_ruleset_region_by_items(rs));
    for (size_t i = 0; i < pdt_ruleset_size(rs); i++)
        for (size_t j = 0; j < pdt_ruleset_size(rs); j++)
            assert_int_equal(pdt_ruleset_relation(rs, i, j), i == j ? PDT_REL_NONE : PDT_REL_BOTH);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
    const pdt_rule_class *cls = pdt_rule_class_find("binary");
    assert_non_null(cls);
    assert_non_null(cls->solve);
    pdt_rule rule;
    pdt_error err;
    assert_int_equal(pdt_rule_init(&rule, cls, 2, 1, &err), PDT_OK);
    rule.ints[0] = 1, rule.ints[1] = 3;
    assert_int_equal(cls->validate(&rule, 2, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "kind 3"));
    rule.ints[0] = 2, rule.ints[1] = 1;
    assert_int_equal(cls->validate(&rule, 2, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "column 2"));
    rule.ints[0] = 0, rule.ints[1] = 0;
    mpq_set_ui(rule.rats[0], 1, 2);
    assert_int_equal(cls->validate(&rule, 2, &err), PDT_EINVAL);
    pdt_rule_clear(&rule);
}

/* ------------------------------------------------------------ binarised models */

/* Walks the model with the standalone rules on the raw rows: every node must
 * receive exactly the class counts training recorded there. */
static void check_model_replays(const pdt_model *m, const pdt_dataset *ds)
{
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    uint64_t *counts = calloc(m->n_nodes * m->n_classes, sizeof *counts);
    mpq_t *x = malloc(d * sizeof *x);
    for (size_t j = 0; j < d; j++) mpq_init(x[j]);
    pdt_error err;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < d; j++) pdt_dataset_value_exact(x[j], ds, i, j);
        int32_t at = 0;
        for (;;) {
            counts[(size_t)at * m->n_classes + pdt_dataset_label(ds, i)]++;
            const pdt_tree_node *nd = &m->nodes[at];
            if (nd->left < 0) break;
            bool left = false;
            const pdt_rule *rule = &m->rules[nd->rule];
            assert_int_equal(rule->cls->classify(&left, rule, x[0], d, &err), PDT_OK);
            at = left ? nd->left : nd->right;
        }
    }
    assert_memory_equal(counts, m->counts, m->n_nodes * m->n_classes * sizeof *counts);
    for (size_t j = 0; j < d; j++) mpq_clear(x[j]);
    free(x);
    free(counts);
}

static pdt_model *fit(const pdt_dataset *ds, uint32_t depth, uint32_t size, const char *options)
{
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "binary";
    o.max_depth = depth;
    o.max_size = size;
    o.rule_params.options = options;
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s", err.message);
    return m;
}

static void test_binary_iris_predicts_raw_rows(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_file("iris.csv", false);
    pdt_model *m = fit(ds, 3, 7, NULL);
    assert_string_equal(m->engine, "binary");
    assert_true(m->optimal);
    assert_int_equal(m->misclassifications, 1); /* the axis family's depth-3 optimum */
    check_model_replays(m, ds);
    uint32_t *pred = malloc(pdt_dataset_rows(ds) * sizeof *pred);
    pdt_error err;
    assert_int_equal(pdt_model_predict(pred, m, ds, &err), PDT_OK);
    uint64_t wrong = 0;
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++) wrong += pred[i] != pdt_dataset_label(ds, i);
    assert_int_equal(wrong, m->misclassifications);
    /* the saved model predicts the same */
    char path[512];
    snprintf(path, sizeof path, "%s/iris_binary.json", tu_tmpdir());
    assert_int_equal(pdt_model_save_json(m, path, &err), PDT_OK);
    pdt_model *back = NULL;
    assert_int_equal(pdt_model_load_json(&back, path, &err), PDT_OK);
    uint32_t *pred2 = malloc(pdt_dataset_rows(ds) * sizeof *pred2);
    assert_int_equal(pdt_model_predict(pred2, back, ds, &err), PDT_OK);
    assert_memory_equal(pred, pred2, pdt_dataset_rows(ds) * sizeof *pred);
    free(pred);
    free(pred2);
    pdt_model_free(&back);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

/* The same optimum as the axis family (thresholds at data values are the same
 * partitions), for several depths; the model replays on raw rows. */
static void test_binary_matches_axis_on_csv(void **state)
{
    (void)state;
    const char *files[] = {"mouse.csv", "wine.csv"};
    for (size_t k = 0; k < 2; k++) {
        pdt_dataset *ds = csv_file(files[k], false);
        for (uint32_t depth = 1; depth <= 2; depth++) {
            pdt_model *b = fit(ds, depth, PDT_UNLIMITED, NULL);
            pdt_fit_options o;
            pdt_fit_options_init(&o);
            o.rules = "axis";
            o.max_depth = depth;
            o.max_size = (1u << depth) - 1;
            pdt_model *a = NULL;
            pdt_error err;
            assert_int_equal(pdt_fit(&a, ds, &o, &err), PDT_OK);
            assert_int_equal(b->misclassifications, a->misclassifications);
            check_model_replays(b, ds);
            pdt_model_free(&a);
            pdt_model_free(&b);
        }
        pdt_dataset_free(&ds);
    }
}

/* zoo (7 classes) with legs one-hot: replays, and one-hot can only help. */
static void test_binary_zoo_onehot_model(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_file("zoo.csv", true);
    pdt_model *plain = fit(ds, 2, 3, NULL), *hot = fit(ds, 2, 3, "onehot=legs");
    check_model_replays(plain, ds);
    check_model_replays(hot, ds);
    assert_true(hot->misclassifications <= plain->misclassifications);
    pdt_model_free(&plain);
    pdt_model_free(&hot);
    pdt_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_features_of_a_csv),
        cmocka_unit_test(test_binary_iris_threshold_count),
        cmocka_unit_test(test_binary_onehot),
        cmocka_unit_test(test_binary_bad_options),
        cmocka_unit_test(test_binary_export_agrees_with_sides),
        cmocka_unit_test(test_binary_relation_both_and_validate),
        cmocka_unit_test(test_binary_iris_predicts_raw_rows),
        cmocka_unit_test(test_binary_matches_axis_on_csv),
        cmocka_unit_test(test_binary_zoo_onehot_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
