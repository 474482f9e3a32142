/* Internal layout of the candidate list. */
#ifndef PDT_RULE_LIST_H
#define PDT_RULE_LIST_H

#include "pdt_plugin.h"

struct pdt_rule_list {
    size_t n, tags_cap, off_cap;
    int64_t *tags;
    uint32_t *def_off; /* n + 1 offsets into def */
    uint32_t *def;
    size_t def_len, def_cap;
};

pdt_status pdt_rule_list_new(pdt_rule_list **out);
void pdt_rule_list_free(pdt_rule_list **list);

#endif
