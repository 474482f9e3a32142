/* Matrix-chain ordering as a problem plugin (He & Little §4.3): the items are
 * the matrices A1..An, a node is an interval of them, the splitter yields
 * every (non-empty prefix, non-empty suffix), branch nodes carry no rule and
 * cost rows·shared·cols scalar multiplications (GMP integers). */
#ifndef PDT_MATRIX_CHAIN_H
#define PDT_MATRIX_CHAIN_H

#include "pdt_plugin.h"

typedef struct pdt_chain pdt_chain;

/* One node of the solved tree: matrices lo..hi (0-based, inclusive). */
typedef struct pdt_chain_node {
    uint32_t lo, hi;
    int32_t left, right; /* child nodes, -1 for a single matrix */
} pdt_chain_node;

/* Parses the dimensions "p0 p1 … pn": positive integers of any size
 * separated by blanks, commas or newlines; '#' starts a comment.  `source`
 * names the text in messages: a file ("F:LINE:COL: …") when is_file, else an
 * option ("option --dims: …").  At least three dimensions (two matrices). */
pdt_status pdt_chain_parse_dims(mpz_t **dims, size_t *n_dims, const char *text, size_t len,
                                const char *source, bool is_file, pdt_error *err);
/* The same from a file. */
pdt_status pdt_chain_load_dims(mpz_t **dims, size_t *n_dims, const char *path, pdt_error *err);
void pdt_chain_dims_free(mpz_t *dims, size_t n_dims);

/* The chain of n_dims − 1 matrices, A_i being dims[i−1] × dims[i]. */
pdt_status pdt_chain_new(pdt_chain **out, const mpz_t *dims, size_t n_dims, pdt_error *err);
void pdt_chain_free(pdt_chain **chain);

/* Runs the search (opts may be NULL: unlimited, cached) and rebuilds the tree. */
pdt_status pdt_chain_solve(pdt_chain *chain, const pdt_search_opts *opts, pdt_error *err);

size_t pdt_chain_matrices(const pdt_chain *chain);
/* p_i, i = 0..n. */
mpz_srcptr pdt_chain_dim(const pdt_chain *chain, size_t i);
/* After solving: the fewest scalar multiplications, whether that is proven
 * optimal, the parenthesisation "((A1(A2A3))A4)", the tree and statistics. */
void pdt_chain_cost(mpz_ptr out, const pdt_chain *chain);
bool pdt_chain_optimal(const pdt_chain *chain);
const char *pdt_chain_order(const pdt_chain *chain);
const pdt_chain_node *pdt_chain_tree(const pdt_chain *chain, size_t *n_nodes);
const pdt_search_stats *pdt_chain_stats(const pdt_chain *chain);
/* The tree, one node per line with its dimensions and the multiplications it costs. */
pdt_status pdt_chain_write_text(const pdt_chain *chain, FILE *out, pdt_error *err);
/* The tree drawn with Graphviz: format "dot", "svg" or "png". */
pdt_status pdt_chain_render(const pdt_chain *chain, const char *path, const char *format,
                            pdt_error *err);

#endif
