/* Threads (issue 13): the same optimum and the same tree, node by node, for
 * 1, 2 and 4 threads, on random small instances of every family whose root
 * work is shared: the generic engine over axis, hyperplane, mixed and conic
 * rules, the hypersurface backend (conics, K <= 2) and the binary backend
 * (depth 3 and 4, accuracy and lexicographic).
 *
 * The threaded runs hand the root work out last first (PDT_WORK_LAST_FIRST,
 * framework/parallel.c), so a tie must be resolved by position — not by
 * which thread finished first — for the trees to agree.  The serial optimum is checked
 * against the paper's combination driver (an independent search path; the
 * other oracle suites check both against the brute-force specification),
 * the backend's against the fused engine's.
 * Instance i uses seed BASE_SEED + i; PDT_ORACLE_COUNT overrides the count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "oracle.h"
#include "same_tree.h"
#include "test_util.h"

#define BASE_SEED UINT64_C(0x7d13000000000000)

typedef struct family {
    const char *rules;
    uint32_t dims, max_n, max_k, degree;
    pdt_engine engine;
    int check; /* the engine whose optimum the serial fit must equal, or -1 */
} family;

static pdt_model *fit(const pdt_dataset *ds, const family *f, const oracle_case *c, uint32_t threads,
                      pdt_engine engine)
{
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = f->rules;
    o.rule_params.degree = f->degree;
    o.engine = engine;
    o.max_size = c->k;
    o.max_depth = c->max_depth;
    o.min_leaf = c->min_leaf;
    o.threads = threads;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &o, &err)) {
        printf("%s, %u threads: %s\n", f->rules, threads, err.message);
        return NULL;
    }
    return m;
}

static void make_case(oracle_case *c, const family *f, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = f->rules, .seed = seed, .dims = f->dims};
    c->n = f->max_n / 2 + tu_below(&rng, f->max_n - f->max_n / 2 + 1);
    c->n_classes = 2 + tu_below(&rng, 2);
    oracle_random_points(c, &rng);
    oracle_random_labels(c, &rng);
    c->k = 2 + tu_below(&rng, f->max_k - 1);
    c->max_depth = tu_below(&rng, 3) ? PDT_UNLIMITED : 2;
    c->min_leaf = tu_below(&rng, 4) == 0 ? 2 : 0;
}

/* One instance: false (printed) on any difference. */
static bool check_case(const family *f, uint64_t seed)
{
    oracle_case c;
    make_case(&c, f, seed);
    char csv[8192];
    oracle_csv(csv, sizeof csv, &c);
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, csv, strlen(csv), "threads.csv", NULL, &err)) {
        printf("cannot read the instance: %s\n", err.message);
        return false;
    }
    bool ok = true;
    pdt_model *serial = fit(ds, f, &c, 1, f->engine);
    ok = serial != NULL;
    if (ok && f->check >= 0) {
        pdt_model *comb = fit(ds, f, &c, 1, (pdt_engine)f->check);
        if (!comb || !mpq_equal(comb->objective, serial->objective)) {
            printf("%s: engine %d finds another optimum\n", f->rules, f->check);
            ok = false;
        }
        pdt_model_free(&comb);
    }
    static const uint32_t threads[] = {2, 4};
    for (size_t t = 0; ok && t < 2; t++) {
        pdt_model *m = fit(ds, f, &c, threads[t], f->engine);
        if (!m || !tu_same_tree(serial, m)) {
            printf("%s: %u threads give another tree than 1\n", f->rules, threads[t]);
            ok = false;
        }
        pdt_model_free(&m);
    }
    if (!ok) {
        printf("seed %#llx, K = %u, depth %u, min-leaf %u\n", (unsigned long long)seed, c.k, c.max_depth,
               c.min_leaf);
        oracle_print_case(&c);
    }
    pdt_model_free(&serial);
    pdt_dataset_free(&ds);
    return ok;
}

static size_t run(const family *f, uint64_t base, uint64_t count)
{
    const char *env = getenv("PDT_ORACLE_COUNT");
    count = env ? strtoull(env, NULL, 0) : tu_scaled(count);
    size_t failed = 0;
    for (uint64_t i = 0; i < count; i++) failed += !check_case(f, base + i);
    printf("threads oracle %s (engine %d): %llu instances, %zu failed\n", f->rules, (int)f->engine,
           (unsigned long long)count, failed);
    return failed;
}

static void test_threads_axis(void **state)
{
    (void)state;
    family f = {"axis", 2, 14, 3, 0, PDT_ENGINE_FUSED, PDT_ENGINE_COMBINATIONS};
    assert_int_equal(run(&f, BASE_SEED, 40), 0);
}

static void test_threads_hyperplane(void **state)
{
    (void)state;
    family f = {"hyperplane", 2, 12, 3, 0, PDT_ENGINE_FUSED, PDT_ENGINE_COMBINATIONS};
    assert_int_equal(run(&f, BASE_SEED + 1000, 40), 0);
}

static void test_threads_mixed(void **state)
{
    (void)state;
    family f = {"axis,hyperplane", 2, 10, 3, 0, PDT_ENGINE_FUSED, PDT_ENGINE_COMBINATIONS};
    assert_int_equal(run(&f, BASE_SEED + 2000, 30), 0);
}

static void test_threads_conic_engine(void **state)
{
    (void)state;
    family f = {"hypersurface", 2, 9, 2, 2, PDT_ENGINE_FUSED, -1};
    assert_int_equal(run(&f, BASE_SEED + 3000, 20), 0);
}

/* The hypersurface backend (engine auto, K <= 2): conics on the oracle's grid,
 * full of points on common conics (tuples with surface rows). */
static void test_threads_conic_backend(void **state)
{
    (void)state;
    family f = {"hypersurface", 2, 12, 2, 2, PDT_ENGINE_AUTO, PDT_ENGINE_FUSED};
    assert_int_equal(run(&f, BASE_SEED + 4000, 40), 0);
}

/* The same with the warm start on (the best single splits as roots, shared
 * by the workers before the enumeration): 6 of them, or every tuple in
 * value order; the warm start's winner and its ties must go by position too. */
static void test_threads_conic_backend_warm(void **state)
{
    (void)state;
    family f = {"hypersurface", 2, 12, 2, 2, PDT_ENGINE_AUTO, PDT_ENGINE_FUSED};
    setenv("PDT_HYPERSURFACE_WARM", "6", 1);
    uint64_t failed = run(&f, BASE_SEED + 4500, 10);
    setenv("PDT_HYPERSURFACE_WARM", "100000", 1);
    failed += run(&f, BASE_SEED + 4600, 6);
    setenv("PDT_HYPERSURFACE_WARM", "0", 1);
    assert_int_equal(failed, 0);
}

/* The binary backend: random 0/1 instances with few features (duplicate and
 * complementary columns, equal rows: ties everywhere), depth 3 or 4, a size
 * limit or none, plain or lexicographic.  The serial optimum must equal the
 * generic engine's; 2 and 4 threads must give the serial tree. */
static pdt_dataset *binary_instance(tu_rng *g, uint32_t *nf)
{
    uint32_t n = 24 + tu_below(g, 40), f = 5 + tu_below(g, 5), nc = 2 + (tu_below(g, 3) == 0);
    char *text = malloc((size_t)n * (2 * f + 4) + 1), *p = text;
    uint8_t col[16][64];
    for (uint32_t j = 0; j < f; j++)
        for (uint32_t i = 0; i < n; i++) {
            uint32_t kind = tu_below(g, 8);
            col[j][i] = j > 0 && kind == 0   ? col[j - 1][i]        /* a duplicate column (partly) */
                        : j > 0 && kind == 1 ? (uint8_t)!col[j - 1][i] /* a complement */
                                             : (uint8_t)tu_below(g, 2);
        }
    for (uint32_t i = 0; i < n; i++) {
        /* a depth-3 concept with noise: deep trees pay, and many tie */
        uint32_t concept = col[0][i] ? col[1][i] ^ col[2][i] : col[3][i] & col[4][i];
        uint32_t label = tu_below(g, 6) ? concept : tu_below(g, nc);
        p += sprintf(p, "%u", label);
        for (uint32_t j = 0; j < f; j++) p += sprintf(p, " %u", col[j][i]);
        *p++ = '\n';
    }
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_dl85(&ds, text, (size_t)(p - text), "threads.txt", &err))
        printf("cannot read the binary instance: %s\n", err.message);
    free(text);
    *nf = f;
    return ds;
}

static pdt_model *binary_fit(const pdt_dataset *ds, pdt_engine engine, uint32_t depth, uint32_t size, bool lex,
                             uint32_t threads)
{
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "binary";
    o.engine = engine;
    o.max_depth = depth;
    o.max_size = size;
    o.lexicographic = lex;
    o.threads = threads;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &o, &err)) printf("binary, %u threads: %s\n", threads, err.message);
    return m;
}

static bool binary_case(uint64_t seed)
{
    tu_rng g = {seed};
    uint32_t nf, depth = 3 + tu_below(&g, 2), cap = (1u << depth) - 1;
    pdt_dataset *ds = binary_instance(&g, &nf);
    uint32_t size = tu_below(&g, 3) == 0 ? PDT_UNLIMITED : depth + tu_below(&g, cap - depth + 1);
    bool lex = tu_below(&g, 2);
    if (!ds) return false;
    pdt_model *serial = binary_fit(ds, PDT_ENGINE_AUTO, depth, size, lex, 1), *generic = NULL;
    bool ok = serial && strcmp(serial->engine, "binary") == 0;
    if (ok) {
        generic = binary_fit(ds, PDT_ENGINE_FUSED, depth, size, false, 1);
        ok = generic && generic->misclassifications == serial->misclassifications;
        if (!ok) printf("binary: the generic engine finds another optimum\n");
    }
    static const uint32_t threads[] = {2, 4};
    for (size_t t = 0; ok && t < 2; t++) {
        pdt_model *m = binary_fit(ds, PDT_ENGINE_AUTO, depth, size, lex, threads[t]);
        if (!m || !tu_same_tree(serial, m)) {
            printf("binary: %u threads give another tree than 1\n", threads[t]);
            ok = false;
        }
        pdt_model_free(&m);
    }
    if (!ok)
        printf("seed %#llx: %u features, depth %u, size %u, lexicographic %d\n", (unsigned long long)seed, nf,
               depth, size, lex);
    pdt_model_free(&serial);
    pdt_model_free(&generic);
    pdt_dataset_free(&ds);
    return ok;
}

static void test_threads_binary(void **state)
{
    (void)state;
    const char *env = getenv("PDT_ORACLE_COUNT");
    uint64_t count = env ? strtoull(env, NULL, 0) : tu_scaled(100), failed = 0;
    for (uint64_t i = 0; i < count; i++) failed += !binary_case(BASE_SEED + 5000 + i);
    printf("threads oracle binary: %llu instances, %llu failed\n", (unsigned long long)count,
           (unsigned long long)failed);
    assert_int_equal(failed, 0);
}

int main(void)
{
    /* the hypersurface backend without its warm start: every winner comes
     * from the enumeration the workers share, ties included */
    setenv("PDT_HYPERSURFACE_WARM", "0", 1);
    /* threads take the last chunk of root work first: ties must go by position */
    setenv("PDT_WORK_LAST_FIRST", "1", 1);
    setenv("PDT_PARALLEL_MIN", "0", 1); /* threads however small the root work */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_conic_backend),
        cmocka_unit_test(test_threads_conic_backend_warm),
        cmocka_unit_test(test_threads_axis),
        cmocka_unit_test(test_threads_hyperplane),
        cmocka_unit_test(test_threads_mixed),
        cmocka_unit_test(test_threads_conic_engine),
        cmocka_unit_test(test_threads_binary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
