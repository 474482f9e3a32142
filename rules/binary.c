/* Binary features: the rule family of almost every optimal-tree solver.  On
 * 0/1 data a rule is a feature f with left side x[f] = 0; other columns are
 * binarised (binary_encode.c: thresholds x ≤ t, or one-hot x ≠ v).  Any
 * feature may lie below any other on either side (relation BOTH), so the
 * generic engine must try every feature in every region; the solve slot is
 * the MurTree-class backend (backends/murtree/) that does this fast.
 *
 * A standalone rule has two integers (column, kind) and one rational:
 *   kind 0  left iff x = 0          (rational 0)
 *   kind 1  left iff x ≤ t          (rational t, a training value)
 *   kind 2  left iff x ≠ v          (rational v, a training value) */
#include <stdlib.h>

#include "binary_impl.h"
#include "bitset.h"

static pdt_status binary_generate(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                                  const pdt_rule_params *params, pdt_error *err)
{
    bin_encoding *enc = calloc(1, sizeof *enc);
    if (!enc) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_status st = bin_encode(enc, ds, params ? params->options : NULL, err);
    if (st) {
        free(enc);
        return st;
    }
    *state = enc;
    uint32_t none = 0; /* no defining points: the relation is BOTH */
    for (size_t f = 0; f < enc->n; f++)
        if (pdt_rule_list_add(out, (int64_t)f, &none, 0))
            return pdt_error_set(err, PDT_ENOMEM, "out of memory for %zu rules", enc->n);
    return PDT_OK;
}

static pdt_status binary_sides(uint64_t *left, void *state, const pdt_rule_list *list, size_t r,
                               const pdt_dataset *ds, pdt_error *err)
{
    (void)err;
    const bin_encoding *enc = state;
    size_t f = (size_t)pdt_rule_list_tag(list, r), n = pdt_dataset_rows(ds);
    pdt_bits_clear(left, pdt_bits_words(n));
    for (size_t i = 0; i < n; i++)
        if (!bin_value(enc, ds, f, i)) pdt_bit_set(left, i);
    return PDT_OK;
}

static pdt_status binary_export(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r,
                                const pdt_dataset *ds, pdt_error *err)
{
    return bin_export(rule, state, ds, (size_t)pdt_rule_list_tag(list, r), err);
}

static pdt_status binary_validate(const pdt_rule *rule, size_t dims, pdt_error *err)
{
    if (rule->n_ints != 2 || rule->n_rats != 1)
        return pdt_error_set(err, PDT_EINVAL, "a binary rule has two integers (column, kind) and "
                             "one rational (the value)");
    if (rule->ints[0] < 0 || (uint64_t)rule->ints[0] >= dims)
        return pdt_error_set(err, PDT_EINVAL, "binary rule column %lld is not in 0..%zu",
                             (long long)rule->ints[0], dims ? dims - 1 : 0);
    if (rule->ints[1] < BIN_FLAG || rule->ints[1] > BIN_EQ)
        return pdt_error_set(err, PDT_EINVAL, "binary rule kind %lld is not 0 (x = 0), 1 (x ≤ t) "
                             "or 2 (x ≠ v)", (long long)rule->ints[1]);
    if (rule->ints[1] == BIN_FLAG && mpq_sgn(rule->rats[0]) != 0)
        return pdt_error_set(err, PDT_EINVAL, "binary rule of kind 0 (x = 0) must have value 0");
    return PDT_OK;
}

static pdt_status binary_classify(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims,
                                  pdt_error *err)
{
    pdt_status st = binary_validate(rule, dims, err);
    if (st) return st;
    mpq_srcptr v = &x[rule->ints[0]];
    int c = mpq_cmp(v, rule->rats[0]);
    *left = rule->ints[1] == BIN_LEQ ? c <= 0 : rule->ints[1] == BIN_EQ ? c != 0 : mpq_sgn(v) == 0;
    return PDT_OK;
}

static pdt_status binary_describe(pdt_buf *out, const pdt_rule *rule, const char *const *names,
                                  size_t dims, pdt_error *err)
{
    pdt_status st = binary_validate(rule, dims, err);
    if (st) return st;
    static const char *const op[] = {" = ", " ≤ ", " ≠ "};
    pdt_buf_printf(out, "%s%s", names[rule->ints[0]], op[rule->ints[1]]);
    pdt_buf_mpq_decimal(out, rule->rats[0]);
    return PDT_OK;
}

/* A one-hot test on a categorical column names its category; the rest as describe. */
static pdt_status binary_describe_categorical(pdt_buf *out, const pdt_rule *rule,
                                              const char *const *names,
                                              const char *const *const *categories,
                                              const uint32_t *n_categories, size_t dims,
                                              pdt_error *err)
{
    pdt_status st = binary_validate(rule, dims, err);
    if (st) return st;
    const char *const *cat = categories[rule->ints[0]];
    mpq_srcptr v = rule->rats[0];
    if (!cat || rule->ints[1] != BIN_EQ) return binary_describe(out, rule, names, dims, err);
    /* the code is a category's index; a model file can hold anything else */
    bool code = mpz_cmp_ui(mpq_denref(v), 1) == 0 && mpz_sgn(mpq_numref(v)) >= 0 &&
                mpz_cmp_ui(mpq_numref(v), n_categories[rule->ints[0]]) < 0;
    unsigned long c = code ? mpz_get_ui(mpq_numref(v)) : 0;
    pdt_buf_printf(out, "%s ≠ ", names[rule->ints[0]]);
    if (code) pdt_buf_printf(out, "%s", cat[c]);
    else pdt_buf_mpq_decimal(out, v);
    return PDT_OK;
}

static pdt_relation binary_relation(void *state, const pdt_rule_list *list, size_t ri, size_t rj)
{
    (void)state;
    (void)list;
    return ri == rj ? PDT_REL_NONE : PDT_REL_BOTH;
}

static void binary_destroy(void *state)
{
    bin_encoding *enc = state;
    if (!enc) return;
    bin_encoding_clear(enc);
    free(enc);
}

PDT_DEFINE_RULE(binary) = {
    .version = PDT_RULE_V1,
    .name = "binary",
    .description = "binary features: x = 0 on 0/1 columns, thresholds x ≤ t on numeric ones "
                   "(onehot=COL:COL for categories); MurTree-class backend",
    .flags = PDT_EXACT | PDT_REGION_BY_ITEMS | PDT_CATEGORICAL | PDT_METRICS,
    .generate = binary_generate,
    .sides = binary_sides,
    .export_rule = binary_export,
    .classify = binary_classify,
    .describe = binary_describe,
    .validate = binary_validate,
    .relation = binary_relation,
    .solve = bs_fit,
    .destroy = binary_destroy,
    .describe_categorical = binary_describe_categorical,
};
