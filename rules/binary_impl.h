/* The binary rule family: private interface between the plugin (binary.c),
 * the binarisation (binary_encode.c) and the MurTree-class backend
 * (backends/murtree/: binary_solver.c, binary_d2.c, binary_cache.c, binary_fit.c). */
#ifndef PDT_BINARY_IMPL_H
#define PDT_BINARY_IMPL_H

#include "pdt_plugin.h"

/* ------------------------------------------------------------ binarisation */

/* How a binary feature reads its dataset column.  The feature is "true"
 * (bit 1, right side of the rule) when:
 *   BIN_FLAG  x = 1      (a 0/1 column; the rule's left side is x = 0)
 *   BIN_LEQ   x > t      (a numeric column; the left side is x ≤ t)
 *   BIN_EQ    x = v      (a one-hot category; the left side is x ≠ v)  */
typedef enum { BIN_FLAG = 0, BIN_LEQ = 1, BIN_EQ = 2 } bin_kind;

typedef struct bin_feature {
    uint32_t column; /* dataset column */
    uint32_t rank;   /* LEQ: t is the value of this rank; EQ: v is; FLAG: 1 */
    uint32_t row;    /* a row holding that value (its exact rational) */
    uint8_t kind;
} bin_feature;

typedef struct bin_encoding {
    size_t n;
    bin_feature *f;
} bin_encoding;

/* Binary features of ds.  options: the rule options text ("onehot=a:b" or
 * "onehot=*"), NULL for none. */
pdt_status bin_encode(bin_encoding *enc, const pdt_dataset *ds, const char *options, pdt_error *err);
void bin_encoding_clear(bin_encoding *enc);
/* The feature's value (true = right side) for row i of the training data. */
bool bin_value(const bin_encoding *enc, const pdt_dataset *ds, size_t f, size_t i);
/* The exact standalone rule of feature f. */
pdt_status bin_export(pdt_rule *rule, const bin_encoding *enc, const pdt_dataset *ds, size_t f,
                      pdt_error *err);
/* Feature f's rule in the model being built: exported the first time
 * (m->rules must have room), *index its position; rule_of[f] remembers it
 * (position + 1, 0 before). */
pdt_status bin_model_rule(int32_t *index, pdt_model *m, uint32_t *rule_of, const bin_encoding *enc,
                          const pdt_dataset *ds, uint32_t f, pdt_error *err);

extern const pdt_rule_class pdt_rule_class_binary;

/* ------------------------------------------------------------ the backend */

#define BS_NONE UINT32_MAX /* no tree within the bound / unknown */

/* The binary matrix the backend searches. */
typedef struct bs_data {
    size_t n, nf, nc, words; /* items, features, classes, 64-bit words per item bitset */
    uint64_t *cols;          /* nf * words: bit i set = item i has feature f (right side) */
    uint64_t *cls;           /* nc * words: the items of each class */
    uint64_t *all;           /* words: every item */
} bs_data;

pdt_status bs_data_build(bs_data *d, const pdt_dataset *ds, const bin_encoding *enc, pdt_error *err);
void bs_data_clear(bs_data *d);

/* Leaf misclassifications of the items (majority class, ties to the smallest index). */
uint32_t bs_leaf(const bs_data *d, const uint64_t *items, uint32_t *label);

/* The plugin's solve slot: the optimal tree on the binarised data (backends/murtree/binary_fit.c). */
pdt_status bs_fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);

/* Metric fits (opt->metric not accuracy; backends/murtree/binary_front_fit.c):
 * the options checked and the positive class's index; the fit; the root's
 * whole Pareto front of (FP, FN) (appended to *out, a struct pdt_front). */
struct pdt_front;
pdt_status bs_metric_check(uint32_t *positive, const pdt_dataset *ds, const pdt_fit_options *opt,
                           pdt_error *err);
pdt_status bs_fit_metric(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);
pdt_status bs_metric_front(struct pdt_front *out, uint32_t *positive, const pdt_dataset *ds,
                           const pdt_fit_options *opt, pdt_error *err);

#endif
