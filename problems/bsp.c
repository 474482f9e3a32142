/* Auto-partitions of 2-D segments (He & Little §4.1) as a problem plugin.
 * Items: the elementary pieces of the segments (bsp_geometry.c); a node is
 * the set of pieces in a convex region, which determines its fragments.  The
 * splitter tries the line of every segment present (one per supporting line:
 * collinear segments give the same split); its children get the pieces
 * strictly left and strictly right of the line, the pieces on it are stored
 * at the node.  A region holding pieces cannot be a leaf (+∞); an empty one
 * costs one node (objective "nodes") or nothing ("fragments").  The optimum
 * of a region depends only on its pieces, so the engine may cache it. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "bsp_impl.h"

static unsigned least_height(uint64_t n)
{
    unsigned h = 0;
    while (n) n >>= 1, h++;
    return h;
}

uint32_t bsp_count_segments(const pdt_bsp *b, const uint64_t *x, const uint64_t *y)
{
    uint32_t count = 0, last = UINT32_MAX;
    for (size_t k = 0; k < b->words; k++)
        for (uint64_t w = x[k] & y[k]; w; w &= w - 1) {
            uint32_t s = b->piece_seg[k * 64 + (size_t)__builtin_ctzll(w)];
            count += s != last;
            last = s;
        }
    return count;
}

bool bsp_represents_line(const pdt_bsp *b, const uint64_t *items, size_t s)
{
    const uint64_t *on = bsp_on(b, s);
    for (size_t k = 0; k < b->words; k++) {
        uint64_t w = items[k] & on[k];
        if (w) return b->piece_seg[k * 64 + (size_t)__builtin_ctzll(w)] == s;
    }
    return false;
}

/* ------------------------------------------------------------ the plugin */

static pdt_status bsp_leaf(void *value, void *inst, const pdt_node *node, pdt_error *err)
{
    (void)err;
    const pdt_bsp *b = inst;
    pdt_lex_value *v = value;
    mpz_set_ui(v->p, b->objective == PDT_BSP_NODES);
    mpz_set_ui(v->s, 0);
    v->inf = node->n_items != 0;
    return PDT_OK;
}

static pdt_status bsp_branch(void *value, void *inst, const pdt_node *node, int64_t payload,
                             const void *left, const void *right, pdt_error *err)
{
    (void)err;
    const pdt_bsp *b = inst;
    const pdt_lex_value *l = left, *r = right;
    pdt_lex_value *v = value;
    if (l->inf || r->inf) {
        v->inf = true;
        return PDT_OK;
    }
    unsigned long here = b->objective == PDT_BSP_NODES ? 1
                                                        : bsp_count_segments(b, node->items, bsp_on(b, (size_t)payload));
    if (b->depth_tiebreak) mpz_add_ui(v->s, mpz_cmp(l->s, r->s) >= 0 ? l->s : r->s, 1);
    else mpz_set_ui(v->s, 0);
    mpz_add(v->p, l->p, r->p);
    mpz_add_ui(v->p, v->p, here);
    v->inf = false;
    return PDT_OK;
}

/* Every supporting line present needs a branch node of its own, every
 * segment present at least one fragment. */
static pdt_status bsp_lower_bound(void *value, void *inst, const pdt_node *node, uint32_t budget,
                                  pdt_error *err)
{
    (void)budget;
    (void)err;
    pdt_bsp *b = inst;
    if (++b->stamp_now == 0) {
        memset(b->stamp, 0, b->n * sizeof *b->stamp);
        b->stamp_now = 1;
    }
    uint64_t lines = 0, segs = 0;
    uint32_t last = UINT32_MAX;
    for (size_t k = 0; k < b->words; k++)
        for (uint64_t w = node->items[k]; w; w &= w - 1) {
            uint32_t s = b->piece_seg[k * 64 + (size_t)__builtin_ctzll(w)];
            if (s == last) continue;
            last = s;
            segs++;
            uint32_t line = b->seg[s].line_id;
            if (b->stamp[line] != b->stamp_now) b->stamp[line] = b->stamp_now, lines++;
        }
    pdt_lex_value *v = value;
    mpz_set_ui(v->p, b->objective == PDT_BSP_NODES ? 2 * lines + 1 : segs);
    mpz_set_ui(v->s, b->depth_tiebreak ? least_height(lines) : 0);
    v->inf = false;
    return PDT_OK;
}

static uint32_t bsp_split_count(void *inst, const pdt_node *node)
{
    (void)node;
    return (uint32_t)((const pdt_bsp *)inst)->n;
}

static pdt_status bsp_split(bool *ok, int64_t *payload, pdt_child *left, pdt_child *right, void *inst,
                            const pdt_node *node, uint32_t i, pdt_error *err)
{
    (void)err;
    const pdt_bsp *b = inst;
    *ok = i < b->n && bsp_represents_line(b, node->items, i);
    if (!*ok) return PDT_OK;
    left->n_items = pdt_bits_and(left->items, node->items, bsp_left(b, i), b->words);
    right->n_items = pdt_bits_and(right->items, node->items, bsp_right(b, i), b->words);
    left->n_rules = right->n_rules = 0;
    *payload = i;
    return PDT_OK;
}

PDT_DEFINE_PROBLEM(bsp) = {
    .version = PDT_PROBLEM_V1,
    .name = "bsp",
    .description = "smallest auto-partition of 2-D segments (nodes or fragments, then depth)",
    .flags = PDT_PROBLEM_MEMO,
    .algebra = &pdt_lex_sum_algebra,
    .leaf = bsp_leaf,
    .branch = bsp_branch,
    .lower_bound = bsp_lower_bound,
    .split_count = bsp_split_count,
    .split = bsp_split,
};

/* ------------------------------------------------------------ the solution */

typedef struct replay {
    pdt_bsp *b;
    const int64_t *tree;
    size_t len, pos;
    size_t cap_nodes, cap_frags;
    pdt_bsp_summary sum;
} replay;

static bool push_node(replay *r, int32_t *index)
{
    pdt_bsp *b = r->b;
    if (b->n_nodes == r->cap_nodes) {
        size_t cap = r->cap_nodes ? 2 * r->cap_nodes : 64;
        pdt_bsp_node *x = realloc(b->nodes, cap * sizeof *x);
        if (!x) return false;
        b->nodes = x;
        r->cap_nodes = cap;
    }
    *index = (int32_t)b->n_nodes;
    b->nodes[b->n_nodes++] = (pdt_bsp_node){-1, (uint32_t)b->n_frags, 0, -1, -1};
    return true;
}

/* The fragments stored at a node: one per segment among the pieces x & on. */
static bool store_fragments(replay *r, pdt_bsp_node *node, const uint64_t *items, const uint64_t *on)
{
    pdt_bsp *b = r->b;
    for (size_t p = 0; p < b->n_pieces; p++) {
        if (!pdt_bit_get(items, p) || !pdt_bit_get(on, p)) continue;
        uint32_t s = b->piece_seg[p], j = (uint32_t)p - b->seg[s].first;
        pdt_bsp_fragment *last = node->n_fragments ? &b->frags[b->n_frags - 1] : NULL;
        if (last && last->segment == s && last->last + 1 == j) {
            last->last = j;
            continue;
        }
        if (b->n_frags == r->cap_frags) {
            size_t cap = r->cap_frags ? 2 * r->cap_frags : 64;
            pdt_bsp_fragment *f = realloc(b->frags, cap * sizeof *f);
            if (!f) return false;
            b->frags = f;
            r->cap_frags = cap;
        }
        b->frags[b->n_frags++] = (pdt_bsp_fragment){s, j, j};
        node->n_fragments++;
    }
    return true;
}

static bool replay_node(replay *r, const uint64_t *items, uint32_t depth)
{
    pdt_bsp *b = r->b;
    int32_t me;
    if (r->pos >= r->len || !push_node(r, &me)) return false;
    int64_t s = r->tree[r->pos++];
    r->sum.nodes++;
    if (s == PDT_LEAF) return pdt_bits_count(items, b->words) == 0;
    if (s < 0 || (size_t)s >= b->n || !bsp_represents_line(b, items, (size_t)s)) return false;
    b->nodes[me].segment = (int32_t)s;
    r->sum.branch_nodes++;
    if (depth + 1 > r->sum.depth) r->sum.depth = depth + 1;
    if (!store_fragments(r, &b->nodes[me], items, bsp_on(b, (size_t)s))) return false;
    r->sum.fragments += b->nodes[me].n_fragments;
    uint64_t *l = malloc(2 * b->words * sizeof *l);
    if (!l) return false;
    pdt_bits_and(l, items, bsp_left(b, (size_t)s), b->words);
    pdt_bits_and(l + b->words, items, bsp_right(b, (size_t)s), b->words);
    b->nodes[me].left = (int32_t)b->n_nodes;
    bool ok = replay_node(r, l, depth + 1);
    b->nodes[me].right = (int32_t)b->n_nodes;
    ok = ok && replay_node(r, l + b->words, depth + 1);
    free(l);
    return ok;
}

static pdt_status build_solution(pdt_bsp *b, const pdt_search_result *res, pdt_error *err)
{
    b->n_nodes = b->n_frags = 0;
    replay r = {b, res->tree, res->tree_len, 0, 0, 0, {0}};
    uint64_t *all = calloc(b->words ? b->words : 1, sizeof *all);
    if (!all) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_bits_fill(all, b->n_pieces);
    bool ok = replay_node(&r, all, 0) && r.pos == r.len;
    free(all);
    /* the tree's own value against the reported one (lexicographic); a proven
     * optimum is reproduced exactly, after a time limit the tree may be better */
    uint64_t primary = b->objective == PDT_BSP_NODES ? r.sum.nodes : r.sum.fragments;
    int cmp = -mpz_cmp_ui(b->value.p, primary);
    if (!cmp) cmp = -mpz_cmp_ui(b->value.s, b->depth_tiebreak ? r.sum.depth : 0);
    ok = ok && (res->optimal ? cmp == 0 : cmp <= 0);
    if (!ok)
        return pdt_error_set(err, PDT_EINTERNAL, "bsp: the search returned a tree that does not "
                             "match its value");
    return PDT_OK;
}

pdt_status pdt_bsp_solve(pdt_bsp *b, pdt_bsp_objective objective, bool depth_tiebreak,
                         const pdt_search_opts *opts, pdt_error *err)
{
    pdt_search_opts o;
    if (opts) o = *opts;
    else pdt_search_opts_init(&o);
    o.max_size = o.max_depth = PDT_UNLIMITED;
    b->objective = objective;
    b->depth_tiebreak = depth_tiebreak;
    b->solved = false;
    uint64_t *items = calloc(b->words ? b->words : 1, sizeof *items);
    if (!items) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_bits_fill(items, b->n_pieces);
    pdt_node root = {items, (uint32_t)b->n_pieces, NULL, 0, 0};
    pdt_search_result res = {.value = &b->value};
    pdt_status st = pdt_search(&res, &pdt_problem_class_bsp, b, NULL, b->words, &root, &o, err);
    if (!st && !res.found) st = pdt_error_set(err, PDT_ELIMIT, "bsp: the time limit was reached before the search completed any partition");
    if (!st) {
        b->optimal = res.optimal;
        b->stats = res.stats;
        st = build_solution(b, &res, err);
        b->solved = !st;
    }
    pdt_search_result_clear(&res);
    free(items);
    return st;
}

void pdt_bsp_summarise(pdt_bsp_summary *out, const pdt_bsp *b)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; b->solved && i < b->n_nodes; i++) {
        out->nodes++;
        if (b->nodes[i].segment < 0) continue;
        out->branch_nodes++;
        out->fragments += b->nodes[i].n_fragments;
    }
    /* depth: longest root path of branch nodes */
    uint32_t *d = b->solved && b->n_nodes ? calloc(b->n_nodes, sizeof *d) : NULL;
    for (size_t i = 0; d && i < b->n_nodes; i++) {
        if (b->nodes[i].segment < 0) continue;
        uint32_t here = d[i] + 1;
        if (here > out->depth) out->depth = here;
        d[b->nodes[i].left] = d[b->nodes[i].right] = here;
    }
    free(d);
    out->optimal = b->solved && b->optimal;
}

const pdt_bsp_node *pdt_bsp_tree(const pdt_bsp *bsp, size_t *n_nodes)
{
    *n_nodes = bsp->solved ? bsp->n_nodes : 0;
    return bsp->nodes;
}

const pdt_bsp_fragment *pdt_bsp_fragments(const pdt_bsp *bsp, size_t *n_fragments)
{
    *n_fragments = bsp->solved ? bsp->n_frags : 0;
    return bsp->frags;
}

const pdt_search_stats *pdt_bsp_stats(const pdt_bsp *bsp) { return &bsp->stats; }

/* Endpoint of piece boundary j of segment s: cut j − 1, or an end. */
static void boundary_point(mpq_ptr x, mpq_ptr y, const bsp_segment *s, uint32_t j)
{
    if (j == 0 || j == s->n_pieces) {
        mpq_set(x, j ? s->b.x : s->a.x);
        mpq_set(y, j ? s->b.y : s->a.y);
        return;
    }
    mpq_srcptr lam = s->cuts[j - 1];
    mpq_sub(x, s->b.x, s->a.x);
    mpq_mul(x, x, lam);
    mpq_add(x, x, s->a.x);
    mpq_sub(y, s->b.y, s->a.y);
    mpq_mul(y, y, lam);
    mpq_add(y, y, s->a.y);
}

void pdt_bsp_fragment_ends(mpq_ptr x1, mpq_ptr y1, mpq_ptr x2, mpq_ptr y2, const pdt_bsp *bsp,
                           const pdt_bsp_fragment *f)
{
    const bsp_segment *s = &bsp->seg[f->segment];
    boundary_point(x1, y1, s, f->first);
    boundary_point(x2, y2, s, f->last + 1);
}
