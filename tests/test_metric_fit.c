/* Metric fits end to end (issue 10): the F1 optimum on DL8.5 files equals
 * STreeD's (REFERENCE_F1.tsv, positive class 1), the result document carries
 * the metric and loads back checked, and bad input gets a clear refusal. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "test_util.h"

/* From /work/shared/data/dl85/REFERENCE_F1.tsv (STreeD, -task f1-score). */
static const struct {
    const char *file;
    uint32_t depth;
    double f1;
} reference[] = {
    {"dl85/vote.txt", 2, 0.9676190476190476},        {"dl85/vote.txt", 3, 0.9773584905660377},
    {"dl85/hepatitis.txt", 2, 0.9298245614035088},   {"dl85/hepatitis.txt", 3, 0.956140350877193},
    {"dl85/tic-tac-toe.txt", 2, 0.800810263335584},  {"dl85/tic-tac-toe.txt", 3, 0.8449720670391061},
    {"dl85/tic-tac-toe.txt", 4, 0.8938714499252616}, {"zoo-1.txt", 3, 1.0},
    {"dl85/anneal.txt", 2, 0.900939985538684},       {"dl85/hepatitis.txt", 4, 0.9865470852017937},
    {"dl85/vote.txt", 4, 0.9906191369606003},
};

static pdt_model *fit(const char *file, uint32_t depth, pdt_metric metric, const char *positive)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_load_dl85(&ds, tu_data(file), &err)) fail_msg("%s", err.message);
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "binary";
    o.max_depth = depth;
    o.metric = metric;
    o.positive = positive;
    pdt_model *m = NULL;
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s", err.message);
    pdt_dataset_free(&ds);
    return m;
}

static void test_metric_fit_f1_reference(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof reference / sizeof *reference; k++) {
        pdt_model *m = fit(reference[k].file, reference[k].depth, PDT_METRIC_F1, "1");
        double got = mpq_get_d(m->objective);
        if (fabs(got - reference[k].f1) > 1e-12)
            fail_msg("%s depth %u: F1 %.16g, STreeD %.16g", reference[k].file, reference[k].depth, got,
                     reference[k].f1);
        /* the counts are the tree's: F1 = 2TP/(2TP+FP+FN) from them */
        const uint64_t *c = m->confusion;
        assert_true(fabs(got - (double)(2 * c[0]) / (double)(2 * c[0] + c[1] + c[2])) < 1e-15);
        assert_int_equal(c[0] + c[1] + c[2] + c[3], m->n_train);
        assert_true(m->depth <= reference[k].depth);
        pdt_model_free(&m);
    }
}

/* A certificate of F1 optimality from a different search: a tree has F1 > φ iff
 * φ·FP + (2 − φ)·FN < 2(1 − φ)·P (write TP = P − FN in 2TP/(2TP+FP+FN) > φ).  So
 * φ is the optimum iff the fewest weighted errors, class weights negative φ and
 * positive 2 − φ, is exactly 2(1 − φ)·P — computed here by the generic engine
 * (--engine fused, binary rules, class weights), which knows nothing of fronts. */
static void test_metric_fit_f1_certified_by_weighted_errors(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        uint32_t depth;
    } runs[] = {{"dl85/vote.txt", 2},        {"dl85/vote.txt", 3},        {"dl85/vote.txt", 4},
                {"dl85/hepatitis.txt", 2},   {"dl85/hepatitis.txt", 3},   {"dl85/hepatitis.txt", 4},
                {"dl85/tic-tac-toe.txt", 3}, {"dl85/tic-tac-toe.txt", 4}, {"dl85/anneal.txt", 3},
                {"dl85/anneal.txt", 4},      {"dl85/australian-credit.txt", 3}};
    mpq_t phi, other, want, two;
    mpq_inits(phi, other, want, two, NULL);
    mpq_set_ui(two, 2, 1);
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        pdt_model *f1 = fit(runs[k].file, runs[k].depth, PDT_METRIC_F1, "1");
        mpq_set(phi, f1->objective);
        uint64_t P = f1->confusion[0] + f1->confusion[2];
        mpq_sub(other, two, phi); /* 2 − φ */
        char *a = mpq_get_str(NULL, 10, phi), *b = mpq_get_str(NULL, 10, other), weights[256];
        snprintf(weights, sizeof weights, "0=%s,1=%s", a, b);
        free(a), free(b);
        pdt_dataset *ds = NULL;
        pdt_error err;
        if (pdt_dataset_load_dl85(&ds, tu_data(runs[k].file), &err)) fail_msg("%s", err.message);
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        o.rules = "binary";
        o.engine = PDT_ENGINE_FUSED;
        o.max_depth = runs[k].depth;
        o.class_weights = weights;
        pdt_model *w = NULL;
        if (pdt_fit(&w, ds, &o, &err)) fail_msg("%s", err.message);
        mpq_sub(want, two, phi); /* 2(1 − φ)·P = (2 − 2φ)·P */
        mpq_sub(want, want, phi);
        mpz_mul_ui(mpq_numref(want), mpq_numref(want), (unsigned long)P);
        mpq_canonicalize(want);
        if (!mpq_equal(w->objective, want)) {
            char *g = mpq_get_str(NULL, 10, w->objective), *e = mpq_get_str(NULL, 10, want);
            fail_msg("%s depth %u: weighted optimum %s, 2(1 − F1)·P = %s", runs[k].file, runs[k].depth, g, e);
        }
        pdt_model_free(&w), pdt_model_free(&f1);
        pdt_dataset_free(&ds);
    }
    mpq_clears(phi, other, want, two, NULL);
}

/* F1 ≥ the accuracy-optimal tree's F1 (it is one of the trees), and the same
 * holds for MCC and FM; the default positive class is the second. */
static void test_metric_fit_beats_accuracy_tree(void **state)
{
    (void)state;
    pdt_model *acc = fit("dl85/hepatitis.txt", 2, PDT_METRIC_ACCURACY, NULL);
    uint64_t tp = 0, fp = 0, fn = 0;
    for (size_t i = 0; i < acc->n_nodes; i++) {
        if (!pdt_node_is_leaf(&acc->nodes[i])) continue;
        const uint64_t *c = acc->counts + 2 * i;
        if (acc->nodes[i].label == 1) tp += c[1], fp += c[0];
        else fn += c[1];
    }
    pdt_model *f1 = fit("dl85/hepatitis.txt", 2, PDT_METRIC_F1, NULL);
    assert_int_equal(f1->positive, 1);
    assert_true(mpq_get_d(f1->objective) >= (double)(2 * tp) / (double)(2 * tp + fp + fn) - 1e-15);
    pdt_model *mcc = fit("dl85/hepatitis.txt", 2, PDT_METRIC_MCC, "1");
    assert_true(mcc->mcc_sign > 0 && mpq_cmp_ui(mcc->objective, 1, 1) <= 0);
    pdt_model *fm0 = fit("dl85/hepatitis.txt", 2, PDT_METRIC_FM, "0"); /* the other class positive */
    assert_int_equal(fm0->positive, 0);
    assert_int_equal(fm0->confusion[0] + fm0->confusion[2], acc->counts[0]); /* P = class 0's items */
    pdt_model_free(&acc), pdt_model_free(&f1), pdt_model_free(&mcc), pdt_model_free(&fm0);
}

/* A time limit that stops the front search returns the depth-2 optimum, flagged not optimal. */
static void test_metric_fit_time_limit(void **state)
{
    (void)state;
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_load_dl85(&ds, tu_data("dl85/australian-credit.txt"), &err)) fail_msg("%s", err.message);
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "binary";
    o.max_depth = 5; /* about a minute of search */
    o.metric = PDT_METRIC_F1;
    o.time_limit = 0.01;
    pdt_model *m = NULL;
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s", err.message);
    assert_false(m->optimal);
    assert_true(m->depth <= 2);
    assert_true(fabs(mpq_get_d(m->objective) - 0.8707280832095097) < 1e-12); /* STreeD's depth-2 F1 */
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

/* A cache cap (--memo-mb) that stops storing fronts: the same optimum, no more cached fronts. */
static void test_metric_fit_cache_cap(void **state)
{
    (void)state;
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_load_dl85(&ds, tu_data("dl85/anneal.txt"), &err)) fail_msg("%s", err.message);
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "binary";
    o.max_depth = 4;
    o.metric = PDT_METRIC_F1;
    pdt_model *full = NULL, *capped = NULL;
    if (pdt_fit(&full, ds, &o, &err)) fail_msg("%s", err.message);
    o.memo_megabytes = 1;
    if (pdt_fit(&capped, ds, &o, &err)) fail_msg("%s", err.message);
    assert_true(mpq_equal(full->objective, capped->objective));
    assert_true(fabs(mpq_get_d(capped->objective) - 0.9306930693069307) < 1e-12); /* REFERENCE_F1.tsv */
    /* the metric bound keeps anneal's depth-4 cache under 1 MiB (it held more before):
     * the cap may not bite here, it must not change the answer */
    assert_true(capped->stats.memo_entries <= full->stats.memo_entries);
    assert_true(capped->optimal);
    pdt_model_free(&full), pdt_model_free(&capped);
    pdt_dataset_free(&ds);
}

static void expect_refusal(const char *data, const char *const *extra, const char *message)
{
    char out[512];
    snprintf(out, sizeof out, "%s/should_not_exist.json", tu_tmpdir());
    char *argv[32] = {getenv("PDT_BIN"), "fit", "--data", (char *)data, "--depth", "2", "-o", out};
    size_t n = 8;
    for (size_t i = 0; extra[i]; i++) argv[n++] = (char *)extra[i];
    argv[n] = NULL;
    tu_run r;
    tu_run_argv(&r, argv);
    if (r.status == 0 || !strstr(r.err, message))
        fprintf(stderr, "status %d, stderr: %s\nexpected: %s\n", r.status, r.err, message);
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, message));
    assert_false(tu_exists(out));
    tu_run_free(&r);
}

static void test_metric_fit_refusals(void **state)
{
    (void)state;
    const char *vote = tu_data("dl85/vote.txt");
    char *v = strdup(vote);
    expect_refusal(tu_data("iris.csv"), (const char *const[]){"--rules", "binary", "--metric", "f1", NULL},
                   "option --metric f1: ");
    expect_refusal(tu_data("iris.csv"), (const char *const[]){"--rules", "binary", "--metric", "f1", NULL},
                   "has 3 classes; the metrics F1, MCC and FM are for two classes");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--metric", "mcc", "--positive", "yes", NULL},
                   "option --positive: 'yes' is not a class of");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--metric", "f1", "--sparse", "0.01", NULL},
                   "option --metric f1: not with --sparse");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--metric", "f1", "--lexicographic", NULL},
                   "option --metric f1: not with --lexicographic");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--metric", "fm", "--perfect", NULL},
                   "option --metric fm: not with --perfect");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--metric", "f1", "--class-weights", "0=1,1=2", NULL},
                   "option --metric f1: not with --class-weights");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--engine", "backend", "--metric", "f1", "--min-leaf",
                                            "3", NULL},
                   "option --metric f1: not with --min-leaf");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--metric", "f1", "--depth", "9", NULL},
                   "option --metric f1: depth 9; the front search goes to depth 8");
    /* other families: the generic engine's fronts (tests/oracle_metric_rules.c); its refusals */
    expect_refusal(tu_data("iris.csv"), (const char *const[]){"--rules", "axis", "--metric", "f1", NULL},
                   "has 3 classes; the metrics F1, MCC and FM are for two classes");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--engine", "combinations", "--metric", "f1", NULL},
                   "option --metric f1: not with --engine combinations");
    expect_refusal(tu_data("iris.csv"), (const char *const[]){"--rules", "hyperplane", "--engine", "backend", "--metric",
                                                              "mcc", NULL},
                   "option --metric mcc: rule family \"hyperplane\" has no specialised backend with fronts");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--metric", "auc", NULL},
                   "option --metric: 'auc' is not accuracy, f1, mcc or fm");
    expect_refusal(v, (const char *const[]){"--rules", "binary", "--positive", "1", NULL},
                   "option --positive: only with --metric");
    free(v);
}

static void replace_once(char *text, const char *from, const char *to)
{
    char *p = strstr(text, from);
    assert_non_null(p);
    assert_int_equal(strlen(from), strlen(to));
    memcpy(p, to, strlen(to));
}

static void test_metric_fit_json_round_trip(void **state)
{
    (void)state;
    char path[512], bad[512];
    snprintf(path, sizeof path, "%s/mcc.json", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("dl85/vote.txt"), "--rules", "binary", "--depth", "2", "--metric",
               "mcc", "--positive", "1", "-q", "-o", path, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "mcc 0.9"));
    tu_run_free(&r);
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_model_load_json(&m, path, &err)) fail_msg("%s", err.message);
    pdt_metric metric;
    uint32_t positive;
    uint64_t c[4];
    int sign;
    assert_true(pdt_model_metric(m, &metric, &positive, c, &sign));
    assert_int_equal(metric, PDT_METRIC_MCC);
    assert_int_equal(sign, 1);
    assert_int_equal(c[0] + c[1] + c[2] + c[3], 435);
    /* MCC² from the counts, computed here in doubles */
    double tp = (double)c[0], fp = (double)c[1], fn = (double)c[2], tn = (double)c[3];
    double mcc2 = (tp * tn - fp * fn) * (tp * tn - fp * fn) / ((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
    assert_true(fabs(mpq_get_d(m->objective) - mcc2) < 1e-12);
    pdt_model_free(&m);
    /* counts that are not the tree's are refused, naming the member */
    char *text = tu_read_file(path);
    char tp_text[64], tp_wrong[64];
    snprintf(tp_text, sizeof tp_text, "\"tp\": %llu", (unsigned long long)c[0]);
    snprintf(tp_wrong, sizeof tp_wrong, "\"tp\": %llu", (unsigned long long)(c[0] - 1));
    if (!strstr(text, tp_text)) fail_msg("no %s in %s", tp_text, text);
    if (strlen(tp_wrong) == strlen(tp_text)) {
        replace_once(text, tp_text, tp_wrong);
        char *written = tu_write_file("bad_tp.json", text);
        snprintf(bad, sizeof bad, "%s", written);
        free(written);
        assert_int_not_equal(pdt_model_load_json(&m, bad, &err), PDT_OK);
        assert_non_null(strstr(err.message, "metric.confusion.tp:"));
        assert_non_null(strstr(err.message, "but the tree's leaves give"));
    }
    free(text);
}

/* The root front in the document: read back, and refused when a point beats the tree. */
static void test_metric_fit_front_in_document(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/f1.json", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("dl85/vote.txt"), "--rules", "binary", "--depth", "2", "--metric",
               "f1", "-q", "-o", path, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_model_load_json(&m, path, &err)) fail_msg("%s", err.message);
    assert_non_null(m->front);
    assert_true(m->front_points >= 2);
    bool on = false; /* the tree's (FP, FN) is a point of the front; FP ascending, FN descending */
    size_t at = 0;
    for (size_t i = 0; i < m->front_points; i++) {
        if (m->front[2 * i] == m->confusion[1] && m->front[2 * i + 1] == m->confusion[2]) on = true, at = i;
        if (i) assert_true(m->front[2 * i] > m->front[2 * i - 2] && m->front[2 * i + 1] < m->front[2 * i - 1]);
    }
    assert_true(on);
    /* the point after the tree's replaced by (FP + 1, FN − 1): still sorted and nondominated,
     * and one more true positive at the same FP + FN: a better F1 than the tree's */
    assert_true(at + 1 < m->front_points);
    char from[64], to[64];
    uint32_t fp = m->front[2 * at + 2], fn = m->front[2 * at + 3];
    int len = snprintf(from, sizeof from, "%u,\n        %u\n", fp, fn);
    int short_len = snprintf(to, sizeof to, "%u,\n        %u\n", m->front[2 * at] + 1, m->front[2 * at + 1] - 1);
    assert_true(short_len <= len);
    snprintf(to, sizeof to, "%u,%*s\n        %u\n", m->front[2 * at] + 1, len - short_len, "",
             m->front[2 * at + 1] - 1); /* padded with JSON whitespace */
    pdt_model_free(&m);
    char *text = tu_read_file(path);
    if (strlen(from) == strlen(to) && strstr(text, from)) {
        replace_once(text, from, to);
        char *bad = tu_write_file("bad_front.json", text);
        assert_int_not_equal(pdt_model_load_json(&m, bad, &err), PDT_OK);
        if (!strstr(err.message, "has a better f1 than the tree's")) fail_msg("%s", err.message);
        free(bad);
    } else {
        fail_msg("no '%s' in the document", from);
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metric_fit_f1_reference),
        cmocka_unit_test(test_metric_fit_beats_accuracy_tree),
        cmocka_unit_test(test_metric_fit_f1_certified_by_weighted_errors),
        cmocka_unit_test(test_metric_fit_time_limit),
        cmocka_unit_test(test_metric_fit_cache_cap),
        cmocka_unit_test(test_metric_fit_refusals),
        cmocka_unit_test(test_metric_fit_json_round_trip),
        cmocka_unit_test(test_metric_fit_front_in_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
