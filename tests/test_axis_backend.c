/* The axis family's backends (rules/axis_solve.c): misclassifications go to
 * the numeric backend, the sparse objective to the binary-feature backend.
 * Both give the same optimum as the fused engine over the D·N candidate list
 * and a model of genuine axis rules (each threshold is a training value of a
 * row in the node's region); options neither takes fall back to the fused
 * engine; the sparse objective equals the minimum over sizes of plain fits.
 * The brute-force agreement on small instances is in oracle_axis (engine
 * auto); random instances against the fused engine in oracle_axis_numeric. */
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "test_util.h"

static pdt_dataset *csv_file(const char *name, bool skip_nonnumeric)
{
    pdt_csv_options co = {0};
    co.skip_nonnumeric = skip_nonnumeric;
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_load_csv(&ds, tu_data(name), &co, &err)) fail_msg("%s", err.message);
    return ds;
}

static pdt_model *fit(const pdt_dataset *ds, pdt_engine engine, uint32_t size, uint32_t depth,
                      const char *sparse)
{
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "axis";
    o.engine = engine;
    o.max_size = size;
    o.max_depth = depth;
    o.sparse = sparse;
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("fit: %s", err.message);
    assert_true(m->optimal);
    return m;
}

/* Rows reaching node i, by exact classify from the root. */
static void node_rows(uint64_t *rows, const pdt_model *m, const pdt_dataset *ds, int32_t node)
{
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    mpq_t *x = malloc(d * sizeof *x);
    for (size_t j = 0; j < d; j++) mpq_init(x[j]);
    memset(rows, 0, ((n + 63) / 64) * sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < d; j++) pdt_dataset_value_exact(x[j], ds, i, j);
        int32_t at = 0;
        while (at != node && m->nodes[at].rule >= 0) {
            const pdt_rule *r = &m->rules[m->nodes[at].rule];
            bool left = false;
            pdt_error err;
            assert_int_equal(r->cls->classify(&left, r, x[0], d, &err), PDT_OK);
            at = left ? m->nodes[at].left : m->nodes[at].right;
        }
        if (at == node) rows[i / 64] |= UINT64_C(1) << (i % 64);
    }
    for (size_t j = 0; j < d; j++) mpq_clear(x[j]);
    free(x);
}

/* Every branch rule is an axis rule x[j] ≤ p[j] for a row p in its region. */
static void assert_axis_model(const pdt_model *m, const pdt_dataset *ds)
{
    size_t n = pdt_dataset_rows(ds);
    uint64_t *rows = calloc((n + 63) / 64 + 1, sizeof *rows);
    mpq_t v;
    mpq_init(v);
    for (size_t k = 0; k < m->n_nodes; k++) {
        if (m->nodes[k].rule < 0) continue;
        const pdt_rule *r = &m->rules[m->nodes[k].rule];
        assert_string_equal(r->cls->name, "axis");
        node_rows(rows, m, ds, (int32_t)k);
        bool defined = false;
        for (size_t i = 0; i < n && !defined; i++) {
            if (!(rows[i / 64] >> (i % 64) & 1)) continue;
            pdt_dataset_value_exact(v, ds, i, (size_t)r->ints[0]);
            defined = mpq_equal(v, r->rats[0]);
        }
        assert_true(defined);
    }
    mpq_clear(v);
    free(rows);
}

static void same_optimum(const pdt_dataset *ds, uint32_t size, uint32_t depth)
{
    pdt_model *a = fit(ds, PDT_ENGINE_AUTO, size, depth, NULL);
    pdt_model *f = fit(ds, PDT_ENGINE_FUSED, size, depth, NULL);
    if (!mpq_equal(a->objective, f->objective))
        fail_msg("%s, size %u, depth %u: backend %ld, fused %ld", pdt_dataset_name(ds), size, depth,
                 mpz_get_si(mpq_numref(a->objective)), mpz_get_si(mpq_numref(f->objective)));
    assert_string_equal(a->engine, "numeric");
    assert_string_equal(f->engine, "fused");
    assert_string_equal(a->families, "axis");
    assert_true(a->size <= size && a->depth <= depth);
    assert_int_equal(a->misclassifications, mpz_get_ui(mpq_numref(a->objective)));
    assert_axis_model(a, ds);
    pdt_model_free(&a);
    pdt_model_free(&f);
}

static void test_axis_backend_same_optimum(void **state)
{
    (void)state;
    static const struct { const char *file; bool skip; } sets[] = {
        {"iris.csv", false}, {"mouse.csv", false}, {"zoo.csv", true}, {"tiny.csv", false}};
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        pdt_dataset *ds = csv_file(sets[s].file, sets[s].skip);
        for (uint32_t k = 1; k <= 4; k++) {
            same_optimum(ds, k, 2);
            same_optimum(ds, k, 3);
            same_optimum(ds, k, PDT_UNLIMITED);
        }
        pdt_dataset_free(&ds);
    }
}

/* Options the backend does not take go to the fused engine, with its answer. */
static void test_axis_backend_fallbacks(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_file("iris.csv", false);
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "axis";
    o.max_size = 3;
    o.min_leaf = 5;
    pdt_model *m = NULL;
    pdt_error err;
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_OK);
    assert_string_equal(m->engine, "fused");
    pdt_model_free(&m);
    o.min_leaf = 0;
    o.class_weights = "0.0=1,1.0=2,2.0=1"; /* the numeric backend takes class weights */
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_OK);
    assert_string_equal(m->engine, "numeric");
    pdt_model_free(&m);
    o.lexicographic = true; /* ... but not with --lexicographic: the fused engine ranks (cost, nodes) */
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_OK);
    assert_string_equal(m->engine, "fused");
    assert_true(pdt_model_size_minimal(m));
    pdt_model_free(&m);
    o.class_weights = NULL;
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_OK);
    assert_string_equal(m->engine, "binary");
    pdt_model_free(&m);
    o.lexicographic = false;
    o.class_weights = "z=2"; /* the option's error, not the backend's */
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_EINVAL);
    assert_true(strncmp(err.message, "option --class-weights: no class \"z\"", 36) == 0);
    o.class_weights = NULL;
    o.min_leaf = 5;
    o.engine = PDT_ENGINE_BACKEND;
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "--engine backend"));
    assert_null(m);
    pdt_dataset_free(&ds);
}

/* Sparse: the optimum of errors/N + α·k is the minimum over k of T(k)/N + α·k,
 * T(k) from plain fused fits (iris, depth 3, α = 1/100 and 1/20). */
static void test_axis_backend_sparse(void **state)
{
    (void)state;
    pdt_dataset *ds = csv_file("iris.csv", false);
    static const char *const alphas[] = {"0.01", "0.05"};
    static const long den[] = {100, 20};
    for (size_t a = 0; a < 2; a++) {
        mpq_t best, v;
        mpq_inits(best, v, NULL);
        for (uint32_t k = 0; k <= 7; k++) {
            pdt_model *f = fit(ds, PDT_ENGINE_FUSED, k, 3, NULL);
            /* T(k)/150 + k/den */
            mpq_set_ui(v, (unsigned long)mpz_get_ui(mpq_numref(f->objective)) * (unsigned long)den[a] +
                              150UL * k, 150UL * (unsigned long)den[a]);
            mpq_canonicalize(v);
            if (k == 0 || mpq_cmp(v, best) < 0) mpq_set(best, v);
            pdt_model_free(&f);
        }
        pdt_model *m = fit(ds, PDT_ENGINE_AUTO, 7, 3, alphas[a]);
        assert_true(mpq_equal(m->objective, best));
        assert_string_equal(m->sparse, alphas[a]);
        assert_string_equal(m->engine, "binary");
        assert_axis_model(m, ds);
        pdt_model_free(&m);
        mpq_clears(best, v, NULL);
    }
    pdt_dataset_free(&ds);
}

static void count_report(void *user, const pdt_progress *p)
{
    (void)p;
    ++*(int *)user;
}

/* A search that cannot finish in time (4000 rows of random labels in three
 * classes, 6 features with 1000 values each, depth 4): the numeric backend
 * returns after the limit with its best tree flagged not optimal, a tree that
 * costs what it reports, within the limits, after reporting progress. */
/* N rows of 6 features with 1000 values each and random labels x, y, z. */
static pdt_dataset *random_rows(size_t n, uint64_t seed)
{
    enum { F = 6 };
    size_t cap = n * (F * 5 + 4) + 64, len = 0;
    char *csv = malloc(cap);
    tu_rng rng = {seed};
    len += (size_t)snprintf(csv + len, cap - len, "a,b,c,d,e,f,class\n");
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < F; j++) len += (size_t)snprintf(csv + len, cap - len, "%u,", tu_below(&rng, 1000));
        len += (size_t)snprintf(csv + len, cap - len, "%c\n", "xyz"[tu_below(&rng, 3)]);
    }
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_read_csv(&ds, csv, len, "random.csv", &(pdt_csv_options){0}, &err)) fail_msg("%s", err.message);
    free(csv);
    return ds;
}

static void test_axis_backend_time_limit(void **state)
{
    (void)state;
    enum { N = 4000 };
    pdt_dataset *ds = random_rows(N, 0x71e1);
    pdt_error err;
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "axis";
    o.max_depth = 4;
    o.time_limit = 1.5;
    int reports = 0;
    o.progress = count_report;
    o.progress_user = &reports;
    pdt_model *m = NULL;
    assert_int_equal(pdt_fit(&m, ds, &o, &err), PDT_OK);
    assert_string_equal(m->engine, "numeric");
    assert_false(m->optimal);
    assert_true(reports >= 1);
    assert_true(m->depth <= 4 && m->size <= 15);
    uint32_t *pred = malloc(N * sizeof *pred);
    assert_int_equal(pdt_model_predict(pred, m, ds, &err), PDT_OK);
    uint64_t wrong = 0, count[3] = {0};
    for (size_t i = 0; i < N; i++) wrong += pred[i] != pdt_dataset_label(ds, i), count[pdt_dataset_label(ds, i)]++;
    assert_int_equal(wrong, mpz_get_ui(mpq_numref(m->objective)));
    uint64_t most = count[0] > count[1] ? count[0] : count[1];
    assert_true(wrong < N - (most > count[2] ? most : count[2])); /* better than a leaf */
    free(pred);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

/* The model as text: every rule with its exact threshold, every leaf. */
static char *tree_text(const pdt_model *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    pdt_error err;
    assert_non_null(f);
    assert_int_equal(pdt_model_write_text(m, f, &err), PDT_OK);
    fclose(f);
    return text;
}

/* The tree of a fit with 1, 2, 3 and 4 threads is the same, rule for rule. */
static void same_tree_any_threads(const pdt_dataset *ds, const pdt_model *want, uint32_t depth)
{
    char *a = tree_text(want), *b = NULL;
    pdt_error err;
    for (uint32_t t = 1; t <= 4; t++) {
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        o.rules = "axis";
        o.max_depth = depth;
        o.threads = t;
        pdt_model *m = NULL;
        if (pdt_fit(&m, ds, &o, &err)) fail_msg("fit with %u threads: %s", t, err.message);
        b = tree_text(m);
        if (strcmp(a, b) != 0) fail_msg("%u threads: a different tree\n%s\nthan with the default:\n%s", t, b, a);
        free(b);
        pdt_model_free(&m);
    }
    free(a);
}

/* 20 000 random rows in three classes (the multi-class sweep, above the size
 * from which an evaluation is threaded): the same tree with any number of
 * threads. */
static void test_axis_backend_threads_same_tree(void **state)
{
    (void)state;
    pdt_dataset *ds = random_rows(20000, 0x7e4d);
    pdt_model *m = fit(ds, PDT_ENGINE_AUTO, PDT_UNLIMITED, 2, NULL);
    same_tree_any_threads(ds, m, 2);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

/* Depth-2 optimum of 2-D data on a V×V grid with two classes by brute force
 * over the grid's cell counts: every root threshold, and for each side a leaf
 * or any stump. */
enum { V = 16 };

static uint64_t box_leaf(const uint64_t h[V][V][2], const unsigned lo[2], const unsigned hi[2])
{
    uint64_t c[2] = {0, 0};
    for (unsigned a = lo[0]; a <= hi[0]; a++)
        for (unsigned b = lo[1]; b <= hi[1]; b++) c[0] += h[a][b][0], c[1] += h[a][b][1];
    return c[0] < c[1] ? c[0] : c[1];
}

static uint64_t box_stump(const uint64_t h[V][V][2], const unsigned lo[2], const unsigned hi[2])
{
    uint64_t best = box_leaf(h, lo, hi);
    for (unsigned g = 0; g < 2; g++)
        for (unsigned u = lo[g]; u < hi[g]; u++) {
            unsigned lh[2] = {hi[0], hi[1]}, rl[2] = {lo[0], lo[1]};
            lh[g] = u;
            rl[g] = u + 1;
            uint64_t c = box_leaf(h, lo, lh) + box_leaf(h, rl, hi);
            if (c < best) best = c;
        }
    return best;
}

static uint64_t grid_depth2(const uint64_t h[V][V][2])
{
    const unsigned lo[2] = {0, 0}, hi[2] = {V - 1, V - 1};
    uint64_t best = box_stump(h, lo, hi);
    for (unsigned f = 0; f < 2; f++)
        for (unsigned t = 0; t + 1 < V; t++) {
            unsigned lh[2] = {V - 1, V - 1}, rl[2] = {0, 0};
            lh[f] = t;
            rl[f] = t + 1;
            uint64_t c = box_stump(h, lo, lh) + box_stump(h, rl, hi);
            if (c < best) best = c;
        }
    return best;
}

/* More rows of one class in one part than the two-class sweep's 16-bit
 * counters hold (150 000 on a 16×16 grid; the class is (a ≥ 12) xor
 * (b ≥ 12) with 5 % noise, so the best root a ≤ 11 leaves about 84 000 rows
 * of class 0 on its left, all swept before the left child's best threshold
 * b ≤ 11): the depth-2 optimum equals the brute force over the grid. */
static void test_axis_backend_many_rows(void **state)
{
    (void)state;
    enum { N = 150000 };
    size_t cap = (size_t)N * 10 + 64, len = 0;
    char *csv = malloc(cap);
    static uint64_t h[V][V][2];
    memset(h, 0, sizeof h);
    tu_rng rng = {0x5eed};
    len += (size_t)snprintf(csv + len, cap - len, "a,b,class\n");
    for (int i = 0; i < N; i++) {
        unsigned a = tu_below(&rng, V), b = tu_below(&rng, V);
        unsigned y = (a >= 12) ^ (b >= 12) ^ (tu_below(&rng, 100) < 5);
        h[a][b][y]++;
        len += (size_t)snprintf(csv + len, cap - len, "%u,%u,%u\n", a, b, y);
    }
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_read_csv(&ds, csv, len, "grid.csv", &(pdt_csv_options){0}, &err)) fail_msg("%s", err.message);
    pdt_model *m = fit(ds, PDT_ENGINE_AUTO, PDT_UNLIMITED, 2, NULL);
    assert_string_equal(m->engine, "numeric");
    assert_int_equal(mpz_get_ui(mpq_numref(m->objective)), grid_depth2(h));
    same_tree_any_threads(ds, m, 2);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
    free(csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axis_backend_same_optimum),
        cmocka_unit_test(test_axis_backend_fallbacks),
        cmocka_unit_test(test_axis_backend_sparse),
        cmocka_unit_test(test_axis_backend_time_limit),
        cmocka_unit_test(test_axis_backend_many_rows),
        cmocka_unit_test(test_axis_backend_threads_same_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
