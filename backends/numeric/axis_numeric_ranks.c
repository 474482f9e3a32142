/* The numeric backend's root tasks over the ranks of an MPI job (issue 13,
 * framework/pdt_parallel.h; cli/mpi/pdt_mpi.c installs the distributor).
 * Every rank runs the same search on the same data, so every rank meets the
 * same loops of root tasks (a budget split and a phase: one task per feature
 * rank) in the same order; each loop is begun collectively and its tasks are
 * handed out by the distributor (static blocks, then dynamically).  A rank's
 * workers publish its best cost now and then and search against the least
 * cost any rank published, ties included (another rank's key is not known).
 * At the end the least (cost, key) over the ranks wins — the serial answer —
 * and a rank that does not hold that tree derives it again from the key
 * (an_adopt in axis_numeric.c). */
#include "axis_numeric.h"

#define AN_SHARE_SECONDS 0.005 /* a worker publishes and reads the ranks' best at most this often */

void an_tasks_begin(an_ctx *c, _Atomic uint32_t *next)
{
    atomic_store(next, 0);
    if (c->dist) c->dist->begin(c->dist->user, c->nf, 1);
}

bool an_tasks_next(an_ctx *c, _Atomic uint32_t *next, uint32_t *t)
{
    if (!c->dist) {
        uint32_t u = atomic_fetch_add_explicit(next, 1, memory_order_relaxed);
        *t = u;
        return u < c->nf;
    }
    uint64_t lo = 0, hi = 0;
    bool got;
#pragma omp critical(pdt_distributor)
    got = c->dist->next(c->dist->user, &lo, &hi);
    *t = (uint32_t)lo;
    return got && lo < c->nf;
}

void an_ranks_share(an_ctx *w, an_inc *inc)
{
    if (!w->dist || !w->shared) return;
    double now = an_elapsed(w);
    if (now < w->last_share + AN_SHARE_SECONDS) return;
    w->last_share = now;
    int64_t mine = atomic_load_explicit(&w->shared->cost, memory_order_relaxed), all;
#pragma omp critical(pdt_distributor)
    all = w->dist->share(w->dist->user, mine);
    if (all < inc->cost) *inc = (an_inc){all, UINT64_MAX, false}; /* its ties may still win by key */
}

bool an_ranks_finish(an_ctx *c, an_inc *inc)
{
    int64_t value = inc->cost;
    uint64_t key = inc->key, work = c->stats.nodes, total = 0;
    for (unsigned w = 0; w < c->n_workers; w++) work += c->workers[w].stats.nodes;
    bool complete = !c->aborted;
    c->dist->finish(c->dist->user, &value, &key, &complete, &work, &total);
    c->aborted = !complete;
    c->rank_work_max = work;
    c->rank_work_total = total;
    if (value == inc->cost && key == inc->key) return true;
    *inc = (an_inc){value, key, false};
    return false;
}
