/* 2-D pictures: shapes are recorded here and replayed onto a PNG or SVG
 * surface by the drawing module (cairo, pdt_draw_module.h) at save time. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "pdt_draw_module.h"

typedef pdt_draw_shape shape;

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

static shape *add(pdt_plot *p, pdt_draw_shape_kind kind)
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
    shape *s = add(p, PDT_SHAPE_POINT);
    if (s) *s = (shape){.kind = PDT_SHAPE_POINT, .a = x, .b = y, .size = radius_px, .fill = fill, .edge = edge,
                        .has_fill = true, .has_edge = true};
}

void pdt_plot_segment(pdt_plot *p, double x1, double y1, double x2, double y2, double width_px, pdt_rgba color)
{
    shape *s = add(p, PDT_SHAPE_SEGMENT);
    if (s) *s = (shape){.kind = PDT_SHAPE_SEGMENT, .a = x1, .b = y1, .c = x2, .d = y2, .size = width_px,
                        .edge = color, .has_edge = true};
}

void pdt_plot_polygon(pdt_plot *p, const double *xy, size_t n, const pdt_rgba *fill, const pdt_rgba *stroke,
                      double width_px)
{
    if (n < 3) return;
    shape *s = add(p, PDT_SHAPE_POLYGON);
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
    shape *s = add(p, PDT_SHAPE_TEXT);
    if (!s) return;
    *s = (shape){.kind = PDT_SHAPE_TEXT, .a = x, .b = y, .size = size_px, .fill = color, .has_fill = true};
    s->text = strdup(text);
    if (!s->text) p->failed = true, p->n--;
}

void pdt_plot_raster(pdt_plot *p, const uint32_t *argb)
{
    shape *s = add(p, PDT_SHAPE_RASTER);
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

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

typedef struct picture_job {
    const pdt_draw_module *module;
    const pdt_draw_picture *pic;
    bool png;
} picture_job;

static pdt_status draw_picture_job(void *arg, FILE *f, pdt_error *err)
{
    const picture_job *j = arg;
    return j->module->render_picture(j->pic, j->png, f, err);
}

pdt_status pdt_plot_save(pdt_plot *p, const char *path, pdt_error *err)
{
    bool png = ends_with(path, ".png"), svg = ends_with(path, ".svg");
    if (!png && !svg) return pdt_error_set(err, PDT_EINVAL, "%s: pictures are written as .png or .svg", path);
    if (p->failed) return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory while drawing", path);
    const pdt_draw_module *module;
    pdt_status st = pdt_draw_module_get(&module, err);
    pdt_atomic_file af;
    if (st == PDT_OK) st = pdt_atomic_file_open(&af, path, err);
    if (st != PDT_OK) return st;
    pdt_draw_picture pic = {p->width, p->height, p->x0, p->x1, p->y0, p->y1, p->shapes, p->n};
    picture_job job = {module, &pic, png};
    st = pdt_draw_isolated(draw_picture_job, &job, af.f, path, err);
    if (st == PDT_OK) return pdt_atomic_file_commit(&af, err);
    pdt_atomic_file_abort(&af);
    return st == PDT_ELIMIT ? st : pdt_error_prefix(err, "%s: ", path);
}
