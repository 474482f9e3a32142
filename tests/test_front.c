/* The Pareto-front algebra and the exact metrics (framework/front.c), on
 * values worked out by hand. */
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "test_util.h"

static void push_all(pdt_front *f, const uint32_t (*pts)[2], size_t n)
{
    for (size_t i = 0; i < n; i++) assert_true(pdt_front_push(f, pts[i][0], pts[i][1], (uint32_t)i, 0, 0));
}

static void expect_points(const pdt_front *f, const uint32_t (*pts)[2], size_t n)
{
    assert_int_equal(f->n, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(f->p[i].fp, pts[i][0]);
        assert_int_equal(f->p[i].fn, pts[i][1]);
    }
}

static void test_front_filter_keeps_nondominated(void **state)
{
    (void)state;
    static const uint32_t in[][2] = {{3, 1}, {1, 3}, {2, 2}, {2, 3}, {3, 1}, {4, 0}, {5, 0}, {1, 4}, {6, 6}};
    static const uint32_t out[][2] = {{1, 3}, {2, 2}, {3, 1}, {4, 0}};
    pdt_front f;
    pdt_front_init(&f);
    push_all(&f, in, sizeof in / sizeof *in);
    pdt_front_filter(&f);
    expect_points(&f, out, 4);
    assert_int_equal(f.p[2].how, 0); /* of the two (3, 1): the first in (how, left, right) order */
    pdt_front_clear(&f);
    assert_null(f.p);
}

static void test_front_union(void **state)
{
    (void)state;
    static const uint32_t a[][2] = {{0, 4}, {2, 2}, {4, 0}};
    static const uint32_t b[][2] = {{1, 3}, {3, 2}, {2, 1}};
    static const uint32_t out[][2] = {{0, 4}, {1, 3}, {2, 1}, {4, 0}};
    pdt_front f, g;
    pdt_front_init(&f), pdt_front_init(&g);
    push_all(&f, a, 3), push_all(&g, b, 3);
    pdt_front_filter(&f), pdt_front_filter(&g);
    assert_true(pdt_front_union(&f, &g));
    expect_points(&f, out, 4);
    pdt_front_clear(&f), pdt_front_clear(&g);
}

static void test_front_minkowski_sum_remembers_children(void **state)
{
    (void)state;
    static const uint32_t a[][2] = {{0, 2}, {1, 0}};
    static const uint32_t b[][2] = {{0, 3}, {2, 0}};
    /* sums: (0,5) (2,2) (1,3) (3,0): none dominates another */
    static const uint32_t out[][2] = {{0, 5}, {1, 3}, {2, 2}, {3, 0}};
    pdt_front f, x, y;
    pdt_front_init(&f), pdt_front_init(&x), pdt_front_init(&y);
    push_all(&x, a, 2), push_all(&y, b, 2);
    assert_true(pdt_front_add_sum(&f, &x, &y, 77));
    expect_points(&f, out, 4);
    assert_int_equal(f.p[1].how, 77);
    assert_int_equal(f.p[1].left, 1); /* (1,3) = a[1] + b[0] */
    assert_int_equal(f.p[1].right, 0);
    /* a leaf point (1, 1) added to the same front dominates (2, 2) only */
    assert_true(pdt_front_push(&f, 1, 1, 5, 0, 0));
    pdt_front_filter(&f);
    static const uint32_t out2[][2] = {{0, 5}, {1, 1}, {3, 0}};
    expect_points(&f, out2, 3);
    assert_true(pdt_front_covers(&f, 2, 2));
    assert_true(pdt_front_covers(&f, 1, 1));
    assert_false(pdt_front_covers(&f, 0, 4));
    assert_false(pdt_front_covers(&f, 2, 0));
    pdt_front_clear(&f), pdt_front_clear(&x), pdt_front_clear(&y);
}

static void expect_exact(pdt_metric m, pdt_confusion c, const char *want, int want_sign)
{
    mpq_t q;
    mpq_init(q);
    int sign = 99;
    pdt_metric_exact(q, &sign, m, &c);
    char *got = mpq_get_str(NULL, 10, q);
    assert_string_equal(got, want);
    if (m == PDT_METRIC_MCC) assert_int_equal(sign, want_sign);
    free(got);
    mpq_clear(q);
}

static void test_front_metrics_exact(void **state)
{
    (void)state;
    pdt_confusion c = {.tp = 3, .fp = 1, .fn = 2, .tn = 4};
    expect_exact(PDT_METRIC_F1, c, "2/3", 1);   /* 6/(6+1+2) */
    expect_exact(PDT_METRIC_FM, c, "9/20", 1);  /* 9/(4·5) */
    expect_exact(PDT_METRIC_MCC, c, "1/6", 1);  /* (12−2)²/(4·5·5·6) = 100/600 */
    expect_exact(PDT_METRIC_ACCURACY, c, "7/10", 1);
    pdt_confusion wrong = {.tp = 0, .fp = 2, .fn = 2, .tn = 0};
    expect_exact(PDT_METRIC_MCC, wrong, "1", -1); /* every item wrong: MCC = −1 */
    pdt_confusion none = {.tp = 0, .fp = 0, .fn = 5, .tn = 7};
    expect_exact(PDT_METRIC_F1, none, "0", 1);
    expect_exact(PDT_METRIC_FM, none, "0", 1);   /* TP + FP = 0: 0, not a division by zero */
    expect_exact(PDT_METRIC_MCC, none, "0", 0);
    pdt_confusion big = {.tp = UINT64_C(4000000000), .fp = UINT64_C(3000000000), .fn = 1, .tn = 1};
    expect_exact(PDT_METRIC_F1, big, "8000000000/11000000001", 1); /* beyond 32 bits */
}

static void test_front_metric_compare_and_best(void **state)
{
    (void)state;
    pdt_confusion neg = {.tp = 0, .fp = 2, .fn = 2, .tn = 0}, zero = {.tp = 0, .fp = 0, .fn = 2, .tn = 2},
                  weak = {.tp = 1, .fp = 1, .fn = 1, .tn = 3}, strong = {.tp = 2, .fp = 0, .fn = 0, .tn = 4};
    assert_true(pdt_metric_cmp(PDT_METRIC_MCC, &neg, &zero) < 0);
    assert_true(pdt_metric_cmp(PDT_METRIC_MCC, &zero, &weak) < 0);
    assert_true(pdt_metric_cmp(PDT_METRIC_MCC, &strong, &weak) > 0);
    assert_int_equal(pdt_metric_cmp(PDT_METRIC_F1, &weak, &weak), 0);
    pdt_confusion mild = {.tp = 0, .fp = 1, .fn = 2, .tn = 1}; /* MCC −1/√6 > −1 */
    assert_true(pdt_metric_cmp(PDT_METRIC_MCC, &neg, &mild) < 0);
    /* P = 5, N = 5: (0,5) F1 0; (1,1) F1 8/10; (5,0) F1 10/15 */
    static const uint32_t pts[][2] = {{0, 5}, {1, 1}, {5, 0}};
    pdt_front f;
    pdt_front_init(&f);
    push_all(&f, pts, 3);
    pdt_front_filter(&f);
    assert_int_equal(pdt_front_best(&f, PDT_METRIC_F1, 5, 5), 1);
    pdt_front_clear(&f);
}

static void test_front_decimals(void **state)
{
    (void)state;
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_confusion c = {.tp = 3, .fp = 1, .fn = 2, .tn = 4};
    pdt_metric_decimal(&b, PDT_METRIC_MCC, &c, 10); /* √(1/6) = 0.40824829046386… */
    assert_string_equal(b.data, "0.4082482904");
    pdt_buf_clear(&b);
    pdt_buf_init(&b);
    pdt_metric_decimal(&b, PDT_METRIC_F1, &c, 5);
    assert_string_equal(b.data, "0.66666");
    pdt_buf_clear(&b);
    pdt_buf_init(&b);
    pdt_confusion wrong = {.tp = 0, .fp = 2, .fn = 2, .tn = 0};
    pdt_metric_decimal(&b, PDT_METRIC_MCC, &wrong, 10);
    assert_string_equal(b.data, "-1");
    pdt_buf_clear(&b);
    pdt_buf_init(&b);
    pdt_metric_decimal(&b, PDT_METRIC_FM, &c, 6); /* √(9/20) = 0.670820393… */
    assert_string_equal(b.data, "0.67082");
    pdt_buf_clear(&b);
    pdt_metric m;
    assert_true(pdt_metric_parse(&m, "mcc") && m == PDT_METRIC_MCC);
    assert_false(pdt_metric_parse(&m, "F1"));
    assert_string_equal(pdt_metric_name(PDT_METRIC_FM), "fm");
}

/* The accumulator (no sorting) gives exactly push + filter, ties included;
 * the filter itself is checked pairwise here. */
static void test_front_accumulator_equals_filter(void **state)
{
    (void)state;
    tu_rng g = {77};
    pdt_front_acc acc;
    assert_true(pdt_front_acc_init(&acc, 40));
    for (int rep = 0; rep < 200; rep++) {
        pdt_front f, taken;
        pdt_front_init(&f), pdt_front_init(&taken);
        uint32_t n = 1 + tu_below(&g, 60), top = 1 + tu_below(&g, 40);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t fp = tu_below(&g, top + 1), fn = tu_below(&g, 30), how = tu_below(&g, 3), l = tu_below(&g, 3);
            assert_true(pdt_front_push(&f, fp, fn, how, l, 0));
            pdt_front_acc_add(&acc, fp, fn, how, l, 0);
        }
        assert_true(pdt_front_acc_take(&taken, &acc, top));
        pdt_front_filter(&f);
        assert_int_equal(taken.n, f.n);
        assert_memory_equal(taken.p, f.p, f.n * sizeof *f.p);
        for (size_t i = 0; i < f.n; i++) /* nondominated, and nothing pushed dominates it */
            for (size_t j = 0; j < f.n; j++)
                if (i != j) assert_false(pdt_point_covers(f.p[j].fp, f.p[j].fn, f.p[i].fp, f.p[i].fn));
        pdt_front_clear(&f), pdt_front_clear(&taken);
    }
    pdt_front_acc_clear(&acc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_front_filter_keeps_nondominated),
        cmocka_unit_test(test_front_union),
        cmocka_unit_test(test_front_minkowski_sum_remembers_children),
        cmocka_unit_test(test_front_metrics_exact),
        cmocka_unit_test(test_front_metric_compare_and_best),
        cmocka_unit_test(test_front_decimals),
        cmocka_unit_test(test_front_accumulator_equals_filter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
