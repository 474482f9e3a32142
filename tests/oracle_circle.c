/* Oracle: the worked example plugin (examples/plugins/circle.c: circles
 * through 3 points, inside = left), alone and mixed with axis rules, against
 * the brute-force specification.  Its sides are recomputed independently (the
 * in-circle determinant and the tie rule in support/oracle_lifted.c); grid
 * points put many points on one circle.  This is how a new plugin is tested:
 * docs/writing-a-rule.md.  Instance i uses seed BASE + i. */
#include "oracle.h"
#include "test_util.h"

#define SEED_CIRCLE UINT64_C(0xc1c1e00000000000)
#define SEED_MIXED UINT64_C(0xc1c1e10000000000)
#define BUDGET 1000000

static void make_case(oracle_case *c, uint64_t seed, const char *rules)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = rules, .seed = seed};
    c->dims = 2;
    c->n = 3 + tu_below(&rng, 6);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 3, BUDGET);
}

static void make_circle(oracle_case *c, uint64_t seed) { make_case(c, seed, "circle"); }
static void make_mixed(oracle_case *c, uint64_t seed) { make_case(c, seed, "axis,circle"); }

static void test_oracle_circle_alone(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("circle (example plugin)", make_circle, SEED_CIRCLE, 200), 0);
}

static void test_oracle_circle_mixed(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("axis,circle", make_mixed, SEED_MIXED, 150), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_circle_alone),
        cmocka_unit_test(test_oracle_circle_mixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
