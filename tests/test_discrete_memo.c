/* The branch search with a memo too small for its proof
 * (backends/discrete/discrete_memo.c, dc_memo_collect): when the memo may
 * grow no more it keeps its optima (and the lower bounds of its largest
 * regions), drops the other bounds and goes on, so the proof is slower but
 * still a proof.  oracle_discrete checks the answers against brute forces
 * with a collection every few entries; here a real memory limit, on a
 * problem whose search needs far more entries than the limit holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../backends/discrete/discrete.h"
#include "test_util.h"

#define N 300
#define NF 12

typedef struct problem {
    uint16_t x[N * NF], k[NF];
    uint32_t y[N];
    dc_problem p;
} problem;

/* Random 0/1 features; the label a rule of six of them with one row in six
 * flipped, so that the search meets many regions at many budgets. */
static void make_problem(problem *pr, uint64_t seed, size_t memo_bytes)
{
    tu_rng rng = {seed};
    for (size_t f = 0; f < NF; f++) pr->k[f] = 2;
    for (size_t i = 0; i < N; i++) {
        uint16_t *r = pr->x + i * NF;
        for (size_t f = 0; f < NF; f++) r[f] = (uint16_t)tu_below(&rng, 2);
        const uint32_t rule = (uint32_t)((r[0] ^ r[1]) | (r[2] & r[3] & !r[4]) | (r[5] & r[6]));
        pr->y[i] = tu_below(&rng, 6) == 0 ? 1 - rule : rule;
    }
    /* λ = 1/600: an error costs 2, a branch node 1 (units of 1/(600 N)) */
    pr->p = (dc_problem){.n = N, .nf = NF, .nc = 2, .x = pr->x, .k = pr->k, .y = pr->y, .err_cost = 2,
                         .split_cost = 1, .max_depth = PDT_UNLIMITED, .memo_bytes = memo_bytes};
}

/* Row i's label by the tree in r. */
static uint32_t predict(const dc_result *r, const problem *pr, size_t i)
{
    size_t at = 0;
    while (r->nodes[at].feature != DC_LEAF) {
        const dc_node *nd = &r->nodes[at];
        const uint16_t v = pr->x[i * NF + nd->feature];
        size_t next = SIZE_MAX;
        for (size_t c = 0; c < nd->n_children; c++)
            if (r->nodes[nd->first + c].code == v) next = nd->first + c;
        assert_true(next != SIZE_MAX); /* every code of a row is a way of the node its branch reaches */
        at = next;
    }
    return r->nodes[at].label;
}

/* The tree's errors and branch nodes, counted from its nodes and its predictions. */
static int64_t tree_cost(const dc_result *r, const problem *pr)
{
    int64_t errors = 0, splits = 0;
    for (size_t i = 0; i < N; i++) errors += predict(r, pr, i) != pr->y[i];
    for (size_t t = 0; t < r->n_nodes; t++) splits += r->nodes[t].feature != DC_LEAF;
    assert_int_equal(errors, (int64_t)r->errors);
    assert_int_equal(splits, (int64_t)r->splits);
    return errors * pr->p.err_cost + splits * pr->p.split_cost;
}

/* The same optimum, proven, with a memo of 64 MiB (never full here) and of
 * 600 kB (8 192 slots and 64 Ki words of keys: full at 4 096 entries, many
 * times over). */
static void test_collected_memo_proves_the_same_optimum(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        pdt_error err;
        dc_result roomy, tight;
        make_problem(pr, seed, (size_t)64 << 20);
        assert_int_equal(dc_solve(&roomy, &pr->p, &err), PDT_OK);
        assert_true(roomy.optimal);
        assert_int_equal(roomy.memo_collections, 0);
        assert_true(roomy.memo_entries > 8 * 4096); /* (the small memo cannot hold this search) */
        make_problem(pr, seed, 600 << 10);
        assert_int_equal(dc_solve(&tight, &pr->p, &err), PDT_OK);
        assert_true(tight.optimal);
        assert_null(tight.stopped_by);
        assert_true(tight.memo_collections >= 2);
        assert_true(tight.memo_entries <= 4096);
        assert_int_equal(tight.cost, roomy.cost);
        assert_int_equal(tree_cost(&tight, pr), tight.cost);
        assert_int_equal(tree_cost(&roomy, pr), roomy.cost);
        print_message("seed %llu: cost %lld; %llu entries with 64 MiB; with 600 kB %llu collections, %llu "
                      "evaluations against %llu\n",
                      (unsigned long long)seed, (long long)tight.cost, (unsigned long long)roomy.memo_entries,
                      (unsigned long long)tight.memo_collections, (unsigned long long)tight.evaluations,
                      (unsigned long long)roomy.evaluations);
        dc_result_clear(&roomy);
        dc_result_clear(&tight);
    }
    free(pr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collected_memo_proves_the_same_optimum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
