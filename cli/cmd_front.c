/* pdt front: the whole Pareto front of (false positives, false negatives) of a
 * two-class fit, each point with a tree that reaches it, and a picture of the
 * front with the metric's best point marked (issue 10). */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "data.h"
#include "drawing.h"
#include "options.h"
#include "outputs.h"
#include "pdt.h"
#include "pdt_plot.h"

static cli_option front_options[] = {
    CLI_DATA_OPTIONS,
    {"rules", 'r', "FAMILY", "rule family or comma list: axis, binary, hyperplane, hypersurface, ... "
                             "(default axis)", NULL},
    {"size", 'k', "K", "at most K branch nodes", NULL},
    {"depth", 0, "D", "at most D levels of branch nodes", NULL},
    {"min-leaf", 0, "M", "every leaf made by a split holds at least M items", NULL},
    {"degree", 0, "G", "polynomial degree of hypersurface rules", NULL},
    {"rule-options", 0, "TEXT", "plugin-specific key=value,... options", NULL},
    {"metric", 0, "NAME", "f1 (default), mcc or fm: the point marked best, and each tree's reported value", NULL},
    {"positive", 0, "LABEL", "the positive class (default: the second class)", NULL},
    {"no-memo", 0, NULL, "do not cache subproblems", NULL},
    {"memo-mb", 0, "MB", "subproblem cache size in MiB (default 1024)", NULL},
    {"time-limit", 0, "S", "give up after S seconds (a front has no partial answer)", NULL},
    {"output", 'o', "FILE", "write the front, each point with its tree (JSON; - for standard output)", NULL},
    {"plot", 0, "FILE", "picture of the front, FP across, FN up, the best point marked (.png or .svg)", NULL},
    {"plot-size", 0, "WxH", "picture size in pixels (default 640x480)", NULL},
    {"quiet", 'q', NULL, "print only the summary line", NULL},
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void front_help(FILE *out)
{
    fprintf(out, "usage: pdt front --data FILE [--rules FAMILY] --depth D [--size K] [--metric f1|mcc|fm]\n"
                 "                 [--positive LABEL] [-o FRONT.json] [--plot FRONT.png]\n\n"
                 "Every nondominated (false positives, false negatives) pair that some tree within\n"
                 "the limits reaches on two-class data, each with such a tree; the point with the\n"
                 "best metric (F1 by default) is marked.  Any rule family: the generic engine\n"
                 "(categorical: its own multiway front search).\n\n"
                 "options:\n");
    cli_print_options(out, front_options);
}

static const cli_output_spec front_outputs[] = {{"output", "json"}, {"plot", "picture"}, {NULL, NULL}};
static const char *const front_inputs[] = {"data", NULL};

static bool read_options(pdt_fit_options *fo, cli_option *o)
{
    if (!cli_fit_common(fo, o, "front")) return false;
    fo->engine = PDT_ENGINE_AUTO; /* the generic engine, or the categorical family's front search */
    fo->metric = PDT_METRIC_F1;
    const char *metric = cli_get(o, "metric");
    if (metric && (!pdt_metric_parse(&fo->metric, metric) || fo->metric == PDT_METRIC_ACCURACY)) {
        fprintf(stderr, "pdt front: option --metric: '%s' is not f1, mcc or fm\n", metric);
        return false;
    }
    if (fo->max_size == PDT_UNLIMITED && fo->max_depth == PDT_UNLIMITED) {
        fprintf(stderr, "pdt front: give --depth D and/or --size K (try 'pdt front --help')\n");
        return false;
    }
    return true;
}

typedef struct front_run {
    pdt_front_fit *f;
    const pdt_dataset *ds;
    pdt_fit_options fo;
    size_t n, best;
    pdt_model **models; /* one per point */
    uint32_t positive;
    uint64_t P, N;
} front_run;

static char *metric_text(const pdt_model *m)
{
    char *s = pdt_model_metric_summary(m);
    if (!s) return NULL;
    /* "f1 53/57 ≈ 0.92…; positive class …": the part before the first ';' */
    char *semi = strchr(s, ';');
    if (semi) *semi = '\0';
    return s;
}

static json_t *point_json(const front_run *r, size_t i, pdt_error *err)
{
    uint64_t fp, fn;
    pdt_front_fit_point(r->f, i, &fp, &fn);
    char *tree = pdt_model_json_text(r->models[i], err);
    if (!tree) return NULL;
    json_error_t je;
    json_t *doc = json_loads(tree, 0, &je);
    free(tree);
    char *mt = metric_text(r->models[i]);
    json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:s, s:i, s:i, s:o}", "fp", (json_int_t)fp, "fn", (json_int_t)fn,
                          "tp", (json_int_t)(r->P - fn), "tn", (json_int_t)(r->N - fp), "metric", mt ? mt : "?",
                          "size", (int)pdt_model_size(r->models[i]), "depth", (int)pdt_model_depth(r->models[i]),
                          "tree", doc ? doc : json_null());
    free(mt);
    if (!o) pdt_error_set(err, PDT_ENOMEM, "out of memory building the front document");
    return o;
}

static bool write_json(const front_run *r, const char *path, pdt_error *err)
{
    json_t *pts = json_array();
    bool ok = pts != NULL;
    for (size_t i = 0; i < r->n && ok; i++) {
        json_t *p = point_json(r, i, err);
        ok = p && json_array_append_new(pts, p) == 0;
    }
    json_t *limits = json_pack("{s:o, s:o, s:i}", "max_size",
                               r->fo.max_size == PDT_UNLIMITED ? json_null() : json_integer(r->fo.max_size),
                               "max_depth", r->fo.max_depth == PDT_UNLIMITED ? json_null() : json_integer(r->fo.max_depth),
                               "min_leaf", (int)r->fo.min_leaf);
    json_t *doc = ok ? json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:o, s:s, s:I, s:I, s:s, s:I, s:b, s:I, s:o}",
                                 "format", "pdt-front", "version", 1, "pdt", PDT_VERSION_STRING, "problem",
                                 "classification", "data", pdt_dataset_name(r->ds), "rules",
                                 r->fo.rules ? r->fo.rules : "axis", "constraints", limits, "positive",
                                 pdt_dataset_class_name(r->ds, r->positive), "positives", (json_int_t)r->P,
                                 "negatives", (json_int_t)r->N, "metric", pdt_metric_name(r->fo.metric), "best",
                                 (json_int_t)r->best, "complete", pdt_front_fit_complete(r->f), "points_count",
                                 (json_int_t)r->n, "points", pts)
                       : NULL;
    if (!doc) {
        json_decref(pts);
        json_decref(limits);
        if (ok) pdt_error_set(err, PDT_ENOMEM, "out of memory building the front document");
        return false;
    }
    FILE *f = cli_outputs_open(path);
    ok = f && json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) pdt_error_set(err, PDT_EIO, "cannot write %s", path);
    json_decref(doc);
    return ok;
}

static pdt_status write_plot(const front_run *r, const char *path, int w, int h, pdt_error *err)
{
    double x1 = (double)r->N, y1 = (double)r->P;
    double mx = x1 > 0 ? x1 : 1, my = y1 > 0 ? y1 : 1;
    double lx = -0.14 * mx, hx = mx * 1.06, ly = -0.14 * my, hy = my * 1.08;
    pdt_plot *p = NULL;
    pdt_status st = pdt_plot_new(&p, w, h, lx, hx, ly, hy, err);
    if (st) return st;
    pdt_rgba axis = {0.2, 0.2, 0.2, 1}, grey = {0.55, 0.55, 0.55, 1}, line = {0.0, 0.45, 0.70, 1},
             dot = {0.0, 0.45, 0.70, 0.9}, best = {0.84, 0.37, 0.0, 1}, white = {1, 1, 1, 1};
    pdt_plot_segment(p, 0, 0, mx, 0, 1.2, axis);
    pdt_plot_segment(p, 0, 0, 0, my, 1.2, axis);
    char text[160];
    for (int t = 0; t <= 4; t++) { /* ticks at quarters of N and P */
        double tx = mx * t / 4, ty = my * t / 4;
        pdt_plot_segment(p, tx, 0, tx, -0.015 * my, 1, axis);
        pdt_plot_segment(p, 0, ty, -0.015 * mx, ty, 1, axis);
        snprintf(text, sizeof text, "%.4g", round(tx * 100) / 100);
        pdt_plot_text(p, tx - 0.01 * mx, -0.06 * my, 11, grey, text);
        snprintf(text, sizeof text, "%.4g", round(ty * 100) / 100);
        pdt_plot_text(p, -0.12 * mx, ty, 11, grey, text);
    }
    snprintf(text, sizeof text, "false positives (of %llu negatives)", (unsigned long long)r->N);
    pdt_plot_text(p, 0.3 * mx, -0.11 * my, 12, axis, text);
    snprintf(text, sizeof text, "false negatives (of %llu positives %s)", (unsigned long long)r->P,
             pdt_dataset_class_name(r->ds, r->positive));
    pdt_plot_text(p, 0.02 * mx, 1.05 * my, 12, axis, text);
    /* the front as a staircase: what some tree reaches lies on or above it */
    for (size_t i = 0; i + 1 < r->n; i++) {
        uint64_t a, b, c, d;
        pdt_front_fit_point(r->f, i, &a, &b);
        pdt_front_fit_point(r->f, i + 1, &c, &d);
        pdt_plot_segment(p, (double)a, (double)b, (double)c, (double)b, 1.2, line);
        pdt_plot_segment(p, (double)c, (double)b, (double)c, (double)d, 1.2, line);
    }
    for (size_t i = 0; i < r->n; i++) {
        uint64_t a, b;
        pdt_front_fit_point(r->f, i, &a, &b);
        pdt_plot_point(p, (double)a, (double)b, i == r->best ? 7 : 4, i == r->best ? best : dot,
                       i == r->best ? axis : white);
    }
    uint64_t a, b;
    pdt_front_fit_point(r->f, r->best, &a, &b);
    char *mt = metric_text(r->models[r->best]);
    snprintf(text, sizeof text, "best %s (FP %llu, FN %llu)", mt ? mt : pdt_metric_name(r->fo.metric),
             (unsigned long long)a, (unsigned long long)b);
    free(mt);
    double tx = (double)a + 0.03 * mx, ty = (double)b + 0.04 * my;
    if (tx > 0.55 * mx) tx = 0.55 * mx;
    pdt_plot_text(p, tx, ty, 12, best, text);
    st = pdt_plot_save(p, path, err);
    pdt_plot_free(&p);
    return st;
}

static void print_table(const front_run *r)
{
    printf("  #     FP     FN     TP     TN  size depth  %s\n", pdt_metric_name(r->fo.metric));
    for (size_t i = 0; i < r->n; i++) {
        uint64_t fp, fn;
        pdt_front_fit_point(r->f, i, &fp, &fn);
        char *mt = metric_text(r->models[i]);
        const char *v = mt ? mt : "?";
        const char *approx = strstr(v, "≈ ");
        printf("%c%3zu %6llu %6llu %6llu %6llu %5u %5u  %s\n", i == r->best ? '*' : ' ', i,
               (unsigned long long)fp, (unsigned long long)fn, (unsigned long long)(r->P - fn),
               (unsigned long long)(r->N - fp), pdt_model_size(r->models[i]), pdt_model_depth(r->models[i]),
               approx ? approx + strlen("≈ ") : v);
        free(mt);
    }
}

static int finish(front_run *r, int rc)
{
    for (size_t i = 0; r->models && i < r->n; i++) pdt_model_free(&r->models[i]);
    free(r->models);
    pdt_front_fit_free(&r->f);
    return rc;
}

static int front_run_cmd(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        front_help(stdout);
        return 0;
    }
    front_run r = {0};
    int w, h;
    if (!cli_parse(front_options, argc, argv, "front") || !read_options(&r.fo, front_options) ||
        !cli_plot_size(&w, &h, cli_get(front_options, "plot-size"), "front", 64))
        return 2;
    if (!cli_drawing_ready(front_options, "front")) return 1;
    pdt_csv_options shape;
    if (!cli_csv_shape(&shape, front_options, "front")) return 2;
    cli_outputs set;
    if (!cli_outputs_plan(&set, front_options, front_outputs, front_inputs, "front")) return 1;
    pdt_dataset *ds = NULL;
    if (!cli_load_data(&ds, front_options, "front", false)) {
        cli_outputs_abort(&set);
        return 1;
    }
    r.ds = ds;
    pdt_error err;
    pdt_error_clear(&err);
    static volatile sig_atomic_t interrupted;
    r.fo.stop = &interrupted;
    cli_signals_arm_stop(&interrupted);
    pdt_status st = pdt_front_fit_run(&r.f, ds, &r.fo, &err);
    cli_signals_arm_stop(NULL);
    int rc = 0;
    if (!st) {
        r.n = pdt_front_fit_points(r.f);
        r.best = pdt_front_fit_best(r.f, r.fo.metric);
        pdt_front_fit_classes(r.f, &r.positive, &r.P, &r.N);
        r.models = calloc(r.n ? r.n : 1, sizeof *r.models);
        if (!r.models) st = pdt_error_set(&err, PDT_ENOMEM, "out of memory");
        for (size_t i = 0; i < r.n && !st; i++) st = pdt_front_fit_model(&r.models[i], r.f, i, r.fo.metric, &err);
    }
    if (st) {
        fprintf(stderr, "pdt front: %s\n", err.message);
        rc = cli_exit_status(err.status);
    } else {
        if (!cli_flag(front_options, "quiet")) print_table(&r);
        char *mt = metric_text(r.models[r.best]);
        printf("Pareto front of (FP, FN): %zu points, positive class %s (%llu of %llu rows); best %s at #%zu\n",
               r.n, pdt_dataset_class_name(ds, r.positive), (unsigned long long)r.P,
               (unsigned long long)(r.P + r.N), mt ? mt : "?", r.best);
        if (!pdt_front_fit_complete(r.f))
            printf("NOT complete: a limit stopped the search; the front found so far (no tree proven optimal)\n");
        free(mt);
        const char *path = NULL;
        bool ok = cli_outputs_stage(&path, &set, "output");
        if (ok && path && !write_json(&r, path, &err)) {
            cli_outputs_fail(&set, "output", err.message);
            ok = false;
        }
        path = NULL;
        if (ok) ok = cli_outputs_stage(&path, &set, "plot");
        if (ok && path && (st = write_plot(&r, path, w, h, &err))) {
            cli_outputs_fail(&set, "plot", err.message);
            ok = false;
        }
        if (ok) ok = cli_outputs_commit(&set);
        if (!ok) rc = 1;
    }
    cli_outputs_abort(&set);
    pdt_dataset_free(&ds);
    return finish(&r, rc);
}

PDT_DEFINE_COMMAND(front) = {"front", "the Pareto front of (FP, FN) of two-class trees, each point with its tree",
                             front_run_cmd, front_help};
