/* The axis family's specialised backends.  Misclassifications (plain or
 * class-weighted) under depth and size limits go to the numeric backend
 * (backends/numeric/).  The sparse and lexicographic objectives are solved by
 * the binary-feature backend on the binarised columns, and its tree is turned
 * back into axis rules here.
 *
 * Why the optimum is the axis family's.  A tree's cost depends only on how
 * each branch node splits the items that reach it.  An axis rule x[j] ≤ p[j]
 * (p in the node's region) splits the region's items into those whose j-th
 * value is at most p's and the rest; the binary features are the thresholds
 * x[j] ≤ v at the data values v, which split a region the same way as the
 * threshold at the largest value of its left items — a point of the region.
 * So both families realise exactly the same non-trivial partitions of every
 * region (a split with an empty side never helps: the same tree with a leaf
 * there is at most as large), and their optimal trees have the same cost.
 *
 * The conversion does not look inside the binary rules: the training rows are
 * sent down the backend's tree with the rules' own classify, and each branch
 * node's partition of its items is realised by the axis rule whose defining
 * point is the left item with the largest value in the first dimension that
 * separates the two sides.  The rebuilt model is accumulated again from the
 * data (cls_model_from_tree) and must misclassify exactly as many rows as the
 * backend reported.  Options neither backend takes (min-leaf, item weights,
 * rule options, tracing; class weights with --sparse or --lexicographic) are
 * declined (axis_solve_declines): pdt_fit runs the fused engine for them. */
#include <stdlib.h>
#include <string.h>

#include "../problems/classification.h"
#include "axis.h"
#include "../backends/numeric/axis_numeric.h"
#include "bitset.h"

typedef struct conv {
    const pdt_dataset *ds;
    const pdt_model *src;
    size_t n, d, words;
    mpq_t *x;        /* n·d exact coordinates */
    pdt_rule *rules; /* one axis rule per branch node */
    size_t n_rules;
    int32_t *pre;    /* preorder: rule index or −1 */
    size_t len;
    pdt_error *err;
} conv;

/* The axis rule that splits `items` into `left` and the rest, if any. */
static pdt_status realise(conv *c, const uint64_t *items, const uint64_t *left, pdt_rule *out)
{
    for (size_t j = 0; j < c->d; j++) {
        uint32_t max_left = 0, min_right = UINT32_MAX;
        size_t arg = SIZE_MAX;
        for (size_t i = 0; i < c->n; i++) {
            if (!pdt_bit_get(items, i)) continue;
            uint32_t r = pdt_dataset_rank(c->ds, i, j);
            if (pdt_bit_get(left, i)) {
                if (arg == SIZE_MAX || r > max_left) max_left = r, arg = i;
            } else if (r < min_right) {
                min_right = r;
            }
        }
        if (arg == SIZE_MAX || min_right == UINT32_MAX || max_left >= min_right) continue;
        return axis_rule_make(out, c->ds, j, arg, c->err);
    }
    return pdt_error_set(c->err, PDT_EINTERNAL, "axis backend: a split of the binary backend's tree "
                         "is not an axis-parallel threshold of its region");
}

static pdt_status walk(conv *c, int32_t node, const uint64_t *items)
{
    const pdt_tree_node *nd = &c->src->nodes[node];
    if (nd->rule < 0) {
        c->pre[c->len++] = -1;
        return PDT_OK;
    }
    uint64_t *left = calloc(2 * c->words + 1, sizeof *left);
    if (!left) return pdt_error_set(c->err, PDT_ENOMEM, "out of memory");
    uint64_t *right = left + c->words;
    const pdt_rule *rule = &c->src->rules[nd->rule];
    pdt_status st = PDT_OK;
    for (size_t i = 0; i < c->n && !st; i++) {
        if (!pdt_bit_get(items, i)) continue;
        bool l = false;
        st = rule->cls->classify(&l, rule, c->x[i * c->d], c->d, c->err);
        pdt_bit_set(l ? left : right, i);
    }
    if (!st) {
        c->pre[c->len++] = (int32_t)c->n_rules;
        st = realise(c, items, left, &c->rules[c->n_rules]);
        if (!st) c->n_rules++;
    }
    if (!st) st = walk(c, nd->left, left);
    if (!st) st = walk(c, nd->right, right);
    free(left);
    return st;
}

static pdt_status convert(pdt_model **out, const pdt_model *src, const pdt_dataset *ds,
                          const pdt_fit_options *opt, pdt_error *err)
{
    conv c = {ds, src, pdt_dataset_rows(ds), pdt_dataset_dims(ds), pdt_bits_words(pdt_dataset_rows(ds)),
              NULL, NULL, 0, NULL, 0, err};
    c.x = malloc((c.n * c.d + 1) * sizeof *c.x);
    c.rules = calloc(src->n_nodes + 1, sizeof *c.rules);
    c.pre = malloc((src->n_nodes + 1) * sizeof *c.pre);
    uint64_t *all = calloc(c.words + 1, sizeof *all);
    pdt_status st = PDT_OK;
    if (!c.x || !c.rules || !c.pre || !all) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (!st) {
        for (size_t k = 0; k < c.n * c.d; k++) mpq_init(c.x[k]);
        for (size_t i = 0; i < c.n; i++)
            for (size_t j = 0; j < c.d; j++) pdt_dataset_value_exact(c.x[i * c.d + j], ds, i, j);
        pdt_bits_fill(all, c.n);
        st = walk(&c, 0, all);
        for (size_t k = 0; k < c.n * c.d; k++) mpq_clear(c.x[k]);
    }
    if (!st) {
        pdt_fit_options axis = *opt;
        axis.rules = "axis";
        st = cls_model_from_tree(out, ds, &axis, c.rules, c.n_rules, c.pre, c.len,
                                 (int64_t)src->misclassifications, "binary", err);
    } else {
        for (size_t r = 0; r < c.n_rules; r++) pdt_rule_clear(&c.rules[r]);
    }
    if (!st) {
        pdt_model *m = *out;
        mpq_set(m->objective, src->objective); /* the sparse objective when asked for */
        m->optimal = src->optimal;
        m->stopped_by = src->stopped_by;
        m->stats = src->stats;
        m->seconds = src->seconds;
    }
    free(all);
    free(c.pre);
    free(c.rules);
    free(c.x);
    return st;
}

/* Plain and class-weighted misclassifications go to the numeric backend
 * (backends/numeric/); the sparse and lexicographic objectives to the binary
 * backend through the conversion above. */
static bool via_binary(const pdt_fit_options *opt) { return opt->sparse || opt->lexicographic; }

const char *axis_solve_declines(const pdt_dataset *ds, const pdt_fit_options *opt)
{
    if (opt->trace) return "tracing (--explain)";
    if (opt->min_leaf) return "--min-leaf";
    if (pdt_dataset_has_weights(ds)) return "item weights";
    if (opt->rule_params.options) return "rule options";
    if (!via_binary(opt)) return NULL;
    const pdt_rule_class *bin = pdt_rule_class_find("binary");
    if (!bin || !bin->solve) return "--sparse or --lexicographic without the binary plugin";
    if (opt->class_weights) return "class weights with --sparse or --lexicographic";
    return NULL;
}

pdt_status axis_solve(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    if (!via_binary(opt)) return an_fit(out, ds, opt, err);
    pdt_fit_options b = *opt;
    b.rules = "binary";
    pdt_model *src = NULL;
    pdt_status st = pdt_rule_class_find("binary")->solve(&src, ds, &b, err);
    if (!st) st = convert(out, src, ds, opt, err);
    pdt_model_free(&src);
    return st;
}
