/* Internal to the JSON model reader: model_json_load.c reads the document and
 * the tree, model_json_rule.c the rules. */
#ifndef PDT_MODEL_JSON_LOAD_H
#define PDT_MODEL_JSON_LOAD_H

#include "json_path.h"
#include "model_impl.h"

/* Returns the status of x when it is not PDT_OK. */
#define TRY(x)                                                                                     \
    do {                                                                                           \
        pdt_status try_st_ = (x);                                                                  \
        if (try_st_ != PDT_OK) return try_st_;                                                     \
    } while (0)

typedef struct mload {
    pdt_json_reader j;
    pdt_model *m;
    size_t cap_nodes, cap_rules, cap_ways;
    char **keys;    /* canonical text of each rule, for sharing equal rules */
    int32_t *slots; /* open-addressing table of rule indices, -1 = empty */
    size_t n_slots; /* a power of two, at least twice n_rules */
} mload;

/* Out of memory, naming the file. */
pdt_status pdt_model_json_nomem(mload *L);
/* The rule object at the current path ("...rule"): checked, validated by its
 * class, and shared with an equal rule already loaded; *index into m->rules. */
pdt_status pdt_model_json_rule(mload *L, int32_t *index, const json_t *obj);

/* The optional "metric" member (model_json_metric.c), checked against the tree
 * already read; sets the model's metric, positive class, counts and objective. */
pdt_status pdt_model_json_metric(mload *L, const json_t *doc);

#endif
