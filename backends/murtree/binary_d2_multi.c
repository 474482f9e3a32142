/* The depth-2 solver's optima for more than two classes, one root at a time.
 *
 * A cell's leaf misclassifies its items minus its largest class.  For root f
 * and every class c, the row of counts Q(g) = |f ∧ g ∧ c| (g > f) comes from
 * the pair kernel with f's items of class c as the mask; the class's count in
 * each cell follows as for two classes,
 *   f∧g: Q   f∧¬g: F_c(f) − Q   ¬f∧g: F_c(g) − Q   ¬f∧¬g: N_c − F_c(f) − F_c(g) + Q,
 * and is folded into the row's running maximum of that cell.  The cells then
 * cost T − max (T = Σ_c Q), and each pair (f, g) updates root f's best
 * children and root g's, as in the two-class loop.  Everything lives in rows
 * of F counts (in L1), whatever F and the number of classes. */
#include <string.h>
#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
#include <immintrin.h>
#define D2_AVX512 1
#endif

#include "binary_d2.h"

enum { L = 16 };

static inline uint32_t max32(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

/* out[g] = Σ_w popcount(a[w] & M[w][g]) for g in [from, to), blocks of 8. */
static void row_counts(const d2_solver *s, const uint64_t *a, size_t W, size_t from, size_t to,
                       uint32_t *out)
{
    const size_t fp = s->fp;
    const uint64_t *M = s->M;
    for (size_t jb = from; jb < to; jb += 8) {
#ifdef D2_AVX512
        __m512i acc = _mm512_setzero_si512();
        for (size_t w = 0; w < W; w++) {
            __m512i x = _mm512_load_si512((const void *)(M + w * fp + jb));
            acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(_mm512_and_si512(_mm512_set1_epi64((long long)a[w]), x)));
        }
        _mm256_storeu_si256((__m256i *)(out + jb), _mm512_cvtepi64_epi32(acc));
#else
        uint32_t acc[8] = {0};
        for (size_t w = 0; w < W; w++)
            for (size_t l = 0; l < 8; l++) acc[l] += (uint32_t)__builtin_popcountll(a[w] & M[w * fp + jb + l]);
        memcpy(out + jb, acc, sizeof acc);
#endif
    }
}

typedef struct multi_rows {
    uint32_t *q, *t, *a, *b, *bt, *d; /* fp each: one class's counts, then T and the cell maxima */
} multi_rows;

/* Root f's row: T and the largest class count of every cell, for g in
 * [from, to), a multiple of 16 long. */
static void fill_row(d2_solver *s, const multi_rows *r, size_t f, size_t W, size_t from, size_t to)
{
    const size_t fp = s->fp;
    for (size_t c = 0; c < s->nc; c++) {
        const uint64_t *cl = s->CL + c * s->wcap;
        const uint32_t *Fc = s->ccnt + c * fp, ff = Fc[f], Nc = s->ctot[c];
        for (size_t w = 0; w < W; w++) s->mask[w] = s->M[w * fp + f] & cl[w];
        row_counts(s, s->mask, W, from, to, r->q);
#ifdef D2_AVX512
        const __m512i vff = _mm512_set1_epi32((int)ff), vk = _mm512_set1_epi32((int)(Nc - ff));
        for (size_t g = from; g < to; g += L) {
            const __m512i x = _mm512_loadu_si512(r->q + g), fg = _mm512_loadu_si512(Fc + g);
            const __m512i y = _mm512_sub_epi32(vff, x), z = _mm512_sub_epi32(fg, x);
            const __m512i u = _mm512_add_epi32(_mm512_sub_epi32(vk, fg), x);
            if (c == 0) {
                _mm512_storeu_si512(r->t + g, x);
                _mm512_storeu_si512(r->a + g, x);
                _mm512_storeu_si512(r->b + g, y);
                _mm512_storeu_si512(r->bt + g, z);
                _mm512_storeu_si512(r->d + g, u);
                continue;
            }
            _mm512_storeu_si512(r->t + g, _mm512_add_epi32(_mm512_loadu_si512(r->t + g), x));
            _mm512_storeu_si512(r->a + g, _mm512_max_epu32(_mm512_loadu_si512(r->a + g), x));
            _mm512_storeu_si512(r->b + g, _mm512_max_epu32(_mm512_loadu_si512(r->b + g), y));
            _mm512_storeu_si512(r->bt + g, _mm512_max_epu32(_mm512_loadu_si512(r->bt + g), z));
            _mm512_storeu_si512(r->d + g, _mm512_max_epu32(_mm512_loadu_si512(r->d + g), u));
        }
#else
        uint32_t *restrict q = r->q, *restrict t = r->t, *restrict a = r->a, *restrict b = r->b,
                 *restrict bt = r->bt, *restrict d = r->d;
        for (size_t g = from; g < to; g++) {
            const uint32_t x = q[g], y = ff - x, z = Fc[g] - x, u = Nc - ff - Fc[g] + x;
            t[g] = c ? t[g] + x : x;
            a[g] = c ? max32(a[g], x) : x;
            b[g] = c ? max32(b[g], y) : y;
            bt[g] = c ? max32(bt[g], z) : z;
            d[g] = c ? max32(d[g], u) : u;
        }
#endif
    }
}

/* Root f against every g > f: its best children, and g's (blocks of 16). */
static void update_row(d2_solver *s, const multi_rows *r, size_t f, size_t F, int32_t mm)
{
    int32_t *restrict bL = s->bestL, *restrict bR = s->bestR, *restrict nn = (int32_t *)s->cnt;
    const int32_t nf = nn[f];
#ifdef D2_AVX512
    const __m512i vnf = _mm512_set1_epi32(nf), vk = _mm512_set1_epi32(mm - nf);
    __m512i rv = _mm512_set1_epi32(bR[f]), lv = _mm512_set1_epi32(bL[f]);
    for (size_t g = f + 1; g < F; g += L) {
        const __m512i t = _mm512_loadu_si512(r->t + g), ng = _mm512_loadu_si512(nn + g);
        const __m512i a = _mm512_sub_epi32(t, _mm512_loadu_si512(r->a + g));
        const __m512i b = _mm512_sub_epi32(_mm512_sub_epi32(vnf, t), _mm512_loadu_si512(r->b + g));
        const __m512i c = _mm512_sub_epi32(_mm512_sub_epi32(ng, t), _mm512_loadu_si512(r->bt + g));
        const __m512i dd = _mm512_sub_epi32(_mm512_add_epi32(_mm512_sub_epi32(vk, ng), t),
                                            _mm512_loadu_si512(r->d + g));
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
            const int32_t t = (int32_t)r->t[g];
            const int32_t a = t - (int32_t)r->a[g], b = (nf - t) - (int32_t)r->b[g];
            const int32_t c = (nn[g] - t) - (int32_t)r->bt[g];
            const int32_t dd = (mm - nf - nn[g] + t) - (int32_t)r->d[g];
            rv[k] = min32(rv[k], a + b);
            lv[k] = min32(lv[k], c + dd);
            bR[g] = min32(bR[g], a + c);
            bL[g] = min32(bL[g], b + dd);
        }
    int32_t best_r = rv[0], best_l = lv[0];
    for (int k = 1; k < L; k++) best_r = min32(best_r, rv[k]), best_l = min32(best_l, lv[k]);
    bR[f] = best_r;
    bL[f] = best_l;
#endif
}

void d2_values_multi(d2_solver *s, size_t F, size_t W, uint32_t m, uint32_t v[3])
{
    const size_t fp = s->fp, nc = s->nc;
    int32_t *bL = s->bestL, *bR = s->bestR, *lL = s->leafL, *lR = s->leafR, *nn = (int32_t *)s->cnt;
    /* six rows of the scalar path's matrix */
    multi_rows r = {s->mat, s->mat + fp, s->mat + 2 * fp, s->mat + 3 * fp, s->mat + 4 * fp, s->mat + 5 * fp};
    for (size_t g = 0; g < F + D2_PAD; g++) nn[g] = 0;
    for (size_t c = 0; c < nc; c++) { /* single counts: the diagonal of each class */
        uint32_t *Fc = s->ccnt + c * fp;
        for (size_t g = 0; g < F; g++) {
            uint32_t k = 0;
            for (size_t w = 0; w < W; w++) k += (uint32_t)__builtin_popcountll(s->M[w * fp + g] & s->CL[c * s->wcap + w]);
            Fc[g] = k;
            nn[g] += (int32_t)k;
        }
        for (size_t g = F; g < F + D2_PAD; g++) Fc[g] = 0;
    }
    for (size_t f = 0; f < F; f++) {
        uint32_t right = 0, left = 0;
        for (size_t c = 0; c < nc; c++) {
            right = max32(right, s->ccnt[c * fp + f]);
            left = max32(left, s->ctot[c] - s->ccnt[c * fp + f]);
        }
        lR[f] = bR[f] = nn[f] - (int32_t)right;
        lL[f] = bL[f] = ((int32_t)m - nn[f]) - (int32_t)left;
    }
    for (size_t g = F; g < F + D2_PAD; g++) bR[g] = bL[g] = 0;
    for (size_t f = 0; f + 1 < F; f++) {
        /* the update reads [f + 1, end); the kernel's blocks start at a multiple of 8 */
        const size_t end = f + 1 + (F - f - 1 + L - 1) / L * L, from = (f + 1) & ~(size_t)7;
        fill_row(s, &r, f, W, from, from + (end - from + L - 1) / L * L);
        update_row(s, &r, f, F, (int32_t)m);
    }
    for (size_t f = 0; f < F; f++) {
        v[0] = (uint32_t)min32((int32_t)v[0], lL[f] + lR[f]);
        v[1] = (uint32_t)min32((int32_t)v[1], min32(lL[f] + bR[f], bL[f] + lR[f]));
        v[2] = (uint32_t)min32((int32_t)v[2], bL[f] + bR[f]);
    }
}
