/* pdt_fit: candidate rules → the search → a model with exact standalone rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bitset.h"
#include "classification.h"
#include "clock_gate.h"
#include "pdt_parallel.h"
#include "front.h"

void pdt_fit_options_init(pdt_fit_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->rules = "axis";
    opt->max_size = PDT_UNLIMITED;
    opt->max_depth = PDT_UNLIMITED;
    opt->engine = PDT_ENGINE_AUTO;
}

static pdt_status check_input(const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    if (!pdt_dataset_has_labels(ds))
        return pdt_error_set(err, PDT_EINVAL, "%s: the data has no label column", pdt_dataset_name(ds));
    if (pdt_dataset_rows(ds) == 0)
        return pdt_error_set(err, PDT_EINVAL, "%s: no data rows", pdt_dataset_name(ds));
    if (pdt_dataset_rows(ds) >= UINT32_MAX / 2)
        return pdt_error_set(err, PDT_ELIMIT, "%s: too many rows", pdt_dataset_name(ds));
    if (opt->max_size == PDT_UNLIMITED && opt->max_depth == PDT_UNLIMITED && !opt->sparse)
        return pdt_error_set(err, PDT_EINVAL, "give a size limit (--size K) and/or a depth limit (--depth D) "
                             "(or --sparse λ, which needs no limit with binary, axis or categorical rules)");
    return PDT_OK;
}

/* The family's specialised backend, when the options ask for it (or leave it to us). */
static const pdt_rule_class *backend_of(const pdt_fit_options *opt)
{
    if (opt->engine != PDT_ENGINE_AUTO && opt->engine != PDT_ENGINE_BACKEND) return NULL;
    const pdt_rule_class *cls = pdt_rule_class_find(opt->rules ? opt->rules : "");
    return cls && cls->solve ? cls : NULL;
}

/* ------------------------------------------------------------ the model */

typedef struct replay {
    const pdt_ruleset *rs;
    const cls_inst *ci;
    pdt_model *m;
    const int64_t *tree;
    size_t len, pos;
    int64_t cost;
    uint32_t *rule_ids; /* ruleset index of each model rule */
    size_t words;
    pdt_error *err;
} replay;

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

double cls_time_left(const pdt_fit_options *opt, const struct timespec *t0)
{
    if (opt->time_limit <= 0) return 0;
    const double left = opt->time_limit - seconds_since(t0);
    return left > 1e-9 ? left : 1e-9; /* (none: the search stops at once, its first tree the answer) */
}

void cls_rule_params(pdt_rule_params *params, const pdt_fit_options *opt, const struct timespec *t0)
{
    *params = opt->rule_params;
    params->stop = opt->stop;
    params->threads = pdt_threads_resolve(opt->threads);
    params->deadline = opt->time_limit > 0 ? pdt_time_after(*t0, opt->time_limit) : (struct timespec){0};
}

void cls_search_opts(pdt_search_opts *so, const pdt_fit_options *opt)
{
    pdt_search_opts_init(so);
    so->max_size = opt->max_size;
    so->max_depth = opt->max_depth;
    so->min_leaf = opt->min_leaf;
    so->no_memo = opt->no_memo;
    so->memo_bytes = opt->memo_megabytes << 20;
    so->time_limit = opt->time_limit;
    so->stop = opt->stop;
}

pdt_status cls_model_rule(pdt_model *m, uint32_t *rule_ids, const pdt_ruleset *rs, uint32_t id, int32_t *index,
                          pdt_error *err)
{
    for (size_t k = 0; k < m->n_rules; k++)
        if (rule_ids[k] == id) {
            *index = (int32_t)k;
            return PDT_OK;
        }
    pdt_status st = pdt_ruleset_export(&m->rules[m->n_rules], rs, id, err);
    if (st) return st;
    rule_ids[m->n_rules] = id;
    *index = (int32_t)m->n_rules++;
    return PDT_OK;
}

static pdt_status model_rule(replay *r, uint32_t id, int32_t *index)
{
    return cls_model_rule(r->m, r->rule_ids, r->rs, id, index, r->err);
}

/* Downward accumulation along the solved tree: items, counts and labels per node. */
static pdt_status replay_node(replay *r, const uint64_t *items, int32_t *out)
{
    pdt_model *m = r->m;
    if (r->pos >= r->len) return pdt_error_set(r->err, PDT_EINTERNAL, "truncated tree");
    size_t idx = m->n_nodes++;
    *out = (int32_t)idx;
    pdt_tree_node *nd = &m->nodes[idx];
    uint64_t *counts = m->counts + idx * m->n_classes;
    cls_counts(counts, r->ci, items);
    int64_t leaf = cls_leaf_cost(r->ci, counts, &nd->label);
    nd->n_items = pdt_bits_count(items, r->words);
    nd->left = nd->right = nd->rule = -1;
    int64_t payload = r->tree[r->pos++];
    if (payload == PDT_LEAF) {
        r->cost += leaf;
        m->misclassifications += nd->n_items - counts[nd->label];
        return PDT_OK;
    }
    int32_t rule;
    pdt_status st = model_rule(r, (uint32_t)payload, &rule);
    if (st) return st;
    m->nodes[idx].rule = rule;
    uint64_t *child = malloc(2 * r->words * sizeof *child + 1);
    if (!child) return pdt_error_set(r->err, PDT_ENOMEM, "out of memory");
    const uint64_t *side = pdt_ruleset_sides(r->rs, (size_t)payload);
    pdt_bits_and(child, items, side, r->words);
    pdt_bits_andnot(child + r->words, items, side, r->words);
    int32_t left = -1, right = -1;
    st = replay_node(r, child, &left);
    if (!st) st = replay_node(r, child + r->words, &right);
    free(child);
    m->nodes[idx].left = left;
    m->nodes[idx].right = right;
    return st;
}

static pdt_status make_model(pdt_model *m, const pdt_ruleset *rs, const cls_inst *ci,
                             const pdt_search_result *res, const uint64_t *all, pdt_error *err)
{
    m->nodes = calloc(res->tree_len, sizeof *m->nodes);
    m->counts = calloc(res->tree_len * m->n_classes + 1, sizeof *m->counts);
    m->rules = calloc(res->tree_len, sizeof *m->rules);
    uint32_t *ids = calloc(res->tree_len + 1, sizeof *ids);
    if (!m->nodes || !m->counts || !m->rules || !ids) {
        free(ids);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    replay r = {rs, ci, m, res->tree, res->tree_len, 0, 0, ids, ci->words, err};
    int32_t root;
    pdt_status st = replay_node(&r, all, &root);
    free(ids);
    if (st) return st;
    /* Proven optima must be reproduced exactly.  After a time limit the subtrees
     * are re-derived as "at least as good as found", so the tree may be better. */
    int64_t reported = *(const int64_t *)res->value, value = r.cost * ci->unit;
    for (size_t k = 0; k < res->tree_len; k++) value += res->tree[k] == PDT_LEAF ? 0 : ci->per_node;
    if (res->optimal ? value != reported : value > reported)
        return pdt_error_set(err, PDT_EINTERNAL, "the tree's value is %lld, the search reported %lld",
                             (long long)value, (long long)reported);
    mpq_set_si(m->objective, r.cost, 1);
    mpz_set(mpq_denref(m->objective), ci->scale);
    mpq_canonicalize(m->objective);
    m->optimal = res->optimal;
    m->size_minimal = res->optimal && ci->per_node; /* (cost, nodes) searched exactly */
    m->stats = res->stats;
    pdt_model_measure(m);
    return PDT_OK;
}

/* ------------------------------------------------------------ fit */

/* Progress reports show the cost, not the value cost · unit + nodes the search holds. */
typedef struct cost_progress {
    pdt_progress_fn fn;
    void *user;
    int64_t unit;
} cost_progress;

static void report_cost(void *user, const pdt_progress *p)
{
    const cost_progress *cp = user;
    char *end, text[32];
    long long v = strtoll(p->best, &end, 10);
    pdt_progress q = *p;
    if (end != p->best && !*end) {
        snprintf(text, sizeof text, "%lld", v / cp->unit);
        q.best = text;
    }
    cp->fn(cp->user, &q);
}

/* The search over rs within what is left of the time limit of the fit started at t0. */
static pdt_status run_search(pdt_search_result *res, const pdt_ruleset *rs, cls_inst *ci,
                             const uint64_t *all, const pdt_fit_options *opt, const struct timespec *t0,
                             pdt_error *err)
{
    size_t n_rules = pdt_ruleset_size(rs);
    uint32_t *rules = malloc((n_rules ? n_rules : 1) * sizeof *rules);
    if (!rules) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t r = 0; r < n_rules; r++) rules[r] = (uint32_t)r;
    pdt_node root = {all, (uint32_t)pdt_dataset_rows(ci->ds), rules, (uint32_t)n_rules, 0};
    pdt_search_opts so;
    cls_search_opts(&so, opt);
    so.trace = opt->trace;
    so.trace_user = opt->trace_user;
    so.progress = opt->progress;
    so.progress_user = opt->progress_user;
    so.threads = opt->threads;
    so.time_limit = cls_time_left(opt, t0);
    /* ties toward fewer nodes: values (cost, nodes) when the limits bound the size and the
     * values fit (not while tracing, which prints every value) */
    uint64_t most = opt->max_size;
    if (opt->max_depth != PDT_UNLIMITED && opt->max_depth < 40) {
        uint64_t full = (UINT64_C(1) << opt->max_depth) - 1;
        if (opt->max_size == PDT_UNLIMITED || full < most) most = full;
    }
    bool fewest = most != PDT_UNLIMITED && !opt->trace && cls_inst_fewest_nodes(ci, most);
    const pdt_problem_class *pc = fewest ? &pdt_classification_fewest_nodes : &pdt_problem_class_classification;
    if (opt->lexicographic && !fewest) { /* the generic engine's values are (cost, nodes) or cost */
        free(rules);
        return pdt_error_set(err, PDT_EINVAL, "option --lexicographic: the generic engine needs a depth or "
                             "size limit (and no --trace) to rank trees by (cost, nodes)");
    }
    cost_progress cp = {opt->progress, opt->progress_user, ci->unit};
    if (fewest && opt->progress) so.progress = report_cost, so.progress_user = &cp;
    pdt_status st = opt->engine == PDT_ENGINE_COMBINATIONS
                        ? pdt_search_combinations(res, pc, ci, rs, &root, &so, err)
                        : pdt_search(res, pc, ci, rs, ci->words, &root, &so, err);
    free(rules);
    if (!st && !res->found) st = pdt_error_set(err, PDT_EINTERNAL, "the search found no tree at all");
    return st;
}

static pdt_status fit_backend(pdt_model **out, const pdt_rule_class *cls, const pdt_dataset *ds,
                              const pdt_fit_options *opt, pdt_error *err)
{
    pdt_status st = cls->solve(out, ds, opt, err);
    return st ? pdt_error_prefix(err, "rule plugin \"%s\": ", cls->name) : PDT_OK;
}

/* ------------------------------------------------------------ categorical columns */

/* What the families make of categorical columns: *reads (some family tests
 * categories), and the first family that would read their codes as numbers
 * while another reads categories (refused), or NULL. */
static const char *category_readers(bool *reads, const char *families, char *name, size_t size)
{
    *reads = false;
    const char *numeric = NULL;
    for (const char *p = families ? families : ""; *p;) {
        size_t len = strcspn(p, ",");
        if (len < size) {
            memcpy(name, p, len);
            name[len] = '\0';
            const pdt_rule_class *cls = pdt_rule_class_find(name);
            unsigned f = cls ? cls->flags : 0;
            if (f & PDT_CATEGORICAL) *reads = true;
            if (cls && !(f & (PDT_CATEGORICAL | PDT_SKIPS_CATEGORICAL)) && !numeric) numeric = cls->name;
        }
        p += len + (p[len] == ',');
    }
    return numeric;
}

/* Families that read numbers only get the numeric columns: the model names
 * those features only, and predicts from any data that has them. */
static pdt_status fit_numeric_columns(pdt_model **out, const pdt_dataset *ds,
                                      const pdt_fit_options *opt, pdt_error *err)
{
    size_t d = pdt_dataset_dims(ds), k = 0;
    size_t *cols = malloc((d ? d : 1) * sizeof *cols);
    if (!cols) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t j = 0; j < d; j++)
        if (!pdt_dataset_is_categorical(ds, j)) cols[k++] = j;
    pdt_status st = PDT_OK;
    if (k == 0)
        st = pdt_error_set(err, PDT_EINVAL,
                           "%s: every feature column is categorical, and rule family %s reads numbers: "
                           "use --rules binary (one-hot tests x ≠ v on categories)",
                           pdt_dataset_name(ds), opt->rules ? opt->rules : "");
    pdt_dataset *num = NULL;
    if (st == PDT_OK) st = pdt_dataset_columns(&num, ds, cols, k, err);
    free(cols);
    if (st == PDT_OK) st = opt->perfect ? cls_fit_perfect(out, num, opt, err) : cls_fit(out, num, opt, err);
    pdt_dataset_free(&num);
    return st;
}

static pdt_status fit_any(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    if (pdt_dataset_has_categorical(ds)) {
        bool reads;
        char name[128];
        const char *numeric = category_readers(&reads, opt->rules, name, sizeof name);
        if (!reads) return fit_numeric_columns(out, ds, opt, err);
        if (numeric)
            return pdt_error_set(err, PDT_EINVAL,
                                 "rule family %s reads every column as a number and cannot be mixed with "
                                 "families that test categories: %s has categorical columns",
                                 numeric, pdt_dataset_name(ds));
    }
    if (opt->perfect && opt->metric != PDT_METRIC_ACCURACY)
        return pdt_error_set(err, PDT_EINVAL, "option --metric %s: not with --perfect (one objective at a time)",
                             pdt_metric_name(opt->metric));
    return opt->perfect ? cls_fit_perfect(out, ds, opt, err) : cls_fit(out, ds, opt, err);
}

pdt_status pdt_fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    pdt_status st = fit_any(out, ds, opt, err);
    pdt_model *m = st ? NULL : *out;
    /* What stopped a search that did not finish, when its backend did not say: the caller's
     * stop flag, else the time limit (the backends' only other limit, memory, is reported by
     * the one that stops on it, the branch search) */
    if (m && !m->optimal && !m->stopped_by)
        m->stopped_by = opt->stop && *opt->stop ? PDT_STOP_INTERRUPT : opt->time_limit > 0 ? PDT_STOP_TIME : NULL;
    return st;
}

pdt_status cls_fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    pdt_status st = check_input(ds, opt, err);
    if (st) return st;
    const pdt_rule_class *backend = backend_of(opt);
    /* --min-leaf: the binary backend's front search does not take it, the generic engine does */
    bool generic_metric = opt->min_leaf && opt->engine == PDT_ENGINE_AUTO;
    if (opt->metric != PDT_METRIC_ACCURACY && (generic_metric || !(backend && (backend->flags & PDT_METRICS)))) {
        if (opt->engine == PDT_ENGINE_BACKEND && !(backend && backend->route)) /* multiway: its own fronts */
            return pdt_error_set(err, PDT_EINVAL, "option --metric %s: rule family \"%s\" has no specialised "
                                 "backend with fronts (use --engine fused)", pdt_metric_name(opt->metric),
                                 opt->rules ? opt->rules : "");
        return cls_fit_metric(out, ds, opt, err); /* fronts in the generic engine */
    }
    const char *declined = backend && backend->solve_declines ? backend->solve_declines(ds, opt) : NULL;
    if (declined) {
        if (opt->engine == PDT_ENGINE_BACKEND)
            return pdt_error_set(err, PDT_EINVAL, "option --engine backend: the %s backend does not take %s "
                                 "(use --engine fused)", backend->name, declined);
        backend = NULL; /* the fused engine over the family's candidate list */
    }
    if (backend && opt->class_weights) { /* a bad option is reported as the option's, not the backend's */
        cls_inst probe;
        st = cls_inst_init(&probe, ds, opt->class_weights, err);
        cls_inst_clear(&probe);
        if (st) return st;
    }
    if (backend) return fit_backend(out, backend, ds, opt, err);
    if (opt->engine == PDT_ENGINE_BACKEND)
        return pdt_error_set(err, PDT_EINVAL, "option --engine backend: rule family \"%s\" has no "
                             "specialised backend", opt->rules ? opt->rules : "");
    if (opt->sparse)
        return pdt_error_set(err, PDT_EINVAL, "option --sparse needs a specialised backend that takes "
                             "this fit (e.g. binary, or axis without class weights, min-leaf or tracing)");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pdt_ruleset *rs = NULL;
    pdt_model *m = NULL;
    cls_inst ci;
    pdt_search_result res = {0};
    int64_t value = 0;
    res.value = &value;
    uint64_t *all = calloc(pdt_bits_words(pdt_dataset_rows(ds)) + 1, sizeof *all);
    if (!all) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_bits_fill(all, pdt_dataset_rows(ds));
    st = cls_inst_init(&ci, ds, opt->class_weights, err);
    pdt_rule_params params;
    cls_rule_params(&params, opt, &t0);
    if (!st) st = pdt_ruleset_build(&rs, ds, opt->rules, &params, err);
    if (!st) st = run_search(&res, rs, &ci, all, opt, &t0, err);
    if (!st && pdt_ruleset_cut(rs)) res.optimal = false; /* the best over the rules made in time */
    if (!st) st = pdt_model_alloc(&m, err);
    const char *engine = opt->engine == PDT_ENGINE_COMBINATIONS ? "combinations" : "fused";
    if (!st && pdt_ruleset_cut(rs)) /* (the answer is the root's leaf: say why) */
        engine = opt->engine == PDT_ENGINE_COMBINATIONS ? "combinations (stopped while making the candidate rules)"
                                                        : "fused (stopped while making the candidate rules)";
    if (!st) st = cls_describe_model(m, ds, opt, engine, err);
    if (!st) st = make_model(m, rs, &ci, &res, all, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!st) {
        m->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        *out = m;
    } else {
        pdt_model_free(&m);
    }
    pdt_search_result_clear(&res);
    pdt_ruleset_free(&rs);
    cls_inst_clear(&ci);
    free(all);
    return st;
}
