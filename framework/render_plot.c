/* 2-D pictures with cairo: record shapes, replay them onto a PNG or SVG surface. */
#include <cairo-svg.h>
#include <cairo.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "pdt_plot.h"

typedef enum { SHAPE_POINT, SHAPE_SEGMENT, SHAPE_POLYGON, SHAPE_TEXT, SHAPE_RASTER } shape_kind;

typedef struct shape {
    shape_kind kind;
    double a, b, c, d, size;
    pdt_rgba fill, edge;
    bool has_fill, has_edge;
    double *xy;       /* polygon vertices */
    size_t n;
    char *text;
    uint32_t *raster; /* width*height */
} shape;

struct pdt_plot {
    int width, height;
    double x0, x1, y0, y1;
    shape *shapes;
    size_t n, cap;
    bool failed;
};

pdt_status pdt_plot_new(pdt_plot **out, int width, int height, double x0, double x1, double y0,
                        double y1, pdt_error *err)
{
    *out = NULL;
    if (width < 1 || height < 1 || width > 20000 || height > 20000)
        return pdt_error_set(err, PDT_EINVAL, "picture size %d×%d is not between 1 and 20000 pixels", width, height);
    if (!(x1 > x0) || !(y1 > y0))
        return pdt_error_set(err, PDT_EINVAL, "picture: the drawing box is empty");
    if (!isfinite(x0) || !isfinite(x1) || !isfinite(y0) || !isfinite(y1))
        return pdt_error_set(err, PDT_EINVAL, "picture: the drawing box is not finite");
    pdt_plot *p = calloc(1, sizeof *p);
    if (!p) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    *p = (pdt_plot){width, height, x0, x1, y0, y1, NULL, 0, 0, false};
    *out = p;
    return PDT_OK;
}

void pdt_plot_free(pdt_plot **pp)
{
    if (!pp || !*pp) return;
    pdt_plot *p = *pp;
    for (size_t i = 0; i < p->n; i++) {
        free(p->shapes[i].xy);
        free(p->shapes[i].text);
        free(p->shapes[i].raster);
    }
    free(p->shapes);
    free(p);
    *pp = NULL;
}

int pdt_plot_width(const pdt_plot *p) { return p->width; }
int pdt_plot_height(const pdt_plot *p) { return p->height; }

pdt_rgba pdt_plot_class_color(size_t k, double alpha)
{
    /* Okabe–Ito */
    static const double pal[][3] = {{0.000, 0.447, 0.698}, {0.902, 0.624, 0.000}, {0.000, 0.620, 0.451},
                                    {0.800, 0.475, 0.655}, {0.337, 0.706, 0.914}, {0.835, 0.369, 0.000},
                                    {0.941, 0.894, 0.259}, {0.000, 0.000, 0.000}};
    const double *c = pal[k % (sizeof pal / sizeof *pal)];
    return (pdt_rgba){c[0], c[1], c[2], alpha};
}

void pdt_plot_pad(double *lo, double *hi, double m)
{
    if (!(*hi >= *lo)) *lo = 0, *hi = 1;
    if (!(m >= 0) || m > DBL_MAX) m = DBL_MAX;
    *lo = *lo - m < -DBL_MAX ? -DBL_MAX : *lo - m;
    *hi = *hi + m > DBL_MAX ? DBL_MAX : *hi + m;
    if (!(*hi > *lo)) *hi = nextafter(*lo, INFINITY); /* a tiny width lost in rounding */
}

void pdt_plot_widen(double *lo, double *hi, double margin)
{
    if (!(*hi >= *lo)) *lo = 0, *hi = 1;
    double half = *hi / 2 - *lo / 2;
    if (!(half > 0)) half = fabs(*lo) > 0 ? fabs(*lo) / 2 : 0.5;
    pdt_plot_pad(lo, hi, margin * 2 * half);
}

void pdt_plot_to_pixel(const pdt_plot *p, double x, double y, double *px, double *py)
{
    /* halves: a box from -DBL_MAX to DBL_MAX has no finite width */
    *px = (x / 2 - p->x0 / 2) / (p->x1 / 2 - p->x0 / 2) * p->width;
    *py = (p->y1 / 2 - y / 2) / (p->y1 / 2 - p->y0 / 2) * p->height;
}

void pdt_plot_to_world(const pdt_plot *p, double px, double py, double *x, double *y)
{
    double s = px / p->width, t = py / p->height;
    *x = p->x0 * (1 - s) + p->x1 * s;
    *y = p->y1 * (1 - t) + p->y0 * t;
}

/* Cairo keeps coordinates in 24.8 fixed point: far-away (or non-finite)
 * pixels are pulled in to where they cannot wrap around. */
static double to_cairo(double v)
{
    return v > 1e6 ? 1e6 : v < -1e6 ? -1e6 : v == v ? v : 0;
}

static void world_to_cairo(const pdt_plot *p, double x, double y, double *px, double *py)
{
    pdt_plot_to_pixel(p, x, y, px, py);
    *px = to_cairo(*px);
    *py = to_cairo(*py);
}

static shape *add(pdt_plot *p, shape_kind kind)
{
    if (p->failed) return NULL;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        shape *s = realloc(p->shapes, cap * sizeof *s);
        if (!s) {
            p->failed = true;
            return NULL;
        }
        p->shapes = s;
        p->cap = cap;
    }
    shape *s = &p->shapes[p->n++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    return s;
}

void pdt_plot_point(pdt_plot *p, double x, double y, double radius_px, pdt_rgba fill, pdt_rgba edge)
{
    shape *s = add(p, SHAPE_POINT);
    if (s) *s = (shape){.kind = SHAPE_POINT, .a = x, .b = y, .size = radius_px, .fill = fill, .edge = edge,
                        .has_fill = true, .has_edge = true};
}

void pdt_plot_segment(pdt_plot *p, double x1, double y1, double x2, double y2, double width_px, pdt_rgba color)
{
    shape *s = add(p, SHAPE_SEGMENT);
    if (s) *s = (shape){.kind = SHAPE_SEGMENT, .a = x1, .b = y1, .c = x2, .d = y2, .size = width_px,
                        .edge = color, .has_edge = true};
}

void pdt_plot_polygon(pdt_plot *p, const double *xy, size_t n, const pdt_rgba *fill, const pdt_rgba *stroke,
                      double width_px)
{
    if (n < 3) return;
    shape *s = add(p, SHAPE_POLYGON);
    if (!s) return;
    s->xy = malloc(2 * n * sizeof *s->xy);
    if (!s->xy) {
        p->failed = true;
        p->n--;
        return;
    }
    memcpy(s->xy, xy, 2 * n * sizeof *xy);
    s->n = n;
    s->size = width_px;
    if (fill) s->fill = *fill, s->has_fill = true;
    if (stroke) s->edge = *stroke, s->has_edge = true;
}

void pdt_plot_text(pdt_plot *p, double x, double y, double size_px, pdt_rgba color, const char *text)
{
    shape *s = add(p, SHAPE_TEXT);
    if (!s) return;
    *s = (shape){.kind = SHAPE_TEXT, .a = x, .b = y, .size = size_px, .fill = color, .has_fill = true};
    s->text = strdup(text);
    if (!s->text) p->failed = true, p->n--;
}

void pdt_plot_raster(pdt_plot *p, const uint32_t *argb)
{
    shape *s = add(p, SHAPE_RASTER);
    if (!s) return;
    size_t bytes = (size_t)p->width * (size_t)p->height * sizeof *argb;
    s->raster = malloc(bytes);
    if (!s->raster) {
        p->failed = true;
        p->n--;
        return;
    }
    memcpy(s->raster, argb, bytes);
}

static void set_color(cairo_t *cr, pdt_rgba c) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a); }

static void draw_raster(const pdt_plot *p, cairo_t *cr, const shape *s)
{
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return;
    }
    cairo_surface_flush(img);
    unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    for (int y = 0; y < p->height; y++)
        memcpy(data + (size_t)y * (size_t)stride, s->raster + (size_t)y * (size_t)p->width,
               (size_t)p->width * sizeof *s->raster);
    cairo_surface_mark_dirty(img);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_paint(cr);
    cairo_surface_destroy(img);
}

static void draw_shape(const pdt_plot *p, cairo_t *cr, const shape *s)
{
    double px, py, qx, qy;
    cairo_new_path(cr); /* text leaves a current point that would join the next shape */
    switch (s->kind) {
    case SHAPE_RASTER: draw_raster(p, cr, s); return;
    case SHAPE_POINT:
        world_to_cairo(p, s->a, s->b, &px, &py);
        cairo_arc(cr, px, py, s->size, 0, 6.283185307179586);
        set_color(cr, s->fill);
        cairo_fill_preserve(cr);
        set_color(cr, s->edge);
        cairo_set_line_width(cr, 1.0);
        cairo_stroke(cr);
        return;
    case SHAPE_SEGMENT:
        world_to_cairo(p, s->a, s->b, &px, &py);
        world_to_cairo(p, s->c, s->d, &qx, &qy);
        cairo_move_to(cr, px, py);
        cairo_line_to(cr, qx, qy);
        set_color(cr, s->edge);
        cairo_set_line_width(cr, s->size);
        cairo_stroke(cr);
        return;
    case SHAPE_POLYGON:
        for (size_t i = 0; i < s->n; i++) {
            world_to_cairo(p, s->xy[2 * i], s->xy[2 * i + 1], &px, &py);
            if (i == 0) cairo_move_to(cr, px, py);
            else cairo_line_to(cr, px, py);
        }
        cairo_close_path(cr);
        if (s->has_fill) set_color(cr, s->fill), s->has_edge ? cairo_fill_preserve(cr) : cairo_fill(cr);
        if (s->has_edge) set_color(cr, s->edge), cairo_set_line_width(cr, s->size), cairo_stroke(cr);
        return;
    case SHAPE_TEXT:
        world_to_cairo(p, s->a, s->b, &px, &py);
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, s->size);
        cairo_move_to(cr, px, py);
        set_color(cr, s->fill);
        cairo_show_text(cr, s->text);
        return;
    }
}

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    return fwrite(data, 1, length, (FILE *)closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static cairo_status_t render(const pdt_plot *p, cairo_surface_t *surface)
{
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    for (size_t i = 0; i < p->n; i++) draw_shape(p, cr, &p->shapes[i]);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    return st;
}

pdt_status pdt_plot_save(pdt_plot *p, const char *path, pdt_error *err)
{
    bool png = ends_with(path, ".png"), svg = ends_with(path, ".svg");
    if (!png && !svg) return pdt_error_set(err, PDT_EINVAL, "%s: pictures are written as .png or .svg", path);
    if (p->failed) return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory while drawing", path);
    pdt_atomic_file af;
    pdt_status st = pdt_atomic_file_open(&af, path, err);
    if (st) return st;
    cairo_surface_t *surface = png ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height)
                                   : cairo_svg_surface_create_for_stream(write_stream, af.f, p->width, p->height);
    cairo_status_t cs = cairo_surface_status(surface);
    if (cs == CAIRO_STATUS_SUCCESS) cs = render(p, surface);
    if (cs == CAIRO_STATUS_SUCCESS && png) cs = cairo_surface_write_to_png_stream(surface, write_stream, af.f);
    cairo_surface_finish(surface);
    if (cs == CAIRO_STATUS_SUCCESS) cs = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (cs != CAIRO_STATUS_SUCCESS) {
        pdt_atomic_file_abort(&af);
        return pdt_error_set(err, PDT_EIO, "%s: cannot draw the picture (%s)", path, cairo_status_to_string(cs));
    }
    return pdt_atomic_file_commit(&af, err);
}
