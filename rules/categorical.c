/* Multiway splits on categorical columns (issue 12; Branches): the rule on
 * column j sends a point down the way of its category, one way per category
 * present in the region, so a split counts as one branch node however many
 * ways it has.  A category no way takes gets the node's majority.
 *
 * A standalone rule has one integer (the column) and no rationals; routing
 * reads the column's category code (the model's: prediction maps names).
 * The generic engine splits in two, so these rules are fitted by their
 * backend only (backends/discrete/: numeric columns alongside are cut by
 * thresholds x ≤ t, which the model stores as binary rules). */
#include "../backends/discrete/discrete.h"
#include "pdt_plugin.h"

static pdt_status categorical_generate(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                                       const pdt_rule_params *params, pdt_error *err)
{
    (void)state;
    (void)out;
    (void)params;
    return pdt_error_set(err, PDT_EINVAL, "%s: categorical rules split in more than two ways: the fused "
                         "and combinations engines cannot search them (use --engine auto)",
                         pdt_dataset_name(ds));
}

static pdt_status categorical_validate(const pdt_rule *rule, size_t dims, pdt_error *err)
{
    if (rule->n_ints != 1 || rule->n_rats != 0)
        return pdt_error_set(err, PDT_EINVAL, "a categorical rule has one integer (the column) and no "
                             "rationals");
    if (rule->ints[0] < 0 || (uint64_t)rule->ints[0] >= dims)
        return pdt_error_set(err, PDT_EINVAL, "categorical rule column %lld is not in 0..%zu",
                             (long long)rule->ints[0], dims ? dims - 1 : 0);
    return PDT_OK;
}

static pdt_status categorical_route(int64_t *code, const pdt_rule *rule, mpq_srcptr x, size_t dims,
                                    pdt_error *err)
{
    pdt_status st = categorical_validate(rule, dims, err);
    if (st) return st;
    mpq_srcptr v = &x[rule->ints[0]];
    bool is_code = mpz_cmp_ui(mpq_denref(v), 1) == 0 && mpz_sgn(mpq_numref(v)) >= 0 &&
                   mpz_fits_slong_p(mpq_numref(v));
    *code = is_code ? mpz_get_si(mpq_numref(v)) : -1;
    return PDT_OK;
}

static pdt_status categorical_describe(pdt_buf *out, const pdt_rule *rule, const char *const *names,
                                       size_t dims, pdt_error *err)
{
    pdt_status st = categorical_validate(rule, dims, err);
    if (st == PDT_OK) pdt_buf_printf(out, "%s", names[rule->ints[0]]);
    return st;
}

static pdt_status categorical_describe_way(pdt_buf *out, const pdt_rule *rule, int64_t code,
                                           const char *const *names, const char *const *const *categories,
                                           const uint32_t *n_categories, size_t dims, pdt_error *err)
{
    pdt_status st = categorical_validate(rule, dims, err);
    if (st) return st;
    size_t j = (size_t)rule->ints[0];
    if (categories && categories[j] && code >= 0 && (uint64_t)code < n_categories[j])
        pdt_buf_printf(out, "%s = %s", names[j], categories[j][code]);
    else
        pdt_buf_printf(out, "%s = #%lld", names[j], (long long)code);
    return PDT_OK;
}

PDT_DEFINE_RULE(categorical) = {
    .version = PDT_RULE_V1,
    .name = "categorical",
    .description = "multiway splits: one child per category of a categorical column (Branches); "
                   "--sparse λ without limits, or --depth",
    .flags = PDT_EXACT | PDT_CATEGORICAL,
    .generate = categorical_generate,
    .describe = categorical_describe,
    .validate = categorical_validate,
    .solve = dc_fit_categorical,
    .route = categorical_route,
    .describe_way = categorical_describe_way,
};
