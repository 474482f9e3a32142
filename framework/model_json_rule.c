/* Rules of a JSON model: family, integer and exact rational parameters,
 * the class's validate hook, and sharing of equal rules. */
#include <stdlib.h>
#include <string.h>

#include "model_json_load.h"

pdt_status pdt_model_json_nomem(mload *L)
{
    return pdt_error_set(L->j.err, PDT_ENOMEM, "out of memory loading %s", L->j.file);
}

static uint64_t hash_text(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++) h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

static int32_t *find_slot(mload *L, const char *key)
{
    size_t mask = L->n_slots - 1;
    for (size_t k = (size_t)hash_text(key) & mask;; k = (k + 1) & mask)
        if (L->slots[k] < 0 || strcmp(L->keys[L->slots[k]], key) == 0) return &L->slots[k];
}

static pdt_status grow_slots(mload *L)
{
    size_t n = L->n_slots ? L->n_slots * 2 : 64;
    int32_t *slots = malloc(n * sizeof *slots);
    if (!slots) return pdt_model_json_nomem(L);
    for (size_t k = 0; k < n; k++) slots[k] = -1;
    free(L->slots);
    L->slots = slots;
    L->n_slots = n;
    for (size_t r = 0; r < L->m->n_rules; r++) *find_slot(L, L->keys[r]) = (int32_t)r;
    return PDT_OK;
}

static char *rule_key(const pdt_rule *rule)
{
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_buf_printf(&b, "%s|", rule->cls->name);
    for (size_t k = 0; k < rule->n_ints; k++) pdt_buf_printf(&b, "%lld,", (long long)rule->ints[k]);
    pdt_buf_puts(&b, "|");
    for (size_t k = 0; k < rule->n_rats; k++) {
        pdt_buf_mpq(&b, rule->rats[k]);
        pdt_buf_puts(&b, ",");
    }
    if (b.failed) pdt_buf_clear(&b);
    return b.data;
}

/* The class's validate hook, its message prefixed with the family and the path. */
static pdt_status validate_rule(mload *L, const pdt_rule *rule)
{
    const pdt_rule_class *cls = rule->cls;
    if (!cls->validate || cls->validate(rule, L->m->dims, L->j.err) == PDT_OK) return PDT_OK;
    pdt_status st = L->j.err->status != PDT_OK ? L->j.err->status : PDT_EINVAL;
    pdt_error_prefix(L->j.err, "rule family %s: ", cls->name);
    pdt_json_prefix(&L->j);
    return st;
}

/* Moves *rule into the model after validating it, or clears it when an equal
 * rule is there: that one was validated, and validating exact rules with huge
 * parameters costs up to a second each (found by fuzzing: a file nesting one
 * such rule many times took minutes to load). */
static pdt_status intern_rule(mload *L, int32_t *index, pdt_rule *rule)
{
    pdt_model *m = L->m;
    char *key = rule_key(rule);
    if (!key || (2 * (m->n_rules + 1) > L->n_slots && grow_slots(L) != PDT_OK)) {
        free(key);
        pdt_rule_clear(rule);
        return pdt_model_json_nomem(L);
    }
    int32_t *slot = find_slot(L, key);
    pdt_status st = *slot >= 0 ? PDT_OK : validate_rule(L, rule);
    if (*slot >= 0 || st != PDT_OK) {
        free(key);
        pdt_rule_clear(rule);
        if (st == PDT_OK) *index = *slot;
        return st;
    }
    if (m->n_rules == L->cap_rules) {
        size_t cap = L->cap_rules ? 2 * L->cap_rules : 8;
        pdt_rule *rules = realloc(m->rules, cap * sizeof *rules);
        char **keys = rules ? realloc(L->keys, cap * sizeof *keys) : NULL;
        if (rules) m->rules = rules;
        if (keys) L->keys = keys;
        if (!rules || !keys) {
            free(key);
            pdt_rule_clear(rule);
            return pdt_model_json_nomem(L);
        }
        L->cap_rules = cap;
    }
    *index = (int32_t)m->n_rules;
    *slot = *index;
    L->keys[m->n_rules] = key;
    m->rules[m->n_rules++] = *rule;
    return PDT_OK;
}

/* Optional array member; its length, after checking it is an array. */
static pdt_status rule_array(mload *L, const json_t **arr, size_t *n, const json_t *obj,
                             const char *key)
{
    *n = 0;
    TRY(pdt_json_get(&L->j, arr, obj, key, false));
    if (!*arr) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, key);
    TRY(pdt_json_expect(&L->j, *arr, JSON_ARRAY, "an array"));
    pdt_json_pop(&L->j, mark);
    *n = json_array_size(*arr);
    return PDT_OK;
}

static pdt_status fill_rule(mload *L, pdt_rule *rule, const json_t *ints, const json_t *rats)
{
    size_t mark = pdt_json_push(&L->j, "ints");
    for (size_t k = 0; k < rule->n_ints; k++) {
        const json_t *v = json_array_get(ints, k);
        size_t mk = pdt_json_push_index(&L->j, k);
        TRY(pdt_json_expect(&L->j, v, JSON_INTEGER, "an integer"));
        pdt_json_pop(&L->j, mk);
        rule->ints[k] = (int64_t)json_integer_value(v);
    }
    pdt_json_pop(&L->j, mark);
    mark = pdt_json_push(&L->j, "rationals");
    for (size_t k = 0; k < rule->n_rats; k++) {
        size_t mk = pdt_json_push_index(&L->j, k);
        TRY(pdt_json_rational_value(&L->j, rule->rats[k], json_array_get(rats, k)));
        pdt_json_pop(&L->j, mk);
    }
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

static pdt_status rule_family(mload *L, const pdt_rule_class **cls, const json_t *obj)
{
    char *family = NULL;
    TRY(pdt_json_string(&L->j, &family, obj, "family", true));
    *cls = pdt_rule_class_find(family);
    size_t mark = pdt_json_push(&L->j, "family");
    pdt_status st = PDT_OK;
    if (!*cls)
        st = pdt_json_error(&L->j, "unknown rule family \"%.200s\" (not built in: is its plugin "
                            "loaded?)", family);
    else if (!(*cls)->classify && !(*cls)->route)
        st = pdt_json_error(&L->j, "rule family \"%s\" cannot classify points", family);
    pdt_json_pop(&L->j, mark);
    free(family);
    return st;
}

pdt_status pdt_model_json_rule(mload *L, int32_t *index, const json_t *obj)
{
    TRY(pdt_json_expect(&L->j, obj, JSON_OBJECT, "an object"));
    const pdt_rule_class *cls;
    TRY(rule_family(L, &cls, obj));
    const json_t *ints, *rats, *text;
    size_t n_ints, n_rats;
    TRY(rule_array(L, &ints, &n_ints, obj, "ints"));
    TRY(rule_array(L, &rats, &n_rats, obj, "rationals"));
    TRY(pdt_json_get(&L->j, &text, obj, "text", false));
    if (text) {
        size_t mark = pdt_json_push(&L->j, "text");
        TRY(pdt_json_expect(&L->j, text, JSON_STRING, "a string"));
        pdt_json_pop(&L->j, mark);
    }
    pdt_rule rule;
    if (pdt_rule_init(&rule, cls, n_ints, n_rats, L->j.err) != PDT_OK)
        return pdt_json_prefix(&L->j);
    pdt_status st = fill_rule(L, &rule, ints, rats);
    if (st != PDT_OK) {
        pdt_rule_clear(&rule);
        return st;
    }
    return intern_rule(L, index, &rule);
}
