/* Datasets: the real public files, exact values and order, classes, subsets. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "test_util.h"

static pdt_dataset *load_csv(const char *file, const pdt_csv_options *opt)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_dataset_load_csv(&ds, tu_data(file), opt, &err);
    if (st != PDT_OK) fail_msg("%s: %s", file, err.message);
    assert_non_null(ds);
    return ds;
}

static pdt_dataset *read_csv(const char *text, const pdt_csv_options *opt)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "mem.csv", opt, &err) != PDT_OK)
        fail_msg("%s", err.message);
    return ds;
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

/* Ranks and distinct counts by brute force from the exact values: the rank is
 * the number of distinct values below. */
static void check_ranks(const pdt_dataset *ds)
{
    const size_t n = pdt_dataset_rows(ds);
    mpq_t *v = malloc((n ? n : 1) * sizeof *v);
    bool *first = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) mpq_init(v[i]);
    for (size_t j = 0; j < pdt_dataset_dims(ds); j++) {
        size_t distinct = 0;
        for (size_t i = 0; i < n; i++) {
            pdt_dataset_value_exact(v[i], ds, i, j);
            first[i] = true;
            for (size_t k = 0; k < i && first[i]; k++) first[i] = !mpq_equal(v[k], v[i]);
            distinct += first[i];
        }
        for (size_t i = 0; i < n; i++) {
            size_t below = 0;
            for (size_t k = 0; k < n; k++) below += first[k] && mpq_cmp(v[k], v[i]) < 0;
            assert_int_equal(pdt_dataset_rank(ds, i, j), below);
        }
        assert_int_equal(pdt_dataset_distinct(ds, j), distinct);
    }
    for (size_t i = 0; i < n; i++) mpq_clear(v[i]);
    free(v);
    free(first);
}

static void test_dataset_iris_shape(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("iris.csv", NULL);
    assert_int_equal(pdt_dataset_rows(ds), 150);
    assert_int_equal(pdt_dataset_dims(ds), 4);
    assert_true(pdt_dataset_has_labels(ds));
    assert_false(pdt_dataset_has_weights(ds));
    assert_false(pdt_dataset_is_binary(ds));
    assert_int_equal(pdt_dataset_classes(ds), 3);
    assert_string_equal(pdt_dataset_class_name(ds, 0), "0.0");
    assert_string_equal(pdt_dataset_class_name(ds, 2), "2.0");
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "feat_1");
    assert_int_equal(pdt_dataset_find_feature(ds, "feat_3"), 2);
    assert_true(pdt_dataset_find_feature(ds, "target") == SIZE_MAX);
    assert_true(strstr(pdt_dataset_name(ds), "iris.csv") != NULL);
    size_t count[3] = {0};
    for (size_t i = 0; i < 150; i++) count[pdt_dataset_label(ds, i)]++;
    assert_true(count[0] == 50 && count[1] == 50 && count[2] == 50);
    assert_int_equal(pdt_dataset_label(ds, 149), 2);
    assert_true(pdt_dataset_value(ds, 0, 0) == 5.1);
    assert_exact(ds, 0, 0, "51/10");
    assert_non_null(ds->q); /* decimals need rationals */
    pdt_dataset_free(&ds);
    assert_null(ds);
}

static void test_dataset_find_class_numeric(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("iris.csv", NULL);
    assert_int_equal(pdt_dataset_find_class(ds, "1.0"), 1);
    assert_int_equal(pdt_dataset_find_class(ds, "1"), 1);
    assert_int_equal(pdt_dataset_find_class(ds, "2.00"), 2);
    assert_int_equal(pdt_dataset_find_class(ds, "0"), 0);
    assert_int_equal(pdt_dataset_find_class(ds, "-0"), 0);
    assert_true(pdt_dataset_find_class(ds, "3") == SIZE_MAX);
    assert_true(pdt_dataset_find_class(ds, "setosa") == SIZE_MAX);
    pdt_dataset_free(&ds);
    ds = load_csv("tiny.csv", NULL);
    assert_int_equal(pdt_dataset_find_class(ds, "no"), 0);
    assert_int_equal(pdt_dataset_find_class(ds, "yes"), 1);
    assert_true(pdt_dataset_find_class(ds, "YES") == SIZE_MAX);
    pdt_dataset_free(&ds);
}

static void test_dataset_wine_bom_and_decimals(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("wine.csv", NULL);
    assert_int_equal(pdt_dataset_rows(ds), 178);
    assert_int_equal(pdt_dataset_dims(ds), 13);
    assert_int_equal(pdt_dataset_classes(ds), 3);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "Feat0"); /* no BOM in the name */
    assert_int_equal(pdt_dataset_find_feature(ds, "Feat0"), 0);
    assert_string_equal(pdt_dataset_class_name(ds, 0), "1");
    assert_exact(ds, 0, 7, "7/25"); /* ".28" */
    assert_true(pdt_dataset_value(ds, 0, 7) == 0.28);
    assert_exact(ds, 0, 12, "1065");
    assert_exact(ds, 0, 0, "1423/100");
    pdt_dataset_free(&ds);
}

static void test_dataset_mouse_integers(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("mouse.csv", NULL);
    assert_int_equal(pdt_dataset_rows(ds), 70); /* the last row has no newline */
    assert_int_equal(pdt_dataset_dims(ds), 5);
    assert_int_equal(pdt_dataset_classes(ds), 2);
    assert_null(ds->q); /* small integers are kept as doubles */
    assert_exact(ds, 0, 4, "37");
    assert_exact(ds, 69, 0, "8");
    assert_int_equal(pdt_dataset_label(ds, 1), 1);
    pdt_dataset_free(&ds);
}

static void test_dataset_zoo_name_column_rejected(void **state)
{
    (void)state;
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    /* as points (numbers only) the name column is refused ... */
    pdt_csv_options num = {.numeric_only = true};
    assert_int_equal(pdt_dataset_load_csv(&ds, tu_data("zoo.csv"), &num, &err), PDT_EINVAL);
    assert_null(ds);
    assert_int_equal(err.status, PDT_EINVAL);
    assert_non_null(strstr(err.message,
                           "zoo.csv:2:1: column \"animal_name\" holds \"aardvark\", which "
                           "is not a number; use --skip-nonnumeric or --skip animal_name"));
    /* ... as data it is a categorical column: 100 names in 101 rows ("frog" twice) */
    assert_int_equal(pdt_dataset_load_csv(&ds, tu_data("zoo.csv"), NULL, &err), PDT_OK);
    assert_true(pdt_dataset_is_categorical(ds, 0));
    assert_int_equal(pdt_dataset_categories(ds, 0), 100);
    assert_string_equal(pdt_dataset_category_name(ds, 0, 0), "aardvark");
    pdt_dataset_free(&ds);
}

static void check_zoo(const pdt_dataset *ds)
{
    assert_int_equal(pdt_dataset_rows(ds), 101);
    assert_int_equal(pdt_dataset_dims(ds), 16);
    assert_string_equal(pdt_dataset_feature_name(ds, 0), "hair");
    assert_true(pdt_dataset_find_feature(ds, "animal_name") == SIZE_MAX);
    assert_int_equal(pdt_dataset_classes(ds), 7);
    assert_string_equal(pdt_dataset_class_name(ds, 0), "1"); /* no "\r" from CRLF */
    assert_string_equal(pdt_dataset_class_name(ds, 6), "7");
    size_t legs = pdt_dataset_find_feature(ds, "legs");
    assert_int_equal(legs, 12);
    assert_int_equal(pdt_dataset_distinct(ds, legs), 6);
    assert_null(ds->q);
    assert_false(pdt_dataset_is_binary(ds));
}

static void test_dataset_zoo_skipped_name(void **state)
{
    (void)state;
    pdt_csv_options opt = {.skip_nonnumeric = true};
    pdt_dataset *ds = load_csv("zoo.csv", &opt);
    check_zoo(ds);
    pdt_dataset_free(&ds);
    const char *skip[] = {"animal_name"};
    pdt_csv_options by_name = {.skip = skip, .n_skip = 1};
    ds = load_csv("zoo.csv", &by_name);
    check_zoo(ds);
    pdt_dataset_free(&ds);
}

static void test_dataset_dl85_zoo(void **state)
{
    (void)state;
    pdt_dataset *ds = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_load_dl85(&ds, tu_data("zoo-1.txt"), &err), PDT_OK);
    assert_int_equal(pdt_dataset_rows(ds), 101);
    assert_int_equal(pdt_dataset_dims(ds), 36);
    assert_int_equal(pdt_dataset_classes(ds), 2);
    assert_true(pdt_dataset_is_binary(ds));
    assert_string_equal(pdt_dataset_feature_name(ds, 35), "f35");
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 0)), "1");
    assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, 2)), "0");
    assert_true(pdt_dataset_value(ds, 0, 0) == 0.0 && pdt_dataset_value(ds, 0, 1) == 1.0);
    check_ranks(ds);
    pdt_dataset_free(&ds);
}

static void test_dataset_ranks_match_brute_force(void **state)
{
    (void)state;
    const char *files[] = {"iris.csv", "wine.csv", "mouse.csv", "tiny.csv", "quoted.csv"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        pdt_dataset *ds = load_csv(files[k], NULL);
        check_ranks(ds);
        pdt_dataset_free(&ds);
    }
    pdt_csv_options opt = {.skip_nonnumeric = true};
    pdt_dataset *ds = load_csv("zoo.csv", &opt);
    check_ranks(ds);
    pdt_dataset_free(&ds);
}

/* Values that doubles cannot tell apart are still ordered and counted exactly. */
static void test_dataset_exact_order_beyond_doubles(void **state)
{
    (void)state;
    pdt_dataset *ds =
        read_csv("a,b,c,t\n"
                 "9007199254740993,0.1000000000000000000001,1.0000000000000000000001,x\n"
                 "9007199254740992,0.1,1,y\n"
                 "9007199254740993,0.1,0,x\n",
                 NULL);
    assert_non_null(ds->q);
    assert_true(pdt_dataset_value(ds, 0, 0) == pdt_dataset_value(ds, 1, 0));
    assert_true(pdt_dataset_value(ds, 0, 1) == pdt_dataset_value(ds, 1, 1));
    assert_int_equal(pdt_dataset_distinct(ds, 0), 2);
    assert_int_equal(pdt_dataset_distinct(ds, 1), 2);
    assert_int_equal(pdt_dataset_distinct(ds, 2), 3);
    assert_int_equal(pdt_dataset_rank(ds, 0, 0), 1);
    assert_int_equal(pdt_dataset_rank(ds, 1, 0), 0);
    assert_int_equal(pdt_dataset_rank(ds, 2, 0), 1);
    assert_int_equal(pdt_dataset_rank(ds, 0, 1), 1);
    assert_int_equal(pdt_dataset_rank(ds, 2, 1), 0);
    assert_int_equal(pdt_dataset_rank(ds, 0, 2), 2);
    assert_exact(ds, 0, 0, "9007199254740993");
    assert_false(pdt_dataset_is_binary(ds)); /* 1 + 10^-22 is not 1 */
    check_ranks(ds);
    pdt_dataset_free(&ds);
}

/* Random rows drawn from values whose doubles collide: ranks still exact. */
static void test_dataset_ranks_of_colliding_doubles(void **state)
{
    (void)state;
    const char *pool[] = {"1/3",
                          "0.3333333333333333",
                          "0.33333333333333331",
                          "2/6",
                          "0.1",
                          "1/10",
                          "0.1000000000000000000001",
                          "9007199254740993",
                          "9007199254740992",
                          "9007199254740994",
                          "-0",
                          "0",
                          "1e-400",
                          "-1e-400",
                          "1e400",
                          "1.0000000000000000000001e400",
                          "-1e400",
                          "7",
                          "-7/1"};
    const size_t n_pool = sizeof pool / sizeof *pool;
    tu_rng rng = {7};
    char *text = malloc(300 * 120 + 16), *p = text;
    p += sprintf(p, "a,b,c,t\n");
    for (int i = 0; i < 300; i++)
        p += sprintf(p, "%s,%s,%s,x\n", pool[tu_below(&rng, (uint32_t)n_pool)],
                     pool[tu_below(&rng, (uint32_t)n_pool)], pool[tu_below(&rng, 4)]);
    pdt_dataset *ds = read_csv(text, NULL);
    free(text);
    check_ranks(ds);
    assert_int_equal(pdt_dataset_distinct(ds, 2), 3); /* 1/3 = 2/6 */
    pdt_dataset_free(&ds);
}

static void test_dataset_storage_mode(void **state)
{
    (void)state;
    pdt_dataset *ds = read_csv("a,b,t\n1.0,1e3,x\n-0,-9007199254740991,y\n", NULL);
    assert_null(ds->q); /* integer values below 2^53, however written */
    assert_exact(ds, 0, 1, "1000");
    assert_exact(ds, 1, 1, "-9007199254740991");
    assert_true(pdt_dataset_value(ds, 1, 0) == 0.0 && !signbit(pdt_dataset_value(ds, 1, 0)));
    pdt_dataset_free(&ds);
    ds = read_csv("a,t\n9007199254740992,x\n", NULL); /* 2^53 */
    assert_non_null(ds->q);
    pdt_dataset_free(&ds);
    ds = read_csv("a,b,t\n1.0,0,x\n0e5,1,y\n", NULL);
    assert_true(pdt_dataset_is_binary(ds));
    pdt_dataset_free(&ds);
    ds = read_csv("a,b,t\n1.0,0,x\n0.5,1,y\n", NULL);
    assert_false(pdt_dataset_is_binary(ds));
    pdt_dataset_free(&ds);
    ds = read_csv("a,b,t\n1,0,x\n0,1.0000000000000000000001,y\n", NULL);
    assert_true(pdt_dataset_value(ds, 1, 1) == 1.0);
    assert_false(pdt_dataset_is_binary(ds)); /* the double is 1, the value is not */
    pdt_dataset_free(&ds);
}

static void assert_classes(const pdt_dataset *ds, const char *const *names, size_t n)
{
    assert_int_equal(pdt_dataset_classes(ds), n);
    for (size_t c = 0; c < n; c++) assert_string_equal(pdt_dataset_class_name(ds, c), names[c]);
}

static void test_dataset_class_order(void **state)
{
    (void)state;
    pdt_dataset *ds = read_csv("a,t\n1,10\n2,9\n3,1.5\n4,-2\n5,9\n", NULL);
    const char *numeric[] = {"-2", "1.5", "9", "10"};
    assert_classes(ds, numeric, 4);
    assert_int_equal(pdt_dataset_label(ds, 0), 3);
    assert_int_equal(pdt_dataset_label(ds, 4), 2);
    pdt_dataset_free(&ds);
    ds = read_csv("a,t\n1,b\n2,a\n3,10\n4,9\n5,B\n", NULL);
    const char *bytewise[] = {"10", "9", "B", "a", "b"};
    assert_classes(ds, bytewise, 5);
    assert_int_equal(pdt_dataset_label(ds, 0), 4);
    assert_int_equal(pdt_dataset_label(ds, 2), 0);
    pdt_dataset_free(&ds);
    ds = read_csv("a,t\n1,1.0\n2,2\n3,1\n4,01\n", NULL); /* equal numbers are one class */
    const char *merged[] = {"1.0", "2"};
    assert_classes(ds, merged, 2);
    assert_int_equal(pdt_dataset_label(ds, 2), 0);
    assert_int_equal(pdt_dataset_label(ds, 3), 0);
    assert_int_equal(pdt_dataset_label(ds, 1), 1);
    pdt_dataset_free(&ds);
}

static void test_dataset_many_classes(void **state)
{
    (void)state;
    size_t n = 3000;
    char *text = malloc(n * 32 + 16), *p = text;
    p += sprintf(p, "a,t\n");
    for (size_t i = 0; i < n; i++) p += sprintf(p, "%zu,c%zu\n", i, (i * 7919) % 1000);
    pdt_dataset *ds = read_csv(text, NULL);
    free(text);
    assert_int_equal(pdt_dataset_classes(ds), 1000);
    for (size_t c = 1; c < 1000; c++)
        assert_true(strcmp(pdt_dataset_class_name(ds, c - 1), pdt_dataset_class_name(ds, c)) < 0);
    for (size_t i = 0; i < n; i++) {
        char want[16];
        snprintf(want, sizeof want, "c%zu", (i * 7919) % 1000);
        assert_string_equal(pdt_dataset_class_name(ds, pdt_dataset_label(ds, i)), want);
    }
    pdt_dataset_free(&ds);
}

static void test_dataset_subset(void **state)
{
    (void)state;
    pdt_dataset *ds = load_csv("iris.csv", NULL), *sub = NULL;
    pdt_error err;
    const uint32_t rows[] = {149, 0, 50, 0};
    assert_int_equal(pdt_dataset_subset(&sub, ds, rows, 4, &err), PDT_OK);
    assert_int_equal(pdt_dataset_rows(sub), 4);
    assert_int_equal(pdt_dataset_dims(sub), 4);
    assert_int_equal(pdt_dataset_classes(sub), 3); /* all classes kept: indices agree */
    assert_string_equal(pdt_dataset_class_name(sub, 1), "1.0");
    assert_string_equal(pdt_dataset_feature_name(sub, 3), "feat_4");
    const uint32_t labels[] = {2, 0, 1, 0};
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(pdt_dataset_label(sub, k), labels[k]);
        for (size_t j = 0; j < 4; j++) {
            pdt_dataset_value_exact(a, sub, k, j);
            pdt_dataset_value_exact(b, ds, rows[k], j);
            assert_true(mpq_equal(a, b));
        }
    }
    mpq_clears(a, b, NULL);
    assert_int_equal(pdt_dataset_distinct(sub, 0), 3); /* 5.9 5.1 7.0 5.1 */
    assert_int_equal(pdt_dataset_rank(sub, 2, 0), 2);
    check_ranks(sub);
    pdt_dataset_free(&sub);
    assert_int_equal(pdt_dataset_subset(&sub, ds, rows, 0, &err), PDT_OK);
    assert_int_equal(pdt_dataset_rows(sub), 0);
    pdt_dataset_free(&sub);
    const uint32_t bad[] = {0, 150};
    assert_int_equal(pdt_dataset_subset(&sub, ds, bad, 2, &err), PDT_EINVAL);
    assert_null(sub);
    assert_non_null(strstr(err.message, "row 150 is out of range (150 rows)"));
    pdt_dataset_free(&ds);
}

/* Many rows of values from one to three limbs, both signs, shared digits:
 * the ranks (a radix sort on the doubles, GMP on their ties) equal the brute
 * force, and a subset keeps its own copies of the exact values once the
 * dataset it came from is gone. */
static void test_dataset_exact_values_at_scale(void **state)
{
    (void)state;
    enum { ROWS = 900 };
    tu_rng rng = {11};
    char *text = malloc(ROWS * 160 + 16), *p = text;
    p += sprintf(p, "a,b,t\n");
    for (int i = 0; i < ROWS; i++) {
        unsigned u = tu_below(&rng, 60), w = tu_below(&rng, 1000);
        const char *sign = tu_below(&rng, 2) ? "-" : "";
        if (u < 20)
            p += sprintf(p, "%s%u.%03u", sign, u, w);
        else if (u < 40)
            p += sprintf(p, "%s1234567890123456789012345678%u.5", sign, u % 3);
        else
            p += sprintf(p, "%s0.1000000000000000000000000000000000000%u", sign, u % 4);
        p += sprintf(p, ",%s%u/%u,x\n", sign, w, u + 1);
    }
    pdt_dataset *ds = read_csv(text, NULL);
    assert_non_null(ds->q);
    check_ranks(ds);
    uint32_t rows[ROWS / 3];
    for (size_t k = 0; k < ROWS / 3; k++) rows[k] = (uint32_t)(3 * k + 1);
    pdt_dataset *sub = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_subset(&sub, ds, rows, ROWS / 3, &err), PDT_OK);
    mpq_t *want = malloc(2 * (ROWS / 3) * sizeof *want);
    for (size_t k = 0; k < ROWS / 3; k++)
        for (size_t j = 0; j < 2; j++) {
            mpq_init(want[2 * k + j]);
            pdt_dataset_value_exact(want[2 * k + j], ds, rows[k], j);
        }
    pdt_dataset_free(&ds);
    mpq_t got;
    mpq_init(got);
    for (size_t k = 0; k < ROWS / 3; k++)
        for (size_t j = 0; j < 2; j++) {
            pdt_dataset_value_exact(got, sub, k, j);
            assert_true(mpq_equal(got, want[2 * k + j]));
            mpq_clear(want[2 * k + j]);
        }
    mpq_clear(got);
    free(want);
    check_ranks(sub);
    pdt_dataset_free(&sub);
    free(text);
}

static void test_dataset_weights(void **state)
{
    (void)state;
    pdt_csv_options opt = {.weight = "w"};
    pdt_dataset *ds = load_csv("weighted.csv", &opt), *sub = NULL;
    assert_true(pdt_dataset_has_weights(ds));
    assert_int_equal(pdt_dataset_dims(ds), 1);
    mpq_t w;
    mpq_init(w);
    pdt_dataset_weight_exact(w, ds, 2);
    assert_true(mpq_cmp_ui(w, 1, 3) == 0);
    pdt_dataset_weight_exact(w, ds, 0);
    assert_true(mpq_cmp_ui(w, 1, 2) == 0);
    const uint32_t rows[] = {2};
    assert_int_equal(pdt_dataset_subset(&sub, ds, rows, 1, NULL), PDT_OK);
    assert_true(pdt_dataset_has_weights(sub));
    pdt_dataset_weight_exact(w, sub, 0);
    assert_true(mpq_cmp_ui(w, 1, 3) == 0);
    pdt_dataset_free(&sub);
    pdt_dataset_free(&ds);
    ds = load_csv("weighted.csv", NULL); /* w is then a feature */
    assert_false(pdt_dataset_has_weights(ds));
    assert_int_equal(pdt_dataset_dims(ds), 2);
    pdt_dataset_weight_exact(w, ds, 1);
    assert_true(mpq_cmp_ui(w, 1, 1) == 0);
    mpq_clear(w);
    pdt_dataset_free(&ds);
}

static void test_dataset_free_accepts_null(void **state)
{
    (void)state;
    pdt_dataset_free(NULL);
    pdt_dataset *ds = NULL;
    pdt_dataset_free(&ds);
    assert_null(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dataset_iris_shape),
        cmocka_unit_test(test_dataset_find_class_numeric),
        cmocka_unit_test(test_dataset_wine_bom_and_decimals),
        cmocka_unit_test(test_dataset_mouse_integers),
        cmocka_unit_test(test_dataset_zoo_name_column_rejected),
        cmocka_unit_test(test_dataset_zoo_skipped_name),
        cmocka_unit_test(test_dataset_dl85_zoo),
        cmocka_unit_test(test_dataset_ranks_match_brute_force),
        cmocka_unit_test(test_dataset_exact_order_beyond_doubles),
        cmocka_unit_test(test_dataset_ranks_of_colliding_doubles),
        cmocka_unit_test(test_dataset_storage_mode),
        cmocka_unit_test(test_dataset_class_order),
        cmocka_unit_test(test_dataset_many_classes),
        cmocka_unit_test(test_dataset_subset),
        cmocka_unit_test(test_dataset_exact_values_at_scale),
        cmocka_unit_test(test_dataset_weights),
        cmocka_unit_test(test_dataset_free_accepts_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
