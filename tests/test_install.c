/* The installed library (issue 17): `cmake --install` of this build tree into
 * a temporary prefix (no rebuild), then what a plugin author does there:
 *   - the installed headers alone compile in C11 with -Wall -Wextra -pedantic
 *     and in C++;
 *   - examples/plugins/circle.c builds as a plugin with nothing but
 *     `pkg-config --cflags --libs pdt`, and once more through
 *     find_package(pdt) (examples/plugins/CMakeLists.txt);
 *   - the installed pdt refuses the unchanged circle.so (its name is taken by
 *     the built-in circle) and, on the circle oracle instances (the seeds of
 *     tests/oracle_circle.c, whose built-in optimum that test checks against
 *     the brute-force specification), prints with either renamed copy loaded
 *     the same optimal tree as with the built-in registration.
 * Skipped (exit 77, with the reason) when pkg-config is not installed. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle.h"
#include "test_util.h"

#define SEED_CIRCLE UINT64_C(0xc1c1e00000000000) /* as tests/oracle_circle.c */
#define SEED_MIXED UINT64_C(0xc1c1e10000000000)
#define BUDGET 1000000

static char *prefix, *work;

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = NULL;
    assert_true(vasprintf(&s, f, ap) > 0);
    va_end(ap);
    return s;
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v) fprintf(stderr, "test_install: %s is not set (run through ctest)\n", name);
    assert_true(v && *v);
    return v;
}

/* Runs `sh -c script`; fails the test with its output unless it exits 0. */
static void sh(const char *script)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    tu_run r;
    tu_run_argv(&r, argv);
    if (r.status) fprintf(stderr, "$ %s\nexit %d\n%s%s", script, r.status, r.out, r.err);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
}

static int setup(void **state)
{
    (void)state;
    prefix = fmt("%s/prefix", tu_tmpdir());
    work = fmt("%s/work", tu_tmpdir());
    char *cmd = fmt("rm -rf '%s' '%s' && mkdir -p '%s' && '%s' --install '%s' --prefix '%s' >/dev/null",
                    prefix, work, work, env("PDT_CMAKE"), env("PDT_BUILD_DIR"), prefix);
    sh(cmd);
    free(cmd);
    return 0;
}

static char *pkg_config(const char *args)
{
    return fmt("PKG_CONFIG_PATH='%s/%s/pkgconfig' '%s' %s", prefix, env("PDT_LIBDIR"),
               env("PDT_PKG_CONFIG"), args);
}

static void test_install_headers_compile_alone(void **state)
{
    (void)state;
    char *src = fmt("%s/headers.c", work);
    FILE *f = fopen(src, "w");
    assert_non_null(f);
    fputs("#include <pdt.h>\n#include <pdt_plugin.h>\n#include <pdt_geometry.h>\n"
          "#include <pdt_linalg.h>\n#include <bitset.h>\n"
          "int main(void) { return PDT_PLUGIN_ABI == 0 || pdt_bits_words(65) != 2; }\n", f);
    fclose(f);
    char *flags = pkg_config("--cflags pdt");
    char *c = fmt("'%s' -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only $(%s) '%s'", env("PDT_CC"),
                  flags, src);
    sh(c);
    const char *cxx = getenv("PDT_CXX");
    if (cxx && *cxx && strstr(cxx, "NOTFOUND") == NULL) {
        char *cpp = fmt("'%s' -x c++ -std=c++11 -Wall -Wextra -pedantic -Werror -fsyntax-only $(%s) '%s'",
                        cxx, flags, src);
        sh(cpp);
        free(cpp);
    } else {
        fprintf(stderr, "test_install: no C++ compiler found: the C++ check did not run\n");
        fail();
    }
    free(src), free(flags), free(c);
}

/* The first line of each ("classification tree: objective ..., optimal") and
 * the tree, i.e. everything but the timing line. */
static char *without_last_line(const char *out)
{
    char *s = strdup(out);
    size_t n = strlen(s);
    if (n && s[n - 1] == '\n') s[--n] = '\0';
    char *last = strrchr(s, '\n');
    if (last) last[1] = '\0';
    return s;
}

static void make_case(oracle_case *c, uint64_t seed, const char *rules)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = rules, .seed = seed};
    c->dims = 2;
    c->n = 3 + tu_below(&rng, 6);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    oracle_random_options(c, &rng, 3, BUDGET);
}

/* Options of an oracle case as pdt fit arguments. */
static char *case_args(const oracle_case *c)
{
    char weights[128] = "";
    size_t len = 0;
    for (size_t k = 0; c->weighted && k < c->n_classes; k++) {
        bool present = false;
        for (size_t i = 0; i < c->n; i++) present |= c->label[i] == k;
        if (present)
            len += (size_t)snprintf(weights + len, sizeof weights - len, "%s%s=%g", len ? "," : "",
                                    c->names[k], (double)c->weight4[k] / 4);
    }
    char depth[32] = "";
    if (c->max_depth != PDT_UNLIMITED) snprintf(depth, sizeof depth, " --depth %u", c->max_depth);
    return fmt("--size %u%s --min-leaf %u%s%s", c->k, depth, c->min_leaf, *weights ? " --class-weights " : "",
               weights);
}

static char *fit_output(const char *plugin, const char *rules, const char *data, const char *args)
{
    char *cmd = fmt("'%s/bin/pdt' fit %s%s --data '%s' --rules %s %s", prefix, plugin ? "--plugin " : "",
                    plugin ? plugin : "", data, rules, args);
    char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    tu_run r;
    tu_run_argv(&r, argv);
    if (r.status) fprintf(stderr, "$ %s\nexit %d\n%s", cmd, r.status, r.err);
    assert_int_equal(r.status, 0);
    char *out = without_last_line(r.out);
    tu_run_free(&r);
    free(cmd);
    return out;
}

/* `count` instances of one family: the built-in circle and both plugins
 * print the same optimum and tree (names aside, their rules print alike). */
static void compare(const char *builtin, const char *const *plugins, const char *const *rules,
                    uint64_t seed, size_t count)
{
    char csv[8192];
    for (size_t i = 0; i < count; i++) {
        oracle_case c;
        make_case(&c, seed + i, builtin);
        oracle_csv(csv, sizeof csv, &c);
        char *data = fmt("%s/case.csv", work);
        FILE *f = fopen(data, "w");
        assert_non_null(f);
        fputs(csv, f);
        fclose(f);
        char *args = case_args(&c);
        char *want = fit_output(NULL, builtin, data, args);
        assert_non_null(strstr(want, "objective "));
        for (size_t p = 0; plugins[p]; p++) {
            char *got = fit_output(plugins[p], rules[p], data, args);
            if (strcmp(got, want)) {
                fprintf(stderr, "instance %zu (seed %llx), %s vs %s:\n%s\n---\n%s", i,
                        (unsigned long long)c.seed, builtin, rules[p], want, got);
                oracle_print_case(&c);
            }
            assert_string_equal(got, want);
            free(got);
        }
        free(want), free(args), free(data);
    }
}

static void test_install_circle_plugin_out_of_tree(void **state)
{
    (void)state;
    const char *cc = env("PDT_CC");
    char *src = strdup(tu_source("examples/plugins/circle.c")); /* tu_source reuses its buffer */
    char *libs = pkg_config("--cflags --libs pdt");
    /* 1. the docs' command, unchanged: builds, loads, and is refused by name */
    char *circle = fmt("%s/circle.so", work), *disc_pc = fmt("%s/disc_pc.so", work);
    char *cmd = fmt("'%s' -shared -fPIC -O2 -o '%s' '%s' $(%s)", cc, circle, src, libs);
    sh(cmd);
    free(cmd);
    char *run = fmt("'%s/bin/pdt' fit --plugin '%s' --data '%s' --rules circle --size 1", prefix, circle,
                    tu_source("examples/data/four_lines.csv"));
    char *argv[] = {"/bin/sh", "-c", run, NULL};
    tu_run r;
    tu_run_argv(&r, argv);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "rule family \"circle\" is already registered (built in)"));
    tu_run_free(&r);
    free(run);
    /* 2. the same under another name, with pkg-config only */
    cmd = fmt("'%s' -shared -fPIC -O2 -DCIRCLE_NAME='\"disc_pc\"' -o '%s' '%s' $(%s)", cc, disc_pc, src, libs);
    sh(cmd);
    free(cmd);
    /* 3. through find_package(pdt) */
    char *bdir = fmt("%s/cmake-build", work), *disc_cm = fmt("%s/cmake-build/circle.so", work);
    cmd = fmt("'%s' -S '%s' -B '%s' -DCMAKE_PREFIX_PATH='%s' -DCMAKE_C_COMPILER='%s' "
              "-DCMAKE_BUILD_TYPE=Release -DCIRCLE_NAME=disc_cm >/dev/null && '%s' --build '%s' >/dev/null",
              env("PDT_CMAKE"), tu_source("examples/plugins"), bdir, prefix, cc, env("PDT_CMAKE"), bdir);
    sh(cmd);
    free(cmd);
    /* 4. the same optima and trees as the built-in registration */
    const char *plugins[] = {disc_pc, disc_cm, NULL};
    const char *alone[] = {"disc_pc", "disc_cm", NULL};
    const char *mixed[] = {"axis,disc_pc", "axis,disc_cm", NULL};
    const char *n = getenv("PDT_INSTALL_CASES");
    size_t count = n ? strtoul(n, NULL, 10) : 40;
    compare("circle", plugins, alone, SEED_CIRCLE, count);
    compare("axis,circle", plugins, mixed, SEED_MIXED, count / 2);
    free(src), free(libs), free(circle), free(disc_pc), free(bdir), free(disc_cm);
}

int main(void)
{
    const char *pc = getenv("PDT_PKG_CONFIG");
    if (!pc || !*pc || access(pc, X_OK) != 0) {
        printf("test_install: SKIPPED: pkg-config was not found when the build was configured "
               "(apt-get install pkg-config)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_install_headers_compile_alone),
        cmocka_unit_test(test_install_circle_plugin_out_of_tree),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
