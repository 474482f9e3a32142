/* The branch search with a memo too small for its proof
 * (backends/discrete/discrete_memo.c, dc_memo_collect): when the memo may
 * grow no more it keeps its optima (and the lower bounds of its largest
 * regions), drops the other bounds and goes on, so the proof is slower but
 * still a proof.  oracle_discrete checks the answers against brute forces
 * with a collection every few entries; here a real memory limit, on a
 * problem whose search needs far more entries than the limit holds. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../backends/discrete/discrete.h"
#include "../backends/discrete/discrete_memo.h"
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

/* Whether two results are the same tree: node by node, the same feature, children and codes. */
static bool same_tree(const dc_result *a, const dc_result *b)
{
    if (a->n_nodes != b->n_nodes) return false;
    for (size_t t = 0; t < a->n_nodes; t++) {
        const dc_node *x = &a->nodes[t], *y = &b->nodes[t];
        if (x->feature != y->feature || x->first != y->first || x->n_children != y->n_children || x->code != y->code)
            return false;
    }
    return true;
}

/* The same optimum, proven, with a memo of 64 MiB (never full here) and of
 * 600 kB (8 192 slots and 64 Ki words of keys: full at 4 096 entries, many
 * times over). */
static void test_collected_memo_proves_the_same_optimum(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    for (uint64_t seed = 1; seed <= tu_scaled(2); seed++) { /* (one under the sanitizers) */
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

static void count_entry(void *user, const uint32_t *rows, size_t len, uint32_t rem, int64_t lb, bool solved)
{
    (void)rows, (void)len, (void)rem, (void)lb, (void)solved;
    (*(uint64_t *)user)++;
}

/* The proof on two and three threads (dc_problem.threads: the others search
 * the root beside the first, the memo shared): the optimum of one thread,
 * with room and within 600 kB, where collections (every block of the table
 * held) come while other threads are searching, and entries they hold by
 * their place move under them.  With room the table grows while the
 * threads share it, its entries moved by runs of blocks, by every thread
 * that waits for a lock meanwhile: none may be lost (the memo holds as many
 * as it counts). */
static void test_threads_share_the_memo(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    for (uint64_t seed = 1; seed <= tu_scaled(2); seed++) { /* (one under the sanitizers) */
        pdt_error err;
        dc_result one;
        make_problem(pr, seed, (size_t)64 << 20);
        assert_int_equal(dc_solve(&one, &pr->p, &err), PDT_OK);
        assert_true(one.optimal);
        assert_int_equal(one.threads, 1);
        for (uint32_t threads = 2; threads <= (tu_scaled(2) > 1 ? 3 : 2); threads++) /* (3: not under the sanitizers) */
            for (size_t memo = 0; memo < 2; memo++) {
                dc_result r;
                make_problem(pr, seed, memo ? 600 << 10 : (size_t)64 << 20);
                pr->p.threads = threads;
                uint64_t held = 0;
                pr->p.audit = count_entry, pr->p.audit_user = &held;
                assert_int_equal(dc_solve(&r, &pr->p, &err), PDT_OK);
                assert_int_equal(held, r.memo_entries);
                assert_true(r.optimal);
                assert_null(r.stopped_by);
                assert_int_equal(r.threads, threads);
                if (memo) assert_true(r.memo_collections >= 2);
                else assert_true(r.memo_moved_by_runs >= 1); /* (a larger table filled by runs) */
                assert_int_equal(r.cost, one.cost);
                assert_int_equal(tree_cost(&r, pr), r.cost);
                assert_true(same_tree(&r, &one)); /* (of equal splits, the least feature's) */
                print_message("seed %llu, %u threads, %s: %llu evaluations (one thread %llu), %llu collections, "
                              "%llu growths by runs\n",
                              (unsigned long long)seed, threads, memo ? "600 kB" : "64 MiB",
                              (unsigned long long)r.evaluations, (unsigned long long)one.evaluations,
                              (unsigned long long)r.memo_collections, (unsigned long long)r.memo_moved_by_runs);
                dc_result_clear(&r);
            }
        dc_result_clear(&one);
    }
    free(pr);
}

/* Keys of conditions (PDT_DISCRETE_KEYS=branch) on 300 rows, every
 * region of a size hashed alike (PDT_DISCRETE_WEAK_HASH): each lookup
 * checks stored branches against regions of several words of rows, by the
 * words that hold the region's rows (dc_subset.nz) — the optimum and the
 * tree of the run with hashes and the shortest keys.  (oracle_discrete's
 * instances fit in one word.) */
static void test_keys_of_conditions_over_words(void **state)
{
    (void)state;
    problem *pr = malloc(sizeof *pr);
    assert_non_null(pr);
    for (uint64_t seed = 1; seed <= tu_scaled(2); seed++) {
        pdt_error err;
        dc_result plain, by_branch;
        make_problem(pr, seed, (size_t)64 << 20);
        pr->p.threads = 1, pr->p.split_cost = 6; /* (λ = 1/100: the proof a few seconds with weak hashes) */
        assert_int_equal(dc_solve(&plain, &pr->p, &err), PDT_OK);
        setenv("PDT_DISCRETE_KEYS", "branch", 1);
        setenv("PDT_DISCRETE_WEAK_HASH", "1", 1);
        make_problem(pr, seed, (size_t)64 << 20);
        pr->p.threads = 1, pr->p.split_cost = 6;
        assert_int_equal(dc_solve(&by_branch, &pr->p, &err), PDT_OK);
        unsetenv("PDT_DISCRETE_KEYS");
        unsetenv("PDT_DISCRETE_WEAK_HASH");
        assert_true(plain.optimal && by_branch.optimal);
        assert_int_equal(by_branch.cost, plain.cost);
        assert_int_equal(tree_cost(&by_branch, pr), by_branch.cost);
        assert_true(same_tree(&by_branch, &plain));
        dc_result_clear(&plain);
        dc_result_clear(&by_branch);
    }
    free(pr);
}

/* ------------------------------------------------------------ a table grown by runs */

typedef struct waiter {
    dc_memo *m;
    int stop;
} waiter;

/* Looks up rows one at a time until stopped: a thread that waits for a
 * lock whenever the table grows. */
static void *look_up(void *arg)
{
    waiter *w = arg;
    for (uint32_t i = 0; !__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE); i = (i + 1) % 64) {
        (void)dc_memo_get(w->m, &i, 1, PDT_UNLIMITED, NULL, 0, false);
        dc_memo_unlock(w->m);
    }
    return NULL;
}

/* The memo shared by two threads, one making entries (pairs of rows, each
 * its own value), the other looking up rows: each time the table grows,
 * every block held, the waiting thread moves runs of its blocks too (made
 * to take the first, m.helped), and afterwards every entry is there, with
 * its value, as many as the memo counts. */
static void test_growth_moved_by_runs(void **state)
{
    (void)state;
    enum { ROWS = 1024, ENTRIES = 70000 };
    uint64_t salt[2 * (ROWS / 64 + 1)];
    assert_true(dc_salt_fill(salt, ROWS / 64 + 1));
    dc_memo m = {.limit = (size_t)64 << 20, .n_rows = ROWS, .salt = salt, .helped = true};
    assert_true(dc_memo_share(&m));
    waiter w = {&m, 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, look_up, &w), 0);
    for (uint32_t e = 0; e < ENTRIES; e++) {
        const uint32_t rows[2] = {e / (ROWS / 2), ROWS / 2 + e % (ROWS / 2)}; /* (distinct: e < ROWS²/4) */
        dc_entry *at = dc_memo_get(&m, rows, 2, PDT_UNLIMITED, NULL, 0, true);
        assert_non_null(at);
        assert_false(at->solved);
        at->lb = e, at->solved = true;
        dc_memo_unlock(&m);
    }
    __atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
    assert_int_equal(pthread_join(t, NULL), 0);
    dc_memo_unshare(&m);
    /* 4096 slots shared, grown at 2^11 ... 2^16 entries: from two blocks on by runs (the last in two runs) */
    assert_int_equal(m.moved_by_runs, 5);
    assert_true(m.helped_runs >= m.moved_by_runs);
    assert_int_equal(m.used, ENTRIES);
    for (uint32_t e = 0; e < ENTRIES; e++) {
        const uint32_t rows[2] = {e / (ROWS / 2), ROWS / 2 + e % (ROWS / 2)};
        const dc_entry *at = dc_memo_get(&m, rows, 2, PDT_UNLIMITED, NULL, 0, false);
        if (!at || !at->solved || at->lb != e) fail_msg("entry %u lost or changed in a growth", e);
    }
    print_message("%llu growths by runs, %llu runs moved by the waiting thread\n",
                  (unsigned long long)m.moved_by_runs, (unsigned long long)m.helped_runs);
    dc_memo_clear(&m);
}

/* ------------------------------------------------------------ every bound a fact */

/* The optimum of a set of rows (a mask of up to 64) with `rem` levels
 * left, by its definition: its leaf, or a split on any feature with two
 * codes present or more, each child at its own optimum.  Memoised by
 * (mask, rem). */
typedef struct brute {
    const uint16_t *x, *k;
    const uint32_t *y;
    size_t nf, nc;
    int64_t err_cost, split_cost;
    struct { uint64_t mask; uint32_t rem; int64_t cost; } *slot;
    size_t n_slot;
    unsigned audited, solved;
} brute;

static int64_t brute_cost(brute *b, uint64_t mask, uint32_t rem)
{
    size_t at = (size_t)((mask * UINT64_C(0x9e3779b97f4a7c15)) ^ rem) & (b->n_slot - 1);
    for (; b->slot[at].rem; at = (at + 1) & (b->n_slot - 1))
        if (b->slot[at].mask == mask && b->slot[at].rem == rem + 1) return b->slot[at].cost;
    uint32_t count[4] = {0}, most = 0;
    for (uint64_t r = mask; r; r &= r - 1) count[b->y[__builtin_ctzll(r)]]++;
    for (size_t c = 0; c < b->nc; c++) most = count[c] > most ? count[c] : most;
    int64_t best = (int64_t)((uint32_t)__builtin_popcountll(mask) - most) * b->err_cost;
    for (size_t f = 0; rem > 0 && f < b->nf; f++) {
        uint64_t part[4] = {0};
        for (uint64_t r = mask; r; r &= r - 1) {
            const unsigned i = (unsigned)__builtin_ctzll(r);
            part[b->x[i * b->nf + f]] |= UINT64_C(1) << i;
        }
        unsigned ways = 0;
        for (unsigned v = 0; v < b->k[f]; v++) ways += part[v] != 0;
        if (ways < 2) continue;
        int64_t cost = b->split_cost;
        for (unsigned v = 0; v < b->k[f] && cost < best; v++)
            if (part[v]) cost += brute_cost(b, part[v], rem == PDT_UNLIMITED ? rem : rem - 1);
        if (cost < best) best = cost;
    }
    /* (the table is large enough for every branch of these instances: 4^7 of them at most) */
    at = (size_t)((mask * UINT64_C(0x9e3779b97f4a7c15)) ^ rem) & (b->n_slot - 1);
    while (b->slot[at].rem) at = (at + 1) & (b->n_slot - 1);
    b->slot[at].mask = mask, b->slot[at].rem = rem + 1, b->slot[at].cost = best;
    return best;
}

static void audit(void *user, const uint32_t *rows, size_t len, uint32_t rem, int64_t lb, bool solved)
{
    brute *b = user;
    uint64_t mask = 0;
    for (size_t t = 0; t < len; t++) mask |= UINT64_C(1) << rows[t];
    const int64_t cost = brute_cost(b, mask, rem);
    if (solved ? lb != cost : lb > cost)
        fail_msg("a region of %zu rows (mask %#llx), %d levels left (-1: no limit): the memo holds %s %lld, its "
                 "optimum is %lld",
                 len, (unsigned long long)mask, rem == PDT_UNLIMITED ? -1 : (int)rem,
                 solved ? "the optimum" : "the lower bound", (long long)lb, (long long)cost);
    b->audited++;
    b->solved += solved;
}

/* Every entry the memo holds once the search is over — the warm runs',
 * the deeper runs', the full search's, bounds of regions cut by a budget
 * and optima — is checked against the definition: an optimum equal to the
 * region's, a lower bound at most it.  Random instances of up to 64 rows
 * (some rows repeated with other labels: unavoidable errors), two- and
 * three-valued features, several λ, with and without a depth limit, on one
 * thread and on two, with room and with a collection every 16 entries.
 * Every run gives the same tree: of equal splits, the least feature's.
 * (Until 2026-11-28 a region whose search a subset's bound cut kept the
 * least bound of the splits it had looked at, above its optimum when a
 * split it had not was cheaper: answers rarely showed it, the memo did.) */
static void test_every_bound_is_a_fact(void **state)
{
    (void)state;
    static const struct { int64_t a, b; } lambdas[] = {{1, 100}, {1, 20}, {1, 8}, {1, 3}, {0, 1}};
    problem *pr = malloc(sizeof *pr);
    brute b = {.n_slot = (size_t)1 << 16};
    b.slot = calloc(b.n_slot, sizeof *b.slot);
    assert_non_null(pr);
    assert_non_null(b.slot);
    tu_rng rng = {20261128};
    unsigned audited = 0, solved = 0;
    for (unsigned inst = 0; inst < tu_scaled(150); inst++) {
        const size_t n = 24 + tu_below(&rng, 41), nf = 4 + tu_below(&rng, 7), nc = 2 + tu_below(&rng, 2);
        for (size_t f = 0; f < nf; f++) pr->k[f] = (uint16_t)(tu_below(&rng, 4) == 0 ? 3 : 2);
        for (size_t i = 0; i < n; i++) {
            if (i && tu_below(&rng, 8) == 0) { /* a row repeated (with its label or another) */
                memcpy(pr->x + i * nf, pr->x + (i - 1) * nf, nf * sizeof *pr->x);
            } else {
                for (size_t f = 0; f < nf; f++) pr->x[i * nf + f] = (uint16_t)tu_below(&rng, pr->k[f]);
            }
            const uint16_t *r = pr->x + i * nf;
            pr->y[i] = tu_below(&rng, 5) == 0 ? tu_below(&rng, (uint32_t)nc) : (uint32_t)((r[0] + r[1] * r[2]) % nc);
        }
        const size_t l = tu_below(&rng, sizeof lambdas / sizeof *lambdas);
        const int64_t err_cost = lambdas[l].a ? lambdas[l].b : (int64_t)n + 1;
        const int64_t split_cost = lambdas[l].a ? lambdas[l].a * (int64_t)n : 1;
        const uint32_t depth = tu_below(&rng, 4) == 0 ? 2 + tu_below(&rng, 2) : PDT_UNLIMITED;
        b.x = pr->x, b.k = pr->k, b.y = pr->y, b.nf = nf, b.nc = nc, b.err_cost = err_cost, b.split_cost = split_cost;
        memset(b.slot, 0, b.n_slot * sizeof *b.slot);
        const int64_t want = brute_cost(&b, n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1, depth);
        dc_result first = {0}; /* (one thread, room: the tree every other run must give) */
        for (unsigned run = 0; run < 4; run++) {
            if (run & 2) setenv("PDT_DISCRETE_COLLECT", "16", 1);
            pr->p = (dc_problem){.n = n, .nf = nf, .nc = nc, .x = pr->x, .k = pr->k, .y = pr->y,
                                 .err_cost = err_cost, .split_cost = split_cost, .max_depth = depth,
                                 .memo_bytes = (size_t)16 << 20, .threads = 1 + (run & 1),
                                 .audit = audit, .audit_user = &b};
            b.audited = b.solved = 0;
            pdt_error err;
            dc_result r;
            assert_int_equal(dc_solve(&r, &pr->p, &err), PDT_OK);
            unsetenv("PDT_DISCRETE_COLLECT");
            assert_true(r.optimal);
            assert_int_equal(r.cost, want);
            assert_true(b.audited > 0);
            audited += b.audited, solved += b.solved;
            if (run) {
                if (!same_tree(&r, &first)) fail_msg("instance %u, run %u: another tree of the same cost", inst, run);
                dc_result_clear(&r);
            } else {
                first = r;
            }
        }
        dc_result_clear(&first);
    }
    print_message("%u entries checked, %u of them optima\n", audited, solved);
    free(b.slot);
    free(pr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collected_memo_proves_the_same_optimum),
        cmocka_unit_test(test_threads_share_the_memo),
        cmocka_unit_test(test_keys_of_conditions_over_words),
        cmocka_unit_test(test_growth_moved_by_runs),
        cmocka_unit_test(test_every_bound_is_a_fact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
