/* Table-driven option parsing for the subcommands: every error names the
 * option and the offending value. */
#ifndef PDT_CLI_OPTIONS_H
#define PDT_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cli_option {
    const char *name;  /* long name without "--" */
    char short_name;   /* 0 if none */
    const char *arg;   /* metavariable ("FILE"), "[=X]" for an optional value (--name or
                          --name=VALUE; value "" when absent), or NULL for a flag */
    const char *help;
    const char *value; /* parsed: the value, or "" for a set flag, NULL if absent */
} cli_option;

/* Parses argv[1..argc) into opts (NULL-name terminated).  Positional
 * arguments are refused.  On error prints "pdt CMD: message" and returns false. */
bool cli_parse(cli_option *opts, int argc, char **argv, const char *cmd);
cli_option *cli_find(cli_option *opts, const char *name);
const char *cli_get(cli_option *opts, const char *name);
bool cli_flag(cli_option *opts, const char *name);
/* Value parsers: print "pdt CMD: option --NAME: ..." and return false on bad input. */
bool cli_uint(uint32_t *out, cli_option *opts, const char *name, const char *cmd, uint32_t dflt);
bool cli_double(double *out, cli_option *opts, const char *name, const char *cmd, double dflt);
void cli_print_options(FILE *out, const cli_option *opts);
/* --plot-size WIDTHxHEIGHT (or one number for both), each in least..20000;
 * 640x480 when v is NULL. */
bool cli_plot_size(int *w, int *h, const char *v, const char *cmd, long least);
/* The options a fit and a front share: --size, --depth, --min-leaf, --degree,
 * --memo-mb, --time-limit, --rules, --rule-options, --no-memo, --positive
 * (into fo, initialised here). */
struct pdt_fit_options;
bool cli_fit_common(struct pdt_fit_options *fo, cli_option *o, const char *cmd);
/* The exit status for a library status: 1 bad input or an unreadable file
 * (PDT_EINVAL, PDT_EIO), 3 an internal error or a limit. */
int cli_exit_status(int status);
/* True when argv asks for help. */
bool cli_wants_help(int argc, char **argv);

#endif
