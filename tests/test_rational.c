/* Exact rationals from text, and the nearest double to a rational. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "pdt_plugin.h"
#include "test_util.h"

/* text parses to exactly num/den, canonical. */
static void check_value(const char *text, const char *num, const char *den)
{
    mpq_t got, want;
    mpq_inits(got, want, NULL);
    if (!pdt_parse_rational(got, text, strlen(text))) fail_msg("\"%s\" was rejected", text);
    mpz_set_str(mpq_numref(want), num, 10);
    mpz_set_str(mpq_denref(want), den, 10);
    mpq_canonicalize(want);
    if (!mpq_equal(got, want)) fail_msg("\"%s\" parsed to %s", text, mpq_get_str(NULL, 10, got));
    assert_true(mpz_cmp_ui(mpq_denref(got), 0) > 0);
    mpz_t g;
    mpz_init(g);
    mpz_gcd(g, mpq_numref(got), mpq_denref(got));
    assert_true(mpz_cmp_ui(g, 1) == 0 || mpq_sgn(got) == 0);
    mpz_clear(g);
    mpq_clears(got, want, NULL);
}

/* text is rejected and out is left as it was. */
static void check_rejected(const char *text)
{
    mpq_t out;
    mpq_init(out);
    mpq_set_ui(out, 42, 1);
    if (pdt_parse_rational(out, text, strlen(text))) fail_msg("\"%s\" was accepted", text);
    assert_true(mpq_cmp_ui(out, 42, 1) == 0);
    mpq_clear(out);
}

static void test_rational_decimals_are_exact(void **state)
{
    (void)state;
    check_value("0.1", "1", "10");
    check_value(".28", "7", "25");
    check_value("5.", "5", "1");
    check_value("7", "7", "1");
    check_value("+7", "7", "1");
    check_value("007", "7", "1");
    check_value("-12.5", "-25", "2");
    check_value("14.23", "1423", "100");
    check_value("0.30000000000000004", "30000000000000004", "100000000000000000");
    check_value("123456789012345678901234567890.5", "246913578024691357802469135781", "2");
}

/* The machine-integer path's edges: 19 significant digits (leading zeros not
 * counted), 10^−19, factors 2 and 5 shared with the power of ten, and the
 * first sizes that go to GMP.  check_value canonicalises its own num/den. */
static void test_rational_machine_integer_edges(void **state)
{
    (void)state;
    check_value("9999999999999999999", "9999999999999999999", "1");
    check_value("0.9999999999999999999", "9999999999999999999", "10000000000000000000");
    check_value("0.005920115910602771", "5920115910602771", "1000000000000000000");
    check_value("0.0000000000000000001", "1", "10000000000000000000");
    check_value("1.250000000000000000", "5", "4");
    check_value("0.0000000000000000016", "16", "10000000000000000000");
    check_value("-0.0000000000000000625", "-625", "10000000000000000000");
    check_value("99999999999999999999", "99999999999999999999", "1");                     /* 20 digits */
    check_value("0.00000000000000000001", "1", "100000000000000000000");                   /* 10^-20 */
    check_value("18446744073709551616", "18446744073709551616", "1");                      /* 2^64 */
    check_value("0.0", "0", "1");
}

static void test_rational_negative_zero_is_zero(void **state)
{
    (void)state;
    check_value("-0", "0", "1");
    check_value("-0.0", "0", "1");
    check_value("+0.000e7", "0", "1");
    mpq_t q;
    mpq_init(q);
    assert_true(pdt_parse_rational(q, "-0.0", 4));
    assert_int_equal(mpq_sgn(q), 0);
    assert_true(mpz_cmp_ui(mpq_denref(q), 1) == 0);
    mpq_clear(q);
}

static void test_rational_exponents(void **state)
{
    (void)state;
    check_value("1e-3", "1", "1000");
    check_value("2.5E+4", "25000", "1");
    check_value("1e5", "100000", "1");
    check_value("1.5e-1", "3", "20");
    check_value(".5e1", "5", "1");
    check_value("5.e0", "5", "1");
    check_value("-3E-0", "-3", "1");
    check_value("12.5e-3", "1", "80");
}

static void test_rational_fractions(void **state)
{
    (void)state;
    check_value("1/3", "1", "3");
    check_value("-6/4", "-3", "2");
    check_value("+6/4", "3", "2");
    check_value("0/5", "0", "1");
    check_value("10/0002", "5", "1");
}

static void test_rational_large_exponents_bounded(void **state)
{
    (void)state;
    mpq_t q;
    mpq_init(q);
    assert_true(pdt_parse_rational(q, "1e100000", 8));
    assert_int_equal(mpz_sizeinbase(mpq_numref(q), 10), 100001);
    assert_true(pdt_parse_rational(q, "1e-100000", 9));
    assert_int_equal(mpz_sizeinbase(mpq_denref(q), 10), 100001);
    mpq_clear(q);
    check_rejected("1e100001");
    check_rejected("1e-100001");
    check_rejected("1e999999999999");
    check_rejected("1e99999999999999999999999999999999999");
    check_rejected("1E-99999999999999999999999999999999999");
}

/* Decimal text of the largest exponents: 100000 fives and twos in the denominator. */
static void test_rational_large_exponents_print_as_decimals(void **state)
{
    (void)state;
    static const char *const texts[] = {"1e-100000", "-3e-99999", "7/2", "1/3", "2.5e-7"};
    static const char *const starts[] = {"0.0000", "-0.0000", "3.5", "1/3", "0.00000025"};
    static const size_t lengths[] = {100002, 100002, 3, 3, 10};
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
        mpq_t q, back;
        mpq_inits(q, back, NULL);
        assert_true(pdt_parse_rational(q, texts[k], strlen(texts[k])));
        mpq_div_2exp(back, q, 100000); /* 2^100000 in the denominator as well */
        pdt_buf b;
        pdt_buf_init(&b);
        pdt_buf_mpq_decimal(&b, q);
        assert_false(b.failed);
        if (b.len != lengths[k] || strncmp(b.data, starts[k], strlen(starts[k])) != 0)
            fail_msg("%s printed as \"%.20s...\" (%zu bytes)", texts[k], b.data, b.len);
        mpq_t again;
        mpq_init(again);
        assert_true(pdt_parse_rational(again, b.data, b.len));
        assert_true(mpq_equal(again, q)); /* the printed text is the number, to the last digit */
        mpq_clear(again);
        pdt_buf_clear(&b);
        pdt_buf_mpq_decimal(&b, back);
        assert_true(pdt_parse_rational(q, b.data, b.len));
        assert_true(mpq_equal(q, back));
        pdt_buf_clear(&b);
        mpq_clears(q, back, NULL);
    }
}

static void test_rational_rejects_malformed(void **state)
{
    (void)state;
    const char *bad[] = {"",         ".",     "+",     "-",   "e5",   ".e5",   "1e",       "1e+",
                         "1E-",      "--1",   "+-1",   "-+1", "1/0",  "1/00",  "0/0",      "-5/0",
                         "nan",      "NaN",   "-nan",  "inf", "-inf", "+Inf",  "Infinity", "0x10",
                         "0X1p3",    "1.2.3", "1/2/3", " 1",  "1 ",   "1,5",   "1/-2",     "1/+2",
                         "1/2.0",    "1.5/2", "1e3/2", "/2",  "1/",   "1e2.5", "1e--2",    "1ee2",
                         "\xc2\xbd", "1_000", "abc",   "1a"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) check_rejected(bad[k]);
    mpq_t q;
    mpq_init(q);
    assert_false(pdt_parse_rational(q, NULL, 0));
    mpq_clear(q);
}

static void test_rational_respects_length(void **state)
{
    (void)state;
    mpq_t q;
    mpq_init(q);
    assert_true(pdt_parse_rational(q, "12345", 2));
    assert_true(mpq_cmp_ui(q, 12, 1) == 0);
    assert_true(pdt_parse_rational(q, "0.5,abc", 3));
    assert_true(mpq_cmp_ui(q, 1, 2) == 0);
    assert_false(pdt_parse_rational(q, "1e5", 2)); /* "1e" */
    char one[1] = {'9'}; /* not NUL terminated */
    assert_true(pdt_parse_rational(q, one, 1));
    assert_true(mpq_cmp_ui(q, 9, 1) == 0);
    mpq_clear(q);
}

static double to_double(const char *text)
{
    mpq_t q;
    mpq_init(q);
    assert_true(pdt_parse_rational(q, text, strlen(text)));
    double v = pdt_rational_to_double(q);
    mpq_clear(q);
    return v;
}

static void test_rational_to_double_known_values(void **state)
{
    (void)state;
    assert_true(to_double("0.1") == 0.1);
    assert_true(to_double(".28") == 0.28);
    assert_true(to_double("1/3") == 1.0 / 3.0);
    assert_true(to_double("-2/3") == -2.0 / 3.0);
    assert_true(to_double("9007199254740993") == 9007199254740992.0); /* tie: to even */
    assert_true(to_double("9007199254740995") == 9007199254740996.0); /* tie: to even */
    assert_true(to_double("4.9406564584124654e-324") == 4.9406564584124654e-324);
    assert_true(to_double("2.4703282292062328e-324") == 4.9406564584124654e-324);
    assert_true(to_double("2.4703282292062327e-324") == 0.0);
    assert_true(to_double("1e400") == DBL_MAX);
    assert_true(to_double("-1e400") == -DBL_MAX);
    assert_true(to_double("1e-400") == 0.0);
    double z = to_double("-0.0");
    assert_true(z == 0.0 && !signbit(z));
}

/* glibc's strtod rounds correctly: the slow path must agree on long decimals. */
static void test_rational_to_double_matches_strtod(void **state)
{
    (void)state;
    tu_rng rng = {12345};
    char text[64];
    for (int k = 0; k < 20000; k++) {
        int len =
            snprintf(text, sizeof text, "%s%u.%09u%09u%06ue%d", tu_below(&rng, 2) ? "-" : "",
                     tu_below(&rng, 10), tu_below(&rng, 1000000000), tu_below(&rng, 1000000000),
                     tu_below(&rng, 1000000), (int)tu_below(&rng, 640) - 330);
        assert_true(len > 0);
        double want = strtod(text, NULL);
        if (fabs(want) > DBL_MAX) want = want > 0 ? DBL_MAX : -DBL_MAX;
        double got = to_double(text);
        if (got != want) fail_msg("%s: got %.17g, strtod %.17g", text, got, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rational_decimals_are_exact),
        cmocka_unit_test(test_rational_machine_integer_edges),
        cmocka_unit_test(test_rational_negative_zero_is_zero),
        cmocka_unit_test(test_rational_exponents),
        cmocka_unit_test(test_rational_fractions),
        cmocka_unit_test(test_rational_large_exponents_bounded),
        cmocka_unit_test(test_rational_large_exponents_print_as_decimals),
        cmocka_unit_test(test_rational_rejects_malformed),
        cmocka_unit_test(test_rational_respects_length),
        cmocka_unit_test(test_rational_to_double_known_values),
        cmocka_unit_test(test_rational_to_double_matches_strtod),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
