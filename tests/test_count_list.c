/* Teaching: pdt_count_list enumerates every K-permutation of a few rules and
 * decodes each as a level-order traversal; the valid ones are the proper
 * trees, and their number must equal the engine's count (checked inside).
 * The paper's figure (He & Little, Fig. 3–4): 4 lines, 24 permutations, 3
 * proper trees, reproduced on examples/data/four_lines.csv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdt_plugin.h"
#include "spec.h"
#include "test_util.h"

typedef struct tally {
    unsigned long perms, valid, by_relation, by_order;
    char first_valid[64];
} tally;

static void on_perm(void *user, const pdt_perm *p)
{
    tally *t = user;
    t->perms++;
    if (p->valid) {
        if (!t->valid) {
            size_t len = 0;
            for (uint32_t k = 0; k < p->size; k++)
                len += (size_t)snprintf(t->first_valid + len, sizeof t->first_valid - len, "%s%u", k ? " " : "",
                                        p->rules[k]);
        }
        t->valid++;
        assert_int_equal(p->parent[0], -1);
        for (uint32_t k = 1; k < p->size; k++) assert_true(p->parent[k] >= 0 && (uint32_t)p->parent[k] < k);
    } else if (p->blocker >= 0) {
        t->by_relation++;
        assert_true(p->blocker < p->bad);
    } else {
        t->by_order++;
    }
    for (uint32_t k = 0; k < p->size; k++) assert_non_null(p->text[k]);
}

static pdt_dataset *load(const char *path)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_load_csv(&ds, path, NULL, &err)) fail_msg("%s", err.message);
    return ds;
}

static void test_count_list_paper_figure(void **state)
{
    (void)state;
    pdt_dataset *ds = load(tu_source("examples/data/four_lines.csv"));
    const uint32_t pick[] = {2, 52, 90, 108};
    pdt_count_report r;
    pdt_count_report_init(&r);
    tally t = {0};
    pdt_error err;
    assert_int_equal(pdt_count_list(&r, ds, "hyperplane", NULL, pick, 4, 4, 100, NULL, on_perm, &t, &err), PDT_OK);
    assert_int_equal(t.perms, 24);
    assert_int_equal(t.valid, 3);
    assert_int_equal(mpz_get_ui(r.proper), 3);
    assert_int_equal(mpz_get_ui(r.permutations), 24);
    assert_string_equal(t.first_valid, "52 90 2 108"); /* r2 at the root, then r3, r1, r4 */
    pdt_count_report_clear(&r);
    pdt_dataset_free(&ds);
}

/* Random picks of 2..4 axis and hyperplane rules: the listed proper trees are
 * exactly the valid permutations of the brute-force specification (spec.h,
 * independent of the library), every k-permutation is listed once, and the
 * two kinds of invalid permutations both occur. */
static void test_count_list_random_agree(void **state)
{
    (void)state;
    tu_rng g = {4};
    tally all = {0};
    for (int i = 0; i < 60; i++) {
        char text[512], *p = text;
        p += sprintf(p, "x,y,c\n");
        for (int k = 0; k < 5; k++) p += sprintf(p, "%u,%u,a\n", tu_below(&g, 4), tu_below(&g, 4));
        pdt_dataset *ds = NULL;
        pdt_error err;
        assert_int_equal(pdt_dataset_read_csv(&ds, text, strlen(text), "r.csv", NULL, &err), PDT_OK);
        const char *family = i % 3 == 0 ? "axis" : i % 3 == 1 ? "hyperplane" : "axis,hyperplane";
        pdt_count_report r;
        pdt_count_report_init(&r);
        assert_int_equal(pdt_count_list(&r, ds, family, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, &err), PDT_OK);
        size_t m = r.n_rules, k = 2 + tu_below(&g, 3), n = k + tu_below(&g, 3);
        uint32_t pick[8];
        for (size_t j = 0; j < n && m >= n; j++) {
            uint32_t v;
            bool dup;
            do {
                v = tu_below(&g, (uint32_t)m);
                dup = false;
                for (size_t q = 0; q < j; q++) dup = dup || pick[q] == v;
            } while (dup);
            pick[j] = v;
        }
        if (m >= n) {
            tally one = {0};
            pdt_status st = pdt_count_list(&r, ds, family, NULL, pick, n, (uint32_t)k, 100000, NULL, on_perm, &one, &err);
            if (st) fail_msg("%s: %s", family, err.message);
            /* the brute-force specification over the same picked rules */
            pdt_ruleset *rs = NULL;
            assert_int_equal(pdt_ruleset_build(&rs, ds, family, NULL, &err), PDT_OK);
            spec_problem sp;
            spec_problem_init(&sp, 5, n, 1);
            for (size_t j = 0; j < n; j++) {
                const uint64_t *side = pdt_ruleset_sides(rs, pick[j]);
                for (size_t row = 0; row < 5; row++) spec_set_left(&sp, j, row, (side[0] >> row) & 1);
                size_t n_def;
                const uint32_t *def = pdt_ruleset_def(rs, pick[j], &n_def);
                spec_set_def(&sp, j, def, n_def);
            }
            spec_result sr;
            spec_solve(&sr, &sp, &(spec_limits){(uint32_t)k, SPEC_NO_LIMIT, 0});
            unsigned long perms = 1;
            for (size_t q = 0; q < k; q++) perms *= (unsigned long)(n - q);
            assert_int_equal(one.perms, perms);
            assert_int_equal(one.valid, sr.count[k]);
            assert_int_equal(mpz_get_ui(r.proper), sr.count[k]);
            spec_problem_free(&sp);
            pdt_ruleset_free(&rs);
            all.valid += one.valid;
            all.by_relation += one.by_relation;
            all.by_order += one.by_order;
        }
        pdt_count_report_clear(&r);
        pdt_dataset_free(&ds);
    }
    assert_true(all.valid > 0 && all.by_relation > 0 && all.by_order > 0);
}

static void test_count_list_errors(void **state)
{
    (void)state;
    pdt_dataset *ds = load(tu_source("examples/data/four_lines.csv"));
    pdt_count_report r;
    pdt_count_report_init(&r);
    pdt_error err;
    const uint32_t bad[] = {2, 500}, twice[] = {2, 2};
    assert_int_equal(pdt_count_list(&r, ds, "hyperplane", NULL, bad, 2, 2, 100, NULL, NULL, NULL, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "no rule 500"));
    assert_int_equal(pdt_count_list(&r, ds, "hyperplane", NULL, twice, 2, 2, 100, NULL, NULL, NULL, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "twice"));
    assert_int_equal(pdt_count_list(&r, ds, "hyperplane", NULL, NULL, 0, 3, 1000, NULL, NULL, NULL, &err), PDT_ELIMIT);
    assert_non_null(strstr(err.message, "--pick"));
    pdt_count_report_clear(&r);
    pdt_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_list_paper_figure),
        cmocka_unit_test(test_count_list_random_agree),
        cmocka_unit_test(test_count_list_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
