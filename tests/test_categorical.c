/* Categorical data as it comes (issue 12): text columns are categories, text
 * labels are classes, missing cells follow the chosen policy, and the binary
 * family tests categories one-hot (x ≠ v).  Fits are checked against a brute
 * force over every tree of one-hot tests; predictions map category names,
 * not codes, so another file's coding cannot change an answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static pdt_dataset *read_csv(const char *text, const pdt_csv_options *opt, pdt_error *err)
{
    pdt_dataset *ds = NULL;
    pdt_error_clear(err);
    pdt_status st = pdt_dataset_read_csv(&ds, text, strlen(text), "t.csv", opt, err);
    if (st != PDT_OK) assert_null(ds);
    return ds;
}

static pdt_dataset *read_ok(const char *text, const pdt_csv_options *opt)
{
    pdt_error err;
    pdt_dataset *ds = read_csv(text, opt, &err);
    if (!ds) fail_msg("%s", err.message);
    return ds;
}

/* The message of a refused file, which must contain every fragment given. */
static void expect_refused(const char *text, const pdt_csv_options *opt, const char *a, const char *b)
{
    pdt_error err;
    pdt_dataset *ds = read_csv(text, opt, &err);
    if (ds) {
        pdt_dataset_free(&ds);
        fail_msg("accepted:\n%s", text);
    }
    if (!strstr(err.message, a) || (b && !strstr(err.message, b)))
        fail_msg("message \"%s\" lacks \"%s\" / \"%s\"", err.message, a, b ? b : "");
}

static size_t code_of(const pdt_dataset *ds, size_t i, size_t j)
{
    return (size_t)pdt_dataset_value(ds, i, j);
}

static const char *category(const pdt_dataset *ds, size_t i, size_t j)
{
    return pdt_dataset_category_name(ds, j, code_of(ds, i, j));
}

static void test_text_columns_are_categories(void **state)
{
    (void)state;
    pdt_dataset *ds = read_ok("colour,size,w,class\n"
                              "red,1,0.5,yes\n"
                              "blue,2,1.5,no\n"
                              "red,more,2,yes\n"
                              "green, 2 ,3,maybe\n",
                              NULL);
    assert_int_equal(pdt_dataset_dims(ds), 3);
    assert_true(pdt_dataset_has_categorical(ds));
    assert_false(pdt_dataset_is_binary(ds));
    assert_true(pdt_dataset_is_categorical(ds, 0));
    assert_true(pdt_dataset_is_categorical(ds, 1)); /* integers and text: categories */
    assert_false(pdt_dataset_is_categorical(ds, 2));
    /* codes follow the names' byte order */
    assert_int_equal(pdt_dataset_categories(ds, 0), 3);
    assert_string_equal(pdt_dataset_category_name(ds, 0, 0), "blue");
    assert_string_equal(pdt_dataset_category_name(ds, 0, 1), "green");
    assert_string_equal(pdt_dataset_category_name(ds, 0, 2), "red");
    assert_string_equal(category(ds, 0, 0), "red");
    assert_string_equal(category(ds, 1, 0), "blue");
    assert_string_equal(category(ds, 3, 0), "green");
    /* blanks around a cell are not part of its name */
    assert_int_equal(pdt_dataset_categories(ds, 1), 3);
    assert_string_equal(category(ds, 1, 1), "2");
    assert_string_equal(category(ds, 3, 1), "2");
    assert_string_equal(category(ds, 2, 1), "more");
    assert_int_equal(pdt_dataset_find_category(ds, 1, "2.0"), code_of(ds, 1, 1));
    assert_int_equal(pdt_dataset_find_category(ds, 0, "purple"), SIZE_MAX);
    /* numbers stay exact */
    mpq_t q;
    mpq_init(q);
    pdt_dataset_value_exact(q, ds, 0, 2);
    assert_int_equal(mpq_cmp_si(q, 1, 2), 0);
    mpq_clear(q);
    /* text labels are classes, sorted bytewise */
    assert_int_equal(pdt_dataset_classes(ds), 3);
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 3)), "maybe");
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 1)), "no");
    pdt_dataset_free(&ds);
}

static void test_forced_categories_in_numeric_order(void **state)
{
    (void)state;
    const char *cols[] = {"a"};
    pdt_csv_options opt = {.categorical = cols, .n_categorical = 1};
    pdt_dataset *ds = read_ok("a,b,y\n10,10,0\n2,2,1\n1.0,1,0\n1,3,1\n", &opt);
    assert_true(pdt_dataset_is_categorical(ds, 0));
    assert_false(pdt_dataset_is_categorical(ds, 1));
    /* numeric names sort as numbers, and "1.0" is "1" */
    assert_int_equal(pdt_dataset_categories(ds, 0), 3);
    assert_int_equal(code_of(ds, 0, 0), 2);
    assert_int_equal(code_of(ds, 1, 0), 1);
    assert_int_equal(code_of(ds, 2, 0), 0);
    assert_int_equal(code_of(ds, 3, 0), 0);
    pdt_dataset_free(&ds);
    const char *missing[] = {"nope"};
    pdt_csv_options bad = {.categorical = missing, .n_categorical = 1};
    expect_refused("a,b,y\n1,2,0\n", &bad, "no column named \"nope\"", NULL);
}

static void test_category_among_fractions_is_refused(void **state)
{
    (void)state;
    expect_refused("h,y\n1.5,0\n2.25,1\nhigh,0\n", NULL, "t.csv:4:1", "--categorical h");
    const char *cols[] = {"h"};
    pdt_csv_options opt = {.categorical = cols, .n_categorical = 1};
    pdt_dataset *ds = read_ok("h,y\n1.5,0\n2.25,1\nhigh,0\n", &opt);
    assert_int_equal(pdt_dataset_categories(ds, 0), 3);
    pdt_dataset_free(&ds);
}

static void test_missing_policies(void **state)
{
    (void)state;
    const char *text = "c,x,y\na,1,p\n?,2,q\nb,NA,p\nb,3,\nc,4,q\n";
    /* default: an error naming file, line and column */
    expect_refused(text, NULL, "t.csv:3:1: missing value \"?\" in column \"c\"", "--missing drop");
    /* drop: every row with a missing cell, the label's included */
    pdt_csv_options drop = {.missing = PDT_MISSING_DROP};
    pdt_dataset *ds = read_ok(text, &drop);
    assert_int_equal(pdt_dataset_rows(ds), 2);
    assert_int_equal(pdt_dataset_dropped(ds), 3);
    assert_string_equal(category(ds, 0, 0), "a");
    assert_string_equal(category(ds, 1, 0), "c");
    assert_int_equal(pdt_dataset_categories(ds, 0), 2); /* "b" only on dropped rows */
    assert_false(pdt_dataset_is_categorical(ds, 1));
    pdt_dataset_free(&ds);
    /* category: a category "?" in a categorical column, refused in a numeric one */
    pdt_csv_options cat = {.missing = PDT_MISSING_CATEGORY};
    expect_refused("c,x,y\na,1,p\n?,2,q\nb,NA,p\n", &cat, "t.csv:4:3: missing value in the numeric column \"x\"",
                   "--missing drop");
    expect_refused(text, &cat, "t.csv:5:5: the label is empty", "--missing drop");
    ds = read_ok("c,x,y\na,1,p\n?,2,q\nNA,3,p\n,4,q\n", &cat);
    assert_int_equal(pdt_dataset_categories(ds, 0), 2);
    assert_string_equal(category(ds, 1, 0), "?");
    assert_string_equal(category(ds, 2, 0), "?");
    assert_string_equal(category(ds, 3, 0), "?");
    pdt_dataset_free(&ds);
    /* a missing label is never a class */
    expect_refused("c,y\na,p\nb,?\n", &cat, "t.csv:3:3: the label is missing", NULL);
    pdt_csv_options all = {.missing = PDT_MISSING_DROP};
    expect_refused("c,y\n?,p\nb,?\n", &all, "left out every one of the 2 rows", NULL);
}

static void test_subset_and_columns_keep_categories(void **state)
{
    (void)state;
    pdt_dataset *ds = read_ok("x,c,y\n1,red,0\n2,blue,1\n3,red,1\n", NULL);
    uint32_t rows[] = {2, 0};
    pdt_dataset *sub = NULL, *cols = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_subset(&sub, ds, rows, 2, &err), PDT_OK);
    assert_true(pdt_dataset_is_categorical(sub, 1));
    assert_string_equal(category(sub, 0, 1), "red");
    size_t pick[] = {1};
    assert_int_equal(pdt_dataset_columns(&cols, ds, pick, 1, &err), PDT_OK);
    assert_int_equal(pdt_dataset_dims(cols), 1);
    assert_string_equal(pdt_dataset_feature_name(cols, 0), "c");
    assert_string_equal(category(cols, 1, 0), "blue");
    pdt_dataset_free(&cols);
    pdt_dataset_free(&sub);
    pdt_dataset_free(&ds);
}

/* ------------------------------------------------------------ fits against a brute force */

typedef struct instance {
    size_t n, d, k[4], classes;
    uint8_t x[40][4];
    uint8_t y[40];
} instance;

/* Least errors of any tree of depth <= depth over the items in mask, whose
 * branch nodes test x_j = v (every column, every value): the specification,
 * without bounds or caching. */
static unsigned brute(const instance *in, uint64_t mask, unsigned depth)
{
    unsigned count[3] = {0}, total = 0, most = 0;
    for (size_t i = 0; i < in->n; i++)
        if (mask >> i & 1) count[in->y[i]]++, total++;
    for (size_t c = 0; c < in->classes; c++)
        if (count[c] > most) most = count[c];
    unsigned best = total - most;
    if (depth == 0 || best == 0) return best;
    for (size_t j = 0; j < in->d; j++)
        for (size_t v = 0; v < in->k[j]; v++) {
            uint64_t eq = 0;
            for (size_t i = 0; i < in->n; i++)
                if ((mask >> i & 1) && in->x[i][j] == v) eq |= UINT64_C(1) << i;
            if (eq == 0 || eq == mask) continue;
            unsigned e = brute(in, eq, depth - 1);
            if (e < best) e += brute(in, mask & ~eq, depth - 1);
            if (e < best) best = e;
        }
    return best;
}

static const char *const words[] = {"red", "green", "blue", "amber"};
static const char *const labels[] = {"no", "yes", "maybe"};

static void random_instance(instance *in, tu_rng *rng)
{
    in->n = 6 + tu_below(rng, 30);
    in->d = 2 + tu_below(rng, 3);
    in->classes = 2 + tu_below(rng, 2);
    for (size_t j = 0; j < in->d; j++) in->k[j] = 2 + tu_below(rng, 3);
    for (size_t i = 0; i < in->n; i++) {
        for (size_t j = 0; j < in->d; j++) in->x[i][j] = (uint8_t)tu_below(rng, (uint32_t)in->k[j]);
        in->y[i] = (uint8_t)tu_below(rng, (uint32_t)in->classes);
    }
}

static void instance_csv(char *out, size_t cap, const instance *in)
{
    size_t used = 0;
    for (size_t j = 0; j < in->d; j++) used += (size_t)snprintf(out + used, cap - used, "f%zu,", j);
    used += (size_t)snprintf(out + used, cap - used, "y\n");
    for (size_t i = 0; i < in->n; i++) {
        for (size_t j = 0; j < in->d; j++)
            used += (size_t)snprintf(out + used, cap - used, "%s,", words[in->x[i][j]]);
        used += (size_t)snprintf(out + used, cap - used, "%s\n", labels[in->y[i]]);
    }
}

static pdt_model *fit(const pdt_dataset *ds, const char *rules, unsigned depth, pdt_engine engine)
{
    return tu_fit(ds, rules, depth, NULL, engine);
}

static unsigned objective(const pdt_model *m)
{
    mpq_t q;
    mpq_init(q);
    pdt_model_objective(q, m);
    unsigned v = (unsigned)mpz_get_ui(mpq_numref(q));
    mpq_clear(q);
    return v;
}

static unsigned errors_of(const pdt_model *m, const pdt_dataset *ds) { return (unsigned)tu_training_errors(m, ds); }

static void test_binary_one_hot_against_brute_force(void **state)
{
    (void)state;
    tu_rng rng = {0x12c47e9a};
    char csv[4096];
    for (int t = 0; t < 300; t++) {
        instance in;
        random_instance(&in, &rng);
        instance_csv(csv, sizeof csv, &in);
        pdt_dataset *ds = read_ok(csv, NULL);
        unsigned depth = 1 + (unsigned)(t % 3);
        unsigned want = brute(&in, (UINT64_C(1) << in.n) - 1, depth);
        pdt_model *backend = fit(ds, "binary", depth, PDT_ENGINE_AUTO);
        pdt_model *fused = fit(ds, "binary", depth, PDT_ENGINE_FUSED);
        if (objective(backend) != want || objective(fused) != want || errors_of(backend, ds) != want)
            fail_msg("instance %d (depth %u): brute force %u, backend %u (recounted %u), fused %u\n%s", t,
                     depth, want, objective(backend), errors_of(backend, ds), objective(fused), csv);
        pdt_model_free(&backend);
        pdt_model_free(&fused);
        pdt_dataset_free(&ds);
    }
}

/* Predictions read category names: a file that codes them differently (other
 * names present, other order) gets the same answers, and an unseen category
 * fails every x = v test instead of crashing. */
static void test_predict_maps_names(void **state)
{
    (void)state;
    pdt_dataset *train = read_ok("c,y\nred,a\nred,a\nblue,b\ngreen,c\ngreen,c\n", NULL);
    pdt_model *m = fit(train, "binary", 2, PDT_ENGINE_AUTO);
    assert_int_equal(objective(m), 0);
    char *path = tu_write_file("cat_model.json", "");
    pdt_error err;
    assert_int_equal(pdt_model_save_json(m, path, &err), PDT_OK);
    pdt_model *back = NULL;
    if (pdt_model_load_json(&back, path, &err) != PDT_OK) fail_msg("%s", err.message);
    pdt_dataset *other = read_ok("c,y\naaa,a\ngreen,c\nred,a\nblue,b\n", NULL);
    uint32_t pred[4];
    for (int k = 0; k < 2; k++) {
        const pdt_model *mk = k ? back : m;
        assert_int_equal(pdt_model_predict(pred, mk, other, &err), PDT_OK);
        assert_string_equal(pdt_model_class_name(mk, pred[1]), "c");
        assert_string_equal(pdt_model_class_name(mk, pred[2]), "a");
        assert_string_equal(pdt_model_class_name(mk, pred[3]), "b");
    }
    /* the tree text names categories, not codes */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(pdt_model_write_text(back, f, &err), PDT_OK);
    fclose(f);
    assert_non_null(strstr(text, "c ≠ "));
    assert_true(strstr(text, "≠ red") || strstr(text, "≠ green") || strstr(text, "≠ blue"));
    free(text);
    pdt_dataset_free(&other);
    pdt_model_free(&back);
    pdt_model_free(&m);
    pdt_dataset_free(&train);
    free(path);
}

/* Families that read numbers get the numeric columns only. */
static void test_numeric_families_skip_categories(void **state)
{
    (void)state;
    pdt_dataset *ds = read_ok("c,x,y\nred,1,a\nblue,2,a\nred,3,b\nblue,4,b\n", NULL);
    pdt_model *m = fit(ds, "axis", 1, PDT_ENGINE_AUTO);
    assert_int_equal(objective(m), 0);
    pdt_model_free(&m);
    m = fit(ds, "axis", 1, PDT_ENGINE_FUSED);
    assert_int_equal(objective(m), 0);
    pdt_model_free(&m);
    m = fit(ds, "axis,binary", 1, PDT_ENGINE_FUSED);
    assert_int_equal(objective(m), 0);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
    /* every column categorical: a numeric family has nothing to read */
    ds = read_ok("c,y\nred,a\nblue,b\n", NULL);
    pdt_fit_options opt;
    pdt_fit_options_init(&opt);
    opt.rules = "hyperplane";
    opt.max_size = 1;
    pdt_error err;
    assert_int_not_equal(pdt_fit(&m, ds, &opt, &err), PDT_OK);
    assert_non_null(strstr(err.message, "every feature column is categorical"));
    opt.rules = "hyperplane,binary";
    assert_int_not_equal(pdt_fit(&m, ds, &opt, &err), PDT_OK);
    assert_non_null(strstr(err.message, "hyperplane reads every column as a number"));
    pdt_dataset_free(&ds);
}

/* The command line: options and their messages. */
static void test_cli(void **state)
{
    (void)state;
    char *data = tu_write_file("cat.csv", "c,x,y\nred,1,a\n?,2,b\nblue,3,b\n");
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "binary", "--depth", "1", NULL);
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "cat.csv:3:1: missing value"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "binary", "--depth", "1", "--missing", "sometimes", NULL);
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "option --missing: 'sometimes' is not error, drop or category"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "binary", "--depth", "1", "--missing", "drop", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "left out 1 of 3 rows"));
    assert_non_null(strstr(r.out, "objective 0"));
    tu_run_free(&r);
    free(data);
    /* an empty category name is a missing value; one class is nothing to learn */
    char *empty = tu_write_file("cat_empty.csv", "c,y\n\"\",a\nblue,b\n");
    tu_run_pdt(&r, "fit", "--data", empty, "--rules", "binary", "--depth", "1", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "cat_empty.csv:2:1: missing value \"\" in column \"c\""));
    tu_run_free(&r);
    free(empty);
    char *one = tu_write_file("cat_one.csv", "c,y\nred,a\nblue,a\n");
    tu_run_pdt(&r, "fit", "--data", one, "--rules", "categorical", "--sparse", "0.01", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "every row has the label \"a\": nothing to learn, the tree is one leaf"));
    assert_non_null(strstr(r.out, "0 branch nodes"));
    tu_run_free(&r);
    free(one);
}

typedef struct reports {
    int calls;
    double last_seconds, last_objective;
    uint64_t last_nodes;
} reports;

static void on_report(void *user, const pdt_progress *p)
{
    reports *r = user;
    assert_true(r->calls == 0 || p->seconds >= r->last_seconds + 0.99);
    assert_true(p->nodes >= r->last_nodes);
    char *end;
    double v = strtod(p->best, &end); /* "objective (E errors, S branch nodes)": a tree from the first */
    assert_true(end != p->best);
    assert_non_null(strstr(p->best, " errors, "));
    assert_true(r->calls == 0 || v <= r->last_objective); /* the best so far only falls */
    r->calls++;
    r->last_seconds = p->seconds, r->last_nodes = p->nodes, r->last_objective = v;
}

/* A long branch search says how it is doing about once a second: its
 * evaluations, and its best tree so far (the greedy tree at once, so never
 * "none yet"), which the answer is at least as good as. */
static void test_branch_search_reports(void **state)
{
    (void)state;
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_load_csv(&ds, tu_data("categorical/kr-vs-kp.csv"), NULL, &err)) fail_msg("%s", err.message);
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "categorical";
    o.sparse = "0.001"; /* proven in minutes, not in 2.5 s anywhere */
    o.time_limit = 2.5;
    reports r = {0};
    o.progress = on_report;
    o.progress_user = &r;
    pdt_model *m = NULL;
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_OK);
    assert_false(pdt_model_optimal(m));
    assert_true(r.calls >= 1 && r.calls <= 3);
    assert_true(r.last_nodes > 0);
    mpq_t q;
    mpq_init(q);
    pdt_model_objective(q, m);
    assert_true(mpq_get_d(q) <= r.last_objective * (1 + 1e-5)); /* (the report has six digits) */
    mpq_clear(q);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_columns_are_categories),
        cmocka_unit_test(test_forced_categories_in_numeric_order),
        cmocka_unit_test(test_category_among_fractions_is_refused),
        cmocka_unit_test(test_missing_policies),
        cmocka_unit_test(test_subset_and_columns_keep_categories),
        cmocka_unit_test(test_binary_one_hot_against_brute_force),
        cmocka_unit_test(test_predict_maps_names),
        cmocka_unit_test(test_numeric_families_skip_categories),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_branch_search_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
