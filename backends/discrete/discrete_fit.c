/* The branch search (discrete.c) for two rule families: the categorical
 * family's multiway splits (one way per category of a column; numeric columns
 * cut by thresholds, two ways), and the binary family's --sparse without a
 * depth or size limit (with few nodes, the binary backend within the node
 * budget).  Builds the problem's integer costs from the options and the
 * model from the result. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "discrete_impl.h"
#include "../../problems/classification.h"
#include "../../rules/binary_impl.h"
#include "model_impl.h"
#include "pdt_parallel.h"

/* ------------------------------------------------------------ costs */

/* err_cost and split_cost: λ = a/b on N rows costs b per error, a·N per
 * branch node (errors/N + λ·nodes, times N·b).  Without λ: N + 1 per error,
 * 1 per node, so the fewest errors come first, then the fewest nodes. */
static pdt_status costs(dc_problem *p, mpq_ptr lambda, const pdt_fit_options *opt, pdt_error *err)
{
    uint64_t n = p->n;
    if (!opt->sparse) {
        p->err_cost = (int64_t)n + 1;
        p->split_cost = 1;
        return PDT_OK;
    }
    if (!pdt_parse_rational(lambda, opt->sparse, strlen(opt->sparse)) || mpq_sgn(lambda) < 0)
        return pdt_error_set(err, PDT_EINVAL, "option --sparse: '%s' is not a non-negative exact number "
                             "(e.g. 0.01 or 1/100)", opt->sparse);
    mpz_t split, worst;
    mpz_inits(split, worst, NULL);
    mpz_mul_ui(split, mpq_numref(lambda), (unsigned long)n);
    /* the largest cost: every row wrong, and at most n − 1 branch nodes */
    mpz_mul_ui(worst, mpq_denref(lambda), (unsigned long)n);
    mpz_addmul_ui(worst, split, (unsigned long)n);
    bool fits = mpz_sizeinbase(worst, 2) < 62;
    if (fits) {
        p->err_cost = (int64_t)mpz_get_ui(mpq_denref(lambda));
        p->split_cost = (int64_t)mpz_get_ui(split);
    }
    mpz_clears(split, worst, NULL);
    if (!fits)
        return pdt_error_set(err, PDT_ELIMIT, "option --sparse: %s on %llu rows needs integers beyond 2^62 "
                             "(write λ with fewer digits)", opt->sparse, (unsigned long long)n);
    return PDT_OK;
}

/* ------------------------------------------------------------ features */

/* How a search feature reads the data: a categorical column's code, or a
 * binarised feature's bit. */
typedef struct dc_feature {
    uint32_t column;
    int32_t bin;  /* index into the encoding, -1 for a categorical column */
} dc_feature;

typedef struct dc_fit {
    const pdt_dataset *ds;
    const pdt_fit_options *opt;
    bin_encoding enc;
    dc_feature *feat;
    uint16_t *x, *k;
    uint32_t *y;
    dc_problem p;
    dc_result r;
    mpq_t lambda;
    pdt_model *m;
    int32_t *rule_of; /* feature -> model rule + 1 */
    pdt_error *err;
    struct timespec t0;    /* the fit's start */
    pdt_model *deeper;     /* the cheapest tree of the anytime schedule's backend fits (NULL: none) */
    uint32_t deeper_depth; /* its depth limit */
    uint32_t deeper_threads; /* theirs: what the proof's threads leave while its first waits */
} dc_fit;

/* The branch search's memory without --memo-mb: a quarter of the machine's
 * memory (of the cgroup's limit, when that is less), at least
 * DC_MEMO_DEFAULT_MB.  A full memo is collected (dc_memo_collect), and an
 * entry dropped is work redone on every path to it: the hard rows of
 * docs/categorical.md fill 1 GiB in a minute, and australian-credit (DL8.5,
 * λ = 0.01), proven in 80 s with 3.35 GB, takes 135 s within 1 GiB.  The
 * memo takes only what it uses. */
#define DC_MEMO_DEFAULT_MB 1024
#define DC_MEMO_SHARE 4

static uint64_t cgroup_bytes(void)
{
    FILE *in = fopen("/sys/fs/cgroup/memory.max", "r"); /* cgroup v2; "max" when none */
    if (!in) in = fopen("/sys/fs/cgroup/memory/memory.limit_in_bytes", "r"); /* v1 */
    unsigned long long v = 0;
    if (in && fscanf(in, "%llu", &v) != 1) v = 0;
    if (in) fclose(in);
    return v > 0 ? (uint64_t)v : UINT64_MAX;
}

static size_t memo_mb(const pdt_fit_options *opt)
{
    if (opt->memo_megabytes) return opt->memo_megabytes;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0, cg = cgroup_bytes();
    if (cg < bytes) bytes = cg;
    uint64_t mb = bytes / DC_MEMO_SHARE >> 20;
    if (mb > SIZE_MAX >> 20) mb = SIZE_MAX >> 20; /* (a 32-bit build) */
    return mb > DC_MEMO_DEFAULT_MB ? (size_t)mb : DC_MEMO_DEFAULT_MB;
}

/* The features: categorical columns (multiway) when `multiway`, and the
 * binarised features of the other columns (of every column otherwise). */
static pdt_status make_features(dc_fit *f, bool multiway)
{
    const pdt_dataset *ds = f->ds;
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds), nf = 0;
    pdt_status st = bin_encode(&f->enc, ds, multiway ? NULL : f->opt->rule_params.options, f->err);
    if (st) return st;
    f->feat = malloc((d + f->enc.n + 1) * sizeof *f->feat);
    if (!f->feat) return pdt_error_set(f->err, PDT_ENOMEM, "out of memory");
    for (size_t j = 0; multiway && j < d; j++) {
        size_t k = pdt_dataset_categories(ds, j);
        if (k > 65535)
            return pdt_error_set(f->err, PDT_ELIMIT, "column \"%s\": %zu categories (at most 65535)",
                                 pdt_dataset_feature_name(ds, j), k);
        if (k >= 2 && pdt_dataset_distinct(ds, j) >= 2) f->feat[nf++] = (dc_feature){(uint32_t)j, -1};
    }
    for (size_t b = 0; b < f->enc.n; b++)
        if (!multiway || !pdt_dataset_is_categorical(ds, f->enc.f[b].column))
            f->feat[nf++] = (dc_feature){f->enc.f[b].column, (int32_t)b};
    if (nf > 65535)
        return pdt_error_set(f->err, PDT_ELIMIT, "%zu features: the branch search takes at most 65535", nf);
    f->x = malloc((n * nf + 1) * sizeof *f->x);
    f->k = malloc((nf + 1) * sizeof *f->k);
    f->y = malloc((n + 1) * sizeof *f->y);
    if (!f->x || !f->k || !f->y) return pdt_error_set(f->err, PDT_ENOMEM, "out of memory (%zu rows × %zu features)", n, nf);
    for (size_t t = 0; t < nf; t++)
        f->k[t] = f->feat[t].bin < 0 ? (uint16_t)pdt_dataset_categories(ds, f->feat[t].column) : 2;
    for (size_t i = 0; i < n; i++) {
        f->y[i] = pdt_dataset_label(ds, i);
        for (size_t t = 0; t < nf; t++) {
            const dc_feature *g = &f->feat[t];
            f->x[i * nf + t] = g->bin < 0 ? (uint16_t)pdt_dataset_value(ds, i, g->column)
                                          : (uint16_t)bin_value(&f->enc, ds, (size_t)g->bin, i);
        }
    }
    f->p = (dc_problem){.n = n, .nf = nf, .nc = pdt_dataset_classes(ds), .x = f->x, .k = f->k, .y = f->y,
                        .max_depth = f->opt->max_depth, .memo_bytes = memo_mb(f->opt) << 20,
                        .time_limit = f->opt->time_limit, .stop = f->opt->stop};
    return costs(&f->p, f->lambda, f->opt, f->err);
}

/* ------------------------------------------------------------ the model */

static pdt_status categorical_rule(pdt_rule *rule, uint32_t column, pdt_error *err)
{
    pdt_status st = pdt_rule_init(rule, &pdt_rule_class_categorical, 1, 0, err);
    if (st == PDT_OK) rule->ints[0] = column;
    return st;
}

static pdt_status model_rule(dc_fit *f, uint32_t t, int32_t *index)
{
    pdt_model *m = f->m;
    if (!f->rule_of[t]) {
        const dc_feature *g = &f->feat[t];
        pdt_status st = g->bin < 0 ? categorical_rule(&m->rules[m->n_rules], g->column, f->err)
                                   : bin_export(&m->rules[m->n_rules], &f->enc, f->ds, (size_t)g->bin, f->err);
        if (st) return st;
        f->rule_of[t] = (int32_t)++m->n_rules;
    }
    *index = f->rule_of[t] - 1;
    return PDT_OK;
}

/* The search's tree (children consecutive, after their parent) as the model's. */
static pdt_status make_tree(dc_fit *f)
{
    pdt_model *m = f->m;
    const dc_result *r = &f->r;
    size_t nn = r->n_nodes, nc = m->n_classes;
    m->nodes = calloc(nn, sizeof *m->nodes);
    m->counts = calloc(nn * nc, sizeof *m->counts);
    m->rules = calloc(r->splits + 1, sizeof *m->rules);
    m->ways = calloc(nn, sizeof *m->ways);
    f->rule_of = calloc(f->p.nf + 1, sizeof *f->rule_of);
    if (!m->nodes || !m->counts || !m->rules || !m->ways || !f->rule_of)
        return pdt_error_set(f->err, PDT_ENOMEM, "out of memory (the tree)");
    m->n_nodes = nn;
    memcpy(m->counts, r->counts, nn * nc * sizeof *m->counts);
    for (size_t i = 0; i < nn; i++) {
        const dc_node *b = &r->nodes[i];
        pdt_tree_node *t = &m->nodes[i];
        *t = (pdt_tree_node){.left = -1, .right = -1, .rule = -1, .label = b->label, .n_items = b->n_items};
        if (b->feature == DC_LEAF) continue;
        pdt_status st = model_rule(f, b->feature, &t->rule);
        if (st) return st;
        if (f->feat[b->feature].bin >= 0) { /* a binary feature: code 0 is the rule's left side */
            if (b->n_children != 2)
                return pdt_error_set(f->err, PDT_EINTERNAL, "a binary split with %u children", b->n_children);
            t->left = (int32_t)b->first;
            t->right = (int32_t)b->first + 1;
            continue;
        }
        t->first_way = (uint32_t)m->n_ways;
        t->n_ways = b->n_children;
        for (uint32_t w = 0; w < b->n_children; w++)
            m->ways[m->n_ways++] = (pdt_tree_way){r->nodes[b->first + w].code, (int32_t)(b->first + w)};
    }
    pdt_model_measure(m);
    m->misclassifications = r->errors;
    return PDT_OK;
}

static void set_objective(dc_fit *f)
{
    pdt_model *m = f->m;
    mpq_set_ui(m->objective, (unsigned long)m->misclassifications, 1);
    if (!f->opt->sparse) return;
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(t, 1, (unsigned long)m->n_train);
    mpq_mul(m->objective, m->objective, t);
    mpq_set_ui(t, m->size, 1);
    mpq_mul(t, t, f->lambda);
    mpq_add(m->objective, m->objective, t);
    mpq_clear(t);
}

/* Binary features: the MurTree-class backend's optimum at depth <= DC_WARM
 * (fast) is the answer when a time limit stops the unlimited search with a
 * costlier tree.  It is not given to the search as a bound: budgets that
 * tight from the start leave subproblems with lower bounds instead of optima
 * and cost more re-solving than they prune (monk2 one-hot, λ = 0.001: 1.2 s
 * without, 3.9 s with). */
#define DC_WARM 4

static pdt_status warm_start(dc_fit *f, pdt_model **warm)
{
    pdt_fit_options o = *f->opt;
    o.max_depth = DC_WARM;
    if (o.time_limit <= 0 || o.time_limit > 10) o.time_limit = 10; /* an incumbent, not the answer */
    return bs_fit(warm, f->ds, &o, f->err);
}

/* A backend fit's tree (the warm start, or the cheapest of the deeper ones at
 * depth `depth`) as the answer of the unlimited fit, which stopped with a
 * costlier tree. */
static pdt_status adopt(dc_fit *f, pdt_model **from, uint32_t depth)
{
    pdt_model *m = *from;
    char what[160];
    snprintf(what, sizeof what, "discrete (binary; stopped: the depth-%u binary backend %s)", depth,
             m->optimal ? "optimum" : "tree found within its time");
    m->max_depth = f->opt->max_depth;
    free(m->engine);
    m->engine = strdup(what);
    if (!m->engine) return pdt_error_set(f->err, PDT_ENOMEM, "out of memory");
    f->m = m;
    *from = NULL;
    return PDT_OK;
}

/* Few nodes.  A tree cheaper than a tree of cost C has k branch nodes with
 * k·split_cost <= C − 1 (its errors cost >= 0): k <= K = ⌊(C − 1) / split_cost⌋,
 * and so at most k <= K levels.  The cheaper of the warm start (cost C) and
 * the best tree of at most K nodes and levels (dc_few_search: for each k,
 * the binary backend's fewest errors under the bound C leaves) is then the
 * optimum of every tree, proven without the unlimited search.  Taken when K
 * is at most DC_FEW_NODES (mushroom one-hot, λ = 0.001: C is 6 nodes and 8
 * errors, K = 6) and the branch search has not finished within
 * DC_FEW_ROWS rows of searched regions, its threads' together.  The budget
 * was 5·10⁶ rows (about a second of the search of 2026-11-27 on mushroom),
 * when the backend was the faster there; the search of 2026-11-28 proves
 * mushroom one-hot at 0.001 on two threads in about 7·10⁸ rows, 6.7 s
 * against the route's 9.3 s, and no other row of DL8.5's and the
 * categorical files at λ = 0.01 and 0.001 was answered by it (figures in
 * docs/categorical.md, fifth, sixth and eighteenth passes). */
#define DC_FEW_NODES 6
#define DC_FEW_ROWS 1000000000

static int64_t model_cost(const dc_fit *f, const pdt_model *m)
{
    return (int64_t)m->misclassifications * f->p.err_cost + (int64_t)m->size * f->p.split_cost;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* The anytime schedule's deeper incumbents of the binary fit (dc_problem's
 * `deeper`): the backend's optimum at depth 5, 6, ... within the budget the
 * schedule gives (an eighth of the time so far, at the turns where the
 * search's own deeper runs would be).  Depth-limited, the backend finds in
 * a second what the branch search's own deeper runs did not in ten
 * (kr-vs-kp one-hot, λ = 0.001: depth 6 proven in 3.2 s).  Any tree is an
 * answer when the unlimited search stops first; it is not given to that
 * search as a bound (see warm_start). */
#define DC_DEEPER_MB 32

/* The backend's sparse fit at `depth` within `seconds` (0: no limit but the
 * fit's own), `mb` of memo, `threads` and `stop`, kept in f->deeper when it
 * is the cheapest so far.  Returns whether that depth was finished; -1 when
 * the fit failed. */
static int deeper_at(dc_fit *f, uint32_t depth, double seconds, size_t mb, uint32_t threads,
                     const volatile sig_atomic_t *stop)
{
    pdt_fit_options o = *f->opt;
    o.max_depth = depth;
    o.memo_megabytes = mb;
    o.threads = threads;
    o.stop = stop;
    o.progress = NULL; /* the unlimited search's progress stays the one shown */
    if (o.time_limit > 0) { /* the fit's own limit holds too */
        const double left = o.time_limit - seconds_since(&f->t0);
        if (left <= 1e-3) return 0;
        if (seconds <= 0 || left < seconds) seconds = left;
    }
    o.time_limit = seconds;
    pdt_model *m = NULL;
    pdt_error e;
    if (bs_fit(&m, f->ds, &o, &e)) return -1;
    const bool done = m->optimal;
    if (!f->deeper || model_cost(f, m) < model_cost(f, f->deeper)) { /* (the warm start: fit compares) */
        pdt_model_free(&f->deeper);
        f->deeper = m;
        f->deeper_depth = depth;
    } else {
        pdt_model_free(&m);
    }
    return done;
}

/* The search's turns (dc_problem's `deeper`): the deeper fit at `depth`;
 * *cost, the cheapest deeper fit's.  The search ends the turns after
 * DC_DEEPER_IDLE in a row that gave no tree cheaper than the best it knows
 * (its own, the warm start, a deeper fit's): each turn is time the full
 * search's first thread does not prove. */
static int deeper_fit(void *user, uint32_t depth, double seconds, size_t memo_bytes, int64_t *cost)
{
    dc_fit *f = user;
    /* --memo-mb caps the branch search's memo and this fit together: the fit
     * gets what the memo leaves, and none once that is below DC_DEEPER_MB
     * (the memo only grows) */
    if (memo_bytes >> 20 < DC_DEEPER_MB) return -1;
    const int done = deeper_at(f, depth, seconds > 1e-3 ? seconds : 1e-3, memo_bytes >> 20, f->deeper_threads,
                               f->opt->stop);
    if (f->deeper) *cost = model_cost(f, f->deeper);
    return done;
}

/* The proof's threads: every thread the fit has (--threads), or
 * PDT_DISCRETE_PROOF_THREADS=T in the environment (measurements).  They
 * share the root's splits and one memo (discrete.c, run); the deeper fits
 * run at the first thread's turns while the others go on proving.  From
 * 2026-11-27 to 2026-11-28 a second thread ran those fits beside a proof on
 * one thread instead; on the 2-core machine the proof on two was faster on
 * every row measured, to the same answers at a time limit of 3, 10 and 30 s
 * (docs/categorical.md, seventeenth pass). */
static uint32_t proof_threads(const pdt_fit_options *opt)
{
    const char *env = getenv("PDT_DISCRETE_PROOF_THREADS");
    return env ? (uint32_t)strtoul(env, NULL, 10) : (uint32_t)pdt_threads_resolve(opt->threads);
}

/* The environment's PDT_DISCRETE_FEW (tests): "off"; "leaf" (C is the
 * cost of the root as a leaf, not the warm start's: a poor incumbent); or
 * "ub:C" (C given: one above the optimum, so that K is as small as it may
 * be).  With "leaf" and "ub:" the backend's tree is the answer.  And
 * PDT_DISCRETE_FEW_ROWS: DC_FEW_ROWS (0: the backend first). */
static bool few_knob(const char *what)
{
    const char *v = getenv("PDT_DISCRETE_FEW");
    return v && !strncmp(v, what, strlen(what));
}

static uint64_t few_rows(void)
{
    const char *v = getenv("PDT_DISCRETE_FEW_ROWS");
    return v ? strtoull(v, NULL, 10) : DC_FEW_ROWS;
}

/* The incumbent's cost C (the warm start's, or a test's). */
static pdt_status few_incumbent(dc_fit *f, const pdt_model *warm, int64_t *c)
{
    *c = model_cost(f, warm);
    if (few_knob("ub:")) *c = strtoll(getenv("PDT_DISCRETE_FEW") + 3, NULL, 10);
    if (!few_knob("leaf")) return PDT_OK;
    uint64_t *count = calloc(f->p.nc, sizeof *count), most = 0;
    if (!count) return pdt_error_set(f->err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; i < f->p.n; i++)
        if (++count[f->y[i]] > most) most = count[f->y[i]];
    free(count);
    *c = (int64_t)(f->p.n - most) * f->p.err_cost; /* (the leaf is among the trees of K nodes) */
    return PDT_OK;
}

/* K, or -1 when the route is not taken. */
static int64_t few_budget(const dc_fit *f, const pdt_model *warm, int64_t c)
{
    if (!warm || f->p.split_cost <= 0 || few_knob("off")) return -1;
    int64_t k = (c - 1) / f->p.split_cost;
    return k >= 0 && k <= DC_FEW_NODES ? k : -1;
}

/* The tree dc_few_search found, for the answer: the backend's sparse optimum
 * within its depth and size (at most its cost, so the optimum).  The
 * backend's accuracy fit is not asked: at --depth 6 --size 6 it misses a
 * 6-node tree of depth 3 on an instance of the oracle (docs/categorical.md,
 * sixth pass). */
static pdt_status few_tree(dc_fit *f, const dc_few *fw, const struct timespec *t0, pdt_model **few)
{
    pdt_fit_options o = *f->opt;
    o.max_depth = fw->depth_best;
    o.max_size = fw->size_best;
    if (o.time_limit > 0 && (o.time_limit -= seconds_since(t0)) <= 0) return PDT_OK;
    pdt_status st = bs_fit(few, f->ds, &o, f->err);
    if (st) return st;
    if (!(*few)->optimal) { /* stopped by the time limit */
        pdt_model_free(few);
        return PDT_OK;
    }
    if (model_cost(f, *few) > fw->cost)
        return pdt_error_set(f->err, PDT_EINTERNAL, "few nodes: the fit within depth %u and %u nodes costs "
                             "%lld, more than the %lld found", fw->depth_best, fw->size_best,
                             (long long)model_cost(f, *few), (long long)fw->cost);
    return PDT_OK;
}

/* *proven: the optimum is *few (the optimum of the trees of at most K nodes
 * and levels, see above) or, when *few is NULL, the warm start; false when
 * a limit stopped the searches first. */
static pdt_status few_nodes(dc_fit *f, const pdt_model *warm, int64_t k, int64_t c, const struct timespec *t0,
                            pdt_model **few, bool *proven)
{
    *few = NULL;
    *proven = false;
    dc_few fw = {.cost = c, .err_cost = f->p.err_cost, .split_cost = f->p.split_cost, .k_max = (uint32_t)k,
                 .time_limit = f->opt->time_limit, .stop = f->opt->stop,
                 .memo_megabytes = f->opt->memo_megabytes, .threads = pdt_threads_resolve(f->opt->threads)};
    if (fw.time_limit > 0 && (fw.time_limit -= seconds_since(t0)) <= 0) return PDT_OK;
    pdt_status st = dc_few_search(&fw, f->ds, &f->enc, f->err);
    if (st || fw.stopped) return st;
    /* tests: the tree found is the answer, the root as a leaf when none is
     * (not the warm start, which is the optimum of most small instances) */
    bool test = few_knob("leaf") || few_knob("ub:");
    if (!test && (!fw.k_best || fw.cost >= model_cost(f, warm))) {
        *proven = true; /* the warm start */
        return PDT_OK;
    }
    st = few_tree(f, &fw, t0, few);
    *proven = !st && *few;
    return st;
}

/* The proven few-nodes optimum (or the warm start, when *few is NULL) as the answer. */
static pdt_status adopt_few(dc_fit *f, pdt_model **warm, pdt_model **few)
{
    pdt_model **m = *few ? few : warm;
    free((*m)->engine);
    (*m)->engine = strdup(*few ? "discrete (binary; proven by the binary backend within the node budget)"
                               : "discrete (binary; the warm start, proven by the node budget)");
    if (!(*m)->engine) return pdt_error_set(f->err, PDT_ENOMEM, "out of memory");
    (*m)->max_depth = f->opt->max_depth;
    (*m)->max_size = f->opt->max_size;
    (*m)->optimal = true;
    f->m = *m;
    *m = NULL;
    return PDT_OK;
}

/* The search's reports as the fit's (pdt_progress): seconds since the fit
 * began, evaluations, and the best tree so far — its objective, errors and
 * branch nodes (with --sparse), else its errors and nodes.  The trees of
 * the deeper fits are not among them. */
static void report(void *user, uint64_t evaluations, const dc_result *best)
{
    const dc_fit *f = user;
    char text[128] = "none yet";
    if (best && f->opt->sparse)
        snprintf(text, sizeof text, "%.6g (%llu errors, %llu branch nodes)",
                 (double)best->cost / ((double)f->p.err_cost * (double)f->p.n), (unsigned long long)best->errors,
                 (unsigned long long)best->splits);
    else if (best)
        snprintf(text, sizeof text, "%llu errors, %llu branch nodes", (unsigned long long)best->errors,
                 (unsigned long long)best->splits);
    f->opt->progress(f->opt->progress_user,
                     &(pdt_progress){.seconds = seconds_since(&f->t0), .nodes = evaluations, .best = text});
}

/* The branch search, or with few nodes (k >= 0): first within a budget of
 * rows, then the backend within the node budget, then the branch search
 * again with the time left.  *proven: the backend's answer (*few, or the
 * warm start when NULL) is the optimum. */
static pdt_status search(dc_fit *f, const pdt_model *warm, int64_t k, int64_t c, const struct timespec *t0,
                         pdt_model **few, bool *proven)
{
    *proven = false;
    uint64_t rows = k >= 0 ? few_rows() : 0;
    if (k < 0 || rows) {
        f->p.max_rows = rows;
        pdt_status st = dc_solve(&f->r, &f->p, f->err);
        f->p.max_rows = 0;
        if (st || k < 0 || !f->r.stopped_by || strcmp(f->r.stopped_by, "row budget")) return st;
        dc_result_clear(&f->r);
    }
    pdt_status st = few_nodes(f, warm, k, c, t0, few, proven);
    if (st || *proven) return st;
    f->p.time_limit = cls_time_left(f->opt, t0); /* what the first search and the backend left of it */
    return dc_solve(&f->r, &f->p, f->err);
}

static pdt_status fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, bool multiway,
                      pdt_error *err)
{
    *out = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    dc_fit f = {.ds = ds, .opt = opt, .err = err};
    pdt_model *warm = NULL, *few = NULL;
    mpq_init(f.lambda);
    pdt_status st = make_features(&f, multiway);
    if (!st && !multiway) st = warm_start(&f, &warm);
    bool proven = false;
    int64_t c = 0, k = -1;
    if (!st && warm) st = few_incumbent(&f, warm, &c);
    if (!st && warm) k = few_budget(&f, warm, c);
    f.t0 = t0;
    if (opt->progress) f.p.progress = report, f.p.progress_user = &f;
    f.p.threads = proof_threads(opt);
    { /* (the deeper fits' while the first thread waits for them: the others prove) */
        const uint32_t all = (uint32_t)pdt_threads_resolve(opt->threads);
        const uint32_t proof = f.p.threads ? f.p.threads : 1;
        f.deeper_threads = all > proof ? all - proof + 1 : 1;
    }
    f.p.time_limit = cls_time_left(opt, &t0); /* the limit is the fit's: what the warm start left of it */
    if (warm) f.p.deeper = deeper_fit, f.p.deeper_user = &f, f.p.deeper_from = DC_WARM + 1;
    if (warm) f.p.deeper_had = model_cost(&f, warm);
    if (!st) st = search(&f, warm, k, c, &t0, &few, &proven);
    const char *engine = multiway ? "discrete" : "discrete (binary)";
    if (!st && proven) st = adopt_few(&f, &warm, &few);
    /* stopped: the cheapest of the search's tree, the warm start and the deeper backend fits */
    const bool deeper_better = f.deeper && (!warm || model_cost(&f, f.deeper) < model_cost(&f, warm));
    pdt_model **alt = deeper_better ? &f.deeper : &warm;
    const uint32_t alt_depth = deeper_better ? f.deeper_depth : DC_WARM;
    bool alt_better = !st && *alt && !f.r.optimal && model_cost(&f, *alt) < f.r.cost;
    if (!st && !proven && (!f.r.found || alt_better)) {
        st = adopt(&f, alt, alt_depth);
    } else if (!st && !proven) {
        st = pdt_model_alloc(&f.m, err);
        if (!st) st = cls_describe_model(f.m, ds, opt, engine, err);
        if (!st) st = make_tree(&f);
    }
    pdt_model_free(&warm);
    pdt_model_free(&f.deeper);
    pdt_model_free(&few);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!st) {
        set_objective(&f);
        f.m->optimal = f.r.optimal || proven;
        f.m->stopped_by = pdt_stop_reason(f.r.stopped_by); /* (NULL: a budget of its own, not the caller's) */
        f.m->size_minimal = f.r.optimal && !opt->sparse; /* errors·(N + 1) + nodes, exact */
        f.m->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        f.m->stats.seconds = f.m->seconds;
        if (!proven) f.m->stats.nodes = f.r.evaluations, f.m->stats.memo_entries = f.r.memo_entries;
        if (!proven && f.r.threads > 1) /* the root's splits shared (discrete.c, run) */
            f.m->stats.workers = f.r.threads, f.m->stats.work_max = f.r.work_max,
            f.m->stats.work_total = f.r.work_total;
        *out = f.m;
        f.m = NULL;
    }
    pdt_model_free(&f.m);
    dc_result_clear(&f.r);
    bin_encoding_clear(&f.enc);
    free(f.feat);
    free(f.x);
    free(f.k);
    free(f.y);
    free(f.rule_of);
    mpq_clear(f.lambda);
    return st;
}

const char *dc_fit_declines(const pdt_dataset *ds, const pdt_fit_options *opt)
{
    if (opt->trace) return "tracing (--explain)";
    if (opt->min_leaf) return "--min-leaf";
    if (opt->class_weights) return "class weights";
    if (opt->lexicographic) return "--lexicographic (without --sparse the fewest nodes among the most "
                                   "accurate trees are found anyway)";
    if (opt->max_size != PDT_UNLIMITED) return "a size limit (use --sparse or --depth)";
    if (pdt_dataset_has_weights(ds)) return "item weights";
    if (opt->rule_params.options) return "rule options";
    return NULL;
}

pdt_status dc_fit_categorical(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt,
                              pdt_error *err)
{
    *out = NULL;
    const char *no = dc_fit_declines(ds, opt);
    if (no) return pdt_error_set(err, PDT_EINVAL, "categorical rules: the branch search does not take %s", no);
    if (!opt->sparse && opt->max_depth == PDT_UNLIMITED)
        return pdt_error_set(err, PDT_EINVAL, "categorical rules: give --sparse λ (no limit needed) or a depth "
                             "limit (--depth D)");
    return fit(out, ds, opt, true, err);
}

pdt_status dc_fit_binary(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    return fit(out, ds, opt, false, err);
}
