#include "result.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void gmp_free_str(char *s)
{
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    gmp_free(s, strlen(s) + 1);
}

json_t *cli_json_mpz(mpz_srcptr z)
{
    if (mpz_sizeinbase(z, 2) <= 53) return json_integer((json_int_t)mpz_get_si(z));
    char *s = mpz_get_str(NULL, 10, z);
    json_t *j = json_string(s);
    gmp_free_str(s);
    return j;
}

json_t *cli_json_mpq(mpq_srcptr q)
{
    if (mpz_cmp_ui(mpq_denref(q), 1) == 0) return cli_json_mpz(mpq_numref(q));
    char *s = mpq_get_str(NULL, 10, q);
    json_t *j = json_string(s);
    gmp_free_str(s);
    return j;
}

json_t *cli_result_new(const char *problem, json_t *objective, bool optimal)
{
    if (!objective) return NULL;
    return json_pack("{s:s, s:i, s:s, s:s, s:o, s:b}", "format", "pdt-result", "version", 1, "pdt",
                     PDT_VERSION_STRING, "problem", problem, "objective", objective, "optimal", optimal);
}

bool cli_result_set(json_t *doc, const char *key, json_t *value)
{
    return value && json_object_set_new(doc, key, value) == 0;
}

/* The JSON document into a file pdt owns (a staged temporary file). */
static bool dump_json(const json_t *doc, const char *path)
{
    FILE *f = cli_outputs_open(path);
    if (!f) return false;
    bool ok = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', f) != EOF;
    ok = !ferror(f) && ok;
    return fclose(f) == 0 && ok;
}

bool cli_result_write(cli_outputs *set, const json_t *doc, cli_render_fn render, const void *obj)
{
    static const char *const renders[] = {"dot", "svg", "png"};
    const char *path = NULL;
    if (!cli_outputs_stage(&path, set, "output")) return false;
    if (path && !doc) {
        cli_outputs_fail(set, "output", "out of memory building the result document");
        return false;
    }
    if (path && !dump_json(doc, path)) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot write the result document: %s", strerror(errno));
        cli_outputs_fail(set, "output", msg);
        return false;
    }
    for (size_t i = 0; i < sizeof renders / sizeof *renders; i++) {
        if (!cli_outputs_stage(&path, set, renders[i])) return false;
        if (!path) continue;
        pdt_error err;
        pdt_error_clear(&err);
        if (render(obj, path, renders[i], &err)) {
            cli_outputs_fail(set, renders[i], err.message);
            return false;
        }
    }
    return true;
}
