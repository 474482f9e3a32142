/* The similarity bound between the root's children, for the whole team.
 *
 * The search's own similarity slots hold the last two item sets it solved at
 * each depth.  At the root's children that is the children of the last
 * feature or two the worker tried — with two workers, features two apart, not
 * the neighbour a serial search has just tried (australian-credit, depth 5:
 * two root features the serial search prunes by similarity cost the team
 * 1 900 and 1 600 subproblems).  Here every child of the root tried by any
 * worker is recorded with its lower bound, and a child about to be tried is
 * compared with all of them: T(C) ≥ T(old) − |old \ C|·unit (each item of
 * old that C lacks removes at most one error; the trees' sizes stay).  The
 * bound goes into the worker's cache as a lower bound of C for its limits,
 * where the configuration's bounds and C's search read it.  The records hold
 * only valid lower bounds, so the bound is valid in any order of the work;
 * the answer (the least rank, then position) does not depend on it. */
#include <stdlib.h>

#include "binary_root_sim.h"

bool br_sim_init(br_sim *rs, size_t words, size_t cap)
{
    *rs = (br_sim){.words = words, .cap = cap};
    rs->bits = malloc((cap ? cap : 1) * words * sizeof *rs->bits);
    rs->lb = malloc((cap ? cap : 1) * sizeof *rs->lb);
    rs->d = malloc((cap ? cap : 1) * sizeof *rs->d);
    rs->n = malloc((cap ? cap : 1) * sizeof *rs->n);
    if (rs->bits && rs->lb && rs->d && rs->n) return true;
    br_sim_clear(rs);
    return false;
}

void br_sim_clear(br_sim *rs)
{
    free(rs->bits), free(rs->lb), free(rs->d), free(rs->n);
    *rs = (br_sim){0};
}

void br_sim_add(br_sim *rs, bs_search *s, bs_set *C, uint32_t d, uint32_t n)
{
    bs_normalise(&d, &n);
    if (!rs->cap || d < 3 || C->m == 0 || C->leaf == 0) return;
    const bs_value lb = bs_lower_cheap(s, C, d, n);
    if (lb == 0) return;
    const size_t W = rs->words;
#pragma omp critical(br_sim)
    if (rs->count < rs->cap) {
        const size_t k = rs->count++;
        for (size_t w = 0; w < W; w++) rs->bits[k * W + w] = C->bits[w];
        rs->lb[k] = lb, rs->d[k] = d, rs->n[k] = n;
    }
}

/* The best similarity bound of C over the records that bound (d, n). */
static bs_value best_of(const br_sim *rs, const bs_search *s, const bs_set *C, uint32_t d, uint32_t n)
{
    const size_t W = rs->words;
    bs_value best = 0;
#pragma omp critical(br_sim)
    for (size_t k = 0; k < rs->count; k++) {
        const bs_value v = rs->lb[k];
        if (v <= best || rs->d[k] < d || rs->n[k] < n) continue;
        bs_value out = 0; /* |old \ C| · unit */
        const uint64_t *old = rs->bits + k * W;
        for (size_t w = 0; w < W && out < v; w++)
            out += (bs_value)__builtin_popcountll(old[w] & ~C->bits[w]) * s->unit;
        if (v > out && v - out > best) best = v - out;
    }
    /* a record of more nodes than n: its nodes do not bound C's when sizes are not proven */
    return s->per_node && !s->proven ? bc_cap_nodes(best, n, s->unit) : best;
}

void br_sim_apply(const br_sim *rs, bs_search *s, bs_set *C, uint32_t d, uint32_t n)
{
    bs_normalise(&d, &n);
    if (!rs->cap || d < 3 || C->m == 0 || C->leaf == 0) return;
    const bs_value v = best_of(rs, s, C, d, n);
    if (v == 0 || v <= bs_lower_cheap(s, C, d, n)) return;
    bc_node *nd = bs_node_of(s, C);
    if (nd) bc_store_lower(&s->cache, nd, d, n, v);
}
