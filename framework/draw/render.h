/* The drawing module's two halves (libpdt_draw.so, pdt_draw_module.h):
 * trees with Graphviz (render_tree.c), pictures with cairo (render_plot.c). */
#ifndef PDT_DRAW_RENDER_H
#define PDT_DRAW_RENDER_H

#include "pdt_draw_module.h"

pdt_status pdt_draw_render_tree(const pdt_draw_tree *tree, const char *format, FILE *out, pdt_error *err);
pdt_status pdt_draw_render_picture(const pdt_draw_picture *picture, bool png, FILE *out, pdt_error *err);

#endif
