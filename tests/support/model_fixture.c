#include "model_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "test_util.h"

static pdt_status threshold_classify(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims,
                                     pdt_error *err)
{
    if (rule->n_ints != 1 || rule->n_rats != 1 || rule->ints[0] < 0 ||
        (size_t)rule->ints[0] >= dims)
        return pdt_error_set(err, PDT_EINVAL, "bad threshold rule");
    *left = mpq_cmp(&x[rule->ints[0]], rule->rats[0]) <= 0;
    return PDT_OK;
}

static pdt_status threshold_describe(pdt_buf *out, const pdt_rule *rule, const char *const *names,
                                     size_t dims, pdt_error *err)
{
    if (rule->ints[0] < 0 || (size_t)rule->ints[0] >= dims)
        return pdt_error_set(err, PDT_EINVAL, "bad threshold rule");
    pdt_buf_printf(out, "%s ≤ ", names[rule->ints[0]]);
    pdt_buf_mpq_decimal(out, rule->rats[0]);
    return PDT_OK;
}

static pdt_status threshold_validate(const pdt_rule *rule, size_t dims, pdt_error *err)
{
    if (rule->n_ints != 1 || rule->n_rats != 1)
        return pdt_error_set(err, PDT_EINVAL, "expected one dimension and one threshold");
    if (rule->ints[0] < 0 || (size_t)rule->ints[0] >= dims)
        return pdt_error_set(err, PDT_EINVAL, "dimension %lld out of range",
                             (long long)rule->ints[0]);
    return PDT_OK;
}

const pdt_rule_class mf_threshold_class = {
    .version = PDT_RULE_V1,
    .name = "threshold",
    .description = "test: x[dim] <= t",
    .flags = PDT_EXACT,
    .classify = threshold_classify,
    .describe = threshold_describe,
    .validate = threshold_validate,
};

static char **names(const char *const *src, size_t n)
{
    char **out = calloc(n, sizeof *out);
    assert_non_null(out);
    for (size_t k = 0; k < n; k++) assert_non_null(out[k] = strdup(src[k]));
    return out;
}

void mf_set_rule(pdt_model *m, size_t r, const pdt_rule_class *cls, int64_t dim, const char *t)
{
    pdt_rule *rule = &m->rules[r];
    if (rule->cls) pdt_rule_clear(rule);
    assert_int_equal(pdt_rule_init(rule, cls, 1, 1, NULL), PDT_OK);
    rule->ints[0] = dim;
    assert_int_equal(mpq_set_str(rule->rats[0], t, 10), 0);
    mpq_canonicalize(rule->rats[0]);
}

static pdt_model *base_model(size_t n_nodes, size_t n_rules)
{
    static const char *const features[] = {"sepal", "petal_width"};
    static const char *const classes[] = {"setosa", "versicolor", "virginica"};
    pdt_model *m;
    assert_int_equal(pdt_model_alloc(&m, NULL), PDT_OK);
    m->problem = strdup("classification");
    m->families = strdup("threshold");
    m->data_name = strdup("iris.csv");
    m->engine = strdup("fused");
    m->n_train = 150;
    m->dims = 2;
    m->features = names(features, 2);
    m->n_classes = 3;
    m->classes = names(classes, 3);
    m->n_nodes = n_nodes;
    m->nodes = calloc(n_nodes, sizeof *m->nodes);
    m->counts = calloc(n_nodes * 3, sizeof *m->counts);
    m->n_rules = n_rules;
    m->rules = calloc(n_rules ? n_rules : 1, sizeof *m->rules);
    assert_true(m->nodes && m->counts && m->rules);
    m->optimal = true;
    return m;
}

static void set_node(pdt_model *m, size_t i, int32_t rule, int32_t left, int32_t right,
                     uint32_t label, uint64_t a, uint64_t b, uint64_t c)
{
    m->nodes[i] = (pdt_tree_node){
        .left = left, .right = right, .rule = rule, .label = label, .n_items = a + b + c};
    m->counts[3 * i] = a;
    m->counts[3 * i + 1] = b;
    m->counts[3 * i + 2] = c;
}

pdt_model *mf_model(const pdt_rule_class *cls)
{
    pdt_model *m = base_model(5, 2);
    mf_set_rule(m, 0, cls, 1, "4/5");
    mf_set_rule(m, 1, cls, 0, "1/3");
    set_node(m, 0, 0, 1, 2, 0, 50, 50, 50);
    set_node(m, 1, -1, -1, -1, 0, 50, 0, 0);
    set_node(m, 2, 1, 3, 4, 1, 0, 50, 50);
    set_node(m, 3, -1, -1, -1, 1, 0, 49, 5);
    set_node(m, 4, -1, -1, -1, 2, 0, 1, 45);
    mpq_set_ui(m->objective, 6, 1);
    m->misclassifications = 6;
    m->max_size = 2;
    m->min_leaf = 1;
    m->seconds = 0.125;
    m->stats = (pdt_search_stats){.nodes = 11,
                                  .candidates = 22,
                                  .memo_hits = 3,
                                  .memo_entries = 4,
                                  .pruned = 5,
                                  .seconds = 0.125};
    free(m->families);
    m->families = strdup(cls->name);
    pdt_model_measure(m);
    return m;
}

pdt_model *mf_leaf_model(void)
{
    pdt_model *m = base_model(1, 0);
    set_node(m, 0, -1, -1, -1, 0, 50, 50, 50);
    mpq_set_ui(m->objective, 100, 1);
    m->misclassifications = 100;
    pdt_model_measure(m);
    return m;
}

pdt_dataset *mf_dataset(const char *const *features, size_t d, const char *const *cells, size_t n)
{
    pdt_dataset *ds;
    assert_int_equal(pdt_dataset_alloc(&ds, n, d, true, NULL), PDT_OK);
    ds->name = strdup("test.csv");
    for (size_t j = 0; j < d; j++) ds->features[j] = strdup(features[j]);
    mpq_t v;
    mpq_init(v);
    for (size_t k = 0; k < n * d; k++) {
        assert_int_equal(mpq_set_str(v, cells[k], 10), 0);
        mpq_canonicalize(v);
        assert_int_equal(pdt_dataset_store_exact(ds, k, v, NULL), PDT_OK);
        ds->x[k] = mpq_get_d(v);
    }
    mpq_clear(v);
    return ds;
}
