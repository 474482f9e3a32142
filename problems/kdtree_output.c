/* The solved k-D tree as text, as a Graphviz drawing and, in two
 * dimensions, as a picture of its cells. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdtree.h"
#include "pdt_plot.h"
#include "pdt_render.h"

/* "p3 (2, 1/3) w=2" */
static void point_text(pdt_buf *b, const pdt_dataset *ds, int32_t p, bool weight)
{
    mpq_t q;
    mpq_init(q);
    pdt_buf_printf(b, "p%d (", p + 1);
    for (size_t j = 0; j < pdt_dataset_dims(ds); j++) {
        pdt_dataset_value_exact(q, ds, (size_t)p, j);
        if (j) pdt_buf_puts(b, ", ");
        pdt_buf_mpq_decimal(b, q);
    }
    pdt_buf_puts(b, ")");
    if (weight && pdt_dataset_has_weights(ds)) {
        pdt_dataset_weight_exact(q, ds, (size_t)p);
        pdt_buf_puts(b, " w=");
        pdt_buf_mpq_decimal(b, q);
    }
    mpq_clear(q);
}

static void write_node(FILE *out, const pdt_kdtree *t, const pdt_kd_node *nodes, size_t i, int indent,
                       const char *edge)
{
    const pdt_dataset *ds = pdt_kdtree_dataset(t);
    const pdt_kd_node *x = &nodes[i];
    pdt_buf b;
    pdt_buf_init(&b);
    if (edge) pdt_buf_printf(&b, "%s: ", edge);
    if (x->point < 0) {
        pdt_buf_puts(&b, "∅");
    } else {
        point_text(&b, ds, x->point, true);
        pdt_buf_printf(&b, ", split on %s", pdt_dataset_feature_name(ds, x->dim));
    }
    fprintf(out, "%*s%s\n", 4 * indent, "", b.data ? b.data : "");
    if (x->point >= 0 && (nodes[x->left].point >= 0 || nodes[x->right].point >= 0)) {
        pdt_buf_clear(&b);
        pdt_buf_init(&b);
        mpq_t q;
        mpq_init(q);
        pdt_dataset_value_exact(q, ds, (size_t)x->point, x->dim);
        pdt_buf_mpq_decimal(&b, q);
        mpq_clear(q);
        const char *name = pdt_dataset_feature_name(ds, x->dim), *v = b.data ? b.data : "";
        char *lt = malloc(strlen(name) + strlen(v) + 8), *ge = malloc(strlen(name) + strlen(v) + 8);
        if (lt && ge) {
            sprintf(lt, "%s < %s", name, v);
            sprintf(ge, "%s ≥ %s", name, v);
            write_node(out, t, nodes, (size_t)x->left, indent + 1, lt);
            write_node(out, t, nodes, (size_t)x->right, indent + 1, ge);
        }
        free(lt);
        free(ge);
    }
    pdt_buf_clear(&b);
}

pdt_status pdt_kdtree_write_text(const pdt_kdtree *tree, FILE *out, pdt_error *err)
{
    size_t n = 0;
    const pdt_kd_node *nodes = pdt_kdtree_nodes(tree, &n);
    if (!n) return pdt_error_set(err, PDT_EINTERNAL, "k-D tree: not solved");
    write_node(out, tree, nodes, 0, 0, NULL);
    return ferror(out) ? pdt_error_set(err, PDT_EIO, "cannot write the tree") : PDT_OK;
}

static void title_text(pdt_buf *b, const pdt_kdtree *t)
{
    mpq_t cost;
    mpq_init(cost);
    pdt_kdtree_cost(cost, t);
    pdt_buf_puts(b, "access cost ");
    pdt_buf_mpq(b, cost);
    pdt_buf_printf(b, ", height %u%s", pdt_kdtree_height(t), pdt_kdtree_optimal(t) ? " (optimal)" : "");
    mpq_clear(cost);
}

pdt_status pdt_kdtree_render(const pdt_kdtree *tree, const char *path, const char *format,
                             pdt_error *err)
{
    size_t n = 0;
    const pdt_kd_node *nodes = pdt_kdtree_nodes(tree, &n);
    if (!n) return pdt_error_set(err, PDT_EINTERNAL, "k-D tree: not solved");
    const pdt_dataset *ds = pdt_kdtree_dataset(tree);
    pdt_draw_node *dn = calloc(n, sizeof *dn);
    pdt_buf *labels = calloc(n, sizeof *labels);
    pdt_status st = dn && labels ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < n; i++) {
        pdt_buf_init(&labels[i]);
        if (nodes[i].point >= 0) {
            point_text(&labels[i], ds, nodes[i].point, true);
            pdt_buf_printf(&labels[i], "\nsplit on %s", pdt_dataset_feature_name(ds, nodes[i].dim));
        } else {
            pdt_buf_puts(&labels[i], "empty");
        }
        dn[i] = (pdt_draw_node){nodes[i].left, nodes[i].right, labels[i].data, NULL, nodes[i].point < 0};
    }
    if (!st) {
        pdt_buf title;
        pdt_buf_init(&title);
        title_text(&title, tree);
        pdt_draw_tree t = {title.data, dn, n, "<", "≥", NULL, 0};
        st = pdt_draw_tree_render(&t, path, format, err);
        pdt_buf_clear(&title);
    }
    for (size_t i = 0; labels && i < n; i++) pdt_buf_clear(&labels[i]);
    free(labels);
    free(dn);
    return st;
}

/* ------------------------------------------------------------ picture */

/* Text whose baseline starts dx, dy pixels from the world point (x, y). */
static void text_near(pdt_plot *plot, double x, double y, double dx, double dy, double size,
                      pdt_rgba color, const char *text)
{
    double px, py;
    pdt_plot_to_pixel(plot, x, y, &px, &py);
    pdt_plot_to_world(plot, px + dx, py + dy, &x, &y);
    pdt_plot_text(plot, x, y, size, color, text);
}

typedef struct cell {
    double x0, x1, y0, y1;
} cell;

static void draw_cells(pdt_plot *plot, const pdt_kdtree *t, const pdt_kd_node *nodes, size_t i,
                       cell c, unsigned level)
{
    const pdt_kd_node *x = &nodes[i];
    if (x->point < 0) return;
    const pdt_dataset *ds = pdt_kdtree_dataset(t);
    double v = pdt_dataset_value(ds, (size_t)x->point, x->dim);
    pdt_rgba col = pdt_plot_class_color(level, 0.9);
    cell l = c, r = c;
    if (x->dim == 0) {
        pdt_plot_segment(plot, v, c.y0, v, c.y1, 2.0, col);
        l.x1 = r.x0 = v;
    } else {
        pdt_plot_segment(plot, c.x0, v, c.x1, v, 2.0, col);
        l.y1 = r.y0 = v;
    }
    draw_cells(plot, t, nodes, (size_t)x->left, l, level + 1);
    draw_cells(plot, t, nodes, (size_t)x->right, r, level + 1);
}

static cell bounding_box(const pdt_dataset *ds)
{
    cell b = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++) {
        double x = pdt_dataset_value(ds, i, 0), y = pdt_dataset_value(ds, i, 1);
        if (isfinite(x)) b.x0 = fmin(b.x0, x), b.x1 = fmax(b.x1, x);
        if (isfinite(y)) b.y0 = fmin(b.y0, y), b.y1 = fmax(b.y1, y);
    }
    /* 8% each side; a single value gets 1 each side */
    if (b.x1 == b.x0) pdt_plot_pad(&b.x0, &b.x1, 1);
    else pdt_plot_widen(&b.x0, &b.x1, 0.08);
    if (b.y1 == b.y0) pdt_plot_pad(&b.y0, &b.y1, 1);
    else pdt_plot_widen(&b.y0, &b.y1, 0.08);
    return b;
}

pdt_status pdt_kdtree_picture(const pdt_kdtree *tree, const char *path, pdt_error *err)
{
    size_t n = 0;
    const pdt_kd_node *nodes = pdt_kdtree_nodes(tree, &n);
    const pdt_dataset *ds = pdt_kdtree_dataset(tree);
    if (!n) return pdt_error_set(err, PDT_EINTERNAL, "k-D tree: not solved");
    if (pdt_dataset_dims(ds) != 2)
        return pdt_error_set(err, PDT_EINVAL, "a picture of the cells needs two coordinates (the data has %zu)",
                             pdt_dataset_dims(ds));
    cell box = bounding_box(ds);
    pdt_plot *plot = NULL;
    pdt_status st = pdt_plot_new(&plot, 640, 640, box.x0, box.x1, box.y0, box.y1, err);
    if (st) return st;
    pdt_rgba black = {0, 0, 0, 1}, white = {1, 1, 1, 1};
    double frame[] = {box.x0, box.y0, box.x1, box.y0, box.x1, box.y1, box.x0, box.y1};
    pdt_plot_polygon(plot, frame, 4, &white, &black, 1.0);
    draw_cells(plot, tree, nodes, 0, box, 0);
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++)
        pdt_plot_point(plot, pdt_dataset_value(ds, i, 0), pdt_dataset_value(ds, i, 1), 4.0, black, black);
    /* texts last, on top of the shapes */
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++) {
        double x = pdt_dataset_value(ds, i, 0), y = pdt_dataset_value(ds, i, 1);
        char name[24];
        snprintf(name, sizeof name, "p%zu", i + 1);
        text_near(plot, x, y, 5, -5, 11.0, black, name);
    }
    pdt_buf title;
    pdt_buf_init(&title);
    title_text(&title, tree);
    text_near(plot, box.x0, box.y1, 6, 16, 13.0, black, title.data ? title.data : "");
    pdt_buf_clear(&title);
    st = pdt_plot_save(plot, path, err);
    pdt_plot_free(&plot);
    return st;
}
