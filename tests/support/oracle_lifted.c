/* Hypersurface rules of degree 2 (D = 1 or 2) and the example plugin's
 * circles recomputed independently of rules/hypersurface*.c and
 * examples/plugins/circle.c, in exact rational arithmetic:
 *   lift(x) = (x, x²) for D = 1, (x, y, x², x·y, y²) for D = 2 (G = 2 or 5);
 *   a rule is G rows whose lifted images are affinely independent
 *   (rank [lift p_k 1] = G, geom_oracle) with an assignment to sides;
 *   left = det [lift p_1 1; …; lift p_G 1; lift x 1] < 0 (geom_oracle), and a
 *   row on the surface, lift x = Σ λ_k lift p_k with Σ λ_k = 1, is left iff
 *   Σ λ_k s_k ≤ 0 (s_k = −1 for a point assigned left).  λ is found here by
 *   rational Gauss–Jordan elimination.
 * Circles (D = 2) lift to (x, y, x² + y²) (G = 3); three non-collinear points
 * make a rule, and left = inside: det [lift 1 …; lift x 1] · det [p_k 1 …] > 0
 * (the in-circle test), ties as above.
 * The determinant signs, ranks and tie signs (the latter by Cramer's rule)
 * are computed first in 128-bit integers
 * (fraction-free Bareiss elimination on the lifted grid coordinates, every
 * product and difference checked for overflow), and in rationals only when a
 * step would overflow: the coordinates are integers counting 1/ORACLE_UNIT, and
 * scaling a column of the lifted matrix by a positive constant keeps the sign
 * of its determinant and its rank.  On the oracle's grid (0..3) nothing
 * overflows; under ASan the rational path cost most of oracle_hypersurface's
 * and oracle_circle's time (every go_matrix initialises 144 rationals). */
#include <stdlib.h>
#include <string.h>

#include "geom_oracle.h"
#include "oracle_impl.h"

#define LIFT_MAX 5

static bool circles(const oracle_case *c) { return strstr(c->rules, "circle") != NULL; }

static size_t lifted_dims(const oracle_case *c) { return circles(c) ? 3 : c->dims == 1 ? 2 : 5; }

/* Lifted coordinate k of row i, exactly. */
static void lift(mpq_ptr out, const oracle_case *c, size_t i, size_t k)
{
    mpq_t x, y;
    mpq_inits(x, y, NULL);
    mpq_set_si(x, c->x[i][0], ORACLE_UNIT);
    mpq_canonicalize(x);
    if (c->dims > 1) {
        mpq_set_si(y, c->x[i][1], ORACLE_UNIT);
        mpq_canonicalize(y);
    }
    if (circles(c)) { /* x, y, x² + y² */
        if (k < 2) mpq_set(out, k ? y : x);
        else {
            mpq_mul(out, x, x);
            mpq_mul(y, y, y);
            mpq_add(out, out, y);
        }
    } else if (c->dims == 1) { /* x, x² */
        if (k == 0) mpq_set(out, x);
        else mpq_mul(out, x, x);
    } else { /* x, y, x², x·y, y² */
        mpq_srcptr a[] = {x, y, x, x, y}, b[] = {NULL, NULL, x, y, y};
        mpq_set(out, a[k]);
        if (b[k]) mpq_mul(out, out, b[k]);
    }
    mpq_clears(x, y, NULL);
}

/* Lifted coordinate k of row i in integers: the rational one with its column
 * scaled by ORACLE_UNIT (x, y) or ORACLE_UNIT² (the products). */
static __int128 lift_int(const oracle_case *c, size_t i, size_t k)
{
    __int128 x = c->x[i][0], y = c->dims > 1 ? c->x[i][1] : 0;
    if (circles(c)) return k == 0 ? x : k == 1 ? y : x * x + y * y;
    if (c->dims == 1) return k == 0 ? x : x * x;
    static const int a[] = {0, 1, 0, 0, 1}, b[] = {-1, -1, 0, 1, 1};
    __int128 u = a[k] ? y : x;
    return b[k] < 0 ? u : u * (b[k] ? y : x);
}

/* Rank and determinant sign (square only, else 0) of the rows×cols integer
 * matrix m (destroyed) by Bareiss elimination; false when a step overflows. */
static bool bareiss(__int128 *m, size_t rows, size_t cols, size_t *rank, int *det_sign)
{
    __int128 prev = 1;
    size_t r = 0;
    int sign = 1;
    for (size_t col = 0; col < cols && r < rows; col++) {
        size_t p = r;
        while (p < rows && m[p * cols + col] == 0) p++;
        if (p == rows) {
            sign = 0;
            continue;
        }
        if (p != r) {
            for (size_t j = 0; j < cols; j++) {
                __int128 t = m[p * cols + j];
                m[p * cols + j] = m[r * cols + j];
                m[r * cols + j] = t;
            }
            sign = -sign;
        }
        __int128 piv = m[r * cols + col];
        for (size_t i = r + 1; i < rows; i++) {
            for (size_t j = col + 1; j < cols; j++) {
                __int128 u, v, w;
                if (__builtin_mul_overflow(m[i * cols + j], piv, &u) ||
                    __builtin_mul_overflow(m[i * cols + col], m[r * cols + j], &v) ||
                    __builtin_sub_overflow(u, v, &w))
                    return false;
                m[i * cols + j] = w / prev; /* exact: a minor of m */
            }
            m[i * cols + col] = 0;
        }
        prev = piv;
        r++;
    }
    *rank = r;
    *det_sign = rows == cols && r == rows && sign != 0 ? sign * (prev > 0 ? 1 : -1) : 0;
    return true;
}

/* [lift p_k 1] rows for the tuple, plus row i last when i < n, in integers. */
static void lifted_matrix_int(__int128 *m, const oracle_case *c, const uint32_t *p, size_t i)
{
    size_t g = lifted_dims(c), rows = g + (i < c->n);
    for (size_t r = 0; r < rows; r++) {
        size_t row = r < g ? p[r] : i;
        for (size_t k = 0; k < g; k++) m[r * (g + 1) + k] = lift_int(c, row, k);
        m[r * (g + 1) + g] = 1;
    }
}

/* [lift p_k 1] rows for the tuple, plus row i last when i < n. */
static void lifted_matrix(go_matrix *m, const oracle_case *c, const uint32_t *p, size_t i)
{
    size_t g = lifted_dims(c), rows = g + (i < c->n);
    go_init(m, rows, g + 1);
    for (size_t r = 0; r < rows; r++) {
        size_t row = r < g ? p[r] : i;
        for (size_t k = 0; k < g; k++) lift(m->q[r * (g + 1) + k], c, row, k);
        mpq_set_ui(m->q[r * (g + 1) + g], 1, 1);
    }
}

/* Orientation of three points in the plane (circles: their turning sense). */
static int turn(const oracle_case *c, const uint32_t *p)
{
    __int128 w[9];
    for (size_t r = 0; r < 3; r++) w[r * 3] = c->x[p[r]][0], w[r * 3 + 1] = c->x[p[r]][1], w[r * 3 + 2] = 1;
    size_t rank;
    int sign;
    if (bareiss(w, 3, 3, &rank, &sign)) return sign;
    go_matrix m;
    go_init(&m, 3, 3);
    for (size_t r = 0; r < 3; r++) {
        for (size_t j = 0; j < 2; j++) {
            mpq_set_si(m.q[r * 3 + j], c->x[p[r]][j], ORACLE_UNIT);
            mpq_canonicalize(m.q[r * 3 + j]);
        }
        mpq_set_ui(m.q[r * 3 + 2], 1, 1);
    }
    int s = go_det_sign(&m);
    go_clear(&m);
    return s;
}

static bool independent(const oracle_case *c, const uint32_t *p)
{
    if (circles(c)) return turn(c, p) != 0; /* collinear points make a line, not a circle */
    __int128 w[(LIFT_MAX + 1) * (LIFT_MAX + 1)];
    lifted_matrix_int(w, c, p, c->n);
    size_t rank;
    int sign;
    if (bareiss(w, lifted_dims(c), lifted_dims(c) + 1, &rank, &sign)) return rank == lifted_dims(c);
    go_matrix m;
    lifted_matrix(&m, c, p, c->n);
    bool ok = go_rank(&m) == lifted_dims(c);
    go_clear(&m);
    return ok;
}

size_t oracle_lifted_tuples(const oracle_case *c)
{
    size_t g = lifted_dims(c), total = 0;
    uint32_t p[LIFT_MAX];
    if (c->n < g) return 0;
    for (size_t k = 0; k < g; k++) p[k] = (uint32_t)k;
    for (;;) {
        total += independent(c, p);
        size_t k = g;
        while (k > 0 && p[k - 1] == c->n - g + k - 1) k--;
        if (k == 0) return total;
        p[k - 1]++;
        for (size_t t = k; t < g; t++) p[t] = p[t - 1] + 1;
    }
}

/* Sign of det [lift p_1 1; …; lift p_G 1; lift x_i 1]. */
static int lifted_det_sign(const oracle_case *c, const uint32_t *p, size_t i)
{
    size_t g = lifted_dims(c), rank;
    __int128 w[(LIFT_MAX + 1) * (LIFT_MAX + 1)];
    lifted_matrix_int(w, c, p, i);
    int sign;
    if (bareiss(w, g + 1, g + 1, &rank, &sign)) return sign;
    go_matrix m;
    lifted_matrix(&m, c, p, i);
    sign = go_det_sign(&m);
    go_clear(&m);
    return sign;
}

/* Sign of Σ s_k λ_k for row i on the surface: Gauss–Jordan on the
 * (g+1)×(g+1) system Σ λ_k [lift p_k 1] = [lift x 1] (columns = unknowns). */
/* The same in integers by Cramer's rule, or 3 when a step overflows: the
 * system has rank G, so G of its G + 1 equations make an invertible B, and
 * Σ s_k λ_k = s·B⁻¹b = −det [B b; s 0] / det B. */
static int weighted_sign_int(const oracle_case *c, const uint32_t *p, size_t i, const int *s)
{
    size_t g = lifted_dims(c), w = g + 1, rank;
    __int128 a[(LIFT_MAX + 1) * (LIFT_MAX + 1)], b[(LIFT_MAX + 1) * (LIFT_MAX + 1)];
    for (size_t r = 0; r < w; r++) /* a[r][k]: coordinate r of point k (k == g: row i) */
        for (size_t k = 0; k <= g; k++) a[r * w + k] = r < g ? lift_int(c, k < g ? p[k] : i, r) : 1;
    for (size_t drop = 0; drop < w; drop++) {
        int det_b, det_border;
        for (size_t r = 0, q = 0; r < w; r++)
            if (r != drop) {
                for (size_t k = 0; k < g; k++) b[q * g + k] = a[r * w + k];
                q++;
            }
        if (!bareiss(b, g, g, &rank, &det_b)) return 3;
        if (det_b == 0) continue;
        for (size_t r = 0, q = 0; r < w; r++)
            if (r != drop) {
                for (size_t k = 0; k <= g; k++) b[q * w + k] = a[r * w + k];
                q++;
            }
        for (size_t k = 0; k < g; k++) b[g * w + k] = s[k];
        b[g * w + g] = 0;
        if (!bareiss(b, w, w, &rank, &det_border)) return 3;
        return -det_border * det_b;
    }
    return 2;
}

static int weighted_sign(const oracle_case *c, const uint32_t *p, size_t i, const int *s)
{
    int fast = weighted_sign_int(c, p, i, s);
    if (fast != 3) return fast;
    size_t g = lifted_dims(c), w = g + 1;
    mpq_t a[(LIFT_MAX + 1) * (LIFT_MAX + 1)], f, t;
    mpq_inits(f, t, NULL);
    for (size_t r = 0; r < w; r++) /* equation r: coordinate r of the lifted points (r == g: the ones) */
        for (size_t k = 0; k <= g; k++) {
            mpq_init(a[r * w + k]);
            size_t row = k < g ? p[k] : i;
            if (r < g) lift(a[r * w + k], c, row, r);
            else mpq_set_ui(a[r * w + k], 1, 1);
        }
    size_t rank = 0;
    size_t pivot_col[LIFT_MAX + 1];
    for (size_t col = 0; col < g && rank < w; col++) {
        size_t r = rank;
        while (r < w && mpq_sgn(a[r * w + col]) == 0) r++;
        if (r == w) continue;
        for (size_t k = 0; k <= g; k++) mpq_swap(a[r * w + k], a[rank * w + k]);
        for (size_t q = 0; q < w; q++) {
            if (q == rank || mpq_sgn(a[q * w + col]) == 0) continue;
            mpq_div(f, a[q * w + col], a[rank * w + col]);
            for (size_t k = 0; k <= g; k++) {
                mpq_mul(t, f, a[rank * w + k]);
                mpq_sub(a[q * w + k], a[q * w + k], t);
            }
        }
        pivot_col[rank++] = col;
    }
    mpq_t sum;
    mpq_init(sum);
    for (size_t r = 0; r < rank; r++) { /* λ_col = rhs / pivot */
        mpq_div(t, a[r * w + g], a[r * w + pivot_col[r]]);
        mpq_set_si(f, s[pivot_col[r]], 1);
        mpq_mul(t, t, f);
        mpq_add(sum, sum, t);
    }
    int sign = rank == g ? mpq_sgn(sum) : 2;
    mpq_clear(sum);
    for (size_t k = 0; k < w * w; k++) mpq_clear(a[k]);
    mpq_clears(f, t, NULL);
    return sign;
}

uint64_t oracle_check_lifted_rule(oracle_check_ctx *x, const pdt_ruleset *rs, size_t r)
{
    const oracle_case *c = x->c;
    size_t n_def, g = lifted_dims(c);
    const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
    const char *family = circles(c) ? "circle" : "hypersurface";
    if (c->dims > 2 || (circles(c) && c->dims != 2) || n_def != g)
        return oracle_fail(x, "%s rule %zu has %zu defining points", family, r, n_def);
    uint32_t p[LIFT_MAX];
    int s[LIFT_MAX];
    const uint64_t *side = pdt_ruleset_sides(rs, r);
    for (size_t k = 0; k < g; k++) {
        if (def[k] >= c->n) return oracle_fail(x, "%s rule %zu: defining row %u of %zu", family, r, def[k], c->n);
        p[k] = def[k];
        s[k] = (side[def[k] / 64] >> (def[k] % 64)) & 1 ? -1 : 1; /* the assignment the rule reports */
    }
    if (!independent(c, p)) return oracle_fail(x, "%s rule %zu: dependent points", family, r);
    int sense = circles(c) ? turn(c, p) : -1; /* circles: inside = left */
    for (size_t i = 0; i < c->n; i++) {
        int o = lifted_det_sign(c, p, i) * -sense;
        bool left = o < 0 || (o == 0 && weighted_sign(c, p, i, s) <= 0);
        if (left != ((side[i / 64] >> (i % 64)) & 1))
            return oracle_fail(x, "%s rule %zu (rows %u..): row %zu on the wrong side", family, r, p[0], i);
    }
    uint64_t key = 1; /* rows sorted with their assignment bits: 5 bits per point */
    for (uint32_t row = 0; row < c->n; row++)
        for (size_t k = 0; k < g; k++)
            if (p[k] == row) key = key << 5 | (uint64_t)row << 1 | (s[k] < 0);
    return key;
}
