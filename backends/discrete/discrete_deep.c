/* The look-ahead one level deeper (discrete_impl.h): a split's bound when
 * each child is a leaf, exactly one split (its least leaf errors, counted),
 * or two splits or more (its unavoidable errors).  The look-ahead of
 * discrete.c bounds a child that splits by one split cost over its
 * unavoidable errors; this one by the least of one split cost over the
 * errors a single split leaves and two over the unavoidable errors — much
 * more where few rows are equal and a split leaves many errors (anneal,
 * australian-credit).  Valid without a depth limit (a child that splits
 * twice needs two levels below it).  Internal to backends/discrete/. */
#include "discrete_impl.h"

#include <string.h>

#include "bitset.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Leaf errors of class counts c (nc classes); *n their sum. */
static uint32_t cell_errors(const uint32_t *c, size_t nc, uint32_t *n)
{
    uint32_t sum = 0, most = 0;
    for (size_t k = 0; k < nc; k++) {
        sum += c[k];
        if (c[k] > most) most = c[k];
    }
    *n = sum;
    return sum - most;
}

/* A split's bound from its k children's sizes, leaf and unavoidable errors:
 * its cost plus each child's leaf or one more split over its unavoidable
 * errors; INT64_MAX when needless (count_bound in discrete.c). */
static int64_t split_bound(const dc_problem *p, size_t k, const uint32_t *m, const uint32_t *err, const uint32_t *fl)
{
    int64_t q = p->split_cost, gain = 0, most = 0;
    for (size_t v = 0; v < k; v++) {
        if (!m[v]) continue;
        int64_t lb = (int64_t)err[v] * p->err_cost;
        if (err[v] > fl[v]) lb = min64(lb, p->split_cost + (int64_t)fl[v] * p->err_cost);
        int64_t g = (int64_t)m[v] * p->err_cost - lb;
        q += lb;
        gain += g;
        if (g > most) most = g;
    }
    return gain - most <= p->split_cost ? INT64_MAX : q;
}

/* The least bound of a split of the items (split_bound); INT64_MAX when no
 * feature parts them.  Scratch: fr. */
static int64_t one_split_items(dc_search *s, dc_frame *fr, const uint32_t *items, size_t len)
{
    const dc_problem *p = s->p;
    int64_t least = INT64_MAX;
    const bool bits = dc_class_bits(s, fr, items, len);
    for (size_t h = 0; h < p->nf; h++) {
        size_t at = h * s->maxk;
        if (dc_count_codes(s, fr, bits, (uint32_t)h, items, len, fr->cm + at, fr->cerr + at, fr->cfl + at) < 2)
            continue;
        least = min64(least, split_bound(p, p->k[h], fr->cm + at, fr->cerr + at, fr->cfl + at));
    }
    return least;
}

/* split_bound of two children. */
static inline int64_t split2(const dc_problem *p, uint32_t m0, uint32_t e0, uint32_t f0, uint32_t m1, uint32_t e1,
                             uint32_t f1)
{
    int64_t l0 = (int64_t)e0 * p->err_cost, l1 = (int64_t)e1 * p->err_cost;
    if (e0 > f0) l0 = min64(l0, p->split_cost + (int64_t)f0 * p->err_cost);
    if (e1 > f1) l1 = min64(l1, p->split_cost + (int64_t)f1 * p->err_cost);
    int64_t g0 = (int64_t)m0 * p->err_cost - l0, g1 = (int64_t)m1 * p->err_cost - l1;
    return (g0 < g1 ? g0 : g1) <= p->split_cost ? INT64_MAX : p->split_cost + l0 + l1;
}

static inline uint32_t min32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* one_split_bits for two classes (fr->rc, s->gbits as there). */
static bool two_classes(dc_search *s, const dc_frame *fr, uint32_t g, const uint32_t *cls, int64_t d1[2],
                        const int64_t below[2])
{
    const dc_problem *p = s->p;
    const size_t words = s->words, mk = s->maxk;
    const uint64_t *rg = s->gbits;
    const uint32_t cg0 = cls[2 * g], cg1 = cls[2 * g + 1], t0 = fr->rtot[0], t1 = fr->rtot[1];
    const uint32_t fg = fr->cfl[g * mk + 1], fall = fr->rtot[2];
    for (size_t h = 0; h < p->nf; h++) {
        if (h == g) continue;
        const uint64_t *bh = s->bits + s->bit_at[h];
        const uint32_t ch0 = cls[2 * h], ch1 = cls[2 * h + 1];
        uint32_t a0 = pdt_bits_and_count(rg, bh, words), a1 = pdt_bits_and_count(rg + words, bh, words);
        uint32_t b0 = cg0 - a0, b1 = cg1 - a1, c0 = ch0 - a0, c1 = ch1 - a1;
        uint32_t e0 = t0 - cg0 - c0, e1 = t1 - cg1 - c1;
        uint32_t f11 = 0, fh = fr->cfl[h * mk + 1];
        for (size_t q = 0; q < s->n_planes && (fg || fh); q++)
            f11 += pdt_bits_and3_count(rg + 2 * words, bh, s->planes + q * words, words) << q;
        if (a0 + a1 && b0 + b1) /* child g = 1: h = 0 (b), h = 1 (a) */
            d1[1] = min64(d1[1], split2(p, b0 + b1, min32(b0, b1), fg - f11, a0 + a1, min32(a0, a1), f11));
        if (c0 + c1 && e0 + e1) /* child g = 0: h = 0 (e), h = 1 (c) */
            d1[0] = min64(d1[0], split2(p, e0 + e1, min32(e0, e1), fall - fg - fh + f11, c0 + c1, min32(c0, c1),
                                        fh - f11));
        if (d1[0] < below[0] || d1[1] < below[1]) return false;
    }
    return true;
}

/* The same for both children of the two-valued split on g of a region whose
 * class bitsets fr holds (dc_class_bits; fr's cells counted for every
 * feature), when every feature is two-valued with bitsets: a few ANDs per
 * (feature, class) and per bit plane of the unavoidable errors.  cls: each
 * feature's code-1 rows of the region by class (nf * nc).  Stops (false)
 * as soon as child v's is below below[v]. */
static bool one_split_bits(dc_search *s, const dc_frame *fr, uint32_t g, const uint32_t *cls, int64_t d1[2],
                           const int64_t below[2])
{
    const dc_problem *p = s->p;
    const size_t nc = p->nc, words = s->words, mk = s->maxk;
    const uint64_t *bg = s->bits + s->bit_at[g];
    const uint32_t *cg = cls + (size_t)g * nc;
    uint64_t *rg = s->gbits; /* nc + 1 bitsets: the region's rows of code 1 of g by class, then all */
    for (size_t c = 0; c <= nc; c++)
        for (size_t w = 0; w < words; w++) rg[c * words + w] = fr->rc[c * words + w] & bg[w];
    uint32_t *cell = s->cells; /* 4 * nc: (g, h) = (1, 1), (1, 0), (0, 1), (0, 0) */
    const uint32_t fg = fr->cfl[g * mk + 1], fall = fr->rtot[nc];
    d1[0] = d1[1] = INT64_MAX;
    if (nc == 2) return two_classes(s, fr, g, cls, d1, below);
    for (size_t h = 0; h < p->nf; h++) {
        if (h == g) continue;
        const uint64_t *bh = s->bits + s->bit_at[h];
        const uint32_t *ch = cls + h * nc;
        for (size_t c = 0; c < nc; c++) {
            uint32_t both = pdt_bits_and_count(rg + c * words, bh, words);
            cell[c] = both;
            cell[nc + c] = cg[c] - both;
            cell[2 * nc + c] = ch[c] - both;
            cell[3 * nc + c] = fr->rtot[c] - cg[c] - ch[c] + both;
        }
        uint32_t f11 = 0, fh = fr->cfl[h * mk + 1];
        for (size_t q = 0; q < s->n_planes && (fg || fh); q++)
            f11 += pdt_bits_and3_count(rg + nc * words, bh, s->planes + q * words, words) << q;
        const uint32_t fl[4] = {f11, fg - f11, fh - f11, fall - fg - fh + f11};
        uint32_t m[4], err[4];
        for (size_t w = 0; w < 4; w++) err[w] = cell_errors(cell + w * nc, nc, &m[w]);
        for (size_t v = 0; v < 2; v++) /* child g = 1 - v: cells 2v (h = 1) and 2v + 1 (h = 0) */
            if (m[2 * v] && m[2 * v + 1]) {
                const uint32_t mm[2] = {m[2 * v + 1], m[2 * v]}, ee[2] = {err[2 * v + 1], err[2 * v]},
                               ff[2] = {fl[2 * v + 1], fl[2 * v]};
                d1[1 - v] = min64(d1[1 - v], split_bound(p, 2, mm, ee, ff));
            }
        if (d1[0] < below[0] || d1[1] < below[1]) return false;
    }
    return true;
}

bool dc_deep_by_bits(const dc_search *s, bool bits)
{
    if (!bits || !s->gbits) return false;
    for (size_t h = 0; h < s->p->nf; h++)
        if (s->p->k[h] != 2 || s->bit_at[h] == SIZE_MAX) return false;
    return true;
}

int64_t dc_deep_bound(dc_search *s, dc_frame *fr, uint32_t g, const uint32_t *rows, size_t m, size_t depth,
                      const uint32_t *cls, int64_t target)
{
    const dc_problem *p = s->p;
    const size_t at = (size_t)g * s->maxk;
    dc_frame *sub = NULL;
    int64_t pair[2] = {INT64_MAX, INT64_MAX};
    if (cls) {
        /* when the split cannot prove needless, a child's bound below `below` leaves it below
         * the target (the other child adds at most its leaf): not worth finishing */
        int64_t below[2] = {INT64_MIN, INT64_MIN};
        if (dc_deep_cap(s, fr, g) != INT64_MAX)
            for (size_t v = 0; v < 2; v++)
                if (fr->cerr[at + v] > fr->cfl[at + v])
                    below[v] = target - p->split_cost - (int64_t)fr->cerr[at + 1 - v] * p->err_cost;
        if (!one_split_bits(s, fr, g, cls, pair, below)) return 0;
    } else {
        sub = depth + 1 <= p->nf ? dc_frame_at(s, depth + 1) : NULL;
        if (!sub) return 0;
        dc_partition(s, g, rows, m, sub->part, sub->start);
    }
    int64_t q = p->split_cost, gain = 0, most = 0;
    for (size_t v = 0; v < p->k[g]; v++) {
        uint32_t mv = fr->cm[at + v];
        if (!mv) continue;
        int64_t lb = (int64_t)fr->cerr[at + v] * p->err_cost;
        if (fr->cerr[at + v] > fr->cfl[at + v])
            lb = min64(lb, cls ? pair[v] : one_split_items(s, sub, sub->part + sub->start[v], mv));
        int64_t gv = (int64_t)mv * p->err_cost - lb;
        q += lb;
        gain += gv;
        if (gv > most) most = gv;
    }
    return gain - most <= p->split_cost ? INT64_MAX : q;
}

int64_t dc_deep_cap(const dc_search *s, const dc_frame *fr, uint32_t g)
{
    const dc_problem *p = s->p;
    const size_t at = (size_t)g * s->maxk;
    int64_t cap = p->split_cost, gain = 0, most = 0;
    for (size_t v = 0; v < p->k[g]; v++) {
        if (!fr->cm[at + v]) continue;
        int64_t least = (int64_t)(fr->cm[at + v] - fr->cerr[at + v]) * p->err_cost; /* its gain at the least */
        cap += (int64_t)fr->cerr[at + v] * p->err_cost;
        gain += least;
        if (least > most) most = least;
    }
    return gain - most > p->split_cost ? cap : INT64_MAX;
}
