/* The exact comparison of two confusion matrices under F1, Fowlkes–Mallows
 * or MCC that the metric oracles (oracle_metric_rules.c,
 * oracle_metric_categorical.c) rank every brute-force tree by: cross-
 * multiplied 128-bit integers, no rounding.  Independent of pdt's own metric
 * code (framework/model_metric.c), which the oracles check. */
#ifndef PDT_TESTS_METRIC_ORACLE_H
#define PDT_TESTS_METRIC_ORACLE_H

#include <stdint.h>

#include "pdt.h"

typedef struct counts {
    int64_t tp, fp, fn, tn;
} counts;

/* a/b against c/d (b, d ≥ 0; a zero denominator is the value 0). */
static inline int frac_cmp(__int128 a, __int128 b, __int128 c, __int128 d)
{
    if (b == 0) a = 0, b = 1;
    if (d == 0) c = 0, d = 1;
    __int128 x = a * d, y = c * b;
    return (x > y) - (x < y);
}

static inline int metric_cmp(pdt_metric m, const counts *x, const counts *y)
{
    __int128 tp = x->tp, fp = x->fp, fn = x->fn, tn = x->tn;
    __int128 TP = y->tp, FP = y->fp, FN = y->fn, TN = y->tn;
    if (m == PDT_METRIC_F1) return frac_cmp(2 * tp, 2 * tp + fp + fn, 2 * TP, 2 * TP + FP + FN);
    if (m == PDT_METRIC_FM) return frac_cmp(tp * tp, (tp + fp) * (tp + fn), TP * TP, (TP + FP) * (TP + FN));
    /* MCC: sign of the numerator, then its square over the product (N ≤ 16: fits) */
    __int128 nx = tp * tn - fp * fn, ny = TP * TN - FP * FN;
    __int128 dx = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn), dy = (TP + FP) * (TP + FN) * (TN + FP) * (TN + FN);
    int sx = dx == 0 ? 0 : (nx > 0) - (nx < 0), sy = dy == 0 ? 0 : (ny > 0) - (ny < 0);
    if (sx != sy) return (sx > sy) - (sx < sy);
    if (sx == 0) return 0;
    int c = frac_cmp(nx * nx, dx, ny * ny, dy);
    return sx > 0 ? c : -c;
}

#endif
