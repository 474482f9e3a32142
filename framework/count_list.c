/* Teaching: every K-permutation of a small rule set, each decoded as a
 * level-order traversal (He & Little §3.1): insert the rules one by one from
 * the root, going left or right as the ancestry relation says; the
 * permutation is valid when every rule finds its place and the tree so built
 * has this very level order.  The number of valid permutations is the number
 * of proper trees, which the engine's counting recursion must reproduce. */
#include <stdlib.h>
#include <string.h>

#include "count_impl.h"

typedef struct lister {
    const pdt_ruleset *rs;
    const uint32_t *cand; /* the chosen candidates */
    size_t m;
    uint32_t k;
    char **text;          /* readable form of each chosen candidate */
    uint32_t *comb, *perm, *rules;
    int32_t *parent, (*child)[2];
    uint8_t *left;
    const char **ptext;
    uint64_t valid;
    pdt_perm_fn fn;
    void *user;
    pdt_error *err;
} lister;

static pdt_status describe(char **out, const pdt_ruleset *rs, size_t r, pdt_error *err)
{
    const pdt_dataset *ds = pdt_ruleset_dataset(rs);
    size_t d = pdt_dataset_dims(ds);
    const char **names = malloc((d + 1) * sizeof *names);
    pdt_rule rule;
    if (!names) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t j = 0; j < d; j++) names[j] = pdt_dataset_feature_name(ds, j);
    pdt_status st = pdt_ruleset_export(&rule, rs, r, err);
    pdt_buf b;
    pdt_buf_init(&b);
    if (!st) {
        st = rule.cls->describe(&b, &rule, names, d, err);
        pdt_rule_clear(&rule);
    }
    free(names);
    if (!st && (b.failed || !b.data)) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (st) pdt_buf_clear(&b);
    else *out = b.data;
    return st;
}

/* Inserts perm[t] below the tree of perm[0..t); false (with *blocker) when a
 * rule on the way is neither its left nor its right ancestor. */
static pdt_status insert(lister *L, uint32_t t, int32_t *blocker, bool *ok)
{
    int32_t q = 0;
    for (;;) {
        pdt_relation rel = pdt_ruleset_relation(L->rs, L->cand[L->perm[q]], L->cand[L->perm[t]]);
        if (rel == PDT_REL_BOTH)
            return pdt_error_set(L->err, PDT_EINVAL, "rule family allows a rule on both sides of another "
                                 "(axiom 4 fails): permutations do not determine trees");
        if (rel == PDT_REL_NONE) {
            *blocker = q;
            *ok = false;
            return PDT_OK;
        }
        int side = rel == PDT_REL_LEFT ? 0 : 1;
        if (L->child[q][side] < 0) {
            L->child[q][side] = (int32_t)t;
            L->parent[t] = q;
            L->left[t] = side == 0;
            *ok = true;
            return PDT_OK;
        }
        q = L->child[q][side];
    }
}

/* First position where the level order (left before right) of the tree differs from 0..k−1, or −1. */
static int32_t level_order_mismatch(const lister *L)
{
    int32_t queue[64];
    uint32_t head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int32_t q = queue[head];
        if (q != (int32_t)head) return (int32_t)head;
        head++;
        for (int s = 0; s < 2; s++)
            if (L->child[q][s] >= 0) queue[tail++] = L->child[q][s];
    }
    return -1;
}

static pdt_status decode(lister *L)
{
    const uint32_t k = L->k;
    for (uint32_t t = 0; t < k; t++) {
        L->child[t][0] = L->child[t][1] = -1;
        L->parent[t] = -1;
        L->left[t] = 0;
        L->rules[t] = L->cand[L->perm[t]];
        L->ptext[t] = L->text[L->perm[t]];
    }
    pdt_perm p = {k, L->rules, L->ptext, true, L->parent, L->left, -1, -1};
    for (uint32_t t = 1; t < k && p.valid; t++) {
        pdt_status st = insert(L, t, &p.blocker, &p.valid);
        if (st) return st;
        if (!p.valid) p.bad = (int32_t)t;
    }
    if (p.valid && k > 0 && (p.bad = level_order_mismatch(L)) >= 0) p.valid = false;
    L->valid += p.valid;
    if (L->fn) L->fn(L->user, &p);
    return PDT_OK;
}

/* Every ordering of the combination (lexicographic in positions). */
static pdt_status permutations(lister *L, uint32_t t, uint32_t used)
{
    if (t == L->k) return decode(L);
    for (uint32_t i = 0; i < L->k; i++) {
        if (used >> i & 1) continue;
        L->perm[t] = L->comb[i];
        pdt_status st = permutations(L, t + 1, used | 1u << i);
        if (st) return st;
    }
    return PDT_OK;
}

static pdt_status combinations(lister *L)
{
    const uint32_t k = L->k;
    for (uint32_t t = 0; t < k; t++) L->comb[t] = t;
    for (;;) {
        pdt_status st = permutations(L, 0, 0);
        if (st) return st;
        uint32_t t = k;
        while (t > 0 && L->comb[t - 1] == L->m - k + t - 1) t--;
        if (t == 0) return PDT_OK;
        L->comb[t - 1]++;
        for (uint32_t i = t; i < k; i++) L->comb[i] = L->comb[i - 1] + 1;
    }
}

static pdt_status check_pick(const uint32_t *pick, size_t n_pick, size_t m, pdt_error *err)
{
    for (size_t i = 0; i < n_pick; i++) {
        if (pick[i] >= m)
            return pdt_error_set(err, PDT_EINVAL, "option --pick: there is no rule %u (the family has %zu "
                                 "candidates, 0..%zu)", pick[i], m, m ? m - 1 : 0);
        for (size_t j = 0; j < i; j++)
            if (pick[j] == pick[i]) return pdt_error_set(err, PDT_EINVAL, "option --pick: rule %u given twice", pick[i]);
    }
    return PDT_OK;
}

static pdt_status report_candidates(const pdt_ruleset *rs, pdt_candidate_fn fn, void *user, pdt_error *err)
{
    for (size_t r = 0; r < pdt_ruleset_size(rs) && fn; r++) {
        char *text = NULL;
        pdt_status st = describe(&text, rs, r, err);
        if (st) return st;
        size_t n_def;
        const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
        fn(user, r, text, def, n_def);
        free(text);
    }
    return PDT_OK;
}

static pdt_status run(lister *L, pdt_count_report *r, pdt_error *err)
{
    const uint32_t k = L->k;
    L->comb = calloc(k + 1, sizeof *L->comb);
    L->perm = calloc(k + 1, sizeof *L->perm);
    L->rules = calloc(k + 1, sizeof *L->rules);
    L->parent = calloc(k + 1, sizeof *L->parent);
    L->child = calloc(k + 1, sizeof *L->child);
    L->left = calloc(k + 1, 1);
    L->ptext = calloc(k + 1, sizeof *L->ptext);
    L->text = calloc(L->m + 1, sizeof *L->text);
    if (!L->comb || !L->perm || !L->rules || !L->parent || !L->child || !L->left || !L->ptext || !L->text)
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; i < L->m; i++) {
        pdt_status st = describe(&L->text[i], L->rs, L->cand[i], err);
        if (st) return st;
    }
    pdt_status st = combinations(L);
    if (!st) st = pdt_count_on(r->proper, L->rs, L->cand, L->m, k, 0, err);
    if (!st && mpz_cmp_ui(r->proper, L->valid) != 0)
        st = pdt_error_set(err, PDT_EINTERNAL, "the engine counts %lu proper trees, the permutations give %llu",
                           mpz_get_ui(r->proper), (unsigned long long)L->valid);
    return st;
}

static void lister_free(lister *L)
{
    if (L->text)
        for (size_t i = 0; i < L->m; i++) free(L->text[i]);
    free(L->text);
    free(L->comb);
    free(L->perm);
    free(L->rules);
    free(L->parent);
    free(L->child);
    free(L->left);
    free(L->ptext);
}

pdt_status pdt_count_list(pdt_count_report *r, const pdt_dataset *ds, const char *rules,
                          const pdt_rule_params *params, const uint32_t *pick, size_t n_pick,
                          uint32_t size, uint64_t max_perms, pdt_candidate_fn candidates,
                          pdt_perm_fn perms, void *user, pdt_error *err)
{
    pdt_ruleset *rs = NULL;
    pdt_status st = pdt_ruleset_build(&rs, ds, rules, params, err);
    if (st) return st;
    size_t total = pdt_ruleset_size(rs), m = pick ? n_pick : total;
    uint32_t *cand = malloc((m + 1) * sizeof *cand);
    if (!cand) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (!st && pick) st = check_pick(pick, n_pick, total, err);
    for (size_t i = 0; i < m && !st; i++) cand[i] = pick ? pick[i] : (uint32_t)i;
    if (!st && size > 12) st = pdt_error_set(err, PDT_ELIMIT, "listing trees of more than 12 rules is not supported");
    if (!st) {
        mpz_bin_uiui(r->combinations, m, size);
        mpz_fac_ui(r->factorial, size);
        mpz_mul(r->permutations, r->combinations, r->factorial);
        r->n_rules = m;
        r->size = size;
        if (size > 0 && mpz_cmp_ui(r->permutations, max_perms) > 0)
            st = pdt_error_set(err, PDT_ELIMIT, "%zu rules give more than %llu %u-permutations to list; choose "
                               "a few rules with --pick", m, (unsigned long long)max_perms, size);
    }
    if (!st) st = report_candidates(rs, candidates, user, err);
    if (!st && size > 0) {
        lister L = {rs, cand, m, size, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, perms, user, err};
        st = run(&L, r, err);
        lister_free(&L);
    }
    free(cand);
    pdt_ruleset_free(&rs);
    return st;
}
