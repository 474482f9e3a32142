/* Reading JSON with jansson: typed accessors whose errors name the file and
 * the JSON path of the value at fault ("model.json: tree.left.items: ..."). */
#ifndef PDT_JSON_PATH_H
#define PDT_JSON_PATH_H

#include <jansson.h>

#include "pdt_plugin.h"

typedef struct jload {
    const char *file; /* named in every message */
    pdt_buf path;     /* JSON path of the value being read */
    pdt_error *err;
} jload;

/* PDT_EINVAL with "FILE: PATH: message". */
pdt_status jl_error(jload *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prefixes the message already in L->err with "FILE: PATH: ". */
pdt_status jl_prefix(jload *L);

/* The path grows by ".key" or "[k]"; jl_pop(L, mark) restores it. */
size_t jl_push(jload *L, const char *key);
size_t jl_push_index(jload *L, size_t k);
void jl_pop(jload *L, size_t mark);

/* Type check of the value at the current path (JSON_TRUE means any boolean). */
pdt_status jl_expect(jload *L, const json_t *v, json_type type, const char *what);
/* obj[key]; *out is NULL when absent, which is an error when required. */
pdt_status jl_get(jload *L, const json_t **out, const json_t *obj, const char *key, bool required);

/* Typed members: absent optional keys leave *out untouched. */
pdt_status jl_uint_value(jload *L, uint64_t *out, const json_t *v, uint64_t max);
pdt_status jl_uint(jload *L, uint64_t *out, const json_t *obj, const char *key, uint64_t max,
                   bool required);
pdt_status jl_string(jload *L, char **out, const json_t *obj, const char *key, bool required);
pdt_status jl_bool(jload *L, bool *out, const json_t *obj, const char *key, bool required);
/* An exact rational: a JSON integer or a string ("-3/2", "0.125"). */
pdt_status jl_rational_value(jload *L, mpq_ptr out, const json_t *v);

#endif
