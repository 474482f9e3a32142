/* 2-D pictures: sizes, pixel colours where shapes were drawn, formats, errors. */
#include <cairo.h>
#include <stdlib.h>
#include <string.h>

#include "pdt_plot.h"
#include "test_util.h"

static uint32_t pixel(cairo_surface_t *img, int x, int y)
{
    const unsigned char *data = cairo_image_surface_get_data(img);
    return *(const uint32_t *)(data + (size_t)y * (size_t)cairo_image_surface_get_stride(img) + 4 * (size_t)x);
}

static void test_plot_png_pixels(void **state)
{
    (void)state;
    pdt_plot *p = NULL;
    pdt_error err;
    assert_int_equal(pdt_plot_new(&p, 200, 100, 0, 2, 0, 1, &err), PDT_OK);
    /* left half red, right half blue: world x in [0,1] and [1,2] */
    const double left[] = {0, 0, 1, 0, 1, 1, 0, 1}, right[] = {1, 0, 2, 0, 2, 1, 1, 1};
    pdt_rgba red = {1, 0, 0, 1}, blue = {0, 0, 1, 1};
    pdt_plot_polygon(p, left, 4, &red, NULL, 0);
    pdt_plot_polygon(p, right, 4, &blue, NULL, 0);
    char path[512];
    snprintf(path, sizeof path, "%s/halves.png", tu_tmpdir());
    assert_int_equal(pdt_plot_save(p, path, &err), PDT_OK);
    pdt_plot_free(&p);
    assert_null(p);
    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_width(img), 200);
    assert_int_equal(cairo_image_surface_get_height(img), 100);
    assert_int_equal(pixel(img, 50, 50) & 0xFFFFFF, 0xFF0000);
    assert_int_equal(pixel(img, 150, 50) & 0xFFFFFF, 0x0000FF);
    cairo_surface_destroy(img);
}

static void test_plot_svg_and_errors(void **state)
{
    (void)state;
    pdt_plot *p = NULL;
    pdt_error err;
    assert_int_equal(pdt_plot_new(&p, 0, 100, 0, 1, 0, 1, &err), PDT_EINVAL);
    assert_int_equal(pdt_plot_new(&p, 10, 10, 1, 1, 0, 1, &err), PDT_EINVAL);
    assert_int_equal(pdt_plot_new(&p, 120, 80, -1, 1, -1, 1, &err), PDT_OK);
    pdt_plot_point(p, 0, 0, 3, pdt_plot_class_color(0, 1), (pdt_rgba){0, 0, 0, 1});
    pdt_plot_segment(p, -1, -1, 1, 1, 2, pdt_plot_class_color(1, 1));
    pdt_plot_text(p, 0, 0, 10, (pdt_rgba){0, 0, 0, 1}, "x ≤ 1");
    char path[512];
    snprintf(path, sizeof path, "%s/pic.svg", tu_tmpdir());
    assert_int_equal(pdt_plot_save(p, path, &err), PDT_OK);
    char *svg = tu_read_file(path);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "<svg"));
    assert_non_null(strstr(svg, "width=\"120"));
    free(svg);
    snprintf(path, sizeof path, "%s/pic.gif", tu_tmpdir());
    assert_int_equal(pdt_plot_save(p, path, &err), PDT_EINVAL);
    assert_false(tu_exists(path));
    snprintf(path, sizeof path, "%s/missing/dir/pic.png", tu_tmpdir());
    assert_int_not_equal(pdt_plot_save(p, path, &err), PDT_OK);
    assert_false(tu_exists(path));
    pdt_plot_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_png_pixels),
        cmocka_unit_test(test_plot_svg_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
