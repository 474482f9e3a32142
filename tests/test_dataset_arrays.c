/* Datasets from arrays: the same dataset as the CSV loader builds from the
 * same values (the loader is the oracle), doubles kept exactly, bad input
 * refused with the row and column. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "test_util.h"

static pdt_dataset *read_csv(const char *text)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "mem.csv", NULL, &err) != PDT_OK)
        fail_msg("%s", err.message);
    return ds;
}

static pdt_dataset *from_arrays(const pdt_array_data *in)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_from_arrays(&ds, in, &err) != PDT_OK) fail_msg("%s", err.message);
    return ds;
}

static void expect_error(const pdt_array_data *in, const char *part)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_dataset_from_arrays(&ds, in, &err), PDT_EINVAL);
    assert_null(ds);
    if (!strstr(err.message, part)) fail_msg("message \"%s\" lacks \"%s\"", err.message, part);
}

/* Every observable of the two datasets agrees: shape, names, classes and
 * labels, exact values, weights, ranks, distinct counts, binary flag. */
static void assert_same(const pdt_dataset *a, const pdt_dataset *b)
{
    assert_int_equal(pdt_dataset_rows(a), pdt_dataset_rows(b));
    assert_int_equal(pdt_dataset_dims(a), pdt_dataset_dims(b));
    assert_int_equal(pdt_dataset_classes(a), pdt_dataset_classes(b));
    assert_int_equal(pdt_dataset_is_binary(a), pdt_dataset_is_binary(b));
    assert_int_equal(pdt_dataset_has_weights(a), pdt_dataset_has_weights(b));
    for (size_t c = 0; c < pdt_dataset_classes(a); c++)
        assert_string_equal(pdt_dataset_class_name(a, c), pdt_dataset_class_name(b, c));
    mpq_t u, v;
    mpq_inits(u, v, NULL);
    for (size_t j = 0; j < pdt_dataset_dims(a); j++) {
        assert_string_equal(pdt_dataset_feature_name(a, j), pdt_dataset_feature_name(b, j));
        assert_int_equal(pdt_dataset_distinct(a, j), pdt_dataset_distinct(b, j));
        assert_int_equal(pdt_dataset_is_categorical(a, j), pdt_dataset_is_categorical(b, j));
        assert_int_equal(pdt_dataset_categories(a, j), pdt_dataset_categories(b, j));
        for (size_t c = 0; c < pdt_dataset_categories(a, j); c++)
            assert_string_equal(pdt_dataset_category_name(a, j, c), pdt_dataset_category_name(b, j, c));
    }
    assert_int_equal(pdt_dataset_dropped(a), pdt_dataset_dropped(b));
    for (size_t i = 0; i < pdt_dataset_rows(a); i++) {
        assert_int_equal(pdt_dataset_label(a, i), pdt_dataset_label(b, i));
        pdt_dataset_weight_exact(u, a, i);
        pdt_dataset_weight_exact(v, b, i);
        assert_true(mpq_equal(u, v));
        for (size_t j = 0; j < pdt_dataset_dims(a); j++) {
            pdt_dataset_value_exact(u, a, i, j);
            pdt_dataset_value_exact(v, b, i, j);
            if (!mpq_equal(u, v)) fail_msg("cell (%zu, %zu) differs", i, j);
            assert_true(pdt_dataset_value(a, i, j) == pdt_dataset_value(b, i, j));
            assert_int_equal(pdt_dataset_rank(a, i, j), pdt_dataset_rank(b, i, j));
        }
    }
    mpq_clears(u, v, NULL);
}

/* Values that are doubles exactly (halves, quarters, large integers), ties,
 * negative zero, a weight column: the CSV text and the arrays say the same. */
static void test_dataset_arrays_same_as_csv(void **state)
{
    (void)state;
    const char *csv = "a,b,w,y\n"
                      "0.5,-3,1,cat\n"
                      "0.25,7,2.5,dog\n"
                      "0.5,1152921504606846976,0,cat\n"
                      "-0,-3,0.125,emu\n"
                      "-1.75,0,3,dog\n";
    static const double x[] = {0.5, -3, 0.25, 7, 0.5, 1152921504606846976.0, -0.0, -3, -1.75, 0};
    static const double w[] = {1, 2.5, 0, 0.125, 3};
    static const uint32_t y[] = {0, 1, 0, 2, 1};
    static const char *const classes[] = {"cat", "dog", "emu"};
    static const char *const features[] = {"a", "b"};
    pdt_array_data in = {.n = 5, .d = 2, .x = x, .feature_names = features, .labels = y,
                         .class_names = classes, .n_classes = 3, .weights = w};
    pdt_csv_options opt = {.weight = "w"};
    pdt_dataset *a = NULL, *b = from_arrays(&in);
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_dataset_read_csv(&a, csv, strlen(csv), "mem.csv", &opt, &err), PDT_OK);
    assert_same(a, b);
    /* ranks by hand: column a holds -1.75 < 0 < 0.25 < 0.5 */
    assert_int_equal(pdt_dataset_distinct(b, 0), 4);
    assert_int_equal(pdt_dataset_rank(b, 3, 0), 1);
    assert_int_equal(pdt_dataset_rank(b, 2, 0), 3);
    pdt_dataset_free(&a);
    pdt_dataset_free(&b);
}

/* Integer-only and 0/1 data: the same as the CSV (no rationals, binary flag). */
static void test_dataset_arrays_binary_like_csv(void **state)
{
    (void)state;
    static const double x[] = {0, 1, 1, 1, 0, 0, 1, 1, 0};
    static const uint32_t y[] = {1, 0, 1};
    static const char *const classes[] = {"0", "1"};
    pdt_array_data in = {.n = 3, .d = 3, .x = x, .labels = y, .class_names = classes, .n_classes = 2};
    pdt_dataset *a = read_csv("col1,col2,col3,label\n0,1,1,1\n1,0,0,0\n1,1,0,1\n"), *b = from_arrays(&in);
    assert_true(pdt_dataset_is_binary(b));
    assert_same(a, b);
    pdt_dataset_free(&a);
    pdt_dataset_free(&b);
}

/* 0.1 as a double is 3602879701896397 / 2^55, not 1/10; the next double up
 * (one unit of 2^-56 more: Python's Fraction(math.nextafter(0.1, 1)) says so)
 * is a different value with a higher rank. */
static void test_dataset_arrays_doubles_exact(void **state)
{
    (void)state;
    double x[] = {0.1, nextafter(0.1, 1.0), 0.1};
    pdt_array_data in = {.n = 3, .d = 1, .x = x};
    pdt_dataset *ds = from_arrays(&in);
    mpq_t got, want;
    mpq_inits(got, want, NULL);
    pdt_dataset_value_exact(got, ds, 0, 0);
    assert_int_equal(mpq_set_str(want, "3602879701896397/36028797018963968", 10), 0);
    assert_true(mpq_equal(got, want));
    pdt_dataset_value_exact(got, ds, 1, 0);
    assert_int_equal(mpq_set_str(want, "7205759403792795/72057594037927936", 10), 0);
    assert_true(mpq_equal(got, want));
    assert_int_equal(pdt_dataset_distinct(ds, 0), 2);
    assert_int_equal(pdt_dataset_rank(ds, 1, 0), 1);
    assert_int_equal(pdt_dataset_rank(ds, 2, 0), 0);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "col1");
    assert_false(pdt_dataset_has_labels(ds));
    mpq_clears(got, want, NULL);
    pdt_dataset_free(&ds);
}

static void test_dataset_arrays_refuses_bad_input(void **state)
{
    (void)state;
    double x[] = {1, 2, 3, NAN};
    static const char *const names[] = {"p", "q"};
    pdt_array_data in = {.n = 2, .d = 2, .x = x, .feature_names = names};
    expect_error(&in, "row 2, column 2 (\"q\"): NaN is not a finite number");
    x[3] = -INFINITY;
    expect_error(&in, "row 2, column 2 (\"q\"): an infinity");
    x[3] = 4;
    static const char *const dup[] = {"p", "p"};
    in.feature_names = dup;
    expect_error(&in, "feature columns 1 and 2 are both named \"p\"");
    in.feature_names = names;
    static const uint32_t y[] = {0, 2};
    static const char *const classes[] = {"a", "b"};
    in.labels = y, in.class_names = classes, in.n_classes = 2;
    expect_error(&in, "row 2: class code 2 is not below the 2 classes");
    static const uint32_t ok[] = {0, 1};
    static const char *const same[] = {"a", "a"};
    in.labels = ok, in.class_names = same;
    expect_error(&in, "classes 1 and 2 are both named \"a\"");
    in.class_names = classes;
    static const double w[] = {1, -0.5};
    in.weights = w;
    expect_error(&in, "row 2: weight -0.5 is not a finite number >= 0");
}

/* Texts are read as the CSV loader reads cells: "0.1" is 1/10, ".28" is 7/25. */
static void test_dataset_arrays_texts_like_csv(void **state)
{
    (void)state;
    static const char *const cells[] = {"0.1", "1/3", "-2", ".28", "0.1", "1e3", "12345678901234567890", "-0"};
    static const uint32_t y[] = {0, 1, 1, 0};
    static const char *const classes[] = {"no", "yes"};
    static const char *const features[] = {"a", "b"};
    pdt_array_data in = {.n = 4, .d = 2, .cells = cells, .feature_names = features, .labels = y,
                         .class_names = classes, .n_classes = 2};
    pdt_dataset *a = read_csv("a,b,y\n0.1,1/3,no\n-2,.28,yes\n0.1,1e3,yes\n12345678901234567890,-0,no\n");
    pdt_dataset *b = from_arrays(&in);
    assert_same(a, b);
    mpq_t v;
    mpq_init(v);
    pdt_dataset_value_exact(v, b, 0, 0);
    assert_int_equal(mpz_get_ui(mpq_numref(v)), 1);
    assert_int_equal(mpz_get_ui(mpq_denref(v)), 10);
    mpq_clear(v);
    pdt_dataset_free(&a);
    pdt_dataset_free(&b);
    static const char *const bad[] = {"1", "abc", "2", "3"};
    in.cells = bad;
    expect_error(&in, "row 1, column 2 (\"b\"): \"abc\" is not a number");
    static const char *const nan[] = {"1", "2", "nan", "3"};
    in.cells = nan;
    expect_error(&in, "row 2, column 1 (\"a\"): \"nan\" is not a number");
    static const double x[] = {1, 2, 3, 4};
    in.x = x;
    expect_error(&in, "as doubles or as texts");
}

static pdt_dataset *read_csv_with(const char *text, const pdt_csv_options *opt)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "mem.csv", opt, &err) != PDT_OK)
        fail_msg("%s", err.message);
    return ds;
}

/* Categorical columns as the CSV loader reads them: a text column (codes in
 * byte order of the names, blanks trimmed), an integer column made
 * categorical (numeric order: "10" after "9"; "2" and "2.0" one category)
 * beside a decimal column.  Given as texts, and as codes into names listed
 * in another order (with an unused one, "zzz"), the arrays build the loader's
 * dataset: same codes, names, classes. */
static void test_dataset_arrays_categories_like_csv(void **state)
{
    (void)state;
    const char *csv = "colour,n,h,y\n"
                      "red,10,0.5,no\n"
                      " blue,9,1.25,yes\n"
                      "green,2,0.5,yes\n"
                      "red,2.0,3,no\n"
                      "Blue,9,0.5,no\n";
    static const char *const features[] = {"colour", "n", "h"};
    static const uint32_t y[] = {0, 1, 1, 0, 0};
    static const char *const classes[] = {"no", "yes"};
    static const pdt_column_kind kinds[] = {PDT_COLUMN_CATEGORICAL, PDT_COLUMN_CATEGORICAL, PDT_COLUMN_NUMERIC};
    static const char *const cells[] = {"red", "10", "0.5",  " blue", "9", "1.25", "green", "2", "0.5",
                                        "red", "2.0", "3", "Blue", "9", "0.5"};
    static const char *const cats[] = {"n"};
    pdt_csv_options opt = {.categorical = cats, .n_categorical = 1};
    pdt_dataset *a = read_csv_with(csv, &opt);
    pdt_array_data in = {.n = 5, .d = 3, .cells = cells, .feature_names = features, .labels = y,
                         .class_names = classes, .n_classes = 2, .kinds = kinds};
    pdt_dataset *b = from_arrays(&in);
    assert_same(a, b);
    /* by hand: "Blue" < "blue" < "green" < "red" bytewise; 2 < 9 < 10 */
    assert_int_equal(pdt_dataset_categories(b, 0), 4);
    assert_string_equal(pdt_dataset_category_name(b, 0, 1), "blue");
    assert_true(pdt_dataset_value(b, 1, 0) == 1 && pdt_dataset_value(b, 4, 0) == 0);
    assert_int_equal(pdt_dataset_categories(b, 1), 3);
    assert_true(pdt_dataset_value(b, 0, 1) == 2 && pdt_dataset_value(b, 3, 1) == 0);
    assert_false(pdt_dataset_is_categorical(b, 2));
    pdt_dataset_free(&b);
    /* codes into names in another order, as doubles (h exact: halves and quarters) */
    static const char *const colour_names[] = {"zzz", "red", "green", " blue", "Blue"};
    static const char *const n_names[] = {"9", "2", "10", "2.0"};
    static const char *const *const names[] = {colour_names, n_names, NULL};
    static const size_t n_names_of[] = {5, 4, 0};
    static const double x[] = {1, 2, 0.5, 3, 0, 1.25, 2, 1, 0.5, 1, 3, 3, 4, 0, 0.5};
    pdt_array_data coded = in;
    coded.cells = NULL, coded.x = x, coded.category_names = names, coded.n_category_names = n_names_of;
    b = from_arrays(&coded);
    assert_same(a, b);
    pdt_dataset_free(&b);
    /* and as codes in text cells */
    static const char *const code_cells[] = {"1", "2", "0.5", "3", "0", "1.25", "2", "1", "0.5",
                                             "1", "3", "3", " 4", "0", "0.5"};
    coded.x = NULL, coded.cells = code_cells;
    b = from_arrays(&coded);
    assert_same(a, b);
    pdt_dataset_free(&b);
    pdt_dataset_free(&a);
    coded.x = x, coded.cells = NULL, coded.n_category_names = (const size_t[]){4, 4, 0};
    expect_error(&coded, "row 5, column 1 (\"colour\"): the category code is not one of the 4 codes given");
    coded.category_names = NULL;
    expect_error(&coded, "row 1, column 1 (\"colour\"): a categorical column given as doubles needs its category names");
}

/* Missing cells ("?", NA, empty, NULL, NaN, code -1) under the loader's three
 * policies: refused naming row and column, rows dropped, a category "?". */
static void test_dataset_arrays_missing_like_csv(void **state)
{
    (void)state;
    const char *csv = "c,x,y\na,1,p\n?,2,q\nb,NA,p\n ,4,q\nb,5,q\n";
    static const char *const features[] = {"c", "x"};
    static const uint32_t y[] = {0, 1, 0, 1, 1};
    static const char *const classes[] = {"p", "q"};
    static const pdt_column_kind kinds[] = {PDT_COLUMN_CATEGORICAL, PDT_COLUMN_NUMERIC};
    static const char *const cells[] = {"a", "1", NULL, "2", "b", "na", "  ", "4", "b", "5"};
    pdt_array_data in = {.n = 5, .d = 2, .cells = cells, .feature_names = features, .labels = y,
                         .class_names = classes, .n_classes = 2, .kinds = kinds};
    expect_error(&in, "row 2, column 1 (\"c\"): missing value; say what missing values mean");
    in.missing = PDT_MISSING_CATEGORY;
    expect_error(&in, "row 3, column 2 (\"x\"): missing value in a numeric column");
    in.missing = PDT_MISSING_DROP;
    pdt_csv_options opt = {.missing = PDT_MISSING_DROP};
    pdt_dataset *a = read_csv_with(csv, &opt), *b = from_arrays(&in);
    assert_same(a, b);
    assert_int_equal(pdt_dataset_rows(b), 2);
    assert_int_equal(pdt_dataset_dropped(b), 3);
    assert_int_equal(pdt_dataset_label(b, 1), 1); /* rows 1 and 5 are left */
    pdt_dataset_free(&a);
    pdt_dataset_free(&b);
    /* codes: NaN and -1 are missing; the numeric NaN too */
    static const char *const names[] = {"a", "b"};
    static const char *const *const by_code[] = {names, NULL};
    static const size_t counts[] = {2, 0};
    const double x[] = {0, 1, NAN, 2, 1, NAN, -1, 4, 1, 5};
    pdt_array_data coded = in;
    coded.cells = NULL, coded.x = x, coded.category_names = by_code, coded.n_category_names = counts;
    a = read_csv_with(csv, &opt), b = from_arrays(&coded);
    assert_same(a, b);
    pdt_dataset_free(&a);
    pdt_dataset_free(&b);
    /* a category "?" when the numeric column has none missing */
    const char *csv2 = "c,x,y\na,1,p\n?,2,q\nb,3,p\n ,4,q\nb,5,q\n";
    static const char *const cells2[] = {"a", "1", NULL, "2", "b", "3", "  ", "4", "b", "5"};
    in.cells = cells2, in.missing = PDT_MISSING_CATEGORY, opt.missing = PDT_MISSING_CATEGORY;
    a = read_csv_with(csv2, &opt), b = from_arrays(&in);
    assert_same(a, b);
    assert_int_equal(pdt_dataset_categories(b, 0), 3);
    assert_string_equal(pdt_dataset_category_name(b, 0, 0), "?");
    pdt_dataset_free(&a);
    pdt_dataset_free(&b);
    static const char *const all[] = {NULL, "1"};
    in.n = 1, in.cells = all, in.missing = PDT_MISSING_DROP;
    expect_error(&in, "missing drop left out every one of the 1 rows");
}

/* A multiway tree on categories from arrays and its ways through the node
 * accessors: colour alone decides the class (red p, green q, blue r; x is
 * noise), so the sparse optimum is one multiway split at the root, 0 errors:
 * objective 0/6 + 1/100 * 1.  A colour the model never saw ends at the root. */
static void test_dataset_arrays_multiway_ways(void **state)
{
    (void)state;
    static const char *const features[] = {"colour", "x"};
    static const pdt_column_kind kinds[] = {PDT_COLUMN_CATEGORICAL, PDT_COLUMN_NUMERIC};
    static const char *const cells[] = {"red", "1", "green", "2", "blue", "1", "red", "2", "green", "1", "blue", "2"};
    static const uint32_t y[] = {0, 1, 2, 0, 1, 2};
    static const char *const classes[] = {"p", "q", "r"};
    pdt_array_data in = {.n = 6, .d = 2, .cells = cells, .feature_names = features, .labels = y,
                         .class_names = classes, .n_classes = 3, .kinds = kinds};
    pdt_dataset *ds = from_arrays(&in);
    pdt_fit_options opt;
    pdt_fit_options_init(&opt);
    opt.rules = "categorical", opt.sparse = "0.01", opt.threads = 1;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &opt, &err) != PDT_OK) fail_msg("%s", err.message);
    mpq_t o;
    mpq_init(o);
    pdt_model_objective(o, m);
    assert_int_equal(mpq_cmp_ui(o, 1, 100), 0);
    mpq_clear(o);
    assert_int_equal(pdt_model_size(m), 1);
    assert_int_equal(pdt_model_node_ways(m, 0), 3);
    int32_t left, right;
    pdt_model_node_children(&left, &right, m, 0);
    assert_int_equal(left, -1);
    assert_int_equal(right, -1);
    static const char *const want[] = {"colour = blue", "colour = green", "colour = red"}; /* code order */
    for (size_t w = 0; w < 3; w++) {
        char *text = NULL;
        assert_int_equal(pdt_model_node_way_text(&text, m, 0, w, &err), PDT_OK);
        assert_string_equal(text, want[w]);
        free(text);
        int32_t child = pdt_model_node_way_child(m, 0, w);
        assert_true(child > 0 && (size_t)child < pdt_model_nodes(m));
        assert_int_equal(pdt_model_node_ways(m, (size_t)child), 0);
        assert_int_equal(pdt_model_node_label(m, (size_t)child), 2 - w); /* blue r, green q, red p */
    }
    static const char *const other[] = {"pink", "1", "green", "9"};
    pdt_array_data new_rows = {.n = 2, .d = 2, .cells = other, .feature_names = features, .kinds = kinds};
    pdt_dataset *nd = from_arrays(&new_rows);
    uint32_t leaf[2], cls[2];
    assert_int_equal(pdt_model_apply(leaf, m, nd, &err), PDT_OK);
    assert_int_equal(pdt_model_predict(cls, m, nd, &err), PDT_OK);
    assert_int_equal(leaf[0], 0);
    assert_int_equal(cls[1], 1);
    pdt_dataset_free(&nd);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

/* A fit on the arrays equals the fit on the CSV: iris's decimals become their
 * doubles, which keep every column's order, so the optimum is the same. */
static void test_dataset_arrays_fit_like_csv(void **state)
{
    (void)state;
    pdt_dataset *csv = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_dataset_load_csv(&csv, tu_data("iris.csv"), NULL, &err), PDT_OK);
    size_t n = pdt_dataset_rows(csv), d = pdt_dataset_dims(csv), k = pdt_dataset_classes(csv);
    double *x = malloc(n * d * sizeof *x);
    uint32_t *y = malloc(n * sizeof *y);
    const char **features = malloc(d * sizeof *features), **classes = malloc(k * sizeof *classes);
    for (size_t i = 0; i < n; i++) {
        y[i] = pdt_dataset_label(csv, i);
        for (size_t j = 0; j < d; j++) x[i * d + j] = pdt_dataset_value(csv, i, j);
    }
    for (size_t j = 0; j < d; j++) features[j] = pdt_dataset_feature_name(csv, j);
    for (size_t c = 0; c < k; c++) classes[c] = pdt_dataset_class_name(csv, c);
    pdt_array_data in = {.n = n, .d = d, .x = x, .feature_names = features, .labels = y,
                         .class_names = classes, .n_classes = k};
    pdt_dataset *arr = from_arrays(&in);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++) assert_int_equal(pdt_dataset_rank(arr, i, j), pdt_dataset_rank(csv, i, j));
    pdt_fit_options opt;
    pdt_fit_options_init(&opt);
    opt.max_depth = 2;
    opt.threads = 1;
    pdt_model *ma = NULL, *mb = NULL;
    assert_int_equal(pdt_fit(&ma, csv, &opt, &err), PDT_OK);
    assert_int_equal(pdt_fit(&mb, arr, &opt, &err), PDT_OK);
    mpq_t oa, ob;
    mpq_inits(oa, ob, NULL);
    pdt_model_objective(oa, ma);
    pdt_model_objective(ob, mb);
    assert_true(mpq_equal(oa, ob));
    assert_int_equal(mpq_cmp_ui(oa, 6, 1), 0); /* iris at depth 2: 6 errors (96 %, as CART finds too) */
    uint32_t *pa = malloc(n * sizeof *pa), *pb = malloc(n * sizeof *pb), *leaf = malloc(n * sizeof *leaf);
    assert_int_equal(pdt_model_predict(pa, ma, csv, &err), PDT_OK);
    assert_int_equal(pdt_model_predict(pb, mb, arr, &err), PDT_OK);
    assert_int_equal(pdt_model_apply(leaf, mb, arr, &err), PDT_OK);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(pa[i], pb[i]);
        assert_int_equal(pdt_model_node_label(mb, leaf[i]), pb[i]);
        assert_true(pdt_model_node_counts(mb, leaf[i])[pb[i]] > 0);
    }
    /* the node accessors: iris at depth 2 is petal length, then petal width */
    int32_t left, right;
    pdt_model_node_children(&left, &right, mb, 0);
    assert_true(left > 0 && right > 0);
    char *text = NULL;
    assert_int_equal(pdt_model_node_rule(&text, mb, 0, &err), PDT_OK);
    assert_non_null(strstr(text, "feat_3"));
    free(text);
    pdt_model_node_children(&left, &right, mb, (size_t)left);
    assert_int_equal(left, -1);
    assert_int_equal(right, -1);
    assert_int_equal(pdt_model_dims(mb), 4);
    assert_string_equal(pdt_model_feature_name(mb, 3), "feat_4");
    mpq_clears(oa, ob, NULL);
    free(pa), free(pb), free(leaf), free(x), free(y), free(features), free(classes);
    pdt_model_free(&ma);
    pdt_model_free(&mb);
    pdt_dataset_free(&arr);
    pdt_dataset_free(&csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dataset_arrays_same_as_csv),
        cmocka_unit_test(test_dataset_arrays_binary_like_csv),
        cmocka_unit_test(test_dataset_arrays_doubles_exact),
        cmocka_unit_test(test_dataset_arrays_refuses_bad_input),
        cmocka_unit_test(test_dataset_arrays_texts_like_csv),
        cmocka_unit_test(test_dataset_arrays_fit_like_csv),
        cmocka_unit_test(test_dataset_arrays_categories_like_csv),
        cmocka_unit_test(test_dataset_arrays_missing_like_csv),
        cmocka_unit_test(test_dataset_arrays_multiway_ways),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
