/* The compact-key recursion (framework/dp.c) on a problem written here, in
 * every form a plugin may take (dense or hashed keys, listed or stepped
 * children, one or two components), against a DP written here; the
 * fallback to the generic recursion on overflow; and the plugin errors
 * (key out of range, a cycle, more splits than announced).
 *
 * The problem, "stairs": key k (0..n) is k steps still to climb.  A leaf is
 * feasible only at k = 0 (value (0, 0)).  Split j (1 <= j <= min(k, J)) climbs
 * j steps: children k − j and 0, cost (w(k, j), 1) with w(k, j) = (j − 2)² + 1 +
 * (k·j) mod 5 — so the optimum depends on more than k.  Component 1 counts
 * the height (max + 1). */
#include <stdlib.h>
#include <string.h>

#include "pdt_plugin.h"
#include "test_util.h"

enum { STEPS = 9 };

typedef struct stairs {
    uint32_t n;
    bool hashed, stepped, two;
    int fault;         /* 1: a key out of range, 2: a cycle, 3: too many splits */
    uint64_t huge;     /* added to every cost (overflow) */
} stairs;

static uint64_t key_of(const stairs *s, uint64_t k) { return s->hashed ? k * 1000003u + 7 : k; }
static uint64_t k_of(const stairs *s, uint64_t key) { return s->hashed ? (key - 7) / 1000003u : key; }
static uint64_t cost(const stairs *s, uint64_t k, uint64_t j)
{
    return (j - 2) * (j - 2) + 1 + (k * j) % 5 + s->huge;
}

static pdt_status st_setup(pdt_dp_info *info, void *inst, const pdt_node *root, pdt_error *err)
{
    (void)root;
    (void)err;
    const stairs *s = inst;
    *info = (pdt_dp_info){true, key_of(s, s->n), s->hashed ? 0 : s->n + 1, STEPS,
                          {PDT_DP_SUM, s->two ? PDT_DP_MAX : PDT_DP_UNUSED}};
    return PDT_OK;
}

static bool st_leaf(uint64_t v[2], void *inst, uint64_t key)
{
    v[0] = v[1] = 0;
    return k_of(inst, key) == 0;
}

/* Split i of k climbs j = m − i steps (m = min(k, STEPS)): children k − j and 0,
 * payload k − j, so children and payloads step upwards with i. */
static uint32_t st_splits(pdt_dp_splits *out, void *inst, uint64_t key)
{
    const stairs *s = inst;
    uint64_t k = k_of(s, key), m = k < STEPS ? k : STEPS;
    if (s->stepped) {
        out->stepped = true;
        out->left0 = key_of(s, k - m);
        out->left_step = key_of(s, 1) - key_of(s, 0);
        out->right0 = key_of(s, 0);
        out->right_step = 0;
        out->payload0 = (int64_t)(k - m);
    }
    for (uint64_t i = 0; i < m; i++) {
        if (!s->stepped) {
            out->left[i] = key_of(s, k - m + i);
            out->right[i] = key_of(s, 0);
            out->payload[i] = (int64_t)(k - m + i);
        }
        out->cost0[i] = cost(s, k, m - i);
        if (out->cost1) out->cost1[i] = 1;
        out->overflow |= out->cost0[i] >= PDT_DP_LIMIT;
    }
    if (m && s->fault == 1 && k == s->n) out->left[0] = s->hashed ? UINT64_MAX : s->n + 5;
    if (m && s->fault == 2 && k == s->n / 2) out->left[0] = key;
    return (uint32_t)m + (s->fault == 3 && k == s->n);
}

static pdt_status st_value(void *value, void *inst, const uint64_t v[2], pdt_error *err)
{
    (void)inst;
    (void)err;
    *(int64_t *)value = (int64_t)v[0];
    return PDT_OK;
}

/* The generic slots (the fallback): the node's items word holds k. */
static pdt_status st_gleaf(void *value, void *inst, const pdt_node *node, pdt_error *err)
{
    (void)inst;
    (void)err;
    *(int64_t *)value = node->items[0] == 0 ? 0 : INT64_MAX;
    return PDT_OK;
}

static pdt_status st_branch(void *value, void *inst, const pdt_node *node, int64_t payload,
                            const void *left, const void *right, pdt_error *err)
{
    (void)err;
    int64_t l = *(const int64_t *)left, r = *(const int64_t *)right;
    uint64_t k = node->items[0], j = k - (uint64_t)payload;
    int64_t v; /* beyond int64 counts as infeasible: such trees are far from the optimum here */
    bool over = l == INT64_MAX || r == INT64_MAX || __builtin_add_overflow(l, r, &v) ||
                __builtin_add_overflow(v, (int64_t)cost(inst, k, j), &v);
    *(int64_t *)value = over ? INT64_MAX : v;
    return PDT_OK;
}

static uint32_t st_split_count(void *inst, const pdt_node *node)
{
    (void)inst;
    return node->items[0] < STEPS ? (uint32_t)node->items[0] : STEPS;
}

static pdt_status st_split(bool *ok, int64_t *payload, pdt_child *left, pdt_child *right, void *inst,
                           const pdt_node *node, uint32_t i, pdt_error *err)
{
    (void)inst;
    (void)err;
    uint64_t k = node->items[0], m = k < STEPS ? k : STEPS;
    left->items[0] = k - m + i;
    right->items[0] = 0;
    left->n_items = (uint32_t)left->items[0];
    right->n_items = 0;
    left->n_rules = right->n_rules = 0;
    *payload = (int64_t)(k - m + i);
    *ok = true;
    return PDT_OK;
}

static const pdt_problem_class stairs_class = {
    .version = PDT_PROBLEM_V1, .name = "stairs", .description = "test", .flags = PDT_PROBLEM_MEMO,
    .algebra = &pdt_algebra_min_int64, .leaf = st_gleaf, .branch = st_branch,
    .split_count = st_split_count, .split = st_split,
    .dp_setup = st_setup, .dp_leaf = st_leaf, .dp_splits = st_splits, .dp_value = st_value,
};

/* The optimum written here: best[k] = min_j best[k − j] + cost(k, j). */
static uint64_t stairs_dp(const stairs *s)
{
    uint64_t *best = calloc(s->n + 1, sizeof *best), v;
    for (uint64_t k = 1; k <= s->n; k++) {
        best[k] = UINT64_MAX;
        for (uint64_t j = 1; j <= k && j <= STEPS; j++)
            if (best[k - j] + cost(s, k, j) < best[k]) best[k] = best[k - j] + cost(s, k, j);
    }
    v = best[s->n];
    free(best);
    return v;
}

static pdt_status run(const stairs *s, int64_t *value, pdt_search_result *res, pdt_error *err)
{
    uint64_t word = s->n;
    pdt_node root = {&word, s->n, NULL, 0, 0};
    pdt_search_opts o;
    pdt_search_opts_init(&o);
    *res = (pdt_search_result){.value = value};
    return pdt_search(res, &stairs_class, (void *)s, NULL, 1, &root, &o, err);
}

/* The tree's own cost (preorder payloads: the steps left k − j, the k − j
 * subtree, then the leaf 0). */
static uint64_t replay(const stairs *s, const int64_t *tree, size_t len)
{
    uint64_t k = s->n, total = 0;
    size_t pos = 0;
    while (pos < len && tree[pos] != PDT_LEAF) {
        uint64_t rest = (uint64_t)tree[pos++];
        assert_true(rest < k && k - rest <= STEPS);
        total += cost(s, k, k - rest);
        k = rest;
    }
    assert_int_equal(k, 0);
    return total;
}

static void test_dp_forms_agree_with_the_dp(void **state)
{
    (void)state;
    for (int form = 0; form < 8; form++)
        for (uint32_t n = 0; n < 3000; n = n * 3 + 1) {
            stairs s = {n, form & 1, (form & 2) != 0, (form & 4) != 0, 0, 0};
            int64_t v = 0;
            pdt_search_result res;
            pdt_error err;
            assert_int_equal(run(&s, &v, &res, &err), PDT_OK);
            assert_true(res.found && res.optimal);
            assert_int_equal((uint64_t)v, stairs_dp(&s));
            assert_int_equal(replay(&s, res.tree, res.tree_len), stairs_dp(&s));
            assert_int_equal(res.stats.nodes, n + 1); /* every key once: the DP ran */
            pdt_search_result_clear(&res);
        }
}

/* Sums beyond 2^62: the generic recursion (int64 here) finishes exactly. */
static void test_dp_overflow_falls_back(void **state)
{
    (void)state;
    stairs s = {30, false, false, false, 0, UINT64_C(1) << 60}; /* at least 4 climbs: >= 2^62 */
    int64_t v = 0;
    pdt_search_result res;
    pdt_error err;
    assert_int_equal(run(&s, &v, &res, &err), PDT_OK);
    assert_true(res.found && res.optimal);
    assert_true((uint64_t)v >= PDT_DP_LIMIT);
    assert_int_equal((uint64_t)v, stairs_dp(&s));
    pdt_search_result_clear(&res);
}

static void expect_fault(bool hashed, int fault, const char *message)
{
    stairs s = {40, hashed, false, false, fault, 0};
    int64_t v = 0;
    pdt_search_result res;
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(run(&s, &v, &res, &err), PDT_EPLUGIN);
    if (!strstr(err.message, message)) fprintf(stderr, "got: %s\n", err.message);
    assert_non_null(strstr(err.message, message));
    assert_non_null(strstr(err.message, "\"stairs\""));
    pdt_search_result_clear(&res);
}

static void test_dp_plugin_errors(void **state)
{
    (void)state;
    expect_fault(false, 1, "outside its key space");
    expect_fault(true, 1, "outside its key space");
    expect_fault(false, 2, "is its own descendant");
    expect_fault(true, 2, "is its own descendant");
    expect_fault(false, 3, "more than the 9 it announced");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dp_forms_agree_with_the_dp),
        cmocka_unit_test(test_dp_overflow_falls_back),
        cmocka_unit_test(test_dp_plugin_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
