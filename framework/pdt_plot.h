/* 2-D pictures (cairo): points, segments, polygons, text and raster fills in
 * world coordinates, saved as PNG or SVG.  Drawing calls are recorded and
 * replayed at save time, so one picture can be written in both formats.
 * Only the drawing module (framework/draw/render_plot.c) touches cairo. */
#ifndef PDT_PLOT_H
#define PDT_PLOT_H

#include "pdt.h"

typedef struct pdt_plot pdt_plot;

typedef struct pdt_rgba {
    double r, g, b, a; /* 0..1 */
} pdt_rgba;

/* A canvas of width×height pixels showing the world box [x0,x1]×[y0,y1]
 * (y grows upwards; aspect ratio is not forced). */
pdt_status pdt_plot_new(pdt_plot **out, int width, int height, double x0, double x1, double y0,
                        double y1, pdt_error *err);
void pdt_plot_free(pdt_plot **plot);

/* A fixed, colour-blind friendly palette; alpha applied. */
pdt_rgba pdt_plot_class_color(size_t class_index, double alpha);

/* [lo, hi] widened by margin·(hi − lo) on each side, and by pdt_plot_pad by m:
 * the result is finite and non-empty even for data near ±DBL_MAX (widths are
 * taken in halves, which cannot overflow).  An empty range (lo = +∞, hi = −∞:
 * no finite value seen) becomes [0, 1] before widening. */
void pdt_plot_widen(double *lo, double *hi, double margin);
void pdt_plot_pad(double *lo, double *hi, double m);

/* World ↔ pixel conversion (pixel y grows downwards). */
void pdt_plot_to_pixel(const pdt_plot *plot, double x, double y, double *px, double *py);
void pdt_plot_to_world(const pdt_plot *plot, double px, double py, double *x, double *y);

/* Each call records one shape; an allocation failure is reported by save. */
void pdt_plot_point(pdt_plot *plot, double x, double y, double radius_px, pdt_rgba fill, pdt_rgba edge);
void pdt_plot_segment(pdt_plot *plot, double x1, double y1, double x2, double y2, double width_px,
                      pdt_rgba color);
/* A closed polygon of n vertices (world xy pairs): filled, stroked or both. */
void pdt_plot_polygon(pdt_plot *plot, const double *xy, size_t n, const pdt_rgba *fill,
                      const pdt_rgba *stroke, double width_px);
void pdt_plot_text(pdt_plot *plot, double x, double y, double size_px, pdt_rgba color, const char *text);
/* A raster covering the whole canvas: argb[py * width + px] as premultiplied
 * 0xAARRGGBB (cairo's ARGB32), copied. */
void pdt_plot_raster(pdt_plot *plot, const uint32_t *argb);

int pdt_plot_width(const pdt_plot *plot);
int pdt_plot_height(const pdt_plot *plot);

/* Writes PNG or SVG, chosen by the file name (".png" / ".svg"); via a temporary
 * file and rename, so a failure leaves no file behind. */
pdt_status pdt_plot_save(pdt_plot *plot, const char *path, pdt_error *err);

#endif
