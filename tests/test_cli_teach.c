/* The teaching and issue-3 options of the command line: fit --explain,
 * count --list / --list-rules / --pick, hypersurface --degree; their output
 * and every bad value (exit 2 for usage, 1 for bad input, message names the
 * option). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *six = "x,y,c\n1,1,a\n2,1,a\n1,2,b\n2,2,b\n3,3,a\n3,1,b\n";

static void test_cli_teach_explain(void **state)
{
    (void)state;
    char *data = tu_write_file("six.csv", six);
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--size", "2", "--explain", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "node at depth 0, budget 2: {1 2 3 4 5 6}, 12 admissible rules"));
    assert_non_null(strstr(r.out, "try root x ≤ 1 [row 1]: left {1 3}, right {2 4 5 6}"));
    assert_non_null(strstr(r.out, "pruned"));
    assert_non_null(strstr(r.out, "candidates skipped: one side is empty"));
    assert_non_null(strstr(r.out, "solved (depth 0, {1 2 3 4 5 6}): optimum 1"));
    assert_non_null(strstr(r.out, "objective 1 (optimal)"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--size", "2", "--explain", "--explain-lines", "3", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--explain stops after 3 lines"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--size", "2", "--explain", "--explain-lines", "many", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --explain-lines"));
    tu_run_free(&r);
    /* hypersurfaces explain through the fused engine (the backend has no trace) */
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "hypersurface", "--size", "1", "--explain", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "admissible rules"));
    tu_run_free(&r);
    free(data);
}

static void test_cli_teach_count_list(void **state)
{
    (void)state;
    const char *four = tu_source("examples/data/four_lines.csv");
    char *path = strdup(four);
    tu_run r;
    tu_run_pdt(&r, "count", "--data", path, "--rules", "hyperplane", "--size", "4", "--list", "--pick",
               "2,52,90,108", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "r1 = #2"));
    assert_non_null(strstr(r.out, "  24.  r4  r3  r2  r1"));
    assert_non_null(strstr(r.out, "proper: r2 [L: leaf, R: r3 [L: r1 [L: r4, R: leaf], R: leaf]]"));
    assert_non_null(strstr(r.out, "invalid: r2 is neither left nor right of r1"));
    assert_non_null(strstr(r.out, "24 4-permutations of 4 rules: 3 proper trees"));
    tu_run_free(&r);
    tu_run_pdt(&r, "count", "--data", path, "--rules", "hyperplane", "--list-rules", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "#108  −x ≤ −8  [rows 7 8]"));
    tu_run_free(&r);
    static const struct {
        const char *pick, *size, *message;
        int status;
    } bad[] = {{"2,999", "2", "there is no rule 999", 1},
               {"2,2", "2", "rule 2 given twice", 1},
               {"2,x", "2", "option --pick: '2,x'", 2},
               {"", "2", "option --pick", 2}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tu_run_pdt(&r, "count", "--data", path, "--rules", "hyperplane", "--size", bad[i].size, "--list", "--pick",
                   bad[i].pick, NULL);
        assert_int_equal(r.status, bad[i].status);
        if (!strstr(r.err, bad[i].message)) fail_msg("--pick '%s': %s", bad[i].pick, r.err);
        tu_run_free(&r);
    }
    tu_run_pdt(&r, "count", "--data", path, "--rules", "hyperplane", "--size", "4", "--list", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "choose a few rules with --pick"));
    tu_run_free(&r);
    tu_run_pdt(&r, "count", "--data", path, "--size", "2", "--pick", "1", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--pick needs --list"));
    tu_run_free(&r);
    tu_run_pdt(&r, "count", "--data", path, "--size", "2", "--list", "--min-leaf", "1", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "do not take --min-leaf"));
    tu_run_free(&r);
    free(path);
}

static void test_cli_teach_degree(void **state)
{
    (void)state;
    char *data = tu_write_file("six2.csv", six);
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "hypersurface", "--degree", "3", "--size", "1", NULL);
    assert_int_equal(r.status, 0); /* 6 points, 9 needed: a leaf */
    assert_non_null(strstr(r.out, "0 branch nodes"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "hypersurface", "--degree", "1", "--size", "1", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "option --degree: hypersurfaces have degree 2 or more"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "hypersurface", "--degree", "9", "--size", "1", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "lifts to more than 11 monomials"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "hypersurface", "--degree", "two", "--size", "1", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "option --degree"));
    tu_run_free(&r);
    tu_run_pdt(&r, "count", "--data", data, "--rules", "hypersurface", "--degree", "1", "--size", "1", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "degree 2 or more"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "hypersurface", "--size", "3", "--engine", "backend", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "at most 2 branch nodes"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "axis,circle,hypersurface", "--size", "2", "-q", NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    free(data);
}

/* The tree diagram: branches show their rule readably and the class counts
 * of their items, leaves their label and counts. */
static void test_cli_teach_dot_labels(void **state)
{
    (void)state;
    char *data = tu_write_file("six3.csv", six), dot[512];
    snprintf(dot, sizeof dot, "%s/tree.dot", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--size", "1", "--dot", dot, "-q", NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    char *text = tu_read_file(dot);
    assert_non_null(text);
    assert_non_null(strstr(text, "6 items: 3/3"));  /* the root */
    assert_non_null(strstr(text, " ≤ "));           /* its rule */
    free(text);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_teach_explain),
        cmocka_unit_test(test_cli_teach_count_list),
        cmocka_unit_test(test_cli_teach_degree),
        cmocka_unit_test(test_cli_teach_dot_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
