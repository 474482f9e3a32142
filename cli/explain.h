/* Teaching mode for `pdt fit --explain`: prints the recursion as the engine
 * reports it (pdt_trace_event): each subproblem with its items and admissible
 * rules, the candidate roots with what each side receives, prunings and why,
 * improvements and results. */
#ifndef PDT_CLI_EXPLAIN_H
#define PDT_CLI_EXPLAIN_H

#include <stdio.h>

#include "pdt.h"

typedef struct cli_explain {
    FILE *out;
    size_t n_rows;          /* rows of the data (item sets are printed up to 64 rows) */
    unsigned long lines, max_lines;
    const char *skip_reason; /* a run of skipped candidates being counted */
    unsigned long skipped;
    unsigned skip_depth;
    int started;
} cli_explain;

void cli_explain_init(cli_explain *x, FILE *out, size_t n_rows, unsigned long max_lines);
/* The trace callback (user = the cli_explain). */
void cli_explain_event(void *user, const pdt_trace_event *ev);
/* Flushes a pending summary line. */
void cli_explain_finish(cli_explain *x);

#endif
