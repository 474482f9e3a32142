/* Fuzz target: the JSON result document loader (pdt_model_load_json).  It
 * takes a path, so every input is written to a file in a per-process
 * temporary directory first.  A small loaded model (see SMALL_BITS) must
 * write its text, predict points built from its own parameters (every value a
 * rule mentions, so points fall on the boundaries), and survive a round trip:
 * saved, loaded again and saved again, the two documents are the same bytes
 * and the two models the same text. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset_impl.h"
#include "harness.h"
#include "model_impl.h"

#define SMALL_DIMS 16
#define SMALL_NODES 256
/* Rule parameters may be as large as data cells (10^100000); a hypersurface
 * through such points costs seconds per exact prediction under ASan, so only
 * models whose rationals total fewer bits than this are used after loading. */
#define SMALL_BITS 8192
#define N_VALUES 8
#define N_ROWS 6

/* A few values: 0, 1, -1, 1/3 and the first rationals of the model's rules. */
static size_t pick_values(mpq_t *v, const pdt_model *m)
{
    mpq_set_si(v[0], 0, 1);
    mpq_set_si(v[1], 1, 1);
    mpq_set_si(v[2], -1, 1);
    mpq_set_si(v[3], 1, 3);
    size_t n = 4;
    for (size_t r = 0; r < m->n_rules && n < N_VALUES; r++)
        for (size_t k = 0; k < m->rules[r].n_rats && n < N_VALUES; k++) mpq_set(v[n++], m->rules[r].rats[k]);
    return n;
}

/* Rows with the model's features, cell (i, j) = values[(i + 3j) mod n]. */
static pdt_dataset *points(const pdt_model *m)
{
    pdt_dataset *ds = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_fuzz_check_ok(pdt_dataset_alloc(&ds, N_ROWS, m->dims, true, &err), &err, "a dataset");
    pdt_fuzz_check_ok(pdt_dataset_set_name(ds, "points", &err), &err, "a dataset's name");
    for (size_t j = 0; j < m->dims; j++)
        pdt_fuzz_check_ok(pdt_dataset_set_feature(ds, j, m->features[j], strlen(m->features[j]), &err),
                          &err, "a feature name");
    mpq_t v[N_VALUES];
    for (size_t k = 0; k < N_VALUES; k++) mpq_init(v[k]);
    size_t n = pick_values(v, m);
    for (size_t i = 0; i < N_ROWS; i++)
        for (size_t j = 0; j < m->dims; j++) {
            pdt_fuzz_check_ok(pdt_dataset_store_exact(ds, i * m->dims + j, v[(i + 3 * j) % n], &err),
                              &err, "a value");
            ds->x[i * m->dims + j] = pdt_rational_to_double(v[(i + 3 * j) % n]);
        }
    for (size_t k = 0; k < N_VALUES; k++) mpq_clear(v[k]);
    pdt_fuzz_check_ok(pdt_dataset_finish(ds, &err), &err, "finishing a dataset");
    return ds;
}

static void predict(const pdt_model *m)
{
    pdt_dataset *ds = points(m);
    uint32_t cls[N_ROWS];
    pdt_error err;
    pdt_error_clear(&err);
    pdt_fuzz_check_ok(pdt_model_predict(cls, m, ds, &err), &err, "predicting");
    for (size_t i = 0; i < N_ROWS; i++)
        PDT_FUZZ_CHECK(cls[i] < pdt_model_classes(m), "row %zu: class %u of %zu", i, cls[i],
                       pdt_model_classes(m));
    pdt_dataset_free(&ds);
}

static char *model_text(const pdt_model *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    PDT_FUZZ_CHECK(f, "open_memstream failed");
    pdt_error err;
    pdt_error_clear(&err);
    pdt_fuzz_check_ok(pdt_model_write_text(m, f, &err), &err, "the model's text");
    fclose(f);
    return text;
}

static char *save(const pdt_model *m, const char *path)
{
    unlink(path); /* renaming over a file makes ext4 flush it */
    pdt_error err;
    pdt_error_clear(&err);
    pdt_fuzz_check_ok(pdt_model_save_json(m, path, &err), &err, "saving");
    char *text = NULL;
    size_t len = 0;
    pdt_fuzz_check_ok(pdt_file_read(&text, &len, path, &err), &err, "reading the saved file");
    return text;
}

static void round_trip(const pdt_model *m)
{
    static char *first, *second;
    if (!first) first = pdt_fuzz_path("first.json"), second = pdt_fuzz_path("second.json");
    char *doc1 = save(m, first), *text1 = model_text(m);
    pdt_model *again = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_fuzz_check_ok(pdt_model_load_json(&again, first, &err), &err, "loading a saved model");
    char *doc2 = save(again, second), *text2 = model_text(again);
    PDT_FUZZ_CHECK(strcmp(doc1, doc2) == 0, "saved twice, two documents:\n%s\n%s", doc1, doc2);
    PDT_FUZZ_CHECK(strcmp(text1, text2) == 0, "loaded twice, two texts:\n%s\n%s", text1, text2);
    free(doc1);
    free(doc2);
    free(text1);
    free(text2);
    pdt_model_free(&again);
}

static bool small(const pdt_model *m)
{
    size_t bits = 0;
    for (size_t r = 0; r < m->n_rules; r++)
        for (size_t k = 0; k < m->rules[r].n_rats; k++)
            bits += mpz_sizeinbase(mpq_numref(m->rules[r].rats[k]), 2) +
                    mpz_sizeinbase(mpq_denref(m->rules[r].rats[k]), 2);
    return m->dims <= SMALL_DIMS && m->n_nodes <= SMALL_NODES && bits <= SMALL_BITS;
}

int pdt_fuzz_model_json(const uint8_t *data, size_t size)
{
    static char *path;
    if (size > PDT_FUZZ_MAX_MODEL_JSON) return 0;
    if (!path) path = pdt_fuzz_path("model.json");
    pdt_fuzz_write_file(path, data, size);
    pdt_model *m = (pdt_model *)&m; /* not NULL: the loader must reset it */
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_load_json(&m, path, &err);
    if (st != PDT_OK) {
        pdt_fuzz_check_rejected(st, &err, path, (const char *)data, size);
        PDT_FUZZ_CHECK(m == NULL, "a rejected file left a model behind");
        return 0;
    }
    if (small(m)) {
        pdt_fuzz_check_ok(pdt_model_write_text(m, pdt_fuzz_null(), &err), &err, "the model's text");
        predict(m);
        round_trip(m);
    }
    pdt_model_free(&m);
    return 0;
}

#ifdef PDT_FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return pdt_fuzz_model_json(data, size); }
#endif
