#include "result.h"

#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"

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

bool cli_result_save(const json_t *doc, const char *path, const char *cmd)
{
    pdt_error err;
    pdt_error_clear(&err);
    pdt_atomic_file af;
    pdt_status st = pdt_atomic_file_open(&af, path, &err);
    if (!st) {
        if (json_dumpf(doc, af.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 || fputc('\n', af.f) == EOF) {
            pdt_atomic_file_abort(&af);
            st = pdt_error_set(&err, PDT_EIO, "cannot write %s", path);
        } else {
            st = pdt_atomic_file_commit(&af, &err);
        }
    }
    if (st) fprintf(stderr, "pdt %s: option --output: %s\n", cmd, err.message);
    return !st;
}

bool cli_result_outputs(const json_t *doc, cli_option *opts, cli_render_fn render, const void *obj,
                        const char *cmd)
{
    static const char *const formats[][2] = {{"dot", "dot"}, {"svg", "svg"}, {"png", "png"}};
    const char *out = cli_get(opts, "output");
    if (out) {
        if (!doc) {
            fprintf(stderr, "pdt %s: out of memory building the result document\n", cmd);
            return false;
        }
        if (!cli_result_save(doc, out, cmd)) return false;
        cli_track_output(out);
    }
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        const char *path = cli_get(opts, formats[i][0]);
        if (!path) continue;
        pdt_error err;
        pdt_error_clear(&err);
        if (render(obj, path, formats[i][1], &err)) {
            fprintf(stderr, "pdt %s: option --%s: %s\n", cmd, formats[i][0], err.message);
            cli_remove_outputs();
            return false;
        }
        cli_track_output(path);
    }
    return true;
}
