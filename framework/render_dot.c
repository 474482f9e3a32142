/* A model's tree as a Graphviz drawing: each node becomes a labelled node of
 * the generic drawing (pdt_render.h) — a branch shows its rule in readable
 * form, a leaf its label in the class colour, every node its items and class
 * counts — so there is one Graphviz back end for models and problems. */
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "pdt_render.h"

/* ColorBrewer Set3: light enough for black text. */
static const char *const palette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                      "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                      "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
#define PALETTE_SIZE (sizeof palette / sizeof palette[0])

static pdt_status node_label(pdt_buf *b, const pdt_model *m, size_t i, pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[i];
    if (!pdt_node_is_leaf(n)) {
        pdt_status st = pdt_model_rule_text(b, m, (size_t)n->rule, err);
        if (st != PDT_OK) return st;
    } else {
        pdt_buf_puts(b, m->classes[n->label]);
    }
    /* every node: its items and their class counts (a branch's majority is not a prediction) */
    pdt_buf_printf(b, "\n%llu items: ", (unsigned long long)n->n_items);
    for (size_t c = 0; c < m->n_classes; c++)
        pdt_buf_printf(b, "%s%llu", c ? "/" : "", (unsigned long long)m->counts[i * m->n_classes + c]);
    return b->failed ? pdt_error_set(err, PDT_ENOMEM, "out of memory rendering") : PDT_OK;
}

static void title_text(pdt_buf *b, const pdt_model *m)
{
    pdt_buf obj;
    pdt_buf_init(&obj);
    pdt_buf_mpq_decimal(&obj, m->objective);
    pdt_buf_printf(b, "objective %.200s, size %u, depth %u%s", obj.data ? obj.data : "?", m->size,
                   m->depth, m->optimal ? ", optimal" : "");
    pdt_buf_clear(&obj);
}

pdt_status pdt_model_render(const pdt_model *model, const char *path, const char *format, pdt_error *err)
{
    if (!format || !format[0])
        return pdt_error_set(err, PDT_EINVAL, "no output format given (try dot, svg or png)");
    pdt_status st = pdt_model_check(model, err);
    if (st != PDT_OK) return st;
    size_t n = model->n_nodes;
    pdt_draw_node *nodes = calloc(n + 1, sizeof *nodes);
    pdt_buf *labels = calloc(n + 1, sizeof *labels);
    if (!nodes || !labels) st = pdt_error_set(err, PDT_ENOMEM, "out of memory rendering");
    for (size_t i = 0; i < n && labels; i++) pdt_buf_init(&labels[i]);
    for (size_t i = 0; i < n && st == PDT_OK; i++) {
        const pdt_tree_node *t = &model->nodes[i];
        st = node_label(&labels[i], model, i, err);
        nodes[i] = (pdt_draw_node){t->left, t->right, labels[i].data ? labels[i].data : "",
                                   pdt_node_is_leaf(t) ? palette[t->label % PALETTE_SIZE] : NULL, false};
    }
    /* the ways of multiway nodes, each labelled with its category */
    size_t n_edges = model->n_ways;
    pdt_draw_edge *edges = calloc(n_edges + 1, sizeof *edges);
    pdt_buf *edge_labels = calloc(n_edges + 1, sizeof *edge_labels);
    if (st == PDT_OK && (!edges || !edge_labels)) st = pdt_error_set(err, PDT_ENOMEM, "out of memory rendering");
    for (size_t i = 0, e = 0; i < n && st == PDT_OK; i++)
        for (size_t w = 0; w < model->nodes[i].n_ways && st == PDT_OK; w++, e++) {
            pdt_buf_init(&edge_labels[e]);
            st = pdt_model_way_text(&edge_labels[e], model, i, w, err);
            edges[e] = (pdt_draw_edge){(int32_t)i, model->ways[model->nodes[i].first_way + w].child,
                                       edge_labels[e].data};
        }
    pdt_buf title;
    pdt_buf_init(&title);
    title_text(&title, model);
    if (st == PDT_OK) {
        pdt_draw_tree tree = {title.data, nodes, n, "yes", "no", edges, n_edges};
        st = pdt_draw_tree_render(&tree, path, format, err);
    }
    for (size_t e = 0; edge_labels && e < n_edges; e++) pdt_buf_clear(&edge_labels[e]);
    free(edge_labels);
    free(edges);
    pdt_buf_clear(&title);
    for (size_t i = 0; i < n && labels; i++) pdt_buf_clear(&labels[i]);
    free(labels);
    free(nodes);
    return st;
}
