/* Fronts of the categorical family (issue 10; backends/discrete/
 * discrete_front.c) on real data, and partial fronts after a time limit:
 *   - on kr-vs-kp's two-valued columns a multiway split is a binary one, so
 *     the categorical family's whole root front (and F1/MCC optimum) must be
 *     the binary backend's — two independent searches;
 *   - a time limit that stops a front search (categorical on kr-vs-kp, and
 *     the generic engine on australian-credit) returns a tree flagged not
 *     optimal whose recounted (FP, FN) is on the returned front and has the
 *     metric's best value on it, at least the depth-2 optimum (searched
 *     first); every point of such a front has a tree with its counts;
 *   - `pdt front --rules categorical`: every point's tree document is read
 *     back with the point's counts and multiway ways; refusals. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "model_impl.h"
#include "test_util.h"
#include "front_check.h"

static pdt_dataset *load(const char *file)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_load_csv(&ds, tu_data(file), NULL, &err)) fail_msg("%s", err.message);
    return ds;
}

/* kr-vs-kp without its columns of more than two categories. */
static pdt_dataset *two_valued(const pdt_dataset *ds)
{
    size_t d = pdt_dataset_dims(ds), k = 0, cols[64];
    for (size_t j = 0; j < d && k < 64; j++)
        if (pdt_dataset_categories(ds, j) == 2) cols[k++] = j;
    pdt_dataset *out = NULL;
    pdt_error err;
    if (pdt_dataset_columns(&out, ds, cols, k, &err)) fail_msg("%s", err.message);
    return out;
}

static pdt_model *fit(const pdt_dataset *ds, const char *rules, uint32_t depth, uint32_t size, pdt_metric metric,
                      double time_limit)
{
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = rules;
    o.max_depth = depth;
    o.max_size = size;
    o.metric = metric;
    o.time_limit = time_limit;
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s depth %u size %u: %s", rules, depth, size, err.message);
    return m;
}

static void test_front_categorical_equals_binary_backend(void **state)
{
    (void)state;
    pdt_dataset *all = load("categorical/kr-vs-kp.csv"), *ds = two_valued(all);
    static const struct { uint32_t depth, size; pdt_metric metric; } runs[] = {
        {2, PDT_UNLIMITED, PDT_METRIC_F1}, {3, 4, PDT_METRIC_MCC}, {PDT_UNLIMITED, 3, PDT_METRIC_FM},
    };
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        pdt_model *c = fit(ds, "categorical", runs[r].depth, runs[r].size, runs[r].metric, 0);
        pdt_model *b = fit(ds, "binary", runs[r].depth, runs[r].size, runs[r].metric, 0);
        assert_true(c->optimal && b->optimal);
        expect_fit_front(c, b, r > 0); /* the binary backend's metric bound from depth 3 or 4 nodes on */
        assert_true(c->size <= runs[r].size && c->depth <= runs[r].depth);
        pdt_model_free(&c), pdt_model_free(&b);
    }
    pdt_dataset_free(&ds), pdt_dataset_free(&all);
}

/* The model's recounted (FP, FN) is on its front and the metric's best point of it. */
static void expect_best_of_own_front(const pdt_model *m, const pdt_dataset *ds)
{
    size_t n = pdt_dataset_rows(ds);
    uint32_t *pred = malloc(n * sizeof *pred);
    pdt_error err;
    assert_int_equal(pdt_model_predict(pred, m, ds, &err), PDT_OK);
    pdt_confusion c = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        bool says = pred[i] == m->positive, is = pdt_dataset_label(ds, i) == m->positive;
        says ? (is ? c.tp++ : c.fp++) : (is ? c.fn++ : c.tn++);
    }
    free(pred);
    assert_true(m->front_points >= 1);
    bool on = false;
    for (size_t i = 0; i < m->front_points; i++) {
        on |= m->front[2 * i] == c.fp && m->front[2 * i + 1] == c.fn;
        pdt_confusion o = pdt_confusion_of(m->front[2 * i], m->front[2 * i + 1], c.tp + c.fn, c.tn + c.fp);
        assert_true(pdt_metric_cmp(m->metric, &c, &o) >= 0);
    }
    assert_true(on);
}

/* A stopped front search (`pdt front --time-limit`): every point of the front
 * found so far has a tree with exactly its counts. */
static void expect_partial_front_trees(const pdt_dataset *ds, const pdt_fit_options *o)
{
    pdt_front_fit *f = NULL;
    pdt_error err;
    if (pdt_front_fit_run(&f, ds, o, &err)) fail_msg("%s", err.message);
    size_t n = pdt_front_fit_points(f), rows = pdt_dataset_rows(ds);
    assert_false(pdt_front_fit_complete(f));
    uint32_t *pred = malloc(rows * sizeof *pred), positive;
    pdt_front_fit_classes(f, &positive, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        uint64_t fp, fn, got_fp = 0, got_fn = 0;
        pdt_front_fit_point(f, i, &fp, &fn);
        pdt_model *m = NULL;
        if (pdt_front_fit_model(&m, f, i, o->metric, &err)) fail_msg("point %zu: %s", i, err.message);
        assert_false(m->optimal);
        assert_int_equal(pdt_model_predict(pred, m, ds, &err), PDT_OK);
        for (size_t r = 0; r < rows; r++) {
            bool says = pred[r] == positive, is = pdt_dataset_label(ds, r) == positive;
            got_fp += says && !is, got_fn += !says && is;
        }
        assert_int_equal(got_fp, fp);
        assert_int_equal(got_fn, fn);
        pdt_model_free(&m);
    }
    free(pred);
    pdt_front_fit_free(&f);
}

static pdt_confusion confusion_of(const pdt_model *m)
{
    return (pdt_confusion){m->confusion[0], m->confusion[1], m->confusion[2], m->confusion[3]};
}

/* m's metric is at least that of the optimum `floor`. */
static void expect_at_least(const pdt_model *m, const pdt_model *floor)
{
    pdt_confusion a = confusion_of(m), b = confusion_of(floor);
    assert_true(floor->optimal);
    if (pdt_metric_cmp(m->metric, &a, &b) < 0) fail_msg("stopped at (%llu, %llu), below the depth-2 optimum (%llu, %llu)",
                                                         (unsigned long long)a.fp, (unsigned long long)a.fn,
                                                         (unsigned long long)b.fp, (unsigned long long)b.fn);
}

static void test_front_categorical_time_limit(void **state)
{
    (void)state;
    pdt_dataset *ds = load("categorical/kr-vs-kp.csv");
    /* depth 4 takes seconds; 0.02 s and 0.6 s stop it with the root's splits
     * completed so far (none, or some): a tree either way */
    static const double limits[] = {0.02, 0.6};
    for (size_t t = 0; t < 2; t++) {
        pdt_metric metric = t ? PDT_METRIC_MCC : PDT_METRIC_F1;
        pdt_model *m = fit(ds, "categorical", 4, PDT_UNLIMITED, metric, limits[t]);
        assert_false(m->optimal);
        assert_true(m->depth <= 4);
        expect_best_of_own_front(m, ds);
        /* the depth-2 front is searched first: once it is finished, the answer is at least its
         * optimum.  The shorter limit may stop inside it (its front so far is then the answer:
         * under ASan on a loaded machine the depth-2 search alone can take longer than 0.02 s) */
        pdt_model *d2 = fit(ds, "categorical", 2, PDT_UNLIMITED, metric, 0);
        if (t) expect_at_least(m, d2);
        pdt_model_free(&d2);
        pdt_model_free(&m);
    }
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "categorical";
    o.max_depth = 4;
    o.metric = PDT_METRIC_F1;
    o.time_limit = 0.3;
    expect_partial_front_trees(ds, &o);
    pdt_dataset_free(&ds);
    /* the generic engine (binary rules, --engine fused) on australian-credit, depth 4, at most 5
     * nodes (seconds): a root split is several budget pairs, stopped inside one or between */
    pdt_error err;
    if (pdt_dataset_load_dl85(&ds, tu_data("dl85/australian-credit.txt"), &err)) fail_msg("%s", err.message);
    o.rules = "binary";
    o.engine = PDT_ENGINE_FUSED;
    o.max_size = 5;
    o.metric = PDT_METRIC_FM;
    for (size_t t = 0; t < 2; t++) {
        o.time_limit = limits[t] / 2;
        pdt_model *m = NULL;
        if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s", err.message);
        assert_false(m->optimal);
        assert_true(m->depth <= 4 && m->size <= 5);
        expect_best_of_own_front(m, ds);
        pdt_model *d2 = fit(ds, "binary", 2, PDT_UNLIMITED, PDT_METRIC_FM, 0); /* the binary backend's */
        if (t) expect_at_least(m, d2); /* (0.01 s may stop inside the depth-2 rung, as above) */
        pdt_model_free(&d2);
        pdt_model_free(&m);
        expect_partial_front_trees(ds, &o);
    }
    pdt_dataset_free(&ds);
}

static const char *const small_csv = "colour,shape,y\n"
                                      "red,round,no\nred,square,yes\nblue,round,no\nblue,square,no\n"
                                      "green,round,yes\ngreen,square,yes\nred,round,no\nblue,square,yes\n"
                                      "amber,round,yes\namber,square,no\n";

static void test_front_categorical_command(void **state)
{
    (void)state;
    char *data = tu_write_file("small_cat.csv", small_csv), path[512];
    snprintf(path, sizeof path, "%s/cat_front.json", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "front", "--data", data, "--rules", "categorical", "--depth", "2", "--metric", "mcc",
               "--positive", "yes", "-o", path, NULL);
    if (r.status != 0) fail_msg("%s", r.err);
    tu_run_free(&r);
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) fail_msg("%s: %s", path, je.text);
    json_t *pts = json_object_get(doc, "points");
    size_t n = json_array_size(pts), ways = 0;
    assert_true(json_is_true(json_object_get(doc, "complete")));
    assert_true(n >= 2);
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_array_get(pts, i);
        char *text = json_dumps(json_object_get(p, "tree"), 0);
        ways += strstr(text, "\"ways\"") != NULL;
        char name[64];
        snprintf(name, sizeof name, "cat_point%zu.json", i);
        char *file = tu_write_file(name, text);
        free(text);
        pdt_model *m = NULL;
        pdt_error err;
        if (pdt_model_load_json(&m, file, &err)) fail_msg("point %zu: %s", i, err.message);
        assert_int_equal(m->confusion[1], (uint64_t)json_integer_value(json_object_get(p, "fp")));
        assert_int_equal(m->confusion[2], (uint64_t)json_integer_value(json_object_get(p, "fn")));
        assert_true(m->depth <= 2);
        pdt_model_free(&m);
        /* and `pdt predict` reads it */
        tu_run_pdt(&r, "predict", "--model", file, "--data", data, NULL);
        if (r.status != 0) fail_msg("%s", r.err);
        tu_run_free(&r);
        free(file);
    }
    assert_true(ways >= 1); /* some tree splits in more than two ways */
    json_decref(doc);
    free(data);
}

static void test_front_categorical_refusals(void **state)
{
    (void)state;
    char *data = tu_write_file("small_cat2.csv", small_csv);
    char *three = tu_write_file("three.csv", "c,y\nred,a\nblue,b\ngreen,c\n");
    static const struct {
        const char *args[8];
        const char *message;
    } cases[] = {
        {{"--engine", "fused", "--depth", "2", "--metric", "f1", NULL}, "splits in more than two ways"},
        {{"--depth", "2", "--metric", "f1", "--sparse", "0.01", NULL}, "not with --sparse"},
        {{"--depth", "2", "--metric", "f1", "--positive", "maybe", NULL}, "'maybe' is not a class"},
        {{"--metric", "mcc", NULL}, "give --size K and/or --depth D"},
        {{"--depth", "2", "--metric", "fm", "--rule-options", "onehot=*", NULL}, "categorical rules take none"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *const *a = cases[k].args;
        tu_run r;
        tu_run_pdt(&r, "fit", "--data", data, "--rules", "categorical", a[0], a[1], a[2], a[3], a[4], a[5], a[6],
                   NULL);
        assert_int_not_equal(r.status, 0);
        if (!strstr(r.err, cases[k].message)) fail_msg("case %zu: %s", k, r.err);
        tu_run_free(&r);
    }
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "categorical", "--engine", "backend", "--depth", "2", "--metric",
               "f1", NULL); /* the family's own front search */
    if (r.status != 0) fail_msg("%s", r.err);
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", three, "--rules", "categorical", "--depth", "1", "--metric", "f1", NULL);
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "has 3 classes"));
    tu_run_free(&r);
    free(data), free(three);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_front_categorical_equals_binary_backend),
        cmocka_unit_test(test_front_categorical_time_limit),
        cmocka_unit_test(test_front_categorical_command),
        cmocka_unit_test(test_front_categorical_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
