/* The DL8.5 / MurTree loader. */
#include <string.h>

#include "dataset_impl.h"
#include "test_util.h"

static pdt_dataset *read_dl85(const char *text)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_dl85(&ds, text, strlen(text), "mem.txt", &err) != PDT_OK)
        fail_msg("%s", err.message);
    assert_non_null(ds);
    return ds;
}

static void check_fails(const char *text, pdt_status status, const char *want)
{
    pdt_dataset *ds = (pdt_dataset *)&ds; /* not NULL: the reader must reset it */
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_dataset_read_dl85(&ds, text, strlen(text), "mem.txt", &err);
    if (st != status || !strstr(err.message, want))
        fail_msg("status %d, message \"%s\"; wanted \"%s\"", st, err.message, want);
    assert_null(ds);
}

static void test_dl85_tiny(void **state)
{
    (void)state;
    pdt_dataset *ds = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_load_dl85(&ds, tu_data("tiny_dl85.txt"), &err), PDT_OK);
    assert_int_equal(pdt_dataset_rows(ds), 4);
    assert_int_equal(pdt_dataset_dims(ds), 3);
    assert_true(pdt_dataset_has_labels(ds));
    assert_false(pdt_dataset_has_weights(ds));
    assert_true(pdt_dataset_is_binary(ds));
    assert_int_equal(pdt_dataset_classes(ds), 3);
    assert_string_equal(pdt_dataset_class_name(ds, 2), "2");
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "f0");
    assert_int_equal(pdt_dataset_find_feature(ds, "f2"), 2);
    const uint32_t labels[] = {1, 0, 2, 0};
    const double row2[] = {1, 1, 0};
    for (size_t i = 0; i < 4; i++) assert_int_equal(pdt_dataset_label(ds, i), labels[i]);
    for (size_t j = 0; j < 3; j++) assert_true(pdt_dataset_value(ds, 2, j) == row2[j]);
    assert_int_equal(pdt_dataset_rank(ds, 2, 2), 0);
    assert_int_equal(pdt_dataset_rank(ds, 0, 2), 1);
    assert_int_equal(pdt_dataset_distinct(ds, 0), 2);
    assert_null(ds->q);
    mpq_t q;
    mpq_init(q);
    pdt_dataset_value_exact(q, ds, 0, 1);
    assert_true(mpq_cmp_ui(q, 1, 1) == 0);
    mpq_clear(q);
    pdt_dataset_free(&ds);
}

static void test_dl85_whitespace_and_line_ends(void **state)
{
    (void)state;
    const char *texts[] = {
        "1 0 1\n0 1 1",
        "1\t0\t1\r\n0  1 1\r\n\r\n",
        "\xef\xbb\xbf  1 0 1  \n\n \t\n0 1 1\n\n",
    };
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
        pdt_dataset *ds = read_dl85(texts[k]);
        assert_int_equal(pdt_dataset_rows(ds), 2);
        assert_int_equal(pdt_dataset_dims(ds), 2);
        assert_int_equal(pdt_dataset_label(ds, 0), 1);
        assert_true(pdt_dataset_value(ds, 1, 0) == 1.0);
        pdt_dataset_free(&ds);
    }
}

static void test_dl85_class_names(void **state)
{
    (void)state;
    pdt_dataset *ds = read_dl85("10 1\n9 0\n007 1\n7 0\n0 1\n");
    assert_int_equal(pdt_dataset_classes(ds), 4);
    assert_string_equal(pdt_dataset_class_name(ds, 0), "0");
    assert_string_equal(pdt_dataset_class_name(ds, 1), "7"); /* "007" is 7 */
    assert_string_equal(pdt_dataset_class_name(ds, 2), "9");
    assert_string_equal(pdt_dataset_class_name(ds, 3), "10");
    assert_int_equal(pdt_dataset_label(ds, 2), pdt_dataset_label(ds, 3));
    assert_int_equal(pdt_dataset_find_class(ds, "10"), 3);
    pdt_dataset_free(&ds);
    ds = read_dl85("1\n0\n"); /* labels only */
    assert_int_equal(pdt_dataset_dims(ds), 0);
    assert_int_equal(pdt_dataset_rows(ds), 2);
    pdt_dataset_free(&ds);
}

static void test_dl85_bad_fixtures(void **state)
{
    (void)state;
    const char *files[][2] = {
        {"bad/dl85_nonbinary.txt", "dl85_nonbinary.txt:7:5: feature value \"2\" is not 0 or 1"},
        {"bad/dl85_ragged.txt", "dl85_ragged.txt:3:6: expected 4 values, found 3"},
        {"bad/dl85_label.txt", "dl85_label.txt:2:1: label \"x\" is not a non-negative integer"},
    };
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        pdt_dataset *ds = NULL;
        pdt_error err;
        pdt_error_clear(&err);
        pdt_status st = pdt_dataset_load_dl85(&ds, tu_data(files[k][0]), &err);
        if (st != PDT_EINVAL || !strstr(err.message, files[k][1]))
            fail_msg("%s: status %d, message \"%s\"", files[k][0], st, err.message);
        assert_null(ds);
    }
}

static void test_dl85_errors(void **state)
{
    (void)state;
    check_fails("", PDT_EINVAL, "mem.txt: the file is empty");
    check_fails("\n  \n\t\n", PDT_EINVAL, "mem.txt: the file is empty");
    check_fails("0 1 0\n1 0 1 1 0\n", PDT_EINVAL, "mem.txt:2:7: expected 3 values, found 5");
    check_fails("0 1 0\n\n1 0  \n", PDT_EINVAL, "mem.txt:3:4: expected 3 values, found 2");
    check_fails("0 1\n-1 0\n", PDT_EINVAL,
                "mem.txt:2:1: label \"-1\" is not a non-negative integer");
    check_fails("0 1\n1.0 0\n", PDT_EINVAL,
                "mem.txt:2:1: label \"1.0\" is not a non-negative integer");
    check_fails("0 1\n1 1.0\n", PDT_EINVAL, "mem.txt:2:3: feature value \"1.0\" is not 0 or 1");
    check_fails("0 1\n1 01\n", PDT_EINVAL, "mem.txt:2:3: feature value \"01\" is not 0 or 1");
    check_fails("0,1\n", PDT_EINVAL, "mem.txt:1:1: label \"0,1\" is not a non-negative integer");
    check_fails("\xef\xbb\xbf"
                "0 x\n",
                PDT_EINVAL, "mem.txt:1:3: feature value \"x\"");
    pdt_dataset *ds = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_load_dl85(&ds, "/nonexistent/d.txt", &err), PDT_EIO);
    assert_non_null(strstr(err.message, "/nonexistent/d.txt: cannot open the file"));
    assert_null(ds);
}

/* Random edits of a valid file: a consistent dataset or an error, never a crash. */
static void test_dl85_random_edits_never_crash(void **state)
{
    (void)state;
    const char seed[] = "1 0 1 1\r\n0 1 0 0\n12 1 1 0\n\n";
    const char alphabet[] = " \t\n\r012x-.\0";
    tu_rng rng = {99};
    char text[128];
    for (int round = 0; round < 20000; round++) {
        size_t len = sizeof seed - 1;
        memcpy(text, seed, len);
        for (uint32_t e = 0, edits = 1 + tu_below(&rng, 4); e < edits; e++) {
            size_t at = tu_below(&rng, (uint32_t)len);
            if (tu_below(&rng, 2)) {
                text[at] = alphabet[tu_below(&rng, sizeof alphabet - 1)];
            } else {
                memmove(text + at, text + at + 1, len - at - 1);
                len--;
            }
        }
        pdt_dataset *ds = NULL;
        pdt_error err;
        pdt_error_clear(&err);
        pdt_status st = pdt_dataset_read_dl85(&ds, text, len, "mem.txt", &err);
        if (st != PDT_OK) {
            assert_null(ds);
            assert_true(strncmp(err.message, "mem.txt", 7) == 0);
            continue;
        }
        assert_true(pdt_dataset_is_binary(ds));
        for (size_t i = 0; i < pdt_dataset_rows(ds); i++)
            assert_true(pdt_dataset_label(ds, i) < pdt_dataset_classes(ds));
        pdt_dataset_free(&ds);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dl85_tiny),
        cmocka_unit_test(test_dl85_whitespace_and_line_ends),
        cmocka_unit_test(test_dl85_class_names),
        cmocka_unit_test(test_dl85_bad_fixtures),
        cmocka_unit_test(test_dl85_errors),
        cmocka_unit_test(test_dl85_random_edits_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
