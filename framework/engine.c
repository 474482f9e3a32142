/* The one recursion (He & Little eq. 17, fused over all rule combinations):
 *
 *   odt(items, F, k) = leaf(items)  ⊕  ⊕_{r ∈ F} ⊕_{k1+k2=k-1}
 *                      odt(items ∩ L(r), F↙r, k1) ⊗ odt(items ∩ R(r), F↘r, k2)
 *
 * where F↙r are the admissible rules related to r on the left.  Pushing the
 * min over k-combinations inside the recursion is valid because every subset
 * of F↙r and of F↘r combines with r into a proper tree rooted at r.  With a
 * selective algebra the leaf term is allowed at every budget ("at most k"),
 * an upper bound is passed down (branch-and-bound) and solved subproblems are
 * cached by item set when the problem allows it. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "engine_impl.h"
#include "pdt_parallel.h"

/* Remaining depth of a child: unlimited stays unlimited (it is part of the
 * cache key, so "UINT32_MAX − depth" would cache every subproblem per depth). */
uint32_t pdt_engine_child_depth(uint32_t drem)
{
    return drem == PDT_UNLIMITED ? PDT_UNLIMITED : drem - 1;
}

uint32_t pdt_engine_depth_cap(uint32_t drem)
{
    return drem >= 31 ? PDT_UNLIMITED : (UINT32_C(1) << drem) - 1;
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

double pdt_engine_elapsed(const pdt_search_state *s)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec);
}

static void report_progress(pdt_search_state *s, double elapsed)
{
    s->last_progress = elapsed;
    pdt_buf best;
    pdt_buf_init(&best);
    if (s->n_frames && s->frames[0]) s->alg->to_text(&best, s->frames[0]->v_inc);
    pdt_progress p = {elapsed, s->team ? pdt_team_nodes(s) : s->stats.nodes, best.data ? best.data : "?"};
    s->o.progress(s->o.progress_user, &p);
    pdt_buf_clear(&best);
}

/* The stop flag and the time limit, the clock reading `now`. */
static void limits_at(pdt_search_state *s, struct timespec now)
{
    if (pdt_stop_requested(s->o.stop) || (s->has_deadline && pdt_time_reached(now, s->deadline)))
        s->aborted = true;
}

/* When the gate says so (clock_gate.h): the time limit, Ctrl-C, the team and progress reports. */
static void check_deadline(pdt_search_state *s)
{
    if ((!s->has_deadline && !s->o.progress && !s->o.stop && !s->team) || !pdt_gate_due(&s->gate, s->stats.nodes))
        return;
    struct timespec now;
    uint64_t since;
    pdt_gate_read(&s->gate, s->stats.nodes, &now, &since);
    limits_at(s, now);
    if (s->team) pdt_team_poll(s, since); /* one worker's abort ends them all */
    if (s->o.progress) {
        double elapsed = (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec);
        if (elapsed - s->last_progress >= 1.0) report_progress(s, elapsed);
    }
}

/* The clock and the stop flag now, whatever the gate says: inside one
 * subproblem's long loops over candidates (a stump over millions of rules,
 * the root's listing of them). */
static void poll_limits(pdt_search_state *s)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    limits_at(s, now);
}

/* Candidates a long loop goes through between two polls. */
#define POLL_EVERY (UINT32_C(1) << 16)

/* ------------------------------------------------------------ frames */

static void *value_new(const pdt_algebra *alg)
{
    void *v = malloc(alg->size);
    if (v) alg->init(v);
    return v;
}

static void value_free(const pdt_algebra *alg, void *v)
{
    if (!v) return;
    alg->clear(v);
    free(v);
}

static void frame_free(const pdt_algebra *alg, pdt_frame *f)
{
    if (!f) return;
    void **vals[] = {&f->v_leaf, &f->v_best, &f->v_l, &f->v_r, &f->v_c, &f->v_ubl, &f->v_ubr,
                     &f->v_lb, &f->v_lb2, &f->v_inc, &f->dec.v_l, &f->dec.v_r};
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) value_free(alg, *vals[i]);
    free(f->litems);
    free(f->ritems);
    free(f->lrules);
    free(f->rrules);
    free(f->rules);
    free(f->sides);
    free(f->seen_hash);
    free(f->seen_items);
    free(f);
}

static pdt_frame *frame_new(const pdt_search_state *s)
{
    pdt_frame *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    size_t w = s->words ? s->words : 1, r = s->root_rules ? s->root_rules : 1;
    f->cap_rules = (uint32_t)r;
    f->litems = calloc(w, sizeof *f->litems);
    f->ritems = calloc(w, sizeof *f->ritems);
    f->lrules = malloc(r * sizeof *f->lrules);
    f->rrules = malloc(r * sizeof *f->rrules);
    f->rules = malloc(r * sizeof *f->rules);
    f->sides = malloc(r * sizeof *f->sides);
    bool ok = f->litems && f->ritems && f->lrules && f->rrules && f->rules && f->sides;
    void **vals[] = {&f->v_leaf, &f->v_best, &f->v_l, &f->v_r, &f->v_c, &f->v_ubl, &f->v_ubr,
                     &f->v_lb, &f->v_lb2, &f->v_inc, &f->dec.v_l, &f->dec.v_r};
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        *vals[i] = value_new(s->alg);
        ok = ok && *vals[i];
    }
    if (!ok) {
        frame_free(s->alg, f);
        return NULL;
    }
    return f;
}

pdt_frame *pdt_engine_frame(pdt_search_state *s, uint32_t depth)
{
    if (depth < s->n_frames && s->frames[depth]) return s->frames[depth];
    if (depth >= s->n_frames) {
        size_t n = s->n_frames ? s->n_frames : 8;
        while (n <= depth) n *= 2;
        pdt_frame **fr = realloc(s->frames, n * sizeof *fr);
        if (!fr) return NULL;
        memset(fr + s->n_frames, 0, (n - s->n_frames) * sizeof *fr);
        s->frames = fr;
        s->n_frames = n;
    }
    s->frames[depth] = frame_new(s);
    return s->frames[depth];
}

/* ------------------------------------------------------------ setup */

void pdt_search_opts_init(pdt_search_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_size = PDT_UNLIMITED;
    o->max_depth = PDT_UNLIMITED;
}

pdt_status pdt_engine_begin(pdt_search_state *s, const pdt_problem_class *pc, void *inst,
                            const pdt_ruleset *rs, size_t words, uint32_t root_rules,
                            const pdt_search_opts *opts, pdt_error *err)
{
    memset(s, 0, sizeof *s);
    if (pc->version != PDT_PROBLEM_V1 || !pc->algebra || !pc->leaf || (!pc->branch && !pc->algebra->mul))
        return pdt_error_set(err, PDT_EPLUGIN, "problem plugin \"%s\": bad interface", pc->name);
    if (!pc->split && !rs)
        return pdt_error_set(err, PDT_EINTERNAL, "problem \"%s\": no splitter and no rules", pc->name);
    s->pc = pc;
    s->inst = inst;
    s->alg = pc->algebra;
    s->rs = pc->split ? NULL : rs;
    s->words = words;
    s->root_rules = root_rules;
    s->o = *opts;
    s->err = err;
    s->exact = opts->exact_size || (!s->alg->selective && !s->alg->idempotent);
    s->threads = pdt_threads_resolve(opts->threads);
    bool by_items = !s->rs || pdt_ruleset_region_by_items(s->rs);
    s->data_defined = s->rs && pdt_ruleset_data_defined(s->rs);
    /* The admissible rules of a region are those defined inside it minus its
     * ancestors.  An ancestor still "defined inside" its child region splits it
     * degenerately, so at-most searches (which never gain from a degenerate
     * split) may cache by items; exact-size searches count such splits, so
     * with rules they may not. */
    bool items_determine = s->exact ? !s->rs : by_items;
    s->memo_on = !opts->no_memo && (pc->flags & PDT_PROBLEM_MEMO) && items_determine;
    s->dedup_on = !s->exact && s->rs && by_items;
    s->stump_on = !s->exact && s->rs && pc->stump && !opts->trace;
    if (s->rs) {
        s->sides = pdt_ruleset_sides(s->rs, 0);
        pdt_ruleset_def_table(s->rs, &s->def_off, &s->def, &s->group);
    }
    clock_gettime(CLOCK_MONOTONIC, &s->start);
    pdt_gate_start(&s->gate, s->stats.nodes, s->start);
    if (opts->time_limit > 0) s->has_deadline = true, s->deadline = pdt_time_after(s->start, opts->time_limit);
    if (s->memo_on) {
        size_t bytes = opts->memo_bytes ? opts->memo_bytes : ((size_t)1 << 30);
        if (pdt_memo_new(&s->memo, words, s->alg, bytes))
            return pdt_error_set(err, PDT_ENOMEM, "out of memory for the subproblem cache");
    }
    if (!pdt_engine_frame(s, 0)) return pdt_error_set(err, PDT_ENOMEM, "out of memory for the search");
    return PDT_OK;
}

void pdt_engine_end(pdt_search_state *s)
{
    for (size_t d = 0; d < s->n_frames; d++) frame_free(s->alg, s->frames[d]);
    free(s->frames);
    if (s->memo) s->stats.memo_entries = pdt_memo_count(s->memo);
    pdt_memo_free(&s->memo);
    s->frames = NULL;
    s->n_frames = 0;
}

/* ------------------------------------------------------------ tracing */

/* The rule of a payload as text ("x ≤ 2"), for readers of the trace. */
static void rule_text(pdt_buf *out, pdt_search_state *s, int64_t payload)
{
    if (!s->rs || payload < 0 || (size_t)payload >= pdt_ruleset_size(s->rs)) return;
    const pdt_dataset *ds = pdt_ruleset_dataset(s->rs);
    size_t d = pdt_dataset_dims(ds);
    const char *names_small[16], **names = d <= 16 ? names_small : malloc(d * sizeof *names);
    pdt_rule rule;
    pdt_error err;
    if (!names || pdt_ruleset_export(&rule, s->rs, (size_t)payload, &err)) {
        if (names != names_small) free(names);
        return;
    }
    for (size_t j = 0; j < d; j++) names[j] = pdt_dataset_feature_name(ds, j);
    if (rule.cls->describe(out, &rule, names, d, &err)) pdt_buf_printf(out, "rule %lld", (long long)payload);
    pdt_rule_clear(&rule);
    if (names != names_small) free(names);
}

/* Reports an event to the trace callback (teaching mode); l and r are the
 * children of a candidate split, or NULL. */
static void trace_budgets(pdt_search_state *s, pdt_trace_kind kind, const pdt_node *node, uint32_t k,
                          int64_t payload, const pdt_node *l, const pdt_node *r, const char *reason,
                          const void *value, uint32_t k1, uint32_t k2, bool routine)
{
    if (!s->o.trace) return;
    pdt_buf text, rule;
    pdt_buf_init(&text);
    pdt_buf_init(&rule);
    if (value) s->alg->to_text(&text, value);
    rule_text(&rule, s, payload);
    size_t n_def = 0;
    const uint32_t *def = s->rs && payload >= 0 && (size_t)payload < pdt_ruleset_size(s->rs)
                              ? pdt_ruleset_def(s->rs, (size_t)payload, &n_def) : NULL;
    pdt_trace_event ev = {kind, node->depth, k, node->n_items, node->n_rules, node->items,
                          payload, l ? l->n_items : 0, r ? r->n_items : 0, reason,
                          value ? text.data : NULL, rule.data, l ? l->items : NULL,
                          r ? r->items : NULL, def, (uint32_t)n_def, k1, k2, routine};
    s->o.trace(s->o.trace_user, &ev);
    pdt_buf_clear(&text);
    pdt_buf_clear(&rule);
}

static void trace(pdt_search_state *s, pdt_trace_kind kind, const pdt_node *node, uint32_t k,
                  int64_t payload, const pdt_node *l, const pdt_node *r, const char *reason,
                  const void *value)
{
    trace_budgets(s, kind, node, k, payload, l, r, reason, value, 0, 0, false);
}

/* A candidate skipped for a routine reason. */
static void trace_skip(pdt_search_state *s, const pdt_node *node, uint32_t k, int64_t payload,
                       const pdt_node *l, const pdt_node *r, const char *reason)
{
    trace_budgets(s, PDT_TRACE_PRUNE, node, k, payload, l, r, reason, NULL, 0, 0, true);
}

/* ------------------------------------------------------------ memo */

static uint64_t memo_extra(const pdt_search_state *s, const pdt_node *node)
{
    return s->pc->memo_key ? s->pc->memo_key(s->inst, node) : 0;
}

static void memo_store_locked(pdt_search_state *s, const pdt_node *node, uint32_t k, uint32_t drem,
                              bool found, const void *best, const void *ub, const pdt_decision *dec)
{
    pdt_memo_entry *e = pdt_memo_put(s->memo, node->items, k, drem, memo_extra(s, node));
    if (!e) return;
    void *v = pdt_memo_value(e);
    if (found || !s->alg->selective) {
        e->kind = PDT_MEMO_EXACT;
        s->alg->set(v, best);
        e->payload = dec ? dec->payload : PDT_LEAF;
        e->k1 = dec ? dec->k1 : 0;
        e->k = k;
        return;
    }
    if (e->kind == PDT_MEMO_EXACT) return;
    if (e->kind != PDT_MEMO_LOWER || s->alg->cmp(v, ub) < 0) s->alg->set(v, ub);
    e->kind = PDT_MEMO_LOWER;
}

/* Workers of a team share the main search's cache, under a lock. */
static void memo_store(pdt_search_state *s, const pdt_node *node, uint32_t k, uint32_t drem,
                       bool found, const void *best, const void *ub, const pdt_decision *dec)
{
    if (!s->memo_on || s->aborted || s->dive) return;
    if (!s->team) {
        memo_store_locked(s, node, k, drem, found, best, ub, dec);
        return;
    }
#pragma omp critical(pdt_memo)
    memo_store_locked(s, node, k, drem, found, best, ub, dec);
}

/* ------------------------------------------------------------ selective solve */

typedef struct solve_ctx {
    pdt_search_state *s;
    pdt_frame *f;
    pdt_node *node;
    uint32_t k, drem;
    const void *stop; /* satisficing: a tree this good ends the search */
    bool has_lb;
    bool found;
    bool done; /* the lower bound or the stop value was reached */
} solve_ctx;

static bool reached(const solve_ctx *c)
{
    const pdt_algebra *a = c->s->alg;
    if (!c->found) return false;
    if (c->s->dive) return true;
    if (c->has_lb && a->cmp(c->f->v_best, c->f->v_lb) <= 0) return true;
    return c->stop && a->cmp(c->f->v_best, c->stop) <= 0;
}

static pdt_status materialise(pdt_search_state *s, pdt_frame *f, pdt_node *node, const pdt_lazy_rules *lz)
{
    if (lz->root == UINT32_MAX) {
        node->rules = lz->from;
        node->n_rules = lz->n;
        return PDT_OK;
    }
    node->n_rules = pdt_engine_derive_rules(s, f->rules, lz);
    node->rules = f->rules;
    return PDT_OK;
}

/* Solves one child against the incumbent, leaving room for a bound on its sibling. */
static pdt_status solve_child(solve_ctx *c, pdt_node *n, const pdt_lazy_rules *lz, uint32_t k,
                              const void *other, void *ub, void *out, bool *ok)
{
    pdt_search_state *s = c->s;
    *ok = false;
    if (s->pc->flags & PDT_PROBLEM_SOLVE_CHILDREN) s->alg->set_zero(ub);
    else if (!s->alg->residual(ub, c->f->v_inc, other)) return PDT_OK;
    return pdt_engine_solve(s, n, lz, k, pdt_engine_child_depth(c->drem), ub, ok, out);
}

/* Tries the candidate with children l, r and budgets k1, k2 against the
 * incumbent.  The child with the smaller budget is solved first: it is
 * cheaper and its value tightens the bound of the other. */
static pdt_status try_budgets(solve_ctx *c, int64_t payload, uint32_t index, pdt_node *l,
                              const pdt_lazy_rules *ll, pdt_node *r, const pdt_lazy_rules *lr,
                              uint32_t k1, uint32_t k2)
{
    pdt_search_state *s = c->s;
    pdt_frame *f = c->f;
    const pdt_algebra *a = s->alg;
    bool right_first = k2 < k1, ok;
    pdt_node *n1 = right_first ? r : l, *n2 = right_first ? l : r;
    const pdt_lazy_rules *z1 = right_first ? lr : ll, *z2 = right_first ? ll : lr;
    uint32_t b1 = right_first ? k2 : k1, b2 = right_first ? k1 : k2;
    void *v1 = right_first ? f->v_r : f->v_l, *v2 = right_first ? f->v_l : f->v_r;
    pdt_status st = PDT_OK;
    if (s->pc->lower_bound) st = s->pc->lower_bound(f->v_lb2, s->inst, n2, b2, s->err);
    else a->set_zero(f->v_lb2), st = PDT_OK;
    if (st) return st;
    if (!s->pc->lower_bound) { /* no bound known for the sibling: only the incumbent */
        if (s->pc->flags & PDT_PROBLEM_SOLVE_CHILDREN) a->set_zero(f->v_ubl);
        else a->set(f->v_ubl, f->v_inc);
        st = pdt_engine_solve(s, n1, z1, b1, pdt_engine_child_depth(c->drem), f->v_ubl, &ok, v1);
    } else {
        st = solve_child(c, n1, z1, b1, f->v_lb2, f->v_ubl, v1, &ok);
    }
    if (st) return st;
    if (ok) st = solve_child(c, n2, z2, b2, v1, f->v_ubr, v2, &ok);
    if (st) return st;
    if (ok) {
        if (s->pc->branch) {
            st = s->pc->branch(f->v_c, s->inst, c->node, payload, f->v_l, f->v_r, s->err);
            if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
        } else {
            a->mul(f->v_c, f->v_l, f->v_r);
        }
        ok = a->cmp(f->v_c, f->v_inc) < 0;
    }
    if (!ok) {
        s->stats.pruned++;
        trace_budgets(s, PDT_TRACE_PRUNE, c->node, c->k, payload, l, r,
                      "cannot beat the best tree found so far", f->v_inc, k1, k2, false);
        return PDT_OK;
    }
    a->set(f->v_best, f->v_c);
    a->set(f->v_inc, f->v_c);
    f->dec = (pdt_decision){payload, index, k1, true, f->dec.v_l, f->dec.v_r};
    a->set(f->dec.v_l, f->v_l);
    a->set(f->dec.v_r, f->v_r);
    c->found = true;
    trace_budgets(s, PDT_TRACE_IMPROVE, c->node, c->k, payload, l, r, NULL, f->v_best, k1, k2, false);
    return PDT_OK;
}

/* Budget pairs (k1, k2) for a split of a node with budget k (one node used by the root). */
static pdt_status try_split(solve_ctx *c, int64_t payload, uint32_t index, pdt_node *l,
                            pdt_lazy_rules *ll, pdt_node *r, pdt_lazy_rules *lr)
{
    pdt_search_state *s = c->s;
    uint32_t child_cap = pdt_engine_depth_cap(pdt_engine_child_depth(c->drem));
    uint32_t nl = PDT_UNLIMITED, nr = PDT_UNLIMITED;
    if (s->exact) { /* exact sizes need the children's rule counts */
        nl = pdt_engine_derive_rules(s, c->f->lrules, ll);
        nr = pdt_engine_derive_rules(s, c->f->rrules, lr);
        *ll = (pdt_lazy_rules){c->f->lrules, nl, UINT32_MAX, PDT_REL_LEFT};
        *lr = (pdt_lazy_rules){c->f->rrules, nr, UINT32_MAX, PDT_REL_RIGHT};
    }
    if (c->k == PDT_UNLIMITED) { /* no size limit: each child gets all it can use */
        pdt_status st = try_budgets(c, payload, index, l, ll, r, lr, child_cap, child_cap);
        if (reached(c)) c->done = true;
        return st;
    }
    /* at most: (k1, k2 > cap) is dominated by (k - 1 - cap, cap), so k1 starts there */
    uint32_t kmax = min_u32(c->k - 1, child_cap);
    uint32_t kmin = c->k - 1 > child_cap ? c->k - 1 - child_cap : 0;
    for (uint32_t k1 = kmin; k1 <= kmax && !c->done && !s->aborted; k1++) {
        uint32_t k2 = c->k - 1 - k1;
        if (s->exact && (k1 > nl || k2 > nr)) continue;
        pdt_status st = try_budgets(c, payload, index, l, ll, r, lr, k1, k2);
        if (st) return st;
        if (reached(c)) c->done = true;
    }
    return PDT_OK;
}

/* The i-th split if it passes the routine filters (*ok), else traced as skipped. */
static pdt_status admit_split(solve_ctx *c, bool dedup, uint32_t n_split, uint32_t i, bool *ok,
                              int64_t *payload, pdt_node *l, pdt_lazy_rules *ll, pdt_node *r,
                              pdt_lazy_rules *lr)
{
    pdt_search_state *s = c->s;
    const pdt_node *node = c->node;
    *ok = false;
    bool valid = false;
    pdt_status st = pdt_engine_split_at(s, c->f, node, i, &valid, payload, l, ll, r, lr);
    if (st || !valid) return st;
    s->stats.candidates++;
    /* with rules, a split leaving one side empty repeats a smaller tree; problem
     * splitters (k-D trees store a point per node) decide for themselves */
    bool degenerate = s->rs && (l->n_items == 0 || r->n_items == 0);
    if (!s->exact && degenerate) {
        trace_skip(s, node, c->k, *payload, l, r, "one side is empty");
        return PDT_OK;
    }
    if (s->o.min_leaf && (l->n_items < s->o.min_leaf || r->n_items < s->o.min_leaf)) {
        trace_skip(s, node, c->k, *payload, l, r, "a side holds fewer than min-leaf items");
        return PDT_OK;
    }
    if (dedup && pdt_engine_seen_before(s, c->f, l->items, n_split)) {
        trace_skip(s, node, c->k, *payload, l, r, "splits the items like an earlier candidate");
        return PDT_OK;
    }
    *ok = true;
    return PDT_OK;
}

static pdt_status search_splits(solve_ctx *c)
{
    pdt_search_state *s = c->s;
    uint32_t n_split = pdt_engine_split_count(s, c->node);
    bool dedup = s->dedup_on && c->k >= 2;
    if (dedup) pdt_engine_seen_reset(c->f);
    for (uint32_t i = 0; i < n_split && !c->done && !s->aborted; i++) {
        bool ok = false;
        int64_t payload = 0;
        pdt_node l, r;
        pdt_lazy_rules ll, lr;
        if (i && i % POLL_EVERY == 0) poll_limits(s); /* (candidates skipped as repeats solve nothing) */
        pdt_status st = admit_split(c, dedup, n_split, i, &ok, &payload, &l, &ll, &r, &lr);
        if (st) return st;
        if (!ok) continue;
        trace(s, PDT_TRACE_CANDIDATE, c->node, c->k, payload, &l, &r, NULL, NULL);
        st = try_split(c, payload, i, &l, &ll, &r, &lr);
        if (st) return st;
    }
    return PDT_OK;
}

pdt_status pdt_engine_root_list(pdt_search_state *s, pdt_node *node, uint32_t k, uint32_t *list,
                                uint32_t *n)
{
    solve_ctx c = {s, s->frames[0], node, k, 0, NULL, false, false, false};
    uint32_t n_split = pdt_engine_split_count(s, node);
    bool dedup = s->dedup_on && k >= 2;
    if (dedup) pdt_engine_seen_reset(c.f);
    *n = 0;
    /* the ranks of an MPI job must list the same candidates: only a process alone stops early */
    const pdt_distributor *d = pdt_distributor_get();
    const bool alone = !d || d->size < 2;
    for (uint32_t i = 0; i < n_split; i++) {
        bool ok = false;
        int64_t payload = 0;
        pdt_node l, r;
        pdt_lazy_rules ll, lr;
        if (alone && i && i % POLL_EVERY == 0 && (poll_limits(s), s->aborted)) break; /* the workers stop at once */
        pdt_status st = admit_split(&c, dedup, n_split, i, &ok, &payload, &l, &ll, &r, &lr);
        if (st) return st;
        if (ok) list[(*n)++] = i;
    }
    return PDT_OK;
}

pdt_status pdt_engine_root_candidate(pdt_search_state *s, pdt_node *node, uint32_t i, uint32_t k,
                                     uint32_t drem, const void *ub, const void *lb, bool *found)
{
    pdt_frame *f = pdt_engine_frame(s, 0);
    if (!f) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory for the search");
    f->dec = (pdt_decision){PDT_LEAF, UINT32_MAX, 0, false, f->dec.v_l, f->dec.v_r};
    s->alg->set(f->v_inc, ub);
    s->alg->set_zero(f->v_best);
    if (lb) s->alg->set(f->v_lb, lb);
    solve_ctx c = {s, f, node, k, drem, NULL, lb != NULL, false, false};
    bool ok = false;
    int64_t payload = 0;
    pdt_node l, r;
    pdt_lazy_rules ll, lr;
    pdt_status st = pdt_engine_split_at(s, f, node, i, &ok, &payload, &l, &ll, &r, &lr);
    if (!st && ok) st = try_split(&c, payload, i, &l, &ll, &r, &lr);
    *found = c.found;
    return st;
}

/* One branch node left: the problem's tight loop over the admissible rules. */
/* A stump is asked POLL_EVERY rules at a time, the clock read in between:
 * one call over every rule can take long (21 million conics on 40 points:
 * 0.6 s).  Each slice only has to beat the best of the earlier ones, so the
 * first best rule wins, as in one call over all. */
static pdt_status stump_node(solve_ctx *c)
{
    pdt_search_state *s = c->s;
    pdt_frame *f = c->f;
    const pdt_node *node = c->node;
    for (uint32_t i = 0; i < node->n_rules; i++)
        f->sides[i] = s->sides + (size_t)node->rules[i] * s->words;
    for (uint32_t a = 0; a < node->n_rules; a += POLL_EVERY) {
        const uint32_t n = node->n_rules - a < POLL_EVERY ? node->n_rules - a : POLL_EVERY;
        if (a && (poll_limits(s), s->aborted)) break; /* (the best so far is a tree: kept) */
        uint32_t idx = UINT32_MAX;
        pdt_status st = s->pc->stump(f->v_c, &idx, s->inst, node, f->sides + a, n, s->o.min_leaf, f->v_inc,
                                     s->err);
        if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
        s->stats.candidates += n;
        if (idx == UINT32_MAX) continue;
        if (idx >= n || s->alg->cmp(f->v_c, f->v_inc) >= 0)
            return pdt_error_set(s->err, PDT_EPLUGIN, "problem plugin \"%s\": stump broke its contract",
                                 s->pc->name);
        s->alg->set(f->v_best, f->v_c);
        s->alg->set(f->v_inc, f->v_c);
        f->dec = (pdt_decision){node->rules[a + idx], a + idx, 0, false, f->dec.v_l, f->dec.v_r};
        c->found = true;
    }
    return PDT_OK;
}

/* Looks the node up in the cache; true when the entry answers the query. */
static bool memo_answer_locked(pdt_search_state *s, pdt_frame *f, const pdt_node *node, uint32_t k,
                               uint32_t drem, const void *ub, bool *found, void *out)
{
    pdt_memo_entry *e = pdt_memo_find(s->memo, node->items, k, drem, memo_extra(s, node));
    if (!e) return false;
    void *v = pdt_memo_value(e);
    if (e->kind == PDT_MEMO_EXACT) {
        s->stats.memo_hits++;
        s->alg->set(out, v);
        *found = s->alg->cmp(v, ub) < 0;
        f->dec = (pdt_decision){e->payload, UINT32_MAX, e->k1, false, f->dec.v_l, f->dec.v_r};
        return true;
    }
    if (s->alg->cmp(v, ub) >= 0) {
        s->stats.memo_hits++;
        s->alg->set(out, v);
        *found = false;
        return true;
    }
    return false;
}

static bool memo_answer(pdt_search_state *s, pdt_frame *f, const pdt_node *node, uint32_t k,
                        uint32_t drem, const void *ub, bool *found, void *out)
{
    if (!s->memo_on) return false;
    if (!s->team) return memo_answer_locked(s, f, node, k, drem, ub, found, out);
    bool hit;
#pragma omp critical(pdt_memo)
    hit = memo_answer_locked(s, f, node, k, drem, ub, found, out);
    return hit;
}

pdt_status pdt_engine_solve(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz, uint32_t k,
                            uint32_t drem, const void *ub, bool *found, void *out)
{
    return pdt_engine_solve_until(s, node, lz, k, drem, ub, NULL, found, out);
}

pdt_status pdt_engine_solve_until(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz,
                                  uint32_t k, uint32_t drem, const void *ub, const void *stop,
                                  bool *found, void *out)
{
    const pdt_algebra *a = s->alg;
    s->stats.nodes++;
    check_deadline(s);
    pdt_frame *f = pdt_engine_frame(s, node->depth);
    if (!f) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory for the search");
    f->dec = (pdt_decision){PDT_LEAF, UINT32_MAX, 0, false, f->dec.v_l, f->dec.v_r};
    if (s->exact && k > pdt_engine_depth_cap(drem)) { /* exactly k nodes do not fit */
        a->set_zero(out);
        *found = false;
        return PDT_OK;
    }
    k = min_u32(k, pdt_engine_depth_cap(drem));
    drem = min_u32(drem, k);
    node->rules = NULL;
    node->n_rules = lz->root == UINT32_MAX ? lz->n : 0;
    pdt_status st = s->pc->leaf(f->v_leaf, s->inst, node, s->err);
    if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
    /* a leaf is the only tree without budget or (rule splitter: splits partition
     * the items) without room for two non-empty children */
    uint32_t smallest = s->o.min_leaf > 1 ? s->o.min_leaf : 1;
    if (k == 0 || (!s->exact && s->rs && node->n_items < 2 * smallest)) {
        if (s->exact && k) a->set_zero(out);
        else a->set(out, f->v_leaf);
        *found = a->cmp(out, ub) < 0;
        return PDT_OK;
    }
    bool has_lb = false;
    if (s->pc->lower_bound && !s->exact) {
        st = s->pc->lower_bound(f->v_lb, s->inst, node, k, s->err);
        if (st) return st;
        has_lb = true;
        if (a->cmp(f->v_leaf, f->v_lb) <= 0) { /* the leaf is already optimal */
            a->set(out, f->v_leaf);
            *found = a->cmp(out, ub) < 0;
            trace(s, PDT_TRACE_SHORTCUT, node, k, -1, NULL, NULL, "the leaf reaches the lower bound", out);
            return PDT_OK;
        }
    }
    if (memo_answer(s, f, node, k, drem, ub, found, out)) {
        trace(s, PDT_TRACE_SHORTCUT, node, k, -1, NULL, NULL, "answered from the subproblem cache",
              *found ? out : NULL);
        return PDT_OK;
    }
    st = materialise(s, f, node, lz);
    if (st) return st;
    trace(s, PDT_TRACE_ENTER, node, k, -1, NULL, NULL, NULL, NULL);
    solve_ctx c = {s, f, node, k, drem, stop, has_lb, false, false};
    if (!s->exact && a->cmp(f->v_leaf, ub) < 0) {
        a->set(f->v_best, f->v_leaf);
        c.found = true;
    } else {
        a->set_zero(f->v_best);
    }
    a->set(f->v_inc, c.found ? f->v_best : ub);
    c.done = reached(&c);
    if (k == 1 && s->stump_on && !c.done) st = stump_node(&c);
    else if (!c.done && pdt_engine_root_shared(s, node, stop))
        st = pdt_engine_root_threads(s, node, k, drem, has_lb, &c.found);
    else st = search_splits(&c);
    if (st) return st;
    if (!stop) memo_store(s, node, k, drem, c.found, f->v_best, ub, c.found ? &f->dec : NULL);
    if (c.found) a->set(out, f->v_best);
    else a->set(out, ub);
    *found = c.found;
    trace(s, PDT_TRACE_LEAVE, node, k, -1, NULL, NULL, c.found ? NULL : "no tree beats the bound",
          c.found ? out : NULL);
    return PDT_OK;
}
