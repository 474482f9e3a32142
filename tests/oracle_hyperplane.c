/* Oracle: hyperplane rules (through D data points, every side assignment).
 * Random instances in 1–3 dimensions, small enough for the specification:
 * N ≤ 12 for D = 1, N ≤ 8 for D = 2, N ≤ 6 for D = 3; K ≤ 3 as far as the
 * budget of k-permutations allows; grid coordinates make collinear and
 * coplanar points (points on a rule's hyperplane) frequent.  See
 * support/oracle.h for the checks.  A second group of tiny instances (N ≤ 7
 * for D = 1, N ≤ 4 for D = 2) goes up to K = 4.  Instance i uses seed
 * BASE_SEED + i. */
#include "oracle.h"
#include "test_util.h"

#define BASE_SEED UINT64_C(0x4e7b000000000000)
#define INSTANCES 800
#define BUDGET 300000 /* most k-permutations the specification enumerates */
#define BASE_SEED_K4 UINT64_C(0x4e7b400000000000)
#define INSTANCES_K4 200

static void make_case(oracle_case *c, uint64_t seed)
{
    static const uint32_t dims[] = {1, 2, 2, 3};
    static const uint32_t max_n[] = {0, 12, 8, 6};
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "hyperplane", .seed = seed};
    c->dims = dims[tu_below(&rng, 4)];
    c->n = c->dims + tu_below(&rng, max_n[c->dims] - (uint32_t)c->dims + 1);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 3, BUDGET);
}

static void make_case_k4(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "hyperplane", .seed = seed};
    c->dims = 1 + tu_below(&rng, 2);
    c->n = c->dims + tu_below(&rng, c->dims == 1 ? 7 : 3);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 4, BUDGET);
}

static void test_oracle_hyperplane_random(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("hyperplane", make_case, BASE_SEED, INSTANCES), 0);
}

static void test_oracle_hyperplane_k4(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("hyperplane, K <= 4", make_case_k4, BASE_SEED_K4, INSTANCES_K4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_hyperplane_random),
        cmocka_unit_test(test_oracle_hyperplane_k4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
