/* The front search's state, shared by binary_front.c (the recursion and the
 * cache) and binary_front_d2.c (depth 1 and 2 from class counts). */
#ifndef PDT_BINARY_FRONT_IMPL_H
#define PDT_BINARY_FRONT_IMPL_H

#include "binary_front.h"

#define FR_SIM 1024 /* at most so many depth-2 fronts kept for the similarity bound (and 16 MiB of items) */

typedef struct fr_entry {
    uint64_t hash;
    uint32_t d, n;
    uint64_t *key;
    pdt_front front;
    bool bounded; /* computed under the metric bound with offset off (else the whole front) */
    fr_off off;
} fr_entry;

typedef struct fr_level {
    uint64_t *l, *r; /* the children's items */
    pdt_front fl, fr;
    pdt_front ca, cb; /* the children's points within the bound */
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
    /* the metric bound (binary_front_bound.c) */
    bool bounded;
    pdt_metric metric;
    uint32_t P, N;          /* the data's positives, negatives */
    uint32_t inc_fp, inc_fn; /* the incumbent root point */
    uint32_t top_d;         /* the root's depth (its sums update the incumbent) */
    int64_t *maxfn;         /* N + 1: the largest FN of a root point within the bound at each FP, or −1 */
    size_t sim_k;           /* how many (≤ FR_SIM) */
    uint64_t *sim_items;    /* sim_k·W: the last depth-2 subproblems solved under the bound */
    uint32_t *sim_n;        /* sim_k: their budgets; 0: none yet */
    uint32_t *sim_pq;       /* 2·sim_k: their positives, negatives */
    pdt_front *sim_front;   /* sim_k: their whole fronts */
    size_t sim_next;        /* the oldest, replaced next */
};

/* x + off is within the bound (always true without an offset or a bound). */
static inline bool fr_allowed(const fr_search *s, const fr_off *off, uint32_t fp, uint32_t fn)
{
    if (!off || !s->bounded) return true;
    uint64_t x = (uint64_t)fp + off->x;
    return x <= s->N && (int64_t)fn + off->y <= s->maxfn[x];
}
/* Drops the points outside the bound under off. */
static inline void fr_clip(const fr_search *s, pdt_front *f, const fr_off *off)
{
    if (!off || !s->bounded) return;
    size_t k = 0;
    for (size_t i = 0; i < f->n; i++)
        if (fr_allowed(s, off, f->p[i].fp, f->p[i].fn)) f->p[k++] = f->p[i];
    f->n = k;
}
/* The similarity bound (Demirović & Stuckey's (D)) against the last sim_k whole
 * depth-2 fronts: true when no tree of (items, 2, n), p positives and q
 * negatives, can be within the bound under off. */
bool fr_similar_prunes(const fr_search *s, const uint64_t *items, uint32_t p, uint32_t q, uint32_t n,
                       const fr_off *off);
/* Remembers the whole depth-2 front f of (items, 2, n) for the similarity bound. */
bool fr_similar_keep(fr_search *s, const uint64_t *items, uint32_t p, uint32_t q, uint32_t n, const pdt_front *f);
/* The root's sums a ⊕ b: a better point becomes the incumbent. */
void fr_bound_offer(fr_search *s, const pdt_front *a, const pdt_front *b);

/* The leaf's two points (predict negative (0, p), predict positive (q, 0)), filtered. */
bool fr_leaf_front(pdt_front *f, uint32_t p, uint32_t q);
/* True when the search must stop (time limit, interrupt, out of memory). */
bool fr_stopped(fr_search *s);
/* The depth-1 front (n ≥ 1) of items with p positives, q negatives and
 * gp[g], gq[g] of them in the items ∧ g, accumulated in acc, under offset off. */
bool fr_front_of_counts(fr_search *s, pdt_front *f, pdt_front_acc *acc, uint32_t p, uint32_t q,
                        const uint32_t *gp, const uint32_t *gq, const fr_off *off);
/* The depth-2 front (n = 2 or 3, normalised) from pair counts: the same points
 * as the general recursion into depth 1. */
/* (Whole: under the metric bound too, for the similarity bound.) */
bool fr_depth2_front(fr_search *s, pdt_front *f, const uint64_t *items, uint32_t p, uint32_t q, uint32_t n);
bool fr_scratch_init(fr_search *s);
void fr_scratch_clear(fr_search *s);

#endif
