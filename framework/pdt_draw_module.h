/* The drawing module: the only code that links Graphviz and cairo is built
 * as a separate shared object, libpdt_draw.so (framework/draw/), which the
 * library opens at run time the first time an output needs it
 * (draw_module.c).  A run that draws nothing never maps Graphviz, cairo,
 * pango, fontconfig or X11, and starts as fast as a plain C program.
 *
 * The module exports one object, a versioned table of functions (SQLite
 * style: the table only grows at the end).  Both sides are built from the
 * same sources; PDT_DRAW_ABI guards against a module of another build.
 * The core does everything but the drawing itself: it validates the input,
 * opens the output atomically and hands the module an open stream. */
#ifndef PDT_DRAW_MODULE_H
#define PDT_DRAW_MODULE_H

#include "pdt_plot.h"
#include "pdt_render.h"

#define PDT_DRAW_MODULE_FILE "libpdt_draw.so"
#define PDT_DRAW_MODULE_SYMBOL "pdt_draw_module_v1"
#define PDT_DRAW_MODULE_V1 1u
/* Bump on any change to a struct that crosses the boundary: the ones below,
 * pdt_draw_tree / pdt_draw_node (pdt_render.h), pdt_rgba, pdt_error. */
#define PDT_DRAW_ABI 1u

/* One recorded shape of a picture (pdt_plot.h), in world coordinates. */
typedef enum {
    PDT_SHAPE_POINT,   /* (a, b), radius size px, fill and edge */
    PDT_SHAPE_SEGMENT, /* (a, b)–(c, d), width size px, edge colour */
    PDT_SHAPE_POLYGON, /* xy[2n], fill and/or edge, edge width size px */
    PDT_SHAPE_TEXT,    /* text at (a, b), size px, fill colour */
    PDT_SHAPE_RASTER   /* raster[width*height], premultiplied ARGB32, whole canvas */
} pdt_draw_shape_kind;

typedef struct pdt_draw_shape {
    pdt_draw_shape_kind kind;
    double a, b, c, d, size;
    pdt_rgba fill, edge;
    bool has_fill, has_edge;
    double *xy;
    size_t n;
    char *text;
    uint32_t *raster;
} pdt_draw_shape;

/* A picture to draw: width×height pixels showing [x0,x1]×[y0,y1], y upwards. */
typedef struct pdt_draw_picture {
    int width, height;
    double x0, x1, y0, y1;
    const pdt_draw_shape *shapes;
    size_t n_shapes;
} pdt_draw_picture;

typedef struct pdt_draw_module {
    uint32_t version;        /* PDT_DRAW_MODULE_V1 */
    uint32_t abi;            /* PDT_DRAW_ABI */
    const char *pdt_version; /* PDT_VERSION_STRING of the build */
    /* A checked tree (pdt_draw_tree_render validated it) as format "dot",
     * "svg", "png" or "pdf", written to out. */
    pdt_status (*render_tree)(const pdt_draw_tree *tree, const char *format, FILE *out, pdt_error *err);
    /* A picture as PNG (png) or SVG, written to out. */
    pdt_status (*render_picture)(const pdt_draw_picture *picture, bool png, FILE *out, pdt_error *err);
} pdt_draw_module;

/* The core's side: the module, loaded on the first call (draw_module.c). */
pdt_status pdt_draw_module_get(const pdt_draw_module **out, pdt_error *err);

/* Runs draw(arg, f, err) in a child process that writes to f, so that the
 * drawing libraries dying (Graphviz or cairo aborting or crashing when a large
 * picture meets a memory limit) is an error (PDT_ELIMIT), not a crash of the
 * command; the child's own error comes back as its message.  `path` is only
 * for a failure to wait for the child. */
pdt_status pdt_draw_isolated(pdt_status (*draw)(void *arg, FILE *f, pdt_error *err), void *arg, FILE *f,
                             const char *path, pdt_error *err);

#endif
