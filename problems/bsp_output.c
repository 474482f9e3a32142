/* The solved auto-partition as text, as a Graphviz drawing and as a picture
 * of the segments, the cuts (each node's line clipped to its region) and
 * the fragments.  The picture is drawn in doubles; the tree is exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bsp_impl.h"
#include "pdt_plot.h"
#include "pdt_render.h"

static void point_text(pdt_buf *b, mpq_srcptr x, mpq_srcptr y)
{
    pdt_buf_puts(b, "(");
    pdt_buf_mpq_decimal(b, x);
    pdt_buf_puts(b, ", ");
    pdt_buf_mpq_decimal(b, y);
    pdt_buf_puts(b, ")");
}

/* "s7 (3, 1.5)–(4, 2)" */
static void fragment_text(pdt_buf *b, const pdt_bsp *bsp, const pdt_bsp_fragment *f)
{
    mpq_t x1, y1, x2, y2;
    mpq_inits(x1, y1, x2, y2, NULL);
    pdt_bsp_fragment_ends(x1, y1, x2, y2, bsp, f);
    pdt_buf_printf(b, "s%u ", f->segment + 1);
    point_text(b, x1, y1);
    pdt_buf_puts(b, "–");
    point_text(b, x2, y2);
    mpq_clears(x1, y1, x2, y2, NULL);
}

static void node_text(pdt_buf *b, const pdt_bsp *bsp, const pdt_bsp_node *x, const char *sep)
{
    if (x->segment < 0) {
        pdt_buf_puts(b, "empty");
        return;
    }
    pdt_buf_printf(b, "line of s%d", x->segment + 1);
    for (uint32_t k = 0; k < x->n_fragments; k++) {
        pdt_buf_puts(b, k ? ", " : sep);
        if (k && sep[0] == '\n') pdt_buf_puts(b, "\n");
        fragment_text(b, bsp, &bsp->frags[x->first_fragment + k]);
    }
}

static void write_node(FILE *out, const pdt_bsp *bsp, size_t i, int indent, const char *edge)
{
    const pdt_bsp_node *x = &bsp->nodes[i];
    pdt_buf b;
    pdt_buf_init(&b);
    if (edge) pdt_buf_printf(&b, "%s: ", edge);
    if (x->segment < 0) pdt_buf_puts(&b, "∅");
    else node_text(&b, bsp, x, ", stores ");
    fprintf(out, "%*s%s\n", 4 * indent, "", b.data ? b.data : "");
    pdt_buf_clear(&b);
    if (x->segment < 0) return;
    if (bsp->nodes[x->left].segment < 0 && bsp->nodes[x->right].segment < 0) return;
    write_node(out, bsp, (size_t)x->left, indent + 1, "left");
    write_node(out, bsp, (size_t)x->right, indent + 1, "right");
}

pdt_status pdt_bsp_write_text(const pdt_bsp *bsp, FILE *out, pdt_error *err)
{
    if (!bsp->solved || !bsp->n_nodes) return pdt_error_set(err, PDT_EINTERNAL, "bsp: not solved");
    write_node(out, bsp, 0, 0, NULL);
    return ferror(out) ? pdt_error_set(err, PDT_EIO, "cannot write the tree") : PDT_OK;
}

static void title_text(pdt_buf *b, const pdt_bsp *bsp)
{
    pdt_bsp_summary s;
    pdt_bsp_summarise(&s, bsp);
    pdt_buf_printf(b, "%zu segments: %llu fragments, %llu nodes, depth %u%s", bsp->n,
                   (unsigned long long)s.fragments, (unsigned long long)s.nodes, s.depth,
                   s.optimal ? " (optimal)" : "");
}

pdt_status pdt_bsp_render(const pdt_bsp *bsp, const char *path, const char *format, pdt_error *err)
{
    if (!bsp->solved || !bsp->n_nodes) return pdt_error_set(err, PDT_EINTERNAL, "bsp: not solved");
    size_t n = bsp->n_nodes;
    pdt_draw_node *dn = calloc(n, sizeof *dn);
    pdt_buf *labels = calloc(n, sizeof *labels);
    pdt_status st = dn && labels ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < n; i++) {
        const pdt_bsp_node *x = &bsp->nodes[i];
        pdt_buf_init(&labels[i]);
        node_text(&labels[i], bsp, x, "\n");
        dn[i] = (pdt_draw_node){x->left, x->right, labels[i].data, NULL, x->segment < 0};
    }
    if (!st) {
        pdt_buf title;
        pdt_buf_init(&title);
        title_text(&title, bsp);
        pdt_draw_tree t = {title.data, dn, n, "left", "right", NULL, 0};
        st = pdt_draw_tree_render(&t, path, format, err);
        pdt_buf_clear(&title);
    }
    for (size_t i = 0; labels && i < n; i++) pdt_buf_clear(&labels[i]);
    free(labels);
    free(dn);
    return st;
}

/* ------------------------------------------------------------ picture */

typedef struct poly {
    double *xy;
    size_t n;
} poly;

static double side(const double *a, const double *b, double x, double y)
{
    return (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
}

/* The part of p with sign·side(a, b, ·) >= 0 (Sutherland–Hodgman). */
static poly clip(const poly *p, const double *a, const double *b, double sign)
{
    poly q = {malloc((2 * p->n + 2) * sizeof(double) * 2), 0};
    for (size_t i = 0; q.xy && i < p->n; i++) {
        const double *u = p->xy + 2 * i, *v = p->xy + 2 * ((i + 1) % p->n);
        double su = sign * side(a, b, u[0], u[1]), sv = sign * side(a, b, v[0], v[1]);
        if (su >= 0) q.xy[2 * q.n] = u[0], q.xy[2 * q.n + 1] = u[1], q.n++;
        if ((su > 0 && sv < 0) || (su < 0 && sv > 0)) {
            double t = su / (su - sv);
            q.xy[2 * q.n] = u[0] + t * (v[0] - u[0]);
            q.xy[2 * q.n + 1] = u[1] + t * (v[1] - u[1]);
            q.n++;
        }
    }
    return q;
}

/* The chord of line (a, b) through the convex polygon p: its two farthest points on the line. */
static void draw_cut(pdt_plot *plot, const poly *p, const double *a, const double *b, pdt_rgba color)
{
    poly l = clip(p, a, b, 1.0);
    double best = -1, c[4] = {0};
    for (size_t i = 0; l.xy && i < l.n; i++)
        for (size_t j = i + 1; j < l.n; j++) {
            const double *u = l.xy + 2 * i, *v = l.xy + 2 * j;
            double scale = hypot(b[0] - a[0], b[1] - a[1]);
            if (fabs(side(a, b, u[0], u[1])) > 1e-9 * scale * (1 + hypot(u[0], u[1])) ||
                fabs(side(a, b, v[0], v[1])) > 1e-9 * scale * (1 + hypot(v[0], v[1])))
                continue;
            double d = hypot(u[0] - v[0], u[1] - v[1]);
            if (d > best) best = d, c[0] = u[0], c[1] = u[1], c[2] = v[0], c[3] = v[1];
        }
    if (best > 0) pdt_plot_segment(plot, c[0], c[1], c[2], c[3], 1.5, color);
    free(l.xy);
}

static void draw_regions(pdt_plot *plot, const pdt_bsp *bsp, size_t i, const poly *region, unsigned level)
{
    const pdt_bsp_node *x = &bsp->nodes[i];
    if (x->segment < 0 || !region->xy || region->n < 3) return;
    const bsp_segment *s = &bsp->seg[x->segment];
    double a[2] = {mpq_get_d(s->a.x), mpq_get_d(s->a.y)}, b[2] = {mpq_get_d(s->b.x), mpq_get_d(s->b.y)};
    pdt_rgba grey = {0.45, 0.45, 0.45, 0.8 - (level < 6 ? 0.1 * level : 0.6)};
    draw_cut(plot, region, a, b, grey);
    poly l = clip(region, a, b, 1.0), r = clip(region, a, b, -1.0);
    draw_regions(plot, bsp, (size_t)x->left, &l, level + 1);
    draw_regions(plot, bsp, (size_t)x->right, &r, level + 1);
    free(l.xy);
    free(r.xy);
}

static void bounds(const pdt_bsp *bsp, double *box)
{
    box[0] = box[2] = INFINITY;
    box[1] = box[3] = -INFINITY;
    for (size_t i = 0; i < bsp->n; i++)
        for (int e = 0; e < 2; e++) {
            const bsp_point *p = e ? &bsp->seg[i].b : &bsp->seg[i].a;
            double x = mpq_get_d(p->x), y = mpq_get_d(p->y);
            if (isfinite(x)) box[0] = fmin(box[0], x), box[1] = fmax(box[1], x);
            if (isfinite(y)) box[2] = fmin(box[2], y), box[3] = fmax(box[3], y);
        }
    /* halves: the width of data near ±DBL_MAX overflows */
    double w = box[1] / 2 - box[0] / 2, h = box[3] / 2 - box[2] / 2;
    double m = !(w >= 0) || !(h >= 0) ? 1 : 0.24 * fmax(w, h) + (w == 0 && h == 0);
    pdt_plot_pad(&box[0], &box[1], m);
    pdt_plot_pad(&box[2], &box[3], m);
}

static void draw_fragments(pdt_plot *plot, const pdt_bsp *bsp)
{
    mpq_t x1, y1, x2, y2;
    mpq_inits(x1, y1, x2, y2, NULL);
    pdt_rgba black = {0, 0, 0, 1};
    for (size_t k = 0; k < bsp->n_frags; k++) {
        pdt_bsp_fragment_ends(x1, y1, x2, y2, bsp, &bsp->frags[k]);
        pdt_rgba c = pdt_plot_class_color(bsp->frags[k].segment, 1.0);
        pdt_plot_segment(plot, mpq_get_d(x1), mpq_get_d(y1), mpq_get_d(x2), mpq_get_d(y2), 4.0, c);
    }
    for (size_t k = 0; k < bsp->n_frags; k++) {
        pdt_bsp_fragment_ends(x1, y1, x2, y2, bsp, &bsp->frags[k]);
        pdt_plot_point(plot, mpq_get_d(x1), mpq_get_d(y1), 2.5, black, black);
        pdt_plot_point(plot, mpq_get_d(x2), mpq_get_d(y2), 2.5, black, black);
    }
    mpq_clears(x1, y1, x2, y2, NULL);
}

static void text_near(pdt_plot *plot, double x, double y, double dx, double dy, double size, const char *text)
{
    double px, py;
    pdt_rgba black = {0, 0, 0, 1};
    pdt_plot_to_pixel(plot, x, y, &px, &py);
    pdt_plot_to_world(plot, px + dx, py + dy, &x, &y);
    pdt_plot_text(plot, x, y, size, black, text);
}

pdt_status pdt_bsp_picture(const pdt_bsp *bsp, const char *path, pdt_error *err)
{
    if (!bsp->solved || !bsp->n_nodes) return pdt_error_set(err, PDT_EINTERNAL, "bsp: not solved");
    double box[4];
    bounds(bsp, box);
    pdt_plot *plot = NULL;
    pdt_status st = pdt_plot_new(&plot, 720, 720, box[0], box[1], box[2], box[3], err);
    if (st) return st;
    double frame[] = {box[0], box[2], box[1], box[2], box[1], box[3], box[0], box[3]};
    pdt_rgba white = {1, 1, 1, 1}, black = {0, 0, 0, 1};
    pdt_plot_polygon(plot, frame, 4, &white, &black, 1.0);
    poly all = {frame, 4};
    draw_regions(plot, bsp, 0, &all, 0);
    draw_fragments(plot, bsp);
    /* texts last, on top of the shapes */
    for (size_t i = 0; i < bsp->n; i++) {
        const bsp_segment *s = &bsp->seg[i];
        double x = 0.5 * (mpq_get_d(s->a.x) + mpq_get_d(s->b.x)), y = 0.5 * (mpq_get_d(s->a.y) + mpq_get_d(s->b.y));
        char name[24];
        snprintf(name, sizeof name, "s%zu", i + 1);
        text_near(plot, x, y, 4, -6, 12.0, name);
    }
    pdt_buf title;
    pdt_buf_init(&title);
    title_text(&title, bsp);
    text_near(plot, box[0], box[3], 6, 16, 13.0, title.data ? title.data : "");
    pdt_buf_clear(&title);
    st = pdt_plot_save(plot, path, err);
    pdt_plot_free(&plot);
    return st;
}
