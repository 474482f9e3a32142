/* pdt fit: the optimal classification tree for a data set. */
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "data.h"
#include "drawing.h"
#include "explain.h"
#include "options.h"
#include "outputs.h"
#include "pdt.h"

static cli_option fit_options[] = {
    CLI_DATA_OPTIONS,
    {"rules", 'r', "FAMILY", "rule family or comma list: axis, binary, categorical, hyperplane, ... "
                             "(default axis; 'pdt plugins' lists them)", NULL},
    {"size", 'k', "K", "at most K branch nodes", NULL},
    {"depth", 0, "D", "at most D levels of branch nodes", NULL},
    {"min-leaf", 0, "M", "every leaf made by a split holds at least M items", NULL},
    {"degree", 0, "G", "polynomial degree of hypersurface rules", NULL},
    {"rule-options", 0, "TEXT", "plugin-specific key=value,... options", NULL},
    {"class-weights", 0, "SPEC", "misclassification weights, e.g. \"0=1,1=2.5\"", NULL},
    {"engine", 0, "NAME", "auto (default: the family's backend if any, else fused), fused, "
                          "combinations (the paper's driver) or backend", NULL},
    {"sparse", 0, "ALPHA", "minimise errors/N + ALPHA·(branch nodes), ALPHA an exact decimal; no size "
                             "or depth limit needed with binary, axis or categorical rules", NULL},
    {"lexicographic", 0, NULL, "fewest branch nodes among the most accurate trees", NULL},
    {"metric", 0, "NAME", "accuracy (default), f1, mcc or fm (Fowlkes-Mallows): two classes, the best "
                          "tree of the Pareto front of (FP, FN); any family (binary: its backend, the others: the "
                          "generic engine)", NULL},
    {"positive", 0, "LABEL", "the positive class for --metric (default: the second class)", NULL},
    {"perfect", 0, "[=MODE]", "the smallest perfect tree (fewest training errors any tree can make): "
                              "MODE depth (default: least depth, then fewest branch nodes) or size "
                              "(fewest branch nodes, then least depth); --size/--depth are caps", NULL},
    {"no-memo", 0, NULL, "do not cache subproblems", NULL},
    {"memo-mb", 0, "MB", "subproblem cache size in MiB (default 1024; 256 for the numeric axis backend; a quarter of "
                              "the memory, at least 1024, for the branch search of categorical rules and of "
                              "--sparse without a depth or size limit, which when it is full drops what it can find again "
                              "and goes on)", NULL},
    {"time-limit", 0, "S", "stop after S seconds with the best tree so far (not proven optimal)", NULL},
    {"threads", 0, "N", "threads (default: every core, or OMP_NUM_THREADS); the tree does not "
                        "depend on it", NULL},
    {"output", 'o', "FILE", "write the model / result document (JSON; - for standard output)", NULL},
    {"dot", 0, "FILE", "write the tree as Graphviz DOT (- for standard output)", NULL},
    {"svg", 0, "FILE", "draw the tree as SVG (- for standard output)", NULL},
    {"png", 0, "FILE", "draw the tree as PNG", NULL},
    {"plot", 0, "FILE", "2-D data: picture of the regions, splits and points (.png or .svg)", NULL},
    {"plot-size", 0, "WxH", "picture size in pixels (default 640x480)", NULL},
    {"explain", 0, NULL, "teaching mode: print the recursion (candidate roots, what each side "
                         "receives, prunings and why)", NULL},
    {"explain-lines", 0, "N", "stop --explain after N lines (default 400)", NULL},
    {"quiet", 'q', NULL, "print only the summary line", NULL},
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void fit_help(FILE *out)
{
    fprintf(out, "usage: pdt fit --data FILE [--rules FAMILY] --size K [--depth D] [-o MODEL.json]\n"
                 "       pdt fit --data FILE [--rules FAMILY] --perfect[=depth|size] [-o MODEL.json]\n"
                 "       pdt fit --data FILE --rules binary|axis|categorical --sparse ALPHA [-o MODEL.json]\n\n"
                 "Finds a provably optimal tree: fewest misclassified training items among all\n"
                 "proper trees with at most K branch nodes (and at most D levels) whose rules\n"
                 "come from the family.\n\noptions:\n");
    cli_print_options(out, fit_options);
    fprintf(out, "      --plugin FILE.so           load a rule or problem plugin first (repeatable; also "
                 "$PDT_PLUGIN_PATH): its family is then known to --rules ('pdt plugins' lists them)\n");
}

static bool parse_perfect(pdt_fit_options *fo, const char *v)
{
    if (!v) fo->perfect = PDT_PERFECT_NONE;
    else if (!*v || strcmp(v, "depth") == 0) fo->perfect = PDT_PERFECT_DEPTH;
    else if (strcmp(v, "size") == 0) fo->perfect = PDT_PERFECT_SIZE;
    else {
        fprintf(stderr, "pdt fit: option --perfect: '%s' is not depth or size\n", v);
        return false;
    }
    return true;
}

static bool parse_engine(pdt_fit_options *fo, const char *v)
{
    if (!v || strcmp(v, "auto") == 0) fo->engine = PDT_ENGINE_AUTO;
    else if (strcmp(v, "fused") == 0) fo->engine = PDT_ENGINE_FUSED;
    else if (strcmp(v, "combinations") == 0) fo->engine = PDT_ENGINE_COMBINATIONS;
    else if (strcmp(v, "backend") == 0) fo->engine = PDT_ENGINE_BACKEND;
    else {
        fprintf(stderr, "pdt fit: option --engine: '%s' is not auto, fused, combinations or backend\n", v);
        return false;
    }
    return true;
}

/* --plot-size WxH (or W for a square), each 1..20000. */
static bool fit_read_options(pdt_fit_options *fo, cli_option *o)
{
    if (!cli_fit_common(fo, o, "fit") || !cli_uint(&fo->threads, o, "threads", "fit", 0) ||
        !parse_engine(fo, cli_get(o, "engine")) || !parse_perfect(fo, cli_get(o, "perfect")))
        return false;
    fo->class_weights = cli_get(o, "class-weights");
    fo->sparse = cli_get(o, "sparse");
    fo->lexicographic = cli_flag(o, "lexicographic");
    const char *metric = cli_get(o, "metric");
    if (metric && !pdt_metric_parse(&fo->metric, metric)) {
        fprintf(stderr, "pdt fit: option --metric: '%s' is not accuracy, f1, mcc or fm\n", metric);
        return false;
    }
    if (fo->positive && fo->metric == PDT_METRIC_ACCURACY) {
        fprintf(stderr, "pdt fit: option --positive: only with --metric f1, mcc or fm\n");
        return false;
    }
    if (fo->max_size == PDT_UNLIMITED && fo->max_depth == PDT_UNLIMITED && !fo->perfect && !fo->sparse) {
        fprintf(stderr, "pdt fit: give --size K and/or --depth D, --sparse λ, or --perfect (try 'pdt fit --help')\n");
        return false;
    }
    return true;
}

/* Why a model is not proven optimal, in the summary line. */
static const char *not_proven(const pdt_model *m)
{
    const char *why = pdt_model_stopped_by(m);
    if (!why) return "NOT proven optimal: a limit was reached";
    if (!strcmp(why, PDT_STOP_TIME)) return "NOT proven optimal: the time limit was reached";
    if (!strcmp(why, PDT_STOP_MEMORY)) return "NOT proven optimal: the memory limit was reached, see --memo-mb";
    return "NOT proven optimal: interrupted";
}

static void print_summary(const pdt_model *m)
{
    mpq_t obj;
    mpq_init(obj);
    pdt_model_objective(obj, m);
    char *text = mpq_get_str(NULL, 10, obj);
    char *metric = pdt_model_metric_summary(m);
    if (metric) printf("%s\n", metric);
    free(metric);
    printf("objective %s (%s), %u branch nodes, depth %u, %.3f s\n", text ? text : "?",
           pdt_model_optimal(m) ? "optimal" : not_proven(m),
           pdt_model_size(m), pdt_model_depth(m), pdt_model_seconds(m));
    uint64_t most = 0, total = 0;
    uint32_t workers = pdt_model_work(m, &most, &total);
    if (workers > 1 && total) /* load balance of the root work */
        printf("root work over %u workers: busiest %llu, mean %.1f, max/mean %.2f\n", workers,
               (unsigned long long)most, (double)total / workers, (double)most * workers / (double)total);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    if (text) gmp_free(text, strlen(text) + 1);
    mpq_clear(obj);
}

static const cli_output_spec fit_outputs[] = {
    {"output", "json"}, {"dot", "dot"}, {"svg", "svg"}, {"png", "png"}, {"plot", "picture"}, {NULL, NULL}};
static const char *const fit_inputs[] = {"data", NULL};

/* Every output staged, then all renamed into place together. */
static bool write_outputs(cli_outputs *set, const pdt_model *m, const pdt_dataset *ds, int plot_w, int plot_h)
{
    for (size_t i = 0; fit_outputs[i].option; i++) {
        const char *opt = fit_outputs[i].option, *path = NULL;
        if (!cli_outputs_stage(&path, set, opt)) return false;
        if (!path) continue;
        pdt_error err;
        pdt_error_clear(&err);
        pdt_status st = strcmp(opt, "output") == 0 ? pdt_model_save_json(m, path, &err)
                        : strcmp(opt, "plot") == 0 ? pdt_model_plot(m, ds, path, plot_w, plot_h, &err)
                                                   : pdt_model_render(m, path, fit_outputs[i].format, &err);
        if (st) {
            cli_outputs_fail(set, opt, err.message);
            return false;
        }
    }
    return cli_outputs_commit(set);
}

/* Families that test numbers only (axis, hyperplane, ...) are fitted on the
 * numeric columns: said, with the columns left out, so that a tree of a mixed
 * file does not look as if it had weighed its categories. */
static void note_unused_columns(const pdt_dataset *ds, const pdt_model *m, const char *rules)
{
    if (!pdt_dataset_has_categorical(ds) || pdt_model_dims(m) >= pdt_dataset_dims(ds)) return;
    size_t unused = 0, shown = 0;
    const char *names[8];
    for (size_t j = 0; j < pdt_dataset_dims(ds); j++) {
        if (!pdt_dataset_is_categorical(ds, j)) continue;
        const char *name = pdt_dataset_feature_name(ds, j);
        bool used = false;
        for (size_t k = 0; k < pdt_model_dims(m) && !used; k++) used = strcmp(pdt_model_feature_name(m, k), name) == 0;
        if (!used && unused++ < 8) names[shown++] = name;
    }
    if (!unused) return;
    fprintf(stderr, "pdt fit: note: rule family %s tests numbers; the categorical column%s ", rules, unused > 1 ? "s" : "");
    for (size_t k = 0; k < shown; k++) fprintf(stderr, "%s%s", k ? ", " : "", names[k]);
    if (unused > shown) fprintf(stderr, " and %zu more", unused - shown);
    fprintf(stderr, " %s not used (--rules binary tests x ≠ v on categories, --rules categorical splits by them)\n",
            unused > 1 ? "are" : "is");
}

/* A picture needs 2-D data: known before the search, so refused before it. */
/* One class leaves nothing to learn: said (the fit is a single leaf). */
static bool two_classes(const pdt_dataset *ds)
{
    if (pdt_dataset_classes(ds) == 1)
        fprintf(stderr, "pdt fit: %s: every row has the label \"%s\": nothing to learn, the tree is one leaf\n",
                pdt_dataset_name(ds), pdt_dataset_class_name(ds, 0));
    return true;
}

static bool plot_fits(const pdt_dataset *ds)
{
    const char *plot = cli_get(fit_options, "plot");
    if (!plot || pdt_dataset_dims(ds) == 2) return true;
    fprintf(stderr, "pdt fit: option --plot: %s: pictures need data with exactly 2 features (the data has %zu)\n",
            plot, pdt_dataset_dims(ds));
    return false;
}

/* Long searches say how they are doing on stderr (from the fifth second, every 5 s). */
static void on_progress(void *user, const pdt_progress *p)
{
    double *next = user;
    if (p->seconds < *next) return;
    *next = p->seconds + 5;
    fprintf(stderr, "pdt fit: %.0f s, %llu subproblems, best so far %s\n", p->seconds,
            (unsigned long long)p->nodes, p->best);
}

static int fit_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fit_help(stdout);
        return 0;
    }
    pdt_fit_options fo;
    int plot_w, plot_h;
    if (!cli_parse(fit_options, argc, argv, "fit") || !fit_read_options(&fo, fit_options) ||
        !cli_plot_size(&plot_w, &plot_h, cli_get(fit_options, "plot-size"), "fit", 1))
        return 2;
    if (!cli_drawing_ready(fit_options, "fit")) return 1;
    double next_report = 5;
    if (!cli_flag(fit_options, "quiet")) {
        fo.progress = on_progress;
        fo.progress_user = &next_report;
    }
    uint32_t explain_lines = 400;
    pdt_csv_options shape;
    if (!cli_uint(&explain_lines, fit_options, "explain-lines", "fit", 400) ||
        !cli_csv_shape(&shape, fit_options, "fit"))
        return 2;
    cli_outputs set;
    if (!cli_outputs_plan(&set, fit_options, fit_outputs, fit_inputs, "fit")) return 1;
    pdt_dataset *ds = NULL;
    if (!cli_load_data(&ds, fit_options, "fit", false) || !plot_fits(ds) || !two_classes(ds)) {
        cli_outputs_abort(&set);
        pdt_dataset_free(&ds);
        return 1;
    }
    cli_explain explain;
    if (cli_flag(fit_options, "explain")) {
        cli_explain_init(&explain, stdout, pdt_dataset_rows(ds), explain_lines);
        fo.trace = cli_explain_event;
        fo.trace_user = &explain;
    }
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    int rc = 0;
    static volatile sig_atomic_t interrupted;
    fo.stop = &interrupted;
    cli_signals_arm_stop(&interrupted);
    pdt_status fit_status = pdt_fit(&m, ds, &fo, &err);
    cli_signals_arm_stop(NULL);
    if (fo.trace) cli_explain_finish(&explain);
    if (fit_status) {
        fprintf(stderr, "pdt fit: %s\n", err.message);
        rc = cli_exit_status(err.status);
    } else {
        if (!cli_flag(fit_options, "quiet") && pdt_model_write_text(m, stdout, &err))
            fprintf(stderr, "pdt fit: %s\n", err.message);
        print_summary(m);
        if (!cli_flag(fit_options, "quiet")) note_unused_columns(ds, m, fo.rules);
        if (!write_outputs(&set, m, ds, plot_w, plot_h)) rc = 1;
        else if (interrupted) rc = 130; /* the outputs are written, flagged "optimal": false */
    }
    cli_outputs_abort(&set);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
    return rc;
}

PDT_DEFINE_COMMAND(fit) = {"fit", "find a provably optimal classification tree", fit_run, fit_help};
