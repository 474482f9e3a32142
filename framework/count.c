/* Counting proper trees: the recursion under the (+, ×) algebra over GMP
 * integers.  Each proper tree of exactly K branch nodes is one valid
 * K-permutation (its level-order traversal) of one K-combination. */
#include <stdlib.h>

#include "bitset.h"
#include "count_impl.h"

static pdt_status count_leaf(void *value, void *inst, const pdt_node *node, pdt_error *err)
{
    (void)inst;
    (void)node;
    (void)err;
    mpz_set_ui((mpz_ptr)value, 1);
    return PDT_OK;
}

static const pdt_problem_class count_problem = {
    .version = PDT_PROBLEM_V1,
    .name = "count",
    .description = "number of proper trees",
    .flags = PDT_PROBLEM_MEMO,
    .algebra = &pdt_algebra_count,
    .leaf = count_leaf,
};

void pdt_count_report_init(pdt_count_report *r)
{
    r->n_rules = 0;
    r->size = 0;
    mpz_inits(r->proper, r->combinations, r->factorial, r->permutations, NULL);
}

void pdt_count_report_clear(pdt_count_report *r)
{
    mpz_clears(r->proper, r->combinations, r->factorial, r->permutations, NULL);
}

pdt_status pdt_count_on(mpz_ptr out, const pdt_ruleset *rs, const uint32_t *ids, size_t n_ids, uint32_t size,
                        uint32_t min_leaf, pdt_error *err)
{
    const pdt_dataset *ds = pdt_ruleset_dataset(rs);
    size_t words = pdt_ruleset_words(rs);
    uint64_t *all = calloc(words + 1, sizeof *all);
    if (!all) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_bits_fill(all, pdt_dataset_rows(ds));
    pdt_node root = {all, (uint32_t)pdt_dataset_rows(ds), ids, (uint32_t)n_ids, 0};
    pdt_search_opts o;
    pdt_search_opts_init(&o);
    o.max_size = size;
    o.min_leaf = min_leaf;
    o.exact_size = true;
    pdt_search_result res = {.value = out};
    pdt_status st = pdt_search(&res, &count_problem, NULL, rs, words, &root, &o, err);
    pdt_search_result_clear(&res);
    free(all);
    return st;
}

pdt_status pdt_count(pdt_count_report *r, const pdt_dataset *ds, const char *rules,
                     const pdt_rule_params *params, uint32_t size, uint32_t min_leaf, pdt_error *err)
{
    pdt_ruleset *rs = NULL;
    pdt_status st = pdt_ruleset_build(&rs, ds, rules, params, err);
    if (st) return st;
    size_t m = pdt_ruleset_size(rs);
    uint32_t *ids = malloc((m ? m : 1) * sizeof *ids);
    if (!ids) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (!st) {
        for (size_t i = 0; i < m; i++) ids[i] = (uint32_t)i;
        st = pdt_count_on(r->proper, rs, ids, m, size, min_leaf, err);
    }
    if (!st) {
        r->n_rules = m;
        r->size = size;
        mpz_bin_uiui(r->combinations, m, size);
        mpz_fac_ui(r->factorial, size);
        mpz_mul(r->permutations, r->combinations, r->factorial);
    }
    free(ids);
    pdt_ruleset_free(&rs);
    return st;
}
