/* Models of any depth save and load again (issue 16): a tree deeper than
 * the nested form allows (jansson's parser stops at 2048 levels, and the
 * indentation of a nested file grows with the square of the depth) is saved
 * flat, "tree" an array of nodes whose "left"/"right" are indices, and read
 * back without recursion; hostile flat trees are refused with the path. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "test_util.h"

enum { DEPTH = 3000 };

/* The caterpillar on x = 1..DEPTH+1 with alternating labels a, b, a, ...:
 * branch k is "x ≤ k+1" with the leaf of row k+1 on its left and branch k+1
 * on its right; the last branch's right is the leaf of row DEPTH+1.  Nodes
 * in preorder: branch k at 2k, its left leaf at 2k+1, the last leaf at
 * 2·DEPTH.  Written here in the flat form, by hand, from the format's
 * description (docs/formats.md). */
static json_t *counts_of(size_t a, size_t b) { return json_pack("[I,I]", (json_int_t)a, (json_int_t)b); }

static char *write_caterpillar(const char *name)
{
    json_t *tree = json_array();
    for (size_t k = 0; k < DEPTH; k++) {
        /* rows k+1 .. DEPTH+1: row r is "a" when r is odd */
        size_t rows = DEPTH + 1 - k, first = k + 1, odd = (rows + (first % 2)) / 2;
        char v[32];
        snprintf(v, sizeof v, "%zu", k + 1);
        json_t *rule = json_pack("{s:s, s:[i], s:[s]}", "family", "axis", "ints", 0, "rationals", v);
        json_array_append_new(tree, json_pack("{s:o, s:I, s:o, s:s, s:I, s:I}", "rule", rule, "items",
                                              (json_int_t)rows, "counts", counts_of(odd, rows - odd), "label",
                                              odd >= rows - odd ? "a" : "b", "left", (json_int_t)(2 * k + 1),
                                              "right", (json_int_t)(2 * k + 2)));
        bool a = first % 2 == 1;
        json_array_append_new(tree, json_pack("{s:b, s:s, s:I, s:o}", "leaf", 1, "label", a ? "a" : "b", "items",
                                              (json_int_t)1, "counts", counts_of(a, !a)));
    }
    bool a = (DEPTH + 1) % 2 == 1;
    json_array_append_new(tree, json_pack("{s:b, s:s, s:I, s:o}", "leaf", 1, "label", a ? "a" : "b", "items",
                                          (json_int_t)1, "counts", counts_of(a, !a)));
    json_t *doc = json_pack("{s:s, s:i, s:s, s:s, s:i, s:b, s:i, s:i, s:i, s:{s:s, s:i, s:[s], s:[s,s]}, s:o}",
                            "format", "pdt-result", "version", 1, "problem", "classification", "rules", "axis",
                            "objective", 0, "optimal", 1, "size", DEPTH, "depth", DEPTH, "misclassifications", 0,
                            "data", "name", "line.csv", "rows", DEPTH + 1, "features", "x", "classes", "a", "b",
                            "tree", tree);
    assert_non_null(doc);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tu_tmpdir(), name);
    assert_int_equal(json_dump_file(doc, path, JSON_COMPACT), 0);
    json_decref(doc);
    return strdup(path);
}

static char *write_line_data(void)
{
    size_t cap = (size_t)(DEPTH + 2) * 16, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, "x,c\n");
    for (size_t r = 1; r <= DEPTH + 1; r++) len += (size_t)snprintf(text + len, cap - len, "%zu,%c\n", r, "ba"[r % 2]);
    char *path = tu_write_file("line.csv", text);
    free(text);
    return path;
}

static void test_model_json_deep_loads_saves_predicts(void **state)
{
    (void)state;
    char *model = write_caterpillar("deep.json"), *data = write_line_data();
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_model_load_json(&m, model, &err)) fail_msg("%s", err.message);
    assert_int_equal(pdt_model_depth(m), DEPTH);
    assert_int_equal(pdt_model_size(m), DEPTH);
    /* saved again: flat, and its size linear in the nodes (a nested file with
     * 2-space indentation would hold about 2·DEPTH²·10 bytes of blanks) */
    char again[512];
    snprintf(again, sizeof again, "%s/again.json", tu_tmpdir());
    if (pdt_model_save_json(m, again, &err)) fail_msg("%s", err.message);
    assert_true(tu_file_size(again) < 600L * (2 * DEPTH + 1));
    json_error_t je;
    json_t *doc = json_load_file(again, 0, &je);
    assert_non_null(doc);
    assert_true(json_is_array(json_object_get(doc, "tree")));
    assert_int_equal(json_array_size(json_object_get(doc, "tree")), 2 * DEPTH + 1);
    json_decref(doc);
    pdt_model *m2 = NULL;
    if (pdt_model_load_json(&m2, again, &err)) fail_msg("%s", err.message);
    assert_int_equal(pdt_model_depth(m2), DEPTH);
    pdt_model_free(&m2);
    pdt_model_free(&m);
    /* the command predicts every row right with it */
    tu_run r;
    tu_run_pdt(&r, "predict", "--model", again, "--data", data, NULL);
    if (r.status) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "3001 of 3001"));
    tu_run_free(&r);
    free(model);
    free(data);
}

/* A shallow tree keeps the nested form. */
static void test_model_json_shallow_stays_nested(void **state)
{
    (void)state;
    char *data = tu_write_file("small.csv", "x,c\n1,a\n2,b\n3,a\n");
    char out[512];
    snprintf(out, sizeof out, "%s/small.json", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--size", "2", "-o", out, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    json_error_t je;
    json_t *doc = json_load_file(out, 0, &je);
    assert_true(json_is_object(json_object_get(doc, "tree")));
    json_decref(doc);
    free(data);
}

/* Hostile flat trees: the message names the node. */
static void expect_refused(const char *tree, const char *message)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"format\":\"pdt-result\",\"version\":1,\"problem\":\"classification\",\"rules\":\"axis\","
             "\"objective\":0,\"optimal\":true,\"size\":1,\"depth\":1,\"misclassifications\":0,"
             "\"data\":{\"name\":\"d\",\"rows\":2,\"features\":[\"x\"],\"classes\":[\"a\",\"b\"]},\"tree\":%s}",
             tree);
    char *path = tu_write_file("hostile.json", text);
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_not_equal(pdt_model_load_json(&m, path, &err), PDT_OK);
    assert_null(m);
    if (!strstr(err.message, message)) fail_msg("got: %s\nexpected: %s", err.message, message);
    free(path);
}

#define RULE "\"rule\":{\"family\":\"axis\",\"ints\":[0],\"rationals\":[\"1\"]}"
#define LEAF_A "{\"leaf\":true,\"label\":\"a\",\"items\":1,\"counts\":[1,0]}"
#define LEAF_B "{\"leaf\":true,\"label\":\"b\",\"items\":1,\"counts\":[0,1]}"

static void test_model_json_flat_hostile(void **state)
{
    (void)state;
    expect_refused("[]", "expected at least the root node");
    expect_refused("[{" RULE ",\"items\":2,\"counts\":[1,1],\"label\":\"a\",\"left\":0,\"right\":1}," LEAF_B "]",
                   "tree[0].left");
    expect_refused("[{" RULE ",\"items\":2,\"counts\":[1,1],\"label\":\"a\",\"left\":1,\"right\":1}," LEAF_A "]",
                   "already a child");
    expect_refused("[{" RULE ",\"items\":2,\"counts\":[1,1],\"label\":\"a\",\"left\":1,\"right\":7}," LEAF_A "]",
                   "tree[0].right");
    expect_refused("[{" RULE ",\"items\":2,\"counts\":[1,1],\"label\":\"a\",\"left\":1,\"right\":2}," LEAF_A
                   "," LEAF_B "," LEAF_A "]",
                   "nobody's child");
    expect_refused("[{" RULE ",\"items\":2,\"counts\":[1,1],\"label\":\"a\",\"left\":1,\"right\":2}," LEAF_A
                   "," LEAF_A "]",
                   "counts");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_json_deep_loads_saves_predicts),
        cmocka_unit_test(test_model_json_shallow_stays_nested),
        cmocka_unit_test(test_model_json_flat_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
