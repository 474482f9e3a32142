/* The specialised depth-2 solver (MurTree §4.3–4.4) on bitsets.
 *
 * The items of the subproblem are first compacted: every feature column is
 * squeezed (PEXT) to the m items present, so the rest of the work scales with
 * m/64 words instead of the dataset's N/64.  Columns constant on the items
 * split nothing and are dropped; columns equal (or complementary) to an
 * earlier one split the items identically and are dropped too.  Then, per
 * pair of kept columns (f, g), the frequency counts |f∧g| and |f∧g∧class|
 * come from one AND and one POPCNT per word (eight pairs per AVX-512
 * instruction), and the four cells f∧g, f∧¬g, ¬f∧g, ¬f∧¬g follow by
 * inclusion–exclusion (MurTree eqs. 2–5).  From the cells, the best left
 * and right child of every root (eqs. 7–8), and from those the optima with
 * 1, 2 and 3 branch nodes, all at once.
 *
 * Two classes take the fast path above; more classes (and rebuilding a tree,
 * which needs the arguments of the minima) take a scalar path that keeps, per
 * pair, the largest class count of every cell. */
#include <stdlib.h>
#include <string.h>
#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
#include <immintrin.h>
#define D2_AVX512 1
#endif
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "binary_search.h"
#include "bitset.h"

struct d2_solver {
    const bs_data *data;
    size_t fp, wcap, nc;   /* column stride (features rounded up to 8), words per column, classes */
    uint64_t *M;           /* wcap * fp compacted columns, word-major: M[w * fp + j] */
    uint64_t *CL;          /* nc * wcap compacted classes */
    uint32_t *fid;         /* local column -> feature */
    uint32_t *nzw, *nzc;   /* nonzero words of the items and their popcounts */
    uint32_t *cnt;         /* fp: items having the column */
    uint32_t *ccnt;        /* nc * fp: items of class c having the column */
    uint32_t *mat;         /* 4 * fp * fp: pair counts (and cell maxima on the scalar path) */
    int32_t *leafL, *leafR, *bestL, *bestR; /* fp each */
    uint32_t *ctot;        /* nc: items of each class */
    uint64_t *seen;        /* 2 * fp hashes of kept columns (dedup), 0 = empty */
    uint32_t *seen_col;
};

static void *alloc64(size_t bytes)
{
    bytes = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p) memset(p, 0, bytes ? bytes : 64);
    return p;
}

pdt_status d2_new(d2_solver **out, const bs_data *data, pdt_error *err)
{
    *out = NULL;
    d2_solver *s = calloc(1, sizeof *s);
    if (!s) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    s->data = data;
    s->fp = (data->nf + 7) / 8 * 8;
    if (!s->fp) s->fp = 8;
    s->wcap = data->words ? data->words : 1;
    s->nc = data->nc ? data->nc : 1;
    size_t fp = s->fp;
    s->M = alloc64(s->wcap * fp * sizeof *s->M);
    s->CL = alloc64(s->nc * s->wcap * sizeof *s->CL);
    s->fid = alloc64(fp * sizeof *s->fid);
    s->nzw = alloc64(s->wcap * sizeof *s->nzw);
    s->nzc = alloc64(s->wcap * sizeof *s->nzc);
    s->cnt = alloc64(fp * sizeof *s->cnt);
    s->ccnt = alloc64(s->nc * fp * sizeof *s->ccnt);
    s->mat = fp <= 46000 ? alloc64(4 * fp * fp * sizeof *s->mat) : NULL;
    s->leafL = alloc64(fp * sizeof *s->leafL);
    s->leafR = alloc64(fp * sizeof *s->leafR);
    s->bestL = alloc64(fp * sizeof *s->bestL);
    s->bestR = alloc64(fp * sizeof *s->bestR);
    s->ctot = alloc64(s->nc * sizeof *s->ctot);
    s->seen = alloc64(2 * fp * sizeof *s->seen);
    s->seen_col = alloc64(2 * fp * sizeof *s->seen_col);
    if (!s->M || !s->CL || !s->fid || !s->nzw || !s->nzc || !s->cnt || !s->ccnt || !s->mat ||
        !s->leafL || !s->leafR || !s->bestL || !s->bestR || !s->ctot || !s->seen ||
        !s->seen_col) {
        d2_free(&s);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory for the depth-2 solver (%zu features)",
                             data->nf);
    }
    *out = s;
    return PDT_OK;
}

void d2_free(d2_solver **sp)
{
    if (!sp || !*sp) return;
    d2_solver *s = *sp;
    void *p[] = {s->M, s->CL, s->fid, s->nzw, s->nzc, s->cnt, s->ccnt, s->mat, s->leafL, s->leafR,
                 s->bestL, s->bestR, s->ctot, s->seen, s->seen_col};
    for (size_t k = 0; k < sizeof p / sizeof *p; k++) free(p[k]);
    free(s);
    *sp = NULL;
}

/* ------------------------------------------------------------ compaction */

static inline uint64_t pext64(uint64_t x, uint64_t mask)
{
#ifdef __BMI2__
    return _pext_u64(x, mask);
#else
    uint64_t r = 0;
    for (uint64_t bit = 1; mask; bit <<= 1, mask &= mask - 1)
        if (x & mask & (~mask + 1)) r |= bit;
    return r;
#endif
}

/* Squeezes col to the items (nonzero words nzw with popcounts nzc) into
 * out[0], out[stride], ...; returns the number of set bits. */
static uint32_t squeeze(uint64_t *out, size_t stride, const uint64_t *col, const uint64_t *items,
                        const uint32_t *nzw, const uint32_t *nzc, size_t n_nz)
{
    uint64_t acc = 0;
    unsigned fill = 0;
    size_t w = 0;
    uint32_t ones = 0;
    for (size_t t = 0; t < n_nz; t++) {
        size_t k = nzw[t];
        uint64_t v = pext64(col[k], items[k]);
        unsigned c = nzc[t];
        ones += (uint32_t)__builtin_popcountll(v);
        acc |= v << fill;
        fill += c;
        if (fill >= 64) {
            out[w++ * stride] = acc;
            fill -= 64;
            acc = fill ? v >> (c - fill) : 0;
        }
    }
    if (fill) out[w * stride] = acc;
    return ones;
}

/* Kept columns with the same partition: equal, or complementary (canonical
 * form: the first item's bit clear). */
static bool seen_before(d2_solver *s, size_t j, size_t W, uint64_t tail)
{
    const size_t fp = s->fp;
    const uint64_t flip = (s->M[j] & 1) ? ~UINT64_C(0) : 0;
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t w = 0; w < W; w++) h = (h ^ (s->M[w * fp + j] ^ flip)) * UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 29;
    h |= 1; /* 0 marks a free slot */
    const size_t cap = 2 * fp;
    for (size_t p = (size_t)(h % cap);; p = p + 1 == cap ? 0 : p + 1) {
        if (!s->seen[p]) {
            s->seen[p] = h;
            s->seen_col[p] = (uint32_t)j;
            return false;
        }
        if (s->seen[p] != h) continue;
        size_t i = s->seen_col[p];
        uint64_t fi = (s->M[i] & 1) ? ~UINT64_C(0) : 0, x = fi ^ flip;
        bool same = true;
        for (size_t w = 0; w < W && same; w++) {
            uint64_t m = w + 1 == W ? tail : ~UINT64_C(0);
            same = ((s->M[w * fp + i] ^ s->M[w * fp + j] ^ x) & m) == 0;
        }
        if (same) return true;
    }
}

/* Compacts the items' classes and non-constant, distinct feature columns;
 * returns the number F of kept columns, *W the words per column. */
static size_t prepare(d2_solver *s, const uint64_t *items, uint32_t m, size_t *W)
{
    const bs_data *d = s->data;
    const size_t fp = s->fp, words = d->words;
    size_t n_nz = 0;
    for (size_t k = 0; k < words; k++)
        if (items[k]) {
            s->nzw[n_nz] = (uint32_t)k;
            s->nzc[n_nz++] = (uint32_t)__builtin_popcountll(items[k]);
        }
    *W = (m + 63) / 64;
    const uint64_t tail = (m & 63) ? (UINT64_C(1) << (m & 63)) - 1 : ~UINT64_C(0);
    for (size_t c = 0; c < s->nc; c++) {
        memset(s->CL + c * s->wcap, 0, *W * sizeof *s->CL);
        s->ctot[c] = squeeze(s->CL + c * s->wcap, 1, d->cls + c * words, items, s->nzw, s->nzc, n_nz);
    }
    memset(s->seen, 0, 2 * fp * sizeof *s->seen);
    size_t F = 0;
    for (size_t f = 0; f < d->nf; f++) {
        for (size_t w = 0; w < *W; w++) s->M[w * fp + F] = 0;
        uint32_t ones = squeeze(s->M + F, fp, d->cols + f * words, items, s->nzw, s->nzc, n_nz);
        if (ones == 0 || ones == m || seen_before(s, F, *W, tail)) continue;
        s->cnt[F] = ones;
        s->fid[F++] = (uint32_t)f;
    }
    for (size_t j = F; j < fp && j < F + 8; j++) /* the kernel reads whole blocks of 8 */
        for (size_t w = 0; w < *W; w++) s->M[w * fp + j] = 0;
    return F;
}

/* ------------------------------------------------------------ two classes */

/* T[i][j] = |i ∧ j| and P[i][j] = |i ∧ j ∧ class 1| for j ≥ i rounded down to 8. */
static void count_pairs(d2_solver *s, size_t F, size_t W)
{
    const size_t fp = s->fp;
    const uint64_t *M = s->M, *c1 = s->CL + s->wcap;
    uint32_t *T = s->mat, *P = s->mat + fp * fp;
    for (size_t i = 0; i < F; i++) {
        for (size_t jb = i & ~(size_t)7; jb < F; jb += 8) {
#ifdef D2_AVX512
            __m512i at = _mm512_setzero_si512(), ap = _mm512_setzero_si512();
            for (size_t w = 0; w < W; w++) {
                __m512i x = _mm512_load_si512((const void *)(M + w * fp + jb));
                uint64_t a = M[w * fp + i];
                at = _mm512_add_epi64(at, _mm512_popcnt_epi64(_mm512_and_si512(_mm512_set1_epi64((long long)a), x)));
                ap = _mm512_add_epi64(ap, _mm512_popcnt_epi64(
                                              _mm512_and_si512(_mm512_set1_epi64((long long)(a & c1[w])), x)));
            }
            _mm256_storeu_si256((__m256i *)(T + i * fp + jb), _mm512_cvtepi64_epi32(at));
            _mm256_storeu_si256((__m256i *)(P + i * fp + jb), _mm512_cvtepi64_epi32(ap));
#else
            uint32_t at[8] = {0}, ap[8] = {0};
            for (size_t w = 0; w < W; w++) {
                const uint64_t a = M[w * fp + i], b = a & c1[w], *x = M + w * fp + jb;
                for (size_t l = 0; l < 8; l++) {
                    at[l] += (uint32_t)__builtin_popcountll(a & x[l]);
                    ap[l] += (uint32_t)__builtin_popcountll(b & x[l]);
                }
            }
            memcpy(T + i * fp + jb, at, sizeof at);
            memcpy(P + i * fp + jb, ap, sizeof ap);
#endif
        }
    }
}

static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

/* Best children of every root from the pair counts, then the three optima. */
static void values_binary(d2_solver *s, size_t F, uint32_t m, uint32_t v[3])
{
    const size_t fp = s->fp;
    const uint32_t *T = s->mat, *P = s->mat + fp * fp;
    int32_t *restrict bL = s->bestL, *restrict bR = s->bestR, *restrict lL = s->leafL,
                      *restrict lR = s->leafR;
    int32_t *restrict nn = (int32_t *)s->cnt, *restrict pp = (int32_t *)s->ccnt;
    const int32_t M1 = (int32_t)s->ctot[1], mm = (int32_t)m;
    for (size_t f = 0; f < F; f++) {
        nn[f] = (int32_t)T[f * fp + f];
        pp[f] = (int32_t)P[f * fp + f];
        lR[f] = bR[f] = min32(pp[f], nn[f] - pp[f]);
        lL[f] = bL[f] = min32(M1 - pp[f], (mm - nn[f]) - (M1 - pp[f]));
    }
    for (size_t f = 0; f < F; f++) {
        const uint32_t *restrict Tf = T + f * fp, *restrict Pf = P + f * fp;
        const int32_t nf = nn[f], pf = pp[f];
        int32_t r = bR[f], l = bL[f];
        for (size_t g = f + 1; g < F; g++) {
            const int32_t t = (int32_t)Tf[g], p = (int32_t)Pf[g];
            const int32_t a = min32(p, t - p);
            const int32_t bp = pf - p, bt = nf - t, b = min32(bp, bt - bp);
            const int32_t cp = pp[g] - p, ct = nn[g] - t, c = min32(cp, ct - cp);
            const int32_t dp = M1 - pf - pp[g] + p, dt = mm - nf - nn[g] + t, dd = min32(dp, dt - dp);
            r = min32(r, a + b);
            l = min32(l, c + dd);
            bR[g] = min32(bR[g], a + c);
            bL[g] = min32(bL[g], b + dd);
        }
        bR[f] = r;
        bL[f] = l;
    }
    for (size_t f = 0; f < F; f++) {
        v[0] = (uint32_t)min32((int32_t)v[0], lL[f] + lR[f]);
        v[1] = (uint32_t)min32((int32_t)v[1], min32(lL[f] + bR[f], bL[f] + lR[f]));
        v[2] = (uint32_t)min32((int32_t)v[2], bL[f] + bR[f]);
    }
}

/* ------------------------------------------------------------ any classes, with trees */

static uint32_t popcount_and(const uint64_t *M, size_t fp, size_t i, size_t j, const uint64_t *c,
                             size_t W)
{
    uint32_t k = 0;
    for (size_t w = 0; w < W; w++) k += (uint32_t)__builtin_popcountll(M[w * fp + i] & M[w * fp + j] & c[w]);
    return k;
}

/* Per ordered pair: T = |f∧g| and the largest class count of the cells
 * f∧g (A), f∧¬g (B) and ¬f∧¬g (D); ¬f∧g is B transposed. */
static void count_cells(d2_solver *s, size_t F, size_t W)
{
    const size_t fp = s->fp, nc = s->nc;
    uint32_t *T = s->mat, *A = T + fp * fp, *B = A + fp * fp, *D = B + fp * fp;
    for (size_t c = 0; c < nc; c++)
        for (size_t f = 0; f < F; f++) s->ccnt[c * fp + f] = popcount_and(s->M, fp, f, f, s->CL + c * s->wcap, W);
    for (size_t f = 0; f < F; f++)
        for (size_t g = 0; g < F; g++) {
            uint32_t t = 0;
            for (size_t w = 0; w < W; w++) t += (uint32_t)__builtin_popcountll(s->M[w * fp + f] & s->M[w * fp + g]);
            T[f * fp + g] = t;
            A[f * fp + g] = B[f * fp + g] = D[f * fp + g] = 0;
        }
    for (size_t c = 0; c < nc; c++) {
        const uint64_t *cl = s->CL + c * s->wcap;
        uint32_t total = 0;
        for (size_t w = 0; w < W; w++) total += (uint32_t)__builtin_popcountll(cl[w]);
        for (size_t f = 0; f < F; f++)
            for (size_t g = 0; g < F; g++) {
                uint32_t q = popcount_and(s->M, fp, f, g, cl, W), fc = s->ccnt[c * fp + f];
                uint32_t gc = s->ccnt[c * fp + g], dq = total - fc - gc + q;
                size_t at = f * fp + g;
                if (q > A[at]) A[at] = q;
                if (fc - q > B[at]) B[at] = fc - q;
                if (dq > D[at]) D[at] = dq;
            }
    }
}

typedef struct d2_pick {
    uint32_t cost;
    d2_tree tree;
} d2_pick;

static void consider(d2_pick *p, uint32_t cost, uint32_t root, uint32_t l, uint32_t r)
{
    if (cost < p->cost) *p = (d2_pick){cost, {root, {l, r}}};
}

/* Best children per root with their arguments, then the three optima and trees. */
static void best_general(d2_solver *s, size_t F, uint32_t m, uint32_t leaf, d2_pick pick[3])
{
    const size_t fp = s->fp, nc = s->nc;
    const uint32_t *T = s->mat, *A = T + fp * fp, *B = A + fp * fp, *D = B + fp * fp;
    uint32_t *nn = s->cnt, *all = s->ctot;
    for (int k = 0; k < 3; k++) pick[k] = (d2_pick){leaf, {BS_NONE, {BS_NONE, BS_NONE}}};
    for (size_t f = 0; f < F; f++) {
        uint32_t maxR = 0, maxL = 0, nf = T[f * fp + f];
        nn[f] = nf;
        for (size_t c = 0; c < nc; c++) {
            uint32_t fc = s->ccnt[c * fp + f];
            if (fc > maxR) maxR = fc;
            if (all[c] - fc > maxL) maxL = all[c] - fc;
        }
        s->leafR[f] = (int32_t)(nf - maxR);
        s->leafL[f] = (int32_t)(m - nf - maxL);
    }
    for (size_t f = 0; f < F; f++) {
        uint32_t bR = (uint32_t)s->leafR[f], bL = (uint32_t)s->leafL[f], aR = BS_NONE, aL = BS_NONE;
        for (size_t g = 0; g < F; g++) {
            size_t fg = f * fp + g, gf = g * fp + f;
            uint32_t t = T[fg];
            uint32_t a = t - A[fg], b = (nn[f] - t) - B[fg], c = (nn[g] - t) - B[gf];
            uint32_t dd = (m - nn[f] - nn[g] + t) - D[fg];
            if (a + b < bR) bR = a + b, aR = s->fid[g];
            if (c + dd < bL) bL = c + dd, aL = s->fid[g];
        }
        uint32_t root = s->fid[f], lL = (uint32_t)s->leafL[f], lR = (uint32_t)s->leafR[f];
        consider(&pick[0], lL + lR, root, BS_NONE, BS_NONE);
        consider(&pick[1], lL + lR, root, BS_NONE, BS_NONE);
        consider(&pick[1], lL + bR, root, BS_NONE, aR);
        consider(&pick[1], bL + lR, root, aL, BS_NONE);
        consider(&pick[2], lL + lR, root, BS_NONE, BS_NONE);
        consider(&pick[2], lL + bR, root, BS_NONE, aR);
        consider(&pick[2], bL + lR, root, aL, BS_NONE);
        consider(&pick[2], bL + bR, root, aL, aR);
    }
}

/* ------------------------------------------------------------ entry points */

void d2_values(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t v[3])
{
    uint32_t leaf = bs_leaf(s->data, items, NULL);
    v[0] = v[1] = v[2] = leaf;
    if (leaf == 0) return;
    size_t W, F = prepare(s, items, m, &W);
    if (F == 0) return;
    if (s->nc == 2) {
        count_pairs(s, F, W);
        values_binary(s, F, m, v);
        return;
    }
    count_cells(s, F, W);
    d2_pick pick[3];
    best_general(s, F, m, leaf, pick);
    for (int k = 0; k < 3; k++) v[k] = pick[k].cost;
}

uint32_t d1_value(d2_solver *s, const uint64_t *items, uint32_t m)
{
    const bs_data *d = s->data;
    const size_t words = d->words, nc = s->nc;
    uint32_t best = bs_leaf(d, items, NULL);
    for (size_t c = 0; c < nc; c++) s->ctot[c] = pdt_bits_and_count(items, d->cls + c * words, words);
    for (size_t f = 0; f < d->nf && best > 0; f++) {
        const uint64_t *col = d->cols + f * words;
        uint32_t nf = pdt_bits_and_count(items, col, words);
        if (nf == 0 || nf == m) continue;
        uint32_t maxR = 0, maxL = 0;
        for (size_t c = 0; c < nc; c++) {
            uint32_t k = pdt_bits_and3_count(items, col, d->cls + c * words, words);
            if (k > maxR) maxR = k;
            if (s->ctot[c] - k > maxL) maxL = s->ctot[c] - k;
        }
        uint32_t cost = (nf - maxR) + (m - nf - maxL);
        if (cost < best) best = cost;
    }
    return best;
}

uint32_t d2_tree_of(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t d, uint32_t k, d2_tree *t)
{
    uint32_t leaf = bs_leaf(s->data, items, NULL);
    *t = (d2_tree){BS_NONE, {BS_NONE, BS_NONE}};
    if (leaf == 0 || d == 0 || k == 0) return leaf;
    size_t W, F = prepare(s, items, m, &W);
    if (F == 0) return leaf;
    count_cells(s, F, W);
    d2_pick pick[3];
    best_general(s, F, m, leaf, pick);
    uint32_t at = d == 1 ? 0 : (k > 3 ? 3 : k) - 1;
    *t = pick[at].tree;
    return pick[at].cost;
}
