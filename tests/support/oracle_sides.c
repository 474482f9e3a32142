/* The candidate rules the library builds, checked against what their family
 * documents (DESIGN.md §1, "Candidate rules from data"), recomputed here in
 * integer arithmetic from the instance's coordinates (units of 1/20):
 *   axis: one rule x[j] ≤ p[j] for every dimension j and row p;
 *   hyperplane: for every set of D affinely independent rows and every
 *   assignment of them to a side, left = orient(p_1..p_D, x) < 0, and a point
 *   x on the hyperplane, x = Σ λ_k p_k with Σ λ_k = 1, is left iff
 *   Σ λ_k s_k ≤ 0 (s_k = −1 for a point assigned left, +1 for right);
 *   hypersurface (degree 2, D ≤ 2) and circle (the example plugin): the same
 *   in a lifted space, see oracle_lifted.c (one lifted family per instance). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_impl.h"
#include "pdt_plugin.h"

static bool left_bit(const pdt_ruleset *rs, size_t r, size_t row)
{
    return (pdt_ruleset_sides(rs, r)[row / 64] >> (row % 64)) & 1;
}

/* ---------------------------------------------------------------- axis */

static bool check_axis_rule(oracle_check_ctx *x, const pdt_ruleset *rs, size_t r, bool *seen)
{
    const oracle_case *c = x->c;
    size_t n_def;
    const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
    pdt_rule rule;
    pdt_error err;
    if (n_def != 1) return oracle_fail(x, "axis rule %zu has %zu defining points", r, n_def);
    if (def[0] >= c->n) return oracle_fail(x, "axis rule %zu: defining row %u of %zu", r, def[0], c->n);
    if (pdt_ruleset_export(&rule, rs, r, &err)) return oracle_fail(x, "export: %s", err.message);
    size_t j = (size_t)rule.ints[0], p = def[0];
    mpq_t want;
    mpq_init(want);
    if (j < c->dims) mpq_set_si(want, c->x[p][j], ORACLE_UNIT);
    mpq_canonicalize(want);
    if (j >= c->dims || seen[p * ORACLE_MAX_DIMS + j] || !mpq_equal(want, rule.rats[0]))
        oracle_fail(x, "axis rule %zu (dimension %zu, row %zu) is not a new x[j] <= p[j]", r, j, p);
    else
        seen[p * ORACLE_MAX_DIMS + j] = true;
    mpq_clear(want);
    pdt_rule_clear(&rule);
    for (size_t i = 0; i < c->n && j < c->dims; i++)
        if (left_bit(rs, r, i) != (c->x[i][j] <= c->x[p][j]))
            return oracle_fail(x, "axis rule %zu (x%zu <= row %zu): row %zu on the wrong side", r,
                               j, p, i);
    return !x->failed;
}

/* ---------------------------------------------------------- hyperplane */

static int64_t det(size_t m, int64_t a[4][4])
{
    if (m == 1) return a[0][0];
    int64_t total = 0, sign = 1;
    for (size_t col = 0; col < m; col++, sign = -sign) {
        int64_t minor[4][4];
        for (size_t i = 1; i < m; i++)
            for (size_t j = 0, t = 0; j < m; j++)
                if (j != col) minor[i - 1][t++] = a[i][j];
        total += sign * a[0][col] * det(m - 1, minor);
    }
    return total;
}

static int sign_of(int64_t v) { return (v > 0) - (v < 0); }

static int64_t dot(const int64_t *a, const int64_t *b, size_t d)
{
    int64_t s = 0;
    for (size_t j = 0; j < d; j++) s += a[j] * b[j];
    return s;
}

/* Sign of Σ λ_k s_k for x on the hyperplane through the rows p (scaled by a
 * positive factor so that everything stays integral). */
static int weighted_sign(const oracle_case *c, const uint32_t *p, size_t i, const int *s)
{
    size_t d = c->dims;
    int64_t a[3], b[3], v[3];
    for (size_t j = 0; j < d; j++) {
        v[j] = c->x[i][j] - c->x[p[0]][j];
        a[j] = d > 1 ? c->x[p[1]][j] - c->x[p[0]][j] : 0;
        b[j] = d > 2 ? c->x[p[2]][j] - c->x[p[0]][j] : 0;
    }
    if (d == 1) return s[0]; /* x = p_0 */
    if (d == 2) {            /* λ_1 = t / L */
        int64_t len = dot(a, a, d), t = dot(v, a, d);
        return sign_of((len - t) * s[0] + t * s[1]);
    }
    int64_t aa = dot(a, a, d), ab = dot(a, b, d), bb = dot(b, b, d);
    int64_t av = dot(a, v, d), bv = dot(b, v, d), g = aa * bb - ab * ab;
    int64_t n1 = bb * av - ab * bv, n2 = aa * bv - ab * av; /* λ_1 = n1 / g, λ_2 = n2 / g */
    return sign_of((g - n1 - n2) * s[0] + n1 * s[1] + n2 * s[2]);
}

static bool independent(const oracle_case *c, const uint32_t *p)
{
    size_t d = c->dims;
    if (d == 1) return true;
    int64_t a[3], b[3];
    for (size_t j = 0; j < d; j++) {
        a[j] = c->x[p[1]][j] - c->x[p[0]][j];
        b[j] = d > 2 ? c->x[p[2]][j] - c->x[p[0]][j] : 0;
    }
    if (d == 2) return a[0] != 0 || a[1] != 0;
    return a[1] * b[2] - a[2] * b[1] != 0 || a[2] * b[0] - a[0] * b[2] != 0 ||
           a[0] * b[1] - a[1] * b[0] != 0;
}

static size_t independent_tuples(const oracle_case *c)
{
    size_t d = c->dims, total = 0;
    uint32_t t[3];
    for (t[0] = 0; t[0] < c->n; t[0]++)
        for (t[1] = d > 1 ? t[0] + 1 : 0; t[1] < (d > 1 ? c->n : 1); t[1]++)
            for (t[2] = d > 2 ? t[1] + 1 : 0; t[2] < (d > 2 ? c->n : 1); t[2]++)
                total += independent(c, t);
    return total;
}

/* Checks one rule's sides; returns its key (sorted rows, assignment) or 0. */
static uint64_t check_hyperplane_rule(oracle_check_ctx *x, const pdt_ruleset *rs, size_t r)
{
    const oracle_case *c = x->c;
    size_t n_def, d = c->dims;
    const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
    if (n_def != d) return oracle_fail(x, "hyperplane rule %zu has %zu defining points", r, n_def);
    uint32_t p[3];
    int s[3];
    for (size_t k = 0; k < d; k++) {
        if (def[k] >= c->n) return oracle_fail(x, "hyperplane rule %zu: defining row %u of %zu", r, def[k], c->n);
        p[k] = def[k];
        s[k] = left_bit(rs, r, def[k]) ? -1 : 1; /* the assignment, as the rule reports it */
    }
    if (!independent(c, p)) return oracle_fail(x, "hyperplane rule %zu: dependent points", r);
    for (size_t i = 0; i < c->n; i++) {
        int64_t m[4][4];
        for (size_t k = 0; k <= d; k++) {
            size_t row = k < d ? p[k] : i;
            for (size_t j = 0; j < d; j++) m[k][j] = c->x[row][j];
            m[k][d] = 1;
        }
        int o = sign_of(det(d + 1, m));
        bool left = o < 0 || (o == 0 && weighted_sign(c, p, i, s) <= 0);
        if (left != left_bit(rs, r, i))
            return oracle_fail(x, "hyperplane rule %zu (rows %u..): row %zu on the wrong side", r,
                               p[0], i);
    }
    uint64_t key = 1; /* rows sorted with their assignment bits: 5 bits per point */
    for (uint32_t row = 0; row < c->n; row++)
        for (size_t k = 0; k < d; k++)
            if (p[k] == row) key = key << 5 | (uint64_t)row << 1 | (s[k] < 0);
    return key;
}

/* Every key once: no rule (points and assignment) occurs twice. */
static void check_unique(oracle_check_ctx *x, uint64_t *keys, size_t n, const char *family)
{
    qsort(keys, n, sizeof *keys, tu_cmp_u64);
    for (size_t k = 1; k < n && !x->failed; k++)
        if (keys[k] == keys[k - 1])
            oracle_fail(x, "a %s rule (points and assignment) occurs twice", family);
}

void oracle_check_sides(oracle_check_ctx *x, const pdt_ruleset *rs)
{
    const oracle_case *c = x->c;
    if (c->foreign) return;
    size_t m = pdt_ruleset_size(rs), n_axis = 0, n_hp = 0, n_hs = 0;
    bool seen[ORACLE_MAX_ROWS * ORACLE_MAX_DIMS] = {false};
    uint64_t *keys = calloc(m + 1, sizeof *keys), *hs_keys = calloc(m + 1, sizeof *hs_keys);
    for (size_t r = 0; r < m && !x->failed; r++) {
        const char *family = pdt_rule_class_name(pdt_ruleset_class(rs, r));
        if (strcmp(family, "axis") == 0) {
            check_axis_rule(x, rs, r, seen);
            n_axis++;
        } else if (strcmp(family, "hyperplane") == 0) {
            keys[n_hp++] = check_hyperplane_rule(x, rs, r);
        } else if (strcmp(family, "hypersurface") == 0 || strcmp(family, "circle") == 0) {
            hs_keys[n_hs++] = oracle_check_lifted_rule(x, rs, r);
        } else {
            oracle_fail(x, "rule %zu of unexpected family %s", r, family);
        }
    }
    bool want_axis = strstr(c->rules, "axis") != NULL,
         want_hp = strstr(c->rules, "hyperplane") != NULL,
         want_hs = strstr(c->rules, "hypersurface") || strstr(c->rules, "circle");
    if (!x->failed && n_axis != (want_axis ? c->n * c->dims : 0))
        oracle_fail(x, "%zu axis rules, expected %zu", n_axis, want_axis ? c->n * c->dims : 0);
    size_t want = want_hp ? independent_tuples(c) << c->dims : 0;
    if (!x->failed && n_hp != want)
        oracle_fail(x, "%zu hyperplane rules, expected %zu", n_hp, want);
    size_t g = strstr(c->rules, "circle") ? 3 : c->dims == 1 ? 2 : 5; /* points per lifted rule */
    want = want_hs ? oracle_lifted_tuples(c) << g : 0;
    if (!x->failed && n_hs != want)
        oracle_fail(x, "%zu hypersurface/circle rules, expected %zu", n_hs, want);
    check_unique(x, keys, n_hp, "hyperplane");
    check_unique(x, hs_keys, n_hs, "hypersurface");
    free(keys);
    free(hs_keys);
}
