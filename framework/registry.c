/* The one place that knows concrete plugins: the tables generated from the
 * PDT_DEFINE_RULE / PDT_DEFINE_PROBLEM markers (see cmake/gen_registry.cmake),
 * followed by the classes registered at run time (pdt_plugin_load, or a
 * program's own pdt_rule_class_register).  Lookups by name see both alike. */
#include <stdlib.h>
#include <string.h>

#include "pdt_plugin.h"

extern const pdt_rule_class *const pdt_registry_rules[];
extern const pdt_problem_class *const pdt_registry_problems[];

/* Classes added at run time, in registration order, each with its origin. */
typedef struct added_table {
    const void **cls;
    char **origin;
    size_t n, cap;
} added_table;

static added_table added_rules, added_problems;

static size_t builtin_count(const void *const *table)
{
    size_t n = 0;
    while (table[n]) n++;
    return n;
}

static size_t builtin_rules(void) { return builtin_count((const void *const *)pdt_registry_rules); }
static size_t builtin_problems(void)
{
    return builtin_count((const void *const *)pdt_registry_problems);
}

size_t pdt_rule_class_count(void) { return builtin_rules() + added_rules.n; }

const pdt_rule_class *pdt_rule_class_at(size_t i)
{
    size_t b = builtin_rules();
    if (i < b) return pdt_registry_rules[i];
    return i - b < added_rules.n ? added_rules.cls[i - b] : NULL;
}

const pdt_rule_class *pdt_rule_class_find(const char *name)
{
    for (size_t i = 0; i < pdt_rule_class_count(); i++) {
        const pdt_rule_class *c = pdt_rule_class_at(i);
        if (strcmp(c->name, name) == 0) return c;
    }
    return NULL;
}

const char *pdt_rule_class_name(const pdt_rule_class *cls) { return cls->name; }
const char *pdt_rule_class_description(const pdt_rule_class *cls) { return cls->description; }

size_t pdt_problem_class_count(void) { return builtin_problems() + added_problems.n; }

const pdt_problem_class *pdt_problem_class_at(size_t i)
{
    size_t b = builtin_problems();
    if (i < b) return pdt_registry_problems[i];
    return i - b < added_problems.n ? added_problems.cls[i - b] : NULL;
}

const pdt_problem_class *pdt_problem_class_find(const char *name)
{
    for (size_t i = 0; i < pdt_problem_class_count(); i++) {
        const pdt_problem_class *c = pdt_problem_class_at(i);
        if (strcmp(c->name, name) == 0) return c;
    }
    return NULL;
}

static const char *origin_of(const added_table *t, const void *cls)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->cls[i] == cls) return t->origin[i];
    return NULL;
}

const char *pdt_rule_class_origin(const pdt_rule_class *cls) { return origin_of(&added_rules, cls); }
const char *pdt_problem_class_origin(const pdt_problem_class *cls)
{
    return origin_of(&added_problems, cls);
}

/* Names end up in --rules lists ("axis,circle") and in model files. */
static bool name_ok(const char *name)
{
    if (!name || !*name || strlen(name) > 63) return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return false;
    return true;
}

static pdt_status add(added_table *t, const void *cls, const char *origin, pdt_error *err)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 8;
        const void **c = realloc(t->cls, cap * sizeof *c);
        if (c) t->cls = c;
        char **o = realloc(t->origin, cap * sizeof *o);
        if (o) t->origin = o;
        if (!c || !o) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
        t->cap = cap;
    }
    char *copy = strdup(origin ? origin : "(program)");
    if (!copy) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    t->cls[t->n] = cls;
    t->origin[t->n++] = copy;
    return PDT_OK;
}

static pdt_status taken(pdt_error *err, const char *kind, const char *name, const char *by)
{
    return pdt_error_set(err, PDT_EPLUGIN, "%s \"%s\" is already registered (%s%s)", kind, name,
                         by ? "by " : "built in", by ? by : "");
}

pdt_status pdt_rule_class_register(const pdt_rule_class *cls, const char *origin, pdt_error *err)
{
    if (!cls) return pdt_error_set(err, PDT_EPLUGIN, "rule class: NULL");
    if (!name_ok(cls->name))
        return pdt_error_set(err, PDT_EPLUGIN, "rule class: name \"%s\" is not 1 to 63 of a-z, 0-9, "
                             "'_' and '-'", cls->name ? cls->name : "(null)");
    if (cls->version != PDT_RULE_V1)
        return pdt_error_set(err, PDT_EPLUGIN, "rule family \"%s\": interface version %u, this pdt "
                             "has %u", cls->name, cls->version, PDT_RULE_V1);
    if (!cls->generate || !cls->sides || !cls->export_rule || !cls->classify || !cls->describe)
        return pdt_error_set(err, PDT_EPLUGIN, "rule family \"%s\": a required slot (generate, sides, "
                             "export_rule, classify, describe) is NULL", cls->name);
    const pdt_rule_class *old = pdt_rule_class_find(cls->name);
    if (old) return taken(err, "rule family", cls->name, pdt_rule_class_origin(old));
    return add(&added_rules, cls, origin, err);
}

pdt_status pdt_problem_class_register(const pdt_problem_class *cls, const char *origin,
                                      pdt_error *err)
{
    if (!cls) return pdt_error_set(err, PDT_EPLUGIN, "problem class: NULL");
    if (!name_ok(cls->name))
        return pdt_error_set(err, PDT_EPLUGIN, "problem class: name \"%s\" is not 1 to 63 of a-z, "
                             "0-9, '_' and '-'", cls->name ? cls->name : "(null)");
    if (cls->version != PDT_PROBLEM_V1)
        return pdt_error_set(err, PDT_EPLUGIN, "problem \"%s\": interface version %u, this pdt has %u",
                             cls->name, cls->version, PDT_PROBLEM_V1);
    if (!cls->algebra || cls->algebra->version != PDT_ALGEBRA_V1 || !cls->leaf)
        return pdt_error_set(err, PDT_EPLUGIN, "problem \"%s\": a required slot (algebra of version "
                             "%u, leaf) is missing", cls->name, PDT_ALGEBRA_V1);
    if ((cls->split_count == NULL) != (cls->split == NULL))
        return pdt_error_set(err, PDT_EPLUGIN, "problem \"%s\": split_count and split come together",
                             cls->name);
    const pdt_problem_class *old = pdt_problem_class_find(cls->name);
    if (old) return taken(err, "problem", cls->name, pdt_problem_class_origin(old));
    return add(&added_problems, cls, origin, err);
}
