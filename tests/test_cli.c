/* The pdt command on bad input: every case a clear message naming the file,
 * line and column (or the option), a non-zero exit status, no crash and no
 * output file left behind.  Plus the good paths the interface promises. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* Runs `pdt fit --data FILE ... -o out.json` and checks the failure. */
static void expect_fit_failure(const char *data, const char *extra1, const char *extra2, int status,
                               const char *message)
{
    char out[512];
    snprintf(out, sizeof out, "%s/should_not_exist.json", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--size", "2", "-o", out, extra1, extra2, NULL);
    if (r.status != status || !strstr(r.err, message))
        fprintf(stderr, "status %d, stderr: %s\nexpected %d and: %s\n", r.status, r.err, status, message);
    assert_int_equal(r.status, status);
    assert_non_null(strstr(r.err, message));
    assert_false(tu_exists(out));
    assert_null(strstr(r.err, "Segmentation"));
    tu_run_free(&r);
}

static void test_cli_ragged_rows(void **state)
{
    (void)state;
    expect_fit_failure(tu_data("bad/ragged.csv"), NULL, NULL, 1, "ragged.csv:3:9: expected 5 fields, found 4");
}

static void test_cli_empty_file(void **state)
{
    (void)state;
    expect_fit_failure(tu_data("bad/empty.csv"), NULL, NULL, 1, "empty.csv: the file is empty");
}

static void test_cli_header_only(void **state)
{
    (void)state;
    expect_fit_failure(tu_data("bad/header_only.csv"), NULL, NULL, 1, "header_only.csv: a header but no data rows");
}

static void test_cli_nonnumeric_cell(void **state)
{
    (void)state;
    /* text among decimals is refused (a column of text alone is categorical: test_categorical) */
    expect_fit_failure(tu_data("bad/category_in_numbers.csv"), NULL, NULL, 1,
                       "category_in_numbers.csv:3:5: column \"petal\" holds the text \"abc\" among numbers "
                       "such as \"1.4\" (2:5); if the column is categorical pass --categorical petal");
}

static void test_cli_nan(void **state)
{
    (void)state;
    expect_fit_failure(tu_data("bad/nan.csv"), NULL, NULL, 1, "nan.csv:4:1: \"nan\" is not a finite number");
}

static void test_cli_inf(void **state)
{
    (void)state;
    expect_fit_failure(tu_data("bad/inf.csv"), NULL, NULL, 1, "inf.csv:3:1: \"-Infinity\" is not a finite number");
}

static void test_cli_label_column_missing(void **state)
{
    (void)state;
    expect_fit_failure(tu_data("bad/missing_label.csv"), "--label", "klass", 1,
                       "missing_label.csv:1: no column named \"klass\" (columns: a, b, c)");
}

static void test_cli_negative_size(void **state)
{
    (void)state;
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("tiny.csv"), "--size", "-1", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --size: '-1' is not a non-negative integer"));
    tu_run_free(&r);
}

static void test_cli_non_integer_size(void **state)
{
    (void)state;
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("tiny.csv"), "--size", "2.5", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --size: '2.5' is not a non-negative integer"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", tu_data("tiny.csv"), "--size", "99999999999", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --size: '99999999999'"));
    tu_run_free(&r);
}

static void test_cli_unknown_rule_family(void **state)
{
    (void)state;
    expect_fit_failure(tu_data("tiny.csv"), "--rules", "circles", 1,
                       "option --rules: unknown rule family \"circles\" (known: ");
}

static void test_cli_unknown_option(void **state)
{
    (void)state;
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("tiny.csv"), "--size", "1", "--colour", "red", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown option '--colour'"));
    tu_run_free(&r);
    tu_run_pdt(&r, "frobnicate", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown command 'frobnicate'"));
    tu_run_free(&r);
}

static void test_cli_option_without_value(void **state)
{
    (void)state;
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("tiny.csv"), "--size", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --size needs a value"));
    tu_run_free(&r);
}

static void test_cli_bad_numeric_options(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"--depth", "x", "option --depth: 'x' is not a non-negative integer"},
        {"--min-leaf", "-3", "option --min-leaf: '-3' is not a non-negative integer"},
        {"--time-limit", "-1", "option --time-limit: '-1' is not a non-negative number"},
        {"--time-limit", "nan", "option --time-limit: 'nan' is not a non-negative number"},
        {"--engine", "turbo", "option --engine: 'turbo' is not auto, fused, combinations or backend"},
        {"--format", "xml", "option --format: 'xml' is not csv or dl85"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tu_run r;
        tu_run_pdt(&r, "fit", "--data", tu_data("tiny.csv"), "--size", "1", cases[i][0], cases[i][1], NULL);
        assert_int_not_equal(r.status, 0);
        if (!strstr(r.err, cases[i][2])) fprintf(stderr, "got: %s", r.err);
        assert_non_null(strstr(r.err, cases[i][2]));
        tu_run_free(&r);
    }
}

static void test_cli_missing_data_and_limits(void **state)
{
    (void)state;
    tu_run r;
    tu_run_pdt(&r, "fit", "--size", "1", NULL);
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "option --data is required"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", tu_data("tiny.csv"), NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "give --size K and/or --depth D"));
    tu_run_free(&r);
    expect_fit_failure(tu_data("no_such_file.csv"), NULL, NULL, 1, "no_such_file.csv: cannot open the file");
}

static void test_cli_identifier_column(void **state)
{
    (void)state;
    /* a text column is categorical; one with a category for almost every row is named */
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("zoo.csv"), "--rules", "binary", "--size", "1", "-q", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "column \"animal_name\" has 100 categories in 101 rows: an identifier? "
                                  "(--skip animal_name leaves it out)"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", tu_data("zoo.csv"), "--skip", "animal_name", "--size", "1", "-q", NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
}

static void test_cli_dl85_errors(void **state)
{
    (void)state;
    expect_fit_failure(tu_data("bad/dl85_nonbinary.txt"), NULL, NULL, 1,
                       "dl85_nonbinary.txt:7:5: feature value \"2\" is not 0 or 1");
    expect_fit_failure(tu_data("bad/dl85_ragged.txt"), NULL, NULL, 1, "dl85_ragged.txt:3:6: expected 4 values, found 3");
    expect_fit_failure(tu_data("bad/dl85_label.txt"), NULL, NULL, 1,
                       "dl85_label.txt:2:1: label \"x\" is not a non-negative integer");
}

/* A failed later output removes the earlier ones of the same run. */
static void test_cli_failed_output_leaves_nothing(void **state)
{
    (void)state;
    char json[512], svg[512];
    snprintf(json, sizeof json, "%s/partial.json", tu_tmpdir());
    snprintf(svg, sizeof svg, "%s/no/such/dir/tree.svg", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("iris.csv"), "--size", "1", "-q", "-o", json, "--svg", svg, NULL);
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "option --svg"));
    assert_false(tu_exists(json));
    assert_false(tu_exists(svg));
    tu_run_free(&r);
}

/* The result document: keys every later tool relies on. */
static void test_cli_fit_result_document(void **state)
{
    (void)state;
    char json[512];
    snprintf(json, sizeof json, "%s/iris2.json", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", tu_data("iris.csv"), "--rules", "axis", "--size", "2", "-o", json, NULL);
    assert_int_equal(r.status, 0);
    /* depth-2 axis-parallel optimum on iris: 6 misclassified (a classical result) */
    assert_non_null(strstr(r.out, "objective 6 (optimal)"));
    tu_run_free(&r);
    char *doc = tu_read_file(json);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"objective\": 6"));
    assert_non_null(strstr(doc, "\"optimal\": true"));
    assert_non_null(strstr(doc, "\"size\": 2"));
    assert_non_null(strstr(doc, "\"depth\": 2"));
    assert_non_null(strstr(doc, "\"tree\""));
    free(doc);
    /* predicting the training data reproduces the objective */
    tu_run_pdt(&r, "predict", "--model", json, "--data", tu_data("iris.csv"), NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "144 of 150 correct, 6 misclassified"));
    tu_run_free(&r);
}

static void test_cli_predict_errors(void **state)
{
    (void)state;
    tu_run r;
    tu_run_pdt(&r, "predict", "--data", tu_data("iris.csv"), NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --model is required"));
    tu_run_free(&r);
    char *bad = tu_write_file("bad_model.json", "{\"format\": \"pdt-result\",\n  \"tree\": [1,2,\n");
    tu_run_pdt(&r, "predict", "--model", bad, "--data", tu_data("iris.csv"), NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "bad_model.json:"));
    tu_run_free(&r);
    free(bad);
    /* a model whose features the data lacks */
    char json[512];
    snprintf(json, sizeof json, "%s/iris1.json", tu_tmpdir());
    tu_run_pdt(&r, "fit", "--data", tu_data("iris.csv"), "--size", "1", "-q", "-o", json, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    tu_run_pdt(&r, "predict", "--model", json, "--data", tu_data("tiny.csv"), NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "feat_"));
    tu_run_free(&r);
}

/* Counting on 1-D data with distinct values: every K-subset of the
 * thresholds forms exactly Catalan(K) binary search trees. */
/* Issue 16: predict -o writes RFC 4180 CSV: labels holding a comma, a quote
 * or a line break are quoted, quotes doubled. */
static void test_cli_predict_csv_quoted(void **state)
{
    (void)state;
    char *data = tu_write_file("quoting.csv", "x,label\n1,\"a,b\"\n2,\"say \"\"hi\"\"\"\n3,\"two\nlines\"\n4,plain\n");
    char model[512], out[512];
    snprintf(model, sizeof model, "%s/quoting.json", tu_tmpdir());
    snprintf(out, sizeof out, "%s/quoting_pred.csv", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--size", "3", "-q", "-o", model, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    tu_run_pdt(&r, "predict", "--model", model, "--data", data, "-o", out, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    char *csv = tu_read_file(out);
    assert_non_null(csv);
    assert_string_equal(csv, "row,predicted,actual\n"
                             "1,\"a,b\",\"a,b\"\n"
                             "2,\"say \"\"hi\"\"\",\"say \"\"hi\"\"\"\n"
                             "3,\"two\nlines\",\"two\nlines\"\n"
                             "4,plain,plain\n");
    free(csv);
    free(data);
}

/* Runs pdt fit on data with extra options; returns the run (caller frees). */
static tu_run fit_with(const char *data, const char *a, const char *b)
{
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--size", "1", "-q", a, b, NULL);
    return r;
}

/* Issue 16: the loaders say what they guessed.  Each file below was misread
 * silently: a blank-separated file as one label column, a header-less file
 * without its first row, a CSV named .txt as DL8.5, --skip-nonnumeric into a
 * model of no features. */
static void test_cli_loader_guesses(void **state)
{
    (void)state;
    char *spaced = tu_write_file("spaced.csv", "x y label\n1 5 a\n2 6 a\n3 1 b\n4 2 b\n");
    tu_run r = fit_with(spaced, NULL, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "spaced.csv:1: read with the delimiter ','"));
    assert_non_null(strstr(r.err, "--delimiter space"));
    tu_run_free(&r);
    r = fit_with(spaced, "--delimiter", "space");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "objective 0 (optimal)"));
    tu_run_free(&r);
    char *headless = tu_write_file("headless.csv", "1,5,a\n2,6,a\n3,1,b\n4,2,b\n");
    r = fit_with(headless, NULL, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "headless.csv:1: the header row holds numbers"));
    assert_non_null(strstr(r.err, "--no-header"));
    tu_run_free(&r);
    char model[512];
    snprintf(model, sizeof model, "%s/headless.json", tu_tmpdir());
    tu_run_pdt(&r, "fit", "--data", headless, "--size", "1", "-q", "--no-header", "-o", model, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    tu_run_pdt(&r, "predict", "--model", model, "--data", headless, "--no-header", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "4 of 4 correct")); /* every row, the first included */
    tu_run_free(&r);
    char *txt = tu_write_file("csv_named.txt", "x,y,label\n1,5,a\n2,6,a\n3,1,b\n4,2,b\n");
    r = fit_with(txt, NULL, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "csv_named.txt: read as CSV"));
    assert_non_null(strstr(r.out, "objective 0 (optimal)"));
    tu_run_free(&r);
    r = fit_with(tu_data("tiny_dl85.txt"), NULL, NULL); /* real DL8.5 stays DL8.5, quietly */
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "read as CSV"));
    tu_run_free(&r);
    char *holes = tu_write_file("holes.csv", "a,b,label\n1,?,x\n?,2,y\n");
    r = fit_with(holes, "--skip-nonnumeric", NULL); /* "?" is a missing value, not text */
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "holes.csv:2:3: missing value \"?\" in column \"b\""));
    tu_run_free(&r);
    char *words = tu_write_file("words.csv", "a,b,label\n1,x,x\ny,2,y\n");
    r = fit_with(words, "--skip-nonnumeric", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "--skip-nonnumeric dropped every feature column"));
    assert_non_null(strstr(r.err, "\"a\" (3:1), \"b\" (2:3)"));
    tu_run_free(&r);
    free(words);
    r = fit_with(spaced, "--delimiter", "ab"); /* a bad value is a usage error */
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --delimiter: 'ab'"));
    tu_run_free(&r);
    free(spaced), free(headless), free(txt), free(holes);
}

static void test_cli_count(void **state)
{
    (void)state;
    char *data = tu_write_file("line.csv", "x,c\n1,a\n2,b\n3,a\n4,b\n");
    tu_run r;
    tu_run_pdt(&r, "count", "--data", data, "--rules", "axis", "--size", "3", NULL);
    assert_int_equal(r.status, 0);
    /* C(4,3)·Catalan(3) = 4·5 = 20 proper trees; 4·6 = 24 permutations */
    assert_non_null(strstr(r.out, "proper trees            20\n"));
    assert_non_null(strstr(r.out, "K-permutations          24\n"));
    tu_run_free(&r);
    tu_run_pdt(&r, "count", "--data", data, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --size is required"));
    tu_run_free(&r);
    free(data);
}

static void test_cli_help_and_demo(void **state)
{
    (void)state;
    static const char *const cmds[] = {"fit", "predict", "count", "demo"};
    for (size_t i = 0; i < 4; i++) {
        tu_run r;
        tu_run_pdt(&r, cmds[i], "--help", NULL);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "usage: pdt"));
        tu_run_free(&r);
    }
    tu_run r;
    tu_run_pdt(&r, "demo", NULL);
    assert_int_equal(r.status, 0);
    /* the embedded XOR-like data: one line leaves 3 errors, two lines none */
    assert_non_null(strstr(r.out, "hyperplane K = 1: 3 misclassified (optimal)"));
    assert_non_null(strstr(r.out, "hyperplane K = 2: 0 misclassified (optimal)"));
    tu_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_ragged_rows),
        cmocka_unit_test(test_cli_empty_file),
        cmocka_unit_test(test_cli_header_only),
        cmocka_unit_test(test_cli_nonnumeric_cell),
        cmocka_unit_test(test_cli_nan),
        cmocka_unit_test(test_cli_inf),
        cmocka_unit_test(test_cli_label_column_missing),
        cmocka_unit_test(test_cli_negative_size),
        cmocka_unit_test(test_cli_non_integer_size),
        cmocka_unit_test(test_cli_unknown_rule_family),
        cmocka_unit_test(test_cli_unknown_option),
        cmocka_unit_test(test_cli_option_without_value),
        cmocka_unit_test(test_cli_bad_numeric_options),
        cmocka_unit_test(test_cli_missing_data_and_limits),
        cmocka_unit_test(test_cli_identifier_column),
        cmocka_unit_test(test_cli_dl85_errors),
        cmocka_unit_test(test_cli_failed_output_leaves_nothing),
        cmocka_unit_test(test_cli_fit_result_document),
        cmocka_unit_test(test_cli_predict_errors),
        cmocka_unit_test(test_cli_predict_csv_quoted),
        cmocka_unit_test(test_cli_loader_guesses),
        cmocka_unit_test(test_cli_count),
        cmocka_unit_test(test_cli_help_and_demo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
