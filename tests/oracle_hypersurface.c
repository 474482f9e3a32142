/* Oracle: hypersurface rules of degree 2 (conics through 5 points for D = 2,
 * intervals x² − (a+b)·x + a·b ≤ 0 through 2 points for D = 1), alone and
 * mixed with axis and hyperplane rules, against the brute-force
 * specification.  The grid coordinates put many points on one conic (lifted
 * degeneracies), duplicates make tuples dependent.  Every engine is checked:
 * fused, without cache, the combination driver, and auto, which for
 * hypersurfaces alone is the streaming backend (backends/hypersurface/).  See
 * support/oracle.h for the checks.  Instance i uses seed BASE + i. */
#include "oracle.h"
#include "test_util.h"

#define SEED_CONIC UINT64_C(0x4c1f700000000000)
#define SEED_LINE UINT64_C(0x4c1f710000000000)
#define SEED_MIXED UINT64_C(0x4c1f720000000000)
#define BUDGET 600000 /* most k-permutations the specification enumerates */

/* Conics in the plane: N = 5..8, and 9..10 for every fifth instance (8064 candidates,
 * each side checked in GMP: the slow ones); K ≤ 2 while the budget allows (K = 2 up to
 * N = 7: 451 000 permutations). */
static void make_conic(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "hypersurface", .seed = seed};
    c->dims = 2;
    c->n = seed % 5 == 0 ? 9 + tu_below(&rng, 2) : 5 + tu_below(&rng, 4);
    c->n_classes = 2 + (tu_below(&rng, 4) == 0);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 2, BUDGET);
}

/* Degree 2 on a line: rules are intervals, N ≤ 12, K ≤ 3. */
static void make_line(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "hypersurface", .seed = seed};
    c->dims = 1;
    c->n = 2 + tu_below(&rng, 11);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 3, BUDGET);
}

/* One candidate list of several families, K ≤ 3. */
static void make_mixed(oracle_case *c, uint64_t seed)
{
    static const char *const families[] = {"axis,hypersurface", "hyperplane,hypersurface",
                                           "axis,hyperplane,hypersurface"};
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = families[tu_below(&rng, 3)], .seed = seed};
    c->dims = 1 + tu_below(&rng, 2);
    c->n = c->dims == 1 ? 2 + tu_below(&rng, 8) : 5 + tu_below(&rng, 3);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 3, BUDGET);
}

static void test_oracle_hypersurface_conics(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("hypersurface (conics)", make_conic, SEED_CONIC, 100), 0);
}

static void test_oracle_hypersurface_line(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("hypersurface (D = 1)", make_line, SEED_LINE, 150), 0);
}

static void test_oracle_hypersurface_mixed(void **state)
{
    (void)state;
    assert_int_equal(oracle_run("mixed with hypersurface", make_mixed, SEED_MIXED, 150), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_hypersurface_conics),
        cmocka_unit_test(test_oracle_hypersurface_line),
        cmocka_unit_test(test_oracle_hypersurface_mixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
