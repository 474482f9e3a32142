/* Internal layout of pdt_model: the fitted tree with exact standalone rules.
 * Shared by fitting, prediction, JSON and rendering. */
#ifndef PDT_MODEL_IMPL_H
#define PDT_MODEL_IMPL_H

#include "pdt_plugin.h"

typedef struct pdt_tree_node {
    int32_t left, right; /* child node indices; -1 for a leaf and for a multiway node */
    int32_t rule;        /* index into model->rules; -1 for a leaf */
    uint32_t label;      /* majority class of the training items here (ties: smallest index) */
    uint64_t n_items;    /* training items reaching the node */
    uint32_t n_ways;     /* a multiway node (issue 12): its ways are model->ways[first_way ..+ n_ways) */
    uint32_t first_way;
} pdt_tree_node;

/* One child of a multiway node: the code its rule's route gives (a category
 * of the model's), and the child.  A point whose code no way takes is given
 * the node's label. */
typedef struct pdt_tree_way {
    int64_t code;
    int32_t child;
} pdt_tree_way;

static inline bool pdt_node_is_leaf(const pdt_tree_node *n) { return n->left < 0 && n->n_ways == 0; }

struct pdt_model {
    char *problem;        /* "classification" */
    char *families;       /* rule families as given, e.g. "axis,hyperplane" */
    char *data_name;      /* training data file */
    size_t n_train;       /* training rows */
    size_t dims;
    char **features;      /* dims feature names */
    char ***categories;   /* dims (NULL when no column is categorical): column j's category
                             names in code order, NULL for a numeric column */
    uint32_t *n_categories;
    size_t n_classes;
    char **classes;       /* class names, index = class id */
    size_t n_rules;
    pdt_rule *rules;      /* distinct rules used by the tree */
    size_t n_nodes;
    pdt_tree_node *nodes; /* nodes[0] is the root; children after parents */
    pdt_tree_way *ways;   /* the multiway nodes' children */
    size_t n_ways;
    uint64_t *counts;     /* n_nodes * n_classes training class counts per node */
    mpq_t objective;      /* the optimum (weighted misclassifications) */
    uint64_t misclassifications; /* unweighted, on the training data */
    bool optimal;
    const char *stopped_by; /* not optimal: what stopped the search (a PDT_STOP_* string), or NULL */
    bool size_minimal;    /* proven: no optimal tree within the limits has fewer branch nodes */
    uint32_t size, depth;
    /* constraints and provenance */
    uint32_t max_size, max_depth, min_leaf;
    char *class_weights;  /* as given, or NULL */
    char *sparse;         /* α of the sparse objective errors/N + α·size as given, or NULL */
    bool lexicographic;   /* fewest branch nodes among the most accurate trees */
    pdt_perfect_info perfect; /* mode PDT_PERFECT_NONE: not a perfect fit */
    /* A metric fit (issue 10; PDT_METRIC_ACCURACY: none): the objective is F1, FM² or MCC²
     * of the tree's confusion counts {TP, FP, FN, TN}, positive the positive class. */
    pdt_metric metric;
    uint32_t positive;
    uint64_t confusion[4];
    int mcc_sign;         /* the sign of TP·TN − FP·FN (MCC) */
    size_t front_points;  /* points on the root's Pareto front (0: not known) */
    uint32_t *front;      /* NULL, or the front: front_points (FP, FN) pairs, FP ascending */
    char *engine;         /* "fused", "combinations", "binary" ... */
    double seconds;
    pdt_search_stats stats;
};

/* The static PDT_STOP_* string equal to text, or NULL (model.c). */
const char *pdt_stop_reason(const char *text);

/* Appends a metric fit's value, positive class and confusion counts (model_metric.c). */
void pdt_model_metric_describe(pdt_buf *b, const pdt_model *m);
/* Allocates an empty model (all pointers NULL, objective 0). */
pdt_status pdt_model_alloc(pdt_model **out, pdt_error *err);
/* Recomputes size and depth from nodes. */
void pdt_model_measure(pdt_model *m);
/* Category names of categorical columns: allocate the (empty) table, free it. */
pdt_status pdt_model_alloc_categories(pdt_model *m, pdt_error *err);
void pdt_model_free_categories(pdt_model *m);
/* Copies names: features, classes and categories from ds. */
pdt_status pdt_model_set_names(pdt_model *m, const pdt_dataset *ds, pdt_error *err);
/* Checks the tree's indices: children after their parent and in range, rules
 * and labels in range, counts present.  Walks that follow it terminate. */
pdt_status pdt_model_check(const pdt_model *m, pdt_error *err);
/* Appends the readable text of way w of node i's rule ("colour = red"). */
pdt_status pdt_model_way_text(pdt_buf *out, const pdt_model *m, size_t i, size_t w, pdt_error *err);
/* Appends the readable text of rule r (its class's describe with the model's
 * feature names; a generic "family(ints; rationals)" when describe is NULL). */
pdt_status pdt_model_rule_text(pdt_buf *out, const pdt_model *m, size_t r, pdt_error *err);

#endif
