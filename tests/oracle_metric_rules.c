/* Metric fits of the generic engine (issue 10: Pareto fronts as an algebra)
 * against brute force, for every numeric rule family: axis, hyperplane,
 * hypersurface (conics in the plane) and the circle example plugin, 300
 * random small two-class instances each (support/oracle_gen.c's points,
 * labels and limits; K ≤ 3, depth none/1/2/3, min-leaf 0–2).
 *
 * The brute force is the project's specification (support/spec.h): every
 * valid k-permutation of the candidate rules, k ≤ K, decoded into its proper
 * tree, filtered by depth and min-leaf (spec_evaluate); every row is walked
 * down the tree here, and every labelling of its leaves gives one tree whose
 * FP and FN are counted from those leaves.  The best F1, MCC and FM over all
 * of them (compared exactly in 128-bit integers here, not through front.c)
 * must equal the metric of pdt's model, whose confusion counts are recounted
 * from the model's own predictions (pdt_model_predict); pdt's root front must
 * equal the nondominated (FP, FN) of the brute force. */
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "model_impl.h"
#include "metric_oracle.h"
#include "oracle.h"
#include "spec.h"
#include "test_util.h"

#define INSTANCES 300
#define BUDGET 6000 /* most k-permutations enumerated (each with 2^(k+1) labellings) */
#define CSV_BYTES 8192


typedef struct brute {
    size_t n;
    uint32_t label[ORACLE_MAX_ROWS]; /* 1: positive */
    uint32_t P, N;
    bool reach[ORACLE_MAX_ROWS + 1][ORACLE_MAX_ROWS + 1]; /* [fp][fn] some tree has them */
    uint64_t trees;
} brute;

static void add_tree(brute *b, const spec_problem *sp, const spec_tree *t)
{
    uint32_t pos[2 * SPEC_MAX_K + 2] = {0}, neg[2 * SPEC_MAX_K + 2] = {0};
    size_t leaves = t->n ? t->n + 1 : 1;
    uint32_t id_of[2 * SPEC_MAX_K + 2];
    memset(id_of, 0xff, sizeof id_of);
    uint32_t next = 0;
    for (size_t i = 0; i < b->n; i++) {
        uint32_t leaf = 0;
        if (t->n) {
            int node = 0;
            for (;;) {
                bool left = (sp->left[t->rule[node]] >> i) & 1;
                int child = t->child[node][left ? 0 : 1];
                if (child < 0) {
                    leaf = (uint32_t)(2 * node + (left ? 0 : 1));
                    break;
                }
                node = child;
            }
        }
        if (id_of[leaf] == UINT32_MAX) id_of[leaf] = next++;
        (b->label[i] ? pos : neg)[id_of[leaf]]++;
    }
    /* leaves no row reaches count nothing either way */
    for (uint32_t mask = 0; mask < (1u << leaves); mask++) {
        uint32_t fp = 0, fn = 0;
        for (size_t l = 0; l < leaves; l++) {
            if ((mask >> l) & 1) fp += neg[l]; /* predicts positive */
            else fn += pos[l];
        }
        b->reach[fp][fn] = true;
        b->trees++;
    }
}

/* Every valid k-permutation (k ≤ K) of the rules passing depth and min-leaf. */
static void enumerate(brute *b, const spec_problem *sp, uint32_t *perm, size_t k, size_t K, const spec_limits *lim,
                      bool *used)
{
    spec_tree t;
    if (spec_decode(&t, sp, perm, k)) {
        spec_eval e;
        spec_evaluate(&e, sp, &t);
        bool ok = (lim->max_depth == SPEC_NO_LIMIT || e.depth <= lim->max_depth) &&
                  (k == 0 || !lim->min_leaf || e.min_leaf >= lim->min_leaf);
        if (ok) add_tree(b, sp, &t);
    }
    if (k == K) return;
    for (uint32_t r = 0; r < sp->n_rules; r++) {
        if (used[r]) continue;
        used[r] = true;
        perm[k] = r;
        enumerate(b, sp, perm, k + 1, K, lim, used);
        used[r] = false;
    }
}

static void make_spec(spec_problem *sp, const oracle_case *c, const pdt_ruleset *rs)
{
    size_t m = pdt_ruleset_size(rs);
    spec_problem_init(sp, c->n, m, 2);
    for (size_t i = 0; i < c->n; i++) sp->label[i] = c->label[i];
    for (size_t r = 0; r < m; r++) {
        const uint64_t *side = pdt_ruleset_sides(rs, r);
        for (size_t i = 0; i < c->n; i++) spec_set_left(sp, r, i, (side[i / 64] >> (i % 64)) & 1);
        size_t n_def;
        const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
        spec_set_def(sp, r, def, n_def);
    }
}

typedef struct totals {
    size_t instances, fits, front_points, by_k[4];
    uint64_t trees;
} totals;

/* One instance: brute force, then pdt for each metric. */
static bool check_case(const oracle_case *c, totals *tot)
{
    char csv[CSV_BYTES];
    oracle_csv(csv, sizeof csv, c);
    pdt_error err;
    pdt_error_clear(&err);
    pdt_dataset *ds = NULL;
    if (pdt_dataset_read_csv(&ds, csv, strlen(csv), "oracle.csv", NULL, &err))
        fail_msg("seed %#llx: %s", (unsigned long long)c->seed, err.message);
    pdt_ruleset *rs = NULL;
    pdt_rule_params params = {0};
    if (pdt_ruleset_build(&rs, ds, c->rules, &params, &err))
        fail_msg("seed %#llx: %s", (unsigned long long)c->seed, err.message);
    /* classes are sorted by name; the positive class is the data's second */
    size_t pos_class = 1;
    brute *b = calloc(1, sizeof *b);
    assert_non_null(b);
    b->n = c->n;
    for (size_t i = 0; i < c->n; i++) {
        b->label[i] = pdt_dataset_label(ds, i) == pos_class;
        b->P += b->label[i];
    }
    b->N = (uint32_t)c->n - b->P;
    spec_problem sp;
    make_spec(&sp, c, rs);
    spec_limits lim = {c->k, c->max_depth == PDT_UNLIMITED ? SPEC_NO_LIMIT : c->max_depth, c->min_leaf};
    uint32_t perm[SPEC_MAX_K];
    bool *used = calloc(sp.n_rules + 1, sizeof *used);
    assert_non_null(used);
    enumerate(b, &sp, perm, 0, c->k, &lim, used);
    free(used);
    tot->trees += b->trees;
    /* the brute-force front: reachable points no other reachable point weakly dominates */
    uint32_t front[2 * (ORACLE_MAX_ROWS + 1)][2];
    size_t nf = 0;
    for (uint32_t fp = 0; fp <= b->N; fp++)
        for (uint32_t fn = 0; fn <= b->P; fn++) {
            if (!b->reach[fp][fn]) continue;
            bool dominated = false;
            for (uint32_t x = 0; x <= fp && !dominated; x++)
                for (uint32_t y = 0; y <= fn && !dominated; y++)
                    dominated = b->reach[x][y] && (x != fp || y != fn);
            if (!dominated) front[nf][0] = fp, front[nf][1] = fn, nf++;
        }
    bool ok = true;
    static const pdt_metric metrics[] = {PDT_METRIC_F1, PDT_METRIC_MCC, PDT_METRIC_FM};
    for (size_t mi = 0; mi < 3 && ok; mi++) {
        pdt_metric metric = metrics[mi];
        /* the best tree of the brute force */
        counts best = {0};
        bool have = false;
        for (uint32_t fp = 0; fp <= b->N; fp++)
            for (uint32_t fn = 0; fn <= b->P; fn++) {
                if (!b->reach[fp][fn]) continue;
                counts x = {b->P - fn, fp, fn, b->N - fp};
                if (!have || metric_cmp(metric, &x, &best) > 0) best = x, have = true;
            }
        pdt_fit_options opt;
        pdt_fit_options_init(&opt);
        opt.rules = c->rules;
        opt.engine = PDT_ENGINE_FUSED;
        opt.max_size = c->k;
        opt.max_depth = c->max_depth;
        opt.min_leaf = c->min_leaf;
        opt.metric = metric;
        pdt_model *m = NULL;
        if (pdt_fit(&m, ds, &opt, &err)) {
            print_message("seed %#llx %s: pdt_fit failed: %s\n", (unsigned long long)c->seed,
                          pdt_metric_name(metric), err.message);
            ok = false;
            break;
        }
        tot->fits++;
        uint32_t *pred = malloc(c->n * sizeof *pred);
        assert_non_null(pred);
        assert_int_equal(pdt_model_predict(pred, m, ds, &err), PDT_OK);
        counts got = {0};
        for (size_t i = 0; i < c->n; i++) {
            bool says = pred[i] == pos_class, is = b->label[i];
            if (says && is) got.tp++;
            else if (says) got.fp++;
            else if (is) got.fn++;
            else got.tn++;
        }
        free(pred);
        if (metric_cmp(metric, &got, &best) != 0) {
            print_message("seed %#llx %s: pdt's tree has TP %lld FP %lld FN %lld TN %lld, the brute force's "
                          "best TP %lld FP %lld FN %lld TN %lld\n", (unsigned long long)c->seed,
                          pdt_metric_name(metric), (long long)got.tp, (long long)got.fp, (long long)got.fn,
                          (long long)got.tn, (long long)best.tp, (long long)best.fp, (long long)best.fn,
                          (long long)best.tn);
            ok = false;
        }
        if ((uint64_t)got.fp != m->confusion[1] || (uint64_t)got.fn != m->confusion[2]) {
            print_message("seed %#llx: the model reports other counts than it predicts\n", (unsigned long long)c->seed);
            ok = false;
        }
        if (m->size > c->k || (c->max_depth != PDT_UNLIMITED && m->depth > c->max_depth)) {
            print_message("seed %#llx: size %u depth %u beyond the limits\n", (unsigned long long)c->seed, m->size,
                          m->depth);
            ok = false;
        }
        bool same = m->front_points == nf;
        for (size_t i = 0; i < nf && same; i++) same = m->front[2 * i] == front[i][0] && m->front[2 * i + 1] == front[i][1];
        if (!same) {
            print_message("seed %#llx: pdt's front has %zu points, the brute force's %zu:", (unsigned long long)c->seed,
                          m->front_points, nf);
            for (size_t i = 0; i < nf; i++) print_message(" (%u,%u)", front[i][0], front[i][1]);
            print_message(" / pdt:");
            for (size_t i = 0; i < m->front_points; i++) print_message(" (%u,%u)", m->front[2 * i], m->front[2 * i + 1]);
            print_message("\n");
            ok = false;
        }
        tot->front_points += m->front_points;
        pdt_model_free(&m);
    }
    if (!ok) oracle_print_case(c);
    tot->instances++;
    tot->by_k[c->k < 4 ? c->k : 3]++;
    spec_problem_free(&sp);
    free(b);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
    return ok;
}

/* Two classes, both present; no weights (a metric counts items). */
static void two_classes(oracle_case *c, tu_rng *rng)
{
    c->n_classes = 2;
    oracle_random_labels(c, rng);
    c->weighted = false;
    for (size_t k = 0; k < ORACLE_MAX_CLASSES; k++) c->weight4[k] = 4;
    bool seen[2] = {false, false};
    for (size_t i = 0; i < c->n; i++) seen[c->label[i]] = true;
    if (!seen[0]) c->label[0] = 0;
    if (!seen[1]) c->label[c->n - 1] = 1;
}

static void limits(oracle_case *c, tu_rng *rng, uint32_t k_max)
{
    oracle_random_options(c, rng, k_max, BUDGET);
    if (c->k == 0 && c->max_depth == PDT_UNLIMITED) c->max_depth = 1;
}

static void make_axis(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "axis", .seed = seed};
    c->dims = 1 + tu_below(&rng, 3);
    c->n = 3 + tu_below(&rng, 10);
    oracle_random_points(c, &rng);
    two_classes(c, &rng);
    limits(c, &rng, 3);
}

static void make_hyperplane(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "hyperplane", .seed = seed};
    c->dims = 1 + tu_below(&rng, 2);
    c->n = 3 + tu_below(&rng, c->dims == 1 ? 9 : 6);
    oracle_random_points(c, &rng);
    two_classes(c, &rng);
    limits(c, &rng, 3);
}

static void make_conic(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = "hypersurface", .seed = seed};
    c->dims = 2;
    c->n = 5 + tu_below(&rng, 3);
    oracle_random_points(c, &rng);
    two_classes(c, &rng);
    limits(c, &rng, 2);
}

static void make_circle(oracle_case *c, uint64_t seed)
{
    tu_rng rng = {seed};
    *c = (oracle_case){.rules = tu_below(&rng, 2) ? "circle" : "axis,circle", .seed = seed};
    c->dims = 2;
    c->n = 3 + tu_below(&rng, 5);
    oracle_random_points(c, &rng);
    two_classes(c, &rng);
    limits(c, &rng, 3);
}

static void run(const char *family, void (*make)(oracle_case *c, uint64_t seed), uint64_t base)
{
    totals tot = {0};
    size_t failures = 0;
    const uint64_t count = tu_scaled(INSTANCES);
    for (uint64_t i = 0; i < count; i++) {
        oracle_case c;
        make(&c, base + i);
        if (!check_case(&c, &tot)) failures++;
    }
    print_message("%s: %zu instances (K = 0/1/2/3: %zu/%zu/%zu/%zu), %zu fits, %llu labelled trees enumerated, "
                  "%zu front points, %zu failures\n", family, tot.instances, tot.by_k[0], tot.by_k[1], tot.by_k[2],
                  tot.by_k[3], tot.fits, (unsigned long long)tot.trees, tot.front_points, failures);
    assert_int_equal(failures, 0);
}

static void test_metric_axis(void **state)
{
    (void)state;
    run("axis", make_axis, UINT64_C(0x3e7a100000000000));
}

static void test_metric_hyperplane(void **state)
{
    (void)state;
    run("hyperplane", make_hyperplane, UINT64_C(0x3e7a200000000000));
}

static void test_metric_conic(void **state)
{
    (void)state;
    run("hypersurface (conics)", make_conic, UINT64_C(0x3e7a300000000000));
}

static void test_metric_circle(void **state)
{
    (void)state;
    run("circle, axis+circle", make_circle, UINT64_C(0x3e7a400000000000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metric_axis),
        cmocka_unit_test(test_metric_hyperplane),
        cmocka_unit_test(test_metric_conic),
        cmocka_unit_test(test_metric_circle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
