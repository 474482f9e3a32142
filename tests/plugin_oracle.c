/* The oracle harness for a rule plugin built outside the tree
 * (docs/writing-a-rule.md, "Outside the tree"):
 *
 *   PDT_ORACLE_PLUGIN=my.so PDT_ORACLE_RULES=myrule build/tests/plugin_oracle
 *
 * loads the plugin as `pdt --plugin` does and checks its family on random
 * small instances (PDT_ORACLE_DIMS features, default 2; 100 of them and 50
 * mixed with axis rules, PDT_ORACLE_COUNT of each when set) against the
 * brute-force specification: the optimum of every engine, the predictions of
 * the exported rules, the tree counts (tests/support/oracle.h, checks 1-5).
 * The sides themselves are the plugin's; its author checks them against an
 * independent computation.  CTest runs it on examples/plugins/circle.c
 * loaded as "disc". */
#include <stdlib.h>

#include "oracle.h"
#include "pdt.h"
#include "test_util.h"

#define SEED_ALONE UINT64_C(0x9106000000000000)
#define SEED_MIXED UINT64_C(0x9106010000000000)
#define BUDGET 1000000

static const char *rules, *mixed;
static size_t dims = 2;

static void make_case(oracle_case *c, uint64_t seed, const char *family)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = family, .seed = seed, .foreign = true};
    c->dims = dims;
    c->n = 3 + tu_below(&rng, 6);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 3, BUDGET);
}

static void make_alone(oracle_case *c, uint64_t seed) { make_case(c, seed, rules); }
static void make_mixed(oracle_case *c, uint64_t seed) { make_case(c, seed, mixed); }

static void test_plugin_oracle_alone(void **state)
{
    (void)state;
    assert_int_equal(oracle_run(rules, make_alone, SEED_ALONE, 100), 0);
}

static void test_plugin_oracle_mixed(void **state)
{
    (void)state;
    assert_int_equal(oracle_run(mixed, make_mixed, SEED_MIXED, 50), 0);
}

int main(void)
{
    const char *path = getenv("PDT_ORACLE_PLUGIN");
    rules = getenv("PDT_ORACLE_RULES");
    if (!path || !rules) {
        fprintf(stderr, "usage: PDT_ORACLE_PLUGIN=FILE.so PDT_ORACLE_RULES=FAMILY [PDT_ORACLE_DIMS=D] "
                        "[PDT_ORACLE_COUNT=N] plugin_oracle\n");
        return 2;
    }
    const char *d = getenv("PDT_ORACLE_DIMS");
    if (d) dims = strtoul(d, NULL, 10);
    if (dims < 1 || dims > ORACLE_MAX_DIMS) {
        fprintf(stderr, "plugin_oracle: PDT_ORACLE_DIMS must be 1 to %d\n", ORACLE_MAX_DIMS);
        return 2;
    }
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_plugin_load(path, &err)) {
        fprintf(stderr, "plugin_oracle: %s\n", err.message);
        return 1;
    }
    static char both[128];
    snprintf(both, sizeof both, "axis,%s", rules);
    mixed = both;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_oracle_alone),
        cmocka_unit_test(test_plugin_oracle_mixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
