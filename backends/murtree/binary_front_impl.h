/* The front search's state, shared by binary_front.c (the recursion and the
 * cache) and binary_front_d2.c (depth 1 and 2 from class counts). */
#ifndef PDT_BINARY_FRONT_IMPL_H
#define PDT_BINARY_FRONT_IMPL_H

#include "binary_front.h"

typedef struct fr_entry {
    uint64_t hash;
    uint32_t d, n;
    uint64_t *key;
    pdt_front front;
} fr_entry;

typedef struct fr_level {
    uint64_t *l, *r; /* the children's items */
    pdt_front fl, fr;
    pdt_front_acc acc; /* the front being built at this depth */
    uint64_t *seen;      /* nf·W: the right sides of the splits tried at this depth's current node */
    uint64_t *seen_hash; /* nf: their hashes */
} fr_level;

struct fr_search {
    const bs_data *data;
    size_t W;
    const uint64_t *pos, *neg;
    uint32_t positive;
    fr_entry **slots;
    size_t n_slots, n_entries;
    fr_level levels[FR_MAX_DEPTH + 1];
    pdt_status failed;
    bool has_deadline;
    struct timespec deadline;
    const volatile sig_atomic_t *stop;
    uint32_t tick;
    bool disarmed;
    size_t bytes, limit; /* the cache's memory and its cap (pdt_fit_options.memo_megabytes) */
    fr_stats stats;
    uint32_t *d1p, *d1q;     /* nf: class counts of D∧g (depth 1) */
    uint32_t *cp, *cq;       /* nf: class counts of D∧g (depth 2) */
    uint32_t *pp, *pq;       /* nf·nf: class counts of D∧f∧g, g > f (depth 2) */
    uint32_t *kp[2], *kq[2]; /* nf: class counts of child∧g, child = D∧¬f, D∧f */
    uint64_t *ip, *iq;       /* W: D's positives, negatives */
};

/* The leaf's two points (predict negative (0, p), predict positive (q, 0)), filtered. */
bool fr_leaf_front(pdt_front *f, uint32_t p, uint32_t q);
/* True when the search must stop (time limit, interrupt, out of memory). */
bool fr_stopped(fr_search *s);
/* The depth-1 front (n ≥ 1) of items with p positives, q negatives and
 * gp[g], gq[g] of them in the items ∧ g, accumulated in acc. */
bool fr_front_of_counts(fr_search *s, pdt_front *f, pdt_front_acc *acc, uint32_t p, uint32_t q,
                        const uint32_t *gp, const uint32_t *gq);
/* The depth-2 front (n = 2 or 3, normalised) from pair counts: the same points
 * as the general recursion into depth 1. */
bool fr_depth2_front(fr_search *s, pdt_front *f, const uint64_t *items, uint32_t p, uint32_t q, uint32_t n);
bool fr_scratch_init(fr_search *s);
void fr_scratch_clear(fr_search *s);

#endif
