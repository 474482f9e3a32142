/* Pareto fronts in the generic engine (issue 10): the front algebra's slots,
 * the generic engine's front against the binary backend's own front search
 * (two independent searches) on DL8.5 files, and `pdt front`: every point's
 * tree reaches the point, the marked point has the best metric, refusals. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "model_impl.h"
#include "test_util.h"
#include "front_check.h"

static void front_of(pdt_front *f, const uint32_t (*pts)[2], size_t n)
{
    pdt_front_init(f);
    for (size_t i = 0; i < n; i++) assert_true(pdt_front_push(f, pts[i][0], pts[i][1], 0, 0, 0));
    pdt_front_filter(f);
}

static void test_front_algebra_slots(void **state)
{
    (void)state;
    const pdt_algebra *a = &pdt_algebra_front;
    assert_false(a->selective);
    assert_true(a->idempotent);
    static const uint32_t x[][2] = {{0, 5}, {2, 2}, {5, 0}}, y[][2] = {{0, 1}, {1, 0}}, z[][2] = {{1, 1}, {3, 3}};
    pdt_front fx, fy, fz, r;
    front_of(&fx, x, 3), front_of(&fy, y, 2), front_of(&fz, z, 2);
    a->init(&r);
    /* ⊗: sums (0,6) (1,5) (2,3) (3,2) (5,1) (6,0), all nondominated */
    a->mul(&r, &fx, &fy);
    static const uint32_t sums[][2] = {{0, 6}, {1, 5}, {2, 3}, {3, 2}, {5, 1}, {6, 0}};
    assert_int_equal(r.n, 6);
    for (size_t i = 0; i < 6; i++) assert_true(r.p[i].fp == sums[i][0] && r.p[i].fn == sums[i][1]);
    /* ⊕: (1,1) dominates (2,2); (3,3) dominated */
    a->set(&r, &fx);
    a->add(&r, &fz);
    static const uint32_t un[][2] = {{0, 5}, {1, 1}, {5, 0}};
    assert_int_equal(r.n, 3);
    for (size_t i = 0; i < 3; i++) assert_true(r.p[i].fp == un[i][0] && r.p[i].fn == un[i][1]);
    /* idempotent, absorbed */
    a->add(&r, &r);
    assert_int_equal(r.n, 3);
    assert_true(a->absorbed(&fx, &r));  /* every point of x is weakly dominated by r */
    assert_false(a->absorbed(&r, &fx)); /* (1,1) is not */
    /* the empty front is the ⊕ identity and absorbed by anything */
    pdt_front e;
    a->init(&e);
    a->set_zero(&e);
    assert_true(a->is_zero(&e));
    assert_true(a->absorbed(&e, &fx));
    a->mul(&r, &fx, &e);
    assert_true(a->is_zero(&r));
    a->clear(&e), a->clear(&r);
    pdt_front_clear(&fx), pdt_front_clear(&fy), pdt_front_clear(&fz);
}

/* The generic engine's front (--engine fused) against the binary backend's: the
 * same at depth 2; deeper, the backend keeps the points with the best metric
 * (its metric bound prunes the others). */
static void test_front_fused_equals_binary_backend(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        uint32_t depth;
    } runs[] = {{"dl85/vote.txt", 2}, {"dl85/vote.txt", 3}, {"dl85/hepatitis.txt", 3}, {"dl85/tic-tac-toe.txt", 3},
                {"dl85/anneal.txt", 2}, {"zoo-1.txt", 3}};
    static const pdt_metric metrics[] = {PDT_METRIC_F1, PDT_METRIC_MCC, PDT_METRIC_FM};
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        pdt_dataset *ds = NULL;
        pdt_error err;
        if (pdt_dataset_load_dl85(&ds, tu_data(runs[k].file), &err)) fail_msg("%s", err.message);
        for (size_t mi = 0; mi < 3; mi++) {
            pdt_model *m[2] = {NULL, NULL};
            for (int e = 0; e < 2; e++) {
                pdt_fit_options o;
                pdt_fit_options_init(&o);
                o.rules = "binary";
                o.max_depth = runs[k].depth;
                o.metric = metrics[mi];
                o.engine = e ? PDT_ENGINE_FUSED : PDT_ENGINE_BACKEND;
                if (pdt_fit(&m[e], ds, &o, &err)) fail_msg("%s: %s", runs[k].file, err.message);
            }
            assert_string_equal(m[0]->engine, "binary");
            assert_string_equal(m[1]->engine, "fused");
            expect_fit_front(m[1], m[0], runs[k].depth > 2);
            pdt_model_free(&m[0]), pdt_model_free(&m[1]);
        }
        pdt_dataset_free(&ds);
    }
}

/* 24 points in the plane, two classes around a diagonal band with some noise. */
static char *plane_csv(void)
{
    char text[2048];
    size_t len = (size_t)snprintf(text, sizeof text, "x,y,class\n");
    for (int i = 0; i < 24; i++) {
        int x = (i * 7) % 11, y = (i * 5 + 3) % 13;
        int c = (x + y > 11) ^ (i % 7 == 0);
        len += (size_t)snprintf(text + len, sizeof text - len, "%d,%d,%s\n", x, y, c ? "pos" : "neg");
    }
    return tu_write_file("plane.csv", text);
}

static int64_t jint(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v)) fail_msg("no integer %s", key);
    return (int64_t)json_integer_value(v);
}

/* `pdt front`: each point's tree reaches it (its document's counts, which the
 * reader recomputes from the tree's leaves), and the marked point's F1 is the best. */
static void test_front_command(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/front.json", tu_tmpdir());
    char *data = plane_csv();
    tu_run r;
    tu_run_pdt(&r, "front", "--data", data, "--rules", "hyperplane", "--size", "2", "--positive", "pos", "-o",
               path, NULL);
    free(data);
    if (r.status != 0) fail_msg("%s", r.err);
    assert_non_null(strstr(r.out, "Pareto front of (FP, FN):"));
    tu_run_free(&r);
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) fail_msg("%s: %s", path, je.text);
    assert_string_equal(json_string_value(json_object_get(doc, "format")), "pdt-front");
    json_t *pts = json_object_get(doc, "points");
    size_t n = json_array_size(pts), best = (size_t)jint(doc, "best");
    int64_t P = jint(doc, "positives"), N = jint(doc, "negatives");
    assert_true(n >= 2 && best < n);
    int64_t bfp = 0, bfn = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_array_get(pts, i);
        int64_t fp = jint(p, "fp"), fn = jint(p, "fn");
        if (i) { /* FP ascending, FN descending */
            json_t *q = json_array_get(pts, i - 1);
            assert_true(jint(q, "fp") < fp && jint(q, "fn") > fn);
        }
        /* the tree's own document, read back by the model reader (which recounts its leaves) */
        char *text = json_dumps(json_object_get(p, "tree"), 0);
        char name[64];
        snprintf(name, sizeof name, "point%zu.json", i);
        char *file = tu_write_file(name, text);
        free(text);
        pdt_model *m = NULL;
        pdt_error err;
        if (pdt_model_load_json(&m, file, &err)) fail_msg("point %zu: %s", i, err.message);
        assert_int_equal(m->confusion[1], (uint64_t)fp);
        assert_int_equal(m->confusion[2], (uint64_t)fn);
        assert_true(m->size <= 2);
        assert_int_equal(m->optimal, i == best);
        pdt_model_free(&m);
        free(file);
        if (i == best) bfp = fp, bfn = fn;
    }
    /* F1 = 2TP/(2TP+FP+FN): no point better than the marked one, compared here */
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_array_get(pts, i);
        int64_t fp = jint(p, "fp"), fn = jint(p, "fn"), tp = P - fn, btp = P - bfn;
        assert_true(2 * tp * (2 * btp + bfp + bfn) <= 2 * btp * (2 * tp + fp + fn));
    }
    (void)N;
    json_decref(doc);
}

static void test_front_command_refusals(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/refused.json", tu_tmpdir());
    static const struct {
        const char *args[6];
        const char *message;
    } cases[] = {
        {{"--data", "iris.csv", "--depth", "2", NULL}, "has 3 classes"},
        {{"--data", "mouse.csv", "--depth", "2", "--positive", "7"}, "option --positive: '7' is not a class"},
        {{"--data", "mouse.csv", NULL}, "give --depth D and/or --size K"},
        {{"--data", "mouse.csv", "--depth", "1", "--metric", "accuracy"}, "is not f1, mcc or fm"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char data[512];
        snprintf(data, sizeof data, "%s", tu_data(cases[k].args[1]));
        const char *a[6];
        memcpy(a, cases[k].args, sizeof a);
        a[1] = data;
        tu_run r;
        tu_run_pdt(&r, "front", a[0], a[1], "-o", path, a[2], a[3], a[4], a[5], NULL);
        assert_int_not_equal(r.status, 0);
        if (!strstr(r.err, cases[k].message)) fail_msg("case %zu: %s", k, r.err);
        assert_false(tu_exists(path));
        tu_run_free(&r);
    }
}

/* A metric fit for a non-binary family through the generic engine: the
 * result document round-trips (the reader recounts the tree's leaves). */
static void test_front_metric_fit_hyperplane(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/hyper_mcc.json", tu_tmpdir());
    char *data = plane_csv();
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "hyperplane", "--size", "2", "--metric", "mcc", "-q", "-o",
               path, NULL);
    free(data);
    if (r.status != 0) fail_msg("%s", r.err);
    tu_run_free(&r);
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_model_load_json(&m, path, &err)) fail_msg("%s", err.message);
    assert_int_equal(m->metric, PDT_METRIC_MCC);
    assert_true(m->front_points >= 1);
    assert_true(m->optimal);
    pdt_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_front_algebra_slots),
        cmocka_unit_test(test_front_fused_equals_binary_backend),
        cmocka_unit_test(test_front_command),
        cmocka_unit_test(test_front_command_refusals),
        cmocka_unit_test(test_front_metric_fit_hyperplane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
