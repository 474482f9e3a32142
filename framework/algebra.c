/* The value algebras: min/+ over int64 and over GMP integers, and +/× over
 * GMP integers for counting proper trees. */
#include <inttypes.h>

#include "pdt_plugin.h"

/* ---- min/+ over int64_t, INT64_MAX = infeasible (+inf) */

static void i64_init(void *v) { *(int64_t *)v = 0; }
static void i64_clear(void *v) { (void)v; }
static void i64_set(void *d, const void *s) { *(int64_t *)d = *(const int64_t *)s; }
static void i64_zero(void *v) { *(int64_t *)v = INT64_MAX; }
static bool i64_is_zero(const void *v) { return *(const int64_t *)v == INT64_MAX; }

static void i64_mul(void *r, const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b, z;
    if (x == INT64_MAX || y == INT64_MAX || __builtin_add_overflow(x, y, &z)) z = INT64_MAX;
    *(int64_t *)r = z;
}

static int i64_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static bool i64_residual(void *r, const void *ub, const void *a)
{
    int64_t u = *(const int64_t *)ub, x = *(const int64_t *)a;
    if (u == INT64_MAX) {
        *(int64_t *)r = INT64_MAX;
        return x != INT64_MAX;
    }
    if (x >= u) return false;
    *(int64_t *)r = u - x;
    return true;
}

static void i64_succ(void *r, const void *v)
{
    int64_t x = *(const int64_t *)v;
    *(int64_t *)r = x == INT64_MAX ? x : x + 1;
}

static void i64_text(pdt_buf *out, const void *v)
{
    int64_t x = *(const int64_t *)v;
    if (x == INT64_MAX) pdt_buf_puts(out, "inf");
    else pdt_buf_printf(out, "%" PRId64, x);
}

const pdt_algebra pdt_algebra_min_int64 = {
    .version = PDT_ALGEBRA_V1, .name = "min-plus int64", .size = sizeof(int64_t), .selective = true,
    .init = i64_init, .clear = i64_clear, .set = i64_set, .set_zero = i64_zero,
    .add = NULL, .mul = i64_mul, .cmp = i64_cmp, .is_zero = i64_is_zero,
    .residual = i64_residual, .succ = i64_succ, .to_text = i64_text,
};

/* ---- min/+ over GMP integers with an infinity flag */

static void z_init(void *v)
{
    pdt_mpz_value *x = v;
    mpz_init(x->z);
    x->inf = false;
}
static void z_clear(void *v) { mpz_clear(((pdt_mpz_value *)v)->z); }

static void z_set(void *d, const void *s)
{
    pdt_mpz_value *x = d;
    const pdt_mpz_value *y = s;
    mpz_set(x->z, y->z);
    x->inf = y->inf;
}

static void z_zero(void *v)
{
    pdt_mpz_value *x = v;
    mpz_set_ui(x->z, 0);
    x->inf = true;
}

static bool z_is_zero(const void *v) { return ((const pdt_mpz_value *)v)->inf; }

static void z_mul(void *r, const void *a, const void *b)
{
    pdt_mpz_value *x = r;
    const pdt_mpz_value *y = a, *z = b;
    if (y->inf || z->inf) {
        z_zero(x);
        return;
    }
    mpz_add(x->z, y->z, z->z);
    x->inf = false;
}

static int z_cmp(const void *a, const void *b)
{
    const pdt_mpz_value *x = a, *y = b;
    if (x->inf || y->inf) return (int)x->inf - (int)y->inf;
    int c = mpz_cmp(x->z, y->z);
    return (c > 0) - (c < 0);
}

static bool z_residual(void *r, const void *ub, const void *a)
{
    pdt_mpz_value *x = r;
    const pdt_mpz_value *u = ub, *y = a;
    if (y->inf) return false;
    if (u->inf) {
        z_zero(x);
        return true;
    }
    if (mpz_cmp(y->z, u->z) >= 0) return false;
    mpz_sub(x->z, u->z, y->z);
    x->inf = false;
    return true;
}

static void z_succ(void *r, const void *v)
{
    z_set(r, v);
    pdt_mpz_value *x = r;
    if (!x->inf) mpz_add_ui(x->z, x->z, 1);
}

static void z_text(pdt_buf *out, const void *v)
{
    const pdt_mpz_value *x = v;
    if (x->inf) {
        pdt_buf_puts(out, "inf");
        return;
    }
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, x->z);
    pdt_buf_mpq(out, q);
    mpq_clear(q);
}

const pdt_algebra pdt_algebra_min_mpz = {
    .version = PDT_ALGEBRA_V1, .name = "min-plus GMP", .size = sizeof(pdt_mpz_value), .selective = true,
    .init = z_init, .clear = z_clear, .set = z_set, .set_zero = z_zero,
    .add = NULL, .mul = z_mul, .cmp = z_cmp, .is_zero = z_is_zero,
    .residual = z_residual, .succ = z_succ, .to_text = z_text,
};

/* ---- counting: +/× over GMP integers */

static void c_init(void *v) { mpz_init((mpz_ptr)v); }
static void c_clear(void *v) { mpz_clear((mpz_ptr)v); }
static void c_set(void *d, const void *s) { mpz_set((mpz_ptr)d, (mpz_srcptr)s); }
static void c_zero(void *v) { mpz_set_ui((mpz_ptr)v, 0); }
static void c_add(void *acc, const void *x) { mpz_add((mpz_ptr)acc, (mpz_ptr)acc, (mpz_srcptr)x); }
static void c_mul(void *r, const void *a, const void *b) { mpz_mul((mpz_ptr)r, (mpz_srcptr)a, (mpz_srcptr)b); }
static bool c_is_zero(const void *v) { return mpz_sgn((mpz_srcptr)v) == 0; }

static void c_text(pdt_buf *out, const void *v)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, (mpz_srcptr)v);
    pdt_buf_mpq(out, q);
    mpq_clear(q);
}

const pdt_algebra pdt_algebra_count = {
    .version = PDT_ALGEBRA_V1, .name = "count", .size = sizeof(mpz_t), .selective = false,
    .init = c_init, .clear = c_clear, .set = c_set, .set_zero = c_zero,
    .add = c_add, .mul = c_mul, .cmp = NULL, .is_zero = c_is_zero,
    .residual = NULL, .succ = NULL, .to_text = c_text,
};
