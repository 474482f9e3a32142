/* Two-class metric fits (F1, MCC, Fowlkes–Mallows; issue 10) for every rule
 * family through the generic engine: classification with the Pareto algebra
 * (framework/front_algebra.c) as its value.  A leaf's front is
 * {(N, 0) "predict positive", (0, P) "predict negative"} (N negatives, P
 * positives in the leaf); a branch's is the Minkowski sum of its children's;
 * the lower bound of any subtree is {(0, 0)} (a subproblem whose front holds
 * (0, 0) stops).  The root's front is searched once (front_search.c), the
 * metric's best point is picked exactly (front.c) and its tree found again;
 * the model's confusion counts are recomputed from its own predictions on
 * the training rows and must be the point's.  The categorical family (multiway
 * splits) is searched by backends/discrete/discrete_front.c instead; a time
 * limit keeps the front found so far (after a depth-2 rung on deep limits). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bitset.h"
#include "classification.h"
#include "front.h"
#include "../backends/discrete/discrete.h"
#include "../backends/discrete/discrete_front.h"

typedef struct cf_inst {
    cls_inst ci;
    uint32_t positive;
} cf_inst;

static pdt_status cf_leaf(void *value, void *inst, const pdt_node *node, pdt_error *err)
{
    const cf_inst *c = inst;
    pdt_front *f = value;
    uint32_t p = pdt_bits_and_count(node->items, c->ci.class_bits + (size_t)c->positive * c->ci.words, c->ci.words);
    uint32_t neg = node->n_items - p;
    f->n = 0;
    /* how: the predicted class; filtered, so a pure leaf keeps its (0, 0) only */
    bool ok = pdt_front_push(f, neg, 0, c->positive, 0, 0) && pdt_front_push(f, 0, p, 1 - c->positive, 0, 0);
    if (!ok) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_front_filter(f);
    return PDT_OK;
}

static pdt_status cf_lower_bound(void *value, void *inst, const pdt_node *node, uint32_t budget, pdt_error *err)
{
    (void)inst, (void)node, (void)budget;
    pdt_front *f = value;
    f->n = 0;
    return pdt_front_push(f, 0, 0, 0, 0, 0) ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
}

/* One branch node: a split whose left side holds nl items, pl of them
 * positive, adds (left negatives, right positives) and (right negatives, left
 * positives) — the other two labellings are the leaf's own points. */
static pdt_status cf_stump(void *value, uint32_t *index, void *inst, const pdt_node *node,
                           const uint64_t *const *sides, uint32_t n, uint32_t min_leaf, const void *bound,
                           pdt_error *err)
{
    (void)bound;
    const cf_inst *c = inst;
    const size_t words = c->ci.words;
    const uint64_t *items = node->items, *pos = c->ci.class_bits + (size_t)c->positive * words;
    const uint32_t total = node->n_items, P = pdt_bits_and_count(items, pos, words), N = total - P;
    uint32_t lo = min_leaf > 1 ? min_leaf : 1;
    *index = UINT32_MAX;
    pdt_front_acc acc;
    if (!pdt_front_acc_init(&acc, N)) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t *side = sides[i];
        uint32_t nl = 0, pl = 0;
        for (size_t w = 0; w < words; w++) {
            uint64_t x = items[w] & side[w];
            nl += (uint32_t)__builtin_popcountll(x);
            pl += (uint32_t)__builtin_popcountll(x & pos[w]);
        }
        if (nl < lo || total - nl < lo) continue;
        uint32_t negl = nl - pl, negr = N - negl, pr = P - pl;
        pdt_front_acc_add(&acc, negl, pr, 0, 0, 0);
        pdt_front_acc_add(&acc, negr, pl, 0, 0, 0);
    }
    bool ok = pdt_front_acc_take(value, &acc, N);
    pdt_front_acc_clear(&acc);
    return ok ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
}

/* Not registered (no PDT_DEFINE_PROBLEM): the metric fits' own problem. */
static const pdt_problem_class classification_front = {
    .version = PDT_PROBLEM_V1,
    .name = "classification-front",
    .description = "two-class classification: Pareto fronts of (false positives, false negatives)",
    .flags = PDT_PROBLEM_MEMO,
    .algebra = &pdt_algebra_front,
    .leaf = cf_leaf,
    .lower_bound = cf_lower_bound,
    .stump = cf_stump,
};

pdt_status cls_metric_check(uint32_t *positive, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    const char *name = pdt_metric_name(opt->metric);
    if (pdt_dataset_classes(ds) != 2)
        return pdt_error_set(err, PDT_EINVAL, "option --metric %s: %s has %zu classes; the metrics F1, MCC "
                             "and FM are for two classes (positive and negative)", name,
                             pdt_dataset_name(ds), pdt_dataset_classes(ds));
    *positive = 1;
    if (opt->positive) {
        size_t c = pdt_dataset_find_class(ds, opt->positive);
        if (c == SIZE_MAX)
            return pdt_error_set(err, PDT_EINVAL, "option --positive: '%s' is not a class of %s (its classes: "
                                 "%s, %s)", opt->positive, pdt_dataset_name(ds),
                                 pdt_dataset_class_name(ds, 0), pdt_dataset_class_name(ds, 1));
        *positive = (uint32_t)c;
    }
    const char *other = opt->sparse ? "--sparse" : opt->lexicographic ? "--lexicographic"
                        : opt->perfect ? "--perfect" : opt->class_weights ? "--class-weights" : NULL;
    if (other)
        return pdt_error_set(err, PDT_EINVAL, "option --metric %s: not with %s (one objective at a time)",
                             name, other);
    if (pdt_dataset_has_weights(ds))
        return pdt_error_set(err, PDT_EINVAL, "option --metric %s: not with item weights (the front search "
                             "counts items)", name);
    if (opt->engine == PDT_ENGINE_COMBINATIONS)
        return pdt_error_set(err, PDT_EINVAL, "option --metric %s: not with --engine combinations (fronts "
                             "are searched by the fused engine)", name);
    if (opt->max_depth == PDT_UNLIMITED && opt->max_size == PDT_UNLIMITED)
        return pdt_error_set(err, PDT_EINVAL, "option --metric %s: give --depth D and/or --size K", name);
    return PDT_OK;
}

/* ------------------------------------------------------------ the model */

typedef struct grow {
    const pdt_ruleset *rs;
    const cf_inst *c;
    pdt_model *m;
    const pdt_front_tree *t;
    size_t pos;
    uint32_t *rule_ids; /* ruleset index of each model rule */
    pdt_error *err;
} grow;

static pdt_status model_rule(grow *g, uint32_t id, int32_t *index)
{
    return cls_model_rule(g->m, g->rule_ids, g->rs, id, index, g->err);
}

static pdt_status grow_node(grow *g, const uint64_t *items, int32_t *out)
{
    pdt_model *m = g->m;
    size_t words = g->c->ci.words;
    if (g->pos >= g->t->len) return pdt_error_set(g->err, PDT_EINTERNAL, "truncated tree");
    size_t idx = m->n_nodes++, at = g->pos++;
    *out = (int32_t)idx;
    pdt_tree_node *nd = &m->nodes[idx];
    uint64_t *counts = m->counts + idx * m->n_classes;
    cls_counts(counts, &g->c->ci, items);
    cls_leaf_cost(&g->c->ci, counts, &nd->label); /* a branch node's label: its majority */
    nd->n_items = pdt_bits_count(items, words);
    nd->left = nd->right = nd->rule = -1;
    int64_t payload = g->t->pre[at];
    if (payload == PDT_LEAF) {
        nd->label = g->t->leaf_how[at]; /* a leaf's label: its prediction */
        return nd->label < m->n_classes ? PDT_OK : pdt_error_set(g->err, PDT_EINTERNAL, "bad leaf label");
    }
    int32_t rule;
    pdt_status st = model_rule(g, (uint32_t)payload, &rule);
    if (st) return st;
    nd->rule = rule;
    uint64_t *child = malloc(2 * words * sizeof *child + 1);
    if (!child) return pdt_error_set(g->err, PDT_ENOMEM, "out of memory");
    const uint64_t *side = pdt_ruleset_sides(g->rs, (size_t)payload);
    pdt_bits_and(child, items, side, words);
    pdt_bits_andnot(child + words, items, side, words);
    int32_t left = -1, right = -1;
    st = grow_node(g, child, &left);
    if (!st) st = grow_node(g, child + words, &right);
    free(child);
    m->nodes[idx].left = left;
    m->nodes[idx].right = right;
    return st;
}

/* A point's model after its tree: measured, its confusion counts recounted
 * from its own predictions on the training rows (they must be the point's),
 * the metric's exact value as the objective. */
static pdt_status finish_model(pdt_model *m, const pdt_dataset *ds, uint32_t positive, const pdt_front_point *pt,
                               pdt_metric metric, pdt_error *err)
{
    pdt_model_measure(m);
    size_t n = pdt_dataset_rows(ds);
    uint32_t *pred = malloc((n ? n : 1) * sizeof *pred);
    if (!pred) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_status st = pdt_model_predict(pred, m, ds, err);
    uint64_t cm[4] = {0}; /* TP, FP, FN, TN */
    for (size_t i = 0; i < n && !st; i++) {
        bool is_pos = pdt_dataset_label(ds, i) == positive, says_pos = pred[i] == positive;
        cm[says_pos ? (is_pos ? 0 : 1) : (is_pos ? 2 : 3)]++;
    }
    free(pred);
    if (st) return st;
    if (cm[1] != pt->fp || cm[2] != pt->fn)
        return pdt_error_set(err, PDT_EINTERNAL, "the tree predicts FP %llu, FN %llu on the training rows; "
                             "its front point is (%u, %u)", (unsigned long long)cm[1],
                             (unsigned long long)cm[2], pt->fp, pt->fn);
    m->metric = metric;
    m->positive = positive;
    memcpy(m->confusion, cm, sizeof cm);
    m->misclassifications = cm[1] + cm[2];
    pdt_confusion cf = {cm[0], cm[1], cm[2], cm[3]};
    pdt_metric_exact(m->objective, &m->mcc_sign, metric, &cf);
    return PDT_OK;
}

/* The model of the point's tree (generic engine). */
static pdt_status point_model(pdt_model *m, const pdt_ruleset *rs, const cf_inst *c, const pdt_front_tree *t,
                              const uint64_t *all, const pdt_front_point *pt, pdt_metric metric, pdt_error *err)
{
    m->nodes = calloc(t->len + 1, sizeof *m->nodes);
    m->counts = calloc((t->len + 1) * m->n_classes, sizeof *m->counts);
    m->rules = calloc(t->len + 1, sizeof *m->rules);
    uint32_t *ids = calloc(t->len + 1, sizeof *ids);
    if (!m->nodes || !m->counts || !m->rules || !ids) {
        free(ids);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    grow g = {rs, c, m, t, 0, ids, err};
    int32_t root;
    pdt_status st = grow_node(&g, all, &root);
    free(ids);
    return st ? st : finish_model(m, c->ci.ds, c->positive, pt, metric, err);
}

/* ------------------------------------------------------------ the fit */

struct cls_front_fit {
    cf_inst c;
    bool inst_ok;
    pdt_ruleset *rs;
    uint64_t *all;
    uint32_t *rules;
    pdt_front_search *fs;
    df_search *dfs; /* the categorical family's search instead (multiway splits) */
    uint64_t positives, negatives;
    pdt_fit_options opt;
    /* With a time limit and deep limits, a rung searched first (depth ≤ 2, size ≤ 3): when the
     * search stops, the front is the rung's ∪ the search's so far (merged). */
    cls_front_fit *rung;
    pdt_front merged;
    bool merged_on;
};

void cls_front_fit_free(cls_front_fit **fp)
{
    cls_front_fit *f = *fp;
    if (!f) return;
    pdt_front_search_free(&f->fs);
    df_search_free(&f->dfs);
    cls_front_fit_free(&f->rung);
    pdt_front_clear(&f->merged);
    pdt_ruleset_free(&f->rs);
    if (f->inst_ok) cls_inst_clear(&f->c.ci);
    free(f->all);
    free(f->rules);
    free(f);
    *fp = NULL;
}

/* The categorical family splits in many ways: its own front search
 * (backends/discrete/discrete_front.c) unless another engine is asked for
 * (the fused engine then refuses it, as for accuracy). */
static bool multiway(const pdt_fit_options *opt)
{
    return pdt_rule_class_find(opt->rules ? opt->rules : "") == &pdt_rule_class_categorical &&
           (opt->engine == PDT_ENGINE_AUTO || opt->engine == PDT_ENGINE_BACKEND);
}

/* The categorical family's front search for the options (it takes no rule options). */
static pdt_status run_multiway(cls_front_fit *f, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    if (opt->rule_params.options)
        return pdt_error_set(err, PDT_EINVAL, "option --rule-options: categorical rules take none ('%s')",
                             opt->rule_params.options);
    return df_search_run(&f->dfs, ds, opt, f->c.positive, err);
}

static pdt_status run_generic(cls_front_fit *f, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    size_t n = pdt_dataset_rows(ds);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pdt_rule_params params;
    cls_rule_params(&params, opt, &t0);
    pdt_status st = pdt_ruleset_build(&f->rs, ds, opt->rules, &params, err);
    size_t m = st ? 0 : pdt_ruleset_size(f->rs);
    if (!st) {
        f->all = calloc(pdt_bits_words(n) + 1, sizeof *f->all);
        f->rules = malloc((m ? m : 1) * sizeof *f->rules);
        if (!f->all || !f->rules) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    if (st) return st;
    pdt_bits_fill(f->all, n);
    for (size_t r = 0; r < m; r++) f->rules[r] = (uint32_t)r;
    pdt_node root = {f->all, (uint32_t)n, f->rules, (uint32_t)m, 0};
    pdt_search_opts so;
    cls_search_opts(&so, opt);
    so.time_limit = cls_time_left(opt, &t0); /* what the rules left */
    return pdt_front_search_run(&f->fs, &classification_front, &f->c, f->rs, f->c.ci.words, &root, &so, err);
}

/* A rung for a time limit on limits deeper than depth 2 or 3 branch nodes (as the binary backend's). */
static bool rung_wanted(const pdt_fit_options *opt)
{
    bool deep = opt->max_depth == PDT_UNLIMITED ? opt->max_size != PDT_UNLIMITED && opt->max_size >= 4
                                                : opt->max_depth >= 3 && opt->max_size >= 4;
    return opt->time_limit > 0 && deep;
}

static const pdt_front *own_front(const cls_front_fit *f)
{
    return f->dfs ? df_search_front(f->dfs) : pdt_front_search_front(f->fs);
}

static bool own_complete(const cls_front_fit *f)
{
    if (f->rs && pdt_ruleset_cut(f->rs)) return false; /* the front of no rules */
    return f->dfs ? df_search_complete(f->dfs) : f->fs && pdt_front_search_complete(f->fs);
}

/* The rung (complete, or stopped: then the whole answer), then the search with the time left. */
static pdt_status search_with_rung(cls_front_fit *f, const pdt_dataset *ds, const pdt_fit_options *opt,
                                   pdt_error *err)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pdt_fit_options r = *opt, o = *opt;
    r.max_depth = opt->max_depth < 2 ? opt->max_depth : 2;
    r.max_size = opt->max_size < 3 ? opt->max_size : 3;
    pdt_status st = cls_front_fit_run(&f->rung, ds, &r, err);
    if (!st && own_complete(f->rung)) {
        o.time_limit = cls_time_left(opt, &t0); /* (none: the rung is the answer) */
        st = multiway(opt) ? run_multiway(f, ds, &o, err) : run_generic(f, ds, &o, err);
    }
    if (st || own_complete(f)) return st;
    f->merged_on = true;
    bool ok = pdt_front_union(&f->merged, own_front(f->rung)) &&
              (!f->dfs && !f->fs ? true : pdt_front_union(&f->merged, own_front(f)));
    return ok ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
}

pdt_status cls_front_fit_run(cls_front_fit **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    cls_front_fit *f = calloc(1, sizeof *f);
    if (!f) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    f->opt = *opt;
    pdt_status st = cls_metric_check(&f->c.positive, ds, opt, err);
    if (!st) st = cls_inst_init(&f->c.ci, ds, NULL, err);
    if (!st) f->inst_ok = true;
    if (!st) {
        size_t n = pdt_dataset_rows(ds);
        f->positives = 0;
        for (size_t i = 0; i < n; i++) f->positives += pdt_dataset_label(ds, i) == f->c.positive;
        f->negatives = n - f->positives;
        /* a time limit or interrupt leaves the front found so far (its trees are not proven optimal) */
        if (rung_wanted(opt)) st = search_with_rung(f, ds, opt, err);
        else st = multiway(opt) ? run_multiway(f, ds, opt, err) : run_generic(f, ds, opt, err);
    }
    if (st) cls_front_fit_free(&f);
    *out = f;
    return st;
}

const pdt_front *cls_front_fit_front(const cls_front_fit *f) { return f->merged_on ? &f->merged : own_front(f); }

uint32_t cls_front_fit_positive(const cls_front_fit *f) { return f->c.positive; }

bool cls_front_fit_complete(const cls_front_fit *f) { return own_complete(f); }

static bool has_point(const pdt_front *front, uint32_t fp, uint32_t fn)
{
    for (size_t i = 0; i < front->n; i++)
        if (front->p[i].fp == fp && front->p[i].fn == fn) return true;
    return false;
}

/* The point's tree into m, by the search that found the point (this one's, or
 * its rung's); the model records the options of the fit asked for (as). */
static pdt_status point_tree(pdt_model *m, cls_front_fit *f, const pdt_front_point *pt, pdt_metric metric,
                             const pdt_fit_options *as, pdt_error *err)
{
    if (f->rung && (!(f->dfs || f->fs) || !has_point(own_front(f), pt->fp, pt->fn)))
        return point_tree(m, f->rung, pt, metric, as, err);
    const pdt_dataset *ds = f->c.ci.ds;
    pdt_status st = cls_describe_model(m, ds, as, f->dfs ? "discrete (fronts)" : "fused", err);
    if (st) return st;
    if (f->dfs) {
        st = df_search_tree(m, f->dfs, pt->fp, pt->fn, err);
        m->stats = *df_search_stats(f->dfs);
        return st ? st : finish_model(m, ds, f->c.positive, pt, metric, err);
    }
    pdt_front_tree t;
    st = pdt_front_search_tree(&t, f->fs, pt->fp, pt->fn, err);
    if (!st) st = point_model(m, f->rs, &f->c, &t, f->all, pt, metric, err);
    m->stats = *pdt_front_search_stats(f->fs);
    pdt_front_tree_clear(&t);
    return st;
}

pdt_status cls_front_fit_model(pdt_model **out, cls_front_fit *f, size_t point, pdt_metric metric, pdt_error *err)
{
    *out = NULL;
    const pdt_front *front = cls_front_fit_front(f);
    if (point >= front->n) return pdt_error_set(err, PDT_EINTERNAL, "no point %zu on the front", point);
    pdt_front_point pt = front->p[point];
    pdt_model *m = NULL;
    pdt_status st = pdt_model_alloc(&m, err);
    if (!st) st = point_tree(m, f, &pt, metric, &f->opt, err);
    if (!st) {
        m->optimal = cls_front_fit_complete(f);
        m->front = malloc((2 * front->n + 1) * sizeof *m->front);
        if (!m->front) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
        else {
            for (size_t i = 0; i < front->n; i++) m->front[2 * i] = front->p[i].fp, m->front[2 * i + 1] = front->p[i].fn;
            m->front_points = front->n;
        }
    }
    if (st) pdt_model_free(&m);
    *out = m;
    return st;
}

pdt_status cls_fit_metric(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cls_front_fit *f = NULL;
    pdt_status st = cls_front_fit_run(&f, ds, opt, err);
    if (st) return st;
    const pdt_front *front = cls_front_fit_front(f);
    size_t best = pdt_front_best(front, opt->metric, f->positives, f->negatives);
    st = cls_front_fit_model(out, f, best, opt->metric, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!st) {
        (*out)->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        (*out)->stats.seconds = (*out)->seconds;
    }
    cls_front_fit_free(&f);
    return st;
}

/* ------------------------------------------------------------ the public face (pdt.h) */

struct pdt_front_fit {
    cls_front_fit *f;
};

pdt_status pdt_front_fit_run(pdt_front_fit **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    pdt_status st = PDT_OK;
    if (!pdt_dataset_has_labels(ds)) return pdt_error_set(err, PDT_EINVAL, "%s: the data has no label column", pdt_dataset_name(ds));
    if (pdt_dataset_rows(ds) == 0) return pdt_error_set(err, PDT_EINVAL, "%s: no data rows", pdt_dataset_name(ds));
    if (pdt_dataset_rows(ds) >= UINT32_MAX / 2) return pdt_error_set(err, PDT_ELIMIT, "%s: too many rows", pdt_dataset_name(ds));
    for (size_t j = 0; j < pdt_dataset_dims(ds); j++) {
        const char *fam = opt->rules ? opt->rules : "axis";
        if (pdt_dataset_is_categorical(ds, j) && !strstr(fam, "binary") && !strstr(fam, "categorical"))
            return pdt_error_set(err, PDT_EINVAL, "%s: column %s is categorical; fronts with rule family %s "
                                 "take numeric columns only (use --rules binary)", pdt_dataset_name(ds),
                                 pdt_dataset_feature_name(ds, j), fam);
    }
    pdt_fit_options o = *opt;
    if (o.metric == PDT_METRIC_ACCURACY) o.metric = PDT_METRIC_F1;
    pdt_front_fit *f = calloc(1, sizeof *f);
    if (!f) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    st = cls_front_fit_run(&f->f, ds, &o, err);
    if (st) {
        free(f);
        return st;
    }
    *out = f;
    return PDT_OK;
}

size_t pdt_front_fit_points(const pdt_front_fit *f) { return cls_front_fit_front(f->f)->n; }

void pdt_front_fit_point(const pdt_front_fit *f, size_t i, uint64_t *fp, uint64_t *fn)
{
    const pdt_front *front = cls_front_fit_front(f->f);
    *fp = i < front->n ? front->p[i].fp : 0;
    *fn = i < front->n ? front->p[i].fn : 0;
}

void pdt_front_fit_classes(const pdt_front_fit *f, uint32_t *positive, uint64_t *positives, uint64_t *negatives)
{
    if (positive) *positive = f->f->c.positive;
    if (positives) *positives = f->f->positives;
    if (negatives) *negatives = f->f->negatives;
}

bool pdt_front_fit_complete(const pdt_front_fit *f) { return cls_front_fit_complete(f->f); }

size_t pdt_front_fit_best(const pdt_front_fit *f, pdt_metric metric)
{
    return pdt_front_best(cls_front_fit_front(f->f), metric, f->f->positives, f->f->negatives);
}

pdt_status pdt_front_fit_model(pdt_model **out, pdt_front_fit *f, size_t i, pdt_metric metric, pdt_error *err)
{
    if (metric == PDT_METRIC_ACCURACY) metric = PDT_METRIC_F1;
    pdt_status st = cls_front_fit_model(out, f->f, i, metric, err);
    if (st || i == pdt_front_fit_best(f, metric)) return st;
    /* another point's tree: not the metric's optimum, and its document carries no front */
    pdt_model *m = *out;
    m->optimal = false;
    free(m->front);
    m->front = NULL;
    m->front_points = 0;
    return PDT_OK;
}

void pdt_front_fit_free(pdt_front_fit **fp)
{
    if (!*fp) return;
    cls_front_fit_free(&(*fp)->f);
    free(*fp);
    *fp = NULL;
}
