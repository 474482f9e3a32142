/* The k-D tree plugin against two independent specifications written here:
 * with one dimension, Knuth's O(n²) optimal binary search tree DP; with two,
 * a brute force that lists every k-D tree (each node a point, level l
 * comparing coordinate order[l mod |order|], smaller left, ties right) and
 * evaluates Σ w·(depth+1) and the height of each. */
#include <stdlib.h>
#include <string.h>

#include "../problems/kdtree.h"
#include "../problems/lexpair.h"
#include "test_util.h"

typedef struct instance {
    size_t n, dims;
    mpq_t *x;      /* n · dims coordinates */
    mpq_t *w;      /* n weights */
    char *csv;     /* the same as CSV text with a weight column "w" */
} instance;

static void instance_free(instance *in)
{
    for (size_t i = 0; i < in->n * in->dims; i++) mpq_clear(in->x[i]);
    for (size_t i = 0; i < in->n; i++) mpq_clear(in->w[i]);
    free(in->x);
    free(in->w);
    free(in->csv);
}

/* Coordinates in [0, range) (ties likely when range is small); weights p/q,
 * times 10^20 when `huge` (sums beyond 64 bits: the plugin's GMP path). */
static void instance_random(instance *in, tu_rng *rng, size_t n, size_t dims, uint32_t range, bool distinct,
                            bool huge)
{
    in->n = n;
    in->dims = dims;
    in->x = malloc(n * dims * sizeof *in->x);
    in->w = malloc(n * sizeof *in->w);
    size_t cap = 64 + n * (dims + 1) * 24, len = 0;
    in->csv = malloc(cap);
    for (size_t j = 0; j < dims; j++) len += (size_t)sprintf(in->csv + len, "c%zu,", j);
    len += (size_t)sprintf(in->csv + len, "w\n");
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < dims; j++) {
            uint32_t v = distinct && dims == 1 ? (uint32_t)(i * 3 + tu_below(rng, 3)) : tu_below(rng, range);
            mpq_init(in->x[i * dims + j]);
            mpq_set_ui(in->x[i * dims + j], v, 2);
            mpq_canonicalize(in->x[i * dims + j]);
            len += (size_t)sprintf(in->csv + len, "%u/2,", v);
        }
        uint32_t num = tu_below(rng, 10), den = 1 + tu_below(rng, 4);
        mpq_init(in->w[i]);
        mpq_set_ui(in->w[i], num, den);
        if (huge) { /* the same number as the CSV text below */
            mpz_t p;
            mpz_init(p);
            mpz_ui_pow_ui(p, 10, 20);
            mpz_mul(mpq_numref(in->w[i]), mpq_numref(in->w[i]), p);
            mpz_clear(p);
        }
        mpq_canonicalize(in->w[i]);
        len += (size_t)sprintf(in->csv + len, huge && num ? "%u00000000000000000000/%u\n" : "%u/%u\n", num, den);
    }
}

typedef struct solved {
    mpq_t cost;
    uint32_t height;
} solved;

/* The plugin's bound at the root: (Σ w, least height) <= the optimum, componentwise. */
static void check_root_bound(pdt_kdtree *t, size_t n, mpz_srcptr scale_cost, uint32_t height)
{
    const pdt_problem_class *pc = pdt_problem_class_find("kdtree");
    assert_non_null(pc);
    size_t words = (n + 63) / 64;
    uint64_t *items = calloc(words, sizeof *items);
    for (size_t k = 0; k < n; k++) items[k / 64] |= UINT64_C(1) << (k % 64);
    pdt_node root = {items, (uint32_t)n, NULL, 0, 0};
    pdt_lex_value v;
    pdt_error err;
    pc->algebra->init(&v);
    assert_int_equal(pc->lower_bound(&v, t, &root, PDT_UNLIMITED, &err), PDT_OK);
    assert_true(mpz_cmp(v.p, scale_cost) <= 0);
    assert_true(mpz_cmp_ui(v.s, height) <= 0);
    pc->algebra->clear(&v);
    free(items);
}

/* A trace callback: the engine then runs the generic recursion (teaching
 * mode never takes the compact-key path), the slower oracle of that path. */
static bool force_generic;
static void ignore_event(void *user, const pdt_trace_event *ev)
{
    (void)user;
    (void)ev;
}

static void solve_with_plugin(solved *out, const instance *in, const uint32_t *order, size_t n_order,
                              pdt_kd_objective obj, bool no_memo)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_csv_options co = {.no_label = true, .weight = "w"};
    assert_int_equal(pdt_dataset_read_csv(&ds, in->csv, strlen(in->csv), "kd.csv", &co, &err), PDT_OK);
    pdt_kdtree *t = NULL;
    assert_int_equal(pdt_kdtree_new(&t, ds, order, n_order, obj, &err), PDT_OK);
    pdt_search_opts o;
    pdt_search_opts_init(&o);
    o.no_memo = no_memo;
    if (force_generic) o.trace = ignore_event;
    if (pdt_kdtree_solve(t, &o, &err)) fprintf(stderr, "%s\n", err.message);
    assert_true(pdt_kdtree_optimal(t));
    mpq_init(out->cost);
    pdt_kdtree_cost(out->cost, t);
    out->height = pdt_kdtree_height(t);
    if (obj == PDT_KD_ACCESS) { /* the bound is in scaled integer units: compare cost·lcm */
        mpz_t lcm, scaled;
        mpz_init_set_ui(lcm, 1);
        mpz_init(scaled);
        for (size_t i = 0; i < in->n; i++) mpz_lcm(lcm, lcm, mpq_denref(in->w[i]));
        mpz_divexact(scaled, lcm, mpq_denref(out->cost));
        mpz_mul(scaled, scaled, mpq_numref(out->cost));
        check_root_bound(t, in->n, scaled, out->height);
        mpz_clears(lcm, scaled, NULL);
    }
    pdt_kdtree_free(&t);
    pdt_dataset_free(&ds);
}

/* ------------------------------------------------------------ Knuth */

/* Optimal BST over keys sorted by value (distinct), successful searches only:
 * e[i][j] = W(i..j) + min over roots r in [R(i, j−1), R(i+1, j)] of e[i][r−1] + e[r+1][j]. */
static void knuth_bst(mpq_ptr out, const instance *in)
{
    size_t n = in->n;
    size_t *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++) idx[i] = i;
    for (size_t i = 1; i < n; i++) /* insertion sort by key */
        for (size_t k = i; k > 0 && mpq_cmp(in->x[idx[k - 1]], in->x[idx[k]]) > 0; k--) {
            size_t t = idx[k];
            idx[k] = idx[k - 1];
            idx[k - 1] = t;
        }
    size_t m = n + 2;
    mpq_t *e = malloc(m * m * sizeof *e), *W = malloc(m * m * sizeof *W), t;
    size_t *root = calloc(m * m, sizeof *root);
    mpq_init(t);
    for (size_t k = 0; k < m * m; k++) mpq_init(e[k]), mpq_init(W[k]);
    /* 1-based keys 1..n; e[i][i-1] = 0 */
    for (size_t len = 1; len <= n; len++)
        for (size_t i = 1; i + len - 1 <= n; i++) {
            size_t j = i + len - 1;
            mpq_add(W[i * m + j], W[i * m + j - 1], in->w[idx[j - 1]]);
            size_t lo = len == 1 ? i : root[i * m + j - 1], hi = len == 1 ? i : root[(i + 1) * m + j];
            bool first = true;
            for (size_t r = lo; r <= hi; r++) {
                mpq_add(t, e[i * m + r - 1], e[(r + 1) * m + j]);
                if (first || mpq_cmp(t, e[i * m + j]) < 0) mpq_set(e[i * m + j], t), root[i * m + j] = r;
                first = false;
            }
            mpq_add(e[i * m + j], e[i * m + j], W[i * m + j]);
        }
    mpq_set(out, e[1 * m + n]);
    for (size_t k = 0; k < m * m; k++) mpq_clear(e[k]), mpq_clear(W[k]);
    mpq_clear(t);
    free(e);
    free(W);
    free(root);
    free(idx);
}

static void test_kdtree_one_dimension_is_knuth(void **state)
{
    (void)state;
    tu_rng rng = {11};
    for (int trial = 0; trial < 60; trial++) {
        instance in;
        instance_random(&in, &rng, 1 + tu_below(&rng, trial < 50 ? 16 : 70), 1, 0, true, trial % 4 == 3);
        solved s;
        solve_with_plugin(&s, &in, NULL, 0, PDT_KD_ACCESS, false);
        mpq_t want;
        mpq_init(want);
        knuth_bst(want, &in);
        if (!mpq_equal(s.cost, want)) gmp_fprintf(stderr, "n=%zu: plugin %Qd, Knuth %Qd\n", in.n, s.cost, want);
        assert_true(mpq_equal(s.cost, want));
        mpq_clears(want, s.cost, NULL);
        instance_free(&in);
    }
}

/* ------------------------------------------------------------ brute force */

/* Every k-D tree on the points `set` (n_set of them) at `level`: each tree's
 * depth of every point, as rows of `depth` (n entries each, UINT32_MAX for
 * points not in the set); returns the number of trees. */
typedef struct forest {
    uint32_t *depth;
    size_t n_trees, cap, n;
} forest;

static void forest_add(forest *f, const uint32_t *row)
{
    if (f->n_trees == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 16;
        f->depth = realloc(f->depth, f->cap * f->n * sizeof *f->depth);
    }
    memcpy(f->depth + f->n_trees++ * f->n, row, f->n * sizeof *row);
}

static void all_trees(forest *out, const instance *in, const size_t *set, size_t n_set, uint32_t level,
                      const uint32_t *order, size_t n_order)
{
    out->n = in->n;
    uint32_t *row = malloc(in->n * sizeof *row);
    if (n_set == 0) {
        for (size_t i = 0; i < in->n; i++) row[i] = UINT32_MAX;
        forest_add(out, row);
        free(row);
        return;
    }
    size_t d = order[level % n_order], *l = malloc(n_set * sizeof *l), *r = malloc(n_set * sizeof *r);
    for (size_t k = 0; k < n_set; k++) {
        size_t p = set[k], nl = 0, nr = 0;
        for (size_t q = 0; q < n_set; q++) {
            if (q == k) continue;
            if (mpq_cmp(in->x[set[q] * in->dims + d], in->x[p * in->dims + d]) < 0) l[nl++] = set[q];
            else r[nr++] = set[q];
        }
        forest fl = {0}, fr = {0};
        all_trees(&fl, in, l, nl, level + 1, order, n_order);
        all_trees(&fr, in, r, nr, level + 1, order, n_order);
        for (size_t a = 0; a < fl.n_trees; a++)
            for (size_t b = 0; b < fr.n_trees; b++) {
                for (size_t i = 0; i < in->n; i++) {
                    uint32_t da = fl.depth[a * in->n + i], db = fr.depth[b * in->n + i];
                    row[i] = da != UINT32_MAX ? da : db;
                }
                row[p] = level;
                forest_add(out, row);
            }
        free(fl.depth);
        free(fr.depth);
    }
    free(l);
    free(r);
    free(row);
}

/* The best tree of the forest under the objective (lexicographic). */
static void brute_force(solved *out, const instance *in, const uint32_t *order, size_t n_order,
                        pdt_kd_objective obj)
{
    size_t *all = malloc(in->n * sizeof *all);
    for (size_t i = 0; i < in->n; i++) all[i] = i;
    forest f = {0};
    all_trees(&f, in, all, in->n, 0, order, n_order);
    mpq_t cost, t;
    mpq_inits(cost, t, NULL);
    mpq_init(out->cost);
    for (size_t k = 0; k < f.n_trees; k++) {
        mpq_set_ui(cost, 0, 1);
        uint32_t h = 0;
        for (size_t i = 0; i < in->n; i++) {
            uint32_t d = f.depth[k * in->n + i];
            mpq_set_ui(t, d + 1, 1);
            mpq_mul(t, t, in->w[i]);
            mpq_add(cost, cost, t);
            if (d + 1 > h) h = d + 1;
        }
        int c = obj == PDT_KD_ACCESS ? mpq_cmp(cost, out->cost) : (h > out->height) - (h < out->height);
        if (c == 0) c = obj == PDT_KD_ACCESS ? (h > out->height) - (h < out->height) : mpq_cmp(cost, out->cost);
        if (k == 0 || c < 0) mpq_set(out->cost, cost), out->height = h;
    }
    mpq_clears(cost, t, NULL);
    free(f.depth);
    free(all);
}

static void compare(const instance *in, const uint32_t *order, size_t n_order, pdt_kd_objective obj, bool no_memo)
{
    uint32_t identity[4] = {0, 1, 2, 3};
    solved got, want;
    solve_with_plugin(&got, in, order, n_order, obj, no_memo);
    brute_force(&want, in, order ? order : identity, order ? n_order : in->dims, obj);
    if (!mpq_equal(got.cost, want.cost) || got.height != want.height)
        gmp_fprintf(stderr, "n=%zu obj=%d: plugin %Qd h%u, brute force %Qd h%u\n%s", in->n, (int)obj, got.cost,
                    got.height, want.cost, want.height, in->csv);
    assert_true(mpq_equal(got.cost, want.cost));
    assert_int_equal(got.height, want.height);
    mpq_clears(got.cost, want.cost, NULL);
}

static void test_kdtree_two_dimensions_brute_force(void **state)
{
    (void)state;
    tu_rng rng = {5};
    for (int trial = 0; trial < 150; trial++) {
        instance in;
        /* small coordinate ranges make ties (equal coordinates go right) common */
        instance_random(&in, &rng, 1 + tu_below(&rng, 7), 2, trial % 2 ? 4 : 100, false, trial % 5 == 4);
        compare(&in, NULL, 0, PDT_KD_ACCESS, false);
        compare(&in, NULL, 0, PDT_KD_HEIGHT, false);
        if (trial % 5 == 0) compare(&in, NULL, 0, PDT_KD_ACCESS, true);
        instance_free(&in);
    }
}

static void test_kdtree_fixed_order_brute_force(void **state)
{
    (void)state;
    tu_rng rng = {6};
    const uint32_t orders[][3] = {{1, 0, 0}, {0, 0, 1}, {2, 1, 0}};
    const size_t lengths[] = {2, 3, 3};
    for (int trial = 0; trial < 60; trial++) {
        instance in;
        instance_random(&in, &rng, 1 + tu_below(&rng, 6), 3, 5, false, false);
        compare(&in, orders[trial % 3], lengths[trial % 3], PDT_KD_ACCESS, false);
        instance_free(&in);
    }
}

/* Equal keys go right: three equal keys form a chain, heaviest first. */
static void test_kdtree_ties_go_right(void **state)
{
    (void)state;
    const char *csv = "x,w\n5,1\n5,3\n5,2\n";
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_csv_options co = {.no_label = true, .weight = "w"};
    assert_int_equal(pdt_dataset_read_csv(&ds, csv, strlen(csv), "ties.csv", &co, &err), PDT_OK);
    pdt_kdtree *t = NULL;
    assert_int_equal(pdt_kdtree_new(&t, ds, NULL, 0, PDT_KD_ACCESS, &err), PDT_OK);
    assert_int_equal(pdt_kdtree_solve(t, NULL, &err), PDT_OK);
    mpq_t cost;
    mpq_init(cost);
    pdt_kdtree_cost(cost, t);
    assert_int_equal(mpq_cmp_ui(cost, 3 * 1 + 2 * 2 + 1 * 3, 1), 0);
    assert_int_equal(pdt_kdtree_height(t), 3);
    size_t n = 0;
    const pdt_kd_node *nodes = pdt_kdtree_nodes(t, &n);
    assert_int_equal(nodes[0].point, 1);                  /* weight 3 at the root */
    assert_int_equal(nodes[nodes[0].left].point, -1);     /* nothing is smaller */
    assert_int_equal(nodes[nodes[0].right].point, 2);     /* then weight 2 */
    mpq_clear(cost);
    pdt_kdtree_free(&t);
    pdt_dataset_free(&ds);
}

/* Compact keys (intervals of one distinct dimension, point-set words) against
 * Knuth's DP at sizes the brute force cannot reach, and against the generic
 * recursion on two dimensions with and without ties. */
static void test_kdtree_compact_keys_large(void **state)
{
    (void)state;
    tu_rng rng = {14};
    instance in;
    instance_random(&in, &rng, 300, 1, 0, true, false); /* intervals, 300 points */
    solved s;
    solve_with_plugin(&s, &in, NULL, 0, PDT_KD_ACCESS, false);
    mpq_t want;
    mpq_init(want);
    knuth_bst(want, &in);
    assert_true(mpq_equal(s.cost, want));
    mpq_clears(want, s.cost, NULL);
    instance_free(&in);
    for (int trial = 0; trial < 24; trial++) {
        size_t n = 8 + tu_below(&rng, trial < 20 ? 10 : 16);
        size_t dims = trial % 4 == 3 ? 1 : 2;
        instance_random(&in, &rng, n, dims, trial % 2 ? 5 : 1000, false, false);
        solved fast, slow;
        force_generic = true;
        solve_with_plugin(&slow, &in, NULL, 0, PDT_KD_ACCESS, false);
        force_generic = false;
        solve_with_plugin(&fast, &in, NULL, 0, PDT_KD_ACCESS, false);
        if (!mpq_equal(fast.cost, slow.cost) || fast.height != slow.height)
            gmp_fprintf(stderr, "n=%zu: compact %Qd h%u, generic %Qd h%u\n%s", n, fast.cost, fast.height,
                        slow.cost, slow.height, in.csv);
        assert_true(mpq_equal(fast.cost, slow.cost));
        assert_int_equal(fast.height, slow.height);
        mpq_clears(fast.cost, slow.cost, NULL);
        instance_free(&in);
    }
}

static void test_kdtree_order_parse(void **state)
{
    (void)state;
    const char *csv = "x,y,z\n1,2,3\n";
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_csv_options co = {.no_label = true};
    assert_int_equal(pdt_dataset_read_csv(&ds, csv, strlen(csv), "o.csv", &co, &err), PDT_OK);
    uint32_t *order = NULL;
    size_t n = 0;
    assert_int_equal(pdt_kdtree_parse_order(&order, &n, ds, "z,1,y", &err), PDT_OK);
    assert_int_equal(n, 3);
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 0);
    assert_int_equal(order[2], 1);
    free(order);
    assert_int_equal(pdt_kdtree_parse_order(&order, &n, ds, "x,w", &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "option --order: no dimension \"w\" (dimensions: x, y, z)"));
    assert_int_equal(pdt_kdtree_parse_order(&order, &n, ds, "x,,y", &err), PDT_EINVAL);
    assert_int_equal(pdt_kdtree_parse_order(&order, &n, ds, "4", &err), PDT_EINVAL);
    pdt_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kdtree_one_dimension_is_knuth),
        cmocka_unit_test(test_kdtree_two_dimensions_brute_force),
        cmocka_unit_test(test_kdtree_fixed_order_brute_force),
        cmocka_unit_test(test_kdtree_ties_go_right),
        cmocka_unit_test(test_kdtree_order_parse),
        cmocka_unit_test(test_kdtree_compact_keys_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
