/* Whether two fits gave the same tree: node by node, shape, labels, item
 * counts and exact rules (the thread and rank tests: the tree must not
 * depend on the workers). */
#ifndef PDT_TEST_SAME_TREE_H
#define PDT_TEST_SAME_TREE_H

#include <stdbool.h>

#include "model_impl.h"

bool tu_same_tree(const pdt_model *a, const pdt_model *b);

#endif
