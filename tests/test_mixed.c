/* Mixed rule families: one candidate list of several families, related by
 * where their defining points lie (framework/ruleset.c), can build trees no
 * single family can.  The brute-force agreement of mixed lists is in
 * oracle_mixed.c and oracle_hypersurface.c; here a hand-derived instance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "pdt_plugin.h"
#include "test_util.h"

static pdt_dataset *csv(const char *text)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "mixed.csv", NULL, &err)) fail_msg("%s", err.message);
    return ds;
}

static int64_t optimum(const pdt_dataset *ds, const char *rules, uint32_t k, pdt_model **keep)
{
    pdt_fit_options fo;
    pdt_fit_options_init(&fo);
    fo.rules = rules;
    fo.max_size = k;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &fo, &err)) fail_msg("%s: %s", rules, err.message);
    assert_true(pdt_model_optimal(m));
    mpq_t q;
    mpq_init(q);
    pdt_model_objective(q, m);
    int64_t v = mpz_get_si(mpq_numref(q));
    mpq_clear(q);
    if (keep) *keep = m;
    else pdt_model_free(&m);
    return v;
}

/* Five points, three classes:
 *
 *     c2 (0,2)        v (2,2) b           u = (0,0) class a
 *           c3 (1,1.2)                    v = (2,2) class b
 *     u (0,0) a       c1 (2,0)            c1, c2, c3 class c
 *
 * A tree of cost 0 needs three pure leaves, so two splits (K = 2) with one
 * side of the root already pure.
 * - Axis only: the cuts are x ≤ 0 ({u,c2} | {c3,c1,v}), x ≤ 1 ({u,c2,c3} |
 *   {c1,v}), y ≤ 0 ({u,c1} | {c2,c3,v}), y ≤ 1.2 ({u,c1,c3} | {c2,v}); no side
 *   is pure, so the optimum is 1 (e.g. x ≤ 0, then y ≤ 1.2).
 * - Conics only (degree 2, 5 defining points): only the root region holds 5
 *   points; its children hold at most 4, where no conic is defined.  One split,
 *   two leaves for three classes: optimum 1.
 * - Mixed: the conic through all five points with u and v assigned left and
 *   the c's right gives {u,v} | {c1,c2,c3}; in {u,v} the axis rule x ≤ 0
 *   (defined by u, which lies in that region) separates a from b: optimum 0.
 * Both splits are needed: the oblique one (a curve) and the axis one in a
 * region too small for the curve family. */
static void test_mixed_beats_both_pure_families(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,y,c\n0,0,a\n2,2,b\n2,0,c\n0,2,c\n1,1.2,c\n");
    assert_int_equal(optimum(ds, "axis", 2, NULL), 1);
    assert_int_equal(optimum(ds, "hypersurface", 2, NULL), 1);
    pdt_model *m = NULL;
    assert_int_equal(optimum(ds, "axis,hypersurface", 2, &m), 0);
    assert_int_equal(pdt_model_size(m), 2);
    char path[512];
    snprintf(path, sizeof path, "%s/mixed.json", tu_tmpdir());
    pdt_error err;
    assert_int_equal(pdt_model_save_json(m, path, &err), PDT_OK);
    char *json = tu_read_file(path);
    assert_non_null(strstr(json, "\"hypersurface\""));
    assert_non_null(strstr(json, "\"axis\""));
    free(json);
    pdt_model_free(&m);
    /* adding lines changes nothing here: all three families together also reach 0 */
    assert_int_equal(optimum(ds, "axis,hyperplane,hypersurface", 2, NULL), 0);
    pdt_dataset_free(&ds);
}

static int64_t optimum_depth(const pdt_dataset *ds, const char *rules, uint32_t k, uint32_t depth)
{
    pdt_fit_options fo;
    pdt_fit_options_init(&fo);
    fo.rules = rules;
    fo.max_size = k;
    fo.max_depth = depth;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &fo, &err)) fail_msg("%s: %s", rules, err.message);
    assert_true(pdt_model_optimal(m));
    assert_true(pdt_model_depth(m) <= depth);
    mpq_t q;
    mpq_init(q);
    pdt_model_objective(q, m);
    int64_t v = mpz_get_si(mpq_numref(q));
    mpq_clear(q);
    pdt_model_free(&m);
    return v;
}

/* Axis-parallel and oblique splits in one tree (3-D, six points, four
 * classes, at most 3 branch nodes, depth at most 2):
 *
 *     a = (1,3,0)  b = (0,0,3)  c1 = (1,0,2)  c2 = (0,0,0)  d1 = (3,2,2)  d2 = (0,0,1)
 *
 * A cost-0 tree of depth 2 has four pure leaves, so the root must send two
 * classes each way: {a,b}|{c,d}, {a,c}|{b,d} or {a,d}|{b,c}.
 * - Planes only: {a,b} has two points and a plane needs three in its region,
 *   so {a,b}|{c,d} leaves an error; {a,c1,c2} and {b,d1,d2} are not
 *   separable (their hulls share (0.9,0.6,1.4) = 0.2a + 0.7c1 + 0.1c2 =
 *   0.05b + 0.3d1 + 0.65d2), nor are {a,d1,d2} and {b,c1,c2} (d2 lies on the
 *   segment c2 b).  So the optimum is ≥ 1; = 1 by the mixed tree below
 *   with its axis split replaced by a leaf.
 * - Thresholds only: the cuts of x (≤0: {b,c2,d2}, ≤1: all but d1), y (≤0:
 *   {b,c1,c2,d2}, ≤2: all but a) and z (≤0: {a,c2}, ≤1: {a,c2,d2}, ≤2: all
 *   but b) never split the classes two and two: ≥ 1; = 1 by y ≤ 0, then
 *   z ≤ 2 ({c1,c2,d2}: one error | {b}) and x ≤ 1 ({a} | {d1}).
 * - Mixed: y + z − x separates {a,b} (values 2, 3) from the rest (≤ 1), so a
 *   plane through three points realises {a,b}|{c,d}; there x ≤ 0 (defined
 *   by b) separates b from a, and the segments c1c2 and d1d2 are disjoint so
 *   a plane through three of {c1,c2,d1,d2} separates c from d: cost 0.
 * Without the depth limit planes alone reach 0 too: y ≥ 2.5 peels a, then
 * z ≥ 2.5 peels b, then c from d as above (depth 3). */
static void test_mixed_axis_and_plane(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,y,z,c\n1,3,0,a\n0,0,3,b\n1,0,2,c\n0,0,0,c\n3,2,2,d\n0,0,1,d\n");
    assert_int_equal(optimum_depth(ds, "axis", 3, 2), 1);
    assert_int_equal(optimum_depth(ds, "hyperplane", 3, 2), 1);
    assert_int_equal(optimum_depth(ds, "axis,hyperplane", 3, 2), 0);
    assert_int_equal(optimum_depth(ds, "hyperplane", 3, PDT_UNLIMITED), 0);
    pdt_dataset_free(&ds);
}

/* The relation between rules of different families is where the defining
 * points lie: an axis rule defined by a point left of a line may sit in that
 * line's left subtree, and a line through two points right of a threshold in
 * the threshold's right subtree. */
static void test_mixed_relation_by_defining_points(void **state)
{
    (void)state;
    pdt_dataset *ds = csv("x,y,c\n0,0,a\n3,0,b\n3,1,b\n0,1,a\n");
    pdt_ruleset *rs = NULL;
    pdt_error err;
    assert_int_equal(pdt_ruleset_build(&rs, ds, "axis,hyperplane", NULL, &err), PDT_OK);
    size_t m = pdt_ruleset_size(rs), checked = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            if (i == j || pdt_ruleset_class(rs, i) == pdt_ruleset_class(rs, j)) continue;
            size_t n_def, left = 0;
            const uint32_t *def = pdt_ruleset_def(rs, j, &n_def);
            for (size_t k = 0; k < n_def; k++) left += pdt_bit_get(pdt_ruleset_sides(rs, i), def[k]);
            pdt_relation want = left == n_def ? PDT_REL_LEFT : left == 0 ? PDT_REL_RIGHT : PDT_REL_NONE;
            assert_int_equal(pdt_ruleset_relation(rs, i, j), want);
            checked++;
        }
    assert_true(checked > 100);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
}

/* A mixed list holds every rule of each family, so its optimum is never worse
 * than either family's (random small instances, K = 2). */
static void test_mixed_never_worse(void **state)
{
    (void)state;
    tu_rng g = {31};
    for (int t = 0; t < 20; t++) {
        char text[1024], *p = text;
        p += sprintf(p, "x,y,c\n");
        size_t n = 5 + tu_below(&g, 4);
        for (size_t i = 0; i < n; i++)
            p += sprintf(p, "%u,%u.%u,%u\n", tu_below(&g, 4), tu_below(&g, 4), tu_below(&g, 10),
                         tu_below(&g, 3));
        pdt_dataset *ds = csv(text);
        int64_t a = optimum(ds, "axis", 2, NULL), h = optimum(ds, "hyperplane", 2, NULL);
        int64_t s = optimum(ds, "hypersurface", 2, NULL);
        int64_t ah = optimum(ds, "axis,hyperplane", 2, NULL);
        int64_t all = optimum(ds, "axis,hyperplane,hypersurface", 2, NULL);
        assert_true(ah <= a && ah <= h);
        assert_true(all <= ah && all <= s);
        pdt_dataset_free(&ds);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_beats_both_pure_families),
        cmocka_unit_test(test_mixed_axis_and_plane),
        cmocka_unit_test(test_mixed_relation_by_defining_points),
        cmocka_unit_test(test_mixed_never_worse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
