/* A rule family whose `sides` breaks the partition contract: the last rule
 * puts a row that does not exist (one past the last) on its left.  It loads;
 * the engine's check of what sides returns refuses the fit. */
#include "tiny_rule.h"

static pdt_status bad_sides(uint64_t *left, void *state, const pdt_rule_list *list, size_t r,
                            const pdt_dataset *ds, pdt_error *err)
{
    pdt_status s = tiny_sides(left, state, list, r, ds, err);
    size_t n = pdt_dataset_rows(ds);
    if (!s && r + 1 == n && n % 64) pdt_bit_set(left, n);
    return s;
}

PDT_DEFINE_RULE(tiny_badside) = {
    .version = PDT_RULE_V1,
    .name = "tiny_badside",
    .flags = PDT_EXACT | PDT_DATA_DEFINED,
    .generate = tiny_generate,
    .sides = bad_sides,
    .export_rule = tiny_export,
    .classify = tiny_classify,
    .describe = tiny_describe,
};
TINY_EXPORT(pdt_rule_class_tiny_badside)
