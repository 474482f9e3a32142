/* The model: shape, accessors, exact prediction and the text form. */
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "model_fixture.h"
#include "test_util.h"

/* Just above 4/5 and 1/3: the nearest doubles cannot tell them apart. */
#define TINY "/1000000000000000000000000000000"
#define ABOVE_4_5 "800000000000000000000000000001" TINY /* 4/5 + 1e-30 */
#define ABOVE_1_3 "1000000000000000000000000000001/3000000000000000000000000000000"

static void predict_ok(uint32_t *got, const pdt_model *m, const pdt_dataset *ds)
{
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_model_predict(got, m, ds, &err), PDT_OK);
}

static void test_model_predict_exact_boundaries(void **state)
{
    (void)state;
    static const char *const features[] = {"sepal", "petal_width"};
    static const char *const cells[] = {
        "0",
        "4/5", /* exactly on the root threshold: left, setosa */
        "0",
        ABOVE_4_5, /* just right of it; sepal 0 <= 1/3: versicolor */
        "1/3",
        "1", /* exactly on 1/3: versicolor */
        ABOVE_1_3,
        "1", /* just above 1/3: virginica */
        "-7/2",
        "-100", /* setosa */
        "333333333333333333/1000000000000000000",
        "2", /* 0.333... < 1/3: versicolor */
    };
    static const uint32_t want[] = {0, 1, 1, 2, 0, 1};
    pdt_model *m = mf_model(&mf_threshold_class);
    pdt_dataset *ds = mf_dataset(features, 2, cells, 6);
    uint32_t got[6];
    predict_ok(got, m, ds);
    for (size_t i = 0; i < 6; i++) assert_int_equal(got[i], want[i]);
    pdt_dataset_free(&ds);
    pdt_model_free(&m);
}

/* Columns are matched by name, in any order, extra columns ignored. */
static void test_model_predict_maps_features_by_name(void **state)
{
    (void)state;
    static const char *const features[] = {"extra", "petal_width", "sepal"};
    static const char *const cells[] = {
        "0", "1", "0", /* petal 1 > 4/5, sepal 0: versicolor */
        "9", "1", "1", /* sepal 1 > 1/3: virginica */
        "9", "0", "5", /* petal 0: setosa */
    };
    static const uint32_t want[] = {1, 2, 0};
    pdt_model *m = mf_model(&mf_threshold_class);
    pdt_dataset *ds = mf_dataset(features, 3, cells, 3);
    uint32_t got[3];
    predict_ok(got, m, ds);
    for (size_t i = 0; i < 3; i++) assert_int_equal(got[i], want[i]);
    pdt_dataset_free(&ds);
    pdt_model_free(&m);
}

static void test_model_predict_missing_feature(void **state)
{
    (void)state;
    static const char *const features[] = {"petal_width", "petal_length"};
    static const char *const cells[] = {"1", "2"};
    pdt_model *m = mf_model(&mf_threshold_class);
    pdt_dataset *ds = mf_dataset(features, 2, cells, 1);
    uint32_t got[1];
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_model_predict(got, m, ds, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "\"sepal\""));
    assert_non_null(strstr(err.message, "test.csv"));
    pdt_dataset_free(&ds);
    pdt_model_free(&m);
}

static pdt_status failing_classify(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims,
                                   pdt_error *err)
{
    (void)left, (void)rule, (void)x, (void)dims;
    return pdt_error_set(err, PDT_EINVAL, "cannot decide");
}

static const pdt_rule_class failing_class = {
    .version = PDT_RULE_V1, .name = "failing", .classify = failing_classify};

/* A plugin error reaches the caller with the family and the row named. */
static void test_model_predict_reports_plugin_error(void **state)
{
    (void)state;
    static const char *const features[] = {"sepal", "petal_width"};
    static const char *const cells[] = {"0", "0", "0", "0"};
    pdt_model *m = mf_model(&mf_threshold_class);
    mf_set_rule(m, 0, &failing_class, 1, "0");
    pdt_dataset *ds = mf_dataset(features, 2, cells, 2);
    uint32_t got[2];
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_model_predict(got, m, ds, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "failing"));
    assert_non_null(strstr(err.message, "row 1"));
    assert_non_null(strstr(err.message, "cannot decide"));
    pdt_dataset_free(&ds);
    pdt_model_free(&m);
}

/* A corrupt tree (a child pointing back up) is refused, not walked forever. */
static void test_model_predict_rejects_cyclic_tree(void **state)
{
    (void)state;
    static const char *const features[] = {"sepal", "petal_width"};
    static const char *const cells[] = {"5", "5"};
    pdt_model *m = mf_model(&mf_threshold_class);
    m->nodes[2].right = 0;
    pdt_dataset *ds = mf_dataset(features, 2, cells, 1);
    uint32_t got[1];
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_not_equal(pdt_model_predict(got, m, ds, &err), PDT_OK);
    assert_non_null(strstr(err.message, "node 2"));
    pdt_dataset_free(&ds);
    pdt_model_free(&m);
}

static void test_model_measure(void **state)
{
    (void)state;
    pdt_model *m = mf_model(&mf_threshold_class);
    assert_int_equal(pdt_model_size(m), 2);
    assert_int_equal(pdt_model_depth(m), 2);
    pdt_model_free(&m);
    m = mf_leaf_model();
    assert_int_equal(pdt_model_size(m), 0);
    assert_int_equal(pdt_model_depth(m), 0);
    /* unbalanced: 0 -> (1 leaf, 2 -> (3 -> (5, 6), 4)); size 3, depth 3 */
    pdt_model_free(&m);
    m = mf_model(&mf_threshold_class);
    m->n_nodes = 7;
    m->nodes = realloc(m->nodes, 7 * sizeof *m->nodes);
    assert_non_null(m->nodes);
    m->nodes[3] = (pdt_tree_node){.left = 5, .right = 6, .rule = 0};
    m->nodes[5] = (pdt_tree_node){.left = -1, .right = -1, .rule = -1};
    m->nodes[6] = m->nodes[5];
    pdt_model_measure(m);
    assert_int_equal(m->size, 3);
    assert_int_equal(m->depth, 3);
    pdt_model_free(&m);
}

static void test_model_accessors(void **state)
{
    (void)state;
    pdt_model *m = mf_model(&mf_threshold_class);
    mpq_t q;
    mpq_init(q);
    pdt_model_objective(q, m);
    assert_int_equal(mpq_cmp_ui(q, 6, 1), 0);
    mpq_clear(q);
    assert_true(pdt_model_optimal(m));
    assert_int_equal(pdt_model_classes(m), 3);
    assert_string_equal(pdt_model_class_name(m, 2), "virginica");
    assert_null(pdt_model_class_name(m, 3));
    assert_true(pdt_model_seconds(m) == 0.125);
    pdt_model_free(&m);
    assert_null(m);
    pdt_model_free(&m); /* NULL is fine */
    pdt_model_free(NULL);
}

static void test_model_set_names_copies(void **state)
{
    (void)state;
    static const char *const features[] = {"a", "b", "c"};
    static const char *const cells[] = {"1", "2", "3"};
    pdt_dataset *ds = mf_dataset(features, 3, cells, 1);
    ds->n_classes = 2;
    ds->classes = calloc(2, sizeof *ds->classes);
    ds->classes[0] = strdup("no");
    ds->classes[1] = strdup("yes");
    pdt_model *m = mf_model(&mf_threshold_class);
    assert_int_equal(pdt_model_set_names(m, ds, NULL), PDT_OK);
    pdt_dataset_free(&ds); /* the model keeps its own copies */
    assert_int_equal(m->dims, 3);
    assert_string_equal(m->features[2], "c");
    assert_int_equal(m->n_classes, 2);
    assert_string_equal(m->classes[1], "yes");
    pdt_model_free(&m);
}

static char *text_of(const pdt_model *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_model_write_text(m, f, &err), PDT_OK);
    fclose(f);
    return buf;
}

static void test_model_text_output(void **state)
{
    (void)state;
    pdt_model *m = mf_model(&mf_threshold_class);
    char *text = text_of(m);
    assert_non_null(strstr(text, "objective 6, size 2, depth 2, optimal\n"));
    assert_non_null(
        strstr(text, "\nif petal_width ≤ 0.8:\n    → setosa  (50 items: 50/0/0)\nelse:\n"));
    assert_non_null(
        strstr(text, "\n    if sepal ≤ 1/3:\n        → versicolor  (54 items: 0/49/5)\n"));
    assert_non_null(strstr(text, "\n    else:\n        → virginica  (46 items: 0/1/45)\n"));
    free(text);
    m->optimal = false;
    text = text_of(m);
    assert_non_null(strstr(text, "depth 2, not proven optimal\n"));
    free(text);
    m->stopped_by = PDT_STOP_MEMORY;
    text = text_of(m);
    assert_non_null(strstr(text, "depth 2, not proven optimal: stopped by the memory limit\n"));
    free(text);
    pdt_model_free(&m);
    m = mf_leaf_model();
    text = text_of(m);
    assert_non_null(strstr(text, "size 0, depth 0"));
    assert_non_null(strstr(text, "\n→ setosa  (150 items: 50/50/50)\n"));
    free(text);
    pdt_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_predict_exact_boundaries),
        cmocka_unit_test(test_model_predict_maps_features_by_name),
        cmocka_unit_test(test_model_predict_missing_feature),
        cmocka_unit_test(test_model_predict_reports_plugin_error),
        cmocka_unit_test(test_model_predict_rejects_cyclic_tree),
        cmocka_unit_test(test_model_measure),
        cmocka_unit_test(test_model_accessors),
        cmocka_unit_test(test_model_set_names_copies),
        cmocka_unit_test(test_model_text_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
