/* Private interface between the classification plugin and pdt_fit. */
#ifndef PDT_CLASSIFICATION_H
#define PDT_CLASSIFICATION_H

#include "model_impl.h"

typedef struct cls_inst {
    const pdt_dataset *ds;
    size_t words, n_classes;
    uint64_t *class_bits; /* n_classes * words */
    int64_t *weight;      /* per class, integers (scaled by `scale`) */
    mpz_t scale;          /* weights were multiplied by this */
    bool weighted;
    /* A tree's value: cost · unit + branch nodes · per_node (unit 1, per_node 0 unless
     * cls_inst_fewest_nodes): with per_node 1 and unit > every size, (cost, nodes)
     * lexicographically, so ties go to fewer nodes (issue 18). */
    int64_t unit, per_node;
} cls_inst;

extern const pdt_problem_class pdt_problem_class_classification;
/* The same problem with the value (cost, nodes): use it once cls_inst_fewest_nodes said yes. */
extern const pdt_problem_class pdt_classification_fewest_nodes;

/* Values (cost, nodes) for trees of at most max_size branch nodes; false (values unchanged)
 * when cost · (max_size + 1) could overflow. */
bool cls_inst_fewest_nodes(cls_inst *c, uint64_t max_size);

pdt_status cls_inst_init(cls_inst *c, const pdt_dataset *ds, const char *weights, pdt_error *err);
void cls_inst_clear(cls_inst *c);
/* Class counts of the items. */
void cls_counts(uint64_t *counts, const cls_inst *c, const uint64_t *items);
/* Weighted misclassifications of a leaf with these counts; *label = majority. */
int64_t cls_leaf_cost(const cls_inst *c, const uint64_t *counts, uint32_t *label);

/* Records how a classification model was fitted: names (as
 * pdt_model_set_names), rule families, data name and rows, the constraints and
 * objective options of opt, and the engine that found it. */
pdt_status cls_describe_model(pdt_model *m, const pdt_dataset *ds, const pdt_fit_options *opt,
                              const char *engine, pdt_error *err);

/* A model for a specialised backend: the tree in preorder (rule index, or −1
 * for a leaf) over `rules` (moved into the model, cleared in any case).  The
 * training rows are accumulated down the tree with the rules' exact classify;
 * the objective so obtained (in weight units) must equal `expected`.  The
 * caller sets optimal, stats and seconds. */
pdt_status cls_model_from_tree(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt,
                               pdt_rule *rules, size_t n_rules, const int32_t *pre, size_t len,
                               int64_t expected, const char *engine, pdt_error *err);

/* pdt_fit without --perfect: one limited search (the family's backend or the
 * fused engine). */
pdt_status cls_fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);
/* pdt_fit with --perfect (classification_perfect.c): limited searches over
 * depths and sizes. */
pdt_status cls_fit_perfect(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);

/* Two-class metric fits through Pareto fronts in the generic engine, for any
 * rule family (classification_front.c). */
/* The checks every metric fit makes; *positive = the positive class. */
/* A search's limits from a fit's options (size, depth, min-leaf, cache, time, stop). */
void cls_search_opts(pdt_search_opts *so, const pdt_fit_options *opt);
/* The rule plugins' options of a fit started at t0: its time limit as their deadline, its stop flag. */
void cls_rule_params(pdt_rule_params *params, const pdt_fit_options *opt, const struct timespec *t0);
/* What is left of the fit's time limit (started at t0): 0 without one, at least 1e-9 with one. */
double cls_time_left(const pdt_fit_options *opt, const struct timespec *t0);
/* The model's index of ruleset rule id, exported into the model when new
 * (rule_ids: the ruleset index of each model rule so far). */
pdt_status cls_model_rule(pdt_model *m, uint32_t *rule_ids, const pdt_ruleset *rs, uint32_t id, int32_t *index,
                          pdt_error *err);
pdt_status cls_metric_check(uint32_t *positive, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);
pdt_status cls_fit_metric(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);
/* The root's whole front under the limits (`pdt front`), kept to give the model of any point. */
typedef struct cls_front_fit cls_front_fit;
pdt_status cls_front_fit_run(cls_front_fit **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);
const struct pdt_front *cls_front_fit_front(const cls_front_fit *f);
uint32_t cls_front_fit_positive(const cls_front_fit *f);
/* false when a time limit or interrupt stopped the search: the front found so far. */
bool cls_front_fit_complete(const cls_front_fit *f);
/* The model of the front's point-th point (its metric `metric`; front and stats attached). */
pdt_status cls_front_fit_model(pdt_model **out, cls_front_fit *f, size_t point, pdt_metric metric, pdt_error *err);
void cls_front_fit_free(cls_front_fit **f);

#endif
