/* The depth-2 solver's arithmetic on compacted columns: frequency counts of
 * feature pairs, and the optima with 1, 2 and 3 branch nodes from them.
 *
 * Two classes (the fast path): per pair (f, g), T = |f∧g| and P = |f∧g∧class 1|
 * come from AND + POPCNT, eight pairs per AVX-512 instruction; with the single
 * counts n_f = T[f][f], p_f = P[f][f] and the totals m, P1 the four cells are
 *   f∧g: (T, P)   f∧¬g: (n_f − T, p_f − P)   ¬f∧g: (n_g − T, p_g − P)
 *   ¬f∧¬g: (m − n_f − n_g + T, P1 − p_f − p_g + P)
 * (items, class-1 items), each misclassifying min(class 1, class 0).  A pair
 * serves four subtrees at once: root f with g in its right or left child, and
 * root g with f in its right or left child (MurTree §4.4.2).
 *
 * Any number of classes (and rebuilding a tree, which needs the arguments of
 * the minima): a scalar path keeping, per ordered pair, the largest class
 * count of every cell. */
#include <string.h>
#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
#include <immintrin.h>
#define D2_AVX512 1
#endif

#include "binary_d2.h"

/* ------------------------------------------------------------ two classes */

void d2_count_pairs(const d2_solver *s, const uint64_t *M, const uint64_t *c1, size_t F, size_t W,
                    d2_counts *out)
{
    const size_t fp = s->fp;
    uint32_t *T = out->T, *P = out->P;
#ifdef D2_AVX512
    if (W <= 8) { /* the usual case: row i's words broadcast once, kept in registers */
        __m512i va[8], vb[8];
        for (size_t i = 0; i < F; i++) {
            for (size_t w = 0; w < W; w++) {
                uint64_t a = M[w * fp + i];
                va[w] = _mm512_set1_epi64((long long)a);
                vb[w] = _mm512_set1_epi64((long long)(a & c1[w]));
            }
            for (size_t jb = i & ~(size_t)7; jb < F; jb += 8) {
                __m512i at = _mm512_setzero_si512(), ap = _mm512_setzero_si512();
                for (size_t w = 0; w < W; w++) {
                    __m512i x = _mm512_load_si512((const void *)(M + w * fp + jb));
                    at = _mm512_add_epi64(at, _mm512_popcnt_epi64(_mm512_and_si512(va[w], x)));
                    ap = _mm512_add_epi64(ap, _mm512_popcnt_epi64(_mm512_and_si512(vb[w], x)));
                }
                _mm256_storeu_si256((__m256i *)(T + i * fp + jb), _mm512_cvtepi64_epi32(at));
                _mm256_storeu_si256((__m256i *)(P + i * fp + jb), _mm512_cvtepi64_epi32(ap));
            }
        }
        return;
    }
#endif
    for (size_t i = 0; i < F; i++) {
        for (size_t jb = i & ~(size_t)7; jb < F; jb += 8) {
#ifdef D2_AVX512
            __m512i at = _mm512_setzero_si512(), ap = _mm512_setzero_si512();
            for (size_t w = 0; w < W; w++) {
                __m512i x = _mm512_load_si512((const void *)(M + w * fp + jb));
                uint64_t a = M[w * fp + i];
                __m512i va = _mm512_set1_epi64((long long)a), vb = _mm512_set1_epi64((long long)(a & c1[w]));
                at = _mm512_add_epi64(at, _mm512_popcnt_epi64(_mm512_and_si512(va, x)));
                ap = _mm512_add_epi64(ap, _mm512_popcnt_epi64(_mm512_and_si512(vb, x)));
            }
            _mm256_storeu_si256((__m256i *)(T + i * fp + jb), _mm512_cvtepi64_epi32(at));
            _mm256_storeu_si256((__m256i *)(P + i * fp + jb), _mm512_cvtepi64_epi32(ap));
#else
            /* four lanes at a time: eight counters, the row's words and the
             * pointer fit the general registers (eight lanes spilled them,
             * and the stores of the counters stalled the copy out) */
            for (size_t jq = jb; jq < jb + 8; jq += 4) {
                uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, p0 = 0, p1 = 0, p2 = 0, p3 = 0;
                for (size_t w = 0; w < W; w++) {
                    const uint64_t a = M[w * fp + i], b = a & c1[w], *x = M + w * fp + jq;
                    t0 += (uint64_t)__builtin_popcountll(a & x[0]);
                    t1 += (uint64_t)__builtin_popcountll(a & x[1]);
                    t2 += (uint64_t)__builtin_popcountll(a & x[2]);
                    t3 += (uint64_t)__builtin_popcountll(a & x[3]);
                    p0 += (uint64_t)__builtin_popcountll(b & x[0]);
                    p1 += (uint64_t)__builtin_popcountll(b & x[1]);
                    p2 += (uint64_t)__builtin_popcountll(b & x[2]);
                    p3 += (uint64_t)__builtin_popcountll(b & x[3]);
                }
                uint32_t *to = T + i * fp + jq, *po = P + i * fp + jq;
                to[0] = (uint32_t)t0, to[1] = (uint32_t)t1, to[2] = (uint32_t)t2, to[3] = (uint32_t)t3;
                po[0] = (uint32_t)p0, po[1] = (uint32_t)p1, po[2] = (uint32_t)p2, po[3] = (uint32_t)p3;
            }
#endif
        }
    }
}

void d2_count_diff(const d2_solver *s, size_t F, const d2_counts *a, const d2_counts *b, d2_counts *out)
{
    const size_t fp = s->fp, end = (F + 7) & ~(size_t)7;
    for (size_t i = 0; i < F; i++) {
        const size_t at = i * fp, from = i & ~(size_t)7;
        const uint32_t *restrict aT = a->T + at, *restrict bT = b->T + at, *restrict aP = a->P + at,
                                 *restrict bP = b->P + at;
        uint32_t *restrict oT = out->T + at, *restrict oP = out->P + at;
        for (size_t j = from; j < end; j++) {
            oT[j] = aT[j] - bT[j];
            oP[j] = aP[j] - bP[j];
        }
    }
    out->m = a->m - b->m;
    out->ones = a->ones - b->ones;
}

static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

/* Row f's pairs (f, g > f) in whole blocks of 16 lanes: entries past the last
 * column hold zero counts, i.e. an empty feature, whose splits cost exactly the
 * leaves and so change no minimum. */
void d2_values_binary(d2_solver *s, const d2_counts *cn, size_t F, uint32_t v[3])
{
    enum { L = 16 };
    const size_t fp = s->fp;
    uint32_t *T = cn->T, *P = cn->P;
    int32_t *restrict bL = s->bestL, *restrict bR = s->bestR, *restrict lL = s->leafL,
                      *restrict lR = s->leafR;
    int32_t *restrict nn = (int32_t *)s->cnt, *restrict pp = (int32_t *)s->ccnt;
    const int32_t M1 = (int32_t)cn->ones, mm = (int32_t)cn->m;
    for (size_t f = 0; f < F; f++) {
        nn[f] = (int32_t)T[f * fp + f];
        pp[f] = (int32_t)P[f * fp + f];
        lR[f] = bR[f] = min32(pp[f], nn[f] - pp[f]);
        lL[f] = bL[f] = min32(M1 - pp[f], (mm - nn[f]) - (M1 - pp[f]));
        size_t pad = (F + 7) & ~(size_t)7; /* the kernels wrote up to here */
        memset(T + f * fp + pad, 0, (F + L - pad) * sizeof *T);
        memset(P + f * fp + pad, 0, (F + L - pad) * sizeof *P);
    }
    for (size_t g = F; g < F + L; g++) nn[g] = pp[g] = bR[g] = bL[g] = 0;
    for (size_t f = 0; f < F; f++) {
        const uint32_t *restrict Tf = T + f * fp, *restrict Pf = P + f * fp;
        const int32_t nf = nn[f], pf = pp[f];
#ifdef D2_AVX512
        const __m512i vnf = _mm512_set1_epi32(nf), vpf = _mm512_set1_epi32(pf);
        const __m512i kp = _mm512_set1_epi32(M1 - pf), kt = _mm512_set1_epi32(mm - nf);
        __m512i rv = _mm512_set1_epi32(bR[f]), lv = _mm512_set1_epi32(bL[f]);
        for (size_t g = f + 1; g < F; g += L) {
            const __m512i t = _mm512_loadu_si512(Tf + g), p = _mm512_loadu_si512(Pf + g);
            const __m512i ng = _mm512_loadu_si512(nn + g), pg = _mm512_loadu_si512(pp + g);
            const __m512i a = _mm512_min_epi32(p, _mm512_sub_epi32(t, p));
            const __m512i bp = _mm512_sub_epi32(vpf, p), bt = _mm512_sub_epi32(vnf, t);
            const __m512i b = _mm512_min_epi32(bp, _mm512_sub_epi32(bt, bp));
            const __m512i cp = _mm512_sub_epi32(pg, p), ct = _mm512_sub_epi32(ng, t);
            const __m512i c = _mm512_min_epi32(cp, _mm512_sub_epi32(ct, cp));
            const __m512i dp = _mm512_add_epi32(_mm512_sub_epi32(kp, pg), p);
            const __m512i dt = _mm512_add_epi32(_mm512_sub_epi32(kt, ng), t);
            const __m512i dd = _mm512_min_epi32(dp, _mm512_sub_epi32(dt, dp));
            rv = _mm512_min_epi32(rv, _mm512_add_epi32(a, b));
            lv = _mm512_min_epi32(lv, _mm512_add_epi32(c, dd));
            _mm512_storeu_si512(bR + g, _mm512_min_epi32(_mm512_loadu_si512(bR + g), _mm512_add_epi32(a, c)));
            _mm512_storeu_si512(bL + g, _mm512_min_epi32(_mm512_loadu_si512(bL + g), _mm512_add_epi32(b, dd)));
        }
        bR[f] = _mm512_reduce_min_epi32(rv);
        bL[f] = _mm512_reduce_min_epi32(lv);
#else
        int32_t rv[L], lv[L];
        for (int k = 0; k < L; k++) rv[k] = bR[f], lv[k] = bL[f];
        for (size_t g0 = f + 1; g0 < F; g0 += L)
            for (int k = 0; k < L; k++) {
                const size_t g = g0 + (size_t)k;
                const int32_t t = (int32_t)Tf[g], p = (int32_t)Pf[g];
                const int32_t a = min32(p, t - p);
                const int32_t bp = pf - p, bt = nf - t, b = min32(bp, bt - bp);
                const int32_t cp = pp[g] - p, ct = nn[g] - t, c = min32(cp, ct - cp);
                const int32_t dp = M1 - pf - pp[g] + p, dt = mm - nf - nn[g] + t, dd = min32(dp, dt - dp);
                rv[k] = min32(rv[k], a + b);
                lv[k] = min32(lv[k], c + dd);
                bR[g] = min32(bR[g], a + c);
                bL[g] = min32(bL[g], b + dd);
            }
        int32_t r = rv[0], l = lv[0];
        for (int k = 1; k < L; k++) r = min32(r, rv[k]), l = min32(l, lv[k]);
        bR[f] = r;
        bL[f] = l;
#endif
    }
    for (size_t f = 0; f < F; f++) {
        v[0] = (uint32_t)min32((int32_t)v[0], lL[f] + lR[f]);
        v[1] = (uint32_t)min32((int32_t)v[1], min32(lL[f] + bR[f], bL[f] + lR[f]));
        v[2] = (uint32_t)min32((int32_t)v[2], bL[f] + bR[f]);
    }
}

/* ------------------------------------------------------------ any classes, with trees */

/* Per ordered pair: T = |f∧g| and the largest class count of the cells f∧g
 * (A), f∧¬g (B) and ¬f∧¬g (D); ¬f∧g is B transposed.  The class counts come
 * from the pair kernel, one class at a time. */
void d2_count_cells(d2_solver *s, size_t F, size_t W)
{
    const size_t fp = s->fp;
    uint32_t *T = s->mat, *A = T + fp * fp, *B = A + fp * fp, *D = B + fp * fp;
    d2_counts *q = &s->work[0];
    for (size_t c = 0; c < s->nc; c++) {
        d2_count_pairs(s, s->M, s->CL + c * s->wcap, F, W, q); /* q->T = |f∧g|, q->P = |f∧g∧c| */
        uint32_t *Fc = s->ccnt + c * fp, Nc = s->ctot[c];
        for (size_t f = 0; f < F; f++) Fc[f] = q->P[f * fp + f];
        for (size_t f = 0; f < F; f++)
            for (size_t g = 0; g < F; g++) {
                const size_t at = f * fp + g, tri = f <= g ? at : g * fp + f;
                const uint32_t x = q->P[tri], y = Fc[f] - x, u = Nc - Fc[f] - Fc[g] + x;
                if (c == 0) {
                    T[at] = q->T[tri];
                    A[at] = x, B[at] = y, D[at] = u;
                } else {
                    A[at] = x > A[at] ? x : A[at];
                    B[at] = y > B[at] ? y : B[at];
                    D[at] = u > D[at] ? u : D[at];
                }
            }
    }
    s->last_gen = 0; /* work[0] is overwritten */
}

static void consider(d2_pick *p, uint32_t cost, uint32_t root, uint32_t l, uint32_t r)
{
    if (cost < p->cost) *p = (d2_pick){cost, {root, {l, r}}};
}

/* Best children per root with their arguments (a child split only when it
 * beats the child's leaf), then the three optima and their trees. */
void d2_best_general(d2_solver *s, size_t F, uint32_t m, uint32_t leaf, d2_pick pick[3])
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
        for (int k = 0; k < 3; k++) consider(&pick[k], lL + lR, root, BS_NONE, BS_NONE);
        for (int k = 1; k < 3; k++) {
            consider(&pick[k], lL + bR, root, BS_NONE, aR);
            consider(&pick[k], bL + lR, root, aL, BS_NONE);
        }
        consider(&pick[2], bL + bR, root, aL, aR);
    }
}
