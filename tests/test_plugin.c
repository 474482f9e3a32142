/* Run-time plugins through the pdt program (issue 17): `--plugin FILE.so` and
 * $PDT_PLUGIN_PATH load the shared objects of tests/plugins/ (built beside
 * this test, linked with libpdt.so) and examples/plugins/circle.c built as the
 * plugin "disc".  A loaded family is used by name like a built-in one; every
 * broken plugin is refused with a message naming the file and what is wrong,
 * a non-zero exit and no output file. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pdt.h"
#include "test_util.h"

/* x = 1..6, classes a a b b a a: one threshold leaves 2 errors, two leave 0. */
static const char line_csv[] = "x,c\n1,a\n2,a\n3,b\n4,b\n5,a\n6,a\n";

static char *plugin(const char *name)
{
    const char *dir = getenv("PDT_TEST_PLUGINS");
    assert_non_null(dir);
    char *p = NULL;
    assert_true(asprintf(&p, "%s/%s.so", dir, name) > 0);
    return p;
}

static char *tmp_path(const char *name)
{
    char *p = NULL;
    assert_true(asprintf(&p, "%s/%s", tu_tmpdir(), name) > 0);
    return p;
}

static void expect(const tu_run *r, int status, const char *out, const char *err)
{
    if (r->status != status || (out && !strstr(r->out, out)) || (err && !strstr(r->err, err)))
        fprintf(stderr, "status %d\nstdout: %s\nstderr: %s\nexpected %d, \"%s\", \"%s\"\n", r->status,
                r->out, r->err, status, out ? out : "", err ? err : "");
    assert_int_equal(r->status, status);
    if (out) assert_non_null(strstr(r->out, out));
    if (err) assert_non_null(strstr(r->err, err));
}

static void test_plugin_family_fits_like_built_in(void **state)
{
    (void)state;
    char *data = tu_write_file("line.csv", line_csv), *tiny = plugin("good_tiny");
    tu_run r;
    tu_run_pdt(&r, "fit", "--plugin", tiny, "--data", data, "--rules", "tiny", "--size", "1", NULL);
    expect(&r, 0, "classification tree: objective 2,", NULL);
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--plugin=" "", "--rules", "axis", "--size", "1", NULL);
    expect(&r, 1, NULL, "option --plugin: plugin: empty file name"); /* --plugin= with nothing */
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "tiny,axis", "--size", "2", "--plugin", tiny, NULL);
    expect(&r, 0, "objective 0, size 2", NULL);
    tu_run_free(&r);
    tu_run_pdt(&r, "plugins", "--plugin", tiny, NULL);
    expect(&r, 0, "tiny ", NULL);
    assert_non_null(strstr(r.out, tiny));
    assert_non_null(strstr(r.out, "axis "));
    tu_run_free(&r);
    free(data);
    free(tiny);
}

/* examples/plugins/circle.c loaded as "disc" finds what the built-in circle
 * finds, and its model needs the plugin again to be read. */
static void test_plugin_circle_as_disc(void **state)
{
    (void)state;
    const char *data = tu_source("examples/data/four_lines.csv");
    char *disc = plugin("disc"), *model = tmp_path("disc.json");
    tu_run a, b;
    tu_run_pdt(&a, "fit", "--data", data, "--rules", "axis,circle", "--size", "2", NULL);
    tu_run_pdt(&b, "fit", "--plugin", disc, "--data", data, "--rules", "axis,disc", "--size", "2", "-o",
               model, NULL);
    expect(&a, 0, "classification tree: objective", NULL);
    expect(&b, 0, "classification tree: objective", NULL);
    *strrchr(a.out, ',') = *strrchr(b.out, ',') = '\0'; /* the same tree; timings aside */
    assert_string_equal(a.out, b.out);
    tu_run_free(&a);
    tu_run_free(&b);
    tu_run_pdt(&a, "predict", "--model", model, "--data", data, NULL);
    expect(&a, 1, NULL, "unknown rule family \"disc\" (not built in: is its plugin loaded?)");
    tu_run_free(&a);
    tu_run_pdt(&a, "predict", "--model", model, "--data", data, "--plugin", disc, NULL);
    expect(&a, 0, NULL, NULL);
    tu_run_free(&a);
    free(disc);
    free(model);
}

/* $PDT_PLUGIN_PATH: a file, and a directory whose *.so are all loaded. */
static void test_plugin_path_variable(void **state)
{
    (void)state;
    char *tiny = plugin("good_tiny"), *disc = plugin("disc"), *problem = plugin("good_problem");
    char *dir = tmp_path("plugin_dir"), *link1 = tmp_path("plugin_dir/a.so"),
         *link2 = tmp_path("plugin_dir/b.so"), *other = tmp_path("plugin_dir/notes.txt");
    assert_int_equal(mkdir(dir, 0700) == 0 || tu_exists(dir), 1);
    unlink(link1);
    unlink(link2);
    assert_int_equal(symlink(tiny, link1), 0);
    assert_int_equal(symlink(problem, link2), 0);
    free(tu_write_file("plugin_dir/notes.txt", "not a plugin\n"));
    char *list = NULL;
    assert_true(asprintf(&list, "%s::%s", disc, dir) > 0);
    setenv("PDT_PLUGIN_PATH", list, 1);
    tu_run r;
    tu_run_pdt(&r, "plugins", NULL);
    unsetenv("PDT_PLUGIN_PATH");
    expect(&r, 0, "disc ", NULL);
    assert_non_null(strstr(r.out, "tiny "));
    assert_non_null(strstr(r.out, link1));
    assert_non_null(strstr(r.out, "leaves ")); /* the problem plugin, listed under problems */
    assert_true(strstr(r.out, "leaves ") > strstr(r.out, "problems:"));
    tu_run_free(&r);
    setenv("PDT_PLUGIN_PATH", "/nonexistent/x.so", 1);
    tu_run_pdt(&r, "plugins", NULL);
    unsetenv("PDT_PLUGIN_PATH");
    expect(&r, 1, NULL, "pdt: PDT_PLUGIN_PATH: plugin /nonexistent/x.so: no such file");
    tu_run_free(&r);
    free(tiny), free(disc), free(problem), free(dir), free(link1), free(link2), free(other), free(list);
}

/* A refused plugin: exit 1, the message, and no output file. */
static void expect_refused(const char *name, const char *message)
{
    char *p = plugin(name), *data = tu_write_file("line.csv", line_csv), *out = tmp_path("refused.json");
    tu_run r;
    tu_run_pdt(&r, "fit", "--plugin", p, "--data", data, "--rules", "axis", "--size", "1", "-o", out, NULL);
    expect(&r, 1, NULL, message);
    assert_non_null(strstr(r.err, p)); /* the file is named */
    assert_false(tu_exists(out));
    tu_run_free(&r);
    free(p), free(data), free(out);
}

static void test_plugin_refused(void **state)
{
    (void)state;
    expect_refused("bad_abi", "built for plugin ABI 2, this pdt (0.1.0) loads ABI 1: rebuild it");
    expect_refused("no_record", "no symbol \"pdt_plugin\": not a pdt plugin");
    expect_refused("no_class", "its pdt_plugin record lists no rule or problem class");
    expect_refused("no_slot", "rule family \"tiny_noslot\": a required slot (generate, sides, "
                              "export_rule, classify, describe) is NULL");
    expect_refused("dup_axis", "rule family \"axis\" is already registered (built in)");
    expect_refused("undefined", "cannot be loaded: ");
    expect_refused("undefined", "undefined symbol: pdt_no_such_function");
    expect_refused("missing", "no such file");
    tu_run r;
    tu_run_pdt(&r, "fit", "--plugin", NULL);
    expect(&r, 1, NULL, "option --plugin: missing FILE.so");
    tu_run_free(&r);
}

static void test_plugin_loaded_twice(void **state)
{
    (void)state;
    char *tiny = plugin("good_tiny");
    tu_run r;
    tu_run_pdt(&r, "plugins", "--plugin", tiny, "--plugin", tiny, NULL);
    expect(&r, 1, NULL, "rule family \"tiny\" is already registered (by ");
    tu_run_free(&r);
    free(tiny);
}

/* The engine checks what a loaded family's sides returns as it checks a
 * built-in one: a row past the last one is refused, the fit writes nothing. */
static void test_plugin_sides_checked(void **state)
{
    (void)state;
    char *bad = plugin("bad_side"), *data = tu_write_file("line.csv", line_csv);
    char *out = tmp_path("bad_side.json");
    tu_run r;
    tu_run_pdt(&r, "fit", "--plugin", bad, "--data", data, "--rules", "axis,tiny_badside", "--size", "1",
               "-o", out, NULL);
    expect(&r, 3, NULL, "rule plugin \"tiny_badside\": rule 5 sets bits beyond the last item");
    assert_false(tu_exists(out));
    tu_run_free(&r);
    free(bad), free(data), free(out);
}

/* This test program has libpdt linked in statically; a plugin linked with
 * libpdt.so would bring a second copy of the library into the process, so
 * the loader refuses it (docs/writing-a-rule.md, "One library per process"). */
static void test_plugin_static_host_refuses_second_copy(void **state)
{
    (void)state;
    char *tiny = plugin("good_tiny");
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_plugin_load(tiny, &err), PDT_EPLUGIN);
    assert_non_null(strstr(err.message, tiny));
    assert_non_null(strstr(err.message, "libpdt.so.0, a second copy of libpdt beside the one this "
                                        "program has built in"));
    assert_null(pdt_rule_class_find("tiny"));
    free(tiny);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_family_fits_like_built_in),
        cmocka_unit_test(test_plugin_circle_as_disc),
        cmocka_unit_test(test_plugin_path_variable),
        cmocka_unit_test(test_plugin_refused),
        cmocka_unit_test(test_plugin_loaded_twice),
        cmocka_unit_test(test_plugin_sides_checked),
        cmocka_unit_test(test_plugin_static_host_refuses_second_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
