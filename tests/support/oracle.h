/* Oracle checks: one small random classification instance, solved by the
 * brute-force specification (spec.h) and by every engine of the library.
 *
 * For each instance: (0) the candidate rules' sides are the ones their family
 * documents, recomputed here from the coordinates (not for a `foreign`
 * family, one loaded from a plugin: its author checks its sides); (1) the fused engine's
 * optimum equals odt_K of the specification, (2) also without the subproblem
 * cache, (3) the combination driver's too; (4) each returned model has
 * size ≤ K, depth ≤ D, and its predictions on the training rows misclassify
 * exactly the reported objective (weighted when class weights are given);
 * (5) pdt_count for every k ≤ K equals the specification's count of valid
 * k-permutations.  On a mismatch the instance is printed (CSV text and
 * options) so that it can be reproduced. */
#ifndef PDT_TEST_ORACLE_H
#define PDT_TEST_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "test_util.h"

#define ORACLE_MAX_ROWS 16
#define ORACLE_MAX_DIMS 3
#define ORACLE_MAX_CLASSES 3
#define ORACLE_UNIT 20 /* coordinates are integers counting 1/20 */

typedef struct oracle_case {
    const char *rules; /* "axis", "hyperplane", "axis,hyperplane" */
    size_t n, dims, n_classes;
    int32_t x[ORACLE_MAX_ROWS][ORACLE_MAX_DIMS];     /* coordinate · ORACLE_UNIT */
    uint8_t style[ORACLE_MAX_ROWS][ORACLE_MAX_DIMS]; /* how the CSV spells it (0..2) */
    uint32_t label[ORACLE_MAX_ROWS];                 /* class index < n_classes */
    const char *const *names;                        /* class names, n_classes of them */
    bool weighted;
    int64_t weight4[ORACLE_MAX_CLASSES]; /* class weights · 4 (when weighted) */
    uint32_t k, max_depth, min_leaf;     /* max_depth PDT_UNLIMITED: none */
    uint64_t seed;                       /* the generator's seed, for messages */
    bool foreign;                        /* rules of a loaded plugin: check (0) is its author's */
} oracle_case;

/* Totals over the instances checked so far (for the summary line). */
typedef struct oracle_stats {
    size_t instances, failures, weighted;
    size_t min_n, max_n, min_m, max_m;
    size_t by_k[5], by_depth[4], by_min_leaf[3], by_dims[4];
    uint64_t permutations;
} oracle_stats;

/* Random instance content: n rows on the coordinate grid 0..3 with some
 * decimals (0.1, 0.25, ...), duplicated points, labels, weights, options. */
void oracle_random_points(oracle_case *c, tu_rng *rng);
void oracle_random_labels(oracle_case *c, tu_rng *rng);
/* K ≤ k_max (half of the instances get K = 4 when k_max ≥ 4), reduced until
 * the specification enumerates at most `budget` k-permutations; depth none,
 * 1, 2 (or 3 with K = 4); min-leaf 0, 1, 2. */
void oracle_random_options(oracle_case *c, tu_rng *rng, uint32_t k_max, uint64_t budget);

/* The CSV text of the instance (header x0,x1,..,class). */
void oracle_csv(char *out, size_t cap, const oracle_case *c);
/* Number of candidate rules the library builds for the instance. */
size_t oracle_rule_count(const oracle_case *c);
/* Prints the options and the CSV text (a reproducer). */
void oracle_print_case(const oracle_case *c);
/* Runs every check; prints the instance and returns false on any mismatch. */
bool oracle_check(const oracle_case *c, oracle_stats *stats);
void oracle_stats_init(oracle_stats *s);
/* Checks `count` instances made by make(c, base + i) and prints a summary;
 * returns the number that failed.  The environment overrides: PDT_ORACLE_SEED
 * (base), PDT_ORACLE_COUNT (count), PDT_ORACLE_VERBOSE (print every instance
 * and engine before running it, to locate a crash or a hang). */
size_t oracle_run(const char *family, void (*make)(oracle_case *c, uint64_t seed), uint64_t base,
                  uint64_t count);
void oracle_stats_print(const oracle_stats *s, const char *family);

#endif
