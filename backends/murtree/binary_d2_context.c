/* Depth-2 subproblems solved inside a depth-3 node (two classes).
 *
 * A depth-3 node tries every feature f and solves the depth-2 children
 * D ∧ ¬f and D ∧ f.  The node's items are compacted once (at the first child
 * that needs it); every child is then squeezed from those columns, which are
 * about half as wide as the dataset's, and its constant or duplicate columns
 * are already gone.  When the second child of the same feature follows the
 * first, its frequency counts are not counted at all: they are the node's
 * counts minus the first child's (MurTree §4.4.3, eqs. in Observation 1 with
 * D_old = the node, D_out = the first child), a subtraction of two triangles. */
#include <stdlib.h>
#include <string.h>

#include "binary_d2.h"

void d2_context_free(d2_context *c)
{
    void *p[] = {c->Mc, c->M, c->CL, c->fid, c->code, c->counts.T, c->counts.P};
    for (size_t k = 0; k < sizeof p / sizeof *p; k++) free(p[k]);
    memset(c, 0, sizeof *c);
}

uint64_t d2_context_enter(d2_solver *s, const uint64_t *items, uint32_t m)
{
    d2_context *c = &s->ctx;
    if (s->nc != 2) return 0;
    c->gen = ++s->gens;
    c->items = items;
    c->m = m;
    c->built = c->counted = c->last_valid = c->sib_ready = false;
    return c->gen;
}

static void build(d2_solver *s)
{
    d2_context *c = &s->ctx;
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
}

static void node_counts(d2_solver *s)
{
    d2_context *c = &s->ctx;
    if (c->counted) return;
    d2_count_pairs(s, c->M, c->CL + s->wcap, c->F, c->W, &c->counts);
    c->counted = true;
}

static void values_of(d2_solver *s, d2_counts *cn, uint32_t v[3])
{
    uint32_t zeros = cn->m - cn->ones;
    v[0] = v[1] = v[2] = cn->ones < zeros ? cn->ones : zeros;
    if (v[0]) d2_values_binary(s, cn, s->ctx.F, v);
}

/* The second child of the last feature: its counts are ready (the first was
 * derived from them), or the node's minus the first's. */
static void sibling(d2_solver *s, uint32_t v[3])
{
    d2_context *c = &s->ctx;
    d2_counts *out = &s->work[1 - c->last_buf];
    if (!c->sib_ready) {
        node_counts(s);
        d2_count_diff(s, c->F, &c->counts, &s->work[c->last_buf], out);
    }
    values_of(s, out, v);
    c->last_valid = false;
}

/* Counts of the items having bit `ones` in the node's column j into out
 * (m of them); returns their class-1 items. */
static uint32_t count_side(d2_solver *s, size_t j, bool ones, uint32_t m, d2_counts *out)
{
    d2_context *c = &s->ctx;
    const size_t fp = s->fp, W = c->W, Wc = (m + 63) / 64;
    const uint64_t flip = ones ? 0 : ~UINT64_C(0);
    for (size_t w = 0; w < W; w++) s->mask[w] = c->Mc[j * W + w] ^ flip;
    if (c->m & 63) s->mask[W - 1] &= (UINT64_C(1) << (c->m & 63)) - 1;
    size_t n_nz = d2_nonzero(s, s->mask, W);
    memset(s->CL + s->wcap, 0, Wc * sizeof *s->CL);
    uint32_t ones1 = d2_squeeze(s->CL + s->wcap, 1, c->CL + s->wcap, s->mask, s->nzw, s->nzc, n_nz);
    for (size_t k = 0; k < c->F + 8 && k < fp; k++) {
        for (size_t w = 0; w < Wc; w++) s->M[w * fp + k] = 0;
        if (k < c->F) d2_squeeze(s->M + k, fp, c->Mc + k * W, s->mask, s->nzw, s->nzc, n_nz);
    }
    d2_count_pairs(s, s->M, s->CL + s->wcap, c->F, Wc, out);
    out->m = m;
    out->ones = ones1;
    return ones1;
}

/* The child whose items have bit `ones` in the node's column j: counted
 * directly, or, when it holds most of the node's items, as the node's counts
 * minus its sibling's (the fewer items counted; the sibling's counts are then
 * kept for it: MurTree §4.4.3). */
static void child(d2_solver *s, size_t j, bool ones, uint32_t m, uint32_t v[3])
{
    d2_context *c = &s->ctx;
    const uint32_t rest = c->m - m;
    c->sib_ready = rest < m / 2;
    if (c->sib_ready) {
        node_counts(s);
        count_side(s, j, !ones, rest, &s->work[1]);
        d2_count_diff(s, c->F, &c->counts, &s->work[1], &s->work[0]);
    } else {
        count_side(s, j, ones, m, &s->work[0]);
    }
    values_of(s, &s->work[0], v);
    c->last_valid = true;
    c->last_buf = 0;
    c->last_f = (uint32_t)j | (ones ? D2_FLIP : 0);
}

void d2_values_in(d2_solver *s, const uint64_t *items, uint32_t m, uint64_t gen, uint32_t f, int side,
                  uint32_t v[3])
{
    d2_context *c = &s->ctx;
    if (s->seed && s->seed(s->seed_user, items, m, v)) return;
    if (!gen || gen != c->gen) return d2_values_solve(s, items, m, v);
    if (!c->built) build(s);
    uint32_t code = c->code[f];
    if (code == D2_CONST) return d2_values_solve(s, items, m, v); /* not a child of a real split */
    size_t j = code & ~D2_FLIP;
    bool ones = (side != 0) != ((code & D2_FLIP) != 0);
    if (c->last_valid && c->last_f == ((uint32_t)j | (ones ? 0 : D2_FLIP))) return sibling(s, v);
    child(s, j, ones, m, v);
}

/* The best stump of the child D ∧ (column j = ones) from the node's pair
 * counts: its single counts of column g are the node's pair counts of (j, g)
 * (or their complements), O(F) instead of a pass over every feature. */
static uint32_t stump_in(d2_solver *s, size_t j, bool ones)
{
    d2_context *c = &s->ctx;
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
    d2_context *c = &s->ctx;
    if (!gen || gen != c->gen) return d1_value(s, items, m);
    if (!c->built) build(s);
    uint32_t code = c->code[f];
    if (code == D2_CONST) return d1_value(s, items, m);
    node_counts(s);
    return stump_in(s, code & ~D2_FLIP, (side != 0) != ((code & D2_FLIP) != 0));
}
