/* pdt — provably optimal proper decision trees.
 *
 * The one header users include.  Objects are opaque handles created by
 * pdt_<object>_new/_load/... and released by pdt_<object>_free(&p), which sets
 * the pointer to NULL and accepts NULL.  Every fallible function returns a
 * pdt_status and, on failure, fills a pdt_error with a message that names the
 * file, line and column (or option, or plugin) at fault. */
#ifndef PDT_H
#define PDT_H

#include <stdio.h> /* before gmp.h, which declares its FILE functions only then */

#include <gmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PDT_VERSION_STRING "0.1.0"
#define PDT_UNLIMITED UINT32_MAX

/* ---------------------------------------------------------------- errors */

typedef enum {
    PDT_OK = 0,
    PDT_ENOMEM,    /* out of memory */
    PDT_EINVAL,    /* bad input: data, option or model */
    PDT_EIO,       /* file system */
    PDT_ELIMIT,    /* a limit (time, memory, size) stopped the work */
    PDT_EPLUGIN,   /* a plugin broke its contract */
    PDT_EINTERNAL  /* a bug in pdt */
} pdt_status;

typedef struct pdt_error {
    pdt_status status;
    char message[1024];
} pdt_error;

const char *pdt_status_name(pdt_status status);
void pdt_error_clear(pdt_error *err);
/* Sets err (if not NULL) and returns status, so callers can `return pdt_error_set(...)`. */
pdt_status pdt_error_set(pdt_error *err, pdt_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prefixes the message already in err with more context ("while loading X: "). */
pdt_status pdt_error_prefix(pdt_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --------------------------------------------------------------- dataset */

/* An immutable table of N items with D numeric features, an optional class
 * label and an optional non-negative weight per item.  Every numeric cell is
 * kept exactly: decimals are rationals ("0.1" is 1/10). */
typedef struct pdt_dataset pdt_dataset;

typedef enum pdt_csv_header {
    PDT_CSV_HEADER_AUTO = 0, /* a header; refused when its feature names are all numbers */
    PDT_CSV_HEADER_YES,      /* a header, whatever it holds */
    PDT_CSV_HEADER_NO        /* no header: the columns are named col1, col2, ... */
} pdt_csv_header;

/* Missing cells: "?", an empty cell or "NA" (any case) in a feature or label column. */
typedef enum pdt_csv_missing {
    PDT_MISSING_ERROR = 0, /* refused, naming file:line:column */
    PDT_MISSING_DROP,      /* the row is left out (pdt_dataset_dropped counts them) */
    PDT_MISSING_CATEGORY   /* in a categorical column, a category "?" of its own; elsewhere refused */
} pdt_csv_missing;

typedef struct pdt_csv_options {
    const char *label;        /* label column name; NULL means the last column */
    bool no_label;            /* the file has no label column */
    const char *weight;       /* name of a weight column, or NULL */
    bool skip_nonnumeric;     /* drop feature columns holding a non-number */
    const char *const *skip;  /* names of columns to ignore */
    size_t n_skip;
    /* appended in 0.1 (issue 16: say what was guessed): */
    char delimiter;           /* 0: ',' ';' or tab, detected from the first line; ' ': runs of
                                 blanks; any other byte: that byte */
    pdt_csv_header header;    /* whether the first row names the columns */
    /* appended in 0.2 (issue 12: categorical data as it comes): */
    pdt_csv_missing missing;  /* what a missing cell ("?", empty, "NA") means */
    const char *const *categorical; /* columns read as categories even when they hold numbers */
    size_t n_categorical;
    bool numeric_only;        /* refuse text in feature columns (points, not categories) */
} pdt_csv_options;

/* CSV with a header row; comma separated (';' and tab are detected), RFC 4180
 * quotes, CRLF and a UTF-8 byte-order mark tolerated.  What detection cannot
 * tell is refused with the option that settles it: a detected file of one
 * column whose lines hold blanks (delimiter), a header row of numbers only
 * (header), --skip-nonnumeric dropping every feature. */
pdt_status pdt_dataset_load_csv(pdt_dataset **out, const char *path, const pdt_csv_options *opt,
                                pdt_error *err);
/* The same from memory; `name` is used in messages in place of a file name. */
pdt_status pdt_dataset_read_csv(pdt_dataset **out, const char *text, size_t len, const char *name,
                                const pdt_csv_options *opt, pdt_error *err);
/* DL8.5 / MurTree format: one item per line, "label f1 f2 ...", 0/1 features,
 * integer labels. */
pdt_status pdt_dataset_load_dl85(pdt_dataset **out, const char *path, pdt_error *err);
pdt_status pdt_dataset_read_dl85(pdt_dataset **out, const char *text, size_t len, const char *name,
                                 pdt_error *err);
/* A dataset from arrays (language bindings): n rows of d features, row-major
 * doubles, each kept exactly (a double is a rational: 0.1 is the double's
 * 3602879701896397/2^55, not 1/10), or n*d texts read exactly as decimals or
 * fractions; NaN, infinities and non-numbers are refused naming the row and
 * column.  The result is what the CSV loader builds from the same
 * values: ranks, distinct counts, the binary flag.
 *
 * A categorical column (kinds[j]) holds category names, either as the cells'
 * texts (blanks around them trimmed) or as codes into category_names[j] (the
 * double x, or the cell's integer text; NaN, -1 or a NULL cell is missing).
 * Either way the names go through the CSV loader's coding: the dataset is the
 * one pdt_dataset_read_csv builds from a file holding those names (codes in
 * name order, numeric when every name is a number; unused names dropped).
 * Missing cells — a NULL cell, NaN, or a text the CSV loader reads as missing
 * ("?", empty, "NA") — follow `missing` as in the CSV loader: refused naming
 * row and column (PDT_MISSING_ERROR), the row left out (PDT_MISSING_DROP, in
 * any column; pdt_dataset_dropped counts them) or a category "?"
 * (PDT_MISSING_CATEGORY, categorical columns only). */
typedef enum pdt_column_kind {
    PDT_COLUMN_NUMERIC = 0,  /* exact numbers */
    PDT_COLUMN_CATEGORICAL   /* category names (as --categorical makes a CSV column) */
} pdt_column_kind;

typedef struct pdt_array_data {
    size_t n, d;
    const double *x;                    /* n*d, row-major */
    const char *const *cells;           /* instead of x: n*d exact numbers as text, row-major,
                                           as a CSV cell holds them ("0.1" is 1/10, "1/3") */
    const char *const *feature_names;   /* d distinct names, or NULL: col1, col2, ... */
    const uint32_t *labels;             /* n class codes < n_classes, or NULL: no labels */
    const char *const *class_names;     /* n_classes distinct non-empty names (kept in this
                                           order: class c is class_names[c]) */
    size_t n_classes;
    const double *weights;              /* n finite weights >= 0, or NULL: all 1 (read by the
                                           problems that weigh items, e.g. k-D trees) */
    const char *name;                   /* for messages; NULL: "<arrays>" */
    /* appended in 0.2 (issue 15: categorical columns, as the CSV loader reads them): */
    const pdt_column_kind *kinds;       /* d kinds, or NULL: every column numeric */
    const char *const *const *category_names; /* d entries (or NULL): for a categorical column
                                           given by codes, its names, code c is name c; NULL
                                           for a column whose cells are the names as text */
    const size_t *n_category_names;     /* d counts for category_names */
    pdt_csv_missing missing;            /* what a missing cell means (see above) */
} pdt_array_data;

pdt_status pdt_dataset_from_arrays(pdt_dataset **out, const pdt_array_data *in, pdt_error *err);
/* A new dataset holding the given rows (in that order) of ds. */
pdt_status pdt_dataset_subset(pdt_dataset **out, const pdt_dataset *ds, const uint32_t *rows,
                              size_t n_rows, pdt_error *err);
/* A new dataset holding the given columns (in that order) of ds, every row. */
pdt_status pdt_dataset_columns(pdt_dataset **out, const pdt_dataset *ds, const size_t *cols,
                               size_t n_cols, pdt_error *err);
void pdt_dataset_free(pdt_dataset **ds);

const char *pdt_dataset_name(const pdt_dataset *ds);
size_t pdt_dataset_rows(const pdt_dataset *ds);
size_t pdt_dataset_dims(const pdt_dataset *ds);
bool pdt_dataset_has_labels(const pdt_dataset *ds);
bool pdt_dataset_has_weights(const pdt_dataset *ds);
/* Classes are sorted: numerically when every label is a number, else bytewise. */
size_t pdt_dataset_classes(const pdt_dataset *ds);
const char *pdt_dataset_class_name(const pdt_dataset *ds, size_t c);
/* Index of the class with that name, or SIZE_MAX. Numeric names compare as numbers ("1" == "1.0"). */
size_t pdt_dataset_find_class(const pdt_dataset *ds, const char *name);
const char *pdt_dataset_feature_name(const pdt_dataset *ds, size_t j);
size_t pdt_dataset_find_feature(const pdt_dataset *ds, const char *name); /* SIZE_MAX if absent */
uint32_t pdt_dataset_label(const pdt_dataset *ds, size_t i);
double pdt_dataset_value(const pdt_dataset *ds, size_t i, size_t j); /* nearest double */
void pdt_dataset_value_exact(mpq_ptr out, const pdt_dataset *ds, size_t i, size_t j);
void pdt_dataset_weight_exact(mpq_ptr out, const pdt_dataset *ds, size_t i); /* 1 when no weights */
/* Rank of cell (i, j) among the distinct values of column j (exact order, 0-based). */
uint32_t pdt_dataset_rank(const pdt_dataset *ds, size_t i, size_t j);
size_t pdt_dataset_distinct(const pdt_dataset *ds, size_t j);
/* True when every feature value is 0 or 1 and no column is categorical. */
bool pdt_dataset_is_binary(const pdt_dataset *ds);
/* Categorical columns (a CSV column of text, or named by --categorical): the
 * value of a cell is its category's code 0..k-1, codes in the order of the
 * names (numeric when every name is a number, else bytewise). */
bool pdt_dataset_is_categorical(const pdt_dataset *ds, size_t j);
bool pdt_dataset_has_categorical(const pdt_dataset *ds);
size_t pdt_dataset_categories(const pdt_dataset *ds, size_t j); /* k; 0 for a numeric column */
const char *pdt_dataset_category_name(const pdt_dataset *ds, size_t j, size_t code);
/* Code of the category with that name in column j, or SIZE_MAX (numbers compare as numbers). */
size_t pdt_dataset_find_category(const pdt_dataset *ds, size_t j, const char *name);
/* Rows the loader left out (--missing drop). */
size_t pdt_dataset_dropped(const pdt_dataset *ds);

/* ------------------------------------------------------------ rules */

typedef struct pdt_rule_class pdt_rule_class;   /* see pdt_plugin.h */
typedef struct pdt_problem_class pdt_problem_class;

const pdt_rule_class *pdt_rule_class_find(const char *name);
size_t pdt_rule_class_count(void);
const pdt_rule_class *pdt_rule_class_at(size_t i);
const char *pdt_rule_class_name(const pdt_rule_class *cls);
const char *pdt_rule_class_description(const pdt_rule_class *cls);

/* Run-time plugins (docs/writing-a-rule.md, "Outside the tree"): loads the
 * shared object at `path` — a rule or problem class defined with
 * PDT_DEFINE_RULE / PDT_DEFINE_PROBLEM (pdt_plugin.h) and built against the
 * installed pdt — and registers its classes by name, as built-in ones.
 * Refused (PDT_EPLUGIN, the file named in the message): a file that cannot
 * be loaded or lacks the `pdt_plugin` record, another PDT_PLUGIN_ABI, a class
 * of another interface version or without a required slot, a name already
 * registered.  Not thread-safe: load plugins before fitting. */
pdt_status pdt_plugin_load(const char *path, pdt_error *err);
/* Every plugin of a PDT_PLUGIN_PATH-style list: ':'-separated entries, each a
 * plugin file or a directory whose *.so files are loaded in name order. */
pdt_status pdt_plugin_load_list(const char *list, pdt_error *err);

/* Options every rule plugin may read. */
typedef struct pdt_rule_params {
    unsigned degree;      /* polynomial degree for hypersurfaces (0 = plugin default) */
    const char *options;  /* plugin-specific "key=value,key=value" text, or NULL */
    /* Set by a fit with a time limit or a stop flag (zero: none; a plugin reads them only through
     * pdt_rule_params_expired): a plugin whose generate makes many rules asks now and then and,
     * once it is true, returns PDT_OK with the rules made so far.  The fit then keeps none of them
     * (its time is up) and answers the root's leaf, not called optimal. */
    struct timespec deadline; /* CLOCK_MONOTONIC; tv_sec = tv_nsec = 0: none */
    const volatile sig_atomic_t *stop;
    unsigned threads; /* for the side bitsets of families with sides_range (0 or 1: one) */
} pdt_rule_params;

/* True when the fit that asked for the rules is out of time or told to stop. */
bool pdt_rule_params_expired(const pdt_rule_params *params);

/* ------------------------------------------------------------ fitting */

typedef enum {
    PDT_ENGINE_AUTO = 0,      /* the family's specialised backend if it has one, else fused (default) */
    PDT_ENGINE_FUSED,         /* fused min recursion with memo and branch-and-bound */
    PDT_ENGINE_COMBINATIONS,  /* the paper's driver: sodt on every k-combination, k = 0..K */
    PDT_ENGINE_BACKEND        /* the rule family's specialised backend (e.g. binary) */
} pdt_engine;

/* What the recursion reports while it runs (teaching mode, --explain). */
typedef enum {
    PDT_TRACE_ENTER,      /* a subproblem starts: items, admissible rules, budget */
    PDT_TRACE_CANDIDATE,  /* a rule is tried as the root of the subproblem */
    PDT_TRACE_PRUNE,      /* a candidate is abandoned; `reason` says why */
    PDT_TRACE_IMPROVE,    /* a better subtree was found */
    PDT_TRACE_LEAVE,      /* the subproblem is solved */
    PDT_TRACE_SHORTCUT    /* a subproblem answered without a search; `reason` says how */
} pdt_trace_kind;

typedef struct pdt_trace_event {
    pdt_trace_kind kind;
    uint32_t depth;             /* depth of the subproblem's root in the tree */
    uint32_t budget;            /* branch nodes allowed below */
    uint32_t n_items, n_rules;  /* items reaching it, rules admissible in it */
    const uint64_t *items;      /* bitset of the items */
    int64_t payload;            /* rule tried (CANDIDATE, PRUNE), -1 otherwise */
    uint32_t left_items, right_items;
    const char *reason;         /* PRUNE, SHORTCUT: why; LEAVE: why nothing was found; else NULL */
    const char *value;          /* IMPROVE/LEAVE/SHORTCUT: the value; PRUNE: the incumbent; as text */
    /* appended in 0.1 (teaching mode): */
    const char *rule;           /* the payload's rule in readable form (rule splitter), else NULL */
    const uint64_t *left_set, *right_set; /* CANDIDATE, PRUNE, IMPROVE: the children's items */
    const uint32_t *def;        /* the rule's defining points (rows), n_def of them */
    uint32_t n_def;
    uint32_t left_budget, right_budget; /* PRUNE/IMPROVE after a child solve: budgets tried */
    bool routine;               /* PRUNE: a routine skip (empty side, min-leaf, a partition seen before) */
} pdt_trace_event;

typedef void (*pdt_trace_fn)(void *user, const pdt_trace_event *ev);

/* Progress of a long search, reported about once a second. */
typedef struct pdt_progress {
    double seconds;       /* since the search started */
    uint64_t nodes;       /* subproblems entered so far */
    const char *best;     /* the best value found at the root so far, as text */
} pdt_progress;

typedef void (*pdt_progress_fn)(void *user, const pdt_progress *p);

/* The smallest perfect tree (--perfect): a tree whose training errors reach
 * the data's floor (0, or for rows with equal features and different classes
 * the fewest errors any tree can make: Σ over groups of equal feature vectors
 * of the group's size minus its majority), with
 *   PDT_PERFECT_DEPTH  the least depth, then the fewest branch nodes at it;
 *   PDT_PERFECT_SIZE   the fewest branch nodes, then the least depth at it.
 * max_depth and max_size are caps (none needed); class weights, min_leaf,
 * sparse and lexicographic are refused with it. */
typedef enum pdt_perfect_mode { PDT_PERFECT_NONE = 0, PDT_PERFECT_DEPTH, PDT_PERFECT_SIZE } pdt_perfect_mode;

/* What a two-class fit maximises (issue 10): accuracy is the sum of leaf costs;
 * the others are chosen at the root over the Pareto front of (FP, FN). */
typedef enum { PDT_METRIC_ACCURACY = 0, PDT_METRIC_F1, PDT_METRIC_MCC, PDT_METRIC_FM } pdt_metric;
const char *pdt_metric_name(pdt_metric metric);
/* "accuracy", "f1", "mcc", "fm" → the metric; false for anything else. */
bool pdt_metric_parse(pdt_metric *out, const char *name);

typedef struct pdt_fit_options {
    const char *rules;            /* family or comma list: "axis", "hyperplane", "axis,hyperplane" */
    pdt_rule_params rule_params;
    uint32_t max_size;            /* K: at most K branch nodes (PDT_UNLIMITED: none) */
    uint32_t max_depth;           /* PDT_UNLIMITED: none */
    uint32_t min_leaf;            /* every leaf made by a split holds at least this many items */
    const char *class_weights;    /* "name=w,name=w" exact decimals, NULL: all 1 */
    pdt_engine engine;
    bool no_memo;                 /* switch the subproblem cache off */
    size_t memo_megabytes;        /* cache size cap (0: default 1024) */
    double time_limit;            /* seconds; 0: none. The best tree so far is returned. */
    pdt_trace_fn trace;
    void *trace_user;
    /* Objectives beyond plain misclassifications (appended in 0.1): */
    const char *sparse;           /* α as an exact decimal: minimise errors/N + α·(branch nodes) */
    bool lexicographic;           /* fewest branch nodes among the most accurate trees */
    pdt_progress_fn progress;     /* called about once a second during long searches */
    void *progress_user;
    uint32_t threads;             /* 0: every core (OMP_NUM_THREADS honoured); 1: one.  The
                                     result does not depend on it. */
    pdt_perfect_mode perfect;     /* the smallest perfect tree (PDT_PERFECT_NONE: off) */
    /* appended in 0.1 (issue 16): */
    const volatile sig_atomic_t *stop; /* when *stop turns non-zero (a signal handler) the search
                                          ends as at the time limit: best tree so far, not optimal */
    /* appended in 0.1 (issue 10): */
    pdt_metric metric;            /* PDT_METRIC_ACCURACY: misclassifications as above */
    const char *positive;         /* the positive class's name for F1/MCC/FM (NULL: the second
                                     class in the data's order) */
} pdt_fit_options;

void pdt_fit_options_init(pdt_fit_options *opt);

/* A fitted classification tree with its exact rules, optimum and provenance. */
typedef struct pdt_model pdt_model;

pdt_status pdt_fit(pdt_model **out, const pdt_dataset *ds, const pdt_fit_options *opt, pdt_error *err);
void pdt_model_free(pdt_model **model);

/* The whole Pareto front of (false positives, false negatives) of a two-class
 * fit (issue 10; `pdt front`): every nondominated (FP, FN) some tree within
 * the limits of opt reaches, FP ascending, searched once by the generic
 * engine for opt->rules (any family; the categorical family by its own
 * multiway front search); the tree of any point on request.
 * opt->metric (accuracy: F1) is the metric the models report. */
typedef struct pdt_front_fit pdt_front_fit;

pdt_status pdt_front_fit_run(pdt_front_fit **out, const pdt_dataset *ds, const pdt_fit_options *opt,
                             pdt_error *err);
size_t pdt_front_fit_points(const pdt_front_fit *f);
void pdt_front_fit_point(const pdt_front_fit *f, size_t i, uint64_t *fp, uint64_t *fn);
/* The positive class, and the positives and negatives of the data. */
void pdt_front_fit_classes(const pdt_front_fit *f, uint32_t *positive, uint64_t *positives, uint64_t *negatives);
/* false when a time limit or interrupt stopped the search: the front found so
 * far (with a time limit on deep limits, the depth-2 front's points too), whose
 * trees are within the limits but not proven to be the whole front. */
bool pdt_front_fit_complete(const pdt_front_fit *f);
/* The point with the best metric (ties: the first). */
size_t pdt_front_fit_best(const pdt_front_fit *f, pdt_metric metric);
/* A model whose tree reaches point i exactly (checked on its own predictions). */
pdt_status pdt_front_fit_model(pdt_model **out, pdt_front_fit *f, size_t i, pdt_metric metric, pdt_error *err);
void pdt_front_fit_free(pdt_front_fit **f);

/* The optimum: misclassifications (weighted when class weights are given). */
void pdt_model_objective(mpq_ptr out, const pdt_model *model);
/* A metric fit (pdt_fit_options.metric): the metric, the positive class and
 * the chosen tree's confusion counts {TP, FP, FN, TN}; false for an accuracy fit.
 * The objective is then F1, FM² or MCC² (exact), MCC's sign in *mcc_sign (may be NULL). */
bool pdt_model_metric(const pdt_model *model, pdt_metric *metric, uint32_t *positive,
                      uint64_t confusion[4], int *mcc_sign);
/* A metric fit's value in words ("f1 1246/1383 ≈ 0.9009399855; positive class 1: TP …"),
 * malloc'd (release with free); NULL for an accuracy fit or when memory ran out. */
char *pdt_model_metric_summary(const pdt_model *model);
bool pdt_model_optimal(const pdt_model *model);   /* proven optimal (no limit hit) */
/* What stopped the search of a model not proven optimal: PDT_STOP_TIME, PDT_STOP_MEMORY or
 * PDT_STOP_INTERRUPT (compare as strings; the JSON document's "stopped_by"), or NULL when
 * it is optimal or the reason is not known. */
#define PDT_STOP_TIME "time limit"
#define PDT_STOP_MEMORY "memory limit"
#define PDT_STOP_INTERRUPT "interrupt"
const char *pdt_model_stopped_by(const pdt_model *model);
/* Proven: no tree within the limits with the optimal objective has fewer branch nodes. */
bool pdt_model_size_minimal(const pdt_model *model);
uint32_t pdt_model_size(const pdt_model *model);  /* branch nodes */
uint32_t pdt_model_depth(const pdt_model *model); /* branch levels; a single leaf has depth 0 */
size_t pdt_model_classes(const pdt_model *model);
const char *pdt_model_class_name(const pdt_model *model, size_t c);
size_t pdt_model_dims(const pdt_model *model);  /* features the model reads */
const char *pdt_model_feature_name(const pdt_model *model, size_t j);
double pdt_model_seconds(const pdt_model *model);
/* Workers (threads, or MPI ranks) that shared the search's root work, and
 * the work (subproblems or regions) of the busiest and of all; 0 or 1: serial. */
uint32_t pdt_model_work(const pdt_model *model, uint64_t *most, uint64_t *total);

/* What a perfect fit (pdt_fit_options.perfect) found and proved. */
typedef struct pdt_perfect_info {
    pdt_perfect_mode mode;
    uint64_t floor;      /* fewest training errors any tree can make (unweighted) */
    bool reached;        /* the tree makes exactly `floor` errors (false: none within the caps) */
    bool depth_proven;   /* no tree reaching the floor is shallower (DEPTH), or shallower
                            with the same size (SIZE) */
    bool size_proven;    /* no tree reaching the floor has fewer branch nodes at this depth
                            (DEPTH) or at any depth (SIZE) */
    uint32_t fits;       /* limited searches run */
} pdt_perfect_info;

/* False (and *info zeroed) when the model was not fitted with --perfect. */
bool pdt_model_perfect(const pdt_model *model, pdt_perfect_info *info);

/* Class index (into the model's classes) for every row of ds.  Features are
 * matched by name; values are compared exactly. */
pdt_status pdt_model_predict(uint32_t *classes, const pdt_model *model, const pdt_dataset *ds,
                             pdt_error *err);
/* The node (an index below pdt_model_nodes) at which every row of ds ends:
 * pdt_model_predict's walk, stopping at the leaf instead of its label. */
pdt_status pdt_model_apply(uint32_t *leaves, const pdt_model *model, const pdt_dataset *ds,
                           pdt_error *err);
size_t pdt_model_nodes(const pdt_model *model);
/* Node k's label (its training majority) and its training items per class
 * (pdt_model_classes of them, unweighted). */
uint32_t pdt_model_node_label(const pdt_model *model, size_t k);
const uint64_t *pdt_model_node_counts(const pdt_model *model, size_t k);
/* Node k's children (-1 for a leaf) and its rule in readable form ("x2 <= 3.5";
 * malloc'd, release with free; "" for a leaf). */
void pdt_model_node_children(int32_t *left, int32_t *right, const pdt_model *model, size_t k);
pdt_status pdt_model_node_rule(char **text, const pdt_model *model, size_t k, pdt_error *err);
/* A multiway node (a categorical split, issue 12) has ways instead of a left
 * and a right child (pdt_model_node_children gives -1, -1; its rule text
 * names what it splits on, e.g. "colour"): way w < pdt_model_node_ways leads
 * to its child for the category in its text ("colour = red"; malloc'd,
 * release with free).  A row whose category no way takes ends at the node
 * itself (pdt_model_apply gives k; its label is the prediction).  0 ways for
 * a binary node or a leaf. */
size_t pdt_model_node_ways(const pdt_model *model, size_t k);
int32_t pdt_model_node_way_child(const pdt_model *model, size_t k, size_t w);
pdt_status pdt_model_node_way_text(char **text, const pdt_model *model, size_t k, size_t w, pdt_error *err);
/* Human-readable tree, one node per line. */
pdt_status pdt_model_write_text(const pdt_model *model, FILE *out, pdt_error *err);
/* JSON result document (see docs/formats.md).  Written to a temporary file and
 * renamed, so a failed save never leaves a partial file behind. */
pdt_status pdt_model_save_json(const pdt_model *model, const char *path, pdt_error *err);
/* The same document as text (malloc'd, release with free), or NULL with err set. */
char *pdt_model_json_text(const pdt_model *model, pdt_error *err);
pdt_status pdt_model_load_json(pdt_model **out, const char *path, pdt_error *err);
/* Drawings — pdt_model_render, pdt_model_plot and the problems' trees and
 * pictures — are made by the drawing module libpdt_draw.so (Graphviz, cairo),
 * which the library opens on the first drawing: at $PDT_DRAW_MODULE if set,
 * else next to the program, else where pdt is installed.  A program that
 * draws nothing never loads it.  pdt_draw_module_load loads it now, so that
 * a missing module is reported before a long search instead of after it. */
pdt_status pdt_draw_module_load(pdt_error *err);

/* Graphviz: format "dot" (via libcgraph) or any libgvc device ("svg", "png"). */
pdt_status pdt_model_render(const pdt_model *model, const char *path, const char *format,
                            pdt_error *err);
/* A picture of a model on 2-D data, PNG or SVG by the file name, width×height
 * pixels: decision regions shaded by their leaf's label (the model's exact
 * classification of every pixel), the splits drawn where they act, and the
 * rows of ds coloured by class, misclassified ones ringed. */
pdt_status pdt_model_plot(const pdt_model *model, const pdt_dataset *ds, const char *path, int width,
                          int height, pdt_error *err);

/* ------------------------------------------------------------ counting */

typedef struct pdt_count_report {
    size_t n_rules;    /* M: candidate rules */
    uint32_t size;     /* K */
    mpz_t proper;      /* proper trees with exactly K branch nodes */
    mpz_t combinations;/* C(M, K) */
    mpz_t factorial;   /* K! */
    mpz_t permutations;/* C(M, K) * K! */
} pdt_count_report;

void pdt_count_report_init(pdt_count_report *r);
void pdt_count_report_clear(pdt_count_report *r);
/* Counts the proper trees of exactly `size` branch nodes that the rule family
 * admits on ds (min_leaf honoured when > 0). */
pdt_status pdt_count(pdt_count_report *r, const pdt_dataset *ds, const char *rules,
                     const pdt_rule_params *params, uint32_t size, uint32_t min_leaf, pdt_error *err);

/* Teaching (pdt count --list): one K-permutation of the chosen rules. */
typedef struct pdt_perm {
    uint32_t size;            /* K */
    const uint32_t *rules;    /* candidate indices, in permutation order */
    const char *const *text;  /* each rule in readable form */
    bool valid;               /* the level-order traversal of a proper tree */
    const int32_t *parent;    /* valid: position of each rule's parent (−1: the root) */
    const uint8_t *left;      /* valid: 1 when the rule is its parent's left child */
    int32_t bad, blocker;     /* invalid: position `bad` cannot go below position `blocker` (their
                                 relation is neither left nor right), or, when blocker < 0, the
                                 tree it builds has another level order */
} pdt_perm;

typedef void (*pdt_perm_fn)(void *user, const pdt_perm *p);
/* A candidate rule: its index, readable form and defining rows. */
typedef void (*pdt_candidate_fn)(void *user, size_t index, const char *text, const uint32_t *def,
                                 size_t n_def);

/* Every K-permutation of every K-combination of the family's candidates —
 * or of the `n_pick` candidates listed in `pick` (indices as reported to
 * `candidates`) — each with whether it is a valid level-order traversal (the
 * brute-force specification, He & Little §3.1).  r->proper is the number of
 * proper trees counted by the engine on the same rules; it must equal the
 * valid permutations (else PDT_EINTERNAL).  More than max_perms permutations
 * is PDT_ELIMIT.  `candidates` (may be NULL) sees every candidate first;
 * with size 0 nothing else is done. */
pdt_status pdt_count_list(pdt_count_report *r, const pdt_dataset *ds, const char *rules,
                          const pdt_rule_params *params, const uint32_t *pick, size_t n_pick,
                          uint32_t size, uint64_t max_perms, pdt_candidate_fn candidates,
                          pdt_perm_fn perms, void *user, pdt_error *err);

#ifdef __cplusplus
}
#endif
#endif
