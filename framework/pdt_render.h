/* Drawing any binary tree with Graphviz: the problem plugins (matrix chain,
 * BSP, k-D trees) describe their trees as labelled nodes and this writes DOT
 * (libcgraph) or renders it with libgvc (svg, png, ...).  Checked in
 * draw_tree.c, drawn by the drawing module (pdt_draw_module.h): only
 * framework/draw/render_*.c include Graphviz or cairo headers. */
#ifndef PDT_RENDER_H
#define PDT_RENDER_H

#include "pdt.h"

typedef struct pdt_draw_node {
    int32_t left, right; /* child indices (greater than this node's), -1 for a leaf */
    const char *label;   /* text; '\n' separates lines */
    const char *fill;    /* fill colour such as "#ffffb3", or NULL for none */
    bool dot;            /* drawn as a small point (an empty cell), label as tooltip */
} pdt_draw_node;

/* An edge beyond left and right: the ways of a multiway node (whose left and
 * right are -1), each with its own label. */
typedef struct pdt_draw_edge {
    int32_t from, to;    /* to > from */
    const char *label;   /* or NULL */
} pdt_draw_edge;

typedef struct pdt_draw_tree {
    const char *title;          /* graph label, or NULL */
    const pdt_draw_node *nodes; /* nodes[0] is the root */
    size_t n_nodes;
    const char *left_edge, *right_edge; /* edge labels, or NULL */
    const pdt_draw_edge *edges; /* more edges (multiway nodes), or NULL */
    size_t n_edges;
} pdt_draw_tree;

/* format "dot" writes the graph as DOT; any other libgvc device ("svg",
 * "png") lays it out with dot and renders it.  The file is written atomically:
 * on failure no file is left behind. */
pdt_status pdt_draw_tree_render(const pdt_draw_tree *tree, const char *path, const char *format,
                                pdt_error *err);

#endif
