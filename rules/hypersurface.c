/* Polynomial hypersurfaces of degree g (default 2, `--degree`): for every G
 * data points whose lifted images are affinely independent and every
 * assignment of them to a side, the rule "orient(lift p_1..lift p_G, lift x)
 * < 0", points on the surface placed by the assignment (hypersurface.h).
 * C(N, G)·2^G candidates, G = C(D+g, g) − 1 (5 for conics in the plane).
 * Fits of at most 2 branch nodes on one family use the streaming backend in
 * backends/hypersurface/hypersurface_solve.c, which needs no candidate list. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "hypersurface.h"
#include "pdt_linalg.h"

#define HS_MAX_RULES (UINT64_C(1) << 26) /* candidates the explicit list may hold */

/* The orientation of every row against the last tuple asked for: the 2^G
 * candidates of a tuple come one after the other. */
typedef struct hs_signs {
    hs_eval e;
    uint32_t tuple[HS_MAX_LIFTED];
    bool cached;
    int8_t *sign; /* n */
} hs_signs;

typedef struct hs_state {
    hs_data hd;
    hs_eval e;      /* generate's */
    hs_signs signs; /* the sides slot's (sides_range keeps its own) */
} hs_state;

static void hs_destroy(void *state)
{
    hs_state *st = state;
    if (!st) return;
    hs_data_clear(&st->hd);
    free(st->signs.sign);
    free(st);
}

static uint64_t choose_capped(size_t n, size_t k, uint64_t cap)
{
    uint64_t c = 1;
    for (size_t i = 0; i < k && c <= cap; i++) c = c * (n - i) / (i + 1);
    return c;
}

static pdt_status hs_state_new(hs_state **out, const pdt_dataset *ds, const pdt_rule_params *params,
                               pdt_error *err)
{
    hs_state *st = calloc(1, sizeof *st);
    if (!st) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_status s = hs_data_init(&st->hd, ds, params ? params->degree : 0, err);
    if (!s && !(st->signs.sign = malloc(pdt_dataset_rows(ds) + 1))) s = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (s) {
        hs_destroy(st);
        return s;
    }
    hs_eval_init(&st->e, &st->hd.L);
    hs_eval_init(&st->signs.e, &st->hd.L);
    *out = st;
    return PDT_OK;
}

static pdt_status hs_generate(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                              const pdt_rule_params *params, pdt_error *err)
{
    hs_state *st = NULL;
    pdt_status s = hs_state_new(&st, ds, params, err);
    if (s) return s;
    *state = st;
    size_t n = st->hd.n, G = st->hd.L.G;
    if (choose_capped(n, G, HS_MAX_RULES) << G > HS_MAX_RULES)
        return pdt_error_set(err, PDT_ELIMIT, "C(%zu, %zu)·2^%zu hypersurface rules are too many for a "
                             "candidate list (at most 2^26); fits with --size 1 or 2 on this family "
                             "alone stream them instead", n, G, G);
    if (n < G) return PDT_OK;
    uint32_t t[HS_MAX_LIFTED];
    for (size_t k = 0; k < G; k++) t[k] = (uint32_t)k;
    for (uint64_t tuples = 1;; tuples++) {
        if (hs_data_tuple(&st->e, &st->hd, t))
            for (int64_t mask = 0; mask < (INT64_C(1) << G); mask++)
                if (pdt_rule_list_add(out, mask, t, G)) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
        if (!pdt_comb_next(t, G, n)) return PDT_OK;
        if (tuples % 4096 == 0 && pdt_rule_params_expired(params)) return PDT_OK; /* the fit's time is up */
    }
}

/* Orientation of every row against the tuple (defining rows: 0 by construction). */
static void hs_cache_signs(const hs_data *hd, hs_signs *sc, const uint32_t *def)
{
    size_t G = hd->L.G;
    if (sc->cached && memcmp(sc->tuple, def, G * sizeof *def) == 0) return;
    memcpy(sc->tuple, def, G * sizeof *def);
    sc->cached = true;
    hs_data_tuple(&sc->e, hd, def);
    memset(sc->sign, 1, hd->n);
    for (size_t k = 0; k < G; k++) sc->sign[def[k]] = 0;
    for (size_t i = 0; i < hd->n; i++)
        if (sc->sign[i]) sc->sign[i] = (int8_t)hs_eval_sign(&sc->e, hs_data_point(hd, i), hs_data_row(hd, i));
}

static pdt_status hs_side(uint64_t *left, const hs_data *hd, hs_signs *sc, const pdt_rule_list *list, size_t r,
                          pdt_error *err)
{
    size_t n_def, G = hd->L.G;
    const uint32_t *def = pdt_rule_list_def(list, r, &n_def);
    int64_t mask = pdt_rule_list_tag(list, r);
    hs_cache_signs(hd, sc, def);
    pdt_bits_clear(left, pdt_bits_words(hd->n));
    for (size_t i = 0; i < hd->n; i++) {
        int sg = sc->sign[i];
        if (sg == 2) return pdt_error_set(err, PDT_EINTERNAL, "orientation of row %zu failed", i);
        if (sg == 0) {
            size_t k = 0;
            while (k < G && def[k] != i) k++;
            if (k < G) sg = (mask >> k) & 1 ? -1 : 1; /* a defining point: its assignment */
            else sg = hs_eval_on_surface(&sc->e, hs_data_point(hd, i), mask);
            if (sg == 2) return pdt_error_set(err, PDT_EINTERNAL, "row %zu on a degenerate hypersurface", i);
        }
        if (sg < 0) pdt_bit_set(left, i);
    }
    return PDT_OK;
}

static pdt_status hs_sides(uint64_t *left, void *state, const pdt_rule_list *list, size_t r,
                           const pdt_dataset *ds, pdt_error *err)
{
    (void)ds;
    hs_state *st = state;
    return hs_side(left, &st->hd, &st->signs, list, r, err);
}

/* Candidates from .. to - 1, with signs of its own: threads may share st. */
static pdt_status hs_sides_range(uint64_t *left, void *state, const pdt_rule_list *list, size_t from, size_t to,
                                 const pdt_dataset *ds, pdt_error *err)
{
    (void)ds;
    const hs_state *st = state;
    const hs_data *hd = &st->hd;
    hs_signs sc = {.sign = malloc(hd->n + 1)};
    if (!sc.sign) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    hs_eval_init(&sc.e, &hd->L);
    const size_t words = pdt_bits_words(hd->n);
    pdt_status s = PDT_OK;
    for (size_t r = from; r < to && !s; r++) s = hs_side(left + (r - from) * words, hd, &sc, list, r, err);
    free(sc.sign);
    return s;
}

/* ---- the standalone rule: ints = {mask, D, g}, rats = the G defining points */

pdt_status hs_export_tuple(pdt_rule *rule, const hs_data *hd, const uint32_t *t, int64_t mask, pdt_error *err)
{
    size_t d = hd->L.d, G = hd->L.G;
    pdt_status s = pdt_rule_init(rule, &pdt_rule_class_hypersurface, 3, G * d, err);
    if (s) return s;
    rule->ints[0] = mask;
    rule->ints[1] = (int64_t)d;
    rule->ints[2] = (int64_t)hd->L.g;
    for (size_t k = 0; k < G; k++)
        for (size_t j = 0; j < d; j++) mpq_set(rule->rats[k * d + j], hd->q[t[k] * d + j]);
    return PDT_OK;
}

static pdt_status hs_export(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r,
                            const pdt_dataset *ds, pdt_error *err)
{
    (void)ds;
    const hs_state *st = state;
    size_t n_def;
    const uint32_t *def = pdt_rule_list_def(list, r, &n_def);
    return hs_export_tuple(rule, &st->hd, def, pdt_rule_list_tag(list, r), err);
}

/* Lifting and lifted doubles of a standalone rule's points (and of x). */
typedef struct hs_local {
    hs_lift L;
    double rows[(HS_MAX_LIFTED + 1) * (HS_MAX_LIFTED + 1)];
    const mpq_t *pts[HS_MAX_LIFTED + 1];
    const double *rowp[HS_MAX_LIFTED + 1];
} hs_local;

static pdt_status hs_local_init(hs_local *loc, const pdt_rule *rule, size_t dims, pdt_error *err)
{
    if (rule->n_ints != 3 || rule->ints[1] < 1 || (uint64_t)rule->ints[1] != dims || rule->ints[2] < 2 ||
        rule->ints[2] > 64)
        return pdt_error_set(err, PDT_EINVAL, "a hypersurface rule in %zu dimensions has 3 integers "
                             "(assignment, dimension, degree >= 2)", dims);
    pdt_status s = hs_lift_init(&loc->L, dims, (unsigned)rule->ints[2], err);
    if (s) return s;
    size_t G = loc->L.G, w = G + 1;
    if (rule->n_rats != G * dims)
        return pdt_error_set(err, PDT_EINVAL, "a degree-%zu hypersurface rule in %zu dimensions has %zu "
                             "rationals (its %zu points)", loc->L.g, dims, G * dims, G);
    double raw[HS_MAX_LIFTED];
    for (size_t k = 0; k < G; k++) {
        for (size_t j = 0; j < dims; j++) raw[j] = pdt_filter_double(rule->rats[k * dims + j]);
        hs_lift_row(loc->rows + k * w, &loc->L, raw);
        loc->pts[k] = (const mpq_t *)&rule->rats[k * dims];
        loc->rowp[k] = loc->rows + k * w;
    }
    return PDT_OK;
}

static pdt_status hs_classify(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims, pdt_error *err)
{
    hs_local loc;
    pdt_status s = hs_local_init(&loc, rule, dims, err);
    if (s) return s;
    size_t G = loc.L.G;
    double raw[HS_MAX_LIFTED], row[HS_MAX_LIFTED + 1];
    for (size_t j = 0; j < dims; j++) raw[j] = pdt_filter_double(&x[j]);
    hs_lift_row(row, &loc.L, raw);
    hs_eval e;
    hs_eval_init(&e, &loc.L);
    if (!hs_eval_tuple(&e, loc.pts, loc.rowp))
        return pdt_error_set(err, PDT_EINVAL, "degenerate hypersurface rule (dependent points)");
    bool broken = false;
    *left = hs_eval_left(&e, (const mpq_t *)x, row, rule->ints[0] & ((INT64_C(1) << G) - 1), &broken);
    if (broken) return pdt_error_set(err, PDT_EINVAL, "degenerate hypersurface rule");
    return PDT_OK;
}

static void hs_entry_rule(mpq_ptr out, void *ctx, size_t k, size_t j)
{
    const hs_local *loc = ctx;
    hs_lift_exact(out, &loc->L, loc->pts[k], j);
}

static pdt_status hs_describe(pdt_buf *out, const pdt_rule *rule, const char *const *names, size_t dims,
                              pdt_error *err)
{
    hs_local loc;
    pdt_status s = hs_local_init(&loc, rule, dims, err);
    if (s) return s;
    size_t G = loc.L.G;
    mpq_t coef[HS_MAX_LIFTED + 1];
    pdt_buf mono[HS_MAX_LIFTED];
    const char *mono_names[HS_MAX_LIFTED];
    for (size_t k = 0; k < G; k++) {
        pdt_buf_init(&mono[k]);
        hs_monomial_name(&mono[k], &loc.L, k, names);
        mono_names[k] = mono[k].data ? mono[k].data : "?";
    }
    for (size_t k = 0; k <= G; k++) mpq_init(coef[k]);
    pdt_hyperplane_equation(coef, G, hs_entry_rule, &loc);
    pdt_buf_linear(out, (const mpq_t *)coef, G, mono_names, "≤");
    for (size_t k = 0; k <= G; k++) mpq_clear(coef[k]);
    for (size_t k = 0; k < G; k++) pdt_buf_clear(&mono[k]);
    return PDT_OK;
}

static pdt_status hs_validate(const pdt_rule *rule, size_t dims, pdt_error *err)
{
    hs_local loc;
    pdt_status s = hs_local_init(&loc, rule, dims, err);
    if (s) return s;
    if (rule->ints[0] < 0 || rule->ints[0] >= (INT64_C(1) << loc.L.G))
        return pdt_error_set(err, PDT_EINVAL, "hypersurface assignment %lld out of range",
                             (long long)rule->ints[0]);
    hs_eval e;
    hs_eval_init(&e, &loc.L);
    if (!hs_eval_tuple(&e, loc.pts, loc.rowp))
        return pdt_error_set(err, PDT_EINVAL, "the lifted points of a hypersurface rule are affinely dependent");
    return PDT_OK;
}

PDT_DEFINE_RULE(hypersurface) = {
    .version = PDT_RULE_V1,
    .name = "hypersurface",
    .description = "polynomial hypersurfaces of degree g (--degree, default 2) through G = C(D+g,g)−1 "
                   "data points, each side assignment (C(N,G)·2^G rules)",
    .flags = PDT_EXACT | PDT_DATA_DEFINED,
    .generate = hs_generate,
    .sides_range = hs_sides_range,
    .sides = hs_sides,
    .export_rule = hs_export,
    .classify = hs_classify,
    .describe = hs_describe,
    .validate = hs_validate,
    .solve = hs_solve,
    .solve_declines = hs_solve_declines,
    .destroy = hs_destroy,
};
