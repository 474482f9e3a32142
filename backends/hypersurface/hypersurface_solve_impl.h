/* Private interface of the hypersurface backend (hypersurface_solve.c: the
 * drivers; hypersurface_table.c: tuples, bases, evaluation; hypersurface_two.c:
 * trees of two branch nodes).  See hypersurface_solve.c for the method. */
#ifndef PDT_RULES_HYPERSURFACE_SOLVE_H
#define PDT_RULES_HYPERSURFACE_SOLVE_H

#include <stdatomic.h>
#include <time.h>

#include "../../problems/classification.h"
#include "pdt_parallel.h"
#include "../../rules/hypersurface.h"

#define HSS_MAX_G 6                          /* surface-point tables have one bit per assignment */
#define HSS_TABLE_BYTES (UINT64_C(3) << 30)  /* tuple bases kept for K = 2 */
#define HSS_SEEN_MAX (UINT64_C(1) << 23)     /* root partitions remembered */
#define HSS_MEMO_MAX (UINT64_C(1) << 21)     /* child regions cached */
#define HSS_CHECK_EVERY 1024u     /* root tuples between time checks */
#define HSS_CHECK_TUPLES 65536u   /* tuples of a region search between time checks */
#define HSS_WARM 64u              /* best single splits tried first as roots */

/* A row on the surface of a tuple that is not one of its points. */
typedef struct hss_exc {
    uint64_t rank;
    uint32_t row;
    uint64_t left; /* bit m: the row goes left under assignment m */
} hss_exc;

/* A split of a region: value, the tuple (by rank and rows) and the assignment. */
typedef struct hss_split {
    int64_t value; /* INT64_MAX: none */
    uint32_t t[HS_MAX_LIFTED];
    int64_t mask;
    bool exact;    /* cached regions: value is the optimum (else a lower bound) */
} hss_split;

/* Item sets (bitsets) → a split, open addressing. */
typedef struct hss_map {
    size_t words, cap, n, max;
    uint64_t *hash, *keys;
    hss_split *val;
    int64_t *tag; /* maps without values: a position per key (hss_map_first) */
} hss_map;

/* K = 2 on ranks: the root partitions this rank tried, for the others
 * (hypersurface_hints.c). */
typedef struct hss_hints {
    uint64_t *buf, *spare; /* entries of 1 + words: the position, then the partition's key */
    size_t n, cap, cap_spare, words;
} hss_hints;

typedef struct hss {
    const pdt_dataset *ds;
    const pdt_fit_options *opt;
    hs_data hd;
    hs_eval ev;
    cls_inst ci;
    size_t n, G, words, C;
    uint32_t lo, *label;
    uint64_t *binom; /* C(i, k) at i·(G+1) + k */
    uint64_t n_tuples;
    uint64_t *base;  /* n_tuples · words, or NULL (K = 1) */
    uint8_t *kind;   /* per tuple: 0 dependent, 1 general, 2 with surface rows */
    int64_t *value;  /* per tuple: its best split of all rows (INT64_MAX: none) */
    uint32_t *order; /* ranks of the tuples with a split, by increasing value */
    uint8_t *order_pts; /* their points, G bytes each, when n <= 256 (else NULL): no unranking */
    uint64_t n_order;
    int64_t weight_all; /* weight of all rows */
    hss_exc *exc;
    size_t n_exc, cap_exc;
    uint64_t *cert;    /* K = 2: Radon certificates, words each (hypersurface_radon.c) */
    int64_t *cert_w;   /* their least class weights */
    size_t n_cert, cap_cert;
    int64_t *cnt;      /* scratch: 12·(C+1) counts (the last third: hss_search_two's root counts) */
    uint64_t *all, *left, *right, *tmp, *by_class; /* scratch bitsets (by_class: C of them) */
    uint32_t *items;   /* scratch: n row indices */
    uint8_t *on_t;     /* scratch: n flags */
    hss_map seen, memo;
    struct timespec start;
    double next_report;
    int64_t best_value; /* best tree value so far (progress reports) */
    bool stopped;
    uint64_t candidates, regions, memo_hits;
    hss_map *seen_shared; /* K = 2 on threads: the partitions met, shared under a lock */
    hss_hints *hints;     /* K = 2 on ranks: the partitions tried, told to the others (else NULL) */
    atomic_bool *halt; /* K = 2 on threads: one worker stopping stops all (else NULL) */
    uint64_t n_warm;   /* K = 2: tuples of the warm start (the first of order) */
    int64_t warm_span; /* K = 2: the positions before the enumeration's (hypersurface_two.c) */
    unsigned workers;  /* K = 2: threads, or ranks, that shared the root tuples */
    uint64_t work_max, work_total; /* their regions searched: the busiest, all */
} hss;

/* A region: its items, class counts and per-class item bitsets. */
typedef struct hss_region {
    const uint64_t *items;
    uint64_t *by_class; /* C · words */
    int64_t *tot;       /* C */
    uint32_t size;
} hss_region;

typedef struct hss_tree {
    int64_t value;
    int size;            /* branch nodes: 0, 1 or 2 */
    hss_split root;      /* size >= 1 */
    bool child_left;     /* size 2: the left child is split */
    hss_split child;
    int64_t pos;         /* K = 2: position of the root rule in the serial order (hypersurface_two.c) */
} hss_tree;

double hss_elapsed(const hss *h);
/* Whether this is the first thread of a parallel region (the one that reports progress). */
bool hss_first_thread(void);
/* The time limit, and a progress report about once a second. */
bool hss_out_of_time(hss *h);
/* hypersurface_points.c: the tuple of colex rank r; h->order_pts (n <= 256) */
void hss_unrank(const hss *h, uint64_t r, uint32_t *t);
void hss_order_points(hss *h);
static inline uint64_t hss_binom(const hss *h, size_t i, size_t k) { return h->binom[i * (h->G + 1) + k]; }
uint64_t hss_colex_rank(const hss *h, const uint32_t *t);
int64_t hss_leaf_cost(const hss *h, const int64_t *c);

pdt_status hss_map_init(hss_map *m, size_t words, size_t max, bool values, pdt_error *err);
void hss_map_free(hss_map *m);
hss_split *hss_map_get(hss_map *m, const uint64_t *key, bool *fresh);
/* A map without values as a set of partitions met at positions: true when
 * key is new or was met only at later positions (pos is then kept). */
bool hss_map_first(hss_map *m, const uint64_t *key, int64_t pos);

void hss_region_init(hss *h, hss_region *r, const uint64_t *items, uint64_t *by_class, int64_t *tot);
void hss_eval_general(hss *h, const hss_region *r, const uint64_t *base, const uint32_t *t, hss_split *best);
void hss_eval_degenerate(hss *h, const hss_region *r, const uint64_t *base, const uint32_t *t,
                         const hss_exc *exc, size_t n_exc, hss_split *best);
/* Every tuple: bases, kinds and values kept when `keep` (K = 2), the best
 * split of all rows into *root. */
pdt_status hss_scan_tuples(hss *h, bool keep, hss_split *root, const hss_region *all, pdt_error *err);
const hss_exc *hss_exceptions_of(const hss *h, uint64_t rank, size_t *count);
/* Radon certificates of the data (K = 2, after the table), and the bound
 * they give on every split of a region: the weight of disjoint ones inside
 * it, packed greedily up to target (used: words of scratch). */
pdt_status hss_certs_build(hss *h, pdt_error *err);
int64_t hss_certs_bound(const hss *h, const uint64_t *items, int64_t target, uint64_t *used);
/* Trees of two branch nodes better than best (hypersurface_two.c), on
 * opt->threads threads and the ranks of an installed distributor. */
pdt_status hss_search_two(hss *h, hss_tree *best, pdt_error *err);

/* hypersurface_hints.c */
void hss_hints_note(hss_hints *x, const uint64_t *key, int64_t pos);
void hss_hints_swap(hss_hints *x, hss_map *seen, const pdt_distributor *d);
void hss_hints_end(hss_hints *x, const pdt_distributor *d);
void hss_hints_free(hss_hints *x);

#endif
