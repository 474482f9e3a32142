/* A plugin calling a function no pdt has: dlopen (RTLD_NOW) refuses it. */
#include "tiny_rule.h"

void pdt_no_such_function(void);

static pdt_status undefined_generate(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                                     const pdt_rule_params *params, pdt_error *err)
{
    pdt_no_such_function();
    return tiny_generate(state, out, ds, params, err);
}

PDT_DEFINE_RULE(tiny_undefined) = {
    .version = PDT_RULE_V1,
    .name = "tiny_undefined",
    .generate = undefined_generate,
    .sides = tiny_sides,
    .export_rule = tiny_export,
    .classify = tiny_classify,
    .describe = tiny_describe,
};
TINY_EXPORT(pdt_rule_class_tiny_undefined)
