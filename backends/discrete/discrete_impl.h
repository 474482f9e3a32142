/* The branch search's internals, shared by discrete.c (the search, the
 * tree, the runs) and discrete_data.c (counting and the data's set-up).
 * Internal to backends/discrete/. */
#ifndef PDT_DISCRETE_IMPL_H
#define PDT_DISCRETE_IMPL_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "discrete.h"
#include "discrete_memo.h"

typedef struct dc_search {
    const dc_problem *p;
    uint32_t max_depth;     /* of the current run: the problem's, or a shallower one */
    dc_memo *memo;          /* (shared with the deeper searches, and with the thread of a proof on two) */
    uint32_t *group;        /* n: rows equal on every feature share a group */
    size_t n_groups;
    uint32_t *fl;           /* n: a group's unavoidable errors on its first row, 0 elsewhere */
    uint64_t *planes;       /* n_planes * words: bit b of fl, as bitsets (with bits) */
    size_t n_planes;
    uint32_t *ccount;       /* nc scratch */
    uint32_t *pcount;       /* maxk * nc scratch: class counts by code */
    uint16_t *col;          /* nf * n: the codes, column by column */
    uint64_t *salt;         /* a salt for each word of 64 rows (the memo's hashes; NULL: weak, tests) */
    uint64_t *hx;           /* maxk scratch: each child's word being hashed */
    size_t *hw;             /* maxk scratch: its index */
    size_t words;           /* of a bitset of rows */
    uint64_t *bits;         /* the rows of code v of feature f (v >= 1) at bit_at[f] + (v - 1) * words */
    size_t *bit_at;         /* nf; SIZE_MAX: feature f has no bitsets (or bits is NULL) */
    uint64_t *tbits;        /* with bits: the binary features' code-1 bitsets word by word:
                               word w of binary feature j at [w * nb + j] (NULL: none) */
    uint32_t *tpos;         /* nf: feature f's j in tbits, or UINT32_MAX */
    size_t nb;              /* binary features in tbits */
    bool narrow;            /* dc_narrow: their look-ahead bounds at once (dc_binary_bounds) */
    size_t maxk;
    struct timespec start;
    const char *stopped_by; /* set once: every call then fails */
    uint64_t evaluations;
    uint64_t rows;          /* of the regions evaluated */
    uint64_t row_limit;     /* > 0: rows stops the search there ("row budget": p->max_rows, or this
                               thread's share of it, run) */
    uint64_t work_limit;    /* of evaluations, for the run under way (0: none); reaching it stops the run
                               with stopped_by == dc_paused (a deeper search's, dc_deepen) */
    /* the anytime schedule (dc_deepen): deeper searches within the full one */
    uint64_t next_deeper;   /* evaluations at which the next one runs (0: none) */
    uint32_t deeper;        /* its depth */
    uint32_t deeper_idle;   /* turns in a row that gave no cheaper tree */
    int64_t outside;        /* the cheapest tree made outside the search (p->deeper_had, the hook's) */
    const uint32_t *all;    /* 0 .. n - 1 */
    struct dc_result *best; /* the best tree so far (*have), to beat */
    bool *have;
    int64_t given;          /* the caller's incumbent's cost, or INT64_MAX */
    double next_progress;   /* seconds: the next report (p->progress) */
    struct dc_frame *frames;/* nf + 1: scratch of each depth, made when first reached */
    /* a proof on several threads (run, discrete.c): the full search's and those beside it, the
     * memo shared */
    uint32_t proof_threads; /* the full search's threads (1: none beside it) */
    uint32_t proof_ran;     /* the most that searched a root together */
    uint64_t work_max, work_total; /* then the evaluations of the busiest, of all (that search's) */
    int *halt;              /* or NULL: set (atomically) when the full search's thread is done with the
                               root: the threads beside it then stop (stopped_by == dc_halted) */
    uint8_t *claimed;       /* or NULL: nf flags, set (atomically) by the thread that takes the root's
                               split on that feature */
    uint32_t root_turn;     /* 0: the full search's thread; i: the i-th beside it */
    int64_t *busy;          /* or NULL: each thread's region being searched at each depth, its memo
                               hash and budget (hash 0: none), at [(root_turn * (nf + 2) + depth) * 2]
                               (read and written atomically: children() leaves a region another
                               thread is searching under as large a budget for later) */
    bool busy_half;         /* tests (PDT_DISCRETE_BUSY=half): children of odd hashes taken as busy */
    bool by_codes;          /* measurements (PDT_DISCRETE_TURNS=codes): children() takes the children
                               in the order of their codes, not the least bound first */
} dc_search;

typedef struct dc_stats {
    uint64_t errors, floor; /* leaf errors; errors no tree can avoid */
    uint32_t label;
} dc_stats;

/* A candidate split and its lower bound. */
typedef struct dc_cand {
    int64_t lb;
    uint32_t f;
} dc_cand;


/* Regions kept by each depth for the similarity bound: the last one bounds
 * most of the regions it cuts (anneal, DL8.5, λ = 0.01: 1 176 629 →
 * 1 121 816 evaluations), four 1 078 905. */
#define DC_SEEN 4

/* The counts of one child of a two-valued split, made from its parent's
 * bitsets (the smaller child counted, the other its parent less it) and
 * read by the child's look-ahead and its search instead of counting again. */
typedef struct dc_kid {
    uint64_t *rc;    /* (nc + 1) * words, as dc_frame.rc */
    uint32_t *rtot;  /* nc + 1 */
    uint32_t *bc;    /* (nc + n_planes) * nb */
    bool ready;      /* of the split the node is searching */
} dc_kid;

/* The scratch of one depth of the recursion (one node at a time per depth). */
typedef struct dc_frame {
    uint32_t *part;  /* n: the node's items grouped by a feature's code */
    uint32_t *start; /* maxk + 1 */
    uint32_t *key;   /* depth + 1: a child's branch */
    int64_t *clb;    /* nf * maxk: the look-ahead's bound of each child of each split */
    uint64_t *chash; /* nf * maxk: each child's memo hash */
    uint32_t *cm;    /* nf * maxk: each child's rows */
    uint32_t *cerr;  /* nf * maxk: each child's leaf errors */
    uint32_t *cfl;   /* nf * maxk: each child's unavoidable errors */
    uint32_t *split; /* nf: the features that split the node */
    uint64_t *rc;    /* (nc + 1) * words: the node's rows of each class, then all (with bitsets) */
    uint32_t *bc;    /* with tbits: (nc + n_planes) * nb, the node's rows of class c (then of
                        unavoidable-error plane q) with code 1 of binary feature j at [c * nb + j] */
    uint32_t *rtot;  /* nc + 1: the node's rows of each class, then its unavoidable errors */
    dc_cand *cand;   /* nf */
    int32_t *qb;     /* with tbits: nb, each binary feature's look-ahead bound (dc_binary_bounds) */
    uint8_t *done;   /* maxk: the split's children solved */
    uint32_t *order; /* maxk: the order of a turn (children()) */
    bool has_bits;   /* rc, rtot and bc hold the node's (dc_class_bits) */
    bool has_sum;    /* with has_bits: sum is the hash sum of the node's rows (dc_hash_codes), and
                        nz[0 .. n_nz) the words of its bitsets that hold rows */
    uint64_t sum;
    uint32_t *nz;    /* with bits: words */
    size_t n_nz;
    dc_kid kid[2];   /* with tbits: the counts of the children of the split searched */
    /* the similarity bound (discrete.c, similar): the last DC_SEEN regions searched at this
     * depth, each its rows (a bitset), what its search returned and its levels left */
    uint64_t *seen;  /* DC_SEEN * words */
    int64_t seen_cost[DC_SEEN];
    uint32_t seen_rem[DC_SEEN];
    uint32_t n_seen, seen_next;
} dc_frame;

extern const char dc_paused[];
extern const char dc_halted[];

/* Leaf errors and label of the items, and their unavoidable errors. */
dc_stats dc_region_stats(dc_search *s, const uint32_t *items, size_t len);
/* The scratch of a depth, made when first asked for (NULL: out of memory). */
dc_frame *dc_frame_at(dc_search *s, size_t depth);
void dc_frame_free(dc_frame *fr);
/* Where each code's items start when grouped (sizes: of each code), without the items. */
void dc_starts(const dc_search *s, uint32_t f, const uint32_t *sizes, uint32_t *start);
/* Items by code of feature f: out holds them grouped, start[v] .. start[v+1]. */
void dc_partition(const dc_search *s, uint32_t f, const uint32_t *items, size_t len, const uint32_t *sizes,
                  uint32_t *out, uint32_t *start);
/* The node's bitsets into fr, when some split counts faster by them. */
bool dc_class_bits(dc_search *s, dc_frame *fr, const uint32_t *items, size_t len);
/* The children of fr's node split on two-valued feature f (of sizes m[0],
 * m[1]) counted into fr->kid from the node's bitsets; false when they
 * cannot be (the node has none, or f is not among tbits). */
bool dc_kids_count(dc_search *s, dc_frame *fr, uint32_t f, const uint32_t *m);
/* A child's counts from its parent (dc_kids_count) into fr, as dc_class_bits. */
void dc_kid_load(dc_search *s, dc_frame *fr, const dc_kid *kid, const uint32_t *items, size_t len);
/* A split's children without moving rows: sizes, leaf and unavoidable errors
 * (items NULL: by fr's bitsets, which bits says it holds). */
size_t dc_count_codes(dc_search *s, const dc_frame *fr, bool bits, uint32_t f, const uint32_t *items, size_t len,
                      uint32_t *m, uint32_t *err, uint32_t *fl);
/* dc_count_codes, for a two-valued feature among tbits read straight off the
 * node's counts (fr->bc, fr->rtot) without a call (every feature, every
 * node); the Debug builds compare it with dc_count_codes. */
static inline size_t dc_count_cells(dc_search *s, const dc_frame *fr, bool bits, uint32_t f, const uint32_t *items,
                                    size_t len, uint32_t *m, uint32_t *err, uint32_t *fl)
{
    if (!bits || !s->tbits || s->tpos[f] == UINT32_MAX) return dc_count_codes(s, fr, bits, f, items, len, m, err, fl);
    const size_t nc = s->p->nc, nb = s->nb, j = s->tpos[f];
    uint32_t m0 = 0, m1 = 0, most0 = 0, most1 = 0, fl1 = 0;
    for (size_t c = 0; c < nc; c++) {
        const uint32_t one = fr->bc[c * nb + j], zero = fr->rtot[c] - one;
        m1 += one, m0 += zero;
        most1 = one > most1 ? one : most1;
        most0 = zero > most0 ? zero : most0;
    }
    for (size_t q = 0; q < s->n_planes && fr->rtot[nc]; q++) fl1 += fr->bc[(nc + q) * nb + j] << q;
    m[0] = m0, m[1] = m1, err[0] = m0 - most0, err[1] = m1 - most1, fl[0] = fr->rtot[nc] - fl1, fl[1] = fl1;
#ifndef NDEBUG
    uint32_t cm[2], ce[2], cf[2];
    assert(!items || dc_count_codes(s, fr, bits, f, items, len, cm, ce, cf) == (size_t)(m0 > 0) + (m1 > 0));
    for (size_t v = 0; items && v < 2; v++) assert(cm[v] == m[v] && ce[v] == err[v] && cf[v] == fl[v]);
#else
    (void)items, (void)len;
#endif
    return (size_t)(m0 > 0) + (m1 > 0);
}
/* Whether every cost of a region fits 32 bits (dc_binary_bounds): rows·err_cost + 2·split_cost. */
bool dc_narrow(const dc_search *s);
/* Every binary feature's look-ahead bound at once from fr's counts (fr->bc,
 * fr->rtot: the node's bitsets, dc_narrow): q[j] is count_bound of the j-th
 * feature of tbits, or INT32_MAX when the split is needless or leaves a
 * child empty.  One pass over the features in 32-bit lanes, not a call per
 * feature (australian-credit, DL8.5, λ = 0.01: count_bound was 14 % of the
 * search's time, the inlined counts more). */
void dc_binary_bounds(const dc_search *s, const dc_frame *fr, bool child_split, int32_t *q);
/* A split's children's memo hashes (slots prefetched); bits: fr holds the node's bitsets. */
void dc_hash_codes(dc_search *s, dc_frame *fr, bool bits, uint32_t f, const uint32_t *items, size_t len,
                   const uint32_t *m, uint32_t rem, uint64_t *h);
/* Room in r for `need` more nodes (and their nc class counts each); *cap: the room there is. */
pdt_status dc_result_reserve(dc_result *r, size_t *cap, size_t need, size_t nc, pdt_error *err);
/* discrete_greedy.c: a greedy tree pruned exactly for the costs (an incumbent). */
pdt_status dc_greedy(dc_search *s, dc_result *r, pdt_error *err);
/* Set-up: groups of equal rows, their unavoidable errors, the bitsets. */
pdt_status dc_make_groups(dc_search *s, pdt_error *err);
pdt_status dc_make_floors(dc_search *s, pdt_error *err);
pdt_status dc_make_bits(dc_search *s, pdt_error *err);

/* discrete_few.c: few nodes.  In: the incumbent's cost, the costs, the node
 * budget K (k_max) and the run's limits.  Out: cost lowered to the best tree
 * of at most K nodes (and levels) that beats it, k_best its node limit (0:
 * none beats it) and its depth and size; stopped when a limit
 * ended the scan (then nothing is proven). */
typedef struct dc_few {
    int64_t cost, err_cost, split_cost;
    uint32_t k_max, k_best, depth_best, size_best;
    double time_limit;
    const volatile sig_atomic_t *stop;
    size_t memo_megabytes;
    unsigned threads; /* the backend's workers for k ≥ 3 (pdt_threads_resolve) */
    bool stopped;
} dc_few;

struct bin_encoding;
pdt_status dc_few_search(dc_few *fw, const pdt_dataset *ds, const struct bin_encoding *enc, pdt_error *err);

#endif
