/* Axis-parallel thresholds: for every dimension j and data point p the rule
 * "x[j] ≤ p[j]" (D·N candidates).  Its defining point is p, so the rule is
 * admissible exactly in the regions that contain p.  Sides are decided on the
 * dataset's exact ranks, predictions on exact rationals.  `--engine auto`
 * fits through the binary-feature backend (axis_solve.c): the same optimum. */
#include <stdlib.h>

#include "bitset.h"
#include "axis.h"
#include "pdt_plugin.h"

static pdt_status axis_generate(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                                const pdt_rule_params *params, pdt_error *err)
{
    (void)state;
    (void)params;
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    for (size_t j = 0; j < d; j++)
        for (size_t i = 0; i < n && !pdt_dataset_is_categorical(ds, j); i++) {
            uint32_t p = (uint32_t)i;
            if (pdt_rule_list_add(out, (int64_t)j, &p, 1))
                return pdt_error_set(err, PDT_ENOMEM, "out of memory for %zu rules", n * d);
        }
    return PDT_OK;
}

static pdt_status axis_sides(uint64_t *left, void *state, const pdt_rule_list *list, size_t r,
                             const pdt_dataset *ds, pdt_error *err)
{
    (void)state;
    (void)err;
    size_t n_def, n = pdt_dataset_rows(ds);
    size_t j = (size_t)pdt_rule_list_tag(list, r);
    const uint32_t *def = pdt_rule_list_def(list, r, &n_def);
    uint32_t t = pdt_dataset_rank(ds, def[0], j);
    pdt_bits_clear(left, pdt_bits_words(n));
    for (size_t i = 0; i < n; i++)
        if (pdt_dataset_rank(ds, i, j) <= t) pdt_bit_set(left, i);
    return PDT_OK;
}

static pdt_status axis_export(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r,
                              const pdt_dataset *ds, pdt_error *err);

static pdt_status axis_classify(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims,
                                pdt_error *err)
{
    size_t j = (size_t)rule->ints[0];
    if (j >= dims) return pdt_error_set(err, PDT_EINVAL, "axis rule on dimension %zu of %zu", j, dims);
    *left = mpq_cmp(&x[j], rule->rats[0]) <= 0;
    return PDT_OK;
}

static pdt_status axis_describe(pdt_buf *out, const pdt_rule *rule, const char *const *names,
                                size_t dims, pdt_error *err)
{
    size_t j = (size_t)rule->ints[0];
    if (j >= dims) return pdt_error_set(err, PDT_EINVAL, "axis rule on dimension %zu of %zu", j, dims);
    pdt_buf_printf(out, "%s ≤ ", names[j]);
    pdt_buf_mpq_decimal(out, rule->rats[0]);
    return PDT_OK;
}

static pdt_status axis_validate(const pdt_rule *rule, size_t dims, pdt_error *err)
{
    if (rule->n_ints != 1 || rule->n_rats != 1)
        return pdt_error_set(err, PDT_EINVAL, "an axis rule has one integer (the dimension) and one "
                             "rational (the threshold)");
    if (rule->ints[0] < 0 || (uint64_t)rule->ints[0] >= dims)
        return pdt_error_set(err, PDT_EINVAL, "axis rule dimension %lld is not in 0..%zu",
                             (long long)rule->ints[0], dims - 1);
    return PDT_OK;
}

PDT_DEFINE_RULE(axis) = {
    .version = PDT_RULE_V1,
    .name = "axis",
    .description = "axis-parallel thresholds x[j] ≤ p[j] at data points (D·N rules)",
    .flags = PDT_EXACT | PDT_DATA_DEFINED | PDT_SKIPS_CATEGORICAL,
    .generate = axis_generate,
    .sides = axis_sides,
    .export_rule = axis_export,
    .classify = axis_classify,
    .describe = axis_describe,
    .validate = axis_validate,
    .solve = axis_solve,
    .solve_declines = axis_solve_declines,
};

static pdt_status axis_export(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r,
                              const pdt_dataset *ds, pdt_error *err)
{
    (void)state;
    size_t n_def;
    const uint32_t *def = pdt_rule_list_def(list, r, &n_def);
    return axis_rule_make(rule, ds, (size_t)pdt_rule_list_tag(list, r), def[0], err);
}

pdt_status axis_rule_make(pdt_rule *rule, const pdt_dataset *ds, size_t j, size_t row, pdt_error *err)
{
    pdt_status st = pdt_rule_init(rule, &pdt_rule_class_axis, 1, 1, err);
    if (st) return st;
    rule->ints[0] = (int64_t)j;
    pdt_dataset_value_exact(rule->rats[0], ds, row, j);
    return PDT_OK;
}
