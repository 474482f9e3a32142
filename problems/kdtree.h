/* Optimal k-D trees as a problem plugin (He & Little §4.4).  Every branch
 * node stores one data point; the node at level ℓ (root: 0) compares on
 * dimension order[ℓ mod |order|] (default order: 0, 1, …, D−1); points with
 * a smaller coordinate go left, the others (ties included) right.  Leaves are
 * empty.  Objective: Σ w(p)·(depth(p) + 1), the expected number of nodes
 * visited by a successful search, with exact rational weights; the height
 * (levels of points) breaks ties — or, with PDT_KD_HEIGHT, the height is
 * minimised first and the access cost breaks ties. */
#ifndef PDT_KDTREE_H
#define PDT_KDTREE_H

#include "pdt_plugin.h"

typedef struct pdt_kdtree pdt_kdtree;

typedef enum { PDT_KD_ACCESS = 0, PDT_KD_HEIGHT = 1 } pdt_kd_objective;

/* A node of the solved tree: a data point (row index) and its split
 * dimension, or an empty leaf (point −1). */
typedef struct pdt_kd_node {
    int32_t point;
    uint32_t dim;
    int32_t left, right; /* −1 for a leaf */
} pdt_kd_node;

/* Parses a dimension order: comma-separated feature names or 1-based column
 * numbers, e.g. "y,x" or "2,1"; every level cycles through it. */
pdt_status pdt_kdtree_parse_order(uint32_t **order, size_t *n_order, const pdt_dataset *ds,
                                  const char *spec, pdt_error *err);

/* The instance over every row of ds (features = coordinates, weights = the
 * dataset's weights, 1 without).  order may be NULL (0 … D−1).  ds must
 * outlive the instance. */
pdt_status pdt_kdtree_new(pdt_kdtree **out, const pdt_dataset *ds, const uint32_t *order,
                          size_t n_order, pdt_kd_objective objective, pdt_error *err);
void pdt_kdtree_free(pdt_kdtree **tree);

pdt_status pdt_kdtree_solve(pdt_kdtree *tree, const pdt_search_opts *opts, pdt_error *err);

/* After solving: Σ w(p)·(depth(p)+1) exactly, the height, proof of optimality. */
void pdt_kdtree_cost(mpq_ptr out, const pdt_kdtree *tree);
uint32_t pdt_kdtree_height(const pdt_kdtree *tree);
bool pdt_kdtree_optimal(const pdt_kdtree *tree);
const pdt_kd_node *pdt_kdtree_nodes(const pdt_kdtree *tree, size_t *n_nodes);
const pdt_search_stats *pdt_kdtree_stats(const pdt_kdtree *tree);
const pdt_dataset *pdt_kdtree_dataset(const pdt_kdtree *tree);

/* One node per line: the point, its coordinates, weight and split. */
pdt_status pdt_kdtree_write_text(const pdt_kdtree *tree, FILE *out, pdt_error *err);
/* The tree drawn with Graphviz ("dot", "svg", "png"). */
pdt_status pdt_kdtree_render(const pdt_kdtree *tree, const char *path, const char *format,
                             pdt_error *err);
/* For two dimensions: the points and the cells (PNG or SVG by the file name). */
pdt_status pdt_kdtree_picture(const pdt_kdtree *tree, const char *path, pdt_error *err);

#endif
