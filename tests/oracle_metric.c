/* Metric fits (issue 10) against brute force: random two-class binary data
 * (600 instances: 4–30 rows, 2–5 features, depth 1–3, a third with a smaller
 * size limit, imbalanced classes).  Every tree is enumerated one by one and
 * its FP and FN counted from its own leaves — at depth ≤ 2 always (two
 * independent enumerations that must agree), at depth 3 for two features
 * (81 610 trees).  Depth 3 with 3–5 features uses the set of every
 * (FP, FN, size) any tree reaches, built unfiltered (a tree's counts are the
 * sums of its subtrees': no dominance, no cache), checked against the
 * one-by-one enumeration wherever both run.  The best F1, MCC and FM over
 * every tree (compared in 128-bit integers, not through front.c) must equal
 * pdt's optimum exactly, and pdt's root front must equal the nondominated
 * points of the brute-force set (dominance tested pairwise here). */
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "model_impl.h"
#include "../rules/binary_impl.h"
#include "../backends/murtree/binary_front.h"
#include "test_util.h"

#define MAX_ROWS 30
#define MAX_F 5

typedef struct inst {
    uint32_t n, nf, d, k; /* k: size limit (branch nodes) */
    uint8_t x[MAX_ROWS][MAX_F];
    uint32_t y[MAX_ROWS]; /* 1: positive */
} inst;

/* (fp, fn, size) triples: a set without duplicates, never filtered by dominance. */
typedef struct reach {
    uint32_t *t; /* 3 per triple */
    size_t n, cap;
} reach;

static void reach_add(reach *r, uint32_t fp, uint32_t fn, uint32_t size)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->t[3 * i] == fp && r->t[3 * i + 1] == fn && r->t[3 * i + 2] == size) return;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->t = realloc(r->t, 3 * r->cap * sizeof *r->t);
        assert_non_null(r->t);
    }
    r->t[3 * r->n] = fp, r->t[3 * r->n + 1] = fn, r->t[3 * r->n + 2] = size;
    r->n++;
}

/* ------------------------------------------------------------ explicit trees */

/* A tree of depth ≤ 2 as a code: node = leaf label or feature; walked per row. */
typedef struct tree2 {
    int root;          /* -1: leaf */
    int kid[2];        /* feature, or -1: leaf */
    uint32_t lab[2][2];/* leaf labels: [side][side2]; a leaf child uses [side][0]; the root leaf [0][0] */
} tree2;

static void count_tree(const inst *I, const tree2 *t, uint32_t *fp, uint32_t *fn)
{
    *fp = *fn = 0;
    for (uint32_t i = 0; i < I->n; i++) {
        uint32_t pred;
        if (t->root < 0) pred = t->lab[0][0];
        else {
            int s = I->x[i][t->root];
            pred = t->kid[s] < 0 ? t->lab[s][0] : t->lab[s][I->x[i][t->kid[s]]];
        }
        if (pred && !I->y[i]) ++*fp;
        if (!pred && I->y[i]) ++*fn;
    }
}

/* Every tree of depth ≤ d ≤ 2 and ≤ k nodes, one by one. */
static void explicit_trees(const inst *I, reach *r)
{
    tree2 t;
    uint32_t fp, fn;
    for (uint32_t a = 0; a < 2; a++) {
        memset(&t, 0, sizeof t);
        t.root = -1, t.lab[0][0] = a;
        count_tree(I, &t, &fp, &fn);
        reach_add(r, fp, fn, 0);
    }
    if (I->d < 1 || I->k < 1) return;
    for (int f = 0; f < (int)I->nf; f++)
        for (int k0 = -1; k0 < (I->d >= 2 ? (int)I->nf : 0); k0++)
            for (int k1 = -1; k1 < (I->d >= 2 ? (int)I->nf : 0); k1++) {
                uint32_t size = 1 + (k0 >= 0) + (k1 >= 0);
                if (size > I->k) continue;
                for (uint32_t mask = 0; mask < 16; mask++) {
                    t.root = f, t.kid[0] = k0, t.kid[1] = k1;
                    t.lab[0][0] = mask & 1, t.lab[0][1] = mask >> 1 & 1;
                    t.lab[1][0] = mask >> 2 & 1, t.lab[1][1] = mask >> 3 & 1;
                    if ((k0 < 0 && (mask & 2)) || (k1 < 0 && (mask & 8))) continue; /* unused labels */
                    count_tree(I, &t, &fp, &fn);
                    reach_add(r, fp, fn, size);
                }
            }
}

/* Every tree of depth ≤ d (any d ≤ 3) one by one, in heap order (node k's
 * children 2k, 2k+1): node values LEAF_NEG, LEAF_POS or a feature.  Used at
 * depth 3 for two features (81 610 trees). */
#define LEAF_NEG (-1)
#define LEAF_POS (-2)

typedef struct walk {
    const inst *I;
    int node[32]; /* positions 1..15 used; 32 keeps every 2k + 1 in range */
    int open[32];
    reach *out;
} walk;

static void evaluate(walk *w)
{
    uint32_t fp = 0, fn = 0, size = 0;
    for (uint32_t i = 0; i < w->I->n; i++) {
        int k = 1;
        while (w->node[k] >= 0) k = 2 * k + w->I->x[i][w->node[k]];
        bool pred = w->node[k] == LEAF_POS;
        fp += pred && !w->I->y[i];
        fn += !pred && w->I->y[i];
    }
    for (int k = 1; k < 8; k++) { /* the splits reachable from the root */
        bool reached = true;
        for (int a = k; a > 1 && reached; a /= 2) reached = w->node[a / 2] >= 0;
        size += reached && w->node[k] >= 0;
    }
    reach_add(w->out, fp, fn, size);
}

/* Fills the open positions open[0..n_open) (a stack, top last), then
 * evaluates; leaves the stack as it found it. */
static void fill(walk *w, int n_open)
{
    if (n_open == 0) {
        evaluate(w);
        return;
    }
    int k = w->open[n_open - 1];
    if (k >= 16) return; /* never: depth ≤ 3 */
    int depth = k >= 8 ? 3 : k >= 4 ? 2 : k >= 2 ? 1 : 0;
    w->node[k] = LEAF_NEG;
    fill(w, n_open - 1);
    w->node[k] = LEAF_POS;
    fill(w, n_open - 1);
    for (int f = 0; depth < (int)w->I->d && f < (int)w->I->nf; f++) {
        w->node[k] = f;
        w->open[n_open - 1] = 2 * k + 1;
        w->open[n_open] = 2 * k;
        fill(w, n_open + 1);
    }
    w->node[k] = LEAF_NEG;
    w->open[n_open - 1] = k;
}

static void every_tree(const inst *I, reach *r)
{
    walk w = {.I = I, .out = r};
    for (int k = 0; k < 32; k++) w.node[k] = LEAF_NEG;
    w.open[0] = 1;
    fill(&w, 1);
}

/* ------------------------------------------------------------ the reachable set */

static void reach_of(const inst *I, const uint8_t *rows, uint32_t d, reach *r)
{
    uint32_t pos = 0, neg = 0;
    for (uint32_t i = 0; i < I->n; i++)
        if (rows[i]) I->y[i] ? pos++ : neg++;
    reach_add(r, neg, 0, 0); /* predict positive */
    reach_add(r, 0, pos, 0);
    if (d == 0) return;
    uint8_t side[2][MAX_ROWS];
    for (uint32_t f = 0; f < I->nf; f++) {
        for (uint32_t i = 0; i < I->n; i++) {
            side[0][i] = rows[i] && !I->x[i][f];
            side[1][i] = rows[i] && I->x[i][f];
        }
        reach a = {0}, b = {0};
        reach_of(I, side[0], d - 1, &a);
        reach_of(I, side[1], d - 1, &b);
        for (size_t i = 0; i < a.n; i++)
            for (size_t j = 0; j < b.n; j++)
                reach_add(r, a.t[3 * i] + b.t[3 * j], a.t[3 * i + 1] + b.t[3 * j + 1],
                          1 + a.t[3 * i + 2] + b.t[3 * j + 2]);
        free(a.t), free(b.t);
    }
}

/* ------------------------------------------------------------ metrics in integers */

typedef struct frac { /* value = sign · num / den (num, den ≥ 0; den 0 means 0) */
    int sign;
    uint64_t num, den;
} frac;

static frac metric_of(pdt_metric m, uint64_t tp, uint64_t fp, uint64_t fn, uint64_t tn)
{
    frac v = {1, 0, 0};
    if (m == PDT_METRIC_F1) v.num = 2 * tp, v.den = 2 * tp + fp + fn;
    else if (m == PDT_METRIC_FM) v.num = tp * tp, v.den = (tp + fp) * (tp + fn);
    else {
        int64_t c = (int64_t)(tp * tn) - (int64_t)(fp * fn);
        v.sign = c < 0 ? -1 : 1;
        v.num = (uint64_t)(c < 0 ? -c : c) * (uint64_t)(c < 0 ? -c : c);
        v.den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn);
    }
    if (v.den == 0 || v.num == 0) v = (frac){1, 0, 1};
    return v;
}

static int frac_cmp(frac a, frac b)
{
    if (a.sign != b.sign) return a.sign < b.sign ? -1 : 1;
    unsigned __int128 x = (unsigned __int128)a.num * b.den, y = (unsigned __int128)b.num * a.den;
    int c = (x > y) - (x < y);
    return a.sign < 0 ? -c : c;
}

/* ------------------------------------------------------------ one instance */

static pdt_dataset *make_data(const inst *I)
{
    double x[MAX_ROWS * MAX_F];
    uint32_t y[MAX_ROWS];
    for (uint32_t i = 0; i < I->n; i++) {
        for (uint32_t f = 0; f < I->nf; f++) x[i * I->nf + f] = I->x[i][f];
        y[i] = I->y[i]; /* class 0 "neg", class 1 "pos" */
    }
    static const char *const names[] = {"neg", "pos"};
    pdt_array_data in = {.n = I->n, .d = I->nf, .x = x, .labels = y, .class_names = names, .n_classes = 2};
    pdt_dataset *ds = NULL;
    pdt_error err;
    assert_int_equal(pdt_dataset_from_arrays(&ds, &in, &err), PDT_OK);
    return ds;
}

static void check_front(const inst *I, const reach *all, const pdt_dataset *ds, const pdt_fit_options *o)
{
    pdt_front f;
    pdt_front_init(&f);
    uint32_t positive = 0;
    pdt_error err;
    pdt_status st = bs_metric_front(&f, &positive, ds, o, &err);
    if (st) fail_msg("%s", err.message);
    assert_int_equal(positive, 1);
    size_t nondominated = 0;
    for (size_t i = 0; i < all->n; i++) {
        const uint32_t *a = all->t + 3 * i;
        if (a[2] > I->k) continue;
        bool dominated = false, dup = false;
        for (size_t j = 0; j < all->n && !dominated; j++) {
            const uint32_t *b = all->t + 3 * j;
            if (b[2] > I->k) continue;
            if (b[0] <= a[0] && b[1] <= a[1] && (b[0] < a[0] || b[1] < a[1])) dominated = true;
            if (j < i && b[0] == a[0] && b[1] == a[1]) dup = true;
        }
        if (dominated || dup) continue;
        nondominated++;
        bool found = false;
        for (size_t j = 0; j < f.n; j++) found |= f.p[j].fp == a[0] && f.p[j].fn == a[1];
        if (!found) fail_msg("brute-force front point (%u, %u) missing from pdt's front", a[0], a[1]);
    }
    assert_int_equal(f.n, nondominated);
    pdt_front_clear(&f);
}

static void check_metric(const inst *I, const reach *all, const pdt_dataset *ds, pdt_fit_options *o, pdt_metric m)
{
    uint32_t P = 0;
    for (uint32_t i = 0; i < I->n; i++) P += I->y[i];
    frac best = {-1, 2, 1};
    for (size_t i = 0; i < all->n; i++) {
        const uint32_t *a = all->t + 3 * i;
        if (a[2] > I->k) continue;
        frac v = metric_of(m, P - a[1], a[0], a[1], I->n - P - a[0]);
        if (frac_cmp(v, best) > 0) best = v;
    }
    o->metric = m;
    pdt_model *model = NULL;
    pdt_error err;
    if (pdt_fit(&model, ds, o, &err)) fail_msg("%s", err.message);
    mpq_t want;
    mpq_init(want);
    if (best.num == 0) mpq_set_ui(want, 0, 1);
    else {
        mpz_set_ui(mpq_numref(want), (unsigned long)best.num);
        mpz_set_ui(mpq_denref(want), (unsigned long)best.den);
        mpq_canonicalize(want);
    }
    if (!mpq_equal(want, model->objective))
        fail_msg("metric %s: brute force %llu/%llu, pdt %s", pdt_metric_name(m), (unsigned long long)best.num,
                 (unsigned long long)best.den, mpq_get_str(NULL, 10, model->objective));
    if (m == PDT_METRIC_MCC) assert_int_equal(model->mcc_sign, best.num ? best.sign : 0);
    /* the counts are the tree's own, and within the limits */
    assert_int_equal(model->confusion[0] + model->confusion[2], P);
    assert_true(model->size <= I->k && model->depth <= I->d);
    mpq_clear(want);
    pdt_model_free(&model);
}

/* The metric bound (backends/murtree/binary_front_bound.c): the root solved under
 * offsets o, in turn on one search, with a fixed incumbent (a random point some
 * tree reaches, or the optimum) must give every nondominated brute-force point t whose t + o has
 * a metric at least the incumbent's (computed here), and only nondominated points. */
static size_t check_bounded(const inst *I, const reach *all, const pdt_dataset *ds, pdt_fit_options *o, pdt_metric m,
                            tu_rng *g)
{
    /* at most the instance's size limit (the enumerated set stops there), often smaller:
     * at depth 3 depth-2 children with budgets 2 and 3 then meet */
    uint32_t k = tu_below(g, 2) ? I->k : 1 + tu_below(g, I->k);
    o->max_size = k;
    uint32_t P = 0, within = 0;
    for (uint32_t i = 0; i < I->n; i++) P += I->y[i];
    const uint32_t *inc = NULL, *best = NULL;
    frac top = {-1, 2, 1};
    for (size_t i = 0; i < all->n; i++) { /* a random point within the limits, and the best one */
        const uint32_t *a = all->t + 3 * i;
        if (a[2] > k) continue;
        if (tu_below(g, ++within) == 0) inc = a;
        frac v = metric_of(m, P - a[1], a[0], a[1], I->n - P - a[0]);
        if (frac_cmp(v, top) > 0) top = v, best = a;
    }
    if (tu_below(g, 2)) inc = best; /* the tightest bound: the metric's optimum */
    frac bar = metric_of(m, P - inc[1], inc[0], inc[1], I->n - P - inc[0]);
    enum { Q = 5 };
    fr_off offs[Q] = {{0, 0}, {tu_below(g, 3), tu_below(g, 3)}, {0, 0}, {tu_below(g, 2), 0}, {0, tu_below(g, 2)}};
    pdt_front outs[Q];
    for (int q = 0; q < Q; q++) pdt_front_init(&outs[q]);
    o->metric = m;
    pdt_error err;
    if (bs_metric_front_under(outs, offs, Q, ds, o, inc[0], inc[1], &err)) fail_msg("%s", err.message);
    size_t needed = 0;
    for (int q = 0; q < Q; q++) {
        bool seen[64] = {false};
        assert_true(outs[q].n <= 64);
        for (size_t i = 0; i < all->n; i++) {
            const uint32_t *a = all->t + 3 * i;
            if (a[2] > k) continue;
            bool dominated = false;
            for (size_t j = 0; j < all->n && !dominated; j++) {
                const uint32_t *b = all->t + 3 * j;
                dominated = b[2] <= k && b[0] <= a[0] && b[1] <= a[1] && (b[0] < a[0] || b[1] < a[1]);
            }
            if (dominated) continue;
            size_t at = SIZE_MAX;
            for (size_t j = 0; j < outs[q].n; j++)
                if (outs[q].p[j].fp == a[0] && outs[q].p[j].fn == a[1]) at = j;
            if (at != SIZE_MAX) seen[at] = true;
            uint32_t fp = a[0] + offs[q].x, fn = a[1] + offs[q].y;
            if (fp > I->n - P || fn > P) continue;
            if (frac_cmp(metric_of(m, P - fn, fp, fn, I->n - P - fp), bar) < 0) continue;
            needed++;
            if (at == SIZE_MAX)
                fail_msg("%s, incumbent (%u, %u), offset (%u, %u): front point (%u, %u) pruned", pdt_metric_name(m),
                         inc[0], inc[1], offs[q].x, offs[q].y, a[0], a[1]);
        }
        for (size_t j = 0; j < outs[q].n; j++)
            if (!seen[j]) fail_msg("%s: (%u, %u) is no front point", pdt_metric_name(m), outs[q].p[j].fp, outs[q].p[j].fn);
        pdt_front_clear(&outs[q]);
    }
    o->max_size = I->k;
    return needed;
}

static void random_inst(inst *I, tu_rng *g)
{
    I->n = 4 + tu_below(g, 27);
    I->nf = 2 + tu_below(g, 4);
    I->d = 1 + tu_below(g, 3);
    uint32_t cap = (1u << I->d) - 1;
    I->k = tu_below(g, 3) == 0 ? 1 + tu_below(g, cap) : cap;
    uint32_t bias = 1 + tu_below(g, 4); /* imbalanced classes, on purpose */
    for (uint32_t i = 0; i < I->n; i++) {
        for (uint32_t f = 0; f < I->nf; f++) I->x[i][f] = (uint8_t)tu_below(g, 2);
        I->y[i] = tu_below(g, bias + 1) == 0;
    }
    I->y[0] = 1, I->y[1] = 0; /* both classes present */
}

static void test_oracle_metric_random(void **state)
{
    (void)state;
    tu_rng g = {20261125};
    size_t bounded_points = 0; /* front points the bounded searches had to keep */
    for (int rep = 0; rep < 600; rep++) {
        inst I;
        random_inst(&I, &g);
        uint8_t rows[MAX_ROWS];
        memset(rows, 1, sizeof rows);
        reach all = {0};
        reach_of(&I, rows, I.d, &all);
        if (I.d <= 2 || I.nf == 2) { /* the explicit enumeration gives the same set */
            reach ex = {0};
            if (I.d <= 2) explicit_trees(&I, &ex);
            else every_tree(&I, &ex);
            if (I.d <= 2) { /* the two enumerations agree */
                reach ex2 = {0};
                every_tree(&I, &ex2);
                size_t within = 0; /* explicit_trees stops at the size limit */
                for (size_t j = 0; j < ex2.n; j++) within += ex2.t[3 * j + 2] <= I.k;
                assert_int_equal(within, ex.n);
                for (size_t i = 0; i < ex.n; i++) {
                    bool found = false;
                    for (size_t j = 0; j < ex2.n && !found; j++)
                        found = memcmp(ex.t + 3 * i, ex2.t + 3 * j, 3 * sizeof *ex.t) == 0;
                    assert_true(found);
                }
                free(ex2.t);
            }
            for (size_t i = 0; i < all.n; i++) {
                if (all.t[3 * i + 2] > I.k) continue;
                bool found = false; /* an explicit tree with ≤ as many nodes reaches it */
                for (size_t j = 0; j < ex.n && !found; j++)
                    found = ex.t[3 * j] == all.t[3 * i] && ex.t[3 * j + 1] == all.t[3 * i + 1] &&
                            ex.t[3 * j + 2] <= all.t[3 * i + 2];
                assert_true(found);
            }
            free(all.t);
            all = ex; /* the tree-by-tree enumeration is the oracle */
        }
        pdt_dataset *ds = make_data(&I);
        pdt_fit_options o;
        pdt_fit_options_init(&o);
        o.rules = "binary";
        o.max_depth = I.d;
        o.max_size = I.k;
        o.positive = "pos";
        o.metric = PDT_METRIC_F1;
        check_front(&I, &all, ds, &o);
        check_metric(&I, &all, ds, &o, PDT_METRIC_F1);
        check_metric(&I, &all, ds, &o, PDT_METRIC_MCC);
        check_metric(&I, &all, ds, &o, PDT_METRIC_FM);
        bounded_points += check_bounded(&I, &all, ds, &o, PDT_METRIC_F1, &g);
        bounded_points += check_bounded(&I, &all, ds, &o, PDT_METRIC_MCC, &g);
        bounded_points += check_bounded(&I, &all, ds, &o, PDT_METRIC_FM, &g);
        pdt_dataset_free(&ds);
        free(all.t);
    }
    print_message("bounded searches: %zu front points within the bound kept\n", bounded_points);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_oracle_metric_random)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
