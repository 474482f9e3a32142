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
    free_names(m->features, m->dims);
    free_names(m->classes, m->n_classes);
    for (size_t r = 0; r < m->n_rules; r++) pdt_rule_clear(&m->rules[r]);
    free(m->rules);
    free(m->nodes);
    free(m->counts);
    mpq_clear(m->objective);
    free(m->class_weights);
    free(m->sparse);
    free(m->engine);
    free(m);
    *model = NULL;
}

void pdt_model_objective(mpq_ptr out, const pdt_model *model) { mpq_set(out, model->objective); }
bool pdt_model_optimal(const pdt_model *model) { return model->optimal; }
uint32_t pdt_model_size(const pdt_model *model) { return model->size; }
uint32_t pdt_model_depth(const pdt_model *model) { return model->depth; }
size_t pdt_model_classes(const pdt_model *model) { return model->n_classes; }
double pdt_model_seconds(const pdt_model *model) { return model->seconds; }

bool pdt_model_perfect(const pdt_model *model, pdt_perfect_info *info)
{
    *info = model->perfect;
    return model->perfect.mode != PDT_PERFECT_NONE;
}

const char *pdt_model_class_name(const pdt_model *model, size_t c)
{
    return c < model->n_classes ? model->classes[c] : NULL;
}

/* Branch levels below node i (0 for a leaf).  The recursion is as deep as the
 * tree, which the fit bounds by K and the loader by the JSON nesting limit. */
static uint32_t subtree_depth(const pdt_model *m, int32_t i)
{
    const pdt_tree_node *n = &m->nodes[i];
    if (n->left < 0) return 0;
    uint32_t l = subtree_depth(m, n->left), r = subtree_depth(m, n->right);
    return 1 + (l > r ? l : r);
}

void pdt_model_measure(pdt_model *m)
{
    m->size = 0;
    for (size_t i = 0; i < m->n_nodes; i++)
        if (m->nodes[i].left >= 0) m->size++;
    m->depth = m->n_nodes ? subtree_depth(m, 0) : 0;
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
    return PDT_OK;
}

static pdt_status check_node(const pdt_model *m, size_t i, pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[i];
    if (n->label >= m->n_classes)
        return pdt_error_set(err, PDT_EINTERNAL,
                             "model node %zu: label %u out of range (%zu classes)", i, n->label,
                             m->n_classes);
    if (n->left < 0 && n->right < 0 && n->rule < 0) return PDT_OK;
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
    if (!rule->cls->describe) {
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
    while (n->left >= 0) {
        const pdt_rule *rule = &m->rules[n->rule];
        bool left = false;
        pdt_status st = rule->cls->classify(&left, rule, x, m->dims, err);
        if (st != PDT_OK)
            return pdt_error_prefix(err, "rule family %s: classify: ", rule->cls->name);
        n = &m->nodes[left ? n->left : n->right];
    }
    *leaf = (uint32_t)(n - m->nodes);
    return PDT_OK;
}

static pdt_status predict_rows(uint32_t *leaves, const pdt_model *m, const pdt_dataset *ds,
                               const size_t *col, mpq_t *x, pdt_error *err)
{
    size_t rows = pdt_dataset_rows(ds);
    for (size_t i = 0; i < rows; i++) {
        for (size_t j = 0; j < m->dims; j++) pdt_dataset_value_exact(x[j], ds, i, col[j]);
        pdt_status st = walk(&leaves[i], m, (mpq_srcptr)x, err);
        if (st != PDT_OK)
            return pdt_error_prefix(err, "%s: row %zu: ", pdt_dataset_name(ds), i + 1);
    }
    return PDT_OK;
}

static pdt_status check_classifiers(const pdt_model *m, pdt_error *err)
{
    for (size_t r = 0; r < m->n_rules; r++)
        if (!m->rules[r].cls->classify)
            return pdt_error_set(err, PDT_EPLUGIN, "rule family %s cannot classify points",
                                 m->rules[r].cls->name);
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

uint32_t pdt_model_node_label(const pdt_model *model, size_t k)
{
    assert(k < model->n_nodes);
    return model->nodes[k].label;
}

const uint64_t *pdt_model_node_counts(const pdt_model *model, size_t k)
{
    assert(k < model->n_nodes);
    return model->counts + k * model->n_classes;
}

void pdt_model_node_children(int32_t *left, int32_t *right, const pdt_model *model, size_t k)
{
    assert(k < model->n_nodes);
    *left = model->nodes[k].left;
    *right = model->nodes[k].right;
}

pdt_status pdt_model_node_rule(char **text, const pdt_model *model, size_t k, pdt_error *err)
{
    assert(k < model->n_nodes);
    *text = NULL;
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_buf_puts(&b, "");
    const int32_t rule = model->nodes[k].rule;
    pdt_status st = rule >= 0 ? pdt_model_rule_text(&b, model, (size_t)rule, err) : PDT_OK;
    if (st == PDT_OK && (b.failed || !b.data))
        st = pdt_error_set(err, PDT_ENOMEM, "out of memory describing a rule");
    if (st == PDT_OK) {
        *text = b.data;
        b.data = NULL;
    }
    pdt_buf_clear(&b);
    return st;
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
