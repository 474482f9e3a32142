/* Internal layout of pdt_dataset: shared by the loaders and the framework. */
#ifndef PDT_DATASET_IMPL_H
#define PDT_DATASET_IMPL_H

#include <string.h>

#include "pdt.h"

/* Storage for the exact values' limbs: blocks that never move, so each cell's
 * rational is a read-only view (mpz_roinit_n) into one of them instead of two
 * heap blocks of its own.  Loading 200 000 cells was mostly malloc. */
typedef struct pdt_limb_block {
    struct pdt_limb_block *next;
    size_t cap, used;
    mp_limb_t limbs[];
} pdt_limb_block;

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
                              integer with |v| < 2^53 (then x is exact); read-only
                              views into limbs: write them with pdt_dataset_store_exact */
    pdt_limb_block *limbs; /* the views' storage, newest block first */
    uint32_t *rank;        /* n*d: rank of the value among column j's distinct values */
    uint32_t *n_distinct;  /* d */
    bool binary;           /* every value is 0 or 1 and no column is categorical */
    char ***categories;    /* d (NULL when no column is categorical): column j's category
                              names in code order, NULL for a numeric column */
    uint32_t *n_categories;/* d, with categories */
    size_t dropped;        /* rows left out while loading (missing values) */
};

/* Builds ranks, distinct counts and the binary flag from x (and q). */
pdt_status pdt_dataset_finish(pdt_dataset *ds, pdt_error *err);
/* Allocates an empty dataset with n rows and d columns (names unset, values
 * 0; q allocated when exact).  labels and weights stay NULL until the
 * allocators below are called. */
pdt_status pdt_dataset_alloc(pdt_dataset **out, size_t n, size_t d, bool exact, pdt_error *err);
/* Stores v as cell's exact value (a copy; ds->q must exist). */
pdt_status pdt_dataset_store_exact(pdt_dataset *ds, size_t cell, mpq_srcptr v, pdt_error *err);
pdt_status pdt_dataset_alloc_labels(pdt_dataset *ds, pdt_error *err);  /* labels, all 0 */
pdt_status pdt_dataset_alloc_weights(pdt_dataset *ds, pdt_error *err); /* weights, all 1 */
/* Makes column j categorical with the k names (moved in; the cells hold codes). */
pdt_status pdt_dataset_set_categories(pdt_dataset *ds, size_t j, char **names, size_t k,
                                      pdt_error *err);
/* Store copies: the dataset's name, and feature j's name (len bytes). */
pdt_status pdt_dataset_set_name(pdt_dataset *ds, const char *name, pdt_error *err);
pdt_status pdt_dataset_set_feature(pdt_dataset *ds, size_t j, const char *name, size_t len,
                                   pdt_error *err);

/* Length of a UTF-8 byte-order mark at the start of text: 3 or 0. */
static inline size_t pdt_bom_length(const char *text, size_t len)
{
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* printf arguments for "%.*s%s": a cell's text in a message, cut to 60 bytes + "...". */
#define PDT_SHOW_TEXT(text, len)                                                                   \
    (int)((len) > 60 ? 60 : (len)), (text), ((len) > 60 ? "..." : "")

/* Reads a whole file (malloc'd, NUL terminated; EIO names the path). */
pdt_status pdt_file_read(char **text, size_t *len, const char *path, pdt_error *err);

/* The nearest finite double to q (ties to even; beyond the range: +-DBL_MAX). */
double pdt_rational_to_double(mpq_srcptr q);
/* A copy of len bytes of s, NUL terminated, or NULL when out of memory. */
char *pdt_strndup(const char *s, size_t len);

/* Class names collected while loading: every distinct label text gets a raw
 * id in order of appearance; finishing sorts them into the dataset's classes
 * (numeric order, merging equal numbers, when every label is a number, else
 * bytewise) and rewrites ds->labels from raw ids to class indices. */
typedef struct pdt_label_table {
    char **names;       /* distinct label texts, by raw id */
    size_t n, cap;
    uint32_t *slots;    /* open-addressing hash: raw id + 1, 0 = empty */
    size_t n_slots;
} pdt_label_table;

void pdt_label_table_init(pdt_label_table *t);
void pdt_label_table_clear(pdt_label_table *t);
pdt_status pdt_label_table_add(uint32_t *id, pdt_label_table *t, const char *s, size_t len,
                               pdt_error *err);
/* Moves the names into ds->classes (t is left empty) and remaps ds->labels. */
pdt_status pdt_label_table_finish(pdt_dataset *ds, pdt_label_table *t, pdt_error *err);
/* The same order for any column: *names (n of them, moved out of t; t is left
 * empty) and code_of[raw id] (malloc'd; equal numbers share a code). */
pdt_status pdt_label_table_sort(char ***names, size_t *n, uint32_t **code_of, pdt_label_table *t,
                                pdt_error *err);
/* Column j's cells hold raw ids of t's names: codes them in name order (as
 * pdt_label_table_sort orders them), makes j categorical with the names
 * (moved out of t) and stores the codes (exactly too when ds->q exists). */
pdt_status pdt_dataset_code_categories(pdt_dataset *ds, size_t j, pdt_label_table *t, pdt_error *err);

#endif
