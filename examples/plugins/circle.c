/* A worked rule plugin, written outside the framework: circles through three
 * data points, the inside (the closed disc, up to the tie rule below) being
 * the left side.  docs/writing-a-rule.md walks through this file.
 *
 * The mathematics.  Lift a point to the paraboloid, x = (x, y) ↦ (x, y,
 * x² + y²).  A circle through a, b, c is the plane through their lifts; a
 * point is inside the circle iff its lift lies below that plane, i.e.
 *     inside(x)  iff  orient(â, b̂, ĉ, x̂) · orient(a, b, c) > 0
 * (orient is the sign of det [p 1; …] in R³ and R² respectively — the
 * classic in-circle test).  Three collinear points define a line, not a
 * circle, and make no rule.  As for hyperplanes, each defining point is
 * assigned a side (2³ rules per triple) and a point exactly on the circle
 * goes where that assignment puts it: writing x̂ = Σ λ_i p̂_i with Σ λ_i = 1,
 * left iff Σ λ_i s_i ≤ 0 (s_i = −1 for a point assigned inside).  This
 * depends only on the position of x, so both sides stay connected: the open
 * disc plus some arcs of the circle, and the open outside plus the other arcs.
 *
 * Exactness.  x and y are dataset doubles, within 2 roundings of the exact
 * decimals (pdt_geometry.h's "ulps" contract).  x² and y² add one rounding
 * each: 5.  Their sum of two non-negative terms keeps the larger relative
 * error and adds one rounding: x² + y² is within 6 roundings, so the
 * predicates get ulps = 6 (the largest in the matrix).  A square that leaves
 * the normal double range breaks the contract and is passed as NaN, which
 * sends the predicate to its exact (GMP) path; the exact path reads the
 * coordinates as rationals through `circle_entry`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "pdt_geometry.h"
#include "pdt_linalg.h"
#include "pdt_plugin.h"

#define CIRCLE_ULPS 6

/* The family's name for --rules.  pdt has this file built in as "circle"; a
 * copy loaded as a plugin beside it needs another name (-DCIRCLE_NAME='"disc"'). */
#ifndef CIRCLE_NAME
#define CIRCLE_NAME "circle"
#endif

extern const pdt_rule_class pdt_rule_class_circle;

/* Exact coordinates of up to four points (three defining points and a query). */
typedef struct circle_pts {
    const mpq_t *p[4]; /* each: x, y */
} circle_pts;

/* Entry (k, j) of the lifted points: x, y, then x² + y². */
static void circle_entry(mpq_ptr out, void *ctx, size_t k, size_t j)
{
    const circle_pts *c = ctx;
    if (j < 2) {
        mpq_set(out, c->p[k][j]);
        return;
    }
    mpq_t t;
    mpq_init(t);
    mpq_mul(out, c->p[k][0], c->p[k][0]);
    mpq_mul(t, c->p[k][1], c->p[k][1]);
    mpq_add(out, out, t);
    mpq_clear(t);
}

/* Entries (k, j) of the plane points themselves (orientation in R²). */
static void circle_entry_plane(mpq_ptr out, void *ctx, size_t k, size_t j)
{
    const circle_pts *c = ctx;
    mpq_set(out, c->p[k][j]);
}

/* The filter's doubles for an exact point: x, y, x² + y² (NaN where the
 * contract cannot be met). */
static void circle_lift(double *out, mpq_srcptr x, mpq_srcptr y)
{
    out[0] = pdt_filter_double(x);
    out[1] = pdt_filter_double(y);
    double s = out[0] * out[0] + out[1] * out[1];
    bool squares_ok = (out[0] == 0 || isnormal(out[0] * out[0])) && (out[1] == 0 || isnormal(out[1] * out[1]));
    out[2] = squares_ok && (s == 0 || isnormal(s)) ? s : NAN;
}

/* The side of point 3 against the circle through points 0..2 under the
 * assignment mask: −1 left (inside), +1 right, 2 for a degenerate triple. */
static int circle_side(const circle_pts *c, int64_t mask, pdt_geom_stats *stats)
{
    double lift[4][3];
    const double *pts[4];
    for (size_t k = 0; k < 4; k++) {
        circle_lift(lift[k], c->p[k][0], c->p[k][1]);
        pts[k] = lift[k];
    }
    int turn = pdt_orient(2, pts, 2, circle_entry_plane, (void *)c, stats); /* a, b, c in the plane */
    if (turn != 1 && turn != -1) return 2;
    int s = pdt_orient(3, pts, CIRCLE_ULPS, circle_entry, (void *)c, stats);
    if (s == 2) return 2;
    if (s != 0) return s * turn > 0 ? -1 : 1;
    int w[3];
    for (size_t k = 0; k < 3; k++) w[k] = (mask >> k) & 1 ? -1 : 1;
    int t = pdt_affine_weighted_sign(3, circle_entry, (void *)c, w);
    return t == 2 ? 2 : t <= 0 ? -1 : 1;
}

/* ------------------------------------------------------------ candidates */

/* The dataset's exact coordinates, read once. */
typedef struct circle_state {
    size_t n;
    mpq_t *q; /* n · 2 */
    pdt_geom_stats stats;
} circle_state;

static void circle_destroy(void *state)
{
    circle_state *st = state;
    if (!st) return;
    for (size_t k = 0; k < 2 * st->n; k++) mpq_clear(st->q[k]);
    free(st->q);
    free(st);
}

static bool circle_triple_ok(circle_state *st, const uint32_t *t)
{
    circle_pts c = {{(const mpq_t *)&st->q[2 * t[0]], (const mpq_t *)&st->q[2 * t[1]],
                     (const mpq_t *)&st->q[2 * t[2]], NULL}};
    double xy[3][2];
    const double *pts[3];
    for (size_t k = 0; k < 3; k++) {
        xy[k][0] = pdt_filter_double(c.p[k][0]);
        xy[k][1] = pdt_filter_double(c.p[k][1]);
        pts[k] = xy[k];
    }
    int turn = pdt_orient(2, pts, 2, circle_entry_plane, &c, &st->stats);
    return turn == 1 || turn == -1; /* 0: collinear (a line, not a circle) */
}

static pdt_status circle_generate(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                                  const pdt_rule_params *params, pdt_error *err)
{
    (void)params;
    size_t n = pdt_dataset_rows(ds);
    if (pdt_dataset_dims(ds) != 2)
        return pdt_error_set(err, PDT_EINVAL, "circles need exactly 2 features, the data has %zu",
                             pdt_dataset_dims(ds));
    /* a candidate list costs tens of bytes per rule: stay under 2^26 rules (n ≤ 370) */
    if (n > 370)
        return pdt_error_set(err, PDT_ELIMIT, "C(%zu, 3)·8 circles are too many for a candidate list "
                             "(at most 370 points)", n);
    circle_state *st = calloc(1, sizeof *st);
    if (!st || !(st->q = malloc((2 * n + 1) * sizeof *st->q))) {
        free(st);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < 2; j++) {
            mpq_init(st->q[2 * i + j]);
            pdt_dataset_value_exact(st->q[2 * i + j], ds, i, j);
        }
    st->n = n;
    *state = st;
    uint32_t t[3];
    for (t[0] = 0; t[0] < n; t[0]++)
        for (t[1] = t[0] + 1; t[1] < n; t[1]++)
            for (t[2] = t[1] + 1; t[2] < n; t[2]++) {
                if (!circle_triple_ok(st, t)) continue;
                for (int64_t mask = 0; mask < 8; mask++)
                    if (pdt_rule_list_add(out, mask, t, 3)) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
            }
    return PDT_OK;
}

static pdt_status circle_sides(uint64_t *left, void *state, const pdt_rule_list *list, size_t r,
                               const pdt_dataset *ds, pdt_error *err)
{
    (void)ds;
    circle_state *st = state;
    size_t n_def;
    const uint32_t *def = pdt_rule_list_def(list, r, &n_def);
    int64_t mask = pdt_rule_list_tag(list, r);
    circle_pts c = {{(const mpq_t *)&st->q[2 * def[0]], (const mpq_t *)&st->q[2 * def[1]],
                     (const mpq_t *)&st->q[2 * def[2]], NULL}};
    pdt_bits_clear(left, pdt_bits_words(st->n));
    for (size_t i = 0; i < st->n; i++) {
        c.p[3] = (const mpq_t *)&st->q[2 * i];
        int s = circle_side(&c, mask, &st->stats);
        if (s == 2) return pdt_error_set(err, PDT_EINTERNAL, "circle rule %zu: degenerate triple", r);
        if (s < 0) pdt_bit_set(left, i);
    }
    return PDT_OK;
}

/* ------------------------------------------------------------ standalone rules */

/* ints = {mask}, rats = the three defining points (x0, y0, x1, y1, x2, y2). */
static pdt_status circle_export(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r,
                                const pdt_dataset *ds, pdt_error *err)
{
    (void)ds;
    const circle_state *st = state;
    size_t n_def;
    const uint32_t *def = pdt_rule_list_def(list, r, &n_def);
    pdt_status s = pdt_rule_init(rule, &pdt_rule_class_circle, 1, 6, err);
    if (s) return s;
    rule->ints[0] = pdt_rule_list_tag(list, r);
    for (size_t k = 0; k < 3; k++)
        for (size_t j = 0; j < 2; j++) mpq_set(rule->rats[2 * k + j], st->q[2 * def[k] + j]);
    return PDT_OK;
}

static pdt_status circle_validate(const pdt_rule *rule, size_t dims, pdt_error *err)
{
    if (dims != 2 || rule->n_ints != 1 || rule->n_rats != 6 || rule->ints[0] < 0 || rule->ints[0] > 7)
        return pdt_error_set(err, PDT_EINVAL, "a circle rule has one integer (assignment 0..7) and six "
                             "rationals (three points in the plane)");
    circle_pts c = {{(const mpq_t *)&rule->rats[0], (const mpq_t *)&rule->rats[2], (const mpq_t *)&rule->rats[4], NULL}};
    double xy[3][2];
    const double *pts[3];
    for (size_t k = 0; k < 3; k++) {
        xy[k][0] = pdt_filter_double(c.p[k][0]);
        xy[k][1] = pdt_filter_double(c.p[k][1]);
        pts[k] = xy[k];
    }
    int turn = pdt_orient(2, pts, 2, circle_entry_plane, &c, NULL);
    if (turn != 1 && turn != -1)
        return pdt_error_set(err, PDT_EINVAL, "the three points of a circle rule are collinear");
    return PDT_OK;
}

static pdt_status circle_classify(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims, pdt_error *err)
{
    pdt_status s = circle_validate(rule, dims, err);
    if (s) return s;
    circle_pts c = {{(const mpq_t *)&rule->rats[0], (const mpq_t *)&rule->rats[2], (const mpq_t *)&rule->rats[4],
                     (const mpq_t *)x}};
    int side = circle_side(&c, rule->ints[0], NULL);
    if (side == 2) return pdt_error_set(err, PDT_EINVAL, "degenerate circle rule");
    *left = side < 0;
    return PDT_OK;
}

/* "(x − 1)² + (y + 1/2)² ≤ 25/4": centre and squared radius, exactly. */
static pdt_status circle_describe(pdt_buf *out, const pdt_rule *rule, const char *const *names, size_t dims,
                                  pdt_error *err)
{
    pdt_status s = circle_validate(rule, dims, err);
    if (s) return s;
    circle_pts c = {{(const mpq_t *)&rule->rats[0], (const mpq_t *)&rule->rats[2], (const mpq_t *)&rule->rats[4], NULL}};
    mpq_t coef[4], centre[2], r2, t;
    for (size_t k = 0; k < 4; k++) mpq_init(coef[k]);
    mpq_inits(centre[0], centre[1], r2, t, NULL);
    /* the lifted plane: coef0·x + coef1·y + coef2·(x² + y²) + coef3 = 0, coef2 != 0 */
    pdt_hyperplane_equation(coef, 3, circle_entry, &c);
    mpq_set_si(t, -2, 1);
    mpq_mul(t, t, coef[2]);
    for (size_t j = 0; j < 2; j++) mpq_div(centre[j], coef[j], t); /* −coef_j / (2·coef2) */
    mpq_div(r2, coef[3], coef[2]);
    mpq_neg(r2, r2);
    for (size_t j = 0; j < 2; j++) {
        mpq_mul(t, centre[j], centre[j]);
        mpq_add(r2, r2, t);
    }
    for (size_t j = 0; j < 2; j++) {
        if (j) pdt_buf_puts(out, " + ");
        if (mpq_sgn(centre[j]) == 0) {
            pdt_buf_printf(out, "%s²", names[j]);
            continue;
        }
        pdt_buf_printf(out, "(%s %s ", names[j], mpq_sgn(centre[j]) > 0 ? "−" : "+");
        mpq_abs(t, centre[j]);
        pdt_buf_mpq_decimal(out, t);
        pdt_buf_puts(out, ")²");
    }
    pdt_buf_puts(out, " ≤ ");
    pdt_buf_mpq_decimal(out, r2);
    for (size_t k = 0; k < 4; k++) mpq_clear(coef[k]);
    mpq_clears(centre[0], centre[1], r2, t, NULL);
    return PDT_OK;
}

PDT_DEFINE_RULE(circle) = {
    .version = PDT_RULE_V1,
    .name = CIRCLE_NAME,
    .description = "circles through 3 data points, inside = left, each side assignment of the points "
                   "(C(N,3)·8 rules; example plugin, examples/plugins/circle.c)",
    .flags = PDT_EXACT | PDT_DATA_DEFINED,
    .generate = circle_generate,
    .sides = circle_sides,
    .export_rule = circle_export,
    .classify = circle_classify,
    .describe = circle_describe,
    .validate = circle_validate,
    .destroy = circle_destroy,
};
