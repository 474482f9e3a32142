/* A valid problem plugin: the number of leaves (min/+ over int64), so that
 * `pdt plugins` lists a loaded problem beside the built-in ones. */
#include "pdt_plugin.h"

static pdt_status leaves_leaf(void *value, void *inst, const pdt_node *node, pdt_error *err)
{
    (void)inst;
    (void)node;
    (void)err;
    *(int64_t *)value = 1;
    return PDT_OK;
}

PDT_DEFINE_PROBLEM(leaves) = {
    .version = PDT_PROBLEM_V1,
    .name = "leaves",
    .description = "test plugin: number of leaves (tests/plugins/good_problem.c)",
    .algebra = &pdt_algebra_min_int64,
    .leaf = leaves_leaf,
};
