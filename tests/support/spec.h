/* The brute-force specification of optimal proper decision trees (He & Little,
 * eqs. 2–8; DESIGN.md §1 "Specification for testing"), written from the
 * definition and independently of the engine (engine.c, splitter.c, search.c,
 * combinations.c, count.c and the ruleset's relation code are not used).
 *
 * Input: N labelled rows and M candidate rules, each given by its left side
 * (the rows on its left) and its defining points (rows).  Everything else is
 * computed here:
 *   - rule j lies in the left (right) subtree of rule i iff every defining
 *     point of j is on the left (right) of i; never i itself;
 *   - a k-permutation of distinct rules is valid iff it is the level-order
 *     traversal of the proper tree obtained by inserting its rules one by one
 *     from the root (left if ↙, right if ↘, invalid if neither);
 *   - a valid tree is evaluated by downward accumulation: a leaf costs
 *     Σ_c w_c·n_c − max_c w_c·n_c (misclassifications when every w_c = 1);
 *   - odt_K is the min over k = 0..K, every k-combination, every valid
 *     permutation passing the filters (depth ≤ D; every leaf ≥ m items when
 *     the tree has a branch node), and count_k the number of valid
 *     k-permutations passing the min-leaf filter.
 * Exponential on purpose: for instances of at most a few 10^5 permutations. */
#ifndef PDT_TEST_SPEC_H
#define PDT_TEST_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPEC_MAX_K 4     /* largest tree (branch nodes) the specification builds */
#define SPEC_MAX_ROWS 64 /* item sets are one 64-bit word */
#define SPEC_NO_LIMIT UINT32_MAX

typedef struct spec_problem {
    size_t n_rows, n_rules, n_classes;
    uint32_t *label;       /* class of each row, < n_classes */
    int64_t *class_weight; /* integer weight of each class (all 1 by default) */
    uint64_t *left;        /* left side of each rule: bit i = row i */
    uint32_t **def;        /* defining points (rows) of each rule */
    size_t *n_def;
} spec_problem;

/* Allocates an instance with every label 0, every weight 1, empty sides and
 * no defining points; fill it with the setters below. */
void spec_problem_init(spec_problem *p, size_t n_rows, size_t n_rules, size_t n_classes);
void spec_problem_free(spec_problem *p);
void spec_set_left(spec_problem *p, size_t rule, size_t row, bool left);
void spec_set_def(spec_problem *p, size_t rule, const uint32_t *rows, size_t n);

/* Relation of rule j to rule i: 'L' (j ↙ i), 'R' (j ↘ i) or 0 (neither). */
char spec_relation(const spec_problem *p, size_t i, size_t j);

/* A decoded tree: node 0 is the root; child -1 is a leaf. */
typedef struct spec_tree {
    size_t n;
    uint32_t rule[SPEC_MAX_K];
    int child[SPEC_MAX_K][2];
} spec_tree;

/* Decodes a permutation; false when it is not a valid level-order traversal. */
bool spec_decode(spec_tree *t, const spec_problem *p, const uint32_t *perm, size_t k);

/* Downward accumulation over every row. */
typedef struct spec_eval {
    int64_t cost;      /* Σ of the leaf costs */
    uint32_t depth;    /* branch levels on the longest root-leaf path */
    uint32_t min_leaf; /* fewest items in a leaf */
} spec_eval;

void spec_evaluate(spec_eval *e, const spec_problem *p, const spec_tree *t);

typedef struct spec_limits {
    uint32_t max_size;  /* K (≤ SPEC_MAX_K) */
    uint32_t max_depth; /* SPEC_NO_LIMIT: none */
    uint32_t min_leaf;  /* 0: none */
} spec_limits;

typedef struct spec_result {
    int64_t best;  /* odt_K */
    size_t best_k; /* a minimiser: its size and permutation */
    uint32_t best_perm[SPEC_MAX_K];
    uint64_t count[SPEC_MAX_K + 1]; /* valid k-permutations passing min-leaf, k ≤ K */
    uint64_t permutations;          /* k-permutations examined, k ≤ K */
} spec_result;

void spec_solve(spec_result *r, const spec_problem *p, const spec_limits *lim);

/* Σ_{k ≤ K} M!/(M−k)!, saturating: the work spec_solve does. */
uint64_t spec_permutations(size_t m, uint32_t k);

#endif
