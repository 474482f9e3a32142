/* Any labelled binary tree as a Graphviz graph (pdt_render.h): built with
 * libcgraph, written by agwrite or laid out and rendered by libgvc.  The
 * Graphviz API is not reentrant: one render at a time, from one thread. */
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "pdt_plugin.h"
#include "pdt_render.h"

static char gv_messages[512];

static int gv_capture(char *msg)
{
    size_t len = strlen(gv_messages);
    snprintf(gv_messages + len, sizeof gv_messages - len, "%s", msg);
    return 0;
}

/* DOT label text: backslashes doubled, newlines as the \n escape. */
static void label_text(pdt_buf *b, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\\') pdt_buf_puts(b, "\\\\");
        else if (*s == '\n') pdt_buf_puts(b, "\\n");
        else pdt_buf_printf(b, "%c", *s);
    }
}

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
    return PDT_OK;
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
        pdt_buf b;
        pdt_buf_init(&b);
        label_text(&b, t->nodes[i].label);
        v[i] = agnode(g, name, 1);
        bool ok = v[i] && !b.failed && style_node(v[i], sy, &t->nodes[i], b.data ? b.data : "");
        pdt_buf_clear(&b);
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

static pdt_status write_dot(Agraph_t *g, const char *path, pdt_error *err)
{
    pdt_atomic_file af;
    pdt_status st = pdt_atomic_file_open(&af, path, err);
    if (st != PDT_OK) return st;
    if (agwrite(g, af.f) != 0) {
        pdt_atomic_file_abort(&af);
        return pdt_error_set(err, PDT_EIO, "cannot write %s: graphviz agwrite failed", path);
    }
    return pdt_atomic_file_commit(&af, err);
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* One libgvc context for the process, made on first use and kept (Graphviz
 * 2.43's pango plugin caches pointers into its context). */
static GVC_t *shared_context(void)
{
    static GVC_t *gvc;
    if (!gvc) gvc = gvContext();
    return gvc;
}

static pdt_status render_gvc(Agraph_t *g, const char *path, const char *format, pdt_error *err)
{
    if (strcmp(format, "svg") != 0 && strcmp(format, "png") != 0 && strcmp(format, "pdf") != 0)
        return pdt_error_set(err, PDT_EINVAL, "unknown drawing format \"%.100s\" (supported: dot, svg, png, pdf)",
                             format);
    GVC_t *gvc = shared_context();
    if (!gvc) return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot create a context");
    pdt_atomic_file af;
    pdt_status st = pdt_atomic_file_open(&af, path, err);
    if (st != PDT_OK) return st;
    fclose(af.f);
    af.f = NULL;
    if (gvLayout(gvc, g, "dot") != 0) {
        st = pdt_error_set(err, PDT_EPLUGIN, "graphviz: dot layout failed: %s", gv_messages);
    } else {
        if (gvRenderFilename(gvc, g, format, af.tmp_path) != 0)
            st = pdt_error_set(err, PDT_EIO, "cannot render %s as %s: %s", path, format,
                               gv_messages[0] ? gv_messages : "graphviz failed");
        else if (file_size(af.tmp_path) <= 0)
            st = pdt_error_set(err, PDT_EIO, "cannot render %s: graphviz wrote nothing", path);
        gvFreeLayout(gvc, g);
    }
    if (st == PDT_OK) return pdt_atomic_file_commit(&af, err);
    pdt_atomic_file_abort(&af);
    return st;
}

pdt_status pdt_draw_tree_render(const pdt_draw_tree *tree, const char *path, const char *format,
                                pdt_error *err)
{
    if (!format || !format[0])
        return pdt_error_set(err, PDT_EINVAL, "no drawing format given (try dot, svg or png)");
    pdt_status st = check_tree(tree, err);
    if (st != PDT_OK) return st;
    gv_messages[0] = '\0';
    agusererrf old = agseterrf(gv_capture);
    Agraph_t *g = NULL;
    st = build_graph(&g, tree, err);
    if (st == PDT_OK) {
        st = strcmp(format, "dot") == 0 ? write_dot(g, path, err) : render_gvc(g, path, format, err);
        agclose(g);
    }
    agseterrf(old);
    return st;
}
