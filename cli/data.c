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

bool cli_load_data(pdt_dataset **out, cli_option *opts, const char *cmd, bool no_label)
{
    const char *path = cli_get(opts, "data"), *fmt = cli_get(opts, "format");
    if (!path) {
        fprintf(stderr, "pdt %s: option --data is required (try 'pdt %s --help')\n", cmd, cmd);
        return false;
    }
    if (!fmt) fmt = ends_with(path, ".txt") || ends_with(path, ".dl85") ? "dl85" : "csv";
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st;
    if (strcmp(fmt, "dl85") == 0) {
        st = pdt_dataset_load_dl85(out, path, &err);
    } else if (strcmp(fmt, "csv") == 0) {
        size_t n_skip = 0;
        char **skip = cli_get(opts, "skip") ? split_list(cli_get(opts, "skip"), &n_skip) : NULL;
        pdt_csv_options co = {.label = cli_get(opts, "label"), .no_label = no_label,
                              .skip_nonnumeric = cli_flag(opts, "skip-nonnumeric"),
                              .skip = (const char *const *)skip, .n_skip = n_skip};
        st = pdt_dataset_load_csv(out, path, &co, &err);
        for (size_t i = 0; i < n_skip; i++) free(skip[i]);
        free(skip);
    } else {
        fprintf(stderr, "pdt %s: option --format: '%s' is not csv or dl85\n", cmd, fmt);
        return false;
    }
    if (st) {
        fprintf(stderr, "pdt %s: %s\n", cmd, err.message);
        return false;
    }
    return true;
}
