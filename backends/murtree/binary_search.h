/* The binary backend's search: the dataset cache (binary_cache.c), the
 * depth-2 solver (binary_d2.c) and the general recursion (binary_solver.c).
 * A tree's value is errors · unit + nodes · per_node (bs_value): with unit 1 and
 * per_node 0 the misclassifications; with unit > the largest size and per_node 1
 * the pair (errors, branch nodes) compared lexicographically, in one integer.
 * BS_NONE means "none" (a feature, a d2 cell); BS_VNONE "no value". */
#ifndef PDT_BINARY_SEARCH_H
#define PDT_BINARY_SEARCH_H

#include <time.h>

#include "../../rules/binary_impl.h"

typedef uint64_t bs_value;
#define BS_VNONE UINT64_MAX
#define BS_D2 (UINT32_MAX - 1) /* root "feature" of a subtree that is the depth-2 solver's tree */

/* Largest useful size at depth d: 2^d − 1. */
static inline uint32_t bs_cap(uint32_t d) { return d >= 31 ? UINT32_MAX / 2 : (UINT32_C(1) << d) - 1; }

/* Limits made canonical: n ≤ 2^d − 1 and d ≤ n (a tree of n nodes is at most n deep). */
static inline void bs_normalise(uint32_t *d, uint32_t *n)
{
    if (*n > bs_cap(*d)) *n = bs_cap(*d);
    if (*d > *n) *d = *n;
}

/* ------------------------------------------------------------ cache */

/* What is known about T(D, d, n), the optimum of the items D within depth d
 * and n branch nodes.  An optimum of a tree of shape (depth, size) is also
 * the optimum for every (d', n') with depth ≤ d' ≤ d and size ≤ n' ≤ n
 * (MurTree prop. 10); a lower bound holds for every smaller (d', n') (prop. 11). */
typedef struct bc_entry {
    uint32_t d, n;
    bs_value lb;          /* T ≥ lb */
    bs_value opt;         /* T, or BS_VNONE */
    uint32_t feature, nl; /* the optimum's root and its left budget (feature BS_NONE: a leaf) */
    uint32_t size, depth; /* the optimum's shape */
} bc_entry;

typedef struct bc_node {
    uint64_t hash;
    const uint64_t *key; /* the item bitset: in the cache's arenas, or borrowed (bc_insert_borrowed) */
    uint32_t m;    /* items */
    uint32_t leaf; /* the leaf's errors */
    uint32_t d2[3];/* T(D, 1, 1), T(D, 2, 2), T(D, 2, 3); BS_NONE until the depth-2 solver ran */
    uint32_t n_entries, cap_entries;
    bc_entry *entries;
} bc_node;

typedef struct bc_cache {
    size_t words;
    bc_node **chunks; /* nodes in chunks: pointers stay valid */
    size_t n_nodes, n_chunks, cap_chunks;
    uint64_t *slots; /* open addressing: hash >> 32 << 32 | (node index + 1), 0 = empty */
    size_t n_slots;
    uint64_t **arenas; /* key storage */
    size_t n_arenas, cap_arenas, arena_used;
    size_t bytes, limit;
    bool full; /* the memory limit stopped insertions (lookups go on) */
} bc_cache;

void bc_init(bc_cache *c, size_t words, size_t limit_bytes);
void bc_clear(bc_cache *c);
uint64_t bc_hash(const uint64_t *bits, size_t words);
bc_node *bc_find(const bc_cache *c, const uint64_t *bits, uint64_t hash, uint32_t m);
/* The node for the items, made if absent; NULL when the cache is full or memory ran out. */
bc_node *bc_insert(bc_cache *c, const uint64_t *bits, uint64_t hash, uint32_t m, uint32_t leaf);
/* bc_insert for items known to be absent (a bc_find just missed): no second probe. */
bc_node *bc_insert_absent(bc_cache *c, const uint64_t *bits, uint64_t hash, uint32_t m, uint32_t leaf);
/* bc_insert keeping `key` itself, not a copy, when the node is made: it must
 * stay allocated as long as c is looked up (the team cache: binary_team_cache.c). */
bc_node *bc_insert_borrowed(bc_cache *c, const uint64_t *key, uint64_t hash, uint32_t m, uint32_t leaf);
/* The entry holding the optimum for (d, n) (normalised limits, d ≥ 3), or NULL. */
const bc_entry *bc_optimum(const bc_node *node, uint32_t d, uint32_t n);
/* The fewest nodes of a depth-2 optimum for (d ≤ 2, n ≤ 3) and its errors (d2 known). */
uint32_t bc_d2_size(const bc_node *node, uint32_t d, uint32_t n, uint32_t *errors);
/* The best lower bound for (d, n) the node knows (0 if none), values in unit / per_node;
 * with sizes not proven, its nodes capped at n (bc_cap_nodes). */
bs_value bc_lower(const bc_node *node, uint32_t d, uint32_t n, bs_value unit, uint32_t per_node, bool proven);
/* A bound's (errors, nodes) with at most n nodes: see binary_cache.c. */
bs_value bc_cap_nodes(bs_value v, uint32_t n, bs_value unit);
/* lb raised to the fewest nodes a tree with its errors needs (d2 may be NULL). */
bs_value bc_size_floor(bs_value lb, uint32_t leaf, const uint32_t *d2, uint32_t n, bs_value unit);
void bc_store_optimum(bc_cache *c, bc_node *node, const bc_entry *e);
void bc_store_lower(bc_cache *c, bc_node *node, uint32_t d, uint32_t n, bs_value lb);

/* ------------------------------------------------------------ depth-2 solver */

typedef struct d2_solver d2_solver;

/* A tree of depth ≤ 2: root feature (BS_NONE: a leaf) and the features of its
 * children (index 0: feature value 0, the rule's left side; BS_NONE: a leaf). */
typedef struct d2_tree {
    uint32_t root, child[2];
} d2_tree;

pdt_status d2_new(d2_solver **out, const bs_data *data, pdt_error *err);
void d2_free(d2_solver **s);
/* v[k-1] = T(items, 2, k) for k = 1, 2, 3 (v[0] is also the depth-1 optimum). */
void d2_values(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t v[3]);
/* A node's items, of depth limit d ≥ 3 (kept by the caller while it runs):
 * its children's depth-2 problems start from them.  Returns the context's
 * generation (0: none kept for d).  One context per depth, so that a deeper
 * node's does not end its ancestors'. */
uint64_t d2_context_enter_depth(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t d);
/* The same for a node made by feature f = side in the context pgen (0: none):
 * its pair counts are then derived from that context's. */
uint64_t d2_context_enter_child(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t d, uint64_t pgen,
                                uint32_t f, int side);
/* d2_values for items = the node's items with feature f = side (0 or 1), when
 * gen is still the current context; otherwise as d2_values. */
void d2_values_in(d2_solver *s, const uint64_t *items, uint32_t m, uint64_t gen, uint32_t f, int side,
                  uint32_t v[3]);
/* A source of depth-2 optima already known (true: v filled), asked before the
 * solver computes them: the values are facts about the items, so a search
 * seeded this way takes the same path (binary_threads.c: the fresh search of
 * the root's children, from the workers' caches). */
typedef bool (*d2_seed_fn)(void *user, const uint64_t *items, uint32_t m, uint32_t v[3]);
void d2_set_seed(d2_solver *s, d2_seed_fn fn, void *user);
/* v[0] = T(items, 1, 1) alone (single counts, no pairs). */
uint32_t d1_value(d2_solver *s, const uint64_t *items, uint32_t m);
/* d1_value for the items of a context's child, as d2_values_in. */
uint32_t d1_value_in(d2_solver *s, const uint64_t *items, uint32_t m, uint64_t gen, uint32_t f, int side);
/* An optimal tree for depth ≤ d (1 or 2) with at most k (1..3) branch nodes; its cost. */
uint32_t d2_tree_of(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t d, uint32_t k, d2_tree *t);

/* ------------------------------------------------------------ the recursion */

typedef struct bs_stats {
    uint64_t nodes;        /* subproblems entered */
    uint64_t configs;      /* root configurations (feature, budget split) tried */
    uint64_t d2_calls, d1_calls, cache_hits;
    uint64_t pruned;       /* configurations and subproblems cut by a bound */
    uint64_t cache_nodes;  /* item sets in the cache */
} bs_stats;

typedef struct bs_search bs_search;

/* The outcome of one subproblem. */
typedef struct bs_out {
    bs_value cost;        /* the optimum, or BS_VNONE: no tree within the bound */
    bs_value lb;          /* a lower bound on the optimum (the optimum when found) */
    uint32_t size, depth; /* shape of the optimal tree */
    uint32_t feature, nl; /* its root (BS_NONE: leaf, BS_D2: the depth-2 tree with nl nodes) */
    uint32_t d, n;        /* the limits the root's budgets refer to */
    bs_value left;        /* a configuration's left child's optimum (--lexicographic: exact) ... */
    bool has_left;        /* ... when known */
} bs_out;

/* progress (may be NULL) is called about once a second with the root's best so far. */
pdt_status bs_search_new(bs_search **out, const bs_data *data, size_t cache_bytes, double time_limit,
                         pdt_progress_fn progress, void *progress_user, pdt_error *err);
void bs_search_free(bs_search **s);
/* Values become (errors, nodes) lexicographically for trees of at most max_size
 * nodes: errors · (max_size + 1) + nodes.  Call before any search (the cache
 * holds values of one kind).  With proven false, a node stops as soon as its
 * errors reach their bound (as for plain errors): the errors are optimal, the
 * size is the smallest among the trees the search met, not proven minimal. */
void bs_set_lexicographic(bs_search *s, uint32_t max_size, bool proven);
bs_value bs_unit(const bs_search *s);
/* The optimum for the items within (d, n) when some tree costs ≤ ub. */
void bs_solve_items(bs_search *s, bs_out *out, const uint64_t *items, uint32_t d, uint32_t n, int64_t ub);
bool bs_aborted(const bs_search *s);
bool bs_out_of_memory(const bs_search *s);
void bs_clear_deadline(bs_search *s);
/* The search ends as at its deadline once *stop is non-zero (NULL: never). */
void bs_set_stop(bs_search *s, const volatile sig_atomic_t *stop);
const bs_stats *bs_search_stats(bs_search *s);
d2_solver *bs_search_d2(bs_search *s);

#endif
