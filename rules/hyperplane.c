/* Hyperplanes through D affinely independent data points (He & Little): for
 * every D-combination of rows and every assignment of its D defining points to
 * a side, the rule "orient(p1..pD, x) < 0" with points on the hyperplane
 * placed by the assignment.  A point x on the hyperplane goes where an
 * infinitesimally rotated hyperplane would put it: writing x = Σ λ_i p_i
 * (Σ λ_i = 1), left iff Σ λ_i s_i ≤ 0 with s_i = -1 for a point assigned left,
 * +1 for right.  This depends only on the position of x, so duplicates of a
 * defining point follow its assignment and every side is a connected set.
 * All predicates are exact (pdt_geometry.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "pdt_geometry.h"
#include "pdt_linalg.h"
#include "pdt_plugin.h"

#define HP_ULPS 2 /* dataset doubles are within one ulp (2^-52 relative) of the exact value */
#define HP_MAX_RULES (UINT64_C(1) << 26) /* candidates the list may hold: a few GB */

/* The orientation of every row against the last tuple asked for: the 2^d
 * candidates of a tuple come one after the other. */
typedef struct hp_signs {
    uint32_t tuple[PDT_DET_MAX];
    bool cached;
    int8_t *sign; /* n */
    pdt_geom_stats stats;
} hp_signs;

typedef struct hp_state {
    size_t n, d;
    double *x; /* n*d filter inputs: the dataset's doubles, NaN where out of range */
    hp_signs signs; /* the sides slot's (sides_range keeps its own) */
    pdt_geom_stats stats;
} hp_state;

/* Exact coordinates for the fallback: point k is dataset row rows[k]. */
typedef struct hp_rows {
    const pdt_dataset *ds;
    const uint32_t *rows;
} hp_rows;

static void hp_entry_rows(mpq_ptr out, void *ctx, size_t k, size_t j)
{
    const hp_rows *c = ctx;
    pdt_dataset_value_exact(out, c->ds, c->rows[k], j);
}

static void hp_destroy(void *state)
{
    hp_state *st = state;
    if (!st) return;
    free(st->signs.sign);
    free(st->x);
    free(st);
}

static uint64_t choose(size_t n, size_t k)
{
    uint64_t c = 1;
    for (size_t i = 0; i < k; i++) {
        c = c * (n - i) / (i + 1);
        if (c > HP_MAX_RULES) return HP_MAX_RULES + 1;
    }
    return c;
}

/* Filter inputs: a coordinate whose double is not within the predicates'
 * error contract (overflowed, underflowed or subnormal) becomes NaN. */
static void hp_filter_inputs(hp_state *st, const pdt_dataset *ds)
{
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < st->n; i++) {
        const double *row = pdt_dataset_row(ds, i);
        for (size_t j = 0; j < st->d; j++) {
            double v = row[j];
            if (v != 0.0 && (!isnormal(v) || fabs(v) > 0x1p1000 || fabs(v) < 0x1p-1000)) v = NAN;
            if (v == 0.0) {
                pdt_dataset_value_exact(q, ds, i, j);
                if (mpq_sgn(q)) v = NAN;
            }
            st->x[i * st->d + j] = v;
        }
    }
    mpq_clear(q);
}

static pdt_status hp_add_tuple(pdt_rule_list *out, const pdt_dataset *ds, const uint32_t *t, size_t d,
                               hp_state *st, pdt_error *err)
{
    const double *pts[PDT_DET_MAX + 1];
    for (size_t k = 0; k < d; k++) pts[k] = st->x + t[k] * d;
    hp_rows ctx = {ds, t};
    if (!pdt_affinely_independent(d, d, pts, HP_ULPS, hp_entry_rows, &ctx, &st->stats)) return PDT_OK;
    for (int64_t mask = 0; mask < (INT64_C(1) << d); mask++)
        if (pdt_rule_list_add(out, mask, t, d)) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    return PDT_OK;
}

static pdt_status hp_generate(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                              const pdt_rule_params *params, pdt_error *err)
{
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    if (d < 1 || d > PDT_DET_MAX - 1)
        return pdt_error_set(err, PDT_EINVAL, "hyperplanes need 1 to %d features, the data has %zu",
                             PDT_DET_MAX - 1, d);
    if (choose(n, d) << d > HP_MAX_RULES) {
        double approx = 1;
        for (size_t i = 0; i < d; i++) approx = approx * (double)(n - i) / (double)(i + 1) * 2;
        return pdt_error_set(err, PDT_ELIMIT, "C(%zu, %zu)·2^%zu ≈ %.3g hyperplane rules are too many for "
                             "a candidate list (at most 2^26 ≈ 6.7e+07, a few GB); use fewer items or "
                             "features, or axis rules", n, d, d, approx);
    }
    hp_state *st = calloc(1, sizeof *st);
    if (st) {
        st->signs.sign = malloc(n ? n : 1);
        st->x = malloc((n * d + 1) * sizeof *st->x);
    }
    if (!st || !st->signs.sign || !st->x) {
        hp_destroy(st);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    st->n = n;
    st->d = d;
    *state = st;
    hp_filter_inputs(st, ds);
    if (n < d) return PDT_OK;
    uint32_t t[PDT_DET_MAX];
    for (size_t k = 0; k < d; k++) t[k] = (uint32_t)k;
    for (uint64_t tuples = 1;; tuples++) {
        pdt_status s = hp_add_tuple(out, ds, t, d, st, err);
        if (s) return s;
        if (!pdt_comb_next(t, d, n)) return PDT_OK;
        if (tuples % 4096 == 0 && pdt_rule_params_expired(params)) return PDT_OK; /* the fit's time is up */
    }
}

static void hp_cache_signs(const hp_state *st, hp_signs *sc, const pdt_dataset *ds, const uint32_t *def)
{
    if (sc->cached && memcmp(sc->tuple, def, st->d * sizeof *def) == 0) return;
    memcpy(sc->tuple, def, st->d * sizeof *def);
    sc->cached = true;
    uint32_t rows[PDT_DET_MAX + 1];
    const double *pts[PDT_DET_MAX + 1];
    memcpy(rows, def, st->d * sizeof *def);
    for (size_t k = 0; k < st->d; k++) pts[k] = st->x + def[k] * st->d;
    hp_rows ctx = {ds, rows};
    for (size_t i = 0; i < st->n; i++) {
        rows[st->d] = (uint32_t)i;
        pts[st->d] = st->x + i * st->d;
        sc->sign[i] = (int8_t)pdt_orient(st->d, pts, HP_ULPS, hp_entry_rows, &ctx, &sc->stats);
    }
}

/* s_i of the defining points: -1 assigned left (mask bit set), +1 right. */
static void hp_assignment(int *s, int64_t mask, size_t d)
{
    for (size_t k = 0; k < d; k++) s[k] = (mask >> k) & 1 ? -1 : 1;
}

extern const pdt_rule_class pdt_rule_class_hyperplane;

static pdt_status hp_side(uint64_t *left, const hp_state *st, hp_signs *sc, const pdt_rule_list *list, size_t r,
                          const pdt_dataset *ds, pdt_error *err)
{
    size_t n_def;
    const uint32_t *def = pdt_rule_list_def(list, r, &n_def);
    int64_t mask = pdt_rule_list_tag(list, r);
    hp_cache_signs(st, sc, ds, def);
    int s[PDT_DET_MAX];
    hp_assignment(s, mask, st->d);
    uint32_t rows[PDT_DET_MAX + 1];
    memcpy(rows, def, st->d * sizeof *def);
    hp_rows ctx = {ds, rows};
    pdt_bits_clear(left, pdt_bits_words(st->n));
    for (size_t i = 0; i < st->n; i++) {
        int sg = sc->sign[i];
        if (sg == 0) { /* on the hyperplane: placed by the assignment */
            size_t k = 0;
            while (k < st->d && def[k] != i) k++;
            if (k < st->d) { /* defining point k itself: λ = e_k, the sign is s_k's (no GMP) */
                if (s[k] < 0) pdt_bit_set(left, i);
                continue;
            }
            rows[st->d] = (uint32_t)i;
            sg = pdt_affine_weighted_sign(st->d, hp_entry_rows, &ctx, s);
            if (sg == 2) return pdt_error_set(err, PDT_EINTERNAL, "point %zu on a degenerate hyperplane", i);
            if (sg == 0) sg = -1;
        }
        if (sg < 0) pdt_bit_set(left, i);
    }
    return PDT_OK;
}

static pdt_status hp_sides(uint64_t *left, void *state, const pdt_rule_list *list, size_t r,
                           const pdt_dataset *ds, pdt_error *err)
{
    hp_state *st = state;
    return hp_side(left, st, &st->signs, list, r, ds, err);
}

/* Candidates from .. to - 1, with signs of its own: threads may share st. */
static pdt_status hp_sides_range(uint64_t *left, void *state, const pdt_rule_list *list, size_t from, size_t to,
                                 const pdt_dataset *ds, pdt_error *err)
{
    const hp_state *st = state;
    hp_signs sc = {.sign = malloc(st->n ? st->n : 1)};
    if (!sc.sign) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    const size_t words = pdt_bits_words(st->n);
    pdt_status s = PDT_OK;
    for (size_t r = from; r < to && !s; r++) s = hp_side(left + (r - from) * words, st, &sc, list, r, ds, err);
    free(sc.sign);
    return s;
}

/* ---- the standalone rule: ints = {mask, D}, rats = the D defining points (row-major) */

typedef struct hp_exact {
    const mpq_t *pts; /* D points */
    mpq_srcptr x;     /* the point classified (k == D) */
    size_t d;
} hp_exact;

static void hp_entry_exact(mpq_ptr out, void *ctx, size_t k, size_t j)
{
    const hp_exact *c = ctx;
    mpq_set(out, k < c->d ? c->pts[k * c->d + j] : &c->x[j]);
}

static pdt_status hp_export(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r,
                            const pdt_dataset *ds, pdt_error *err)
{
    hp_state *st = state;
    size_t n_def, d = st->d;
    const uint32_t *def = pdt_rule_list_def(list, r, &n_def);
    pdt_status s = pdt_rule_init(rule, &pdt_rule_class_hyperplane, 2, d * d, err);
    if (s) return s;
    rule->ints[0] = pdt_rule_list_tag(list, r);
    rule->ints[1] = (int64_t)d;
    for (size_t k = 0; k < d; k++)
        for (size_t j = 0; j < d; j++) pdt_dataset_value_exact(rule->rats[k * d + j], ds, def[k], j);
    return PDT_OK;
}

static pdt_status hp_classify(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims,
                              pdt_error *err)
{
    size_t d = (size_t)rule->ints[1];
    if (d != dims) return pdt_error_set(err, PDT_EINVAL, "hyperplane in %zu dimensions, point in %zu", d, dims);
    double coords[(PDT_DET_MAX + 1) * PDT_DET_MAX];
    const double *pts[PDT_DET_MAX + 1];
    for (size_t k = 0; k <= d; k++) {
        for (size_t j = 0; j < d; j++)
            coords[k * d + j] = pdt_filter_double(k < d ? rule->rats[k * d + j] : &x[j]);
        pts[k] = coords + k * d;
    }
    hp_exact ctx = {(const mpq_t *)rule->rats, x, d};
    int sg = pdt_orient(d, pts, HP_ULPS, hp_entry_exact, &ctx, NULL);
    if (sg == 0) {
        int s[PDT_DET_MAX];
        hp_assignment(s, rule->ints[0], d);
        sg = pdt_affine_weighted_sign(d, hp_entry_exact, &ctx, s);
        if (sg == 2) return pdt_error_set(err, PDT_EINVAL, "degenerate hyperplane rule");
        if (sg == 0) sg = -1;
    }
    *left = sg < 0;
    return PDT_OK;
}

static pdt_status hp_describe(pdt_buf *out, const pdt_rule *rule, const char *const *names,
                              size_t dims, pdt_error *err)
{
    size_t d = (size_t)rule->ints[1];
    if (d != dims) return pdt_error_set(err, PDT_EINVAL, "hyperplane in %zu dimensions, data in %zu", d, dims);
    mpq_t coef[PDT_DET_MAX + 1];
    for (size_t j = 0; j <= d; j++) mpq_init(coef[j]);
    hp_exact ctx = {(const mpq_t *)rule->rats, NULL, d};
    pdt_hyperplane_equation(coef, d, hp_entry_exact, &ctx);
    pdt_buf_linear(out, (const mpq_t *)coef, d, names, "≤");
    for (size_t j = 0; j <= d; j++) mpq_clear(coef[j]);
    return PDT_OK;
}

static pdt_status hp_validate(const pdt_rule *rule, size_t dims, pdt_error *err)
{
    if (rule->n_ints != 2 || rule->ints[1] < 1 || (uint64_t)rule->ints[1] != dims ||
        rule->n_rats != dims * dims || dims >= PDT_DET_MAX)
        return pdt_error_set(err, PDT_EINVAL, "a hyperplane rule in %zu dimensions has 2 integers "
                             "(assignment, dimension) and %zu rationals (its points)", dims, dims * dims);
    if (rule->ints[0] < 0 || rule->ints[0] >= (INT64_C(1) << dims))
        return pdt_error_set(err, PDT_EINVAL, "hyperplane assignment %lld out of range",
                             (long long)rule->ints[0]);
    double coords[PDT_DET_MAX * PDT_DET_MAX];
    const double *pts[PDT_DET_MAX];
    for (size_t k = 0; k < dims; k++) {
        for (size_t j = 0; j < dims; j++) coords[k * dims + j] = pdt_filter_double(rule->rats[k * dims + j]);
        pts[k] = coords + k * dims;
    }
    hp_exact ctx = {(const mpq_t *)rule->rats, NULL, dims};
    if (!pdt_affinely_independent(dims, dims, pts, HP_ULPS, hp_entry_exact, &ctx, NULL))
        return pdt_error_set(err, PDT_EINVAL, "the points of a hyperplane rule are affinely dependent");
    return PDT_OK;
}

PDT_DEFINE_RULE(hyperplane) = {
    .version = PDT_RULE_V1,
    .name = "hyperplane",
    .description = "hyperplanes through D data points, each side assignment of the points (C(N,D)·2^D rules)",
    .flags = PDT_EXACT | PDT_DATA_DEFINED,
    .generate = hp_generate,
    .sides_range = hp_sides_range,
    .sides = hp_sides,
    .export_rule = hp_export,
    .classify = hp_classify,
    .describe = hp_describe,
    .validate = hp_validate,
    .destroy = hp_destroy,
};
