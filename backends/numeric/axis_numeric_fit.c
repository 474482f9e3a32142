/* The numeric backend's driver: the items' sorted orders per feature, the
 * limits, the search from the root, and the model with exact axis rules
 * (each branch node's rule is x[j] ≤ the value of the last item of its left
 * part, a data value; the model is accumulated again from the data with the
 * rules' exact classify and must cost what the search reported). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../problems/classification.h"
#include "../../rules/axis.h"
#include "axis_numeric.h"

#define TICK_EVERY 64

/* One search context's scratch: the root's, and each worker's. */
typedef struct an_scratch {
    int64_t *cnt;
    uint8_t *mark;
    an_frame *frames;
    uint32_t levels;
    an_entry *out;
    an_cache *cache;
} an_scratch;

typedef struct an_data {
    an_item *lists;
    int64_t *cw;
    an_entry *tree;
    an_scratch *scratch; /* 1 + workers */
    unsigned n_scratch;
    an_ctx *workers;
    an_shared shared;
} an_data;

static double since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

double an_elapsed(const an_ctx *c)
{
    return since(&c->start);
}

static void report(an_ctx *c, double elapsed)
{
    if (elapsed - c->last_progress < 1.0) return;
    c->last_progress = elapsed;
    char best[48] = "none yet";
    int64_t root = c->shared ? atomic_load_explicit(&c->shared->cost, memory_order_relaxed) : c->root_best;
    if (root != AN_INF) snprintf(best, sizeof best, "%lld", (long long)root);
    pdt_progress p = {elapsed, c->stats.nodes, best};
    c->progress(c->progress_user, &p);
}

bool an_tick(an_ctx *c)
{
    if (c->aborted) return true;
    if ((!c->has_deadline && !c->progress && !c->stop) || (++c->tick % TICK_EVERY)) return false;
    if (c->stop && *c->stop) c->aborted = true;
    double elapsed = since(&c->start);
    if (c->has_deadline && elapsed >= c->deadline) c->aborted = true;
    if (c->progress) report(c, elapsed);
    return c->aborted;
}

/* ------------------------------------------------------------ setup */

/* Every feature's items in increasing order of value (counting sort on the
 * dataset's exact ranks; equal values by row).  Without features, one list of
 * the rows (the node totals are read from the first list). */
static pdt_status sort_features(an_data *a, const pdt_dataset *ds, size_t n, size_t nf, pdt_error *err)
{
    uint32_t *start = malloc((n + 1) * sizeof *start);
    if (!start) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; i < n && nf == 0; i++) a->lists[i] = (an_item){(uint32_t)i, 0, pdt_dataset_label(ds, i)};
    for (size_t f = 0; f < nf; f++) {
        an_item *list = a->lists + f * n;
        memset(start, 0, (n + 1) * sizeof *start);
        for (size_t i = 0; i < n; i++) start[pdt_dataset_rank(ds, i, f) + 1]++;
        for (size_t v = 0; v < n; v++) start[v + 1] += start[v];
        for (size_t i = 0; i < n; i++) {
            uint32_t r = pdt_dataset_rank(ds, i, f);
            list[start[r]++] = (an_item){(uint32_t)i, r, pdt_dataset_label(ds, i)};
        }
    }
    free(start);
    return PDT_OK;
}

/* Class weights as integers; the weighted total must leave room for sums. */
static pdt_status weigh_classes(an_data *a, bool *unit, const pdt_dataset *ds, const cls_inst *ci,
                                pdt_error *err)
{
    size_t n = pdt_dataset_rows(ds);
    int64_t total = 0;
    *unit = true;
    for (size_t k = 0; k < ci->n_classes; k++) {
        a->cw[k] = ci->weight[k];
        if (a->cw[k] != 1) *unit = false;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t w = a->cw[pdt_dataset_label(ds, i)];
        if (w > INT64_MAX / 4 - total)
            return pdt_error_set(err, PDT_ELIMIT, "option --class-weights: the weighted total of the "
                                 "rows does not fit in 62 bits; use --engine fused");
        total += w;
    }
    return PDT_OK;
}

static pdt_status alloc_frames(an_scratch *a, size_t n, size_t nf, size_t nc, uint32_t d, uint32_t cap,
                               pdt_error *err)
{
    a->levels = d + 1;
    a->frames = calloc(a->levels, sizeof *a->frames);
    if (!a->frames) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (uint32_t l = 0; l < a->levels; l++) {
        an_frame *fr = &a->frames[l];
        if (l + 3 <= d) fr->lists = malloc((n * nf + 1) * sizeof *fr->lists); /* nodes of depth ≥ 3 split */
        fr->tot = malloc(nc * sizeof *fr->tot);
        fr->wpre = malloc((n + 1) * sizeof *fr->wpre);
        fr->bnd = malloc((n + 1) * sizeof *fr->bnd);
        fr->order = malloc((nf + 1) * sizeof *fr->order);
        fr->guide = malloc((nf + 1) * sizeof *fr->guide);
        fr->probe = malloc((nf + 1) * sizeof *fr->probe);
        if (l + 2 <= d) fr->spans = malloc((n + 1) * sizeof *fr->spans); /* nodes of depth ≥ 2 search */
        fr->tl = malloc(cap * sizeof *fr->tl);
        fr->tr = malloc(cap * sizeof *fr->tr);
        if ((l + 3 <= d && !fr->lists) || !fr->tot || !fr->wpre || !fr->bnd || !fr->order || !fr->guide || !fr->probe ||
            (l + 2 <= d && !fr->spans) || !fr->tl || !fr->tr)
            return pdt_error_set(err, PDT_ENOMEM, "out of memory for the search's scratch (%zu rows, "
                                 "%zu features, depth %u)", n, nf, d);
    }
    return PDT_OK;
}

static pdt_status alloc_scratch(an_scratch *a, size_t n, size_t nf, size_t nc, uint32_t d, uint32_t cap,
                                size_t memo_bytes, pdt_error *err)
{
    a->cnt = calloc(4 * nc, sizeof *a->cnt);
    a->mark = calloc(n, 1);
    a->out = malloc(cap * sizeof *a->out);
    if (!a->cnt || !a->mark || !a->out)
        return pdt_error_set(err, PDT_ENOMEM, "out of memory for %zu rows × %zu features", n, nf);
    pdt_status st = alloc_frames(a, n, nf, nc, d, cap, err);
    if (!st && memo_bytes) st = an_cache_new(&a->cache, n, memo_bytes, err);
    return st;
}

static void scratch_free(an_scratch *a)
{
    for (uint32_t l = 0; a->frames && l < a->levels; l++) {
        an_frame *fr = &a->frames[l];
        free(fr->lists);
        free(fr->tot);
        free(fr->wpre);
        free(fr->bnd);
        free(fr->order);
        free(fr->guide);
        free(fr->probe);
        free(fr->spans);
        free(fr->tl);
        free(fr->tr);
    }
    free(a->frames);
    free(a->cnt);
    free(a->mark);
    free(a->out);
    an_cache_free(&a->cache);
}

static void data_free(an_data *a)
{
    for (unsigned k = 0; a->scratch && k < a->n_scratch; k++) scratch_free(&a->scratch[k]);
    free(a->scratch);
    free(a->workers);
    free(a->lists);
    free(a->cw);
    free(a->tree);
}

/* Depth and budget as the search takes them: d ≤ s ≤ min(2^d − 1, N − 1). */
static void limits(uint32_t *d, uint32_t *s, const pdt_fit_options *opt, size_t n)
{
    uint32_t dd = opt->max_depth, ss = opt->max_size;
    uint32_t most = n > 1 ? (uint32_t)(n - 1 < UINT32_MAX / 2 ? n - 1 : UINT32_MAX / 2) : 0;
    if (ss == PDT_UNLIMITED || ss > most) ss = most;
    if (dd == PDT_UNLIMITED || dd > ss) dd = ss;
    if (dd < 31 && ss > (1u << dd) - 1) ss = (1u << dd) - 1;
    *d = dd;
    *s = ss;
}

/* ------------------------------------------------------------ the model */

static pdt_status make_model(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt,
                             const an_entry *tree, uint32_t len, int64_t cost, pdt_error *err)
{
    pdt_rule *rules = calloc(len + 1, sizeof *rules);
    int32_t *pre = malloc((len + 1) * sizeof *pre);
    pdt_status st = rules && pre ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    size_t n_rules = 0;
    for (uint32_t k = 0; k < len && !st; k++) {
        pre[k] = tree[k].feature < 0 ? -1 : (int32_t)n_rules;
        if (tree[k].feature >= 0) st = axis_rule_make(&rules[n_rules], ds, (size_t)tree[k].feature, tree[k].row, err);
        if (tree[k].feature >= 0 && !st) n_rules++;
    }
    if (!st) {
        pdt_fit_options axis = *opt;
        axis.rules = "axis";
        st = cls_model_from_tree(out, ds, &axis, rules, n_rules, pre, len, cost, "numeric", err);
    } else {
        for (size_t r = 0; r < n_rules; r++) pdt_rule_clear(&rules[r]);
    }
    free(rules);
    free(pre);
    return st;
}

/* The cache's byte limit: --memo-mb, else 256 MiB (rows of 20 000 items at
 * depth 4 fill about that much on the ConTree data). */
#define AN_MEMO_DEFAULT_MB 256

static an_ctx context(const an_data *a, const an_scratch *x, size_t nf, size_t nc, bool unit)
{
    return (an_ctx){.nf = nf, .nc = nc, .cw = a->cw, .unit = unit, .mark = x->mark, .cnt = x->cnt,
                    .frames = x->frames, .cache = x->cache, .out = x->out, .n_workers = 1, .root_best = AN_INF};
}

/* With several threads the root's features are searched by workers, each with
 * its own scratch, sharing one cache (bidding at depth 4 did a third more
 * work with a cache per worker: the same item sets recur under different root
 * features). */
static pdt_status prepare(an_data *a, an_ctx *c, const pdt_dataset *ds, const cls_inst *ci,
                          const pdt_fit_options *opt, uint32_t d, uint32_t s, pdt_error *err)
{
    size_t n = pdt_dataset_rows(ds), nf = pdt_dataset_dims(ds), nc = ci->n_classes;
    uint32_t cap = 2 * s + 1;
    if (n >= AN_MAX_ROWS) /* the root's interval numbers (an_span) stay below 2^32 */
        return pdt_error_set(err, PDT_ELIMIT, "%zu rows: the numeric axis backend takes fewer than %u "
                             "(use --engine fused)", n, AN_MAX_ROWS);
    /* Workers cost two parallel regions per budget split: they pay from about
     * 2048 item visits (rows × features) on at depth 2, and at any size deeper,
     * and all but the first join after AN_SOLO_SECONDS of search.  The tree is
     * the same either way.  PDT_NUMERIC_PARALLEL_MIN overrides the size and
     * lets every worker start at once (the tests set 0, so that small instances
     * go through the tasks too). */
    const char *env = getenv("PDT_NUMERIC_PARALLEL_MIN");
    uint64_t least = env && *env >= '0' && *env <= '9' ? strtoull(env, NULL, 10) : d >= 3 ? 0 : 2048;
    unsigned threads = d >= 2 && nf > 1 && (uint64_t)n * nf >= least ? an_threads(opt->threads) : 1;
    /* an MPI job of several ranks (pdt-mpi): the root's tasks go through the
     * workers, one or more, and are shared over the ranks */
    const pdt_distributor *dist = pdt_distributor_get();
    if (!dist || dist->size <= 1 || d < 2 || nf <= 1) dist = NULL;
    a->n_scratch = 1 + (threads > 1 || dist ? threads : 0);
    a->lists = malloc((n * (nf ? nf : 1) + 1) * sizeof *a->lists);
    a->cw = malloc((nc + 1) * sizeof *a->cw);
    a->tree = malloc(cap * sizeof *a->tree);
    a->scratch = calloc(a->n_scratch, sizeof *a->scratch);
    a->workers = calloc(a->n_scratch, sizeof *a->workers);
    if (!a->lists || !a->cw || !a->tree || !a->scratch || !a->workers)
        return pdt_error_set(err, PDT_ENOMEM, "out of memory for %zu rows × %zu features", n, nf);
    bool unit;
    pdt_status st = weigh_classes(a, &unit, ds, ci, err);
    if (!st) st = sort_features(a, ds, n, nf, err);
    size_t mb = opt->memo_megabytes ? opt->memo_megabytes : AN_MEMO_DEFAULT_MB;
    size_t memo = !opt->no_memo && d >= 3 ? mb << 20 : 0;
    for (unsigned k = 0; k < a->n_scratch && !st; k++)
        st = alloc_scratch(&a->scratch[k], n, nf, nc, d, cap, k == 0 ? memo : 0, err);
    if (st) return st;
    *c = context(a, &a->scratch[0], nf, nc, unit);
    c->solo = env ? 0 : AN_SOLO_SECONDS;
    atomic_init(&a->shared.cost, AN_INF);
    c->dist = dist;
    if (a->n_scratch > 1) {
        c->n_workers = a->n_scratch - 1;
        c->workers = a->workers;
        c->shared = &a->shared;
        if (c->cache && (st = an_cache_share(c->cache, err))) return st;
        for (unsigned w = 0; w < c->n_workers; w++) {
            a->workers[w] = context(a, &a->scratch[w + 1], nf, nc, unit);
            a->workers[w].shared = &a->shared;
            a->workers[w].dist = dist;
            a->workers[w].cache = c->cache;
        }
    }
    return PDT_OK;
}

/* Limits, progress and the stop flag, for the root's context and its workers
 * (only the first worker reports progress). */
static void set_limits(an_ctx *c, const pdt_fit_options *opt, const struct timespec *start, bool progress)
{
    c->start = *start;
    c->has_deadline = opt->time_limit > 0;
    c->deadline = opt->time_limit;
    c->progress = progress ? opt->progress : NULL;
    c->progress_user = opt->progress_user;
    c->stop = opt->stop;
}

static void add_stats(an_stats *to, const an_stats *s)
{
    to->nodes += s->nodes;
    to->evaluated += s->evaluated;
    to->skipped += s->skipped;
    to->hits += s->hits;
    to->pure += s->pure;
}

pdt_status an_fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    an_ctx c;
    an_data a = {0};
    cls_inst ci;
    uint32_t d, s, len = 0;
    limits(&d, &s, opt, pdt_dataset_rows(ds));
    pdt_status st = cls_inst_init(&ci, ds, opt->class_weights, err);
    if (st) return st;
    st = prepare(&a, &c, ds, &ci, opt, d, s, err);
    if (!st) {
        struct timespec start;
        clock_gettime(CLOCK_MONOTONIC, &start);
        set_limits(&c, opt, &start, c.n_workers <= 1); /* with workers the first one reports */
        for (unsigned w = 0; w < c.n_workers && c.workers; w++) set_limits(&c.workers[w], opt, &start, w == 0);
        an_node root = {(uint32_t)pdt_dataset_rows(ds), a.lists};
        int64_t cost = an_solve(&c, &root, 0, d, s, AN_INF, a.tree, &len);
        double seconds = since(&c.start);
        size_t entries = an_cache_entries(a.scratch[0].cache);
        uint64_t most = 0, all = 0; /* the workers' subproblems: the balance of the root's tasks */
        const char *show = getenv("PDT_WORKER_STATS"); /* the balance, for bench/ (stderr) */
        for (unsigned w = 0; w < c.n_workers && c.workers; w++) {
            const an_stats *ws = &c.workers[w].stats;
            if (show && *show == '1')
                fprintf(stderr, "numeric worker %u: %llu tasks, %llu subproblems, %llu evaluations, %.3f s of CPU in tasks\n",
                        w, (unsigned long long)ws->tasks, (unsigned long long)ws->nodes,
                        (unsigned long long)ws->evaluated, 1e-9 * (double)ws->task_ns);
            add_stats(&c.stats, ws);
            most = ws->nodes > most ? ws->nodes : most;
            all += ws->nodes;
        }
        if (show && *show == '1')
            fprintf(stderr, "numeric: %llu evaluations, %llu ruled out by class counts\n",
                    (unsigned long long)c.stats.evaluated, (unsigned long long)c.stats.pure);
        if (c.rank_error)
            st = pdt_error_set(err, PDT_EINTERNAL, "another rank's best root split could not be derived again");
        if (!st) st = make_model(out, ds, opt, a.tree, len, cost, err);
        if (!st) {
            pdt_model *m = *out;
            m->optimal = !c.aborted;
            m->stats = (pdt_search_stats){.nodes = c.stats.nodes, .candidates = c.stats.evaluated,
                                          .pruned = c.stats.skipped, .memo_hits = c.stats.hits,
                                          .memo_entries = entries, .seconds = seconds,
                                          .workers = c.n_workers > 1 ? c.n_workers : 0, .work_max = most,
                                          .work_total = all};
            if (c.dist) { /* the ranks' work, as the engine reports it */
                m->stats.workers = (uint32_t)c.dist->size;
                m->stats.work_max = c.rank_work_max;
                m->stats.work_total = c.rank_work_total;
            }
            m->seconds = seconds;
        }
    }
    data_free(&a);
    cls_inst_clear(&ci);
    return st;
}
