/* The one place that knows concrete plugins: the tables generated from the
 * PDT_DEFINE_RULE / PDT_DEFINE_PROBLEM markers (see cmake/gen_registry.cmake). */
#include <string.h>

#include "pdt_plugin.h"

extern const pdt_rule_class *const pdt_registry_rules[];
extern const pdt_problem_class *const pdt_registry_problems[];

size_t pdt_rule_class_count(void)
{
    size_t n = 0;
    while (pdt_registry_rules[n]) n++;
    return n;
}

const pdt_rule_class *pdt_rule_class_at(size_t i)
{
    return i < pdt_rule_class_count() ? pdt_registry_rules[i] : NULL;
}

const pdt_rule_class *pdt_rule_class_find(const char *name)
{
    for (size_t i = 0; pdt_registry_rules[i]; i++)
        if (strcmp(pdt_registry_rules[i]->name, name) == 0) return pdt_registry_rules[i];
    return NULL;
}

const char *pdt_rule_class_name(const pdt_rule_class *cls) { return cls->name; }
const char *pdt_rule_class_description(const pdt_rule_class *cls) { return cls->description; }

size_t pdt_problem_class_count(void)
{
    size_t n = 0;
    while (pdt_registry_problems[n]) n++;
    return n;
}

const pdt_problem_class *pdt_problem_class_at(size_t i)
{
    return i < pdt_problem_class_count() ? pdt_registry_problems[i] : NULL;
}

const pdt_problem_class *pdt_problem_class_find(const char *name)
{
    for (size_t i = 0; pdt_registry_problems[i]; i++)
        if (strcmp(pdt_registry_problems[i]->name, name) == 0) return pdt_registry_problems[i];
    return NULL;
}
