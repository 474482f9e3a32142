/* Internals shared by the categorical family's front search
 * (discrete_front.c) and the rebuilding of a point's tree
 * (discrete_front_tree.c). */
#ifndef PDT_DISCRETE_FRONT_IMPL_H
#define PDT_DISCRETE_FRONT_IMPL_H

#include <signal.h>
#include <time.h>

#include "discrete_front.h"
#include "../../rules/binary_impl.h"

typedef struct df_entry {
    uint64_t hash;
    uint32_t n, drem, k;
    uint32_t *rows;
    pdt_front front;
} df_entry;

/* The ways of one feature in a region: rows grouped by code (ascending),
 * each group in increasing row order. */
typedef struct df_split {
    uint32_t m;       /* ways present */
    uint32_t *start;  /* m + 1 offsets into rows */
    uint32_t *rows;
    uint16_t *code;   /* m codes */
} df_split;

struct df_search {
    const pdt_dataset *ds;
    bin_encoding enc;
    size_t n, nf;
    uint32_t *column; /* nf: the feature's dataset column */
    int32_t *bin;     /* nf: index into enc, −1 for a categorical column (multiway) */
    uint16_t *x, *k;  /* n * nf codes (row-major), nf code counts */
    uint8_t *pos;     /* n: the row is positive */
    uint32_t *code_off, *cnt; /* nf + 1 offsets of each feature's codes; 2 · code_off[nf] counts */
    pdt_front way_a, way_b;   /* scratch of depth1 */
    pdt_front_acc acc;        /* depth1's union (fp ≤ n) */
    size_t words;             /* of a bitset of the rows */
    uint64_t *code_bits, *pos_bits, *region; /* code_off[nf] bitsets, positives, scratch; or NULL */
    uint32_t positive, max_depth, max_size, min_leaf;
    df_entry *slots;  /* open addressing; hash 0: empty */
    size_t n_slots, used, bytes, memo_limit;
    bool memo_full;
    bool has_deadline, aborted;
    struct timespec start, deadline;
    const volatile sig_atomic_t *stop;
    uint32_t root_done; /* root features whose splits are in the root's front */
    pdt_front front;
    pdt_search_stats stats;
    pdt_error *err;
};

/* The budgets 0..k of a split's ways sharing at most k branch nodes (k
 * unlimited: one, "unlimited"). */
static inline uint32_t df_budgets(uint32_t k) { return k == PDT_UNLIMITED ? 1 : k + 1; }

/* Positives of the rows. */
uint32_t df_positives(const df_search *s, const uint32_t *rows, uint32_t n);
/* The leaf's front: (negatives, 0) predicting positive, (0, positives) negative (how: the class). */
bool df_leaf(pdt_front *out, const df_search *s, const uint32_t *rows, uint32_t n);
/* Depth and budget as cached: false when the region is a leaf only. */
bool df_normalise(const df_search *s, uint32_t n, uint32_t pos, uint32_t *drem, uint32_t *k);
/* The ways of feature f; false when fewer than two, or one is below min-leaf. */
bool df_partition(df_split *sp, const df_search *s, const uint32_t *rows, uint32_t n, uint32_t f);
/* The front of a region (rows sorted), remaining depth and budget. */
pdt_status df_front(df_search *s, const uint32_t *rows, uint32_t n, uint32_t drem, uint32_t k, pdt_front *out,
                    bool root);
/* The fronts of a split whose ways share at most k branch nodes and have
 * depth drem each, way by way: level j budget b (0 ≤ b < df_budgets(k))
 * holds the sums of ways 1..j using at most b branch nodes, each point with how
 * = the budget of way j, left = its index in level j−1 at b − how, right = its
 * index in way j's front at that budget.  keep: every level in lv[(m+1) · nb]
 * and every way's front in kids[m · nb] (for rebuilding); otherwise lv has two
 * levels (2 · nb) and kids one front; the split's front is then lv[(m & 1) · nb
 * + nb − 1]. */
pdt_status df_split_fronts(df_search *s, const df_split *sp, uint32_t drem, uint32_t k, pdt_front *lv,
                           pdt_front *kids, bool keep);

#endif
