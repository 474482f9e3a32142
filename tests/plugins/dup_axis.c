/* A rule class named like a built-in one ("axis"): refused. */
#include "tiny_rule.h"

PDT_DEFINE_RULE(tiny_axis) = {
    .version = PDT_RULE_V1,
    .name = "axis",
    .generate = tiny_generate,
    .sides = tiny_sides,
    .export_rule = tiny_export,
    .classify = tiny_classify,
    .describe = tiny_describe,
};
TINY_EXPORT(pdt_rule_class_tiny_axis)
