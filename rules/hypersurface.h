/* Private interface of the hypersurface plugin (rules/hypersurface*.c).
 *
 * A polynomial hypersurface of degree g in R^D is a hyperplane in the lifted
 * space R^G of all monomials of degree 1..g, G = C(D+g, g) − 1 (the Veronese
 * lifting).  A rule is defined by G data points whose lifted images are
 * affinely independent and an assignment of each of them to a side:
 *     left  iff  orient(lift p_1 .. lift p_G, lift x) < 0,
 * and a point on the surface goes left iff Σ λ_i s_i ≤ 0 where
 * lift x = Σ λ_i lift p_i, Σ λ_i = 1, s_i = −1 for a point assigned left (bit
 * i of the assignment mask set), +1 for right — exactly the hyperplane rule of
 * rules/hyperplane.c, in the lifted space.
 *
 * Exactness: lifted coordinates of rational inputs are rational, so every
 * predicate has an exact answer.  The doubles handed to the filters are
 * products of g dataset doubles, each within 2 roundings of its exact value,
 * computed with g − 1 more roundings: the ulps contract of pdt_geometry.h
 * with ulps = 3g − 1.  A product that leaves the normal range on the way is
 * NaN, which sends the predicate to its exact path. */
#ifndef PDT_RULES_HYPERSURFACE_H
#define PDT_RULES_HYPERSURFACE_H

#include "pdt_geometry.h"
#include "pdt_plugin.h"

#define HS_DEFAULT_DEGREE 2
#define HS_MAX_LIFTED (PDT_DET_MAX - 1) /* G + 1 rows must fit the predicates */

/* The lifting for D dimensions and degree g. */
typedef struct hs_lift {
    size_t d, g, G;
    unsigned ulps;                                /* 3g − 1 */
    uint8_t exps[HS_MAX_LIFTED][HS_MAX_LIFTED];   /* exponent vector of monomial k */
} hs_lift;

/* Checks d and the degree (0: the default) and lists the monomials in graded
 * order: degree 1 (x, y), then 2 (x², x·y, y²), ... */
pdt_status hs_lift_init(hs_lift *L, size_t d, unsigned degree, pdt_error *err);
/* G + 1 doubles: the lifted coordinates of x (d doubles, NaN where out of
 * contract) under the ulps contract, then 1. */
void hs_lift_row(double *out, const hs_lift *L, const double *x);
/* Lifted coordinate k of the exact point x (d rationals); k == G gives 1. */
void hs_lift_exact(mpq_ptr out, const hs_lift *L, const mpq_t *x, size_t k);
/* "x²", "x·y", names[j] for degree 1. */
void hs_monomial_name(pdt_buf *out, const hs_lift *L, size_t k, const char *const *names);
/* The filter input for a dataset or model coordinate: NaN outside the range
 * where the contract is proven (see rules/hyperplane.c). */
double hs_filter_input(mpq_srcptr exact, double approx);

/* Exact side tests of many points against one tuple of G lifted points. */
typedef struct hs_eval {
    const hs_lift *L;
    size_t G;
    const mpq_t *pts[HS_MAX_LIFTED + 1];   /* exact coordinates: the tuple, then the query */
    const double *rows[HS_MAX_LIFTED + 1]; /* lifted doubles (G + 1 each) */
    size_t n_set;                          /* tuple rows currently pushed */
    pdt_minors mn;
    pdt_geom_stats stats;
} hs_eval;

void hs_eval_init(hs_eval *e, const hs_lift *L);
/* Makes the tuple (G points: exact coordinates and lifted rows) current,
 * re-using the longest common prefix with the previous one (compared by
 * pointer).  Returns true when the lifted points are affinely independent. */
bool hs_eval_tuple(hs_eval *e, const mpq_t *const *pts, const double *const *rows);
/* Orientation sign (−1, 0, +1) of the point against the current tuple. */
int hs_eval_sign(hs_eval *e, const mpq_t *x, const double *row);
/* For a point with sign 0: −1 if it goes left under the assignment mask, +1
 * if right; 2 on a broken contract (tuple dependent, point off the surface). */
int hs_eval_on_surface(hs_eval *e, const mpq_t *x, int64_t mask);
/* Sign 0 resolved by the assignment: true when the point goes left. */
bool hs_eval_left(hs_eval *e, const mpq_t *x, const double *row, int64_t mask, bool *broken);

/* A dataset's rows, exact and lifted. */
typedef struct hs_data {
    hs_lift L;
    size_t n;
    mpq_t *q;  /* n·D exact coordinates */
    double *x; /* n·(G+1) lifted doubles */
} hs_data;

pdt_status hs_data_init(hs_data *hd, const pdt_dataset *ds, unsigned degree, pdt_error *err);
void hs_data_clear(hs_data *hd);
static inline const mpq_t *hs_data_point(const hs_data *hd, size_t i)
{
    return (const mpq_t *)&hd->q[i * hd->L.d];
}
static inline const double *hs_data_row(const hs_data *hd, size_t i) { return hd->x + i * (hd->L.G + 1); }
/* Makes the tuple of rows t current in e; true when it defines a rule. */
bool hs_data_tuple(hs_eval *e, const hs_data *hd, const uint32_t *t);

/* The exported rule: ints = {mask, D, g}, rats = the G defining points (G·D). */
extern const pdt_rule_class pdt_rule_class_hypersurface;
pdt_status hs_export_tuple(pdt_rule *rule, const hs_data *hd, const uint32_t *t, int64_t mask, pdt_error *err);

/* The streaming backend (backends/hypersurface/hypersurface_solve.c). */
pdt_status hs_solve(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);
/* For tests: the bound the backend's Radon certificates give on every split
 * of each region (bitsets over the rows), with the fit's degree and weights. */
pdt_status hs_certificate_bounds(int64_t *out, const pdt_dataset *ds, const pdt_fit_options *opt,
                                 const uint64_t *const *regions, size_t n_regions, pdt_error *err);
/* What hs_solve does not take (NULL: it takes this fit); pdt_fit then runs the fused engine. */
const char *hs_solve_declines(const pdt_dataset *ds, const pdt_fit_options *opt);

#endif
