/* The drawing module's pictures (pdt_draw_module.h): the shapes recorded by
 * framework/plot.c replayed with cairo onto a PNG or SVG surface. */
#include <cairo-svg.h>
#include <cairo.h>
#include <string.h>

#include "render.h"

/* Cairo keeps coordinates in 24.8 fixed point: far-away (or non-finite)
 * pixels are pulled in to where they cannot wrap around. */
static double to_cairo(double v)
{
    return v > 1e6 ? 1e6 : v < -1e6 ? -1e6 : v == v ? v : 0;
}

/* World to pixel coordinates (pixel y grows downwards), as pdt_plot_to_pixel
 * (in halves: a box from -DBL_MAX to DBL_MAX has no finite width), clamped
 * for cairo. */
static void to_pixel(const pdt_draw_picture *p, double x, double y, double *px, double *py)
{
    *px = to_cairo((x / 2 - p->x0 / 2) / (p->x1 / 2 - p->x0 / 2) * p->width);
    *py = to_cairo((p->y1 / 2 - y / 2) / (p->y1 / 2 - p->y0 / 2) * p->height);
}

static void set_color(cairo_t *cr, pdt_rgba c) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a); }

static void draw_raster(const pdt_draw_picture *p, cairo_t *cr, const pdt_draw_shape *s)
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

static void draw_shape(const pdt_draw_picture *p, cairo_t *cr, const pdt_draw_shape *s)
{
    double px, py, qx, qy;
    cairo_new_path(cr); /* text leaves a current point that would join the next shape */
    switch (s->kind) {
    case PDT_SHAPE_RASTER: draw_raster(p, cr, s); return;
    case PDT_SHAPE_POINT:
        to_pixel(p, s->a, s->b, &px, &py);
        cairo_arc(cr, px, py, s->size, 0, 6.283185307179586);
        set_color(cr, s->fill);
        cairo_fill_preserve(cr);
        set_color(cr, s->edge);
        cairo_set_line_width(cr, 1.0);
        cairo_stroke(cr);
        return;
    case PDT_SHAPE_SEGMENT:
        to_pixel(p, s->a, s->b, &px, &py);
        to_pixel(p, s->c, s->d, &qx, &qy);
        cairo_move_to(cr, px, py);
        cairo_line_to(cr, qx, qy);
        set_color(cr, s->edge);
        cairo_set_line_width(cr, s->size);
        cairo_stroke(cr);
        return;
    case PDT_SHAPE_POLYGON:
        for (size_t i = 0; i < s->n; i++) {
            to_pixel(p, s->xy[2 * i], s->xy[2 * i + 1], &px, &py);
            if (i == 0) cairo_move_to(cr, px, py);
            else cairo_line_to(cr, px, py);
        }
        cairo_close_path(cr);
        if (s->has_fill) set_color(cr, s->fill), s->has_edge ? cairo_fill_preserve(cr) : cairo_fill(cr);
        if (s->has_edge) set_color(cr, s->edge), cairo_set_line_width(cr, s->size), cairo_stroke(cr);
        return;
    case PDT_SHAPE_TEXT:
        to_pixel(p, s->a, s->b, &px, &py);
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

static cairo_status_t render(const pdt_draw_picture *p, cairo_surface_t *surface)
{
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    for (size_t i = 0; i < p->n_shapes; i++) draw_shape(p, cr, &p->shapes[i]);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    return st;
}

pdt_status pdt_draw_render_picture(const pdt_draw_picture *p, bool png, FILE *out, pdt_error *err)
{
    cairo_surface_t *surface = png ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height)
                                   : cairo_svg_surface_create_for_stream(write_stream, out, p->width, p->height);
    cairo_status_t cs = cairo_surface_status(surface);
    if (cs == CAIRO_STATUS_SUCCESS) cs = render(p, surface);
    if (cs == CAIRO_STATUS_SUCCESS && png) cs = cairo_surface_write_to_png_stream(surface, write_stream, out);
    cairo_surface_finish(surface);
    if (cs == CAIRO_STATUS_SUCCESS) cs = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (cs != CAIRO_STATUS_SUCCESS)
        return pdt_error_set(err, PDT_EIO, "cannot draw the picture (%s)", cairo_status_to_string(cs));
    return PDT_OK;
}
