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
/* a weakly dominates b: a.fp ≤ b.fp and a.fn ≤ b.fn. */
static inline bool pdt_point_covers(uint32_t afp, uint32_t afn, uint32_t bfp, uint32_t bfn)
{
    return afp <= bfp && afn <= bfn;
}
/* Some point of the (filtered) front weakly dominates (fp, fn). */
bool pdt_front_covers(const pdt_front *f, uint32_t fp, uint32_t fn);

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
/* The metric's value as a decimal (MCC: sign · √MCC², to `digits` places, rounded down in
 * magnitude); appended to b. */
void pdt_metric_decimal(pdt_buf *b, pdt_metric metric, const pdt_confusion *c, unsigned digits);

#endif
