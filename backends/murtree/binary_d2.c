/* The specialised depth-2 solver (MurTree §4.3–4.4) on bitsets.
 *
 * The items of the subproblem are first compacted: every feature column is
 * squeezed (PEXT, or its six-step replacement where PEXT is slow: binary_d2.h)
 * to the m items present, so the rest of the work scales with
 * m/64 words instead of the dataset's N/64.  Columns constant on the items
 * split nothing and are dropped; columns equal (or complementary) to an
 * earlier one split the items identically and are dropped too.  Then, per
 * pair of kept columns (f, g), the frequency counts |f∧g| and |f∧g∧class|
 * come from one AND and one POPCNT per word (binary_d2_count.c), the four
 * cells f∧g, f∧¬g, ¬f∧g, ¬f∧¬g by inclusion–exclusion (MurTree eqs. 2–5),
 * the best left and right child of every root (eqs. 7–8), and from those the
 * optima with 1, 2 and 3 branch nodes, all at once.  Inside a depth-3 node
 * the work starts from the node's compacted columns (binary_d2_context.c). */
#include <stdlib.h>
#include <string.h>
#ifdef __BMI2__
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "binary_d2.h"
#include "bitset.h"

#define MATRIX_LIMIT (UINT64_C(1) << 30) /* bytes of count matrices (10 fp² words) we agree to hold */

void *d2_alloc64(size_t bytes)
{
    bytes = (bytes + 63) / 64 * 64;
    if (!bytes) bytes = 64;
    void *p = aligned_alloc(64, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

pdt_status d2_new(d2_solver **out, const bs_data *data, pdt_error *err)
{
    *out = NULL;
    size_t fp = (data->nf + 15) / 16 * 16 + D2_PAD; /* room for whole blocks past the last column */
    if ((uint64_t)fp * fp * 4 * 10 > MATRIX_LIMIT)
        return pdt_error_set(err, PDT_ELIMIT, "%zu binary features: the depth-2 solver's pair counts "
                             "would need more than 1 GiB; use fewer features", data->nf);
    d2_solver *s = calloc(1, sizeof *s);
    if (!s) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    s->data = data;
    s->fp = fp;
    s->wcap = data->words ? data->words : 1;
    s->nc = data->nc ? data->nc : 1;
    const char *cw = getenv("PDT_BINARY_COMPACT_WORDS");
    s->compact_words = cw ? strtoul(cw, NULL, 10) : D2_COMPACT_WORDS;
#ifdef __BMI2__
    const char *px = getenv("PDT_BINARY_PEXT");
    s->pext = px && *px ? *px == '1' : d2_pext_fast();
#endif
    s->seen_cap = 16;
    while (s->seen_cap < 2 * fp) s->seen_cap *= 2;
    void **p[] = {(void **)&s->M, (void **)&s->CL, (void **)&s->fid, (void **)&s->nzw,
                  (void **)&s->nzc, (void **)&s->cnt, (void **)&s->ccnt, (void **)&s->ctot,
                  (void **)&s->leafL, (void **)&s->leafR, (void **)&s->bestL, (void **)&s->bestR,
                  (void **)&s->seen, (void **)&s->seen_col, (void **)&s->mask, (void **)&s->keep,
                  (void **)&s->nzm};
    size_t bytes[] = {s->wcap * fp * 8, s->nc * s->wcap * 8, fp * 4, s->wcap * 4, s->wcap * 4, fp * 4,
                      s->nc * fp * 4, s->nc * 4, fp * 4, fp * 4, fp * 4, fp * 4, s->seen_cap * 8,
                      s->seen_cap * 4, s->wcap * 8, fp * 4, s->wcap * D2_MOVES * 8};
    bool ok = true;
    for (size_t k = 0; k < sizeof p / sizeof *p; k++) ok = (*p[k] = d2_alloc64(bytes[k])) && ok;
    uint32_t **mats[] = {&s->mat, &s->work[0].T, &s->work[0].P, &s->work[1].T, &s->work[1].P};
    for (size_t k = 0; k < sizeof mats / sizeof *mats; k++)
        ok = (*mats[k] = d2_alloc64((k ? 1 : 4) * fp * fp * sizeof **mats[k])) && ok;
    if (!ok) {
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
    void *p[] = {s->M, s->CL, s->fid, s->nzw, s->nzc, s->cnt, s->ccnt, s->ctot, s->mat,
                 s->leafL, s->leafR, s->bestL, s->bestR, s->seen, s->seen_col, s->mask, s->keep, s->nzm,
                 s->work[0].T, s->work[0].P, s->work[1].T, s->work[1].P};
    for (size_t k = 0; k < sizeof p / sizeof *p; k++) free(p[k]);
    for (size_t k = 0; k < D2_SLOTS; k++) d2_context_free(&s->ctx[k]);
    free(s);
    *sp = NULL;
}

/* ------------------------------------------------------------ compaction */

bool d2_pext_fast_on(const char vendor[12], uint32_t signature)
{
    const bool amd = !memcmp(vendor, "AuthenticAMD", 12) || !memcmp(vendor, "HygonGenuine", 12);
    if (!amd) return true;
    unsigned family = (signature >> 8) & 0xf;
    if (family == 0xf) family += (signature >> 20) & 0xff;
    return family >= 0x19; /* Zen 3 */
}

bool d2_pext_fast(void)
{
#if defined(__BMI2__) && defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return false;
    char vendor[12]; /* ebx, edx, ecx */
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    return d2_pext_fast_on(vendor, a);
#else
    return false;
#endif
}

static inline uint32_t squeeze(const d2_solver *s, uint64_t *out, size_t stride, const uint64_t *col,
                               const uint64_t *items, size_t n_nz, bool pext)
{
    uint64_t acc = 0;
    unsigned fill = 0;
    size_t w = 0;
    uint32_t ones = 0;
    for (size_t t = 0; t < n_nz; t++) {
        size_t k = s->nzw[t];
        uint64_t v;
#ifdef __BMI2__
        if (pext)
            v = _pext_u64(col[k], items[k]);
        else
#endif
            v = d2_compress(col[k], items[k], s->nzm + t * D2_MOVES);
        unsigned c = s->nzc[t];
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

uint32_t d2_squeeze(const d2_solver *s, uint64_t *out, size_t stride, const uint64_t *col,
                    const uint64_t *items, size_t n_nz)
{
    return s->pext ? squeeze(s, out, stride, col, items, n_nz, true)
                   : squeeze(s, out, stride, col, items, n_nz, false);
}

size_t d2_nonzero(d2_solver *s, const uint64_t *items, size_t words)
{
    size_t n = 0;
    for (size_t k = 0; k < words; k++)
        if (items[k]) {
            s->nzw[n] = (uint32_t)k;
            s->nzc[n] = (uint32_t)__builtin_popcountll(items[k]);
            if (!s->pext) d2_compress_masks(items[k], s->nzm + n * D2_MOVES);
            n++;
        }
    return n;
}

/* The kept column equal (or complementary: canonical form has the first
 * item's bit clear) to column j, or j itself when it is new. */
static uint32_t same_as(d2_solver *s, size_t j, size_t W, uint64_t tail)
{
    const size_t fp = s->fp, mask = s->seen_cap - 1;
    const uint64_t flip = (s->M[j] & 1) ? ~UINT64_C(0) : 0;
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t w = 0; w < W; w++) h = (h ^ (s->M[w * fp + j] ^ flip)) * UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 29;
    h |= 1; /* 0 marks a free slot */
    for (size_t p = (size_t)h & mask;; p = (p + 1) & mask) {
        if (!s->seen[p]) {
            s->seen[p] = h;
            s->seen_col[p] = (uint32_t)j;
            return (uint32_t)j;
        }
        if (s->seen[p] != h) continue;
        size_t i = s->seen_col[p];
        uint64_t x = ((s->M[i] & 1) ? ~UINT64_C(0) : 0) ^ flip;
        bool same = true;
        for (size_t w = 0; w < W && same; w++) {
            uint64_t m = w + 1 == W ? tail : ~UINT64_C(0);
            same = ((s->M[w * fp + i] ^ s->M[w * fp + j] ^ x) & m) == 0;
        }
        if (same) return (uint32_t)i | (x ? D2_FLIP : 0);
    }
}

size_t d2_prepare(d2_solver *s, const uint64_t *items, uint32_t m, size_t *W, uint32_t *code)
{
    const bs_data *d = s->data;
    const size_t fp = s->fp, words = d->words, n_nz = d2_nonzero(s, items, words);
    *W = (m + 63) / 64;
    const uint64_t tail = (m & 63) ? (UINT64_C(1) << (m & 63)) - 1 : ~UINT64_C(0);
    for (size_t c = 0; c < s->nc; c++) {
        memset(s->CL + c * s->wcap, 0, *W * sizeof *s->CL);
        s->ctot[c] = d2_squeeze(s, s->CL + c * s->wcap, 1, d->cls + c * words, items, n_nz);
    }
    memset(s->seen, 0, s->seen_cap * sizeof *s->seen);
    size_t F = 0;
    for (size_t f = 0; f < d->nf; f++) {
        for (size_t w = 0; w < *W; w++) s->M[w * fp + F] = 0;
        uint32_t ones = d2_squeeze(s, s->M + F, fp, d->cols + f * words, items, n_nz);
        uint32_t at = ones == 0 || ones == m ? D2_CONST : same_as(s, F, *W, tail);
        if (code) code[f] = at;
        if (at != F) continue;
        s->cnt[F] = ones;
        s->fid[F++] = (uint32_t)f;
    }
    for (size_t j = F; j < fp && j < F + D2_PAD; j++) /* the kernels read whole blocks past F */
        for (size_t w = 0; w < *W; w++) s->M[w * fp + j] = 0;
    return F;
}

/* ------------------------------------------------------------ entry points */

void d2_set_seed(d2_solver *s, d2_seed_fn fn, void *user)
{
    s->seed = fn;
    s->seed_user = user;
}

void d2_values(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t v[3])
{
    if (s->seed && s->seed(s->seed_user, items, m, v)) return;
    d2_values_solve(s, items, m, v);
}

void d2_values_solve(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t v[3])
{
    uint32_t leaf = bs_leaf(s->data, items, NULL);
    v[0] = v[1] = v[2] = leaf;
    if (leaf == 0) return;
    size_t W, F = d2_prepare(s, items, m, &W, NULL);
    if (F == 0) return;
    if (s->nc == 2) {
        d2_count_pairs(s, s->M, s->CL + s->wcap, F, W, &s->work[0]);
        s->work[0].m = m, s->work[0].ones = s->ctot[1];
        d2_values_binary(s, &s->work[0], F, v);
        s->last_gen = 0; /* work[0] no longer holds a context child */
        return;
    }
    d2_values_multi(s, F, W, m, v);
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
    size_t W, F = d2_prepare(s, items, m, &W, NULL);
    if (F == 0) return leaf;
    d2_count_cells(s, F, W);
    d2_pick pick[3];
    d2_best_general(s, F, m, leaf, pick);
    uint32_t at = d == 1 ? 0 : (k > 3 ? 3 : k) - 1;
    *t = pick[at].tree;
    return pick[at].cost;
}
