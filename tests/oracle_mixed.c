/* Oracle: mixed families, --rules axis,hyperplane: one candidate list holding
 * rules of both kinds, related by where their defining points lie.  Random
 * instances in 1–3 dimensions (N ≤ 10, 7, 5), K ≤ 3 as the budget allows.
 * See support/oracle.h for the checks.  A second group of 1-D instances
 * (N ≤ 5) goes up to K = 4.  Instance i uses seed BASE_SEED + i. */
#include "oracle.h"
#include "test_util.h"

#define BASE_SEED UINT64_C(0x3a1ced0000000000)
#define INSTANCES 500
#define BUDGET 300000 /* most k-permutations the specification enumerates */
#define BASE_SEED_K4 UINT64_C(0x3a1ced4000000000)
#define INSTANCES_K4 150

static void make_case(oracle_case *c, uint64_t seed)
{
    static const uint32_t dims[] = {1, 2, 2, 3};
    static const uint32_t max_n[] = {0, 10, 7, 5};
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "axis,hyperplane", .seed = seed};
    c->dims = dims[tu_below(&rng, 4)];
    c->n = 1 + tu_below(&rng, max_n[c->dims]);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 3, BUDGET);
}

static void make_case_k4(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "axis,hyperplane", .seed = seed};
    c->dims = 1;
    c->n = 2 + tu_below(&rng, 4);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 4, BUDGET);
}

static void test_oracle_mixed_random(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("axis,hyperplane", make_case, BASE_SEED, INSTANCES), 0);
}

static void test_oracle_mixed_k4(void **state)
{
    (void)state;
    assert_int_equal(
        oracle_run("axis,hyperplane, K <= 4", make_case_k4, BASE_SEED_K4, INSTANCES_K4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_mixed_random),
        cmocka_unit_test(test_oracle_mixed_k4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
