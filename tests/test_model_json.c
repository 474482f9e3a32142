/* The JSON result document: exact round trips and refusal of bad files. */
#define _GNU_SOURCE
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dataset_impl.h"
#include "model_fixture.h"
#include "test_util.h"

static const pdt_rule_class *axis(void)
{
    const pdt_rule_class *cls = pdt_rule_class_find("axis");
    assert_non_null(cls);
    return cls;
}

static char *tmp_path(const char *name)
{
    char *path = NULL;
    assert_true(asprintf(&path, "%s/%s", tu_tmpdir(), name) > 0);
    return path;
}

static char *save_ok(const pdt_model *m, const char *name)
{
    char *path = tmp_path(name);
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_save_json(m, path, &err);
    if (st != PDT_OK) fail_msg("save %s: %s", path, err.message);
    return path;
}

static pdt_model *load_ok(const char *path)
{
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_load_json(&m, path, &err);
    if (st != PDT_OK) fail_msg("load %s: %s", path, err.message);
    return m;
}

static void load_fails(const char *path, pdt_status want, const char *substring)
{
    pdt_model *m = (pdt_model *)&m; /* must be reset to NULL */
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_load_json(&m, path, &err);
    assert_null(m);
    if (st != want || !strstr(err.message, substring))
        fail_msg("load %s: status %d, message \"%s\"; wanted %d and \"%s\"", path, (int)st,
                 err.message, (int)want, substring);
}

static void assert_rules_equal(const pdt_rule *a, const pdt_rule *b)
{
    assert_ptr_equal(a->cls, b->cls);
    assert_int_equal(a->n_ints, b->n_ints);
    assert_int_equal(a->n_rats, b->n_rats);
    for (size_t k = 0; k < a->n_ints; k++) assert_int_equal(a->ints[k], b->ints[k]);
    for (size_t k = 0; k < a->n_rats; k++) assert_true(mpq_equal(a->rats[k], b->rats[k]));
}

static void assert_names_equal(char **a, char **b, size_t n)
{
    for (size_t k = 0; k < n; k++) assert_string_equal(a[k], b[k]);
}

static void assert_models_equal(const pdt_model *a, const pdt_model *b)
{
    assert_string_equal(a->problem, b->problem);
    assert_string_equal(a->families, b->families);
    assert_string_equal(a->data_name, b->data_name);
    assert_string_equal(a->engine, b->engine);
    assert_int_equal(a->n_train, b->n_train);
    assert_int_equal(a->dims, b->dims);
    assert_names_equal(a->features, b->features, a->dims);
    assert_int_equal(a->n_classes, b->n_classes);
    assert_names_equal(a->classes, b->classes, a->n_classes);
    assert_int_equal(a->n_rules, b->n_rules);
    for (size_t r = 0; r < a->n_rules; r++) assert_rules_equal(&a->rules[r], &b->rules[r]);
    assert_int_equal(a->n_nodes, b->n_nodes);
    assert_memory_equal(a->nodes, b->nodes, a->n_nodes * sizeof *a->nodes);
    assert_memory_equal(a->counts, b->counts, a->n_nodes * a->n_classes * sizeof *a->counts);
    assert_true(mpq_equal(a->objective, b->objective));
    assert_int_equal(a->misclassifications, b->misclassifications);
    assert_int_equal(a->optimal, b->optimal);
    if (pdt_model_stopped_by(a) || pdt_model_stopped_by(b)) /* (equal strings, not one object) */
        assert_string_equal(pdt_model_stopped_by(a) ? pdt_model_stopped_by(a) : "(none)",
                            pdt_model_stopped_by(b) ? pdt_model_stopped_by(b) : "(none)");
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->depth, b->depth);
    assert_int_equal(a->max_size, b->max_size);
    assert_int_equal(a->max_depth, b->max_depth);
    assert_int_equal(a->min_leaf, b->min_leaf);
    if (a->class_weights || b->class_weights)
        assert_string_equal(a->class_weights, b->class_weights);
    if (a->sparse || b->sparse) assert_string_equal(a->sparse, b->sparse);
    assert_int_equal(a->lexicographic, b->lexicographic);
    assert_true(a->seconds == b->seconds);
    assert_int_equal(a->stats.nodes, b->stats.nodes);
    assert_int_equal(a->stats.candidates, b->stats.candidates);
    assert_int_equal(a->stats.memo_hits, b->stats.memo_hits);
    assert_int_equal(a->stats.memo_entries, b->stats.memo_entries);
    assert_int_equal(a->stats.pruned, b->stats.pruned);
}

/* ------------------------------------------------------------ round trips */

static void test_model_json_roundtrip_identical(void **state)
{
    (void)state;
    static const char *const features[] = {"petal_width", "sepal"};
    static const char *const cells[] = {"4/5", "0", "4000000000000000000001/5000000000000000000000",
                                        "1/3", "1", "1000000000000000000001/3000000000000000000000",
                                        "0",   "9"};
    pdt_model *m = mf_model(axis());
    m->class_weights = strdup("setosa=2,virginica=1/2");
    m->sparse = strdup("1/200");
    m->lexicographic = true;
    char *path = save_ok(m, "roundtrip.json");
    pdt_model *back = load_ok(path);
    assert_models_equal(m, back);
    pdt_dataset *ds = mf_dataset(features, 2, cells, 4);
    uint32_t p1[4], p2[4];
    assert_int_equal(pdt_model_predict(p1, m, ds, NULL), PDT_OK);
    assert_int_equal(pdt_model_predict(p2, back, ds, NULL), PDT_OK);
    assert_memory_equal(p1, p2, sizeof p1);
    assert_int_equal(p1[0], 0);
    assert_int_equal(p1[1], 1);
    assert_int_equal(p1[2], 2);
    /* saving the loaded model gives the same document */
    char *again = save_ok(back, "roundtrip2.json");
    char *t1 = tu_read_file(path), *t2 = tu_read_file(again);
    assert_string_equal(t1, t2);
    assert_non_null(strstr(t1, "\"text\": \"petal_width ≤ 0.8\""));
    assert_non_null(strstr(t1, "\"rationals\": [\n"));
    free(t1);
    free(t2);
    free(again);
    pdt_dataset_free(&ds);
    pdt_model_free(&back);
    pdt_model_free(&m);
    free(path);
}

/* What stopped a search survives the file; an optimal model writes none. */
static void test_model_json_stopped_by(void **state)
{
    (void)state;
    const char *const why[] = {PDT_STOP_TIME, PDT_STOP_MEMORY, PDT_STOP_INTERRUPT};
    for (size_t k = 0; k < 3; k++) {
        pdt_model *m = mf_model(axis());
        m->optimal = false;
        m->stopped_by = why[k];
        char *path = save_ok(m, "stopped.json");
        char *text = tu_read_file(path);
        char want[64];
        snprintf(want, sizeof want, "\"stopped_by\": \"%s\"", why[k]);
        assert_non_null(strstr(text, want));
        pdt_model *back = load_ok(path);
        assert_models_equal(m, back);
        assert_string_equal(pdt_model_stopped_by(back), why[k]);
        free(text);
        free(path);
        pdt_model_free(&back);
        pdt_model_free(&m);
    }
    pdt_model *m = mf_model(axis());
    m->stopped_by = PDT_STOP_TIME; /* left over: an optimal model has none */
    assert_null(pdt_model_stopped_by(m));
    char *path = save_ok(m, "optimal.json");
    char *text = tu_read_file(path);
    assert_null(strstr(text, "stopped_by"));
    free(text);
    free(path);
    pdt_model_free(&m);
}

/* A fitted model (decimal data, thresholds like 0.1 that no double holds)
 * survives the file: same tree, same objective, same predictions. */
static void test_model_json_fit_roundtrip(void **state)
{
    (void)state;
    static const char csv[] = "a,b,y\n0.1,0.7,no\n0.2,0.1,no\n0.3,0.3,yes\n0.1,0.3,yes\n"
                              "0.7,0.2,yes\n0.5,0.9,no\n0.3,0.8,no\n0.6,0.5,yes\n0.1,0.31,no\n";
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, csv, sizeof csv - 1, "fit.csv", NULL, &err) != PDT_OK)
        fail_msg("%s", err.message);
    pdt_fit_options opt;
    pdt_fit_options_init(&opt);
    opt.rules = "axis";
    opt.max_size = 3;
    pdt_model *m = NULL;
    if (pdt_fit(&m, ds, &opt, &err) != PDT_OK) fail_msg("%s", err.message);
    char *path = save_ok(m, "fitted.json");
    pdt_model *back = load_ok(path);
    assert_models_equal(m, back);
    size_t n = pdt_dataset_rows(ds);
    uint32_t *p1 = calloc(n, sizeof *p1), *p2 = calloc(n, sizeof *p2);
    assert_int_equal(pdt_model_predict(p1, m, ds, NULL), PDT_OK);
    assert_int_equal(pdt_model_predict(p2, back, ds, NULL), PDT_OK);
    assert_memory_equal(p1, p2, n * sizeof *p1);
    uint64_t wrong = 0;
    for (size_t i = 0; i < n; i++) wrong += p2[i] != pdt_dataset_label(ds, i);
    assert_int_equal(wrong, back->misclassifications);
    assert_int_equal(mpq_cmp_ui(back->objective, wrong, 1), 0);
    free(p1);
    free(p2);
    free(path);
    pdt_model_free(&back);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

/* A lone leaf and unlimited constraints (null) survive too. */
static void test_model_json_roundtrip_leaf(void **state)
{
    (void)state;
    pdt_model *m = mf_leaf_model();
    m->n_rules = 0;
    char *path = save_ok(m, "leaf.json");
    char *text = tu_read_file(path);
    assert_non_null(strstr(text, "\"size\": null"));
    assert_non_null(strstr(text, "\"class_weights\": null"));
    assert_non_null(strstr(text, "\"leaf\": true"));
    free(text);
    pdt_model *back = load_ok(path);
    assert_int_equal(back->max_size, PDT_UNLIMITED);
    assert_int_equal(back->max_depth, PDT_UNLIMITED);
    assert_models_equal(m, back);
    pdt_model_free(&back);
    pdt_model_free(&m);
    free(path);
}

static void test_model_json_exact_rationals(void **state)
{
    (void)state;
    char big[400];
    memset(big, '7', 300); /* a 300-digit odd numerator over 2^10 */
    strcpy(big + 300, "/1024");
    pdt_model *m = mf_model(axis());
    mf_set_rule(m, 0, axis(), 1, big);
    mf_set_rule(m, 1, axis(), 0, "-1/3");
    char *path = save_ok(m, "rationals.json");
    char *text = tu_read_file(path);
    assert_non_null(strstr(text, "\"-1/3\""));
    assert_non_null(strstr(text, big)); /* 777...7/1024 is in lowest terms */
    free(text);
    pdt_model *back = load_ok(path);
    assert_true(mpq_equal(m->rules[0].rats[0], back->rules[0].rats[0]));
    assert_true(mpq_equal(m->rules[1].rats[0], back->rules[1].rats[0]));
    mpq_t want;
    mpq_init(want);
    assert_int_equal(mpq_set_str(want, big, 10), 0);
    assert_true(mpq_equal(want, back->rules[0].rats[0]));
    mpq_clear(want);
    pdt_model_free(&back);
    pdt_model_free(&m);
    free(path);
}

/* objective: a JSON integer below 2^53, an exact string otherwise. */
static void test_model_json_objective_number_or_string(void **state)
{
    (void)state;
    static const struct {
        const char *value;
        bool integer;
        const char *text;
    } cases[] = {
        {"6", true, NULL},
        {"9007199254740991", true, NULL}, /* 2^53 - 1 */
        {"9007199254740992", false, "9007199254740992"},
        {"123456789012345678901", false, "123456789012345678901"},
        {"7/3", false, "7/3"},
        {"5/2", false, "2.5"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pdt_model *m = mf_model(axis());
        mpq_set_str(m->objective, cases[k].value, 10);
        char *path = save_ok(m, "objective.json");
        json_t *doc = json_load_file(path, 0, NULL);
        assert_non_null(doc);
        json_t *obj = json_object_get(doc, "objective");
        if (cases[k].integer) {
            assert_true(json_is_integer(obj));
            char buf[32];
            snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(obj));
            assert_string_equal(buf, cases[k].value);
        } else {
            assert_true(json_is_string(obj));
            assert_string_equal(json_string_value(obj), cases[k].text);
        }
        json_decref(doc);
        pdt_model *back = load_ok(path);
        assert_true(mpq_equal(m->objective, back->objective));
        pdt_model_free(&back);
        pdt_model_free(&m);
        free(path);
    }
}

/* ------------------------------------------------------------ bad files */

/* Sets (value) or deletes (NULL) the member at a dotted path; numbers index arrays. */
static void jput(json_t *doc, const char *path, json_t *value)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *at = doc;
    char *key = strtok(buf, ".");
    for (char *next = strtok(NULL, "."); next; key = next, next = strtok(NULL, "."))
        at = json_is_array(at) ? json_array_get(at, strtoul(key, NULL, 10))
                               : json_object_get(at, key);
    assert_non_null(at);
    if (json_is_array(at)) {
        assert_int_equal(json_array_set_new(at, strtoul(key, NULL, 10), value), 0);
    } else if (value) {
        assert_int_equal(json_object_set_new(at, key, value), 0);
    } else {
        assert_int_equal(json_object_del(at, key), 0);
    }
}

/* A valid saved document with one change, written to name. */
static char *mutated(const char *name, const char *path, json_t *value)
{
    pdt_model *m = mf_model(axis());
    char *good = save_ok(m, "good.json");
    pdt_model_free(&m);
    json_t *doc = json_load_file(good, 0, NULL);
    assert_non_null(doc);
    jput(doc, path, value);
    char *out = tmp_path(name);
    assert_int_equal(json_dump_file(doc, out, JSON_INDENT(2)), 0);
    json_decref(doc);
    free(good);
    return out;
}

static void mutation_fails(const char *path, json_t *value, const char *substring)
{
    char *file = mutated("bad.json", path, value);
    char want[512];
    snprintf(want, sizeof want, "%s: %s", file, substring);
    load_fails(file, PDT_EINVAL, want);
    free(file);
}

static void test_model_json_rejects_not_json(void **state)
{
    (void)state;
    char *path = tu_write_file("syntax.json", "{\n  \"format\": \"pdt-result\",\n  oops\n}\n");
    char want[512];
    snprintf(want, sizeof want, "%s:3:", path);
    load_fails(path, PDT_EINVAL, want);
    free(path);
    path = tu_write_file("dupkey.json", "{\"format\": \"pdt-result\",\n \"format\": \"x\"}\n");
    snprintf(want, sizeof want, "%s:2:", path);
    load_fails(path, PDT_EINVAL, want);
    free(path);
    path = tu_write_file("array.json", "[1, 2]\n");
    load_fails(path, PDT_EINVAL, "expected a JSON object");
    free(path);
}

static void test_model_json_rejects_truncated(void **state)
{
    (void)state;
    pdt_model *m = mf_model(axis());
    char *good = save_ok(m, "whole.json");
    pdt_model_free(&m);
    char *text = tu_read_file(good);
    size_t half = strlen(text) / 2;
    size_t lines = 1;
    for (size_t k = 0; k < half; k++) lines += text[k] == '\n';
    text[half] = '\0';
    char *path = tu_write_file("truncated.json", text);
    char want[512];
    snprintf(want, sizeof want, "%s:%zu:", path, lines);
    load_fails(path, PDT_EINVAL, want);
    free(path);
    free(text);
    free(good);
}

static void test_model_json_rejects_wrong_types(void **state)
{
    (void)state;
    mutation_fails("size", json_string("2"),
                   "size: expected a non-negative integer, found a string");
    mutation_fails("optimal", json_integer(1), "optimal: expected a boolean, found an integer");
    mutation_fails("stopped_by", json_integer(1), "stopped_by: expected \"time limit\", \"memory limit\" or");
    mutation_fails("stopped_by", json_string("boredom"), "stopped_by: expected \"time limit\"");
    mutation_fails("stopped_by", json_string("time limit"), "stopped_by: an optimal model was not stopped");
    mutation_fails("constraints.lexicographic", json_string("yes"),
                   "constraints.lexicographic: expected a boolean, found a string");
    mutation_fails("constraints.sparse", json_integer(1), "constraints.sparse: expected a string");
    mutation_fails("data.features", json_string("a,b"),
                   "data.features: expected an array of strings");
    mutation_fails("data.classes.1", json_integer(1), "data.classes[1]: expected a string");
    mutation_fails("tree.right", json_array(), "tree.right: expected an object");
    mutation_fails("objective", json_real(6.0), "objective: expected an exact rational");
    mutation_fails("tree.rule.ints.0", json_real(1.0), "tree.rule.ints[0]: expected an integer");
}

static void test_model_json_rejects_unknown_family(void **state)
{
    (void)state;
    mutation_fails("tree.right.rule.family", json_string("foo"),
                   "tree.right.rule.family: unknown rule family \"foo\"");
}

static void test_model_json_rejects_counts_mismatch(void **state)
{
    (void)state;
    json_t *two = json_pack("[ii]", 50, 0);
    mutation_fails("tree.left.counts", two,
                   "tree.left.counts: expected 3 counts (one per class), found 2");
    mutation_fails("tree.counts.0", json_integer(49),
                   "tree.counts: the counts sum to 149, but items is 150");
    mutation_fails("tree.right.left.label", json_string("rose"),
                   "tree.right.left.label: unknown class \"rose\"");
}

static void test_model_json_rejects_negative_values(void **state)
{
    (void)state;
    mutation_fails("tree.right.left.counts.1", json_integer(-1),
                   "tree.right.left.counts[1]: expected a non-negative integer, found -1");
    mutation_fails("tree.items", json_integer(-150), "tree.items: expected a non-negative integer");
    /* a negative dimension is refused by the rule class's validate hook */
    mutation_fails("tree.rule.ints.0", json_integer(-1), "tree.rule: rule family axis: ");
    mutation_fails("tree.right.rule.ints.0", json_integer(2),
                   "tree.right.rule: rule family axis: ");
}

static void test_model_json_rejects_missing_keys(void **state)
{
    (void)state;
    mutation_fails("tree", NULL, "missing key \"tree\"");
    mutation_fails("tree.right.left.items", NULL, "tree.right.left: missing key \"items\"");
    mutation_fails("tree.right.rule.family", NULL, "tree.right.rule: missing key \"family\"");
    mutation_fails("data.classes", NULL, "data: missing key \"classes\"");
}

static void test_model_json_rejects_bad_rationals(void **state)
{
    (void)state;
    mutation_fails("tree.rule.rationals.0", json_string("abc"),
                   "tree.rule.rationals[0]: not an exact rational: \"abc\"");
    mutation_fails("tree.rule.rationals.0", json_string("1/0"),
                   "tree.rule.rationals[0]: not an exact rational");
    mutation_fails("tree.rule.rationals.0", json_string("nan"),
                   "tree.rule.rationals[0]: not an exact rational");
    mutation_fails("objective", json_string("-1"), "objective: the objective is negative");
}

static void test_model_json_rejects_inconsistent_summary(void **state)
{
    (void)state;
    mutation_fails("size", json_integer(3), "size: 3, but the tree has 2 branch nodes");
    mutation_fails("depth", json_integer(1), "depth: 1, but the tree has depth 2");
    mutation_fails("misclassifications", json_integer(5),
                   "misclassifications: 5, but the leaves misclassify 6");
    mutation_fails("data.rows", json_integer(151), "tree.items: 150, but data.rows is 151");
    mutation_fails("version", json_integer(2), "version: unsupported version 2");
    mutation_fails("data.features.1", json_string("sepal"),
                   "data.features: duplicate name \"sepal\"");
    mutation_fails("tree.left.rule", json_pack("{s:s}", "family", "axis"),
                   "tree.left: a leaf has no \"rule\"");
    mutation_fails("tree.right.right.items", json_integer(47),
                   "tree.right.right.counts: the counts sum to 46, but items is 47");
}

/* Deep nesting and a missing file: errors, never a crash. */
static void test_model_json_hostile_files(void **state)
{
    (void)state;
    size_t depth = 100000;
    char *deep = malloc(2 * depth + 2);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    strcpy(deep + 2 * depth, "\n");
    char *path = tu_write_file("deep.json", deep);
    load_fails(path, PDT_EINVAL, "depth");
    free(path);
    free(deep);
    path = tmp_path("no-such-file.json");
    load_fails(path, PDT_EIO, "cannot open");
    free(path);
    path = tu_write_file("empty.json", "");
    load_fails(path, PDT_EINVAL, ":1:");
    free(path);
}

/* ------------------------------------------------------------ save errors */

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_model_json_save_errors_leave_no_file(void **state)
{
    (void)state;
    pdt_model *m = mf_model(axis());
    pdt_error err;
    pdt_error_clear(&err);
    char *path = tmp_path("missing-dir/model.json");
    assert_int_equal(pdt_model_save_json(m, path, &err), PDT_EIO);
    assert_non_null(strstr(err.message, "missing-dir/model.json"));
    assert_false(tu_exists(path));
    free(path);
    /* the target is a directory: the rename fails and the temporary file goes */
    char *dir = tmp_path("savedir");
    assert_int_equal(mkdir(dir, 0700), 0);
    char *target = NULL;
    assert_true(asprintf(&target, "%s/sub", dir) > 0);
    assert_int_equal(mkdir(target, 0700), 0);
    assert_int_equal(pdt_model_save_json(m, target, &err), PDT_EIO);
    assert_int_equal(count_entries(dir), 1);
    /* a name that is not UTF-8 cannot go into JSON */
    free(m->classes[1]);
    m->classes[1] = strdup("bad\xff");
    free(target);
    assert_true(asprintf(&target, "%s/utf8.json", dir) > 0);
    assert_int_equal(pdt_model_save_json(m, target, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "UTF-8"));
    assert_false(tu_exists(target));
    assert_int_equal(count_entries(dir), 1);
    free(target);
    free(dir);
    pdt_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_json_roundtrip_identical),
        cmocka_unit_test(test_model_json_fit_roundtrip),
        cmocka_unit_test(test_model_json_roundtrip_leaf),
        cmocka_unit_test(test_model_json_exact_rationals),
        cmocka_unit_test(test_model_json_objective_number_or_string),
        cmocka_unit_test(test_model_json_rejects_not_json),
        cmocka_unit_test(test_model_json_rejects_truncated),
        cmocka_unit_test(test_model_json_rejects_wrong_types),
        cmocka_unit_test(test_model_json_stopped_by),
        cmocka_unit_test(test_model_json_rejects_unknown_family),
        cmocka_unit_test(test_model_json_rejects_counts_mismatch),
        cmocka_unit_test(test_model_json_rejects_negative_values),
        cmocka_unit_test(test_model_json_rejects_missing_keys),
        cmocka_unit_test(test_model_json_rejects_bad_rationals),
        cmocka_unit_test(test_model_json_rejects_inconsistent_summary),
        cmocka_unit_test(test_model_json_hostile_files),
        cmocka_unit_test(test_model_json_save_errors_leave_no_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
