/* The CSV loader: format variants, options, and every error with its position. */
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "test_util.h"

static pdt_dataset *read_csv(const char *text, const pdt_csv_options *opt)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "mem.csv", opt, &err) != PDT_OK)
        fail_msg("%s", err.message);
    assert_non_null(ds);
    return ds;
}

static pdt_dataset *load_csv(const char *file, const pdt_csv_options *opt)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_load_csv(&ds, tu_data(file), opt, &err) != PDT_OK) fail_msg("%s", err.message);
    return ds;
}

/* The text (len bytes) fails with status and a message containing want. */
static void check_fails(const char *text, size_t len, const pdt_csv_options *opt, pdt_status status,
                        const char *want)
{
    pdt_dataset *ds = (pdt_dataset *)&ds; /* not NULL: the reader must reset it */
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_dataset_read_csv(&ds, text, len, "mem.csv", opt, &err);
    if (st != status || !strstr(err.message, want))
        fail_msg("status %d, message \"%s\"; wanted %d, \"%s\"", st, err.message, status, want);
    assert_int_equal(err.status, status);
    assert_null(ds);
}

static void check_text_fails(const char *text, const pdt_csv_options *opt, const char *want)
{
    check_fails(text, strlen(text), opt, PDT_EINVAL, want);
}

static void assert_exact(const pdt_dataset *ds, size_t i, size_t j, const char *value)
{
    mpq_t got, want;
    mpq_inits(got, want, NULL);
    pdt_dataset_value_exact(got, ds, i, j);
    assert_int_equal(mpq_set_str(want, value, 10), 0);
    mpq_canonicalize(want);
    if (!mpq_equal(got, want)) fail_msg("cell (%zu, %zu) is not %s", i, j, value);
    mpq_clears(got, want, NULL);
}

static void test_csv_tiny(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("tiny.csv", NULL);
    assert_int_equal(pdt_dataset_rows(ds), 4);
    assert_int_equal(pdt_dataset_dims(ds), 3);
    assert_string_equal(pdt_dataset_feature_name(ds, 2), "c");
    assert_exact(ds, 3, 1, "1/10");
    assert_exact(ds, 1, 1, "1/4");
    assert_int_equal(pdt_dataset_distinct(ds, 1), 3);
    assert_int_equal(pdt_dataset_label(ds, 0), 1); /* "yes" after "no" */
    assert_int_equal(pdt_dataset_label(ds, 1), 0);
    pdt_dataset_free(&ds);
}

static void test_csv_bom_crlf(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("bom_crlf.csv", NULL);
    assert_int_equal(pdt_dataset_rows(ds), 2);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "x");
    assert_string_equal(pdt_dataset_class_name(ds, 0), "A");
    assert_string_equal(pdt_dataset_class_name(ds, 1), "B");
    assert_exact(ds, 1, 1, "4");
    pdt_dataset_free(&ds);
}

static void test_csv_quoted(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("quoted.csv", NULL);
    assert_int_equal(pdt_dataset_rows(ds), 3);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "first, col");
    assert_string_equal(pdt_dataset_feature_name(ds, 1), "say \"hi\"");
    assert_int_equal(pdt_dataset_classes(ds), 3);
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 0)), "a,b");
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 1)), "multi\nline");
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 2)), "x \"y\"");
    assert_exact(ds, 0, 0, "3/2");
    assert_exact(ds, 0, 1, "2");
    assert_exact(ds, 1, 1, "4");
    assert_exact(ds, 2, 0, "0");
    assert_exact(ds, 2, 1, "5");
    pdt_dataset_free(&ds);
}

static void check_two_by_two(pdt_dataset *ds)
{
    assert_int_equal(pdt_dataset_rows(ds), 2);
    assert_int_equal(pdt_dataset_dims(ds), 2);
    assert_string_equal(pdt_dataset_feature_name(ds, 1), "b");
    assert_exact(ds, 0, 1, "5/2");
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 1)), "y");
}

static void test_csv_separators(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("semicolon.csv", NULL);
    check_two_by_two(ds);
    pdt_dataset_free(&ds);
    ds = load_csv("tab.tsv", NULL);
    check_two_by_two(ds);
    pdt_dataset_free(&ds);
    ds = read_csv("a\tb\tclass\n1\t2.5\tbig x\n 3 \t4\ty\n", NULL);
    check_two_by_two(ds);
    assert_string_equal(pdt_dataset_class_name(ds, 0), "big x");
    pdt_dataset_free(&ds);
    ds = read_csv("\"a;1\",b,class\n1,2.5,x\n3,4,y\n", NULL); /* a ';' inside quotes */
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "a;1");
    pdt_dataset_free(&ds);
}

static void test_csv_line_ends_and_blank_lines(void **state)
{
    (void)state;
    const char *texts[] = {
        "a,b,class\n1,2.5,x\n3,4,y", /* no final newline */
        "a,b,class\r1,2.5,x\r3,4,y\r", /* CR only */
        "a,b,class\r\n1,2.5,x\n3,4,y\r\n\r\n\n", /* mixed, trailing blank lines */
        "\n\na,b,class\n1,2.5,x\n\n  \n3,4,y\n \t\n", /* blank lines anywhere */
        "\xef\xbb\xbf a , b ,class\n 1 , 2.5 ,x \n3,4,y\n", /* BOM, spaces */
    };
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
        pdt_dataset *ds = read_csv(texts[k], NULL);
        check_two_by_two(ds);
        assert_string_equal(pdt_dataset_feature_name(ds, 0), "a");
        pdt_dataset_free(&ds);
    }
}

static void test_csv_label_option(void **state)
{
    (void)state;
    pdt_csv_options opt = {.label = "b"};
    pdt_dataset *ds = read_csv("a,b,c\n1,u,3\n4,v,6\n", &opt);
    assert_int_equal(pdt_dataset_dims(ds), 2);
    assert_string_equal(pdt_dataset_feature_name(ds, 1), "c");
    assert_exact(ds, 1, 1, "6");
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 1)), "v");
    pdt_dataset_free(&ds);
    pdt_csv_options none = {.no_label = true};
    ds = read_csv("a,b,c\n1,2,3\n4,5,6\n", &none);
    assert_false(pdt_dataset_has_labels(ds));
    assert_int_equal(pdt_dataset_classes(ds), 0);
    assert_int_equal(pdt_dataset_dims(ds), 3);
    assert_int_equal(pdt_dataset_label(ds, 0), 0);
    pdt_dataset_free(&ds);
    ds = read_csv("only\nx\ny\n", NULL); /* the label alone: no features */
    assert_int_equal(pdt_dataset_dims(ds), 0);
    assert_int_equal(pdt_dataset_rows(ds), 2);
    assert_int_equal(pdt_dataset_classes(ds), 2);
    pdt_dataset_free(&ds);
}

static void test_csv_skip_options(void **state)
{
    (void)state;
    const char *skip[] = {"id", "note"};
    pdt_csv_options opt = {.skip = skip, .n_skip = 2};
    pdt_dataset *ds = read_csv("id,a,note,b,t\nx1,1,hello,2,p\nx2,3,,4,q\n", &opt);
    assert_int_equal(pdt_dataset_dims(ds), 2);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "a");
    assert_string_equal(pdt_dataset_feature_name(ds, 1), "b");
    assert_exact(ds, 1, 1, "4");
    pdt_dataset_free(&ds);
    pdt_csv_options drop = {.skip_nonnumeric = true};
    ds = read_csv("a,nan_col,word,b,t\n1,nan,w,2,p\n3,4,5,4,q\n", &drop);
    assert_int_equal(pdt_dataset_dims(ds), 2);
    assert_true(pdt_dataset_find_feature(ds, "nan_col") == SIZE_MAX);
    assert_true(pdt_dataset_find_feature(ds, "word") == SIZE_MAX);
    assert_int_equal(pdt_dataset_find_feature(ds, "b"), 1);
    pdt_dataset_free(&ds);
}

static void test_csv_fraction_and_exponent_cells(void **state)
{
    (void)state;
    pdt_dataset *ds = read_csv("a,t\n1/3,x\n\"2.5E+4\",y\n-7e-2,z\n", NULL);
    assert_exact(ds, 0, 0, "1/3");
    assert_exact(ds, 1, 0, "25000");
    assert_exact(ds, 2, 0, "-7/100");
    assert_int_equal(pdt_dataset_rank(ds, 2, 0), 0);
    pdt_dataset_free(&ds);
}

typedef struct bad_fixture {
    const char *file;
    pdt_csv_options opt;
    const char *want;
} bad_fixture;

static void test_csv_bad_fixtures(void **state)
{
    (void)state;
    const bad_fixture cases[] = {
        {"bad/ragged.csv", {0}, "ragged.csv:3:9: expected 5 fields, found 4"},
        {"bad/empty.csv", {0}, "empty.csv: the file is empty"},
        {"bad/header_only.csv", {0}, "header_only.csv: a header but no data rows"},
        {"bad/nonnumeric.csv",
         {.numeric_only = true},
         "nonnumeric.csv:2:5: column \"petal\" holds \"abc\", which is not a number; use "
         "--skip-nonnumeric or --skip petal"},
        {"bad/category_in_numbers.csv",
         {0},
         "category_in_numbers.csv:3:5: column \"petal\" holds the text \"abc\" among numbers such as "
         "\"1.4\" (2:5); if the column is categorical pass --categorical petal"},
        {"bad/nan.csv", {0}, "nan.csv:4:1: \"nan\" is not a finite number (column \"a\")"},
        {"bad/inf.csv", {0}, "inf.csv:3:1: \"-Infinity\" is not a finite number"},
        {"bad/missing_label.csv",
         {.label = "klass"},
         "missing_label.csv:1: no column named \"klass\" (columns: a, b, c)"},
        {"bad/dup_column.csv",
         {0},
         "dup_column.csv:1:5: duplicate column name \"a\" (columns 1 and 3)"},
        {"bad/unterminated_quote.csv",
         {0},
         "unterminated_quote.csv:1:3: unterminated quoted field"},
        {"bad/negative_weight.csv",
         {.weight = "w"},
         "negative_weight.csv:3:3: weight \"-0.5\" is negative (column \"w\")"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        pdt_dataset *ds = NULL;
        pdt_error err;
        pdt_error_clear(&err);
        const char *path = tu_data(cases[k].file);
        pdt_status st = pdt_dataset_load_csv(&ds, path, &cases[k].opt, &err);
        if (st != PDT_EINVAL || !strstr(err.message, cases[k].want))
            fail_msg("%s: status %d, message \"%s\"", cases[k].file, st, err.message);
        assert_non_null(strstr(err.message, path)); /* the file as given */
        assert_null(ds);
    }
}

static void test_csv_missing_file(void **state)
{
    (void)state;
    pdt_dataset *ds = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_load_csv(&ds, "/nonexistent/x.csv", NULL, &err), PDT_EIO);
    assert_null(ds);
    assert_non_null(strstr(err.message, "/nonexistent/x.csv: cannot open the file"));
    assert_int_equal(pdt_dataset_load_csv(&ds, tu_data("bad"), NULL, &err), PDT_EIO);
    assert_non_null(strstr(err.message, "cannot read the file"));
    assert_null(ds);
}

static void test_csv_syntax_errors(void **state)
{
    (void)state;
    check_text_fails("a,b\n1,\"x\ny,z\n", NULL, "mem.csv:2:3: unterminated quoted field");
    check_text_fails("a,b\n1,\"x\"y,z\n", NULL,
                     "mem.csv:2:6: text after the closing quote of a field (found \"y\")");
    check_fails("a,b\n1,x\0y\n", 10, NULL, PDT_EINVAL, "mem.csv:2:4: a NUL byte");
    check_text_fails("a,b,c\n1,2,x\n1,2,3,4\n", NULL, "mem.csv:3:7: expected 3 fields, found 4");
    check_text_fails("a,b,c\n1,2\n", NULL, "mem.csv:2:4: expected 3 fields, found 2");
    check_text_fails("", NULL, "mem.csv: the file is empty");
    check_text_fails("\xef\xbb\xbf\r\n \n", NULL, "mem.csv: the file is empty");
    check_text_fails("a,b\n\n\n", NULL, "mem.csv: a header but no data rows");
    check_fails(NULL, 0, NULL, PDT_EINVAL, "the file is empty");
}

static void test_csv_positions_after_multiline_field(void **state)
{
    (void)state;
    pdt_csv_options opt = {.label = "b", .numeric_only = true};
    /* text in a feature column is a category: these read numbers only */
    const pdt_csv_options num = {.numeric_only = true};
    check_text_fails("a,b,c\n1,\"multi\nline\",zz\n", &opt,
                     "mem.csv:3:7: column \"c\" holds \"zz\", which is not a number");
    check_text_fails("\n\nx,y\n1,2\nabc,2\n", &num, "mem.csv:5:1: column \"x\" holds \"abc\"");
    check_text_fails("\xef\xbb\xbfx,y\n1,2\n\"ab\",2\n", &num,
                     "mem.csv:3:1: column \"x\" holds \"ab\"");
    check_text_fails("\xef\xbb\xbf"
                     "a,a\n1,2\n",
                     &num, "mem.csv:1:3: duplicate column name \"a\"");
    check_text_fails("x,y\n 1,2\n  q ,2\n", &num, "mem.csv:3:1: column \"x\" holds \"q\"");
}

static void test_csv_cell_errors(void **state)
{
    (void)state;
    const pdt_csv_options num = {.numeric_only = true};
    check_text_fails("x,y\n1,2\n,2\n", &num,
                     "mem.csv:3:1: missing value \"\" in column \"x\"; say what missing values mean with --missing drop");
    check_text_fails("x,y\n1,\n", &num, "mem.csv:2:3: the label is empty (column \"y\")");
    check_text_fails("x,y\n1e100001,a\n", &num, "mem.csv:2:1: column \"x\" holds \"1e100001\"");
    check_text_fails("x,y\n0x1A,a\n", &num, "column \"x\" holds \"0x1A\"");
    check_text_fails("x,y\n1/0,a\n", &num, "column \"x\" holds \"1/0\"");
    check_text_fails("x,y\nNaN,a\n", &num, "mem.csv:2:1: \"NaN\" is not a finite number");
    check_text_fails("x,y\n+inf,a\n", &num, "mem.csv:2:1: \"+inf\" is not a finite number");
    char long_cell[300] = "x,y\n";
    memset(long_cell + 4, 'q', 200);
    strcpy(long_cell + 204, ",a\n");
    char want[80] = "holds \"";
    memset(want + 7, 'q', 60);
    strcpy(want + 67, "...\"");
    check_text_fails(long_cell, &num, want);
}

static void test_csv_weight_errors(void **state)
{
    (void)state;
    pdt_csv_options opt = {.weight = "w"};
    check_text_fails("x,w,t\n1,abc,a\n", &opt,
                     "mem.csv:2:3: weight \"abc\" is not a number (column \"w\")");
    check_text_fails("x,w,t\n1,nan,a\n", &opt,
                     "mem.csv:2:3: \"nan\" is not a finite number (column \"w\")");
    check_text_fails("x,w,t\n1,1,a\n2,-1/3,b\n", &opt, "mem.csv:3:3: weight \"-1/3\" is negative");
    pdt_dataset *ds = read_csv("x,w,t\n1,-0,a\n2,0.0,b\n", &opt); /* zero weights are allowed */
    mpq_t w;
    mpq_init(w);
    pdt_dataset_weight_exact(w, ds, 0);
    assert_int_equal(mpq_sgn(w), 0);
    mpq_clear(w);
    pdt_dataset_free(&ds);
}

static void test_csv_option_errors(void **state)
{
    (void)state;
    const char *text = "a,b,c\n1,2,3\n";
    pdt_csv_options weight_is_label = {.weight = "c"};
    check_text_fails(text, &weight_is_label,
                     "mem.csv:1: column \"c\" cannot be both the label and the weight");
    const char *skip_label[] = {"c"};
    pdt_csv_options skip = {.skip = skip_label, .n_skip = 1};
    check_text_fails(text, &skip, "mem.csv:1: column \"c\" cannot be both the label and skipped");
    const char *skip_missing[] = {"a", "zz"};
    pdt_csv_options missing = {.skip = skip_missing, .n_skip = 2};
    check_text_fails(text, &missing, "mem.csv:1: no column named \"zz\" (columns: a, b, c)");
    pdt_csv_options no_weight = {.weight = "w"};
    check_text_fails(text, &no_weight, "no column named \"w\"");
    pdt_csv_options both = {.label = "a", .no_label = true};
    check_text_fails(text, &both, "mem.csv: a label column (\"a\") and no label both requested");
    pdt_csv_options label_weight = {.label = "a", .weight = "a"};
    check_text_fails(text, &label_weight, "column \"a\" cannot be both the label and the weight");
}

static void test_csv_long_column_list_is_cut(void **state)
{
    (void)state;
    char *text = malloc(20000), *p = text;
    for (int k = 0; k < 1000; k++) p += sprintf(p, "%scolumn_%d", k ? "," : "", k);
    p += sprintf(p, "\n");
    for (int k = 0; k < 1000; k++) p += sprintf(p, "%s%d", k ? "," : "", k);
    p += sprintf(p, "\n");
    pdt_csv_options opt = {.label = "nope"};
    check_text_fails(text, &opt, "(columns: column_0, column_1, column_2");
    check_text_fails(text, &opt, ", ...)");
    pdt_dataset *ds = read_csv(text, NULL);
    assert_int_equal(pdt_dataset_dims(ds), 999);
    pdt_dataset_free(&ds);
    free(text);
}

/* Either a consistent dataset or an error with a message and no object. */
static void check_outcome(pdt_status st, pdt_dataset *ds, const pdt_error *err)
{
    if (st != PDT_OK) {
        assert_null(ds);
        assert_int_equal(err->status, st);
        assert_true(strncmp(err->message, "mem.csv", 7) == 0);
        return;
    }
    assert_non_null(ds);
    assert_true(pdt_dataset_rows(ds) > 0);
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++) {
        if (pdt_dataset_has_labels(ds))
            assert_true(pdt_dataset_label(ds, i) < pdt_dataset_classes(ds));
        for (size_t j = 0; j < pdt_dataset_dims(ds); j++)
            assert_true(pdt_dataset_rank(ds, i, j) < pdt_dataset_distinct(ds, j));
    }
}

/* Random edits of a valid file with the bytes that matter to the lexer. */
static void test_csv_random_edits_never_crash(void **state)
{
    (void)state;
    const char seed[] = "\xef\xbb\xbf\"a, b\",c;d,w,t\r\n1.5,\"2\",3,x\n-1e2,1/3, 0 ,\"y\"\"z\"\n";
    const char alphabet[] = ",\"\n\r \t01.e-/;a\0\xef\xbb\xbfn";
    tu_rng rng = {2024};
    char text[256];
    for (int round = 0; round < 20000; round++) {
        size_t len = sizeof seed - 1;
        memcpy(text, seed, len);
        for (uint32_t e = 0, edits = 1 + tu_below(&rng, 6); e < edits; e++) {
            size_t at = tu_below(&rng, (uint32_t)len + 1);
            char c = alphabet[tu_below(&rng, sizeof alphabet - 1)];
            uint32_t kind = tu_below(&rng, 3);
            if (kind == 0 && len < sizeof text) { /* insert */
                memmove(text + at + 1, text + at, len - at);
                text[at] = c;
                len++;
            } else if (kind == 1 && at < len) { /* delete */
                memmove(text + at, text + at + 1, len - at - 1);
                len--;
            } else if (at < len) {
                text[at] = c;
            }
        }
        pdt_csv_options opt = {.weight = tu_below(&rng, 2) ? "w" : NULL,
                               .skip_nonnumeric = tu_below(&rng, 2)};
        pdt_dataset *ds = NULL;
        pdt_error err;
        pdt_error_clear(&err);
        pdt_status st = pdt_dataset_read_csv(&ds, text, len, "mem.csv", &opt, &err);
        check_outcome(st, ds, &err);
        pdt_dataset_free(&ds);
    }
}

/* Issue 16: a blank-separated file detected as CSV is one column with as many
 * "classes" as rows; refused, with the option that reads it. */
static void test_csv_blank_separated(void **state)
{
    (void)state;
    const char *text = "sepal width label\n1.5 2 a\n2.5 3 b\n";
    check_text_fails(text, NULL, "mem.csv:1: read with the delimiter ','");
    check_text_fails(text, NULL, "pass --delimiter space");
    pdt_csv_options o = {.delimiter = ' '};
    /* runs of spaces and tabs, leading and trailing blanks, a quoted field */
    pdt_dataset *ds = read_csv("  sepal width\tlabel  \n1.5   2 a\n\t2.5\t3 \"b c\"  \n\n", &o);
    assert_int_equal(pdt_dataset_rows(ds), 2);
    assert_int_equal(pdt_dataset_dims(ds), 2);
    assert_string_equal(pdt_dataset_feature_name(ds, 1), "width");
    assert_string_equal(pdt_dataset_class_name(ds, 1), "b c");
    assert_exact(ds, 1, 0, "5/2");
    pdt_dataset_free(&ds);
    /* a one-column file without blanks, or with an explicit delimiter, is fine */
    pdt_csv_options comma = {.delimiter = ',', .no_label = true};
    ds = read_csv("my x\n1\n2\n", &comma);
    assert_int_equal(pdt_dataset_dims(ds), 1);
    pdt_dataset_free(&ds);
    /* ';' given explicitly wins over the comma of the first line */
    pdt_csv_options semi = {.delimiter = ';'};
    ds = read_csv("a,1;b\n1;x\n2;y\n", &semi);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "a,1");
    pdt_dataset_free(&ds);
    pdt_csv_options quote = {.delimiter = '"'};
    check_text_fails("a\"b\n1\"x\n", &quote, "option --delimiter");
}

/* Issue 16: a file without a header lost its first row to the names. */
static void test_csv_header_detection(void **state)
{
    (void)state;
    const char *text = "5.1,3.5,a\n4.9,3.0,b\n";
    check_text_fails(text, NULL, "mem.csv:1: the header row holds numbers where the feature names belong (\"5.1\"");
    check_text_fails(text, NULL, "pass --no-header");
    pdt_csv_options no = {.header = PDT_CSV_HEADER_NO};
    pdt_dataset *ds = read_csv(text, &no);
    assert_int_equal(pdt_dataset_rows(ds), 2);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "col1");
    assert_string_equal(pdt_dataset_feature_name(ds, 1), "col2");
    assert_exact(ds, 0, 0, "51/10");
    assert_int_equal(pdt_dataset_classes(ds), 2);
    pdt_dataset_free(&ds);
    /* the label may be named colN; a header of numbers can be insisted on */
    pdt_csv_options named = {.header = PDT_CSV_HEADER_NO, .label = "col1"};
    ds = read_csv("a,5.1,3.5\nb,4.9,3.0\n", &named);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "col2");
    pdt_dataset_free(&ds);
    pdt_csv_options yes = {.header = PDT_CSV_HEADER_YES};
    ds = read_csv("1,2,label\n3,4,a\n", &yes);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "1");
    pdt_dataset_free(&ds);
    /* one named feature column is enough to trust the header */
    ds = read_csv("1,x,label\n3,4,a\n", NULL);
    pdt_dataset_free(&ds);
}

/* Issue 16: --skip-nonnumeric silently left no feature at all. */
static void test_csv_skip_nonnumeric_keeps_a_feature(void **state)
{
    (void)state;
    pdt_csv_options o = {.skip_nonnumeric = true};
    check_text_fails("a,b,c\n1,u,x\nv,3,y\n", &o,
                     "mem.csv: --skip-nonnumeric dropped every feature column: 2 columns with a non-number, "
                     "first at LINE:COLUMN: \"a\" (3:1), \"b\" (2:3)");
    pdt_dataset *ds = read_csv("a,b,c\n1,u,x\n2,3,y\n", &o);
    assert_int_equal(pdt_dataset_dims(ds), 1);
    pdt_dataset_free(&ds);
    /* a missing cell is not a non-number: --missing decides, never a dropped column */
    check_text_fails("a,b,c\n1,?,x\n2,3,y\n", &o, "mem.csv:2:3: missing value \"?\" in column \"b\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_tiny),
        cmocka_unit_test(test_csv_bom_crlf),
        cmocka_unit_test(test_csv_quoted),
        cmocka_unit_test(test_csv_separators),
        cmocka_unit_test(test_csv_line_ends_and_blank_lines),
        cmocka_unit_test(test_csv_label_option),
        cmocka_unit_test(test_csv_skip_options),
        cmocka_unit_test(test_csv_fraction_and_exponent_cells),
        cmocka_unit_test(test_csv_bad_fixtures),
        cmocka_unit_test(test_csv_missing_file),
        cmocka_unit_test(test_csv_syntax_errors),
        cmocka_unit_test(test_csv_positions_after_multiline_field),
        cmocka_unit_test(test_csv_cell_errors),
        cmocka_unit_test(test_csv_weight_errors),
        cmocka_unit_test(test_csv_option_errors),
        cmocka_unit_test(test_csv_long_column_list_is_cut),
        cmocka_unit_test(test_csv_random_edits_never_crash),
        cmocka_unit_test(test_csv_blank_separated),
        cmocka_unit_test(test_csv_header_detection),
        cmocka_unit_test(test_csv_skip_nonnumeric_keeps_a_feature),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
