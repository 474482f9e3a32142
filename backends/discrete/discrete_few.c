/* Few nodes by plain accuracy searches (step 8 of docs/categorical.md).
 * A tree cheaper than cost C with k branch nodes has errors E ≤ ub_k =
 * ⌊(C − 1 − k·split_cost) / err_cost⌋ and at most k levels.  So the sparse
 * optimum over the trees of at most K nodes that beat C is the least, over
 * k = 1..K, of k·split_cost + E(k)·err_cost, E(k) the fewest errors of a tree
 * of at most k nodes and k levels — and each E(k) is only needed when it is
 * at most ub_k: the binary backend's accuracy search under that bound either
 * finds E(k) or proves there is none (cheaper than finding the optimum and
 * proving it, which its sparse objective does for the largest k).  A tree
 * found lowers C for the next k.  The largest k first: the lower bounds its
 * search stores (for a depth and a size) hold for every smaller limit, and
 * spare the smaller k most of their work (mushroom one-hot, λ = 0.001: k = 5
 * after k = 6 0.4 s of CPU, alone 1.4 s). */
#include <stdio.h>
#include <stdlib.h>

#include "discrete_impl.h"
#include "../murtree/binary_search.h"
#include "../murtree/binary_threads.h"

/* PDT_DISCRETE_FEW_STATS set: each k's search work on stderr (deterministic
 * counts with one thread; with more, the workers' sum). */
static void few_stats(bs_search *s, uint32_t k, int64_t ub, const bs_out *o)
{
    if (!getenv("PDT_DISCRETE_FEW_STATS")) return;
    const bs_stats *st = bs_search_stats(s);
    fprintf(stderr, "few k=%u ub=%lld: %s, nodes %llu configs %llu d2 %llu d1 %llu pruned %llu\n", k,
            (long long)ub, o->cost == BS_VNONE ? "none" : "found", (unsigned long long)st->nodes,
            (unsigned long long)st->configs, (unsigned long long)st->d2_calls,
            (unsigned long long)st->d1_calls, (unsigned long long)st->pruned);
}

/* E(k) under ub: for k ≥ 3 on the backend's threaded root (its workers split
 * the root's features; this process alone, not the ranks of an MPI job, which
 * all run this route themselves), else serially.  o->cost is BS_VNONE when no
 * tree is within ub.  *s may be replaced by the search holding the answer. */
static pdt_status within(dc_few *fw, bs_search **s, const bs_data *data, uint32_t k, int64_t ub, bs_out *o,
                         pdt_error *err)
{
    if (k < 3 || fw->threads == 1) {
        bs_solve_items(*s, o, data->all, k, k, ub);
        return PDT_OK;
    }
    bt_work work;
    pdt_status st = bt_solve_root_within(s, o, &work, k, k, fw->threads, ub, true, err);
    if (!st && (int64_t)o->cost > ub) o->cost = BS_VNONE; /* the incumbent: none within ub */
    return st;
}

static pdt_status few_scan(dc_few *fw, bs_search **s, const bs_data *data, pdt_error *err)
{
    for (uint32_t k = fw->k_max; k >= 1 && !bs_aborted(*s); k--) {
        int64_t room = fw->cost - 1 - (int64_t)k * fw->split_cost;
        if (room < 0) continue; /* more nodes cost more */
        int64_t ub = room / fw->err_cost;
        bs_out o;
        pdt_status st = within(fw, s, data, k, ub, &o, err);
        if (st) return st;
        few_stats(*s, k, ub, &o);
        if (bs_aborted(*s) || o.cost == BS_VNONE) continue;
        /* a tree of E(k) errors, o.size <= k nodes, o.depth levels */
        int64_t cost = (int64_t)o.cost * fw->err_cost + (int64_t)o.size * fw->split_cost;
        if (cost < fw->cost) fw->cost = cost, fw->k_best = k, fw->depth_best = o.depth, fw->size_best = o.size;
    }
    return PDT_OK;
}

pdt_status dc_few_search(dc_few *fw, const pdt_dataset *ds, const bin_encoding *enc, pdt_error *err)
{
    fw->k_best = 0;
    fw->stopped = false;
    bs_data data = {0};
    bs_search *s = NULL;
    size_t mb = fw->memo_megabytes ? fw->memo_megabytes : 1024;
    pdt_status st = bs_data_build(&data, ds, enc, err);
    if (!st) st = bs_search_new(&s, &data, mb << 20, fw->time_limit, NULL, NULL, err);
    if (!st) {
        bs_set_stop(s, fw->stop);
        st = few_scan(fw, &s, &data, err);
        fw->stopped = bs_aborted(s) || bs_out_of_memory(s);
    }
    bs_search_free(&s);
    bs_data_clear(&data);
    return st;
}
