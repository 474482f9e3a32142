/* pdt count: how many proper trees of size K a rule family admits on a data
 * set, next to K! and the number of K-combinations. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "count_list.h"
#include "data.h"
#include "options.h"
#include "outputs.h"
#include "pdt.h"

static cli_option count_options[] = {
    CLI_DATA_OPTIONS,
    {"rules", 'r', "FAMILY", "rule family or comma list (default axis)", NULL},
    {"size", 'k', "K", "count trees with exactly K branch nodes", NULL},
    {"min-leaf", 0, "M", "count only trees whose split leaves hold at least M items", NULL},
    {"degree", 0, "G", "polynomial degree of hypersurface rules", NULL},
    {"output", 'o', "FILE", "write the result document (JSON; - for standard output)", NULL},
    {"list", 0, NULL, "teaching: every K-permutation of the rules, each marked as a proper tree (valid "
                      "level order) or invalid, and why", NULL},
    {"list-rules", 0, NULL, "print the candidate rules with their #numbers and defining rows", NULL},
    {"pick", 0, "IDS", "with --list: only these candidates (comma-separated #numbers)", NULL},
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void count_help(FILE *out)
{
    fprintf(out, "usage: pdt count --data FILE [--rules FAMILY] --size K [-o RESULT.json]\n\n"
                 "Counts the proper decision trees with exactly K branch nodes built from the\n"
                 "family's candidate rules (= valid K-permutations of K-combinations), and\n"
                 "compares with all C(M,K)·K! K-permutations.\n\noptions:\n");
    cli_print_options(out, count_options);
}

/* An exact integer as JSON: a number below 2^53, else a decimal string. */
static json_t *json_mpz(mpz_srcptr z)
{
    if (mpz_sizeinbase(z, 2) <= 53) return json_integer((json_int_t)mpz_get_si(z));
    char *s = mpz_get_str(NULL, 10, z);
    json_t *j = json_string(s);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    gmp_free(s, strlen(s) + 1);
    return j;
}

static const cli_output_spec count_outputs[] = {{"output", "json"}, {NULL, NULL}};
static const char *const count_inputs[] = {"data", NULL};

static bool write_result(cli_outputs *set, const pdt_count_report *r, const char *rules, const char *data)
{
    json_t *doc = json_pack("{s:s, s:i, s:s, s:s, s:s, s:o, s:b, s:I, s:i, s:o, s:o, s:o, s:o}",
                            "format", "pdt-result", "version", 1, "pdt", PDT_VERSION_STRING,
                            "problem", "count", "rules", rules, "objective", json_mpz(r->proper),
                            "optimal", 1, "rules_count", (json_int_t)r->n_rules, "size", (int)r->size,
                            "proper_trees", json_mpz(r->proper), "combinations", json_mpz(r->combinations),
                            "factorial", json_mpz(r->factorial), "permutations", json_mpz(r->permutations));
    const char *path = NULL;
    bool ok = doc && json_object_set_new(doc, "data", json_string(data)) == 0 &&
              cli_outputs_stage(&path, set, "output");
    FILE *f = ok ? cli_outputs_open(path) : NULL;
    bool written = f && json_dumpf(doc, f, JSON_INDENT(2)) == 0;
    if (f && fclose(f) != 0) written = false;
    if (ok && !written) {
        cli_outputs_fail(set, "output", "cannot write the result document");
        ok = false;
    } else if (!doc) {
        cli_outputs_fail(set, "output", "out of memory building the result document");
    }
    json_decref(doc);
    return ok && cli_outputs_commit(set);
}

static void print_report(const pdt_count_report *r)
{
    gmp_printf("candidate rules M       %zu\n"
               "size K                  %u\n"
               "proper trees            %Zd\n"
               "K-combinations C(M,K)   %Zd\n"
               "K!                      %Zd\n"
               "K-permutations          %Zd\n",
               r->n_rules, r->size, r->proper, r->combinations, r->factorial, r->permutations);
    if (mpz_sgn(r->permutations)) {
        mpq_t q;
        mpq_init(q);
        mpq_set_num(q, r->proper);
        mpq_set_den(q, r->permutations);
        mpq_canonicalize(q);
        printf("proper / permutations   %.6g\n", mpq_get_d(q));
        mpq_clear(q);
    }
}

static int count_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        count_help(stdout);
        return 0;
    }
    uint32_t size = 0, min_leaf = 0, degree = 0;
    if (!cli_parse(count_options, argc, argv, "count") ||
        !cli_uint(&size, count_options, "size", "count", PDT_UNLIMITED) ||
        !cli_uint(&min_leaf, count_options, "min-leaf", "count", 0) ||
        !cli_uint(&degree, count_options, "degree", "count", 0) ||
        !cli_csv_shape(&(pdt_csv_options){0}, count_options, "count"))
        return 2;
    bool list = cli_flag(count_options, "list"), list_rules = cli_flag(count_options, "list-rules");
    uint32_t *pick = NULL;
    size_t n_pick = 0;
    if (cli_get(count_options, "pick") && (!list || !cli_parse_pick(&pick, &n_pick, cli_get(count_options, "pick")))) {
        if (!list) fprintf(stderr, "pdt count: option --pick needs --list\n");
        return 2;
    }
    if (size == PDT_UNLIMITED && !(list_rules && !list)) {
        fprintf(stderr, "pdt count: option --size is required\n");
        free(pick);
        return 2;
    }
    if ((list || list_rules) && (min_leaf || cli_get(count_options, "output"))) {
        fprintf(stderr, "pdt count: --list and --list-rules do not take --min-leaf or --output\n");
        free(pick);
        return 2;
    }
    const char *rules = cli_get(count_options, "rules") ? cli_get(count_options, "rules") : "axis";
    cli_outputs set;
    if (!cli_outputs_plan(&set, count_options, count_outputs, count_inputs, "count")) {
        free(pick);
        return 1;
    }
    pdt_dataset *ds = NULL;
    if (!cli_load_data(&ds, count_options, "count", false)) {
        free(pick);
        cli_outputs_abort(&set);
        return 1;
    }
    if (list || list_rules) {
        pdt_rule_params lp = {.degree = degree};
        int lrc = cli_count_list(ds, rules, &lp, pick, n_pick, size == PDT_UNLIMITED ? 0 : size, list_rules, list);
        free(pick);
        pdt_dataset_free(&ds);
        return lrc;
    }
    pdt_count_report r;
    pdt_count_report_init(&r);
    pdt_rule_params params = {.degree = degree};
    pdt_error err;
    pdt_error_clear(&err);
    int rc = 0;
    if (pdt_count(&r, ds, rules, &params, size, min_leaf, &err)) {
        fprintf(stderr, "pdt count: %s\n", err.message);
        rc = 1;
    } else {
        print_report(&r);
        if (cli_outputs_wants(&set, "output") && !write_result(&set, &r, rules, pdt_dataset_name(ds)))
            rc = 1;
    }
    cli_outputs_abort(&set);
    pdt_count_report_clear(&r);
    pdt_dataset_free(&ds);
    return rc;
}

PDT_DEFINE_COMMAND(count) = {"count", "count the proper trees a rule family admits", count_run, count_help};
