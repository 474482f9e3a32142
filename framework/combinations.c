/* The paper's driver (He & Little eqs. 12–13): the best tree with at most K
 * branch nodes is the min over k = 0..K and over every k-combination c of
 * the rules of sodt(c), the optimal proper tree using exactly the rules of c.
 * Exponentially slower than the fused recursion; kept as a reference engine
 * that the fused one is tested against. */
#include <stdlib.h>
#include <string.h>

#include "engine_impl.h"

typedef struct comb_run {
    pdt_search_state *s;
    const pdt_node *root;
    uint32_t *idx, *rules, *best_rules;
    uint32_t best_k;
    bool any;
    void *inc, *v;
} comb_run;

/* sodt on the current combination; keeps it when it beats the incumbent. */
static pdt_status try_combination(comb_run *c, uint32_t k)
{
    for (uint32_t j = 0; j < k; j++) c->rules[j] = c->root->rules[c->idx[j]];
    pdt_node node = *c->root;
    pdt_lazy_rules lz = {c->rules, k, UINT32_MAX, PDT_REL_LEFT};
    bool found = false;
    pdt_status st = pdt_engine_solve(c->s, &node, &lz, k, c->s->o.max_depth, c->inc, &found, c->v);
    if (st || !found) return st;
    c->s->alg->set(c->inc, c->v);
    memcpy(c->best_rules, c->rules, k * sizeof *c->rules);
    c->best_k = k;
    c->any = true;
    return PDT_OK;
}

/* Lexicographic k-combinations of 0..n-1. */
static pdt_status all_combinations(comb_run *c, uint32_t n, uint32_t k)
{
    for (uint32_t j = 0; j < k; j++) c->idx[j] = j;
    for (;;) {
        pdt_status st = try_combination(c, k);
        if (st || c->s->aborted) return st;
        if (!pdt_comb_next(c->idx, k, n)) return PDT_OK;
    }
}

static pdt_status run(comb_run *c, pdt_search_result *res)
{
    pdt_search_state *s = c->s;
    uint32_t n = c->root->n_rules;
    uint32_t kmax = s->o.max_size < n ? s->o.max_size : n;
    pdt_status st = PDT_OK;
    for (uint32_t k = 0; k <= kmax && !st && !s->aborted; k++) st = all_combinations(c, n, k);
    if (st) return st;
    res->found = c->any;
    res->optimal = !s->aborted;
    s->alg->set(res->value, c->inc);
    if (!c->any) return PDT_OK;
    /* solve the winning combination again and rebuild its tree */
    pdt_node node = *c->root;
    node.rules = c->best_rules;
    node.n_rules = c->best_k;
    pdt_lazy_rules lz = {c->best_rules, c->best_k, UINT32_MAX, PDT_REL_LEFT};
    bool found = false;
    s->aborted = false;
    s->has_deadline = false;
    s->o.stop = NULL;
    s->alg->set_zero(c->inc);
    st = pdt_engine_solve(s, &node, &lz, c->best_k, s->o.max_depth, c->inc, &found, c->v);
    if (!st && !found) st = pdt_error_set(s->err, PDT_EINTERNAL, "the best combination vanished");
    if (!st) st = pdt_engine_rebuild(s, &node, c->best_k, s->o.max_depth, &res->tree, &res->tree_len);
    return st;
}

pdt_status pdt_search_combinations(pdt_search_result *res, const pdt_problem_class *problem,
                                   void *inst, const pdt_ruleset *rs, const pdt_node *root,
                                   const pdt_search_opts *opts, pdt_error *err)
{
    if (!problem->algebra->selective || problem->split)
        return pdt_error_set(err, PDT_EINVAL, "the combination driver needs rules and a min algebra");
    pdt_search_opts o = *opts;
    o.exact_size = true;
    o.no_memo = true; /* a combination is not a function of the items */
    pdt_search_state s;
    res->tree = NULL;
    res->tree_len = 0;
    pdt_status st = pdt_engine_begin(&s, problem, inst, rs, pdt_ruleset_words(rs), root->n_rules, &o, err);
    if (st) {
        pdt_engine_end(&s);
        return st;
    }
    uint32_t n = root->n_rules ? root->n_rules : 1;
    comb_run c = {&s, root, calloc(n, sizeof(uint32_t)), calloc(n, sizeof(uint32_t)),
                  calloc(n, sizeof(uint32_t)), 0, false, malloc(s.alg->size), malloc(s.alg->size)};
    if (!c.idx || !c.rules || !c.best_rules || !c.inc || !c.v)
        st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (!st) {
        s.alg->init(c.inc);
        s.alg->init(c.v);
        s.alg->set_zero(c.inc);
        st = run(&c, res);
        s.alg->clear(c.inc);
        s.alg->clear(c.v);
    }
    s.stats.seconds = pdt_engine_elapsed(&s);
    res->stats = s.stats;
    pdt_engine_end(&s);
    free(c.idx);
    free(c.rules);
    free(c.best_rules);
    free(c.inc);
    free(c.v);
    return st;
}
