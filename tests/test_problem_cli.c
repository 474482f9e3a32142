/* pdt chain, pdt bsp and pdt kdtree through the binary: the result documents
 * and drawings they promise, and one test per kind of bad input — a message
 * naming the file, line and column (or the option), a non-zero exit status
 * and no output file left behind. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static char *tmp_path(const char *name)
{
    char *p = malloc(strlen(tu_tmpdir()) + strlen(name) + 2);
    sprintf(p, "%s/%s", tu_tmpdir(), name);
    return p;
}

static json_t *load_json(const char *path)
{
    json_error_t e;
    json_t *doc = json_load_file(path, 0, &e);
    if (!doc) fprintf(stderr, "%s:%d: %s\n", path, e.line, e.text);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "format")), "pdt-result");
    assert_true(json_is_true(json_object_get(doc, "optimal")));
    return doc;
}

static json_int_t int_field(const json_t *doc, const char *key)
{
    const json_t *v = json_object_get(doc, key);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static bool starts_with_file(const char *path, const char *magic)
{
    char *text = tu_read_file(path);
    bool ok = text && strncmp(text, magic, strlen(magic)) == 0;
    free(text);
    return ok;
}

/* Runs pdt with args (NULL terminated, at most 12) plus "-o OUT"; expects
 * `status`, `message` on stderr and no OUT. */
static void expect_failure(int status, const char *message, const char *const *args)
{
    char *out = tmp_path("must_not_exist.json");
    char *argv[20];
    size_t n = 0;
    argv[n++] = getenv("PDT_BIN");
    for (; *args; args++) argv[n++] = (char *)*args;
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n] = NULL;
    tu_run r;
    tu_run_argv(&r, argv);
    if (r.status != status || !strstr(r.err, message))
        fprintf(stderr, "status %d, stderr: %s\nexpected %d and: %s\n", r.status, r.err, status, message);
    assert_int_equal(r.status, status);
    assert_non_null(strstr(r.err, message));
    assert_false(tu_exists(out));
    tu_run_free(&r);
    free(out);
}

/* ------------------------------------------------------------ chain */

static void test_problem_cli_chain_textbook(void **state)
{
    (void)state;
    char *json = tmp_path("chain.json"), *dot = tmp_path("chain.dot"), *svg = tmp_path("chain.svg");
    tu_run r;
    tu_run_pdt(&r, "chain", "--dims", "30 35 15 5 10 20 25", "-o", json, "--dot", dot, "--svg", svg, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "((A1(A2A3))((A4A5)A6))"));
    assert_non_null(strstr(r.out, "objective 15125 scalar multiplications (optimal)"));
    json_t *doc = load_json(json);
    assert_string_equal(json_string_value(json_object_get(doc, "problem")), "matrix-chain");
    assert_int_equal(int_field(doc, "objective"), 15125);
    assert_int_equal(int_field(doc, "matrices"), 6);
    assert_string_equal(json_string_value(json_object_get(doc, "order")), "((A1(A2A3))((A4A5)A6))");
    json_decref(doc);
    char *text = tu_read_file(dot);
    assert_non_null(text);
    assert_non_null(strstr(text, "A4..A5"));
    assert_non_null(strstr(text, "+3750")); /* the root multiplies 30×5 by 5×25 */
    free(text);
    text = tu_read_file(svg);
    assert_non_null(text);
    assert_non_null(strstr(text, "<svg"));
    free(text);
    tu_run_free(&r);
    free(json);
    free(dot);
    free(svg);
}

/* Beyond 2^53 the objective is an exact decimal string: 2·(10^12)^3. */
static void test_problem_cli_chain_big(void **state)
{
    (void)state;
    char *json = tmp_path("big.json"), *dims = tu_write_file("dims.txt", "# three square matrices\n"
                                                                        "1000000000000,\n1000000000000\n"
                                                                        "1000000000000 1000000000000\n");
    tu_run r;
    tu_run_pdt(&r, "chain", "--dims-file", dims, "-q", "-o", json, NULL);
    assert_int_equal(r.status, 0);
    json_t *doc = load_json(json);
    assert_string_equal(json_string_value(json_object_get(doc, "objective")), "2000000000000000000000000000000000000");
    json_decref(doc);
    tu_run_free(&r);
    free(json);
    free(dims);
}

static void test_problem_cli_chain_too_few_matrices(void **state)
{
    (void)state;
    const char *a[] = {"chain", "--dims", "30 35", NULL};
    expect_failure(1, "option --dims: a chain needs at least two matrices", a);
    char *f = tu_write_file("one.txt", "# just one matrix\n5 7\n");
    const char *b[] = {"chain", "--dims-file", f, NULL};
    expect_failure(1, "one.txt: a chain needs at least two matrices", b);
    free(f);
}

static void test_problem_cli_chain_non_numeric(void **state)
{
    (void)state;
    const char *a[] = {"chain", "--dims", "30 35 fifteen 5", NULL};
    expect_failure(1, "option --dims: \"fifteen\" (number 3) is not a positive integer dimension", a);
    char *f = tu_write_file("bad_dims.txt", "30 35\n15 5.5 10\n");
    const char *b[] = {"chain", "--dims-file", f, NULL};
    expect_failure(1, "bad_dims.txt:2:4: \"5.5\" is not a positive integer dimension", b);
    free(f);
    const char *c[] = {"chain", "--dims", "3 0 4", NULL};
    expect_failure(1, "\"0\" (number 2) is not a positive integer dimension", c);
}

static void test_problem_cli_chain_usage(void **state)
{
    (void)state;
    const char *a[] = {"chain", NULL};
    expect_failure(2, "give exactly one of --dims", a);
    const char *b[] = {"chain", "--dims", "1 2 3", "--dims-file", "x", NULL};
    expect_failure(2, "give exactly one of --dims", b);
    const char *c[] = {"chain", "--dims-file", "/no/such/file", NULL};
    expect_failure(1, "/no/such/file: cannot open the file", c);
}

/* ------------------------------------------------------------ bsp */

static const char windmill[] = "# four blades, each line cuts the next\n1 -2 3 -2\n2 1 2 3\n-1 2 -3 2\n-2 -1 -2 -3\n";

static void test_problem_cli_bsp_windmill(void **state)
{
    (void)state;
    char *seg = strdup(tu_data("problems/windmill.txt"));
    char *json = tmp_path("bsp.json"), *png = tmp_path("bsp.png"), *svg = tmp_path("bsp_tree.svg");
    tu_run r;
    tu_run_pdt(&r, "bsp", "--segments", seg, "--random", "50", "-o", json, "--picture", png, "--svg", svg, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "5 fragments, 11 nodes (5 branch)"));
    json_t *doc = load_json(json);
    assert_string_equal(json_string_value(json_object_get(doc, "problem")), "bsp");
    assert_int_equal(int_field(doc, "objective"), 11);
    assert_int_equal(int_field(doc, "nodes"), 11);
    assert_int_equal(int_field(doc, "fragments"), 5);
    assert_int_equal(int_field(doc, "branch_nodes"), 5);
    json_t *rnd = json_object_get(doc, "random");
    assert_int_equal(int_field(rnd, "tries"), 50);
    assert_true(int_field(rnd, "min_nodes") >= 11);
    json_t *root = json_object_get(doc, "tree");
    json_t *frag = json_array_get(json_object_get(root, "fragments"), 0);
    assert_true(json_is_string(json_array_get(json_object_get(frag, "from"), 0)));
    json_decref(doc);
    assert_true(starts_with_file(png, "\x89PNG"));
    assert_true(tu_file_size(svg) > 0);
    tu_run_free(&r);
    free(seg);
    free(json);
    free(png);
    free(svg);
}

/* Collinear segments are absorbed by one node: 3 nodes, 4 fragments. */
static void test_problem_cli_bsp_one_line(void **state)
{
    (void)state;
    char *seg = tu_write_file("line.txt", "0 0 1 1\n2 2 3 3\n3 3 4 4\n-1 -1 -0.5 -0.5\n");
    char *json = tmp_path("line.json");
    tu_run r;
    tu_run_pdt(&r, "bsp", "--segments", seg, "--objective", "fragments", "-q", "-o", json, NULL);
    assert_int_equal(r.status, 0);
    json_t *doc = load_json(json);
    assert_int_equal(int_field(doc, "objective"), 4);
    assert_int_equal(int_field(doc, "nodes"), 3);
    assert_string_equal(json_string_value(json_object_get(doc, "criterion")), "fragments");
    json_decref(doc);
    tu_run_free(&r);
    free(seg);
    free(json);
}

static void bsp_failure(const char *file, const char *text, const char *message)
{
    char *seg = tu_write_file(file, text);
    const char *a[] = {"bsp", "--segments", seg, NULL};
    expect_failure(1, message, a);
    free(seg);
}

static void test_problem_cli_bsp_crossing(void **state)
{
    (void)state;
    bsp_failure("cross.txt", "0 0 4 4\n# the other diagonal\n0 4 4 0\n",
                "cross.txt:3: the segment crosses the segment of line 1 at (2, 2)");
}

static void test_problem_cli_bsp_overlap(void **state)
{
    (void)state;
    bsp_failure("overlap.txt", "0 0 4 0\n1 0 2 0\n", "overlap.txt:2: the segment overlaps the segment of line 1");
}

static void test_problem_cli_bsp_zero_length(void **state)
{
    (void)state;
    bsp_failure("zero.txt", "0 0 4 0\n1 1 1 1\n", "zero.txt:2: zero-length segment (both endpoints are (1, 1))");
}

static void test_problem_cli_bsp_non_numeric(void **state)
{
    (void)state;
    bsp_failure("nonnum.txt", "0 0 4 0\n1 1 two 3\n", "nonnum.txt:2:5: \"two\" is not a number");
}

static void test_problem_cli_bsp_field_count(void **state)
{
    (void)state;
    bsp_failure("count.txt", "0 0 4 0\n1 1 2\n", "count.txt:2: expected 4 numbers (x1 y1 x2 y2), found 3");
}

static void test_problem_cli_bsp_empty(void **state)
{
    (void)state;
    bsp_failure("empty.txt", "# nothing here\n", "empty.txt: no segments");
}

static void test_problem_cli_bsp_usage(void **state)
{
    (void)state;
    const char *a[] = {"bsp", NULL};
    expect_failure(2, "option --segments is required", a);
    char *seg = tu_write_file("ok.txt", windmill);
    const char *b[] = {"bsp", "--segments", seg, "--objective", "area", NULL};
    expect_failure(2, "option --objective: 'area' is not nodes or fragments", b);
    const char *c[] = {"bsp", "--segments", seg, "--random", "-3", NULL};
    expect_failure(2, "option --random: '-3' is not a non-negative integer", c);
    free(seg);
}

/* ------------------------------------------------------------ kdtree */

static const char points[] = "x,y,w\n1,5,2\n2,3,1\n3,8,1/2\n4,1,3\n5,6,1\n6,2,1\n7,7,2\n";

static void test_problem_cli_kdtree(void **state)
{
    (void)state;
    char *data = strdup(tu_data("problems/points.csv"));
    char *json = tmp_path("kd.json"), *png = tmp_path("cells.png"), *dot = tmp_path("kd.dot");
    tu_run r;
    tu_run_pdt(&r, "kdtree", "--data", data, "--weights", "w", "-o", json, "--picture", png, "--dot", dot, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "access cost 45/2, height 3 (optimal)"));
    json_t *doc = load_json(json);
    assert_string_equal(json_string_value(json_object_get(doc, "problem")), "kdtree");
    assert_string_equal(json_string_value(json_object_get(doc, "objective")), "45/2");
    assert_int_equal(int_field(doc, "height"), 3);
    assert_int_equal(int_field(json_object_get(doc, "tree"), "row"), 4);
    json_decref(doc);
    assert_true(starts_with_file(png, "\x89PNG"));
    assert_true(tu_file_size(dot) > 0);
    tu_run_free(&r);
    /* unit weights: an integer objective; the height first gives a complete tree */
    tu_run_pdt(&r, "kdtree", "--data", data, "--skip", "w", "--objective", "height", "-q", "-o", json, NULL);
    assert_int_equal(r.status, 0);
    doc = load_json(json);
    assert_int_equal(int_field(doc, "objective"), 3);
    assert_int_equal(int_field(doc, "access_cost"), 17); /* 1 + 2·2 + 4·3 */
    json_decref(doc);
    tu_run_free(&r);
    free(data);
    free(json);
    free(png);
    free(dot);
}

static void test_problem_cli_kdtree_bad_weights(void **state)
{
    (void)state;
    char *data = tu_write_file("pts.csv", points);
    const char *a[] = {"kdtree", "--data", data, "--weights", "weight", NULL};
    expect_failure(1, "pts.csv:1: no column named \"weight\" (columns: x, y, w)", a);
    free(data);
    data = tu_write_file("negw.csv", "x,w\n1,2\n2,-1\n");
    const char *b[] = {"kdtree", "--data", data, "--weights", "w", NULL};
    expect_failure(1, "negw.csv:3:", b);
    free(data);
}

static void test_problem_cli_kdtree_non_numeric(void **state)
{
    (void)state;
    char *data = tu_write_file("nonnum.csv", "x,y\n1,2\n3,four\n");
    const char *a[] = {"kdtree", "--data", data, NULL};
    expect_failure(1, "nonnum.csv:3:3:", a);
    free(data);
}

static void test_problem_cli_kdtree_options(void **state)
{
    (void)state;
    char *data = tu_write_file("pts3.csv", "x,y,z\n1,2,3\n4,5,6\n");
    const char *a[] = {"kdtree", "--data", data, "--order", "y,q", NULL};
    expect_failure(1, "option --order: no dimension \"q\" (dimensions: x, y, z)", a);
    const char *b[] = {"kdtree", "--data", data, "--objective", "speed", NULL};
    expect_failure(2, "option --objective: 'speed' is not access or height", b);
    char *png = tmp_path("cells3.png");
    const char *c[] = {"kdtree", "--data", data, "--picture", png, NULL};
    expect_failure(1, "a picture of the cells needs two coordinates (the data has 3)", c);
    assert_false(tu_exists(png));
    const char *d[] = {"kdtree", NULL};
    expect_failure(2, "option --data is required", d);
    free(png);
    free(data);
}

static void test_problem_cli_help(void **state)
{
    (void)state;
    const char *cmds[] = {"chain", "bsp", "kdtree"};
    for (size_t i = 0; i < 3; i++) {
        tu_run r;
        tu_run_pdt(&r, cmds[i], "--help", NULL);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "usage: pdt"));
        tu_run_free(&r);
    }
    tu_run r;
    tu_run_pdt(&r, "--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "chain"));
    assert_non_null(strstr(r.out, "bsp"));
    assert_non_null(strstr(r.out, "kdtree"));
    tu_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_problem_cli_chain_textbook),
        cmocka_unit_test(test_problem_cli_chain_big),
        cmocka_unit_test(test_problem_cli_chain_too_few_matrices),
        cmocka_unit_test(test_problem_cli_chain_non_numeric),
        cmocka_unit_test(test_problem_cli_chain_usage),
        cmocka_unit_test(test_problem_cli_bsp_windmill),
        cmocka_unit_test(test_problem_cli_bsp_one_line),
        cmocka_unit_test(test_problem_cli_bsp_crossing),
        cmocka_unit_test(test_problem_cli_bsp_overlap),
        cmocka_unit_test(test_problem_cli_bsp_zero_length),
        cmocka_unit_test(test_problem_cli_bsp_non_numeric),
        cmocka_unit_test(test_problem_cli_bsp_field_count),
        cmocka_unit_test(test_problem_cli_bsp_empty),
        cmocka_unit_test(test_problem_cli_bsp_usage),
        cmocka_unit_test(test_problem_cli_kdtree),
        cmocka_unit_test(test_problem_cli_kdtree_bad_weights),
        cmocka_unit_test(test_problem_cli_kdtree_non_numeric),
        cmocka_unit_test(test_problem_cli_kdtree_options),
        cmocka_unit_test(test_problem_cli_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
