/* Matrix-chain ordering (He & Little §4.3).  Items: the matrices, a node is
 * an interval A_lo..A_hi of them.  The splitter yields every (prefix, suffix);
 * its payload is the last matrix of the prefix.  A single matrix is a leaf
 * costing 0; a "leaf" holding more than one matrix is infeasible (+∞).
 * E(DN u k v) = E(u) + E(v) + p[lo]·p[k+1]·p[hi+1], exact in GMP.  Intervals
 * are their own memo key, so the cached recursion is the textbook DP. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "dataset_impl.h"
#include "matrix_chain.h"
#include "pdt_render.h"

struct pdt_chain {
    size_t n;     /* matrices */
    mpz_t *p;     /* n + 1 dimensions */
    size_t words; /* item bitset words */
    mpz_t tmp;    /* scratch of branch() */
    uint64_t *p64; /* the dimensions as machine integers, NULL when one needs 62 bits */
    bool small;    /* every product p·p·p stays below PDT_DP_LIMIT */
    /* the solution */
    bool optimal;
    mpz_t cost;
    pdt_chain_node *nodes;
    size_t n_nodes;
    char *order;
    pdt_search_stats stats;
};

/* ------------------------------------------------------------ the plugin */

static uint32_t chain_first(const pdt_chain *c, const pdt_node *node)
{
    return (uint32_t)pdt_bits_next(node->items, 0, c->n);
}

/* b = the items lo..hi. */
static void bits_range(uint64_t *b, size_t words, uint32_t lo, uint32_t hi)
{
    pdt_bits_clear(b, words);
    for (uint32_t w = lo >> 6; w <= hi >> 6; w++) {
        uint64_t m = ~UINT64_C(0);
        if (w == lo >> 6) m &= ~UINT64_C(0) << (lo & 63);
        if (w == hi >> 6) m &= ~UINT64_C(0) >> (63 - (hi & 63));
        b[w] = m;
    }
}

static pdt_status chain_leaf(void *value, void *inst, const pdt_node *node, pdt_error *err)
{
    (void)inst;
    (void)err;
    pdt_mpz_value *v = value;
    mpz_set_ui(v->z, 0);
    v->inf = node->n_items != 1;
    return PDT_OK;
}

static pdt_status chain_branch(void *value, void *inst, const pdt_node *node, int64_t payload,
                               const void *left, const void *right, pdt_error *err)
{
    (void)err;
    pdt_chain *c = inst;
    const pdt_mpz_value *l = left, *r = right;
    pdt_mpz_value *v = value;
    if (l->inf || r->inf) {
        mpz_set_ui(v->z, 0);
        v->inf = true;
        return PDT_OK;
    }
    uint32_t lo = chain_first(c, node), hi = lo + node->n_items - 1;
    mpz_mul(c->tmp, c->p[lo], c->p[payload + 1]);
    mpz_mul(c->tmp, c->tmp, c->p[hi + 1]);
    mpz_add(v->z, l->z, r->z);
    mpz_add(v->z, v->z, c->tmp);
    v->inf = false;
    return PDT_OK;
}

static uint32_t chain_split_count(void *inst, const pdt_node *node)
{
    (void)inst;
    return node->n_items >= 2 ? node->n_items - 1 : 0;
}

static pdt_status chain_split(bool *ok, int64_t *payload, pdt_child *left, pdt_child *right,
                              void *inst, const pdt_node *node, uint32_t i, pdt_error *err)
{
    (void)err;
    const pdt_chain *c = inst;
    uint32_t lo = chain_first(c, node), hi = lo + node->n_items - 1, k = lo + i;
    *ok = k < hi;
    if (!*ok) return PDT_OK;
    bits_range(left->items, c->words, lo, k);
    bits_range(right->items, c->words, k + 1, hi);
    left->n_items = k - lo + 1;
    right->n_items = hi - k;
    left->n_rules = right->n_rules = 0;
    *payload = k;
    return PDT_OK;
}

/* ------------------------------------------------------------ compact keys */

/* The interval lo..hi is the key lo·n + hi: the DP table is the textbook one. */
static pdt_status chain_dp_setup(pdt_dp_info *info, void *inst, const pdt_node *root, pdt_error *err)
{
    (void)root;
    (void)err;
    const pdt_chain *c = inst;
    *info = (pdt_dp_info){.active = c->p64 != NULL, .root = c->n - 1, .n_keys = (uint64_t)c->n * c->n,
                          .max_splits = (uint32_t)c->n, .combine = {PDT_DP_SUM, PDT_DP_UNUSED}};
    return PDT_OK;
}

static bool chain_dp_leaf(uint64_t v[2], void *inst, uint64_t key)
{
    const pdt_chain *c = inst;
    v[0] = v[1] = 0;
    return key / c->n == key % c->n; /* one matrix */
}

/* cost = a·b·d, false when it reaches PDT_DP_LIMIT. */
static bool product3(uint64_t *cost, uint64_t a, uint64_t b, uint64_t d)
{
    uint64_t t;
    return !__builtin_mul_overflow(a, b, &t) && !__builtin_mul_overflow(t, d, cost) && *cost < PDT_DP_LIMIT;
}

/* Split k of lo..hi: children lo..k (key lo·n + k) and k+1..hi ((k+1)·n + hi). */
static uint32_t chain_dp_splits(pdt_dp_splits *out, void *inst, uint64_t key)
{
    const pdt_chain *c = inst;
    const uint64_t n = c->n, lo = key / n, hi = key % n, *p = c->p64 + lo + 1;
    uint64_t *restrict cost = out->cost0;
    const uint32_t m = (uint32_t)(hi - lo);
    out->stepped = true;
    out->left0 = lo * n + lo;
    out->left_step = 1;
    out->right0 = (lo + 1) * n + hi;
    out->right_step = n;
    out->payload0 = (int64_t)lo;
    if (c->small) { /* split i costs p[lo]·p[hi+1] · p[lo+1+i], below the limit */
        out->cost_scale = c->p64[lo] * c->p64[hi + 1];
        out->cost_weight = p;
        return m;
    }
    bool over = false;
    for (uint32_t i = 0; i < m; i++) over |= !product3(&cost[i], c->p64[lo], p[i], c->p64[hi + 1]);
    out->overflow = over;
    return m;
}

static pdt_status chain_dp_value(void *value, void *inst, const uint64_t v[2], pdt_error *err)
{
    (void)inst;
    (void)err;
    pdt_mpz_value *x = value;
    mpz_import(x->z, 1, -1, sizeof v[0], 0, 0, &v[0]);
    x->inf = false;
    return PDT_OK;
}

PDT_DEFINE_PROBLEM(matrix_chain) = {
    .version = PDT_PROBLEM_V1,
    .name = "matrix_chain",
    .description = "fewest scalar multiplications to evaluate a matrix chain",
    .flags = PDT_PROBLEM_MEMO | PDT_PROBLEM_SOLVE_CHILDREN,
    .algebra = &pdt_algebra_min_mpz,
    .leaf = chain_leaf,
    .branch = chain_branch,
    .split_count = chain_split_count,
    .split = chain_split,
    .dp_setup = chain_dp_setup,
    .dp_leaf = chain_dp_leaf,
    .dp_splits = chain_dp_splits,
    .dp_value = chain_dp_value,
};

/* ------------------------------------------------------------ input */

static bool is_separator(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == ','; }

static pdt_status dims_push(mpz_t **dims, size_t *n, size_t *cap, const char *tok, size_t len)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 16;
        mpz_t *d = realloc(*dims, c * sizeof *d);
        if (!d) return PDT_ENOMEM;
        *dims = d;
        *cap = c;
    }
    char *s = strndup(tok, len);
    if (!s) return PDT_ENOMEM;
    mpz_init_set_str((*dims)[*n], s, 10);
    (*n)++;
    free(s);
    return PDT_OK;
}

static bool positive_integer(const char *tok, size_t len)
{
    bool nonzero = false;
    for (size_t i = 0; i < len; i++) {
        if (tok[i] < '0' || tok[i] > '9') return false;
        nonzero = nonzero || tok[i] != '0';
    }
    return nonzero;
}

void pdt_chain_dims_free(mpz_t *dims, size_t n_dims)
{
    for (size_t i = 0; i < n_dims; i++) mpz_clear(dims[i]);
    free(dims);
}

pdt_status pdt_chain_parse_dims(mpz_t **dims, size_t *n_dims, const char *text, size_t len,
                                const char *source, bool is_file, pdt_error *err)
{
    mpz_t *d = NULL;
    size_t n = 0, cap = 0, line = 1, line_start = 0;
    pdt_status st = PDT_OK;
    for (size_t i = 0; i < len && !st;) {
        if (text[i] == '\n') line++, line_start = i + 1;
        if (is_separator(text[i])) {
            i++;
            continue;
        }
        if (text[i] == '#') {
            while (i < len && text[i] != '\n') i++;
            continue;
        }
        size_t j = i;
        while (j < len && !is_separator(text[j]) && text[j] != '#') j++;
        if (!positive_integer(text + i, j - i)) {
            int shown = (int)(j - i < 40 ? j - i : 40);
            if (is_file)
                st = pdt_error_set(err, PDT_EINVAL, "%s:%zu:%zu: \"%.*s\" is not a positive integer dimension",
                                   source, line, i - line_start + 1, shown, text + i);
            else
                st = pdt_error_set(err, PDT_EINVAL, "%s: \"%.*s\" (number %zu) is not a positive integer "
                                   "dimension", source, shown, text + i, n + 1);
        } else if (dims_push(&d, &n, &cap, text + i, j - i)) {
            st = pdt_error_set(err, PDT_ENOMEM, "out of memory reading %s", source);
        }
        i = j;
    }
    if (!st && n < 3)
        st = pdt_error_set(err, PDT_EINVAL, "%s: a chain needs at least two matrices, i.e. three "
                           "dimensions p0 p1 p2 (found %zu number%s)", source, n, n == 1 ? "" : "s");
    if (st) {
        pdt_chain_dims_free(d, n);
        return st;
    }
    *dims = d;
    *n_dims = n;
    return PDT_OK;
}

pdt_status pdt_chain_load_dims(mpz_t **dims, size_t *n_dims, const char *path, pdt_error *err)
{
    char *text = NULL;
    size_t len = 0;
    pdt_status st = pdt_file_read(&text, &len, path, err);
    if (!st) st = pdt_chain_parse_dims(dims, n_dims, text, len, path, true, err);
    free(text);
    return st;
}

/* ------------------------------------------------------------ instance */

/* p64 when every dimension fits 62 bits (else the generic recursion in GMP);
 * small when the largest cube does too, so no product needs checking. */
static void chain_machine_dims(pdt_chain *c, size_t n_dims)
{
    uint64_t top = 0;
    for (size_t i = 0; i < n_dims; i++)
        if (mpz_sizeinbase(c->p[i], 2) > 61) return;
    if (n_dims > SIZE_MAX / 2 / sizeof *c->p64 || !(c->p64 = malloc(n_dims * sizeof *c->p64))) return;
    for (size_t i = 0; i < n_dims; i++) {
        c->p64[i] = (uint64_t)mpz_get_ui(c->p[i]);
        if (c->p64[i] > top) top = c->p64[i];
    }
    uint64_t cube;
    c->small = product3(&cube, top, top, top);
}

pdt_status pdt_chain_new(pdt_chain **out, const mpz_t *dims, size_t n_dims, pdt_error *err)
{
    if (n_dims < 3) return pdt_error_set(err, PDT_EINVAL, "a chain needs at least two matrices");
    if (n_dims - 1 >= UINT32_MAX / 2) return pdt_error_set(err, PDT_ELIMIT, "too many matrices");
    for (size_t i = 0; i < n_dims; i++)
        if (mpz_sgn(dims[i]) <= 0)
            return pdt_error_set(err, PDT_EINVAL, "dimension p%zu is not positive", i);
    pdt_chain *c = calloc(1, sizeof *c);
    if (!c || !(c->p = malloc(n_dims * sizeof *c->p))) {
        free(c);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    c->n = n_dims - 1;
    c->words = pdt_bits_words(c->n);
    for (size_t i = 0; i < n_dims; i++) mpz_init_set(c->p[i], dims[i]);
    mpz_inits(c->tmp, c->cost, NULL);
    chain_machine_dims(c, n_dims);
    *out = c;
    return PDT_OK;
}

void pdt_chain_free(pdt_chain **chain)
{
    if (!chain || !*chain) return;
    pdt_chain *c = *chain;
    for (size_t i = 0; i <= c->n; i++) mpz_clear(c->p[i]);
    free(c->p);
    free(c->p64);
    mpz_clears(c->tmp, c->cost, NULL);
    free(c->nodes);
    free(c->order);
    free(c);
    *chain = NULL;
}

size_t pdt_chain_matrices(const pdt_chain *chain) { return chain->n; }
mpz_srcptr pdt_chain_dim(const pdt_chain *chain, size_t i) { return chain->p[i]; }
void pdt_chain_cost(mpz_ptr out, const pdt_chain *chain) { mpz_set(out, chain->cost); }
bool pdt_chain_optimal(const pdt_chain *chain) { return chain->optimal; }
const char *pdt_chain_order(const pdt_chain *chain) { return chain->order; }
const pdt_search_stats *pdt_chain_stats(const pdt_chain *chain) { return &chain->stats; }

const pdt_chain_node *pdt_chain_tree(const pdt_chain *chain, size_t *n_nodes)
{
    *n_nodes = chain->n_nodes;
    return chain->nodes;
}

/* ------------------------------------------------------------ the solution */

typedef struct replay {
    pdt_chain *c;
    const int64_t *tree;
    size_t len, pos;
    mpz_t cost, tmp; /* the cost recomputed from the tree */
} replay;

/* Rebuilds node lo..hi from the preorder payloads and adds its cost. */
static bool replay_node(replay *r, uint32_t lo, uint32_t hi, int32_t *index)
{
    pdt_chain *c = r->c;
    if (r->pos >= r->len || c->n_nodes >= 2 * c->n) return false;
    int64_t k = r->tree[r->pos++];
    size_t me = c->n_nodes++;
    *index = (int32_t)me;
    c->nodes[me] = (pdt_chain_node){lo, hi, -1, -1};
    if (k == PDT_LEAF) return lo == hi;
    if (k < lo || k >= hi) return false;
    mpz_mul(r->tmp, c->p[lo], c->p[k + 1]);
    mpz_addmul(r->cost, r->tmp, c->p[hi + 1]);
    int32_t l = -1, rr = -1;
    bool ok = replay_node(r, lo, (uint32_t)k, &l) && replay_node(r, (uint32_t)k + 1, hi, &rr);
    c->nodes[me].left = l;
    c->nodes[me].right = rr;
    return ok;
}

static size_t order_length(const pdt_chain *c, size_t node)
{
    const pdt_chain_node *x = &c->nodes[node];
    if (x->left < 0) return 1 + (size_t)snprintf(NULL, 0, "%u", x->lo + 1);
    return 2 + order_length(c, (size_t)x->left) + order_length(c, (size_t)x->right);
}

static char *order_write(const pdt_chain *c, size_t node, char *s)
{
    const pdt_chain_node *x = &c->nodes[node];
    if (x->left < 0) return s + sprintf(s, "A%u", x->lo + 1);
    *s++ = '(';
    s = order_write(c, (size_t)x->left, s);
    s = order_write(c, (size_t)x->right, s);
    *s++ = ')';
    return s;
}

static pdt_status build_solution(pdt_chain *c, const pdt_search_result *res, pdt_error *err)
{
    free(c->nodes);
    free(c->order);
    c->order = NULL;
    c->n_nodes = 0;
    c->nodes = malloc(2 * c->n * sizeof *c->nodes);
    if (!c->nodes) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    replay r = {c, res->tree, res->tree_len, 0, {{0}}, {{0}}};
    mpz_inits(r.cost, r.tmp, NULL);
    int32_t root = -1;
    bool ok = replay_node(&r, 0, (uint32_t)c->n - 1, &root) && r.pos == r.len;
    /* A proven optimum is reproduced exactly; after a time limit the subtrees
     * are re-derived as "at least as good as found", so the tree may be better. */
    int cmp = mpz_cmp(r.cost, c->cost);
    ok = ok && (res->optimal ? cmp == 0 : cmp <= 0);
    mpz_set(c->cost, r.cost);
    mpz_clears(r.cost, r.tmp, NULL);
    if (!ok)
        return pdt_error_set(err, PDT_EINTERNAL, "matrix chain: the search returned a tree that "
                             "does not match its value");
    c->order = malloc(order_length(c, 0) + 1);
    if (!c->order) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    *order_write(c, 0, c->order) = '\0';
    return PDT_OK;
}

pdt_status pdt_chain_solve(pdt_chain *c, const pdt_search_opts *opts, pdt_error *err)
{
    pdt_search_opts o;
    if (opts) o = *opts;
    else pdt_search_opts_init(&o);
    o.max_size = o.max_depth = PDT_UNLIMITED;
    uint64_t *items = calloc(c->words, sizeof *items);
    if (!items) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_bits_fill(items, c->n);
    pdt_node root = {items, (uint32_t)c->n, NULL, 0, 0};
    pdt_mpz_value v;
    mpz_init(v.z);
    v.inf = false;
    pdt_search_result res = {.value = &v};
    pdt_status st = pdt_search(&res, &pdt_problem_class_matrix_chain, c, NULL, c->words, &root, &o, err);
    if (!st && !res.found)
        st = pdt_error_set(err, PDT_ELIMIT, "matrix chain: the time limit was reached before the search completed any order");
    if (!st) {
        mpz_set(c->cost, v.z);
        c->optimal = res.optimal;
        c->stats = res.stats;
        st = build_solution(c, &res, err);
    }
    pdt_search_result_clear(&res);
    mpz_clear(v.z);
    free(items);
    return st;
}
