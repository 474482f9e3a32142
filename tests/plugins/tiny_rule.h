/* The slots of a tiny valid rule family for the test plugins of this
 * directory: one rule per row, "x1 ≤ that row's x1", defined by the row.
 * Each plugin file includes this and defines a class (often a broken one). */
#ifndef PDT_TEST_TINY_RULE_H
#define PDT_TEST_TINY_RULE_H

#include "bitset.h"
#include "pdt_plugin.h"

static pdt_status tiny_generate(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                                const pdt_rule_params *params, pdt_error *err)
{
    (void)state;
    (void)params;
    for (uint32_t i = 0; i < pdt_dataset_rows(ds); i++)
        if (pdt_rule_list_add(out, 0, &i, 1)) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    return PDT_OK;
}

static pdt_status tiny_sides(uint64_t *left, void *state, const pdt_rule_list *list, size_t r,
                             const pdt_dataset *ds, pdt_error *err)
{
    (void)state;
    (void)err;
    size_t n_def, n = pdt_dataset_rows(ds);
    uint32_t p = pdt_rule_list_def(list, r, &n_def)[0];
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    pdt_dataset_value_exact(b, ds, p, 0);
    pdt_bits_clear(left, pdt_bits_words(n));
    for (size_t i = 0; i < n; i++) {
        pdt_dataset_value_exact(a, ds, i, 0);
        if (mpq_cmp(a, b) <= 0) pdt_bit_set(left, i);
    }
    mpq_clears(a, b, NULL);
    return PDT_OK;
}

static pdt_status tiny_export(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r,
                              const pdt_dataset *ds, pdt_error *err);

static pdt_status tiny_classify(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims,
                                pdt_error *err)
{
    (void)dims;
    (void)err;
    *left = mpq_cmp(&x[0], rule->rats[0]) <= 0;
    return PDT_OK;
}

static pdt_status tiny_describe(pdt_buf *out, const pdt_rule *rule, const char *const *names,
                                size_t dims, pdt_error *err)
{
    (void)dims;
    (void)err;
    pdt_buf_printf(out, "%s ≤ ", names[0]);
    pdt_buf_mpq_decimal(out, rule->rats[0]);
    return PDT_OK;
}

/* The class a plugin defines; tiny_export refers to it. */
#define TINY_EXPORT(cls)                                                                           \
    static pdt_status tiny_export(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r, \
                                  const pdt_dataset *ds, pdt_error *err)                           \
    {                                                                                              \
        (void)state;                                                                               \
        size_t n_def;                                                                              \
        uint32_t p = pdt_rule_list_def(list, r, &n_def)[0];                                        \
        pdt_status s = pdt_rule_init(rule, &cls, 0, 1, err);                                       \
        if (!s) pdt_dataset_value_exact(rule->rats[0], ds, p, 0);                                  \
        return s;                                                                                  \
    }

#endif
