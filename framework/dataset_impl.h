/* Internal layout of pdt_dataset: shared by the loaders and the framework. */
#ifndef PDT_DATASET_IMPL_H
#define PDT_DATASET_IMPL_H

#include "pdt.h"

struct pdt_dataset {
    char *name;            /* file name, or the name given to a reader */
    size_t n, d;           /* rows, feature columns */
    char **features;       /* d names */
    bool has_labels;
    size_t n_classes;
    char **classes;        /* n_classes names, sorted (numeric order when all numeric) */
    uint32_t *labels;      /* n class indices (NULL without labels) */
    bool has_weights;
    mpq_t *weights;        /* n exact weights >= 0 (NULL without weights) */
    double *x;             /* n*d row-major, nearest double to the exact value */
    mpq_t *q;              /* n*d exact values, or NULL when every value is an
                              integer with |v| < 2^53 (then x is exact) */
    uint32_t *rank;        /* n*d: rank of the value among column j's distinct values */
    uint32_t *n_distinct;  /* d */
    bool binary;           /* every value is 0 or 1 */
};

/* Builds ranks, distinct counts and the binary flag from x (and q). */
pdt_status pdt_dataset_finish(pdt_dataset *ds, pdt_error *err);
/* Allocates an empty dataset with n rows and d columns (names unset). */
pdt_status pdt_dataset_alloc(pdt_dataset **out, size_t n, size_t d, bool exact, pdt_error *err);

#endif
