/* The drawing module's trees (pdt_draw_module.h): any labelled binary tree
 * (pdt_render.h, checked by the caller) as a Graphviz graph, built with
 * libcgraph, written by agwrite or laid out and rendered by libgvc.  The
 * Graphviz API is not reentrant: one render at a time, from one thread. */
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static char gv_messages[512];

static int gv_capture(char *msg)
{
    size_t len = strlen(gv_messages);
    snprintf(gv_messages + len, sizeof gv_messages - len, "%s", msg);
    return 0;
}

/* DOT label text: backslashes doubled, newlines as the \n escape (malloc'd). */
static char *label_text(const char *s)
{
    size_t n = 0;
    for (const char *c = s; c && *c; c++) n += *c == '\\' || *c == '\n' ? 2 : 1;
    char *out = malloc(n + 1), *o = out;
    if (!out) return NULL;
    for (; s && *s; s++) {
        if (*s == '\\' || *s == '\n') *o++ = '\\';
        *o++ = *s == '\n' ? 'n' : *s;
    }
    *o = '\0';
    return out;
}

typedef struct gv_syms {
    Agsym_t *label, *style, *fill, *shape, *width, *tooltip, *edge_label;
} gv_syms;

static bool declare_attributes(gv_syms *sy, Agraph_t *g, const char *title)
{
    sy->label = agattr(g, AGNODE, "label", "");
    sy->style = agattr(g, AGNODE, "style", "rounded");
    sy->fill = agattr(g, AGNODE, "fillcolor", "white");
    sy->shape = agattr(g, AGNODE, "shape", "box");
    sy->width = agattr(g, AGNODE, "width", "0.75");
    sy->tooltip = agattr(g, AGNODE, "tooltip", "");
    sy->edge_label = agattr(g, AGEDGE, "label", "");
    return sy->label && sy->style && sy->fill && sy->shape && sy->width && sy->tooltip &&
           sy->edge_label && agattr(g, AGNODE, "fontname", "Helvetica") &&
           agattr(g, AGEDGE, "fontname", "Helvetica") && agattr(g, AGRAPH, "fontname", "Helvetica") &&
           agattr(g, AGRAPH, "labelloc", "t") && agattr(g, AGRAPH, "label", (char *)(title ? title : ""));
}

static bool style_node(Agnode_t *v, const gv_syms *sy, const pdt_draw_node *n, const char *text)
{
    if (n->dot)
        return agxset(v, sy->shape, "point") == 0 && agxset(v, sy->width, "0.12") == 0 &&
               agxset(v, sy->tooltip, (char *)text) == 0;
    if (agxset(v, sy->label, (char *)text) != 0) return false;
    if (!n->fill) return true;
    return agxset(v, sy->style, "rounded,filled") == 0 && agxset(v, sy->fill, (char *)n->fill) == 0;
}

static pdt_status add_nodes(Agnode_t **v, Agraph_t *g, const gv_syms *sy, const pdt_draw_tree *t,
                            pdt_error *err)
{
    for (size_t i = 0; i < t->n_nodes; i++) {
        char name[32];
        snprintf(name, sizeof name, "n%zu", i);
        char *text = label_text(t->nodes[i].label);
        v[i] = agnode(g, name, 1);
        bool ok = v[i] && text && style_node(v[i], sy, &t->nodes[i], text);
        free(text);
        if (!ok) return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot add node %zu", i);
    }
    return PDT_OK;
}

static pdt_status add_edges(Agraph_t *g, const gv_syms *sy, const pdt_draw_tree *t, Agnode_t **v,
                            pdt_error *err)
{
    for (size_t i = 0; i < t->n_nodes; i++) {
        const pdt_draw_node *n = &t->nodes[i];
        if (n->left < 0) continue;
        Agedge_t *l = agedge(g, v[i], v[n->left], NULL, 1);
        Agedge_t *r = agedge(g, v[i], v[n->right], NULL, 1);
        bool ok = l && r;
        if (ok && t->left_edge) ok = agxset(l, sy->edge_label, (char *)t->left_edge) == 0;
        if (ok && t->right_edge) ok = agxset(r, sy->edge_label, (char *)t->right_edge) == 0;
        if (!ok) return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot add the edges of node %zu", i);
    }
    for (size_t k = 0; k < t->n_edges; k++) {
        const pdt_draw_edge *d = &t->edges[k];
        Agedge_t *e = agedge(g, v[d->from], v[d->to], NULL, 1);
        bool ok = e && (!d->label || agxset(e, sy->edge_label, (char *)d->label) == 0);
        if (!ok) return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot add edge %zu", k);
    }
    return PDT_OK;
}

static pdt_status build_graph(Agraph_t **out, const pdt_draw_tree *t, pdt_error *err)
{
    Agraph_t *g = agopen("pdt", Agdirected, NULL);
    gv_syms sy;
    if (!g || !declare_attributes(&sy, g, t->title)) {
        if (g) agclose(g);
        return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot create the graph");
    }
    Agnode_t **v = malloc(t->n_nodes * sizeof *v);
    pdt_status st = v ? add_nodes(v, g, &sy, t, err) : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (st == PDT_OK) st = add_edges(g, &sy, t, v, err);
    free(v);
    if (st != PDT_OK) {
        agclose(g);
        return st;
    }
    *out = g;
    return PDT_OK;
}

static pdt_status write_dot(Agraph_t *g, FILE *out, pdt_error *err)
{
    if (agwrite(g, out) != 0) return pdt_error_set(err, PDT_EIO, "graphviz agwrite failed");
    return PDT_OK;
}

/* One libgvc context for the process, made on first use and kept (Graphviz
 * 2.43's pango plugin caches pointers into its context). */
static GVC_t *shared_context(void)
{
    static GVC_t *gvc;
    if (!gvc) gvc = gvContext();
    return gvc;
}

static pdt_status render_gvc(Agraph_t *g, const char *format, FILE *out, pdt_error *err)
{
    GVC_t *gvc = shared_context();
    if (!gvc) return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot create a context");
    if (gvLayout(gvc, g, "dot") != 0)
        return pdt_error_set(err, PDT_EPLUGIN, "graphviz: dot layout failed: %s", gv_messages);
    pdt_status st = PDT_OK;
    long start = ftell(out);
    if (gvRender(gvc, g, format, out) != 0)
        st = pdt_error_set(err, PDT_EIO, "cannot render as %s: %s", format,
                           gv_messages[0] ? gv_messages : "graphviz failed");
    else if (fflush(out) != 0 || ftell(out) <= start)
        st = pdt_error_set(err, PDT_EIO, "graphviz wrote nothing");
    gvFreeLayout(gvc, g);
    return st;
}

pdt_status pdt_draw_render_tree(const pdt_draw_tree *tree, const char *format, FILE *out, pdt_error *err)
{
    gv_messages[0] = '\0';
    agusererrf old = agseterrf(gv_capture);
    Agraph_t *g = NULL;
    pdt_status st = build_graph(&g, tree, err);
    if (st == PDT_OK) {
        st = strcmp(format, "dot") == 0 ? write_dot(g, out, err) : render_gvc(g, format, out, err);
        agclose(g);
    }
    agseterrf(old);
    return st;
}
