/* Binarisation: the binary features of a dataset, and the bit matrix the
 * backend searches.
 *
 * A column holding exactly the values 0 and 1 is one feature (left side
 * x = 0).  Any other numeric column with k distinct values v1 < ... < vk gets
 * the k − 1 thresholds "x ≤ vi" (i < k): every way of cutting the sorted
 * values in two, each recorded by the data value at the cut, exactly as the
 * axis family does.  Columns named in the rule option onehot=NAME:NAME (or
 * every non-0/1 column with onehot=*), and the dataset's categorical columns
 * (text categories), are one-hot: one feature "x = v" per distinct value v
 * (one when there are only two values). */
#include <stdlib.h>
#include <string.h>

#include "binary_impl.h"
#include "model_impl.h"
#include "bitset.h"

/* ------------------------------------------------------------ options */

typedef struct bin_options {
    const char *onehot; /* the value of onehot=, not NUL terminated */
    size_t onehot_len;
    bool all;
} bin_options;

static pdt_status parse_options(bin_options *o, const pdt_dataset *ds, const char *text,
                                pdt_error *err)
{
    memset(o, 0, sizeof *o);
    for (const char *p = text; p && *p;) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        if (len && (!eq || (size_t)(eq - p) != 6 || strncmp(p, "onehot", 6) != 0))
            return pdt_error_set(err, PDT_EINVAL, "option --rule-options: \"%.*s\" is not "
                                 "onehot=COLUMN:COLUMN... or onehot=* (binary rules)", (int)len, p);
        if (len) {
            o->onehot = eq + 1;
            o->onehot_len = len - 7;
            o->all = o->onehot_len == 1 && o->onehot[0] == '*';
        }
        p += len + (p[len] == ',');
    }
    /* every named column must exist */
    for (size_t at = 0; !o->all && at < o->onehot_len;) {
        size_t len = strcspn(o->onehot + at, ":");
        if (len > o->onehot_len - at) len = o->onehot_len - at;
        char name[256];
        if (len == 0 || len >= sizeof name)
            return pdt_error_set(err, PDT_EINVAL, "option --rule-options: onehot: empty or too long "
                                 "column name");
        memcpy(name, o->onehot + at, len);
        name[len] = '\0';
        if (pdt_dataset_find_feature(ds, name) == SIZE_MAX)
            return pdt_error_set(err, PDT_EINVAL, "option --rule-options: onehot: %s has no feature "
                                 "column \"%s\"", pdt_dataset_name(ds), name);
        at += len + 1;
    }
    return PDT_OK;
}

static bool is_onehot(const bin_options *o, const char *name)
{
    if (o->all) return true;
    size_t n = strlen(name);
    for (size_t at = 0; at < o->onehot_len;) {
        size_t len = strcspn(o->onehot + at, ":");
        if (len > o->onehot_len - at) len = o->onehot_len - at;
        if (len == n && strncmp(o->onehot + at, name, n) == 0) return true;
        at += len + 1;
    }
    return false;
}

/* ------------------------------------------------------------ encoding */

static pdt_status add_feature(bin_encoding *enc, size_t *cap, bin_feature f, pdt_error *err)
{
    if (enc->n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        bin_feature *p = realloc(enc->f, c * sizeof *p);
        if (!p) return pdt_error_set(err, PDT_ENOMEM, "out of memory binarising the data");
        enc->f = p;
        *cap = c;
    }
    enc->f[enc->n++] = f;
    return PDT_OK;
}

/* A column whose two values are exactly 0 and 1. */
static bool is_flag_column(const pdt_dataset *ds, size_t j, const uint32_t *row_of_rank)
{
    if (pdt_dataset_distinct(ds, j) != 2) return false;
    mpq_t v;
    mpq_init(v);
    pdt_dataset_value_exact(v, ds, row_of_rank[0], j);
    bool ok = mpq_cmp_ui(v, 0, 1) == 0;
    pdt_dataset_value_exact(v, ds, row_of_rank[1], j);
    ok = ok && mpq_cmp_ui(v, 1, 1) == 0;
    mpq_clear(v);
    return ok;
}

static pdt_status encode_column(bin_encoding *enc, size_t *cap, const pdt_dataset *ds, size_t j,
                                const bin_options *o, uint32_t *row_of_rank, pdt_error *err)
{
    size_t n = pdt_dataset_rows(ds), k = pdt_dataset_distinct(ds, j);
    if (k < 2) return PDT_OK; /* a constant column splits nothing */
    bin_feature f = {.column = (uint32_t)j};
    if (pdt_dataset_is_binary(ds)) { /* every value 0 or 1: the flag needs no value rows */
        f.kind = BIN_FLAG, f.rank = 1;
        return add_feature(enc, cap, f, err);
    }
    for (size_t i = n; i-- > 0;) row_of_rank[pdt_dataset_rank(ds, i, j)] = (uint32_t)i;
    pdt_status st = PDT_OK;
    bool categorical = pdt_dataset_is_categorical(ds, j); /* codes: only x = v means anything */
    if (!categorical && is_flag_column(ds, j, row_of_rank)) {
        f.kind = BIN_FLAG, f.rank = 1, f.row = row_of_rank[1];
        return add_feature(enc, cap, f, err);
    }
    if (categorical || is_onehot(o, pdt_dataset_feature_name(ds, j))) {
        f.kind = BIN_EQ;
        for (size_t r = k == 2 ? 1 : 0; r < k && !st; r++) {
            f.rank = (uint32_t)r, f.row = row_of_rank[r];
            st = add_feature(enc, cap, f, err);
        }
        return st;
    }
    f.kind = BIN_LEQ;
    for (size_t r = 0; r + 1 < k && !st; r++) {
        f.rank = (uint32_t)r, f.row = row_of_rank[r];
        st = add_feature(enc, cap, f, err);
    }
    return st;
}

pdt_status bin_encode(bin_encoding *enc, const pdt_dataset *ds, const char *options, pdt_error *err)
{
    memset(enc, 0, sizeof *enc);
    bin_options o;
    pdt_status st = parse_options(&o, ds, options, err);
    if (st) return st;
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds), cap = 0;
    uint32_t *row_of_rank = malloc((n ? n : 1) * sizeof *row_of_rank);
    if (!row_of_rank) return pdt_error_set(err, PDT_ENOMEM, "out of memory binarising the data");
    for (size_t j = 0; j < d && !st; j++) st = encode_column(enc, &cap, ds, j, &o, row_of_rank, err);
    free(row_of_rank);
    if (!st && enc->n >= UINT32_MAX / 4)
        st = pdt_error_set(err, PDT_ELIMIT, "%zu binary features: too many", enc->n);
    if (st) bin_encoding_clear(enc);
    return st;
}

void bin_encoding_clear(bin_encoding *enc)
{
    free(enc->f);
    memset(enc, 0, sizeof *enc);
}

bool bin_value(const bin_encoding *enc, const pdt_dataset *ds, size_t f, size_t i)
{
    const bin_feature *b = &enc->f[f];
    uint32_t r = pdt_dataset_rank(ds, i, b->column);
    return b->kind == BIN_LEQ ? r > b->rank : r == b->rank;
}

pdt_status bin_export(pdt_rule *rule, const bin_encoding *enc, const pdt_dataset *ds, size_t f,
                      pdt_error *err)
{
    const bin_feature *b = &enc->f[f];
    pdt_status st = pdt_rule_init(rule, &pdt_rule_class_binary, 2, 1, err);
    if (st) return st;
    rule->ints[0] = b->column;
    rule->ints[1] = b->kind;
    if (b->kind == BIN_FLAG)
        mpq_set_ui(rule->rats[0], 0, 1);
    else
        pdt_dataset_value_exact(rule->rats[0], ds, b->row, b->column);
    return PDT_OK;
}

pdt_status bin_model_rule(int32_t *index, pdt_model *m, uint32_t *rule_of, const bin_encoding *enc,
                          const pdt_dataset *ds, uint32_t f, pdt_error *err)
{
    if (!rule_of[f]) {
        pdt_status st = bin_export(&m->rules[m->n_rules], enc, ds, f, err);
        if (st) return st;
        rule_of[f] = (uint32_t)++m->n_rules;
    }
    *index = (int32_t)rule_of[f] - 1;
    return PDT_OK;
}

/* ------------------------------------------------------------ the bit matrix */

pdt_status bs_data_build(bs_data *d, const pdt_dataset *ds, const bin_encoding *enc, pdt_error *err)
{
    memset(d, 0, sizeof *d);
    d->n = pdt_dataset_rows(ds);
    d->nf = enc->n;
    d->nc = pdt_dataset_classes(ds);
    d->words = pdt_bits_words(d->n);
    size_t w = d->words ? d->words : 1;
    d->cols = calloc((d->nf ? d->nf : 1) * w, sizeof *d->cols);
    d->cls = calloc((d->nc ? d->nc : 1) * w, sizeof *d->cls);
    d->all = calloc(w, sizeof *d->all);
    if (!d->cols || !d->cls || !d->all) {
        bs_data_clear(d);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory for the binary matrix");
    }
    for (size_t i = 0; i < d->n; i++) { /* row by row: the dataset is row-major */
        const double *x = pdt_dataset_row(ds, i);
        for (size_t f = 0; f < d->nf; f++) {
            const bin_feature *b = &enc->f[f];
            bool one = b->kind == BIN_FLAG ? x[b->column] == 1.0 : bin_value(enc, ds, f, i);
            if (one) pdt_bit_set(d->cols + f * w, i);
        }
    }
    for (size_t i = 0; i < d->n; i++) pdt_bit_set(d->cls + pdt_dataset_label(ds, i) * w, i);
    pdt_bits_fill(d->all, d->n);
    return PDT_OK;
}

void bs_data_clear(bs_data *d)
{
    free(d->cols);
    free(d->cls);
    free(d->all);
    memset(d, 0, sizeof *d);
}

uint32_t bs_leaf(const bs_data *d, const uint64_t *items, uint32_t *label)
{
    uint32_t total = 0, best = 0, arg = 0;
    for (size_t c = 0; c < d->nc; c++) {
        uint32_t k = pdt_bits_and_count(items, d->cls + c * d->words, d->words);
        total += k;
        if (k > best) best = k, arg = (uint32_t)c;
    }
    if (label) *label = arg;
    return total - best;
}
