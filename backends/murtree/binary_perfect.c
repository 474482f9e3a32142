/* Errorless trees of at most three branch nodes, decided on a sample.
 *
 * In the lexicographic search a bound below one error's value (ub < unit)
 * admits only trees with no error and at most ub nodes.  Most such
 * subproblems have no such tree, and the depth-2 solver's pair counts (every
 * feature pair, every word of the items) are a costly way to say so.
 *
 * Fewest nodes is monotone in the items: a tree with no error on S has no
 * error on any W ⊆ S, and its splits that become degenerate on W can be
 * dropped.  So when no subset W of at most 64 items has an errorless tree of
 * ≤ k nodes within depth d, neither has S — and on 64 items every feature is
 * one word.  W starts as 32 items spread over S; when W admits a tree that
 * misclassifies some of S, the first items of each class in every impure
 * leaf are added (so that tree no longer fits W) and W is solved again.  A
 * tree that fits all of S is the least for S too (none smaller fits W);
 * when W is full, the least on W is still a lower bound for S.
 *
 * On W (two classes, a = the items of class 0) the shapes of ≤ 3 nodes,
 * all splits non-degenerate (a degenerate one never makes a tree smaller):
 *   0  W pure;  1  a feature g equal to a or ¬a on W;
 *   2  a feature f with one side pure and the other a stump;
 *   3  f with two stumps below (depth 2), or a pure side and a two-node side
 *      (the chain, depth 3). */
#include <stdlib.h>
#include <string.h>

#include "binary_solver.h"

#define BP_START 16 /* items in the first sample (small: its witness, binary_witness.c, fits more sets) */
#define BP_PARENT 48 /* items in a node's sample for its children (the rest of 64 for refining) */
#define BP_MIN_ITEMS 512 /* the default least item set tested (PDT_BINARY_SAMPLE_MIN) */
#define BP_FW_MAX 64 /* feature words of an item's row (4096 features); more: no test */

/* A found tree as its leaves: up to four conjunctions of up to three literals. */
typedef struct bp_tree {
    uint32_t size, depth, n_leaves, n_lits[4];
    uint32_t f[4][3];
    uint8_t side[4][3];
} bp_tree;

typedef struct bp_sample {
    const uint64_t *c;   /* one word per kept feature: the sample's items having it */
    const uint32_t *fid; /* the kept feature's index */
    uint64_t a;          /* the sample's items of class 0 */
    size_t nf;
    uint32_t *order;     /* scratch of w_le2, 2 · nf */
} bp_sample;

static bool w_pure(const bp_sample *w, uint64_t x) { return !(x & w->a) || !(x & ~w->a); }

/* x's stump feature, -2 when x is pure, -1 when neither. */
static int64_t w_le1(const bp_sample *w, uint64_t x)
{
    if (w_pure(w, x)) return -2;
    for (size_t g = 0; g < w->nf; g++) {
        const uint64_t y = (w->c[g] ^ w->a) & x;
        if (!y || y == x) return (int64_t)g;
    }
    return -1;
}

/* The features in w->order sorted by their violations on x in the better of
 * the two senses (w->order + nf holds the counts; a counting sort, ≤ 64). */
static void by_violations(const bp_sample *w, uint64_t x)
{
    uint32_t start[66] = {0}, *order = w->order, *viol = w->order + w->nf;
    const uint32_t m = (uint32_t)__builtin_popcountll(x);
    for (size_t j = 0; j < w->nf; j++) {
        const uint32_t v = (uint32_t)__builtin_popcountll((w->c[j] ^ w->a) & x);
        viol[j] = v < m - v ? v : m - v;
        start[viol[j] + 1]++;
    }
    for (size_t v = 1; v < 66; v++) start[v] += start[v - 1];
    for (size_t j = 0; j < w->nf; j++) order[start[viol[j]]++] = (uint32_t)j;
}

/* Whether y ⊆ x has a ≤ 1-node tree, given the features sorted by their
 * violations on x (by_violations): a stump of y has all its violations on x
 * inside x ∖ y, so only those with at most p = |x ∖ y| are tried. */
static bool has_le1(const bp_sample *w, uint64_t y, uint32_t p)
{
    if (w_pure(w, y)) return true;
    const uint32_t *order = w->order, *viol = w->order + w->nf;
    for (size_t q = 0; q < w->nf && viol[order[q]] <= p; q++) {
        const uint64_t z = (w->c[order[q]] ^ w->a) & y;
        if (!z || z == y) return true;
    }
    return false;
}

/* A necessary condition for w_le2: a stump g of x ∖ P (P a pure side of some
 * feature, the other side not empty) has its violations on x, in one of the two
 * senses, inside P, so inside the union of the pure sides of P's class (an
 * empty one: g is a stump of x, every side pure).  Most calls find none, and
 * this costs two passes of word operations against w_le2's counts and sort. */
static bool le2_possible(const bp_sample *w, uint64_t x)
{
    uint64_t u[2] = {0, 0}; /* the pure sides of class 0 (in a) and of class 1 */
    for (size_t h = 0; h < w->nf; h++) {
        const uint64_t s1 = x & w->c[h], s0 = x & ~w->c[h];
        if (!s0 || !s1) continue;
        u[0] |= (s0 & ~w->a ? 0 : s0) | (s1 & ~w->a ? 0 : s1);
        u[1] |= (s0 & w->a ? 0 : s0) | (s1 & w->a ? 0 : s1);
    }
    for (size_t g = 0; g < w->nf; g++) {
        const uint64_t v = (w->c[g] ^ w->a) & x, o = x & ~v;
        if (!(v & ~u[0]) || !(v & ~u[1]) || !(o & ~u[0]) || !(o & ~u[1])) return true;
    }
    return false;
}

/* Two nodes on x: f with pure side *k and a ≤ 1-node other side (*g).  A
 * stump g of x ∖ P (P the pure side) has all its violations on x — the items
 * where g differs from a, or those where it agrees — inside P, so only the
 * features with at most |P| violations (in one of the two senses) are tried:
 * they are sorted by that count once (a counting sort, counts ≤ 64; *sorted
 * := whether they now are, for x). */
static bool w_le2(const bp_sample *w, uint64_t x, uint32_t *f, int *k, int64_t *g, bool *sorted)
{
    *sorted = false;
    if (!le2_possible(w, x)) return false;
    const uint32_t *order = w->order, *viol = w->order + w->nf;
    by_violations(w, x);
    *sorted = true;
    for (size_t h = 0; h < w->nf; h++) {
        const uint64_t side[2] = {x & ~w->c[h], x & w->c[h]};
        if (!side[0] || !side[1]) continue;
        for (int j = 0; j < 2; j++) {
            if (!w_pure(w, side[j])) continue;
            const uint64_t y = side[1 - j];
            const uint32_t p = (uint32_t)__builtin_popcountll(side[j]);
            int64_t r = w_pure(w, y) ? -2 : -1;
            for (size_t q = 0; r == -1 && q < w->nf && viol[order[q]] <= p; q++) {
                const uint64_t z = (w->c[order[q]] ^ w->a) & y;
                if (!z || z == y) r = order[q];
            }
            if (r == -1) continue;
            *f = w->fid[h], *k = j, *g = r < 0 ? r : (int64_t)w->fid[r];
            return true;
        }
    }
    return false;
}

static void leaf(bp_tree *t, const uint32_t *f, const uint8_t *side, uint32_t n)
{
    uint32_t at = t->n_leaves++;
    t->n_lits[at] = n;
    for (uint32_t j = 0; j < n; j++) t->f[at][j] = f[j], t->side[at][j] = side[j];
}

/* Leaves below the path (f, side) for a ≤ 1-node subtree g (-2: a leaf). */
static void leaves_le1(bp_tree *t, uint32_t *f, uint8_t *side, uint32_t n, int64_t g)
{
    if (g < 0) return leaf(t, f, side, n);
    f[n] = (uint32_t)g;
    for (uint8_t v = 0; v < 2; v++) side[n] = v, leaf(t, f, side, n + 1);
}

static void leaves_le2(bp_tree *t, uint32_t *f, uint8_t *side, uint32_t n, uint32_t h, int k, int64_t g)
{
    f[n] = h;
    side[n] = (uint8_t)k;
    leaf(t, f, side, n + 1);
    side[n] = (uint8_t)(1 - k);
    leaves_le1(t, f, side, n + 1, g);
}

/* The least errorless tree on the sample with ≤ k nodes within depth d (its
 * leaves in t), or false. */
static bool w_least(const bp_sample *w, uint64_t all, uint32_t d, uint32_t k, bp_tree *t)
{
    uint32_t f[3];
    uint8_t side[3];
    *t = (bp_tree){0};
    int64_t g = w_le1(w, all);
    if (g == -2) return leaves_le1(t, f, side, 0, -2), true;
    if (k == 0 || d == 0) return false;
    if (g >= 0) g = w->fid[g];
    if (g >= 0) return t->size = t->depth = 1, leaves_le1(t, f, side, 0, g), true;
    if (k == 1 || d == 1) return false;
    uint32_t h;
    int j;
    bool sorted;
    if (w_le2(w, all, &h, &j, &g, &sorted)) return t->size = t->depth = 2, leaves_le2(t, f, side, 0, h, j, g), true;
    if (k == 2) return false;
    if (!sorted) by_violations(w, all); /* for has_le1; the tree's stumps are the first in index order */
    for (size_t r = 0; r < w->nf; r++) { /* depth 2: a stump on each side */
        const uint64_t s0 = all & ~w->c[r], s1 = all & w->c[r];
        if (!s0 || !s1) continue;
        const uint32_t p0 = (uint32_t)__builtin_popcountll(s0), p1 = (uint32_t)__builtin_popcountll(s1);
        if (p0 >= p1 ? !has_le1(w, s0, p1) || !has_le1(w, s1, p0) : !has_le1(w, s1, p0) || !has_le1(w, s0, p1))
            continue;
        int64_t g0 = w_le1(w, s0), g1 = w_le1(w, s1);
        t->size = 3, t->depth = 2;
        f[0] = w->fid[r];
        g0 = g0 < 0 ? g0 : (int64_t)w->fid[g0], g1 = g1 < 0 ? g1 : (int64_t)w->fid[g1];
        side[0] = 0, leaves_le1(t, f, side, 1, g0);
        side[0] = 1, leaves_le1(t, f, side, 1, g1);
        return true;
    }
    if (d < 3) return false;
    for (size_t r = 0; r < w->nf; r++) { /* the chain: a pure side, a two-node side */
        const uint64_t s[2] = {all & ~w->c[r], all & w->c[r]};
        if (!s[0] || !s[1]) continue;
        for (int p = 0; p < 2; p++) {
            if (!w_pure(w, s[p]) || !w_le2(w, s[1 - p], &h, &j, &g, &sorted)) continue;
            t->size = t->depth = 3;
            f[0] = w->fid[r];
            side[0] = (uint8_t)p, leaf(t, f, side, 1);
            side[0] = (uint8_t)(1 - p), leaves_le2(t, f, side, 1, h, j, g);
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------ the sample */

static void add_item(bs_search *s, uint64_t *c, uint64_t *a, uint32_t *idx, uint32_t *n, uint32_t i)
{
    for (uint32_t j = 0; j < *n; j++)
        if (idx[j] == i) return;
    const uint64_t bit = UINT64_C(1) << *n;
    const uint64_t *row = s->bp_rows + (size_t)i * s->bp_fw;
    for (size_t k = 0; k < s->bp_fw; k++)
        for (uint64_t x = row[k]; x; x &= x - 1) c[k * 64 + (size_t)__builtin_ctzll(x)] |= bit;
    if ((s->data->cls[i / 64] >> (i % 64)) & 1) *a |= bit;
    idx[(*n)++] = i;
}

/* Up to want items of the set (masked by class: flip 0 for class 0, ~0 for
 * the other), spread evenly over its cnt items of that class. */
static void spread(bs_search *s, const uint64_t *items, uint64_t flip, uint32_t cnt, uint32_t want,
                   uint64_t *c, uint64_t *a, uint32_t *idx, uint32_t *n)
{
    const uint64_t *A = s->data->cls;
    uint64_t seen = 0, target = 0; /* the position of the next item taken */
    uint32_t taken = 0;
    if (want > cnt) want = cnt;
    for (size_t w = 0; w < s->words && taken < want; w++) {
        const uint64_t bits = items[w] & (A[w] ^ flip);
        const uint32_t k = (uint32_t)__builtin_popcountll(bits);
        if (seen + k <= target) {
            seen += k;
            continue;
        }
        for (uint64_t x = bits; x && taken < want; x &= x - 1, seen++) {
            if (seen != target) continue;
            add_item(s, c, a, idx, n, (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x)));
            target = (uint64_t)++taken * cnt / want;
        }
    }
}

/* A first sample: up to size items, half of each class when there are
 * enough, spread evenly over the set. */
static void first_sample(bs_search *s, const uint64_t *items, uint32_t m, uint32_t size, uint64_t *c,
                         uint64_t *a, uint32_t *idx, uint32_t *n)
{
    uint32_t in = 0;
    for (size_t w = 0; w < s->words; w++) in += (uint32_t)__builtin_popcountll(items[w] & s->data->cls[w]);
    const uint32_t out = m - in, half = size / 2;
    const uint32_t want_in = in < half ? in : out < half ? size - out : half;
    spread(s, items, 0, in, want_in, c, a, idx, n);
    spread(s, items, ~UINT64_C(0), out, size - *n, c, a, idx, n);
}

/* Adds the first item of each class of every leaf of t that is impure on the
 * items; false when t fits them all (or nothing could be added). */
static bool refine(bs_search *s, const uint64_t *items, const bp_tree *t, uint64_t *c, uint64_t *a,
                   uint32_t *idx, uint32_t *n, bool *fits)
{
    const size_t W = s->words;
    const uint64_t *A = s->data->cls;
    const uint32_t before = *n;
    *fits = true;
    for (uint32_t l = 0; l < t->n_leaves; l++) {
        int64_t first[2] = {-1, -1};
        for (size_t w = 0; w < W && (first[0] < 0 || first[1] < 0); w++) {
            uint64_t x = items[w];
            for (uint32_t j = 0; j < t->n_lits[l] && x; j++)
                x &= s->data->cols[(size_t)t->f[l][j] * W + w] ^ (t->side[l][j] ? 0 : ~UINT64_C(0));
            const uint64_t in = x & A[w], out = x & ~A[w];
            if (in && first[0] < 0) first[0] = (int64_t)(w * 64) + __builtin_ctzll(in);
            if (out && first[1] < 0) first[1] = (int64_t)(w * 64) + __builtin_ctzll(out);
        }
        if (first[0] < 0 || first[1] < 0) continue;
        *fits = false;
        for (int k = 0; k < 2; k++)
            if (*n < 64) add_item(s, c, a, idx, n, (uint32_t)first[k]);
    }
    return *n > before;
}

/* The sample's distinct splits: columns neither constant nor equal to (or the
 * complement of) a kept one (open addressing on the column made to have bit 0
 * clear), in uc / ufid; their number. */
static size_t distinct(bs_search *s, const uint64_t *c, uint64_t all, uint64_t *uc, uint32_t *ufid)
{
    const size_t mask = s->bp_slots - 1;
    size_t kept = 0;
    memset(s->bp_slot, 0, s->bp_slots * sizeof *s->bp_slot);
    for (size_t f = 0; f < s->data->nf; f++) {
        const uint64_t v = c[f] & all, key = v & 1 ? ~v & all : v;
        if (v == 0 || v == all) continue;
        size_t p = (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 40) & mask;
        bool dup = false;
        for (; s->bp_slot[p]; p = (p + 1) & mask) {
            const uint64_t o = uc[s->bp_slot[p] - 1];
            if ((o & 1 ? ~o & all : o) == key) {
                dup = true;
                break;
            }
        }
        if (dup) continue;
        s->bp_slot[p] = (uint32_t)kept + 1;
        uc[kept] = v;
        ufid[kept++] = (uint32_t)f;
    }
    return kept;
}

/* Solves the sample (slots below n0 count when in base, those from n0 to n
 * always), refining it until it says none, fits the items, or is full.  A
 * tree `found` on the first sample already (not NULL) is refined at once. */
static uint32_t sample_loop(bs_search *s, const uint64_t *items, uint64_t *c, uint64_t a, uint32_t *idx,
                            uint32_t n, uint32_t n0, uint64_t base, uint32_t d, uint32_t k, uint32_t *depth,
                            const bp_tree *found)
{
    const uint64_t low = n0 == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n0) - 1;
    bp_tree t;
    if (found) t = *found;
    for (;;) {
        const uint64_t all = (base & low) | ((n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) & ~low);
        bool fits;
        if (!found) {
            const bp_sample w = {s->bp_uc, s->bp_ufid, a, distinct(s, c, all, s->bp_uc, s->bp_ufid),
                                 s->bp_order};
            if (!w_least(&w, all, d, k, &t)) return bw_add(s, idx, all, d, k), k + 1;
        }
        found = NULL;
        if (refine(s, items, &t, c, &a, idx, &n, &fits)) continue;
        if (fits) *depth = t.depth ? t.depth : BP_EXACT_LEAF; /* the tree fits every item */
        return t.size; /* a lower bound: the least on a subset */
    }
}

uint32_t bp_least(bs_search *s, const uint64_t *items, uint32_t m, uint32_t d, uint32_t k, uint32_t *depth)
{
    *depth = 0;
    if (!s->bp_rows) return 0; /* no test: no bound */
    uint64_t *c = s->bp_cols, a = 0;
    uint32_t idx[64], n = 0;
    memset(c, 0, s->data->nf * sizeof *c);
    first_sample(s, items, m, BP_START, c, &a, idx, &n);
    return sample_loop(s, items, c, a, idx, n, 0, 0, d, k, depth, NULL);
}

void bp_parent_build(bs_search *s, bp_parent *p, const uint64_t *items, uint32_t m)
{
    p->a = 0;
    p->n = 0;
    memset(p->c, 0, s->data->nf * sizeof *p->c);
    first_sample(s, items, m, BP_PARENT, p->c, &p->a, p->idx, &p->n);
    p->all = p->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << p->n) - 1;
    p->nu = distinct(s, p->c, p->all, p->uc, p->ufid); /* constant or repeated on it: on any part too */
    p->ready = true;
}

/* First the parent's sample restricted to the side, as it is; then the same
 * sample refined in the slots it leaves free (no sample of the child's own),
 * from the tree found on it (the same tree the restricted sample's own distinct
 * columns give: a column first of its kind on the side is first on the parent's
 * sample too, and the search takes the first fit in feature order). */
uint32_t bp_least_in(bs_search *s, const bp_parent *p, uint32_t f, int side, const uint64_t *items, uint32_t m,
                     uint32_t d, uint32_t k, uint32_t *depth)
{
    (void)m;
    *depth = 0;
    if (!s->bp_rows) return 0;
    const uint64_t mask = (side ? p->c[f] : ~p->c[f]) & p->all;
    const bp_sample w = {p->uc, p->ufid, p->a, p->nu, s->bp_order};
    bp_tree t;
    if (!w_least(&w, mask, d, k, &t)) return bw_add(s, p->idx, mask, d, k), k + 1; /* a subset says none */
    uint32_t idx[64];
    memcpy(s->bp_cols, p->c, s->data->nf * sizeof *s->bp_cols);
    memcpy(idx, p->idx, p->n * sizeof *idx);
    return sample_loop(s, items, s->bp_cols, p->a, idx, p->n, p->n, mask, d, k, depth, &t);
}

/* The feature rows: bit f of item i's row is feature f (two classes, ≤ BP_FW_MAX
 * words).  Without them (other data, or no memory) bp_least bounds nothing. */
void bp_init(bs_search *s)
{
    const bs_data *dt = s->data;
    /* below this many items the depth-2 solver's counts cost less than a sample
     * (breast-wisconsin depth 5 is slower with 128, mushroom faster); the
     * oracle tests set 0 so that their small instances take this path */
    const char *env = getenv("PDT_BINARY_SAMPLE_MIN");
    char *end = NULL;
    unsigned long min = env ? strtoul(env, &end, 10) : 0;
    s->bp_min_items = env && *env && end && !*end && min <= UINT32_MAX ? (uint32_t)min : BP_MIN_ITEMS;
    /* once the root has an errorless tree, every set: its witnesses (binary_witness.c) prune */
    s->bp_min_errorless = env && *env && end && !*end && min <= UINT32_MAX ? (uint32_t)min : 0;
    const char *wit = getenv("PDT_BINARY_WITNESSES");
    s->wit_off = wit && !strcmp(wit, "0");
    const size_t FW = dt->nf ? (dt->nf + 63) / 64 : 1;
    if (s->bp_rows || dt->nc != 2 || FW > BP_FW_MAX) return;
    s->bp_fw = FW;
    s->bp_rows = calloc(dt->n * FW + 1, sizeof *s->bp_rows);
    s->bp_cols = calloc(dt->nf + 1, sizeof *s->bp_cols);
    s->bp_uc = calloc(dt->nf + 1, sizeof *s->bp_uc);
    s->bp_ufid = calloc(dt->nf + 1, sizeof *s->bp_ufid);
    s->bp_order = calloc(2 * dt->nf + 1, sizeof *s->bp_order);
    s->bp_slots = 16;
    while (s->bp_slots < 2 * dt->nf) s->bp_slots *= 2;
    s->bp_slot = calloc(s->bp_slots, sizeof *s->bp_slot);
    if (!s->bp_rows || !s->bp_cols || !s->bp_uc || !s->bp_ufid || !s->bp_order || !s->bp_slot) return bp_clear(s);
    for (size_t f = 0; f < dt->nf; f++) {
        const uint64_t *col = dt->cols + f * s->words;
        for (size_t i = 0; i < dt->n; i++)
            if ((col[i / 64] >> (i % 64)) & 1) s->bp_rows[i * FW + f / 64] |= UINT64_C(1) << (f % 64);
    }
}

void bp_clear(bs_search *s)
{
    free(s->bp_rows);
    free(s->bp_cols);
    free(s->bp_uc);
    free(s->bp_ufid);
    free(s->bp_slot);
    free(s->bp_order);
    s->bp_order = NULL;
    s->bp_rows = s->bp_cols = s->bp_uc = NULL;
    s->bp_ufid = s->bp_slot = NULL;
}
