/* Private to the oracle support files. */
#ifndef PDT_TEST_ORACLE_IMPL_H
#define PDT_TEST_ORACLE_IMPL_H

#include "oracle.h"
#include "pdt_plugin.h"

/* One instance under check: what failed, as text. */
typedef struct oracle_check_ctx {
    const oracle_case *c;
    bool failed;
    size_t len;
    char log[8192];
} oracle_check_ctx;

/* Records a mismatch; returns false. */
bool oracle_fail(oracle_check_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Check (0): the rules' sides, recomputed from the coordinates. */
void oracle_check_sides(oracle_check_ctx *x, const pdt_ruleset *rs);

/* Hypersurface rules of degree 2 (D = 1, 2), recomputed in oracle_lifted.c:
 * the number of point tuples that define rules, and one rule's check (its key
 * as for hyperplanes, or 0 after a failure). */
size_t oracle_lifted_tuples(const oracle_case *c);
uint64_t oracle_check_lifted_rule(oracle_check_ctx *x, const pdt_ruleset *rs, size_t r);

#endif
