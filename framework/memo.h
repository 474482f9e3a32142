/* The subproblem cache: (items, budget, remaining depth, problem key) →
 * the optimum and its root decision, or a lower bound. */
#ifndef PDT_MEMO_H
#define PDT_MEMO_H

#include "pdt_plugin.h"

typedef enum { PDT_MEMO_EXACT = 1, PDT_MEMO_LOWER = 2 } pdt_memo_kind;

typedef struct pdt_memo_entry {
    uint64_t hash, extra;
    int64_t payload;  /* EXACT: root decision (PDT_LEAF for a leaf) */
    uint32_t k, drem; /* budget and remaining depth of the key */
    uint32_t k1;      /* EXACT: budget of the left child */
    uint32_t kind;    /* pdt_memo_kind */
    /* followed by the value (algebra size, 8-aligned) and the items (words) */
} pdt_memo_entry;

typedef struct pdt_memo pdt_memo;

pdt_status pdt_memo_new(pdt_memo **out, size_t words, const pdt_algebra *alg, size_t max_bytes);
void pdt_memo_free(pdt_memo **m);
pdt_memo_entry *pdt_memo_find(pdt_memo *m, const uint64_t *items, uint32_t k, uint32_t drem,
                              uint64_t extra);
/* The entry for the key, created (value initialised to ⊕-zero) if absent;
 * NULL when the cache is full. */
pdt_memo_entry *pdt_memo_put(pdt_memo *m, const uint64_t *items, uint32_t k, uint32_t drem,
                             uint64_t extra);
void *pdt_memo_value(pdt_memo_entry *e);
uint64_t pdt_memo_count(const pdt_memo *m);

#endif
