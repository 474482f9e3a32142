/* The binary backend's root over threads (issue 13): the root's features are
 * tasks handed out to workers, each a search of its own (cache, depth-2
 * solver, scratch); the incumbent is shared.
 *
 * The answer must not depend on the workers, so the root decision is defined
 * by a fixed order, not by which worker finished first: every configuration
 * (feature f, left budget nl) has a position — the kept features in order,
 * then nl ascending; the incumbent before the loop (the leaf, or the depth-2
 * tree) comes first — and the root takes the least (rank, position), where
 * the rank is the value, or only its errors when the search does not prove
 * the sizes (then a subtree's size depends on what the cache held).  A
 * configuration is solved against the best (rank r, position q) known: "below
 * r" when q precedes it, "at most r" when it precedes q.  The winner is thus
 * always solved with a bound above its rank and found, and every tie loses to
 * it by position.  The ranks are exact (optimal values, or optimal errors)
 * whatever a worker's cache held, so the winner is the same for any number of
 * workers and any schedule.  Its children are then solved again by a fresh
 * search, whose cache the tree is rebuilt from: a serial search from the
 * same start, hence the same subtrees (their sizes too).  With one thread the
 * same steps run in order.
 *
 * Features that split the root's items as an earlier one does (or its
 * complement) are dropped before the loop, serially, as the serial search
 * drops them.  Each worker has a cache of its own; what they solve is shared
 * through the team cache (binary_team_cache.c), and the root's children they
 * tried bound the next ones by similarity (binary_root_sim.c).
 *
 * Ranks of an MPI job (framework/pdt_parallel.h) run the same search to the
 * root loop and split its features (static blocks, then dynamically); after
 * each feature a rank publishes its best rank and searches against the least
 * any rank published, ties included (that rank's position is not known).  At
 * the end the least (rank, position) over the ranks wins, and a rank that does
 * not hold it reads the feature and budget from the position: the winner's
 * children are solved again anyway, so every rank builds the same tree. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "binary_threads.h"
#include "binary_root_sim.h"
#include "binary_team_cache.h"
#include "binary_solver.h"
#include "bitset.h"
#include "pdt_parallel.h"

typedef struct bt_best {
    bs_value rank; /* the value, or its errors (errors_only) */
    uint64_t key;  /* 0: the incumbent; else (position + 1) << 32 | nl */
    bs_out out;
    unsigned worker;
} bt_best;

typedef struct bt_team {
    bs_search **w;
    unsigned n_workers;
    uint32_t *features; /* kept root features, in order */
    size_t n_features;
    bs_set root;
    uint32_t d, n, nmin, nmax;
    bool errors_only;
    uint64_t first; /* positions before it were solved alone (the warm start) */
    bt_best best;
    pdt_work work;
    atomic_bool abort;
    int64_t remote; /* least rank another MPI rank published, a greedy errorless tree's value
                     * (binary_greedy.c) or the caller's bound: of no position (INT64_MAX: none) */
    bool alone;     /* the caller's search only: not shared with the ranks of an MPI job */
    br_sim sim;     /* the root's children tried so far (binary_root_sim.c) */
} bt_team;

static bs_value rank_of(const bt_team *t, const bs_search *s, bs_value v)
{
    return t->errors_only ? v / s->unit : v;
}

/* ------------------------------------------------------------ setup */

static bool set_root(bt_team *t, bs_search *s)
{
    const size_t W = s->words;
    bs_set *D = &t->root;
    D->cc = malloc(s->nc * sizeof *D->cc);
    if (!D->cc) return false;
    D->bits = s->data->all;
    D->m = 0;
    for (size_t c = 0; c < s->nc; c++) {
        D->cc[c] = pdt_bits_and_count(D->bits, s->data->cls + c * W, W);
        D->m += D->cc[c];
    }
    D->leaf = bs_leaf_of(D->cc, s->nc, D->m);
    D->hash = bc_hash(D->bits, W);
    return true;
}

/* --lexicographic: the root's features by the value (errors, nodes) of their
 * best tree of depth 3 — the children's depth-2 optima, which their search
 * needs anyway — ties by index, so that a small tree is met early and bounds
 * the rest (mushroom depth 6: 13 286 search nodes before, 1 648 after).  The
 * order is fixed by the data: the answer does not depend on the workers. */
typedef struct bt_ranked {
    uint64_t value;
    uint32_t f;
} bt_ranked;

static int ranked_cmp(const void *a, const void *b)
{
    const bt_ranked *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return x->f < y->f ? -1 : x->f > y->f;
}

/* The least (errors, nodes) of the child's trees of depth ≤ 2 (kept in its cache node). */
static uint64_t child_value(bs_search *s, bs_set *C)
{
    bc_node *nd = bs_node_of(s, C), local = {.leaf = C->leaf, .d2 = {BS_NONE, BS_NONE, BS_NONE}};
    if (!nd) nd = &local;
    if (nd->d2[1] == BS_NONE) {
        d2_values(s->d2, C->bits, C->m, nd->d2);
        s->stats.d2_calls++;
    }
    uint32_t errors, k = bc_d2_size(nd, 2, 3, &errors);
    return (uint64_t)errors * s->unit + k;
}

static void order_features(bt_team *t, bs_search *s, bs_level *lv)
{
    bt_ranked *r = malloc((t->n_features ? t->n_features : 1) * sizeof *r);
    if (!r) return; /* the order is only a heuristic */
    for (size_t k = 0; k < t->n_features; k++) {
        bs_split(s, &t->root, t->features[k], &lv->l, &lv->r);
        r[k] = (bt_ranked){child_value(s, &lv->l) + child_value(s, &lv->r), t->features[k]};
    }
    qsort(r, t->n_features, sizeof *r, ranked_cmp);
    for (size_t k = 0; k < t->n_features; k++) t->features[k] = r[k].f;
    free(r);
}

/* The features whose split of the root is neither degenerate nor one an
 * earlier feature makes (or its complement), in order. */
static bool keep_features(bt_team *t, bs_search *s)
{
    bs_level *lv = bs_level_get(s, 0);
    const size_t nf = s->data->nf, W = s->words;
    size_t cap = 16;
    while (cap < 2 * nf + 2) cap *= 2;
    uint64_t *hash = calloc(cap, sizeof *hash);
    uint32_t *at = malloc(cap * sizeof *at);
    t->features = malloc((nf ? nf : 1) * sizeof *t->features);
    if (!lv || !hash || !at || !t->features) {
        free(hash), free(at);
        return false;
    }
    const bs_set *D = &t->root;
    for (uint32_t f = 0; f < nf; f++) {
        bs_split(s, D, f, &lv->l, &lv->r);
        if (lv->l.m == 0 || lv->r.m == 0) continue;
        const uint64_t hr = lv->r.hash | 1, hl = lv->l.hash | 1;
        bool seen = false;
        for (int side = 0; side < 2 && !seen; side++) {
            const uint64_t h = side ? hl : hr, *want = side ? lv->l.bits : lv->r.bits;
            for (size_t p = (size_t)h & (cap - 1); hash[p] && !seen; p = (p + 1) & (cap - 1)) {
                if (hash[p] != h) continue;
                const uint64_t *col = s->data->cols + (size_t)at[p] * W;
                bool same = true;
                for (size_t k = 0; k < W && same; k++) same = (D->bits[k] & col[k]) == want[k];
                seen = same;
            }
        }
        if (seen) continue;
        size_t p = (size_t)hr & (cap - 1);
        while (hash[p]) p = (p + 1) & (cap - 1);
        hash[p] = hr;
        at[p] = f;
        t->features[t->n_features++] = f;
    }
    free(hash);
    free(at);
    if (s->proven) order_features(t, s, lv);
    return true;
}

/* The incumbent before the loop: the leaf, or the depth-2 tree (computed
 * here if the caller did not). */
static void set_incumbent(bt_team *t, bs_search *s)
{
    bs_set *D = &t->root;
    t->best = (bt_best){.out = {.cost = bs_leaf_value(s, D), .feature = BS_NONE, .d = t->d, .n = t->n}};
    bc_node *nd = bs_node_of(s, D);
    if (nd && nd->d2[1] == BS_NONE) {
        d2_values(s->d2, D->bits, D->m, nd->d2);
        s->stats.d2_calls++;
    }
    if (nd) {
        uint32_t errors, j = bc_d2_size(nd, 2, t->n < 3 ? t->n : 3, &errors);
        bs_value v = (bs_value)errors * s->unit + (bs_value)j * s->per_node;
        if (j && v < t->best.out.cost)
            t->best.out = (bs_out){.cost = v, .lb = v, .feature = BS_D2, .nl = j, .size = j,
                                   .depth = j == 1 ? 1 : 2, .d = t->d, .n = t->n};
    }
    t->best.rank = rank_of(t, s, t->best.out.cost);
    s->root_best = t->best.out.cost;
}

static pdt_status clone(bs_search **out, const bs_search *m, size_t limit, pdt_error *err)
{
    pdt_status st = bs_search_new(out, m->data, limit, 0, NULL, NULL, err);
    if (st) return st;
    bs_search *s = *out;
    s->start = m->start;
    s->deadline = m->deadline;
    s->has_deadline = m->has_deadline;
    s->stop = m->stop;
    s->unit = m->unit;
    s->per_node = m->per_node;
    s->proven = m->proven;
    if (m->bp_rows) bp_init(s); /* the errorless test of --lexicographic, as the main search's */
    return PDT_OK;
}

/* ------------------------------------------------------------ the loop */

/* Once the root has an errorless tree (cost below one error), --lexicographic
 * only looks for errorless trees: many similarity slots, witnesses, and the
 * sample test on every item set. */
static void errorless_regime(bs_search *w, bs_value cost)
{
    if (!w->proven || cost >= w->unit) return;
    if (w->sim_wide_slots > SIM_SLOTS) w->sim_wide = true;
    if (!w->errorless_root) {
        w->errorless_root = true;
        w->bp_min_items = w->bp_min_errorless;
    }
}

/* The bound configuration `key` is solved against (see the top of the file). */
static int64_t bound(bt_team *t, bs_search *w, uint64_t key, bool main)
{
    bs_value r, cost;
    uint64_t q;
#pragma omp critical(bt_best)
    {
        r = t->best.rank, q = t->best.key, cost = t->best.out.cost;
        if (t->remote < (int64_t)r) r = (bs_value)t->remote, q = UINT64_MAX; /* its position: unknown */
    }
    if (main) w->root_best = cost; /* for the progress line */
    errorless_regime(w, t->errors_only || cost < r ? cost : r); /* r: a greedy errorless bound too */
    const int64_t strict = q < key;
    if (!t->errors_only) return (int64_t)r - strict;
    return ((int64_t)r + 1 - strict) * (int64_t)w->unit - 1;
}

static void offer(bt_team *t, const bs_search *w, unsigned worker, uint64_t key, uint32_t f, uint32_t nl,
                  const bs_out *res)
{
    const bs_value r = rank_of(t, w, res->cost);
#pragma omp critical(bt_best)
    if (r < t->best.rank || (r == t->best.rank && key < t->best.key)) {
        /* the left child's value is its exact optimum when values are (errors, nodes) optima */
        t->best = (bt_best){r, key, {res->cost, res->cost, res->size, res->depth, f, nl, t->d, t->n, res->left,
                                     res->has_left && !t->errors_only}, worker};
    }
}

/* Publishes this rank's best rank and reads the least of all ranks. */
static void share_ranks(bt_team *t)
{
    const pdt_distributor *d = t->work.dist;
    if (!d) return;
    int64_t mine, all;
#pragma omp critical(bt_best)
    mine = (int64_t)t->best.rank;
#pragma omp critical(pdt_distributor)
    all = d->share(d->user, mine);
#pragma omp critical(bt_best)
    if (all < t->remote) t->remote = all;
}

static void run_worker(bt_team *t, unsigned id)
{
    bs_search *w = t->w[id];
    bs_level *lv = bs_level_get(w, 0);
    if (!lv) bs_fail_oom(w);
    /* the root's depth-2 context, as the serial search's level 0 keeps it (binary_d2_context.c) */
    const uint64_t gen = lv ? d2_context_enter_depth(w->d2, t->root.bits, t->root.m, t->d) : 0;
    if (lv) { /* the level's node and its sample of items (the errorless test of --lexicographic) */
        lv->node = &t->root;
        lv->sample.ready = false;
        lv->wit_ready = false;
        lv->wit_dch = t->d - 1;
    }
    uint64_t lo, hi;
    while (!w->aborted && pdt_work_next(&t->work, &lo, &hi)) {
        for (uint64_t p = lo + t->first; p < hi + t->first && !w->aborted; p++) {
            const uint32_t f = t->features[p];
            bs_split(w, &t->root, f, &lv->l, &lv->r);
            lv->l.gen = lv->r.gen = gen;
            for (uint32_t nl = t->nmin; nl <= t->nmax && !w->aborted; nl++) {
                if (atomic_load_explicit(&t->abort, memory_order_relaxed)) w->aborted = true;
                const uint64_t key = (p + 1) << 32 | nl;
                const int64_t cub = bound(t, w, key, id == 0);
                bs_out res;
                bs_value local = 0;
                const uint32_t nr = t->n - 1 - nl;
                if (cub >= 0 && !w->aborted) {
                    br_sim_apply(&t->sim, w, &lv->l, t->d - 1, nl);
                    br_sim_apply(&t->sim, w, &lv->r, t->d - 1, nr);
                    if (bs_root_configuration(w, t->d - 1, nl, nr, cub, &res, &local)) offer(t, w, id, key, f, nl, &res);
                }
                if (!w->aborted) {
                    br_sim_add(&t->sim, w, &lv->l, t->d - 1, nl);
                    br_sim_add(&t->sim, w, &lv->r, t->d - 1, nr);
                }
            }
            share_ranks(t);
            if (w->shared) bt_shared_flush(w->shared); /* the feature's nodes, for the others' next features */
        }
    }
    if (w->aborted) atomic_store(&t->abort, true);
}

/* ------------------------------------------------------------ the answer */

/* The depth-2 optima the workers' caches hold for the items (read only: the
 * workers are done).  They are facts about the item set, whoever computed
 * them, and the fresh search asks for them only where it would run the
 * depth-2 solver itself: it visits the same subproblems, meets the same values
 * and stores the same entries as from an empty start (the same tree), in less
 * time — the values come from a lookup, not from the pair counts. */
typedef struct bt_seed {
    bs_search *const *w;
    unsigned n;
} bt_seed;

static bool seed_d2(void *user, const uint64_t *items, uint32_t m, uint32_t v[3])
{
    const bt_seed *sd = user;
    const uint64_t hash = bc_hash(items, sd->w[0]->words);
    for (unsigned k = 0; k < sd->n; k++) {
        const bc_node *nd = bc_find(&sd->w[k]->cache, items, hash, m);
        if (nd && nd->d2[0] != BS_NONE && nd->d2[1] != BS_NONE && nd->d2[2] != BS_NONE) {
            memcpy(v, nd->d2, sizeof nd->d2);
            return true;
        }
    }
    return false;
}

/* The winner's children solved by the fresh search c, against the winner's
 * rank (the bounds are the same for any run): the tree is rebuilt from c. */
static bool canonical(bt_team *t, bs_search *c, bs_out *o)
{
    const size_t W = c->words;
    const bs_out *b = &t->best.out;
    uint64_t *items = malloc(2 * W * sizeof *items);
    if (!items) return false;
    const uint64_t *col = c->data->cols + (size_t)b->feature * W;
    for (size_t k = 0; k < W; k++) {
        items[k] = t->root.bits[k] & ~col[k];
        items[W + k] = t->root.bits[k] & col[k];
    }
    const int64_t pn = c->per_node;
    int64_t v = t->errors_only ? ((int64_t)t->best.rank + 1) * (int64_t)c->unit - 1 : (int64_t)t->best.rank;
    bs_out l, r = {.cost = BS_VNONE};
    /* the left child's optimum, when known, is its exact bound: a narrower search */
    bs_solve_items(c, &l, items, t->d - 1, b->nl, b->has_left ? (int64_t)b->left : v - pn);
    if (l.cost != BS_VNONE) bs_solve_items(c, &r, items + W, t->d - 1, t->n - 1 - b->nl, v - pn - (int64_t)l.cost);
    free(items);
    if (l.cost == BS_VNONE || r.cost == BS_VNONE) return false;
    *o = *b;
    o->cost = o->lb = l.cost + r.cost + (bs_value)pn;
    o->size = 1 + l.size + r.size;
    o->depth = 1 + (l.depth > r.depth ? l.depth : r.depth);
    return true;
}

static void add_stats(bs_stats *to, const bs_stats *from)
{
    to->nodes += from->nodes;
    to->configs += from->configs;
    to->d2_calls += from->d2_calls;
    to->d1_calls += from->d1_calls;
    to->cache_hits += from->cache_hits;
    to->pruned += from->pruned;
}

static unsigned team_size(const bt_team *t, const bs_search *s, unsigned threads)
{
    if (threads > t->n_features) threads = (unsigned)t->n_features;
    if (threads < 2) return 1;
    /* root work: features × items × features per level below the children's depth 2 */
    uint64_t est = (uint64_t)t->n_features * t->root.m, limit = pdt_parallel_min();
    for (uint32_t k = 2; k < t->d && est < limit; k++) est *= s->data->nf ? s->data->nf : 1;
    return est < limit ? 1 : threads;
}

/* --lexicographic on threads: the first-ranked root feature (order_features:
 * by its best depth-3 tree) is solved alone before the team starts.  It
 * usually holds the optimum; workers started beside it searched the other
 * features against the depth-2 incumbent, before the witnesses and the
 * errorless test were on (mushroom depth 6: 2 800 search nodes against 800).
 * The answer does not change: the positions and ranks are the same. */
static void warm_start(bt_team *t, bool mpi)
{
    t->first = 0;
    if (t->n_workers < 2 || mpi || !t->w[0]->proven || t->n_features < 2) return;
    pdt_work_begin(&t->work, NULL, 1, 1);
    run_worker(t, 0);
    t->first = 1;
}

/* Root features are handed out in runs of BT_RUN consecutive ones.  A
 * feature's neighbour in the list is often a threshold of the same attribute,
 * whose children are nearly its own: solved first on the same worker, it
 * leaves the cache entries and similarity records that prune it (one thread
 * on australian-credit at depth 5 searches 0 subproblems under features 14,
 * 51 and 59; two threads handing out single features, 1 977, 1 738 and
 * 1 557, their neighbours being in flight on the other worker).  Runs of one
 * lose that for every other feature, long runs balance worse at the end.
 * Two threads, 2 × 4 interleaved rounds near idle, runs of 3 against 1: australian-credit
 * depth 5 0.435 against 0.45 s, diabetes depth 5, kr-vs-kp depth 6 and yeast
 * depth 5 1–5 % faster, anneal depth 6 the same (2, 4 and 6 in between). */
#define BT_RUN 3

static void run_team(bt_team *t)
{
    const pdt_distributor *d = t->alone ? NULL : pdt_distributor_get();
    const bool mpi = d && d->size > 1;
    warm_start(t, mpi);
    pdt_work_begin(&t->work, mpi ? d : NULL, t->n_features - t->first, BT_RUN);
    if (t->n_workers == 1) return run_worker(t, 0);
#pragma omp parallel num_threads(t->n_workers)
    {
#ifdef _OPENMP
        run_worker(t, (unsigned)omp_get_thread_num());
#endif
    }
}

/* Ranks: the least (rank, position) over them, its feature and budget read
 * from the position when another rank holds it (true then); *aborted := some
 * rank stopped; the work counts become the ranks'. */
static bool ranks_finish(bt_team *t, bool *aborted, bt_work *work)
{
    const pdt_distributor *d = t->work.dist;
    int64_t value = (int64_t)t->best.rank;
    uint64_t key = t->best.key, mine = work->total, total = 0;
    bool complete = !*aborted;
    d->finish(d->user, &value, &key, &complete, &mine, &total);
    *aborted = !complete;
    *work = (bt_work){(uint32_t)d->size, mine, total};
    if (key == t->best.key || !(key >> 32)) return false;
    const uint32_t p = (uint32_t)(key >> 32) - 1, nl = (uint32_t)key;
    t->best = (bt_best){(bs_value)value, key, {.feature = t->features[p], .nl = nl, .d = t->d, .n = t->n}, 0};
    return true;
}

/* The search the tree is rebuilt from, and the answer. */
static pdt_status finish(bt_team *t, bs_search **s, bs_out *root, bt_work *work, pdt_error *err)
{
    bs_search *main = t->w[0], *keep = t->w[t->best.worker];
    bool aborted = false, oom = false;
    for (unsigned k = 0; k < t->n_workers; k++) aborted |= t->w[k]->aborted, oom |= t->w[k]->oom;
    const bool adopted = t->work.dist && ranks_finish(t, &aborted, work);
    if (adopted) keep = main;
    *root = t->best.out;
    if ((!aborted || adopted) && (t->best.key >> 32)) {
        bs_search *c;
        pdt_status st = clone(&c, main, main->cache.limit, err);
        if (st) return st;
        c->has_deadline = false, c->stop = NULL;
        /* the winner's rank (its value when sizes are proven, the only case the regime is for):
         * the same for any workers, and set when another rank's winner was adopted */
        errorless_regime(c, t->best.rank);
        bt_seed seed = {t->w, t->n_workers};
        if (!getenv("PDT_BINARY_NO_SEED")) d2_set_seed(bs_search_d2(c), seed_d2, &seed);
        if (!canonical(t, c, root) && !c->oom) {
            bs_search_free(&c);
            return pdt_error_set(err, PDT_EINTERNAL, "the root's subtrees vanished when solved again");
        }
        d2_set_seed(bs_search_d2(c), NULL, NULL); /* c outlives the workers: the rebuild solves alone */
        c->has_deadline = main->has_deadline, c->stop = main->stop; /* the caller's limits, for its next searches */
        oom |= c->oom;
        keep = c;
    } else if (!(t->best.key >> 32)) {
        keep = main;
    }
    for (unsigned k = 0; k < t->n_workers; k++)
        if (t->w[k] != keep) add_stats(&keep->stats, &t->w[k]->stats);
    keep->aborted |= aborted;
    keep->oom |= oom;
    for (unsigned k = 1; k < t->n_workers; k++) /* the caller frees the first */
        if (t->w[k] != keep) bs_search_free(&t->w[k]);
    *s = keep;
    return PDT_OK;
}

pdt_status bt_solve_root(bs_search **s, bs_out *root, bt_work *work, uint32_t d, uint32_t n, unsigned threads,
                         pdt_error *err)
{
    return bt_solve_root_within(s, root, work, d, n, threads, INT64_MAX, false, err);
}

pdt_status bt_solve_root_within(bs_search **s, bs_out *root, bt_work *work, uint32_t d, uint32_t n,
                                unsigned threads, int64_t ub, bool alone, pdt_error *err)
{
    bs_search *main = *s;
    const uint32_t dch = d - 1, nmax = bs_cap(dch) < n - 1 ? bs_cap(dch) : n - 1;
    bt_team t = {.d = d, .n = n, .nmin = n - 1 - nmax, .nmax = nmax, .errors_only = main->per_node && !main->proven,
                 .remote = ub, .alone = alone};
    if (t.errors_only && ub != INT64_MAX)
        return pdt_error_set(err, PDT_EINTERNAL, "a bounded threaded root needs values, not errors alone");
    *work = (bt_work){0};
    pdt_status st = PDT_OK;
    if (!set_root(&t, main) || !keep_features(&t, main)) {
        st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
        goto done;
    }
    set_incumbent(&t, main);
    if (main->proven && !t.errors_only && t.n_features) { /* a greedy errorless tree: a bound of no position */
        const bs_value g = bs_greedy_errorless(main, t.root.bits, t.root.m, d, n, t.features[0]);
        if (g != BS_VNONE && (int64_t)g < t.remote) t.remote = (int64_t)g;
    }
    /* the root's similarity records only prune: without room for them, none (cap 0) */
    (void)br_sim_init(&t.sim, main->words, 2 * t.n_features * (t.nmax - t.nmin + 1));
    t.n_workers = team_size(&t, main, threads);
    t.w = calloc(t.n_workers, sizeof *t.w);
    if (!t.w) {
        st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
        goto done;
    }
    t.w[0] = main;
    /* the memo cap holds for the team: half for the workers' caches, half for the shared one */
    const size_t limit = t.n_workers > 1 ? main->cache.limit / 2 / t.n_workers : main->cache.limit;
    for (unsigned k = 1; k < t.n_workers && !st; k++) st = clone(&t.w[k], main, limit, err);
    if (st) goto done;
    const size_t full = main->cache.limit;
    main->cache.limit = limit;
    bt_cache team;
    struct bt_shared *links = NULL;
    bool share = t.n_workers > 1 && bt_cache_init(&team, main->words, full / 2) && !getenv("PDT_BINARY_PRIVATE") &&
                 (links = aligned_alloc(64, t.n_workers * sizeof *links));
    for (unsigned k = 0; k < t.n_workers && share; k++) {
        links[k] = (struct bt_shared){.team = &team};
        t.w[k]->shared = &links[k];
    }
    uint64_t before = main->stats.nodes;
    run_team(&t);
    for (unsigned k = 0; k < t.n_workers; k++) t.w[k]->shared = NULL;
    if (t.n_workers > 1) bt_cache_clear(&team);
    free(links);
    main->cache.limit = full;
    work->workers = t.n_workers;
    for (unsigned k = 0; k < t.n_workers; k++) {
        uint64_t nodes = t.w[k]->stats.nodes - (k ? 0 : before);
        work->total += nodes;
        if (nodes > work->most) work->most = nodes;
    }
    st = finish(&t, s, root, work, err);
    if (!st && *s != main) bs_search_free(&main);
done:
    if (t.w && st)
        for (unsigned k = 1; k < t.n_workers; k++) bs_search_free(&t.w[k]);
    free(t.w);
    free(t.features);
    free(t.root.cc);
    br_sim_clear(&t.sim);
    return st;
}
