/* The hypersurface backend: fits with at most 2 branch nodes without a
 * candidate list.
 *
 * Conics in the plane already give C(N,5)·32 candidates (7.7·10^8 at N = 80),
 * far more than side bitsets can be stored for.  But the 2^G rules of one
 * tuple T differ only in where T's own points (and, in degenerate position,
 * other points on the surface) go: every other row is on the side its
 * orientation says.  So per tuple we keep one bitset, `base` (the rows with
 * negative orientation), and treat the assignments arithmetically:
 *
 *   - K = 1: for the root region, the class counts of base ∩ X plus any choice
 *     of a_c of T's class-c points (0 ≤ a_c ≤ n_c) give every partition the
 *     2^G assignments make; the tuples are streamed, nothing is stored.
 *   - K = 2: a root rule (T1, m1) any tuple and assignment; one child split by
 *     a rule whose G defining points lie in that child (the proper-tree
 *     condition), the other child a leaf.  The best split of a child region X
 *     enumerates the G-subsets of X's items, looks their bases up by colex
 *     rank and evaluates the assignments as above.
 *
 * The trees searched, the rules admissible at each node and the costs are
 * exactly those of the fused engine over the explicit candidate list (the
 * oracle tests compare them), so the optimum is the same; only the work is
 * organised differently.  Root partitions are deduplicated (a partition and
 * its mirror give the same trees) and the best split of a child region is
 * cached by its item set. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "hypersurface_solve_impl.h"
#include "pdt_parallel.h"

/* ------------------------------------------------------------ setup */

static pdt_status hss_init(hss *h, const pdt_dataset *ds, const pdt_fit_options *opt, bool keep, pdt_error *err)
{
    h->ds = ds;
    h->opt = opt;
    clock_gettime(CLOCK_MONOTONIC, &h->start);
    pdt_status st = hs_data_init(&h->hd, ds, opt->rule_params.degree, err);
    if (!st) st = cls_inst_init(&h->ci, ds, opt->class_weights, err);
    if (st) return st;
    h->n = pdt_dataset_rows(ds);
    h->G = h->hd.L.G;
    h->words = pdt_bits_words(h->n);
    h->C = pdt_dataset_classes(ds);
    h->lo = opt->min_leaf ? opt->min_leaf : 1;
    hs_eval_init(&h->ev, &h->hd.L);
    const size_t n = h->n, G = h->G, w = h->words;
    h->binom = calloc((n + 1) * (G + 1), sizeof *h->binom);
    h->label = malloc((n + 1) * sizeof *h->label);
    h->cnt = malloc(12 * (h->C + 1) * sizeof *h->cnt);
    h->all = calloc((4 + h->C) * w + 1, sizeof *h->all);
    h->items = malloc((n + 1) * sizeof *h->items);
    h->on_t = malloc(n + 1);
    if (!h->binom || !h->label || !h->cnt || !h->all || !h->items || !h->on_t)
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    h->left = h->all + w;
    h->right = h->left + w;
    h->tmp = h->right + w;
    h->by_class = h->tmp + w;
    pdt_bits_fill(h->all, n);
    for (size_t i = 0; i < n; i++) {
        h->label[i] = pdt_dataset_label(ds, i);
        h->weight_all += h->ci.weight[h->label[i]];
    }
    for (size_t i = 0; i <= n; i++) {
        h->binom[i * (G + 1)] = 1;
        for (size_t k = 1; k <= G && i > 0; k++)
            h->binom[i * (G + 1) + k] = h->binom[(i - 1) * (G + 1) + k - 1] + h->binom[(i - 1) * (G + 1) + k];
    }
    h->n_tuples = hss_binom(h, n, G);
    if (!keep) return PDT_OK;
    if (h->n_tuples > HSS_TABLE_BYTES / (8 * w + 1))
        return pdt_error_set(err, PDT_ELIMIT, "%llu point tuples need more than %llu GiB for 2-node "
                             "hypersurface trees; use fewer items", (unsigned long long)h->n_tuples,
                             (unsigned long long)(HSS_TABLE_BYTES >> 30));
    h->base = malloc((h->n_tuples * w + 1) * sizeof *h->base);
    h->kind = calloc(h->n_tuples + 1, 1);
    h->value = malloc((h->n_tuples + 1) * sizeof *h->value);
    if (!h->base || !h->kind || !h->value) return pdt_error_set(err, PDT_ENOMEM, "out of memory for the tuple table");
    st = hss_map_init(&h->seen, w, HSS_SEEN_MAX, false, err);
    if (!st) st = hss_map_init(&h->memo, w, HSS_MEMO_MAX, true, err);
    return st;
}

static void hss_clear(hss *h)
{
    hs_data_clear(&h->hd);
    cls_inst_clear(&h->ci);
    free(h->binom);
    free(h->label);
    free(h->cnt);
    free(h->all);
    free(h->items);
    free(h->on_t);
    free(h->base);
    free(h->kind);
    free(h->value);
    free(h->order);
    free(h->order_pts);
    free(h->exc);
    free(h->cert);
    free(h->cert_w);
    hss_map_free(&h->seen);
    hss_map_free(&h->memo);
}

/* The model: rules exported from the tuples, the tree in preorder. */
static pdt_status make_model(pdt_model **out, hss *h, const hss_tree *best, pdt_error *err)
{
    pdt_rule rules[2];
    int32_t pre[5];
    size_t n_rules = 0, len = 0;
    pdt_status st = PDT_OK;
    if (best->size >= 1) st = hs_export_tuple(&rules[n_rules++], &h->hd, best->root.t, best->root.mask, err);
    if (!st && best->size == 2) st = hs_export_tuple(&rules[n_rules++], &h->hd, best->child.t, best->child.mask, err);
    if (st) {
        for (size_t r = 0; r + 1 < n_rules; r++) pdt_rule_clear(&rules[r]);
        return st;
    }
    if (best->size == 0) pre[len++] = -1;
    if (best->size == 1) pre[0] = 0, pre[1] = pre[2] = -1, len = 3;
    if (best->size == 2 && best->child_left) memcpy(pre, (int32_t[]){0, 1, -1, -1, -1}, sizeof pre), len = 5;
    if (best->size == 2 && !best->child_left) memcpy(pre, (int32_t[]){0, -1, 1, -1, -1}, sizeof pre), len = 5;
    st = cls_model_from_tree(out, h->ds, h->opt, rules, n_rules, pre, len, best->value, "hypersurface", err);
    if (st) return st;
    (*out)->optimal = !h->stopped;
    /* trees of 0, 1 and 2 branch nodes are taken in that order, each only when
     * strictly better: an optimal answer has the fewest nodes of all optima */
    (*out)->size_minimal = !h->stopped;
    (*out)->stats.nodes = 1 + h->regions;
    (*out)->stats.candidates = h->candidates;
    (*out)->stats.memo_entries = h->memo.n;
    (*out)->stats.memo_hits = h->memo_hits;
    (*out)->stats.workers = h->workers;
    (*out)->stats.work_max = h->work_max;
    (*out)->stats.work_total = h->work_total;
    (*out)->seconds = hss_elapsed(h);
    (*out)->stats.seconds = (*out)->seconds;
    return PDT_OK;
}

static pdt_status hss_run(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, uint32_t k,
                          pdt_error *err)
{
    hss h;
    memset(&h, 0, sizeof h);
    pdt_status st = hss_init(&h, ds, opt, k >= 2, err);
    hss_tree best = {.pos = -1};
    if (!st) {
        int64_t *tot = h.cnt + 6 * h.C;
        hss_region all;
        hss_region_init(&h, &all, h.all, h.by_class, tot);
        best.value = h.best_value = hss_leaf_cost(&h, tot);
        hss_split root = {.value = best.value};
        if (k >= 1) st = hss_scan_tuples(&h, k >= 2, &root, &all, err);
        if (!st && root.value < best.value) {
            best.value = root.value;
            best.size = 1;
            best.root = root;
        }
        const pdt_distributor *d = pdt_distributor_get();
        if (!st && k >= 2 && d && d->size > 1) /* ranks share the K = 2 search only if all got there */
            h.stopped = !d->agree(d->user, !h.stopped);
        if (!st && k >= 2 && !h.stopped) st = hss_search_two(&h, &best, err);
    }
    if (!st) st = make_model(out, &h, &best, err);
    hss_clear(&h);
    return st;
}

/* Effective size bound: K, and what the depth allows. */
static uint32_t size_bound(const pdt_fit_options *opt)
{
    uint32_t k = opt->max_size, d = opt->max_depth;
    if (d < 31 && ((UINT32_C(1) << d) - 1) < k) k = (UINT32_C(1) << d) - 1;
    return k;
}

const char *hs_solve_declines(const pdt_dataset *ds, const pdt_fit_options *opt)
{
    hs_lift L;
    pdt_error ignored;
    if (hs_lift_init(&L, pdt_dataset_dims(ds), opt->rule_params.degree, &ignored))
        return NULL; /* hs_solve reports the bad degree */
    if (size_bound(opt) > 2) return "trees of more than 2 branch nodes (it fits at most 2 branch nodes)";
    if (L.G > HSS_MAX_G) return "degrees lifting to more than 6 dimensions";
    if (opt->trace) return "tracing (--explain)";
    if (opt->sparse || opt->lexicographic) return "--sparse or --lexicographic";
    return NULL;
}

pdt_status hs_certificate_bounds(int64_t *out, const pdt_dataset *ds, const pdt_fit_options *opt,
                                 const uint64_t *const *regions, size_t n_regions, pdt_error *err)
{
    hss h;
    memset(&h, 0, sizeof h);
    pdt_status st = hss_init(&h, ds, opt, true, err);
    hss_split root = {.value = INT64_MAX};
    if (!st) {
        hss_region all;
        hss_region_init(&h, &all, h.all, h.by_class, h.cnt + 6 * h.C);
        st = hss_scan_tuples(&h, true, &root, &all, err);
    }
    if (!st) st = hss_certs_build(&h, err);
    for (size_t r = 0; !st && r < n_regions; r++) out[r] = hss_certs_bound(&h, regions[r], INT64_MAX, h.tmp);
    hss_clear(&h);
    return st;
}

pdt_status hs_solve(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err)
{
    *out = NULL;
    hs_lift L;
    pdt_status st = hs_lift_init(&L, pdt_dataset_dims(ds), opt->rule_params.degree, err);
    return st ? st : hss_run(out, ds, opt, size_bound(opt), err);
}
