/* pdt predict: apply a saved model; accuracy and confusion matrix when labelled. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "data.h"
#include "options.h"
#include "outputs.h"
#include "pdt.h"

static cli_option predict_options[] = {
    {"model", 'm', "FILE", "model saved by 'pdt fit -o'", NULL},
    CLI_DATA_OPTIONS,
    {"no-label", 0, NULL, "the data has no label column", NULL},
    {"output", 'o', "FILE", "write predictions as CSV (row,predicted[,actual]; fields quoted as RFC 4180 says; - for standard output)", NULL},
    {"quiet", 'q', NULL, "print only the accuracy line", NULL},
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void predict_help(FILE *out)
{
    fprintf(out, "usage: pdt predict --model MODEL.json --data FILE [-o predictions.csv]\n\n"
                 "Classifies every row with the model's exact rules.  Features are matched by\n"
                 "name; when the data is labelled, prints accuracy and the confusion matrix.\n\noptions:\n");
    cli_print_options(out, predict_options);
}

/* Confusion matrix: rows actual (data classes), columns predicted (model classes). */
static void print_confusion(const pdt_model *m, const pdt_dataset *ds, const uint32_t *pred)
{
    size_t nm = pdt_model_classes(m), nd = pdt_dataset_classes(ds), n = pdt_dataset_rows(ds);
    size_t *map = malloc(nm * sizeof *map), *cm = calloc(nd * nm + 1, sizeof *cm);
    if (!map || !cm) {
        free(map);
        free(cm);
        return;
    }
    for (size_t c = 0; c < nm; c++) map[c] = pdt_dataset_find_class(ds, pdt_model_class_name(m, c));
    size_t right = 0;
    for (size_t i = 0; i < n; i++) {
        cm[pdt_dataset_label(ds, i) * nm + pred[i]]++;
        right += map[pred[i]] == pdt_dataset_label(ds, i);
    }
    printf("accuracy %.6f (%zu of %zu correct, %zu misclassified)\n", n ? (double)right / (double)n : 0.0,
           right, n, n - right);
    printf("confusion matrix (rows: actual, columns: predicted)\n%12s", "");
    for (size_t c = 0; c < nm; c++) printf(" %10s", pdt_model_class_name(m, c));
    printf("\n");
    for (size_t a = 0; a < nd; a++) {
        printf("%12s", pdt_dataset_class_name(ds, a));
        for (size_t c = 0; c < nm; c++) printf(" %10zu", cm[a * nm + c]);
        printf("\n");
    }
    free(map);
    free(cm);
}

/* One CSV field as RFC 4180 wants it: quoted when it holds a comma, a quote,
 * CR or LF (or starts or ends with a space), quotes doubled. */
static void put_field(FILE *f, const char *v)
{
    size_t n = strlen(v);
    bool quote = strpbrk(v, ",\"\r\n") != NULL || (n && (v[0] == ' ' || v[n - 1] == ' '));
    if (!quote) {
        fputs(v, f);
        return;
    }
    fputc('"', f);
    for (const char *p = v; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

static bool write_predictions(cli_outputs *set, const pdt_model *m, const pdt_dataset *ds, const uint32_t *pred)
{
    const char *path = NULL;
    if (!cli_outputs_stage(&path, set, "output")) return false;
    FILE *f = path ? cli_outputs_open(path) : NULL;
    if (!f) {
        cli_outputs_fail(set, "output", strerror(errno));
        return false;
    }
    bool labelled = pdt_dataset_has_labels(ds);
    fputs(labelled ? "row,predicted,actual\n" : "row,predicted\n", f);
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++) {
        fprintf(f, "%zu,", i + 1);
        put_field(f, pdt_model_class_name(m, pred[i]));
        if (labelled) fputc(',', f), put_field(f, pdt_dataset_class_name(ds, pdt_dataset_label(ds, i)));
        fputc('\n', f);
    }
    bool ok = !ferror(f);
    if (fclose(f) != 0 || !ok) {
        cli_outputs_fail(set, "output", "cannot write the predictions");
        return false;
    }
    return cli_outputs_commit(set);
}

static const cli_output_spec predict_outputs[] = {{"output", "csv"}, {NULL, NULL}};
static const char *const predict_inputs[] = {"model", "data", NULL};

static int predict_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        predict_help(stdout);
        return 0;
    }
    pdt_csv_options shape;
    if (!cli_parse(predict_options, argc, argv, "predict") || !cli_csv_shape(&shape, predict_options, "predict"))
        return 2;
    const char *model_path = cli_get(predict_options, "model");
    if (!model_path) {
        fprintf(stderr, "pdt predict: option --model is required\n");
        return 2;
    }
    cli_outputs set;
    if (!cli_outputs_plan(&set, predict_options, predict_outputs, predict_inputs, "predict")) return 1;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_model *m = NULL;
    if (pdt_model_load_json(&m, model_path, &err)) {
        fprintf(stderr, "pdt predict: %s\n", err.message);
        cli_outputs_abort(&set);
        return 1;
    }
    pdt_dataset *ds = NULL;
    int rc = 1;
    uint32_t *pred = NULL;
    if (cli_load_data(&ds, predict_options, "predict", cli_flag(predict_options, "no-label"))) {
        pred = malloc((pdt_dataset_rows(ds) + 1) * sizeof *pred);
        if (!pred) fprintf(stderr, "pdt predict: out of memory\n");
        else if (pdt_model_predict(pred, m, ds, &err))
            fprintf(stderr, "pdt predict: %s%s\n", err.message,
                    cli_flag(predict_options, "no-label") ? "" : " (if the file has no label column, use --no-label)");
        else rc = 0;
    }
    if (!rc && pdt_dataset_has_labels(ds)) print_confusion(m, ds, pred);
    else if (!rc) printf("%zu rows classified\n", pdt_dataset_rows(ds));
    if (!rc && cli_outputs_wants(&set, "output") && !write_predictions(&set, m, ds, pred)) rc = 1;
    cli_outputs_abort(&set);
    free(pred);
    pdt_dataset_free(&ds);
    pdt_model_free(&m);
    return rc;
}

PDT_DEFINE_COMMAND(predict) = {"predict", "classify data with a saved model", predict_run, predict_help};
