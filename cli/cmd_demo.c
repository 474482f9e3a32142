/* pdt demo: an embedded example that needs no files.  XOR-like 2-D data:
 * class 1 sits in the top-left and bottom-right corners, class 0 along the
 * diagonal.  No single line separates the classes; two oblique lines do;
 * axis-parallel splits need three. */
#include <string.h>

#include "command.h"
#include "drawing.h"
#include "options.h"
#include "outputs.h"
#include "pdt.h"

static const char demo_csv[] =
    "x,y,class\n"
    "1,1,0\n2,1,0\n1,2,0\n2,2,0\n4,4,0\n5,5,0\n6,6,0\n7,6,0\n6,7,0\n7,7,0\n"
    "1,6,1\n2,7,1\n1,7,1\n6,1,1\n7,2,1\n7,1,1\n";

static cli_option demo_options[] = {
    {"output", 'o', "FILE", "also write the best oblique model (JSON)", NULL},
    {"svg", 0, "FILE", "also draw it (SVG)", NULL},
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void demo_help(FILE *out)
{
    fprintf(out, "usage: pdt demo [-o MODEL.json] [--svg TREE.svg]\n\n"
                 "Fits optimal trees with axis-parallel and oblique (hyperplane) rules on a\n"
                 "small embedded XOR-like data set and prints them.\n\noptions:\n");
    cli_print_options(out, demo_options);
}

static const cli_output_spec demo_outputs[] = {{"output", "json"}, {"svg", "svg"}, {NULL, NULL}};

static bool write_outputs(cli_outputs *set, const pdt_model *best)
{
    const char *json = NULL, *svg = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (!cli_outputs_stage(&json, set, "output") || !cli_outputs_stage(&svg, set, "svg")) return false;
    const char *failed = json && pdt_model_save_json(best, json, &err) ? "output"
                         : svg && pdt_model_render(best, svg, "svg", &err) ? "svg" : NULL;
    if (failed) cli_outputs_fail(set, failed, err.message);
    return !failed && cli_outputs_commit(set);
}

static int demo_fit(pdt_model **out, const pdt_dataset *ds, const char *rules, uint32_t k, bool show)
{
    pdt_fit_options fo;
    pdt_fit_options_init(&fo);
    fo.rules = rules;
    fo.max_size = k;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(out, ds, &fo, &err)) {
        fprintf(stderr, "pdt demo: %s\n", err.message);
        return 1;
    }
    mpq_t obj;
    mpq_init(obj);
    pdt_model_objective(obj, *out);
    gmp_printf("%-10s K = %u: %Qd misclassified%s\n", rules, k, obj, pdt_model_optimal(*out) ? " (optimal)" : "");
    mpq_clear(obj);
    if (show && pdt_model_write_text(*out, stdout, &err)) fprintf(stderr, "pdt demo: %s\n", err.message);
    return 0;
}

static int demo_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        demo_help(stdout);
        return 0;
    }
    if (!cli_parse(demo_options, argc, argv, "demo")) return 2;
    cli_outputs set;
    if (!cli_outputs_plan(&set, demo_options, demo_outputs, NULL, "demo")) return 1;
    if (!cli_drawing_ready(demo_options, "demo")) return 1;
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, demo_csv, strlen(demo_csv), "demo.csv", NULL, &err)) {
        fprintf(stderr, "pdt demo: %s\n", err.message);
        cli_outputs_abort(&set);
        return 3;
    }
    printf("Embedded data: %zu points in 2-D, 2 classes (XOR-like).\n\n", pdt_dataset_rows(ds));
    static const struct { const char *rules; uint32_t k; } runs[] = {
        {"axis", 1}, {"axis", 2}, {"axis", 3}, {"hyperplane", 1}, {"hyperplane", 2}};
    int rc = 0;
    pdt_model *best = NULL;
    for (size_t i = 0; i < sizeof runs / sizeof *runs && !rc; i++) {
        pdt_model *m = NULL;
        bool last = i + 1 == sizeof runs / sizeof *runs;
        if (last) printf("\nThe optimal oblique tree with 2 rules:\n");
        rc = demo_fit(&m, ds, runs[i].rules, runs[i].k, last);
        if (last) best = m;
        else pdt_model_free(&m);
    }
    if (!rc && set.n && !write_outputs(&set, best)) rc = 1;
    cli_outputs_abort(&set);
    pdt_model_free(&best);
    pdt_dataset_free(&ds);
    return rc;
}

PDT_DEFINE_COMMAND(demo) = {"demo", "run an embedded example (no files needed)", demo_run, demo_help};
