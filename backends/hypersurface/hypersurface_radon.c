/* Radon certificates: a lower bound on the cost of every split of a region.
 *
 * G + 2 points lifted to R^G (rows v_i with a homogeneous 1, so G + 1
 * columns) have an affine dependency Σ λ_i v_i = 0, and by Cramer's rule
 * λ_i = (−1)^i · det(the rows without row i).  Each of those determinants is
 * an orientation the tuple table already holds: the first G of the remaining
 * points form a tuple, the last is a row on its negative side (base bit set)
 * or its positive side.  When every λ_i is nonzero, the points with λ_i > 0
 * (P+) and those with λ_i < 0 (P−) cannot be separated by any rule of the
 * family, not even one through some of them that sends each point where its
 * assignment says: with f the rule's affine function, f ≤ 0 on P+ and f ≥ 0
 * on P− give 0 ≥ Σ_{P+} λ_i f(v_i) = Σ_{P−} −λ_i f(v_i) ≥ 0, so f vanishes on
 * all G + 2 points; but a nonzero G + 1 minor says they span R^G, and no
 * hypersurface contains them.  So when P+ holds one class and P− another, a
 * split (two leaves) errs on at least one of the G + 2 points, whatever rule
 * and labels it has; a single leaf errs on at least two.  Certificates with
 * no point in common add up: a region holding k disjoint ones costs at least
 * k (their least class weights, with weights) under any split — the bound
 * the K = 2 search uses before it searches a child region.
 *
 * Which certificates are known changes only the work: each is checked
 * exactly (orientations from the table; a tuple with rows on its surface is
 * skipped), so any subset gives a valid bound.  Small data sets are
 * enumerated whole (every (G + 2)-subset); larger ones sampled in blocks of
 * fixed seeds (on threads), so a fit does the same work on every run and for
 * any number of threads. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "hypersurface_solve_impl.h"
#include "pdt_parallel.h"

#define CERT_MAX 16384u                   /* certificates kept */
#define CERT_ENUMERATE (UINT64_C(1) << 21) /* subsets enumerated whole up to this many */
#define CERT_SAMPLES (UINT64_C(1) << 22)   /* else subsets sampled, */
#define CERT_BLOCKS 64u                    /* in blocks of fixed seeds */

/* Whether the sorted G + 2 rows p are a certificate: the signs of λ split
 * them into two groups of one class each, different classes. */
static bool certificate(const hss *h, const uint32_t *p)
{
    const size_t k = h->G + 2;
    uint32_t s[HS_MAX_LIFTED + 2];
    int64_t cls[2] = {-1, -1};
    bool mixed = false; /* one class only: no certificate, and no table read */
    for (size_t i = 1; i < k; i++) mixed |= h->label[p[i]] != h->label[p[0]];
    if (!mixed) return false;
    /* The k orientations' table entries, asked for before any is read: the
     * reads fall anywhere in the table (megabytes), and issued together
     * they overlap instead of waiting one after another. */
    uint64_t rank[HS_MAX_LIFTED + 2];
    uint32_t row[HS_MAX_LIFTED + 2];
    for (size_t i = 0; i < k; i++) {
        size_t m = 0;
        for (size_t j = 0; j < k; j++)
            if (j != i) s[m++] = p[j];
        rank[i] = hss_colex_rank(h, s);
        row[i] = s[h->G];
        __builtin_prefetch(h->kind + rank[i]);
        __builtin_prefetch(h->base + rank[i] * h->words + row[i] / 64);
    }
    for (size_t i = 0; i < k; i++) {
        if (h->kind[rank[i]] != 1) return false; /* dependent, or rows on its surface */
        int o = pdt_bit_get(h->base + rank[i] * h->words, row[i]) ? -1 : 1;
        int side = (o > 0) == (i % 2 == 0); /* sign of λ_i = (−1)^i · o */
        int64_t c = h->label[p[i]];
        if (cls[side] == -1) cls[side] = c;
        else if (cls[side] != c) return false;
    }
    return cls[0] >= 0 && cls[1] >= 0 && cls[0] != cls[1];
}

static pdt_status keep(hss *h, const uint32_t *p, pdt_error *err)
{
    if (h->n_cert == h->cap_cert) {
        size_t cap = h->cap_cert ? 2 * h->cap_cert : 256;
        uint64_t *c = realloc(h->cert, cap * h->words * sizeof *c);
        int64_t *w = c ? realloc(h->cert_w, cap * sizeof *w) : NULL;
        if (c) h->cert = c;
        if (!c || !w) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
        h->cert_w = w;
        h->cap_cert = cap;
    }
    uint64_t *bits = h->cert + h->n_cert * h->words;
    int64_t w = INT64_MAX;
    pdt_bits_clear(bits, h->words);
    for (size_t i = 0; i < h->G + 2; i++) {
        pdt_bit_set(bits, p[i]);
        int64_t wi = h->ci.weight[h->label[p[i]]];
        if (wi < w) w = wi;
    }
    h->cert_w[h->n_cert++] = w;
    return PDT_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A random (G + 2)-subset, sorted (xorshift64: the same subsets every run). */
static void sample(const hss *h, uint64_t *state, uint32_t *p)
{
    size_t k = 0;
    while (k < h->G + 2) {
        uint64_t x = *state;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        *state = x;
        uint32_t r = (uint32_t)(x % h->n);
        bool dup = false;
        for (size_t j = 0; j < k; j++) dup |= p[j] == r;
        if (!dup) p[k++] = r;
    }
    for (size_t i = 1; i < k; i++) /* a handful of rows: insertion sort */
        for (size_t j = i; j > 0 && p[j - 1] > p[j]; j--) {
            uint32_t x = p[j];
            p[j] = p[j - 1], p[j - 1] = x;
        }
}

/* Certificates whose points are rarest first: a greedy packing then leaves
 * room for more of them. */
static void order_by_rarity(hss *h)
{
    const size_t words = h->words, n = h->n_cert;
    if (n == 0) return; /* h->cert is NULL */
    uint32_t *deg = calloc(h->n + 1, sizeof *deg);
    uint64_t *key = malloc((n + 1) * sizeof *key);
    uint64_t *bits = malloc((n * words + 1) * sizeof *bits);
    int64_t *w = malloc((n + 1) * sizeof *w);
    if (!deg || !key || !bits || !w) goto out; /* the order is only a heuristic */
    for (size_t c = 0; c < n; c++)
        for (size_t i = 0; i < h->n; i++) deg[i] += pdt_bit_get(h->cert + c * words, i);
    for (size_t c = 0; c < n; c++) {
        uint64_t sum = 0;
        for (size_t i = 0; i < h->n; i++)
            if (pdt_bit_get(h->cert + c * words, i)) sum += deg[i];
        key[c] = sum << 32 | c; /* n_cert <= CERT_MAX: the index fits */
    }
    qsort(key, n, sizeof *key, cmp_u64);
    for (size_t c = 0; c < n; c++) {
        size_t from = (size_t)(key[c] & 0xffffffffu);
        memcpy(bits + c * words, h->cert + from * words, words * sizeof *bits);
        w[c] = h->cert_w[from];
    }
    memcpy(h->cert, bits, n * words * sizeof *bits);
    memcpy(h->cert_w, w, n * sizeof *w);
out:
    free(deg);
    free(key);
    free(bits);
    free(w);
}

/* The sample in CERT_BLOCKS blocks of fixed seeds, each keeping at most its
 * share of CERT_MAX, on threads and split over the ranks of an MPI job (the
 * blocks handed out by framework/pdt_parallel.h, static then dynamically; the
 * blocks' finds are then combined): the same certificates for any number of
 * threads and ranks (blocks kept in order). */
static pdt_status sample_blocks(hss *h, pdt_error *err)
{
    const size_t k = h->G + 2, quota = CERT_MAX / CERT_BLOCKS; /* quota · k · 4 bytes: whole words */
    uint32_t *found = calloc(CERT_BLOCKS * quota * k, sizeof *found);
    uint64_t *count = calloc(CERT_BLOCKS, sizeof *count);
    const pdt_distributor *d = pdt_distributor_get();
    if (d && d->size <= 1) d = NULL;
    if (!found || !count) {
        free(found);
        free(count);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    unsigned threads = pdt_threads_resolve(h->opt->threads);
    atomic_bool stop;
    atomic_init(&stop, false);
    pdt_work work;
    pdt_work_begin(&work, d, CERT_BLOCKS, 1);
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        bool first = hss_first_thread();
        for (uint64_t j, end; !atomic_load(&stop) && pdt_work_next(&work, &j, &end);) {
            uint64_t state = UINT64_C(0x9e3779b97f4a7c15) ^ ((uint64_t)(j + 1) * UINT64_C(0xbf58476d1ce4e5b9));
            uint32_t *at = found + j * quota * k;
            for (uint64_t s = 0; s < CERT_SAMPLES / CERT_BLOCKS && count[j] < quota; s++) {
                sample(h, &state, at + count[j] * k);
                if (certificate(h, at + count[j] * k)) count[j]++;
            }
            if (first && hss_out_of_time(h)) atomic_store(&stop, true); /* the reporter's thread only */
        }
    }
    if (d) { /* the other ranks' blocks are zero here: or-ing fills them in */
        d->combine(d->user, found, CERT_BLOCKS * quota * k / 2, PDT_COMBINE_OR);
        d->combine(d->user, count, CERT_BLOCKS, PDT_COMBINE_OR);
    }
    pdt_status st = PDT_OK;
    for (size_t j = 0; j < CERT_BLOCKS && !st; j++)
        for (size_t c = 0; c < count[j] && !st; c++) st = keep(h, found + (j * quota + c) * k, err);
    free(found);
    free(count);
    if (!st) order_by_rarity(h);
    return st;
}

/* The certificates of the data (h->cert, h->cert_w, h->n_cert): every
 * (G + 2)-subset when there are few, else a fixed sample; at most CERT_MAX. */
pdt_status hss_certs_build(hss *h, pdt_error *err)
{
    const size_t k = h->G + 2;
    uint32_t p[HS_MAX_LIFTED + 2];
    h->n_cert = 0;
    if (h->n < k || !h->base) return PDT_OK;
    uint64_t subsets = 1; /* C(n, k), saturating */
    for (size_t i = 0; i < k && subsets <= CERT_ENUMERATE; i++) subsets = subsets * (h->n - i) / (i + 1);
    if (subsets > CERT_ENUMERATE) return sample_blocks(h, err);
    for (size_t i = 0; i < k; i++) p[i] = (uint32_t)i;
    for (uint64_t s = 0; h->n_cert < CERT_MAX && s < subsets; s++) {
        if (s % 65536 == 65535 && hss_out_of_time(h)) break;
        if (certificate(h, p)) {
            pdt_status st = keep(h, p, err);
            if (st) return st;
        }
        if (!pdt_comb_next(p, k, h->n)) break;
    }
    order_by_rarity(h);
    return PDT_OK;
}

#define PACK_MAX 128 /* certificates a packing holds (more: the bound stops growing) */
#define SWAP_CANDIDATES 256

static bool inside(const uint64_t *b, const uint64_t *items, const uint64_t *taken, const uint64_t *spare,
                   size_t words)
{
    for (size_t w = 0; w < words; w++)
        if ((b[w] & ~items[w]) || (b[w] & taken[w] & ~(spare ? spare[w] : 0))) return false;
    return true;
}

static bool disjoint(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t w = 0; w < words; w++)
        if (a[w] & b[w]) return false;
    return true;
}

/* One packed certificate traded for two disjoint ones that fit in its
 * points and the free ones: true when the packing gained weight. */
static bool swap_one_for_two(const hss *h, const uint64_t *items, uint64_t *used, uint32_t *packed,
                             size_t *n_packed, int64_t *sum)
{
    const size_t words = h->words;
    uint32_t cand[SWAP_CANDIDATES];
    for (size_t j = 0; j < *n_packed && *n_packed < PACK_MAX; j++) {
        const uint64_t *out = h->cert + (size_t)packed[j] * words;
        size_t m = 0;
        for (size_t c = 0; c < h->n_cert && m < SWAP_CANDIDATES; c++)
            if (c != packed[j] && inside(h->cert + c * words, items, used, out, words)) cand[m++] = (uint32_t)c;
        for (size_t a = 0; a < m; a++) {
            const uint64_t *ba = h->cert + (size_t)cand[a] * words;
            for (size_t b = a + 1; b < m; b++) {
                const uint64_t *bb = h->cert + (size_t)cand[b] * words;
                int64_t gain = h->cert_w[cand[a]] + h->cert_w[cand[b]] - h->cert_w[packed[j]];
                if (gain <= 0 || !disjoint(ba, bb, words)) continue;
                for (size_t w = 0; w < words; w++) used[w] = (used[w] & ~out[w]) | ba[w] | bb[w];
                packed[j] = cand[a];
                packed[(*n_packed)++] = cand[b];
                *sum += gain;
                return true;
            }
        }
    }
    return false;
}

/* A lower bound on the cost of every split of the region: the weight of
 * disjoint certificates inside it, packed greedily (rarest first), then
 * improved by trading one for two while short of target. */
int64_t hss_certs_bound(const hss *h, const uint64_t *items, int64_t target, uint64_t *used)
{
    const size_t words = h->words;
    uint32_t packed[PACK_MAX];
    size_t n_packed = 0;
    int64_t sum = 0;
    pdt_bits_clear(used, words);
    for (size_t c = 0; c < h->n_cert && sum < target && n_packed < PACK_MAX; c++) {
        const uint64_t *b = h->cert + c * words;
        if (!inside(b, items, used, NULL, words)) continue;
        for (size_t w = 0; w < words; w++) used[w] |= b[w];
        sum += h->cert_w[c];
        packed[n_packed++] = (uint32_t)c;
    }
    while (sum < target && swap_one_for_two(h, items, used, packed, &n_packed, &sum)) {}
    return sum;
}
