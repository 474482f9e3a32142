/* The discrete search: a dynamic programme over branches (after Chaouki, Read, Bifet, "Branches"):
 * optimal trees over discrete features, where a split on feature f has one
 * child per value of f present in the region (two for a binary feature), for
 * the sparse objective without any depth or size limit, or for the fewest
 * errors (then the fewest branch nodes) under a depth limit.
 *
 * A branch is a conjunction of conditions x_f = v, one per feature at most;
 * its depth is its length, so optima are cached by branch.  Costs are
 * integers: an error costs err_cost, a branch node split_cost (λ = a/b on N
 * rows: err_cost = b, split_cost = a·N).  The search is depth-first
 * branch-and-bound: a region's leaf is optimal once no split can beat it —
 * a split costs split_cost plus, in every child, the least of its leaf and
 * another split over the errors no tree can avoid (rows equal on every
 * feature with different labels): Branches' purification bound, sharpened by
 * those unavoidable errors and by one level of look-ahead.  Splits are tried
 * in the order of that bound, their children in turns under budgets grown by
 * doubling steps; a split that gains no more than its cost over one child's
 * tree alone is never tried, and without a depth limit a child's bound
 * bounds its region (docs/categorical.md).
 *
 * Used by the categorical family (multiway splits on categorical columns,
 * rules/categorical.c) and by the binary family for --sparse without limits
 * (each binarised feature a two-valued one). */
#ifndef PDT_DISCRETE_H
#define PDT_DISCRETE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdt.h"

#define DC_LEAF UINT32_MAX
#define DC_PROOF_THREADS 64
#define DC_DEEPER_IDLE 2

struct dc_result;

typedef struct dc_problem {
    size_t n, nf, nc;             /* rows, features, classes */
    const uint16_t *x;            /* n * nf codes, row-major: row i's code of feature f */
    const uint16_t *k;            /* nf: codes of feature f are < k[f] */
    const uint32_t *y;            /* n class indices < nc */
    int64_t err_cost, split_cost; /* > 0 and >= 0 */
    uint32_t max_depth;           /* PDT_UNLIMITED: none */
    size_t memo_bytes;            /* 0: 1 GiB */
    double time_limit;            /* seconds; 0: none */
    const volatile sig_atomic_t *stop;
    int64_t incumbent;            /* > 0: the cost of a tree the caller has; only cheaper ones
                                     are sought (none found and not stopped: it is optimal) */
    uint64_t max_rows;            /* > 0: stop ("row budget") once the rows of the regions
                                     searched (warm and deeper runs included, every thread's)
                                     sum to this */
    uint32_t threads;             /* the full search's (0: one; at most DC_PROOF_THREADS): the
                                     others search the root beside it, the memo shared */
    /* Optional: the anytime schedule's deeper incumbents made outside the
     * search, at depth `depth` (deeper_from, then one more each time one is
     * finished) within `seconds` and `memo_bytes`, what the search's memo
     * leaves of memo_bytes above (the memory limit holds for both).  Returns
     * 1 when that depth was finished, 0 when not (it is asked again at the
     * next turn, with its budget), -1 when it wants no more turns (a fit
     * failed, too little memory); *cost: the cost of the cheapest tree it
     * has made (INT64_MAX: none), which the caller keeps, not the search.
     * NULL: the search runs its own deeper searches.  Either way the turns
     * end after DC_DEEPER_IDLE in a row that give no tree cheaper than the
     * best known: the search's, deeper_had, the hook's. */
    int (*deeper)(void *user, uint32_t depth, double seconds, size_t memo_bytes, int64_t *cost);
    void *deeper_user;
    uint32_t deeper_from;
    int64_t deeper_had;           /* > 0: the cost of a tree the caller made before the search
                                     (the fit's warm start), for the rule above */
    /* Optional: called about once a second, on the thread running dc_solve, with its
     * evaluations so far and its best tree so far (NULL: none yet). */
    void (*progress)(void *user, uint64_t evaluations, const struct dc_result *best);
    void *progress_user;
    /* Tests: called once the search is over, for every region the memo holds, with
     * its rows (len of them, increasing), the levels left it had (PDT_UNLIMITED:
     * no limit), and what is known of it: its optimum (solved) or a lower bound. */
    void (*audit)(void *user, const uint32_t *rows, size_t len, uint32_t rem, int64_t lb, bool solved);
    void *audit_user;
} dc_problem;

typedef struct dc_node {
    uint32_t feature;             /* DC_LEAF for a leaf */
    uint32_t label;               /* majority class (ties: smallest index) */
    uint32_t first, n_children;   /* children: nodes[first ..), in increasing code */
    uint16_t code;                /* the code of the parent's feature that leads here */
    uint64_t n_items;
    uint64_t errors;              /* leaf: its misclassifications */
} dc_node;

typedef struct dc_result {
    dc_node *nodes;               /* nodes[0] is the root; a node's children are consecutive */
    size_t n_nodes;
    uint64_t *counts;             /* n_nodes * nc class counts */
    int64_t cost;                 /* errors·err_cost + branch nodes·split_cost */
    uint64_t errors, splits;
    bool found;                   /* a tree is here (always, without an incumbent); false: none
                                     cheaper than the caller's incumbent was found */
    bool optimal;                 /* the search finished: the tree here (or the caller's
                                     incumbent when none is) is optimal */
    const char *stopped_by;       /* "time limit", "interrupt", "memory limit" (the PDT_STOP_* names),
                                     "row budget" (max_rows) or NULL */
    uint64_t evaluations, memo_entries;
    uint64_t memo_collections;    /* times the memo, full, dropped what the search can find again */
    uint64_t memo_moved_by_runs;  /* times the memo grew while threads shared it (its entries moved by
                                     every thread waiting for it) */
    uint32_t threads;             /* that searched the root of the full search (dc_problem.threads,
                                     fewer when memory or threads were lacking) */
    uint64_t work_max, work_total; /* with threads > 1: that search's evaluations, the busiest
                                      thread's and all of them (evaluations also counts the runs
                                      before it) */
} dc_result;

pdt_status dc_solve(dc_result *out, const dc_problem *p, pdt_error *err);
void dc_result_clear(dc_result *r);

#endif

/* ------------------------------------------------------------ the families' fits (discrete_fit.c) */

/* The categorical family: a multiway split per categorical column, a
 * threshold feature x ≤ t per cut of a numeric column; --sparse λ (with or
 * without --depth) or --depth alone (fewest errors, then fewest nodes). */
pdt_status dc_fit_categorical(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt,
                              pdt_error *err);
/* What the categorical fit does not take, or NULL. */
const char *dc_fit_declines(const pdt_dataset *ds, const pdt_fit_options *opt);
/* The binary family with --sparse and no depth or size limit: its binarised
 * features, two children each. */
pdt_status dc_fit_binary(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);

extern const pdt_rule_class pdt_rule_class_categorical;
