/* Optimal k-D trees (He & Little §4.4).  Items: the data points.  The
 * splitter of a node at level ℓ tries every point p of the node as its root:
 * with d = order[ℓ mod |order|], the left child gets the points q with
 * q[d] < p[d] and the right child the others but p (ties go right).  A leaf
 * holding a point is infeasible (every point is stored in a branch node); an
 * empty leaf costs (0, 0).  E(DN u p v) adds the weight of the node's points
 * to the access cost (each of them is one level deeper than in u or v, and p
 * is at depth 0) and one level to the height.  Coordinates are compared by
 * their exact ranks; weights are exact rationals scaled to integers. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "kdtree.h"
#include "lexpair.h"

struct pdt_kdtree {
    const pdt_dataset *ds;
    size_t n, words, n_order;
    uint32_t *order;
    pdt_kd_objective objective;
    uint64_t *less; /* ((dim · n) + p) · words: the points q with q[dim] < p[dim] */
    mpz_t *w;       /* weight · scale, integers */
    uint64_t *w64;  /* the same as machine integers when their total fits in 62 bits, else NULL */
    mpz_t scale;    /* lcm of the weights' denominators */
    mpz_t sum;      /* scratch */
    /* compact keys (see kd_dp_setup): one split dimension and distinct
     * coordinates make every node an interval of the sorted points */
    uint32_t *sorted;   /* the points by coordinate order[0], or NULL */
    uint64_t *prefix;   /* prefix[k] = weight of sorted[0..k) */
    uint32_t set_bits;  /* point sets that fit one word: the key's level sits above this bit */
    /* the solution */
    bool optimal;
    mpq_t cost;
    uint32_t height;
    pdt_kd_node *nodes;
    size_t n_nodes;
    pdt_search_stats stats;
};

/* ------------------------------------------------------------ the plugin */

static const uint64_t *kd_less(const pdt_kdtree *t, uint32_t dim, size_t p)
{
    return t->less + ((size_t)dim * t->n + p) * t->words;
}

/* Weight of the items: machine integers on the fast path (every call of
 * kd_branch and kd_lower_bound sums a node's items), GMP beyond. */
static void weight_sum(mpz_ptr out, const pdt_kdtree *t, const uint64_t *items)
{
    if (t->w64) {
        uint64_t s = 0;
        for (size_t i = pdt_bits_next(items, 0, t->n); i < t->n; i = pdt_bits_next(items, i + 1, t->n))
            s += t->w64[i];
        mpz_import(out, 1, -1, sizeof s, 0, 0, &s);
        return;
    }
    mpz_set_ui(out, 0);
    for (size_t i = pdt_bits_next(items, 0, t->n); i < t->n; i = pdt_bits_next(items, i + 1, t->n))
        mpz_add(out, out, t->w[i]);
}

/* Levels of a complete binary tree with n nodes: the least possible height. */
static unsigned least_height(uint32_t n)
{
    unsigned h = 0;
    while (n) n >>= 1, h++;
    return h;
}

static pdt_status kd_leaf(void *value, void *inst, const pdt_node *node, pdt_error *err)
{
    (void)inst;
    (void)err;
    pdt_lex_value *v = value;
    mpz_set_ui(v->p, 0);
    mpz_set_ui(v->s, 0);
    v->inf = node->n_items != 0;
    return PDT_OK;
}

/* (access, height) of a branch from its children's; `sum` = weight of the node. */
static pdt_status kd_branch(void *value, void *inst, const pdt_node *node, int64_t payload,
                            const void *left, const void *right, pdt_error *err)
{
    (void)payload;
    (void)err;
    pdt_kdtree *t = inst;
    const pdt_lex_value *l = left, *r = right;
    pdt_lex_value *v = value;
    if (l->inf || r->inf) {
        v->inf = true;
        return PDT_OK;
    }
    weight_sum(t->sum, t, node->items);
    bool access = t->objective == PDT_KD_ACCESS;
    mpz_srcptr la = access ? l->p : l->s, ra = access ? r->p : r->s;
    mpz_srcptr lh = access ? l->s : l->p, rh = access ? r->s : r->p;
    mpz_ptr va = access ? v->p : v->s, vh = access ? v->s : v->p;
    mpz_add(t->sum, t->sum, la);
    mpz_add(t->sum, t->sum, ra);
    mpz_add_ui(vh, mpz_cmp(lh, rh) >= 0 ? lh : rh, 1);
    mpz_set(va, t->sum);
    v->inf = false;
    return PDT_OK;
}

/* Any tree on the node's points: each is at depth >= 0, so access >= their
 * weight; the height is at least that of a complete tree. */
static pdt_status kd_lower_bound(void *value, void *inst, const pdt_node *node, uint32_t budget,
                                 pdt_error *err)
{
    (void)budget;
    (void)err;
    pdt_kdtree *t = inst;
    pdt_lex_value *v = value;
    bool access = t->objective == PDT_KD_ACCESS;
    weight_sum(access ? v->p : v->s, t, node->items);
    mpz_set_ui(access ? v->s : v->p, least_height(node->n_items));
    v->inf = false;
    return PDT_OK;
}

static uint32_t kd_split_count(void *inst, const pdt_node *node)
{
    (void)inst;
    return node->n_items;
}

/* Index of the i-th set bit (0-based) of items. */
static size_t nth_item(const uint64_t *items, size_t words, uint32_t i)
{
    for (size_t k = 0; k < words; k++) {
        uint64_t x = items[k];
        uint32_t c = (uint32_t)__builtin_popcountll(x);
        if (i >= c) {
            i -= c;
            continue;
        }
        while (i--) x &= x - 1;
        return k * 64 + (size_t)__builtin_ctzll(x);
    }
    return SIZE_MAX;
}

static pdt_status kd_split(bool *ok, int64_t *payload, pdt_child *left, pdt_child *right,
                           void *inst, const pdt_node *node, uint32_t i, pdt_error *err)
{
    (void)err;
    const pdt_kdtree *t = inst;
    size_t p = nth_item(node->items, t->words, i);
    *ok = p < t->n;
    if (!*ok) return PDT_OK;
    const uint64_t *less = kd_less(t, t->order[node->depth % t->n_order], p);
    left->n_items = pdt_bits_and(left->items, node->items, less, t->words);
    pdt_bits_andnot(right->items, node->items, less, t->words);
    pdt_bit_reset(right->items, p);
    right->n_items = node->n_items - left->n_items - 1;
    left->n_rules = right->n_rules = 0;
    *payload = (int64_t)p;
    return PDT_OK;
}

/* The optimum of a node depends on its points and on which dimension its level splits. */
static uint64_t kd_memo_key(void *inst, const pdt_node *node)
{
    const pdt_kdtree *t = inst;
    return node->depth % t->n_order;
}

/* ------------------------------------------------------------ compact keys */

/* Two compact forms, both for access then height, (Σ, max):
 * - intervals: one split dimension (an order of length 1) and distinct
 *   coordinates in it: a node is sorted[i..j), key i·(n+1) + j, dense;
 * - point sets: n + bits(|order|) < 64: key = the node's points as a word
 *   with its level mod |order| above them, hashed.
 * Otherwise (or weights beyond 62 bits, or height first) the generic
 * recursion runs. */
static pdt_status kd_dp_setup(pdt_dp_info *info, void *inst, const pdt_node *root, pdt_error *err)
{
    (void)root;
    (void)err;
    const pdt_kdtree *t = inst;
    *info = (pdt_dp_info){.max_splits = (uint32_t)t->n, .combine = {PDT_DP_SUM, PDT_DP_MAX}};
    if (!t->w64 || t->objective != PDT_KD_ACCESS) return PDT_OK;
    if (t->sorted) {
        info->active = true;
        info->root = t->n; /* [0, n) */
        info->n_keys = (uint64_t)(t->n + 1) * (t->n + 1);
    } else if (t->set_bits) {
        info->active = true;
        info->root = (UINT64_C(1) << t->n) - 1; /* every point, level 0 */
    }
    return PDT_OK;
}

static bool kd_dp_leaf(uint64_t v[2], void *inst, uint64_t key)
{
    const pdt_kdtree *t = inst;
    v[0] = v[1] = 0;
    if (t->sorted) return key / (t->n + 1) >= key % (t->n + 1); /* an empty interval */
    return (key & ((UINT64_C(1) << t->set_bits) - 1)) == 0;
}

static uint32_t kd_dp_interval_splits(pdt_dp_splits *out, const pdt_kdtree *t, uint64_t key)
{
    const uint64_t m = t->n + 1, i = key / m, j = key % m;
    if (i >= j) return 0;
    const uint64_t w = t->prefix[j] - t->prefix[i];
    for (uint64_t r = i; r < j; r++) {
        uint32_t k = (uint32_t)(r - i);
        out->left[k] = i * m + r;
        out->right[k] = (r + 1) * m + j;
        out->payload[k] = t->sorted[r];
        out->cost0[k] = w;
        out->cost1[k] = 1;
    }
    return (uint32_t)(j - i);
}

static uint32_t kd_dp_set_splits(pdt_dp_splits *out, const pdt_kdtree *t, uint64_t key)
{
    const uint64_t items = key & ((UINT64_C(1) << t->set_bits) - 1);
    const uint32_t level = (uint32_t)(key >> t->set_bits), dim = t->order[level];
    const uint64_t next = (uint64_t)((level + 1) % t->n_order) << t->set_bits;
    uint64_t w = 0;
    for (uint64_t b = items; b; b &= b - 1) w += t->w64[__builtin_ctzll(b)];
    uint32_t k = 0;
    for (uint64_t b = items; b; b &= b - 1, k++) {
        uint32_t p = (uint32_t)__builtin_ctzll(b);
        uint64_t less = *kd_less(t, dim, p);
        out->left[k] = (items & less) | next;
        out->right[k] = (items & ~less & ~(UINT64_C(1) << p)) | next;
        out->payload[k] = p;
        out->cost0[k] = w;
        out->cost1[k] = 1;
    }
    return k;
}

static uint32_t kd_dp_splits(pdt_dp_splits *out, void *inst, uint64_t key)
{
    const pdt_kdtree *t = inst;
    return t->sorted ? kd_dp_interval_splits(out, t, key) : kd_dp_set_splits(out, t, key);
}

static pdt_status kd_dp_value(void *value, void *inst, const uint64_t v[2], pdt_error *err)
{
    (void)inst;
    (void)err;
    pdt_lex_value *x = value;
    mpz_import(x->p, 1, -1, sizeof v[0], 0, 0, &v[0]);
    mpz_import(x->s, 1, -1, sizeof v[1], 0, 0, &v[1]);
    x->inf = false;
    return PDT_OK;
}

PDT_DEFINE_PROBLEM(kdtree) = {
    .version = PDT_PROBLEM_V1,
    .name = "kdtree",
    .description = "k-D tree with the least weighted access cost, then the least height",
    .flags = PDT_PROBLEM_MEMO,
    .algebra = &pdt_lex_sum_algebra,
    .leaf = kd_leaf,
    .branch = kd_branch,
    .lower_bound = kd_lower_bound,
    .split_count = kd_split_count,
    .split = kd_split,
    .memo_key = kd_memo_key,
    .dp_setup = kd_dp_setup,
    .dp_leaf = kd_dp_leaf,
    .dp_splits = kd_dp_splits,
    .dp_value = kd_dp_value,
};

/* The same problem with the criteria swapped (the primary is now a maximum). */
static const pdt_problem_class kdtree_height_class = {
    .version = PDT_PROBLEM_V1,
    .name = "kdtree",
    .description = "k-D tree with the least height, then the least weighted access cost",
    .flags = PDT_PROBLEM_MEMO,
    .algebra = &pdt_lex_max_algebra,
    .leaf = kd_leaf,
    .branch = kd_branch,
    .lower_bound = kd_lower_bound,
    .split_count = kd_split_count,
    .split = kd_split,
    .memo_key = kd_memo_key,
};

/* ------------------------------------------------------------ instance */

static pdt_status order_item(uint32_t *dim, const pdt_dataset *ds, const char *item, size_t len,
                             pdt_error *err)
{
    char name[256];
    if (len == 0 || len >= sizeof name)
        return pdt_error_set(err, PDT_EINVAL, "option --order: empty or overlong dimension name");
    memcpy(name, item, len);
    name[len] = '\0';
    size_t j = pdt_dataset_find_feature(ds, name);
    if (j == SIZE_MAX && strspn(name, "0123456789") == len && len < 9) {
        size_t k = (size_t)atoi(name);
        if (k >= 1 && k <= pdt_dataset_dims(ds)) j = k - 1;
    }
    if (j == SIZE_MAX) {
        pdt_buf names;
        pdt_buf_init(&names);
        for (size_t k = 0; k < pdt_dataset_dims(ds); k++)
            pdt_buf_printf(&names, "%s%s", k ? ", " : "", pdt_dataset_feature_name(ds, k));
        pdt_status st = pdt_error_set(err, PDT_EINVAL, "option --order: no dimension \"%s\" "
                                      "(dimensions: %s)", name, names.data ? names.data : "");
        pdt_buf_clear(&names);
        return st;
    }
    *dim = (uint32_t)j;
    return PDT_OK;
}

pdt_status pdt_kdtree_parse_order(uint32_t **order, size_t *n_order, const pdt_dataset *ds,
                                  const char *spec, pdt_error *err)
{
    size_t cap = 1;
    for (const char *p = spec; *p; p++) cap += *p == ',';
    uint32_t *o = malloc(cap * sizeof *o);
    if (!o) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    size_t n = 0;
    pdt_status st = PDT_OK;
    for (const char *p = spec; !st;) {
        size_t len = strcspn(p, ",");
        st = order_item(&o[n], ds, p, len, err);
        n += !st;
        if (!p[len]) break;
        p += len + 1;
    }
    if (st) {
        free(o);
        return st;
    }
    *order = o;
    *n_order = n;
    return PDT_OK;
}

/* Integer weights with a common denominator: w_i = weight_i · scale. */
static pdt_status kd_weights(pdt_kdtree *t, pdt_error *err)
{
    t->w = malloc((t->n ? t->n : 1) * sizeof *t->w);
    if (!t->w) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    mpq_t q;
    mpq_init(q);
    mpz_set_ui(t->scale, 1);
    for (size_t i = 0; i < t->n; i++) {
        pdt_dataset_weight_exact(q, t->ds, i);
        mpz_lcm(t->scale, t->scale, mpq_denref(q));
    }
    for (size_t i = 0; i < t->n; i++) {
        pdt_dataset_weight_exact(q, t->ds, i);
        mpz_init(t->w[i]);
        mpz_divexact(t->w[i], t->scale, mpq_denref(q));
        mpz_mul(t->w[i], t->w[i], mpq_numref(q));
    }
    mpq_clear(q);
    mpz_t total; /* every node's sum is at most the total: 62 bits leave no room to overflow */
    mpz_init(total);
    bool negative = false;
    for (size_t i = 0; i < t->n; i++) mpz_add(total, total, t->w[i]), negative |= mpz_sgn(t->w[i]) < 0;
    if (!negative && mpz_sizeinbase(total, 2) <= 62 && (t->w64 = calloc(t->n + 1, sizeof *t->w64)))
        for (size_t i = 0; i < t->n; i++) mpz_export(&t->w64[i], NULL, -1, sizeof *t->w64, 0, 0, t->w[i]);
    mpz_clear(total);
    return PDT_OK;
}

static pdt_status kd_less_sets(pdt_kdtree *t, pdt_error *err)
{
    size_t dims = pdt_dataset_dims(t->ds);
    t->less = calloc(dims * t->n * t->words + 1, sizeof *t->less);
    if (!t->less) return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu points)", t->n);
    for (size_t d = 0; d < dims; d++)
        for (size_t p = 0; p < t->n; p++) {
            uint64_t *b = t->less + (d * t->n + p) * t->words;
            uint32_t rp = pdt_dataset_rank(t->ds, p, d);
            for (size_t q = 0; q < t->n; q++)
                if (pdt_dataset_rank(t->ds, q, d) < rp) pdt_bit_set(b, q);
        }
    return PDT_OK;
}

/* Which compact form the instance has (kd_dp_setup), if any. */
static pdt_status kd_compact(pdt_kdtree *t, pdt_error *err)
{
    if (!t->w64) return PDT_OK;
    uint32_t level_bits = 0;
    while ((UINT64_C(1) << level_bits) < t->n_order) level_bits++;
    if (t->n_order > 1 || t->n < 2) {
        if (t->n + level_bits <= 63) t->set_bits = (uint32_t)t->n;
        return PDT_OK;
    }
    t->sorted = malloc(t->n * sizeof *t->sorted);
    t->prefix = malloc((t->n + 1) * sizeof *t->prefix);
    if (!t->sorted || !t->prefix) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    /* distinct coordinates have the ranks 0..n-1: the rank is the position */
    bool distinct = true;
    memset(t->sorted, 0xff, t->n * sizeof *t->sorted);
    for (uint32_t i = 0; i < t->n && distinct; i++) {
        uint32_t r = pdt_dataset_rank(t->ds, i, t->order[0]);
        distinct = r < t->n && t->sorted[r] == UINT32_MAX;
        if (distinct) t->sorted[r] = i;
    }
    t->prefix[0] = 0;
    for (uint32_t k = 0; k < t->n && distinct; k++) t->prefix[k + 1] = t->prefix[k] + t->w64[t->sorted[k]];
    if (!distinct) { /* equal coordinates: children are no longer intervals */
        free(t->sorted);
        free(t->prefix);
        t->sorted = NULL;
        t->prefix = NULL;
        if (t->n <= 63) t->set_bits = (uint32_t)t->n;
    }
    return PDT_OK;
}

pdt_status pdt_kdtree_new(pdt_kdtree **out, const pdt_dataset *ds, const uint32_t *order,
                          size_t n_order, pdt_kd_objective objective, pdt_error *err)
{
    size_t dims = pdt_dataset_dims(ds), n = pdt_dataset_rows(ds);
    if (dims == 0) return pdt_error_set(err, PDT_EINVAL, "%s: no coordinate columns", pdt_dataset_name(ds));
    if (n == 0) return pdt_error_set(err, PDT_EINVAL, "%s: no points", pdt_dataset_name(ds));
    if (n >= UINT32_MAX / 4) return pdt_error_set(err, PDT_ELIMIT, "%s: too many points", pdt_dataset_name(ds));
    for (size_t k = 0; order && k < n_order; k++)
        if (order[k] >= dims) return pdt_error_set(err, PDT_EINVAL, "dimension order: no dimension %u", order[k]);
    pdt_kdtree *t = calloc(1, sizeof *t);
    if (!t) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    t->ds = ds;
    t->n = n;
    t->words = pdt_bits_words(n);
    t->objective = objective;
    t->n_order = order && n_order ? n_order : dims;
    mpz_inits(t->scale, t->sum, NULL);
    mpq_init(t->cost);
    pdt_status st = (t->order = malloc(t->n_order * sizeof *t->order)) ? PDT_OK
                                                                       : pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t k = 0; !st && k < t->n_order; k++) t->order[k] = order && n_order ? order[k] : (uint32_t)k;
    if (!st) st = kd_weights(t, err);
    if (!st) st = kd_less_sets(t, err);
    if (!st) st = kd_compact(t, err);
    if (st) {
        pdt_kdtree_free(&t);
        return st;
    }
    *out = t;
    return PDT_OK;
}

void pdt_kdtree_free(pdt_kdtree **tree)
{
    if (!tree || !*tree) return;
    pdt_kdtree *t = *tree;
    if (t->w)
        for (size_t i = 0; i < t->n; i++) mpz_clear(t->w[i]);
    free(t->w);
    free(t->w64);
    free(t->less);
    free(t->sorted);
    free(t->prefix);
    free(t->order);
    free(t->nodes);
    mpz_clears(t->scale, t->sum, NULL);
    mpq_clear(t->cost);
    free(t);
    *tree = NULL;
}

void pdt_kdtree_cost(mpq_ptr out, const pdt_kdtree *tree) { mpq_set(out, tree->cost); }
uint32_t pdt_kdtree_height(const pdt_kdtree *tree) { return tree->height; }
bool pdt_kdtree_optimal(const pdt_kdtree *tree) { return tree->optimal; }
const pdt_search_stats *pdt_kdtree_stats(const pdt_kdtree *tree) { return &tree->stats; }
const pdt_dataset *pdt_kdtree_dataset(const pdt_kdtree *tree) { return tree->ds; }

const pdt_kd_node *pdt_kdtree_nodes(const pdt_kdtree *tree, size_t *n_nodes)
{
    *n_nodes = tree->n_nodes;
    return tree->nodes;
}

/* ------------------------------------------------------------ the solution */

typedef struct replay {
    pdt_kdtree *t;
    const int64_t *tree;
    size_t len, pos;
    mpz_t access; /* Σ w·(depth + 1), recomputed from the tree */
    uint32_t height;
} replay;

/* Rebuilds the subtree of the points `items` at `depth` from the payloads. */
static bool replay_node(replay *r, uint64_t *items, uint32_t depth, int32_t *index)
{
    pdt_kdtree *t = r->t;
    if (r->pos >= r->len || t->n_nodes >= 2 * t->n + 1) return false;
    int64_t p = r->tree[r->pos++];
    size_t me = t->n_nodes++;
    *index = (int32_t)me;
    uint32_t dim = t->order[depth % t->n_order];
    t->nodes[me] = (pdt_kd_node){-1, dim, -1, -1};
    if (p == PDT_LEAF) return pdt_bits_count(items, t->words) == 0;
    if (p < 0 || (size_t)p >= t->n || !pdt_bit_get(items, (size_t)p)) return false;
    t->nodes[me].point = (int32_t)p;
    mpz_addmul_ui(r->access, t->w[p], depth + 1);
    if (depth + 1 > r->height) r->height = depth + 1;
    uint64_t *l = malloc(2 * t->words * sizeof *l), *rr = l + t->words;
    if (!l) return false;
    const uint64_t *less = kd_less(t, dim, (size_t)p);
    pdt_bits_and(l, items, less, t->words);
    pdt_bits_andnot(rr, items, less, t->words);
    pdt_bit_reset(rr, (size_t)p);
    int32_t li = -1, ri = -1;
    bool ok = replay_node(r, l, depth + 1, &li) && replay_node(r, rr, depth + 1, &ri);
    t->nodes[me].left = li;
    t->nodes[me].right = ri;
    free(l);
    return ok;
}

static pdt_status build_solution(pdt_kdtree *t, const pdt_search_result *res, const pdt_lex_value *v,
                                 pdt_error *err)
{
    free(t->nodes);
    t->n_nodes = 0;
    t->nodes = malloc((2 * t->n + 1) * sizeof *t->nodes);
    uint64_t *all = calloc(t->words, sizeof *all);
    if (!t->nodes || !all) {
        free(all);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    pdt_bits_fill(all, t->n);
    replay r = {t, res->tree, res->tree_len, 0, {{0}}, 0};
    mpz_init(r.access);
    int32_t root = -1;
    bool ok = replay_node(&r, all, 0, &root) && r.pos == r.len;
    /* the tree's own value against the reported one (lexicographic); a proven
     * optimum is reproduced exactly, after a time limit the tree may be better */
    bool access_first = t->objective == PDT_KD_ACCESS;
    mpz_t h;
    mpz_init_set_ui(h, r.height);
    int cmp = mpz_cmp(access_first ? r.access : h, v->p);
    if (!cmp) cmp = mpz_cmp(access_first ? h : r.access, v->s);
    mpz_clear(h);
    ok = ok && (res->optimal ? cmp == 0 : cmp <= 0);
    mpq_set_num(t->cost, r.access);
    mpq_set_den(t->cost, t->scale);
    mpq_canonicalize(t->cost);
    t->height = r.height;
    mpz_clear(r.access);
    free(all);
    if (!ok)
        return pdt_error_set(err, PDT_EINTERNAL, "k-D tree: the search returned a tree that does "
                             "not match its value");
    return PDT_OK;
}

pdt_status pdt_kdtree_solve(pdt_kdtree *t, const pdt_search_opts *opts, pdt_error *err)
{
    pdt_search_opts o;
    if (opts) o = *opts;
    else pdt_search_opts_init(&o);
    o.max_size = o.max_depth = PDT_UNLIMITED;
    uint64_t *items = calloc(t->words, sizeof *items);
    if (!items) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_bits_fill(items, t->n);
    pdt_node root = {items, (uint32_t)t->n, NULL, 0, 0};
    pdt_lex_value v;
    pdt_lex_sum_algebra.init(&v);
    pdt_search_result res = {.value = &v};
    const pdt_problem_class *pc =
        t->objective == PDT_KD_ACCESS ? &pdt_problem_class_kdtree : &kdtree_height_class;
    pdt_status st = pdt_search(&res, pc, t, NULL, t->words, &root, &o, err);
    if (!st && !res.found) st = pdt_error_set(err, PDT_ELIMIT, "k-D tree: the time limit was reached before the search completed any tree");
    if (!st) {
        t->optimal = res.optimal;
        t->stats = res.stats;
        st = build_solution(t, &res, &v, err);
    }
    pdt_search_result_clear(&res);
    pdt_lex_sum_algebra.clear(&v);
    free(items);
    return st;
}
