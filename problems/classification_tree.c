/* A classification model from a tree of exact standalone rules, for
 * specialised backends that find the optimum without a candidate list: the
 * training rows flow down the tree through each rule's classify on their
 * exact coordinates (the same exact side tests as training), every node gets
 * its class counts and majority label, and the objective is recomputed from
 * the leaves. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "classification.h"

typedef struct tree_build {
    pdt_model *m;
    const cls_inst *ci;
    const int32_t *pre;
    size_t len, pos;
    mpq_t *x;        /* n·D exact coordinates, when the dataset keeps none */
    int64_t cost;
    pdt_error *err;
} tree_build;

static char *copy_text(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

pdt_status cls_describe_model(pdt_model *m, const pdt_dataset *ds, const pdt_fit_options *opt,
                                  const char *engine, pdt_error *err)
{
    pdt_status st = pdt_model_set_names(m, ds, err);
    if (st) return st;
    m->problem = copy_text("classification");
    m->families = copy_text(opt->rules ? opt->rules : "");
    m->data_name = copy_text(pdt_dataset_name(ds));
    m->class_weights = copy_text(opt->class_weights);
    m->sparse = copy_text(opt->sparse);
    m->lexicographic = opt->lexicographic;
    m->engine = copy_text(engine);
    m->n_train = pdt_dataset_rows(ds);
    m->max_size = opt->max_size;
    m->max_depth = opt->max_depth;
    m->min_leaf = opt->min_leaf;
    if (!m->problem || !m->families || !m->data_name || !m->engine ||
        (opt->class_weights && !m->class_weights) || (opt->sparse && !m->sparse))
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    return PDT_OK;
}

static pdt_status build_node(tree_build *b, const uint64_t *items, int32_t *out)
{
    pdt_model *m = b->m;
    if (b->pos >= b->len) return pdt_error_set(b->err, PDT_EINTERNAL, "truncated tree");
    size_t idx = m->n_nodes++, d = m->dims, words = b->ci->words;
    *out = (int32_t)idx;
    pdt_tree_node *nd = &m->nodes[idx];
    uint64_t *counts = m->counts + idx * m->n_classes;
    cls_counts(counts, b->ci, items);
    int64_t leaf = cls_leaf_cost(b->ci, counts, &nd->label);
    nd->n_items = pdt_bits_count(items, words);
    nd->left = nd->right = nd->rule = -1;
    int32_t r = b->pre[b->pos++];
    if (r < 0) {
        b->cost += leaf;
        m->misclassifications += nd->n_items - counts[nd->label];
        return PDT_OK;
    }
    if ((size_t)r >= m->n_rules) return pdt_error_set(b->err, PDT_EINTERNAL, "tree names rule %d of %zu", r, m->n_rules);
    nd->rule = r;
    uint64_t *child = calloc(2 * words + 1, sizeof *child);
    if (!child) return pdt_error_set(b->err, PDT_ENOMEM, "out of memory");
    const pdt_rule *rule = &m->rules[r];
    pdt_status st = PDT_OK;
    const size_t n = pdt_dataset_rows(b->ci->ds);
    for (size_t i = 0; i < n; i++) {
        if (!pdt_bit_get(items, i)) continue;
        bool left = false;
        mpq_srcptr row = b->x ? b->x[i * d] : pdt_dataset_row_exact(b->ci->ds, i);
        st = rule->cls->classify(&left, rule, row, d, b->err);
        if (st) break;
        pdt_bit_set(child + (left ? 0 : words), i);
    }
    int32_t l = -1, rt = -1;
    if (!st) st = build_node(b, child, &l);
    if (!st) st = build_node(b, child + words, &rt);
    free(child);
    m->nodes[idx].left = l;
    m->nodes[idx].right = rt;
    return st;
}

/* The rows' exact coordinates for classify: none to make when the dataset
 * keeps them (then *x stays NULL), else converted here (n·D to clear). */
static pdt_status coordinates(mpq_t **x, const pdt_dataset *ds, pdt_error *err)
{
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    *x = NULL;
    if (n > 0 && pdt_dataset_row_exact(ds, 0)) return PDT_OK;
    *x = malloc((n * d + 1) * sizeof **x);
    if (!*x) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++) {
            mpq_init((*x)[i * d + j]);
            pdt_dataset_value_exact((*x)[i * d + j], ds, i, j);
        }
    return PDT_OK;
}

static void clear_coordinates(mpq_t *x, size_t count)
{
    for (size_t k = 0; x && k < count; k++) mpq_clear(x[k]);
    free(x);
}

static pdt_status grow(pdt_model *m, const cls_inst *ci, pdt_rule *rules, size_t n_rules,
                       const int32_t *pre, size_t len, int64_t *cost, pdt_error *err)
{
    size_t n = pdt_dataset_rows(ci->ds), d = pdt_dataset_dims(ci->ds);
    m->nodes = calloc(len + 1, sizeof *m->nodes);
    m->counts = calloc((len + 1) * m->n_classes, sizeof *m->counts);
    m->rules = calloc(n_rules + 1, sizeof *m->rules);
    uint64_t *all = calloc(ci->words + 1, sizeof *all);
    mpq_t *x = NULL;
    pdt_status st = PDT_OK;
    if (!m->nodes || !m->counts || !m->rules || !all) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (!st) st = coordinates(&x, ci->ds, err);
    if (!st) {
        for (size_t r = 0; r < n_rules; r++) m->rules[r] = rules[r], memset(&rules[r], 0, sizeof *rules);
        m->n_rules = n_rules;
        pdt_bits_fill(all, n);
        tree_build b = {m, ci, pre, len, 0, x, 0, err};
        int32_t root;
        st = build_node(&b, all, &root);
        if (!st && b.pos != len) st = pdt_error_set(err, PDT_EINTERNAL, "tree longer than its nodes");
        *cost = b.cost;
    }
    clear_coordinates(x, n * d);
    free(all);
    return st;
}

pdt_status cls_model_from_tree(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt,
                               pdt_rule *rules, size_t n_rules, const int32_t *pre, size_t len,
                               int64_t expected, const char *engine, pdt_error *err)
{
    *out = NULL;
    cls_inst ci;
    pdt_model *m = NULL;
    int64_t cost = 0;
    pdt_status st = cls_inst_init(&ci, ds, opt->class_weights, err);
    if (!st) st = pdt_model_alloc(&m, err);
    if (!st) st = cls_describe_model(m, ds, opt, engine, err);
    if (!st) st = grow(m, &ci, rules, n_rules, pre, len, &cost, err);
    if (!st && cost != expected)
        st = pdt_error_set(err, PDT_EINTERNAL, "the tree costs %lld on the training rows, the backend "
                           "reported %lld", (long long)cost, (long long)expected);
    if (!st) {
        mpq_set_si(m->objective, cost, 1);
        mpz_set(mpq_denref(m->objective), ci.scale);
        mpq_canonicalize(m->objective);
        pdt_model_measure(m);
        *out = m;
    } else {
        pdt_model_free(&m);
    }
    for (size_t r = 0; r < n_rules; r++) pdt_rule_clear(&rules[r]);
    cls_inst_clear(&ci);
    return st;
}
