/* Rendering: DOT through libcgraph, SVG and PNG through libgvc. */
#define _GNU_SOURCE
#include <graphviz/cgraph.h>
#include <stdlib.h>
#include <string.h>

#include "model_fixture.h"
#include "test_util.h"

static char *tmp_path(const char *name)
{
    char *path = NULL;
    assert_true(asprintf(&path, "%s/%s", tu_tmpdir(), name) > 0);
    return path;
}

static char *render_ok(const pdt_model *m, const char *name, const char *format)
{
    char *path = tmp_path(name);
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_render(m, path, format, &err);
    if (st != PDT_OK) fail_msg("render %s as %s: %s", path, format, err.message);
    return path;
}

static Agraph_t *read_dot(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    Agraph_t *g = agread(f, NULL);
    fclose(f);
    assert_non_null(g);
    return g;
}

static const char *node_label(Agraph_t *g, const char *name)
{
    Agnode_t *n = agnode(g, (char *)name, 0);
    assert_non_null(n);
    return agget(n, "label");
}

static void test_render_dot_structure(void **state)
{
    (void)state;
    pdt_model *m = mf_model(&mf_threshold_class);
    char *path = render_ok(m, "tree.dot", "dot");
    Agraph_t *g = read_dot(path);
    assert_true(agisdirected(g));
    assert_int_equal(agnnodes(g), 5);
    assert_int_equal(agnedges(g), 4);
    assert_non_null(strstr(node_label(g, "n0"), "petal_width ≤ 0.8"));
    assert_non_null(strstr(node_label(g, "n0"), "150 items"));
    assert_non_null(strstr(node_label(g, "n2"), "sepal ≤ 1/3"));
    assert_non_null(strstr(node_label(g, "n1"), "setosa"));
    assert_non_null(strstr(node_label(g, "n1"), "50/0/0"));
    assert_non_null(strstr(node_label(g, "n4"), "virginica"));
    assert_non_null(strstr(node_label(g, "n4"), "0/1/45"));
    /* leaves are filled, one colour per class; branches are not */
    const char *c1 = agget(agnode(g, "n1", 0), "fillcolor"),
               *c3 = agget(agnode(g, "n3", 0), "fillcolor");
    assert_string_not_equal(c1, c3);
    assert_non_null(strstr(agget(agnode(g, "n1", 0), "style"), "filled"));
    assert_null(strstr(agget(agnode(g, "n0", 0), "style"), "filled"));
    /* the left child is "yes", the right child "no" */
    Agedge_t *yes = agedge(g, agnode(g, "n2", 0), agnode(g, "n3", 0), NULL, 0);
    Agedge_t *no = agedge(g, agnode(g, "n2", 0), agnode(g, "n4", 0), NULL, 0);
    assert_non_null(yes);
    assert_non_null(no);
    assert_string_equal(agget(yes, "label"), "yes");
    assert_string_equal(agget(no, "label"), "no");
    agclose(g);
    pdt_model_free(&m);
    free(path);
}

static void test_render_dot_lone_leaf(void **state)
{
    (void)state;
    pdt_model *m = mf_leaf_model();
    char *path = render_ok(m, "leaf.dot", "dot");
    Agraph_t *g = read_dot(path);
    assert_int_equal(agnnodes(g), 1);
    assert_int_equal(agnedges(g), 0);
    assert_non_null(strstr(node_label(g, "n0"), "50/50/50"));
    agclose(g);
    pdt_model_free(&m);
    free(path);
}

static void test_render_svg(void **state)
{
    (void)state;
    pdt_model *m = mf_model(&mf_threshold_class);
    /* a backslash in a name is text, not a DOT escape such as \N (the node name) */
    free(m->classes[2]);
    m->classes[2] = strdup("vir\\Nginica");
    char *path = render_ok(m, "tree.svg", "svg");
    assert_true(tu_file_size(path) > 0);
    char *text = tu_read_file(path);
    assert_true(strncmp(text, "<?xml", 5) == 0 || strncmp(text, "<svg", 4) == 0);
    assert_non_null(strstr(text, "petal_width ≤ 0.8"));
    assert_non_null(strstr(text, "vir\\Nginica"));
    free(text);
    pdt_model_free(&m);
    free(path);
}

static void test_render_png(void **state)
{
    (void)state;
    pdt_model *m = mf_model(&mf_threshold_class);
    char *path = render_ok(m, "tree.png", "png");
    assert_true(tu_file_size(path) > 8);
    char *data = tu_read_file(path);
    assert_memory_equal(data, "\x89PNG\r\n\x1a\n", 8);
    free(data);
    pdt_model_free(&m);
    free(path);
}

static void test_render_bad_format(void **state)
{
    (void)state;
    pdt_model *m = mf_model(&mf_threshold_class);
    char *path = tmp_path("tree.xyz");
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_model_render(m, path, "xyz", &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "\"xyz\""));
    assert_non_null(strstr(err.message, "svg"));
    assert_non_null(strstr(err.message, "dot"));
    assert_false(tu_exists(path));
    assert_int_equal(pdt_model_render(m, path, "", &err), PDT_EINVAL);
    assert_false(tu_exists(path));
    pdt_model_free(&m);
    free(path);
}

static void test_render_missing_directory(void **state)
{
    (void)state;
    pdt_model *m = mf_model(&mf_threshold_class);
    static const char *const formats[] = {"dot", "svg"};
    for (size_t k = 0; k < 2; k++) {
        char *path = tmp_path("no-such-dir/tree.out");
        pdt_error err;
        pdt_error_clear(&err);
        assert_int_equal(pdt_model_render(m, path, formats[k], &err), PDT_EIO);
        assert_non_null(strstr(err.message, "no-such-dir/tree.out"));
        assert_false(tu_exists(path));
        free(path);
    }
    pdt_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_dot_structure),
        cmocka_unit_test(test_render_dot_lone_leaf),
        cmocka_unit_test(test_render_svg),
        cmocka_unit_test(test_render_png),
        cmocka_unit_test(test_render_bad_format),
        cmocka_unit_test(test_render_missing_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
