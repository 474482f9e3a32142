/* Binary space partitions of 2-D segments by auto-partitions, as a problem
 * plugin (He & Little §4.1).
 *
 * Every branch node of the tree splits its convex region by the supporting
 * line of one segment fragment lying in the region; fragments crossing that
 * line are cut in two (exact rational endpoints), fragments on the line —
 * the root's own and those of collinear segments — are stored at the node
 * ("absorbed"), the others go to the side they lie on.  Left is the side
 * where orient(a, b, x) > 0 for the root segment a→b (counter-clockwise).
 * Leaves are regions without fragments.  Objective: the number of nodes
 * (branch + leaf = 2·branch + 1), or the number of fragments stored; both are
 * the same order when no two segments are collinear.  Optionally the depth
 * breaks ties.
 *
 * Input: one segment "x1 y1 x2 y2" per line (exact decimals or fractions),
 * '#' comments; segments may touch (share a point that is an endpoint of one
 * of them) but must not cross or overlap, and must have positive length. */
#ifndef PDT_BSP_H
#define PDT_BSP_H

#include "pdt_plugin.h"

typedef struct pdt_bsp pdt_bsp;

typedef enum { PDT_BSP_NODES = 0, PDT_BSP_FRAGMENTS = 1 } pdt_bsp_objective;

/* A fragment: pieces first..last of one segment (see pdt_bsp_fragment_ends). */
typedef struct pdt_bsp_fragment {
    uint32_t segment;
    uint32_t first, last; /* piece indices within the segment, inclusive */
} pdt_bsp_fragment;

/* A node of the solved tree: the segment whose line splits it (−1: an empty
 * leaf) and the fragments stored there. */
typedef struct pdt_bsp_node {
    int32_t segment;
    uint32_t first_fragment, n_fragments; /* into pdt_bsp_fragments() */
    int32_t left, right;                  /* −1 for a leaf */
} pdt_bsp_node;

typedef struct pdt_bsp_summary {
    uint64_t nodes, branch_nodes, fragments;
    uint32_t depth; /* levels of branch nodes */
    bool optimal;
} pdt_bsp_summary;

/* Reads and checks the segments (messages: "NAME:LINE[:COL]: …"). */
pdt_status pdt_bsp_read(pdt_bsp **out, const char *text, size_t len, const char *name, pdt_error *err);
pdt_status pdt_bsp_load(pdt_bsp **out, const char *path, pdt_error *err);
void pdt_bsp_free(pdt_bsp **bsp);

size_t pdt_bsp_segments(const pdt_bsp *bsp);
/* Elementary pieces: the segments cut at every point where another
 * segment's line crosses them (the universe of the item bitsets). */
size_t pdt_bsp_pieces(const pdt_bsp *bsp);
/* Exact endpoints of segment i and the input line it came from. */
void pdt_bsp_segment_ends(mpq_ptr x1, mpq_ptr y1, mpq_ptr x2, mpq_ptr y2, const pdt_bsp *bsp, size_t i);
size_t pdt_bsp_segment_line(const pdt_bsp *bsp, size_t i);

pdt_status pdt_bsp_solve(pdt_bsp *bsp, pdt_bsp_objective objective, bool depth_tiebreak,
                         const pdt_search_opts *opts, pdt_error *err);
void pdt_bsp_summarise(pdt_bsp_summary *out, const pdt_bsp *bsp);
const pdt_bsp_node *pdt_bsp_tree(const pdt_bsp *bsp, size_t *n_nodes);
const pdt_bsp_fragment *pdt_bsp_fragments(const pdt_bsp *bsp, size_t *n_fragments);
void pdt_bsp_fragment_ends(mpq_ptr x1, mpq_ptr y1, mpq_ptr x2, mpq_ptr y2, const pdt_bsp *bsp,
                           const pdt_bsp_fragment *f);
const pdt_search_stats *pdt_bsp_stats(const pdt_bsp *bsp);

/* The auto-partition of a permutation (Paterson–Yao): in every region the
 * segment that comes first in perm among those present is the root. */
pdt_status pdt_bsp_permutation(uint64_t *nodes, uint64_t *fragments, const pdt_bsp *bsp,
                               const uint32_t *perm, pdt_error *err);

/* `tries` uniformly random permutations (seeded): min and mean. */
typedef struct pdt_bsp_random {
    uint64_t tries, seed;
    uint64_t min_nodes, min_fragments, sum_nodes, sum_fragments;
} pdt_bsp_random;
pdt_status pdt_bsp_random_run(pdt_bsp_random *out, const pdt_bsp *bsp, uint64_t tries, uint64_t seed,
                              pdt_error *err);

/* The tree, one node per line with the fragments it stores. */
pdt_status pdt_bsp_write_text(const pdt_bsp *bsp, FILE *out, pdt_error *err);
/* The tree drawn with Graphviz ("dot", "svg", "png"). */
pdt_status pdt_bsp_render(const pdt_bsp *bsp, const char *path, const char *format, pdt_error *err);
/* The segments, the cuts and the fragments (PNG or SVG by the file name). */
pdt_status pdt_bsp_picture(const pdt_bsp *bsp, const char *path, pdt_error *err);

#endif
