/* The fitted model: allocation, accessors, shape and prediction. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"

pdt_status pdt_model_alloc(pdt_model **out, pdt_error *err)
{
    *out = NULL;
    pdt_model *m = calloc(1, sizeof *m);
    if (!m) return pdt_error_set(err, PDT_ENOMEM, "out of memory allocating a model");
    mpq_init(m->objective);
    m->max_size = PDT_UNLIMITED;
    m->max_depth = PDT_UNLIMITED;
    *out = m;
    return PDT_OK;
}

static void free_names(char **names, size_t n)
{
    if (!names) return;
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

void pdt_model_free(pdt_model **model)
{
    if (!model || !*model) return;
    pdt_model *m = *model;
    free(m->problem);
    free(m->families);
    free(m->data_name);
    pdt_model_free_categories(m);
    free_names(m->features, m->dims);
    free_names(m->classes, m->n_classes);
    for (size_t r = 0; r < m->n_rules; r++) pdt_rule_clear(&m->rules[r]);
    free(m->rules);
    free(m->nodes);
    free(m->ways);
    free(m->counts);
    mpq_clear(m->objective);
    free(m->class_weights);
    free(m->sparse);
    free(m->front);
    free(m->engine);
    free(m);
    *model = NULL;
}

void pdt_model_objective(mpq_ptr out, const pdt_model *model) { mpq_set(out, model->objective); }
bool pdt_model_optimal(const pdt_model *model) { return model->optimal; }

const char *pdt_model_stopped_by(const pdt_model *model) { return model->optimal ? NULL : model->stopped_by; }

const char *pdt_stop_reason(const char *text)
{
    static const char *const known[] = {PDT_STOP_TIME, PDT_STOP_MEMORY, PDT_STOP_INTERRUPT};
    for (size_t k = 0; text && k < sizeof known / sizeof *known; k++)
        if (!strcmp(text, known[k])) return known[k];
    return NULL;
}
bool pdt_model_size_minimal(const pdt_model *model) { return model->size_minimal; }
uint32_t pdt_model_size(const pdt_model *model) { return model->size; }
uint32_t pdt_model_depth(const pdt_model *model) { return model->depth; }
size_t pdt_model_classes(const pdt_model *model) { return model->n_classes; }
double pdt_model_seconds(const pdt_model *model) { return model->seconds; }

uint32_t pdt_model_work(const pdt_model *model, uint64_t *most, uint64_t *total)
{
    *most = model->stats.work_max;
    *total = model->stats.work_total;
    return model->stats.workers;
}

bool pdt_model_perfect(const pdt_model *model, pdt_perfect_info *info)
{
    *info = model->perfect;
    return model->perfect.mode != PDT_PERFECT_NONE;
}

const char *pdt_model_class_name(const pdt_model *model, size_t c)
{
    return c < model->n_classes ? model->classes[c] : NULL;
}

/* Children follow their parents: depths from the last node up, no recursion. */
void pdt_model_measure(pdt_model *m)
{
    m->size = 0;
    m->depth = 0;
    uint32_t *below = calloc(m->n_nodes ? m->n_nodes : 1, sizeof *below);
    for (size_t i = m->n_nodes; below && i-- > 0;) {
        const pdt_tree_node *n = &m->nodes[i];
        if (pdt_node_is_leaf(n)) continue;
        m->size++;
        uint32_t d = 0;
        if (n->left >= 0) d = below[n->left] > below[n->right] ? below[n->left] : below[n->right];
        for (size_t w = 0; w < n->n_ways; w++) {
            uint32_t c = below[m->ways[n->first_way + w].child];
            if (c > d) d = c;
        }
        below[i] = d + 1;
    }
    if (below && m->n_nodes) m->depth = below[0];
    free(below);
}

static pdt_status copy_names(char ***out, size_t n, const pdt_dataset *ds,
                             const char *(*name)(const pdt_dataset *, size_t), pdt_error *err)
{
    *out = NULL;
    char **names = calloc(n ? n : 1, sizeof *names);
    if (!names) return pdt_error_set(err, PDT_ENOMEM, "out of memory copying names");
    for (size_t i = 0; i < n; i++) {
        names[i] = strdup(name(ds, i));
        if (!names[i]) {
            free_names(names, i);
            return pdt_error_set(err, PDT_ENOMEM, "out of memory copying names");
        }
    }
    *out = names;
    return PDT_OK;
}

void pdt_model_free_categories(pdt_model *m)
{
    for (size_t j = 0; m->categories && j < m->dims; j++)
        free_names(m->categories[j], m->n_categories[j]);
    free(m->categories);
    free(m->n_categories);
    m->categories = NULL;
    m->n_categories = NULL;
}

pdt_status pdt_model_alloc_categories(pdt_model *m, pdt_error *err)
{
    if (m->categories) return PDT_OK;
    m->categories = calloc(m->dims ? m->dims : 1, sizeof *m->categories);
    m->n_categories = calloc(m->dims ? m->dims : 1, sizeof *m->n_categories);
    if (m->categories && m->n_categories) return PDT_OK;
    pdt_model_free_categories(m);
    return pdt_error_set(err, PDT_ENOMEM, "out of memory (category names)");
}

static pdt_status copy_categories(pdt_model *m, const pdt_dataset *ds, pdt_error *err)
{
    if (!pdt_dataset_has_categorical(ds)) return PDT_OK;
    pdt_status st = pdt_model_alloc_categories(m, err);
    for (size_t j = 0; j < m->dims && st == PDT_OK; j++) {
        size_t k = pdt_dataset_categories(ds, j);
        if (!pdt_dataset_is_categorical(ds, j)) continue;
        m->categories[j] = calloc(k ? k : 1, sizeof **m->categories);
        if (!m->categories[j]) return pdt_error_set(err, PDT_ENOMEM, "out of memory (category names)");
        m->n_categories[j] = (uint32_t)k;
        for (size_t v = 0; v < k && st == PDT_OK; v++) {
            m->categories[j][v] = strdup(pdt_dataset_category_name(ds, j, v));
            if (!m->categories[j][v]) st = pdt_error_set(err, PDT_ENOMEM, "out of memory (category names)");
        }
    }
    return st;
}

pdt_status pdt_model_set_names(pdt_model *m, const pdt_dataset *ds, pdt_error *err)
{
    char **features, **classes;
    size_t dims = pdt_dataset_dims(ds), n_classes = pdt_dataset_classes(ds);
    pdt_status st = copy_names(&features, dims, ds, pdt_dataset_feature_name, err);
    if (st != PDT_OK) return st;
    st = copy_names(&classes, n_classes, ds, pdt_dataset_class_name, err);
    if (st != PDT_OK) {
        free_names(features, dims);
        return st;
    }
    free_names(m->features, m->dims);
    free_names(m->classes, m->n_classes);
    m->features = features;
    m->dims = dims;
    m->classes = classes;
    m->n_classes = n_classes;
    pdt_model_free_categories(m);
    return copy_categories(m, ds, err);
}

/* A multiway node: ways in range, children after it and distinct, codes distinct, a routing rule. */
static pdt_status check_ways(const pdt_model *m, size_t i, pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[i];
    if (n->left >= 0 || n->right >= 0 || n->first_way > m->n_ways || n->n_ways > m->n_ways - n->first_way)
        return pdt_error_set(err, PDT_EINTERNAL, "model node %zu: bad ways", i);
    if (n->rule < 0 || (size_t)n->rule >= m->n_rules || !m->rules[n->rule].cls ||
        !m->rules[n->rule].cls->route)
        return pdt_error_set(err, PDT_EINTERNAL, "model node %zu: ways without a multiway rule", i);
    const pdt_tree_way *w = &m->ways[n->first_way];
    for (size_t k = 0; k < n->n_ways; k++) {
        if (w[k].child <= (int64_t)i || (size_t)w[k].child >= m->n_nodes)
            return pdt_error_set(err, PDT_EINTERNAL, "model node %zu: bad child %d", i, (int)w[k].child);
        if (k && (w[k].code <= w[k - 1].code || w[k].child <= w[k - 1].child))
            return pdt_error_set(err, PDT_EINTERNAL, "model node %zu: ways out of order", i);
    }
    return PDT_OK;
}

static pdt_status check_node(const pdt_model *m, size_t i, pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[i];
    if (n->label >= m->n_classes)
        return pdt_error_set(err, PDT_EINTERNAL,
                             "model node %zu: label %u out of range (%zu classes)", i, n->label,
                             m->n_classes);
    if (n->left < 0 && n->right < 0 && n->rule < 0 && n->n_ways == 0) return PDT_OK;
    if (n->n_ways) return check_ways(m, i, err);
    if (n->left <= (int64_t)i || n->right <= (int64_t)i || (size_t)n->left >= m->n_nodes ||
        (size_t)n->right >= m->n_nodes || n->left == n->right)
        return pdt_error_set(err, PDT_EINTERNAL, "model node %zu: bad children %d and %d", i,
                             (int)n->left, (int)n->right);
    if (n->rule < 0 || (size_t)n->rule >= m->n_rules || !m->rules[n->rule].cls)
        return pdt_error_set(err, PDT_EINTERNAL, "model node %zu: bad rule index %d", i,
                             (int)n->rule);
    return PDT_OK;
}

pdt_status pdt_model_check(const pdt_model *m, pdt_error *err)
{
    if (m->n_nodes == 0 || !m->nodes)
        return pdt_error_set(err, PDT_EINVAL, "the model has no tree");
    if (m->n_classes == 0 || !m->classes || !m->counts)
        return pdt_error_set(err, PDT_EINVAL, "the model has no classes");
    if (m->dims && !m->features)
        return pdt_error_set(err, PDT_EINTERNAL, "the model has no feature names");
    for (size_t i = 0; i < m->n_nodes; i++) {
        pdt_status st = check_node(m, i, err);
        if (st != PDT_OK) return st;
    }
    return PDT_OK;
}

static void generic_rule_text(pdt_buf *out, const pdt_rule *rule)
{
    pdt_buf_printf(out, "%s(", rule->cls->name);
    for (size_t k = 0; k < rule->n_ints; k++)
        pdt_buf_printf(out, "%s%lld", k ? ", " : "", (long long)rule->ints[k]);
    pdt_buf_puts(out, "; ");
    for (size_t k = 0; k < rule->n_rats; k++) {
        if (k) pdt_buf_puts(out, ", ");
        pdt_buf_mpq(out, rule->rats[k]);
    }
    pdt_buf_puts(out, ")");
}

pdt_status pdt_model_rule_text(pdt_buf *out, const pdt_model *m, size_t r, pdt_error *err)
{
    const pdt_rule *rule = &m->rules[r];
    if (m->categories && rule->cls->describe_categorical) {
        pdt_status st = rule->cls->describe_categorical(out, rule, (const char *const *)m->features,
                                                        (const char *const *const *)m->categories,
                                                        m->n_categories, m->dims, err);
        if (st != PDT_OK)
            return pdt_error_prefix(err, "rule family %s: describe: ", rule->cls->name);
    } else if (!rule->cls->describe) {
        generic_rule_text(out, rule);
    } else {
        pdt_status st =
            rule->cls->describe(out, rule, (const char *const *)m->features, m->dims, err);
        if (st != PDT_OK)
            return pdt_error_prefix(err, "rule family %s: describe: ", rule->cls->name);
    }
    if (out->failed) return pdt_error_set(err, PDT_ENOMEM, "out of memory describing a rule");
    return PDT_OK;
}

pdt_status pdt_model_way_text(pdt_buf *out, const pdt_model *m, size_t i, size_t w, pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[i];
    const pdt_rule *rule = &m->rules[n->rule];
    int64_t code = m->ways[n->first_way + w].code;
    pdt_status st = PDT_OK;
    if (rule->cls->describe_way)
        st = rule->cls->describe_way(out, rule, code, (const char *const *)m->features,
                                     (const char *const *const *)m->categories, m->n_categories, m->dims, err);
    else
        pdt_buf_printf(out, "way %lld", (long long)code);
    if (st != PDT_OK) return pdt_error_prefix(err, "rule family %s: describe: ", rule->cls->name);
    if (out->failed) return pdt_error_set(err, PDT_ENOMEM, "out of memory describing a rule");
    return PDT_OK;
}

/* ------------------------------------------------------------ prediction */

static pdt_status map_features(size_t *col, const pdt_model *m, const pdt_dataset *ds,
                               pdt_error *err)
{
    for (size_t j = 0; j < m->dims; j++) {
        col[j] = pdt_dataset_find_feature(ds, m->features[j]);
        if (col[j] == SIZE_MAX)
            return pdt_error_set(err, PDT_EINVAL, "%s: no feature \"%s\" (the model needs it)",
                                 pdt_dataset_name(ds), m->features[j]);
    }
    return PDT_OK;
}

/* Leaf reached by the point x; the walk ends because children follow parents. */
static pdt_status walk(uint32_t *leaf, const pdt_model *m, mpq_srcptr x, pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[0];
    while (!pdt_node_is_leaf(n)) {
        const pdt_rule *rule = &m->rules[n->rule];
        if (n->n_ways) { /* the way of x's code; none: the node's label */
            int64_t code = -1;
            pdt_status st = rule->cls->route(&code, rule, x, m->dims, err);
            if (st != PDT_OK) return pdt_error_prefix(err, "rule family %s: route: ", rule->cls->name);
            const pdt_tree_way *w = &m->ways[n->first_way];
            size_t k = 0;
            while (k < n->n_ways && w[k].code != code) k++;
            if (k == n->n_ways) break;
            n = &m->nodes[w[k].child];
            continue;
        }
        bool left = false;
        pdt_status st = rule->cls->classify(&left, rule, x, m->dims, err);
        if (st != PDT_OK)
            return pdt_error_prefix(err, "rule family %s: classify: ", rule->cls->name);
        n = &m->nodes[left ? n->left : n->right];
    }
    *leaf = (uint32_t)(n - m->nodes);
    return PDT_OK;
}

/* The model's code of a category name, or -1 for a category it never saw
 * (numbers compare as numbers: "1" is "1.0"). */
static int64_t model_code(const pdt_model *m, size_t j, const char *name, mpq_ptr a, mpq_ptr b)
{
    for (size_t v = 0; v < m->n_categories[j]; v++)
        if (strcmp(m->categories[j][v], name) == 0) return (int64_t)v;
    if (!pdt_parse_rational(a, name, strlen(name))) return -1;
    for (size_t v = 0; v < m->n_categories[j]; v++) {
        const char *s = m->categories[j][v];
        if (pdt_parse_rational(b, s, strlen(s)) && mpq_equal(a, b)) return (int64_t)v;
    }
    return -1;
}

/* A categorical column of the model reads the data's category names (or, in
 * a numeric column, its numbers as names): code_of[j][c] is the model's code
 * of the data's code c, -1 when unseen; numeric data map value by value. */
typedef struct category_map {
    int64_t **code_of; /* dims; NULL for a numeric model column.  Indexed by the data's
                          category code, or, for numeric data, by the value's rank */
    bool *by_rank;     /* dims: numeric data (its numbers name the categories) */
} category_map;

static void category_map_clear(category_map *cm, size_t dims)
{
    for (size_t j = 0; cm->code_of && j < dims; j++) free(cm->code_of[j]);
    free(cm->code_of);
    free(cm->by_rank);
}

/* Numeric data in a categorical model column: each distinct value (by rank)
 * to the model's code of the category that number names, -1 when none; the
 * names are parsed once, each value compared once. */
static pdt_status map_numbers(int64_t *code_of, const pdt_model *m, size_t j, const pdt_dataset *ds,
                              size_t c, pdt_error *err)
{
    size_t k = m->n_categories[j], n = pdt_dataset_rows(ds);
    mpq_t *names = malloc((k ? k : 1) * sizeof *names);
    bool *numeric = malloc((k ? k : 1) * sizeof *numeric);
    if (!names || !numeric) {
        free(names), free(numeric);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory predicting");
    }
    for (size_t v = 0; v < k; v++) {
        mpq_init(names[v]);
        const char *s = m->categories[j][v];
        numeric[v] = pdt_parse_rational(names[v], s, strlen(s));
    }
    for (size_t r = 0; r < pdt_dataset_distinct(ds, c); r++) code_of[r] = -2; /* not seen yet */
    mpq_t x;
    mpq_init(x);
    for (size_t i = 0; i < n; i++) {
        int64_t *code = &code_of[pdt_dataset_rank(ds, i, c)];
        if (*code != -2) continue;
        pdt_dataset_value_exact(x, ds, i, c);
        *code = -1;
        for (size_t v = 0; v < k && *code < 0; v++)
            if (numeric[v] && mpq_equal(names[v], x)) *code = (int64_t)v;
    }
    mpq_clear(x);
    for (size_t v = 0; v < k; v++) mpq_clear(names[v]);
    free(names), free(numeric);
    return PDT_OK;
}

static pdt_status category_map_init(category_map *cm, const pdt_model *m, const pdt_dataset *ds,
                                    const size_t *col, pdt_error *err)
{
    cm->code_of = NULL;
    cm->by_rank = NULL;
    if (!m->categories) return PDT_OK;
    cm->code_of = calloc(m->dims ? m->dims : 1, sizeof *cm->code_of);
    cm->by_rank = calloc(m->dims ? m->dims : 1, sizeof *cm->by_rank);
    if (!cm->code_of || !cm->by_rank) return pdt_error_set(err, PDT_ENOMEM, "out of memory predicting");
    mpq_t a, b;
    mpq_init(a);
    mpq_init(b);
    pdt_status st = PDT_OK;
    for (size_t j = 0; j < m->dims && st == PDT_OK; j++) {
        if (!m->categories[j]) continue;
        bool categorical = pdt_dataset_is_categorical(ds, col[j]);
        size_t k = categorical ? pdt_dataset_categories(ds, col[j]) : pdt_dataset_distinct(ds, col[j]);
        cm->by_rank[j] = !categorical;
        cm->code_of[j] = malloc((k ? k : 1) * sizeof **cm->code_of);
        if (!cm->code_of[j]) st = pdt_error_set(err, PDT_ENOMEM, "out of memory predicting");
        else if (!categorical) st = map_numbers(cm->code_of[j], m, j, ds, col[j], err);
        for (size_t c = 0; categorical && c < k && st == PDT_OK; c++)
            cm->code_of[j][c] = model_code(m, j, pdt_dataset_category_name(ds, col[j], c), a, b);
    }
    mpq_clear(a);
    mpq_clear(b);
    return st;
}

/* Model column j of row i: a category's model code (-1 unseen) or the number. */
static pdt_status model_value(mpq_ptr x, const pdt_model *m, const category_map *cm,
                              const pdt_dataset *ds, size_t i, size_t j, size_t c, pdt_error *err)
{
    if (!m->categories || !m->categories[j]) {
        if (pdt_dataset_is_categorical(ds, c))
            return pdt_error_set(err, PDT_EINVAL, "%s: column \"%s\" holds categories where the model "
                                 "reads numbers", pdt_dataset_name(ds), m->features[j]);
        pdt_dataset_value_exact(x, ds, i, c);
        return PDT_OK;
    }
    size_t at = cm->by_rank[j] ? pdt_dataset_rank(ds, i, c) : (size_t)pdt_dataset_value(ds, i, c);
    mpq_set_si(x, cm->code_of[j][at], 1);
    return PDT_OK;
}

static pdt_status predict_rows(uint32_t *leaves, const pdt_model *m, const pdt_dataset *ds,
                               const size_t *col, mpq_t *x, pdt_error *err)
{
    size_t rows = pdt_dataset_rows(ds);
    category_map cm;
    pdt_status st = category_map_init(&cm, m, ds, col, err);
    for (size_t i = 0; i < rows && st == PDT_OK; i++) {
        for (size_t j = 0; j < m->dims && st == PDT_OK; j++)
            st = model_value(x[j], m, &cm, ds, i, j, col[j], err);
        if (st == PDT_OK) st = walk(&leaves[i], m, (mpq_srcptr)x, err);
        if (st != PDT_OK) st = pdt_error_prefix(err, "%s: row %zu: ", pdt_dataset_name(ds), i + 1);
    }
    category_map_clear(&cm, m->dims);
    return st;
}

static pdt_status check_classifiers(const pdt_model *m, pdt_error *err)
{
    for (size_t i = 0; i < m->n_nodes; i++) {
        const pdt_tree_node *n = &m->nodes[i];
        if (pdt_node_is_leaf(n)) continue;
        const pdt_rule_class *cls = m->rules[n->rule].cls;
        if (n->n_ways ? !cls->route : !cls->classify)
            return pdt_error_set(err, PDT_EPLUGIN, "rule family %s cannot classify points", cls->name);
    }
    return PDT_OK;
}

pdt_status pdt_model_predict(uint32_t *classes, const pdt_model *model, const pdt_dataset *ds,
                             pdt_error *err)
{
    pdt_status st = pdt_model_apply(classes, model, ds, err);
    for (size_t i = 0; st == PDT_OK && i < pdt_dataset_rows(ds); i++)
        classes[i] = model->nodes[classes[i]].label;
    return st;
}

size_t pdt_model_nodes(const pdt_model *model) { return model->n_nodes; }
size_t pdt_model_dims(const pdt_model *model) { return model->dims; }

const char *pdt_model_feature_name(const pdt_model *model, size_t j)
{
    assert(j < model->dims);
    return model->features[j];
}

pdt_status pdt_model_apply(uint32_t *leaves, const pdt_model *model, const pdt_dataset *ds,
                           pdt_error *err)
{
    pdt_status st = pdt_model_check(model, err);
    if (st == PDT_OK) st = check_classifiers(model, err);
    if (st != PDT_OK) return st;
    size_t dims = model->dims;
    size_t *col = malloc((dims ? dims : 1) * sizeof *col);
    mpq_t *x = malloc((dims ? dims : 1) * sizeof *x);
    if (!col || !x) {
        free(col);
        free(x);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory predicting");
    }
    for (size_t j = 0; j < dims; j++) mpq_init(x[j]);
    st = map_features(col, model, ds, err);
    if (st == PDT_OK) st = predict_rows(leaves, model, ds, col, x, err);
    for (size_t j = 0; j < dims; j++) mpq_clear(x[j]);
    free(x);
    free(col);
    return st;
}
