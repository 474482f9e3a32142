/* Drawing a labelled binary tree (pdt_render.h): checked here, drawn by the
 * drawing module (pdt_draw_module.h) into a file that appears whole or not at
 * all.  Graphviz is not reentrant: one drawing at a time, from one thread. */
#include <string.h>

#include "atomic_file.h"
#include "pdt_draw_module.h"

static pdt_status check_tree(const pdt_draw_tree *t, pdt_error *err)
{
    if (!t->nodes || t->n_nodes == 0 || t->n_nodes > INT32_MAX)
        return pdt_error_set(err, PDT_EINTERNAL, "drawing an empty tree");
    for (size_t i = 0; i < t->n_nodes; i++) {
        int32_t l = t->nodes[i].left, r = t->nodes[i].right;
        bool leaf = l < 0 && r < 0;
        bool ok = leaf || (l > (int32_t)i && r > (int32_t)i && (size_t)l < t->n_nodes &&
                           (size_t)r < t->n_nodes && l != r);
        if (!ok) return pdt_error_set(err, PDT_EINTERNAL, "drawing a malformed tree (node %zu)", i);
    }
    for (size_t e = 0; e < t->n_edges; e++) {
        const pdt_draw_edge *d = &t->edges[e];
        if (d->from < 0 || d->to <= d->from || (size_t)d->to >= t->n_nodes ||
            t->nodes[d->from].left >= 0)
            return pdt_error_set(err, PDT_EINTERNAL, "drawing a malformed tree (edge %zu)", e);
    }
    return PDT_OK;
}

static pdt_status check_format(const char *format, pdt_error *err)
{
    static const char *const known[] = {"dot", "svg", "png", "pdf"};
    if (!format || !format[0])
        return pdt_error_set(err, PDT_EINVAL, "no drawing format given (try dot, svg or png)");
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(format, known[i]) == 0) return PDT_OK;
    return pdt_error_set(err, PDT_EINVAL, "unknown drawing format \"%.100s\" (supported: dot, svg, png, pdf)",
                         format);
}

typedef struct tree_job {
    const pdt_draw_module *module;
    const pdt_draw_tree *tree;
    const char *format;
} tree_job;

static pdt_status draw_tree_job(void *arg, FILE *f, pdt_error *err)
{
    const tree_job *j = arg;
    return j->module->render_tree(j->tree, j->format, f, err);
}

pdt_status pdt_draw_tree_render(const pdt_draw_tree *tree, const char *path, const char *format,
                                pdt_error *err)
{
    pdt_status st = check_format(format, err);
    if (st == PDT_OK) st = check_tree(tree, err);
    const pdt_draw_module *module = NULL;
    if (st == PDT_OK) st = pdt_draw_module_get(&module, err);
    pdt_atomic_file af;
    if (st == PDT_OK) st = pdt_atomic_file_open(&af, path, err);
    if (st != PDT_OK) return st;
    tree_job job = {module, tree, format};
    st = pdt_draw_isolated(draw_tree_job, &job, af.f, path, err);
    if (st == PDT_OK) return pdt_atomic_file_commit(&af, err);
    pdt_atomic_file_abort(&af);
    return st == PDT_ELIMIT ? st : pdt_error_prefix(err, "cannot draw %s: ", path);
}
