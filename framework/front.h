/* Pareto fronts of (false positives, false negatives) and the nonlinear
 * metrics chosen at the root of a two-class fit (Demirović & Stuckey,
 * "Optimal decision trees for nonlinear metrics").  The objective piece every
 * backend shares: a front is a value, union + filter its selection, the
 * Minkowski sum + filter its combination.
 *
 * Unit weights: points are integer counts.  A point remembers how its tree is
 * made (how: a backend's code, e.g. the root feature; left/right: the indices
 * of the child points it sums), so the chosen tree can be rebuilt. */
#ifndef PDT_FRONT_H
#define PDT_FRONT_H

#include "pdt_plugin.h"

typedef struct pdt_front_point {
    uint32_t fp, fn;
    uint32_t how, left, right;
} pdt_front_point;

typedef struct pdt_front {
    pdt_front_point *p; /* nondominated after pdt_front_filter: fp ascending, fn descending */
    size_t n, cap;
} pdt_front;

/* The confusion counts of a two-class tree (positive = the chosen class). */
typedef struct pdt_confusion {
    uint64_t tp, fp, fn, tn;
} pdt_confusion;

void pdt_front_init(pdt_front *f);
void pdt_front_clear(pdt_front *f);
/* Appends a point (unfiltered); false when memory ran out. */
bool pdt_front_push(pdt_front *f, uint32_t fp, uint32_t fn, uint32_t how, uint32_t left, uint32_t right);
/* Keeps the nondominated points, one per (fp, fn) (the first in (fp, fn, how,
 * left, right) order), sorted by fp ascending.  Deterministic. */
void pdt_front_filter(pdt_front *f);
/* f ∪= g, then filter. */
bool pdt_front_union(pdt_front *f, const pdt_front *g);
/* f ∪= {a_i + b_j} (each sum remembers how, i, j), then filter. */
bool pdt_front_add_sum(pdt_front *f, const pdt_front *a, const pdt_front *b, uint32_t how);
/* The same without the filter: many sums appended, then one pdt_front_filter. */
bool pdt_front_append_sum(pdt_front *f, const pdt_front *a, const pdt_front *b, uint32_t how);
/* An accumulator for fronts whose fp is at most max_fp (integer counts): the
 * best point per fp, no sorting.  Taking it gives exactly what pushing the same
 * points and pdt_front_filter give, and leaves it empty for reuse. */
typedef struct pdt_front_acc {
    uint32_t max_fp;
    pdt_front_point *best; /* max_fp + 1; fn UINT32_MAX: none */
} pdt_front_acc;

bool pdt_front_acc_init(pdt_front_acc *a, uint32_t max_fp);
void pdt_front_acc_clear(pdt_front_acc *a);
static inline bool pdt_point_before(uint32_t how, uint32_t left, uint32_t right, const pdt_front_point *b)
{
    return how != b->how ? how < b->how : left != b->left ? left < b->left : right < b->right;
}
static inline void pdt_front_acc_add(pdt_front_acc *a, uint32_t fp, uint32_t fn, uint32_t how, uint32_t left,
                                     uint32_t right)
{
    pdt_front_point *b = &a->best[fp];
    if (fn < b->fn || (fn == b->fn && pdt_point_before(how, left, right, b)))
        *b = (pdt_front_point){fp, fn, how, left, right};
}
/* Every sum of a point of x and one of y (how, and the two indices). */
void pdt_front_acc_add_sums(pdt_front_acc *a, const pdt_front *x, const pdt_front *y, uint32_t how);
/* The nondominated points with fp ≤ upto (every point added must have fp ≤ upto) into *out. */
bool pdt_front_acc_take(pdt_front *out, pdt_front_acc *a, uint32_t upto);
/* a weakly dominates b: a.fp ≤ b.fp and a.fn ≤ b.fn. */
static inline bool pdt_point_covers(uint32_t afp, uint32_t afn, uint32_t bfp, uint32_t bfn)
{
    return afp <= bfp && afn <= bfn;
}
/* Some point of the (filtered) front weakly dominates (fp, fn). */
bool pdt_front_covers(const pdt_front *f, uint32_t fp, uint32_t fn);
/* The index of the point (fp, fn) in a filtered front, or SIZE_MAX. */
size_t pdt_front_find(const pdt_front *f, uint32_t fp, uint32_t fn);

/* ------------------------------------------------------------ the generic search */

/* A front search of the generic engine (front_search.c): the root's front over
 * every tree within the limits of opts (at most max_size branch nodes, depth at
 * most max_depth) for a problem whose algebra is pdt_algebra_front, kept with
 * its subproblem cache so that the tree of any point can be found. */
typedef struct pdt_front_search pdt_front_search;

/* *out is set (free it) even when the search fails or stops. */
pdt_status pdt_front_search_run(pdt_front_search **out, const pdt_problem_class *pc, void *inst,
                                const pdt_ruleset *rs, size_t words, const pdt_node *root,
                                const pdt_search_opts *opts, pdt_error *err);
const pdt_front *pdt_front_search_front(const pdt_front_search *fs);
/* false when a time limit or stop flag ended the search (the front is then partial). */
bool pdt_front_search_complete(const pdt_front_search *fs);
const pdt_search_stats *pdt_front_search_stats(const pdt_front_search *fs);
void pdt_front_search_free(pdt_front_search **fs);

/* A tree in preorder: payload (PDT_LEAF for a leaf) and, for leaves, the how
 * of the leaf point the problem gave (e.g. the predicted class). */
typedef struct pdt_front_tree {
    int64_t *pre;
    uint32_t *leaf_how;
    size_t len, cap;
} pdt_front_tree;

/* A tree whose value is exactly the point (fp, fn) of the root's front (found
 * again from the cached child fronts: a leaf point, or a split and two child
 * points that sum to it; the first in the search's order). */
pdt_status pdt_front_search_tree(pdt_front_tree *out, pdt_front_search *fs, uint32_t fp, uint32_t fn,
                                 pdt_error *err);
void pdt_front_tree_clear(pdt_front_tree *t);

/* ------------------------------------------------------------ metrics */

/* Confusion counts of a point, given the data's positives and negatives. */
pdt_confusion pdt_confusion_of(uint32_t fp, uint32_t fn, uint64_t positives, uint64_t negatives);
/* The metric's exact value: F1 = 2TP/(2TP+FP+FN); FM² = TP²/((TP+FP)(TP+FN));
 * MCC² = (TP·TN − FP·FN)²/((TP+FP)(TP+FN)(TN+FP)(TN+FN)) with *sign the sign of
 * TP·TN − FP·FN (may be NULL for the others).  A zero denominator gives 0. */
void pdt_metric_exact(mpq_ptr out, int *sign, pdt_metric metric, const pdt_confusion *c);
/* Accuracy too: (TP+TN)/(all).  Compares the metric of a and b: <0, 0, >0. */
int pdt_metric_cmp(pdt_metric metric, const pdt_confusion *a, const pdt_confusion *b);
/* The index of the front's point with the best metric (ties: the first). */
size_t pdt_front_best(const pdt_front *f, pdt_metric metric, uint64_t positives, uint64_t negatives);
/* The metric's value as a decimal to `digits` places, rounded toward 0 (MCC: sign · √MCC²;
 * FM: √FM²); appended to b. */
void pdt_metric_decimal(pdt_buf *b, pdt_metric metric, const pdt_confusion *c, unsigned digits);

#endif
