/* The branch search's first incumbent (backends/discrete/discrete_greedy.c):
 * a greedy tree pruned exactly for the costs, there before the search has
 * done any work.  Each problem here is built so that its greedy tree and its
 * cost follow from the construction, not from the program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../backends/discrete/discrete.h"
#include "test_util.h"

#define N 256
#define NF 6

typedef struct problem {
    uint16_t x[N * NF], k[NF];
    uint32_t y[N];
    dc_problem p;
} problem;

/* Rows: every combination of six binary features (its code, 0 .. 63), four
 * times over (256 rows); the label y = x0 AND (x1 OR x2), with the four rows
 * of each combination in `flip` flipped (few per leaf of that rule, so its
 * leaves keep their majorities).  Entropy and Gini impurity split x0 first
 * (its split leaves the least), then x1 and x2 (either first): the rule's
 * tree, 3 branch nodes, errs on exactly the flipped rows.  Below the rule's
 * leaves a flipped combination is a majority only in a region of at most 7
 * rows, 5 more conditions deep: 5 nodes (25) to mend 4 errors, so whatever
 * the greedy grows there is pruned. */
static void make_problem(problem *pr, const size_t *flip, size_t n_flip, uint32_t max_depth)
{
    for (size_t f = 0; f < NF; f++) pr->k[f] = 2;
    for (size_t i = 0; i < N; i++) {
        uint16_t *r = pr->x + i * NF;
        for (size_t f = 0; f < NF; f++) r[f] = (uint16_t)(i >> f & 1);
        pr->y[i] = (uint32_t)(r[0] & (r[1] | r[2]));
    }
    for (size_t t = 0; t < n_flip; t++)
        for (size_t copy = 0; copy < N; copy += 64) pr->y[flip[t] + copy] ^= 1;
    /* an error costs 1, a branch node 5: a leaf of more than five errors is grown */
    pr->p = (dc_problem){.n = N, .nf = NF, .nc = 2, .x = pr->x, .k = pr->k, .y = pr->y, .err_cost = 1,
                         .split_cost = 5, .max_depth = max_depth, .memo_bytes = (size_t)16 << 20,
                         .max_rows = 1};
}

static size_t tree_depth(const dc_result *r, size_t at)
{
    const dc_node *nd = &r->nodes[at];
    size_t most = 0;
    for (size_t c = 0; nd->feature != DC_LEAF && c < nd->n_children; c++) {
        size_t d = tree_depth(r, nd->first + c);
        if (d > most) most = d;
    }
    return nd->feature == DC_LEAF ? 0 : most + 1;
}

/* Errors of the tree on the problem's rows, walking it (not its counts). */
static uint64_t tree_errors(const dc_result *r, const problem *pr)
{
    uint64_t errors = 0;
    for (size_t i = 0; i < N; i++) {
        size_t at = 0;
        while (r->nodes[at].feature != DC_LEAF) {
            const dc_node *nd = &r->nodes[at];
            size_t next = SIZE_MAX;
            for (size_t c = 0; c < nd->n_children; c++)
                if (r->nodes[nd->first + c].code == pr->x[i * NF + nd->feature]) next = nd->first + c;
            assert_true(next != SIZE_MAX);
            at = next;
        }
        errors += r->nodes[at].label != pr->y[i];
    }
    return errors;
}

/* Stopped at its first region (a budget of one row), the search answers the
 * greedy tree: the rule's three nodes and the flipped rows as its errors.
 * The leaf x0=0 then errs on 8 rows, which the greedy grows a tree below to
 * mend, and pruning must cut. */
static void test_greedy_is_the_first_answer(void **state)
{
    (void)state;
    /* two combinations of the rule's leaf x0=0, then one of each other: x0=1,x1=1;
     * x0=1,x1=0,x2=1; x0=1,x1=0,x2=0 */
    const size_t flip[] = {2, 4, 3, 5, 9};
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    for (size_t n_flip = 0; n_flip <= 5; n_flip++) {
        make_problem(pr, flip, n_flip, PDT_UNLIMITED);
        dc_result r;
        pdt_error err;
        assert_int_equal(dc_solve(&r, &pr->p, &err), PDT_OK);
        assert_true(r.found);
        assert_false(r.optimal);
        assert_string_equal(r.stopped_by, "row budget");
        assert_int_equal(r.splits, 3);
        assert_int_equal(r.errors, 4 * n_flip);
        assert_int_equal(tree_errors(&r, pr), 4 * n_flip);
        assert_int_equal(r.cost, 4 * (int64_t)n_flip + 3 * 5);
        assert_int_equal(r.nodes[0].feature, 0);
        dc_result_clear(&r);
    }
    free(pr);
}

/* Under a depth limit the greedy tree keeps to it.  Depth 1: the x0 stump,
 * erring on the 32 rows of x0=1 with x1=x2=0.  Depth 2: x1 below x0=1 leaves
 * 32 errors too (its x1=0 child holds 32 rows of each class), so it does not
 * pay for its node and is pruned.  Depth 3: the rule, no error. */
static void test_greedy_keeps_the_depth_limit(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    for (uint32_t depth = 1; depth <= 3; depth++) {
        make_problem(pr, NULL, 0, depth);
        dc_result r;
        pdt_error err;
        assert_int_equal(dc_solve(&r, &pr->p, &err), PDT_OK);
        assert_true(r.found);
        assert_true(tree_depth(&r, 0) <= depth);
        assert_int_equal(tree_errors(&r, pr), r.errors);
        assert_int_equal(r.cost, (int64_t)r.errors + 5 * (int64_t)r.splits);
        const uint64_t want[] = {0, 32, 32, 0}, splits[] = {0, 1, 1, 3};
        assert_int_equal(r.splits, splits[depth]);
        assert_int_equal(r.errors, want[depth]);
        dc_result_clear(&r);
    }
    free(pr);
}

/* Not stopped, the search still proves the optimum, and it costs no more
 * than the greedy tree. */
static void test_search_goes_on_from_it(void **state)
{
    (void)state;
    const size_t flip[] = {2, 3};
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    make_problem(pr, flip, 2, PDT_UNLIMITED);
    pr->p.max_rows = 0;
    dc_result r;
    pdt_error err;
    assert_int_equal(dc_solve(&r, &pr->p, &err), PDT_OK);
    assert_true(r.found && r.optimal);
    assert_true(r.cost <= 4 * 2 + 3 * 5);
    assert_int_equal(tree_errors(&r, pr), r.errors);
    dc_result_clear(&r);
    free(pr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy_is_the_first_answer),
        cmocka_unit_test(test_greedy_keeps_the_depth_limit),
        cmocka_unit_test(test_search_goes_on_from_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
