/* Pictures of fitted 2-D models (pdt_model_plot, pdt fit --plot): files of the
 * requested size in both formats, the right class colour on each side of a
 * known split, and every error path. */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdt_plot.h"
#include "test_util.h"

/* x ≤ 1 is class a, x ≥ 3 class b: the optimal axis stump splits at x ≤ 1. */
static const char *halves = "x,y,c\n0,0,a\n1,1,a\n0,2,a\n1,3,a\n3,0,b\n4,1,b\n3,2,b\n4,3,b\n";

static pdt_model *fit(const pdt_dataset *ds, const char *rules)
{
    pdt_fit_options fo;
    pdt_fit_options_init(&fo);
    fo.rules = rules;
    fo.max_size = 1;
    pdt_model *m = NULL;
    pdt_error err;
    if (pdt_fit(&m, ds, &fo, &err)) fail_msg("%s", err.message);
    return m;
}

static pdt_dataset *csv(const char *text)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_read_csv(&ds, text, strlen(text), "plot.csv", NULL, &err)) fail_msg("%s", err.message);
    return ds;
}

static uint32_t pixel(cairo_surface_t *img, int x, int y)
{
    const unsigned char *data = cairo_image_surface_get_data(img);
    return *(const uint32_t *)(data + (size_t)y * (size_t)cairo_image_surface_get_stride(img) + 4 * (size_t)x) &
           0xFFFFFF;
}

/* The region tint: the class colour at 22 % over white (docs: model_plot.c). */
static uint32_t tint(size_t c)
{
    pdt_rgba k = pdt_plot_class_color(c, 1);
    unsigned r = (unsigned)(255 * (0.78 + 0.22 * k.r) + 0.5), g = (unsigned)(255 * (0.78 + 0.22 * k.g) + 0.5),
             b = (unsigned)(255 * (0.78 + 0.22 * k.b) + 0.5);
    return r << 16 | g << 8 | b;
}

/* The tints must differ, or the pixel checks below could not tell the classes apart. */
static void assert_tints_differ(void) { assert_int_not_equal(tint(0), tint(1)); }

static void test_model_plot_png_sides(void **state)
{
    (void)state;
    pdt_dataset *ds = csv(halves);
    pdt_model *m = fit(ds, "axis");
    char path[512];
    snprintf(path, sizeof path, "%s/stump.png", tu_tmpdir());
    pdt_error err;
    assert_int_equal(pdt_model_plot(m, ds, path, 300, 200, &err), PDT_OK);
    assert_true(tu_file_size(path) > 100);
    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_width(img), 300);
    assert_int_equal(cairo_image_surface_get_height(img), 200);
    /* world x from −0.32 to 4.32 over 300 pixels: x = 0.5 (class a's side) at
     * pixel 42, x = 3.5 (class b's) at 236; y = 1.5 mid-height, between points */
    assert_tints_differ();
    assert_int_equal(pixel(img, 42, 100), tint(0));
    assert_int_equal(pixel(img, 236, 100), tint(1));
    /* the split x ≤ 1 (every x in (1, 3) goes right... pixels at x = 1) is drawn dark */
    bool dark = false;
    for (int x = 60; x < 100; x++) dark = dark || pixel(img, x, 150) == 0x303030;
    assert_true(dark);
    cairo_surface_destroy(img);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

static void test_model_plot_svg(void **state)
{
    (void)state;
    pdt_dataset *ds = csv(halves);
    pdt_model *m = fit(ds, "hyperplane");
    char path[512];
    snprintf(path, sizeof path, "%s/stump.svg", tu_tmpdir());
    pdt_error err;
    assert_int_equal(pdt_model_plot(m, ds, path, 320, 240, &err), PDT_OK);
    char *svg = tu_read_file(path);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "<svg"));
    assert_non_null(strstr(svg, "width=\"320"));
    assert_non_null(strstr(svg, "height=\"240"));
    free(svg);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

static void test_model_plot_errors(void **state)
{
    (void)state;
    pdt_dataset *ds = csv(halves);
    pdt_model *m = fit(ds, "axis");
    char path[512];
    pdt_error err;
    snprintf(path, sizeof path, "%s/stump.gif", tu_tmpdir());
    assert_int_equal(pdt_model_plot(m, ds, path, 100, 100, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, ".png or .svg"));
    assert_false(tu_exists(path));
    snprintf(path, sizeof path, "%s/zero.png", tu_tmpdir());
    assert_int_equal(pdt_model_plot(m, ds, path, 0, 100, &err), PDT_EINVAL);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
    ds = csv("x,y,z,c\n0,0,0,a\n1,1,1,b\n");
    m = fit(ds, "axis");
    assert_int_equal(pdt_model_plot(m, ds, path, 100, 100, &err), PDT_EINVAL);
    assert_non_null(strstr(err.message, "exactly 2 features"));
    assert_false(tu_exists(path));
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

static void test_model_plot_cli(void **state)
{
    (void)state;
    char *data = tu_write_file("halves.csv", halves), out[512];
    snprintf(out, sizeof out, "%s/cli.png", tu_tmpdir());
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "hypersurface,axis", "--size", "1", "--plot", out,
               "--plot-size", "123x45", "-q", NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    cairo_surface_t *img = cairo_image_surface_create_from_png(out);
    assert_int_equal(cairo_image_surface_get_width(img), 123);
    assert_int_equal(cairo_image_surface_get_height(img), 45);
    cairo_surface_destroy(img);
    static const char *const bad[] = {"0x10", "10x", "x10", "abc", "10x20000000", "-5x5", "10x10x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tu_run_pdt(&r, "fit", "--data", data, "--size", "1", "--plot", out, "--plot-size", bad[i], NULL);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "option --plot-size"));
        tu_run_free(&r);
    }
    char *three = tu_write_file("three.csv", "x,y,z,c\n0,0,0,a\n1,1,1,b\n");
    snprintf(out, sizeof out, "%s/three.png", tu_tmpdir());
    tu_run_pdt(&r, "fit", "--data", three, "--size", "1", "--plot", out, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "option --plot: "));
    assert_non_null(strstr(r.err, "three.png: pictures need data with exactly 2 features (the data has 3)"));
    assert_null(strstr(r.out, "objective")); /* refused before the search */
    assert_false(tu_exists(out));
    tu_run_free(&r);
    free(three);
    free(data);
}

/* Issue 16: coordinates near ±1e308 (and past the doubles, 1e400) reached
 * GMP as infinities and killed `pdt fit --plot` with SIGFPE, leaving the
 * model behind.  Every picture of such data is drawn now. */
static void test_model_plot_extreme_coordinates(void **state)
{
    (void)state;
    static const char *const files[][2] = {
        {"huge.csv", "x,y,c\n-1e308,0,a\n1e308,1,b\n0,-1e308,a\n5,1e308,b\n"},
        {"huger.csv", "x,y,c\n-1.7e308,0,a\n1.7e308,1,b\n0,-1e400,a\n5,1e400,b\n"},
    };
    for (size_t i = 0; i < 2; i++) {
        char *data = tu_write_file(files[i][0], files[i][1]);
        char png[512], json[512];
        snprintf(png, sizeof png, "%s/huge%zu.png", tu_tmpdir(), i);
        snprintf(json, sizeof json, "%s/huge%zu.json", tu_tmpdir(), i);
        const char *const families[] = {"axis", "hyperplane"};
        for (size_t f = 0; f < 2; f++) {
            tu_run r;
            tu_run_pdt(&r, "fit", "--data", data, "--rules", families[f], "--size", "1", "-q", "-o", json, "--plot",
                       png, "--plot-size", "64x48", NULL);
            if (r.status) fprintf(stderr, "%s %s: %d %s\n", files[i][0], families[f], r.status, r.err);
            assert_int_equal(r.status, 0);
            assert_true(tu_file_size(png) > 0 && tu_file_size(json) > 0);
            tu_run_free(&r);
            unlink(png), unlink(json);
        }
        tu_run r;
        tu_run_pdt(&r, "kdtree", "--data", data, "--skip", "c", "-q", "--picture", png, NULL);
        assert_int_equal(r.status, 0);
        assert_true(tu_file_size(png) > 0);
        tu_run_free(&r);
        free(data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_plot_png_sides),
        cmocka_unit_test(test_model_plot_svg),
        cmocka_unit_test(test_model_plot_errors),
        cmocka_unit_test(test_model_plot_cli),
        cmocka_unit_test(test_model_plot_extreme_coordinates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
