/* The oracle check of one instance: specification vs every engine (see oracle.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_impl.h"
#include "spec.h"

#define CSV_CAP 4096

bool oracle_fail(oracle_check_ctx *x, const char *fmt, ...)
{
    x->failed = true;
    if (x->len + 2 >= sizeof x->log) return false;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(x->log + x->len, sizeof x->log - x->len - 1, fmt, ap);
    va_end(ap);
    if (n > 0)
        x->len += (size_t)n < sizeof x->log - x->len - 1 ? (size_t)n : sizeof x->log - x->len - 2;
    x->log[x->len++] = '\n';
    x->log[x->len] = '\0';
    return false;
}

static pdt_dataset *load(const char *csv, pdt_error *err)
{
    pdt_dataset *ds = NULL;
    if (pdt_dataset_read_csv(&ds, csv, strlen(csv), "oracle.csv", NULL, err)) return NULL;
    return ds;
}

size_t oracle_rule_count(const oracle_case *c)
{
    char csv[CSV_CAP];
    oracle_csv(csv, sizeof csv, c);
    pdt_error err;
    pdt_error_clear(&err);
    pdt_dataset *ds = load(csv, &err);
    pdt_ruleset *rs = NULL;
    pdt_rule_params params = {0};
    if (!ds || pdt_ruleset_build(&rs, ds, c->rules, &params, &err))
        fail_msg("oracle instance (seed %#llx): %s\n%s", (unsigned long long)c->seed, err.message,
                 csv);
    size_t m = pdt_ruleset_size(rs);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
    return m;
}

static bool class_present(const oracle_case *c, size_t k)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->label[i] == k) return true;
    return false;
}

/* "a=0.25,b=3" over the classes present. */
static void weights_text(char *out, size_t cap, const oracle_case *c)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t k = 0; k < c->n_classes; k++)
        if (class_present(c, k))
            len += (size_t)snprintf(out + len, cap - len, "%s%s=%g", len ? "," : "", c->names[k],
                                    (double)c->weight4[k] / 4);
}

static void spec_from_ruleset(spec_problem *sp, const oracle_case *c, const pdt_ruleset *rs)
{
    size_t m = pdt_ruleset_size(rs);
    spec_problem_init(sp, c->n, m, c->n_classes);
    for (size_t i = 0; i < c->n; i++) sp->label[i] = c->label[i];
    for (size_t k = 0; k < c->n_classes; k++) sp->class_weight[k] = c->weighted ? c->weight4[k] : 1;
    for (size_t r = 0; r < m; r++) {
        const uint64_t *side = pdt_ruleset_sides(rs, r);
        for (size_t i = 0; i < c->n; i++) spec_set_left(sp, r, i, (side[i / 64] >> (i % 64)) & 1);
        size_t n_def;
        const uint32_t *def = pdt_ruleset_def(rs, r, &n_def);
        spec_set_def(sp, r, def, n_def);
    }
}

typedef struct engine_variant {
    const char *name;
    pdt_engine engine;
    bool no_memo;
} engine_variant;

static const engine_variant variants[] = {
    {"fused", PDT_ENGINE_FUSED, false},
    {"fused, no memo", PDT_ENGINE_FUSED, true},
    {"combinations", PDT_ENGINE_COMBINATIONS, false},
    {"auto (the family's backend if any)", PDT_ENGINE_AUTO, false},
};

/* Check (4): size, depth and the misclassifications of the predictions. */
static void check_model(oracle_check_ctx *x, const pdt_model *m, const pdt_dataset *ds,
                        const char *name)
{
    const oracle_case *c = x->c;
    uint32_t size = pdt_model_size(m), depth = pdt_model_depth(m);
    if (!pdt_model_optimal(m)) oracle_fail(x, "%s: the model is not flagged optimal", name);
    if (size > c->k) oracle_fail(x, "%s: model size %u > K = %u", name, size, c->k);
    if (depth > size || (c->max_depth != PDT_UNLIMITED && depth > c->max_depth))
        oracle_fail(x, "%s: model depth %u (size %u, D = %d)", name, depth, size,
                    (int)c->max_depth);
    uint32_t pred[ORACLE_MAX_ROWS];
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_model_predict(pred, m, ds, &err)) {
        oracle_fail(x, "%s: predict: %s", name, err.message);
        return;
    }
    int64_t wrong = 0; /* in the specification's weight units */
    for (size_t i = 0; i < c->n; i++)
        if (pred[i] >= pdt_model_classes(m) ||
            strcmp(pdt_model_class_name(m, pred[i]), c->names[c->label[i]]))
            wrong += c->weighted ? c->weight4[c->label[i]] : 1;
    mpq_t obj, got;
    mpq_inits(obj, got, NULL);
    pdt_model_objective(obj, m);
    mpq_set_si(got, wrong, c->weighted ? 4 : 1);
    mpq_canonicalize(got);
    if (!mpq_equal(obj, got))
        oracle_fail(x, "%s: the predictions misclassify %g, the model reports %g", name,
                    mpq_get_d(got), mpq_get_d(obj));
    mpq_clears(obj, got, NULL);
}

/* Checks (1)–(4) for one engine variant. */
static void check_engine(oracle_check_ctx *x, const pdt_dataset *ds, const engine_variant *v,
                         const spec_result *sr)
{
    const oracle_case *c = x->c;
    char weights[128];
    weights_text(weights, sizeof weights, c);
    pdt_fit_options fo;
    pdt_fit_options_init(&fo);
    fo.rules = c->rules;
    fo.max_size = c->k;
    fo.max_depth = c->max_depth;
    fo.min_leaf = c->min_leaf;
    fo.class_weights = c->weighted ? weights : NULL;
    fo.engine = v->engine;
    fo.no_memo = v->no_memo;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (getenv("PDT_ORACLE_VERBOSE")) {
        printf("  engine: %s\n", v->name);
        fflush(stdout);
    }
    if (pdt_fit(&m, ds, &fo, &err)) {
        oracle_fail(x, "%s: pdt_fit failed: %s", v->name, err.message);
        return;
    }
    mpq_t obj, want;
    mpq_inits(obj, want, NULL);
    pdt_model_objective(obj, m);
    mpq_set_si(want, sr->best, c->weighted ? 4 : 1);
    mpq_canonicalize(want);
    if (!mpq_equal(obj, want))
        oracle_fail(x, "%s: optimum %g, the specification says %g", v->name, mpq_get_d(obj),
                    mpq_get_d(want));
    mpq_clears(obj, want, NULL);
    /* the specification takes sizes in increasing order and keeps only strict
     * improvements: its minimiser has the fewest branch nodes of all optima */
    if (pdt_model_size_minimal(m) && pdt_model_size(m) != sr->best_k)
        oracle_fail(x, "%s: size %u said minimal, the smallest optimal tree has %zu branch nodes", v->name,
                    pdt_model_size(m), sr->best_k);
    check_model(x, m, ds, v->name);
    pdt_model_free(&m);
}

/* Check (5): pdt_count for every k ≤ K. */
static void check_counts(oracle_check_ctx *x, const pdt_dataset *ds, const spec_result *sr,
                         size_t m)
{
    const oracle_case *c = x->c;
    pdt_rule_params params = {0};
    for (uint32_t k = 0; k <= c->k; k++) {
        pdt_count_report rep;
        pdt_count_report_init(&rep);
        pdt_error err;
        pdt_error_clear(&err);
        mpz_t perms;
        mpz_init_set_ui(perms, 1);
        for (uint32_t j = 0; j < k; j++)
            mpz_mul_ui(perms, perms, m >= j ? (unsigned long)(m - j) : 0);
        if (pdt_count(&rep, ds, c->rules, &params, k, c->min_leaf, &err))
            oracle_fail(x, "pdt_count(%u) failed: %s", k, err.message);
        else if (mpz_cmp_ui(rep.proper, sr->count[k]) != 0) {
            char got[64];
            gmp_snprintf(got, sizeof got, "%Zd", rep.proper);
            oracle_fail(x, "pdt_count(%u, min_leaf %u) = %s, the specification counts %llu", k,
                        c->min_leaf, got, (unsigned long long)sr->count[k]);
        } else if (rep.n_rules != m || mpz_cmp(rep.permutations, perms) != 0)
            oracle_fail(x, "pdt_count(%u): %zu rules, expected %zu", k, rep.n_rules, m);
        mpz_clear(perms);
        pdt_count_report_clear(&rep);
    }
}

void oracle_print_case(const oracle_case *c)
{
    char csv[CSV_CAP], weights[128];
    oracle_csv(csv, sizeof csv, c);
    weights_text(weights, sizeof weights, c);
    printf("==== oracle instance (seed %#llx): --rules %s, K = %u, D = ",
           (unsigned long long)c->seed, c->rules, c->k);
    if (c->max_depth == PDT_UNLIMITED)
        printf("none");
    else
        printf("%u", c->max_depth);
    printf(", min_leaf = %u, class weights: %s\n%s", c->min_leaf, c->weighted ? weights : "none",
           csv);
    fflush(stdout);
}

static void print_failure(const oracle_check_ctx *x, const spec_result *sr)
{
    const oracle_case *c = x->c;
    printf("MISMATCH\n");
    oracle_print_case(c);
    if (sr) {
        printf("---- specification: odt_K = %lld (weight units %d), a minimiser: k = %zu rules [",
               (long long)sr->best, c->weighted ? 4 : 1, sr->best_k);
        for (size_t k = 0; k < sr->best_k; k++) printf("%s%u", k ? " " : "", sr->best_perm[k]);
        printf("]; counts k = 0..K:");
        for (uint32_t k = 0; k <= c->k; k++) printf(" %llu", (unsigned long long)sr->count[k]);
        printf("\n");
    }
    printf("---- mismatches:\n%s", x->log);
    fflush(stdout);
}

static void add_stats(oracle_stats *s, const oracle_case *c, size_t m, const spec_result *sr,
                      bool ok)
{
    s->instances++;
    s->failures += !ok;
    s->weighted += c->weighted;
    if (c->n < s->min_n) s->min_n = c->n;
    if (c->n > s->max_n) s->max_n = c->n;
    if (m < s->min_m) s->min_m = m;
    if (m > s->max_m) s->max_m = m;
    s->by_k[c->k < 4 ? c->k : 4]++;
    s->by_depth[c->max_depth == PDT_UNLIMITED ? 0 : c->max_depth < 3 ? c->max_depth : 3]++;
    s->by_min_leaf[c->min_leaf < 2 ? c->min_leaf : 2]++;
    s->by_dims[c->dims < 3 ? c->dims : 3]++;
    s->permutations += sr ? sr->permutations : 0;
}

bool oracle_check(const oracle_case *c, oracle_stats *stats)
{
    oracle_check_ctx x = {.c = c};
    char csv[CSV_CAP];
    oracle_csv(csv, sizeof csv, c);
    pdt_error err;
    pdt_error_clear(&err);
    pdt_dataset *ds = load(csv, &err);
    pdt_ruleset *rs = NULL;
    pdt_rule_params params = {0};
    if (!ds)
        oracle_fail(&x, "the CSV text does not load: %s", err.message);
    else if (pdt_ruleset_build(&rs, ds, c->rules, &params, &err))
        oracle_fail(&x, "pdt_ruleset_build: %s", err.message);
    spec_result sr;
    size_t m = rs ? pdt_ruleset_size(rs) : 0;
    bool solved = false;
    if (rs) {
        oracle_check_sides(&x, rs);
        spec_problem sp;
        spec_from_ruleset(&sp, c, rs);
        spec_limits lim = {c->k, c->max_depth == PDT_UNLIMITED ? SPEC_NO_LIMIT : c->max_depth,
                           c->min_leaf};
        spec_solve(&sr, &sp, &lim);
        spec_problem_free(&sp);
        solved = true;
        for (size_t v = 0; v < sizeof variants / sizeof *variants; v++)
            check_engine(&x, ds, &variants[v], &sr);
        check_counts(&x, ds, &sr, m);
    }
    if (x.failed) print_failure(&x, solved ? &sr : NULL);
    if (stats) add_stats(stats, c, m, solved ? &sr : NULL, !x.failed);
    pdt_ruleset_free(&rs);
    pdt_dataset_free(&ds);
    return !x.failed;
}

void oracle_stats_init(oracle_stats *s)
{
    memset(s, 0, sizeof *s);
    s->min_n = s->min_m = SIZE_MAX;
}

void oracle_stats_print(const oracle_stats *s, const char *family)
{
    printf("oracle %s: %zu instances (%zu failed), N %zu..%zu, M %zu..%zu rules, %zu weighted\n",
           family, s->instances, s->failures, s->min_n, s->max_n, s->min_m, s->max_m, s->weighted);
    printf(
        "  K = 0/1/2/3/4: %zu/%zu/%zu/%zu/%zu; depth none/1/2/3: %zu/%zu/%zu/%zu; min_leaf 0/1/2: "
        "%zu/%zu/%zu; dims 1/2/3: %zu/%zu/%zu; %llu permutations enumerated by the specification\n",
        s->by_k[0], s->by_k[1], s->by_k[2], s->by_k[3], s->by_k[4], s->by_depth[0], s->by_depth[1],
        s->by_depth[2], s->by_depth[3], s->by_min_leaf[0], s->by_min_leaf[1], s->by_min_leaf[2],
        s->by_dims[1], s->by_dims[2], s->by_dims[3], (unsigned long long)s->permutations);
    fflush(stdout);
}

static uint64_t env_u64(const char *name, uint64_t fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 0) : fallback;
}

size_t oracle_run(const char *family, void (*make)(oracle_case *c, uint64_t seed), uint64_t base,
                  uint64_t count)
{
    base = env_u64("PDT_ORACLE_SEED", base);
    count = env_u64("PDT_ORACLE_COUNT", tu_scaled(count));
    bool verbose = getenv("PDT_ORACLE_VERBOSE") != NULL;
    oracle_stats stats;
    oracle_stats_init(&stats);
    for (uint64_t i = 0; i < count; i++) {
        oracle_case c;
        make(&c, base + i);
        if (verbose) oracle_print_case(&c);
        oracle_check(&c, &stats);
    }
    oracle_stats_print(&stats, family);
    return stats.failures;
}
