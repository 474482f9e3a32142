/* Random auto-partitions (Paterson & Yao): a permutation of the segments
 * fixes the root of every region — the segment that comes first among those
 * present.  The baseline the exact optimum is compared with. */
#include <stdlib.h>

#include "bitset.h"
#include "bsp_impl.h"

typedef struct perm_walk {
    const pdt_bsp *b;
    const uint32_t *rank; /* rank[s]: position of segment s in the permutation */
    uint64_t nodes, fragments;
    bool failed;
} perm_walk;

static void walk(perm_walk *w, const uint64_t *items)
{
    const pdt_bsp *b = w->b;
    w->nodes++;
    uint32_t best = UINT32_MAX, root = 0;
    for (size_t k = 0; k < b->words; k++)
        for (uint64_t x = items[k]; x; x &= x - 1) {
            uint32_t s = b->piece_seg[k * 64 + (size_t)__builtin_ctzll(x)];
            if (w->rank[s] < best) best = w->rank[s], root = s;
        }
    if (best == UINT32_MAX) return; /* an empty region: a leaf */
    w->fragments += bsp_count_segments(b, items, bsp_on(b, root));
    uint64_t *l = malloc(2 * b->words * sizeof *l);
    if (!l) {
        w->failed = true;
        return;
    }
    pdt_bits_and(l, items, bsp_left(b, root), b->words);
    pdt_bits_and(l + b->words, items, bsp_right(b, root), b->words);
    walk(w, l);
    walk(w, l + b->words);
    free(l);
}

static pdt_status run_permutation(uint64_t *nodes, uint64_t *fragments, const pdt_bsp *b,
                                  const uint32_t *perm, uint32_t *rank, uint64_t *all, pdt_error *err)
{
    for (size_t k = 0; k < b->n; k++) rank[k] = UINT32_MAX;
    for (size_t k = 0; k < b->n; k++)
        if (perm[k] < b->n) rank[perm[k]] = (uint32_t)k;
    for (size_t k = 0; k < b->n; k++)
        if (rank[k] == UINT32_MAX) return pdt_error_set(err, PDT_EINVAL, "not a permutation of the segments");
    perm_walk w = {b, rank, 0, 0, false};
    pdt_bits_fill(all, b->n_pieces);
    walk(&w, all);
    if (w.failed) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    *nodes = w.nodes;
    *fragments = w.fragments;
    return PDT_OK;
}

pdt_status pdt_bsp_permutation(uint64_t *nodes, uint64_t *fragments, const pdt_bsp *b, const uint32_t *perm,
                               pdt_error *err)
{
    uint32_t *rank = malloc(b->n * sizeof *rank);
    uint64_t *all = calloc(b->words ? b->words : 1, sizeof *all);
    pdt_status st = rank && all ? run_permutation(nodes, fragments, b, perm, rank, all, err)
                                : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    free(rank);
    free(all);
    return st;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform in [0, n) without modulo bias. */
static uint32_t below(uint64_t *s, uint32_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
    do x = splitmix(s);
    while (x >= limit);
    return (uint32_t)(x % n);
}

pdt_status pdt_bsp_random_run(pdt_bsp_random *out, const pdt_bsp *b, uint64_t tries, uint64_t seed,
                              pdt_error *err)
{
    *out = (pdt_bsp_random){tries, seed, UINT64_MAX, UINT64_MAX, 0, 0};
    uint32_t *perm = malloc(b->n * sizeof *perm), *rank = malloc(b->n * sizeof *rank);
    uint64_t *all = calloc(b->words ? b->words : 1, sizeof *all);
    pdt_status st = perm && rank && all ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    uint64_t state = seed;
    for (uint64_t t = 0; !st && t < tries; t++) {
        for (uint32_t k = 0; k < b->n; k++) perm[k] = k;
        for (uint32_t k = (uint32_t)b->n; k > 1; k--) { /* Fisher–Yates */
            uint32_t j = below(&state, k), tmp = perm[k - 1];
            perm[k - 1] = perm[j];
            perm[j] = tmp;
        }
        uint64_t nodes = 0, frags = 0;
        st = run_permutation(&nodes, &frags, b, perm, rank, all, err);
        if (st) break;
        out->min_nodes = nodes < out->min_nodes ? nodes : out->min_nodes;
        out->min_fragments = frags < out->min_fragments ? frags : out->min_fragments;
        out->sum_nodes += nodes;
        out->sum_fragments += frags;
    }
    free(perm);
    free(rank);
    free(all);
    return st;
}
