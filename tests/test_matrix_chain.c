/* The matrix-chain plugin against the textbook instance and an independent
 * O(n³) dynamic programme (GMP), including optima beyond 2^64; the reported
 * parenthesisation is re-evaluated by a parser written here. */
#include <stdlib.h>
#include <string.h>

#include "../problems/matrix_chain.h"
#include "test_util.h"

/* The textbook DP: m[i][j] = min_k m[i][k] + m[k+1][j] + p[i]·p[k+1]·p[j+1]. */
static void dp_optimum(mpz_ptr out, const mpz_t *p, size_t n)
{
    mpz_t *m = malloc(n * n * sizeof *m), t;
    mpz_init(t);
    for (size_t i = 0; i < n * n; i++) mpz_init(m[i]);
    for (size_t len = 2; len <= n; len++)
        for (size_t i = 0; i + len <= n; i++) {
            size_t j = i + len - 1;
            for (size_t k = i; k < j; k++) {
                mpz_mul(t, p[i], p[k + 1]);
                mpz_mul(t, t, p[j + 1]);
                mpz_add(t, t, m[i * n + k]);
                mpz_add(t, t, m[(k + 1) * n + j]);
                if (k == i || mpz_cmp(t, m[i * n + j]) < 0) mpz_set(m[i * n + j], t);
            }
        }
    mpz_set(out, m[n - 1]);
    for (size_t i = 0; i < n * n; i++) mpz_clear(m[i]);
    free(m);
    mpz_clear(t);
}

/* Cost of a parenthesisation "((A1A2)A3)"; sets *lo, *hi to the matrices it
 * multiplies; returns false on a malformed string. */
static bool eval_order(const char **s, const mpz_t *p, mpz_ptr cost, size_t *lo, size_t *hi)
{
    if (**s == 'A') {
        char *end;
        long k = strtol(*s + 1, &end, 10);
        *s = end;
        *lo = *hi = (size_t)(k - 1);
        return k >= 1;
    }
    if (**s != '(') return false;
    (*s)++;
    size_t l1, h1, l2, h2;
    if (!eval_order(s, p, cost, &l1, &h1) || !eval_order(s, p, cost, &l2, &h2) || **s != ')' || h1 + 1 != l2)
        return false;
    (*s)++;
    mpz_t t;
    mpz_init(t);
    mpz_mul(t, p[l1], p[l2]);
    mpz_mul(t, t, p[h2 + 1]);
    mpz_add(cost, cost, t);
    mpz_clear(t);
    *lo = l1;
    *hi = h2;
    return true;
}

/* Solves the chain and checks the optimum against the DP and the order's own cost. */
static void check_chain(const mpz_t *p, size_t n_dims, const pdt_search_opts *opts)
{
    pdt_chain *c = NULL;
    pdt_error err;
    assert_int_equal(pdt_chain_new(&c, p, n_dims, &err), PDT_OK);
    assert_int_equal(pdt_chain_solve(c, opts, &err), PDT_OK);
    mpz_t got, want, again;
    mpz_inits(got, want, again, NULL);
    pdt_chain_cost(got, c);
    dp_optimum(want, p, n_dims - 1);
    if (mpz_cmp(got, want) != 0) gmp_fprintf(stderr, "engine %Zd, DP %Zd\n", got, want);
    assert_true(mpz_cmp(got, want) == 0);
    assert_true(pdt_chain_optimal(c));
    const char *s = pdt_chain_order(c);
    size_t lo = 0, hi = 0;
    assert_true(eval_order(&s, p, again, &lo, &hi));
    assert_int_equal(*s, '\0');
    assert_int_equal(lo, 0);
    assert_int_equal(hi, n_dims - 2);
    assert_true(mpz_cmp(again, want) == 0);
    mpz_clears(got, want, again, NULL);
    pdt_chain_free(&c);
}

static mpz_t *dims_of(const unsigned long *v, size_t n)
{
    mpz_t *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++) mpz_init_set_ui(p[i], v[i]);
    return p;
}

static void test_matrix_chain_textbook(void **state)
{
    (void)state;
    const unsigned long v[] = {30, 35, 15, 5, 10, 20, 25};
    mpz_t *p = dims_of(v, 7);
    pdt_chain *c = NULL;
    pdt_error err;
    assert_int_equal(pdt_chain_new(&c, (const mpz_t *)p, 7, &err), PDT_OK);
    assert_int_equal(pdt_chain_solve(c, NULL, &err), PDT_OK);
    mpz_t cost;
    mpz_init(cost);
    pdt_chain_cost(cost, c);
    assert_int_equal(mpz_get_ui(cost), 15125);
    assert_string_equal(pdt_chain_order(c), "((A1(A2A3))((A4A5)A6))");
    assert_true(pdt_chain_optimal(c));
    size_t n_nodes = 0;
    const pdt_chain_node *t = pdt_chain_tree(c, &n_nodes);
    assert_int_equal(n_nodes, 11); /* 6 leaves, 5 products */
    assert_int_equal(t[0].lo, 0);
    assert_int_equal(t[0].hi, 5);
    assert_int_equal(t[t[0].left].hi, 2); /* (A1..A3)(A4..A6) at the root */
    mpz_clear(cost);
    pdt_chain_free(&c);
    pdt_chain_dims_free(p, 7);
}

static void test_matrix_chain_two_matrices(void **state)
{
    (void)state;
    const unsigned long v[] = {7, 11, 13};
    mpz_t *p = dims_of(v, 3);
    pdt_chain *c = NULL;
    pdt_error err;
    assert_int_equal(pdt_chain_new(&c, (const mpz_t *)p, 3, &err), PDT_OK);
    assert_int_equal(pdt_chain_solve(c, NULL, &err), PDT_OK);
    mpz_t cost;
    mpz_init(cost);
    pdt_chain_cost(cost, c);
    assert_int_equal(mpz_get_ui(cost), 7 * 11 * 13);
    assert_string_equal(pdt_chain_order(c), "(A1A2)");
    mpz_clear(cost);
    pdt_chain_free(&c);
    pdt_chain_dims_free(p, 3);
}

/* Random chains of 2..21 matrices, and two of more than 64 (two bitset words), against the DP. */
static void test_matrix_chain_random_vs_dp(void **state)
{
    (void)state;
    tu_rng rng = {2024};
    for (int trial = 0; trial < 102; trial++) {
        size_t n = trial < 100 ? 2 + tu_below(&rng, 20) : 65 + tu_below(&rng, 6);
        mpz_t *p = malloc((n + 1) * sizeof *p);
        for (size_t i = 0; i <= n; i++) mpz_init_set_ui(p[i], 1 + tu_below(&rng, trial % 3 ? 100 : 5));
        check_chain((const mpz_t *)p, n + 1, NULL);
        pdt_chain_dims_free(p, n + 1);
    }
}

/* Without the cache the recursion enumerates every parenthesisation: same optimum. */
static void test_matrix_chain_no_memo(void **state)
{
    (void)state;
    tu_rng rng = {77};
    pdt_search_opts o;
    pdt_search_opts_init(&o);
    o.no_memo = true;
    for (int trial = 0; trial < 30; trial++) {
        size_t n = 2 + tu_below(&rng, 8);
        mpz_t *p = malloc((n + 1) * sizeof *p);
        for (size_t i = 0; i <= n; i++) mpz_init_set_ui(p[i], 1 + tu_below(&rng, 50));
        check_chain((const mpz_t *)p, n + 1, &o);
        pdt_chain_dims_free(p, n + 1);
    }
}

/* Dimensions near 2^40: every product exceeds 2^64, so must the optimum. */
static void test_matrix_chain_beyond_64_bits(void **state)
{
    (void)state;
    tu_rng rng = {9};
    for (int trial = 0; trial < 10; trial++) {
        size_t n = 3 + tu_below(&rng, 12);
        mpz_t *p = malloc((n + 1) * sizeof *p);
        for (size_t i = 0; i <= n; i++) {
            mpz_init_set_ui(p[i], 1);
            mpz_mul_2exp(p[i], p[i], 40);
            mpz_add_ui(p[i], p[i], tu_rand(&rng) % 1000000007u);
        }
        check_chain((const mpz_t *)p, n + 1, NULL);
        pdt_chain *c = NULL;
        pdt_error err;
        assert_int_equal(pdt_chain_new(&c, (const mpz_t *)p, n + 1, &err), PDT_OK);
        assert_int_equal(pdt_chain_solve(c, NULL, &err), PDT_OK);
        mpz_t cost;
        mpz_init(cost);
        pdt_chain_cost(cost, c);
        assert_true(mpz_sizeinbase(cost, 2) > 64);
        mpz_clear(cost);
        pdt_chain_free(&c);
        pdt_chain_dims_free(p, n + 1);
    }
}

/* The compact-key DP at sizes the generic recursion took seconds for, against
 * the DP written here; its statistics show every interval solved once. */
static void test_matrix_chain_compact_keys(void **state)
{
    (void)state;
    tu_rng rng = {14};
    size_t n = 160;
    mpz_t *p = malloc((n + 1) * sizeof *p);
    for (size_t i = 0; i <= n; i++) mpz_init_set_ui(p[i], 1 + tu_below(&rng, 100));
    check_chain((const mpz_t *)p, n + 1, NULL);
    pdt_chain *c = NULL;
    pdt_error err;
    assert_int_equal(pdt_chain_new(&c, (const mpz_t *)p, n + 1, &err), PDT_OK);
    assert_int_equal(pdt_chain_solve(c, NULL, &err), PDT_OK);
    assert_int_equal(pdt_chain_stats(c)->nodes, n * (n + 1) / 2);
    pdt_chain_free(&c);
    pdt_chain_dims_free(p, n + 1);
}

/* Products below 2^62 but optima above: the machine-integer DP overflows
 * part-way and the GMP recursion must take over, exactly. */
static void test_matrix_chain_overflow_midway(void **state)
{
    (void)state;
    tu_rng rng = {62};
    for (int trial = 0; trial < 3; trial++) {
        size_t n = 12 + tu_below(&rng, 10);
        mpz_t *p = malloc((n + 1) * sizeof *p);
        for (size_t i = 0; i <= n; i++) mpz_init_set_ui(p[i], (UINT64_C(1) << 20) - tu_below(&rng, 1000));
        check_chain((const mpz_t *)p, n + 1, NULL);
        pdt_chain *c = NULL;
        pdt_error err;
        assert_int_equal(pdt_chain_new(&c, (const mpz_t *)p, n + 1, &err), PDT_OK);
        assert_int_equal(pdt_chain_solve(c, NULL, &err), PDT_OK);
        mpz_t cost;
        mpz_init(cost);
        pdt_chain_cost(cost, c);
        assert_true(mpz_sizeinbase(cost, 2) > 62);
        mpz_clear(cost);
        pdt_chain_free(&c);
        pdt_chain_dims_free(p, n + 1);
    }
}

/* A time limit striking inside the DP: the order returned completes the
 * solved intervals greedily, is not claimed optimal and costs what it says. */
static void test_matrix_chain_time_limit(void **state)
{
    (void)state;
    tu_rng rng = {15};
    size_t n = 300;
    mpz_t *p = malloc((n + 1) * sizeof *p);
    for (size_t i = 0; i <= n; i++) mpz_init_set_ui(p[i], 1 + tu_below(&rng, 100));
    pdt_search_opts o;
    pdt_search_opts_init(&o);
    o.time_limit = 1e-9;
    pdt_chain *c = NULL;
    pdt_error err;
    assert_int_equal(pdt_chain_new(&c, (const mpz_t *)p, n + 1, &err), PDT_OK);
    assert_int_equal(pdt_chain_solve(c, &o, &err), PDT_OK);
    assert_false(pdt_chain_optimal(c));
    mpz_t got, want, again;
    mpz_inits(got, want, again, NULL);
    pdt_chain_cost(got, c);
    dp_optimum(want, (const mpz_t *)p, n);
    assert_true(mpz_cmp(got, want) >= 0);
    const char *s = pdt_chain_order(c);
    size_t lo = 0, hi = 0;
    assert_true(eval_order(&s, (const mpz_t *)p, again, &lo, &hi));
    assert_int_equal(hi, n - 1);
    assert_true(mpz_cmp(again, got) == 0);
    mpz_clears(got, want, again, NULL);
    pdt_chain_free(&c);
    pdt_chain_dims_free(p, n + 1);
}

/* The order a search picks, as a copy; *dp: whether the stats are the
 * compact-key DP's (every interval entered once, two cache reads a split). */
static char *order_with(bool *dp, const mpz_t *p, size_t n_dims, const pdt_search_opts *opts)
{
    pdt_chain *c = NULL;
    pdt_error err;
    assert_int_equal(pdt_chain_new(&c, p, n_dims, &err), PDT_OK);
    assert_int_equal(pdt_chain_solve(c, opts, &err), PDT_OK);
    const pdt_search_stats *st = pdt_chain_stats(c);
    size_t n = n_dims - 1;
    *dp = st->nodes == n * (n + 1) / 2 && st->memo_hits == 2 * st->candidates;
    char *order = strdup(pdt_chain_order(c));
    pdt_chain_free(&c);
    return order;
}

/* Among equal costs the first split wins, in the compact-key DP (which
 * keeps no decisions and finds them again while rebuilding, its vector
 * only the value and looking the split up afterwards) exactly as in the
 * generic recursion (min_leaf = 1, which every chain meets, keeps the DP
 * out; the stats tell the two apart).  Dimensions in
 * 1..3 make ties everywhere; up to 40 matrices cross whole and partial
 * blocks of eight splits. */
static void test_matrix_chain_ties_go_to_the_first_split(void **state)
{
    (void)state;
    tu_rng rng = {2718};
    pdt_search_opts generic;
    pdt_search_opts_init(&generic);
    generic.min_leaf = 1;
    for (int trial = 0; trial < 40; trial++) {
        size_t n = 2 + tu_below(&rng, trial < 30 ? 12 : 39);
        mpz_t *p = malloc((n + 1) * sizeof *p);
        for (size_t i = 0; i <= n; i++) mpz_init_set_ui(p[i], 1 + tu_below(&rng, 3));
        bool dp_used = false, rec_dp = true;
        char *dp = order_with(&dp_used, (const mpz_t *)p, n + 1, NULL);
        char *rec = order_with(&rec_dp, (const mpz_t *)p, n + 1, &generic);
        assert_true(dp_used);
        assert_false(rec_dp);
        if (strcmp(dp, rec) != 0) fprintf(stderr, "n %zu: DP %s, recursion %s\n", n, dp, rec);
        assert_string_equal(dp, rec);
        free(dp);
        free(rec);
        pdt_chain_dims_free(p, n + 1);
    }
}

static void expect_parse_error(const char *text, bool is_file, const char *message)
{
    mpz_t *d = NULL;
    size_t n = 0;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_chain_parse_dims(&d, &n, text, strlen(text), is_file ? "dims.txt" : "option --dims",
                                         is_file, &err);
    if (st == PDT_OK || !strstr(err.message, message)) fprintf(stderr, "got: %s\n", err.message);
    assert_int_equal(st, PDT_EINVAL);
    assert_non_null(strstr(err.message, message));
}

static void test_matrix_chain_parse(void **state)
{
    (void)state;
    mpz_t *d = NULL;
    size_t n = 0;
    pdt_error err;
    const char *text = "# dims\n30, 35 15\n\t5 10 # five and ten\r\n20 25\n";
    assert_int_equal(pdt_chain_parse_dims(&d, &n, text, strlen(text), "f", true, &err), PDT_OK);
    assert_int_equal(n, 7);
    assert_int_equal(mpz_get_ui(d[6]), 25);
    pdt_chain_dims_free(d, n);
    const char *big = "123456789012345678901234567890 2 3";
    assert_int_equal(pdt_chain_parse_dims(&d, &n, big, strlen(big), "f", false, &err), PDT_OK);
    assert_int_equal(mpz_sizeinbase(d[0], 10), 30);
    pdt_chain_dims_free(d, n);
    expect_parse_error("30 35", false, "a chain needs at least two matrices");
    expect_parse_error("", true, "dims.txt: a chain needs at least two matrices");
    expect_parse_error("30 3x5 15", false, "\"3x5\" (number 2) is not a positive integer");
    expect_parse_error("1 2\n3 -4 5", true, "dims.txt:2:3: \"-4\" is not a positive integer");
    expect_parse_error("1 0 5", false, "\"0\" (number 2) is not a positive integer");
    expect_parse_error("1 2.5 5", false, "\"2.5\" (number 2) is not a positive integer");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_chain_textbook),
        cmocka_unit_test(test_matrix_chain_two_matrices),
        cmocka_unit_test(test_matrix_chain_random_vs_dp),
        cmocka_unit_test(test_matrix_chain_no_memo),
        cmocka_unit_test(test_matrix_chain_compact_keys),
        cmocka_unit_test(test_matrix_chain_overflow_midway),
        cmocka_unit_test(test_matrix_chain_time_limit),
        cmocka_unit_test(test_matrix_chain_beyond_64_bits),
        cmocka_unit_test(test_matrix_chain_ties_go_to_the_first_split),
        cmocka_unit_test(test_matrix_chain_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
