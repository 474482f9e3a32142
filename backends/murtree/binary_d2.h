/* The depth-2 solver's state, shared by binary_d2.c (compaction and entry
 * points), binary_d2_count.c (frequency counts and optima) and
 * binary_d2_context.c (a depth-3 node's items compacted once for its
 * children, and counts derived incrementally). */
#ifndef PDT_BINARY_D2_H
#define PDT_BINARY_D2_H

#include "binary_search.h"

#define D2_FLIP UINT32_C(0x80000000) /* a column equal to the complement of the local one */
#define D2_CONST UINT32_MAX          /* a feature constant on the items */
#define D2_COMPACT_WORDS 8           /* a context's side of this many words or more: pairs of the columns that split it */
#define D2_PAD 32                    /* zero columns kept past the last one (whole vector blocks) */

/* Pair counts of one item set (two classes): T[i][j] = |i ∧ j| and
 * P[i][j] = |i ∧ j ∧ class 1|, for j from i rounded down to 8 up to F
 * rounded up to 8 (the diagonal holds the single counts). */
typedef struct d2_counts {
    uint32_t *T, *P;
    uint32_t m, ones; /* items, items of class 1 */
} d2_counts;

/* A depth-3 node's items, compacted once: its children are squeezed from
 * these columns (half as wide as the dataset's), and when both children of
 * one feature are solved, the second child's counts are the node's minus
 * the first child's (MurTree's incremental update with D_old = the node). */
typedef struct d2_context {
    uint64_t gen;       /* 0: none */
    const uint64_t *items;
    uint32_t m;
    bool built, counted;
    size_t F, W;        /* kept columns, words per column */
    uint64_t *Mc;       /* F * W, column-major */
    uint64_t *M;        /* wcap * fp, word-major (for counting) */
    uint64_t *CL;       /* nc * wcap */
    uint32_t *fid;      /* fp: local column -> feature */
    uint32_t *code;     /* nf: feature -> local column (| D2_FLIP), or D2_CONST */
    d2_counts counts;   /* of the node, when counted */
    uint64_t pgen;      /* the parent's context (0: none), and the split there that made the node */
    uint32_t pf;
    int pside;
} d2_context;

#define D2_SLOT_BITS 3
#define D2_SLOTS (1u << D2_SLOT_BITS) /* contexts: one per depth limit 3 … 2 + D2_SLOTS */

struct d2_solver {
    const bs_data *data;
    size_t fp, wcap, nc;   /* column stride (features rounded up to 16, + D2_PAD), words per column, classes */
    uint64_t *M;           /* wcap * fp compacted columns of the current items, word-major */
    uint64_t *CL;          /* nc * wcap compacted classes */
    uint32_t *fid;         /* local column -> feature */
    uint32_t *nzw, *nzc;   /* nonzero words of the items and their popcounts */
    uint64_t *nzm;         /* D2_MOVES per nonzero word: its compress masks (no fast PEXT) */
    bool pext;             /* squeeze with PEXT (d2_pext_fast, or PDT_BINARY_PEXT=0|1) */
    uint32_t *cnt;         /* fp: items having the column */
    uint32_t *ccnt;        /* nc * fp: items of class c having the column */
    uint32_t *ctot;        /* nc: items of each class */
    uint32_t *mat;         /* 4 * fp * fp: the scalar path's T, A, B, D */
    d2_counts work[2];     /* the binary path's counts */
    int32_t *leafL, *leafR, *bestL, *bestR; /* fp each */
    uint64_t *seen;        /* dedup hash table of kept columns, 0 = empty */
    uint32_t *seen_col;
    size_t seen_cap;       /* a power of two ≥ 2 * fp */
    uint64_t *mask;        /* wcap: a child's items in a context's coordinates */
    size_t compact_words;  /* D2_COMPACT_WORDS, or PDT_BINARY_COMPACT_WORDS (tests: 0, always) */
    uint32_t *keep;        /* fp: a context column's place among a side's counted columns,
                            * D2_CONST without the side's items, D2_FLIP with all of them */
    d2_context ctx[D2_SLOTS];
    uint64_t gens;
    /* the last context child solved: its context's generation (0: none), its
     * column | D2_FLIP when it is the column's zeros; its counts are in
     * work[0], and its sibling's in work[1] when sib_ready */
    uint64_t last_gen;
    uint32_t last_f;
    bool sib_ready;
    d2_seed_fn seed; /* optional: optima known elsewhere (d2_set_seed) */
    void *seed_user;
};

/* Squeezing a word x through a mask m (x's bits at m's ones, packed low:
 * PEXT) in six shift steps, Hacker's Delight §7-4, whose move masks depend
 * on m alone: made once per item set, used for every column. */
#define D2_MOVES 6

static inline void d2_compress_masks(uint64_t m, uint64_t mv[D2_MOVES])
{
    uint64_t mk = ~m << 1; /* the zeros of m to the right of each bit */
    for (unsigned i = 0; i < D2_MOVES; i++) {
        uint64_t mp = mk ^ (mk << 1); /* parity prefix: bits that move by 2^i */
        mp ^= mp << 2, mp ^= mp << 4, mp ^= mp << 8, mp ^= mp << 16, mp ^= mp << 32;
        const uint64_t v = mp & m;
        mv[i] = v;
        m = (m ^ v) | (v >> (1u << i));
        mk &= ~mp;
    }
}

static inline uint64_t d2_compress(uint64_t x, uint64_t m, const uint64_t mv[D2_MOVES])
{
    x &= m;
    for (unsigned i = 0; i < D2_MOVES; i++) {
        const uint64_t t = x & mv[i];
        x = (x ^ t) | (t >> (1u << i));
    }
    return x;
}

/* binary_d2.c */
void *d2_alloc64(size_t bytes);
/* Whether PEXT is one fast instruction here: built with BMI2 and not an AMD
 * processor before Zen 3, whose microcode takes tens of cycles a word. */
bool d2_pext_fast(void);
/* The rule of d2_pext_fast for a processor of cpuid vendor string `vendor`
 * (leaf 0: ebx, edx, ecx) and signature (leaf 1: eax); any build. */
bool d2_pext_fast_on(const char vendor[12], uint32_t signature);
/* Squeezes col to the items (s's n_nz nonzero words from d2_nonzero) into
 * out[0], out[stride], ...; returns the number of set bits. */
uint32_t d2_squeeze(const d2_solver *s, uint64_t *out, size_t stride, const uint64_t *col,
                    const uint64_t *items, size_t n_nz);
size_t d2_nonzero(d2_solver *s, const uint64_t *items, size_t words);
/* Compacts the items' non-constant, distinct columns into s->M; code (may be
 * NULL) receives every feature's column. Returns F, *W the words per column. */
size_t d2_prepare(d2_solver *s, const uint64_t *items, uint32_t m, size_t *W, uint32_t *code);
/* d2_values without asking the seed. */
void d2_values_solve(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t v[3]);

/* binary_d2_count.c */
void d2_count_pairs(const d2_solver *s, const uint64_t *M, const uint64_t *c1, size_t F, size_t W,
                    d2_counts *out);
/* out = a − b on the stored triangle. */
void d2_count_diff(const d2_solver *s, size_t F, const d2_counts *a, const d2_counts *b, d2_counts *out);
void d2_values_binary(d2_solver *s, const d2_counts *c, size_t F, uint32_t v[3]);
void d2_count_cells(d2_solver *s, size_t F, size_t W);

/* binary_d2_multi.c: the three optima for more than two classes. */
void d2_values_multi(d2_solver *s, size_t F, size_t W, uint32_t m, uint32_t v[3]);

typedef struct d2_pick {
    uint32_t cost;
    d2_tree tree;
} d2_pick;

void d2_best_general(d2_solver *s, size_t F, uint32_t m, uint32_t leaf, d2_pick pick[3]);

/* binary_d2_context.c */
void d2_context_free(d2_context *c);

#endif
