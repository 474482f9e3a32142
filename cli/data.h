/* Loading the --data file the way every subcommand does. */
#ifndef PDT_CLI_DATA_H
#define PDT_CLI_DATA_H

#include "options.h"
#include "pdt.h"

/* The data options every data-reading command accepts. */
#define CLI_DATA_OPTIONS                                                                          \
    {"data", 'd', "FILE", "data file (CSV with a header, or DL8.5 with --format dl85)", NULL},    \
    {"format", 0, "FMT", "csv or dl85 (default: dl85 for .txt/.dl85 files, else csv)", NULL},      \
    {"label", 0, "NAME", "label column of a CSV (default: the last column)", NULL},               \
    {"skip", 0, "COLS", "comma-separated CSV columns to ignore (e.g. an id column)", NULL},       \
    {"skip-nonnumeric", 0, NULL, "ignore CSV columns that hold non-numbers (text columns are "    \
                                 "otherwise categorical)", NULL},                                  \
    {"categorical", 0, "COLS", "comma-separated CSV columns read as categories even when they "   \
                               "hold numbers", NULL},                                              \
    {"missing", 0, "POLICY", "missing cells (?, empty, NA): error (default), drop (leave the row " \
                             "out) or category (a category \"?\" in a categorical column)", NULL}, \
    CLI_CSV_SHAPE_OPTIONS

/* How a CSV is cut into cells (also for pdt kdtree). */
#define CLI_CSV_SHAPE_OPTIONS                                                                     \
    {"delimiter", 0, "D", "CSV field delimiter: comma, semicolon, tab, space (runs of blanks) or one "   \
                          "character (default: ',' ';' or tab, detected)", NULL},                      \
    {"no-header", 0, NULL, "the CSV has no header row: columns are named col1, col2, ...", NULL},    \
    {"header", 0, NULL, "the first CSV row is a header even if its names are numbers", NULL}

/* --delimiter and --no-header/--header into co; prints "pdt CMD: option ..." on error. */
bool cli_csv_shape(pdt_csv_options *co, cli_option *opts, const char *cmd);
/* Loads --data; prints "pdt CMD: message" and returns false on error. */
bool cli_load_data(pdt_dataset **out, cli_option *opts, const char *cmd, bool no_label);

#endif
