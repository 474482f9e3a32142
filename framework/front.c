/* Pareto fronts of (FP, FN) and the nonlinear metrics (see front.h). */
#include <stdlib.h>
#include <string.h>

#include "front.h"

void pdt_front_init(pdt_front *f) { memset(f, 0, sizeof *f); }

void pdt_front_clear(pdt_front *f)
{
    free(f->p);
    pdt_front_init(f);
}

static bool reserve(pdt_front *f, size_t more)
{
    if (f->n + more <= f->cap) return true;
    size_t cap = f->cap ? f->cap : 8;
    while (cap < f->n + more) cap *= 2;
    pdt_front_point *p = realloc(f->p, cap * sizeof *p);
    if (!p) return false;
    f->p = p;
    f->cap = cap;
    return true;
}

bool pdt_front_push(pdt_front *f, uint32_t fp, uint32_t fn, uint32_t how, uint32_t left, uint32_t right)
{
    if (!reserve(f, 1)) return false;
    f->p[f->n++] = (pdt_front_point){fp, fn, how, left, right};
    return true;
}

static int cmp_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

static int point_order(const void *x, const void *y)
{
    const pdt_front_point *a = x, *b = y;
    int c = cmp_u32(a->fp, b->fp);
    if (!c) c = cmp_u32(a->fn, b->fn);
    if (!c) c = cmp_u32(a->how, b->how);
    if (!c) c = cmp_u32(a->left, b->left);
    if (!c) c = cmp_u32(a->right, b->right);
    return c;
}

void pdt_front_filter(pdt_front *f)
{
    if (f->n < 2) return;
    qsort(f->p, f->n, sizeof *f->p, point_order);
    size_t k = 1;
    for (size_t i = 1; i < f->n; i++) /* fp ascending: keep a point only when its fn is strictly lower */
        if (f->p[i].fn < f->p[k - 1].fn) f->p[k++] = f->p[i];
    f->n = k;
}

bool pdt_front_union(pdt_front *f, const pdt_front *g)
{
    if (!reserve(f, g->n)) return false;
    if (g->n) memcpy(f->p + f->n, g->p, g->n * sizeof *g->p); /* an empty front may have no array */
    f->n += g->n;
    pdt_front_filter(f);
    return true;
}

bool pdt_front_add_sum(pdt_front *f, const pdt_front *a, const pdt_front *b, uint32_t how)
{
    if (!pdt_front_append_sum(f, a, b, how)) return false;
    pdt_front_filter(f);
    return true;
}

bool pdt_front_append_sum(pdt_front *f, const pdt_front *a, const pdt_front *b, uint32_t how)
{
    if (a->n && b->n && !reserve(f, a->n * b->n)) return false;
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++)
            f->p[f->n++] = (pdt_front_point){a->p[i].fp + b->p[j].fp, a->p[i].fn + b->p[j].fn, how,
                                             (uint32_t)i, (uint32_t)j};
    return true;
}

bool pdt_front_acc_init(pdt_front_acc *a, uint32_t max_fp)
{
    a->max_fp = max_fp;
    a->best = malloc(((size_t)max_fp + 1) * sizeof *a->best);
    if (!a->best) return false;
    for (size_t i = 0; i <= max_fp; i++) a->best[i] = (pdt_front_point){(uint32_t)i, UINT32_MAX, 0, 0, 0};
    return true;
}

void pdt_front_acc_clear(pdt_front_acc *a)
{
    free(a->best);
    a->best = NULL;
}

void pdt_front_acc_add_sums(pdt_front_acc *a, const pdt_front *x, const pdt_front *y, uint32_t how)
{
    for (size_t i = 0; i < x->n; i++)
        for (size_t j = 0; j < y->n; j++)
            pdt_front_acc_add(a, x->p[i].fp + y->p[j].fp, x->p[i].fn + y->p[j].fn, how, (uint32_t)i, (uint32_t)j);
}

bool pdt_front_acc_take(pdt_front *out, pdt_front_acc *a, uint32_t upto)
{
    out->n = 0;
    uint32_t low = UINT32_MAX;
    bool ok = true;
    for (uint32_t fp = 0; fp <= upto; fp++) {
        pdt_front_point *b = &a->best[fp];
        if (b->fn < low) {
            low = b->fn;
            ok = ok && pdt_front_push(out, fp, b->fn, b->how, b->left, b->right);
        }
        b->fn = UINT32_MAX;
    }
    return ok;
}

size_t pdt_front_find(const pdt_front *f, uint32_t fp, uint32_t fn)
{
    size_t lo = 0, hi = f->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->p[mid].fp < fp) lo = mid + 1;
        else hi = mid;
    }
    return lo < f->n && f->p[lo].fp == fp && f->p[lo].fn == fn ? lo : SIZE_MAX;
}

bool pdt_front_covers(const pdt_front *f, uint32_t fp, uint32_t fn)
{
    for (size_t i = 0; i < f->n && f->p[i].fp <= fp; i++)
        if (f->p[i].fn <= fn) return true;
    return false;
}

/* ------------------------------------------------------------ metrics */

pdt_confusion pdt_confusion_of(uint32_t fp, uint32_t fn, uint64_t positives, uint64_t negatives)
{
    return (pdt_confusion){.tp = positives - fn, .fp = fp, .fn = fn, .tn = negatives - fp};
}

static void set_u64(mpz_ptr z, uint64_t v)
{
    mpz_set_ui(z, (unsigned long)(v >> 32));
    mpz_mul_2exp(z, z, 32);
    mpz_add_ui(z, z, (unsigned long)(v & 0xffffffffu));
}

/* out = num/den, 0 when den = 0. */
static void set_ratio(mpq_ptr out, mpz_srcptr num, mpz_srcptr den)
{
    if (mpz_sgn(den) == 0) {
        mpq_set_ui(out, 0, 1);
        return;
    }
    mpz_set(mpq_numref(out), num);
    mpz_set(mpq_denref(out), den);
    mpq_canonicalize(out);
}

void pdt_metric_exact(mpq_ptr out, int *sign, pdt_metric metric, const pdt_confusion *c)
{
    mpz_t tp, fp, fn, tn, num, den, t;
    mpz_inits(tp, fp, fn, tn, num, den, t, NULL);
    set_u64(tp, c->tp), set_u64(fp, c->fp), set_u64(fn, c->fn), set_u64(tn, c->tn);
    if (sign) *sign = 1;
    switch (metric) {
    case PDT_METRIC_F1:
        mpz_mul_2exp(num, tp, 1);
        mpz_add(den, num, fp);
        mpz_add(den, den, fn);
        break;
    case PDT_METRIC_FM:
        mpz_mul(num, tp, tp);
        mpz_add(den, tp, fp);
        mpz_add(t, tp, fn);
        mpz_mul(den, den, t);
        break;
    case PDT_METRIC_MCC:
        mpz_mul(num, tp, tn);
        mpz_submul(num, fp, fn);
        if (sign) *sign = mpz_sgn(num);
        mpz_mul(num, num, num);
        mpz_add(den, tp, fp);
        mpz_add(t, tp, fn), mpz_mul(den, den, t);
        mpz_add(t, tn, fp), mpz_mul(den, den, t);
        mpz_add(t, tn, fn), mpz_mul(den, den, t);
        break;
    default: /* accuracy */
        mpz_add(num, tp, tn);
        mpz_add(den, num, fp);
        mpz_add(den, den, fn);
        break;
    }
    set_ratio(out, num, den);
    if (sign && mpq_sgn(out) == 0) *sign = 0;
    mpz_clears(tp, fp, fn, tn, num, den, t, NULL);
}

int pdt_metric_cmp(pdt_metric metric, const pdt_confusion *a, const pdt_confusion *b)
{
    mpq_t x, y;
    mpq_inits(x, y, NULL);
    int sa = 1, sb = 1;
    pdt_metric_exact(x, &sa, metric, a);
    pdt_metric_exact(y, &sb, metric, b);
    int c;
    if (sa != sb) c = (sa > sb) - (sa < sb);
    else c = sa >= 0 ? mpq_cmp(x, y) : mpq_cmp(y, x); /* both negative: the smaller square wins */
    mpq_clears(x, y, NULL);
    return (c > 0) - (c < 0);
}

size_t pdt_front_best(const pdt_front *f, pdt_metric metric, uint64_t positives, uint64_t negatives)
{
    size_t best = 0;
    for (size_t i = 1; i < f->n; i++) {
        pdt_confusion a = pdt_confusion_of(f->p[i].fp, f->p[i].fn, positives, negatives);
        pdt_confusion b = pdt_confusion_of(f->p[best].fp, f->p[best].fn, positives, negatives);
        if (pdt_metric_cmp(metric, &a, &b) > 0) best = i;
    }
    return best;
}

/* √q rounded down to `digits` decimal places, appended as a decimal. */
static void sqrt_decimal(pdt_buf *b, mpq_srcptr q, unsigned digits)
{
    mpz_t scale, num, r;
    mpz_inits(scale, num, r, NULL);
    mpz_ui_pow_ui(scale, 10, 2 * digits);
    mpz_mul(num, mpq_numref(q), scale);
    mpz_fdiv_q(num, num, mpq_denref(q));
    mpz_sqrt(r, num); /* ⌊√(⌊q·10^2k⌋)⌋ = ⌊√q·10^k⌋ */
    mpq_t d;
    mpq_init(d);
    mpz_set(mpq_numref(d), r);
    mpz_ui_pow_ui(mpq_denref(d), 10, digits);
    mpq_canonicalize(d);
    pdt_buf_mpq_decimal(b, d);
    mpq_clear(d);
    mpz_clears(scale, num, r, NULL);
}

void pdt_metric_decimal(pdt_buf *b, pdt_metric metric, const pdt_confusion *c, unsigned digits)
{
    mpq_t q;
    mpq_init(q);
    int sign = 1;
    pdt_metric_exact(q, &sign, metric, c);
    if (metric == PDT_METRIC_MCC || metric == PDT_METRIC_FM) { /* exact squares: the root */
        if (sign < 0) pdt_buf_puts(b, "-");
        sqrt_decimal(b, q, digits);
    } else {
        mpq_t t;
        mpq_init(t);
        mpz_ui_pow_ui(mpq_denref(t), 10, digits);
        mpz_mul(mpq_numref(t), mpq_numref(q), mpq_denref(t));
        mpz_fdiv_q(mpq_numref(t), mpq_numref(t), mpq_denref(q));
        mpq_canonicalize(t);
        pdt_buf_mpq_decimal(b, t);
        mpq_clear(t);
    }
    mpq_clear(q);
}

static const char *const names[] = {"accuracy", "f1", "mcc", "fm"};

const char *pdt_metric_name(pdt_metric metric)
{
    return (unsigned)metric < sizeof names / sizeof *names ? names[metric] : "?";
}

bool pdt_metric_parse(pdt_metric *out, const char *name)
{
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (name && strcmp(name, names[i]) == 0) {
            *out = (pdt_metric)i;
            return true;
        }
    return false;
}
