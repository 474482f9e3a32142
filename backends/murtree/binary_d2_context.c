/* Depth-1 and depth-2 subproblems solved inside a node of depth ≥ 3 (two classes).
 *
 * A node tries every feature f and solves the children D ∧ ¬f and D ∧ f; the
 * children with at most three nodes are the depth-2 solver's.  The node's
 * items are compacted once (at the first child that needs it); every child is
 * then squeezed from those columns, which are narrower than the dataset's,
 * and its constant or duplicate columns are already gone.  Frequency counts
 * are counted on the smaller side of a split only: the larger child's are the
 * node's counts minus its sibling's (MurTree §4.4.3, eqs. in Observation 1
 * with D_old = the node, D_out = the sibling), a subtraction of two
 * triangles, and the sibling, solved next, takes its counts as they are.  A
 * depth-1 child's single counts are the node's pair counts of the split.
 * One context per depth limit (3 … 2 + D2_SLOTS): along a path of the search
 * the limit falls, so each node on it keeps its own; the slot is in the
 * generation's low bits. */
#include <stdlib.h>
#include <string.h>

#include "binary_d2.h"

void d2_context_free(d2_context *c)
{
    void *p[] = {c->Mc, c->M, c->CL, c->fid, c->code, c->counts.T, c->counts.P};
    for (size_t k = 0; k < sizeof p / sizeof *p; k++) free(p[k]);
    memset(c, 0, sizeof *c);
}

/* Bytes a context holds beyond depth 3's: the contexts of deeper limits are
 * a speed-up only, refused on data so wide or long that each would be large
 * (a solver per thread, and up to D2_SLOTS of them). */
#define DEEP_CONTEXT_BYTES ((size_t)64 << 20)

static bool context_alloc(d2_solver *s, d2_context *c, uint32_t d)
{
    const size_t fp = s->fp;
    if (d > 3 && 2 * fp * s->wcap * 8 + 2 * fp * fp * 4 > DEEP_CONTEXT_BYTES) return false;
    void **p[] = {(void **)&c->Mc, (void **)&c->M, (void **)&c->CL, (void **)&c->fid, (void **)&c->code,
                  (void **)&c->counts.T, (void **)&c->counts.P};
    size_t bytes[] = {fp * s->wcap * 8, s->wcap * fp * 8, s->nc * s->wcap * 8, fp * 4,
                      (s->data->nf + 1) * 4, fp * fp * 4, fp * fp * 4};
    bool ok = true;
    for (size_t k = 0; k < sizeof p / sizeof *p; k++) ok = (*p[k] = d2_alloc64(bytes[k])) && ok;
    if (!ok) d2_context_free(c);
    return ok;
}

uint64_t d2_context_enter_child(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t d, uint64_t pgen,
                                uint32_t f, int side)
{
    uint64_t gen = d2_context_enter_depth(s, items, m, d);
    if (gen) {
        d2_context *c = &s->ctx[d - 3];
        c->pgen = pgen, c->pf = f, c->pside = side;
    }
    return gen;
}

uint64_t d2_context_enter_depth(d2_solver *s, const uint64_t *items, uint32_t m, uint32_t d)
{
    if (s->nc != 2 || d < 3 || d - 3 >= D2_SLOTS) return 0;
    d2_context *c = &s->ctx[d - 3];
    if (!c->Mc && !context_alloc(s, c, d)) return 0;
    c->gen = (++s->gens << D2_SLOT_BITS) | (d - 3);
    c->items = items;
    c->m = m;
    c->built = c->counted = false;
    c->pgen = 0;
    return c->gen;
}

/* The context of gen, built, or NULL when gen is not current. */
static d2_context *context_of(d2_solver *s, uint64_t gen)
{
    if (!gen) return NULL;
    d2_context *c = &s->ctx[gen & (D2_SLOTS - 1)];
    if (c->gen != gen) return NULL;
    if (c->built) return c;
    const size_t fp = s->fp;
    c->F = d2_prepare(s, c->items, c->m, &c->W, c->code);
    memcpy(c->M, s->M, c->W * fp * sizeof *c->M);
    memcpy(c->CL, s->CL, s->nc * s->wcap * sizeof *c->CL);
    memcpy(c->fid, s->fid, c->F * sizeof *c->fid);
    for (size_t k = 0; k < c->F; k++)
        for (size_t w = 0; w < c->W; w++) c->Mc[k * c->W + w] = s->M[w * fp + k];
    c->counts.m = c->m;
    c->counts.ones = s->ctot[1];
    c->built = true;
    return c;
}

static void count_side(d2_solver *s, const d2_context *c, size_t j, bool ones, uint32_t m, d2_counts *out);
static void node_counts(d2_solver *s, d2_context *c);

/* out's triangles over F columns zeroed, in whole blocks of 8 (as the kernels read them). */
static void clear_triangles(size_t fp, size_t F, d2_counts *out)
{
    const size_t end = (F + 7) & ~(size_t)7;
    for (size_t i = 0; i < F; i++) {
        const size_t from = i & ~(size_t)7;
        memset(out->T + i * fp + from, 0, (end - from) * sizeof *out->T);
        memset(out->P + i * fp + from, 0, (end - from) * sizeof *out->P);
    }
}

/* Pair (x, y) of a triangle (either order). */
static inline size_t tri(size_t fp, size_t x, size_t y) { return x <= y ? x * fp + y : y * fp + x; }

/* Entry at of the side's counts: counted (base NULL) or base minus the other side's. */
static inline int64_t side_count(const uint32_t *base, const uint32_t *other, size_t at)
{
    return base ? (int64_t)base[at] - other[at] : other[at];
}

/* c's counts from its parent context p, c's items being p's items with bit
 * `ones` in p's column j: the counts of those items in p's columns (the
 * smaller side counted, as for a child), then per pair of c's columns the
 * pair of p's columns they equal or complement (c keeps no two columns alike
 * on its items, so no two map to one of p's):
 *   |a ∧ b| = t,  |¬a ∧ b| = n_b − t,  |¬a ∧ ¬b| = m − n_a − n_b + t. */
static void derive_counts(d2_solver *s, d2_context *c, d2_context *p, size_t j, bool ones)
{
    const size_t fp = s->fp, F = c->F;
    d2_counts A = {.T = s->mat + 2 * fp * fp, .P = s->mat + 3 * fp * fp}; /* count_side's scratch is mat's first half */
    const uint32_t rest = p->m - c->m;
    const bool via = rest < c->m / 2; /* then the counts are p's minus the other side's */
    if (via) node_counts(s, p);
    count_side(s, p, j, via ? !ones : ones, via ? rest : c->m, &A);
    const uint32_t *bT = via ? p->counts.T : NULL, *bP = via ? p->counts.P : NULL;
    const int64_t m = c->m, m1 = c->counts.ones;
    clear_triangles(fp, F, &c->counts);
    for (size_t a = 0; a < F; a++) {
        const uint32_t ca = p->code[c->fid[a]], pa = ca & ~D2_FLIP;
        const int64_t na = side_count(bT, A.T, pa * fp + pa), qa = side_count(bP, A.P, pa * fp + pa);
        for (size_t b = a; b < F; b++) {
            const uint32_t cb = p->code[c->fid[b]], pb = cb & ~D2_FLIP;
            const int64_t nb = side_count(bT, A.T, pb * fp + pb), qb = side_count(bP, A.P, pb * fp + pb);
            int64_t tt = side_count(bT, A.T, tri(fp, pa, pb)), pp = side_count(bP, A.P, tri(fp, pa, pb));
            if (a == b) {
                if (ca & D2_FLIP) tt = m - na, pp = m1 - qa;
            } else if ((ca & D2_FLIP) && (cb & D2_FLIP)) {
                tt = m - na - nb + tt, pp = m1 - qa - qb + pp;
            } else if (ca & D2_FLIP) {
                tt = nb - tt, pp = qb - pp;
            } else if (cb & D2_FLIP) {
                tt = na - tt, pp = qa - pp;
            }
            c->counts.T[a * fp + b] = (uint32_t)tt;
            c->counts.P[a * fp + b] = (uint32_t)pp;
        }
    }
}

/* The node's pair counts: from its parent's context when that is current,
 * the node one side of a split there, and the node's items many (as for
 * compacted counts: on a few words counting is cheaper than the remapping;
 * heart-cleveland depth 5 0.17 → 0.20 s CPU when always); else counted. */
static void node_counts(d2_solver *s, d2_context *c)
{
    if (c->counted) return;
    c->counted = true;
    d2_context *p = c->W >= s->compact_words ? context_of(s, c->pgen) : NULL;
    const uint32_t code = p ? p->code[c->pf] : D2_CONST;
    if (code != D2_CONST) {
        const bool ones = (c->pside != 0) != ((code & D2_FLIP) != 0);
        return derive_counts(s, c, p, code & ~D2_FLIP, ones);
    }
    d2_count_pairs(s, c->M, c->CL + s->wcap, c->F, c->W, &c->counts);
}

static void values_of(d2_solver *s, const d2_context *c, d2_counts *cn, uint32_t v[3])
{
    uint32_t zeros = cn->m - cn->ones;
    v[0] = v[1] = v[2] = cn->ones < zeros ? cn->ones : zeros;
    if (v[0]) d2_values_binary(s, cn, c->F, v);
}

/* The second child of the last feature: its counts are ready (the first was
 * derived from them), or the node's minus the first's. */
static void sibling(d2_solver *s, d2_context *c, uint32_t v[3])
{
    d2_counts *out = &s->work[1];
    if (!s->sib_ready) {
        node_counts(s, c);
        d2_count_diff(s, c->F, &c->counts, &s->work[0], out);
    }
    values_of(s, c, out, v);
    s->last_gen = 0;
}

/* The side's counts over the node's columns from those over the columns
 * counted (tmp): a column without the side's items (keep D2_CONST) pairs
 * with nothing, one with all of them (D2_FLIP) pairs with g as g alone. */
static void expand(const d2_solver *s, const d2_context *c, const d2_counts *tmp, d2_counts *out,
                   const uint32_t *nz, size_t n_nz)
{
    const size_t fp = s->fp;
    clear_triangles(fp, c->F, out);
    for (size_t x = 0; x < n_nz; x++) {
        const size_t a = nz[x], ka = s->keep[a];
        for (size_t y = x; y < n_nz; y++) {
            const size_t b = nz[y], kb = s->keep[b];
            size_t at = ka * fp + kb; /* ka ≤ kb: columns are counted in order */
            if (ka == D2_FLIP && kb == D2_FLIP) {
                out->T[a * fp + b] = tmp->m, out->P[a * fp + b] = tmp->ones;
                continue;
            }
            if (ka == D2_FLIP || kb == D2_FLIP) at = ka == D2_FLIP ? kb * fp + kb : ka * fp + ka;
            out->T[a * fp + b] = tmp->T[at];
            out->P[a * fp + b] = tmp->P[at];
        }
    }
}

/* Counts of the items having bit `ones` in the node's column j into out
 * (m of them).  On many items (COMPACT_WORDS words or more), pairs are
 * counted only among the columns that split them: on a small side of one-hot
 * data most columns have none of its items (mushroom one-hot: 60 %).  On
 * fewer, filling in the others' counts costs more than it saves
 * (australian-credit, depth 5: 0.8 → 1.3 s CPU when always; the words are
 * s->compact_words, D2_COMPACT_WORDS unless a test says otherwise). */
static void count_side(d2_solver *s, const d2_context *c, size_t j, bool ones, uint32_t m, d2_counts *out)
{
    const size_t fp = s->fp, W = c->W, Wc = (m + 63) / 64;
    const uint64_t flip = ones ? 0 : ~UINT64_C(0);
    const bool compact = Wc >= s->compact_words;
    for (size_t w = 0; w < W; w++) s->mask[w] = c->Mc[j * W + w] ^ flip;
    if (c->m & 63) s->mask[W - 1] &= (UINT64_C(1) << (c->m & 63)) - 1;
    size_t n_nz = d2_nonzero(s, s->mask, W), kept = 0, n_used = 0;
    memset(s->CL + s->wcap, 0, Wc * sizeof *s->CL);
    d2_counts tmp = {.T = s->mat, .P = s->mat + fp * fp, .m = m};
    tmp.ones = d2_squeeze(s, s->CL + s->wcap, 1, c->CL + s->wcap, s->mask, n_nz);
    uint32_t *used = s->seen_col; /* scratch: the columns with some item */
    for (size_t k = 0; k < c->F; k++) {
        for (size_t w = 0; w < Wc; w++) s->M[w * fp + kept] = 0;
        uint32_t o = d2_squeeze(s, s->M + kept, fp, c->Mc + k * W, s->mask, n_nz);
        if (!compact) {
            kept++;
            continue;
        }
        s->keep[k] = o == 0 ? D2_CONST : o == m ? D2_FLIP : (uint32_t)kept++;
        if (o) used[n_used++] = (uint32_t)k;
    }
    for (size_t k = kept; k < kept + 8 && k < fp; k++) /* the kernel reads whole blocks */
        for (size_t w = 0; w < Wc; w++) s->M[w * fp + k] = 0;
    out->m = m;
    out->ones = tmp.ones;
    if (!compact) return d2_count_pairs(s, s->M, s->CL + s->wcap, kept, Wc, out);
    if (kept) d2_count_pairs(s, s->M, s->CL + s->wcap, kept, Wc, &tmp);
    expand(s, c, &tmp, out, used, n_used);
}

/* The child whose items have bit `ones` in the node's column j: counted
 * directly, or, when it holds most of the node's items, as the node's counts
 * minus its sibling's (the fewer items counted; the sibling's counts are then
 * kept for it: MurTree §4.4.3). */
static void child(d2_solver *s, d2_context *c, size_t j, bool ones, uint32_t m, uint32_t v[3])
{
    const uint32_t rest = c->m - m;
    s->sib_ready = rest < m / 2;
    if (s->sib_ready) {
        node_counts(s, c);
        count_side(s, c, j, !ones, rest, &s->work[1]);
        d2_count_diff(s, c->F, &c->counts, &s->work[1], &s->work[0]);
    } else {
        count_side(s, c, j, ones, m, &s->work[0]);
    }
    values_of(s, c, &s->work[0], v);
    s->last_gen = c->gen;
    s->last_f = (uint32_t)j | (ones ? D2_FLIP : 0);
}

void d2_values_in(d2_solver *s, const uint64_t *items, uint32_t m, uint64_t gen, uint32_t f, int side,
                  uint32_t v[3])
{
    if (s->seed && s->seed(s->seed_user, items, m, v)) return;
    d2_context *c = context_of(s, gen);
    if (!c || c->code[f] == D2_CONST) return d2_values_solve(s, items, m, v); /* no context, or no real split */
    const uint32_t code = c->code[f], j = code & ~D2_FLIP;
    const bool ones = (side != 0) != ((code & D2_FLIP) != 0);
    if (s->last_gen == gen && s->last_f == (j | (ones ? 0 : D2_FLIP))) return sibling(s, c, v);
    child(s, c, j, ones, m, v);
}

/* The best stump of the child D ∧ (column j = ones) from the node's pair
 * counts: its single counts of column g are the node's pair counts of (j, g)
 * (or their complements), O(F) instead of a pass over every feature. */
static uint32_t stump_in(const d2_solver *s, const d2_context *c, size_t j, bool ones)
{
    const size_t fp = s->fp;
    const uint32_t *T = c->counts.T, *P = c->counts.P;
    const int32_t nj = (int32_t)T[j * fp + j], pj = (int32_t)P[j * fp + j];
    const int32_t mc = ones ? nj : (int32_t)c->m - nj, pc = ones ? pj : (int32_t)c->counts.ones - pj;
    int32_t best = pc < mc - pc ? pc : mc - pc;
    for (size_t g = 0; g < c->F && best > 0; g++) {
        const size_t at = g < j ? g * fp + j : j * fp + g;
        int32_t n = (int32_t)T[at], p = (int32_t)P[at];
        if (!ones) n = (int32_t)T[g * fp + g] - n, p = (int32_t)P[g * fp + g] - p;
        const int32_t r = p < n - p ? p : n - p, lp = pc - p, ln = mc - n;
        const int32_t cost = r + (lp < ln - lp ? lp : ln - lp);
        if (cost < best) best = cost;
    }
    return (uint32_t)best;
}

uint32_t d1_value_in(d2_solver *s, const uint64_t *items, uint32_t m, uint64_t gen, uint32_t f, int side)
{
    d2_context *c = context_of(s, gen);
    if (!c || c->code[f] == D2_CONST) return d1_value(s, items, m);
    node_counts(s, c);
    const uint32_t code = c->code[f];
    return stump_in(s, c, code & ~D2_FLIP, (side != 0) != ((code & D2_FLIP) != 0));
}
