#include "same_tree.h"

static bool same_rule(const pdt_rule *a, const pdt_rule *b)
{
    if (a->cls != b->cls || a->n_ints != b->n_ints || a->n_rats != b->n_rats) return false;
    for (size_t k = 0; k < a->n_ints; k++)
        if (a->ints[k] != b->ints[k]) return false;
    for (size_t k = 0; k < a->n_rats; k++)
        if (!mpq_equal(a->rats[k], b->rats[k])) return false;
    return true;
}

bool tu_same_tree(const pdt_model *a, const pdt_model *b)
{
    if (a->n_nodes != b->n_nodes || !mpq_equal(a->objective, b->objective)) return false;
    for (size_t k = 0; k < a->n_nodes; k++) {
        const pdt_tree_node *x = &a->nodes[k], *y = &b->nodes[k];
        if (x->left != y->left || x->right != y->right || x->label != y->label || x->n_items != y->n_items ||
            (x->rule < 0) != (y->rule < 0))
            return false;
        if (x->rule >= 0 && !same_rule(&a->rules[x->rule], &b->rules[y->rule])) return false;
    }
    return true;
}
