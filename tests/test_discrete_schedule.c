/* The branch search's anytime schedule with deeper incumbents made outside
 * it (dc_problem's `deeper`: the binary fit's backend at depth 5, 6, ...),
 * and the binary fit that uses it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../backends/discrete/discrete.h"
#include "model_impl.h"
#include "test_util.h"

/* What the stand-in hook's trees cost. */
typedef enum hook_trees {
    CHEAPER, /* a cheaper tree at every turn (below any the search has) */
    NONE,    /* none */
    ONCE,    /* one at the first turn, none cheaper after */
    FAILS,   /* none, and no more turns wanted */
} hook_trees;

typedef struct calls {
    hook_trees trees;
    uint32_t depth[256];
    double seconds[256];
    size_t memo_bytes[256];
    size_t n;
} calls;

/* Finishes a depth at its second asking; reports trees as c->trees says. */
static int mock_deeper(void *user, uint32_t depth, double seconds, size_t memo_bytes, int64_t *cost)
{
    calls *c = user;
    if (c->n < 256) c->depth[c->n] = depth, c->seconds[c->n] = seconds, c->memo_bytes[c->n] = memo_bytes;
    c->n++;
    if (c->trees == FAILS) return -1;
    if (c->trees == CHEAPER) *cost = 1000 - (int64_t)c->n;
    if (c->trees == ONCE) *cost = 1000;
    return c->n >= 2 && c->depth[c->n - 2] == depth;
}

/* A random binary problem with noise: the unlimited search needs many evaluations. */
typedef struct problem {
    uint16_t x[300 * 12], k[12];
    uint32_t y[300];
    dc_problem p;
} problem;

static void make_problem(problem *pr, uint64_t seed)
{
    tu_rng rng = {seed};
    const size_t n = 300, nf = 12;
    for (size_t f = 0; f < nf; f++) pr->k[f] = 2;
    for (size_t i = 0; i < n; i++) {
        for (size_t f = 0; f < nf; f++) pr->x[i * nf + f] = (uint16_t)tu_below(&rng, 2);
        const uint16_t *r = pr->x + i * nf;
        uint32_t label = (uint32_t)((r[0] & r[1]) | (r[2] & !r[3]) | (r[4] & r[5] & r[6]));
        pr->y[i] = tu_below(&rng, 8) == 0 ? 1 - label : label; /* one row in eight flipped */
    }
    /* λ = 1/300 on 300 rows: an error costs 300, a branch node 300 */
    pr->p = (dc_problem){.n = n, .nf = nf, .nc = 2, .x = pr->x, .k = pr->k, .y = pr->y, .err_cost = 300,
                         .split_cost = 300, .max_depth = PDT_UNLIMITED, .memo_bytes = (size_t)64 << 20};
}

/* pr solved with the stand-in hook (asked from depth 5), its turns from the
 * first evaluation on. */
static void solve_with_hook(problem *pr, calls *c, hook_trees trees, dc_result *r)
{
    setenv("PDT_DISCRETE_WORK", "1", 1);
    *c = (calls){.trees = trees};
    pr->p.deeper = mock_deeper, pr->p.deeper_user = c, pr->p.deeper_from = 5;
    pdt_error err;
    assert_int_equal(dc_solve(r, &pr->p, &err), PDT_OK);
    unsetenv("PDT_DISCRETE_WORK");
}

/* The hook is asked from depth deeper_from on, a depth again until it says
 * finished, then the next, while its trees get cheaper; the search's answer
 * is the one it gives alone. */
static void test_schedule_asks_depths_in_turn(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    make_problem(pr, 7);
    pdt_error err;
    dc_result alone, with;
    assert_int_equal(dc_solve(&alone, &pr->p, &err), PDT_OK);
    calls c;
    solve_with_hook(pr, &c, CHEAPER, &with);
    assert_true(alone.optimal);
    assert_true(with.optimal);
    assert_int_equal(with.cost, alone.cost);
    assert_int_equal(with.errors, alone.errors);
    assert_int_equal(with.splits, alone.splits);
    /* turns at 1, 2, 4, ... evaluations: at least four on this problem */
    if (alone.evaluations < 64) fail_msg("only %llu evaluations: the problem is too easy", (unsigned long long)alone.evaluations);
    assert_true(c.n >= 4);
    for (size_t t = 0; t < c.n && t < 256; t++) {
        assert_int_equal(c.depth[t], 5 + t / 2); /* each depth twice: refused, then finished */
        assert_true(c.seconds[t] >= 0);
        if (t) assert_true(c.seconds[t] >= c.seconds[t - 1]); /* an eighth of a time that only grows */
        /* what the memo leaves of the limit: below it once regions are stored, and never more
         * later (the memo only grows) */
        assert_true(c.memo_bytes[t] < pr->p.memo_bytes);
        assert_true(c.memo_bytes[t] > pr->p.memo_bytes / 2);
        if (t) assert_true(c.memo_bytes[t] <= c.memo_bytes[t - 1]);
    }
    assert_true(c.memo_bytes[c.n < 256 ? c.n - 1 : 255] < c.memo_bytes[0]); /* it grew meanwhile */
    dc_result_clear(&alone);
    dc_result_clear(&with);
    free(pr);
}

/* The depth limit bounds the depths asked for: with a limit of 6, depth 5
 * is asked (refused, then finished) and nothing after, however many turns. */
static void test_schedule_stops_at_the_depth_limit(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    make_problem(pr, 11);
    pr->p.max_depth = 6;
    calls c;
    dc_result r;
    solve_with_hook(pr, &c, CHEAPER, &r);
    if (r.evaluations < 16) fail_msg("only %llu evaluations: too few turns", (unsigned long long)r.evaluations);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.depth[0], 5);
    assert_int_equal(c.depth[1], 5);
    dc_result_clear(&r);
    free(pr);
}

/* The turns end after DC_DEEPER_IDLE in a row that give no tree cheaper
 * than the best known (the search's, deeper_had, the hook's), and at once
 * when the hook wants no more; the answer is the search's either way. */
static void test_schedule_ends_idle_turns(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    make_problem(pr, 7);
    pdt_error err;
    dc_result alone, r;
    assert_int_equal(dc_solve(&alone, &pr->p, &err), PDT_OK);
    if (alone.evaluations < 64) fail_msg("only %llu evaluations: too few turns", (unsigned long long)alone.evaluations);
    /* (on this problem the hook is asked at least four times while its trees get cheaper) */
    const struct {
        hook_trees trees;
        int64_t had;
        size_t asked;
    } cases[] = {
        {NONE, 0, DC_DEEPER_IDLE},         /* no tree ever */
        {ONCE, 0, 1 + DC_DEEPER_IDLE},     /* one (below the search's best), then none cheaper */
        {CHEAPER, 1, DC_DEEPER_IDLE},      /* cheaper each time, but never below the caller's tree */
        {ONCE, 2000, 1 + DC_DEEPER_IDLE},  /* one below the caller's tree */
        {FAILS, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        calls c;
        pr->p.deeper_had = cases[i].had;
        solve_with_hook(pr, &c, cases[i].trees, &r);
        if (c.n != cases[i].asked) fail_msg("case %zu: asked %zu times, not %zu", i, c.n, cases[i].asked);
        assert_true(r.optimal);
        assert_int_equal(r.cost, alone.cost);
        assert_int_equal(r.splits, alone.splits);
        dc_result_clear(&r);
    }
    dc_result_clear(&alone);
    free(pr);
}

/* A budget of rows is the threads' together: on two threads the search
 * runs on both and stops at the budget, and so a budget that one thread
 * spends on the full search's root stops two, with rows to spare on
 * neither. */
static void test_row_budget_shared_by_threads(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    make_problem(pr, 7);
    pdt_error err;
    dc_result one, two;
    pr->p.max_rows = 40000; /* (the warm runs take a few thousand; the proof far more) */
    assert_int_equal(dc_solve(&one, &pr->p, &err), PDT_OK);
    assert_false(one.optimal);
    assert_string_equal(one.stopped_by, "row budget");
    pr->p.threads = 2;
    assert_int_equal(dc_solve(&two, &pr->p, &err), PDT_OK);
    assert_false(two.optimal);
    assert_string_equal(two.stopped_by, "row budget");
    assert_int_equal(two.threads, 2);
    /* each evaluation counts one row at least, so the two threads' evaluations beyond those of
     * the warm runs (in both) are at most the budget: twice it, each thread's own, would allow
     * about twice one thread's evaluations */
    if (two.evaluations > one.evaluations + one.evaluations / 2)
        fail_msg("two threads made %llu evaluations within the budget, one thread %llu",
                 (unsigned long long)two.evaluations, (unsigned long long)one.evaluations);
    dc_result_clear(&one);
    dc_result_clear(&two);
    free(pr);
}

/* The objective of m recounted: errors / N + λ · nodes, λ = lambda_num / lambda_den. */
static void check_objective(const pdt_model *m, const pdt_dataset *ds, unsigned long lambda_num,
                            unsigned long lambda_den)
{
    mpq_t got, want, t;
    mpq_inits(got, want, t, NULL);
    pdt_model_objective(got, m);
    mpq_set_ui(want, (unsigned long)tu_training_errors(m, ds), (unsigned long)pdt_dataset_rows(ds));
    mpq_set_ui(t, pdt_model_size(m) * lambda_num, lambda_den);
    mpq_canonicalize(want); /* (GMP's arithmetic takes canonical operands) */
    mpq_canonicalize(t);
    mpq_add(want, want, t);
    assert_true(mpq_equal(got, want));
    mpq_clears(got, want, t, NULL);
}

/* A --sparse fit with the family `rules` (binary or categorical) under a time limit, not proven. */
static pdt_model *fit_lambda(const pdt_dataset *ds, const char *rules, const char *lambda, uint32_t threads,
                             double limit)
{
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = rules;
    o.sparse = lambda;
    o.threads = threads;
    o.time_limit = limit;
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s", err.message);
    return m;
}

/* One thread and two prove the same optimum on the file (λ = 1/den). */
static void check_same_proof(const char *file, bool dl85, const char *rules, const char *lambda, unsigned long den)
{
    pdt_error err;
    pdt_dataset *ds = NULL;
    pdt_status st = dl85 ? pdt_dataset_load_dl85(&ds, tu_data(file), &err)
                         : pdt_dataset_load_csv(&ds, tu_data(file), NULL, &err);
    if (st) fail_msg("%s", err.message);
    /* (tu_fit_threads asserts each proven optimal) */
    pdt_model *one = tu_fit_threads(ds, rules, PDT_UNLIMITED, lambda, PDT_ENGINE_AUTO, 1);
    pdt_model *two = tu_fit_threads(ds, rules, PDT_UNLIMITED, lambda, PDT_ENGINE_AUTO, 2);
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    pdt_model_objective(a, one);
    pdt_model_objective(b, two);
    assert_true(mpq_equal(a, b));
    mpq_clears(a, b, NULL);
    assert_int_equal(pdt_model_size(one), pdt_model_size(two));
    assert_int_equal(tu_training_errors(one, ds), tu_training_errors(two, ds));
    assert_string_equal(one->engine, two->engine);
    check_objective(two, ds, 1, den);
    /* both threads searched the root, and say so (a fit on one: no workers) */
    assert_true(one->stats.workers <= 1);
    assert_int_equal(two->stats.workers, 2);
    assert_true(two->stats.work_max > 0 && two->stats.work_max <= two->stats.work_total);
    assert_true(two->stats.work_total <= two->stats.nodes);
    pdt_model_free(&one);
    pdt_model_free(&two);
    pdt_dataset_free(&ds);
}

/* With two threads both prove, the root's splits shared and the memo too,
 * the deeper fits at the first thread's turns: the same tree as with one
 * thread (DL8.5 files proven in about a second; under the sanitizers, where
 * the four fits took 30 s of ThreadSanitizer's time, hepatitis only). */
static void test_two_threads_prove_the_same(void **state)
{
    (void)state;
    check_same_proof("dl85/hepatitis.txt", true, "binary", "0.01", 100);
    if (tu_scaled(2) > 1) check_same_proof("dl85/tic-tac-toe.txt", true, "binary", "0.01", 100);
}

/* kr-vs-kp one-hot at λ = 0.001 is not proven in a second or two: with
 * `threads` threads, stopped at `limit` seconds, the answer is still a
 * consistent tree, no costlier than the depth-4 optimum the fit starts from,
 * whichever of the search, the warm start and the deeper fits (at the first
 * thread's turns) gave it, and says which search it came from. */
static void check_stopped_binary(uint32_t threads, double limit)
{
    pdt_error err;
    pdt_dataset *ds = NULL;
    if (pdt_dataset_load_csv(&ds, tu_data("categorical/kr-vs-kp.csv"), NULL, &err)) fail_msg("%s", err.message);
    pdt_model *d4 = tu_fit(ds, "binary", 4, "0.001", PDT_ENGINE_AUTO); /* (proven: tu_fit asserts it) */
    /* the limit leaves the warm start (that depth-4 fit) time to end, however
     * slow the build: under TSan on a slow machine it took more than 1 s */
    limit += 2 * pdt_model_seconds(d4);
    pdt_model *m = fit_lambda(ds, "binary", "0.001", threads, limit);
    assert_false(m->optimal);
    assert_non_null(m->stopped_by);
    check_objective(m, ds, 1, 1000); /* the tree's: recounted errors / N + λ · nodes */
    mpq_t got, four;
    mpq_inits(got, four, NULL);
    pdt_model_objective(got, m);
    pdt_model_objective(four, d4);
    assert_true(mpq_cmp(got, four) <= 0);
    assert_non_null(strstr(m->engine, "discrete (binary"));
    mpq_clears(got, four, NULL);
    pdt_model_free(&m);
    pdt_model_free(&d4);
    pdt_dataset_free(&ds);
}

static void test_binary_fit_stopped_answer(void **state)
{
    (void)state;
    check_stopped_binary(1, 1);
}

static void test_two_threads_stopped_answer(void **state)
{
    (void)state;
    check_stopped_binary(2, 1.5);
}

/* Multiway fits on two threads: the same optimum as on one. */
static void test_two_threads_multiway_prove_the_same(void **state)
{
    (void)state;
    const char *files[] = {"categorical/tic-tac-toe.csv", "categorical/nursery.csv", "categorical/monk2.csv"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        check_same_proof(files[i], false, "categorical", "0.001", 1000);
}

/* Stopped, a two-thread multiway fit returns a consistent tree, the
 * unlimited search's (its deeper runs share its memo). */
static void test_two_threads_multiway_stopped_answer(void **state)
{
    (void)state;
    pdt_error err;
    pdt_dataset *ds = NULL;
    if (pdt_dataset_load_csv(&ds, tu_data("categorical/kr-vs-kp.csv"), NULL, &err)) fail_msg("%s", err.message);
    pdt_model *m = fit_lambda(ds, "categorical", "0.001", 2, 1.5);
    assert_false(m->optimal);
    assert_non_null(m->stopped_by);
    check_objective(m, ds, 1, 1000);
    assert_string_equal(m->engine, "discrete");
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedule_asks_depths_in_turn),
        cmocka_unit_test(test_schedule_stops_at_the_depth_limit),
        cmocka_unit_test(test_schedule_ends_idle_turns),
        cmocka_unit_test(test_row_budget_shared_by_threads),
        cmocka_unit_test(test_binary_fit_stopped_answer),
        cmocka_unit_test(test_two_threads_prove_the_same),
        cmocka_unit_test(test_two_threads_stopped_answer),
        cmocka_unit_test(test_two_threads_multiway_prove_the_same),
        cmocka_unit_test(test_two_threads_multiway_stopped_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
