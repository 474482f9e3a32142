/* A plugin built for another plugin ABI: refused before its classes are read. */
#define PDT_PLUGIN_MANUAL
#include "tiny_rule.h"

PDT_DEFINE_RULE(tiny_abi) = {
    .version = PDT_RULE_V1,
    .name = "tiny_abi",
    .generate = tiny_generate,
    .sides = tiny_sides,
    .export_rule = tiny_export,
    .classify = tiny_classify,
    .describe = tiny_describe,
};
TINY_EXPORT(pdt_rule_class_tiny_abi)

static const pdt_rule_class *const rules[] = {&pdt_rule_class_tiny_abi, NULL};
PDT_VISIBLE extern const pdt_plugin_info pdt_plugin;
const pdt_plugin_info pdt_plugin = {PDT_PLUGIN_ABI + 1, rules, NULL};
