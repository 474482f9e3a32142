/* The binary backend's Pareto search for two-class metrics (issue 10): the
 * front of (FP, FN) of every tree of the subproblem (items, d, n), cached per
 * item set and limits (binary_front.c), and the metric fit built on it
 * (binary_front_fit.c). */
#ifndef PDT_BINARY_FRONT_H
#define PDT_BINARY_FRONT_H

#include <time.h>

#include "../../rules/binary_impl.h"
#include "front.h"

#define FR_LEAF_POS UINT32_MAX       /* a point's how: a leaf predicting the positive class */
#define FR_LEAF_NEG (UINT32_MAX - 1) /* ... the negative class */
#define FR_MAX_DEPTH 8               /* how = feature << 8 | left budget */

typedef struct fr_search fr_search;

/* A subproblem's offset under the metric bound (binary_front_bound.c): a lower
 * bound of the (FP, FN) the rest of the tree adds.  NULL: no bound (the whole front). */
typedef struct fr_off {
    uint32_t x, y;
} fr_off;

typedef struct fr_stats {
    uint64_t subproblems, cache_hits, sums, pruned;
    uint64_t cache_fronts, cache_points, uncached;
} fr_stats;

/* positive: the positive class's index in data->cls (the other class is negative). */
/* cache_bytes: the cap on the cache of fronts; past it fronts are computed
 * again when needed (slower, still exact). */
pdt_status fr_new(fr_search **out, const bs_data *data, uint32_t positive, size_t cache_bytes,
                  double time_limit, const volatile sig_atomic_t *stop, pdt_error *err);
void fr_free(fr_search **s);
/* The front of (items, d, n): in the cache or in *scratch.  NULL when memory
 * ran out or the search was stopped (fr_failed says which). */
const pdt_front *fr_solve(fr_search *s, pdt_front *scratch, const uint64_t *items, uint32_t d, uint32_t n);
/* The same under the metric bound and offset off (NULL: the whole front): at
 * least every point of the whole front that off + it keeps within the bound,
 * and only points of the whole front (possibly none). */
const pdt_front *fr_solve_in(fr_search *s, pdt_front *scratch, const uint64_t *items, uint32_t d, uint32_t n,
                             const fr_off *off);
/* From now on fr_solve_in's offsets prune by metric: the root points that tie or
 * beat the incumbent (fp, fn) (updated by the root's sums, fr_bound_offer). */
bool fr_bound_start(fr_search *s, pdt_metric metric, uint32_t fp, uint32_t fn, uint32_t top_d);
/* After a stop (PDT_ELIMIT): no deadline, no stop flag, the search usable again
 * (its cache holds only complete fronts). */
void fr_clear_deadline(fr_search *s);
/* While disarmed the deadline and stop flag are not looked at (armed: the default). */
void fr_arm(fr_search *s, bool armed);
/* 0, PDT_ENOMEM or PDT_ELIMIT (time limit or stop). */
pdt_status fr_failed(const fr_search *s);
const fr_stats *fr_search_stats(const fr_search *s);
uint32_t fr_positive(const fr_search *s);
/* For the oracle (tests/oracle_metric.c): the root of ds within opt's limits solved
 * under the metric bound of opt->metric with the fixed incumbent (inc_fp, inc_fn),
 * once per offset in turn on one search (its cache and similarity references
 * kept across them); outs[i] (initialised) receives the front under offs[i]. */
pdt_status bs_metric_front_under(pdt_front *outs, const fr_off *offs, size_t n_offs, const pdt_dataset *ds,
                                 const pdt_fit_options *opt, uint32_t inc_fp, uint32_t inc_fn, pdt_error *err);
/* Limits made canonical: n ≤ 2^d − 1 and d ≤ n. */
void fr_normalise(uint32_t *d, uint32_t *n);

#endif
