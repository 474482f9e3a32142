/* The binary backend's driver (the plugin's solve slot): binarise, search,
 * rebuild the tree from the cache, make the model.
 *
 * Objectives, all over trees of depth ≤ d with ≤ n branch nodes:
 *   misclassifications      one search, T(D, d, n);
 *   lexicographic           one search of the value errors · (n + 1) + nodes: the fewest nodes
 *                           among the most accurate, every bound and cache entry in that value;
 *   sparse α                errors/N + α·nodes, α = p/q exact: for k = 0..n the search for
 *                           T(D, d, k) only has to beat the incumbent, i.e. errors ≤ ub_k with
 *                           q·errors + p·N·k < q·best_errors + p·N·best_size, in integers.
 * Every search reuses the same cache (MurTree §4.9.3–4.9.4). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "binary_search.h"
#include "binary_threads.h"
#include "../discrete/discrete.h"
#include "bitset.h"
#include "../../problems/classification.h"
#include "model_impl.h"
#include "pdt_parallel.h"

typedef struct fit_state {
    const pdt_dataset *ds;
    const pdt_fit_options *opt;
    bin_encoding enc;
    bs_data data;
    bs_search *search;
    pdt_model *m;
    uint32_t *rule_of; /* feature -> model rule index + 1 */
    bt_work work;      /* the root's work over threads (binary_threads.c) */
    size_t cap_nodes;
    pdt_error *err;
} fit_state;

static pdt_status check_options(const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    if (opt->class_weights)
        return pdt_error_set(err, PDT_EINVAL, "option --class-weights: the binary backend minimises "
                             "plain misclassifications; use --engine fused for weights");
    if (opt->min_leaf > 0)
        return pdt_error_set(err, PDT_EINVAL, "option --min-leaf: not supported by the binary backend; "
                             "use --engine fused");
    if (pdt_dataset_has_weights(ds))
        return pdt_error_set(err, PDT_EINVAL, "%s: item weights are not supported by the binary "
                             "backend; use --engine fused", pdt_dataset_name(ds));
    return PDT_OK;
}

/* ------------------------------------------------------------ the tree */

static pdt_status model_rule(fit_state *fs, uint32_t f, int32_t *index)
{
    return bin_model_rule(index, fs->m, fs->rule_of, &fs->enc, fs->ds, f, fs->err);
}

/* A node for the items; its counts, label and size (-1 when the tree outgrows its budget). */
static int32_t new_node(fit_state *fs, const uint64_t *items)
{
    pdt_model *m = fs->m;
    if (m->n_nodes >= fs->cap_nodes) return -1;
    int32_t idx = (int32_t)m->n_nodes++;
    pdt_tree_node *nd = &m->nodes[idx];
    uint64_t *counts = m->counts + (size_t)idx * m->n_classes;
    uint32_t best = 0;
    nd->label = 0;
    nd->n_items = 0;
    for (size_t c = 0; c < m->n_classes; c++) {
        counts[c] = pdt_bits_and_count(items, fs->data.cls + c * fs->data.words, fs->data.words);
        nd->n_items += counts[c];
        if (counts[c] > best) best = (uint32_t)counts[c], nd->label = (uint32_t)c;
    }
    nd->left = nd->right = nd->rule = -1;
    return idx;
}

static pdt_status leaf_node(fit_state *fs, const uint64_t *items)
{
    if (new_node(fs, items) < 0)
        return pdt_error_set(fs->err, PDT_EINTERNAL, "the rebuilt tree outgrows its size limit");
    return PDT_OK;
}

typedef pdt_status (*child_fn)(fit_state *fs, const uint64_t *items, const void *arg, int side);

/* A branch node on feature f over items; the children come from fn. */
static pdt_status branch(fit_state *fs, const uint64_t *items, uint32_t f, child_fn fn, const void *arg)
{
    const size_t W = fs->data.words;
    int32_t idx = new_node(fs, items), rule;
    if (idx < 0) return pdt_error_set(fs->err, PDT_EINTERNAL, "the rebuilt tree outgrows its size limit");
    pdt_status st = model_rule(fs, f, &rule);
    if (st) return st;
    fs->m->nodes[idx].rule = rule;
    uint64_t *child = malloc(2 * W * sizeof *child);
    if (!child) return pdt_error_set(fs->err, PDT_ENOMEM, "out of memory");
    const uint64_t *col = fs->data.cols + (size_t)f * W;
    for (size_t k = 0; k < W; k++) {
        child[k] = items[k] & ~col[k]; /* feature 0: the rule's left side */
        child[W + k] = items[k] & col[k];
    }
    fs->m->nodes[idx].left = (int32_t)fs->m->n_nodes;
    st = fn(fs, child, arg, 0);
    fs->m->nodes[idx].right = (int32_t)fs->m->n_nodes;
    if (!st) st = fn(fs, child + W, arg, 1);
    free(child);
    return st;
}

static pdt_status d2_child(fit_state *fs, const uint64_t *items, const void *arg, int side)
{
    const d2_tree *t = arg;
    uint32_t g = t->child[side];
    if (g == BS_NONE) return leaf_node(fs, items);
    static const d2_tree leaves = {BS_NONE, {BS_NONE, BS_NONE}};
    return branch(fs, items, g, d2_child, &leaves);
}

static pdt_status emit_d2_errors(fit_state *fs, const uint64_t *items, uint32_t d, uint32_t k, uint32_t cost)
{
    d2_tree t;
    uint32_t m = pdt_bits_count(items, fs->data.words);
    uint32_t got = d2_tree_of(bs_search_d2(fs->search), items, m, d, k, &t);
    if (got != cost)
        return pdt_error_set(fs->err, PDT_EINTERNAL, "depth-2 tree costs %u, expected %u", got, cost);
    if (t.root == BS_NONE) return leaf_node(fs, items);
    const d2_tree children = {BS_NONE, {t.child[0], t.child[1]}};
    return branch(fs, items, t.root, d2_child, &children);
}

static pdt_status emit_d2(fit_state *fs, const uint64_t *items, uint32_t d, uint32_t k, bs_value value)
{
    return emit_d2_errors(fs, items, d, k, (uint32_t)(value / bs_unit(fs->search)));
}

static pdt_status rebuild(fit_state *fs, const uint64_t *items, const bs_out *o);

static pdt_status general_child(fit_state *fs, const uint64_t *items, const void *arg, int side)
{
    const bs_out *o = arg;
    uint32_t d = o->d - 1, n = side ? o->n - 1 - o->nl : o->nl;
    bs_out c;
    bs_solve_items(fs->search, &c, items, d, n, INT64_MAX);
    if (bs_out_of_memory(fs->search)) return pdt_error_set(fs->err, PDT_ENOMEM, "out of memory");
    if (c.cost == BS_VNONE) return pdt_error_set(fs->err, PDT_EINTERNAL, "a subtree vanished");
    return rebuild(fs, items, &c);
}

/* The tree of a solved subproblem (its root decision in o). */
static pdt_status rebuild(fit_state *fs, const uint64_t *items, const bs_out *o)
{
    if (o->feature == BS_NONE) return leaf_node(fs, items);
    if (o->feature == BS_D2) return emit_d2(fs, items, o->nl == 1 ? 1 : 2, o->nl, o->cost);
    if (o->d <= 2) return emit_d2(fs, items, o->d, o->n, o->cost);
    return branch(fs, items, o->feature, general_child, o);
}

/* ------------------------------------------------------------ objectives */

typedef struct answer {
    bs_out root;
    bool found;
} answer;

static void search(fit_state *fs, answer *a, uint32_t d, uint32_t n, int64_t ub)
{
    bs_out o;
    bs_solve_items(fs->search, &o, fs->data.all, d, n, ub);
    if (o.cost != BS_VNONE) {
        a->root = o;
        a->found = true;
    }
}

static pdt_status sparse_loop(fit_state *fs, answer *a, uint32_t d, uint32_t n, mpq_srcptr alpha)
{
    mpz_t pN, best, num, ub;
    mpz_inits(pN, best, num, ub, NULL);
    mpz_mul_ui(pN, mpq_numref(alpha), (unsigned long)fs->data.n);
    search(fs, a, 0, 0, INT64_MAX); /* the leaf */
    mpz_mul_ui(best, mpq_denref(alpha), a->root.cost);
    for (uint32_t k = 1; k <= n && !bs_aborted(fs->search); k++) {
        mpz_mul_ui(num, pN, k); /* errors ≤ ub with q·errors + p·N·k < best */
        mpz_sub(num, best, num);
        if (mpz_sgn(num) <= 0) break; /* more nodes can only cost more */
        mpz_sub_ui(num, num, 1);
        mpz_fdiv_q(ub, num, mpq_denref(alpha));
        answer t = {0};
        search(fs, &t, d, k, mpz_fits_slong_p(ub) ? mpz_get_si(ub) : INT64_MAX);
        if (!t.found || bs_aborted(fs->search)) continue;
        *a = t;
        mpz_mul_ui(best, mpq_denref(alpha), t.root.cost);
        mpz_addmul_ui(best, pN, t.root.size);
    }
    mpz_clears(pN, best, num, ub, NULL);
    return PDT_OK;
}

static pdt_status parse_alpha(mpq_ptr alpha, const char *text, pdt_error *err)
{
    if (!pdt_parse_rational(alpha, text, strlen(text)) || mpq_sgn(alpha) < 0)
        return pdt_error_set(err, PDT_EINVAL, "option --sparse: '%s' is not a non-negative exact "
                             "number (e.g. 0.01 or 1/100)", text);
    return PDT_OK;
}

/* ------------------------------------------------------------ the model */

static pdt_status make_tree(fit_state *fs, const answer *a)
{
    pdt_model *m = fs->m;
    /* a subtree is rebuilt within its limits, not necessarily to the size first found */
    size_t most = a->root.n > a->root.size ? a->root.n : a->root.size;
    if (most > fs->data.n) most = fs->data.n; /* no degenerate splits: at most N − 1 branch nodes */
    size_t cap = 2 * most + 8;
    fs->cap_nodes = cap;
    m->nodes = calloc(cap, sizeof *m->nodes);
    m->counts = calloc(cap * m->n_classes, sizeof *m->counts);
    m->rules = calloc(cap, sizeof *m->rules);
    fs->rule_of = calloc(fs->data.nf + 1, sizeof *fs->rule_of);
    if (!m->nodes || !m->counts || !m->rules || !fs->rule_of)
        return pdt_error_set(fs->err, PDT_ENOMEM, "out of memory");
    bs_clear_deadline(fs->search); /* the rebuild completes after a time limit */
    pdt_status st = rebuild(fs, fs->data.all, &a->root);
    if (st) return st;
    pdt_model_measure(m);
    m->misclassifications = 0;
    for (size_t i = 0; i < m->n_nodes; i++)
        if (m->nodes[i].left < 0)
            m->misclassifications += m->nodes[i].n_items - m->counts[i * m->n_classes + m->nodes[i].label];
    /* the size is checked when it is proven minimal (then any rebuild has it); the default
     * fit's subtrees might be re-searched to another tree of equal errors if the cache was full */
    const bs_value unit = bs_unit(fs->search);
    if (m->misclassifications != a->root.cost / unit || (fs->opt->lexicographic && unit > 1 &&
                                                         m->size != a->root.cost % unit))
        return pdt_error_set(fs->err, PDT_EINTERNAL, "the tree misclassifies %llu items with %u nodes, "
                             "the search reported value %llu", (unsigned long long)m->misclassifications,
                             m->size, (unsigned long long)a->root.cost);
    return PDT_OK;
}

static void set_objective(pdt_model *m, mpq_srcptr alpha)
{
    mpq_set_ui(m->objective, (unsigned long)m->misclassifications, 1);
    if (!alpha) return;
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(t, 1, (unsigned long)m->n_train);
    mpq_mul(m->objective, m->objective, t);
    mpq_set_ui(t, m->size, 1);
    mpq_mul(t, t, alpha);
    mpq_add(m->objective, m->objective, t);
    mpq_clear(t);
}

static void set_stats(pdt_model *m, bs_search *s, const bt_work *w, double seconds)
{
    m->stats.workers = w->workers;
    m->stats.work_max = w->most;
    m->stats.work_total = w->total;
    const bs_stats *st = bs_search_stats(s);
    m->stats.nodes = st->nodes;
    m->stats.candidates = st->configs;
    m->stats.memo_hits = st->cache_hits;
    m->stats.memo_entries = st->cache_nodes;
    m->stats.pruned = st->pruned;
    m->stats.seconds = seconds;
    m->seconds = seconds;
}

/* Whether no optimal tree has fewer nodes: searched for (lexicographic), or
 * evident — a leaf, a stump, a depth-2 fit (its optima are exact per size), or
 * 2–3 nodes when the best tree of one node fewer (depth ≤ 2) has more errors. */
static bool size_proven(fit_state *fs, const answer *a, uint32_t d, bool lex)
{
    const bs_value unit = bs_unit(fs->search);
    const uint32_t size = fs->m->size;
    if (lex || size <= 1 || d <= 2) return true;
    if (size > 3 || unit == 1) return false;
    bs_out o;
    bs_solve_items(fs->search, &o, fs->data.all, 2, size - 1, INT64_MAX);
    return o.cost != BS_VNONE && o.cost / unit > a->root.cost / unit;
}

static pdt_status run(fit_state *fs, mpq_srcptr alpha)
{
    const pdt_fit_options *opt = fs->opt;
    uint32_t d = opt->max_depth, n = opt->max_size;
    if (d == PDT_UNLIMITED) d = n;
    if (n == PDT_UNLIMITED || n > bs_cap(d)) n = bs_cap(d);
    bs_normalise(&d, &n);
    size_t mb = opt->memo_megabytes ? opt->memo_megabytes : 1024;
    pdt_status st = bs_search_new(&fs->search, &fs->data, mb << 20, opt->time_limit, opt->progress,
                                  opt->progress_user, fs->err);
    if (st) return st;
    bs_set_stop(fs->search, opt->stop);
    bool lex = opt->lexicographic && !alpha;
    if (!alpha) bs_set_lexicographic(fs->search, n, lex); /* (errors, nodes): one search */
    answer a = {0};
    if (d >= 3) { /* the depth-2 optimum first: the root's incumbent, and an answer if time runs out */
        bs_out o;
        bs_solve_items(fs->search, &o, fs->data.all, 2, n < 3 ? n : 3, INT64_MAX);
    }
    if (alpha) {
        st = sparse_loop(fs, &a, d, n, alpha);
    } else if (d >= 3) { /* the root's features as tasks: the same tree for any number of threads */
        st = bt_solve_root(&fs->search, &a.root, &fs->work, d, n, pdt_threads_resolve(opt->threads), fs->err);
        a.found = !st;
    } else {
        search(fs, &a, d, n, INT64_MAX);
    }
    if (!st && bs_out_of_memory(fs->search))
        st = pdt_error_set(fs->err, PDT_ENOMEM, "out of memory in the search");
    if (!st && !a.found) st = pdt_error_set(fs->err, PDT_EINTERNAL, "the search found no tree at all");
    bool optimal = !bs_aborted(fs->search);
    if (!st) st = pdt_model_alloc(&fs->m, fs->err);
    if (!st) st = cls_describe_model(fs->m, fs->ds, fs->opt, "binary", fs->err);
    if (!st) st = make_tree(fs, &a);
    if (!st) {
        fs->m->optimal = optimal;
        fs->m->size_minimal = optimal && !alpha && size_proven(fs, &a, d, lex);
        set_objective(fs->m, alpha);
    }
    return st;
}

pdt_status bs_fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (opt->metric != PDT_METRIC_ACCURACY) return bs_fit_metric(out, ds, opt, err);
    pdt_status st = check_options(ds, opt, err);
    if (st) return st;
    if (opt->sparse && opt->max_depth == PDT_UNLIMITED && opt->max_size == PDT_UNLIMITED) {
        if (opt->lexicographic)
            return pdt_error_set(err, PDT_EINVAL, "options --sparse and --lexicographic without a limit: "
                                 "one objective at a time");
        return dc_fit_binary(out, ds, opt, err); /* no limit: the branch search (backends/discrete/) */
    }
    fit_state fs = {.ds = ds, .opt = opt, .err = err};
    mpq_t alpha;
    mpq_init(alpha);
    if (opt->sparse) st = parse_alpha(alpha, opt->sparse, err);
    if (!st) st = bin_encode(&fs.enc, ds, opt->rule_params.options, err);
    if (!st) st = bs_data_build(&fs.data, ds, &fs.enc, err);
    if (!st) st = run(&fs, opt->sparse ? alpha : NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!st) {
        set_stats(fs.m, fs.search, &fs.work, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        *out = fs.m;
        fs.m = NULL;
    }
    pdt_model_free(&fs.m);
    bs_search_free(&fs.search);
    bs_data_clear(&fs.data);
    bin_encoding_clear(&fs.enc);
    free(fs.rule_of);
    mpq_clear(alpha);
    return st;
}
