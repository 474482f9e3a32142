/* Reading JSON with jansson: typed accessors whose errors name the file and
 * the JSON path of the value at fault ("model.json: tree.left.items: ..."). */
#ifndef PDT_JSON_PATH_H
#define PDT_JSON_PATH_H

#include <jansson.h>

#include "pdt_plugin.h"

typedef struct pdt_json_reader {
    const char *file; /* named in every message */
    pdt_buf path;     /* JSON path of the value being read */
    pdt_error *err;
} pdt_json_reader;

/* PDT_EINVAL with "FILE: PATH: message". */
pdt_status pdt_json_error(pdt_json_reader *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prefixes the message already in L->err with "FILE: PATH: ". */
pdt_status pdt_json_prefix(pdt_json_reader *L);

/* The path grows by ".key" or "[k]"; pdt_json_pop(L, mark) restores it. */
size_t pdt_json_push(pdt_json_reader *L, const char *key);
size_t pdt_json_push_index(pdt_json_reader *L, size_t k);
void pdt_json_pop(pdt_json_reader *L, size_t mark);

/* Type check of the value at the current path (JSON_TRUE means any boolean). */
pdt_status pdt_json_expect(pdt_json_reader *L, const json_t *v, json_type type, const char *what);
/* obj[key]; *out is NULL when absent, which is an error when required. */
pdt_status pdt_json_get(pdt_json_reader *L, const json_t **out, const json_t *obj, const char *key,
                        bool required);

/* Typed members: absent optional keys leave *out untouched. */
pdt_status pdt_json_uint_value(pdt_json_reader *L, uint64_t *out, const json_t *v, uint64_t max);
pdt_status pdt_json_uint(pdt_json_reader *L, uint64_t *out, const json_t *obj, const char *key,
                         uint64_t max, bool required);
pdt_status pdt_json_string(pdt_json_reader *L, char **out, const json_t *obj, const char *key,
                           bool required);
pdt_status pdt_json_bool(pdt_json_reader *L, bool *out, const json_t *obj, const char *key,
                         bool required);
/* An exact rational: a JSON integer or a string ("-3/2", "0.125"). */
pdt_status pdt_json_rational_value(pdt_json_reader *L, mpq_ptr out, const json_t *v);

#endif
