/* Witnesses of "no errorless tree" (--lexicographic, two classes).
 *
 * The least size of a tree with no error is monotone in the items: a tree
 * that fits S fits every W ⊆ S (its splits that become degenerate dropped).
 * So when the sample test (binary_perfect.c) finds that a sample W of at
 * most 64 items has no errorless tree of ≤ k nodes within depth d, every
 * item set that contains W has none either — not only the set W was drawn
 * from.  The similarity bound needs an old set with more errors than the
 * items it lacks of the new one; a witness only needs its few items to be
 * there, which sibling sets of a node often are.
 *
 * The last WIT_CAP witnesses are kept (a ring), each as its items, its
 * (d, k) — d is UINT32_MAX when k ≤ d: trees of ≤ k nodes are at most k
 * deep, so then no depth has one — and the features true on all of its
 * items and those false on all of them.  A witness inside a node's items is
 * inside the child D ∧ f exactly when f is true on all of it, so a node
 * reads every witness once, into the largest k per (side, feature), and a
 * child's bound is a lookup (plus the witnesses added since).  They are
 * used only once the root has an errorless tree (every bound below it is
 * below one error's value). */
#include <stdlib.h>
#include <string.h>

#include "binary_solver.h"

#define WIT_CAP 1024

static size_t stride(const bs_search *s) { return 1 + s->words + 2 * s->bp_fw; }

void bw_add(bs_search *s, const uint32_t *idx, uint64_t slots, uint32_t d, uint32_t k)
{
    if (k == 0 || !s->proven || !slots) return;
    const size_t W = s->words, FW = s->bp_fw;
    if (!s->wit && !(s->wit = calloc((size_t)WIT_CAP * stride(s), sizeof *s->wit))) return;
    uint64_t *e = s->wit + (size_t)(s->wit_next % WIT_CAP) * stride(s), *all1 = e + 1 + W, *all0 = all1 + FW;
    memset(e, 0, (1 + W) * sizeof *e);
    for (size_t w = 0; w < 2 * FW; w++) all1[w] = ~UINT64_C(0);
    for (uint64_t x = slots; x; x &= x - 1) {
        const uint32_t i = idx[__builtin_ctzll(x)];
        const uint64_t *row = s->bp_rows + (size_t)i * FW;
        e[1 + i / 64] |= UINT64_C(1) << (i % 64);
        for (size_t w = 0; w < FW; w++) all1[w] &= row[w], all0[w] &= ~row[w];
    }
    e[0] = (uint64_t)(k <= d ? UINT32_MAX : d) << 32 | k;
    s->wit_next++;
}

static const uint64_t *entry(const bs_search *s, uint64_t j) { return s->wit + (size_t)(j % WIT_CAP) * stride(s); }

/* k of witness e when it is for depth ≥ d and its items are all in D, else 0. */
static uint32_t k_in(const bs_search *s, const uint64_t *e, const uint64_t *D, uint32_t d)
{
    if ((uint32_t)(e[0] >> 32) < d) return 0;
    for (size_t w = 0; w < s->words; w++)
        if (e[1 + w] & ~D[w]) return 0;
    return (uint32_t)e[0];
}

/* The largest k over the witnesses from..wit_next (those still kept). */
static uint32_t k_since(const bs_search *s, uint64_t from, const uint64_t *D, uint32_t d, uint32_t best)
{
    if (s->wit_next > WIT_CAP && from < s->wit_next - WIT_CAP) from = s->wit_next - WIT_CAP;
    for (uint64_t j = from; j < s->wit_next; j++) {
        const uint32_t k = k_in(s, entry(s, j), D, d);
        if (k > best) best = k;
    }
    return best;
}

/* The node's witnesses for its children's depth, per (side, feature). */
static void node_read(bs_search *s, bs_level *lv)
{
    const size_t nf = s->data->nf, FW = s->bp_fw;
    lv->wit_ready = true;
    lv->wit_mark = s->wit_next;
    if (!lv->wit_k && !(lv->wit_k = malloc(2 * nf + 1))) return;
    memset(lv->wit_k, 0, 2 * nf);
    const uint64_t from = s->wit_next > WIT_CAP ? s->wit_next - WIT_CAP : 0;
    for (uint64_t j = from; j < s->wit_next; j++) {
        const uint64_t *e = entry(s, j), *all1 = e + 1 + s->words;
        const uint32_t k = k_in(s, e, lv->node->bits, lv->wit_dch);
        for (int side = 0; side < 2 && k; side++)
            for (size_t w = 0; w < FW; w++)
                for (uint64_t x = all1[side ? w : FW + w]; x; x &= x - 1) {
                    const size_t f = w * 64 + (size_t)__builtin_ctzll(x);
                    if (f >= nf) break; /* the row's padding */
                    if (lv->wit_k[(size_t)side * nf + f] < k) lv->wit_k[(size_t)side * nf + f] = (uint8_t)k;
                }
    }
}

static uint32_t largest_k(bs_search *s, bs_set *D, uint32_t d)
{
    if (D->wit_valid && D->wit_d == d) {
        D->wit_k = k_since(s, D->wit_seen, D->bits, d, D->wit_k);
        D->wit_seen = s->wit_next;
        return D->wit_k;
    }
    bs_level *lv = D->owner;
    uint32_t best = 0;
    if (lv && lv->node && d <= lv->wit_dch && D->via_f < s->data->nf) {
        if (!lv->wit_ready) node_read(s, lv);
        if (lv->wit_k) best = lv->wit_k[(size_t)(D->via_side ? 1 : 0) * s->data->nf + D->via_f];
        best = k_since(s, lv->wit_mark, D->bits, d, best);
    } else {
        best = k_since(s, 0, D->bits, d, 0);
    }
    D->wit_valid = true, D->wit_d = d, D->wit_k = best;
    D->wit_seen = s->wit_next;
    return best;
}

bs_value bw_lower(bs_search *s, bs_set *D, uint32_t d, uint32_t n)
{
    if (!s->wit || !s->errorless_root) return 0;
    const uint32_t k = largest_k(s, D, d);
    if (k == 0) return 0;
    return k >= n ? s->unit : (bs_value)k + 1; /* none within n nodes: at least one error */
}

void bw_clear(bs_search *s)
{
    free(s->wit);
    s->wit = NULL;
    s->wit_next = 0;
}
