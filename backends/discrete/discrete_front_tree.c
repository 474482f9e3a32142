/* The tree of a point of the categorical family's front (discrete_front.h):
 * at each region a leaf point equal to it, or the first feature whose split
 * front holds it; the split's levels remember, per point, the budget of its
 * last way and the indices of the two points it sums, so the ways' points are
 * read back and each way is rebuilt in turn.  The model is written in
 * preorder (children after parents), multiway nodes with their ways. */
#include <stdlib.h>
#include <string.h>

#include "discrete.h"
#include "discrete_front_impl.h"

typedef struct builder {
    df_search *s;
    pdt_model *m;
    size_t cap_nodes, cap_ways;
    int32_t *rule_of; /* feature -> model rule + 1 */
    bool partial_root; /* the search stopped: the root's completed splits only */
} builder;

static pdt_status new_node(builder *g, const uint32_t *rows, uint32_t n, int32_t *idx)
{
    pdt_model *m = g->m;
    if (m->n_nodes == g->cap_nodes) {
        size_t cap = g->cap_nodes ? 2 * g->cap_nodes : 16;
        pdt_tree_node *nodes = realloc(m->nodes, cap * sizeof *nodes);
        if (nodes) m->nodes = nodes;
        uint64_t *counts = nodes ? realloc(m->counts, cap * m->n_classes * sizeof *counts) : NULL;
        if (!counts) return pdt_error_set(g->s->err, PDT_ENOMEM, "out of memory (the tree)");
        m->counts = counts;
        g->cap_nodes = cap;
    }
    size_t i = m->n_nodes++;
    uint32_t p = df_positives(g->s, rows, n), pc = g->s->positive;
    uint64_t *c = m->counts + i * m->n_classes;
    c[pc] = p, c[1 - pc] = n - p;
    m->nodes[i] = (pdt_tree_node){.left = -1, .right = -1, .rule = -1, .label = c[1] > c[0], .n_items = n};
    *idx = (int32_t)i;
    return PDT_OK;
}

static pdt_status node_rule(builder *g, uint32_t f, int32_t *index)
{
    df_search *s = g->s;
    pdt_model *m = g->m;
    if (!g->rule_of[f]) {
        pdt_rule *r = &m->rules[m->n_rules];
        pdt_status st = s->bin[f] >= 0 ? bin_export(r, &s->enc, s->ds, (size_t)s->bin[f], s->err)
                                       : pdt_rule_init(r, &pdt_rule_class_categorical, 1, 0, s->err);
        if (st) return st;
        if (s->bin[f] < 0) r->ints[0] = s->column[f];
        g->rule_of[f] = (int32_t)++m->n_rules;
    }
    *index = g->rule_of[f] - 1;
    return PDT_OK;
}

static pdt_status reserve_ways(builder *g, uint32_t m_ways, uint32_t *first)
{
    pdt_model *m = g->m;
    if (m->n_ways + m_ways > g->cap_ways) {
        size_t cap = g->cap_ways ? 2 * g->cap_ways : 16;
        while (cap < m->n_ways + m_ways) cap *= 2;
        pdt_tree_way *w = realloc(m->ways, cap * sizeof *w);
        if (!w) return pdt_error_set(g->s->err, PDT_ENOMEM, "out of memory (the tree)");
        m->ways = w;
        g->cap_ways = cap;
    }
    *first = (uint32_t)m->n_ways;
    m->n_ways += m_ways;
    return PDT_OK;
}

static pdt_status tree_of(builder *g, const uint32_t *rows, uint32_t n, uint32_t drem, uint32_t k, uint32_t fp,
                          uint32_t fn, bool root);

/* The split of feature f at node idx: the ways' points (read back from the
 * levels), then each way's tree. */
static pdt_status emit_split(builder *g, int32_t idx, uint32_t f, const df_split *sp, const pdt_front *lv,
                             const pdt_front *kids, size_t at, uint32_t drem, uint32_t k)
{
    uint32_t nb = df_budgets(k), m = sp->m, b = nb - 1;
    uint32_t *cb = malloc(3 * (size_t)m * sizeof *cb); /* budget, fp, fn of each way's point */
    if (!cb) return pdt_error_set(g->s->err, PDT_ENOMEM, "out of memory");
    for (uint32_t j = m; j >= 1; j--) {
        const pdt_front_point *p = &lv[(size_t)j * nb + b].p[at];
        const pdt_front_point *q = &kids[(size_t)(j - 1) * nb + p->how].p[p->right];
        cb[3 * (j - 1)] = p->how, cb[3 * (j - 1) + 1] = q->fp, cb[3 * (j - 1) + 2] = q->fn;
        at = p->left;
        b -= p->how;
    }
    int32_t rule;
    uint32_t first = 0;
    pdt_status st = node_rule(g, f, &rule);
    bool binary = g->s->bin[f] >= 0;
    if (!st && binary && m != 2) st = pdt_error_set(g->s->err, PDT_EINTERNAL, "a threshold split with %u ways", m);
    if (!st && !binary) st = reserve_ways(g, m, &first);
    if (!st) g->m->nodes[idx].rule = rule;
    if (!st && !binary) g->m->nodes[idx].first_way = first, g->m->nodes[idx].n_ways = m;
    for (uint32_t j = 0; j < m && !st; j++) {
        int32_t child = (int32_t)g->m->n_nodes;
        uint32_t lo = sp->start[j];
        st = tree_of(g, sp->rows + lo, sp->start[j + 1] - lo, drem, k == PDT_UNLIMITED ? k : cb[3 * j],
                     cb[3 * j + 1], cb[3 * j + 2], false);
        if (st) break;
        if (!binary) g->m->ways[first + j] = (pdt_tree_way){sp->code[j], child};
        else if (sp->code[j] == 0) g->m->nodes[idx].left = child;
        else g->m->nodes[idx].right = child;
    }
    free(cb);
    return st;
}

typedef struct tree_scratch {
    df_split sp;
    pdt_front *lv, *kids;
    size_t n_lv, n_kids;
} tree_scratch;

static bool tscratch_init(tree_scratch *x, const df_search *s, uint32_t n, uint32_t nb)
{
    uint32_t most = 2;
    for (size_t f = 0; f < s->nf; f++) most = s->k[f] > most ? s->k[f] : most;
    x->n_lv = (size_t)(most + 1) * nb, x->n_kids = (size_t)most * nb;
    x->sp.start = malloc((most + 1) * sizeof *x->sp.start);
    x->sp.rows = malloc((n + 1) * sizeof *x->sp.rows);
    x->sp.code = malloc((most + 1) * sizeof *x->sp.code);
    x->lv = calloc(x->n_lv, sizeof *x->lv);
    x->kids = calloc(x->n_kids, sizeof *x->kids);
    return x->sp.start && x->sp.rows && x->sp.code && x->lv && x->kids;
}

static void tscratch_clear(tree_scratch *x)
{
    for (size_t i = 0; x->lv && i < x->n_lv; i++) pdt_front_clear(&x->lv[i]);
    for (size_t i = 0; x->kids && i < x->n_kids; i++) pdt_front_clear(&x->kids[i]);
    free(x->lv), free(x->kids);
    free(x->sp.start), free(x->sp.rows), free(x->sp.code);
}

static pdt_status tree_of(builder *g, const uint32_t *rows, uint32_t n, uint32_t drem, uint32_t k, uint32_t fp,
                          uint32_t fn, bool root)
{
    df_search *s = g->s;
    int32_t idx = 0;
    pdt_front leaf;
    pdt_front_init(&leaf);
    pdt_status st = df_leaf(&leaf, s, rows, n) ? new_node(g, rows, n, &idx)
                                                : pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    size_t at = st ? SIZE_MAX : pdt_front_find(&leaf, fp, fn);
    if (at != SIZE_MAX) g->m->nodes[idx].label = leaf.p[at].how;
    pdt_front_clear(&leaf);
    if (st || at != SIZE_MAX) return st;
    bool done = false;
    if (df_normalise(s, n, df_positives(s, rows, n), &drem, &k)) {
        uint32_t ways_k = k == PDT_UNLIMITED ? k : k - 1, ways_d = drem == PDT_UNLIMITED ? drem : drem - 1;
        uint32_t nb = df_budgets(ways_k), last = root && g->partial_root ? s->root_done : (uint32_t)s->nf;
        tree_scratch x;
        if (!tscratch_init(&x, s, n, nb)) st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
        for (uint32_t f = 0; !st && !done && f < last; f++) {
            if (!df_partition(&x.sp, s, rows, n, f)) continue;
            st = df_split_fronts(s, &x.sp, ways_d, ways_k, x.lv, x.kids, true);
            size_t hit = st ? SIZE_MAX : pdt_front_find(&x.lv[(size_t)x.sp.m * nb + nb - 1], fp, fn);
            if (hit == SIZE_MAX) continue;
            done = true;
            st = emit_split(g, idx, f, &x.sp, x.lv, x.kids, hit, ways_d, ways_k);
        }
        tscratch_clear(&x);
    }
    if (!st && !done) st = pdt_error_set(s->err, PDT_EINTERNAL, "no tree of the front has the point (%u, %u)", fp, fn);
    return st;
}

pdt_status df_search_tree(pdt_model *m, df_search *s, uint32_t fp, uint32_t fn, pdt_error *err)
{
    s->err = err;
    builder g = {.s = s, .m = m, .partial_root = s->aborted};
    g.rule_of = calloc(s->nf + 1, sizeof *g.rule_of);
    m->rules = calloc(s->nf + 1, sizeof *m->rules);
    if (!g.rule_of || !m->rules) {
        free(g.rule_of);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    /* the tree is completed whatever the time: its fronts are cached, or recomputed */
    bool deadline = s->has_deadline, aborted = s->aborted;
    const volatile sig_atomic_t *stop = s->stop;
    s->has_deadline = false, s->aborted = false, s->stop = NULL;
    uint32_t *rows = malloc((s->n + 1) * sizeof *rows);
    pdt_status st = rows ? PDT_OK : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (uint32_t i = 0; !st && i < s->n; i++) rows[i] = i;
    if (!st) st = tree_of(&g, rows, (uint32_t)s->n, s->max_depth, s->max_size, fp, fn, true);
    s->has_deadline = deadline, s->aborted = aborted, s->stop = stop;
    free(rows);
    free(g.rule_of);
    return st;
}
