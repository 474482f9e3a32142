/* Reading JSON with jansson: typed accessors whose errors name the file and
 * the JSON path of the value at fault ("model.json: tree.left.items: ..."). */
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json_path.h"

static const char *pdt_json_type(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "an unknown value";
}

pdt_status pdt_json_error(pdt_json_reader *L, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (L->path.len && L->path.data)
        return pdt_error_set(L->err, PDT_EINVAL, "%s: %s: %s", L->file, L->path.data, msg);
    return pdt_error_set(L->err, PDT_EINVAL, "%s: %s", L->file, msg);
}

pdt_status pdt_json_prefix(pdt_json_reader *L)
{
    if (L->path.len && L->path.data)
        return pdt_error_prefix(L->err, "%s: %s: ", L->file, L->path.data);
    return pdt_error_prefix(L->err, "%s: ", L->file);
}

size_t pdt_json_push(pdt_json_reader *L, const char *key)
{
    size_t mark = L->path.len;
    pdt_buf_printf(&L->path, "%s%s", mark ? "." : "", key);
    return mark;
}

size_t pdt_json_push_index(pdt_json_reader *L, size_t k)
{
    size_t mark = L->path.len;
    pdt_buf_printf(&L->path, "[%zu]", k);
    return mark;
}

void pdt_json_pop(pdt_json_reader *L, size_t mark)
{
    if (mark > L->path.len) return;
    L->path.len = mark;
    if (L->path.data) L->path.data[mark] = '\0';
}

pdt_status pdt_json_expect(pdt_json_reader *L, const json_t *v, json_type type, const char *what)
{
    bool ok = json_typeof(v) == type || (type == JSON_TRUE && json_is_boolean(v));
    return ok ? PDT_OK : pdt_json_error(L, "expected %s, found %s", what, pdt_json_type(v));
}

pdt_status pdt_json_get(pdt_json_reader *L, const json_t **out, const json_t *obj, const char *key,
                        bool required)
{
    *out = json_object_get(obj, key);
    if (!*out && required) return pdt_json_error(L, "missing key \"%s\"", key);
    return PDT_OK;
}

pdt_status pdt_json_uint_value(pdt_json_reader *L, uint64_t *out, const json_t *v, uint64_t max)
{
    if (!json_is_integer(v))
        return pdt_json_error(L, "expected a non-negative integer, found %s", pdt_json_type(v));
    json_int_t x = json_integer_value(v);
    if (x < 0)
        return pdt_json_error(L, "expected a non-negative integer, found %lld", (long long)x);
    if ((uint64_t)x > max)
        return pdt_json_error(L, "%lld is too large (at most %llu)", (long long)x,
                              (unsigned long long)max);
    *out = (uint64_t)x;
    return PDT_OK;
}

pdt_status pdt_json_uint(pdt_json_reader *L, uint64_t *out, const json_t *obj, const char *key,
                         uint64_t max, bool required)
{
    const json_t *v;
    pdt_status st = pdt_json_get(L, &v, obj, key, required);
    if (st != PDT_OK || !v) return st;
    size_t mark = pdt_json_push(L, key);
    st = pdt_json_uint_value(L, out, v, max);
    pdt_json_pop(L, mark);
    return st;
}

/* A copy of obj[key]; absent optional keys leave *out alone. */
pdt_status pdt_json_string(pdt_json_reader *L, char **out, const json_t *obj, const char *key,
                           bool required)
{
    const json_t *v;
    pdt_status st = pdt_json_get(L, &v, obj, key, required);
    if (st != PDT_OK || !v) return st;
    size_t mark = pdt_json_push(L, key);
    st = pdt_json_expect(L, v, JSON_STRING, "a string");
    pdt_json_pop(L, mark);
    if (st != PDT_OK) return st;
    char *s = strdup(json_string_value(v));
    if (!s) return pdt_error_set(L->err, PDT_ENOMEM, "out of memory loading %s", L->file);
    free(*out);
    *out = s;
    return PDT_OK;
}

pdt_status pdt_json_bool(pdt_json_reader *L, bool *out, const json_t *obj, const char *key,
                         bool required)
{
    const json_t *v;
    pdt_status st = pdt_json_get(L, &v, obj, key, required);
    if (st != PDT_OK || !v) return st;
    size_t mark = pdt_json_push(L, key);
    st = pdt_json_expect(L, v, JSON_TRUE, "a boolean");
    pdt_json_pop(L, mark);
    if (st == PDT_OK) *out = json_is_true(v);
    return st;
}

/* An exact rational: a JSON integer or a string "-3/2", "0.125", "1e-3". */
pdt_status pdt_json_rational_value(pdt_json_reader *L, mpq_ptr out, const json_t *v)
{
    if (json_is_integer(v)) {
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
        mpq_set_str(out, text, 10);
        return PDT_OK;
    }
    if (!json_is_string(v))
        return pdt_json_error(
            L, "expected an exact rational (a string such as \"-3/2\" or an integer), found %s",
            pdt_json_type(v));
    const char *s = json_string_value(v);
    if (!pdt_parse_rational(out, s, json_string_length(v)) || mpz_sgn(mpq_denref(out)) == 0)
        return pdt_json_error(L, "not an exact rational: \"%.100s\"", s);
    mpq_canonicalize(out);
    return PDT_OK;
}
