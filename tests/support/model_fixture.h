/* Hand-built models and exact datasets for the model, JSON and render tests. */
#ifndef PDT_MODEL_FIXTURE_H
#define PDT_MODEL_FIXTURE_H

#include "model_impl.h"

/* "threshold": ints = [dim], rats = [t]; x is left when x[dim] <= t;
 * describe gives "name ≤ t" (t as a decimal when it terminates). */
extern const pdt_rule_class mf_threshold_class;

/* The tree, features (sepal, petal_width), classes (setosa, versicolor, virginica):
 *
 *   0: petal_width ≤ 4/5 ? 1 : 2               150 items 50/50/50
 *   1:   → setosa                                50 items 50/0/0
 *   2:   sepal ≤ 1/3 ? 3 : 4                    100 items 0/50/50
 *   3:     → versicolor                          54 items 0/49/5
 *   4:     → virginica                           46 items 0/1/45
 *
 * objective 6, misclassifications 6, size 2, depth 2, optimal, rules of class cls. */
pdt_model *mf_model(const pdt_rule_class *cls);
/* A single leaf (every item "setosa"). */
pdt_model *mf_leaf_model(void);
/* Replaces rule r with cls(dim; t) where t is a rational text ("1/3"). */
void mf_set_rule(pdt_model *m, size_t r, const pdt_rule_class *cls, int64_t dim, const char *t);

/* A dataset of n rows over the named features; cells[i*d + j] are exact
 * rationals ("1/3", "-2"). No labels. Free with pdt_dataset_free. */
pdt_dataset *mf_dataset(const char *const *features, size_t d, const char *const *cells, size_t n);

#endif
