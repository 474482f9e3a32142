/* A valid rule plugin ("tiny", thresholds on the first feature) and the
 * fixture of the loader tests: the same optimum as --rules axis on 1-D data. */
#include "tiny_rule.h"

PDT_DEFINE_RULE(tiny) = {
    .version = PDT_RULE_V1,
    .name = "tiny",
    .description = "test plugin: x1 <= p (tests/plugins/good_tiny.c)",
    .flags = PDT_EXACT | PDT_DATA_DEFINED,
    .generate = tiny_generate,
    .sides = tiny_sides,
    .export_rule = tiny_export,
    .classify = tiny_classify,
    .describe = tiny_describe,
};
TINY_EXPORT(pdt_rule_class_tiny)
