/* The result document every problem command writes (docs/formats.md):
 * {"format": "pdt-result", "version": 1, "pdt": …, "problem": …,
 *  "objective": …, "optimal": …, …}, written atomically. */
#ifndef PDT_CLI_RESULT_H
#define PDT_CLI_RESULT_H

#include <jansson.h>

#include "options.h"
#include "outputs.h"
#include "pdt.h"

/* An exact integer: a JSON integer below 2^53 in magnitude, else a decimal string. */
json_t *cli_json_mpz(mpz_srcptr z);
/* An exact rational: an integer as above, else the string "p/q". */
json_t *cli_json_mpq(mpq_srcptr q);
/* A new result document with the common fields; objective is stolen. */
json_t *cli_result_new(const char *problem, json_t *objective, bool optimal);
/* Sets doc[key] = value (stolen); false when value is NULL (out of memory). */
bool cli_result_set(json_t *doc, const char *key, json_t *value);
/* Options every problem command has for its outputs, and their formats. */
#define CLI_RESULT_OPTIONS                                                        \
    {"output", 'o', "FILE", "write the result document (JSON; - for standard output)", NULL}, \
    {"dot", 0, "FILE", "write the tree as Graphviz DOT (- for standard output)", NULL},       \
    {"svg", 0, "FILE", "draw the tree as SVG (- for standard output)", NULL},                \
    {"png", 0, "FILE", "draw the tree as PNG", NULL}
#define CLI_RESULT_SPECS {"output", "json"}, {"dot", "dot"}, {"svg", "svg"}, {"png", "png"}

typedef pdt_status (*cli_render_fn)(const void *obj, const char *path, const char *format,
                                    pdt_error *err);
/* Stages --output (doc, may be NULL when not asked) and the --dot/--svg/--png
 * drawings made by render(obj, …) in set; the caller commits.  On any failure
 * prints the error, removes what is staged and returns false. */
bool cli_result_write(cli_outputs *set, const json_t *doc, cli_render_fn render, const void *obj);

#endif
