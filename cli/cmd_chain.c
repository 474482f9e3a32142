/* pdt chain: the optimal multiplication order of a matrix chain. */
#include <stdlib.h>
#include <string.h>

#include "../problems/matrix_chain.h"
#include "command.h"
#include "drawing.h"
#include "options.h"
#include "result.h"

static cli_option chain_options[] = {
    {"dims", 0, "\"p0 p1 … pn\"", "the dimensions: A_i is p(i-1) × p(i)", NULL},
    {"dims-file", 0, "FILE", "read the dimensions from a file (blank/comma separated, # comments)", NULL},
    CLI_RESULT_OPTIONS,
    {"no-memo", 0, NULL, "do not cache subproblems (exponential; for checking)", NULL},
    {"time-limit", 0, "S", "stop after S seconds with the best order so far (not proven optimal)", NULL},
    {"quiet", 'q', NULL, "print only the order and the summary line", NULL},
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void chain_help(FILE *out)
{
    fprintf(out, "usage: pdt chain --dims \"p0 p1 … pn\" [-o RESULT.json] [--svg TREE.svg]\n\n"
                 "Finds the parenthesisation of A1·A2·…·An (A_i of size p(i-1) × p(i)) with the\n"
                 "fewest scalar multiplications, exactly (GMP integers), with the generic\n"
                 "recursion: every (prefix, suffix) split, subproblems cached by interval.\n\noptions:\n");
    cli_print_options(out, chain_options);
}

static const cli_output_spec chain_outputs[] = {CLI_RESULT_SPECS, {NULL, NULL}};
static const char *const chain_inputs[] = {"dims-file", NULL};
static cli_outputs chain_set;

static bool dims_given(void)
{
    const char *text = cli_get(chain_options, "dims"), *file = cli_get(chain_options, "dims-file");
    if (!text != !file) return true;
    fprintf(stderr, "pdt chain: give exactly one of --dims \"p0 p1 … pn\" and --dims-file FILE\n");
    return false;
}

static bool read_dims(mpz_t **dims, size_t *n)
{
    const char *text = cli_get(chain_options, "dims"), *file = cli_get(chain_options, "dims-file");
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = text ? pdt_chain_parse_dims(dims, n, text, strlen(text), "option --dims", false, &err)
                         : pdt_chain_load_dims(dims, n, file, &err);
    if (st) fprintf(stderr, "pdt chain: %s\n", err.message);
    return !st;
}

static json_t *chain_document(const pdt_chain *c)
{
    mpz_t cost;
    mpz_init(cost);
    pdt_chain_cost(cost, c);
    json_t *doc = cli_result_new("matrix-chain", cli_json_mpz(cost), pdt_chain_optimal(c));
    mpz_clear(cost);
    json_t *dims = json_array();
    for (size_t i = 0; dims && i <= pdt_chain_matrices(c); i++)
        if (json_array_append_new(dims, cli_json_mpz(pdt_chain_dim(c, i)))) break;
    const pdt_search_stats *s = pdt_chain_stats(c);
    bool ok = doc && cli_result_set(doc, "order", json_string(pdt_chain_order(c))) &&
              cli_result_set(doc, "matrices", json_integer((json_int_t)pdt_chain_matrices(c))) &&
              cli_result_set(doc, "dims", dims) && cli_result_set(doc, "seconds", json_real(s->seconds)) &&
              cli_result_set(doc, "stats", json_pack("{s:I, s:I, s:I, s:I}", "nodes", (json_int_t)s->nodes,
                                                     "candidates", (json_int_t)s->candidates, "memo_hits",
                                                     (json_int_t)s->memo_hits, "memo_entries",
                                                     (json_int_t)s->memo_entries));
    if (!ok) json_decref(doc);
    return ok ? doc : NULL;
}

static pdt_status render_chain(const void *obj, const char *path, const char *format, pdt_error *err)
{
    return pdt_chain_render(obj, path, format, err);
}

static int report(const pdt_chain *c)
{
    pdt_error err;
    pdt_error_clear(&err);
    printf("%s\n", pdt_chain_order(c));
    if (!cli_flag(chain_options, "quiet") && pdt_chain_write_text(c, stdout, &err))
        fprintf(stderr, "pdt chain: %s\n", err.message);
    mpz_t cost;
    mpz_init(cost);
    pdt_chain_cost(cost, c);
    gmp_printf("objective %Zd scalar multiplications (%s), %zu matrices, %.3f s\n", cost,
               pdt_chain_optimal(c) ? "optimal" : "NOT proven optimal: a limit was reached",
               pdt_chain_matrices(c), pdt_chain_stats(c)->seconds);
    mpz_clear(cost);
    json_t *doc = cli_outputs_wants(&chain_set, "output") ? chain_document(c) : NULL;
    bool ok = cli_result_write(&chain_set, doc, render_chain, c);
    json_decref(doc);
    return ok && cli_outputs_commit(&chain_set) ? 0 : 1;
}

static int chain_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        chain_help(stdout);
        return 0;
    }
    pdt_search_opts so;
    pdt_search_opts_init(&so);
    if (!cli_parse(chain_options, argc, argv, "chain") ||
        !cli_double(&so.time_limit, chain_options, "time-limit", "chain", 0) || !dims_given())
        return 2;
    if (!cli_drawing_ready(chain_options, "chain")) return 1;
    so.no_memo = cli_flag(chain_options, "no-memo");
    if (!cli_outputs_plan(&chain_set, chain_options, chain_outputs, chain_inputs, "chain")) return 1;
    mpz_t *dims = NULL;
    size_t n = 0;
    if (!read_dims(&dims, &n)) {
        cli_outputs_abort(&chain_set);
        return 1;
    }
    pdt_chain *c = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    int rc = 0;
    if (pdt_chain_new(&c, (const mpz_t *)dims, n, &err) || pdt_chain_solve(c, &so, &err)) {
        fprintf(stderr, "pdt chain: %s\n", err.message);
        rc = cli_exit_status(err.status);
    } else {
        rc = report(c);
    }
    cli_outputs_abort(&chain_set);
    pdt_chain_free(&c);
    pdt_chain_dims_free(dims, n);
    return rc;
}

PDT_DEFINE_COMMAND(chain) = {"chain", "the optimal multiplication order of a matrix chain", chain_run,
                             chain_help};
