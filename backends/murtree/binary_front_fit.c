/* A two-class fit that maximises F1, MCC or Fowlkes–Mallows (issue 10): the
 * Pareto front of (FP, FN) over every tree within the limits
 * (binary_front.c), the metric's best point picked exactly at the root
 * (framework/front.c), and that point's tree rebuilt from the cached fronts. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "binary_front.h"
#include "binary_search.h"
#include "bitset.h"
#include "../../problems/classification.h"
#include "model_impl.h"

typedef struct mfit {
    const pdt_dataset *ds;
    bin_encoding enc;
    bs_data data;
    fr_search *search;
    uint32_t positive;
    pdt_model *m;
    uint32_t *rule_of; /* feature -> model rule index + 1 */
    size_t cap_nodes;
    pdt_error *err;
} mfit;

/* The metric's options as every front search checks them (cls_metric_check),
 * and what this backend's search does not take yet. */
pdt_status bs_metric_check(uint32_t *positive, const pdt_dataset *ds, const pdt_fit_options *opt,
                           pdt_error *err)
{
    pdt_status st = cls_metric_check(positive, ds, opt, err);
    if (!st && opt->min_leaf)
        st = pdt_error_set(err, PDT_EINVAL, "option --metric %s: not with --min-leaf (the binary backend's "
                           "front search does not take it; --engine fused does)", pdt_metric_name(opt->metric));
    return st;
}

/* ------------------------------------------------------------ the tree */

static int32_t new_node(mfit *fs, const uint64_t *items, uint32_t label)
{
    pdt_model *m = fs->m;
    if (m->n_nodes >= fs->cap_nodes) return -1;
    int32_t idx = (int32_t)m->n_nodes++;
    pdt_tree_node *nd = &m->nodes[idx];
    uint64_t *counts = m->counts + (size_t)idx * m->n_classes;
    nd->n_items = 0;
    for (size_t c = 0; c < m->n_classes; c++) {
        counts[c] = pdt_bits_and_count(items, fs->data.cls + c * fs->data.words, fs->data.words);
        nd->n_items += counts[c];
    }
    /* a branch node's label is its majority (ties: the smaller index); a leaf's is its prediction */
    nd->label = label != BS_NONE ? label : counts[1] > counts[0] ? 1 : 0;
    nd->left = nd->right = nd->rule = -1;
    return idx;
}

static pdt_status model_rule(mfit *fs, uint32_t f, int32_t *index)
{
    return bin_model_rule(index, fs->m, fs->rule_of, &fs->enc, fs->ds, f, fs->err);
}

static pdt_status search_failed(mfit *fs)
{
    return fr_failed(fs->search) == PDT_ELIMIT
               ? pdt_error_set(fs->err, PDT_ELIMIT, "the front search was stopped (time limit or "
                               "interrupt) before it was complete: a metric fit has no partial answer")
               : pdt_error_set(fs->err, PDT_ENOMEM, "out of memory in the front search");
}

/* Two points, one of each child front, that sum to pt (the first such left point). */
static bool split_point(const pdt_front *a, const pdt_front *b, const pdt_front_point *pt, pdt_front_point out[2])
{
    for (size_t i = 0; i < a->n; i++) {
        if (a->p[i].fp > pt->fp || a->p[i].fn > pt->fn) continue;
        size_t j = pdt_front_find(b, pt->fp - a->p[i].fp, pt->fn - a->p[i].fn);
        if (j != SIZE_MAX) {
            out[0] = a->p[i], out[1] = b->p[j];
            return true;
        }
    }
    return false;
}

/* The tree of point pt of the front of (items, d, n) solved under offset off
 * (NULL: the whole front).  The children are solved again under the offsets the
 * search gave them (binary_front.c) — their fronts may be other subsets of
 * the whole front than the search saw, so the child points are found by their
 * (FP, FN), not by index: pt is within the bound, hence so are its parts. */
static pdt_status rebuild(mfit *fs, const uint64_t *items, uint32_t d, uint32_t n, const pdt_front_point *pt,
                          const fr_off *off)
{
    fr_normalise(&d, &n);
    if (pt->how == FR_LEAF_POS || pt->how == FR_LEAF_NEG) {
        uint32_t label = pt->how == FR_LEAF_POS ? fs->positive : 1 - fs->positive;
        if (new_node(fs, items, label) < 0)
            return pdt_error_set(fs->err, PDT_EINTERNAL, "the rebuilt tree outgrows its size limit");
        return PDT_OK;
    }
    uint32_t f = pt->how >> 8, nl = pt->how & 255;
    int32_t idx = new_node(fs, items, BS_NONE), rule;
    if (idx < 0 || f >= fs->data.nf || nl >= n)
        return pdt_error_set(fs->err, PDT_EINTERNAL, "a front point names no valid split");
    pdt_status st = model_rule(fs, f, &rule);
    if (st) return st;
    fs->m->nodes[idx].rule = rule;
    const size_t W = fs->data.words;
    uint64_t *child = malloc(2 * W * sizeof *child);
    pdt_front scratch[2];
    pdt_front_init(&scratch[0]), pdt_front_init(&scratch[1]);
    if (!child) return pdt_error_set(fs->err, PDT_ENOMEM, "out of memory");
    const uint64_t *col = fs->data.cols + (size_t)f * W;
    for (size_t k = 0; k < W; k++) {
        child[k] = items[k] & ~col[k];
        child[W + k] = items[k] & col[k];
    }
    uint32_t budget[2] = {nl, n - 1 - nl};
    fr_off offs[2] = {{0, 0}, {0, 0}};
    if (off) offs[0] = *off;
    const pdt_front *cf[2] = {fr_solve_in(fs->search, &scratch[0], child, d - 1, budget[0], off ? &offs[0] : NULL),
                              NULL};
    if (cf[0] && cf[0]->n && off)
        offs[1] = (fr_off){off->x + cf[0]->p[0].fp, off->y + cf[0]->p[cf[0]->n - 1].fn};
    if (cf[0]) cf[1] = fr_solve_in(fs->search, &scratch[1], child + W, d - 1, budget[1], off ? &offs[1] : NULL);
    pdt_front_point parts[2];
    if (!cf[0] || !cf[1]) st = search_failed(fs);
    else if (!split_point(cf[0], cf[1], pt, parts))
        st = pdt_error_set(fs->err, PDT_EINTERNAL, "a front point (%u, %u) has no child points summing to it",
                           pt->fp, pt->fn);
    for (int side = 0; side < 2 && !st; side++) {
        if (side == 0) fs->m->nodes[idx].left = (int32_t)fs->m->n_nodes;
        else fs->m->nodes[idx].right = (int32_t)fs->m->n_nodes;
        st = rebuild(fs, child + side * W, d - 1, budget[side], &parts[side], off ? &offs[side] : NULL);
    }
    pdt_front_clear(&scratch[0]), pdt_front_clear(&scratch[1]);
    free(child);
    return st;
}

/* ------------------------------------------------------------ the fit */

static void limits(const pdt_fit_options *opt, uint32_t *d, uint32_t *n)
{
    *d = opt->max_depth, *n = opt->max_size;
    if (*d == PDT_UNLIMITED) *d = *n;
    if (*n == PDT_UNLIMITED || *n > bs_cap(*d)) *n = bs_cap(*d);
    fr_normalise(d, n);
}

static pdt_status make_model(mfit *fs, const pdt_fit_options *opt, const pdt_front_point *pt, uint32_t d,
                             uint32_t n, const fr_off *off)
{
    pdt_status st = pdt_model_alloc(&fs->m, fs->err);
    if (!st) st = cls_describe_model(fs->m, fs->ds, opt, "binary", fs->err);
    if (st) return st;
    pdt_model *m = fs->m;
    size_t cap = 2 * (size_t)n + 8;
    fs->cap_nodes = cap;
    m->nodes = calloc(cap, sizeof *m->nodes);
    m->counts = calloc(cap * m->n_classes, sizeof *m->counts);
    m->rules = calloc(cap, sizeof *m->rules);
    fs->rule_of = calloc(fs->data.nf + 1, sizeof *fs->rule_of);
    if (!m->nodes || !m->counts || !m->rules || !fs->rule_of)
        return pdt_error_set(fs->err, PDT_ENOMEM, "out of memory");
    st = rebuild(fs, fs->data.all, d, n, pt, off);
    if (st) return st;
    pdt_model_measure(m);
    uint64_t cm[4] = {0}; /* TP, FP, FN, TN from the rebuilt tree's own leaves */
    for (size_t i = 0; i < m->n_nodes; i++) {
        if (!pdt_node_is_leaf(&m->nodes[i])) continue;
        const uint64_t *c = m->counts + i * m->n_classes;
        bool says_pos = m->nodes[i].label == fs->positive;
        cm[says_pos ? 0 : 2] += c[fs->positive];
        cm[says_pos ? 1 : 3] += c[1 - fs->positive];
    }
    if (cm[1] != pt->fp || cm[2] != pt->fn)
        return pdt_error_set(fs->err, PDT_EINTERNAL, "the rebuilt tree has FP %llu, FN %llu; its front point "
                             "(%u, %u)", (unsigned long long)cm[1], (unsigned long long)cm[2], pt->fp, pt->fn);
    m->metric = opt->metric;
    m->positive = fs->positive;
    memcpy(m->confusion, cm, sizeof cm);
    m->misclassifications = cm[1] + cm[2];
    pdt_confusion c = {cm[0], cm[1], cm[2], cm[3]};
    pdt_metric_exact(m->objective, &m->mcc_sign, opt->metric, &c);
    m->optimal = true;
    return PDT_OK;
}

static pdt_status keep_front(pdt_model *m, const pdt_front *root, pdt_error *err)
{
    m->front = malloc((2 * root->n + 1) * sizeof *m->front);
    if (!m->front) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; i < root->n; i++) m->front[2 * i] = root->p[i].fp, m->front[2 * i + 1] = root->p[i].fn;
    m->front_points = root->n;
    return PDT_OK;
}

static void set_stats(pdt_model *m, const fr_search *s, double seconds)
{
    const fr_stats *st = fr_search_stats(s);
    m->stats.nodes = st->subproblems;
    m->stats.candidates = st->sums;
    m->stats.memo_hits = st->cache_hits;
    m->stats.memo_entries = st->cache_fronts;
    m->stats.pruned = st->pruned;
    m->stats.seconds = seconds;
    m->seconds = seconds;
}

static pdt_status prepare(mfit *fs, const pdt_dataset *ds, const pdt_fit_options *opt, uint32_t *d, uint32_t *n)
{
    pdt_status st = bs_metric_check(&fs->positive, ds, opt, fs->err);
    if (st) return st;
    limits(opt, d, n);
    if (*d > FR_MAX_DEPTH)
        return pdt_error_set(fs->err, PDT_EINVAL, "option --metric %s: depth %u; the front search goes to "
                             "depth %d", pdt_metric_name(opt->metric), *d, FR_MAX_DEPTH);
    st = bin_encode(&fs->enc, ds, opt->rule_params.options, fs->err);
    if (!st) st = bs_data_build(&fs->data, ds, &fs->enc, fs->err);
    if (!st && fs->data.nf >= (size_t)1 << 24) /* a point's how is feature << 8 | budget */
        st = pdt_error_set(fs->err, PDT_ELIMIT, "option --metric: %zu binary features; the front search "
                           "takes at most 2^24", fs->data.nf);
    size_t mb = opt->memo_megabytes ? opt->memo_megabytes : 1024;
    if (!st) st = fr_new(&fs->search, &fs->data, fs->positive, mb << 20, opt->time_limit, opt->stop, fs->err);
    return st;
}

static void finish(mfit *fs)
{
    pdt_model_free(&fs->m);
    fr_free(&fs->search);
    bs_data_clear(&fs->data);
    bin_encoding_clear(&fs->enc);
    free(fs->rule_of);
}

pdt_status bs_metric_front(pdt_front *out, uint32_t *positive, const pdt_dataset *ds,
                           const pdt_fit_options *opt, pdt_error *err)
{
    mfit fs = {.ds = ds, .err = err};
    uint32_t d, n;
    pdt_status st = prepare(&fs, ds, opt, &d, &n);
    pdt_front scratch;
    pdt_front_init(&scratch);
    const pdt_front *root = st ? NULL : fr_solve(fs.search, &scratch, fs.data.all, d, n);
    if (!st && !root) st = search_failed(&fs);
    if (!st && !pdt_front_union(out, root)) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    *positive = fs.positive;
    pdt_front_clear(&scratch);
    finish(&fs);
    return st;
}

pdt_status bs_metric_front_under(pdt_front *outs, const fr_off *offs, size_t n_offs, const pdt_dataset *ds,
                                 const pdt_fit_options *opt, uint32_t inc_fp, uint32_t inc_fn, pdt_error *err)
{
    mfit fs = {.ds = ds, .err = err};
    uint32_t d, n;
    pdt_status st = prepare(&fs, ds, opt, &d, &n);
    if (!st && !fr_bound_start(fs.search, opt->metric, inc_fp, inc_fn, FR_MAX_DEPTH + 1)) /* no root updates */
        st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_front scratch;
    pdt_front_init(&scratch);
    for (size_t i = 0; i < n_offs && !st; i++) {
        const pdt_front *r = fr_solve_in(fs.search, &scratch, fs.data.all, d, n, &offs[i]);
        if (!r) st = search_failed(&fs);
        else if (!pdt_front_union(&outs[i], r)) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    pdt_front_clear(&scratch);
    finish(&fs);
    return st;
}

pdt_status bs_fit_metric(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mfit fs = {.ds = ds, .err = err};
    uint32_t d = 0, n = 0;
    pdt_status st = prepare(&fs, ds, opt, &d, &n);
    pdt_front scratch;
    pdt_front_init(&scratch);
    /* depth 2 first: its best tree is the answer if a time limit stops the full search */
    uint32_t d0 = d, n0 = n;
    if (!st && d >= 3) {
        d0 = 2, n0 = n < 3 ? n : 3;
        fr_arm(fs.search, false); /* the depth-2 answer always completes */
    }
    const pdt_front *root = st ? NULL : fr_solve(fs.search, &scratch, fs.data.all, d0, n0);
    if (!st) fr_arm(fs.search, true);
    if (!st && !root) st = search_failed(&fs);
    uint64_t P = st ? 0 : pdt_bits_count(fs.data.cls + (size_t)fs.positive * fs.data.words, fs.data.words);
    pdt_front_point pt = {0};
    bool optimal = true;
    if (!st) pt = root->p[pdt_front_best(root, opt->metric, P, fs.data.n - P)];
    pdt_front full; /* the full search's front when it is not cached (kept until the end) */
    pdt_front_init(&full);
    const fr_off *off = NULL, zero = {0, 0};
    if (!st && (d0 != d || n0 != n)) { /* the metric bound from the depth-2 optimum on */
        if (!fr_bound_start(fs.search, opt->metric, pt.fp, pt.fn, d)) st = search_failed(&fs);
        off = &zero;
    }
    if (!st && (d0 != d || n0 != n)) {
        root = fr_solve_in(fs.search, &full, fs.data.all, d, n, off);
        if (root && !root->n) /* the depth-2 optimum is within the bound: never */
            st = pdt_error_set(err, PDT_EINTERNAL, "the bounded front search lost the depth-2 optimum");
        else if (root) pt = root->p[pdt_front_best(root, opt->metric, P, fs.data.n - P)];
        else if (fr_failed(fs.search) == PDT_ELIMIT) { /* the depth-2 answer, not proven optimal */
            fr_clear_deadline(fs.search);
            optimal = false;
            d = d0, n = n0, off = NULL;
        } else st = search_failed(&fs);
    }
    if (!st) fr_clear_deadline(fs.search); /* the rebuild completes after a time limit */
    if (!st) st = make_model(&fs, opt, &pt, d, n, off);
    if (!st) {
        fs.m->optimal = optimal;
        if (optimal) st = keep_front(fs.m, root, fs.err);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!st) {
        set_stats(fs.m, fs.search, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        *out = fs.m;
        fs.m = NULL;
    }
    pdt_front_clear(&scratch);
    pdt_front_clear(&full);
    finish(&fs);
    return st;
}
