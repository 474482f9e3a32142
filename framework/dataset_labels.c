/* Class names while loading: distinct label texts get raw ids in order of
 * appearance (an open-addressing hash finds them); finishing sorts them into
 * the dataset's classes and rewrites the labels. */
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"
#include "pdt_plugin.h"

void pdt_label_table_init(pdt_label_table *t) { memset(t, 0, sizeof *t); }

void pdt_label_table_clear(pdt_label_table *t)
{
    for (size_t k = 0; k < t->n; k++) free(t->names[k]);
    free(t->names);
    free(t->slots);
    pdt_label_table_init(t);
}

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t k = 0; k < len; k++) h = (h ^ (unsigned char)s[k]) * UINT64_C(0x100000001b3);
    return h;
}

/* The slot holding s, or the empty slot where it belongs. */
static size_t find_slot(const pdt_label_table *t, const char *s, size_t len)
{
    size_t mask = t->n_slots - 1, p = (size_t)hash_bytes(s, len) & mask;
    while (t->slots[p]) {
        const char *name = t->names[t->slots[p] - 1];
        if (strncmp(name, s, len) == 0 && name[len] == '\0') return p;
        p = (p + 1) & mask;
    }
    return p;
}

static pdt_status grow(pdt_label_table *t, pdt_error *err)
{
    size_t n_slots = t->n_slots ? 2 * t->n_slots : 64;
    uint32_t *slots = calloc(n_slots, sizeof *slots);
    char **names = realloc(t->names, n_slots / 2 * sizeof *names);
    if (names) t->names = names;
    if (!slots || !names) {
        free(slots);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu class names)", t->n);
    }
    free(t->slots);
    t->slots = slots;
    t->n_slots = n_slots;
    t->cap = n_slots / 2;
    for (size_t k = 0; k < t->n; k++)
        t->slots[find_slot(t, t->names[k], strlen(t->names[k]))] = (uint32_t)k + 1;
    return PDT_OK;
}

pdt_status pdt_label_table_add(uint32_t *id, pdt_label_table *t, const char *s, size_t len,
                               pdt_error *err)
{
    if (t->n + 1 > t->cap) {
        pdt_status st = grow(t, err);
        if (st != PDT_OK) return st;
    }
    size_t p = find_slot(t, s, len);
    if (!t->slots[p]) {
        t->names[t->n] = pdt_strndup(s, len);
        if (!t->names[t->n]) return pdt_error_set(err, PDT_ENOMEM, "out of memory (a class name)");
        t->slots[p] = (uint32_t)++t->n;
    }
    *id = t->slots[p] - 1;
    return PDT_OK;
}

typedef struct label_key {
    mpq_srcptr value; /* numeric order only */
    const char *name;
    uint32_t id;
} label_key;

/* By value, equal values by first appearance (whose spelling names the class). */
static int numeric_cmp(const void *a, const void *b)
{
    const label_key *x = a, *y = b;
    int c = mpq_cmp(x->value, y->value);
    if (c) return (c > 0) - (c < 0);
    return (x->id > y->id) - (x->id < y->id);
}

static int bytewise_cmp(const void *a, const void *b)
{
    return strcmp(((const label_key *)a)->name, ((const label_key *)b)->name);
}

/* Sorted keys into classes; class_of maps raw ids to class indices. */
static size_t make_classes(char **classes, uint32_t *class_of, pdt_label_table *t,
                           const label_key *keys, bool numeric)
{
    size_t nc = 0;
    for (size_t k = 0; k < t->n; k++) {
        uint32_t id = keys[k].id;
        if (k == 0 || !numeric || !mpq_equal(keys[k].value, keys[k - 1].value)) {
            classes[nc++] = t->names[id];
            t->names[id] = NULL;
        }
        class_of[id] = (uint32_t)(nc - 1);
    }
    return nc;
}

static bool parse_all(mpq_t *values, label_key *keys, const pdt_label_table *t)
{
    bool numeric = true;
    for (size_t k = 0; k < t->n; k++) {
        keys[k] = (label_key){values[k], t->names[k], (uint32_t)k};
        if (numeric) numeric = pdt_parse_rational(values[k], t->names[k], strlen(t->names[k]));
    }
    return numeric;
}

pdt_status pdt_label_table_sort(char ***names, size_t *n_names, uint32_t **code_of,
                                pdt_label_table *t, pdt_error *err)
{
    *names = NULL;
    *n_names = 0;
    *code_of = NULL;
    size_t n = t->n ? t->n : 1;
    label_key *keys = malloc(n * sizeof *keys);
    uint32_t *codes = malloc(n * sizeof *codes);
    char **sorted = malloc(n * sizeof *sorted);
    mpq_t *values = malloc(n * sizeof *values);
    pdt_status st = PDT_OK;
    if (!keys || !codes || !sorted || !values) {
        st = pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu names)", t->n);
    } else {
        for (size_t k = 0; k < t->n; k++) mpq_init(values[k]);
        bool numeric = parse_all(values, keys, t);
        qsort(keys, t->n, sizeof *keys, numeric ? numeric_cmp : bytewise_cmp);
        *n_names = make_classes(sorted, codes, t, keys, numeric);
        *names = sorted;
        *code_of = codes;
        sorted = NULL;
        codes = NULL;
        for (size_t k = 0; k < t->n; k++) mpq_clear(values[k]);
    }
    free(keys);
    free(codes);
    free(sorted);
    free(values);
    pdt_label_table_clear(t);
    return st;
}

pdt_status pdt_label_table_finish(pdt_dataset *ds, pdt_label_table *t, pdt_error *err)
{
    uint32_t *class_of = NULL;
    pdt_status st = pdt_label_table_sort(&ds->classes, &ds->n_classes, &class_of, t, err);
    for (size_t i = 0; st == PDT_OK && ds->labels && i < ds->n; i++)
        ds->labels[i] = class_of[ds->labels[i]];
    free(class_of);
    return st;
}

pdt_status pdt_dataset_code_categories(pdt_dataset *ds, size_t j, pdt_label_table *t, pdt_error *err)
{
    char **names = NULL;
    size_t k = 0;
    uint32_t *code_of = NULL;
    pdt_status st = pdt_label_table_sort(&names, &k, &code_of, t, err);
    if (st == PDT_OK) st = pdt_dataset_set_categories(ds, j, names, k, err);
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < ds->n && st == PDT_OK; i++) {
        size_t cell = i * ds->d + j;
        ds->x[cell] = code_of[(uint32_t)ds->x[cell]];
        if (ds->q) {
            mpq_set_d(q, ds->x[cell]);
            st = pdt_dataset_store_exact(ds, cell, q, err);
        }
    }
    mpq_clear(q);
    free(code_of);
    return st;
}
