/* Internal layout shared by the BSP files (bsp*.c). */
#ifndef PDT_BSP_IMPL_H
#define PDT_BSP_IMPL_H

#include "bsp.h"
#include "lexpair.h"

typedef struct bsp_point {
    mpq_t x, y;
    double d[2]; /* filter approximations (pdt_filter_double) */
} bsp_point;

typedef struct bsp_segment {
    bsp_point a, b;
    size_t line;        /* input line */
    uint32_t line_id;   /* segments on one supporting line share it */
    uint32_t first;     /* first piece id */
    uint32_t n_pieces;  /* pieces, in order from a to b */
    mpq_t *cuts;        /* n_pieces − 1 increasing parameters in (0, 1) */
} bsp_segment;

struct pdt_bsp {
    char *name;
    size_t n;          /* segments */
    bsp_segment *seg;
    size_t n_pieces, words;
    uint32_t *piece_seg;  /* segment of each piece */
    uint64_t *left;       /* n · words: pieces strictly left of segment s's line */
    uint64_t *right;      /* strictly right */
    uint64_t *on;         /* on the line (s itself and collinear segments) */
    /* search settings and scratch */
    pdt_bsp_objective objective;
    bool depth_tiebreak;
    uint32_t *stamp, stamp_now; /* per line id: last lower_bound call that saw it */
    /* the solution */
    bool solved, optimal;
    pdt_bsp_node *nodes;
    size_t n_nodes;
    pdt_bsp_fragment *frags;
    size_t n_frags;
    pdt_lex_value value;
    pdt_search_stats stats;
};

/* bsp_geometry.c */
/* Sign of orient(a, b, c) = (b − a) × (c − a), exact (filtered). */
int bsp_orient_sign(const bsp_point *a, const bsp_point *b, const bsp_point *c);
/* out = orient(a, b, c) exactly. */
void bsp_orient_value(mpq_ptr out, const bsp_point *a, const bsp_point *b, const bsp_point *c);
/* Rejects crossing and overlapping pairs (message names both input lines). */
pdt_status bsp_check_crossings(const pdt_bsp *bsp, pdt_error *err);
/* Line ids, cut parameters, pieces and the side bitsets of every line. */
pdt_status bsp_build_pieces(pdt_bsp *bsp, pdt_error *err);

static inline const uint64_t *bsp_left(const pdt_bsp *b, size_t s) { return b->left + s * b->words; }
static inline const uint64_t *bsp_right(const pdt_bsp *b, size_t s) { return b->right + s * b->words; }
static inline const uint64_t *bsp_on(const pdt_bsp *b, size_t s) { return b->on + s * b->words; }

/* bsp.c */
/* Number of distinct segments among the pieces a & b. */
uint32_t bsp_count_segments(const pdt_bsp *b, const uint64_t *x, const uint64_t *y);
/* True when s is the lowest-numbered segment present in items on its line. */
bool bsp_represents_line(const pdt_bsp *b, const uint64_t *items, size_t s);

#endif
