/* Reading JSON with jansson: typed accessors whose errors name the file and
 * the JSON path of the value at fault ("model.json: tree.left.items: ..."). */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json_path.h"

static const char *jl_type(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "an unknown value";
}

pdt_status jl_error(jload *L, const char *fmt, ...)
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

pdt_status jl_prefix(jload *L)
{
    if (L->path.len && L->path.data) return pdt_error_prefix(L->err, "%s: %s: ", L->file, L->path.data);
    return pdt_error_prefix(L->err, "%s: ", L->file);
}

size_t jl_push(jload *L, const char *key)
{
    size_t mark = L->path.len;
    pdt_buf_printf(&L->path, "%s%s", mark ? "." : "", key);
    return mark;
}

size_t jl_push_index(jload *L, size_t k)
{
    size_t mark = L->path.len;
    pdt_buf_printf(&L->path, "[%zu]", k);
    return mark;
}

void jl_pop(jload *L, size_t mark)
{
    if (mark > L->path.len) return;
    L->path.len = mark;
    if (L->path.data) L->path.data[mark] = '\0';
}

pdt_status jl_expect(jload *L, const json_t *v, json_type type, const char *what)
{
    bool ok = json_typeof(v) == type || (type == JSON_TRUE && json_is_boolean(v));
    return ok ? PDT_OK : jl_error(L, "expected %s, found %s", what, jl_type(v));
}

pdt_status jl_get(jload *L, const json_t **out, const json_t *obj, const char *key, bool required)
{
    *out = json_object_get(obj, key);
    if (!*out && required) return jl_error(L, "missing key \"%s\"", key);
    return PDT_OK;
}

pdt_status jl_uint_value(jload *L, uint64_t *out, const json_t *v, uint64_t max)
{
    if (!json_is_integer(v)) return jl_error(L, "expected a non-negative integer, found %s", jl_type(v));
    json_int_t x = json_integer_value(v);
    if (x < 0) return jl_error(L, "expected a non-negative integer, found %lld", (long long)x);
    if ((uint64_t)x > max)
        return jl_error(L, "%lld is too large (at most %llu)", (long long)x, (unsigned long long)max);
    *out = (uint64_t)x;
    return PDT_OK;
}

pdt_status jl_uint(jload *L, uint64_t *out, const json_t *obj, const char *key, uint64_t max,
                   bool required)
{
    const json_t *v;
    pdt_status st = jl_get(L, &v, obj, key, required);
    if (st != PDT_OK || !v) return st;
    size_t mark = jl_push(L, key);
    st = jl_uint_value(L, out, v, max);
    jl_pop(L, mark);
    return st;
}

/* A copy of obj[key]; absent optional keys leave *out alone. */
pdt_status jl_string(jload *L, char **out, const json_t *obj, const char *key, bool required)
{
    const json_t *v;
    pdt_status st = jl_get(L, &v, obj, key, required);
    if (st != PDT_OK || !v) return st;
    size_t mark = jl_push(L, key);
    st = jl_expect(L, v, JSON_STRING, "a string");
    jl_pop(L, mark);
    if (st != PDT_OK) return st;
    char *s = strdup(json_string_value(v));
    if (!s) return pdt_error_set(L->err, PDT_ENOMEM, "out of memory loading %s", L->file);
    free(*out);
    *out = s;
    return PDT_OK;
}

pdt_status jl_bool(jload *L, bool *out, const json_t *obj, const char *key, bool required)
{
    const json_t *v;
    pdt_status st = jl_get(L, &v, obj, key, required);
    if (st != PDT_OK || !v) return st;
    size_t mark = jl_push(L, key);
    st = jl_expect(L, v, JSON_TRUE, "a boolean");
    jl_pop(L, mark);
    if (st == PDT_OK) *out = json_is_true(v);
    return st;
}

/* An exact rational: a JSON integer or a string "-3/2", "0.125", "1e-3". */
pdt_status jl_rational_value(jload *L, mpq_ptr out, const json_t *v)
{
    if (json_is_integer(v)) {
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
        mpq_set_str(out, text, 10);
        return PDT_OK;
    }
    if (!json_is_string(v))
        return jl_error(L, "expected an exact rational (a string such as \"-3/2\" or an integer), found %s",
                        jl_type(v));
    const char *s = json_string_value(v);
    if (!pdt_parse_rational(out, s, json_string_length(v)) || mpz_sgn(mpq_denref(out)) == 0)
        return jl_error(L, "not an exact rational: \"%.100s\"", s);
    mpq_canonicalize(out);
    return PDT_OK;
}
