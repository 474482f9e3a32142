/* Metric fits and fronts of the categorical family (issue 10: multiway
 * splits, backends/discrete/discrete_front.c) against brute force, on 300
 * random small two-class instances: 2–3 categorical columns of 2–4
 * categories (a third of the instances also one numeric column, which the
 * family cuts by thresholds x ≤ t), 4–16 rows, depth 1–3 and/or at most 1–3
 * branch nodes (a multiway node counts once), min-leaf 0 or 2.
 *
 * The brute force builds, for every region, the set of every (size, FP, FN)
 * some tree on it reaches — a leaf labelled positive or negative, or a split
 * on a column with at least two values there (one child per value present,
 * or the two sides of a threshold) with one tree per child — as sums of the
 * children's sets: no dominance, no cache, no budget distribution.  The best
 * F1, MCC and FM over that set (compared exactly in 128-bit integers here)
 * must equal the metric of pdt's model, whose counts are recounted from its
 * own predictions; pdt's root front must equal the set's nondominated points;
 * and every point of `pdt front`'s front must have a tree reaching exactly
 * it (recounted), within the limits. */
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "metric_oracle.h"
#include "model_impl.h"
#include "test_util.h"

#define INSTANCES 300
#define MAX_ROWS 16
#define MAX_COLS 4
#define MAX_SIZE 3 /* sizes tracked: 0..MAX_SIZE (size unlimited: all counted as 0) */

typedef struct instance {
    size_t n, d;
    unsigned k[MAX_COLS];
    bool numeric[MAX_COLS];
    uint8_t x[MAX_ROWS][MAX_COLS];
    uint8_t y[MAX_ROWS]; /* 1: positive ("yes") */
    uint32_t depth, size, min_leaf; /* PDT_UNLIMITED: none */
} instance;

/* reach[s][fp]: bit fn set when some tree of size s has (fp, fn) */
typedef struct reach {
    uint32_t bits[MAX_SIZE + 1][MAX_ROWS + 1];
} reach;

static unsigned size_cap(const instance *in) { return in->size == PDT_UNLIMITED ? 0 : in->size; }

/* out = every a + b (sizes added; beyond the cap dropped, or all 0 when size is free). */
static void sum(reach *out, const reach *a, const reach *b, const instance *in)
{
    unsigned cap = size_cap(in);
    memset(out, 0, sizeof *out);
    for (unsigned s1 = 0; s1 <= cap; s1++)
        for (unsigned f1 = 0; f1 <= in->n; f1++) {
            uint32_t x = a->bits[s1][f1];
            if (!x) continue;
            for (unsigned s2 = 0; s1 + s2 <= cap; s2++)
                for (unsigned f2 = 0; f1 + f2 <= in->n; f2++) {
                    uint32_t y = b->bits[s2][f2], acc = 0;
                    if (!y) continue;
                    for (unsigned fn = 0; fn <= in->n; fn++)
                        if (x >> fn & 1) acc |= y << fn;
                    out->bits[s1 + s2][f1 + f2] |= acc;
                }
        }
}

/* budget: the most branch nodes a tree here may have (only prunes the
 * enumeration: sizes are counted exactly, and capped, by sum). */
static void brute(reach *out, const instance *in, uint32_t mask, uint32_t depth_left, uint32_t budget)
{
    unsigned pos = 0, neg = 0;
    for (size_t i = 0; i < in->n; i++)
        if (mask >> i & 1) {
            if (in->y[i]) pos++;
            else neg++;
        }
    memset(out, 0, sizeof *out);
    out->bits[0][neg] |= 1u;        /* predicts positive: its negatives are false positives */
    out->bits[0][0] |= 1u << pos;   /* predicts negative */
    if (depth_left == 0 || budget == 0) return;
    for (size_t j = 0; j < in->d; j++) {
        /* the ways: one per value present (categorical), or x ≤ t against x > t */
        unsigned n_splits = in->numeric[j] ? in->k[j] - 1 : 1;
        for (unsigned t = 0; t < n_splits; t++) {
            uint32_t part[4] = {0};
            for (size_t i = 0; i < in->n; i++)
                if (mask >> i & 1) part[in->numeric[j] ? in->x[i][j] > t : in->x[i][j]] |= 1u << i;
            unsigned present = 0, small = 0;
            for (unsigned v = 0; v < 4; v++) {
                present += part[v] != 0;
                small += part[v] && (unsigned)__builtin_popcount(part[v]) < in->min_leaf;
            }
            if (present < 2 || small) continue;
            reach acc, child, next;
            memset(&acc, 0, sizeof acc);
            acc.bits[in->size == PDT_UNLIMITED ? 0 : 1][0] = 1u; /* the node itself */
            for (unsigned v = 0; v < 4; v++) {
                if (!part[v]) continue;
                brute(&child, in, part[v], depth_left == PDT_UNLIMITED ? depth_left : depth_left - 1,
                      budget == PDT_UNLIMITED ? budget : budget - 1);
                sum(&next, &acc, &child, in);
                acc = next;
            }
            for (unsigned s = 0; s <= MAX_SIZE; s++)
                for (unsigned f = 0; f <= MAX_ROWS; f++) out->bits[s][f] |= acc.bits[s][f];
        }
    }
}


static const char *const names[] = {"red", "green", "blue", "amber"};

static void random_instance(instance *in, tu_rng *rng)
{
    memset(in, 0, sizeof *in);
    in->n = 4 + tu_below(rng, MAX_ROWS - 3);
    in->d = 2 + tu_below(rng, 2);
    bool with_numeric = tu_below(rng, 3) == 0;
    for (size_t j = 0; j < in->d + with_numeric; j++) {
        in->k[j] = 2 + tu_below(rng, 3);
        in->numeric[j] = j == in->d;
    }
    in->d += with_numeric;
    for (size_t i = 0; i < in->n; i++) {
        for (size_t j = 0; j < in->d; j++) in->x[i][j] = (uint8_t)tu_below(rng, in->k[j]);
        bool noisy = tu_below(rng, 4) == 0, follows = (in->x[i][0] + in->x[i][1]) % 3 == 0;
        in->y[i] = (uint8_t)(noisy ? tu_below(rng, 2) : follows);
    }
    in->y[0] = 1, in->y[in->n - 1] = 0; /* both classes present */
    static const uint32_t depths[] = {1, 2, 3, PDT_UNLIMITED}, sizes[] = {1, 2, 3, PDT_UNLIMITED};
    in->depth = depths[tu_below(rng, 4)];
    in->size = sizes[tu_below(rng, 4)];
    if (in->depth == PDT_UNLIMITED && in->size == PDT_UNLIMITED) in->depth = 2;
    if (in->depth == 3 && in->size == PDT_UNLIMITED && in->n > 12) in->depth = 2; /* keeps the brute force quick */
    in->min_leaf = tu_below(rng, 4) == 0 ? 2 : 0;
}

static void instance_csv(char *out, size_t cap, const instance *in)
{
    size_t used = 0;
    for (size_t j = 0; j < in->d; j++) used += (size_t)snprintf(out + used, cap - used, "c%zu,", j);
    used += (size_t)snprintf(out + used, cap - used, "y\n");
    for (size_t i = 0; i < in->n; i++) {
        for (size_t j = 0; j < in->d; j++)
            used += in->numeric[j] ? (size_t)snprintf(out + used, cap - used, "%u,", in->x[i][j])
                                   : (size_t)snprintf(out + used, cap - used, "%s,", names[in->x[i][j]]);
        used += (size_t)snprintf(out + used, cap - used, "%s\n", in->y[i] ? "yes" : "no");
    }
}

static counts recount(const pdt_model *m, const pdt_dataset *ds, const instance *in)
{
    uint32_t pred[MAX_ROWS];
    pdt_error err;
    if (pdt_model_predict(pred, m, ds, &err)) fail_msg("predict: %s", err.message);
    counts c = {0};
    uint32_t yes = (uint32_t)pdt_dataset_find_class(ds, "yes");
    for (size_t i = 0; i < in->n; i++) {
        bool says = pred[i] == yes;
        if (says) in->y[i] ? c.tp++ : c.fp++;
        else in->y[i] ? c.fn++ : c.tn++;
    }
    return c;
}

static bool within(const pdt_model *m, const instance *in)
{
    if (in->size != PDT_UNLIMITED && m->size > in->size) return false;
    if (in->depth != PDT_UNLIMITED && m->depth > in->depth) return false;
    for (size_t i = 0; i < m->n_nodes && in->min_leaf && m->size; i++)
        if (pdt_node_is_leaf(&m->nodes[i]) && m->nodes[i].n_items < in->min_leaf) return false;
    return true;
}

static void fit_options(pdt_fit_options *o, const instance *in, pdt_metric metric)
{
    pdt_fit_options_init(o);
    o->rules = "categorical";
    o->max_depth = in->depth;
    o->max_size = in->size;
    o->min_leaf = in->min_leaf;
    o->metric = metric;
    o->positive = "yes";
}

/* Every point of the front has a tree reaching exactly it, within the limits. */
static size_t check_front_trees(const pdt_dataset *ds, const instance *in, const char *csv)
{
    pdt_fit_options o;
    fit_options(&o, in, PDT_METRIC_F1);
    pdt_front_fit *f = NULL;
    pdt_error err;
    if (pdt_front_fit_run(&f, ds, &o, &err)) fail_msg("pdt_front_fit_run: %s\n%s", err.message, csv);
    size_t n = pdt_front_fit_points(f);
    for (size_t i = 0; i < n; i++) {
        uint64_t fp, fn;
        pdt_front_fit_point(f, i, &fp, &fn);
        pdt_model *m = NULL;
        if (pdt_front_fit_model(&m, f, i, PDT_METRIC_F1, &err)) fail_msg("point %zu: %s\n%s", i, err.message, csv);
        counts c = recount(m, ds, in);
        if ((uint64_t)c.fp != fp || (uint64_t)c.fn != fn || !within(m, in))
            fail_msg("point %zu (%llu, %llu): the tree has (%lld, %lld), size %u depth %u\n%s", i,
                     (unsigned long long)fp, (unsigned long long)fn, (long long)c.fp, (long long)c.fn, m->size,
                     m->depth, csv);
        pdt_model_free(&m);
    }
    pdt_front_fit_free(&f);
    return n;
}

static size_t branch_nodes, wide_nodes; /* in the fitted trees; with three or more ways */

static void check_metric(const pdt_dataset *ds, const instance *in, const reach *r, pdt_metric metric,
                         const uint32_t (*front)[2], size_t nf, const char *csv)
{
    unsigned P = 0, N;
    for (size_t i = 0; i < in->n; i++) P += in->y[i];
    N = (unsigned)in->n - P;
    counts best = {0};
    bool have = false;
    for (unsigned s = 0; s <= MAX_SIZE; s++)
        for (unsigned fp = 0; fp <= N; fp++)
            for (unsigned fn = 0; fn <= P; fn++) {
                if (!(r->bits[s][fp] >> fn & 1)) continue;
                counts x = {P - fn, fp, fn, N - fp};
                if (!have || metric_cmp(metric, &x, &best) > 0) best = x, have = true;
            }
    pdt_fit_options o;
    fit_options(&o, in, metric);
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s: %s\n%s", pdt_metric_name(metric), err.message, csv);
    counts got = recount(m, ds, in);
    if (metric_cmp(metric, &got, &best) != 0 || !within(m, in) || !m->optimal)
        fail_msg("%s (depth %u size %u min-leaf %u): pdt TP %lld FP %lld FN %lld (size %u depth %u), brute force "
                 "TP %lld FP %lld FN %lld\n%s", pdt_metric_name(metric), in->depth, in->size, in->min_leaf,
                 (long long)got.tp, (long long)got.fp, (long long)got.fn, m->size, m->depth, (long long)best.tp,
                 (long long)best.fp, (long long)best.fn, csv);
    bool same = m->front_points == nf && (uint64_t)got.fp == m->confusion[1] && (uint64_t)got.fn == m->confusion[2];
    for (size_t i = 0; i < nf && same; i++) same = m->front[2 * i] == front[i][0] && m->front[2 * i + 1] == front[i][1];
    if (!same) {
        for (size_t i = 0; i < nf; i++) print_message(" (%u,%u)", front[i][0], front[i][1]);
        print_message(" / pdt:");
        for (size_t i = 0; i < m->front_points; i++) print_message(" (%u,%u)", m->front[2 * i], m->front[2 * i + 1]);
        fail_msg("\nthe fronts differ (brute force %zu points, pdt %zu; depth %u size %u min-leaf %u)\n%s", nf,
                 m->front_points, in->depth, in->size, in->min_leaf, csv);
    }
    branch_nodes += m->size;
    for (size_t i = 0; i < m->n_nodes; i++) wide_nodes += m->nodes[i].n_ways >= 3;
    pdt_model_free(&m);
}

static void test_metric_categorical(void **state)
{
    (void)state;
    tu_rng rng = {0xca7e6f1};
    char csv[2048];
    size_t points = 0, with_numeric = 0;
    for (int t = 0; t < INSTANCES; t++) {
        instance in;
        random_instance(&in, &rng);
        with_numeric += in.numeric[in.d - 1];
        instance_csv(csv, sizeof csv, &in);
        pdt_dataset *ds = NULL;
        pdt_error err;
        if (pdt_dataset_read_csv(&ds, csv, strlen(csv), "t.csv", NULL, &err)) fail_msg("%s", err.message);
        reach r;
        brute(&r, &in, (1u << in.n) - 1, in.depth, in.size);
        /* the nondominated points of every reachable (FP, FN), whatever the size */
        uint32_t seen[MAX_ROWS + 1] = {0}, front[2 * MAX_ROWS + 2][2];
        for (unsigned s = 0; s <= MAX_SIZE; s++)
            for (unsigned fp = 0; fp <= in.n; fp++) seen[fp] |= r.bits[s][fp];
        size_t nf = 0;
        unsigned least_fn = UINT32_MAX;
        for (unsigned fp = 0; fp <= in.n; fp++) {
            if (!seen[fp]) continue;
            unsigned fn = (unsigned)__builtin_ctz(seen[fp]);
            if (fn < least_fn) front[nf][0] = fp, front[nf][1] = fn, nf++, least_fn = fn;
        }
        static const pdt_metric metrics[] = {PDT_METRIC_F1, PDT_METRIC_MCC, PDT_METRIC_FM};
        for (size_t mi = 0; mi < 3; mi++) check_metric(ds, &in, &r, metrics[mi], (const uint32_t (*)[2])front, nf, csv);
        points += check_front_trees(ds, &in, csv);
        pdt_dataset_free(&ds);
    }
    print_message("%d instances (%zu with a numeric column), 900 fits (%zu branch nodes, %zu of three or more "
                  "ways), %zu front points each with its tree\n", INSTANCES, with_numeric, branch_nodes, wide_nodes,
                  points);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metric_categorical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
