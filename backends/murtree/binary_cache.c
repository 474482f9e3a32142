/* The dataset cache (MurTree §4.6.2): subproblems keyed by their item set,
 * each holding what is known per (depth, size) limit — optimal subtrees
 * (their root and budgets) and lower bounds — and the depth-2 solver's three
 * optima.  Keys are kept whole and compared on every hash match, so a hit is
 * exact, never a probable one. */
#include <stdlib.h>
#include <string.h>

#include "binary_search.h"
#include "bitset.h"
#include "pdt_parallel.h"

#define CHUNK_NODES 4096u
#define ARENA_WORDS (UINT64_C(1) << 17) /* 1 MiB of keys per arena */

void bc_init(bc_cache *c, size_t words, size_t limit_bytes)
{
    memset(c, 0, sizeof *c);
    c->words = words ? words : 1;
    c->limit = limit_bytes;
}

void bc_clear(bc_cache *c)
{
    for (size_t k = 0; k < c->n_nodes; k++) free(c->chunks[k / CHUNK_NODES][k % CHUNK_NODES].entries);
    for (size_t k = 0; k < c->n_chunks; k++) free(c->chunks[k]);
    for (size_t k = 0; k < c->n_arenas; k++) free(c->arenas[k]);
    free(c->chunks);
    free(c->arenas);
    free(c->slots);
    memset(c, 0, sizeof *c);
}

/* Four independent multiply chains, then a final mix: fast on long keys. */
uint64_t bc_hash(const uint64_t *bits, size_t words)
{
    uint64_t h[4] = {UINT64_C(0x9e3779b97f4a7c15), UINT64_C(0xc2b2ae3d27d4eb4f),
                     UINT64_C(0x165667b19e3779f9), UINT64_C(0x27d4eb2f165667c5)};
    size_t k = 0;
    for (; k + 4 <= words; k += 4)
        for (size_t j = 0; j < 4; j++) h[j] = (h[j] ^ bits[k + j]) * UINT64_C(0xff51afd7ed558ccd) + k;
    for (; k < words; k++) h[k & 3] = (h[k & 3] ^ bits[k]) * UINT64_C(0xc4ceb9fe1a85ec53);
    uint64_t x = h[0] ^ (h[1] >> 17) ^ (h[2] << 23) ^ (h[3] >> 31) ^ h[3];
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return x;
}

static bc_node *node_at(const bc_cache *c, size_t k) { return &c->chunks[k / CHUNK_NODES][k % CHUNK_NODES]; }

/* A slot: the node's index + 1 in its low half, its hash's high half above
 * (0: empty).  A probe compares the high halves before it reads a node: a
 * miss, and every slot a hit passes, costs no node's cache line (2 threads on
 * australian-credit, depth 5: bc_find and its key compares were 26 % of the
 * samples against 14 % for one thread, the caches' nodes being read from
 * memory, not from the core's own cache). */
static inline uint64_t slot_of(uint64_t hash, size_t k) { return (hash >> 32 << 32) | ((uint64_t)k + 1); }

bc_node *bc_find(const bc_cache *c, const uint64_t *bits, uint64_t hash, uint32_t m)
{
    if (!c->n_slots) return NULL;
    const size_t mask = c->n_slots - 1;
    const uint64_t tag = hash >> 32;
    for (size_t p = (size_t)hash & mask;; p = (p + 1) & mask) {
        const uint64_t s = c->slots[p];
        if (!s) return NULL;
        if (s >> 32 != tag) continue;
        bc_node *nd = node_at(c, (uint32_t)s - 1);
        if (nd->hash == hash && nd->m == m && pdt_bits_equal(nd->key, bits, c->words)) return nd;
    }
}

static bool grow_slots(bc_cache *c)
{
    size_t n = c->n_slots ? 2 * c->n_slots : 1024;
    uint64_t *slots = pdt_calloc_written(n, sizeof *slots); /* probed before written */
    if (!slots) return false;
    for (size_t k = 0; k < c->n_nodes; k++) {
        const uint64_t hash = node_at(c, k)->hash;
        size_t p = (size_t)hash & (n - 1);
        while (slots[p]) p = (p + 1) & (n - 1);
        slots[p] = slot_of(hash, k);
    }
    c->bytes += (n - c->n_slots) * sizeof *slots;
    free(c->slots);
    c->slots = slots;
    c->n_slots = n;
    return true;
}

static uint64_t *key_alloc(bc_cache *c)
{
    if (!c->n_arenas || c->arena_used + c->words > ARENA_WORDS) {
        if (c->n_arenas == c->cap_arenas) {
            size_t cap = c->cap_arenas ? 2 * c->cap_arenas : 16;
            uint64_t **a = realloc(c->arenas, cap * sizeof *a);
            if (!a) return NULL;
            c->arenas = a;
            c->cap_arenas = cap;
        }
        size_t words = c->words > ARENA_WORDS ? c->words : ARENA_WORDS;
        c->arenas[c->n_arenas] = malloc(words * sizeof **c->arenas);
        if (!c->arenas[c->n_arenas]) return NULL;
        c->n_arenas++;
        c->arena_used = 0;
        c->bytes += words * sizeof **c->arenas;
    }
    uint64_t *k = c->arenas[c->n_arenas - 1] + c->arena_used;
    c->arena_used += c->words;
    return k;
}

static bc_node *node_alloc(bc_cache *c)
{
    if (c->n_nodes % CHUNK_NODES == 0) {
        if (c->n_chunks == c->cap_chunks) {
            size_t cap = c->cap_chunks ? 2 * c->cap_chunks : 16;
            bc_node **ch = realloc(c->chunks, cap * sizeof *ch);
            if (!ch) return NULL;
            c->chunks = ch;
            c->cap_chunks = cap;
        }
        c->chunks[c->n_chunks] = malloc(CHUNK_NODES * sizeof **c->chunks);
        if (!c->chunks[c->n_chunks]) return NULL;
        c->n_chunks++;
        c->bytes += CHUNK_NODES * sizeof **c->chunks;
    }
    return node_at(c, c->n_nodes);
}

bc_node *bc_insert(bc_cache *c, const uint64_t *bits, uint64_t hash, uint32_t m, uint32_t leaf)
{
    bc_node *nd = bc_find(c, bits, hash, m);
    return nd ? nd : bc_insert_absent(c, bits, hash, m, leaf);
}

/* key: the items' bitset, copied into the cache's arenas, or when `borrowed`
 * referenced as it is (it must then outlive the cache's lookups). */
static bc_node *insert_absent(bc_cache *c, const uint64_t *bits, bool borrowed, uint64_t hash, uint32_t m,
                              uint32_t leaf)
{
    if (c->full || c->bytes > c->limit || c->n_nodes >= UINT32_MAX - 1) {
        c->full = true;
        return NULL;
    }
    if (2 * (c->n_nodes + 1) > c->n_slots && !grow_slots(c)) return NULL;
    bc_node *nd = node_alloc(c);
    if (!nd) return NULL;
    const uint64_t *key = bits;
    if (!borrowed) {
        uint64_t *copy = key_alloc(c);
        if (!copy) return NULL;
        memcpy(copy, bits, c->words * sizeof *copy);
        key = copy;
    }
    *nd = (bc_node){.hash = hash, .key = key, .m = m, .leaf = leaf, .d2 = {BS_NONE, BS_NONE, BS_NONE}};
    size_t mask = c->n_slots - 1, p = (size_t)hash & mask;
    while (c->slots[p]) p = (p + 1) & mask;
    c->slots[p] = slot_of(hash, c->n_nodes++);
    return nd;
}

bc_node *bc_insert_absent(bc_cache *c, const uint64_t *bits, uint64_t hash, uint32_t m, uint32_t leaf)
{
    return insert_absent(c, bits, false, hash, m, leaf);
}

bc_node *bc_insert_borrowed(bc_cache *c, const uint64_t *key, uint64_t hash, uint32_t m, uint32_t leaf)
{
    bc_node *nd = bc_find(c, key, hash, m);
    return nd ? nd : insert_absent(c, key, true, hash, m, leaf);
}

const bc_entry *bc_optimum(const bc_node *node, uint32_t d, uint32_t n)
{
    for (uint32_t k = 0; k < node->n_entries; k++) {
        const bc_entry *e = &node->entries[k];
        if (e->opt != BS_VNONE && e->depth <= d && d <= e->d && e->size <= n && n <= e->n) return e;
    }
    return NULL;
}

uint32_t bc_d2_size(const bc_node *node, uint32_t d, uint32_t n, uint32_t *errors)
{
    uint32_t v = d == 1 ? node->d2[0] : node->d2[n - 1], k = 1;
    *errors = v;
    if (v == node->leaf) return 0;
    while (d == 2 && k < n && node->d2[k - 1] != v) k++;
    return k;
}

/* A lexicographic bound made size-aware: a tree with e errors needs a branch
 * node when e is below the leaf's, two when below the best stump's and three
 * when below the best two-node tree's (trees of ≤ 2 nodes have depth ≤ 2). */
bs_value bc_size_floor(bs_value lb, uint32_t leaf, const uint32_t *d2, uint32_t n, bs_value unit)
{
    bs_value e = lb / unit, k = 0;
    if (e < leaf) k = 1;
    if (k && d2 && d2[0] != BS_NONE && e < d2[0]) k = 2;
    if (k == 2 && d2[1] != BS_NONE && e < d2[1]) k = 3;
    if (k > n) return (e + 1) * unit; /* no tree within n nodes has e errors */
    bs_value f = e * unit + k;
    return f > lb ? f : lb;
}

/* The default fit (sizes not proven) keeps as a subproblem's value the errors
 * of its optimum and the nodes of the first such tree it met, not the fewest:
 * as a bound for smaller limits the errors hold, the nodes do not — a set
 * solved within 5 nodes by a 5-node tree may have a 3-node tree of the same
 * errors.  Its search only needs the errors exact, and the errors stay exact
 * as long as no bound for n nodes counts more than n of them: then the
 * children's bounds of a configuration add up to at most the parent's n nodes,
 * below one error (U > n), and a configuration with fewer errors is never cut.
 * Without the cap, a 15-row instance at depth 5 and 6 nodes lost its errorless
 * 6-node tree to bounds of 5 + 2 + 1 nodes against an allowance of 6 and
 * reported 1 error.  With sizes proven every value is exact and no cap is
 * needed. */
bs_value bc_cap_nodes(bs_value v, uint32_t n, bs_value unit)
{
    const bs_value nodes = v % unit;
    return nodes > n ? v - nodes + n : v;
}

bs_value bc_lower(const bc_node *node, uint32_t d, uint32_t n, bs_value unit, uint32_t per_node, bool proven)
{
    bs_value lb = 0;
    if ((d == 1 && node->d2[0] != BS_NONE) || (d == 2 && node->d2[1] != BS_NONE)) {
        uint32_t v, k = bc_d2_size(node, d, n, &v);
        lb = (bs_value)v * unit + (bs_value)k * per_node;
    }
    for (uint32_t k = 0; k < node->n_entries; k++) {
        const bc_entry *e = &node->entries[k];
        const bs_value v = per_node && !proven ? bc_cap_nodes(e->lb, n, unit) : e->lb;
        if (e->d >= d && e->n >= n && v > lb) lb = v;
    }
    return per_node ? bc_size_floor(lb, node->leaf, node->d2, n, unit) : lb;
}

static bc_entry *entry_for(bc_cache *c, bc_node *node, uint32_t d, uint32_t n)
{
    for (uint32_t k = 0; k < node->n_entries; k++)
        if (node->entries[k].d == d && node->entries[k].n == n) return &node->entries[k];
    if (node->n_entries == node->cap_entries) {
        uint32_t cap = node->cap_entries ? 2 * node->cap_entries : 2;
        bc_entry *e = realloc(node->entries, cap * sizeof *e);
        if (!e) return NULL;
        c->bytes += (cap - node->cap_entries) * sizeof *e;
        node->entries = e;
        node->cap_entries = cap;
    }
    bc_entry *e = &node->entries[node->n_entries++];
    *e = (bc_entry){.d = d, .n = n, .opt = BS_VNONE, .feature = BS_NONE};
    return e;
}

void bc_store_optimum(bc_cache *c, bc_node *node, const bc_entry *src)
{
    bc_entry *e = node ? entry_for(c, node, src->d, src->n) : NULL;
    if (e) *e = *src;
}

void bc_store_lower(bc_cache *c, bc_node *node, uint32_t d, uint32_t n, bs_value lb)
{
    bc_entry *e = node ? entry_for(c, node, d, n) : NULL;
    if (e && e->opt == BS_VNONE && lb > e->lb) e->lb = lb;
}
