/* The similarity bound between the root's children (issue 13;
 * binary_root_sim.c). */
#ifndef PDT_BINARY_ROOT_SIM_H
#define PDT_BINARY_ROOT_SIM_H

#include "binary_solver.h"

/* The root's children searched so far, by every worker: their items and a
 * lower bound of each for its limits.  Shared by the team (under a lock). */
typedef struct br_sim {
    uint64_t *bits; /* words per record */
    bs_value *lb;
    uint32_t *d, *n; /* the record's limits, normalised */
    size_t words, count, cap;
} br_sim;

bool br_sim_init(br_sim *rs, size_t words, size_t cap);
void br_sim_clear(br_sim *rs);

/* C (a root child at limits d, n, just tried by s): its best lower bound
 * known to s, recorded for the team. */
void br_sim_add(br_sim *rs, bs_search *s, bs_set *C, uint32_t d, uint32_t n);

/* C (a root child about to be tried by s at limits d, n): the similarity
 * bound T(C) ≥ T(old) − |old \ C| against every recorded child, kept in s's
 * cache when it exceeds what s knew. */
void br_sim_apply(const br_sim *rs, bs_search *s, bs_set *C, uint32_t d, uint32_t n);

#endif
