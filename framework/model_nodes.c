/* A fitted model's nodes one by one (language bindings, drawings): label,
 * training counts, children or ways, and rule texts. */
#include <assert.h>
#include <stdlib.h>

#include "model_impl.h"

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

size_t pdt_model_node_ways(const pdt_model *model, size_t k)
{
    assert(k < model->n_nodes);
    return model->nodes[k].n_ways;
}

int32_t pdt_model_node_way_child(const pdt_model *model, size_t k, size_t w)
{
    assert(k < model->n_nodes && w < model->nodes[k].n_ways);
    return model->ways[model->nodes[k].first_way + w].child;
}

pdt_status pdt_model_node_way_text(char **text, const pdt_model *model, size_t k, size_t w, pdt_error *err)
{
    assert(k < model->n_nodes && w < model->nodes[k].n_ways);
    *text = NULL;
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_buf_puts(&b, "");
    pdt_status st = pdt_model_way_text(&b, model, k, w, err);
    if (st == PDT_OK && (b.failed || !b.data))
        st = pdt_error_set(err, PDT_ENOMEM, "out of memory describing a rule");
    if (st == PDT_OK) {
        *text = b.data;
        b.data = NULL;
    }
    pdt_buf_clear(&b);
    return st;
}
