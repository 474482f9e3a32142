/* Depth 1 and depth 2 of the front search from class counts (the paper's
 * specialised depth-2 solver, for fronts): a depth-2 subproblem counts the
 * positives and negatives of D∧g and of D∧f∧g once for every pair f < g, and
 * every child's depth-1 front follows from those counts without touching
 * the items again.  The points — with their how, left and right — are the
 * ones the general recursion into depth 1 gives (the accumulator's result
 * depends only on the points added, not on their order), so a tree is
 * rebuilt from either. */
#include <stdlib.h>
#include <string.h>

#include "binary_front_impl.h"
#include "binary_search.h"
#include "bitset.h"

bool fr_scratch_init(fr_search *s)
{
    size_t nf = s->data->nf ? s->data->nf : 1;
    s->d1p = calloc(nf, sizeof *s->d1p), s->d1q = calloc(nf, sizeof *s->d1q);
    s->cp = calloc(nf, sizeof *s->cp), s->cq = calloc(nf, sizeof *s->cq);
    s->pp = calloc(nf * nf, sizeof *s->pp), s->pq = calloc(nf * nf, sizeof *s->pq);
    for (int c = 0; c < 2; c++) s->kp[c] = calloc(nf, sizeof *s->kp[c]), s->kq[c] = calloc(nf, sizeof *s->kq[c]);
    s->ip = calloc(s->W + 1, sizeof *s->ip), s->iq = calloc(s->W + 1, sizeof *s->iq);
    return s->d1p && s->d1q && s->cp && s->cq && s->pp && s->pq && s->kp[0] && s->kp[1] && s->kq[0] &&
           s->kq[1] && s->ip && s->iq;
}

void fr_scratch_clear(fr_search *s)
{
    free(s->d1p), free(s->d1q), free(s->cp), free(s->cq), free(s->pp), free(s->pq);
    for (int c = 0; c < 2; c++) free(s->kp[c]), free(s->kq[c]);
    free(s->ip), free(s->iq);
}

/* A leaf's front of (pc, qc) in fr_leaf_front's order, into pts (2 slots). */
static pdt_front leaf_of(pdt_front_point *pts, uint32_t pc, uint32_t qc)
{
    pdt_front f = {.p = pts, .n = 0, .cap = 2};
    if (pc == 0) pts[f.n++] = (pdt_front_point){0, 0, FR_LEAF_NEG, 0, 0};
    else if (qc == 0) pts[f.n++] = (pdt_front_point){0, 0, FR_LEAF_POS, 0, 0};
    else {
        pts[f.n++] = (pdt_front_point){0, pc, FR_LEAF_NEG, 0, 0};
        pts[f.n++] = (pdt_front_point){qc, 0, FR_LEAF_POS, 0, 0};
    }
    return f;
}

bool fr_front_of_counts(fr_search *s, pdt_front *f, pdt_front_acc *acc, uint32_t p, uint32_t q,
                        const uint32_t *gp, const uint32_t *gq, const fr_off *off)
{
    pdt_front_acc_add(acc, 0, p, FR_LEAF_NEG, 0, 0);
    pdt_front_acc_add(acc, q, 0, FR_LEAF_POS, 0, 0);
    pdt_front_point pts[2][2];
    bool first = true;
    for (size_t g = 0; g < s->data->nf; g++) {
        uint32_t p1 = gp[g], q1 = gq[g], p0 = p - p1, q0 = q - q1;
        if (p0 + q0 == 0 || p1 + q1 == 0) continue; /* a split with an empty side: no tree */
        if (!off && !first && p0 && q0 && p1 && q1) {
            /* two mixed leaves: the sums (0, p) and (q, 0) tie with the first split's, which
             * win (smaller how); the two others are one side wrong each way */
            pdt_front_acc_add(acc, q1, p0, (uint32_t)g << 8, 0, 1);
            pdt_front_acc_add(acc, q0, p1, (uint32_t)g << 8, 1, 0);
            s->stats.sums++;
            if (acc->best[0].fn == 0) break;
            continue;
        }
        first = false;
        pdt_front l = leaf_of(pts[0], p0, q0), r = leaf_of(pts[1], p1, q1);
        if (off) { /* the bound as in the general recursion (binary_front.c) */
            fr_clip(s, &l, off);
            if (!l.n) continue;
            fr_off roff = {off->x + l.p[0].fp, off->y + l.p[l.n - 1].fn};
            fr_clip(s, &r, &roff);
        }
        for (uint32_t i = 0; i < l.n; i++) /* pdt_front_acc_add_sums, inlined: 4 sums at most */
            for (uint32_t j = 0; j < r.n; j++)
                pdt_front_acc_add(acc, l.p[i].fp + r.p[j].fp, l.p[i].fn + r.p[j].fn, (uint32_t)g << 8, i, j);
        s->stats.sums++;
        if (acc->best[0].fn == 0) break; /* (0, 0) dominates every later point; later ties lose */
    }
    bool ok = pdt_front_acc_take(f, acc, q);
    fr_clip(s, f, off);
    return ok;
}

/* cp, cq: D∧g; pp, pq[f·nf + g] (f < g): D∧f∧g. */
static void pair_counts(fr_search *s, const uint64_t *items)
{
    const size_t W = s->W, nf = s->data->nf;
    for (size_t k = 0; k < W; k++) s->ip[k] = items[k] & s->pos[k], s->iq[k] = items[k] & s->neg[k];
    for (size_t f = 0; f < nf; f++) {
        const uint64_t *cf = s->data->cols + f * W;
        s->cp[f] = pdt_bits_and_count(s->ip, cf, W);
        s->cq[f] = pdt_bits_and_count(s->iq, cf, W);
        if (s->cp[f] + s->cq[f] == 0) { /* D∧f is empty: so is every D∧f∧g */
            memset(s->pp + f * nf + f + 1, 0, (nf - f - 1) * sizeof *s->pp);
            memset(s->pq + f * nf + f + 1, 0, (nf - f - 1) * sizeof *s->pq);
            continue;
        }
        for (size_t g = f + 1; g < nf; g++) {
            const uint64_t *cg = s->data->cols + g * W;
            uint32_t a = 0, b = 0;
            for (size_t k = 0; k < W; k++) {
                uint64_t x = cf[k] & cg[k];
                a += (uint32_t)__builtin_popcountll(x & s->ip[k]);
                b += (uint32_t)__builtin_popcountll(x & s->iq[k]);
            }
            s->pp[f * nf + g] = a, s->pq[f * nf + g] = b;
        }
    }
}

static uint32_t pair(const uint32_t *m, size_t nf, const uint32_t *diag, size_t f, size_t g)
{
    return f == g ? diag[f] : f < g ? m[f * nf + g] : m[g * nf + f];
}

/* The front of child c (0: D∧¬f, 1: D∧f) of items D within (1, budget), as fr_solve gives it. */
static bool child_front(fr_search *s, pdt_front *out, size_t f, int c, uint32_t p, uint32_t q, uint32_t budget)
{
    const size_t nf = s->data->nf;
    uint32_t pc = c ? s->cp[f] : p - s->cp[f], qc = c ? s->cq[f] : q - s->cq[f];
    s->stats.subproblems++;
    if (budget == 0 || pc == 0 || qc == 0) return fr_leaf_front(out, pc, qc);
    for (size_t g = 0; g < nf; g++) {
        uint32_t a = pair(s->pp, nf, s->cp, f, g), b = pair(s->pq, nf, s->cq, f, g);
        s->kp[c][g] = c ? a : s->cp[g] - a;
        s->kq[c][g] = c ? b : s->cq[g] - b;
    }
    return fr_front_of_counts(s, out, &s->levels[1].acc, pc, qc, s->kp[c], s->kq[c], NULL);
}

bool fr_depth2_front(fr_search *s, pdt_front *f, const uint64_t *items, uint32_t p, uint32_t q, uint32_t n)
{
    const size_t nf = s->data->nf;
    fr_level *lv = &s->levels[1];
    pdt_front_acc *acc = &s->levels[2].acc;
    pair_counts(s, items);
    pdt_front_acc_add(acc, 0, p, FR_LEAF_NEG, 0, 0);
    pdt_front_acc_add(acc, q, 0, FR_LEAF_POS, 0, 0);
    uint32_t lo = n - 1 > 1 ? n - 2 : 0, hi = n - 1 < 1 ? n - 1 : 1; /* child budgets 0..1 */
    bool ok = true;
    for (size_t g = 0; g < nf && ok; g++) {
        uint32_t right = s->cp[g] + s->cq[g];
        if (right == 0 || right == p + q) continue; /* an empty side */
        for (uint32_t nl = lo; nl <= hi && ok; nl++) {
            ok = child_front(s, &lv->fl, g, 0, p, q, nl) && child_front(s, &lv->fr, g, 1, p, q, n - 1 - nl);
            if (ok) pdt_front_acc_add_sums(acc, &lv->fl, &lv->fr, (uint32_t)g << 8 | nl);
            s->stats.sums++;
        }
        if (acc->best[0].fn == 0) break; /* a perfect tree: every later point is dominated or a later tie */
    }
    bool took = pdt_front_acc_take(f, acc, q); /* also leaves the accumulator empty */
    return ok && took;
}
