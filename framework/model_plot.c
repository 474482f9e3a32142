/* The picture of a 2-D model: decision regions shaded by their leaf's label,
 * the splits drawn where they act, the data points coloured by class.
 *
 * Regions are a raster of the model's own exact classification: every pixel
 * centre is converted to an exact rational and sent down the tree through the
 * rules' classify, the same exact predicates as prediction.  A pixel whose
 * leaf differs from its right or lower neighbour's is on a split: drawn dark,
 * which shows each line or curve only inside the region it splits, for any
 * rule family.  Only pdt_plot.h is used (the drawing module holds cairo). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "pdt_plot.h"

#define MARGIN 0.08 /* of the data range on each side */

typedef struct plot_box {
    double x0, x1, y0, y1;
} plot_box;

static pdt_status feature_columns(size_t *col, const pdt_model *m, const pdt_dataset *ds, pdt_error *err)
{
    if (m->dims != 2 || pdt_dataset_dims(ds) != 2)
        return pdt_error_set(err, PDT_EINVAL, "pictures need data with exactly 2 features (the model has "
                             "%zu, the data %zu)", m->dims, pdt_dataset_dims(ds));
    for (size_t j = 0; j < 2; j++) {
        col[j] = pdt_dataset_find_feature(ds, m->features[j]);
        if (col[j] == SIZE_MAX)
            return pdt_error_set(err, PDT_EINVAL, "%s: no feature \"%s\" (the model needs it)",
                                 pdt_dataset_name(ds), m->features[j]);
    }
    return PDT_OK;
}

static plot_box data_box(const pdt_dataset *ds, const size_t *col)
{
    plot_box b = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++) {
        double x = pdt_dataset_value(ds, i, col[0]), y = pdt_dataset_value(ds, i, col[1]);
        if (isfinite(x)) b.x0 = fmin(b.x0, x), b.x1 = fmax(b.x1, x);
        if (isfinite(y)) b.y0 = fmin(b.y0, y), b.y1 = fmax(b.y1, y);
    }
    pdt_plot_widen(&b.x0, &b.x1, MARGIN);
    pdt_plot_widen(&b.y0, &b.y1, MARGIN);
    return b;
}

/* The leaf (node index) reached by the exact point x. */
static pdt_status leaf_of(int32_t *leaf, const pdt_model *m, mpq_srcptr x, pdt_error *err)
{
    int32_t i = 0;
    while (m->nodes[i].left >= 0) {
        const pdt_rule *rule = &m->rules[m->nodes[i].rule];
        bool left = false;
        pdt_status st = rule->cls->classify(&left, rule, x, 2, err);
        if (st) return pdt_error_prefix(err, "rule family %s: classify: ", rule->cls->name);
        i = left ? m->nodes[i].left : m->nodes[i].right;
    }
    *leaf = i;
    return PDT_OK;
}

/* Opaque premultiplied ARGB of colour c at opacity a over white. */
static uint32_t over_white(pdt_rgba c, double a)
{
    unsigned r = (unsigned)lround(255 * (1 - a + a * c.r)), g = (unsigned)lround(255 * (1 - a + a * c.g)),
             b = (unsigned)lround(255 * (1 - a + a * c.b));
    return 0xFF000000u | r << 16 | g << 8 | b;
}

static pdt_status regions(pdt_plot *p, const pdt_model *m, pdt_error *err)
{
    const int w = pdt_plot_width(p), h = pdt_plot_height(p);
    int32_t *leaf = malloc((size_t)w * (size_t)h * sizeof *leaf);
    uint32_t *argb = malloc((size_t)w * (size_t)h * sizeof *argb);
    mpq_t x[2];
    mpq_inits(x[0], x[1], NULL);
    pdt_status st = leaf && argb ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory for the picture");
    for (int py = 0; py < h && !st; py++)
        for (int px = 0; px < w && !st; px++) {
            double wx, wy;
            pdt_plot_to_world(p, px + 0.5, py + 0.5, &wx, &wy);
            if (!isfinite(wx) || !isfinite(wy)) { /* never handed to GMP */
                st = pdt_error_set(err, PDT_ELIMIT, "picture: pixel (%d, %d) has no finite coordinates", px, py);
                break;
            }
            mpq_set_d(x[0], wx);
            mpq_set_d(x[1], wy);
            st = leaf_of(&leaf[(size_t)py * w + px], m, x[0], err);
        }
    for (int py = 0; py < h && !st; py++)
        for (int px = 0; px < w; px++) {
            size_t k = (size_t)py * w + px;
            bool edge = (px + 1 < w && leaf[k + 1] != leaf[k]) || (py + 1 < h && leaf[k + w] != leaf[k]);
            argb[k] = edge ? 0xFF303030u : over_white(pdt_plot_class_color(m->nodes[leaf[k]].label, 1), 0.22);
        }
    if (!st) pdt_plot_raster(p, argb);
    mpq_clears(x[0], x[1], NULL);
    free(leaf);
    free(argb);
    return st;
}

/* Model class index of each dataset class (matched by name), SIZE_MAX if absent. */
static size_t *class_map(const pdt_model *m, const pdt_dataset *ds)
{
    size_t k = pdt_dataset_classes(ds), *map = malloc((k ? k : 1) * sizeof *map);
    if (!map) return NULL;
    for (size_t c = 0; c < k; c++) {
        map[c] = SIZE_MAX;
        for (size_t j = 0; j < m->n_classes && map[c] == SIZE_MAX; j++)
            if (strcmp(m->classes[j], pdt_dataset_class_name(ds, c)) == 0) map[c] = j;
    }
    return map;
}

/* Data points by class; misclassified ones ringed in black. */
static pdt_status points(pdt_plot *p, const pdt_model *m, const pdt_dataset *ds, const size_t *col,
                         pdt_error *err)
{
    size_t n = pdt_dataset_rows(ds);
    uint32_t *pred = malloc((n ? n : 1) * sizeof *pred);
    size_t *map = pdt_dataset_has_labels(ds) ? class_map(m, ds) : NULL;
    if (!pred || (pdt_dataset_has_labels(ds) && !map)) {
        free(pred);
        free(map);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    pdt_status st = pdt_model_predict(pred, m, ds, err);
    double r = fmax(2.5, fmin(6.0, pdt_plot_width(p) / 160.0));
    pdt_rgba black = {0, 0, 0, 1}, none = {0, 0, 0, 0};
    for (size_t i = 0; i < n && !st; i++) {
        double x = pdt_dataset_value(ds, i, col[0]), y = pdt_dataset_value(ds, i, col[1]);
        size_t truth = map ? map[pdt_dataset_label(ds, i)] : SIZE_MAX;
        pdt_rgba fill = truth < m->n_classes ? pdt_plot_class_color(truth, 1) : (pdt_rgba){0.5, 0.5, 0.5, 1};
        pdt_plot_point(p, x, y, r, fill, black);
        if (truth < m->n_classes && pred[i] != truth) pdt_plot_point(p, x, y, r + 3, none, black);
    }
    free(pred);
    free(map);
    return st;
}

/* A light panel under the title and legend (drawn before the points, so
 * they stay visible). */
static void panel(pdt_plot *p, const pdt_model *m)
{
    double size = fmax(10.0, fmin(15.0, pdt_plot_width(p) / 45.0)), corner[8];
    size_t shown = m->n_classes < 12 ? m->n_classes : 12;
    double wpx = fmin(pdt_plot_width(p) - 4.0, 0.55 * size * (40.0 + (double)strlen(m->families ? m->families : "")));
    double hpx = 2 * size + 10 + (double)shown * (size + 4);
    const double px[4] = {2, wpx, wpx, 2}, py[4] = {2, 2, hpx, hpx};
    for (int k = 0; k < 4; k++) pdt_plot_to_world(p, px[k], py[k], &corner[2 * k], &corner[2 * k + 1]);
    pdt_rgba fill = {1, 1, 1, 0.55};
    pdt_plot_polygon(p, corner, 4, &fill, NULL, 0);
}

/* Title, legend and axis names (positions in pixels). */
static void labels(pdt_plot *p, const pdt_model *m, const plot_box *b)
{
    double size = fmax(10.0, fmin(15.0, pdt_plot_width(p) / 45.0)), x, y;
    pdt_rgba ink = {0.1, 0.1, 0.1, 1};
    size_t shown = m->n_classes < 12 ? m->n_classes : 12;
    pdt_buf t;
    pdt_buf_init(&t);
    pdt_buf_puts(&t, "objective ");
    pdt_buf_mpq_decimal(&t, m->objective);
    pdt_buf_printf(&t, "%s, %u branch nodes, rules: %s", m->optimal ? " (optimal)" : "", m->size,
                   m->families ? m->families : "?");
    pdt_plot_to_world(p, 8, size + 4, &x, &y);
    if (t.data) pdt_plot_text(p, x, y, size, ink, t.data);
    for (size_t c = 0; c < shown; c++) {
        double lx, ly;
        pdt_plot_to_world(p, 14, 2 * size + 6 + (double)c * (size + 4), &lx, &ly);
        pdt_plot_point(p, lx, ly, size / 3, pdt_plot_class_color(c, 1), ink);
        pdt_plot_to_world(p, 24, 2 * size + 6 + (double)c * (size + 4) + size / 3, &lx, &ly);
        pdt_plot_text(p, lx, ly, size, ink, m->classes[c]);
    }
    t.len = 0;
    if (t.data) t.data[0] = '\0';
    pdt_buf_printf(&t, "%s: %.4g … %.4g", m->features[0], b->x0, b->x1);
    pdt_plot_to_world(p, pdt_plot_width(p) - 8 - 0.55 * size * (double)t.len, pdt_plot_height(p) - 6, &x, &y);
    if (t.data) pdt_plot_text(p, x, y, size, ink, t.data);
    t.len = 0;
    if (t.data) t.data[0] = '\0';
    pdt_buf_printf(&t, "%s: %.4g … %.4g", m->features[1], b->y0, b->y1);
    pdt_plot_to_world(p, 8, pdt_plot_height(p) - 6, &x, &y);
    if (t.data) pdt_plot_text(p, x, y, size, ink, t.data);
    pdt_buf_clear(&t);
}

pdt_status pdt_model_plot(const pdt_model *m, const pdt_dataset *ds, const char *path, int width, int height,
                          pdt_error *err)
{
    size_t col[2] = {0, 1};
    pdt_status st = pdt_model_check(m, err);
    if (!st && (m->n_ways || m->categories))
        st = pdt_error_set(err, PDT_EINVAL, "a picture of regions needs two numeric features: the model "
                           "reads categories (draw the tree with --svg or --dot instead)");
    if (!st) st = feature_columns(col, m, ds, err);
    if (st) return st;
    plot_box b = data_box(ds, col);
    pdt_plot *p = NULL;
    st = pdt_plot_new(&p, width, height, b.x0, b.x1, b.y0, b.y1, err);
    if (!st) st = regions(p, m, err);
    if (!st) panel(p, m);
    if (!st) st = points(p, m, ds, col, err);
    if (!st) labels(p, m, &b);
    if (!st) st = pdt_plot_save(p, path, err);
    pdt_plot_free(&p);
    return st;
}
