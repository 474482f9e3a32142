/* pdt plugin interfaces: rule families, problems, algebras and the search.
 *
 * A plugin is a `static const` struct of function pointers, version first,
 * defined in one file of rules/ or problems/ with PDT_DEFINE_RULE(name) /
 * PDT_DEFINE_PROBLEM(name).  The build scans those markers and writes the
 * registry, so adding a plugin never edits framework code.  Slots may only be
 * appended; optional slots are NULL and the framework falls back.
 *
 * The same file, compiled outside libpdt as a shared object, is a run-time
 * plugin: there the marker also defines the exported `pdt_plugin` record
 * (PDT_PLUGIN_ABI, the class) that pdt_plugin_load (pdt.h; `pdt fit
 * --plugin FILE.so`) checks before it registers the class by name.
 * docs/writing-a-rule.md, "Outside the tree", shows the build. */
#ifndef PDT_PLUGIN_H
#define PDT_PLUGIN_H

#include "pdt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------- small helpers */

/* Growable text buffer for describe() and messages. */
typedef struct pdt_buf {
    char *data;
    size_t len, cap;
    bool failed; /* an allocation failed; data holds what fitted */
} pdt_buf;

void pdt_buf_init(pdt_buf *b);
void pdt_buf_clear(pdt_buf *b);
void pdt_buf_printf(pdt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pdt_buf_puts(pdt_buf *b, const char *s);
/* Exact rational as text: "3", "-1/2". */
void pdt_buf_mpq(pdt_buf *b, mpq_srcptr q);
/* Exact rational as a decimal when its expansion terminates ("0.125"), else "p/q". */
void pdt_buf_mpq_decimal(pdt_buf *b, mpq_srcptr q);

/* Parses an exact decimal ("-12.5e-3", ".28", "7") or a fraction ("1/3").
 * Returns false (out untouched) for anything else, including nan and inf. */
bool pdt_parse_rational(mpq_ptr out, const char *text, size_t len);

/* Fast read access for plugins: the D nearest doubles of row i (row-major
 * storage, valid while ds lives) and the class labels. */
const double *pdt_dataset_row(const pdt_dataset *ds, size_t i);
/* The D exact values of row i in place (valid while ds lives), or NULL when
 * the dataset keeps none (every value an integer below 2^53, exact as a
 * double): then pdt_dataset_value_exact converts. */
mpq_srcptr pdt_dataset_row_exact(const pdt_dataset *ds, size_t i);

/* ------------------------------------------------------------ rules */

typedef enum {
    PDT_REL_NONE = 0,  /* rj may not lie below ri */
    PDT_REL_LEFT = 1,  /* rj may lie in the left subtree of ri */
    PDT_REL_RIGHT = 2, /* rj may lie in the right subtree of ri */
    PDT_REL_BOTH = 3   /* either subtree (binary features: axiom 4 does not hold) */
} pdt_relation;

#define PDT_RULE_V1 1u

/* Rule-class flags. */
#define PDT_EXACT 0x1u        /* sides are computed exactly */
#define PDT_DATA_DEFINED 0x2u /* every rule is defined by data points (its defining points) */
/* With a custom relation: the rules admissible in a region that can split it
 * non-degenerately depend only on the region's items (lets the engine cache
 * subproblems by item set; implied by data-defined rules). */
#define PDT_REGION_BY_ITEMS 0x4u
/* Categorical columns (issue 12).  Without either flag a family reads every
 * column as a number, and pdt_fit gives it the numeric columns only.
 * PDT_CATEGORICAL: the family tests categories itself (binary: one-hot x ≠ v).
 * PDT_SKIPS_CATEGORICAL: its rules read one column each and it generates none
 * on categorical columns (axis), so it mixes with a categorical family. */
#define PDT_CATEGORICAL 0x8u
#define PDT_SKIPS_CATEGORICAL 0x10u
/* The family's solve slot fits the two-class metrics F1, MCC and FM
 * (pdt_fit_options.metric, issue 10) through Pareto fronts. */
#define PDT_METRICS 0x20u

/* An exact, dataset-independent rule, as stored in a model: the class plus
 * integer and rational parameters whose meaning the class defines. */
typedef struct pdt_rule {
    const pdt_rule_class *cls;
    size_t n_ints;
    int64_t *ints;
    size_t n_rats;
    mpq_t *rats;
} pdt_rule;

pdt_status pdt_rule_init(pdt_rule *rule, const pdt_rule_class *cls, size_t n_ints, size_t n_rats,
                         pdt_error *err);
void pdt_rule_clear(pdt_rule *rule);

/* Candidate rules.  A candidate is (class, tag, defining points): the tag is
 * the class's own integer (a dimension, a side assignment, ...) and the
 * defining points are dataset rows.  For PDT_DATA_DEFINED classes the
 * ancestry relation is "where do rj's defining points lie relative to ri". */
typedef struct pdt_rule_list pdt_rule_list;

pdt_status pdt_rule_list_add(pdt_rule_list *list, int64_t tag, const uint32_t *def, size_t n_def);
size_t pdt_rule_list_size(const pdt_rule_list *list);
int64_t pdt_rule_list_tag(const pdt_rule_list *list, size_t r);
const uint32_t *pdt_rule_list_def(const pdt_rule_list *list, size_t r, size_t *n_def);

struct pdt_rule_class {
    unsigned version; /* PDT_RULE_V1 */
    const char *name;
    const char *description;
    unsigned flags;
    /* Appends the candidates for ds to out.  *state is the class's private
     * data for this dataset (may stay NULL), passed back to the other slots and
     * released by destroy. */
    pdt_status (*generate)(void **state, pdt_rule_list *out, const pdt_dataset *ds,
                           const pdt_rule_params *params, pdt_error *err);
    /* Writes the side of every dataset row for candidate r: bit i set = row i
     * is in the left side.  Bits beyond the last row must be 0. */
    pdt_status (*sides)(uint64_t *left, void *state, const pdt_rule_list *list, size_t r,
                        const pdt_dataset *ds, pdt_error *err);
    /* Makes the exact standalone rule of candidate r (rule is uninitialised). */
    pdt_status (*export_rule)(pdt_rule *rule, void *state, const pdt_rule_list *list, size_t r,
                              const pdt_dataset *ds, pdt_error *err);
    /* Side of the point x (dims exact coordinates) for a standalone rule. */
    pdt_status (*classify)(bool *left, const pdt_rule *rule, mpq_srcptr x, size_t dims,
                           pdt_error *err);
    /* Readable form, e.g. "2·x − 3·y ≤ 1"; names are the feature names. */
    pdt_status (*describe)(pdt_buf *out, const pdt_rule *rule, const char *const *names,
                           size_t dims, pdt_error *err);
    /* Checks parameters read from a model file (NULL: accepted). */
    pdt_status (*validate)(const pdt_rule *rule, size_t dims, pdt_error *err);
    /* Optional: ancestry relation of candidate rj with respect to ri (ri != rj).
     * NULL means PDT_DATA_DEFINED semantics. */
    pdt_relation (*relation)(void *state, const pdt_rule_list *list, size_t ri, size_t rj);
    /* Optional specialised backend that fits the whole problem. */
    pdt_status (*solve)(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt,
                        pdt_error *err);
    void (*destroy)(void *state);
    /* Optional, with solve: NULL when the backend takes this fit, otherwise what
     * it does not take ("class weights"); pdt_fit then runs the fused engine
     * instead (or, under --engine backend, reports the reason). */
    const char *(*solve_declines)(const pdt_dataset *ds, const pdt_fit_options *opt);
    /* Optional (appended in 0.2, issue 12): the readable form with category
     * names, used instead of describe when the model has categorical columns;
     * categories[j] lists column j's n_categories[j] names in code order
     * (NULL: numeric). */
    pdt_status (*describe_categorical)(pdt_buf *out, const pdt_rule *rule, const char *const *names,
                                       const char *const *const *categories,
                                       const uint32_t *n_categories, size_t dims, pdt_error *err);
    /* Optional (appended in 0.2): a multiway rule.  *code is the way x takes
     * (a category code; -1 for a value it has no way for); used instead of
     * classify at nodes with ways. */
    pdt_status (*route)(int64_t *code, const pdt_rule *rule, mpq_srcptr x, size_t dims, pdt_error *err);
    /* Optional, with route: one way in readable form, e.g. "colour = red". */
    pdt_status (*describe_way)(pdt_buf *out, const pdt_rule *rule, int64_t code, const char *const *names,
                               const char *const *const *categories, const uint32_t *n_categories,
                               size_t dims, pdt_error *err);
    /* Optional (appended for issue 13): the sides of candidates from .. to − 1, candidate r's
     * at left + (r − from) · pdt_bits_words(rows), the bits `sides` writes.  Several threads may
     * run it at once on one state, each on its own candidates: it keeps its scratch to itself.
     * With it the side bitsets are made on the fit's threads (hyperplanes on 1 000 points: 17 s
     * on one). */
    pdt_status (*sides_range)(uint64_t *left, void *state, const pdt_rule_list *list, size_t from, size_t to,
                              const pdt_dataset *ds, pdt_error *err);
};

/* The next k-subset of {0..n−1} in lexicographic order (t increasing, k ≤ n);
 * false after the last one.  Start from t = {0, 1, ..., k−1}. */
static inline bool pdt_comb_next(uint32_t *t, size_t k, size_t n)
{
    size_t j = k;
    while (j > 0 && t[j - 1] == n - k + j - 1) j--;
    if (j == 0) return false;
    t[j - 1]++;
    for (size_t i = j; i < k; i++) t[i] = t[i - 1] + 1;
    return true;
}

/* --------------------------------------------------------- run-time plugins */

/* The plugin ABI: the layout of every struct and the signature of every
 * function a plugin compiles against (this header, pdt.h, pdt_geometry.h,
 * pdt_linalg.h, bitset.h).  Raised whenever one of them changes other than by
 * appending a slot; pdt_plugin_load refuses a plugin built for another one. */
#define PDT_PLUGIN_ABI 1u

#if defined(__GNUC__) || defined(__clang__)
#define PDT_VISIBLE __attribute__((visibility("default")))
#define PDT_HIDDEN __attribute__((visibility("hidden")))
#else
#define PDT_VISIBLE
#define PDT_HIDDEN
#endif

/* What a plugin shared object exports, under the symbol name "pdt_plugin".
 * `abi` comes first and is read before anything else. */
typedef struct pdt_plugin_info {
    unsigned abi;                             /* PDT_PLUGIN_ABI of the headers it was built with */
    const pdt_rule_class *const *rules;       /* NULL-terminated, or NULL */
    const pdt_problem_class *const *problems; /* NULL-terminated, or NULL */
} pdt_plugin_info;

/* Defines the exported record of a plugin holding the classes of the two
 * NULL-terminated arrays (either may be NULL): for a shared object with
 * several classes, compiled with PDT_PLUGIN_MANUAL defined so that the
 * PDT_DEFINE_* markers do not define one each. */
#define PDT_PLUGIN(rule_array, problem_array)                                                      \
    PDT_VISIBLE extern const pdt_plugin_info pdt_plugin;                                           \
    const pdt_plugin_info pdt_plugin = {PDT_PLUGIN_ABI, rule_array, problem_array}

/* Registers a class as if built in (a program's own rule family, or what
 * pdt_plugin_load found): refused when its version, name or required slots
 * are wrong or its name is taken.  `origin` (copied; NULL: the program)
 * names where it comes from in messages and in `pdt plugins`.  Not
 * thread-safe: register before fitting. */
pdt_status pdt_rule_class_register(const pdt_rule_class *cls, const char *origin, pdt_error *err);
pdt_status pdt_problem_class_register(const pdt_problem_class *cls, const char *origin,
                                      pdt_error *err);
/* The plugin file a class was loaded from, "(program)" for one registered by
 * the program, NULL for a built-in class. */
const char *pdt_rule_class_origin(const pdt_rule_class *cls);
const char *pdt_problem_class_origin(const pdt_problem_class *cls);

/* Inside libpdt (PDT_BUILDING_LIBPDT) a marker defines the class, which the
 * generated registry lists; anywhere else it also defines the plugin record,
 * so one file is one loadable plugin.  The class object is hidden either way:
 * a plugin's class never binds to a built-in one of the same C name. */
#if defined(PDT_BUILDING_LIBPDT) || defined(PDT_PLUGIN_MANUAL)
#define PDT_PLUGIN_RECORD_(kind, ident, rules, problems)
#else
#define PDT_PLUGIN_RECORD_(kind, ident, rules, problems)                                           \
    static const pdt_##kind##_class *const pdt_plugin_classes_[] = {&pdt_##kind##_class_##ident,   \
                                                                   NULL};                          \
    PDT_PLUGIN(rules, problems);
#endif

#define PDT_DEFINE_RULE(ident)                                                                     \
    PDT_HIDDEN extern const pdt_rule_class pdt_rule_class_##ident;                                 \
    PDT_PLUGIN_RECORD_(rule, ident, pdt_plugin_classes_, NULL)                                     \
    const pdt_rule_class pdt_rule_class_##ident

/* The candidates of one or more rule classes on a dataset with everything the
 * splitter needs precomputed: side bitsets and defining points. */
typedef struct pdt_ruleset pdt_ruleset;

/* families: "axis" or a comma list "axis,hyperplane".  With a deadline or stop
 * flag in params the build ends when it strikes, with no rules (in an MPI job
 * the ranks agree on it, once their plugins have made every rule):
 * pdt_ruleset_cut says so, and the fit's answer is the root's leaf, not
 * called optimal. */
pdt_status pdt_ruleset_build(pdt_ruleset **out, const pdt_dataset *ds, const char *families,
                             const pdt_rule_params *params, pdt_error *err);
bool pdt_ruleset_cut(const pdt_ruleset *rs);
void pdt_ruleset_free(pdt_ruleset **rs);
size_t pdt_ruleset_size(const pdt_ruleset *rs);
size_t pdt_ruleset_words(const pdt_ruleset *rs); /* 64-bit words per item bitset */
const uint64_t *pdt_ruleset_sides(const pdt_ruleset *rs, size_t r);
const uint32_t *pdt_ruleset_def(const pdt_ruleset *rs, size_t r, size_t *n_def);
const pdt_rule_class *pdt_ruleset_class(const pdt_ruleset *rs, size_t r);
pdt_relation pdt_ruleset_relation(const pdt_ruleset *rs, size_t ri, size_t rj);
pdt_status pdt_ruleset_export(pdt_rule *rule, const pdt_ruleset *rs, size_t r, pdt_error *err);
const pdt_dataset *pdt_ruleset_dataset(const pdt_ruleset *rs);
/* True when the admissible rules of a region depend only on its items. */
bool pdt_ruleset_region_by_items(const pdt_ruleset *rs);
/* True when every rule uses the data-defined relation (no custom relation). */
bool pdt_ruleset_data_defined(const pdt_ruleset *rs);
/* Flat defining-point table: rule r's points are def[off[r] .. off[r+1]), and
 * group[r] == group[r-1] when rule r has the same defining points as r - 1. */
void pdt_ruleset_def_table(const pdt_ruleset *rs, const uint32_t **off, const uint32_t **def,
                           const uint32_t **group);

/* ------------------------------------------------------------ algebra */

#define PDT_ALGEBRA_V1 1u

/* A value type with selection (⊕) and combination (⊗).  Selective algebras
 * (⊕ = min under `cmp`) get branch-and-bound, the "at most K" semantics and
 * tree reconstruction; others (counting) get exact-size enumeration.
 * Selective values are non-negative integers (costs), so bounds subtract. */
typedef struct pdt_algebra {
    unsigned version;
    const char *name;
    size_t size;     /* bytes of one value */
    bool selective;  /* ⊕ selects the smaller under cmp */
    void (*init)(void *v);
    void (*clear)(void *v);
    void (*set)(void *dst, const void *src);
    void (*set_zero)(void *v);               /* ⊕ identity: +inf for min, 0 for + */
    void (*add)(void *acc, const void *x);   /* acc = acc ⊕ x (non-selective only) */
    void (*mul)(void *r, const void *a, const void *b); /* r = a ⊗ b */
    int (*cmp)(const void *a, const void *b);           /* selective only */
    bool (*is_zero)(const void *v);                     /* v is the ⊕ identity (infeasible) */
    /* Optional: r = ub "minus" a, the largest budget left for the other
     * factor; returns false when nothing is left (a already reaches ub). */
    bool (*residual)(void *r, const void *ub, const void *a);
    /* Selective only: r = the smallest value greater than v (values are integral). */
    void (*succ)(void *r, const void *v);
    void (*to_text)(pdt_buf *out, const void *v);
    /* Appended (issue 10): ⊕ is idempotent (x ⊕ x = x, e.g. the union of Pareto
     * fronts).  A non-selective idempotent algebra gets the "at most K" search
     * (the leaf term at every budget, degenerate splits skipped, subproblems
     * cached by item set) instead of exact-size counting. */
    bool idempotent;
    /* Optional, idempotent only: a ⊕ b = b (a adds nothing to b: for fronts,
     * every point of a is weakly dominated by a point of b).  The partial order
     * that prunes: a split whose lower bound is absorbed by the node's value so
     * far cannot change it. */
    bool (*absorbed)(const void *a, const void *b);
} pdt_algebra;

extern const pdt_algebra pdt_algebra_min_int64; /* int64_t, INT64_MAX = infeasible */
extern const pdt_algebra pdt_algebra_min_mpz;   /* mpz_t with an infinity flag */
extern const pdt_algebra pdt_algebra_count;     /* mpz_t, + and × */
/* Pareto fronts of (FP, FN) (pdt_front of front.h): ∪ + nondominated filter,
 * Minkowski sum + filter; idempotent. */
extern const pdt_algebra pdt_algebra_front;

/* mpz value used by pdt_algebra_min_mpz. */
typedef struct pdt_mpz_value {
    mpz_t z;
    bool inf;
} pdt_mpz_value;

/* ------------------------------------------------------------ problems */

/* A subproblem: the items that reach it, the rules still admissible, its depth. */
typedef struct pdt_node {
    const uint64_t *items;
    uint32_t n_items;
    const uint32_t *rules;
    uint32_t n_rules;
    uint32_t depth;
} pdt_node;

/* Where a splitter writes a child: items has `words` words, rules room for
 * the parent's n_rules entries. */
typedef struct pdt_child {
    uint64_t *items;
    uint32_t n_items;
    uint32_t *rules;
    uint32_t n_rules;
} pdt_child;

/* Compact subproblems (optional; docs/engine.md, "Compact keys").  A problem
 * whose subproblems have small integer names (an interval (i, j), a cell, a
 * point set that fits one word) and whose objective is a sum or maximum of
 * machine integers describes itself here; the engine then solves it as a
 * dynamic programme over those keys: no item bitsets, no per-node copies, a
 * dense table when the key space is small.  Values are pairs (v0, v1) of
 * integers below PDT_DP_LIMIT compared lexicographically; a branch's value is
 * combine(l, r) + the split's own cost, component by component. */
#define PDT_DP_LIMIT (UINT64_C(1) << 62)

typedef enum {
    PDT_DP_UNUSED = 0, /* the component is always 0 */
    PDT_DP_SUM = 1,    /* v = l + r + cost */
    PDT_DP_MAX = 2     /* v = max(l, r) + cost */
} pdt_dp_combine;

typedef struct pdt_dp_info {
    bool active;          /* false: this instance has no compact form (generic recursion) */
    uint64_t root;        /* key of the root subproblem (< UINT64_MAX) */
    uint64_t n_keys;      /* keys lie in [0, n_keys): a dense table; 0: any key (hash table) */
    uint32_t max_splits;  /* most splits any subproblem has */
    pdt_dp_combine combine[2];
} pdt_dp_info;

/* Where dp_splits writes the splits of a subproblem (room for max_splits).
 * The children are listed in left/right/payload, or, when they step evenly
 * (interval problems: the i-th split of (lo, hi) has children (lo, lo+i) and
 * (lo+i+1, hi)), described by `stepped`: split i has the left key
 * left0 + i·left_step, the right key right0 + i·right_step and the payload
 * payload0 + i; the engine then reads no key arrays. */
typedef struct pdt_dp_splits {
    uint64_t *left, *right; /* the children's keys */
    int64_t *payload;       /* as split() would report it */
    uint64_t *cost0, *cost1;/* the branch's own terms, < PDT_DP_LIMIT (cost1 NULL when unused) */
    bool overflow;          /* a term does not fit: the engine runs the generic recursion instead */
    bool stepped;           /* the children are given by the fields below, not the arrays */
    uint64_t left0, left_step, right0, right_step;
    int64_t payload0;
    /* Stepped splits may also leave cost0 unwritten and give the cost of
     * split i as cost_scale · cost_weight[i] (weights owned by the problem);
     * the problem guarantees every such product is below PDT_DP_LIMIT. */
    const uint64_t *cost_weight;
    uint64_t cost_scale;
} pdt_dp_splits;

#define PDT_PROBLEM_V1 1u

/* Problem flags. */
#define PDT_PROBLEM_MEMO 0x1u /* a subproblem's optimum depends only on (items, budget, depth, memo_key) */
/* Dynamic programmes (matrix chain): every child is solved to optimality, with
 * no bound passed down, so each cached subproblem is solved exactly once;
 * bounds would cache "no better than b" and force re-solving under looser b. */
#define PDT_PROBLEM_SOLVE_CHILDREN 0x2u
/* The callbacks may run on several threads at once for one instance (they
 * only read it): the engine then solves root candidates on threads. */
#define PDT_PROBLEM_REENTRANT 0x4u

struct pdt_problem_class {
    unsigned version; /* PDT_PROBLEM_V1 */
    const char *name;
    const char *description;
    unsigned flags;
    const pdt_algebra *algebra;
    /* E(DL items). */
    pdt_status (*leaf)(void *value, void *inst, const pdt_node *node, pdt_error *err);
    /* E(DN left payload right) from the children's values. NULL: left ⊗ right. */
    pdt_status (*branch)(void *value, void *inst, const pdt_node *node, int64_t payload,
                         const void *left, const void *right, pdt_error *err);
    /* Optional: a lower bound on any tree for node with at most `budget` branch nodes. */
    pdt_status (*lower_bound)(void *value, void *inst, const pdt_node *node, uint32_t budget,
                              pdt_error *err);
    /* Optional splitter override: number of candidate splits of node, then the
     * i-th one (payload and children; *ok = false skips it).  NULL: the rule
     * splitter over the search's ruleset. */
    uint32_t (*split_count)(void *inst, const pdt_node *node);
    pdt_status (*split)(bool *ok, int64_t *payload, pdt_child *left, pdt_child *right, void *inst,
                        const pdt_node *node, uint32_t i, pdt_error *err);
    /* Optional extra memo key (e.g. the level mod D of a k-D tree). */
    uint64_t (*memo_key)(void *inst, const pdt_node *node);
    /* Optional fast path for subtrees with one branch node (the paper's
     * sodt xs [r]): among n candidate splits of node given by their left-side
     * bitsets, the best value of DN (DL left) r (DL right) strictly below
     * bound.  Writes it and its index, or *index = UINT32_MAX when none beats
     * the bound.  Skips splits with an empty side or a side holding fewer than
     * min_leaf items.  Used by the rule splitter only.  With an idempotent
     * algebra (fronts) it writes the ⊕ over all those splits instead (bound
     * NULL, *index unused). */
    pdt_status (*stump)(void *value, uint32_t *index, void *inst, const pdt_node *node,
                        const uint64_t *const *sides, uint32_t n, uint32_t min_leaf,
                        const void *bound, pdt_error *err);
    /* Optional compact subproblems (all four or none; see pdt_dp_info).  The
     * engine uses them for a selective search without trace, --no-memo, size,
     * depth or min-leaf limits, cache limit permitting; every other case, and
     * any overflow, runs the recursion above.  Children must be strictly smaller subproblems than their parent
     * (the keys form a DAG), and the optimum over keys must equal the
     * optimum of the generic recursion from `root`. */
    pdt_status (*dp_setup)(pdt_dp_info *info, void *inst, const pdt_node *root, pdt_error *err);
    /* The leaf value of key: false when a leaf is infeasible there. */
    bool (*dp_leaf)(uint64_t v[2], void *inst, uint64_t key);
    /* The splits of key (ties go to the first); returns their number. */
    uint32_t (*dp_splits)(pdt_dp_splits *out, void *inst, uint64_t key);
    /* The algebra's value of (v0, v1). */
    pdt_status (*dp_value)(void *value, void *inst, const uint64_t v[2], pdt_error *err);
};

#define PDT_DEFINE_PROBLEM(ident)                                                                  \
    PDT_HIDDEN extern const pdt_problem_class pdt_problem_class_##ident;                           \
    PDT_PLUGIN_RECORD_(problem, ident, NULL, pdt_plugin_classes_)                                  \
    const pdt_problem_class pdt_problem_class_##ident

const pdt_problem_class *pdt_problem_class_find(const char *name);
size_t pdt_problem_class_count(void);
const pdt_problem_class *pdt_problem_class_at(size_t i);

/* ------------------------------------------------------------ search */

/* A solved tree in preorder: payload of each branch node, PDT_LEAF for leaves. */
#define PDT_LEAF INT64_MIN

typedef struct pdt_search_opts {
    uint32_t max_size;   /* K branch nodes (PDT_UNLIMITED: none) */
    uint32_t max_depth;  /* PDT_UNLIMITED: none */
    uint32_t min_leaf;   /* children of a split hold at least this many items */
    bool exact_size;     /* exactly K branch nodes (always for non-selective algebras) */
    bool no_memo;
    size_t memo_bytes;   /* 0: 1 GiB */
    double time_limit;   /* seconds, 0: none */
    pdt_trace_fn trace;
    void *trace_user;
    pdt_progress_fn progress;
    void *progress_user;
    const volatile sig_atomic_t *stop; /* non-zero *stop ends the search as the time limit does */
    /* appended in 0.2 (issue 13): */
    uint32_t threads;    /* root candidates solved on this many threads (0: every core,
                            OMP_NUM_THREADS honoured); problems flagged PDT_PROBLEM_REENTRANT only */
} pdt_search_opts;

void pdt_search_opts_init(pdt_search_opts *o);

typedef struct pdt_search_stats {
    uint64_t nodes;       /* subproblems entered */
    uint64_t candidates;  /* root candidates tried */
    uint64_t memo_hits, memo_entries;
    uint64_t pruned;      /* candidates cut by the bound */
    double seconds;
    /* appended in 0.2 (issue 13): the root candidates shared over workers
     * (threads × ranks); 0 or 1 worker: a serial search */
    uint32_t workers;
    uint64_t work_max, work_total; /* subproblems entered by the busiest worker, by all */
} pdt_search_stats;

typedef struct pdt_search_result {
    void *value;        /* caller-initialised value of the problem's algebra */
    bool found;         /* a tree exists within the constraints */
    bool optimal;       /* the search ran to completion */
    int64_t *tree;      /* preorder payloads (selective algebras), malloc'd */
    size_t tree_len;
    pdt_search_stats stats;
} pdt_search_result;

/* The one recursion.  `rs` may be NULL when the problem overrides the
 * splitter; `root` is the root subproblem (its rules index rs).  The result's
 * tree is freed with pdt_search_result_clear. */
pdt_status pdt_search(pdt_search_result *res, const pdt_problem_class *problem, void *inst,
                      const pdt_ruleset *rs, size_t n_words, const pdt_node *root,
                      const pdt_search_opts *opts, pdt_error *err);
/* The paper's driver: min over every k-combination of the root rules (k =
 * 0..K) of sodt, the optimal tree using exactly those rules. */
pdt_status pdt_search_combinations(pdt_search_result *res, const pdt_problem_class *problem,
                                   void *inst, const pdt_ruleset *rs, const pdt_node *root,
                                   const pdt_search_opts *opts, pdt_error *err);
void pdt_search_result_clear(pdt_search_result *res);

#ifdef __cplusplus
}
#endif
#endif
