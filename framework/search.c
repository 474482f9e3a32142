/* The search entry point: runs the recursion from the root, counts trees for
 * non-selective algebras and rebuilds the optimal tree from root decisions. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "engine_impl.h"
#include "pdt_parallel.h"

/* ------------------------------------------------------------ counting */

typedef struct count_ctx {
    pdt_search_state *s;
    pdt_node *node;
    uint32_t k, drem;
    void *total;
} count_ctx;

static pdt_status count_split(count_ctx *c, pdt_frame *f, int64_t payload, pdt_node *l,
                              pdt_lazy_rules *ll, pdt_node *r, pdt_lazy_rules *lr)
{
    pdt_search_state *s = c->s;
    uint32_t nl = pdt_engine_derive_rules(s, f->lrules, ll);
    uint32_t nr = pdt_engine_derive_rules(s, f->rrules, lr);
    pdt_lazy_rules el = {f->lrules, nl, UINT32_MAX, PDT_REL_LEFT};
    pdt_lazy_rules er = {f->rrules, nr, UINT32_MAX, PDT_REL_RIGHT};
    uint32_t cap = pdt_engine_depth_cap(pdt_engine_child_depth(c->drem));
    for (uint32_t k1 = 0; k1 < c->k; k1++) {
        uint32_t k2 = c->k - 1 - k1;
        if (k1 > cap || k2 > cap) continue;
        /* proper (exclusive) relations use distinct rules: a child cannot use more than it has */
        if (s->data_defined && (k1 > nl || k2 > nr)) continue;
        pdt_status st = pdt_engine_count(s, l, &el, k1, pdt_engine_child_depth(c->drem), f->v_l);
        if (st) return st;
        if (s->alg->is_zero(f->v_l)) continue;
        st = pdt_engine_count(s, r, &er, k2, pdt_engine_child_depth(c->drem), f->v_r);
        if (st) return st;
        if (s->pc->branch) {
            st = s->pc->branch(f->v_c, s->inst, c->node, payload, f->v_l, f->v_r, s->err);
            if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
        } else {
            s->alg->mul(f->v_c, f->v_l, f->v_r);
        }
        s->alg->add(c->total, f->v_c);
    }
    return PDT_OK;
}

pdt_status pdt_engine_count(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz, uint32_t k,
                            uint32_t drem, void *out)
{
    s->stats.nodes++;
    pdt_frame *f = pdt_engine_frame(s, node->depth);
    if (!f) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory for the search");
    node->rules = NULL;
    node->n_rules = 0;
    if (k == 0) {
        pdt_status st = s->pc->leaf(out, s->inst, node, s->err);
        return st ? pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name) : PDT_OK;
    }
    s->alg->set_zero(out);
    if (k > pdt_engine_depth_cap(drem)) return PDT_OK;
    drem = drem < k ? drem : k;
    pdt_memo_entry *e = s->memo_on ? pdt_memo_find(s->memo, node->items, k, drem, 0) : NULL;
    if (e) {
        s->stats.memo_hits++;
        s->alg->set(out, pdt_memo_value(e));
        return PDT_OK;
    }
    node->n_rules = pdt_engine_derive_rules(s, f->rules, lz);
    node->rules = f->rules;
    if (s->data_defined && node->n_rules < k) return PDT_OK;
    count_ctx c = {s, node, k, drem, f->v_best};
    s->alg->set_zero(f->v_best);
    uint32_t n = pdt_engine_split_count(s, node);
    for (uint32_t i = 0; i < n; i++) {
        bool ok = false;
        int64_t payload = 0;
        pdt_node l, r;
        pdt_lazy_rules ll, lr;
        pdt_status st = pdt_engine_split_at(s, f, node, i, &ok, &payload, &l, &ll, &r, &lr);
        if (st) return st;
        if (!ok) continue;
        s->stats.candidates++;
        if (s->o.min_leaf && (l.n_items < s->o.min_leaf || r.n_items < s->o.min_leaf)) continue;
        st = count_split(&c, f, payload, &l, &ll, &r, &lr);
        if (st) return st;
    }
    s->alg->set(out, f->v_best);
    if (s->memo_on) {
        pdt_memo_entry *put = pdt_memo_put(s->memo, node->items, k, drem, 0);
        if (put) {
            put->kind = PDT_MEMO_EXACT;
            s->alg->set(pdt_memo_value(put), out);
        }
    }
    return PDT_OK;
}

/* ------------------------------------------------------------ rebuild */

bool pdt_tree_out_push(pdt_tree_out *t, int64_t v)
{
    if (t->len == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 32;
        int64_t *a = realloc(t->a, cap * sizeof *a);
        if (!a) return false;
        t->a = a;
        t->cap = cap;
    }
    t->a[t->len++] = v;
    return true;
}

/* A private copy of a child (items and rules), since frames are reused. */
typedef struct owned_child {
    pdt_node node;
    pdt_lazy_rules lz;
    uint64_t *items;
    uint32_t *rules;
} owned_child;

static pdt_status own_child(pdt_search_state *s, owned_child *o, const pdt_node *n, const pdt_lazy_rules *lz)
{
    o->items = malloc((s->words ? s->words : 1) * sizeof *o->items);
    o->rules = malloc((lz->n ? lz->n : 1) * sizeof *o->rules);
    if (!o->items || !o->rules) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    memcpy(o->items, n->items, s->words * sizeof *o->items);
    o->node = *n;
    o->node.items = o->items;
    uint32_t m = pdt_engine_derive_rules(s, o->rules, lz);
    o->lz = (pdt_lazy_rules){o->rules, m, UINT32_MAX, lz->dir};
    return PDT_OK;
}

static void free_child(owned_child *o)
{
    free(o->items);
    free(o->rules);
}

static pdt_status rebuild_node(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz,
                               uint32_t k, uint32_t drem, const void *value, pdt_tree_out *t);

/* Re-derives the decision of a child whose optimum (value, if known) is given, then recurses. */
static pdt_status rebuild_child(pdt_search_state *s, owned_child *c, uint32_t k, uint32_t drem,
                                const void *value, pdt_tree_out *t)
{
    const pdt_algebra *a = s->alg;
    void *ub = malloc(a->size), *out = malloc(a->size);
    if (!ub || !out) {
        free(ub);
        free(out);
        return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    a->init(ub);
    a->init(out);
    bool found = false;
    if (value) a->succ(ub, value);
    else a->set_zero(ub);
    pdt_status st = pdt_engine_solve_until(s, &c->node, &c->lz, k, drem, ub, value, &found, out);
    if (!st && !found)
        st = pdt_error_set(s->err, PDT_EINTERNAL, "a subtree of the optimum could not be re-derived");
    if (!st) st = rebuild_node(s, &c->node, &c->lz, k, drem, out, t);
    a->clear(ub);
    a->clear(out);
    free(ub);
    free(out);
    return st;
}

typedef struct owned_decision {
    pdt_decision d;
    void *vl, *vr;
} owned_decision;

static pdt_status rebuild_children(pdt_search_state *s, pdt_node *node, const owned_decision *od,
                                   uint32_t k, uint32_t drem, pdt_tree_out *t)
{
    pdt_node l, r;
    pdt_lazy_rules ll, lr;
    pdt_status st = pdt_engine_split_payload(s, node, od->d.payload, od->d.index, &l, &ll, &r, &lr);
    if (st) return st;
    owned_child cl = {0}, cr = {0};
    st = own_child(s, &cl, &l, &ll);
    if (!st) st = own_child(s, &cr, &r, &lr);
    uint32_t k1 = od->d.k1, cap = pdt_engine_depth_cap(pdt_engine_child_depth(drem));
    uint32_t k2 = k == PDT_UNLIMITED ? cap : k - 1 - k1;
    if (!s->exact && k2 > cap) k2 = cap;
    if (!st) st = rebuild_child(s, &cl, k1, pdt_engine_child_depth(drem), od->d.has_values ? od->vl : NULL, t);
    if (!st) st = rebuild_child(s, &cr, k2, pdt_engine_child_depth(drem), od->d.has_values ? od->vr : NULL, t);
    free_child(&cl);
    free_child(&cr);
    return st;
}

/* node has just been solved (its decision is in its frame). */
static pdt_status rebuild_node(pdt_search_state *s, pdt_node *node, const pdt_lazy_rules *lz,
                               uint32_t k, uint32_t drem, const void *value, pdt_tree_out *t)
{
    pdt_frame *f = s->frames[node->depth];
    if (!pdt_tree_out_push(t, f->dec.payload)) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    if (f->dec.payload == PDT_LEAF) return PDT_OK;
    const pdt_algebra *a = s->alg;
    owned_decision od = {f->dec, malloc(a->size), malloc(a->size)};
    if (!od.vl || !od.vr) {
        free(od.vl);
        free(od.vr);
        return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    a->init(od.vl);
    a->init(od.vr);
    a->set(od.vl, f->dec.v_l);
    a->set(od.vr, f->dec.v_r);
    if (k > pdt_engine_depth_cap(drem)) k = pdt_engine_depth_cap(drem);
    if (drem > k) drem = k;
    pdt_status st = PDT_OK;
    if (!node->rules) { /* a cache hit answered without listing the node's rules */
        node->n_rules = pdt_engine_derive_rules(s, f->rules, lz);
        node->rules = f->rules;
    }
    st = rebuild_children(s, node, &od, k, drem, t);
    a->clear(od.vl);
    a->clear(od.vr);
    free(od.vl);
    free(od.vr);
    (void)value;
    return st;
}

pdt_status pdt_engine_rebuild(pdt_search_state *s, pdt_node *root, uint32_t k, uint32_t drem,
                              int64_t **tree, size_t *len)
{
    pdt_tree_out t = {0};
    pdt_lazy_rules lz = {root->rules, root->n_rules, UINT32_MAX, PDT_REL_LEFT};
    bool deadline = s->has_deadline;
    const volatile sig_atomic_t *stop = s->o.stop;
    s->aborted = false;
    s->has_deadline = false; /* the tree must be completed */
    s->o.stop = NULL;
    s->o.trace = NULL;       /* re-deriving known subtrees is not part of the search's story */
    pdt_status st = rebuild_node(s, root, &lz, k, drem, NULL, &t);
    s->has_deadline = deadline;
    s->o.stop = stop;
    if (st) {
        free(t.a);
        return st;
    }
    *tree = t.a;
    *len = t.len;
    return PDT_OK;
}

/* ------------------------------------------------------------ entry */

void pdt_search_result_clear(pdt_search_result *res)
{
    free(res->tree);
    res->tree = NULL;
    res->tree_len = 0;
}

/* One selective search from the root against ub; rebuilds the tree when found.
 * *complete says whether the search ran to the end (read before rebuilding,
 * which clears the abort flag to finish the tree). */
static pdt_status solve_root(pdt_search_state *s, const pdt_node *root, const void *ub, bool *found,
                             bool *complete, void *value, int64_t **tree, size_t *len)
{
    pdt_node node = *root;
    pdt_lazy_rules lz = {root->rules, root->n_rules, UINT32_MAX, PDT_REL_LEFT};
    pdt_status st = pdt_engine_solve(s, &node, &lz, s->o.max_size, s->o.max_depth, ub, found, value);
    *complete = !s->aborted;
    if (st || !*found) return st;
    node.rules = root->rules;
    node.n_rules = root->n_rules;
    return pdt_engine_rebuild(s, &node, s->o.max_size, s->o.max_depth, tree, len);
}

/* A first dive (every subproblem takes its first complete tree, nothing
 * cached) gives an incumbent at once — a tree to return if a time limit
 * strikes before the search finds one, and a bound from the start; the search
 * then looks only for strictly better trees, and when it finds none the dive's
 * tree is optimal. Teaching mode (a trace callback) skips the dive: the trace
 * shows the plain recursion of the paper, bounds found as it runs. */
static pdt_status optimise(pdt_search_state *s, pdt_search_result *res, const pdt_node *root)
{
    const pdt_algebra *a = s->alg;
    void *ub = malloc(a->size);
    if (!ub) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    a->init(ub);
    a->set_zero(ub);
    pdt_status st = PDT_OK;
    bool found = false, complete = true;
    if (!s->exact && !s->o.trace) {
        s->dive = true;
        st = solve_root(s, root, ub, &found, &complete, res->value, &res->tree, &res->tree_len);
        s->dive = false;
        if (found) a->set(ub, res->value);
    }
    /* ranks search the root together only if every rank got there */
    const pdt_distributor *d = pdt_distributor_get();
    if (!st && d && d->size > 1) complete = d->agree(d->user, complete);
    int64_t *tree = NULL;
    size_t len = 0;
    bool better = false;
    if (!st && complete) st = solve_root(s, root, ub, &better, &complete, res->value, &tree, &len);
    if (better) {
        free(res->tree);
        res->tree = tree;
        res->tree_len = len;
    } else {
        free(tree);
        if (found) a->set(res->value, ub); /* nothing beat the dive */
    }
    res->found = found || better;
    res->optimal = !st && complete;
    a->clear(ub);
    free(ub);
    return st;
}

pdt_status pdt_search(pdt_search_result *res, const pdt_problem_class *problem, void *inst,
                      const pdt_ruleset *rs, size_t n_words, const pdt_node *root,
                      const pdt_search_opts *opts, pdt_error *err)
{
    pdt_search_opts o = *opts;
    double spent = 0;
    /* the compact-key DP knows no budgets: only unconstrained optimisation takes it */
    bool unconstrained = o.max_size == PDT_UNLIMITED && o.max_depth == PDT_UNLIMITED && !o.min_leaf &&
                         !o.exact_size;
    if (problem->dp_setup && problem->algebra->selective && unconstrained && !o.no_memo && !o.trace) {
        bool used = false;
        pdt_status st = pdt_dp_search(res, &used, problem, inst, root, &o, &spent, err);
        if (st || used) return st;
        if (o.time_limit > 0) o.time_limit = o.time_limit > spent ? o.time_limit - spent : 1e-9;
    }
    pdt_search_state s;
    pdt_status st = pdt_engine_begin(&s, problem, inst, rs, n_words, root->n_rules, &o, err);
    if (st) {
        pdt_engine_end(&s);
        return st;
    }
    pdt_node node = *root;
    pdt_lazy_rules lz = {root->rules, root->n_rules, UINT32_MAX, PDT_REL_LEFT};
    res->tree = NULL;
    res->tree_len = 0;
    if (!s.alg->selective) {
        st = s.alg->idempotent && !s.exact
                 ? pdt_engine_union(&s, &node, &lz, opts->max_size, opts->max_depth, res->value)
                 : pdt_engine_count(&s, &node, &lz, opts->max_size, opts->max_depth, res->value);
        res->found = !st;
        res->optimal = !st && !s.aborted;
    } else {
        st = optimise(&s, res, root);
    }
    s.stats.seconds = spent + pdt_engine_elapsed(&s);
    pdt_engine_end(&s);
    res->stats = s.stats;
    return st;
}
