/* Item bitsets: arrays of 64-bit words, bit i of word i/64 = item i.
 * Header-only; used on the hot paths of the engine and the plugins. */
#ifndef PDT_BITSET_H
#define PDT_BITSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline size_t pdt_bits_words(size_t n) { return (n + 63) / 64; }

static inline bool pdt_bit_get(const uint64_t *b, size_t i) { return (b[i >> 6] >> (i & 63)) & 1u; }
static inline void pdt_bit_set(uint64_t *b, size_t i) { b[i >> 6] |= UINT64_C(1) << (i & 63); }
static inline void pdt_bit_reset(uint64_t *b, size_t i) { b[i >> 6] &= ~(UINT64_C(1) << (i & 63)); }

static inline void pdt_bits_clear(uint64_t *b, size_t words) { memset(b, 0, words * sizeof *b); }

/* All of the first n bits set, the rest of the last word clear. */
static inline void pdt_bits_fill(uint64_t *b, size_t n)
{
    size_t w = pdt_bits_words(n);
    for (size_t k = 0; k < w; k++) b[k] = ~UINT64_C(0);
    if (n & 63) b[w - 1] = (UINT64_C(1) << (n & 63)) - 1;
}

static inline uint32_t pdt_bits_count(const uint64_t *b, size_t words)
{
    uint32_t c = 0;
    for (size_t k = 0; k < words; k++) c += (uint32_t)__builtin_popcountll(b[k]);
    return c;
}

/* r = a & b; returns the number of bits set in r. */
static inline uint32_t pdt_bits_and(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t words)
{
    uint32_t c = 0;
    for (size_t k = 0; k < words; k++) {
        r[k] = a[k] & b[k];
        c += (uint32_t)__builtin_popcountll(r[k]);
    }
    return c;
}

/* r = a & ~b; returns the number of bits set in r. */
static inline uint32_t pdt_bits_andnot(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t words)
{
    uint32_t c = 0;
    for (size_t k = 0; k < words; k++) {
        r[k] = a[k] & ~b[k];
        c += (uint32_t)__builtin_popcountll(r[k]);
    }
    return c;
}

/* |a & b| without storing it. */
static inline uint32_t pdt_bits_and_count(const uint64_t *a, const uint64_t *b, size_t words)
{
    uint32_t c = 0;
    for (size_t k = 0; k < words; k++) c += (uint32_t)__builtin_popcountll(a[k] & b[k]);
    return c;
}

/* |a & b & c| without storing it. */
static inline uint32_t pdt_bits_and3_count(const uint64_t *a, const uint64_t *b, const uint64_t *c,
                                           size_t words)
{
    uint32_t n = 0;
    for (size_t k = 0; k < words; k++) n += (uint32_t)__builtin_popcountll(a[k] & b[k] & c[k]);
    return n;
}

static inline bool pdt_bits_equal(const uint64_t *a, const uint64_t *b, size_t words)
{
    return memcmp(a, b, words * sizeof *a) == 0;
}

/* Index of the first set bit at or after i, or n when none. */
static inline size_t pdt_bits_next(const uint64_t *b, size_t i, size_t n)
{
    if (i >= n) return n;
    size_t k = i >> 6;
    uint64_t w = b[k] & (~UINT64_C(0) << (i & 63));
    size_t words = pdt_bits_words(n);
    while (!w) {
        if (++k >= words) return n;
        w = b[k];
    }
    size_t r = (k << 6) + (size_t)__builtin_ctzll(w);
    return r < n ? r : n;
}

/* 64-bit hash of a bitset (for the subproblem cache). */
static inline uint64_t pdt_bits_hash(const uint64_t *b, size_t words, uint64_t seed)
{
    uint64_t h = seed ^ UINT64_C(0x9e3779b97f4a7c15);
    for (size_t k = 0; k < words; k++) {
        h ^= b[k] + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
        h *= UINT64_C(0xff51afd7ed558ccd);
        h ^= h >> 33;
    }
    return h;
}

#endif
