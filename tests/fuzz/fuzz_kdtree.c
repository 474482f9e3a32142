/* Fuzz target: the k-D tree points loader (the CSV loader as `pdt kdtree`
 * calls it: no label; once plain, once with a weight column "w" and a skipped
 * column "id") and the dimension order option.  An input is a CSV text,
 * optionally followed by a NUL byte and an --order value ("y,x", "2,1").
 * At most 8 points in at most 3 dimensions are then solved under both
 * objectives; the tree must be a k-D tree of every point (smaller coordinates
 * left, ties right), its cost must be what it reports and no worse than
 * inserting the points in row order. */
#include <stdlib.h>
#include <string.h>

#include "../../problems/kdtree.h"
#include "harness.h"

#define SMALL_POINTS 8
#define SMALL_DIMS 3

typedef struct kd_check {
    const pdt_dataset *ds;
    const pdt_kd_node *nodes;
    size_t n_nodes;
    const uint32_t *order;
    size_t n_order; /* 0: 0 .. D-1 */
    unsigned seen[SMALL_POINTS];
    mpq_t cost, tmp, a, b;
} kd_check;

static uint32_t level_dim(const kd_check *c, uint32_t level)
{
    size_t n = c->n_order ? c->n_order : pdt_dataset_dims(c->ds);
    return c->n_order ? c->order[level % n] : (uint32_t)(level % n);
}

/* The subtree at `at`, `level` deep below the ancestors anc[0..level) (the
 * path went left at anc[k] when went_left[k]): every point lies on its side
 * of every ancestor's split; adds Σ w·(depth+1) to cost. */
static void walk(kd_check *c, int32_t at, uint32_t level, const int32_t *anc, const bool *went_left)
{
    PDT_FUZZ_CHECK(at >= 0 && (size_t)at < c->n_nodes && level <= SMALL_POINTS, "bad node %d", at);
    const pdt_kd_node *x = &c->nodes[at];
    if (x->point < 0) return;
    PDT_FUZZ_CHECK((size_t)x->point < pdt_dataset_rows(c->ds), "point %d", x->point);
    PDT_FUZZ_CHECK(x->dim == level_dim(c, level), "level %u splits on %u", level, x->dim);
    c->seen[x->point]++;
    for (uint32_t k = 0; k < level; k++) { /* the point is on the right side of every ancestor */
        const pdt_kd_node *y = &c->nodes[anc[k]];
        pdt_dataset_value_exact(c->a, c->ds, (size_t)x->point, y->dim);
        pdt_dataset_value_exact(c->b, c->ds, (size_t)y->point, y->dim);
        PDT_FUZZ_CHECK((mpq_cmp(c->a, c->b) < 0) == went_left[k], "point %d on the wrong side of %d",
                       x->point, y->point);
    }
    pdt_dataset_weight_exact(c->tmp, c->ds, (size_t)x->point);
    for (uint32_t k = 0; k <= level; k++) mpq_add(c->cost, c->cost, c->tmp);
    int32_t anc2[SMALL_POINTS + 1];
    bool left2[SMALL_POINTS + 1];
    for (uint32_t k = 0; k < level; k++) anc2[k] = anc[k], left2[k] = went_left[k];
    anc2[level] = at;
    left2[level] = true;
    walk(c, x->left, level + 1, anc2, left2);
    left2[level] = false;
    walk(c, x->right, level + 1, anc2, left2);
}

/* Σ w·(depth+1) of the tree that inserting the points in row order builds
 * (out is not c->a or c->b, which are scratch). */
static void insertion_cost(mpq_ptr out, kd_check *c)
{
    size_t n = pdt_dataset_rows(c->ds);
    int32_t left[SMALL_POINTS], right[SMALL_POINTS];
    mpq_set_ui(out, 0, 1);
    for (size_t p = 0; p < n; p++) {
        left[p] = right[p] = -1;
        uint32_t depth = 0;
        for (int32_t at = p ? 0 : -1, *link = NULL; at >= 0; depth++) {
            uint32_t d = level_dim(c, depth);
            pdt_dataset_value_exact(c->a, c->ds, p, d);
            pdt_dataset_value_exact(c->b, c->ds, (size_t)at, d);
            link = mpq_cmp(c->a, c->b) < 0 ? &left[at] : &right[at];
            if (*link < 0) {
                *link = (int32_t)p;
                depth++;
                break;
            }
            at = *link;
        }
        pdt_dataset_weight_exact(c->tmp, c->ds, p);
        for (uint32_t k = 0; k <= depth; k++) mpq_add(out, out, c->tmp);
    }
}

static void check_tree(const pdt_kdtree *t, const uint32_t *order, size_t n_order, bool access)
{
    kd_check c = {.ds = pdt_kdtree_dataset(t), .order = order, .n_order = n_order};
    c.nodes = pdt_kdtree_nodes(t, &c.n_nodes);
    mpq_inits(c.cost, c.tmp, c.a, c.b, NULL);
    int32_t anc[1] = {0};
    bool went_left[1] = {false};
    walk(&c, 0, 0, anc, went_left);
    for (size_t p = 0; p < pdt_dataset_rows(c.ds); p++)
        PDT_FUZZ_CHECK(c.seen[p] == 1, "point %zu is in the tree %u times", p, c.seen[p]);
    pdt_kdtree_cost(c.a, t);
    PDT_FUZZ_CHECK(mpq_equal(c.a, c.cost), "the reported cost is not the tree's");
    mpq_t bound;
    mpq_init(bound);
    insertion_cost(bound, &c);
    PDT_FUZZ_CHECK(!access || mpq_cmp(c.cost, bound) <= 0 || !pdt_kdtree_optimal(t),
                   "the optimum costs more than inserting in row order");
    mpq_clears(c.cost, c.tmp, c.a, c.b, bound, NULL);
}

static void solve(const pdt_dataset *ds, const char *spec, pdt_kd_objective objective)
{
    uint32_t *order = NULL;
    size_t n_order = 0;
    pdt_kdtree *t = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (spec) {
        pdt_status st = pdt_kdtree_parse_order(&order, &n_order, ds, spec, &err);
        if (st != PDT_OK) {
            pdt_fuzz_check_rejected(st, &err, "option --order", spec, strlen(spec));
            return;
        }
    }
    pdt_status st = pdt_kdtree_new(&t, ds, order, n_order, objective, &err);
    if (st == PDT_OK) st = pdt_kdtree_solve(t, NULL, &err);
    if (st == PDT_OK) {
        check_tree(t, order, n_order, objective == PDT_KD_ACCESS);
        pdt_fuzz_check_ok(pdt_kdtree_write_text(t, pdt_fuzz_null(), &err), &err, "the tree's text");
    } else { /* only a dataset without coordinates is not an instance */
        PDT_FUZZ_CHECK(pdt_dataset_dims(ds) == 0, "solving failed: %s", err.message);
        pdt_fuzz_check_rejected(st, &err, pdt_dataset_name(ds), "", 0);
    }
    pdt_kdtree_free(&t);
    free(order);
}

static void load(const char *text, size_t len, const char *spec, const pdt_csv_options *opt)
{
    static const char name[] = "points.csv";
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_dataset_read_csv(&ds, text, len, name, opt, &err);
    if (st != PDT_OK) {
        pdt_fuzz_check_rejected(st, &err, name, text, len);
        return;
    }
    pdt_fuzz_dataset_accessors(ds);
    if (pdt_dataset_rows(ds) <= SMALL_POINTS && pdt_dataset_dims(ds) <= SMALL_DIMS) {
        solve(ds, spec, PDT_KD_ACCESS);
        solve(ds, spec, PDT_KD_HEIGHT);
    }
    pdt_dataset_free(&ds);
}

int pdt_fuzz_kdtree(const uint8_t *data, size_t size)
{
    if (size > PDT_FUZZ_MAX_KDTREE) return 0;
    const char *text = (const char *)data, *nul = memchr(text, '\0', size);
    size_t len = nul ? (size_t)(nul - text) : size;
    char *spec = nul ? strndup(nul + 1, size - len - 1) : NULL;
    PDT_FUZZ_CHECK(!nul || spec, "out of memory");
    static const char *const skip[] = {"id"};
    const pdt_csv_options plain = {.no_label = true};
    const pdt_csv_options weighted = {.no_label = true, .weight = "w", .skip = skip, .n_skip = 1};
    load(text, len, spec, &plain);
    load(text, len, spec, &weighted);
    free(spec);
    return 0;
}

#ifdef PDT_FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return pdt_fuzz_kdtree(data, size); }
#endif
