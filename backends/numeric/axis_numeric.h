/* Private interface of the axis family's numeric backend (ConTree-class):
 * depth- and size-limited optimal trees of thresholds x[j] ≤ v over the
 * items' per-feature sorted orders, with branch-and-bound over the thresholds
 * of a feature and a specialised depth-2 solver (axis_numeric*.c). */
#ifndef PDT_RULES_AXIS_NUMERIC_H
#define PDT_RULES_AXIS_NUMERIC_H

#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "pdt_parallel.h"
#include "pdt_plugin.h"

#define AN_INF INT64_MAX
#define AN_MAX_THREADS 64
#define AN_SOLO_SECONDS 0.05 /* the first worker alone for this long (search_tasks) */
#define AN_MAX_ROWS (1u << 30) /* a feature's bisection is then at most 31 levels deep */

/* A tree in preorder: a branch node is (feature, row) — the rule x[feature] ≤
 * x[row][feature] — followed by its left and right subtrees; a leaf has
 * feature −1. */
typedef struct an_entry {
    int32_t feature;
    uint32_t row;
} an_entry;

/* An item as the sweeps read it: row, its rank in the list's feature, class. */
typedef struct an_item {
    uint32_t row, rank, label;
} an_item;

/* A subproblem: m items; the items in increasing order of feature f (ties by
 * row) are lists[f·m .. f·m + m). */
typedef struct an_node {
    uint32_t m;
    const an_item *lists;
} an_node;

/* A feature's best single threshold seen by a sweep: its cost and the number
 * of items on its left (0: none); guides the order of the search. */
typedef struct an_guide {
    int64_t cost;
    uint32_t pos;
} an_guide;

/* A threshold with pos items on its left and lower bounds on the optima of
 * its left and right subtrees (exact values once it has been evaluated). */
typedef struct an_point {
    uint32_t pos;
    int64_t l, r;
} an_point;

/* An interval of thresholds waiting in a feature's breadth-first scan: the
 * evaluated (or bounded) ends a and b, their indices among the feature's
 * thresholds, and its place in the bisection tree (heap numbering: the whole
 * feature 1, the halves of interval h are 2h and 2h + 1). */
typedef struct an_span {
    an_point a, b;
    int32_t ia, ib;
    uint32_t heap;
} an_span;

/* Scratch of one recursion level (levels are the distance from the root). */
typedef struct an_frame {
    an_item *lists;   /* the children's lists: left then right, N·F */
    int64_t *tot;     /* class totals of the node (C) */
    int64_t *wpre;    /* weight of the first p items of the scanned list (N + 1) */
    uint32_t *bnd;    /* thresholds of the scanned feature: left sizes (N) */
    uint32_t *order;  /* features by their best stump (F) */
    an_guide *guide;  /* best stump per feature (F) */
    an_point *probe;  /* per feature: its guide threshold, evaluated first (F) */
    an_span *spans;   /* the queue of intervals of a feature's search (N + 1) */
    an_entry *tl, *tr; /* the children's trees */
} an_frame;

/* The subproblem cache (axis_numeric_cache.c). */
typedef struct an_cache an_cache;
typedef struct an_key {
    uint64_t h1, h2;
    uint32_t m, d, s;
} an_key;

pdt_status an_cache_new(an_cache **out, size_t n_rows, size_t limit_bytes, pdt_error *err);
void an_cache_free(an_cache **c);
size_t an_cache_entries(const an_cache *c);
void an_cache_key(an_key *k, const an_cache *c, const an_node *nd, uint32_t d, uint32_t s);
/* What is known of the key's items (mark: the all-zero row flags, restored):
 * the best lower bound, and the optimum (AN_INF: unknown) whose tree is
 * copied to `tree` when it is less than ub. */
bool an_cache_get(an_cache *c, const an_key *k, const an_node *nd, uint8_t *mark, int64_t ub, int64_t *lb,
                  int64_t *exact, an_entry *tree, uint32_t *len);
/* From now on the cache may be used by several threads at once. */
pdt_status an_cache_share(an_cache *c, pdt_error *err);
/* Records a lower bound, or the optimum (exact, not AN_INF) and its tree. */
void an_cache_put(an_cache *c, const an_key *k, const an_node *nd, uint8_t *mark, int64_t lb,
                  int64_t exact, const an_entry *tree, uint32_t len);

typedef struct an_stats {
    uint64_t nodes;       /* subproblems entered */
    uint64_t evaluated;   /* thresholds whose subtrees were computed */
    uint64_t skipped;     /* thresholds decided by bounds alone */
    uint64_t hits;        /* subproblems answered by the cache */
    uint64_t pure;        /* depth-2 thresholds and subproblems ruled out by an_pure_bound */
    uint64_t tasks;       /* root tasks run (workers) */
    uint64_t task_ns;     /* the worker's CPU time in root tasks (PDT_WORKER_STATS: the balance in time) */
} an_stats;

/* An incumbent: the least (cost, key) seen, own when the tree written is its. */
typedef struct an_inc {
    int64_t cost;
    uint64_t key;
    bool own;
} an_inc;

static inline bool an_beats(int64_t cost, uint64_t key, const an_inc *inc)
{
    return cost < inc->cost || (cost == inc->cost && key < inc->key);
}

/* What the root's tasks share: the least (cost, key) any of them has found;
 * key is read and written in the critical section an_shared, cost is also
 * read without it (a task's quick check, the progress line). */
typedef struct an_shared {
    _Atomic int64_t cost;
    uint64_t key;
} an_shared;

typedef struct an_ctx an_ctx;
struct an_ctx {
    size_t nf, nc;         /* features, classes */
    const int64_t *cw;     /* class weights (all 1: unit) */
    bool unit;             /* every class weighs 1 */
    uint8_t *mark;         /* per row: 1 = in the left part being evaluated */
    int64_t *cnt;          /* class-count scratch, 4·C */
    an_frame *frames;
    an_cache *cache;       /* NULL: none (--no-memo) */
    /* threads: the root's features are tasks for n_workers workers, each an
     * an_ctx of its own (workers), writing its trees to `out` */
    unsigned n_workers;
    an_ctx *workers;
    an_shared *shared;     /* set in workers (and the root's context) when there are several */
    double solo;           /* seconds before the workers but the first take root tasks */
    an_entry *out;
    /* ranks (axis_numeric_ranks.c): NULL, or the distributor of an MPI job of several */
    const pdt_distributor *dist;
    double last_share;      /* when this worker last shared its rank's best */
    uint64_t rank_work_max, rank_work_total; /* subproblems: the busiest rank's, all ranks' */
    bool rank_error;       /* another rank's winner could not be derived again */
    /* limits */
    bool has_deadline, aborted;
    const volatile sig_atomic_t *stop; /* pdt_fit_options.stop */
    unsigned tick;
    struct timespec start;
    double deadline, last_progress;
    pdt_progress_fn progress;
    void *progress_user;
    int64_t root_best;     /* the root's incumbent (AN_INF: none yet) */
    an_stats stats;
};

/* The optimal tree of depth ≤ d with ≤ s branch nodes for the node's items,
 * when it costs less than ub: returns its cost and writes it to out (*len
 * entries).  Otherwise returns a lower bound ≥ ub and leaves out undefined.
 * After a time limit (ctx->aborted) a returned value < ub is the cost of the
 * tree written, not necessarily optimal. */
int64_t an_solve(an_ctx *c, const an_node *nd, uint32_t level, uint32_t d, uint32_t s, int64_t ub,
                 an_entry *out, uint32_t *len);

/* Leaf cost of class counts already weighted: their total minus the largest
 * (cls_leaf_cost does the same from unweighted counts and the weights). */
static inline int64_t an_leaf_cost(const int64_t *cnt, size_t nc)
{
    int64_t tot = 0, best = 0;
    for (size_t k = 0; k < nc; k++) {
        tot += cnt[k];
        if (cnt[k] > best) best = cnt[k];
    }
    return tot - best;
}

/* A lower bound on the cost of any tree with at most `leaves` leaves over
 * items of these weighted class counts: each leaf is right for one class
 * at best, so at least the weight outside the `leaves` largest classes is
 * misclassified (0 when leaves ≥ classes; the leaf cost for one leaf). */
int64_t an_pure_bound(const int64_t *cnt, size_t nc, uint32_t leaves);

/* Best single split of the node's items (all of them, or with `marked` the
 * marked ones and the others separately): cost, and the rule as a tree
 * (feature −1 when no split beats the leaf).  Per-feature guides when not
 * NULL (one part only). */
typedef struct an_stump {
    int64_t leaf, best;
    an_entry rule;
} an_stump;

/* The threads a search uses: `requested`, else every core (OpenMP's default,
 * OMP_NUM_THREADS honoured); at most AN_MAX_THREADS; 1 without OpenMP. */
unsigned an_threads(uint32_t requested);

void an_stumps(an_ctx *c, const an_node *nd, const int64_t *tot_marked, const int64_t *tot_other,
               an_stump *marked, an_stump *other, an_guide *guide);

/* Root tasks (axis_numeric_ranks.c): a loop of c->nf tasks begins (collective
 * with ranks); the next task of this process (false: none left); the ranks'
 * least cost read into a worker's incumbent now and then; the least (cost,
 * key) over the ranks (collective): false when another rank holds it (*inc
 * is then that cost and key, its tree not written). */
void an_tasks_begin(an_ctx *c, _Atomic uint32_t *next);
bool an_tasks_next(an_ctx *c, _Atomic uint32_t *next, uint32_t *t);
void an_ranks_share(an_ctx *w, an_inc *inc);
bool an_ranks_finish(an_ctx *c, an_inc *inc);

/* The fit: a model of exact axis rules (axis_numeric_fit.c). */
pdt_status an_fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);

/* Seconds since the fit started. */
double an_elapsed(const an_ctx *c);

/* True when the time limit has passed (sets c->aborted); reports progress. */
bool an_tick(an_ctx *c);

#endif
