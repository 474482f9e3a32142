/* The axis family (--rules axis, engine auto: the numeric backend) on the
 * continuous-feature data sets of the ConTree paper (Brita, van der Linden,
 * Demirović, AAAI 2025) in the shared data directory, against the optimum
 * ConTree proved there (REFERENCE.tsv: file, depth, min_misclassifications,
 * ...; '#' lines are comments).
 *
 * The data live outside the repository, in ../shared/data/continuous next to
 * the source tree (PDT_SOURCE_DIR, set by CTest); PDT_SHARED_DATA overrides
 * it: either the shared data directory (as for the bench/ scripts, then its
 * continuous/ subdirectory is used) or the continuous directory itself.  A
 * missing directory or table is a failure, never a skip.
 *
 * Checked: every depth-2 row of the table (its 11 files, the table must hold
 * exactly those), the depth-3 rows of bank, raisin and segment, and the
 * depth-4 row of bank.  For each: the CSV loads (label in the last column);
 * pdt_fit with max_depth D and no size limit succeeds; the objective equals
 * the reference column exactly; the model is flagged optimal; its depth is at
 * most D; its predictions on the rows (class names compared) misclassify
 * exactly the objective. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

#define MAX_REF_ROWS 128

typedef struct ref_row {
    char file[64];
    uint32_t depth;
    unsigned long min_errors;
} ref_row;

typedef struct reference {
    bool loaded;
    char dir[1024];
    ref_row rows[MAX_REF_ROWS];
    size_t n;
} reference;

static reference ref;

/* What one test fits: a file at a depth. */
typedef struct job {
    const char *file;
    uint32_t depth;
} job;

static bool readable(const char *dir, const char *name)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f) fclose(f);
    return f != NULL;
}

/* The continuous data directory, or a failure that says where it was looked for. */
static void find_dir(void)
{
    const char *shared = getenv("PDT_SHARED_DATA");
    if (shared && *shared) {
        snprintf(ref.dir, sizeof ref.dir, "%s/continuous", shared);
        if (readable(ref.dir, "REFERENCE.tsv")) return;
        snprintf(ref.dir, sizeof ref.dir, "%s", shared);
        if (readable(ref.dir, "REFERENCE.tsv")) return;
        fail_msg("the ConTree data are missing: neither %s/continuous/REFERENCE.tsv nor %s/REFERENCE.tsv can be "
                 "read (PDT_SHARED_DATA=%s)", shared, shared, shared);
    }
    const char *src = getenv("PDT_SOURCE_DIR");
    if (!src || !*src)
        fail_msg("the ConTree data cannot be found: PDT_SOURCE_DIR is not set (run through ctest) and "
                 "PDT_SHARED_DATA is not set");
    snprintf(ref.dir, sizeof ref.dir, "%s/../shared/data/continuous", src);
    if (!readable(ref.dir, "REFERENCE.tsv"))
        fail_msg("the ConTree data are missing: %s/REFERENCE.tsv cannot be read (%s); this test needs the "
                 "shared data directory (../shared/data next to the source tree) or PDT_SHARED_DATA pointing "
                 "at it", ref.dir, strerror(errno));
}

/* Reads REFERENCE.tsv once: the header "file\tdepth\tmin_misclassifications..."
 * then one row per (file, depth). */
static void load_reference(void)
{
    if (ref.loaded) return;
    find_dir();
    char path[1100];
    snprintf(path, sizeof path, "%s/REFERENCE.tsv", ref.dir);
    char *text = tu_read_file(path);
    if (!text) fail_msg("cannot read %s", path);
    bool header = false;
    size_t line_no = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        line_no++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r') line[--len] = '\0';
        if (!len || line[0] == '#') continue;
        if (!header) {
            if (strncmp(line, "file\tdepth\tmin_misclassifications", 33) != 0)
                fail_msg("%s:%zu: the header is not file<TAB>depth<TAB>min_misclassifications...: %s", path,
                         line_no, line);
            header = true;
            continue;
        }
        if (ref.n == MAX_REF_ROWS) fail_msg("%s: more than %d rows", path, MAX_REF_ROWS);
        ref_row *r = &ref.rows[ref.n];
        char *tab = strchr(line, '\t');
        char *end1 = NULL, *end2 = NULL;
        if (!tab || (size_t)(tab - line) >= sizeof r->file) fail_msg("%s:%zu: bad row: %s", path, line_no, line);
        memcpy(r->file, line, (size_t)(tab - line));
        r->file[tab - line] = '\0';
        unsigned long d = strtoul(tab + 1, &end1, 10);
        if (end1 == tab + 1 || *end1 != '\t' || d == 0 || d > 32)
            fail_msg("%s:%zu: bad depth: %s", path, line_no, line);
        r->depth = (uint32_t)d;
        r->min_errors = strtoul(end1 + 1, &end2, 10);
        if (end2 == end1 + 1 || (*end2 != '\t' && *end2 != '\0'))
            fail_msg("%s:%zu: bad min_misclassifications: %s", path, line_no, line);
        ref.n++;
    }
    free(text);
    if (!header) fail_msg("%s: no header row", path);
    ref.loaded = true;
}

static const ref_row *find_row(const char *file, uint32_t depth)
{
    for (size_t i = 0; i < ref.n; i++)
        if (ref.rows[i].depth == depth && strcmp(ref.rows[i].file, file) == 0) return &ref.rows[i];
    fail_msg("%s/REFERENCE.tsv has no row for %s at depth %u", ref.dir, file, depth);
    return NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fit_and_check(const char *file, uint32_t depth)
{
    load_reference();
    const ref_row *r = find_row(file, depth);
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", ref.dir, file);
    pdt_dataset *ds = NULL;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_dataset_load_csv(&ds, path, NULL, &err)) fail_msg("%s", err.message);
    pdt_fit_options o;
    pdt_fit_options_init(&o);
    o.rules = "axis";
    o.max_depth = depth;
    o.max_size = PDT_UNLIMITED;
    double t0 = now();
    if (pdt_fit(&m, ds, &o, &err)) fail_msg("%s depth %u: pdt_fit: %s", file, depth, err.message);
    double seconds = now() - t0;

    mpq_t obj;
    mpq_init(obj);
    pdt_model_objective(obj, m);
    char *text = mpq_get_str(NULL, 10, obj);
    printf("%s (%zu rows, %zu features, %zu classes) depth %u: %s misclassifications (reference %lu), "
           "size %u, depth %u, %s, %.2f s\n",
           file, pdt_dataset_rows(ds), pdt_dataset_dims(ds), pdt_dataset_classes(ds), depth, text, r->min_errors,
           pdt_model_size(m), pdt_model_depth(m), pdt_model_optimal(m) ? "optimal" : "NOT optimal", seconds);
    fflush(stdout);
    if (mpz_cmp_ui(mpq_denref(obj), 1) != 0 || mpz_cmp_ui(mpq_numref(obj), r->min_errors) != 0)
        fail_msg("%s depth %u: the optimum is %s, REFERENCE.tsv says %lu", file, depth, text, r->min_errors);
    free(text);
    if (!pdt_model_optimal(m)) fail_msg("%s depth %u: the model is not flagged optimal", file, depth);
    if (pdt_model_depth(m) > depth) fail_msg("%s depth %u: the model has depth %u", file, depth, pdt_model_depth(m));

    size_t n = pdt_dataset_rows(ds);
    uint32_t *pred = malloc(n * sizeof *pred);
    assert_non_null(pred);
    if (pdt_model_predict(pred, m, ds, &err)) fail_msg("%s depth %u: predict: %s", file, depth, err.message);
    unsigned long wrong = 0;
    for (size_t i = 0; i < n; i++) {
        const char *truth = pdt_dataset_class_name(ds, pdt_dataset_label(ds, i));
        if (pred[i] >= pdt_model_classes(m) || strcmp(pdt_model_class_name(m, pred[i]), truth) != 0) wrong++;
    }
    free(pred);
    if (mpz_cmp_ui(mpq_numref(obj), wrong) != 0)
        fail_msg("%s depth %u: the predictions misclassify %lu rows, the model reports %lu", file, depth, wrong,
                 mpz_get_ui(mpq_numref(obj)));
    mpq_clear(obj);
    pdt_model_free(&m);
    pdt_dataset_free(&ds);
}

static void test_reference(void **state)
{
    const job *j = *state;
    fit_and_check(j->file, j->depth);
}

/* The table holds exactly the 11 depth-2 rows fitted below. */
static const char *const depth2_files[] = {"avila.csv", "bank.csv",  "bidding.csv", "fault.csv",
                                           "occupancy.csv", "page.csv", "raisin.csv", "rice.csv",
                                           "room.csv", "segment.csv", "wilt.csv"};

static void test_reference_table(void **state)
{
    (void)state;
    load_reference();
    size_t depth2 = 0;
    for (size_t i = 0; i < ref.n; i++) {
        if (ref.rows[i].depth != 2) continue;
        depth2++;
        bool listed = false;
        for (size_t k = 0; k < sizeof depth2_files / sizeof *depth2_files; k++)
            listed |= strcmp(ref.rows[i].file, depth2_files[k]) == 0;
        if (!listed) fail_msg("REFERENCE.tsv has a depth-2 row for %s, which this test does not fit", ref.rows[i].file);
    }
    printf("%s/REFERENCE.tsv: %zu rows, %zu at depth 2\n", ref.dir, ref.n, depth2);
    assert_int_equal(depth2, sizeof depth2_files / sizeof *depth2_files);
}

#define JOB(file, depth)                                                                                      \
    {                                                                                                         \
        .name = file " depth " #depth, .test_func = test_reference, .initial_state = &(job){file, depth} \
    }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_table),
        JOB("avila.csv", 2),
        JOB("bank.csv", 2),
        JOB("bidding.csv", 2),
        JOB("fault.csv", 2),
        JOB("occupancy.csv", 2),
        JOB("page.csv", 2),
        JOB("raisin.csv", 2),
        JOB("rice.csv", 2),
        JOB("room.csv", 2),
        JOB("segment.csv", 2),
        JOB("wilt.csv", 2),
        JOB("bank.csv", 3),
        JOB("raisin.csv", 3),
        JOB("segment.csv", 3),
        JOB("bank.csv", 4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
