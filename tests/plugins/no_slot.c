/* A rule class without its required `sides` slot. */
#include "tiny_rule.h"

PDT_DEFINE_RULE(tiny_noslot) = {
    .version = PDT_RULE_V1,
    .name = "tiny_noslot",
    .generate = tiny_generate,
    .export_rule = tiny_export,
    .classify = tiny_classify,
    .describe = tiny_describe,
};
TINY_EXPORT(pdt_rule_class_tiny_noslot)

/* `sides` would be this; unused on purpose. */
pdt_status tiny_noslot_sides_unused(uint64_t *left, void *state, const pdt_rule_list *list,
                                    size_t r, const pdt_dataset *ds, pdt_error *err);
pdt_status tiny_noslot_sides_unused(uint64_t *left, void *state, const pdt_rule_list *list,
                                    size_t r, const pdt_dataset *ds, pdt_error *err)
{
    return tiny_sides(left, state, list, r, ds, err);
}
