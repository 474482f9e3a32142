/* Replays every file of tests/fuzz/corpus/<target>/ and tests/fuzz/crashes/<target>/
 * through the fuzz targets' bodies (tests/fuzz/fuzz_<target>.c), so inputs
 * that once crashed a loader stay fixed in every build, clang or not.  A body
 * aborts on a broken contract; under ASan (scripts/check) leaks fail too. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "test_util.h"

typedef int (*fuzz_body)(const uint8_t *data, size_t size);

static uint8_t *read_bytes(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    assert_non_null(buf);
    *size = len;
    return buf;
}

/* Runs every regular file of tests/fuzz/<kind>/<target>; returns how many. */
static size_t replay_dir(const char *kind, const char *target, fuzz_body body)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", tu_source("tests/fuzz"), kind);
    size_t len = strlen(dir);
    snprintf(dir + len, sizeof dir - len, "/%s", target);
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[8192];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
        size_t size = 0;
        uint8_t *data = read_bytes(path, &size);
        fprintf(stderr, "replay %s/%s/%s\n", kind, target, e->d_name);
        body(data, size);
        free(data);
        count++;
    }
    closedir(d);
    return count;
}

static void replay(const char *target, fuzz_body body)
{
    size_t seeds = replay_dir("corpus", target, body), crashes = replay_dir("crashes", target, body);
    printf("fuzz target %s: %zu corpus files, %zu crash reproducers\n", target, seeds, crashes);
    if (seeds == 0) fail_msg("tests/fuzz/corpus/%s is empty or missing", target);
}

static void test_fuzz_replay_csv(void **state) { (void)state; replay("csv", pdt_fuzz_csv); }
static void test_fuzz_replay_dl85(void **state) { (void)state; replay("dl85", pdt_fuzz_dl85); }
static void test_fuzz_replay_model_json(void **state)
{
    (void)state;
    replay("model_json", pdt_fuzz_model_json);
}
static void test_fuzz_replay_bsp(void **state) { (void)state; replay("bsp", pdt_fuzz_bsp); }
static void test_fuzz_replay_kdtree(void **state) { (void)state; replay("kdtree", pdt_fuzz_kdtree); }
static void test_fuzz_replay_chain(void **state) { (void)state; replay("chain", pdt_fuzz_chain); }
static void test_fuzz_replay_rational(void **state)
{
    (void)state;
    replay("rational", pdt_fuzz_rational);
}

/* Every directory of tests/fuzz/corpus and tests/fuzz/crashes is replayed above
 * (files beside them, like crashes/README.md, are not inputs). */
static void test_fuzz_replay_knows_every_target(void **state)
{
    (void)state;
    static const char *const targets[] = {"csv", "dl85", "model_json", "bsp", "kdtree", "chain",
                                          "rational"};
    static const char *const kinds[] = {"corpus", "crashes"};
    for (size_t k = 0; k < 2; k++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", tu_source("tests/fuzz"), kinds[k]);
        DIR *d = opendir(dir);
        assert_non_null(d);
        for (struct dirent *e; (e = readdir(d));) {
            char path[8192];
            struct stat sb;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (e->d_name[0] == '.' || stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) continue;
            bool known = false;
            for (size_t t = 0; t < sizeof targets / sizeof *targets; t++)
                known |= strcmp(e->d_name, targets[t]) == 0;
            if (!known) fail_msg("tests/fuzz/%s/%s: no such fuzz target", kinds[k], e->d_name);
        }
        closedir(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_replay_csv),      cmocka_unit_test(test_fuzz_replay_dl85),
        cmocka_unit_test(test_fuzz_replay_model_json), cmocka_unit_test(test_fuzz_replay_bsp),
        cmocka_unit_test(test_fuzz_replay_kdtree),   cmocka_unit_test(test_fuzz_replay_chain),
        cmocka_unit_test(test_fuzz_replay_rational), cmocka_unit_test(test_fuzz_replay_knows_every_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
