/* Oracle: axis-parallel rules.  Random instances (N ≤ 12 rows, 1–3
 * dimensions, 2–3 classes, K ≤ 3, depth none/1/2, min-leaf 0/1/2, some class
 * weights) solved by the brute-force specification and by every engine; see
 * support/oracle.h for the checks.  Instance i uses seed BASE_SEED + i. */
#include "oracle.h"
#include "test_util.h"

#define BASE_SEED UINT64_C(0xa815000000000000)
#define INSTANCES 400
#define BUDGET 200000 /* most k-permutations the specification enumerates */

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

static void test_oracle_axis_random(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("axis", make_case, BASE_SEED, INSTANCES), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_axis_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
