/* What the fuzz bodies share: contract checks, dataset invariants, a small
 * fit, a null stream and a temporary directory. */
#include "harness.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset_impl.h"
#include "model_impl.h"

void pdt_fuzz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz: %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}

static size_t count_lines(const char *text, size_t len)
{
    size_t lines = 1;
    for (size_t k = 0; k < len; k++)
        lines += text[k] == '\n' || (text[k] == '\r' && !(k + 1 < len && text[k + 1] == '\n'));
    return lines;
}

/* ":LINE:COL:" or ":LINE:" right after the name: both at least 1, the line in the text. */
static void check_position(const char *msg, const char *text, size_t len)
{
    if (msg[0] != ':' || msg[1] < '0' || msg[1] > '9') return;
    char *end;
    unsigned long long line = strtoull(msg + 1, &end, 10), lines = count_lines(text, len);
    PDT_FUZZ_CHECK(line >= 1 && line <= lines, "line %llu of a text of %llu lines: \"%s\"", line,
                   lines, msg);
    if (end[0] != ':' || end[1] < '0' || end[1] > '9') return;
    unsigned long long col = strtoull(end + 1, &end, 10);
    PDT_FUZZ_CHECK(col >= 1 && col <= len + 1, "column %llu of a text of %zu bytes: \"%s\"", col,
                   len, msg);
}

void pdt_fuzz_check_rejected(pdt_status st, const pdt_error *err, const char *name, const char *text,
                             size_t len)
{
    PDT_FUZZ_CHECK(st == PDT_EINVAL || st == PDT_ELIMIT, "bad input gave status \"%s\": %s",
                   pdt_status_name(st), err->message);
    PDT_FUZZ_CHECK(err->status == st, "returned \"%s\", but the error says \"%s\"",
                   pdt_status_name(st), pdt_status_name(err->status));
    PDT_FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message), "unterminated message");
    size_t n = strlen(name);
    PDT_FUZZ_CHECK(strncmp(err->message, name, n) == 0, "the message does not start with %s: \"%s\"",
                   name, err->message);
    check_position(err->message + n, text, len);
}

void pdt_fuzz_check_ok(pdt_status st, const pdt_error *err, const char *what)
{
    PDT_FUZZ_CHECK(st == PDT_OK, "%s failed (%s): %s", what, pdt_status_name(st), err->message);
}

/* ------------------------------------------------------------ datasets */

static void check_names(const pdt_dataset *ds)
{
    for (size_t j = 0; j < pdt_dataset_dims(ds); j++) {
        const char *name = pdt_dataset_feature_name(ds, j);
        PDT_FUZZ_CHECK(name && pdt_dataset_find_feature(ds, name) == j, "feature %zu \"%s\" not found",
                       j, name ? name : "(null)");
        PDT_FUZZ_CHECK(pdt_dataset_distinct(ds, j) >= 1 || pdt_dataset_rows(ds) == 0,
                       "feature %zu has no values", j);
    }
    for (size_t c = 0; c < pdt_dataset_classes(ds); c++) {
        const char *name = pdt_dataset_class_name(ds, c);
        PDT_FUZZ_CHECK(name && pdt_dataset_find_class(ds, name) == c, "class %zu \"%s\" not found", c,
                       name ? name : "(null)");
    }
}

/* Ranks order the cells of a column as their exact values do. */
static void check_ranks(const pdt_dataset *ds)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    for (size_t j = 0; j < pdt_dataset_dims(ds); j++)
        for (size_t i = 0; i < pdt_dataset_rows(ds); i++)
            for (size_t k = i + 1; k < pdt_dataset_rows(ds); k++) {
                pdt_dataset_value_exact(a, ds, i, j);
                pdt_dataset_value_exact(b, ds, k, j);
                int c = mpq_cmp(a, b), r = (pdt_dataset_rank(ds, i, j) > pdt_dataset_rank(ds, k, j)) -
                                           (pdt_dataset_rank(ds, i, j) < pdt_dataset_rank(ds, k, j));
                PDT_FUZZ_CHECK((c > 0) - (c < 0) == r, "column %zu: rows %zu and %zu ranked wrong", j,
                               i, k);
            }
    mpq_clears(a, b, NULL);
}

void pdt_fuzz_dataset_accessors(const pdt_dataset *ds)
{
    PDT_FUZZ_CHECK(pdt_dataset_name(ds) != NULL, "a dataset without a name");
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds);
    PDT_FUZZ_CHECK(n >= 1, "a dataset without rows");
    check_names(ds);
    mpq_t q, w;
    mpq_inits(q, w, NULL);
    bool binary = true;
    for (size_t i = 0; i < n; i++) {
        if (pdt_dataset_has_labels(ds))
            PDT_FUZZ_CHECK(pdt_dataset_label(ds, i) < pdt_dataset_classes(ds), "row %zu: label %u of %zu",
                           i, pdt_dataset_label(ds, i), pdt_dataset_classes(ds));
        pdt_dataset_weight_exact(w, ds, i);
        PDT_FUZZ_CHECK(mpq_sgn(w) >= 0, "row %zu: a negative weight", i);
        for (size_t j = 0; j < d; j++) {
            pdt_dataset_value_exact(q, ds, i, j);
            double x = pdt_dataset_value(ds, i, j);
            PDT_FUZZ_CHECK(mpq_sgn(q) * x >= 0 && (mpq_sgn(q) != 0 || x == 0),
                           "cell (%zu, %zu): the double %g has the wrong sign", i, j, x);
            PDT_FUZZ_CHECK(pdt_dataset_rank(ds, i, j) < pdt_dataset_distinct(ds, j),
                           "cell (%zu, %zu): rank %u of %zu distinct values", i, j,
                           pdt_dataset_rank(ds, i, j), pdt_dataset_distinct(ds, j));
            binary &= mpz_cmp_ui(mpq_denref(q), 1) == 0 && mpz_cmp_ui(mpq_numref(q), 1) <= 0 &&
                      mpq_sgn(q) >= 0;
            if (pdt_dataset_is_categorical(ds, j)) /* a code, naming one of the column's categories */
                PDT_FUZZ_CHECK(mpz_cmp_ui(mpq_denref(q), 1) == 0 && mpq_sgn(q) >= 0 &&
                                   mpz_cmp_ui(mpq_numref(q), pdt_dataset_categories(ds, j)) < 0,
                               "cell (%zu, %zu): not a category code", i, j);
        }
    }
    binary &= !pdt_dataset_has_categorical(ds);
    PDT_FUZZ_CHECK(binary == pdt_dataset_is_binary(ds), "the binary flag is wrong");
    for (size_t j = 0; j < d; j++)
        for (size_t v = 0; v < pdt_dataset_categories(ds, j); v++)
            PDT_FUZZ_CHECK(pdt_dataset_find_category(ds, j, pdt_dataset_category_name(ds, j, v)) == v,
                           "column %zu: category %zu is not found by its name", j, v);
    mpq_clears(q, w, NULL);
    if (n <= 64) check_ranks(ds);
}

/* ------------------------------------------------------------ fitting */

static void check_predictions(const pdt_model *m, const pdt_dataset *ds)
{
    size_t n = pdt_dataset_rows(ds);
    uint32_t *cls = malloc(n * sizeof *cls);
    PDT_FUZZ_CHECK(cls, "out of memory");
    pdt_error err;
    pdt_error_clear(&err);
    pdt_fuzz_check_ok(pdt_model_predict(cls, m, ds, &err), &err, "predicting the training rows");
    uint64_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        PDT_FUZZ_CHECK(cls[i] < pdt_model_classes(m), "row %zu: class %u of %zu", i, cls[i],
                       pdt_model_classes(m));
        wrong += cls[i] != pdt_dataset_label(ds, i);
    }
    PDT_FUZZ_CHECK(wrong == m->misclassifications, "%llu rows predicted wrong, the leaves say %llu",
                   (unsigned long long)wrong, (unsigned long long)m->misclassifications);
    free(cls);
}

bool pdt_fuzz_fit(mpq_ptr objective, const pdt_dataset *ds, const char *rules, uint32_t size,
                  uint32_t depth, const char *class_weights)
{
    pdt_fit_options opt;
    pdt_fit_options_init(&opt);
    opt.rules = rules;
    opt.max_size = size;
    opt.max_depth = depth;
    opt.memo_megabytes = 16;
    opt.class_weights = class_weights;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_fit(&m, ds, &opt, &err);
    if (st != PDT_OK && class_weights) {
        pdt_fuzz_check_rejected(st, &err, "option --class-weights", class_weights, strlen(class_weights));
        PDT_FUZZ_CHECK(m == NULL, "a failed fit left a model behind");
        return false;
    }
    pdt_fuzz_check_ok(st, &err, rules);
    PDT_FUZZ_CHECK(pdt_model_size(m) <= size && pdt_model_depth(m) <= depth,
                   "%s: size %u, depth %u beyond the limits %u, %u", rules, pdt_model_size(m),
                   pdt_model_depth(m), size, depth);
    PDT_FUZZ_CHECK(pdt_model_optimal(m), "%s: not optimal without a time limit", rules);
    check_predictions(m, ds);
    pdt_fuzz_check_ok(pdt_model_write_text(m, pdt_fuzz_null(), &err), &err, "the model's text");
    if (objective) pdt_model_objective(objective, m);
    pdt_model_free(&m);
    return true;
}

void pdt_fuzz_same_optimum(const pdt_dataset *ds, uint32_t depth)
{
    mpq_t axis, binary;
    mpq_inits(axis, binary, NULL);
    /* with categories: axis thresholds beside binary's one-hot tests (the fused
     * engine), the same rules binary's backend binarises to */
    pdt_fuzz_fit(axis, ds, pdt_dataset_has_categorical(ds) ? "axis,binary" : "axis", PDT_UNLIMITED, depth, NULL);
    pdt_fuzz_fit(binary, ds, "binary", PDT_UNLIMITED, depth, NULL);
    PDT_FUZZ_CHECK(mpq_equal(axis, binary), "depth %u: axis optimum %s, binary %s", depth,
                   mpq_get_str(NULL, 10, axis), mpq_get_str(NULL, 10, binary));
    mpq_clears(axis, binary, NULL);
}

/* ------------------------------------------------------------ files */

FILE *pdt_fuzz_null(void)
{
    static FILE *null;
    if (!null) null = fopen("/dev/null", "w");
    PDT_FUZZ_CHECK(null, "cannot open /dev/null");
    return null;
}

static char tmpdir[4096];

static void remove_tmpdir(void)
{
    DIR *dir = opendir(tmpdir);
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char *path = pdt_fuzz_path(e->d_name);
        unlink(path);
        free(path);
    }
    if (dir) closedir(dir);
    rmdir(tmpdir);
}

const char *pdt_fuzz_tmpdir(void)
{
    if (tmpdir[0]) return tmpdir;
    const char *base = getenv("TMPDIR");
    if (!base || !*base || strlen(base) > sizeof tmpdir - 32) base = "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/pdt-fuzz-XXXXXX", base);
    PDT_FUZZ_CHECK(mkdtemp(tmpdir), "cannot create %s", tmpdir);
    atexit(remove_tmpdir);
    return tmpdir;
}

char *pdt_fuzz_path(const char *name)
{
    const char *dir = pdt_fuzz_tmpdir();
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    PDT_FUZZ_CHECK(path, "out of memory");
    snprintf(path, len, "%s/%s", dir, name);
    return path;
}

void pdt_fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    unlink(path); /* ext4 flushes a file truncated or renamed over on close: 100x slower */
    FILE *f = fopen(path, "wb");
    PDT_FUZZ_CHECK(f, "cannot write %s", path);
    PDT_FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
}
