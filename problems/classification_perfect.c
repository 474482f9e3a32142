/* The smallest perfect tree (pdt_fit_options.perfect; Avellaneda, "Efficient
 * Inference of Optimal Decision Trees", AAAI 2020, solved there with SAT).
 *
 * A tree is perfect when its training errors reach the floor: the fewest
 * errors any tree can make, Σ over groups of rows with equal feature vectors
 * of the group's size minus its majority (no rule separates equal vectors,
 * and a tree that isolates every group makes exactly that many).  Whether a
 * perfect tree of depth ≤ d and size ≤ s exists is one limited fit: its
 * optimum is the floor or more.  Both orders are searches over such fits:
 *
 *   least depth, then fewest nodes:  d = 0, 1, … until the optimum at depth d
 *     is the floor (d*); then, from the size s of that tree, the fit at depth
 *     d* with size s − 1 until it no longer reaches the floor (each success
 *     returns a tree of some size s' ≤ s − 1, and the next fit asks for s' − 1);
 *   fewest nodes, then least depth:  the same descent over sizes, first at d*
 *     (the cheapest searches), then with the depth cap only (a tree of s
 *     nodes is at most s deep), giving s*; then
 *     d = d*, d* + 1, … with size s* until a fit reaches the floor (d* is the
 *     least depth of any perfect tree, a lower bound).
 *
 * Every fit is a proven optimum of the family's own solver (its backend, or
 * the fused engine), so each "no" is a proof; a fit stopped by the time limit
 * ends the search with the part it would have proved flagged unproven.
 * Without a depth cap the deepening stops at (groups − 1): a tree with that
 * many branch nodes can isolate every group when the family can separate
 * them, and deeper trees have nothing more to split. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classification.h"

/* ------------------------------------------------------------ the floor */

/* A row's feature ranks (equal ranks: equal values), sorted to group rows. */
typedef struct row_key {
    const uint32_t *rank;
    size_t dims;
    uint32_t row, label;
} row_key;

static int cmp_keys(const void *pa, const void *pb)
{
    const row_key *a = pa, *b = pb;
    for (size_t j = 0; j < a->dims; j++)
        if (a->rank[j] != b->rank[j]) return a->rank[j] < b->rank[j] ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

/* The floor and the number of groups of equal feature vectors. */
static pdt_status data_floor(uint64_t *floor, size_t *groups, const pdt_dataset *ds, pdt_error *err)
{
    size_t n = pdt_dataset_rows(ds), dims = pdt_dataset_dims(ds), nc = pdt_dataset_classes(ds);
    row_key *keys = malloc((n ? n : 1) * sizeof *keys);
    uint32_t *ranks = malloc((n * dims + 1) * sizeof *ranks);
    uint64_t *count = calloc(nc ? nc : 1, sizeof *count);
    if (!keys || !ranks || !count) {
        free(keys);
        free(ranks);
        free(count);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory for %zu rows", n);
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < dims; j++) ranks[i * dims + j] = pdt_dataset_rank(ds, i, j);
        keys[i] = (row_key){ranks + i * dims, dims, (uint32_t)i, pdt_dataset_label(ds, i)};
    }
    qsort(keys, n, sizeof *keys, cmp_keys);
    *floor = 0;
    *groups = 0;
    for (size_t i = 0; i < n;) {
        size_t e = i;
        uint64_t most = 0;
        while (e < n && memcmp(keys[e].rank, keys[i].rank, dims * sizeof *ranks) == 0) {
            uint64_t c = ++count[keys[e++].label];
            if (c > most) most = c;
        }
        for (size_t k = i; k < e; k++) count[keys[k].label] = 0;
        *floor += e - i - most;
        ++*groups;
        i = e;
    }
    free(keys);
    free(ranks);
    free(count);
    return PDT_OK;
}

/* ------------------------------------------------------------ the fits */

typedef struct perfect_run {
    const pdt_dataset *ds;
    const pdt_fit_options *opt;
    uint64_t floor;
    struct timespec start;
    uint32_t fits;
    pdt_search_stats stats; /* summed over the fits */
    bool timed_out;         /* a fit stopped at the time limit */
} perfect_run;

static double elapsed(const perfect_run *r)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - r->start.tv_sec) + 1e-9 * (double)(t.tv_nsec - r->start.tv_nsec);
}

/* The optimum of depth ≤ d and size ≤ s.  *proven: the fit finished;
 * *perfect: the tree reaches the floor (proven or not).  *out is NULL (and
 * *proven false) when the time was up before it started. */
static pdt_status limited_fit(pdt_model **out, perfect_run *r, uint32_t d, uint32_t s, bool *proven,
                              bool *perfect, pdt_error *err)
{
    *out = NULL;
    *proven = *perfect = false;
    pdt_fit_options o = *r->opt;
    o.perfect = PDT_PERFECT_NONE;
    o.max_depth = d;
    o.max_size = s;
    if (r->opt->time_limit > 0) {
        o.time_limit = r->opt->time_limit - elapsed(r);
        if (o.time_limit <= 0) {
            r->timed_out = true;
            return PDT_OK;
        }
    }
    pdt_status st = cls_fit(out, r->ds, &o, err);
    if (st) return st;
    r->fits++;
    const pdt_search_stats *x = &(*out)->stats;
    r->stats.nodes += x->nodes;
    r->stats.candidates += x->candidates;
    r->stats.memo_hits += x->memo_hits;
    r->stats.memo_entries += x->memo_entries;
    r->stats.pruned += x->pruned;
    *proven = (*out)->optimal;
    *perfect = (*out)->misclassifications == r->floor;
    if (!*proven) r->timed_out = true;
    return PDT_OK;
}

static void keep(pdt_model **best, pdt_model **m)
{
    pdt_model_free(best);
    *best = *m;
    *m = NULL;
}

static uint32_t min32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* The least depth ≤ cap with a perfect tree of size ≤ s (from `from`): the
 * tree in *best, *found; *proven when every shallower depth was refuted. */
static pdt_status least_depth(perfect_run *r, uint32_t from, uint32_t cap, uint32_t s, pdt_model **best,
                              bool *found, bool *proven, pdt_error *err)
{
    *found = false;
    *proven = true;
    for (uint32_t d = from; d <= cap; d++) {
        pdt_model *m = NULL;
        bool done, perfect;
        /* a size cap the depth already implies is left out: depth-only searches are the fastest */
        uint32_t full = d >= 32 ? UINT32_MAX - 1 : (1u << d) - 1;
        pdt_status st = limited_fit(&m, r, d, s >= full ? PDT_UNLIMITED : s, &done, &perfect, err);
        if (st) return st;
        if (m && (perfect || !*best || m->misclassifications < (*best)->misclassifications)) keep(best, &m);
        pdt_model_free(&m);
        if (perfect) {
            *found = true;
            return PDT_OK;
        }
        if (!done) {
            *proven = false;
            return PDT_OK;
        }
    }
    return PDT_OK;
}

/* From the perfect tree in *best, the fewest branch nodes at depth ≤ d, where
 * no perfect tree has fewer than `lower` (the least depth of any): *proven
 * when the fit below the last success was refuted. */
static pdt_status fewest_nodes(perfect_run *r, uint32_t d, uint32_t lower, pdt_model **best, bool *proven,
                               pdt_error *err)
{
    while ((*best)->size > lower) {
        pdt_model *m = NULL;
        bool done, perfect;
        uint32_t s = (*best)->size - 1; /* a tree of s nodes is at most s deep */
        pdt_status st = limited_fit(&m, r, min32(d, s), s, &done, &perfect, err);
        if (st) return st;
        if (perfect) {
            keep(best, &m);
            continue;
        }
        pdt_model_free(&m);
        *proven = done;
        return PDT_OK;
    }
    *proven = true;
    return PDT_OK;
}

static const char *refused(const pdt_fit_options *opt)
{
    if (opt->class_weights) return "class weights";
    if (opt->min_leaf) return "--min-leaf";
    if (opt->sparse) return "--sparse";
    if (opt->lexicographic) return "--lexicographic";
    return NULL;
}

pdt_status cls_fit_perfect(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    const char *no = refused(opt);
    if (no)
        return pdt_error_set(err, PDT_EINVAL, "option --perfect: %s cannot be combined with it (a perfect "
                             "tree is about unweighted training errors and branch nodes)", no);
    if (!pdt_dataset_has_labels(ds))
        return pdt_error_set(err, PDT_EINVAL, "%s: the data has no label column", pdt_dataset_name(ds));
    perfect_run r = {.ds = ds, .opt = opt};
    clock_gettime(CLOCK_MONOTONIC, &r.start);
    size_t groups = 0;
    pdt_status st = data_floor(&r.floor, &groups, ds, err);
    if (st) return st;
    /* A tree with more than groups − 1 branch nodes has a split that separates nothing. */
    uint32_t useful = groups < 2 ? 0 : groups - 1 > UINT32_MAX - 2 ? UINT32_MAX - 2 : (uint32_t)(groups - 1);
    uint32_t size_cap = min32(opt->max_size, useful), depth_cap = min32(opt->max_depth, size_cap);
    pdt_perfect_info info = {.mode = opt->perfect, .floor = r.floor};
    pdt_model *best = NULL;
    bool found = false, depth_ok = false, size_ok = false;
    uint32_t d_least = 0;
    st = least_depth(&r, 0, depth_cap, size_cap, &best, &found, &depth_ok, err);
    if (!st && found) d_least = best->depth;
    if (!st && found && opt->perfect == PDT_PERFECT_DEPTH) {
        st = fewest_nodes(&r, d_least, d_least, &best, &size_ok, err);
    } else if (!st && found) {
        /* fewest nodes: at the least depth first (the cheapest searches), then at any
         * depth within the cap; then the least depth at that size */
        bool nodes_ok = false;
        st = fewest_nodes(&r, d_least, d_least, &best, &nodes_ok, err);
        if (!st && !r.timed_out) st = fewest_nodes(&r, depth_cap, d_least, &best, &nodes_ok, err);
        size_ok = nodes_ok;
        /* no perfect tree is shallower than d_least, whatever its size */
        if (!st && best->depth > d_least) depth_ok = false;
        if (!st && nodes_ok && best->depth > d_least) {
            uint32_t s = best->size;
            pdt_model *shallow = NULL;
            bool again = false, ok = false;
            st = least_depth(&r, d_least, best->depth - 1, s, &shallow, &again, &ok, err);
            if (!st && again) keep(&best, &shallow);
            pdt_model_free(&shallow);
            depth_ok = ok;
        }
    }
    if (st || !best) {
        pdt_model_free(&best);
        if (!st)
            st = pdt_error_set(err, PDT_ELIMIT, "option --perfect: the time limit came before the first fit ended");
        return st;
    }
    info.reached = found;
    info.depth_proven = found && depth_ok;
    info.size_proven = found && size_ok;
    info.fits = r.fits;
    best->perfect = info;
    best->max_depth = opt->max_depth;
    best->max_size = opt->max_size;
    /* the floor is the least any tree can make; otherwise the deepest fit's optimum within the caps */
    best->optimal = found || (best->optimal && !r.timed_out);
    best->stats = r.stats;
    best->seconds = elapsed(&r);
    best->stats.seconds = best->seconds;
    *out = best;
    return PDT_OK;
}
