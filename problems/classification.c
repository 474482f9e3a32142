/* Classification: items are labelled rows, a leaf costs its misclassified
 * items (weighted per class when asked), E(DN u r v) = E(u) + E(v).
 * Also pdt_fit, which builds the rules, runs the search and makes the model. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "classification.h"

void cls_counts(uint64_t *counts, const cls_inst *c, const uint64_t *items)
{
    for (size_t k = 0; k < c->n_classes; k++)
        counts[k] = pdt_bits_and_count(items, c->class_bits + k * c->words, c->words);
}

/* Majority class under the weights (ties: smallest index) and the leaf cost. */
int64_t cls_leaf_cost(const cls_inst *c, const uint64_t *counts, uint32_t *label)
{
    int64_t total = 0, best = -1;
    uint32_t arg = 0;
    for (size_t k = 0; k < c->n_classes; k++) {
        int64_t v = (int64_t)counts[k] * c->weight[k];
        total += v;
        if (v > best) {
            best = v;
            arg = (uint32_t)k;
        }
    }
    if (label) *label = arg;
    return total - (best < 0 ? 0 : best);
}

static pdt_status cls_leaf(void *value, void *inst, const pdt_node *node, pdt_error *err)
{
    (void)err;
    const cls_inst *c = inst;
    if (!c->weighted && c->n_classes == 2) {
        uint32_t ones = pdt_bits_and_count(node->items, c->class_bits + c->words, c->words);
        uint32_t zeros = node->n_items - ones;
        *(int64_t *)value = (int64_t)(ones < zeros ? ones : zeros) * c->unit;
        return PDT_OK;
    }
    uint64_t counts[256], *cnt = c->n_classes <= 256 ? counts : malloc(c->n_classes * sizeof *cnt);
    if (!cnt) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    cls_counts(cnt, c, node->items);
    *(int64_t *)value = cls_leaf_cost(c, cnt, NULL) * c->unit;
    if (cnt != counts) free(cnt);
    return PDT_OK;
}

/* (cost, nodes): a branch node adds one node to its children's values. */
static pdt_status cls_branch(void *value, void *inst, const pdt_node *node, int64_t payload,
                             const void *left, const void *right, pdt_error *err)
{
    (void)node, (void)payload, (void)err;
    const cls_inst *c = inst;
    *(int64_t *)value = *(const int64_t *)left + *(const int64_t *)right + c->per_node;
    return PDT_OK;
}

static pdt_status cls_lower_bound(void *value, void *inst, const pdt_node *node, uint32_t budget,
                                  pdt_error *err)
{
    (void)inst;
    (void)node;
    (void)budget;
    (void)err;
    *(int64_t *)value = 0;
    return PDT_OK;
}

/* Two classes, unit weights: counts of class 1 on the left decide both leaves. */
static uint32_t stump_binary(int64_t *best, const cls_inst *c, const pdt_node *node,
                             const uint64_t *const *sides, uint32_t n, uint32_t lo)
{
    const size_t words = c->words;
    const uint64_t *items = node->items, *c1 = c->class_bits + words;
    const uint32_t total = node->n_items, ones = pdt_bits_and_count(items, c1, words);
    int64_t b = *best;
    uint32_t arg = UINT32_MAX;
    for (uint32_t i = 0; i < n && b > 0; i++) {
        const uint64_t *side = sides[i];
        uint32_t nl = 0, l1 = 0;
        for (size_t w = 0; w < words; w++) {
            uint64_t x = items[w] & side[w];
            nl += (uint32_t)__builtin_popcountll(x);
            l1 += (uint32_t)__builtin_popcountll(x & c1[w]);
        }
        uint32_t nr = total - nl, r1 = ones - l1;
        if (nl < lo || nr < lo) continue;
        int64_t cost = (int64_t)(l1 < nl - l1 ? l1 : nl - l1) + (int64_t)(r1 < nr - r1 ? r1 : nr - r1);
        if (cost < b) {
            b = cost;
            arg = i;
        }
    }
    *best = b;
    return arg;
}

/* Any number of classes and weights: per-class counts of both sides. */
static uint32_t stump_general(int64_t *best, const cls_inst *c, const pdt_node *node,
                              const uint64_t *const *sides, uint32_t n, uint32_t lo, uint64_t *cnt)
{
    const size_t words = c->words, k = c->n_classes;
    uint64_t *all = cnt, *left = cnt + k, *right = cnt + 2 * k;
    cls_counts(all, c, node->items);
    int64_t b = *best;
    uint32_t arg = UINT32_MAX;
    for (uint32_t i = 0; i < n && b > 0; i++) {
        uint32_t nl = pdt_bits_and_count(node->items, sides[i], words);
        if (nl < lo || node->n_items - nl < lo) continue;
        for (size_t q = 0; q < k; q++) {
            left[q] = pdt_bits_and3_count(node->items, sides[i], c->class_bits + q * words, words);
            right[q] = all[q] - left[q];
        }
        int64_t cost = cls_leaf_cost(c, left, NULL) + cls_leaf_cost(c, right, NULL);
        if (cost < b) {
            b = cost;
            arg = i;
        }
    }
    *best = b;
    return arg;
}

static pdt_status cls_stump(void *value, uint32_t *index, void *inst, const pdt_node *node,
                            const uint64_t *const *sides, uint32_t n, uint32_t min_leaf,
                            const void *bound, pdt_error *err)
{
    const cls_inst *c = inst;
    /* a stump of cost e has value e·unit + per_node < bound iff e < ⌈(bound − per_node) / unit⌉ */
    int64_t vb = *(const int64_t *)bound - c->per_node;
    if (vb <= 0) return PDT_OK;
    int64_t best = (vb + c->unit - 1) / c->unit;
    uint32_t lo = min_leaf ? min_leaf : 1;
    if (!c->weighted && c->n_classes == 2) {
        *index = stump_binary(&best, c, node, sides, n, lo);
    } else {
        uint64_t stack[3 * 64], *cnt = c->n_classes <= 64 ? stack : malloc(3 * c->n_classes * sizeof *cnt);
        if (!cnt) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
        *index = stump_general(&best, c, node, sides, n, lo, cnt);
        if (cnt != stack) free(cnt);
    }
    if (*index != UINT32_MAX) *(int64_t *)value = best * c->unit + c->per_node;
    return PDT_OK;
}

PDT_DEFINE_PROBLEM(classification) = {
    .version = PDT_PROBLEM_V1,
    .name = "classification",
    .description = "fewest (weighted) misclassified training items",
    .flags = PDT_PROBLEM_MEMO | PDT_PROBLEM_REENTRANT,
    .algebra = &pdt_algebra_min_int64,
    .leaf = cls_leaf,
    .lower_bound = cls_lower_bound,
    .stump = cls_stump,
};

/* Not registered: the fit picks it for an instance whose values are (cost, nodes). */
const pdt_problem_class pdt_classification_fewest_nodes = {
    .version = PDT_PROBLEM_V1,
    .name = "classification",
    .description = "fewest (weighted) misclassified training items, then fewest branch nodes",
    .flags = PDT_PROBLEM_MEMO | PDT_PROBLEM_REENTRANT,
    .algebra = &pdt_algebra_min_int64,
    .leaf = cls_leaf,
    .branch = cls_branch,
    .lower_bound = cls_lower_bound,
    .stump = cls_stump,
};

bool cls_inst_fewest_nodes(cls_inst *c, uint64_t max_size)
{
    int64_t most = 0, unit, top;
    for (size_t k = 0; k < c->n_classes; k++)
        if (c->weight[k] > most) most = c->weight[k];
    if (max_size >= (UINT64_C(1) << 40) ||
        __builtin_mul_overflow(most, (int64_t)pdt_dataset_rows(c->ds) + 1, &top) ||
        __builtin_mul_overflow(top, (int64_t)max_size + 1, &unit) || unit > (INT64_C(1) << 61))
        return false;
    c->unit = (int64_t)max_size + 1;
    c->per_node = 1;
    return true;
}

/* ------------------------------------------------------------ weights */

static pdt_status parse_weight(mpq_t *w, const pdt_dataset *ds, const char *item, size_t len,
                               pdt_error *err)
{
    const char *eq = memchr(item, '=', len);
    if (!eq) return pdt_error_set(err, PDT_EINVAL, "option --class-weights: \"%.*s\" is not CLASS=WEIGHT", (int)len, item);
    char name[256];
    size_t nlen = (size_t)(eq - item);
    if (nlen >= sizeof name) return pdt_error_set(err, PDT_EINVAL, "option --class-weights: class name too long");
    memcpy(name, item, nlen);
    name[nlen] = '\0';
    size_t c = pdt_dataset_find_class(ds, name);
    if (c == SIZE_MAX) return pdt_error_set(err, PDT_EINVAL, "option --class-weights: no class \"%s\" in the data", name);
    const char *v = eq + 1;
    size_t vlen = len - nlen - 1;
    if (!pdt_parse_rational(w[c], v, vlen) || mpq_sgn(w[c]) < 0)
        return pdt_error_set(err, PDT_EINVAL, "option --class-weights: weight \"%.*s\" of class %s is "
                             "not a non-negative number", (int)vlen, v, name);
    return PDT_OK;
}

/* Exact class weights scaled to integers with a common denominator. */
static pdt_status cls_weights(cls_inst *c, const char *spec, pdt_error *err)
{
    mpz_init_set_ui(c->scale, 1);
    c->weight = malloc(c->n_classes * sizeof *c->weight);
    if (!c->weight) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t k = 0; k < c->n_classes; k++) c->weight[k] = 1;
    if (!spec || !*spec) return PDT_OK;
    c->weighted = true;
    mpq_t *w = malloc(c->n_classes * sizeof *w);
    if (!w) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t k = 0; k < c->n_classes; k++) mpq_init(w[k]), mpq_set_ui(w[k], 1, 1);
    pdt_status st = PDT_OK;
    for (const char *p = spec; *p && !st;) {
        size_t len = strcspn(p, ",");
        st = parse_weight(w, c->ds, p, len, err);
        p += len + (p[len] == ',');
    }
    for (size_t k = 0; k < c->n_classes && !st; k++) mpz_lcm(c->scale, c->scale, mpq_denref(w[k]));
    mpz_t v, limit;
    mpz_inits(v, limit, NULL);
    mpz_ui_pow_ui(limit, 2, 62);
    mpz_fdiv_q_ui(limit, limit, pdt_dataset_rows(c->ds) + 1);
    for (size_t k = 0; k < c->n_classes && !st; k++) {
        mpz_divexact(v, c->scale, mpq_denref(w[k]));
        mpz_mul(v, v, mpq_numref(w[k]));
        if (mpz_cmp(v, limit) >= 0)
            st = pdt_error_set(err, PDT_ELIMIT, "option --class-weights: weights too large or too finely divided");
        else c->weight[k] = (int64_t)mpz_get_si(v);
    }
    mpz_clears(v, limit, NULL);
    for (size_t k = 0; k < c->n_classes; k++) mpq_clear(w[k]);
    free(w);
    return st;
}

pdt_status cls_inst_init(cls_inst *c, const pdt_dataset *ds, const char *weights, pdt_error *err)
{
    memset(c, 0, sizeof *c);
    c->ds = ds;
    c->unit = 1;
    c->words = pdt_bits_words(pdt_dataset_rows(ds));
    c->n_classes = pdt_dataset_classes(ds);
    c->class_bits = calloc(c->n_classes * c->words + 1, sizeof *c->class_bits);
    if (!c->class_bits) {
        mpz_init(c->scale);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < pdt_dataset_rows(ds); i++)
        pdt_bit_set(c->class_bits + pdt_dataset_label(ds, i) * c->words, i);
    return cls_weights(c, weights, err);
}

void cls_inst_clear(cls_inst *c)
{
    free(c->class_bits);
    free(c->weight);
    mpz_clear(c->scale);
}

