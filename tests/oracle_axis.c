/* Oracle: axis-parallel rules.  Random instances (N ≤ 12 rows, 1–3
 * dimensions, 2–3 classes, K ≤ 3, depth none/1/2, min-leaf 0/1/2, some class
 * weights) solved by the brute-force specification and by every engine; see
 * support/oracle.h for the checks.  A second group of tiny instances (N ≤ 7,
 * 1–2 dimensions) goes up to K = 4, where subproblems with the same items but
 * different budgets meet in one search (a cache keyed without the budget
 * shows there, and not below K = 4; three such instances are pinned).
 * Instance i uses seed BASE_SEED + i. */
#include "oracle.h"
#include "test_util.h"

#define BASE_SEED UINT64_C(0xa815000000000000)
#define INSTANCES 1000
#define BUDGET 200000 /* most k-permutations the specification enumerates */
#define BASE_SEED_K4 UINT64_C(0xa815400000000000)
#define INSTANCES_K4 300

static void make_case(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "axis", .seed = seed};
    c->dims = 1 + tu_below(&rng, 3);
    c->n = 1 + tu_below(&rng, 12);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 3, BUDGET);
}

static void make_case_k4(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "axis", .seed = seed};
    c->dims = 1 + tu_below(&rng, 2);
    c->n = 2 + tu_below(&rng, 6);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 4, BUDGET);
}

static void test_oracle_axis_random(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("axis", make_case, BASE_SEED, INSTANCES), 0);
}

static void test_oracle_axis_k4(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("axis, K <= 4", make_case_k4, BASE_SEED_K4, INSTANCES_K4), 0);
}

/* Instances of the K = 4 group (K = 4, depth 3) on which a subproblem cache
 * keyed without the budget returns a wrong optimum: found by removing the
 * budget from the memo key and running the group to 4000 instances. */
static void test_oracle_axis_k4_cache_key(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {BASE_SEED_K4 + 0x706, BASE_SEED_K4 + 0x9c1, BASE_SEED_K4 + 0xe79};
    oracle_stats st;
    oracle_stats_init(&st);
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        oracle_case c;
        make_case_k4(&c, seeds[i]);
        assert_int_equal(c.k, 4);
        assert_true(oracle_check(&c, &st));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_axis_random),
        cmocka_unit_test(test_oracle_axis_k4),
        cmocka_unit_test(test_oracle_axis_k4_cache_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
