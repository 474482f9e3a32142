/* Fuzz target: the CSV dataset loader (pdt_dataset_read_csv), under several
 * option sets: the defaults (label last); a weight column "w", a skipped
 * column "id" and non-numeric columns dropped; no label; blank-separated;
 * missing values as categories with column "a" categorical; missing rows dropped.  An input may end in
 * a NUL byte and options of its own, NUL separated: label, weight, skipped
 * columns (comma separated), flags ('n' no label, 's' skip non-numeric,
 * 'd' / 'c' missing values dropped / categories),
 * class weights of the fit ("a=2,b=1/3"); empty ones are unset.  A small
 * labelled dataset is then fitted: axis rules of size 1, hyperplanes on at
 * most 8 rows in at most 2 dimensions, and without weights axis and binary
 * rules of depth 2, which must reach the same optimum. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define MAX_SKIP 8

#define SMALL_ROWS 12
#define SMALL_DIMS 3

static void fit_small(const pdt_dataset *ds, const char *class_weights)
{
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds), numeric = 0;
    if (!pdt_dataset_has_labels(ds) || n > SMALL_ROWS || d > SMALL_DIMS) return;
    for (size_t j = 0; j < d; j++) numeric += !pdt_dataset_is_categorical(ds, j);
    if (!numeric) { /* categories only: one-hot tests, backend against the fused engine */
        if (!class_weights && !pdt_dataset_has_weights(ds)) pdt_fuzz_same_optimum(ds, 2);
        return;
    }
    if (!pdt_fuzz_fit(NULL, ds, "axis", 1, PDT_UNLIMITED, class_weights)) return;
    if (n <= 8 && d >= 1 && d <= 2) pdt_fuzz_fit(NULL, ds, "hyperplane", 1, PDT_UNLIMITED, class_weights);
    if (!class_weights && !pdt_dataset_has_weights(ds)) pdt_fuzz_same_optimum(ds, 2);
}

static void load(const uint8_t *data, size_t size, const pdt_csv_options *opt,
                 const char *class_weights)
{
    static const char name[] = "fuzz.csv";
    pdt_dataset *ds = (pdt_dataset *)&ds; /* not NULL: the loader must reset it */
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_dataset_read_csv(&ds, (const char *)data, size, name, opt, &err);
    if (st != PDT_OK) {
        pdt_fuzz_check_rejected(st, &err, name, (const char *)data, size);
        PDT_FUZZ_CHECK(ds == NULL, "a rejected file left a dataset behind");
        return;
    }
    pdt_fuzz_dataset_accessors(ds);
    PDT_FUZZ_CHECK(pdt_dataset_has_labels(ds) == !opt->no_label, "labels without a label column");
    fit_small(ds, class_weights);
    pdt_dataset_free(&ds);
    PDT_FUZZ_CHECK(ds == NULL, "pdt_dataset_free left the pointer set");
}

/* The options after the CSV text: fields[k] is the k-th NUL-separated field. */
typedef struct csv_fuzz_options {
    char *text; /* a copy of the tail, NUL terminated */
    const char *skip[MAX_SKIP];
    const char *class_weights;
    pdt_csv_options opt;
} csv_fuzz_options;

static const char *field(const char *text, size_t len, size_t k)
{
    const char *p = text, *end = text + len;
    for (; k > 0 && p < end; k--) p += strlen(p) + 1;
    return p < end && *p ? p : NULL;
}

static void parse_options(csv_fuzz_options *o, const char *tail, size_t len)
{
    memset(o, 0, sizeof *o);
    o->text = malloc(len + 1);
    PDT_FUZZ_CHECK(o->text, "out of memory");
    memcpy(o->text, tail, len);
    o->text[len] = '\0';
    o->opt.label = field(o->text, len, 0);
    o->opt.weight = field(o->text, len, 1);
    const char *flags = field(o->text, len, 3);
    o->class_weights = field(o->text, len, 4); /* before strtok splits the skip field */
    o->opt.no_label = flags && strchr(flags, 'n');
    o->opt.skip_nonnumeric = flags && strchr(flags, 's');
    o->opt.missing = flags && strchr(flags, 'd') ? PDT_MISSING_DROP
                     : flags && strchr(flags, 'c') ? PDT_MISSING_CATEGORY : PDT_MISSING_ERROR;
    char *skip = (char *)field(o->text, len, 2);
    for (char *tok = skip ? strtok(skip, ",") : NULL; tok && o->opt.n_skip < MAX_SKIP; tok = strtok(NULL, ","))
        o->skip[o->opt.n_skip++] = tok;
    o->opt.skip = o->skip;
}

int pdt_fuzz_csv(const uint8_t *data, size_t size)
{
    if (size > PDT_FUZZ_MAX_CSV) return 0;
    const char *nul = memchr(data, '\0', size);
    if (nul) {
        size_t len = (size_t)(nul - (const char *)data);
        csv_fuzz_options o;
        parse_options(&o, nul + 1, size - len - 1);
        load(data, len, &o.opt, o.class_weights);
        free(o.text);
        size = len;
    }
    static const char *const skip[] = {"id"};
    const pdt_csv_options plain = {0};
    const pdt_csv_options options = {.weight = "w", .skip_nonnumeric = true, .skip = skip, .n_skip = 1};
    const pdt_csv_options unlabelled = {.no_label = true};
    /* issue 16: blank-separated records, no header, a header insisted on */
    const pdt_csv_options blanks = {.delimiter = ' ', .header = PDT_CSV_HEADER_NO};
    const pdt_csv_options piped = {.delimiter = '|', .header = PDT_CSV_HEADER_YES, .skip_nonnumeric = true};
    /* issue 12: missing values as categories, rows with them dropped, a forced categorical column */
    static const char *const first[] = {"a"};
    const pdt_csv_options categories = {.missing = PDT_MISSING_CATEGORY, .categorical = first, .n_categorical = 1};
    const pdt_csv_options dropped = {.missing = PDT_MISSING_DROP};
    load(data, size, &plain, NULL);
    load(data, size, &options, NULL);
    load(data, size, &unlabelled, NULL);
    load(data, size, &blanks, NULL);
    load(data, size, &piped, NULL);
    load(data, size, &categories, NULL);
    load(data, size, &dropped, NULL);
    return 0;
}

#ifdef PDT_FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return pdt_fuzz_csv(data, size); }
#endif
