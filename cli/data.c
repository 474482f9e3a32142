#include "data.h"

#include <stdlib.h>
#include <string.h>

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Splits "a,b,c" into a NULL-free array of strdup'd names. */
static char **split_list(const char *text, size_t *n)
{
    size_t cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    char **v = calloc(cap, sizeof *v);
    *n = 0;
    if (!v) return NULL;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",");
        if (len) v[(*n)++] = strndup(p, len);
        p += len + (p[len] == ',');
    }
    return v;
}

bool cli_csv_shape(pdt_csv_options *co, cli_option *opts, const char *cmd)
{
    static const struct { const char *name; char sep; } names[] = {
        {"comma", ','}, {"semicolon", ';'}, {"tab", '\t'}, {"\\t", '\t'}, {"space", ' '}, {"whitespace", ' '}};
    const char *d = cli_get(opts, "delimiter");
    co->delimiter = 0;
    for (size_t i = 0; d && i < sizeof names / sizeof *names && !co->delimiter; i++)
        if (strcmp(d, names[i].name) == 0) co->delimiter = names[i].sep;
    if (d && !co->delimiter) co->delimiter = strlen(d) == 1 ? d[0] : 0;
    if (d && (!co->delimiter || strchr("\"\r\n", co->delimiter))) {
        fprintf(stderr, "pdt %s: option --delimiter: '%s' is not comma, semicolon, tab, space or one character "
                        "other than a quote\n", cmd, d);
        return false;
    }
    if (cli_flag(opts, "no-header") && cli_flag(opts, "header")) {
        fprintf(stderr, "pdt %s: options --header and --no-header contradict each other\n", cmd);
        return false;
    }
    co->header = cli_flag(opts, "no-header") ? PDT_CSV_HEADER_NO
                 : cli_flag(opts, "header")  ? PDT_CSV_HEADER_YES : PDT_CSV_HEADER_AUTO;
    return true;
}

/* A .txt file is DL8.5 only when its first line is blank-separated integers:
 * CSV named .txt is read as CSV, and the guess is said. */
static const char *sniff_format(const char *path, const char *cmd)
{
    if (ends_with(path, ".dl85")) return "dl85";
    if (!ends_with(path, ".txt")) return "csv";
    FILE *f = fopen(path, "rb");
    char line[4096];
    bool got = false;
    while (f && !got && fgets(line, sizeof line, f)) got = strspn(line, " \t\r\n") != strlen(line);
    if (f) fclose(f);
    if (!got || strspn(line, "0123456789 \t\r\n-+") == strlen(line)) return "dl85";
    fprintf(stderr, "pdt %s: %s: read as CSV: its first line is not DL8.5 (blank-separated integers); "
                    "--format dl85 or --format csv says which\n", cmd, path);
    return "csv";
}

/* A categorical column with a category for most rows (a name, an id) splits
 * the data into single rows: said, not refused. */
static void warn_identifiers(const pdt_dataset *ds, const char *cmd, const char *path)
{
    size_t n = pdt_dataset_rows(ds);
    for (size_t j = 0; j < pdt_dataset_dims(ds); j++) {
        size_t k = pdt_dataset_categories(ds, j);
        if (n >= 20 && 2 * k > n)
            fprintf(stderr, "pdt %s: %s: column \"%s\" has %zu categories in %zu rows: an identifier? "
                            "(--skip %s leaves it out)\n", cmd, path, pdt_dataset_feature_name(ds, j), k, n,
                    pdt_dataset_feature_name(ds, j));
    }
}

bool cli_load_data(pdt_dataset **out, cli_option *opts, const char *cmd, bool no_label)
{
    const char *path = cli_get(opts, "data"), *fmt = cli_get(opts, "format");
    if (!path) {
        fprintf(stderr, "pdt %s: option --data is required (try 'pdt %s --help')\n", cmd, cmd);
        return false;
    }
    pdt_csv_options co = {.label = cli_get(opts, "label"), .no_label = no_label,
                          .skip_nonnumeric = cli_flag(opts, "skip-nonnumeric")};
    if (!cli_csv_shape(&co, opts, cmd)) return false;
    const char *missing = cli_get(opts, "missing");
    if (missing) {
        if (strcmp(missing, "error") == 0) co.missing = PDT_MISSING_ERROR;
        else if (strcmp(missing, "drop") == 0) co.missing = PDT_MISSING_DROP;
        else if (strcmp(missing, "category") == 0) co.missing = PDT_MISSING_CATEGORY;
        else {
            fprintf(stderr, "pdt %s: option --missing: '%s' is not error, drop or category\n", cmd, missing);
            return false;
        }
    }
    if (!fmt) fmt = sniff_format(path, cmd);
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st;
    if (strcmp(fmt, "dl85") == 0) {
        if (cli_get(opts, "categorical") || missing) {
            fprintf(stderr, "pdt %s: options --categorical and --missing apply to CSV files (%s is DL8.5)\n", cmd, path);
            return false;
        }
        st = pdt_dataset_load_dl85(out, path, &err);
    } else if (strcmp(fmt, "csv") == 0) {
        size_t n_skip = 0;
        char **skip = cli_get(opts, "skip") ? split_list(cli_get(opts, "skip"), &n_skip) : NULL;
        co.skip = (const char *const *)skip;
        co.n_skip = n_skip;
        size_t n_cat = 0;
        char **cat = cli_get(opts, "categorical") ? split_list(cli_get(opts, "categorical"), &n_cat) : NULL;
        co.categorical = (const char *const *)cat;
        co.n_categorical = n_cat;
        st = pdt_dataset_load_csv(out, path, &co, &err);
        for (size_t i = 0; i < n_skip; i++) free(skip[i]);
        free(skip);
        for (size_t i = 0; i < n_cat; i++) free(cat[i]);
        free(cat);
        if (!st && pdt_dataset_dropped(*out))
            fprintf(stderr, "pdt %s: %s: --missing drop left out %zu of %zu rows\n", cmd, path,
                    pdt_dataset_dropped(*out), pdt_dataset_dropped(*out) + pdt_dataset_rows(*out));
    } else {
        fprintf(stderr, "pdt %s: option --format: '%s' is not csv or dl85\n", cmd, fmt);
        return false;
    }
    if (st) {
        fprintf(stderr, "pdt %s: %s\n", cmd, err.message);
        return false;
    }
    warn_identifiers(*out, cmd, path);
    return true;
}
