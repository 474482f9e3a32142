/* Standalone exact rules and the candidate list plugins fill. */
#include <stdlib.h>
#include <string.h>

#include "rule_list.h"

pdt_status pdt_rule_init(pdt_rule *rule, const pdt_rule_class *cls, size_t n_ints, size_t n_rats,
                         pdt_error *err)
{
    memset(rule, 0, sizeof *rule);
    rule->cls = cls;
    if (n_ints) rule->ints = calloc(n_ints, sizeof *rule->ints);
    if (n_rats) rule->rats = malloc(n_rats * sizeof *rule->rats);
    if ((n_ints && !rule->ints) || (n_rats && !rule->rats)) {
        free(rule->ints);
        free(rule->rats);
        memset(rule, 0, sizeof *rule);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory for a rule");
    }
    for (size_t k = 0; k < n_rats; k++) mpq_init(rule->rats[k]);
    rule->n_ints = n_ints;
    rule->n_rats = n_rats;
    return PDT_OK;
}

void pdt_rule_clear(pdt_rule *rule)
{
    if (!rule) return;
    for (size_t k = 0; k < rule->n_rats; k++) mpq_clear(rule->rats[k]);
    free(rule->ints);
    free(rule->rats);
    memset(rule, 0, sizeof *rule);
}

pdt_status pdt_rule_list_new(pdt_rule_list **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out) return PDT_ENOMEM;
    (*out)->def_off = calloc(1, sizeof *(*out)->def_off);
    (*out)->off_cap = 1;
    if (!(*out)->def_off) {
        free(*out);
        *out = NULL;
        return PDT_ENOMEM;
    }
    return PDT_OK;
}

void pdt_rule_list_free(pdt_rule_list **list)
{
    if (!list || !*list) return;
    free((*list)->tags);
    free((*list)->def_off);
    free((*list)->def);
    free(*list);
    *list = NULL;
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

pdt_status pdt_rule_list_add(pdt_rule_list *list, int64_t tag, const uint32_t *def, size_t n_def)
{
    if (list->n >= UINT32_MAX - 1 || list->def_len + n_def >= UINT32_MAX) return PDT_ELIMIT;
    if (!grow((void **)&list->tags, &list->tags_cap, list->n + 1, sizeof *list->tags))
        return PDT_ENOMEM;
    if (!grow((void **)&list->def_off, &list->off_cap, list->n + 2, sizeof *list->def_off))
        return PDT_ENOMEM;
    if (!grow((void **)&list->def, &list->def_cap, list->def_len + n_def + 1, sizeof *list->def))
        return PDT_ENOMEM;
    list->tags[list->n] = tag;
    memcpy(list->def + list->def_len, def, n_def * sizeof *def);
    list->def_len += n_def;
    list->n++;
    list->def_off[list->n] = (uint32_t)list->def_len;
    return PDT_OK;
}

size_t pdt_rule_list_size(const pdt_rule_list *list) { return list->n; }
int64_t pdt_rule_list_tag(const pdt_rule_list *list, size_t r) { return list->tags[r]; }

const uint32_t *pdt_rule_list_def(const pdt_rule_list *list, size_t r, size_t *n_def)
{
    *n_def = list->def_off[r + 1] - list->def_off[r];
    return list->def + list->def_off[r];
}
