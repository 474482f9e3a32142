/* The binary backend's search state, shared by the recursion (binary_solver.c)
 * and its item sets and bounds (binary_state.c). */
#ifndef PDT_BINARY_SOLVER_H
#define PDT_BINARY_SOLVER_H

#include "binary_search.h"

#define SIM_SLOTS 2
#define SIM_WIDE 32 /* slots per depth for --lexicographic once the root has an errorless tree */
#define TICK_EVERY 64u

typedef struct bs_set {
    uint64_t *bits;
    uint32_t *cc; /* items per class */
    uint32_t m, leaf;
    uint64_t hash;
    bc_node *node;
    bool looked_up;
    uint64_t gen;    /* the depth-2 context of the parent (0: none) ... */
    uint32_t via_f;  /* ... and the split that made these items: feature, */
    int via_side;    /* side (1: the feature holds) */
    struct bs_level *owner; /* the level whose children these are (NULL: a root) */
} bs_set;

/* A node's sample of ≤ 64 items (binary_perfect.c): one word per feature. */
typedef struct bp_parent {
    uint64_t *c, *uc;  /* every feature's column; the distinct ones ... */
    uint32_t *ufid;    /* ... and their features */
    size_t nu;
    uint64_t a, all; /* its items of class 0, all its items */
    uint32_t n, idx[64]; /* the items, by slot */
    bool ready;
} bp_parent;

typedef struct bs_level bs_level;
struct bs_level {
    bs_set l, r;          /* the children of the split being tried */
    const bs_set *node;   /* the node whose splits these are */
    bp_parent sample;     /* its sample, made when a child's errorless test first needs it */
    uint64_t *seen_hash;  /* partitions already tried at this node (right item set) */
    uint32_t *seen_f;
    size_t seen_cap;
    uint64_t *wit_k;      /* binary_witness.c: per side and k ≤ 3, the features f whose child
                           * D ∧ (f = side) holds a witness of k for depth ≥ wit_dch */
    uint32_t *wit_in;     /* the witnesses (ring positions) inside the node */
    size_t n_wit_in, index; /* their number; the level's index */
    uint32_t wit_dch;
    bool wit_ready;
};

typedef struct sim_slot {
    uint64_t *bits;
    bc_node *node;
    bs_value v[3]; /* for d ≤ 2: its bound for n = 1, 2, 3 when pushed */
} sim_slot;

struct bs_search {
    const bs_data *data;
    size_t words, nc;
    bc_cache cache;
    d2_solver *d2;
    bs_level **levels;
    size_t n_levels;
    sim_slot *sim; /* SIM_WIDE per depth (SIM_SLOTS used unless sim_wide) */
    size_t sim_depths;
    bool has_deadline, aborted, oom;
    const volatile sig_atomic_t *stop; /* pdt_fit_options.stop */
    struct timespec start, deadline;
    uint32_t tick;
    pdt_progress_fn progress;
    void *progress_user;
    double last_progress;
    bs_value root_best; /* the best value found at the root of the current search */
    bs_value unit;      /* a tree's value: errors · unit + nodes · per_node */
    uint32_t per_node;
    bool proven;        /* per_node: search until the size is proven minimal */
    bool sim_wide;      /* proven, and the root has an errorless tree: sim_wide_slots similarity slots */
    size_t sim_wide_slots; /* SIM_WIDE, or PDT_BINARY_SIM_SLOTS */
    uint64_t *bp_rows; /* binary_perfect.c: every item's features, bp_fw words each (NULL: no test) */
    uint64_t *bp_cols; /* a sample's feature columns, one word each ... */
    uint64_t *bp_uc;   /* ... the distinct ones ... */
    uint32_t *bp_ufid; /* ... and their features */
    uint32_t *bp_order; /* scratch: features ordered by violations, and the counts */
    uint32_t *bp_slot; /* a hash table of kept columns (index + 1) */
    size_t bp_slots;
    size_t bp_fw;
    uint32_t bp_min_items; /* the test runs on item sets at least this large ... */
    uint32_t bp_min_errorless; /* ... this large once the root has an errorless tree */
    uint64_t *wit;        /* binary_witness.c: samples with no errorless tree (NULL: none yet) */
    uint64_t wit_next;    /* witnesses ever added */
    bool errorless_root;  /* proven, and the root has an errorless tree: witnesses are checked */
    bool wit_off;         /* PDT_BINARY_WITNESSES=0 (tests compare with the search without them) */
    bs_stats stats;
    struct bt_shared *shared; /* the team's cache (binary_threads.c; NULL: none) */
};

/* binary_state.c */
void bs_fail_oom(bs_search *s);
bs_level *bs_level_get(bs_search *s, size_t level);
/* True when the search must stop (time limit, or out of memory). */
bool bs_tick(bs_search *s);
uint32_t bs_leaf_of(const uint32_t *cc, size_t nc, uint32_t m);
/* r = D ∧ f, l = D ∧ ¬f with their sizes, class counts, leaf costs and hashes. */
void bs_split(bs_search *s, const bs_set *D, size_t f, bs_set *l, bs_set *r);
void bs_lookup(bs_search *s, bs_set *D);
/* D's cache node, made if absent (NULL when the cache is full). */
bc_node *bs_node_of(bs_search *s, bs_set *D);
/* T(D_old, d, n) − |D_old \ D| over the item sets last solved at depth d. */
bs_value bs_similarity_lb(bs_search *s, const bs_set *D, uint32_t d, uint32_t n);
/* D was solved at depth d: it replaces the more similar stored set. */
void bs_sim_push(bs_search *s, const bs_set *D, uint32_t d);
/* The best lower bound known for (D, d, n) without searching. */
bs_value bs_lower_of(bs_search *s, bs_set *D, uint32_t d, uint32_t n);
bs_value bs_lower_cheap(bs_search *s, bs_set *D, uint32_t d, uint32_t n);
bs_value bs_lower_witness(bs_search *s, bs_set *D, uint32_t d, uint32_t n);
/* binary_perfect.c (two classes): a lower bound L ≤ k + 1 on the branch nodes of
 * a tree with no error over the m items within depth d (k ≤ 3; L = k + 1: none
 * has ≤ k).  *depth > 0 when a tree of L nodes exists: its depth (BP_EXACT_LEAF
 * for 0 nodes); 0 when L is only a bound. */
#define BP_EXACT_LEAF UINT32_MAX
uint32_t bp_least(bs_search *s, const uint64_t *items, uint32_t m, uint32_t d, uint32_t k, uint32_t *depth);
void bp_init(bs_search *s);
/* A sample of up to 64 items spread over the m items, for bp_least_in. */
void bp_parent_build(bs_search *s, bp_parent *p, const uint64_t *items, uint32_t m);
/* bp_least for the items of p's node with feature f = side (their m items):
 * first on p's sample restricted to that side, then as bp_least. */
uint32_t bp_least_in(bs_search *s, const bp_parent *p, uint32_t f, int side, const uint64_t *items, uint32_t m,
                     uint32_t d, uint32_t k, uint32_t *depth);
void bp_clear(bs_search *s);
/* binary_witness.c: the sample items idx[j] for the bits j of slots have no
 * errorless tree of ≤ k nodes within depth d (a witness for every superset). */
void bw_add(bs_search *s, const uint32_t *idx, uint64_t slots, uint32_t d, uint32_t k);
/* A lower bound for (D, d, n) from the witnesses D contains (0: none). */
bs_value bw_lower(bs_search *s, const bs_set *D, uint32_t d, uint32_t n);
/* binary_greedy.c: the size of an errorless tree of the m items within depth d
 * and n nodes found greedily (root feature `first` when it is one), as a value
 * (size · per_node); BS_VNONE when the greedy finds none.  An upper bound on
 * the optimum, nothing more. */
bs_value bs_greedy_errorless(bs_search *s, const uint64_t *items, uint32_t m, uint32_t d, uint32_t n,
                             uint32_t first);
/* Lexicographic below one error: true when the witnesses inside lv's node
 * cut every configuration (nl in nmin..nmax, nr = total − nl) of feature f
 * against cub, as cheap_cut would after the split; *local is then the least
 * of their bounds (for the refined bound). */
bool bw_feature_cut(bs_search *s, bs_level *lv, uint32_t f, uint32_t total, uint32_t nmin, uint32_t nmax,
                    int64_t cub, bs_value *local);
void bw_clear(bs_search *s);
/* The value of D's leaf. */
static inline bs_value bs_leaf_value(const bs_search *s, const bs_set *D) { return (bs_value)D->leaf * s->unit; }
/* The best lower bound for (d, n) the cache node knows, in the search's values. */
static inline bs_value bs_node_lower(const bs_search *s, const bc_node *nd, uint32_t d, uint32_t n)
{
    return bc_lower(nd, d, n, s->unit, s->per_node, s->proven);
}

/* binary_team_cache.c: D's node filled from the team's cache (NULL: not there),
 * and what D's node knows merged into it after D was solved; what the team
 * knows of D merged into the node s's own cache holds for it; the team's
 * word a lookup of the hash reads first, fetched ahead. */
bc_node *bt_shared_fetch(bs_search *s, const bs_set *D);
void bt_shared_publish(bs_search *s, const bs_set *D);
void bt_shared_refresh(bs_search *s, const bs_set *D);
void bt_shared_prefetch(const bs_search *s, uint64_t hash);
/* binary_solver.c: configuration (nl, nr) of the root split held in level 0
 * (bs_level_get(s, 0)->l, r), its children at depth dch, against cub: true
 * with the tree's value and shape in *res, else a lower bound in *local. */
bool bs_root_configuration(bs_search *s, uint32_t dch, uint32_t nl, uint32_t nr, int64_t cub, bs_out *res,
                           bs_value *local);

#endif
