#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdt.h"

cli_option *cli_find(cli_option *opts, const char *name)
{
    for (cli_option *o = opts; o->name; o++)
        if (strcmp(o->name, name) == 0) return o;
    return NULL;
}

const char *cli_get(cli_option *opts, const char *name)
{
    cli_option *o = cli_find(opts, name);
    return o ? o->value : NULL;
}

bool cli_flag(cli_option *opts, const char *name) { return cli_get(opts, name) != NULL; }

static cli_option *find_short(cli_option *opts, char c)
{
    for (cli_option *o = opts; o->name; o++)
        if (o->short_name == c) return o;
    return NULL;
}

bool cli_parse(cli_option *opts, int argc, char **argv, const char *cmd)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = NULL;
        cli_option *o = NULL;
        if (a[0] == '-' && a[1] == '-' && a[2]) {
            eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            for (cli_option *p = opts; p->name && !o; p++)
                if (strlen(p->name) == len && strncmp(p->name, a + 2, len) == 0) o = p;
        } else if (a[0] == '-' && a[1] && !a[2]) {
            o = find_short(opts, a[1]);
        } else {
            fprintf(stderr, "pdt %s: unexpected argument '%s' (options start with --; try 'pdt %s --help')\n",
                    cmd, a, cmd);
            return false;
        }
        if (!o) {
            fprintf(stderr, "pdt %s: unknown option '%s' (try 'pdt %s --help')\n", cmd, a, cmd);
            return false;
        }
        if (o->arg && o->arg[0] == '[') { /* an optional value, given only as --name=VALUE */
            o->value = eq ? eq + 1 : "";
            continue;
        }
        if (!o->arg) {
            if (eq) {
                fprintf(stderr, "pdt %s: option --%s takes no value\n", cmd, o->name);
                return false;
            }
            o->value = "";
            continue;
        }
        if (eq) {
            o->value = eq + 1;
        } else if (i + 1 < argc) {
            o->value = argv[++i];
        } else {
            fprintf(stderr, "pdt %s: option --%s needs a value (%s)\n", cmd, o->name, o->arg);
            return false;
        }
    }
    return true;
}

bool cli_uint(uint32_t *out, cli_option *opts, const char *name, const char *cmd, uint32_t dflt)
{
    const char *v = cli_get(opts, name);
    if (!v) {
        *out = dflt;
        return true;
    }
    const char *p = v;
    while (*p == ' ') p++;
    bool ok = *p >= '0' && *p <= '9';
    errno = 0;
    char *end = NULL;
    unsigned long long x = ok ? strtoull(p, &end, 10) : 0;
    if (!ok || errno || *end || x >= UINT32_MAX) {
        fprintf(stderr, "pdt %s: option --%s: '%s' is not a non-negative integer%s\n", cmd, name, v,
                ok && !errno && !*end ? " small enough" : "");
        return false;
    }
    *out = (uint32_t)x;
    return true;
}

bool cli_double(double *out, cli_option *opts, const char *name, const char *cmd, double dflt)
{
    const char *v = cli_get(opts, name);
    if (!v) {
        *out = dflt;
        return true;
    }
    errno = 0;
    char *end = NULL;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(x) || x < 0) {
        fprintf(stderr, "pdt %s: option --%s: '%s' is not a non-negative number\n", cmd, name, v);
        return false;
    }
    *out = x;
    return true;
}

void cli_print_options(FILE *out, const cli_option *opts)
{
    for (const cli_option *o = opts; o->name; o++) {
        char left[64];
        if (o->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, o->arg && o->arg[0] != '[' ? " " : "",
                     o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg && o->arg[0] != '[' ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "  %-30s %s\n", left, o->help);
    }
}

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
    return false;
}

int cli_exit_status(int status)
{
    return status == PDT_EINVAL || status == PDT_EIO ? 1 : 3;
}

bool cli_plot_size(int *w, int *h, const char *v, const char *cmd, long least)
{
    *w = 640, *h = 480;
    if (!v) return true;
    char *end = NULL;
    long a = strtol(v, &end, 10), b = a;
    if (end != v && (*end == 'x' || *end == 'X')) {
        const char *q = end + 1;
        b = strtol(q, &end, 10);
        if (end == q) end = (char *)v;
    }
    if (end == v || *end || a < least || b < least || a > 20000 || b > 20000 || !(*v >= '0' && *v <= '9')) {
        fprintf(stderr, "pdt %s: option --plot-size: '%s' is not WIDTHxHEIGHT with %ld..20000 pixels each\n", cmd,
                v, least);
        return false;
    }
    *w = (int)a, *h = (int)b;
    return true;
}

bool cli_fit_common(pdt_fit_options *fo, cli_option *o, const char *cmd)
{
    pdt_fit_options_init(fo);
    uint32_t memo_mb = 0, degree = 0;
    if (!cli_uint(&fo->max_size, o, "size", cmd, PDT_UNLIMITED) || !cli_uint(&fo->max_depth, o, "depth", cmd, PDT_UNLIMITED) ||
        !cli_uint(&fo->min_leaf, o, "min-leaf", cmd, 0) || !cli_uint(&degree, o, "degree", cmd, 0) ||
        !cli_uint(&memo_mb, o, "memo-mb", cmd, 0) || !cli_double(&fo->time_limit, o, "time-limit", cmd, 0))
        return false;
    if (cli_get(o, "rules")) fo->rules = cli_get(o, "rules");
    fo->rule_params.degree = degree;
    fo->rule_params.options = cli_get(o, "rule-options");
    fo->no_memo = cli_flag(o, "no-memo");
    fo->memo_megabytes = memo_mb;
    fo->positive = cli_get(o, "positive");
    return true;
}
