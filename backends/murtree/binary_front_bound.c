/* The metric bound of a `fit --metric` front search (issue 10; Demirović &
 * Stuckey's upper-bound rule in pdt's terms).  F1, MCC and FM never get better
 * with more FP or more FN, so the root points whose metric is at least the
 * incumbent's (the best tree found so far) form a down-set U of the (FP, FN)
 * plane, kept as a staircase: maxfn[fp] = the largest FN with metric ≥ the
 * incumbent's, −1 for none.  A subproblem is solved under an offset o (a lower
 * bound of what the rest of the tree adds): only its points x with x + o ∈ U
 * can be part of a root point that ties or beats the incumbent; the others
 * are dropped, and a subproblem whose (0, 0) is outside is not solved.  The
 * incumbent only improves, so U only shrinks: a front computed under an
 * earlier U (or a smaller offset) still holds every point needed later.
 * `pdt front` never sets a bound: its fronts are complete. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"

#include "binary_front_impl.h"

static pdt_confusion conf(const fr_search *s, uint32_t fp, uint32_t fn)
{
    return pdt_confusion_of(fp, fn, s->P, s->N);
}

/* maxfn from the incumbent: a sweep down the staircase (it never rises with fp). */
static void staircase(fr_search *s)
{
    pdt_confusion inc = conf(s, s->inc_fp, s->inc_fn);
    int64_t fn = s->P;
    for (uint32_t fp = 0; fp <= s->N; fp++) {
        while (fn >= 0) {
            pdt_confusion c = conf(s, fp, (uint32_t)fn);
            if (pdt_metric_cmp(s->metric, &c, &inc) >= 0) break;
            fn--;
        }
        s->maxfn[fp] = fn;
    }
}

bool fr_bound_start(fr_search *s, pdt_metric metric, uint32_t fp, uint32_t fn, uint32_t top_d)
{
    s->top_d = top_d; /* normalised, as the root is solved */
    s->maxfn = malloc(((size_t)s->N + 1) * sizeof *s->maxfn);
    size_t k = ((size_t)16 << 20) / (8 * s->W + 8);
    s->sim_k = k < 1 ? 1 : k > FR_SIM ? FR_SIM : k;
    s->sim_items = calloc(s->sim_k * s->W + 1, sizeof *s->sim_items);
    s->sim_n = calloc(s->sim_k, sizeof *s->sim_n);
    s->sim_pq = calloc(2 * s->sim_k, sizeof *s->sim_pq);
    s->sim_front = calloc(s->sim_k, sizeof *s->sim_front);
    if (!s->maxfn || !s->sim_items || !s->sim_n || !s->sim_pq || !s->sim_front) return false;
    s->metric = metric;
    s->inc_fp = fp, s->inc_fn = fn;
    staircase(s);
    s->bounded = true;
    return true;
}

void fr_bound_offer(fr_search *s, const pdt_front *a, const pdt_front *b)
{
    pdt_confusion inc = conf(s, s->inc_fp, s->inc_fn);
    bool better = false;
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++) {
            uint32_t fp = a->p[i].fp + b->p[j].fp, fn = a->p[i].fn + b->p[j].fn;
            if (!fr_allowed(s, &(fr_off){0, 0}, fp, fn) || (fp == s->inc_fp && fn == s->inc_fn)) continue;
            pdt_confusion c = conf(s, fp, fn);
            if (pdt_metric_cmp(s->metric, &c, &inc) > 0) s->inc_fp = fp, s->inc_fn = fn, inc = c, better = true;
        }
    if (better) staircase(s);
}

/* Every tree T of items D within (2, n) is a tree of the last depth-2 set D' within
 * (2, n') when n ≤ n'; T's point on D' is weakly dominated by a point a of D''s
 * whole front, and D's items missing from D' can only lower its errors on D
 * by r = (negatives, positives) of D' \ D: T's point on D is ≥ a − r (at least 0).
 * If no a − r is within the bound, no tree of D is (the bound is a down-set). */
/* Some point of reference k's front, shifted by (rn, rp), is within the bound under off. */
static bool shifted_within(const fr_search *s, size_t k, uint32_t rn, uint32_t rp, const fr_off *off)
{
    const pdt_front *f = &s->sim_front[k];
    for (size_t i = 0; i < f->n; i++) {
        const pdt_front_point *a = &f->p[i];
        if (fr_allowed(s, off, a->fp > rn ? a->fp - rn : 0, a->fn > rp ? a->fn - rp : 0)) return true;
    }
    return false;
}

static bool similar_prunes(const fr_search *s, size_t k, const uint64_t *items, uint32_t p, uint32_t q,
                           uint32_t n, const fr_off *off)
{
    if (s->sim_n[k] < n) return false;
    /* D' \ D has at least |D'| − |D| of each class: a smaller shift, a point at least as
     * low; when that one is within the bound, so is the true one (no O(W) count needed) */
    uint32_t pk = s->sim_pq[2 * k], qk = s->sim_pq[2 * k + 1];
    if (shifted_within(s, k, qk > q ? qk - q : 0, pk > p ? pk - p : 0, off)) return false;
    const uint64_t *was = s->sim_items + k * s->W;
    uint32_t rn = 0, rp = 0;
    for (size_t w = 0; w < s->W; w++) {
        uint64_t gone = was[w] & ~items[w];
        rn += (uint32_t)__builtin_popcountll(gone & s->neg[w]);
        rp += (uint32_t)__builtin_popcountll(gone & s->pos[w]);
    }
    return !shifted_within(s, k, rn, rp, off);
}

bool fr_similar_prunes(const fr_search *s, const uint64_t *items, uint32_t p, uint32_t q, uint32_t n,
                       const fr_off *off)
{
    uint32_t d = 2;
    fr_normalise(&d, &n);
    if (!off || d != 2) return false;
    for (size_t i = 1; i <= s->sim_k; i++) /* the newest first: the likeliest to be similar */
        if (similar_prunes(s, (s->sim_next + s->sim_k - i) % s->sim_k, items, p, q, n, off)) return true;
    return false;
}

bool fr_similar_keep(fr_search *s, const uint64_t *items, uint32_t p, uint32_t q, uint32_t n, const pdt_front *f)
{
    size_t k = s->sim_next;
    s->sim_next = (k + 1) % s->sim_k;
    memcpy(s->sim_items + k * s->W, items, s->W * sizeof *items);
    s->sim_n[k] = n;
    s->sim_pq[2 * k] = p, s->sim_pq[2 * k + 1] = q;
    s->sim_front[k].n = 0;
    return pdt_front_union(&s->sim_front[k], f);
}
