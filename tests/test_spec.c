/* The brute-force specification itself, on instances enumerated by hand, so
 * that the oracle is not only trusted.
 *
 * The 1-D instance: rows 0, 1, 2 at x = 1, 2, 3 with classes a, b, a (0, 1, 0)
 * and the axis rules r_i = "x ≤ x_i" defined by row i:
 *     r0 left {0},  r1 left {0, 1},  r2 left {0, 1, 2} (its right side is empty).
 * Relation of r_j to r_i (where r_j's defining row lies w.r.t. r_i):
 *     r1, r2 ↘ r0;   r0 ↙ r1, r2 ↘ r1;   r0, r1 ↙ r2   (every pair is related).
 * 3-permutations, decoded by insertion from the root, then compared with the
 * level order of the tree built:
 *     (0 1 2): r0, r1 right of r0, r2 right of r1       chain, valid, depth 3
 *     (0 2 1): r0, r2 right of r0, r1 left of r2        valid, depth 3
 *     (1 0 2): r1, r0 left, r2 right                    valid, depth 2
 *     (1 2 0): the same tree, whose level order is (1 0 2)   INVALID
 *     (2 0 1): r2, r0 left of r2, r1 right of r0        valid, depth 3
 *     (2 1 0): r2, r1 left of r2, r0 left of r1         valid, depth 3
 * so count_3 = 5 (the 5 binary search trees on 3 keys); every 2-permutation
 * is valid (count_2 = 6), count_1 = 3, count_0 = 1.
 * Costs: the leaf {a, b, a} costs 1.  One rule: r0 → {a} | {b, a} = 1,
 * r1 → {a, b} | {a} = 1, r2 → {a, b, a} | {} = 1.  Two rules (0 1):
 * {a} | ({b} | {a}) = 0.  So odt_0 = odt_1 = 1 and odt_2 = odt_3 = 0; with
 * depth ≤ 1 the optimum stays 1; with depth ≤ 2 and K = 3, (1 0 2) costs
 * ({a} | {b}) | ({a} | {}) = 0.
 * Min-leaf 1 (no empty leaf): r2 always leaves its right side empty in a region
 * holding row 2, so count_1 = 2 (r0, r1), count_2 = 2 ((0 1) and (1 0), one
 * item per leaf), count_3 = 0 (4 leaves, 3 items).  Min-leaf 2: no split
 * leaves 2 items on both sides, so only the single leaf remains (odt = 1). */
#include <stdlib.h>

#include "spec.h"
#include "test_util.h"

static void make_1d(spec_problem *p)
{
    spec_problem_init(p, 3, 3, 2);
    p->label[1] = 1;
    for (uint32_t r = 0; r < 3; r++) {
        for (uint32_t row = 0; row <= r; row++) spec_set_left(p, r, row, true);
        spec_set_def(p, r, &r, 1);
    }
}

static void test_spec_relation_1d(void **state)
{
    (void)state;
    spec_problem p;
    make_1d(&p);
    static const char want[3][3] = {
        {0, 'R', 'R'}, {'L', 0, 'R'}, {'L', 'L', 0}}; /* [i][j]: r_j wrt r_i */
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++) assert_int_equal(spec_relation(&p, i, j), want[i][j]);
    spec_problem_free(&p);
}

static void test_spec_decode_1d(void **state)
{
    (void)state;
    spec_problem p;
    make_1d(&p);
    static const uint32_t perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                         {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const bool valid[6] = {true, true, true, false, true, true};
    static const uint32_t depth[6] = {3, 3, 2, 0, 3, 3};
    for (size_t k = 0; k < 6; k++) {
        spec_tree t;
        assert_int_equal(spec_decode(&t, &p, perms[k], 3), valid[k]);
        if (!valid[k]) continue;
        spec_eval e;
        spec_evaluate(&e, &p, &t);
        assert_int_equal(e.depth, depth[k]);
    }
    /* (1 0 2): leaves {0} {1} {2} {} */
    spec_tree t;
    spec_eval e;
    assert_true(spec_decode(&t, &p, perms[2], 3));
    spec_evaluate(&e, &p, &t);
    assert_int_equal(e.cost, 0);
    assert_int_equal(e.min_leaf, 0);
    /* every 2-permutation is valid */
    for (uint32_t a = 0; a < 3; a++)
        for (uint32_t b = 0; b < 3; b++) {
            uint32_t pair[2] = {a, b};
            if (a != b) assert_true(spec_decode(&t, &p, pair, 2));
        }
    spec_problem_free(&p);
}

static void solve(spec_result *r, const spec_problem *p, uint32_t k, uint32_t depth,
                  uint32_t min_leaf)
{
    spec_limits lim = {k, depth, min_leaf};
    spec_solve(r, p, &lim);
}

static void test_spec_solve_1d(void **state)
{
    (void)state;
    spec_problem p;
    make_1d(&p);
    spec_result r;
    static const int64_t odt[4] = {1, 1, 0, 0};
    for (uint32_t k = 0; k <= 3; k++) {
        solve(&r, &p, k, SPEC_NO_LIMIT, 0);
        assert_int_equal(r.best, odt[k]);
    }
    static const uint64_t counts[4] = {1, 3, 6, 5};
    for (uint32_t k = 0; k <= 3; k++) assert_int_equal(r.count[k], counts[k]);
    assert_int_equal(r.permutations, 1 + 3 + 6 + 6);
    solve(&r, &p, 3, 1, 0);
    assert_int_equal(r.best, 1);
    solve(&r, &p, 3, 2, 0);
    assert_int_equal(r.best, 0);
    assert_int_equal(r.best_k, 2); /* the first minimiser found: (0 1) */
    solve(&r, &p, 3, SPEC_NO_LIMIT, 1);
    static const uint64_t counts1[4] = {1, 2, 2, 0};
    for (uint32_t k = 0; k <= 3; k++) assert_int_equal(r.count[k], counts1[k]);
    assert_int_equal(r.best, 0);
    solve(&r, &p, 3, SPEC_NO_LIMIT, 2);
    static const uint64_t counts2[4] = {1, 0, 0, 0};
    for (uint32_t k = 0; k <= 3; k++) assert_int_equal(r.count[k], counts2[k]);
    assert_int_equal(r.best, 1);
    spec_problem_free(&p);
}

/* Two rules on rows 0..3: A (left {0, 1}, defined by row 0) and C (left
 * {0, 2}, defined by rows 0 and 3, like a line through two points).  C's
 * defining rows straddle A (row 0 left, row 3 right): C may not lie below A.
 * A's row 0 is left of C: A ↙ C.  So (C A) is a proper tree, (A C) is not. */
static void test_spec_unrelated_rules(void **state)
{
    (void)state;
    spec_problem p;
    spec_problem_init(&p, 4, 2, 2);
    uint32_t def_a[1] = {0}, def_c[2] = {0, 3};
    spec_set_left(&p, 0, 0, true);
    spec_set_left(&p, 0, 1, true);
    spec_set_left(&p, 1, 0, true);
    spec_set_left(&p, 1, 2, true);
    spec_set_def(&p, 0, def_a, 1);
    spec_set_def(&p, 1, def_c, 2);
    assert_int_equal(spec_relation(&p, 0, 1), 0);
    assert_int_equal(spec_relation(&p, 1, 0), 'L');
    spec_tree t;
    uint32_t ac[2] = {0, 1}, ca[2] = {1, 0};
    assert_false(spec_decode(&t, &p, ac, 2));
    assert_true(spec_decode(&t, &p, ca, 2));
    assert_int_equal(t.child[0][0], 1);
    assert_int_equal(t.child[0][1], -1);
    spec_result r;
    solve(&r, &p, 2, SPEC_NO_LIMIT, 0);
    assert_int_equal(r.count[2], 1);
    assert_int_equal(r.count[1], 2);
    spec_problem_free(&p);
}

/* A leaf holding classes (0, 0, 1) costs 1; with weights w0 = 1, w1 = 3 it
 * costs (2·1 + 1·3) − max(2, 3) = 2 (the leaf predicts class 1). */
static void test_spec_weighted_leaf(void **state)
{
    (void)state;
    spec_problem p;
    spec_problem_init(&p, 3, 0, 2);
    p.label[2] = 1;
    spec_result r;
    solve(&r, &p, 0, SPEC_NO_LIMIT, 0);
    assert_int_equal(r.best, 1);
    p.class_weight[1] = 3;
    solve(&r, &p, 0, SPEC_NO_LIMIT, 0);
    assert_int_equal(r.best, 2);
    assert_int_equal(r.count[0], 1);
    spec_problem_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_relation_1d),   cmocka_unit_test(test_spec_decode_1d),
        cmocka_unit_test(test_spec_solve_1d),      cmocka_unit_test(test_spec_unrelated_rules),
        cmocka_unit_test(test_spec_weighted_leaf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
