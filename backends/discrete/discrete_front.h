/* Pareto fronts of (false positives, false negatives) for the categorical
 * family (issue 10): trees whose categorical columns split in as many ways as
 * their region has categories, numeric columns cut by thresholds x ≤ t (two
 * ways), as the family's accuracy fits build them (discrete_fit.c).
 *
 *   F(S, d, k) = leaf(S) ∪ ⋃_f  ⊕_{b1+…+bm ≤ k−1}  F(S_1, d−1, b1) ⊗ … ⊗ F(S_m, d−1, bm)
 *
 * over the ways S_1 … S_m of feature f in S (m ≥ 2), ∪ the union and ⊗ the
 * Minkowski sum, both filtered to the nondominated points (framework/front.c);
 * k counts branch nodes, a multiway node once (docs/categorical.md).  The
 * budgets are distributed way by way (a knapsack over the ways); subproblems
 * are cached by item set, remaining depth and budget.  The tree of any point
 * of the root's front is found again from the cached fronts. */
#ifndef PDT_DISCRETE_FRONT_H
#define PDT_DISCRETE_FRONT_H

#include "front.h"
#include "model_impl.h"

typedef struct df_search df_search;

/* The root's front under opt's --depth, --size, --min-leaf, --time-limit (and
 * stop flag), --memo-mb; positive is the positive class's index.  *out is set
 * (free it) whenever memory allows, also when the search fails.  A time limit
 * or stop leaves the front of the root splits completed so far (and the
 * leaf): df_search_complete says false. */
pdt_status df_search_run(df_search **out, const pdt_dataset *ds, const pdt_fit_options *opt, uint32_t positive,
                         pdt_error *err);
const pdt_front *df_search_front(const df_search *s);
bool df_search_complete(const df_search *s);
const pdt_search_stats *df_search_stats(const df_search *s);
/* The tree of the front's point (fp, fn) into m (allocated, names and
 * classes set, no tree yet): nodes, ways, rules and counts; a leaf's label is
 * its prediction, a branch node's its majority. */
pdt_status df_search_tree(pdt_model *m, df_search *s, uint32_t fp, uint32_t fn, pdt_error *err);
void df_search_free(df_search **s);

#endif
