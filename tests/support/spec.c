/* The brute-force specification (see spec.h): every k-permutation of every
 * k-combination, decoded, checked, evaluated.  Plain on purpose. */
#include "spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A precondition that holds in every build (assert vanishes under NDEBUG, and
 * the oracles run in release builds): a broken one is reported and aborts. */
#define SPEC_REQUIRE(cond)                                                                  \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "%s:%d: specification precondition failed: %s\n", __FILE__,     \
                    __LINE__, #cond);                                                       \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

void spec_problem_init(spec_problem *p, size_t n_rows, size_t n_rules, size_t n_classes)
{
    SPEC_REQUIRE(n_rows <= SPEC_MAX_ROWS && n_classes >= 1);
    p->n_rows = n_rows;
    p->n_rules = n_rules;
    p->n_classes = n_classes;
    p->label = calloc(n_rows + 1, sizeof *p->label);
    p->class_weight = calloc(n_classes, sizeof *p->class_weight);
    p->left = calloc(n_rules + 1, sizeof *p->left);
    p->def = calloc(n_rules + 1, sizeof *p->def);
    p->n_def = calloc(n_rules + 1, sizeof *p->n_def);
    SPEC_REQUIRE(p->label && p->class_weight && p->left && p->def && p->n_def);
    for (size_t c = 0; c < n_classes; c++) p->class_weight[c] = 1;
}

void spec_problem_free(spec_problem *p)
{
    for (size_t r = 0; r < p->n_rules; r++) free(p->def[r]);
    free(p->label);
    free(p->class_weight);
    free(p->left);
    free(p->def);
    free(p->n_def);
    memset(p, 0, sizeof *p);
}

void spec_set_left(spec_problem *p, size_t rule, size_t row, bool left)
{
    SPEC_REQUIRE(rule < p->n_rules && row < p->n_rows);
    uint64_t bit = UINT64_C(1) << row;
    p->left[rule] = left ? p->left[rule] | bit : p->left[rule] & ~bit;
}

void spec_set_def(spec_problem *p, size_t rule, const uint32_t *rows, size_t n)
{
    SPEC_REQUIRE(rule < p->n_rules && n >= 1);
    free(p->def[rule]);
    p->def[rule] = malloc(n * sizeof *rows);
    SPEC_REQUIRE(p->def[rule]);
    for (size_t k = 0; k < n; k++) {
        SPEC_REQUIRE(rows[k] < p->n_rows);
        p->def[rule][k] = rows[k];
    }
    p->n_def[rule] = n;
}

static bool on_left(const spec_problem *p, size_t rule, uint32_t row)
{
    return (p->left[rule] >> row) & 1;
}

char spec_relation(const spec_problem *p, size_t i, size_t j)
{
    if (i == j) return 0;
    size_t n_left = 0;
    for (size_t k = 0; k < p->n_def[j]; k++) n_left += on_left(p, i, p->def[j][k]);
    if (n_left == p->n_def[j]) return 'L';
    if (n_left == 0) return 'R';
    return 0;
}

bool spec_decode(spec_tree *t, const spec_problem *p, const uint32_t *perm, size_t k)
{
    SPEC_REQUIRE(k <= SPEC_MAX_K);
    t->n = 0;
    for (size_t a = 0; a < k; a++) {
        t->rule[a] = perm[a];
        t->child[a][0] = t->child[a][1] = -1;
    }
    if (k == 0) return true;
    t->n = 1; /* the root */
    for (size_t a = 1; a < k; a++) {
        int node = 0;
        for (;;) {
            char rel = spec_relation(p, t->rule[node], perm[a]);
            if (!rel) return false;
            int side = rel == 'L' ? 0 : 1;
            if (t->child[node][side] < 0) {
                t->child[node][side] = (int)a;
                break;
            }
            node = t->child[node][side];
        }
        t->n++;
    }
    /* the level-order traversal (left before right) must be the permutation */
    int queue[SPEC_MAX_K];
    size_t head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int node = queue[head];
        if (t->rule[node] != perm[head]) return false;
        head++;
        for (int side = 0; side < 2; side++)
            if (t->child[node][side] >= 0) queue[tail++] = t->child[node][side];
    }
    return tail == k;
}

static int64_t leaf_cost(const spec_problem *p, uint64_t items)
{
    int64_t total = 0, best = 0;
    for (size_t c = 0; c < p->n_classes; c++) {
        int64_t n = 0;
        for (size_t i = 0; i < p->n_rows; i++)
            if (((items >> i) & 1) && p->label[i] == c) n++;
        int64_t w = p->class_weight[c] * n;
        total += w;
        if (w > best) best = w;
    }
    return total - best;
}

static void eval_node(spec_eval *e, const spec_problem *p, const spec_tree *t, int node,
                      uint64_t items, uint32_t depth)
{
    if (node < 0) {
        uint32_t n = (uint32_t)__builtin_popcountll(items);
        e->cost += leaf_cost(p, items);
        if (depth > e->depth) e->depth = depth;
        if (n < e->min_leaf) e->min_leaf = n;
        return;
    }
    uint64_t left = items & p->left[t->rule[node]];
    uint64_t right = items & ~p->left[t->rule[node]];
    eval_node(e, p, t, t->child[node][0], left, depth + 1);
    eval_node(e, p, t, t->child[node][1], right, depth + 1);
}

void spec_evaluate(spec_eval *e, const spec_problem *p, const spec_tree *t)
{
    uint64_t all = p->n_rows == 64 ? ~UINT64_C(0) : (UINT64_C(1) << p->n_rows) - 1;
    e->cost = 0;
    e->depth = 0;
    e->min_leaf = UINT32_MAX;
    eval_node(e, p, t, t->n ? 0 : -1, all, 0);
}

/* Next permutation in lexicographic order; false after the last. */
static bool next_permutation(uint32_t *a, size_t k)
{
    if (k < 2) return false;
    size_t i = k - 1;
    while (i > 0 && a[i - 1] >= a[i]) i--;
    if (i == 0) return false;
    size_t j = k - 1;
    while (a[j] <= a[i - 1]) j--;
    uint32_t tmp = a[i - 1];
    a[i - 1] = a[j];
    a[j] = tmp;
    for (size_t l = i, r = k - 1; l < r; l++, r--) {
        tmp = a[l];
        a[l] = a[r];
        a[r] = tmp;
    }
    return true;
}

/* Every permutation of one k-combination. */
static void solve_combination(spec_result *r, const spec_problem *p, const spec_limits *lim,
                              const uint32_t *comb, size_t k)
{
    uint32_t perm[SPEC_MAX_K];
    memcpy(perm, comb, k * sizeof *perm);
    do {
        r->permutations++;
        spec_tree t;
        if (!spec_decode(&t, p, perm, k)) continue;
        spec_eval e;
        spec_evaluate(&e, p, &t);
        bool leaves_ok = k == 0 || e.min_leaf >= lim->min_leaf;
        if (leaves_ok) r->count[k]++;
        bool depth_ok = lim->max_depth == SPEC_NO_LIMIT || e.depth <= lim->max_depth;
        if (leaves_ok && depth_ok && e.cost < r->best) {
            r->best = e.cost;
            r->best_k = k;
            memcpy(r->best_perm, perm, k * sizeof *perm);
        }
    } while (next_permutation(perm, k));
}

void spec_solve(spec_result *r, const spec_problem *p, const spec_limits *lim)
{
    SPEC_REQUIRE(lim->max_size <= SPEC_MAX_K);
    memset(r, 0, sizeof *r);
    r->best = INT64_MAX;
    for (size_t k = 0; k <= lim->max_size && k <= p->n_rules; k++) {
        uint32_t comb[SPEC_MAX_K];
        for (size_t a = 0; a < k; a++) comb[a] = (uint32_t)a;
        for (;;) {
            solve_combination(r, p, lim, comb, k);
            size_t a = k; /* next k-combination of 0..M-1 in lexicographic order */
            while (a > 0 && comb[a - 1] == p->n_rules - k + a - 1) a--;
            if (a == 0) break;
            comb[a - 1]++;
            for (size_t b = a; b < k; b++) comb[b] = comb[b - 1] + 1;
        }
    }
}

uint64_t spec_permutations(size_t m, uint32_t k)
{
    uint64_t total = 0, term = 1;
    for (uint32_t j = 0; j <= k && j <= m; j++) {
        total += term;
        if (term > UINT64_MAX / (m + 1)) return UINT64_MAX;
        term *= (uint64_t)(m - j);
    }
    return total;
}
