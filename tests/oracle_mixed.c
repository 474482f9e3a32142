/* Oracle: mixed families, --rules axis,hyperplane: one candidate list holding
 * rules of both kinds, related by where their defining points lie.  Random
 * instances in 1–3 dimensions (N ≤ 10, 7, 5), K ≤ 3 as the budget allows.
 * See support/oracle.h for the checks.  Instance i uses seed BASE_SEED + i. */
#include "oracle.h"
#include "test_util.h"

#define BASE_SEED UINT64_C(0x3a1ced0000000000)
#define INSTANCES 300
#define BUDGET 300000 /* most k-permutations the specification enumerates */

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

static void test_oracle_mixed_random(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("axis,hyperplane", make_case, BASE_SEED, INSTANCES), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_mixed_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
