/* The result document every problem command writes (docs/formats.md):
 * {"format": "pdt-result", "version": 1, "pdt": …, "problem": …,
 *  "objective": …, "optimal": …, …}, written atomically. */
#ifndef PDT_CLI_RESULT_H
#define PDT_CLI_RESULT_H

#include <jansson.h>

#include "options.h"
#include "pdt.h"

/* An exact integer: a JSON integer below 2^53 in magnitude, else a decimal string. */
json_t *cli_json_mpz(mpz_srcptr z);
/* An exact rational: an integer as above, else the string "p/q". */
json_t *cli_json_mpq(mpq_srcptr q);
/* A new result document with the common fields; objective is stolen. */
json_t *cli_result_new(const char *problem, json_t *objective, bool optimal);
/* Sets doc[key] = value (stolen); false when value is NULL (out of memory). */
bool cli_result_set(json_t *doc, const char *key, json_t *value);
/* Writes doc to path through a temporary file; prints "pdt CMD: …" on failure. */
bool cli_result_save(const json_t *doc, const char *path, const char *cmd);

/* Options every problem command has for its outputs. */
#define CLI_RESULT_OPTIONS                                                        \
    {"output", 'o', "FILE", "write the result document (JSON)", NULL},            \
    {"dot", 0, "FILE", "write the tree as Graphviz DOT", NULL},                   \
    {"svg", 0, "FILE", "draw the tree as SVG", NULL},                             \
    {"png", 0, "FILE", "draw the tree as PNG", NULL}

typedef pdt_status (*cli_render_fn)(const void *obj, const char *path, const char *format,
                                    pdt_error *err);
/* Writes --output (doc, may be NULL when not asked) and the --dot/--svg/--png
 * drawings made by render(obj, …).  On any failure prints the error, removes
 * what this run wrote and returns false. */
bool cli_result_outputs(const json_t *doc, cli_option *opts, cli_render_fn render, const void *obj,
                        const char *cmd);

#endif
