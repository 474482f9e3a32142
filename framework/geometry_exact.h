/* Exact (GMP) linear algebra behind the geometric predicates; internal to
 * geometry.c.  Entries come from a pdt_entry_fn; nothing here is filtered. */
#ifndef PDT_GEOMETRY_EXACT_H
#define PDT_GEOMETRY_EXACT_H

#include "pdt_geometry.h"

/* Sign of the determinant of the m×m matrix with exact entries entry(i, j),
 * 1 <= m <= PDT_DET_MAX. */
int pdt_geom_exact_det_sign(size_t m, pdt_entry_fn entry, void *ctx);

/* Rank of the rows×cols matrix with exact entries entry(i, j), both sizes
 * between 1 and PDT_DET_MAX. */
size_t pdt_geom_exact_rank(size_t rows, size_t cols, pdt_entry_fn entry, void *ctx);

#endif
