/* The Pareto algebra (issue 10): a value is a front of (FP, FN) points
 * (pdt_front, front.h), ⊕ the union followed by the nondominated filter,
 * ⊗ the Minkowski sum followed by the filter, the empty front the ⊕ identity
 * (no tree).  Non-selective and idempotent: the engine's "at most K" union
 * search (front_search.c) runs on it.  The points' `how` comes from the
 * problem's leaves (e.g. the predicted class); a sum's how is 0 and its
 * left/right the indices of the points it adds — the tree of a point is
 * found again by pdt_front_search_tree, not read from these fields. */
#include <stdlib.h>
#include <string.h>

#include "front.h"

static void fa_init(void *v) { pdt_front_init(v); }
static void fa_clear(void *v) { pdt_front_clear(v); }
static void fa_zero(void *v) { ((pdt_front *)v)->n = 0; }
static bool fa_is_zero(const void *v) { return ((const pdt_front *)v)->n == 0; }

/* The algebra's slots cannot report a failed allocation: they abort, as an
 * out-of-memory in the middle of a union would otherwise lose points silently. */
static void need(bool ok)
{
    if (!ok) abort();
}

static void fa_set(void *d, const void *s)
{
    if (d == s) return;
    pdt_front *x = d;
    x->n = 0;
    need(pdt_front_union(x, s));
}

static void fa_add(void *acc, const void *x) { need(pdt_front_union(acc, x)); }

static void fa_mul(void *r, const void *a, const void *b)
{
    pdt_front *out = r;
    if (r == a || r == b) {
        pdt_front t;
        pdt_front_init(&t);
        need(pdt_front_add_sum(&t, a, b, 0));
        pdt_front_clear(out);
        *out = t;
        return;
    }
    out->n = 0;
    need(pdt_front_add_sum(out, a, b, 0));
}

static bool fa_absorbed(const void *a, const void *b)
{
    const pdt_front *x = a, *y = b;
    for (size_t i = 0; i < x->n; i++)
        if (!pdt_front_covers(y, x->p[i].fp, x->p[i].fn)) return false;
    return true;
}

static void fa_text(pdt_buf *out, const void *v)
{
    const pdt_front *f = v;
    pdt_buf_puts(out, "{");
    for (size_t i = 0; i < f->n && i < 16; i++)
        pdt_buf_printf(out, "%s(%u,%u)", i ? " " : "", f->p[i].fp, f->p[i].fn);
    if (f->n > 16) pdt_buf_printf(out, " … %zu points", f->n);
    pdt_buf_puts(out, "}");
}

const pdt_algebra pdt_algebra_front = {
    .version = PDT_ALGEBRA_V1, .name = "Pareto front (FP, FN)", .size = sizeof(pdt_front),
    .selective = false, .init = fa_init, .clear = fa_clear, .set = fa_set, .set_zero = fa_zero,
    .add = fa_add, .mul = fa_mul, .cmp = NULL, .is_zero = fa_is_zero, .residual = NULL, .succ = NULL,
    .to_text = fa_text, .idempotent = true, .absorbed = fa_absorbed,
};
