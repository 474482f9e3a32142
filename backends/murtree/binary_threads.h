/* The binary backend's root over threads (issue 13; binary_threads.c). */
#ifndef PDT_BINARY_THREADS_H
#define PDT_BINARY_THREADS_H

#include "binary_search.h"

/* How the root's work was shared: workers, the busiest one's subproblems and
 * the sum over all (workers ≤ 1: one thread). */
typedef struct bt_work {
    uint32_t workers;
    uint64_t most, total;
} bt_work;

/* T(all items, d, n) for d ≥ 3 (limits normalised), the root's features as
 * tasks for up to `threads` workers, the search *s the first of them.  The
 * root decision is the least (value, position) over the root's configurations
 * (feature in order, then left budget; the leaf and the depth-2 tree first)
 * — by errors alone when the sizes are not proven — and the winner's
 * children are solved again by a fresh search: the tree depends neither on
 * the number of threads nor on the schedule.  *s is replaced by the search
 * whose cache holds the answer's subtrees (rebuild from it); *root is the
 * answer (feature BS_NONE: the leaf, BS_D2: the depth-2 tree). */
pdt_status bt_solve_root(bs_search **s, bs_out *root, bt_work *work, uint32_t d, uint32_t n, unsigned threads,
                         pdt_error *err);
/* bt_solve_root for trees of value ≤ ub (INT64_MAX: any; values, not errors
 * alone): *root is the least (value, position) among them, or the leaf or
 * depth-2 incumbent, of value > ub, when there is none.  alone: the ranks of an
 * MPI job do not take part (a search the caller runs on every rank itself). */
pdt_status bt_solve_root_within(bs_search **s, bs_out *root, bt_work *work, uint32_t d, uint32_t n,
                                unsigned threads, int64_t ub, bool alone, pdt_error *err);

#endif
