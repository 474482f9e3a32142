/* The root's candidates solved by several workers (issue 13): threads of
 * this process, and ranks when an MPI driver installed a distributor.
 *
 * The serial search takes the candidates in split order and keeps one only
 * when it is strictly better than everything before it (the leaf, the dive's
 * tree, earlier candidates): its answer is the FIRST candidate, in split
 * order, reaching the least value below the incumbent.  The workers compute
 * exactly that, whatever the schedule:
 *
 *  - the candidates are listed first, on one thread, with the routine
 *    filters (empty side, min-leaf, a partition seen before) applied in split
 *    order, so a partition is kept at its first position as serially;
 *  - candidate p is solved against the best (value v, position q) found so
 *    far: against v when q < p (only a strictly better value can win over an
 *    earlier position) and against succ(v) when q > p (an equal value at p
 *    wins over the later q).  A value from another rank has no known position
 *    and counts as later;
 *  - a result replaces the best when (value, position) is lexicographically
 *    smaller; ranks combine theirs the same way (MPI_MINLOC).
 * So the winning candidate is always solved with a bound above its value and
 * found, and every other candidate that could tie it loses on position.  The
 * winner's subtrees are rebuilt afterwards by the serial code, from the
 * decision and the children's values alone.
 *
 * Each worker has its own search state (frames, scratch); the subproblem
 * cache is the main search's, shared under a lock (per-worker caches cost 35 %
 * more subproblems on hyperplanes K = 2, N = 200: children recur across root
 * candidates).  A cached optimum carries the first optimal decision in split
 * order whoever stored it, and a cached lower bound only prunes, so sharing
 * changes no answer.  The bound is shared through the team under a lock, read
 * once per candidate. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine_impl.h"
#include "pdt_parallel.h"

#define MAX_CHUNK 16u

struct pdt_team {
    const pdt_algebra *alg;
    const uint32_t *list;
    pdt_work work;       /* over this rank's positions (mine), or all of them */
    const pdt_distributor *dist; /* ranks (NULL: this process alone) */
    uint32_t *mine;      /* with ranks: the positions this rank solves, in order */
    uint32_t *owned;     /* with ranks: every rank's positions, rank by rank, each in order */
    uint32_t *start;     /* rank r's are owned[start[r] .. start[r + 1]) */
    bool steal;          /* ranks take from each other's lists when their own is done */
    void *best;          /* least value so far (the incumbent at the start) */
    int64_t best_pos;    /* its position, -1: the incumbent before every candidate */
    pdt_decision dec;    /* the best candidate's root decision (values in dec.v_l, dec.v_r) */
    bool local_win;      /* a candidate of this rank set best */
    bool int_values;     /* values are int64: shared with other ranks */
    int64_t remote;      /* least value published by any rank (INT64_MAX: none) */
    atomic_bool abort;
    _Atomic uint64_t nodes;
    pdt_status st;
    pdt_error err;
    const pdt_search_state *main;
};

bool pdt_engine_root_shared(const pdt_search_state *s, const pdt_node *node, const void *stop)
{
    if (node->depth != 0 || stop || s->dive || s->o.trace || s->team || !s->alg->selective) return false;
    if (!(s->pc->flags & PDT_PROBLEM_REENTRANT)) return false;
    const pdt_distributor *d = pdt_distributor_get();
    bool ranks = d && d->size > 1 && s->alg == &pdt_algebra_min_int64;
    return s->threads > 1 || ranks;
}

void pdt_team_poll(pdt_search_state *s, uint64_t since)
{
    pdt_team *t = s->team;
    atomic_fetch_add_explicit(&t->nodes, since, memory_order_relaxed);
    if (s->aborted) atomic_store(&t->abort, true);
    else if (atomic_load_explicit(&t->abort, memory_order_relaxed)) s->aborted = true;
}

uint64_t pdt_team_nodes(const pdt_search_state *s)
{
    return atomic_load_explicit(&s->team->nodes, memory_order_relaxed) + s->team->main->stats.nodes;
}

/* ub := the bound candidate p is solved against (see the top of the file). */
static void bound_for(pdt_team *t, uint64_t p, void *ub, void *tmp)
{
    const pdt_algebra *a = t->alg;
#pragma omp critical(pdt_team)
    {
        a->set(ub, t->best);
        if (t->best_pos > (int64_t)p && !a->is_zero(ub)) a->succ(ub, t->best);
        if (t->int_values && t->remote != INT64_MAX) {
            *(int64_t *)tmp = t->remote;
            a->succ(tmp, tmp);
            if (a->cmp(tmp, ub) < 0) a->set(ub, tmp);
        }
    }
}

/* Offers the result of candidate p (frames[0] of the worker) to the team. */
static void offer(pdt_team *t, const pdt_search_state *w, uint64_t p)
{
    const pdt_algebra *a = t->alg;
    const pdt_frame *f = w->frames[0];
#pragma omp critical(pdt_team)
    {
        int c = a->cmp(f->v_best, t->best);
        if (c < 0 || (c == 0 && (int64_t)p < t->best_pos)) {
            a->set(t->best, f->v_best);
            t->best_pos = (int64_t)p;
            t->dec = (pdt_decision){f->dec.payload, f->dec.index, f->dec.k1, f->dec.has_values, t->dec.v_l,
                                    t->dec.v_r};
            a->set(t->dec.v_l, f->dec.v_l);
            a->set(t->dec.v_r, f->dec.v_r);
            t->local_win = true;
        }
    }
}

/* Publishes this rank's best and reads the others' (int64 values only). */
static void share(pdt_team *t)
{
    const pdt_distributor *d = t->dist;
    if (!d || !t->int_values) return;
#pragma omp critical(pdt_distributor)
    {
        int64_t mine;
#pragma omp critical(pdt_team)
        mine = *(const int64_t *)t->best;
        int64_t all = d->share(d->user, mine);
#pragma omp critical(pdt_team)
        t->remote = all;
    }
}

static void fail(pdt_team *t, pdt_status st, const pdt_error *err)
{
#pragma omp critical(pdt_team)
    if (!t->st) {
        t->st = st;
        t->err = *err;
    }
    atomic_store(&t->abort, true);
}

/* The next chunk [*lo, *hi) of positions *list[lo .. hi) (a NULL list: the
 * positions themselves): this rank's own, then, when the distributor
 * steals, other ranks' from the back of their lists. */
static bool team_next(pdt_team *t, const uint32_t **list, uint64_t *lo, uint64_t *hi)
{
    if (!t->steal) {
        *list = t->mine;
        return pdt_work_next(&t->work, lo, hi);
    }
    const pdt_distributor *d = t->dist;
    int owner = d->rank;
    bool ok;
#pragma omp critical(pdt_distributor)
    ok = d->own_next(d->user, t->work.chunk, &owner, lo, hi);
    *list = t->owned + t->start[owner];
    return ok;
}

/* One worker: its own search state, candidates chunk by chunk. */
static void worker(pdt_team *t, const pdt_search_state *s, pdt_node *root, uint32_t k, uint32_t drem,
                   const void *lb, pdt_search_stats *stats)
{
    pdt_search_state w;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_search_opts o = s->o;
    o.threads = 1;
    o.trace = NULL;
    o.no_memo = true; /* the main search's cache is shared, below */
    o.time_limit = 0; /* the main search's deadline, copied below */
    pdt_status st = pdt_engine_begin(&w, s->pc, s->inst, s->rs, s->words, s->root_rules, &o, &err);
    void *ub = malloc(t->alg->size), *tmp = malloc(t->alg->size);
    if (!st && (!ub || !tmp)) st = pdt_error_set(&err, PDT_ENOMEM, "out of memory");
    if (ub) t->alg->init(ub);
    if (tmp) t->alg->init(tmp);
    w.start = s->start;
    w.deadline = s->deadline;
    w.has_deadline = s->has_deadline;
    w.team = t;
    w.memo = s->memo;
    w.memo_on = s->memo_on;
#ifdef _OPENMP
    if (omp_get_thread_num() != 0) w.o.progress = NULL; /* one reporter */
#endif
    w.last_progress = s->last_progress;
    uint64_t lo, hi, since_share = 0;
    const uint32_t *list = NULL;
    while (!st && !atomic_load(&t->abort) && team_next(t, &list, &lo, &hi)) {
        for (uint64_t j = lo; j < hi && !st && !w.aborted; j++) {
            const uint64_t p = list ? list[j] : j;
            bound_for(t, p, ub, tmp);
            if (lb && t->alg->cmp(ub, lb) <= 0) continue; /* nothing here can beat it */
            bool found = false;
            pdt_node node = *root;
            st = pdt_engine_root_candidate(&w, &node, t->list[p], k, drem, ub, lb, &found);
            if (!st && found) offer(t, &w, p);
        }
        if (w.aborted) atomic_store(&t->abort, true);
        if (++since_share >= 4) share(t), since_share = 0;
    }
    if (st) fail(t, st, &err);
    w.memo = NULL; /* the main search's */
    pdt_engine_end(&w);
    *stats = w.stats;
    if (ub) t->alg->clear(ub), free(ub);
    if (tmp) t->alg->clear(tmp), free(tmp);
}

static void add_stats(pdt_search_stats *m, const pdt_search_stats *w)
{
    m->nodes += w->nodes;
    m->candidates += w->candidates;
    m->memo_hits += w->memo_hits;
    m->memo_entries += w->memo_entries;
    m->pruned += w->pruned;
}

/* The winner over the ranks; false when another rank's candidate won (its
 * position in *pos) or none won anywhere (*pos = UINT64_MAX). */
static bool finish_ranks(pdt_team *t, pdt_search_state *s, uint64_t *pos, uint64_t *work, uint64_t *total)
{
    const pdt_distributor *d = t->dist;
    int64_t value = t->local_win ? *(const int64_t *)t->best : INT64_MAX;
    *pos = t->local_win ? (uint64_t)t->best_pos : UINT64_MAX;
    bool complete = !s->aborted;
    d->finish(d->user, &value, pos, &complete, work, total);
    s->aborted = !complete;
    if (*pos == UINT64_MAX) return false;
    if (t->local_win && *pos == (uint64_t)t->best_pos) return true;
    *(int64_t *)t->best = value;
    return false;
}

/* Another rank's winner: solved here again (its bound just above its value). */
static pdt_status adopt_remote(pdt_team *t, pdt_search_state *s, pdt_node *node, uint64_t pos, uint32_t k,
                               uint32_t drem, bool *found)
{
    pdt_frame *f = s->frames[0];
    void *ub = malloc(t->alg->size);
    if (!ub) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    t->alg->init(ub);
    t->alg->succ(ub, t->best);
    bool deadline = s->has_deadline, aborted = s->aborted;
    const volatile sig_atomic_t *stop = s->o.stop;
    s->has_deadline = false; /* the winner's tree must be completed */
    s->o.stop = NULL;
    s->aborted = false;
    pdt_status st = pdt_engine_root_candidate(s, node, t->list[pos], k, drem, ub, NULL, found);
    s->has_deadline = deadline;
    s->o.stop = stop;
    s->aborted = aborted;
    t->alg->clear(ub);
    free(ub);
    if (!st && !*found)
        st = pdt_error_set(s->err, PDT_EINTERNAL, "another rank's best root candidate could not be re-derived");
    if (!st) t->alg->set(f->v_inc, f->v_best);
    return st;
}

static uint64_t items_hash(const uint64_t *items, size_t words)
{
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t k = 0; k < words; k++) h = (h ^ items[k]) * UINT64_C(0xff51afd7ed558ccd) + k;
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    return h ^ (h >> 29);
}

/* With ranks: the positions each rank owns.  Position p goes to the rank a
 * hash of its root partition names — the same for a split and its mirror
 * image (sides exchanged), whose children are the same subproblems: so they
 * meet in one rank's cache (dealt out in chunks, a rank met 27 % of the
 * serial search's cache hits on hyperplanes K = 2, N = 200, and its
 * subproblems examined 69 % of the serial candidates instead of half).
 * Every rank computes the same assignment; no message is needed.  A rank
 * done with its own list steals from the back of another's (the ranks'
 * times differ by 10 % on hyperplanes N = 200 with equal subproblem counts),
 * so every rank needs every list. */
static pdt_status own_positions(pdt_team *t, pdt_search_state *s, pdt_node *node, uint32_t n,
                                const pdt_distributor *d, uint64_t *mine)
{
    uint32_t ranks = (uint32_t)d->size;
    uint32_t *of = malloc((n ? n : 1) * sizeof *of);
    t->owned = malloc((n ? n : 1) * sizeof *t->owned);
    t->start = calloc(ranks + 1, sizeof *t->start);
    if (!of || !t->owned || !t->start) {
        free(of);
        return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    for (uint32_t p = 0; p < n; p++) {
        bool ok = false;
        int64_t payload = 0;
        pdt_node l, r;
        pdt_lazy_rules ll, lr;
        pdt_status st = pdt_engine_split_at(s, s->frames[0], node, t->list[p], &ok, &payload, &l, &ll, &r, &lr);
        if (st) {
            free(of);
            return st;
        }
        uint64_t h = ok ? items_hash(l.items, s->words) + items_hash(r.items, s->words) : p;
        of[p] = (uint32_t)((h ^ h >> 32) % ranks);
        t->start[of[p] + 1]++;
    }
    for (uint32_t r = 0; r < ranks; r++) t->start[r + 1] += t->start[r];
    uint32_t *at = t->start; /* filled in order: start[r] walks to start[r + 1], then back */
    for (uint32_t p = 0; p < n; p++) t->owned[at[of[p]]++] = p;
    for (uint32_t r = ranks; r > 0; r--) t->start[r] = t->start[r - 1];
    t->start[0] = 0;
    free(of);
    t->mine = t->owned + t->start[d->rank];
    *mine = t->start[d->rank + 1] - t->start[d->rank];
    t->steal = d->own_begin && d->own_next;
    return PDT_OK;
}

static pdt_status team_init(pdt_team *t, pdt_search_state *s, pdt_node *node, const uint32_t *list, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->alg = s->alg;
    t->list = list;
    t->main = s;
    t->best_pos = -1;
    t->remote = INT64_MAX;
    t->int_values = s->alg == &pdt_algebra_min_int64;
    void **vals[] = {&t->best, &t->dec.v_l, &t->dec.v_r};
    for (size_t i = 0; i < 3; i++) {
        *vals[i] = malloc(s->alg->size);
        if (!*vals[i]) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
        s->alg->init(*vals[i]);
    }
    s->alg->set(t->best, s->frames[0]->v_inc);
    const pdt_distributor *d = pdt_distributor_get();
    if (d && d->size <= 1) d = NULL;
    if (!t->int_values) d = NULL;
    uint64_t ways = (uint64_t)(s->threads ? s->threads : 1) * (uint64_t)(d ? d->size : 1);
    uint64_t chunk = n / (8 * ways), mine = n;
    chunk = chunk < 1 ? 1 : chunk > MAX_CHUNK ? MAX_CHUNK : chunk;
    t->dist = d;
    if (d) {
        pdt_status st = own_positions(t, s, node, n, d, &mine);
        if (st) return st;
        d->begin(d->user, n, chunk); /* collective: resets the shared bound */
        if (t->steal) d->own_begin(d->user, mine);
    }
    pdt_work_begin(&t->work, NULL, mine, chunk);
    return PDT_OK;
}

static void team_clear(pdt_team *t)
{
    void *vals[] = {t->best, t->dec.v_l, t->dec.v_r};
    for (size_t i = 0; i < 3; i++)
        if (vals[i]) t->alg->clear(vals[i]), free(vals[i]);
    free(t->owned);
    free(t->start);
}

static void run_workers(pdt_team *t, pdt_search_state *s, pdt_node *node, uint32_t k, uint32_t drem,
                        const void *lb, pdt_search_stats *per)
{
    unsigned nt = s->threads ? s->threads : 1;
    if ((uint64_t)t->work.n * node->n_items < pdt_parallel_min()) nt = 1; /* small: one thread */
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        unsigned me = 0;
#ifdef _OPENMP
        me = (unsigned)omp_get_thread_num();
#endif
        worker(t, s, node, k, drem, lb, &per[me]);
    }
    uint64_t most = 0, all = 0;
    for (unsigned i = 0; i < nt; i++) {
        add_stats(&s->stats, &per[i]);
        most = per[i].nodes > most ? per[i].nodes : most;
        all += per[i].nodes;
    }
    s->stats.workers = nt;
    s->stats.work_max = most;
    s->stats.work_total = all;
    if (atomic_load(&t->abort) && !t->st) s->aborted = true;
}

pdt_status pdt_engine_root_threads(pdt_search_state *s, pdt_node *node, uint32_t k, uint32_t drem,
                                   bool has_lb, bool *found)
{
    pdt_frame *f = s->frames[0];
    uint32_t n_split = pdt_engine_split_count(s, node), n = 0;
    uint32_t *list = malloc((n_split ? n_split : 1) * sizeof *list);
    pdt_search_stats *per = calloc(s->threads ? s->threads : 1, sizeof *per);
    pdt_team t;
    memset(&t, 0, sizeof t);
    pdt_status st = list && per ? pdt_engine_root_list(s, node, k, list, &n)
                                : pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    if (!st) st = team_init(&t, s, node, list, n);
    if (!st) {
        run_workers(&t, s, node, k, drem, has_lb ? f->v_lb : NULL, per);
        st = t.st;
        if (st) *s->err = t.err;
    }
    bool local = !st && t.local_win;
    if (!st && t.dist) {
        uint64_t pos, work = s->stats.work_total, total = 0;
        local = finish_ranks(&t, s, &pos, &work, &total);
        s->stats.workers = (uint32_t)t.dist->size;
        s->stats.work_max = work;
        s->stats.work_total = total;
        if (!local && pos != UINT64_MAX) st = adopt_remote(&t, s, node, pos, k, drem, found);
    }
    if (local) {
        s->alg->set(f->v_best, t.best);
        s->alg->set(f->v_inc, t.best);
        f->dec = (pdt_decision){t.dec.payload, t.dec.index, t.dec.k1, t.dec.has_values, f->dec.v_l, f->dec.v_r};
        s->alg->set(f->dec.v_l, t.dec.v_l);
        s->alg->set(f->dec.v_r, t.dec.v_r);
        *found = true;
    }
    team_clear(&t);
    free(list);
    free(per);
    return st;
}
