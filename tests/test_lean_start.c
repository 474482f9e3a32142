/* The lean start (issue 18): Graphviz, cairo and what they pull in (pango,
 * fontconfig, X11) live in the drawing module libpdt_draw.so, which pdt
 * opens only when an output is drawn.  The dynamic loader says what a run
 * maps: LD_TRACE_LOADED_OBJECTS lists what the program needs at start (what
 * ldd shows), LD_DEBUG=files every object loaded during the run, dlopen'ed
 * ones included. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *const drawing_libraries[] = {"libpdt_draw", "libgvc", "libcgraph", "libcairo",
                                                "libpango", "libfontconfig", "libX11"};

/* Runs pdt under `env SETTINGS...` (NULL-terminated each); PDT_DRAW_MODULE is
 * unset unless a setting gives it, so the module is looked up beside pdt. */
static void run_with_env(tu_run *r, const char *const *settings, const char *const *args)
{
    const char *bin = getenv("PDT_BIN");
    assert_non_null(bin);
    char *argv[64];
    size_t n = 0;
    argv[n++] = "/usr/bin/env";
    argv[n++] = "-u";
    argv[n++] = "PDT_DRAW_MODULE";
    for (; *settings; settings++) argv[n++] = (char *)*settings;
    argv[n++] = (char *)bin;
    for (; *args && n < 63; args++) argv[n++] = (char *)*args;
    argv[n] = NULL;
    tu_run_argv(r, argv);
}

/* The loader's report covers the run (libc is always there) and names no drawing library. */
static void assert_maps_no_drawing(const char *report)
{
    assert_non_null(strstr(report, "libc.so"));
    for (size_t i = 0; i < sizeof drawing_libraries / sizeof *drawing_libraries; i++) {
        if (strstr(report, drawing_libraries[i]))
            fprintf(stderr, "%s is mapped:\n%s\n", drawing_libraries[i], report);
        assert_null(strstr(report, drawing_libraries[i]));
    }
}

static char *tmp_path(const char *name)
{
    char *p = malloc(strlen(tu_tmpdir()) + strlen(name) + 2);
    sprintf(p, "%s/%s", tu_tmpdir(), name);
    return p;
}

static void test_lean_start_program_needs_no_drawing_library(void **state)
{
    (void)state;
    tu_run r;
    static const char *const env[] = {"LD_TRACE_LOADED_OBJECTS=1", NULL};
    static const char *const args[] = {NULL};
    run_with_env(&r, env, args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "libgmp"));
    assert_maps_no_drawing(r.out);
    tu_run_free(&r);
}

static void test_lean_start_help_loads_no_drawing_library(void **state)
{
    (void)state;
    tu_run r;
    static const char *const env[] = {"LD_DEBUG=files", NULL};
    static const char *const args[] = {"--help", NULL};
    run_with_env(&r, env, args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: pdt COMMAND"));
    assert_maps_no_drawing(r.err);
    tu_run_free(&r);
}

/* A fit that writes a model but draws nothing never opens the module. */
static void test_lean_start_fit_loads_no_drawing_library(void **state)
{
    (void)state;
    char *json = tmp_path("lean.json");
    tu_run r;
    static const char *const env[] = {"LD_DEBUG=files", NULL};
    const char *args[] = {"fit", "--data", tu_data("iris.csv"), "--rules", "axis", "--depth", "2",
                          "-o", json, NULL};
    run_with_env(&r, env, args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "objective 6 (optimal)"));
    assert_true(tu_file_size(json) > 0);
    assert_maps_no_drawing(r.err);
    tu_run_free(&r);
    free(json);
}

/* --svg opens the module found beside pdt, which brings Graphviz. */
static void test_lean_start_svg_loads_the_module(void **state)
{
    (void)state;
    char *svg = tmp_path("lean.svg");
    tu_run r;
    static const char *const env[] = {"LD_DEBUG=files", NULL};
    const char *args[] = {"fit", "--data", tu_data("iris.csv"), "--rules", "axis", "--depth", "2",
                          "-q", "--svg", svg, NULL};
    run_with_env(&r, env, args);
    assert_int_equal(r.status, 0);
    const char *module = strstr(r.err, "libpdt_draw.so [0];  dynamically loaded by");
    if (!module) fprintf(stderr, "%s\n", r.err);
    assert_non_null(module);
    assert_non_null(strstr(r.err, "libgvc"));
    char *text = tu_read_file(svg);
    assert_non_null(text);
    assert_non_null(strstr(text, "<svg"));
    free(text);
    tu_run_free(&r);
    free(svg);
}

/* A module that cannot be loaded stops the run before the search: exit 1, a
 * message with the path and the loader's reason, no file written. */
static void test_lean_start_missing_module(void **state)
{
    (void)state;
    char *svg = tmp_path("missing.svg"), *json = tmp_path("missing.json");
    tu_run r;
    static const char *const env[] = {"PDT_DRAW_MODULE=/nonexistent/libpdt_draw.so", NULL};
    const char *args[] = {"fit", "--data", tu_data("iris.csv"), "--rules", "axis", "--depth", "2",
                          "-o", json, "--svg", svg, NULL};
    run_with_env(&r, env, args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "pdt fit: option --svg: cannot load the drawing module "
                                  "/nonexistent/libpdt_draw.so (from PDT_DRAW_MODULE)"));
    assert_non_null(strstr(r.err, "No such file"));
    assert_null(strstr(r.out, "objective"));
    assert_false(tu_exists(svg));
    assert_false(tu_exists(json));
    tu_run_free(&r);
    free(svg);
    free(json);
}

/* The same for the problem commands' pictures, and something that is not a module. */
static void test_lean_start_not_a_module(void **state)
{
    (void)state;
    char *png = tmp_path("cells.png");
    tu_run r;
    char setting[4200];
    snprintf(setting, sizeof setting, "PDT_DRAW_MODULE=%s", getenv("PDT_BIN"));
    const char *const env[] = {setting, NULL};
    const char *args[] = {"kdtree", "--data", tu_data("problems/points.csv"), "--weights", "w",
                          "--picture", png, NULL};
    run_with_env(&r, env, args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "pdt kdtree: option --picture: cannot load the drawing module"));
    assert_false(tu_exists(png));
    tu_run_free(&r);
    free(png);
}

/* The OpenMP runtime comes when a search starts threads (libpdt.so opens it
 * on demand, framework/lazy/openmp.c): a matrix chain never maps it; a fit
 * on two threads does, and runs on both.  A build that links the runtime
 * (another compiler, a sanitiser) names it among the program's
 * dependencies; there only the second half holds. */
static void test_lean_start_openmp_on_demand(void **state)
{
    (void)state;
    tu_run r;
    static const char *const listing[] = {"LD_TRACE_LOADED_OBJECTS=1", NULL}, *const no_args[] = {NULL};
    run_with_env(&r, listing, no_args);
    assert_int_equal(r.status, 0);
    bool linked = strstr(r.out, "libgomp") != NULL;
    tu_run_free(&r);
    static const char *const env[] = {"LD_DEBUG=files", NULL};
    static const char *const chain[] = {"chain", "--dims", "30 35 15 5 10 20 25", NULL};
    run_with_env(&r, env, chain);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "objective 15125 scalar multiplications (optimal)"));
    if (!linked && strstr(r.err, "libgomp")) fprintf(stderr, "%s\n", r.err);
    assert_true(linked || !strstr(r.err, "libgomp"));
    tu_run_free(&r);
    const char *fit[] = {"fit", "--data", tu_data("iris.csv"), "--rules", "axis", "--depth", "3",
                         "--threads", "2", "-q", NULL};
    run_with_env(&r, env, fit);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "(optimal)"));
    assert_non_null(strstr(r.out, "over 2 workers"));
    assert_non_null(strstr(r.err, "libgomp"));
    tu_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lean_start_program_needs_no_drawing_library),
        cmocka_unit_test(test_lean_start_help_loads_no_drawing_library),
        cmocka_unit_test(test_lean_start_fit_loads_no_drawing_library),
        cmocka_unit_test(test_lean_start_svg_loads_the_module),
        cmocka_unit_test(test_lean_start_missing_module),
        cmocka_unit_test(test_lean_start_not_a_module),
        cmocka_unit_test(test_lean_start_openmp_on_demand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
