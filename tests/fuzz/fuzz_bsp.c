/* Fuzz target: the segment loader of binary space partitions (pdt_bsp_read:
 * "x1 y1 x2 y2" per line, exact numbers, no crossings).  At most 6 segments
 * in at most 24 pieces are then solved under both objectives; the optimum
 * may not be worse than the auto-partition of any permutation tried (every
 * one with at most 4 segments, else 8 random ones), and the tree's text is
 * written. */
#include <stdlib.h>

#include "../../problems/bsp.h"
#include "harness.h"

#define SMALL_SEGMENTS 6
#define SMALL_PIECES 24

/* Visits every permutation of perm[k..n) by swapping (n <= 4 here). */
static void each_permutation(uint32_t *perm, size_t k, size_t n, const pdt_bsp *b,
                             const pdt_bsp_summary *best)
{
    if (k == n) {
        uint64_t nodes = 0, fragments = 0;
        pdt_error err;
        pdt_error_clear(&err);
        pdt_fuzz_check_ok(pdt_bsp_permutation(&nodes, &fragments, b, perm, &err), &err, "a permutation");
        PDT_FUZZ_CHECK(best->nodes <= nodes, "optimum %llu nodes, a permutation %llu",
                       (unsigned long long)best->nodes, (unsigned long long)nodes);
        return;
    }
    for (size_t i = k; i < n; i++) {
        uint32_t t = perm[k];
        perm[k] = perm[i];
        perm[i] = t;
        each_permutation(perm, k + 1, n, b, best);
        perm[i] = perm[k];
        perm[k] = t;
    }
}

static void solve(pdt_bsp *b, pdt_bsp_objective objective)
{
    pdt_error err;
    pdt_error_clear(&err);
    pdt_fuzz_check_ok(pdt_bsp_solve(b, objective, true, NULL, &err), &err, "solving");
    pdt_bsp_summary s;
    pdt_bsp_summarise(&s, b);
    PDT_FUZZ_CHECK(s.optimal && s.nodes == 2 * s.branch_nodes + 1, "%llu nodes, %llu branch nodes",
                   (unsigned long long)s.nodes, (unsigned long long)s.branch_nodes);
    PDT_FUZZ_CHECK(s.fragments >= pdt_bsp_segments(b), "%llu fragments of %zu segments",
                   (unsigned long long)s.fragments, pdt_bsp_segments(b));
    pdt_fuzz_check_ok(pdt_bsp_write_text(b, pdt_fuzz_null(), &err), &err, "the tree's text");
    pdt_bsp_random r;
    pdt_fuzz_check_ok(pdt_bsp_random_run(&r, b, 8, 1, &err), &err, "random permutations");
    if (objective == PDT_BSP_NODES)
        PDT_FUZZ_CHECK(s.nodes <= r.min_nodes, "optimum %llu nodes, a random permutation %llu",
                       (unsigned long long)s.nodes, (unsigned long long)r.min_nodes);
    else
        PDT_FUZZ_CHECK(s.fragments <= r.min_fragments, "optimum %llu fragments, a random permutation %llu",
                       (unsigned long long)s.fragments, (unsigned long long)r.min_fragments);
    if (objective == PDT_BSP_NODES && pdt_bsp_segments(b) <= 4) {
        uint32_t perm[4] = {0, 1, 2, 3};
        each_permutation(perm, 0, pdt_bsp_segments(b), b, &s);
    }
}

int pdt_fuzz_bsp(const uint8_t *data, size_t size)
{
    static const char name[] = "fuzz.seg";
    if (size > PDT_FUZZ_MAX_BSP) return 0;
    pdt_bsp *b = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_bsp_read(&b, (const char *)data, size, name, &err);
    if (st != PDT_OK) {
        pdt_fuzz_check_rejected(st, &err, name, (const char *)data, size);
        PDT_FUZZ_CHECK(b == NULL, "a rejected file left an instance behind");
        return 0;
    }
    PDT_FUZZ_CHECK(pdt_bsp_segments(b) >= 1 && pdt_bsp_pieces(b) >= pdt_bsp_segments(b),
                   "%zu segments in %zu pieces", pdt_bsp_segments(b), pdt_bsp_pieces(b));
    if (pdt_bsp_segments(b) <= SMALL_SEGMENTS && pdt_bsp_pieces(b) <= SMALL_PIECES) {
        solve(b, PDT_BSP_NODES);
        solve(b, PDT_BSP_FRAGMENTS);
    }
    pdt_bsp_free(&b);
    return 0;
}

#ifdef PDT_FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return pdt_fuzz_bsp(data, size); }
#endif
