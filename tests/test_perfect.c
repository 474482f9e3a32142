/* The smallest perfect tree (pdt_fit_options.perfect, `pdt fit --perfect`).
 *
 * Expected answers come from outside the program: small instances worked out
 * by hand (below, each with its argument), and InferDT's answers on public
 * data (../shared/data/csv/REFERENCE_PERFECT.tsv, measured with the SAT-based
 * InferDT: least depth, then fewest branch nodes, with thresholds x ≤ v and
 * with equality tests x = v).  For the size-first mode on real data, where no
 * peer's answer is on record, the answer is checked against its definition
 * with separately run limited fits (each a proven optimum, oracle-tested on
 * its own): no tree with one node fewer reaches the floor at any depth, and
 * none with the same size is shallower. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "test_util.h"

static pdt_dataset *csv(const char *text)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "hand.csv", &(pdt_csv_options){0}, &err))
        fail_msg("%s", err.message);
    return ds;
}

static pdt_dataset *load(const char *name, const char *skip)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    const char *const skips[] = {skip};
    pdt_csv_options o = {.skip = skip ? skips : NULL, .n_skip = skip ? 1 : 0};
    if (pdt_dataset_load_csv(&ds, tu_data(name), &o, &err)) fail_msg("%s", err.message);
    return ds;
}

typedef struct want {
    uint64_t floor;
    bool reached;
    uint32_t depth, size; /* when reached */
} want;

/* Fits with `perfect` and checks the answer, the proofs and the tree's errors. */
static pdt_model *fit_perfect(const pdt_dataset *ds, pdt_fit_options o, pdt_perfect_mode mode, want w)
{
    o.perfect = mode;
    o.threads = 1;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("pdt_fit: %s", err.message);
    pdt_perfect_info info;
    assert_true(pdt_model_perfect(m, &info));
    assert_int_equal(info.mode, mode);
    assert_int_equal(info.floor, w.floor);
    assert_int_equal(info.reached, w.reached);
    assert_true(info.fits >= 1);
    if (!w.reached) return m;
    if (pdt_model_depth(m) != w.depth || pdt_model_size(m) != w.size)
        fail_msg("%s, mode %d: depth %u size %u, expected depth %u size %u", pdt_dataset_name(ds), mode,
                 pdt_model_depth(m), pdt_model_size(m), w.depth, w.size);
    assert_true(info.depth_proven);
    assert_true(info.size_proven);
    assert_true(pdt_model_optimal(m));
    /* the tree itself makes exactly floor errors on the training rows */
    size_t n = pdt_dataset_rows(ds), wrong = 0;
    uint32_t *pred = malloc(n * sizeof *pred);
    if (pdt_model_predict(pred, m, ds, &err)) fail_msg("predict: %s", err.message);
    for (size_t i = 0; i < n; i++)
        wrong += strcmp(pdt_model_class_name(m, pred[i]), pdt_dataset_class_name(ds, pdt_dataset_label(ds, i))) != 0;
    free(pred);
    assert_int_equal(wrong, w.floor);
    return m;
}

static void both_modes(const pdt_dataset *ds, const char *rules, pdt_engine engine, want w)
{
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = rules;
    o.engine = engine;
    pdt_model *m = fit_perfect(ds, o, PDT_PERFECT_DEPTH, w);
    pdt_model_free(&m);
    m = fit_perfect(ds, o, PDT_PERFECT_SIZE, w);
    pdt_model_free(&m);
}

/* XOR on four points: one threshold leaves two mixed pairs, and after any root
 * threshold both sides are mixed, so two branch nodes leave an error; a root
 * split and one split in each child is perfect: depth 2, 3 nodes.  Hyperplanes
 * (lines through two data points, the points on the line assigned to either
 * side) cut (0,0) off with the line through (0,1) and (1,0), then (1,1) off the
 * other three with the same line, its two points now on the other side:
 * depth 2, 2 nodes; one line cannot do it (XOR is not linearly separable). */
static const char XOR4[] = "x,y,c\n0,0,a\n0,1,b\n1,0,b\n1,1,a\n";

static void test_perfect_xor(void **state)
{
    (void)state;
    pdt_dataset *ds = csv(XOR4);
    both_modes(ds, "axis", PDT_ENGINE_AUTO, (want){0, true, 2, 3});
    both_modes(ds, "axis", PDT_ENGINE_FUSED, (want){0, true, 2, 3});
    both_modes(ds, "hyperplane", PDT_ENGINE_AUTO, (want){0, true, 2, 2});
    pdt_dataset_free(&ds);
}

/* Eight points on a line, labels alternating: every one of the 7 boundaries
 * must be a threshold (7 nodes, 8 leaves), and 8 leaves need depth 3, which
 * the balanced tree of those 7 thresholds has. */
static void test_perfect_alternating_line(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,c\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n7,a\n8,b\n");
    both_modes(ds, "axis", PDT_ENGINE_AUTO, (want){0, true, 3, 7});
    both_modes(ds, "axis", PDT_ENGINE_FUSED, (want){0, true, 3, 7});
    pdt_dataset_free(&ds);
}

/* Inconsistent rows.  x = 0: a, a, b (floor 1); x = 1: b, b, a, b (floor 1):
 * floor 2; a single leaf (3 a, 4 b) makes 3 errors, the split x ≤ 0 makes 2:
 * depth 1, one node.  Two equal rows of different classes alone: floor 1, the
 * leaf reaches it: depth 0, no node. */
static void test_perfect_inconsistent(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,c\n0,a\n0,a\n0,b\n1,b\n1,b\n1,a\n1,b\n");
    both_modes(ds, "axis", PDT_ENGINE_AUTO, (want){2, true, 1, 1});
    both_modes(ds, "axis", PDT_ENGINE_FUSED, (want){2, true, 1, 1});
    pdt_dataset_free(&ds);
    ds = csv("x,y,c\n3,1,a\n3,1,b\n");
    both_modes(ds, "axis", PDT_ENGINE_AUTO, (want){1, true, 0, 0});
    both_modes(ds, "hyperplane", PDT_ENGINE_AUTO, (want){1, true, 0, 0});
    pdt_dataset_free(&ds);
}

/* Caps: XOR within depth 1 has no perfect tree; the answer is the best tree
 * within the cap (a stump, 2 errors) and says so. */
static void test_perfect_caps(void **state)
{
    (void)state;
    pdt_dataset *ds = csv(XOR4);
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.max_depth = 1;
    for (int mode = PDT_PERFECT_DEPTH; mode <= PDT_PERFECT_SIZE; mode++) {
        pdt_model *m = fit_perfect(ds, o, (pdt_perfect_mode)mode, (want){0, false, 0, 0});
        mpq_t obj;
        mpq_init(obj);
        pdt_model_objective(obj, m);
        assert_int_equal(mpq_cmp_si(obj, 2, 1), 0);
        assert_true(pdt_model_depth(m) <= 1);
        mpq_clear(obj);
        pdt_model_free(&m);
    }
    /* a size cap of 2 refuses the 3-node axis tree too */
    o.max_depth = PDT_UNLIMITED;
    o.max_size = 2;
    pdt_model *m = fit_perfect(ds, o, PDT_PERFECT_DEPTH, (want){0, false, 0, 0});
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

static void test_perfect_refusals(void **state)
{
    (void)state;
    pdt_dataset *ds = csv(XOR4);
    for (int k = 0; k < 4; k++) {
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        o.perfect = PDT_PERFECT_DEPTH;
        if (k == 0) o.class_weights = "a=2";
        if (k == 1) o.min_leaf = 1;
        if (k == 2) o.sparse = "0.1";
        if (k == 3) o.lexicographic = true;
        pdt_model *m = NULL;
        pdt_error err;
        pdt_error_clear(&err);
        assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_EINVAL);
        assert_null(m);
        assert_non_null(strstr(err.message, "--perfect"));
    }
    pdt_dataset_free(&ds);
}

/* InferDT's answers (REFERENCE_PERFECT.tsv): least depth, then fewest nodes,
 * with thresholds (axis) and with equality tests (binary, one-hot columns). */
static void test_perfect_inferdt(void **state)
{
    (void)state;
    static const struct { const char *file, *skip; bool equal; want w; } rows[] = {
        {"monk1.csv", NULL, false, {0, true, 5, 7}}, {"monk3.csv", NULL, false, {0, true, 6, 19}},
        {"iris.csv", NULL, false, {0, true, 4, 7}},  {"wine.csv", NULL, false, {0, true, 3, 7}},
        {"mouse.csv", NULL, false, {0, true, 4, 7}}, {"zoo.csv", "animal_name", false, {0, true, 4, 10}},
        {"monk1.csv", NULL, true, {0, true, 4, 6}},  {"monk3.csv", NULL, true, {0, true, 5, 17}},
    };
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++) {
        pdt_dataset *ds = load(rows[k].file, rows[k].skip);
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        if (rows[k].equal) o.rules = "binary", o.rule_params.options = "onehot=*";
        pdt_model *m = fit_perfect(ds, o, PDT_PERFECT_DEPTH, rows[k].w);
        pdt_model_free(&m);
        pdt_dataset_free(&ds);
    }
}

/* The fewest errors of a limited fit. */
static uint64_t limited_errors(const pdt_dataset *ds, pdt_fit_options o, uint32_t depth, uint32_t size)
{
    o.max_depth = depth;
    o.max_size = size;
    o.threads = 1;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("pdt_fit: %s", err.message);
    assert_true(pdt_model_optimal(m));
    mpq_t obj;
    mpq_init(obj);
    pdt_model_objective(obj, m);
    assert_int_equal(mpz_cmp_ui(mpq_denref(obj), 1), 0);
    uint64_t e = mpz_get_ui(mpq_numref(obj));
    mpq_clear(obj);
    pdt_model_free(&m);
    return e;
}

/* Size first on real data, against the definition. */
static void test_perfect_size_first(void **state)
{
    (void)state;
    static const char *const files[] = {"monk1.csv", "mouse.csv", "iris.csv"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        pdt_dataset *ds = load(files[k], NULL);
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        o.perfect = PDT_PERFECT_SIZE;
        o.threads = 1;
        pdt_model *m = NULL;
        pdt_error err;
        pdt_error_clear(&err);
        if (pdt_fit(&m, ds, &o, &err)) fail_msg("pdt_fit: %s", err.message);
        pdt_perfect_info info;
        assert_true(pdt_model_perfect(m, &info));
        assert_true(info.reached && info.depth_proven && info.size_proven);
        assert_int_equal(info.floor, 0);
        uint32_t d = pdt_model_depth(m), s = pdt_model_size(m);
        o.perfect = PDT_PERFECT_NONE;
        assert_int_equal(limited_errors(ds, o, d, s), 0);
        assert_true(limited_errors(ds, o, s - 1, s - 1) > 0);
        assert_true(limited_errors(ds, o, d - 1, s) > 0);
        pdt_model_free(&m);
        pdt_dataset_free(&ds);
    }
}

/* A time limit: 600 rows of random labels on 4 random features need a deep
 * tree, far beyond a quarter of a second of limited fits; the answer comes
 * back in time with the part it could not prove flagged. */
static void test_perfect_time_limit(void **state)
{
    (void)state;
    enum { N = 600 };
    char *text = malloc(N * 40 + 64);
    size_t len = (size_t)sprintf(text, "a,b,c,d,class\n");
    tu_rng rng = {0x9e2f};
    for (int i = 0; i < N; i++)
        len += (size_t)sprintf(text + len, "%u,%u,%u,%u,%c\n", tu_below(&rng, 1000), tu_below(&rng, 1000),
                               tu_below(&rng, 1000), tu_below(&rng, 1000), "xy"[tu_below(&rng, 2)]);
    pdt_dataset *ds = csv(text);
    free(text);
    for (int mode = PDT_PERFECT_DEPTH; mode <= PDT_PERFECT_SIZE; mode++) {
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        o.perfect = (pdt_perfect_mode)mode;
        o.time_limit = 0.25;
        o.threads = 1;
        pdt_model *m = NULL;
        pdt_error err;
        pdt_error_clear(&err);
        if (pdt_fit(&m, ds, &o, &err)) fail_msg("pdt_fit: %s", err.message);
        pdt_perfect_info info;
        assert_true(pdt_model_perfect(m, &info));
        assert_true(info.fits >= 1);
        assert_false(info.reached && info.depth_proven && info.size_proven);
        if (!info.reached) assert_false(pdt_model_optimal(m));
        assert_true(pdt_model_seconds(m) < 30);
        pdt_model_free(&m);
    }
    pdt_dataset_free(&ds);
}

/* The command: the result document says what was found and proved, and the
 * options are checked. */
static void test_perfect_cli(void **state)
{
    (void)state;
    char *data = tu_write_file("xor.csv", XOR4);
    char out[512];
    snprintf(out, sizeof out, "%s/perfect.json", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--perfect", "-o", out, NULL);
    if (r.status) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "depth 2 proven least, 3 branch nodes proven fewest"));
    tu_run_free(&r);
    json_error_t je;
    json_t *doc = json_load_file(out, 0, &je);
    assert_non_null(doc);
    json_t *p = json_object_get(doc, "perfect");
    assert_non_null(p);
    assert_string_equal(json_string_value(json_object_get(p, "mode")), "depth");
    assert_int_equal(json_integer_value(json_object_get(p, "floor")), 0);
    assert_true(json_is_true(json_object_get(p, "reached")));
    assert_true(json_is_true(json_object_get(p, "depth_proven")));
    assert_true(json_is_true(json_object_get(p, "size_proven")));
    assert_int_equal(json_integer_value(json_object_get(doc, "size")), 3);
    json_decref(doc);
    /* the model predicts again, and --perfect=size is read */
    tu_run_pdt(&r, "predict", "--model", out, "--data", data, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--perfect=size", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "fewest branch nodes, then least depth"));
    tu_run_free(&r);
    /* caps that exclude every perfect tree are said, not hidden */
    tu_run_pdt(&r, "fit", "--data", data, "--perfect", "--depth", "1", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "none within the caps"));
    tu_run_free(&r);
    /* a bad mode, and a refused combination */
    tu_run_pdt(&r, "fit", "--data", data, "--perfect=deep", NULL);
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "option --perfect: 'deep' is not depth or size"));
    tu_run_free(&r);
    char out2[512];
    snprintf(out2, sizeof out2, "%s/refused.json", tu_tmpdir());
    tu_run_pdt(&r, "fit", "--data", data, "--perfect", "--class-weights", "a=2", "-o", out2, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "--perfect"));
    assert_false(tu_exists(out2));
    tu_run_free(&r);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perfect_xor),
        cmocka_unit_test(test_perfect_alternating_line),
        cmocka_unit_test(test_perfect_inconsistent),
        cmocka_unit_test(test_perfect_caps),
        cmocka_unit_test(test_perfect_refusals),
        cmocka_unit_test(test_perfect_inferdt),
        cmocka_unit_test(test_perfect_size_first),
        cmocka_unit_test(test_perfect_time_limit),
        cmocka_unit_test(test_perfect_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
