/* Lexicographic pairs (primary, secondary) of GMP integers under min: the
 * value algebra of problems with a second criterion (BSP: nodes, then depth;
 * k-D trees: access cost, then height, or the reverse).
 *
 * The engine's branch-and-bound asks the algebra for the budget left to one
 * child once the other is known (`residual`).  That is sound only for a
 * stated shape of the problem's branch(): */
#ifndef PDT_LEXPAIR_H
#define PDT_LEXPAIR_H

#include "pdt_plugin.h"

typedef struct pdt_lex_value {
    mpz_t p, s; /* primary, secondary (both >= 0) */
    bool inf;   /* infeasible (+∞) */
} pdt_lex_value;

/* For branch() with  primary(branch(a, b)) >= primary(a) + primary(b). */
extern const pdt_algebra pdt_lex_sum_algebra;
/* For branch() with  primary(branch(a, b)) >= 1 + max(primary(a), primary(b)). */
extern const pdt_algebra pdt_lex_max_algebra;

#endif
