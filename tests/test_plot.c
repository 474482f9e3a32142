/* 2-D pictures: sizes, pixel colours where shapes were drawn, formats, errors. */
#include <cairo.h>
#include <float.h>
#include <math.h>
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

/* Issue 16: a box reaching ±DBL_MAX converts both ways without overflowing;
 * widening never leaves the finite doubles; a non-finite box is refused. */
static void test_plot_extreme_box(void **state)
{
    (void)state;
    pdt_plot *p = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    assert_int_equal(pdt_plot_new(&p, 100, 50, -DBL_MAX, DBL_MAX, -DBL_MAX, DBL_MAX, &err), PDT_OK);
    double px, py, x, y;
    pdt_plot_to_pixel(p, 0, 0, &px, &py);
    assert_true(px == 50 && py == 25);
    pdt_plot_to_pixel(p, DBL_MAX, -DBL_MAX, &px, &py);
    assert_true(px == 100 && py == 50);
    pdt_plot_to_world(p, 0, 50, &x, &y);
    assert_true(x == -DBL_MAX && y == -DBL_MAX);
    pdt_plot_to_world(p, 75, 12.5, &x, &y);
    assert_true(isfinite(x) && isfinite(y) && x > 0 && y > 0);
    pdt_plot_free(&p);
    double lo = -1.7e308, hi = 1.7e308;
    pdt_plot_widen(&lo, &hi, 0.08);
    assert_true(lo == -DBL_MAX && hi == DBL_MAX);
    lo = INFINITY, hi = -INFINITY; /* nothing finite seen */
    pdt_plot_widen(&lo, &hi, 0.5);
    assert_true(lo == -0.5 && hi == 1.5);
    assert_int_equal(pdt_plot_new(&p, 10, 10, -INFINITY, 0, 0, 1, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "not finite"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_png_pixels),
        cmocka_unit_test(test_plot_svg_and_errors),
        cmocka_unit_test(test_plot_extreme_box),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
