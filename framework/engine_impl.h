/* Internal state of one search (shared by engine.c, splitter.c and
 * combinations.c). */
#ifndef PDT_ENGINE_IMPL_H
#define PDT_ENGINE_IMPL_H

#include <time.h>

#include "clock_gate.h"
#include "memo.h"
#include "pdt_plugin.h"

/* How a node's admissible rules are obtained: already listed, or derived from
 * the parent's list as those related to `root` on side `dir`. */
typedef struct pdt_lazy_rules {
    const uint32_t *from;
    uint32_t n;
    uint32_t root; /* UINT32_MAX: `from` is the list itself */
    int dir;       /* PDT_REL_LEFT or PDT_REL_RIGHT */
} pdt_lazy_rules;

/* The root decision of a solved subproblem. */
typedef struct pdt_decision {
    int64_t payload; /* PDT_LEAF for a leaf */
    uint32_t index;  /* split index in the node's split enumeration */
    uint32_t k1;     /* budget given to the left child */
    bool has_values; /* v_l, v_r hold the children's values */
    void *v_l, *v_r;
} pdt_decision;

/* Scratch of one recursion depth. */
typedef struct pdt_frame {
    uint64_t *litems, *ritems;
    uint32_t *lrules, *rrules, *rules;
    const uint64_t **sides; /* side bitsets of the node's rules (stump fast path) */
    uint32_t cap_rules;
    void *v_leaf, *v_best, *v_l, *v_r, *v_c, *v_ubl, *v_ubr, *v_lb, *v_lb2, *v_inc;
    pdt_decision dec;
    /* duplicate-partition filter: hashes and copies of left item sets */
    uint64_t *seen_hash, *seen_items;
    uint32_t seen_cap, seen_n;
} pdt_frame;

typedef struct pdt_team pdt_team; /* engine_threads.c: workers sharing the root candidates */

typedef struct pdt_search_state {
    const pdt_problem_class *pc;
    void *inst;
    const pdt_algebra *alg;
    const pdt_ruleset *rs;
    size_t words;
    pdt_search_opts o;
    bool exact;        /* exact-size semantics */
    bool memo_on, dedup_on, data_defined, stump_on;
    const uint32_t *def_off, *def, *group; /* the ruleset's defining-point table */
    const uint64_t *sides;                 /* the ruleset's side bitsets */
    pdt_memo *memo;
    pdt_frame **frames;
    size_t n_frames;
    uint32_t root_rules; /* capacity of rule buffers */
    pdt_search_stats stats;
    bool aborted, has_deadline;
    bool dive; /* every subproblem stops at its first complete tree; nothing is cached */
    double last_progress;
    struct timespec start, deadline;
    pdt_gate gate; /* when to read the clock next */
    pdt_error *err;
    uint32_t threads; /* resolved --threads */
    pdt_team *team;   /* set in a worker: the team it belongs to */
    uint32_t root_done; /* union search: root splits wholly in the root's value (a stopped search) */
} pdt_search_state;

pdt_status pdt_engine_begin(pdt_search_state *s, const pdt_problem_class *pc, void *inst,
                            const pdt_ruleset *rs, size_t words, uint32_t root_rules,
                            const pdt_search_opts *opts, pdt_error *err);
void pdt_engine_end(pdt_search_state *s);
/* Selective solve: *found when a tree with value < ub exists; then out is the
 * optimum and s->frames[depth]->dec its root decision. */
pdt_status pdt_engine_solve(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz, uint32_t k,
                            uint32_t drem, const void *ub, bool *found, void *out);
/* The same, but the search ends as soon as a tree with value <= stop is found
 * (used to re-derive a subtree whose value is known). */
pdt_status pdt_engine_solve_until(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz,
                                  uint32_t k, uint32_t drem, const void *ub, const void *stop,
                                  bool *found, void *out);
/* Counting (non-selective algebras): the ⊕-sum over all trees of exactly k nodes. */
pdt_status pdt_engine_count(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz, uint32_t k,
                            uint32_t drem, void *out);
/* Idempotent non-selective algebras (Pareto fronts, front_search.c): the
 * ⊕-sum over all trees of at most k nodes. */
pdt_status pdt_engine_union(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz, uint32_t k,
                            uint32_t drem, void *out);
/* Children of node for split `payload` (index hint or UINT32_MAX). */
pdt_status pdt_engine_split_payload(pdt_search_state *s, const pdt_node *node, int64_t payload,
                                    uint32_t index, pdt_node *l, pdt_lazy_rules *ll, pdt_node *r,
                                    pdt_lazy_rules *lr);
/* Rebuilds the preorder tree of a solved root (decision in frames[0]). */
pdt_status pdt_engine_rebuild(pdt_search_state *s, pdt_node *root, uint32_t k, uint32_t drem,
                              int64_t **tree, size_t *len);
double pdt_engine_elapsed(const pdt_search_state *s);

/* Root candidates on threads and ranks (engine_threads.c). */
/* True when the root of this search may share its candidates over workers. */
bool pdt_engine_root_shared(const pdt_search_state *s, const pdt_node *node, const void *stop);
/* Solves the root's candidates on the workers: frames[0] holds the incumbent
 * (v_inc) and, when has_lb, the lower bound (v_lb); on return v_best, dec and
 * *found are the serial search's (the first candidate, in split order, that
 * reaches the least value below the incumbent). */
pdt_status pdt_engine_root_threads(pdt_search_state *s, pdt_node *node, uint32_t k, uint32_t drem,
                                   bool has_lb, bool *found);
/* Called by the deadline check of a worker: shared abort flag and work count. */
void pdt_team_poll(pdt_search_state *s, uint64_t since);
uint64_t pdt_team_nodes(const pdt_search_state *s);
/* engine.c for engine_threads.c: the root's candidates that pass the routine
 * filters (empty side, min-leaf, a partition seen before), in split order;
 * then one candidate solved against ub (lb: the root's lower bound or NULL). */
pdt_status pdt_engine_root_list(pdt_search_state *s, pdt_node *node, uint32_t k, uint32_t *list,
                                uint32_t *n);
pdt_status pdt_engine_root_candidate(pdt_search_state *s, pdt_node *node, uint32_t i, uint32_t k,
                                     uint32_t drem, const void *ub, const void *lb, bool *found);

/* dp.c: the search over a problem's compact keys.  *used = false (res
 * untouched) when the problem has no compact form for this instance or its
 * values outgrow machine integers; *seconds = the time it took either way. */
pdt_status pdt_dp_search(pdt_search_result *res, bool *used, const pdt_problem_class *pc, void *inst,
                         const pdt_node *root, const pdt_search_opts *opts, double *seconds,
                         pdt_error *err);

/* splitter.c */
uint32_t pdt_engine_derive_rules(const pdt_search_state *s, uint32_t *out, const pdt_lazy_rules *lz);
uint32_t pdt_engine_split_count(const pdt_search_state *s, const pdt_node *node);
pdt_status pdt_engine_split_at(pdt_search_state *s, pdt_frame *f, const pdt_node *node, uint32_t i,
                               bool *ok, int64_t *payload, pdt_node *l, pdt_lazy_rules *ll,
                               pdt_node *r, pdt_lazy_rules *lr);
bool pdt_engine_seen_before(pdt_search_state *s, pdt_frame *f, const uint64_t *items, uint32_t n_split);
void pdt_engine_seen_reset(pdt_frame *f);
pdt_frame *pdt_engine_frame(pdt_search_state *s, uint32_t depth);
uint32_t pdt_engine_depth_cap(uint32_t drem);
uint32_t pdt_engine_child_depth(uint32_t drem);

/* A tree in preorder (rule payloads, PDT_LEAF for leaves) as it is rebuilt:
 * the generic recursion (search.c) and the compact-key DP (dp.c) both write one. */
typedef struct pdt_tree_out {
    int64_t *a;
    size_t len, cap;
} pdt_tree_out;

/* Appends v; false when out of memory. */
bool pdt_tree_out_push(pdt_tree_out *t, int64_t v);

#endif
