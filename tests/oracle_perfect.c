/* Oracle: the smallest perfect tree (pdt_fit_options.perfect, issue 11)
 * against a brute force written from the definition.
 *
 * The brute force lists every tree of at most K ≤ 4 branch nodes and keeps
 * the fewest errors of each (depth, size):
 *   axis, hyperplane, axis+hyperplane, hypersurface (degree 2), circle:
 *     every valid permutation of the candidate rules (spec.h's decoding and
 *     evaluation; the rules' sides are checked against the coordinates by
 *     oracle_check_sides);
 *   binary (0/1 columns, left iff x = 0, any feature anywhere): every tree
 *     shape with every assignment of features to its nodes, evaluated by
 *     spec_evaluate.
 * The floor is computed from the rows alone (Σ over groups of equal feature
 * vectors of the group's size minus its majority).  Within the caps (size ≤
 * K, always given; depth ≤ D, sometimes) DEPTH wants the least depth of a
 * tree making `floor` errors, then the least size at that depth; SIZE the
 * least size, then the least depth; or none ("not reached").  pdt must
 * report the same floor and `reached`; when reached the same depth and size,
 * both proven, and predictions misclassifying exactly `floor` rows; when not,
 * the optimum within the caps.  With K ≤ 4 the two modes always give the same
 * pair (a tree with s branch nodes has depth ≤ s and ≥ ⌈log2(s + 1)⌉), so
 * the hand-made instance "modes" (K unlimited) tells them apart.
 *
 * A third of the instances are made inconsistent: about 40 % of their rows
 * copy an earlier row's features, two times in three with another class.
 * Families and engines: axis (auto = numeric backend, and fused), hyperplane
 * (fused), axis,hyperplane (fused), binary (auto = binary backend, and
 * fused), hypersurface of degree 2, D = 1 intervals and D = 2 conics (auto:
 * the hypersurface backend for the limited fits it takes, size ≤ 2, fused for
 * the others; and fused), circle (the example plugin: auto, which is fused,
 * and fused); both modes on every instance.  Instance i of a group uses seed
 * BASE + i; PDT_ORACLE_SEED and PDT_ORACLE_COUNT override base and count,
 * PDT_ORACLE_VERBOSE prints every instance before it runs.
 *
 * Measured on the 2-core machine with a load average of about 3 (2200 random
 * instances, 7200 random fits, plus the hand-made ones): release 7.9–9.1 s
 * wall (7.7–8.8 s CPU; hypersurface about 2.0 s, circle 1.9 s), ASan+UBSan
 * Debug build 34.0 s wall (31.0 s CPU; hypersurface and circle about 10 s
 * each).  The first 1600 instances took 4.0 s at a load of 1.7, 5.8 s at
 * 7–11. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"
#include "oracle_impl.h"
#include "spec.h"
#include "test_util.h"

#define CSV_CAP 4096
#define BUDGET 3000000     /* most k-permutations a random instance may have */
#define CROSS_BUDGET 20000 /* below this, spec_solve cross-checks the enumeration */
#define MAX_FEATURES 5     /* binary instances */
#define N_MODES 2

static const pdt_perfect_mode modes[N_MODES] = {PDT_PERFECT_DEPTH, PDT_PERFECT_SIZE};
static const char *const mode_names[] = {"none", "depth", "size"};
static const pdt_engine auto_fused[] = {PDT_ENGINE_AUTO, PDT_ENGINE_FUSED};
static const pdt_engine fused_only[] = {PDT_ENGINE_FUSED};
static const char *const engine_names[] = {"auto", "fused", "combinations", "backend"};

/* ---------------------------------------------------------- brute force */

/* The fewest errors of a tree of each depth and size (INT64_MAX: none). */
typedef struct table {
    int64_t cost[SPEC_MAX_K + 1][SPEC_MAX_K + 1]; /* [depth][size] */
    uint64_t by_size[SPEC_MAX_K + 1];             /* trees listed */
} table;

static void table_init(table *t)
{
    for (size_t d = 0; d <= SPEC_MAX_K; d++)
        for (size_t s = 0; s <= SPEC_MAX_K; s++) t->cost[d][s] = INT64_MAX;
    memset(t->by_size, 0, sizeof t->by_size);
}

static void table_add(table *t, const spec_problem *p, const spec_tree *tree)
{
    spec_eval e;
    spec_evaluate(&e, p, tree);
    if (e.cost < t->cost[e.depth][tree->n]) t->cost[e.depth][tree->n] = e.cost;
    t->by_size[tree->n]++;
}

/* Every valid permutation starting with perm[0..k).  A prefix of a valid
 * permutation is valid (inserting a rule depends only on the rules before it,
 * and new nodes keep the others' level order), so an invalid prefix ends the
 * branch; spec_solve's counts confirm this on the smaller instances. */
static void grow(table *t, const spec_problem *p, uint32_t *perm, size_t k, uint32_t max_k)
{
    spec_tree tree;
    if (!spec_decode(&tree, p, perm, k)) return;
    table_add(t, p, &tree);
    if (k >= max_k || k >= SPEC_MAX_K) return;
    for (uint32_t r = 0; r < p->n_rules; r++) {
        bool used = false;
        for (size_t a = 0; a < k; a++) used |= perm[a] == r;
        if (used) continue;
        perm[k] = r;
        grow(t, p, perm, k + 1, max_k);
    }
}

/* Preorder code, bit i = 1 for a branch node, 0 for a leaf: the node's index
 * (preorder), -1 for a leaf, -2 when the code is malformed. */
static int parse_shape(spec_tree *t, uint32_t code, size_t len, size_t *pos)
{
    if (*pos >= len) return -2;
    if (!((code >> (*pos)++) & 1)) return -1;
    if (t->n == SPEC_MAX_K) return -2;
    int node = (int)t->n++;
    for (int side = 0; side < 2; side++) {
        int child = parse_shape(t, code, len, pos);
        if (child == -2) return -2;
        t->child[node][side] = child;
    }
    return node;
}

/* Binary rules may appear anywhere: every shape, every feature at every node. */
static void every_binary_tree(table *t, const spec_problem *p, uint32_t max_k)
{
    for (size_t k = 0; k <= max_k && (k == 0 || p->n_rules); k++) {
        size_t len = 2 * k + 1;
        for (uint32_t code = 0; code < (UINT32_C(1) << len); code++) {
            spec_tree tree = {.n = 0};
            size_t pos = 0;
            if (parse_shape(&tree, code, len, &pos) == -2 || pos != len || tree.n != k) continue;
            uint32_t digit[SPEC_MAX_K] = {0};
            for (size_t a;;) {
                memcpy(tree.rule, digit, sizeof digit);
                table_add(t, p, &tree);
                for (a = 0; a < k && ++digit[a] == p->n_rules; a++) digit[a] = 0;
                if (a == k) break;
            }
        }
    }
}

/* Σ over groups of equal keys (feature vectors) of size − majority. */
static uint64_t floor_of(const uint64_t *key, const uint32_t *label, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        for (size_t j = 0; j < i; j++) first &= key[j] != key[i];
        uint64_t count[ORACLE_MAX_CLASSES] = {0}, size = 0, most = 0;
        for (size_t j = i; first && j < n; j++)
            if (key[j] == key[i]) size++, count[label[j]]++;
        for (size_t c = 0; c < ORACLE_MAX_CLASSES; c++) most = count[c] > most ? count[c] : most;
        total += size - most;
    }
    return total;
}

/* What a perfect fit must report (one mode, one pair of caps). */
typedef struct expect {
    uint64_t floor;
    bool reached;
    uint32_t depth, size; /* when reached */
    int64_t best;         /* fewest errors within the caps */
} expect;

static expect expect_from(const table *t, uint64_t floor, pdt_perfect_mode mode, uint32_t k,
                          uint32_t max_depth)
{
    expect w = {.floor = floor, .best = INT64_MAX};
    for (uint32_t a = 0; a <= k; a++) /* first criterion */
        for (uint32_t b = 0; b <= k; b++) {
            uint32_t depth = mode == PDT_PERFECT_DEPTH ? a : b, size = a + b - depth;
            if (depth > max_depth) continue;
            int64_t v = t->cost[depth][size];
            if (v < w.best) w.best = v;
            if (v == (int64_t)floor && !w.reached) w.reached = true, w.depth = depth, w.size = size;
        }
    return w;
}

/* ------------------------------------------------------------ instances */

typedef struct instance {
    const char *rules;
    const pdt_engine *engines;
    size_t n_engines;
    oracle_case c;                     /* spec families: points, labels, caps */
    uint8_t bits[ORACLE_MAX_ROWS];     /* binary: bit j = feature j of each row */
    size_t n_features;                 /* binary: 0 for the spec families */
    uint64_t key[ORACLE_MAX_ROWS];     /* the feature vector of each row, as one number */
    bool inconsistent;
    char csv[CSV_CAP];
} instance;

static const char *const class_names[] = {"a", "b", "c"};

/* About 40 % of the rows copy an earlier row, two times in three with
 * another class. */
static void add_conflicts(instance *in, tu_rng *rng)
{
    oracle_case *c = &in->c;
    in->inconsistent = true;
    for (size_t i = 1; i < c->n; i++) {
        if (tu_below(rng, 100) >= 40) continue;
        size_t j = tu_below(rng, (uint32_t)i);
        memcpy(c->x[i], c->x[j], sizeof c->x[i]);
        in->bits[i] = in->bits[j];
        uint32_t other = (c->label[j] + 1 + tu_below(rng, (uint32_t)c->n_classes - 1));
        c->label[i] = tu_below(rng, 3) ? other % (uint32_t)c->n_classes : c->label[j];
    }
}

/* K = 4 three times in four (reduced to the budget); no depth cap half the
 * time, else 1..3. */
static void random_caps(oracle_case *c, tu_rng *rng, size_t m)
{
    c->k = tu_below(rng, 4) ? 4 : tu_below(rng, 4);
    while (c->k > 0 && spec_permutations(m, c->k) > BUDGET) c->k--;
    c->max_depth = tu_below(rng, 2) ? PDT_UNLIMITED : 1 + tu_below(rng, 3);
}

/* Labels from 1–4 random axis cuts at data values: how many of them a row
 * lies above, modulo the classes, one label in six random (intervals and
 * checkerboards that need depth 2–4). */
static void cut_labels(oracle_case *c, tu_rng *rng)
{
    uint32_t cuts = 1 + tu_below(rng, 4);
    size_t dim[4];
    int32_t at[4];
    for (size_t k = 0; k < cuts; k++) {
        dim[k] = tu_below(rng, (uint32_t)c->dims);
        at[k] = c->x[tu_below(rng, (uint32_t)c->n)][dim[k]];
        bool cuts_data = false; /* else the cut moves to the least value */
        for (size_t i = 0; i < c->n; i++) cuts_data |= c->x[i][dim[k]] > at[k];
        for (size_t i = 0; i < c->n && !cuts_data; i++)
            at[k] = c->x[i][dim[k]] < at[k] ? c->x[i][dim[k]] : at[k];
    }
    for (size_t i = 0; i < c->n; i++) {
        uint32_t above = 0;
        for (size_t k = 0; k < cuts; k++) above += c->x[i][dim[k]] > at[k];
        c->label[i] = tu_below(rng, 6) ? above % (uint32_t)c->n_classes
                                       : tu_below(rng, (uint32_t)c->n_classes);
    }
}

static void finish_points(instance *in, tu_rng *rng)
{
    oracle_case *c = &in->c;
    oracle_random_points(c, rng);
    oracle_random_labels(c, rng);
    if (tu_below(rng, 2)) cut_labels(c, rng);
    c->weighted = false;
    for (size_t k = 0; k < ORACLE_MAX_CLASSES; k++) c->weight4[k] = 4;
    if (tu_below(rng, 3) == 0) add_conflicts(in, rng);
    for (size_t i = 0; i < c->n; i++) {
        in->key[i] = 0;
        for (size_t j = 0; j < c->dims; j++) in->key[i] = in->key[i] << 8 | (uint8_t)c->x[i][j];
    }
    random_caps(c, rng, oracle_rule_count(c));
    oracle_csv(in->csv, sizeof in->csv, c);
}

static void make_axis(instance *in, uint64_t seed)
{
    tu_rng rng = {seed};
    *in = (instance){.rules = "axis", .engines = auto_fused, .n_engines = 2};
    in->c = (oracle_case){.rules = "axis", .seed = seed};
    in->c.dims = tu_below(&rng, 5) ? 1 + tu_below(&rng, 2) : 3;
    static const uint32_t min_n[] = {0, 4, 4, 3}, max_n[] = {0, 14, 9, 6};
    in->c.n = min_n[in->c.dims] + tu_below(&rng, max_n[in->c.dims] - min_n[in->c.dims] + 1);
    in->c.n_classes = 2 + tu_below(&rng, 2);
    finish_points(in, &rng);
}

static void make_hyperplane(instance *in, uint64_t seed)
{
    static const uint32_t min_n[] = {0, 4, 3, 3}, max_n[] = {0, 9, 6, 4};
    tu_rng rng = {seed};
    *in = (instance){.rules = "hyperplane", .engines = fused_only, .n_engines = 1};
    in->c = (oracle_case){.rules = "hyperplane", .seed = seed};
    in->c.dims = tu_below(&rng, 5) ? 1 + tu_below(&rng, 2) : 3;
    in->c.n = min_n[in->c.dims] + tu_below(&rng, max_n[in->c.dims] - min_n[in->c.dims] + 1);
    in->c.n_classes = 2 + tu_below(&rng, 2);
    finish_points(in, &rng);
}

static void make_mixed(instance *in, uint64_t seed)
{
    tu_rng rng = {seed};
    *in = (instance){.rules = "axis,hyperplane", .engines = fused_only, .n_engines = 1};
    in->c = (oracle_case){.rules = "axis,hyperplane", .seed = seed};
    in->c.dims = 1 + tu_below(&rng, 2);
    in->c.n = in->c.dims == 1 ? 3 + tu_below(&rng, 5) : 3 + tu_below(&rng, 3);
    in->c.n_classes = 2 + tu_below(&rng, 2);
    finish_points(in, &rng);
}

/* Degree-2 hypersurfaces (auto = the hypersurface backend, and fused).  D = 1
 * (intervals through 2 points) half the time, N 2..8; else conics through 5
 * points, N 5..6 (oracle_hypersurface.c goes to 10): with 32 rules per
 * 5-tuple, N = 7 has up to 672 rules, whose building and side checks (GMP)
 * took 2/3 of this group's time. */
static void make_hypersurface(instance *in, uint64_t seed)
{
    tu_rng rng = {seed};
    *in = (instance){.rules = "hypersurface", .engines = auto_fused, .n_engines = 2};
    in->c = (oracle_case){.rules = "hypersurface", .seed = seed};
    in->c.dims = 1 + tu_below(&rng, 2);
    in->c.n = in->c.dims == 1 ? 2 + tu_below(&rng, 7) : 5 + tu_below(&rng, 2);
    in->c.n_classes = 2 + tu_below(&rng, 2);
    finish_points(in, &rng);
}

/* Circles through 3 points (the example plugin; auto = fused).  8 rules per
 * triple: N 3..5 (oracle_circle.c goes to 8), at most 80 rules (K = 4 within
 * the budget up to N = 4, K = 3 at N = 5); N = 6 (160 rules, K ≤ 2) took half
 * of this group's time. */
static void make_circle(instance *in, uint64_t seed)
{
    tu_rng rng = {seed};
    *in = (instance){.rules = "circle", .engines = auto_fused, .n_engines = 2};
    in->c = (oracle_case){.rules = "circle", .seed = seed};
    in->c.dims = 2;
    in->c.n = 3 + tu_below(&rng, 3);
    in->c.n_classes = 2 + tu_below(&rng, 2);
    finish_points(in, &rng);
}

/* Binary labels: random, parity of two features, a decision list, or an AND;
 * each with one label in five random. */
static uint32_t binary_label(const instance *in, uint8_t row, uint32_t kind, const uint32_t *f,
                             tu_rng *rng)
{
    uint32_t classes = (uint32_t)in->c.n_classes, y = tu_below(rng, classes);
    if (kind == 0 || tu_below(rng, 5) == 0) return y;
    bool a = (row >> f[0]) & 1, b = (row >> f[1]) & 1, c = (row >> f[2]) & 1;
    if (kind == 1) return a ^ b;
    if (kind == 2) return a ? 0 : b ? 1 : c ? classes - 1 : 0;
    return a && b;
}

static void binary_csv(instance *in)
{
    size_t len = 0;
    for (size_t j = 0; j < in->n_features; j++) len += (size_t)sprintf(in->csv + len, "f%zu,", j);
    len += (size_t)sprintf(in->csv + len, "class\n");
    for (size_t i = 0; i < in->c.n; i++) {
        for (size_t j = 0; j < in->n_features; j++)
            len += (size_t)sprintf(in->csv + len, "%d,", (in->bits[i] >> j) & 1);
        len += (size_t)sprintf(in->csv + len, "%s\n", class_names[in->c.label[i]]);
    }
}

static void make_binary(instance *in, uint64_t seed)
{
    tu_rng rng = {seed};
    *in = (instance){.rules = "binary", .engines = auto_fused, .n_engines = 2};
    oracle_case *c = &in->c;
    *c = (oracle_case){.rules = "binary", .seed = seed, .names = class_names};
    in->n_features = 1 + tu_below(&rng, MAX_FEATURES);
    c->n = 4 + tu_below(&rng, 11);
    c->n_classes = 2 + tu_below(&rng, 2);
    uint32_t kind = tu_below(&rng, 4), dup = tu_below(&rng, 3) * 15, f[3];
    for (size_t k = 0; k < 3; k++) f[k] = tu_below(&rng, (uint32_t)in->n_features);
    for (size_t i = 0; i < c->n; i++) {
        bool copy = i > 0 && tu_below(&rng, 100) < dup;
        in->bits[i] = copy ? in->bits[tu_below(&rng, (uint32_t)i)]
                           : (uint8_t)tu_below(&rng, 1u << in->n_features);
        c->label[i] = binary_label(in, in->bits[i], kind, f, &rng);
    }
    if (tu_below(&rng, 3) == 0) add_conflicts(in, &rng);
    for (size_t i = 0; i < c->n; i++) in->key[i] = in->bits[i];
    random_caps(c, &rng, in->n_features);
    binary_csv(in);
}

/* ------------------------------------------------------------- checking */

typedef struct stats {
    size_t instances, failures, inconsistent, reached, fits, min_n, max_n, min_m, max_m;
    size_t by_k[SPEC_MAX_K + 1], by_cap[4], by_floor[3], by_depth[SPEC_MAX_K + 1];
    uint64_t trees, cross_checked;
    char ran[4][24]; /* the engines the fits report (pdt_model's engine), and how often */
    size_t ran_count[4];
} stats;

static void count_engine(stats *st, const char *name)
{
    size_t e = 0;
    while (e < 3 && st->ran[e][0] && strcmp(st->ran[e], name)) e++;
    if (!st->ran[e][0]) snprintf(st->ran[e], sizeof st->ran[e], "%s", name);
    st->ran_count[e]++;
}

/* Runs one perfect fit; checks it against w; returns false on a mismatch. */
static bool check_fit(oracle_check_ctx *x, stats *st, const pdt_dataset *ds, const char *rules,
                      const char *const *truth, pdt_engine engine, pdt_perfect_mode mode,
                      uint32_t k, uint32_t max_depth, const expect *w)
{
    char who[64];
    snprintf(who, sizeof who, "--engine %s --perfect=%s", engine_names[engine], mode_names[mode]);
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = rules;
    o.engine = engine;
    o.perfect = mode;
    o.max_size = k;
    o.max_depth = max_depth;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &o, &err))
        return oracle_fail(x, "%s: pdt_fit failed: %s", who, err.message);
    if (st) {
        count_engine(st, m->engine ? m->engine : "?");
        st->fits++;
    }
    size_t n = pdt_dataset_rows(ds);
    uint32_t pred[ORACLE_MAX_ROWS];
    uint64_t wrong = 0;
    if (pdt_model_predict(pred, m, ds, &err)) {
        oracle_fail(x, "%s: predict: %s", who, err.message);
        for (size_t i = 0; i < n; i++) pred[i] = UINT32_MAX;
    }
    for (size_t i = 0; i < n; i++)
        wrong += pred[i] >= pdt_model_classes(m) ||
                 strcmp(pdt_model_class_name(m, pred[i]), truth[i]) != 0;
    mpq_t obj;
    mpq_init(obj);
    pdt_model_objective(obj, m);
    if (mpq_cmp_ui(obj, wrong, 1) != 0)
        oracle_fail(x, "%s: objective %g, the predictions misclassify %llu", who, mpq_get_d(obj),
                    (unsigned long long)wrong);
    mpq_clear(obj);
    uint32_t depth = pdt_model_depth(m), size = pdt_model_size(m);
    pdt_perfect_info info;
    if (!pdt_model_perfect(m, &info)) oracle_fail(x, "%s: pdt_model_perfect is false", who);
    if (info.mode != mode) oracle_fail(x, "%s: info.mode %d", who, (int)info.mode);
    if (info.floor != w->floor)
        oracle_fail(x, "%s: floor %llu, expected %llu", who, (unsigned long long)info.floor,
                    (unsigned long long)w->floor);
    if (info.reached != w->reached)
        oracle_fail(x, "%s: reached %d, expected %d (tree: depth %u size %u, %llu errors)", who,
                    info.reached, w->reached, depth, size, (unsigned long long)wrong);
    if (w->reached && (depth != w->depth || size != w->size))
        oracle_fail(x, "%s: depth %u size %u, expected depth %u size %u", who, depth, size,
                    w->depth, w->size);
    if (w->reached && !(info.depth_proven && info.size_proven))
        oracle_fail(x, "%s: depth_proven %d size_proven %d", who, info.depth_proven,
                    info.size_proven);
    uint64_t want_wrong = w->reached ? w->floor : (uint64_t)w->best;
    if (wrong != want_wrong)
        oracle_fail(x, "%s: the tree misclassifies %llu rows, expected %llu (%s)", who,
                    (unsigned long long)wrong, (unsigned long long)want_wrong,
                    w->reached ? "the floor" : "the optimum within the caps");
    if (size > k || depth > max_depth)
        oracle_fail(x, "%s: depth %u size %u beyond the caps", who, depth, size);
    pdt_model_free(&m);
    return !x->failed;
}

static pdt_dataset *load(oracle_check_ctx *x, const char *csv)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, csv, strlen(csv), "perfect.csv", NULL, &err))
        oracle_fail(x, "the CSV text does not load: %s", err.message);
    return ds;
}

/* The candidate rules' table through spec.h; false when the rules do not build. */
static bool spec_table(oracle_check_ctx *x, table *t, const instance *in, const pdt_dataset *ds,
                       size_t *m, stats *st)
{
    const oracle_case *c = &in->c;
    pdt_ruleset *rs = NULL;
    pdt_rule_params params = {0};
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_ruleset_build(&rs, ds, c->rules, &params, &err))
        return oracle_fail(x, "pdt_ruleset_build: %s", err.message);
    oracle_check_sides(x, rs);
    *m = pdt_ruleset_size(rs);
    spec_problem p;
    spec_problem_init(&p, c->n, *m, c->n_classes);
    for (size_t i = 0; i < c->n; i++) p.label[i] = c->label[i];
    for (size_t r = 0; r < *m; r++) {
        for (size_t i = 0; i < c->n; i++)
            spec_set_left(&p, r, i, (pdt_ruleset_sides(rs, r)[i / 64] >> (i % 64)) & 1);
        size_t n_def;
        const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
        spec_set_def(&p, r, def, n_def);
    }
    uint32_t perm[SPEC_MAX_K];
    grow(t, &p, perm, 0, c->k);
    if (spec_permutations(*m, c->k) <= CROSS_BUDGET) { /* the pruned listing = spec_solve's */
        spec_result sr;
        spec_limits lim = {c->k, c->max_depth == PDT_UNLIMITED ? SPEC_NO_LIMIT : c->max_depth, 0};
        spec_solve(&sr, &p, &lim);
        expect w = expect_from(t, 0, PDT_PERFECT_DEPTH, c->k, c->max_depth);
        for (size_t k = 0; k <= c->k; k++)
            if (sr.count[k] != t->by_size[k])
                oracle_fail(x, "oracle bug: %llu valid %zu-permutations listed, spec_solve: %llu",
                            (unsigned long long)t->by_size[k], k, (unsigned long long)sr.count[k]);
        if (sr.best != w.best)
            oracle_fail(x, "oracle bug: best %lld, spec_solve: %lld", (long long)w.best,
                        (long long)sr.best);
        st->cross_checked++;
    }
    spec_problem_free(&p);
    pdt_ruleset_free(&rs);
    return true;
}

static void binary_table(table *t, const instance *in)
{
    spec_problem p;
    spec_problem_init(&p, in->c.n, in->n_features, in->c.n_classes);
    for (size_t i = 0; i < in->c.n; i++) {
        p.label[i] = in->c.label[i];
        for (size_t j = 0; j < in->n_features; j++)
            spec_set_left(&p, j, i, !((in->bits[i] >> j) & 1));
    }
    every_binary_tree(t, &p, in->c.k);
    spec_problem_free(&p);
}

static void print_caps(uint32_t k, uint32_t max_depth)
{
    if (k != PDT_UNLIMITED) printf(" --size %u", k);
    if (max_depth != PDT_UNLIMITED) printf(" --depth %u", max_depth);
}

static void print_instance(const instance *in)
{
    printf("==== perfect instance (seed %#llx): --rules %s", (unsigned long long)in->c.seed,
           in->rules);
    print_caps(in->c.k, in->c.max_depth);
    printf(" (caps)%s\n%s", in->inconsistent ? ", inconsistent rows" : "", in->csv);
    fflush(stdout);
}

static void print_failure(const oracle_check_ctx *x, const instance *in, const expect *w)
{
    printf("MISMATCH\n");
    print_instance(in);
    printf("---- brute force: floor %llu, fewest errors within the caps %lld",
           (unsigned long long)w[0].floor, (long long)w[0].best);
    for (size_t md = 0; md < N_MODES; md++) {
        printf("; --perfect=%s: ", mode_names[modes[md]]);
        if (w[md].reached) printf("depth %u size %u", w[md].depth, w[md].size);
        else printf("none within the caps");
    }
    printf("\n---- mismatches:\n%s", x->log);
    fflush(stdout);
}

static void add_stats(stats *st, const instance *in, size_t m, const table *t, const expect *w,
                      bool ok)
{
    const oracle_case *c = &in->c;
    st->instances++;
    st->failures += !ok;
    st->inconsistent += in->inconsistent;
    st->reached += w[0].reached;
    st->min_n = c->n < st->min_n ? c->n : st->min_n;
    st->max_n = c->n > st->max_n ? c->n : st->max_n;
    st->min_m = m < st->min_m ? m : st->min_m;
    st->max_m = m > st->max_m ? m : st->max_m;
    st->by_k[c->k]++;
    st->by_cap[c->max_depth == PDT_UNLIMITED ? 0 : c->max_depth]++;
    st->by_floor[w[0].floor < 2 ? w[0].floor : 2]++;
    if (w[0].reached) st->by_depth[w[0].depth]++;
    for (size_t k = 0; k <= SPEC_MAX_K; k++) st->trees += t->by_size[k];
}

static bool check_instance(const instance *in, stats *st)
{
    const oracle_case *c = &in->c;
    oracle_check_ctx x = {.c = c};
    pdt_dataset *ds = load(&x, in->csv);
    table t;
    table_init(&t);
    size_t m = in->n_features;
    bool listed = ds != NULL;
    if (listed && in->n_features)
        binary_table(&t, in);
    else if (listed)
        listed = spec_table(&x, &t, in, ds, &m, st);
    uint64_t floor = floor_of(in->key, c->label, c->n);
    expect w[N_MODES];
    for (size_t md = 0; md < N_MODES; md++)
        w[md] = expect_from(&t, floor, modes[md], c->k, c->max_depth);
    if (listed && w[0].best < (int64_t)floor)
        oracle_fail(&x, "oracle bug: a tree beats the floor");
    const char *truth[ORACLE_MAX_ROWS];
    for (size_t i = 0; i < c->n; i++) truth[i] = c->names[c->label[i]];
    bool ready = listed && !x.failed; /* the rules' sides are right, the brute force sound */
    for (size_t md = 0; ready && md < N_MODES; md++)
        for (size_t e = 0; e < in->n_engines; e++)
            check_fit(&x, st, ds, in->rules, truth, in->engines[e], modes[md], c->k,
                      c->max_depth, &w[md]);
    if (x.failed) print_failure(&x, in, w);
    add_stats(st, in, m, &t, w, !x.failed);
    pdt_dataset_free(&ds);
    return !x.failed;
}

static void print_stats(const stats *s, const char *family)
{
    printf("oracle perfect, %s: %zu instances (%zu failed, %zu inconsistent), %zu fits, "
           "N %zu..%zu, M %zu..%zu rules\n", family, s->instances, s->failures, s->inconsistent,
           s->fits,
           s->min_n, s->max_n, s->min_m, s->max_m);
    printf("  K = 0..4: %zu/%zu/%zu/%zu/%zu; depth cap none/1/2/3: %zu/%zu/%zu/%zu; floor 0/1/2+: "
           "%zu/%zu/%zu; reached %zu, at depth 0..4: %zu/%zu/%zu/%zu/%zu; %llu trees listed, %llu "
           "listings cross-checked by spec_solve\n", s->by_k[0], s->by_k[1], s->by_k[2], s->by_k[3],
           s->by_k[4], s->by_cap[0], s->by_cap[1], s->by_cap[2], s->by_cap[3], s->by_floor[0],
           s->by_floor[1], s->by_floor[2], s->reached, s->by_depth[0], s->by_depth[1],
           s->by_depth[2], s->by_depth[3], s->by_depth[4], (unsigned long long)s->trees,
           (unsigned long long)s->cross_checked);
    printf("  engines run:");
    for (size_t e = 0; e < 4 && s->ran[e][0]; e++) printf(" %s %zu", s->ran[e], s->ran_count[e]);
    printf("\n");
    fflush(stdout);
}

static uint64_t env_u64(const char *name, uint64_t fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 0) : fallback;
}

static size_t run(const char *family, void (*make)(instance *, uint64_t), uint64_t base,
                  uint64_t count)
{
    base = env_u64("PDT_ORACLE_SEED", base);
    count = env_u64("PDT_ORACLE_COUNT", tu_scaled(count));
    stats st = {.min_n = SIZE_MAX, .min_m = SIZE_MAX};
    for (uint64_t i = 0; i < count; i++) {
        instance in;
        make(&in, base + i);
        if (getenv("PDT_ORACLE_VERBOSE")) print_instance(&in);
        check_instance(&in, &st);
    }
    print_stats(&st, family);
    return st.failures;
}

static void test_oracle_perfect_axis(void **state)
{
    (void)state;
    assert_int_equal(run("axis", make_axis, UINT64_C(0x9e7f000000000000), 400), 0);
}

static void test_oracle_perfect_hyperplane(void **state)
{
    (void)state;
    assert_int_equal(run("hyperplane", make_hyperplane, UINT64_C(0x9e7f100000000000), 400), 0);
}

static void test_oracle_perfect_mixed(void **state)
{
    (void)state;
    assert_int_equal(run("axis,hyperplane", make_mixed, UINT64_C(0x9e7f200000000000), 400), 0);
}

static void test_oracle_perfect_binary(void **state)
{
    (void)state;
    assert_int_equal(run("binary", make_binary, UINT64_C(0x9e7f300000000000), 400), 0);
}

static void test_oracle_perfect_hypersurface(void **state)
{
    (void)state;
    assert_int_equal(run("hypersurface", make_hypersurface, UINT64_C(0x9e7f400000000000), 300), 0);
}

static void test_oracle_perfect_circle(void **state)
{
    (void)state;
    assert_int_equal(run("circle", make_circle, UINT64_C(0x9e7f500000000000), 300), 0);
}

/* ------------------------------------------------------ known by hand */

/* One fit of a hand-made instance (truth from the CSV's last column). */
static void hand(const char *name, const char *rules, const char *csv, pdt_perfect_mode mode,
                 uint32_t k, uint32_t max_depth, expect w)
{
    const pdt_engine *engines = strcmp(rules, "hyperplane") ? auto_fused : fused_only;
    oracle_check_ctx x = {.c = NULL};
    pdt_dataset *ds = load(&x, csv);
    assert_non_null(ds);
    const char *truth[ORACLE_MAX_ROWS];
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++)
        truth[i] = pdt_dataset_class_name(ds, pdt_dataset_label(ds, i));
    for (size_t e = 0; e < (engines == auto_fused ? 2u : 1u); e++)
        check_fit(&x, NULL, ds, rules, truth, engines[e], mode, k, max_depth, &w);
    if (x.failed) {
        printf("MISMATCH on \"%s\": --rules %s --perfect=%s", name, rules, mode_names[mode]);
        print_caps(k, max_depth);
        printf("\n%s---- mismatches:\n%s", csv, x.log);
    }
    pdt_dataset_free(&ds);
    assert_false(x.failed);
}

#define NONE PDT_UNLIMITED
#define REACHED(f, d, s) ((expect){.floor = (f), .reached = true, .depth = (d), .size = (s)})
#define MISSED(f, b) ((expect){.floor = (f), .reached = false, .best = (b)})

/* XOR on the unit square.  Axis: one split leaves a pair of different
 * classes together; with two splits (three leaves, boxes) one class keeps
 * both its points in one box, which then holds all four points; so size 3,
 * depth 2 (x0 ≤ 0 then x1 ≤ 0 on both sides; each child's defining point
 * (0,0) or (1,0) lies in its region).  Hyperplane: no single line separates
 * XOR; the line through (0,1) and (1,0) with both assigned to the side away
 * from (0,0) isolates (0,0), and the same points assigned to the side away
 * from (1,1) then split the other three: depth 2, size 2.  Under a depth cap
 * of 1 every split leaves an a and a b on each side: 2 errors. */
static void test_oracle_perfect_xor(void **state)
{
    (void)state;
    const char *csv = "x0,x1,class\n0,0,a\n0,1,b\n1,0,b\n1,1,a\n";
    for (size_t md = 0; md < N_MODES; md++) {
        hand("xor", "axis", csv, modes[md], 4, NONE, REACHED(0, 2, 3));
        hand("xor", "hyperplane", csv, modes[md], 4, NONE, REACHED(0, 2, 2));
        hand("xor", "binary", csv, modes[md], NONE, NONE, REACHED(0, 2, 3));
        hand("xor, depth cap 1", "axis", csv, modes[md], 4, 1, MISSED(0, 2));
    }
}

/* n points 0..n−1 on a line, labels alternating a, b, a, ...: a leaf is an
 * interval, and an interval holding two points of one class holds one of the
 * other between them, so every point is its own leaf: n leaves, size n − 1,
 * and depth ⌈log2 n⌉ (a balanced split of the sorted points; thresholds at
 * data points, each inside its region).  n = 5 under a depth cap of 2: four
 * intervals for five points, one of them holding two neighbours: 1 error. */
static void test_oracle_perfect_alternating(void **state)
{
    (void)state;
    static const uint32_t depth[] = {0, 0, 1, 2, 2, 3};
    for (uint32_t n = 1; n <= 5; n++) {
        char csv[128];
        size_t len = (size_t)sprintf(csv, "x,class\n");
        for (uint32_t i = 0; i < n; i++)
            len += (size_t)sprintf(csv + len, "%u,%s\n", i, i % 2 ? "b" : "a");
        for (size_t md = 0; md < N_MODES; md++) {
            hand("alternating", "axis", csv, modes[md], 4, NONE, REACHED(0, depth[n], n - 1));
            hand("alternating", "axis", csv, modes[md], NONE, NONE, REACHED(0, depth[n], n - 1));
        }
    }
    const char *five = "x,class\n0,a\n1,b\n2,a\n3,b\n4,a\n";
    hand("alternating, depth cap 2", "axis", five, PDT_PERFECT_DEPTH, 4, 2, MISSED(0, 1));
    hand("alternating, size cap 3", "axis", five, PDT_PERFECT_SIZE, 3, NONE, MISSED(0, 1));
}

/* Identical rows of different classes.  Two: floor 1, and the single leaf
 * makes 1 error (depth 0, size 0).  Three rows at x = 0 (a, b, a) and one at
 * x = 1 (b): floor 1 (the group at 0: 3 − 2); a leaf makes 2 errors (a tie of
 * 2 and 2), x ≤ 0 makes 1: depth 1, size 1. */
static void test_oracle_perfect_inconsistent(void **state)
{
    (void)state;
    const char *pair = "x0,x1,class\n1,1,a\n1,1,b\n";
    const char *group = "x,class\n0,a\n0,b\n1,b\n0,a\n";
    for (size_t md = 0; md < N_MODES; md++) {
        hand("identical pair", "axis", pair, modes[md], 4, NONE, REACHED(1, 0, 0));
        hand("identical pair", "hyperplane", pair, modes[md], 4, NONE, REACHED(1, 0, 0));
        hand("identical pair", "binary", "f0,class\n1,a\n1,b\n", modes[md], NONE, NONE,
             REACHED(1, 0, 0));
        hand("group of three", "axis", group, modes[md], 4, NONE, REACHED(1, 1, 1));
        hand("group of three", "axis", group, modes[md], 0, NONE, MISSED(1, 2));
    }
}

/* Where the modes differ.  Six rows, five classes (A twice); features eb, ec,
 * ed, ee each hold 1 on one row only (b, c, d, e), h is 1 on {a1, b, c}.
 *   - 5 classes need 5 leaves: size ≥ 4, depth ≥ 3.
 *   - The chain eb, ec, ed, ee is perfect: size 4, depth 4.
 *   - Size 4 means exactly 5 leaves, one per class, so a1 and a2 share a leaf
 *     and no split separates them: h is never used; a root eX leaves one row
 *     on one side and 4 classes on the other, which need depth 3 more; so
 *     every size-4 tree has depth 4.  SIZE: size 4, depth 4.
 *   - h at the root, then eb, ec on {a1, b, c} and ed, ee on {a2, d, e}:
 *     depth 3, size 5 (6 leaves).  DEPTH: depth 3, size 5.
 * Caps: DEPTH with size ≤ 4 gives the chain (4, 4); SIZE with depth ≤ 3
 * gives (3, 5).  Size ≤ 3: four leaves are right on at most 2 + 1 + 1 + 1 of
 * the 6 rows, and eb, ec, ed makes that: 1 error.  Depth ≤ 2: keeping a1, a2
 * together needs an eX root, whose lone row's side cannot split again: 3
 * leaves, at most 4 rows right; an h root leaves {a1, b, c} and {a2, d, e},
 * three classes each, to two leaves each, at most 2 right per side: 2 errors
 * either way (h, then eb and ed, makes 2). */
static void test_oracle_perfect_modes(void **state)
{
    (void)state;
    const char *csv = "eb,ec,ed,ee,h,class\n0,0,0,0,1,A\n0,0,0,0,0,A\n1,0,0,0,1,B\n"
                      "0,1,0,0,1,C\n0,0,1,0,0,D\n0,0,0,1,0,E\n";
    for (size_t r = 0; r < 2; r++) {
        const char *rules = r ? "axis" : "binary";
        hand("modes", rules, csv, PDT_PERFECT_DEPTH, NONE, NONE, REACHED(0, 3, 5));
        hand("modes", rules, csv, PDT_PERFECT_SIZE, NONE, NONE, REACHED(0, 4, 4));
        hand("modes", rules, csv, PDT_PERFECT_DEPTH, 4, NONE, REACHED(0, 4, 4));
        hand("modes", rules, csv, PDT_PERFECT_SIZE, NONE, 3, REACHED(0, 3, 5));
        hand("modes", rules, csv, PDT_PERFECT_SIZE, 3, NONE, MISSED(0, 1));
        hand("modes", rules, csv, PDT_PERFECT_DEPTH, NONE, 2, MISSED(0, 2));
    }
}

/* Options a perfect fit refuses: class weights, min_leaf, sparse, lexicographic. */
static void test_oracle_perfect_refused(void **state)
{
    (void)state;
    const char *csv = "x,class\n0,a\n1,b\n2,a\n";
    pdt_dataset *ds = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_read_csv(&ds, csv, strlen(csv), "refused.csv", NULL, &err),
                     PDT_OK);
    for (int which = 0; which < 4; which++) {
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        o.rules = "axis";
        o.perfect = which % 2 ? PDT_PERFECT_SIZE : PDT_PERFECT_DEPTH;
        if (which == 0) o.class_weights = "a=2";
        if (which == 1) o.min_leaf = 2;
        if (which == 2) o.sparse = "0.01";
        if (which == 3) o.lexicographic = true;
        pdt_model *m = NULL;
        pdt_error_clear(&err);
        pdt_status st = pdt_fit(&m, ds, &o, &err);
        if (st == PDT_OK) fail_msg("option %d with perfect was accepted", which);
        assert_int_equal(st, PDT_EINVAL);
        assert_non_null(strstr(err.message, "perfect"));
        assert_null(m);
    }
    pdt_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_perfect_xor),
        cmocka_unit_test(test_oracle_perfect_alternating),
        cmocka_unit_test(test_oracle_perfect_inconsistent),
        cmocka_unit_test(test_oracle_perfect_modes),
        cmocka_unit_test(test_oracle_perfect_refused),
        cmocka_unit_test(test_oracle_perfect_axis),
        cmocka_unit_test(test_oracle_perfect_hyperplane),
        cmocka_unit_test(test_oracle_perfect_mixed),
        cmocka_unit_test(test_oracle_perfect_binary),
        cmocka_unit_test(test_oracle_perfect_hypersurface),
        cmocka_unit_test(test_oracle_perfect_circle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
