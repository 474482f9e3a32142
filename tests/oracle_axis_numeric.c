/* Oracle: the axis family's specialised backend (--engine backend) against the
 * fused generic engine (--engine fused, itself checked against the brute-force
 * specification in oracle_axis) on random small numeric instances, plus a few
 * instances whose optimum is derived by hand below.
 *
 * Instances: N = 2..28 rows, 1–4 feature columns on the grid 0..4 (often a
 * smaller grid, duplicated rows; sometimes decimals 0.25, 0.5, 1.5, 2.75, 3.5),
 * 2–4 classes named by letters, words or integers (numeric order differs from
 * byte order), depth limit 1, 2 or 3 (depth 4 with N ≤ 16), no size limit in
 * about half of them, else K in 1..2^D − 1, exact class weights (eighths, some
 * 0, unlisted classes weigh 1) in about a quarter.  The grid keeps the
 * candidate thresholds few, so the fused engine stays fast (the 3000
 * instances take about 0.3 s in a Release build, 11 s under ASan, Debug).
 *
 * For each instance: both fits succeed and are flagged optimal; the exact
 * objectives are equal; each model has size ≤ K and depth ≤ D; each model's
 * predictions on the training rows (class names compared) misclassify exactly
 * its objective, with the weights summed here from the generated labels; for
 * one instance in 10 (and every hand-made one) the backend model saved as
 * JSON and loaded back predicts the same classes.  The backend takes class
 * weights: a refusal is a failure (PDT_ORACLE_ALLOW_DECLINE=1 tolerates the
 * binary-feature backend's "does not take class weights", to run this file
 * against that older backend).  On a mismatch the seed, options and CSV text are printed.  Instance i uses seed
 * BASE_SEED + i; PDT_ORACLE_SEED and PDT_ORACLE_COUNT override base and count
 * (PDT_ORACLE_SEED=<printed seed> PDT_ORACLE_COUNT=1 reruns one instance),
 * PDT_ORACLE_VERBOSE=1 prints every instance before it runs.
 *
 * A second group (test_axis_numeric_vs_binary, below) runs the backend on
 * larger instances, out of the fused engine's reach, against the
 * binary-feature backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model_impl.h"
#include "same_tree.h"
#include "test_util.h"

#define BASE_SEED UINT64_C(0xa815c0e000000000)
#define INSTANCES 3000
#define MAX_ROWS 28
#define MAX_DIMS 4
#define MAX_CLASSES 4
#define CSV_CAP 4096
#define ROUNDTRIP_EVERY 10

typedef struct inst {
    uint64_t seed; /* random instances */
    bool hand;     /* made by hand below */
    size_t n, dims, n_classes;
    int32_t x4[MAX_ROWS][MAX_DIMS]; /* value · 4 */
    bool spell_dot[MAX_ROWS];       /* integers of this row written "2.0" */
    uint32_t label[MAX_ROWS];       /* < n_classes */
    const char *const *names;
    bool weighted;
    int64_t w8[MAX_CLASSES]; /* class weight · 8 (8 when unweighted or unlisted) */
    char weights[160];       /* the --class-weights text */
    uint32_t depth, size;    /* size PDT_UNLIMITED: no size limit */
    bool roundtrip;
    char csv[CSV_CAP];
} inst;

typedef struct stats {
    size_t instances, failures, weighted, declined, size_limited, roundtrips;
    size_t by_depth[5], by_dims[MAX_DIMS + 1], by_classes[MAX_CLASSES + 1], min_n, max_n;
    double backend_seconds, fused_seconds;
} stats;

/* What one check found (for the hand-made cases). */
typedef struct outcome {
    bool ok, declined;
    int64_t objective8; /* the fused objective · 8 */
    uint32_t backend_size, fused_size;
} outcome;

typedef struct ctx {
    const inst *c;
    bool failed;
    size_t len;
    char log[4096];
} ctx;

static const char *const names_letters[] = {"a", "b", "c", "d"};
static const char *const names_numbers[] = {"3", "10", "2", "1"};
static const char *const names_words[] = {"yak", "emu", "dog", "cat"};
static const char *const weight_text[] = {"0", "0.125", "0.25", "0.5", "1", "1.5", "2", "2.5", "3"};
static const int64_t weight_8[] = {0, 1, 2, 4, 8, 12, 16, 20, 24};

__attribute__((format(printf, 2, 3))) static void bad(ctx *x, const char *fmt, ...)
{
    x->failed = true;
    if (x->len + 2 >= sizeof x->log) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(x->log + x->len, sizeof x->log - x->len - 1, fmt, ap);
    va_end(ap);
    if (n > 0) x->len += (size_t)n < sizeof x->log - x->len - 1 ? (size_t)n : sizeof x->log - x->len - 2;
    x->log[x->len++] = '\n';
    x->log[x->len] = '\0';
}

/* ------------------------------------------------------------ instance text */

static void write_value(char *out, size_t cap, int32_t v4, bool dot)
{
    if (v4 % 4 == 0)
        snprintf(out, cap, dot ? "%d.0" : "%d", v4 / 4);
    else
        snprintf(out, cap, "%g", v4 / 4.0); /* 0.25, 0.5, 1.5, 2.75, 3.5: exact */
}

/* CSV text (header x0,x1,..,class) of n rows of values · 4 (row i at x4 + i·stride);
 * dot[i] (when dot is not NULL) spells row i's integers "2.0". */
static void write_csv(char *csv, size_t cap, size_t n, size_t dims, const int32_t *x4, size_t stride,
                      const bool *dot, const uint32_t *label, const char *const *names)
{
    size_t len = 0;
    for (size_t j = 0; j < dims; j++) len += (size_t)snprintf(csv + len, cap - len, "x%zu,", j);
    len += (size_t)snprintf(csv + len, cap - len, "class\n");
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < dims; j++) {
            char v[32];
            write_value(v, sizeof v, x4[i * stride + j], dot && dot[i]);
            len += (size_t)snprintf(csv + len, cap - len, "%s,", v);
        }
        len += (size_t)snprintf(csv + len, cap - len, "%s\n", names[label[i]]);
    }
}

static void make_csv(inst *c)
{
    write_csv(c->csv, CSV_CAP, c->n, c->dims, c->x4[0], MAX_DIMS, c->spell_dot, c->label, c->names);
}

static void print_inst(const inst *c)
{
    if (c->hand)
        printf("==== axis numeric instance (hand-made): --rules axis, D = %u, K = ", c->depth);
    else
        printf("==== axis numeric instance (seed %#llx; rerun with PDT_ORACLE_SEED=%#llx PDT_ORACLE_COUNT=1): "
               "--rules axis, D = %u, K = ",
               (unsigned long long)c->seed, (unsigned long long)c->seed, c->depth);
    if (c->size == PDT_UNLIMITED)
        printf("none");
    else
        printf("%u", c->size);
    printf(", class weights: %s\n%s", c->weighted ? c->weights : "none", c->csv);
    fflush(stdout);
}

/* ------------------------------------------------------------ random instances */

static bool class_present(const inst *c, size_t k)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->label[i] == k) return true;
    return false;
}

static void random_points(inst *c, tu_rng *g)
{
    static const int32_t decimals4[] = {1, 2, 6, 11, 14}; /* 0.25 0.5 1.5 2.75 3.5 */
    static const uint32_t dec_percent[] = {0, 0, 0, 0, 5, 20};
    static const uint32_t dup_percent[] = {0, 10, 25};
    uint32_t dec = dec_percent[tu_below(g, 6)], dup = dup_percent[tu_below(g, 3)];
    uint32_t top = 1 + tu_below(g, 4); /* grid 0..top: small grids tie often */
    bool dot = tu_below(g, 8) == 0;
    for (size_t i = 0; i < c->n; i++) {
        c->spell_dot[i] = dot && tu_below(g, 2);
        if (i > 0 && tu_below(g, 100) < dup) {
            memcpy(c->x4[i], c->x4[tu_below(g, (uint32_t)i)], sizeof c->x4[i]);
            continue;
        }
        for (size_t j = 0; j < c->dims; j++)
            c->x4[i][j] = tu_below(g, 100) < dec ? decimals4[tu_below(g, 5)] : 4 * (int32_t)tu_below(g, top + 1);
    }
}

/* Labels uniformly random, or by a threshold, a box or a parity with noise, so
 * that optima range from the majority leaf down to 0. */
static void random_labels(inst *c, tu_rng *g)
{
    static const char *const *const sets[] = {names_letters, names_numbers, names_words};
    c->names = sets[tu_below(g, 3)];
    uint32_t mode = tu_below(g, 4);
    size_t d0 = tu_below(g, (uint32_t)c->dims), d1 = tu_below(g, (uint32_t)c->dims);
    int32_t cut0 = 2 + 4 * (int32_t)tu_below(g, 4), cut1 = 2 + 4 * (int32_t)tu_below(g, 4);
    uint32_t noise = 3 + tu_below(g, 8); /* one label in `noise` random */
    for (size_t i = 0; i < c->n; i++) {
        uint32_t y = tu_below(g, (uint32_t)c->n_classes);
        bool keep = tu_below(g, noise) != 0;
        if (mode == 1 && keep) y = c->x4[i][d0] > cut0;
        if (mode == 2 && keep) y = (uint32_t)(c->x4[i][d0] > cut0) + (uint32_t)(c->x4[i][d1] > cut1);
        if (mode == 3 && keep) {
            int32_t s = 0;
            for (size_t j = 0; j < c->dims; j++) s += c->x4[i][j] / 4;
            y = (uint32_t)s;
        }
        c->label[i] = y % (uint32_t)c->n_classes;
    }
}

static void random_weights(inst *c, tu_rng *g)
{
    for (size_t k = 0; k < MAX_CLASSES; k++) c->w8[k] = 8;
    c->weights[0] = '\0';
    c->weighted = tu_below(g, 4) == 0;
    if (!c->weighted) return;
    size_t len = 0;
    for (size_t k = 0; k < c->n_classes; k++) {
        if (!class_present(c, k) || tu_below(g, 4) == 0) continue; /* naming an absent class is an error */
        size_t w = tu_below(g, 9);
        c->w8[k] = weight_8[w];
        len += (size_t)snprintf(c->weights + len, sizeof c->weights - len, "%s%s=%s", len ? "," : "",
                                c->names[k], weight_text[w]);
    }
    if (!len) c->weighted = false; /* nothing listed: all weights 1 */
}

static void make_random(inst *c, uint64_t seed, uint64_t index)
{
    tu_rng g = {seed};
    memset(c, 0, sizeof *c);
    c->seed = seed;
    uint32_t r = tu_below(&g, 100);
    c->depth = r < 4 ? 4 : r < 30 ? 1 : r < 65 ? 2 : 3;
    c->dims = 1 + tu_below(&g, MAX_DIMS);
    size_t n_max = c->depth == 4 ? 16 : MAX_ROWS;
    if (n_max > MAX_ROWS) n_max = MAX_ROWS;
    c->n = 2 + tu_below(&g, (uint32_t)(n_max - 1));
    c->n_classes = 2 + tu_below(&g, MAX_CLASSES - 1);
    random_points(c, &g);
    random_labels(c, &g);
    random_weights(c, &g);
    c->size = tu_below(&g, 2) ? PDT_UNLIMITED : 1 + tu_below(&g, (1u << c->depth) - 1);
    c->roundtrip = index % ROUNDTRIP_EVERY == 0;
    make_csv(c);
}

/* ------------------------------------------------------------ checks */

static pdt_status fit(pdt_model **m, const pdt_dataset *ds, const inst *c, pdt_engine engine,
                      uint32_t threads, pdt_error *err)
{
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "axis";
    o.engine = engine;
    o.max_depth = c->depth;
    o.max_size = c->size;
    o.class_weights = c->weighted ? c->weights : NULL;
    o.threads = threads;
    return pdt_fit(m, ds, &o, err);
}

/* The tree does not depend on how the search got there: with 2 and 3
 * threads (the root's features as tasks sharing the incumbent, each worker
 * with its own cache) and with the cache off, the serial fit's tree, rule for
 * rule.  These small integer grids are full of equally good trees, so a
 * search that kept the first one it met would fail here. */
static void check_threads(ctx *x, const pdt_model *serial, const pdt_dataset *ds, pdt_fit_options o)
{
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    for (uint32_t variant = 0; variant < 3; variant++) {
        pdt_fit_options v = o;
        if (variant < 2) v.threads = 2 + variant;
        else v.no_memo = true;
        if (pdt_fit(&m, ds, &v, &err)) bad(x, "variant %u: pdt_fit failed: %s", variant, err.message);
        else if (!tu_same_tree(serial, m)) bad(x, "%s: a different tree than the serial fit's",
                                            variant == 0 ? "2 threads" : variant == 1 ? "3 threads" : "no cache");
        pdt_model_free(&m);
    }
    pdt_model_free(&m);
}

static bool same_name(const pdt_model *m, uint32_t cls, const char *name)
{
    return cls < pdt_model_classes(m) && strcmp(pdt_model_class_name(m, cls), name) == 0;
}

/* Optimal flag, size, depth, and the weighted misclassifications of the
 * predictions against the reported objective. */
static void check_model(ctx *x, const pdt_model *m, const pdt_dataset *ds, const char *who)
{
    const inst *c = x->c;
    uint32_t size = pdt_model_size(m), depth = pdt_model_depth(m);
    if (!pdt_model_optimal(m)) bad(x, "%s: the model is not flagged optimal", who);
    if (size > c->size) bad(x, "%s: size %u > K = %u", who, size, c->size);
    if (depth > c->depth || depth > size) bad(x, "%s: depth %u (size %u, D = %u)", who, depth, size, c->depth);
    uint32_t pred[MAX_ROWS];
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_model_predict(pred, m, ds, &err)) {
        bad(x, "%s: predict: %s", who, err.message);
        return;
    }
    int64_t wrong8 = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!same_name(m, pred[i], c->names[c->label[i]])) wrong8 += c->w8[c->label[i]];
    mpq_t obj, got;
    mpq_inits(obj, got, NULL);
    pdt_model_objective(obj, m);
    mpq_set_si(got, wrong8, 8);
    mpq_canonicalize(got);
    if (!mpq_equal(obj, got))
        bad(x, "%s: the predictions misclassify %g (weighted), the model reports %g", who, mpq_get_d(got),
            mpq_get_d(obj));
    mpq_clears(obj, got, NULL);
}

/* The backend model saved as JSON and loaded back predicts the same classes. */
static void check_roundtrip(ctx *x, const pdt_model *m, const pdt_dataset *ds)
{
    char path[512];
    snprintf(path, sizeof path, "%s/axis_numeric_%llx.json", tu_tmpdir(), (unsigned long long)x->c->seed);
    pdt_model *back = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    uint32_t a[MAX_ROWS], b[MAX_ROWS];
    if (pdt_model_save_json(m, path, &err) || pdt_model_load_json(&back, path, &err) ||
        pdt_model_predict(a, m, ds, &err) || pdt_model_predict(b, back, ds, &err)) {
        bad(x, "JSON round trip: %s", err.message);
    } else {
        for (size_t i = 0; i < x->c->n; i++)
            if (a[i] >= pdt_model_classes(m) || !same_name(back, b[i], pdt_model_class_name(m, a[i]))) {
                bad(x, "JSON round trip: row %zu predicted differently after loading", i + 1);
                break;
            }
    }
    pdt_model_free(&back);
    remove(path);
}

static bool declined(const inst *c, const pdt_error *err)
{
    return err->status == PDT_EINVAL && c->weighted && strstr(err->message, "does not take class weights") &&
           getenv("PDT_ORACLE_ALLOW_DECLINE");
}

/* Objectives equal; backend and fused models checked; fills `out`. */
static void compare(ctx *x, outcome *out, const pdt_dataset *ds, stats *st)
{
    pdt_model *b = NULL, *f = NULL;
    pdt_error eb, ef;
    pdt_error_clear(&eb);
    pdt_error_clear(&ef);
    pdt_status sb = fit(&b, ds, x->c, PDT_ENGINE_BACKEND, 1, &eb);
    pdt_status sf = fit(&f, ds, x->c, PDT_ENGINE_FUSED, 1, &ef);
    out->declined = sb && declined(x->c, &eb);
    if (sb && !out->declined) bad(x, "backend: pdt_fit failed: %s", eb.message);
    if (sf) bad(x, "fused: pdt_fit failed: %s", ef.message);
    if (f) {
        check_model(x, f, ds, "fused");
        mpq_t o;
        mpq_init(o);
        pdt_model_objective(o, f);
        mpq_mul_2exp(o, o, 3);
        out->objective8 = mpz_get_si(mpq_numref(o));
        mpq_clear(o);
        out->fused_size = pdt_model_size(f);
        st->fused_seconds += pdt_model_seconds(f);
    }
    if (b) {
        check_model(x, b, ds, "backend");
        out->backend_size = pdt_model_size(b);
        st->backend_seconds += pdt_model_seconds(b);
        if (x->c->roundtrip) check_roundtrip(x, b, ds), st->roundtrips++;
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        o.rules = "axis";
        o.engine = PDT_ENGINE_BACKEND;
        o.max_depth = x->c->depth;
        o.max_size = x->c->size;
        o.class_weights = x->c->weighted ? x->c->weights : NULL;
        check_threads(x, b, ds, o);
    }
    if (b && f) {
        mpq_t ob, of;
        mpq_inits(ob, of, NULL);
        pdt_model_objective(ob, b);
        pdt_model_objective(of, f);
        if (!mpq_equal(ob, of)) bad(x, "objectives differ: backend %g, fused %g", mpq_get_d(ob), mpq_get_d(of));
        mpq_clears(ob, of, NULL);
    }
    pdt_model_free(&b);
    pdt_model_free(&f);
}

static void add_stats(stats *s, const inst *c, const outcome *o)
{
    s->instances++;
    s->failures += !o->ok;
    s->weighted += c->weighted;
    s->declined += o->declined;
    s->size_limited += c->size != PDT_UNLIMITED;
    s->by_depth[c->depth]++;
    s->by_dims[c->dims]++;
    s->by_classes[c->n_classes]++;
    if (c->n < s->min_n) s->min_n = c->n;
    if (c->n > s->max_n) s->max_n = c->n;
}

static bool check(const inst *c, outcome *out, stats *st)
{
    ctx x = {.c = c};
    *out = (outcome){0};
    if (getenv("PDT_ORACLE_VERBOSE")) print_inst(c);
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, c->csv, strlen(c->csv), "axis_numeric.csv", NULL, &err))
        bad(&x, "the CSV text does not load: %s", err.message);
    else if (pdt_dataset_rows(ds) != c->n || pdt_dataset_dims(ds) != c->dims)
        bad(&x, "the CSV text loads as %zu rows, %zu columns", pdt_dataset_rows(ds), pdt_dataset_dims(ds));
    else
        compare(&x, out, ds, st);
    pdt_dataset_free(&ds);
    if (x.failed) {
        printf("MISMATCH\n");
        print_inst(c);
        printf("---- mismatches:\n%s", x.log);
        fflush(stdout);
    }
    out->ok = !x.failed;
    add_stats(st, c, out);
    return out->ok;
}

static void stats_print(const stats *s, const char *what)
{
    printf("oracle axis numeric (%s): %zu instances (%zu failed), N %zu..%zu; %zu weighted (%zu declined by "
           "the backend); %zu size-limited; depth 1/2/3/4: %zu/%zu/%zu/%zu; dims 1/2/3/4: %zu/%zu/%zu/%zu; "
           "classes 2/3/4: %zu/%zu/%zu; %zu JSON round trips; fits %.3f s backend, %.3f s fused\n",
           what, s->instances, s->failures, s->min_n, s->max_n, s->weighted, s->declined, s->size_limited,
           s->by_depth[1], s->by_depth[2], s->by_depth[3], s->by_depth[4], s->by_dims[1], s->by_dims[2],
           s->by_dims[3], s->by_dims[4], s->by_classes[2], s->by_classes[3], s->by_classes[4], s->roundtrips,
           s->backend_seconds, s->fused_seconds);
    fflush(stdout);
}

static void stats_init(stats *s)
{
    memset(s, 0, sizeof *s);
    s->min_n = SIZE_MAX;
}

static uint64_t env_u64(const char *name, uint64_t fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 0) : fallback;
}

static void test_axis_numeric_random(void **state)
{
    (void)state;
    uint64_t base = env_u64("PDT_ORACLE_SEED", BASE_SEED), count = env_u64("PDT_ORACLE_COUNT", tu_scaled(INSTANCES));
    stats st;
    stats_init(&st);
    for (uint64_t i = 0; i < count; i++) {
        inst c;
        outcome o;
        make_random(&c, base + i, i);
        check(&c, &o, &st);
    }
    stats_print(&st, "random");
    assert_int_equal(st.failures, 0);
}

/* ------------------------------------------------------------ hand-made */

/* One column per string of `cols` (digits 0..9, one per row), labels as
 * letters a..d (one per row). */
static void hand(inst *c, const char *const *cols, size_t dims, const char *labels, uint32_t depth,
                 uint32_t size, const char *weights)
{
    memset(c, 0, sizeof *c);
    c->hand = true;
    c->n = strlen(labels);
    c->dims = dims;
    c->n_classes = MAX_CLASSES;
    c->names = names_letters;
    for (size_t i = 0; i < c->n; i++) {
        c->label[i] = (uint32_t)(labels[i] - 'a');
        for (size_t j = 0; j < dims; j++) c->x4[i][j] = 4 * (cols[j][i] - '0');
    }
    for (size_t k = 0; k < MAX_CLASSES; k++) c->w8[k] = 8;
    c->weighted = weights != NULL;
    for (const char *p = weights; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
        c->w8[p[0] - 'a'] = (int64_t)(8 * strtod(p + 2, NULL)); /* "b=2.5": eighths, exact */
    if (weights) snprintf(c->weights, sizeof c->weights, "%s", weights);
    c->depth = depth;
    c->size = size;
    c->roundtrip = true;
    make_csv(c);
}

/* Checks the instance and that the optimum is want8 / 8; returns the outcome. */
static outcome expect(const inst *c, int64_t want8)
{
    stats st;
    stats_init(&st);
    outcome o;
    bool ok = check(c, &o, &st);
    if (ok && o.objective8 != want8) {
        print_inst(c);
        fail_msg("the optimum is %g, derived by hand: %g", (double)o.objective8 / 8, (double)want8 / 8);
    }
    assert_true(ok);
    if (o.declined) printf("(the backend declines class weights; fused checked only)\n");
    return o;
}

/* One column x = 0..7, labels a a b b b a a b (4 a, 4 b).  A leaf errs 4.
 * Depth 1: a threshold after the first t rows; left/right errors by majority:
 * t=1: 0+3, t=2: 0+2, t=3: 1+2, t=4: 2+2, t=5: 2+1, t=6: 3+1, t=7: 3+0, so 2.
 * Depth 2, K = 2 (three intervals): aa | bbb | aab errs 1, and no three
 * intervals err 0 (the labels form four runs aa, bbb, aa, b), so 1.  Depth 2 with no
 * size limit: x ≤ 4 then x ≤ 1 | x ≤ 6 gives aa | bbb | aa | b, 0 errors. */
static void test_axis_numeric_hand_1d(void **state)
{
    (void)state;
    static const char *const cols[] = {"01234567"};
    inst c;
    hand(&c, cols, 1, "aabbbaab", 1, PDT_UNLIMITED, NULL);
    expect(&c, 8 * 2);
    hand(&c, cols, 1, "aabbbaab", 2, 2, NULL);
    expect(&c, 8 * 1);
    hand(&c, cols, 1, "aabbbaab", 2, PDT_UNLIMITED, NULL);
    expect(&c, 0);
    hand(&c, cols, 1, "aabbbaab", 3, 1, NULL); /* K = 1 is depth 1 again */
    expect(&c, 8 * 2);
}

/* Five rows at the same point (1, 2) labelled a a a b c: no threshold
 * separates equal points, so every tree is a leaf, which predicts a and errs
 * 2 (b and c).  With c weighing 5: predicting a costs 1 + 5 = 6, b costs
 * 3 + 5 = 8, c costs 3 + 1 = 4, so 4. */
static void test_axis_numeric_hand_equal_points(void **state)
{
    (void)state;
    static const char *const cols[] = {"11111", "22222"};
    inst c;
    hand(&c, cols, 2, "aaabc", 3, PDT_UNLIMITED, NULL);
    outcome o = expect(&c, 8 * 2);
    assert_int_equal(o.backend_size, 0);
    assert_int_equal(o.fused_size, 0);
    hand(&c, cols, 2, "aaabc", 2, 3, "c=5");
    o = expect(&c, 8 * 4);
    assert_int_equal(o.fused_size, 0);
    if (!o.declined) assert_int_equal(o.backend_size, 0);
}

/* Duplicated values.  x = 0 0 1 1, labels a b a b: the only non-trivial split
 * is x ≤ 0, and each side holds one a and one b, so every tree errs 2 at any
 * depth.  x = 0 0 0 1 1 2, labels a a b b b a: depth 1: x ≤ 0 gives aab | bba
 * (1 + 1), x ≤ 1 gives aabbb | a (2 + 0), a leaf errs 3, so 2.  Depth 2 and
 * 3: the rows at x = 0 (a a b) always share a leaf, so at least 1, and x ≤ 0,
 * then x ≤ 1 on the right (aab | bb | a), errs exactly 1.  A split between
 * the equal zeros would reach 0. */
static void test_axis_numeric_hand_duplicates(void **state)
{
    (void)state;
    static const char *const c1[] = {"0011"};
    static const char *const c2[] = {"000112"};
    inst c;
    for (uint32_t d = 1; d <= 3; d++) {
        hand(&c, c1, 1, "abab", d, PDT_UNLIMITED, NULL);
        expect(&c, 8 * 2);
    }
    hand(&c, c2, 1, "aabbba", 1, PDT_UNLIMITED, NULL);
    expect(&c, 8 * 2);
    hand(&c, c2, 1, "aabbba", 2, PDT_UNLIMITED, NULL);
    expect(&c, 8 * 1);
    hand(&c, c2, 1, "aabbba", 3, PDT_UNLIMITED, NULL);
    expect(&c, 8 * 1);
}

/* Three classes, x = 0..5, labels a a b b c c.  Unweighted, depth 1: two
 * leaves cannot cover three classes of two rows each, and x ≤ 1 (aa | bbcc)
 * errs 2, so 2.  Weights a=1, b=2.5, c=0.5: x ≤ 1 then predicting b on bbcc
 * costs 2 · 0.5 = 1; the other thresholds: t=1: 0 + (1 + 1) = 2 (a | abbcc
 * predicts b), t=3: aab | bcc is 2 + 1 = 3, t=4: aabb | cc is 2 + 0 = 2,
 * t=5: aabbc | c is 2.5 + 0; a leaf predicting b costs 2 + 1 = 3; so 1.
 * With c weighing 0 (a unlisted, weight 1): aa | bbcc predicting b errs
 * 0 · 2 = 0.  Depth 2 with K = 2: aa | bb | cc, 0. */
static void test_axis_numeric_hand_weighted(void **state)
{
    (void)state;
    static const char *const cols[] = {"012345"};
    inst c;
    hand(&c, cols, 1, "aabbcc", 1, PDT_UNLIMITED, NULL);
    expect(&c, 8 * 2);
    hand(&c, cols, 1, "aabbcc", 1, PDT_UNLIMITED, "a=1,b=2.5,c=0.5");
    expect(&c, 8 * 1);
    hand(&c, cols, 1, "aabbcc", 1, 1, "b=2.5,c=0");
    expect(&c, 0);
    hand(&c, cols, 1, "aabbcc", 2, 2, "a=1,b=2.5,c=0.5");
    expect(&c, 0);
}

/* ------------------------------------------------------------ against the binary backend */

/* Larger instances than the fused engine can solve: the numeric backend
 * (--engine backend) against the binary-feature backend (--rules binary,
 * which binarises every threshold x ≤ v of a numeric column; an independent
 * exact solver).  N = 30..160 rows, 2–6 columns, each on its own grid of
 * 3..10 or 11..60 distinct values (ties frequent on some columns, rare on
 * others; quarter-step decimals and negative offsets), 2–4 classes that
 * follow a random axis-aligned tree of depth 2–3 with 10–30% of the labels
 * redrawn at random, depth limit 2 or 3 (4 with N ≤ 50 in about 5%), no size
 * limit in about 60%, else K in 2..2^D − 1, no class weights (the binary
 * backend takes none).  Checks: both fits succeed and are flagged optimal,
 * the exact objectives are equal, each model's size ≤ K and depth ≤ D, and
 * each model's predictions on the training rows misclassify exactly its
 * objective.  The 1000 instances take about 2 s in a Release build, 22 s
 * under ASan, Debug.  Instance i uses seed VB_BASE_SEED + i (PDT_ORACLE_SEED
 * and PDT_ORACLE_COUNT override base and count for both groups, so a rerun of
 * one printed seed also runs one instance of the group above;
 * PDT_ORACLE_VERBOSE=1 prints every instance). */
#define VB_BASE_SEED UINT64_C(0xb1a7c0e000000000)
#define VB_INSTANCES 1000
#define VB_MIN_ROWS 30
#define VB_MAX_ROWS 160
#define VB_MAX_DIMS 6
#define VB_CSV_CAP 16384

typedef struct vb_inst {
    uint64_t seed;
    size_t n, dims, n_classes;
    uint32_t grid[VB_MAX_DIMS];          /* distinct values the column may take */
    int32_t x4[VB_MAX_ROWS][VB_MAX_DIMS]; /* value · 4 */
    uint32_t label[VB_MAX_ROWS];
    const char *const *names;
    uint32_t tree_depth, noise; /* the generating tree; percent of labels redrawn */
    uint32_t depth, size;       /* size PDT_UNLIMITED: no size limit */
    char csv[VB_CSV_CAP];
} vb_inst;

typedef struct vb_stats {
    size_t instances, failures, size_limited, nontrivial, zero;
    size_t by_depth[5], by_dims[VB_MAX_DIMS + 1], by_classes[MAX_CLASSES + 1], min_n, max_n;
    size_t columns, tie_heavy; /* columns, and those with ≤ 10 distinct values */
    double numeric_seconds, binary_seconds;
} vb_stats;

static void vb_make_csv(vb_inst *c)
{
    write_csv(c->csv, VB_CSV_CAP, c->n, c->dims, c->x4[0], VB_MAX_DIMS, NULL, c->label, c->names);
}

static void vb_print(const vb_inst *c)
{
    printf("==== axis numeric vs binary instance (seed %#llx; rerun with PDT_ORACLE_SEED=%#llx "
           "PDT_ORACLE_COUNT=1): --rules axis --engine backend vs --rules binary, D = %u, K = ",
           (unsigned long long)c->seed, (unsigned long long)c->seed, c->depth);
    if (c->size == PDT_UNLIMITED)
        printf("none");
    else
        printf("%u", c->size);
    printf("; generated by a depth-%u tree with %u%% noise\n%s", c->tree_depth, c->noise, c->csv);
    fflush(stdout);
}

static void vb_make(vb_inst *c, uint64_t seed)
{
    static const int32_t steps4[] = {1, 2, 4, 4, 4, 12, 40}; /* 0.25 .. 10 */
    static const char *const *const sets[] = {names_letters, names_numbers, names_words};
    tu_rng g = {seed};
    memset(c, 0, sizeof *c);
    c->seed = seed;
    bool deep = tu_below(&g, 100) < 5;
    c->depth = deep ? 4 : 2 + tu_below(&g, 2);
    c->n = VB_MIN_ROWS + tu_below(&g, (deep ? 50 : VB_MAX_ROWS) - VB_MIN_ROWS + 1);
    c->dims = 2 + tu_below(&g, VB_MAX_DIMS - 1);
    c->n_classes = 2 + tu_below(&g, MAX_CLASSES - 1);
    c->names = sets[tu_below(&g, 3)];
    int32_t off4[VB_MAX_DIMS], step4[VB_MAX_DIMS];
    for (size_t j = 0; j < c->dims; j++) {
        c->grid[j] = tu_below(&g, 2) ? 3 + tu_below(&g, 8) : 11 + tu_below(&g, 50);
        step4[j] = steps4[tu_below(&g, 7)];
        off4[j] = tu_below(&g, 3) ? 0 : -4 * (int32_t)tu_below(&g, 20) - (int32_t)tu_below(&g, 4);
    }
    uint32_t k[VB_MAX_ROWS][VB_MAX_DIMS]; /* grid index of each value */
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < c->dims; j++) {
            k[i][j] = tu_below(&g, c->grid[j]);
            c->x4[i][j] = off4[j] + step4[j] * (int32_t)k[i][j];
        }
    /* the generating tree, in heap order: node t has children 2t+1, 2t+2;
     * an item goes left when its grid index ≤ cut */
    c->tree_depth = 2 + tu_below(&g, 2);
    uint32_t feat[7], cut[7], leaf[8];
    for (size_t t = 0; t < 7; t++) {
        feat[t] = tu_below(&g, (uint32_t)c->dims);
        cut[t] = tu_below(&g, c->grid[feat[t]] - 1);
    }
    for (size_t t = 0; t < 8; t++) leaf[t] = tu_below(&g, (uint32_t)c->n_classes);
    leaf[1] = (leaf[0] + 1 + tu_below(&g, (uint32_t)c->n_classes - 1)) % (uint32_t)c->n_classes;
    c->noise = 10 + tu_below(&g, 21);
    for (size_t i = 0; i < c->n; i++) {
        size_t t = 0;
        for (uint32_t l = 0; l < c->tree_depth; l++) t = 2 * t + (k[i][feat[t]] <= cut[t] ? 1 : 2);
        uint32_t y = leaf[t - ((1u << c->tree_depth) - 1)];
        if (tu_below(&g, 100) < c->noise) y = tu_below(&g, (uint32_t)c->n_classes);
        c->label[i] = y;
    }
    c->size = tu_below(&g, 100) < 60 ? PDT_UNLIMITED : 2 + tu_below(&g, (1u << c->depth) - 2);
    vb_make_csv(c);
}

/* Fits one side; checks the optimal flag, size, depth and the predictions'
 * misclassifications against the objective (into obj). */
static pdt_model *vb_fit(ctx *x, const vb_inst *c, const pdt_dataset *ds, bool numeric, mpq_ptr obj)
{
    const char *who = numeric ? "numeric backend" : "binary backend";
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = numeric ? "axis" : "binary";
    o.engine = numeric ? PDT_ENGINE_BACKEND : PDT_ENGINE_AUTO;
    o.max_depth = c->depth;
    o.max_size = c->size;
    o.threads = 1;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &o, &err)) {
        bad(x, "%s: pdt_fit failed: %s", who, err.message);
        return NULL;
    }
    if (numeric) check_threads(x, m, ds, o);
    pdt_model_objective(obj, m);
    uint32_t size = pdt_model_size(m), depth = pdt_model_depth(m);
    if (!pdt_model_optimal(m)) bad(x, "%s: the model is not flagged optimal", who);
    if (size > c->size) bad(x, "%s: size %u > K = %u", who, size, c->size);
    if (depth > c->depth || depth > size) bad(x, "%s: depth %u (size %u, D = %u)", who, depth, size, c->depth);
    uint32_t pred[VB_MAX_ROWS];
    if (pdt_model_predict(pred, m, ds, &err)) {
        bad(x, "%s: predict: %s", who, err.message);
        return m;
    }
    long wrong = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!same_name(m, pred[i], c->names[c->label[i]])) wrong++;
    if (mpz_cmp_ui(mpq_denref(obj), 1) != 0 || mpz_cmp_si(mpq_numref(obj), wrong) != 0)
        bad(x, "%s: the predictions misclassify %ld rows, the model reports %g", who, wrong, mpq_get_d(obj));
    return m;
}

static bool vb_check(const vb_inst *c, vb_stats *st)
{
    ctx x = {0};
    if (getenv("PDT_ORACLE_VERBOSE")) vb_print(c);
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    mpq_t on, ob;
    mpq_inits(on, ob, NULL);
    if (pdt_dataset_read_csv(&ds, c->csv, strlen(c->csv), "axis_numeric_vs_binary.csv", NULL, &err)) {
        bad(&x, "the CSV text does not load: %s", err.message);
    } else if (pdt_dataset_rows(ds) != c->n || pdt_dataset_dims(ds) != c->dims) {
        bad(&x, "the CSV text loads as %zu rows, %zu columns", pdt_dataset_rows(ds), pdt_dataset_dims(ds));
    } else {
        pdt_model *n = vb_fit(&x, c, ds, true, on);
        pdt_model *b = vb_fit(&x, c, ds, false, ob);
        if (n && b && !mpq_equal(on, ob))
            bad(&x, "objectives differ: numeric backend %g, binary backend %g", mpq_get_d(on), mpq_get_d(ob));
        if (n) st->numeric_seconds += pdt_model_seconds(n);
        if (b) st->binary_seconds += pdt_model_seconds(b);
        if (n && b && !x.failed) {
            size_t count[MAX_CLASSES] = {0}, most = 0;
            for (size_t i = 0; i < c->n; i++) count[c->label[i]]++;
            for (size_t k = 0; k < MAX_CLASSES; k++) most = count[k] > most ? count[k] : most;
            st->zero += mpq_sgn(on) == 0;
            st->nontrivial += mpq_sgn(on) > 0 && mpq_cmp_ui(on, (unsigned long)(c->n - most), 1) < 0;
        }
        pdt_model_free(&n);
        pdt_model_free(&b);
    }
    mpq_clears(on, ob, NULL);
    pdt_dataset_free(&ds);
    if (x.failed) {
        printf("MISMATCH\n");
        vb_print(c);
        printf("---- mismatches:\n%s", x.log);
        fflush(stdout);
    }
    st->instances++;
    st->failures += x.failed;
    st->size_limited += c->size != PDT_UNLIMITED;
    st->by_depth[c->depth]++;
    st->by_dims[c->dims]++;
    st->by_classes[c->n_classes]++;
    for (size_t j = 0; j < c->dims; j++) st->columns++, st->tie_heavy += c->grid[j] <= 10;
    if (c->n < st->min_n) st->min_n = c->n;
    if (c->n > st->max_n) st->max_n = c->n;
    return !x.failed;
}

static void test_axis_numeric_vs_binary(void **state)
{
    (void)state;
    uint64_t base = env_u64("PDT_ORACLE_SEED", VB_BASE_SEED), count = env_u64("PDT_ORACLE_COUNT", tu_scaled(VB_INSTANCES));
    vb_stats st;
    memset(&st, 0, sizeof st);
    st.min_n = SIZE_MAX;
    vb_inst *c = malloc(sizeof *c);
    assert_non_null(c);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t i = 0; i < count; i++) {
        vb_make(c, base + i);
        vb_check(c, &st);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(c);
    printf("oracle axis numeric vs binary: %zu instances (%zu failed), N %zu..%zu; depth 2/3/4: %zu/%zu/%zu; "
           "dims 2..6: %zu/%zu/%zu/%zu/%zu; classes 2/3/4: %zu/%zu/%zu; %zu size-limited; %zu of %zu columns "
           "with <= 10 values; optimum 0 in %zu, strictly between 0 and a leaf's in %zu; fits %.3f s numeric, "
           "%.3f s binary; %.2f s in all\n",
           st.instances, st.failures, st.min_n, st.max_n, st.by_depth[2], st.by_depth[3], st.by_depth[4],
           st.by_dims[2], st.by_dims[3], st.by_dims[4], st.by_dims[5], st.by_dims[6], st.by_classes[2],
           st.by_classes[3], st.by_classes[4], st.size_limited, st.tie_heavy, st.columns, st.zero, st.nontrivial,
           st.numeric_seconds, st.binary_seconds,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    fflush(stdout);
    assert_int_equal(st.failures, 0);
}

/* Nodes of more than 32 768 items: the two-class sweep flushes its 16-bit
 * counts into wide counters there (and only there).  40 000 rows of three
 * columns with six values each, labelled by (x0 <= 2) xor (x1 <= 3) with a
 * fifth of the labels redrawn (two classes; three when `classes` is 3): the
 * numeric backend's optimum at depth 2 and 3 equals the binary backend's on
 * the thresholds as binary features. */
static void large_case(uint32_t classes, uint64_t seed)
{
    enum { N = 40000, DIMS = 3 };
    tu_rng g = {seed};
    size_t cap = (size_t)N * 16 + 64, len = 0;
    char *csv = malloc(cap);
    assert_non_null(csv);
    len += (size_t)snprintf(csv + len, cap - len, "x0,x1,x2,class\n");
    for (size_t i = 0; i < N; i++) {
        uint32_t x[DIMS];
        for (size_t j = 0; j < DIMS; j++) x[j] = (uint32_t)tu_below(&g, 6);
        uint32_t label = (x[0] <= 2) ^ (x[1] <= 3);
        if (tu_below(&g, 5) == 0) label = (uint32_t)tu_below(&g, classes);
        len += (size_t)snprintf(csv + len, cap - len, "%u,%u,%u,%s\n", x[0], x[1], x[2], names_letters[label]);
    }
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_dataset_read_csv(&ds, csv, len, "large.csv", NULL, &err), PDT_OK);
    assert_int_equal(pdt_dataset_rows(ds), N);
    for (uint32_t depth = 2; depth <= 3; depth++) {
        mpq_t obj[2];
        mpq_inits(obj[0], obj[1], NULL);
        for (int numeric = 0; numeric < 2; numeric++) {
            pdt_fit_options o;
            pdt_fit_options_init(&o);
            o.rules = numeric ? "axis" : "binary";
            o.engine = numeric ? PDT_ENGINE_BACKEND : PDT_ENGINE_AUTO;
            o.max_depth = depth;
            o.threads = 1;
            pdt_model *m = NULL;
            if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s backend, depth %u: %s", o.rules, depth, err.message);
            assert_true(pdt_model_optimal(m));
            pdt_model_objective(obj[numeric], m);
            pdt_model_free(&m);
        }
        if (!mpq_equal(obj[0], obj[1]))
            fail_msg("%u classes, depth %u: numeric backend %g, binary backend %g", classes, depth,
                     mpq_get_d(obj[1]), mpq_get_d(obj[0]));
        /* the noise keeps the optimum above 0 and below a leaf's */
        assert_true(mpq_sgn(obj[1]) > 0);
        mpq_clears(obj[0], obj[1], NULL);
    }
    pdt_dataset_free(&ds);
    free(csv);
}

static void test_axis_numeric_large(void **state)
{
    (void)state;
    large_case(2, 0x1a26e0001);
    large_case(3, 0x1a26e0002);
}

int main(void)
{
    setenv("PDT_NUMERIC_PARALLEL_MIN", "0", 1); /* see check_threads */
    /* idle threads sleep instead of spinning: ctest runs other tests beside this one */
    setenv("OMP_WAIT_POLICY", "passive", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axis_numeric_hand_1d),
        cmocka_unit_test(test_axis_numeric_hand_equal_points),
        cmocka_unit_test(test_axis_numeric_hand_duplicates),
        cmocka_unit_test(test_axis_numeric_hand_weighted),
        cmocka_unit_test(test_axis_numeric_random),
        cmocka_unit_test(test_axis_numeric_vs_binary),
        cmocka_unit_test(test_axis_numeric_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
