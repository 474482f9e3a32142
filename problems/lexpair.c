/* Lexicographic (primary, secondary) pairs under min; see lexpair.h. */
#include "lexpair.h"

static void lex_init(void *v)
{
    pdt_lex_value *x = v;
    mpz_inits(x->p, x->s, NULL);
    x->inf = false;
}

static void lex_clear(void *v)
{
    pdt_lex_value *x = v;
    mpz_clears(x->p, x->s, NULL);
}

static void lex_set(void *d, const void *src)
{
    pdt_lex_value *x = d;
    const pdt_lex_value *y = src;
    mpz_set(x->p, y->p);
    mpz_set(x->s, y->s);
    x->inf = y->inf;
}

static void lex_zero(void *v)
{
    pdt_lex_value *x = v;
    mpz_set_ui(x->p, 0);
    mpz_set_ui(x->s, 0);
    x->inf = true;
}

static bool lex_is_zero(const void *v) { return ((const pdt_lex_value *)v)->inf; }

static int lex_cmp(const void *a, const void *b)
{
    const pdt_lex_value *x = a, *y = b;
    if (x->inf || y->inf) return (int)x->inf - (int)y->inf;
    int c = mpz_cmp(x->p, y->p);
    if (!c) c = mpz_cmp(x->s, y->s);
    return (c > 0) - (c < 0);
}

/* Any child value >= r makes the branch reach ub.  With primary(branch) >=
 * primary(a) + primary(b): r = (ub.p − a.p + 1, 0). */
static bool lex_sum_residual(void *r, const void *ub, const void *a)
{
    pdt_lex_value *x = r;
    const pdt_lex_value *u = ub, *y = a;
    if (y->inf) return false;
    if (u->inf) {
        lex_zero(x);
        return true;
    }
    if (mpz_cmp(y->p, u->p) > 0) return false;
    mpz_sub(x->p, u->p, y->p);
    mpz_add_ui(x->p, x->p, 1);
    mpz_set_ui(x->s, 0);
    x->inf = false;
    return true;
}

/* With primary(branch) >= 1 + max(primary(a), primary(b)): a child with
 * primary >= ub.p overshoots, so r = (ub.p, 0); a >= ub.p already does. */
static bool lex_max_residual(void *r, const void *ub, const void *a)
{
    pdt_lex_value *x = r;
    const pdt_lex_value *u = ub, *y = a;
    if (y->inf) return false;
    if (u->inf) {
        lex_zero(x);
        return true;
    }
    if (mpz_cmp(y->p, u->p) >= 0) return false;
    mpz_set(x->p, u->p);
    mpz_set_ui(x->s, 0);
    x->inf = false;
    return true;
}

static void lex_succ(void *r, const void *v)
{
    lex_set(r, v);
    pdt_lex_value *x = r;
    if (!x->inf) mpz_add_ui(x->s, x->s, 1);
}

static void lex_text(pdt_buf *out, const void *v)
{
    const pdt_lex_value *x = v;
    if (x->inf) {
        pdt_buf_puts(out, "inf");
        return;
    }
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, x->p);
    pdt_buf_mpq(out, q);
    pdt_buf_puts(out, " (");
    mpq_set_z(q, x->s);
    pdt_buf_mpq(out, q);
    pdt_buf_puts(out, ")");
    mpq_clear(q);
}

const pdt_algebra pdt_lex_sum_algebra = {
    .version = PDT_ALGEBRA_V1, .name = "lexicographic min, additive primary",
    .size = sizeof(pdt_lex_value), .selective = true, .init = lex_init, .clear = lex_clear,
    .set = lex_set, .set_zero = lex_zero, .add = NULL, .mul = NULL /* problems combine children in branch() */, .cmp = lex_cmp,
    .is_zero = lex_is_zero, .residual = lex_sum_residual, .succ = lex_succ, .to_text = lex_text,
};

const pdt_algebra pdt_lex_max_algebra = {
    .version = PDT_ALGEBRA_V1, .name = "lexicographic min, height primary",
    .size = sizeof(pdt_lex_value), .selective = true, .init = lex_init, .clear = lex_clear,
    .set = lex_set, .set_zero = lex_zero, .add = NULL, .mul = NULL /* problems combine children in branch() */, .cmp = lex_cmp,
    .is_zero = lex_is_zero, .residual = lex_max_residual, .succ = lex_succ, .to_text = lex_text,
};
