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
    c->built = c->counted = c->last_valid = false;
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

/* The second child of the last feature: the node's counts minus the first's. */
static void sibling(d2_solver *s, uint32_t v[3])
{
    d2_context *c = &s->ctx;
    if (!c->counted) {
        d2_count_pairs(s, c->M, c->CL + s->wcap, c->F, c->W, &c->counts);
        c->counted = true;
    }
    d2_counts *out = &s->work[1 - c->last_buf];
    d2_count_diff(s, c->F, &c->counts, &s->work[c->last_buf], out);
    uint32_t zeros = out->m - out->ones;
    v[0] = v[1] = v[2] = out->ones < zeros ? out->ones : zeros;
    if (v[0]) d2_values_binary(s, out, c->F, v);
    c->last_valid = false;
}

/* The child whose items have bit `ones` in the node's column j. */
static void child(d2_solver *s, size_t j, bool ones, uint32_t m, uint32_t v[3])
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
    int b = c->last_valid ? 1 - c->last_buf : 0;
    d2_counts *out = &s->work[b];
    d2_count_pairs(s, s->M, s->CL + s->wcap, c->F, Wc, out);
    out->m = m;
    out->ones = ones1;
    v[0] = v[1] = v[2] = ones1 < m - ones1 ? ones1 : m - ones1;
    if (v[0]) d2_values_binary(s, out, c->F, v);
    c->last_valid = true;
    c->last_buf = b;
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
