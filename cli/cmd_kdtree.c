/* pdt kdtree: the k-D tree of a point set with the least weighted access cost. */
#include <stdlib.h>
#include <string.h>

#include "../problems/kdtree.h"
#include "command.h"
#include "data.h"
#include "drawing.h"
#include "options.h"
#include "result.h"

static cli_option kd_options[] = {
    {"data", 'd', "FILE", "points: CSV with a header; every column but --weights/--skip is a coordinate", NULL},
    {"weights", 'w', "COLUMN", "column of exact non-negative access weights (default: all 1)", NULL},
    {"skip", 0, "COLS", "comma-separated columns to ignore (e.g. an id column)", NULL},
    CLI_CSV_SHAPE_OPTIONS,
    {"order", 0, "DIMS", "dimension order cycled through by the levels, e.g. \"y,x\" (default: column order)", NULL},
    {"objective", 0, "NAME", "access (default: Σ w·(depth+1), then height) or height (then access)", NULL},
    CLI_RESULT_OPTIONS,
    {"picture", 0, "FILE", "two dimensions: draw the points and cells (PNG or SVG by the name)", NULL},
    {"no-memo", 0, NULL, "do not cache subproblems", NULL},
    {"time-limit", 0, "S", "stop after S seconds with the best tree so far (not proven optimal)", NULL},
    {"quiet", 'q', NULL, "print only the summary line", NULL},
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void kd_help(FILE *out)
{
    fprintf(out, "usage: pdt kdtree --data POINTS.csv [--weights COLUMN] [-o RESULT.json] [--picture F.png]\n\n"
                 "Finds the k-D tree (every node stores a point; level l splits on dimension\n"
                 "l mod D, smaller coordinates left, ties right) with the least weighted access\n"
                 "cost Σ w(p)·(depth(p)+1), exactly; ties are broken by the height.\n\noptions:\n");
    cli_print_options(out, kd_options);
}

static const cli_output_spec kd_outputs[] = {CLI_RESULT_SPECS, {"picture", "picture"}, {NULL, NULL}};
static const char *const kd_inputs[] = {"data", NULL};
static cli_outputs kd_set;

static char **split_list(const char *text, size_t *n)
{
    size_t cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    char **v = calloc(cap, sizeof *v);
    *n = 0;
    for (const char *p = text; v && *p;) {
        size_t len = strcspn(p, ",");
        if (len) v[(*n)++] = strndup(p, len);
        p += len + (p[len] == ',');
    }
    return v;
}

static bool load_points(pdt_dataset **ds)
{
    const char *path = cli_get(kd_options, "data");
    size_t n_skip = 0;
    char **skip = cli_get(kd_options, "skip") ? split_list(cli_get(kd_options, "skip"), &n_skip) : NULL;
    pdt_csv_options co = {.no_label = true, .numeric_only = true, .weight = cli_get(kd_options, "weights"),
                          .skip = (const char *const *)skip, .n_skip = n_skip};
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = cli_csv_shape(&co, kd_options, "kdtree") ? pdt_dataset_load_csv(ds, path, &co, &err) : PDT_EINVAL;
    if (st && !err.status) err.status = st; /* cli_csv_shape printed its message */
    for (size_t i = 0; i < n_skip; i++) free(skip[i]);
    free(skip);
    if (st && err.message[0]) fprintf(stderr, "pdt kdtree: %s\n", err.message);
    return !st;
}

static json_t *node_json(const pdt_kdtree *t, const pdt_kd_node *nodes, int32_t i)
{
    const pdt_kd_node *x = &nodes[i];
    if (x->point < 0) return json_null();
    const pdt_dataset *ds = pdt_kdtree_dataset(t);
    return json_pack("{s:I, s:s, s:o, s:o}", "row", (json_int_t)x->point + 1, "split",
                     pdt_dataset_feature_name(ds, x->dim), "left", node_json(t, nodes, x->left), "right",
                     node_json(t, nodes, x->right));
}

static json_t *kd_document(const pdt_kdtree *t, bool height_first)
{
    mpq_t cost;
    mpq_init(cost);
    pdt_kdtree_cost(cost, t);
    json_t *obj = height_first ? json_integer(pdt_kdtree_height(t)) : cli_json_mpq(cost);
    json_t *doc = cli_result_new("kdtree", obj, pdt_kdtree_optimal(t));
    size_t n = 0;
    const pdt_kd_node *nodes = pdt_kdtree_nodes(t, &n);
    const pdt_search_stats *s = pdt_kdtree_stats(t);
    const pdt_dataset *ds = pdt_kdtree_dataset(t);
    bool ok = doc && cli_result_set(doc, "criterion", json_string(height_first ? "height" : "access")) &&
              cli_result_set(doc, "access_cost", cli_json_mpq(cost)) &&
              cli_result_set(doc, "height", json_integer(pdt_kdtree_height(t))) &&
              cli_result_set(doc, "points", json_integer((json_int_t)pdt_dataset_rows(ds))) &&
              cli_result_set(doc, "dimensions", json_integer((json_int_t)pdt_dataset_dims(ds))) &&
              cli_result_set(doc, "tree", node_json(t, nodes, 0)) &&
              cli_result_set(doc, "seconds", json_real(s->seconds)) &&
              cli_result_set(doc, "stats", json_pack("{s:I, s:I, s:I, s:I}", "nodes", (json_int_t)s->nodes,
                                                     "candidates", (json_int_t)s->candidates, "memo_hits",
                                                     (json_int_t)s->memo_hits, "memo_entries",
                                                     (json_int_t)s->memo_entries));
    mpq_clear(cost);
    if (!ok) json_decref(doc);
    return ok ? doc : NULL;
}

static pdt_status render_kd(const void *obj, const char *path, const char *format, pdt_error *err)
{
    return pdt_kdtree_render(obj, path, format, err);
}

static int report(const pdt_kdtree *t, bool height_first)
{
    pdt_error err;
    pdt_error_clear(&err);
    if (!cli_flag(kd_options, "quiet") && pdt_kdtree_write_text(t, stdout, &err))
        fprintf(stderr, "pdt kdtree: %s\n", err.message);
    mpq_t cost;
    mpq_init(cost);
    pdt_kdtree_cost(cost, t);
    gmp_printf("access cost %Qd, height %u (%s), %zu points, %.3f s\n", cost, pdt_kdtree_height(t),
               pdt_kdtree_optimal(t) ? "optimal" : "NOT proven optimal: a limit was reached",
               pdt_dataset_rows(pdt_kdtree_dataset(t)), pdt_kdtree_stats(t)->seconds);
    mpq_clear(cost);
    json_t *doc = cli_outputs_wants(&kd_set, "output") ? kd_document(t, height_first) : NULL;
    bool ok = cli_result_write(&kd_set, doc, render_kd, t);
    json_decref(doc);
    const char *pic = NULL;
    ok = ok && cli_outputs_stage(&pic, &kd_set, "picture");
    if (ok && pic && pdt_kdtree_picture(t, pic, &err)) {
        cli_outputs_fail(&kd_set, "picture", err.message);
        ok = false;
    }
    return ok && cli_outputs_commit(&kd_set) ? 0 : 1;
}

static bool read_objective(pdt_kd_objective *obj)
{
    const char *v = cli_get(kd_options, "objective");
    *obj = PDT_KD_ACCESS;
    if (!v || strcmp(v, "access") == 0) return true;
    if (strcmp(v, "height") == 0) {
        *obj = PDT_KD_HEIGHT;
        return true;
    }
    fprintf(stderr, "pdt kdtree: option --objective: '%s' is not access or height\n", v);
    return false;
}

static int solve(pdt_dataset *ds, pdt_kd_objective obj, const pdt_search_opts *so)
{
    pdt_error err;
    pdt_error_clear(&err);
    uint32_t *order = NULL;
    size_t n_order = 0;
    pdt_kdtree *t = NULL;
    const char *spec = cli_get(kd_options, "order");
    int rc = 0;
    if ((spec && pdt_kdtree_parse_order(&order, &n_order, ds, spec, &err)) ||
        pdt_kdtree_new(&t, ds, order, n_order, obj, &err) || pdt_kdtree_solve(t, so, &err)) {
        fprintf(stderr, "pdt kdtree: %s\n", err.message);
        rc = cli_exit_status(err.status);
    } else {
        rc = report(t, obj == PDT_KD_HEIGHT);
    }
    pdt_kdtree_free(&t);
    free(order);
    return rc;
}

/* The cells are drawn in two dimensions: known before the search. */
static bool picture_fits(const pdt_dataset *ds)
{
    const char *pic = cli_get(kd_options, "picture");
    if (!pic || pdt_dataset_dims(ds) == 2) return true;
    fprintf(stderr, "pdt kdtree: option --picture: %s: a picture of the cells needs two coordinates (the data "
            "has %zu)\n", pic, pdt_dataset_dims(ds));
    return false;
}

static int kd_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        kd_help(stdout);
        return 0;
    }
    pdt_search_opts so;
    pdt_search_opts_init(&so);
    pdt_kd_objective obj;
    if (!cli_parse(kd_options, argc, argv, "kdtree") || !read_objective(&obj) ||
        !cli_double(&so.time_limit, kd_options, "time-limit", "kdtree", 0) ||
        !cli_csv_shape(&(pdt_csv_options){0}, kd_options, "kdtree"))
        return 2;
    if (!cli_get(kd_options, "data")) {
        fprintf(stderr, "pdt kdtree: option --data is required (try 'pdt kdtree --help')\n");
        return 2;
    }
    if (!cli_drawing_ready(kd_options, "kdtree")) return 1;
    so.no_memo = cli_flag(kd_options, "no-memo");
    if (!cli_outputs_plan(&kd_set, kd_options, kd_outputs, kd_inputs, "kdtree")) return 1;
    pdt_dataset *ds = NULL;
    int rc = load_points(&ds) && picture_fits(ds) ? solve(ds, obj, &so) : 1;
    cli_outputs_abort(&kd_set);
    pdt_dataset_free(&ds);
    return rc;
}

PDT_DEFINE_COMMAND(kdtree) = {"kdtree", "the k-D tree with the least weighted access cost", kd_run,
                              kd_help};
