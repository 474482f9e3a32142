/* Drawing any labelled binary tree (framework/draw_tree.c, and the drawing
 * module's framework/draw/render_tree.c): DOT text with escaped labels and
 * edge labels, SVG through libgvc, and the refusals. */
#include <stdlib.h>
#include <string.h>

#include "pdt_render.h"
#include "test_util.h"

static char *out_path(const char *name)
{
    char *p = malloc(strlen(tu_tmpdir()) + strlen(name) + 2);
    sprintf(p, "%s/%s", tu_tmpdir(), name);
    return p;
}

static const pdt_draw_node three[] = {
    {1, 2, "root\nsplits \\here", NULL, false},
    {-1, -1, "left leaf", "#ffffb3", false},
    {-1, -1, "empty", NULL, true},
};

static void test_render_tree_dot(void **state)
{
    (void)state;
    char *path = out_path("three.dot");
    pdt_draw_tree t = {"a title", three, 3, "yes", "no", NULL, 0};
    pdt_error err;
    assert_int_equal(pdt_draw_tree_render(&t, path, "dot", &err), PDT_OK);
    char *text = tu_read_file(path);
    assert_non_null(text);
    assert_non_null(strstr(text, "root\\nsplits \\\\here")); /* newline escaped, backslash doubled */
    assert_non_null(strstr(text, "#ffffb3"));
    assert_non_null(strstr(text, "point"));  /* the empty cell is a dot */
    assert_non_null(strstr(text, "label=yes"));
    assert_non_null(strstr(text, "label=no"));
    assert_non_null(strstr(text, "a title"));
    free(text);
    free(path);
}

static void test_render_tree_svg(void **state)
{
    (void)state;
    char *path = out_path("three.svg");
    pdt_draw_tree t = {NULL, three, 3, NULL, NULL, NULL, 0};
    pdt_error err;
    assert_int_equal(pdt_draw_tree_render(&t, path, "svg", &err), PDT_OK);
    char *text = tu_read_file(path);
    assert_non_null(text);
    assert_non_null(strstr(text, "<svg"));
    assert_non_null(strstr(text, "left leaf"));
    free(text);
    free(path);
}

static void test_render_tree_refusals(void **state)
{
    (void)state;
    char *path = out_path("bad.dot");
    pdt_error err;
    const pdt_draw_node cyclic[] = {{1, 2, "a", NULL, false}, {0, 2, "b", NULL, false}, {-1, -1, "c", NULL, false}};
    pdt_draw_tree t = {NULL, cyclic, 3, NULL, NULL, NULL, 0};
    assert_int_equal(pdt_draw_tree_render(&t, path, "dot", &err), PDT_EINTERNAL);
    assert_non_null(strstr(err.message, "malformed tree (node 1)"));
    const pdt_draw_node half[] = {{1, -1, "a", NULL, false}, {-1, -1, "b", NULL, false}};
    pdt_draw_tree h = {NULL, half, 2, NULL, NULL, NULL, 0};
    assert_int_equal(pdt_draw_tree_render(&h, path, "dot", &err), PDT_EINTERNAL);
    pdt_draw_tree empty = {NULL, three, 0, NULL, NULL, NULL, 0};
    assert_int_equal(pdt_draw_tree_render(&empty, path, "dot", &err), PDT_EINTERNAL);
    pdt_draw_tree ok = {NULL, three, 3, NULL, NULL, NULL, 0};
    assert_int_equal(pdt_draw_tree_render(&ok, path, "bmp", &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "unknown drawing format \"bmp\""));
    assert_false(tu_exists(path));
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_tree_dot),
        cmocka_unit_test(test_render_tree_svg),
        cmocka_unit_test(test_render_tree_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
