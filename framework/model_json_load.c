/* Loading the JSON result document (docs/formats.md).  Everything is checked:
 * types, names, counts, rules (through the rule class's validate hook) and the
 * consistency of the tree with the summary fields.  Errors name the file and
 * the JSON path; on error nothing is returned and everything is freed. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_json_load.h"

/* ------------------------------------------------------------ names */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static pdt_status check_unique(mload *L, char **names, size_t n)
{
    char **sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted) return pdt_model_json_nomem(L);
    memcpy(sorted, names, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_names);
    pdt_status st = PDT_OK;
    for (size_t k = 1; k < n && st == PDT_OK; k++)
        if (strcmp(sorted[k - 1], sorted[k]) == 0)
            st = pdt_json_error(&L->j, "duplicate name \"%.200s\"", sorted[k]);
    free(sorted);
    return st;
}

/* data.features / data.classes: *names gets a calloc'd array the model owns. */
static pdt_status read_names(mload *L, char ***names, size_t *n, const json_t *obj, const char *key)
{
    const json_t *arr;
    TRY(pdt_json_get(&L->j, &arr, obj, key, true));
    size_t mark = pdt_json_push(&L->j, key);
    TRY(pdt_json_expect(&L->j, arr, JSON_ARRAY, "an array of strings"));
    size_t len = json_array_size(arr);
    *names = calloc(len ? len : 1, sizeof **names);
    if (!*names) return pdt_model_json_nomem(L);
    *n = len;
    for (size_t k = 0; k < len; k++) {
        const json_t *v = json_array_get(arr, k);
        size_t mk = pdt_json_push_index(&L->j, k);
        TRY(pdt_json_expect(&L->j, v, JSON_STRING, "a string"));
        pdt_json_pop(&L->j, mk);
        (*names)[k] = strdup(json_string_value(v));
        if (!(*names)[k]) return pdt_model_json_nomem(L);
    }
    TRY(check_unique(L, *names, len));
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

/* data.categories (optional): {"feature": ["name", ...]} for categorical columns. */
static pdt_status read_categories(mload *L, const json_t *data)
{
    pdt_model *m = L->m;
    const json_t *cats;
    TRY(pdt_json_get(&L->j, &cats, data, "categories", false));
    if (!cats) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, "categories");
    TRY(pdt_json_expect(&L->j, cats, JSON_OBJECT, "an object: feature name -> category names"));
    pdt_status st = pdt_model_alloc_categories(m, NULL);
    if (st != PDT_OK) return pdt_model_json_nomem(L);
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)cats, key, v) {
        size_t j = 0;
        while (j < m->dims && strcmp(m->features[j], key) != 0) j++;
        if (j == m->dims) return pdt_json_error(&L->j, "\"%.200s\" is not in data.features", key);
        size_t k = 0;
        free(m->categories[j]); /* not reached: keys are unique */
        st = read_names(L, &m->categories[j], &k, cats, key);
        m->n_categories[j] = (uint32_t)k; /* freed with the model on error */
        if (st != PDT_OK) return st;
        if (k == 0 || k > UINT32_MAX - 1) {
            size_t mk = pdt_json_push(&L->j, key);
            st = pdt_json_error(&L->j, "expected at least one category name, found %zu", k);
            pdt_json_pop(&L->j, mk);
            return st;
        }
        m->n_categories[j] = (uint32_t)k;
    }
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

static pdt_status read_data(mload *L, const json_t *doc)
{
    pdt_model *m = L->m;
    const json_t *data;
    TRY(pdt_json_get(&L->j, &data, doc, "data", true));
    size_t mark = pdt_json_push(&L->j, "data");
    TRY(pdt_json_expect(&L->j, data, JSON_OBJECT, "an object"));
    TRY(pdt_json_string(&L->j, &m->data_name, data, "name", true));
    uint64_t rows = 0;
    TRY(pdt_json_uint(&L->j, &rows, data, "rows", SIZE_MAX, true));
    m->n_train = (size_t)rows;
    TRY(read_names(L, &m->features, &m->dims, data, "features"));
    TRY(read_names(L, &m->classes, &m->n_classes, data, "classes"));
    if (m->n_classes == 0 || m->n_classes > UINT32_MAX) {
        size_t mk = pdt_json_push(&L->j, "classes");
        pdt_status st = pdt_json_error(&L->j, "expected between 1 and %u classes, found %zu",
                                       UINT32_MAX, m->n_classes);
        pdt_json_pop(&L->j, mk);
        return st;
    }
    TRY(read_categories(L, data));
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

/* ------------------------------------------------------------ tree */

static pdt_status new_node(mload *L, int32_t *index)
{
    pdt_model *m = L->m;
    if (m->n_nodes >= (size_t)INT32_MAX) return pdt_json_error(&L->j, "too many nodes");
    if (m->n_nodes == L->cap_nodes) {
        size_t cap = L->cap_nodes ? 2 * L->cap_nodes : 16;
        if (cap > SIZE_MAX / sizeof(uint64_t) / m->n_classes) return pdt_model_json_nomem(L);
        pdt_tree_node *nodes = realloc(m->nodes, cap * sizeof *nodes);
        if (nodes) m->nodes = nodes;
        uint64_t *counts = nodes ? realloc(m->counts, cap * m->n_classes * sizeof *counts) : NULL;
        if (counts) m->counts = counts;
        if (!nodes || !counts) return pdt_model_json_nomem(L);
        L->cap_nodes = cap;
    }
    *index = (int32_t)m->n_nodes++;
    m->nodes[*index] = (pdt_tree_node){.left = -1, .right = -1, .rule = -1};
    return PDT_OK;
}

static pdt_status read_label(mload *L, uint32_t *label, const json_t *obj)
{
    const json_t *v;
    TRY(pdt_json_get(&L->j, &v, obj, "label", true));
    size_t mark = pdt_json_push(&L->j, "label");
    TRY(pdt_json_expect(&L->j, v, JSON_STRING, "a class name"));
    const char *name = json_string_value(v);
    for (size_t c = 0; c < L->m->n_classes; c++) {
        if (strcmp(L->m->classes[c], name) == 0) {
            *label = (uint32_t)c;
            pdt_json_pop(&L->j, mark);
            return PDT_OK;
        }
    }
    return pdt_json_error(&L->j, "unknown class \"%.200s\" (not in data.classes)", name);
}

static pdt_status read_counts(mload *L, int32_t i, const json_t *obj)
{
    size_t n_classes = L->m->n_classes;
    uint64_t *counts = &L->m->counts[(size_t)i * n_classes], sum = 0;
    const json_t *arr;
    TRY(pdt_json_get(&L->j, &arr, obj, "counts", true));
    size_t mark = pdt_json_push(&L->j, "counts");
    TRY(pdt_json_expect(&L->j, arr, JSON_ARRAY, "an array of counts"));
    if (json_array_size(arr) != n_classes)
        return pdt_json_error(&L->j, "expected %zu counts (one per class), found %zu", n_classes,
                              json_array_size(arr));
    for (size_t c = 0; c < n_classes; c++) {
        size_t mk = pdt_json_push_index(&L->j, c);
        TRY(pdt_json_uint_value(&L->j, &counts[c], json_array_get(arr, c), UINT64_MAX - sum));
        pdt_json_pop(&L->j, mk);
        sum += counts[c];
    }
    if (sum != L->m->nodes[i].n_items)
        return pdt_json_error(&L->j, "the counts sum to %llu, but items is %llu",
                              (unsigned long long)sum, (unsigned long long)L->m->nodes[i].n_items);
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

static pdt_status read_node(mload *L, int32_t *index, const json_t *obj);

static pdt_status read_child(mload *L, int32_t *index, const json_t *obj, const char *key)
{
    const json_t *v;
    TRY(pdt_json_get(&L->j, &v, obj, key, true));
    size_t mark = pdt_json_push(&L->j, key);
    TRY(read_node(L, index, v));
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

/* A branch's items and counts are the sums of its children's. */
static pdt_status check_sums(mload *L, int32_t i)
{
    const pdt_model *m = L->m;
    const pdt_tree_node *n = &m->nodes[i], *l = &m->nodes[n->left], *r = &m->nodes[n->right];
    if (l->n_items > n->n_items || n->n_items - l->n_items != r->n_items)
        return pdt_json_error(&L->j,
                              "items %llu is not the sum of the children's items (%llu + %llu)",
                              (unsigned long long)n->n_items, (unsigned long long)l->n_items,
                              (unsigned long long)r->n_items);
    size_t C = m->n_classes;
    const uint64_t *cn = &m->counts[(size_t)i * C], *cl = &m->counts[(size_t)n->left * C],
                   *cr = &m->counts[(size_t)n->right * C];
    for (size_t c = 0; c < C; c++)
        if (cl[c] > cn[c] || cn[c] - cl[c] != cr[c])
            return pdt_json_error(
                &L->j, "counts[%zu] = %llu is not the sum of the children's (%llu + %llu)", c,
                (unsigned long long)cn[c], (unsigned long long)cl[c], (unsigned long long)cr[c]);
    return PDT_OK;
}

/* ------------------------------------------------------------ multiway nodes */

/* Reserves n ways for node i (contiguous: its children's come after). */
static pdt_status reserve_ways(mload *L, int32_t i, size_t n)
{
    pdt_model *m = L->m;
    if (m->n_ways + n > UINT32_MAX) return pdt_json_error(&L->j, "too many ways");
    if (m->n_ways + n > L->cap_ways) {
        size_t cap = L->cap_ways ? 2 * L->cap_ways : 16;
        while (cap < m->n_ways + n) cap *= 2;
        pdt_tree_way *ways = realloc(m->ways, cap * sizeof *ways);
        if (!ways) return pdt_model_json_nomem(L);
        m->ways = ways;
        L->cap_ways = cap;
    }
    m->nodes[i].first_way = (uint32_t)m->n_ways;
    m->nodes[i].n_ways = (uint32_t)n;
    for (size_t k = 0; k < n; k++) m->ways[m->n_ways + k] = (pdt_tree_way){-1, -1};
    m->n_ways += n;
    return PDT_OK;
}

/* The multiway node's rule: a family that routes. */
static pdt_status read_way_rule(mload *L, int32_t i, const json_t *obj)
{
    const json_t *rule;
    TRY(pdt_json_get(&L->j, &rule, obj, "rule", true));
    size_t mark = pdt_json_push(&L->j, "rule");
    int32_t r = -1;
    TRY(pdt_model_json_rule(L, &r, rule));
    if (!L->m->rules[r].cls->route)
        return pdt_json_error(&L->j, "rule family %s has no ways (a node with \"ways\" needs a multiway rule)",
                              L->m->rules[r].cls->name);
    pdt_json_pop(&L->j, mark);
    L->m->nodes[i].rule = r;
    if (json_object_get(obj, "left") || json_object_get(obj, "right"))
        return pdt_json_error(&L->j, "a node with \"ways\" has no \"left\" or \"right\"");
    return PDT_OK;
}

/* The ways' codes increase; items and counts are the sums of the children's. */
static pdt_status check_way_sums(mload *L, int32_t i)
{
    const pdt_model *m = L->m;
    const pdt_tree_node *n = &m->nodes[i];
    const pdt_tree_way *w = &m->ways[n->first_way];
    size_t C = m->n_classes;
    uint64_t items = 0;
    for (size_t k = 0; k < n->n_ways; k++) {
        if (k && w[k].code <= w[k - 1].code)
            return pdt_json_error(&L->j, "the ways' codes must increase (%lld after %lld)",
                                  (long long)w[k].code, (long long)w[k - 1].code);
        items += m->nodes[w[k].child].n_items;
    }
    if (items != n->n_items)
        return pdt_json_error(&L->j, "items %llu is not the sum of the ways' items (%llu)",
                              (unsigned long long)n->n_items, (unsigned long long)items);
    for (size_t c = 0; c < C; c++) {
        uint64_t sum = 0;
        for (size_t k = 0; k < n->n_ways; k++) sum += m->counts[(size_t)w[k].child * C + c];
        if (sum != m->counts[(size_t)i * C + c])
            return pdt_json_error(&L->j, "counts[%zu] = %llu is not the sum of the ways' (%llu)", c,
                                  (unsigned long long)m->counts[(size_t)i * C + c], (unsigned long long)sum);
    }
    return PDT_OK;
}

/* "ways": [{"code": C, "node": N}, ...]: N a nested node, or (flat) an index
 * after k that is nobody else's child. */
static pdt_status read_ways(mload *L, int32_t i, const json_t *obj, bool flat, size_t k, size_t n_flat,
                            uint8_t *parented)
{
    TRY(read_way_rule(L, i, obj));
    const json_t *arr;
    TRY(pdt_json_get(&L->j, &arr, obj, "ways", true));
    size_t mark = pdt_json_push(&L->j, "ways");
    TRY(pdt_json_expect(&L->j, arr, JSON_ARRAY, "an array of ways"));
    size_t n = json_array_size(arr);
    if (n < 2) return pdt_json_error(&L->j, "expected at least two ways, found %zu", n);
    TRY(reserve_ways(L, i, n));
    uint32_t first = L->m->nodes[i].first_way;
    for (size_t w = 0; w < n; w++) {
        const json_t *way = json_array_get(arr, w);
        size_t mk = pdt_json_push_index(&L->j, w);
        TRY(pdt_json_expect(&L->j, way, JSON_OBJECT, "an object (a way)"));
        uint64_t code = 0;
        TRY(pdt_json_uint(&L->j, &code, way, "code", INT64_MAX, true));
        L->m->ways[first + w].code = (int64_t)code;
        int32_t child = -1;
        if (!flat) {
            TRY(read_child(L, &child, way, "node"));
        } else {
            uint64_t at = 0;
            TRY(pdt_json_uint(&L->j, &at, way, "node", n_flat - 1, true));
            if (at <= k || parented[at]) {
                pdt_json_push(&L->j, "node");
                return at <= k ? pdt_json_error(&L->j, "a child comes after its parent (index > %zu)", k)
                               : pdt_json_error(&L->j, "node %llu is already a child of another node",
                                                (unsigned long long)at);
            }
            parented[at] = 1;
            child = (int32_t)at;
        }
        L->m->ways[first + w].child = child;
        pdt_json_pop(&L->j, mk);
    }
    pdt_json_pop(&L->j, mark);
    return flat ? PDT_OK : check_way_sums(L, i);
}

static pdt_status read_branch(mload *L, int32_t i, const json_t *obj)
{
    if (json_object_get(obj, "ways")) return read_ways(L, i, obj, false, 0, 0, NULL);
    const json_t *rule;
    TRY(pdt_json_get(&L->j, &rule, obj, "rule", true));
    size_t mark = pdt_json_push(&L->j, "rule");
    int32_t r = -1, left = -1, right = -1;
    TRY(pdt_model_json_rule(L, &r, rule));
    if (!L->m->rules[r].cls->classify)
        return pdt_json_error(&L->j, "rule family %s splits in ways: the node needs \"ways\", not \"left\" "
                              "and \"right\"", L->m->rules[r].cls->name);
    pdt_json_pop(&L->j, mark);
    TRY(read_child(L, &left, obj, "left"));
    TRY(read_child(L, &right, obj, "right"));
    pdt_tree_node *n = &L->m->nodes[i];
    n->rule = r;
    n->left = left;
    n->right = right;
    return check_sums(L, i);
}

/* A node's own fields (not its children); *leaf says which kind. */
static pdt_status read_node_fields(mload *L, int32_t *index, bool *leaf, const json_t *obj)
{
    TRY(pdt_json_expect(&L->j, obj, JSON_OBJECT, "an object (a tree node)"));
    int32_t i = -1;
    TRY(new_node(L, &i));
    *index = i;
    *leaf = false;
    uint64_t items = 0;
    TRY(pdt_json_bool(&L->j, leaf, obj, "leaf", false));
    TRY(read_label(L, &L->m->nodes[i].label, obj));
    TRY(pdt_json_uint(&L->j, &items, obj, "items", UINT64_MAX, true));
    L->m->nodes[i].n_items = items;
    TRY(read_counts(L, i, obj));
    if (!*leaf) return PDT_OK;
    static const char *const branch_keys[] = {"rule", "left", "right", "ways"};
    for (size_t k = 0; k < 4; k++)
        if (json_object_get(obj, branch_keys[k]))
            return pdt_json_error(&L->j, "a leaf has no \"%s\"", branch_keys[k]);
    return PDT_OK;
}

/* The flat form of a deep tree (model_json.c): nodes in an array, root
 * first, each branch's "left" and "right" indices of later nodes, every node
 * but the root the child of exactly one branch.  Read without recursion. */
static pdt_status read_flat_tree(mload *L, const json_t *arr)
{
    size_t n = json_array_size(arr);
    if (n == 0) return pdt_json_error(&L->j, "expected at least the root node");
    uint8_t *parented = calloc(n, 1);
    if (!parented) return pdt_model_json_nomem(L);
    pdt_status st = PDT_OK;
    for (size_t k = 0; k < n && st == PDT_OK; k++) {
        size_t mark = pdt_json_push_index(&L->j, k);
        const json_t *obj = json_array_get(arr, k);
        int32_t i = -1;
        bool leaf = false;
        st = read_node_fields(L, &i, &leaf, obj);
        if (st || leaf) {
            if (!st) pdt_json_pop(&L->j, mark);
            continue;
        }
        if (json_object_get(obj, "ways")) {
            st = read_ways(L, i, obj, true, k, n, parented);
            if (!st) pdt_json_pop(&L->j, mark);
            continue;
        }
        const json_t *rule;
        st = pdt_json_get(&L->j, &rule, obj, "rule", true);
        int32_t r = -1;
        uint64_t child[2] = {0, 0};
        static const char *const side[2] = {"left", "right"};
        if (!st) {
            size_t rm = pdt_json_push(&L->j, "rule");
            st = pdt_model_json_rule(L, &r, rule);
            if (!st && !L->m->rules[r].cls->classify)
                st = pdt_json_error(&L->j, "rule family %s splits in ways: the node needs \"ways\"",
                                    L->m->rules[r].cls->name);
            if (!st) pdt_json_pop(&L->j, rm);
        }
        for (int c = 0; c < 2 && !st; c++) {
            st = pdt_json_uint(&L->j, &child[c], obj, side[c], n - 1, true);
            if (!st && (child[c] <= k || parented[child[c]])) {
                pdt_json_push(&L->j, side[c]);
                st = child[c] <= k ? pdt_json_error(&L->j, "a child comes after its parent (index > %zu)", k)
                                   : pdt_json_error(&L->j, "node %llu is already a child of another node",
                                                    (unsigned long long)child[c]);
            }
            if (!st) parented[child[c]] = 1;
        }
        if (!st) {
            L->m->nodes[i].rule = r;
            L->m->nodes[i].left = (int32_t)child[0];
            L->m->nodes[i].right = (int32_t)child[1];
            pdt_json_pop(&L->j, mark);
        }
    }
    /* the sums once every node is read (children come later in the array) */
    for (size_t k = 0; k < n && st == PDT_OK; k++) {
        if (pdt_node_is_leaf(&L->m->nodes[k])) continue;
        size_t mark = pdt_json_push_index(&L->j, k);
        st = L->m->nodes[k].n_ways ? check_way_sums(L, (int32_t)k) : check_sums(L, (int32_t)k);
        if (!st) pdt_json_pop(&L->j, mark);
    }
    for (size_t k = 1; k < n && st == PDT_OK; k++)
        if (!parented[k]) {
            pdt_json_push_index(&L->j, k);
            st = pdt_json_error(&L->j, "node %zu is nobody's child", k);
        }
    free(parented);
    return st;
}

static pdt_status read_tree(mload *L, const json_t *doc)
{
    const json_t *v;
    TRY(pdt_json_get(&L->j, &v, doc, "tree", true));
    if (!json_is_array(v)) {
        int32_t root;
        return read_child(L, &root, doc, "tree");
    }
    size_t mark = pdt_json_push(&L->j, "tree");
    TRY(read_flat_tree(L, v));
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

static pdt_status read_node(mload *L, int32_t *index, const json_t *obj)
{
    bool leaf = false;
    TRY(read_node_fields(L, index, &leaf, obj));
    return leaf ? PDT_OK : read_branch(L, *index, obj);
}

/* ------------------------------------------------------------ summary */

/* objective: a JSON integer or a string holding an exact non-negative rational. */
static pdt_status read_objective(mload *L, const json_t *doc)
{
    const json_t *v;
    TRY(pdt_json_get(&L->j, &v, doc, "objective", true));
    size_t mark = pdt_json_push(&L->j, "objective");
    TRY(pdt_json_rational_value(&L->j, L->m->objective, v));
    if (mpq_sgn(L->m->objective) < 0) return pdt_json_error(&L->j, "the objective is negative");
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

static pdt_status read_limit(mload *L, uint32_t *out, const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) return PDT_OK;
    uint64_t x;
    TRY(pdt_json_uint(&L->j, &x, obj, key, UINT32_MAX - 1, true));
    *out = (uint32_t)x;
    return PDT_OK;
}

static pdt_status read_constraints(mload *L, const json_t *doc)
{
    pdt_model *m = L->m;
    const json_t *c, *w;
    TRY(pdt_json_get(&L->j, &c, doc, "constraints", false));
    if (!c) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, "constraints");
    TRY(pdt_json_expect(&L->j, c, JSON_OBJECT, "an object"));
    TRY(read_limit(L, &m->max_size, c, "size"));
    TRY(read_limit(L, &m->max_depth, c, "depth"));
    uint64_t min_leaf = 0;
    TRY(pdt_json_uint(&L->j, &min_leaf, c, "min_leaf", UINT32_MAX, false));
    m->min_leaf = (uint32_t)min_leaf;
    w = json_object_get(c, "class_weights");
    if (w && !json_is_null(w))
        TRY(pdt_json_string(&L->j, &m->class_weights, c, "class_weights", true));
    w = json_object_get(c, "sparse");
    if (w && !json_is_null(w)) TRY(pdt_json_string(&L->j, &m->sparse, c, "sparse", true));
    TRY(pdt_json_bool(&L->j, &m->lexicographic, c, "lexicographic", false));
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

/* "perfect": what a --perfect fit found and proved (absent: not one). */
static pdt_status read_perfect(mload *L, const json_t *doc)
{
    pdt_perfect_info *p = &L->m->perfect;
    const json_t *o;
    TRY(pdt_json_get(&L->j, &o, doc, "perfect", false));
    if (!o) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, "perfect");
    TRY(pdt_json_expect(&L->j, o, JSON_OBJECT, "an object"));
    char *mode = NULL;
    TRY(pdt_json_string(&L->j, &mode, o, "mode", true));
    bool depth = strcmp(mode, "depth") == 0, size = strcmp(mode, "size") == 0;
    free(mode);
    if (!depth && !size) {
        pdt_json_push(&L->j, "mode");
        return pdt_json_error(&L->j, "expected \"depth\" or \"size\"");
    }
    p->mode = depth ? PDT_PERFECT_DEPTH : PDT_PERFECT_SIZE;
    uint64_t fits = 0;
    TRY(pdt_json_uint(&L->j, &p->floor, o, "floor", UINT64_MAX, true));
    TRY(pdt_json_bool(&L->j, &p->reached, o, "reached", true));
    TRY(pdt_json_bool(&L->j, &p->depth_proven, o, "depth_proven", true));
    TRY(pdt_json_bool(&L->j, &p->size_proven, o, "size_proven", true));
    TRY(pdt_json_uint(&L->j, &fits, o, "fits", UINT32_MAX, false));
    p->fits = (uint32_t)fits;
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

static pdt_status read_seconds(mload *L, double *out, const json_t *obj)
{
    const json_t *v = json_object_get(obj, "seconds");
    if (!v) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, "seconds");
    if (!json_is_number(v)) return pdt_json_error(&L->j, "expected a number of seconds");
    double s = json_number_value(v);
    if (!isfinite(s) || s < 0)
        return pdt_json_error(&L->j, "expected a non-negative number of seconds");
    *out = s;
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

/* "stopped_by" (optional, a model not proven optimal): one of the PDT_STOP_* names. */
static pdt_status read_stopped_by(mload *L, const json_t *doc)
{
    const json_t *v = json_object_get(doc, "stopped_by");
    if (!v) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, "stopped_by");
    if (!json_is_string(v) || !(L->m->stopped_by = pdt_stop_reason(json_string_value(v))))
        return pdt_json_error(&L->j, "expected \"%s\", \"%s\" or \"%s\"", PDT_STOP_TIME, PDT_STOP_MEMORY,
                              PDT_STOP_INTERRUPT);
    if (L->m->optimal) return pdt_json_error(&L->j, "an optimal model was not stopped");
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

static pdt_status read_stats(mload *L, const json_t *doc)
{
    pdt_search_stats *s = &L->m->stats;
    const json_t *o;
    TRY(pdt_json_get(&L->j, &o, doc, "stats", false));
    if (!o) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, "stats");
    TRY(pdt_json_expect(&L->j, o, JSON_OBJECT, "an object"));
    TRY(pdt_json_uint(&L->j, &s->nodes, o, "nodes", UINT64_MAX, false));
    TRY(pdt_json_uint(&L->j, &s->candidates, o, "candidates", UINT64_MAX, false));
    TRY(pdt_json_uint(&L->j, &s->memo_hits, o, "memo_hits", UINT64_MAX, false));
    TRY(pdt_json_uint(&L->j, &s->memo_entries, o, "memo_entries", UINT64_MAX, false));
    TRY(pdt_json_uint(&L->j, &s->pruned, o, "pruned", UINT64_MAX, false));
    uint64_t workers = 0;
    TRY(pdt_json_uint(&L->j, &workers, o, "workers", UINT32_MAX, false));
    s->workers = (uint32_t)workers;
    TRY(pdt_json_uint(&L->j, &s->work_max, o, "work_max", UINT64_MAX, false));
    TRY(pdt_json_uint(&L->j, &s->work_total, o, "work_total", UINT64_MAX, false));
    pdt_json_pop(&L->j, mark);
    s->seconds = L->m->seconds;
    return PDT_OK;
}

static pdt_status read_header(mload *L, const json_t *doc)
{
    char *format = NULL;
    uint64_t version = 0;
    pdt_status st = pdt_json_string(&L->j, &format, doc, "format", true);
    bool ok = st == PDT_OK && strcmp(format, "pdt-result") == 0;
    free(format);
    if (st != PDT_OK) return st;
    if (!ok)
        return pdt_json_error(&L->j, "format: expected \"pdt-result\"; is this a pdt result file?");
    TRY(pdt_json_uint(&L->j, &version, doc, "version", UINT64_MAX, true));
    if (version != 1)
        return pdt_json_error(&L->j, "version: unsupported version %llu (this pdt reads version 1)",
                              (unsigned long long)version);
    TRY(pdt_json_string(&L->j, &L->m->problem, doc, "problem", true));
    if (strcmp(L->m->problem, "classification") != 0)
        return pdt_json_error(
            &L->j, "problem: unsupported problem \"%.200s\" (expected \"classification\")",
            L->m->problem);
    TRY(pdt_json_string(&L->j, &L->m->families, doc, "rules", true));
    char *pdt = NULL;
    st = pdt_json_string(&L->j, &pdt, doc, "pdt", false);
    free(pdt);
    return st;
}

/* ------------------------------------------------------------ consistency */

static uint64_t count_errors(const pdt_model *m)
{
    uint64_t errors = 0;
    for (size_t i = 0; i < m->n_nodes; i++)
        if (pdt_node_is_leaf(&m->nodes[i]))
            errors += m->nodes[i].n_items - m->counts[i * m->n_classes + m->nodes[i].label];
    return errors;
}

static pdt_status check_summary(mload *L, const json_t *doc)
{
    pdt_model *m = L->m;
    uint64_t size = 0, depth = 0, wrong = 0;
    TRY(pdt_json_uint(&L->j, &size, doc, "size", UINT32_MAX, true));
    TRY(pdt_json_uint(&L->j, &depth, doc, "depth", UINT32_MAX, true));
    TRY(pdt_json_uint(&L->j, &wrong, doc, "misclassifications", UINT64_MAX, true));
    pdt_model_measure(m);
    if (size != m->size)
        return pdt_json_error(&L->j, "size: %llu, but the tree has %u branch nodes",
                              (unsigned long long)size, m->size);
    if (depth != m->depth)
        return pdt_json_error(&L->j, "depth: %llu, but the tree has depth %u",
                              (unsigned long long)depth, m->depth);
    m->misclassifications = count_errors(m);
    if (wrong != m->misclassifications)
        return pdt_json_error(&L->j,
                              "misclassifications: %llu, but the leaves misclassify %llu items",
                              (unsigned long long)wrong, (unsigned long long)m->misclassifications);
    if (m->nodes[0].n_items != m->n_train)
        return pdt_json_error(&L->j, "tree.items: %llu, but data.rows is %zu",
                              (unsigned long long)m->nodes[0].n_items, m->n_train);
    return pdt_model_check(m, L->j.err) == PDT_OK ? PDT_OK : pdt_json_prefix(&L->j);
}

static pdt_status read_document(mload *L, const json_t *doc)
{
    if (!json_is_object(doc))
        return pdt_json_error(&L->j, "expected a JSON object at the top level");
    TRY(read_header(L, doc));
    TRY(read_data(L, doc));
    TRY(read_constraints(L, doc));
    TRY(read_perfect(L, doc));
    TRY(pdt_json_string(&L->j, &L->m->engine, doc, "engine", false));
    TRY(read_seconds(L, &L->m->seconds, doc));
    TRY(read_stats(L, doc));
    TRY(read_objective(L, doc));
    TRY(pdt_json_bool(&L->j, &L->m->optimal, doc, "optimal", true));
    TRY(read_stopped_by(L, doc));
    TRY(pdt_json_bool(&L->j, &L->m->size_minimal, doc, "size_minimal", false));
    TRY(read_tree(L, doc));
    TRY(check_summary(L, doc));
    return pdt_model_json_metric(L, doc);
}

static json_t *parse_file(const char *path, pdt_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        pdt_error_set(err, PDT_EIO, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    json_error_t je;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (doc) return doc;
    if (je.line > 0)
        pdt_error_set(err, PDT_EINVAL, "%s:%d:%d: %s", path, je.line, je.column > 0 ? je.column : 1,
                      je.text);
    else
        pdt_error_set(err, PDT_EINVAL, "%s: %s", path, je.text);
    return NULL;
}

pdt_status pdt_model_load_json(pdt_model **out, const char *path, pdt_error *err)
{
    *out = NULL;
    pdt_error local;
    if (!err) err = &local;
    json_t *doc = parse_file(path, err);
    if (!doc) return err->status;
    mload L = {.j = {.file = path, .err = err}};
    pdt_buf_init(&L.j.path);
    pdt_status st = pdt_model_alloc(&L.m, err);
    if (st == PDT_OK) st = read_document(&L, doc);
    for (size_t r = 0; L.m && r < L.m->n_rules; r++) free(L.keys[r]);
    free(L.keys);
    free(L.slots);
    pdt_buf_clear(&L.j.path);
    json_decref(doc);
    if (st != PDT_OK) pdt_model_free(&L.m);
    *out = L.m;
    return st;
}
