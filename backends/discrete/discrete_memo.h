/* The branch search's memo (discrete_memo.c): what is known of a region of
 * the data — its optimum, or a lower bound — keyed by its rows in increasing
 * order and the depth left (PDT_UNLIMITED without a depth limit).  Every
 * branch describing the same rows shares one entry (one-hot conjunctions
 * often do).  Keys are kept whole and compared on every hash match: a hit
 * is exact, never a probable one.  Internal to backends/discrete/. */
#ifndef PDT_DISCRETE_MEMO_H
#define PDT_DISCRETE_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dc_entry {
    uint64_t hash;
    uint32_t key, len;  /* len rows at keys[key ..): listed, or a bitset of n_rows bits when shorter */
    uint32_t rem;       /* depth left */
    int64_t lb;         /* the optimum is at least lb */
    int64_t best;       /* solved: the optimum */
    uint32_t feature;   /* solved: the best split, DC_LEAF for a leaf */
    bool solved;
    bool incumbent;     /* stopped: feature is the best complete split found (its children solved) */
    bool looked;        /* lb includes the region's own look-ahead bound */
} dc_entry;

typedef struct dc_memo {
    dc_entry *slots;    /* open addressing; hash 0 marks an empty slot */
    size_t n_slots, used;
    void *map;          /* the mapping holding slots (NULL: slots came from calloc) */
    size_t map_len;
    uint32_t *keys;
    size_t n_keys, cap_keys;
    size_t n_rows;      /* of the data: rows are < n_rows */
    const uint64_t *row_hash; /* n_rows words (the caller's) */
    size_t bytes, limit;
    bool full;
} dc_memo;

/* A key's hash is the sum of its rows' random words (row_hash), mixed with
 * its length and depth left: sums need no order and no chain, so a split's
 * children are hashed in one pass over the parent's rows (two-valued: one
 * masked sum, the other child's is the rest). */
uint64_t dc_hash_final(uint64_t sum, size_t len, uint32_t rem);
/* Fills row_hash[0 .. n) with fixed pseudo-random words. */
void dc_row_hash_fill(uint64_t *row_hash, size_t n);

/* A subset of a region given without its rows: the items (increasing) whose
 * code (codes[item], one feature's column) is v.  For a two-valued feature
 * it may also be given by bitsets (64 rows a word): the region's rows `all`
 * and the feature's rows of code 1 `one` (else both NULL). */
typedef struct dc_subset {
    const uint32_t *items;
    size_t n_items;
    const uint16_t *codes;
    uint32_t v;
    const uint64_t *all, *one;
} dc_subset;

/* The entry of rows[0 .. len) with rem levels left, created (lb 0, unsolved,
 * feature DC_LEAF) when absent and `create`; NULL when absent and not
 * created, or when the memo may grow no more (then m->full). */
dc_entry *dc_memo_get(dc_memo *m, const uint32_t *rows, size_t len, uint32_t rem, bool create);
/* The entry of a subset of len rows whose final hash is h, or NULL. */
dc_entry *dc_memo_find_subset(const dc_memo *m, uint64_t h, size_t len, uint32_t rem, const dc_subset *sub);
/* Starts loading the slot of hash h (a later find need not wait for memory). */
void dc_memo_prefetch(const dc_memo *m, uint64_t h);
void dc_memo_clear(dc_memo *m); /* frees everything; the limit, n_rows and row_hash are kept */

#endif
