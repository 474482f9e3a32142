/* The tree as a Graphviz graph: built with libcgraph, written as DOT by
 * agwrite, or laid out and rendered by libgvc (svg, png, pdf, ...).  The
 * Graphviz API is not reentrant: one render at a time, from one thread. */
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "model_impl.h"


/* ColorBrewer Set3: light enough for black text. */
static const char *const palette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                      "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                      "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
#define PALETTE_SIZE (sizeof palette / sizeof palette[0])

/* Messages Graphviz reports through agerr, kept for our error text. */
static char gv_messages[512];

static int gv_capture(char *msg)
{
    size_t len = strlen(gv_messages);
    snprintf(gv_messages + len, sizeof gv_messages - len, "%s", msg);
    return 0;
}

/* DOT label text: backslashes doubled so escapes like \N stay literal. */
static void label_text(pdt_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            pdt_buf_puts(b, "\\\\");
        else
            pdt_buf_printf(b, "%c", *s);
    }
}

typedef struct gv_syms {
    Agsym_t *label, *style, *fill, *edge_label;
} gv_syms;

static bool declare_attributes(gv_syms *sy, Agraph_t *g, const char *title)
{
    sy->label = agattr(g, AGNODE, "label", "");
    sy->style = agattr(g, AGNODE, "style", "rounded");
    sy->fill = agattr(g, AGNODE, "fillcolor", "white");
    sy->edge_label = agattr(g, AGEDGE, "label", "");
    return sy->label && sy->style && sy->fill && sy->edge_label &&
           agattr(g, AGNODE, "shape", "box") && agattr(g, AGNODE, "fontname", "Helvetica") &&
           agattr(g, AGEDGE, "fontname", "Helvetica") &&
           agattr(g, AGRAPH, "fontname", "Helvetica") && agattr(g, AGRAPH, "labelloc", "t") &&
           agattr(g, AGRAPH, "label", (char *)title);
}

static pdt_status node_label(pdt_buf *b, const pdt_model *m, size_t i, pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[i];
    if (n->left >= 0) {
        pdt_buf text;
        pdt_buf_init(&text);
        pdt_status st = pdt_model_rule_text(&text, m, (size_t)n->rule, err);
        if (st == PDT_OK) label_text(b, text.data ? text.data : "");
        pdt_buf_clear(&text);
        if (st != PDT_OK) return st;
    } else {
        label_text(b, m->classes[n->label]);
    }
    /* every node: its items and their class counts (a branch's majority is not a prediction) */
    pdt_buf_printf(b, "\\n%llu items: ", (unsigned long long)n->n_items);
    for (size_t c = 0; c < m->n_classes; c++)
        pdt_buf_printf(b, "%s%llu", c ? "/" : "",
                       (unsigned long long)m->counts[i * m->n_classes + c]);
    return PDT_OK;
}

static pdt_status add_node(Agnode_t **out, Agraph_t *g, const gv_syms *sy, const pdt_model *m,
                           size_t i, pdt_error *err)
{
    char name[32];
    snprintf(name, sizeof name, "n%zu", i);
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_status st = node_label(&b, m, i, err);
    if (st != PDT_OK) {
        pdt_buf_clear(&b);
        return st;
    }
    Agnode_t *v = agnode(g, name, 1);
    bool ok = v && !b.failed && agxset(v, sy->label, b.data ? b.data : "") == 0;
    pdt_buf_clear(&b);
    if (ok && m->nodes[i].left < 0)
        ok = agxset(v, sy->style, "rounded,filled") == 0 &&
             agxset(v, sy->fill, (char *)palette[m->nodes[i].label % PALETTE_SIZE]) == 0;
    if (!ok) return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot add node %zu", i);
    *out = v;
    return PDT_OK;
}

static pdt_status add_edges(Agraph_t *g, const gv_syms *sy, const pdt_model *m, Agnode_t **v,
                            pdt_error *err)
{
    for (size_t i = 0; i < m->n_nodes; i++) {
        const pdt_tree_node *n = &m->nodes[i];
        if (n->left < 0) continue;
        Agedge_t *yes = agedge(g, v[i], v[n->left], NULL, 1);
        Agedge_t *no = agedge(g, v[i], v[n->right], NULL, 1);
        if (!yes || !no || agxset(yes, sy->edge_label, "yes") != 0 ||
            agxset(no, sy->edge_label, "no") != 0)
            return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot add the edges of node %zu", i);
    }
    return PDT_OK;
}

static void title_text(char *title, size_t size, const pdt_model *m)
{
    pdt_buf obj;
    pdt_buf_init(&obj);
    pdt_buf_mpq_decimal(&obj, m->objective);
    snprintf(title, size, "objective %.200s, size %u, depth %u%s", obj.data ? obj.data : "?",
             m->size, m->depth, m->optimal ? ", optimal" : "");
    pdt_buf_clear(&obj);
}

static pdt_status build_graph(Agraph_t **out, const pdt_model *m, pdt_error *err)
{
    char title[320];
    title_text(title, sizeof title, m);
    Agraph_t *g = agopen("pdt", Agdirected, NULL);
    gv_syms sy;
    if (!g || !declare_attributes(&sy, g, title)) {
        if (g) agclose(g);
        return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot create the graph");
    }
    Agnode_t **v = malloc(m->n_nodes * sizeof *v);
    pdt_status st = v ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory rendering");
    for (size_t i = 0; i < m->n_nodes && st == PDT_OK; i++) st = add_node(&v[i], g, &sy, m, i, err);
    if (st == PDT_OK) st = add_edges(g, &sy, m, v, err);
    free(v);
    if (st != PDT_OK) {
        agclose(g);
        return st;
    }
    *out = g;
    return PDT_OK;
}

/* ------------------------------------------------------------ output */

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

/* The error for a format libgvc refused: unknown (with the known ones) or a failure. */
static pdt_status render_failure(GVC_t *gvc, const char *path, const char *format, pdt_error *err)
{
    int n = 0;
    char **list = gvPluginList(gvc, "device", &n, NULL);
    size_t flen = strcspn(format, ":");
    bool known = false;
    pdt_buf names;
    pdt_buf_init(&names);
    pdt_buf_puts(&names, "dot");
    for (int k = 0; k < n; k++) {
        if (strlen(list[k]) == flen && strncasecmp(list[k], format, flen) == 0) known = true;
        if (strcmp(list[k], "dot") != 0) pdt_buf_printf(&names, ", %s", list[k]);
        free(list[k]);
    }
    free(list);
    pdt_status st;
    if (known)
        st = pdt_error_set(err, PDT_EIO, "cannot render %s as %s: %s", path, format,
                           gv_messages[0] ? gv_messages : "graphviz failed");
    else
        st = pdt_error_set(err, PDT_EINVAL, "unknown output format \"%.100s\" (supported: %s)",
                           format, names.data ? names.data : "dot");
    pdt_buf_clear(&names);
    return st;
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* One libgvc context for the process, made on first use and kept: Graphviz
 * 2.43's pango plugin caches a font name that points into the context, so a
 * second context would read freed memory. */
static GVC_t *shared_context(void)
{
    static GVC_t *gvc;
    if (!gvc) gvc = gvContext();
    return gvc;
}

static pdt_status render_gvc(Agraph_t *g, const char *path, const char *format, pdt_error *err)
{
    GVC_t *gvc = shared_context();
    if (!gvc) return pdt_error_set(err, PDT_ENOMEM, "graphviz: cannot create a context");
    pdt_atomic_file af;
    pdt_status st = pdt_atomic_file_open(&af, path, err);
    if (st == PDT_OK) {
        fclose(af.f);
        af.f = NULL;
        if (gvLayout(gvc, g, "dot") != 0) {
            st = pdt_error_set(err, PDT_EPLUGIN, "graphviz: dot layout failed: %s", gv_messages);
        } else {
            if (gvRenderFilename(gvc, g, format, af.tmp_path) != 0)
                st = render_failure(gvc, path, format, err);
            else if (file_size(af.tmp_path) <= 0)
                st = pdt_error_set(err, PDT_EIO, "cannot render %s: graphviz wrote nothing", path);
            gvFreeLayout(gvc, g);
        }
        if (st == PDT_OK)
            st = pdt_atomic_file_commit(&af, err);
        else
            pdt_atomic_file_abort(&af);
    }
    return st;
}

pdt_status pdt_model_render(const pdt_model *model, const char *path, const char *format,
                            pdt_error *err)
{
    if (!format || !format[0])
        return pdt_error_set(err, PDT_EINVAL, "no output format given (try dot, svg or png)");
    pdt_status st = pdt_model_check(model, err);
    if (st != PDT_OK) return st;
    gv_messages[0] = '\0';
    agusererrf old = agseterrf(gv_capture);
    Agraph_t *g = NULL;
    st = build_graph(&g, model, err);
    if (st == PDT_OK) {
        if (strcmp(format, "dot") == 0)
            st = write_dot(g, path, err);
        else
            st = render_gvc(g, path, format, err);
        agclose(g);
    }
    agseterrf(old);
    return st;
}
