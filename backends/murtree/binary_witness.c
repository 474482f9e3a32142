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
 * inside the child D ∧ f exactly when f is true on all of it, so each node
 * of the recursion keeps the witnesses inside it (read from its parent's
 * list) and per side and k the features true (false) on all of one of
 * them, a bitset: a child's bound is a lookup.
 * A new witness is added to every level whose node holds it.  Used only
 * once the root has an errorless tree (every bound below it is below one
 * error's value). */
#include <stdlib.h>
#include <string.h>

#include "binary_solver.h"

#define WIT_CAP 1024
#define WIT_KMAX 3 /* the sample test decides up to three nodes */

static size_t stride(const bs_search *s) { return 1 + s->words + 2 * s->bp_fw; }
static const uint64_t *entry(const bs_search *s, uint64_t j) { return s->wit + (size_t)(j % WIT_CAP) * stride(s); }

/* k of witness e when it is for depth ≥ d and its items are all in D, else 0. */
static uint32_t k_in(const bs_search *s, const uint64_t *e, const uint64_t *D, uint32_t d)
{
    if ((uint32_t)(e[0] >> 32) < d) return 0;
    for (size_t w = 0; w < s->words; w++)
        if (e[1 + w] & ~D[w]) return 0;
    return (uint32_t)e[0];
}

/* Witness at ring position p, inside lv's node: listed, and its constant
 * features marked under its k when it is deep enough. */
static void level_take(const bs_search *s, bs_level *lv, uint32_t p)
{
    const size_t FW = s->bp_fw;
    const uint64_t *e = entry(s, p), *all1 = e + 1 + s->words;
    if (lv->n_wit_in < WIT_CAP) lv->wit_in[lv->n_wit_in++] = p;
    const uint32_t k = (uint32_t)e[0];
    if ((uint32_t)(e[0] >> 32) < lv->wit_dch || k > WIT_KMAX) return;
    for (int side = 0; side < 2; side++) {
        uint64_t *to = lv->wit_k + ((size_t)side * (WIT_KMAX + 1) + k) * FW;
        for (size_t w = 0; w < FW; w++) to[w] |= all1[side ? w : FW + w];
    }
}

void bw_add(bs_search *s, const uint32_t *idx, uint64_t slots, uint32_t d, uint32_t k)
{
    if (k == 0 || !s->proven || !slots || s->wit_off) return;
    const size_t W = s->words, FW = s->bp_fw;
    if (!s->wit && !(s->wit = calloc((size_t)WIT_CAP * stride(s), sizeof *s->wit))) return;
    const uint32_t p = (uint32_t)(s->wit_next++ % WIT_CAP);
    uint64_t *e = s->wit + (size_t)p * stride(s), *all1 = e + 1 + W, *all0 = all1 + FW;
    memset(e, 0, (1 + W) * sizeof *e);
    for (size_t w = 0; w < 2 * FW; w++) all1[w] = ~UINT64_C(0);
    for (uint64_t x = slots; x; x &= x - 1) {
        const uint32_t i = idx[__builtin_ctzll(x)];
        const uint64_t *row = s->bp_rows + (size_t)i * FW;
        e[1 + i / 64] |= UINT64_C(1) << (i % 64);
        for (size_t w = 0; w < FW; w++) all1[w] &= row[w], all0[w] &= ~row[w];
    }
    e[0] = (uint64_t)(k <= d ? UINT32_MAX : d) << 32 | k;
    for (size_t L = 0; L < s->n_levels; L++) { /* the levels whose node holds it (stale ones are rebuilt) */
        bs_level *lv = s->levels[L];
        if (lv && lv->wit_ready && lv->node && k_in(s, e, lv->node->bits, 0)) level_take(s, lv, p);
    }
}

/* The level's witnesses: those of its parent's list (or of the ring) inside its node. */
static void level_read(bs_search *s, bs_level *lv)
{
    const size_t words = 2 * (WIT_KMAX + 1) * s->bp_fw;
    if ((!lv->wit_k && !(lv->wit_k = malloc(words * sizeof *lv->wit_k))) ||
        (!lv->wit_in && !(lv->wit_in = malloc(WIT_CAP * sizeof *lv->wit_in))))
        return;
    memset(lv->wit_k, 0, words * sizeof *lv->wit_k);
    lv->n_wit_in = 0;
    lv->wit_ready = true;
    const bs_level *up = lv->index ? s->levels[lv->index - 1] : NULL;
    const bool from_parent = up && up->wit_ready && (lv->node == &up->l || lv->node == &up->r);
    const size_t n = from_parent ? up->n_wit_in : (s->wit_next < WIT_CAP ? s->wit_next : WIT_CAP);
    const uint32_t f = lv->node->via_f;
    if (from_parent && f < s->data->nf) { /* inside the parent's node: inside D ∧ (f = side) iff f is constant so on it */
        const size_t off = 1 + s->words + (lv->node->via_side ? 0 : s->bp_fw) + f / 64;
        for (size_t t = 0; t < n; t++) {
            const uint32_t p = up->wit_in[t];
            if (entry(s, p)[off] >> (f % 64) & 1) level_take(s, lv, p);
        }
        return;
    }
    for (size_t t = 0; t < n; t++) {
        const uint32_t p = from_parent ? up->wit_in[t] : (uint32_t)t;
        if (k_in(s, entry(s, p), lv->node->bits, 0)) level_take(s, lv, p);
    }
}

static uint32_t largest_k(bs_search *s, const bs_set *D, uint32_t d)
{
    bs_level *lv = D->owner;
    if (lv && lv->node && d <= lv->wit_dch && D->via_f < s->data->nf) {
        if (!lv->wit_ready) level_read(s, lv);
        if (lv->wit_ready) {
            const uint32_t f = D->via_f, FW = (uint32_t)s->bp_fw;
            const uint64_t *m = lv->wit_k + (size_t)(D->via_side ? 1 : 0) * (WIT_KMAX + 1) * FW;
            for (uint32_t k = WIT_KMAX; k > 0; k--)
                if (m[k * FW + f / 64] >> (f % 64) & 1) return k;
            return 0;
        }
    }
    uint32_t best = 0; /* a root: every witness */
    const size_t n = s->wit_next < WIT_CAP ? s->wit_next : WIT_CAP;
    for (size_t j = 0; j < n; j++) {
        const uint32_t k = k_in(s, entry(s, j), D->bits, d);
        if (k > best) best = k;
    }
    return best;
}

/* The largest k of a witness inside D ∧ (f = side) for lv's node, from the
 * level's bits (0: none, or the bits are not at hand). */
static uint32_t child_k(bs_search *s, bs_level *lv, uint32_t f, int side)
{
    if (!lv->wit_ready) level_read(s, lv);
    if (!lv->wit_ready) return 0;
    const uint32_t FW = (uint32_t)s->bp_fw;
    const uint64_t *m = lv->wit_k + (size_t)(side ? 1 : 0) * (WIT_KMAX + 1) * FW;
    for (uint32_t k = WIT_KMAX; k > 0; k--)
        if (m[k * FW + f / 64] >> (f % 64) & 1) return k;
    return 0;
}

/* The bound of a set holding a witness of no errorless tree of <= k nodes
 * (k = 0: none), searched with n nodes: at least one error when k >= n, else
 * at least k + 1 nodes.  bw_lower and the feature cut both read it. */
static bs_value k_bound(const bs_search *s, uint32_t k, uint32_t n)
{
    return k == 0 ? 0 : k >= n ? s->unit : (bs_value)k + 1;
}

bool bw_feature_cut(bs_search *s, bs_level *lv, uint32_t f, uint32_t total, uint32_t nmin, uint32_t nmax,
                    int64_t cub, bs_value *local)
{
    if (!s->wit || !s->errorless_root || !lv->node || cub >= (int64_t)s->unit || f >= s->data->nf) return false;
    const uint32_t kl = child_k(s, lv, f, 0), kr = child_k(s, lv, f, 1);
    if (!kl && !kr) return false;
    bs_value least = BS_VNONE;
    bool leafy = false; /* a configuration with a leaf child: its bound needs the leaf's errors */
    for (uint32_t nl = nmin; nl <= nmax; nl++) {
        const uint32_t nr = total - nl;
        if ((nl == 0 && !kl) || (nr == 0 && !kr)) return false; /* a leaf that may be pure */
        if (nl == 0 || nr == 0) { /* a leaf holding a witness: one error at least, cut */
            leafy = true;
            continue;
        }
        const bs_value v = k_bound(s, kl, nl) + k_bound(s, kr, nr) + s->per_node;
        if ((int64_t)v <= cub) return false;
        if (v < least) least = v;
    }
    if (least == BS_VNONE || (leafy && least >= s->unit)) return false; /* the least bound is not known */
    *local = least;
    return true;
}

bs_value bw_lower(bs_search *s, const bs_set *D, uint32_t d, uint32_t n)
{
    if (!s->wit || !s->errorless_root) return 0;
    return k_bound(s, largest_k(s, D, d), n);
}

void bw_clear(bs_search *s)
{
    free(s->wit);
    s->wit = NULL;
    s->wit_next = 0;
}
