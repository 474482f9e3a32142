/* Every file a command writes, as one set (issue 16).
 *
 * Before any work, cli_outputs_plan checks each output option: not the same
 * file as an input or as another output, not a symbolic link, FIFO, device or
 * directory, not write-protected, in a writable directory, a format that fits
 * its name ("-" is standard output for text formats only).  After the work
 * every output is written to a temporary file next to its target; only when
 * all are written are they renamed into place (signals held off meanwhile).
 * A failure or a signal that ends the process removes every temporary file. */
#ifndef PDT_CLI_OUTPUTS_H
#define PDT_CLI_OUTPUTS_H

#include <signal.h>
#include <stdbool.h>

#include "../framework/atomic_file.h"
#include "options.h"

/* An output option and its format: "json", "csv", "dot", "svg", "png" (the
 * writer's fixed format) or "picture" (PNG or SVG by the file name). */
typedef struct cli_output_spec {
    const char *option;
    const char *format;
} cli_output_spec;

#define CLI_MAX_OUTPUTS 8

typedef struct cli_output {
    const char *option;
    const char *path;    /* as given; "-" is standard output */
    const char *format;  /* resolved: a picture's is "png" or "svg" */
    pdt_atomic_file af;  /* the staged temporary file (af.tmp_path), once staged */
} cli_output;

typedef struct cli_outputs {
    const char *cmd;
    size_t n;
    cli_output o[CLI_MAX_OUTPUTS];
    int stdout_fd; /* the real standard output while "-" is staged, else -1 */
} cli_outputs;

/* Checks every output option of specs (NULL-option terminated) that opts
 * holds against the inputs named by input_options (NULL terminated).  Prints
 * "pdt CMD: option --X: PATH: why" and returns false on the first refusal.
 * When an output is "-", the command's own report moves to standard error. */
bool cli_outputs_plan(cli_outputs *set, cli_option *opts, const cli_output_spec *specs,
                      const char *const *input_options, const char *cmd);
/* True when the option was given (and planned). */
bool cli_outputs_wants(const cli_outputs *set, const char *option);
/* The format the output of option is written in ("png", "svg", ...), or NULL. */
const char *cli_outputs_format(const cli_outputs *set, const char *option);
/* *path := the temporary file the writer of option must write (NULL when the
 * option was not given).  False (printed, everything staged removed) when it
 * cannot be created. */
bool cli_outputs_stage(const char **path, cli_outputs *set, const char *option);
/* The staged file at path opened for writing as it is (created empty by
 * cli_outputs_stage), without truncating it: on ext4 a file truncated to
 * size 0 and written is flushed to disk when closed (the replace-via-
 * truncate heuristic), which costs a small run more than the rest of its
 * output.  NULL (errno set) when it cannot be opened. */
FILE *cli_outputs_open(const char *path);
/* A writer failed: prints "pdt CMD: option --X: message" and removes every
 * staged file. */
void cli_outputs_fail(cli_outputs *set, const char *option, const char *message);
/* Checks the targets again, renames every staged file into place and copies
 * the "-" output to standard output.  False (printed) on failure. */
bool cli_outputs_commit(cli_outputs *set);
/* When set (pdt-mpi's ranks other than 0), commit removes the staged files
 * instead of renaming them: one process writes the outputs. */
extern bool cli_outputs_discard;

/* Removes every staged file and restores standard output. */
void cli_outputs_abort(cli_outputs *set);

/* SIGINT, SIGTERM and SIGHUP remove the temporary files, then end the process
 * as the signal would; so do the crash signals (SIGSEGV, SIGFPE, SIGBUS,
 * SIGILL, SIGABRT), handing over to whatever handled them before.  Installed
 * once by main. */
void cli_signals_install(void);

/* While flag is set (not NULL), the first SIGINT only sets *flag = 1 (a
 * search then ends with its best so far); the second ends the process. */
void cli_signals_arm_stop(volatile sig_atomic_t *flag);

#endif
