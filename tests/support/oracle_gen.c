/* Random oracle instances and their CSV text.  Coordinates come from the grid
 * 0..3 (ties, duplicate points, collinear and coplanar points are frequent)
 * with some decimals (0.1, 0.25, 0.35, ...), written in three spellings
 * ("0.25", "0.25" padded to "0.250", "5/20") that must load as the same value. */
#include <stdio.h>
#include <string.h>

#include "oracle.h"
#include "spec.h"

static const int32_t decimals[] = {2,  5,  7,  10,
                                   15, 30, 45, 55}; /* 0.1 0.25 0.35 0.5 0.75 1.5 2.25 2.75 */

static const char *const names_letters[] = {"a", "b", "c"};
static const char *const names_numbers[] = {"2", "10", "1"}; /* numeric order differs from bytes */
static const char *const names_words[] = {"yes", "no", "maybe"};

static int32_t random_coordinate(tu_rng *rng, uint32_t decimal_percent)
{
    if (tu_below(rng, 100) < decimal_percent)
        return decimals[tu_below(rng, sizeof decimals / sizeof *decimals)];
    return (int32_t)tu_below(rng, 4) * ORACLE_UNIT;
}

void oracle_random_points(oracle_case *c, tu_rng *rng)
{
    static const uint32_t decimal_percent[] = {0, 0, 15, 30, 100};
    uint32_t dec = decimal_percent[tu_below(rng, 5)];
    uint32_t dup_percent = tu_below(rng, 3) * 10;          /* 0, 10 or 20 % duplicated rows */
    bool on_lines = c->dims >= 2 && tu_below(rng, 5) == 0; /* points on x1 = x0 or x1 = 3 − x0 */
    for (size_t i = 0; i < c->n; i++) {
        if (i > 0 && tu_below(rng, 100) < dup_percent) {
            memcpy(c->x[i], c->x[tu_below(rng, (uint32_t)i)], sizeof c->x[i]);
        } else {
            for (size_t j = 0; j < c->dims; j++) c->x[i][j] = random_coordinate(rng, dec);
            if (on_lines) {
                bool anti = tu_below(rng, 2);
                c->x[i][1] = anti ? 3 * ORACLE_UNIT - c->x[i][0] : c->x[i][0];
            }
        }
        for (size_t j = 0; j < c->dims; j++) c->style[i][j] = (uint8_t)tu_below(rng, 3);
    }
}

/* Labels: uniformly random, or a threshold / parity pattern with some noise,
 * so that optima range from the majority leaf down to 0. */
void oracle_random_labels(oracle_case *c, tu_rng *rng)
{
    static const char *const *const name_sets[] = {names_letters, names_numbers, names_words};
    c->names = name_sets[tu_below(rng, 3)];
    uint32_t mode = tu_below(rng, 3);
    size_t dim = tu_below(rng, (uint32_t)c->dims);
    int32_t cut = (int32_t)tu_below(rng, 3) * ORACLE_UNIT + ORACLE_UNIT / 2;
    for (size_t i = 0; i < c->n; i++) {
        uint32_t y = tu_below(rng, (uint32_t)c->n_classes);
        if (mode == 1 && tu_below(rng, 5)) y = c->x[i][dim] > cut;
        if (mode == 2 && tu_below(rng, 5)) {
            int32_t s = 0;
            for (size_t j = 0; j < c->dims; j++) s += c->x[i][j] / ORACLE_UNIT;
            y = (uint32_t)s % (uint32_t)c->n_classes;
        }
        c->label[i] = y;
    }
    c->weighted = tu_below(rng, 8) == 0;
    static const int64_t quarters[] = {1, 2, 4, 6, 8, 12}; /* 0.25 0.5 1 1.5 2 3 */
    for (size_t k = 0; k < ORACLE_MAX_CLASSES; k++)
        c->weight4[k] = c->weighted ? quarters[tu_below(rng, 6)] : 4;
}

void oracle_random_options(oracle_case *c, tu_rng *rng, uint32_t k_max, uint64_t budget)
{
    static const uint32_t k_pick[] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3};
    static const uint32_t depths[] = {PDT_UNLIMITED, PDT_UNLIMITED, 1, 2, 3};
    uint32_t k = k_pick[tu_below(rng, sizeof k_pick / sizeof *k_pick)];
    bool big = k_max >= 4 && tu_below(rng, 2); /* K = 4 (with depth ≤ 3 possible) */
    if (big) k = 4;
    if (k > k_max) k = k_max;
    size_t m = oracle_rule_count(c);
    while (k > 0 && spec_permutations(m, k) > budget) k--;
    c->k = k;
    c->max_depth = depths[tu_below(rng, big ? 5 : 4)];
    c->min_leaf = tu_below(rng, 3);
}

static size_t put_value(char *out, size_t cap, int32_t v, uint8_t style)
{
    int32_t h = v * (100 / ORACLE_UNIT); /* hundredths */
    int32_t ip = h / 100, fp = h % 100;
    if (style == 2) return (size_t)snprintf(out, cap, "%d/%d", v, ORACLE_UNIT);
    if (style == 1) return (size_t)snprintf(out, cap, "%d.%02d0", ip, fp);
    if (fp == 0) return (size_t)snprintf(out, cap, "%d", ip);
    if (fp % 10 == 0) return (size_t)snprintf(out, cap, "%d.%d", ip, fp / 10);
    return (size_t)snprintf(out, cap, "%d.%02d", ip, fp);
}

void oracle_csv(char *out, size_t cap, const oracle_case *c)
{
    size_t len = 0;
    for (size_t j = 0; j < c->dims; j++) len += (size_t)snprintf(out + len, cap - len, "x%zu,", j);
    len += (size_t)snprintf(out + len, cap - len, "class\n");
    for (size_t i = 0; i < c->n; i++) {
        for (size_t j = 0; j < c->dims; j++) {
            len += put_value(out + len, cap - len, c->x[i][j], c->style[i][j]);
            len += (size_t)snprintf(out + len, cap - len, ",");
        }
        len += (size_t)snprintf(out + len, cap - len, "%s\n", c->names[c->label[i]]);
    }
}
