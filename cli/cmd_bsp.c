/* pdt bsp: the smallest auto-partition of a set of 2-D segments. */
#include <stdlib.h>
#include <string.h>

#include "../problems/bsp.h"
#include "command.h"
#include "drawing.h"
#include "options.h"
#include "result.h"

static cli_option bsp_options[] = {
    {"segments", 's', "FILE", "segments, one \"x1 y1 x2 y2\" per line (exact numbers, # comments)", NULL},
    {"objective", 0, "NAME", "nodes (default: branch + leaf nodes) or fragments", NULL},
    {"depth-tiebreak", 0, NULL, "among the smallest partitions, one of least depth", NULL},
    {"random", 0, "R", "also build R random auto-partitions (random permutations): min and mean", NULL},
    {"seed", 0, "S", "seed of the random permutations (default 1)", NULL},
    CLI_RESULT_OPTIONS,
    {"picture", 0, "FILE", "draw the segments, cuts and fragments (PNG or SVG by the name)", NULL},
    {"no-memo", 0, NULL, "do not cache subproblems", NULL},
    {"time-limit", 0, "S", "stop after S seconds with the best partition so far (not proven optimal)", NULL},
    {"quiet", 'q', NULL, "print only the summary lines", NULL},
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void bsp_help(FILE *out)
{
    fprintf(out, "usage: pdt bsp --segments FILE [--random R] [-o RESULT.json] [--picture F.png]\n\n"
                 "Finds the auto-partition (every cut is the line of a segment fragment; fragments\n"
                 "crossing it are cut, fragments on it are stored at its node) with the fewest\n"
                 "nodes, exactly: segments and cuts are exact rationals.\n\noptions:\n");
    cli_print_options(out, bsp_options);
}

static const cli_output_spec bsp_outputs[] = {CLI_RESULT_SPECS, {"picture", "picture"}, {NULL, NULL}};
static const char *const bsp_inputs[] = {"segments", NULL};
static cli_outputs bsp_set;

typedef struct bsp_run {
    pdt_bsp *b;
    pdt_bsp_objective objective;
    bool tiebreak;
    bool has_random;
    pdt_bsp_random rnd;
} bsp_run;

static json_t *point_json(mpq_srcptr x, mpq_srcptr y)
{
    pdt_buf a, b;
    pdt_buf_init(&a);
    pdt_buf_init(&b);
    pdt_buf_mpq(&a, x);
    pdt_buf_mpq(&b, y);
    json_t *j = json_pack("[s, s]", a.data ? a.data : "", b.data ? b.data : "");
    pdt_buf_clear(&a);
    pdt_buf_clear(&b);
    return j;
}

static json_t *fragments_json(const pdt_bsp *b, const pdt_bsp_node *x)
{
    size_t nf = 0;
    const pdt_bsp_fragment *f = pdt_bsp_fragments(b, &nf);
    json_t *arr = json_array();
    mpq_t x1, y1, x2, y2;
    mpq_inits(x1, y1, x2, y2, NULL);
    for (uint32_t k = 0; arr && k < x->n_fragments; k++) {
        const pdt_bsp_fragment *g = &f[x->first_fragment + k];
        pdt_bsp_fragment_ends(x1, y1, x2, y2, b, g);
        json_array_append_new(arr, json_pack("{s:I, s:o, s:o}", "segment", (json_int_t)g->segment + 1, "from",
                                             point_json(x1, y1), "to", point_json(x2, y2)));
    }
    mpq_clears(x1, y1, x2, y2, NULL);
    return arr;
}

static json_t *node_json(const pdt_bsp *b, const pdt_bsp_node *nodes, int32_t i)
{
    const pdt_bsp_node *x = &nodes[i];
    if (x->segment < 0) return json_null();
    return json_pack("{s:I, s:I, s:o, s:o, s:o}", "segment", (json_int_t)x->segment + 1, "line",
                     (json_int_t)pdt_bsp_segment_line(b, (size_t)x->segment), "fragments", fragments_json(b, x),
                     "left", node_json(b, nodes, x->left), "right", node_json(b, nodes, x->right));
}

static json_t *random_json(const pdt_bsp_random *r)
{
    return json_pack("{s:I, s:I, s:I, s:f, s:I, s:f}", "tries", (json_int_t)r->tries, "seed", (json_int_t)r->seed,
                     "min_fragments", (json_int_t)r->min_fragments, "mean_fragments",
                     (double)r->sum_fragments / (double)r->tries, "min_nodes", (json_int_t)r->min_nodes,
                     "mean_nodes", (double)r->sum_nodes / (double)r->tries);
}

static json_t *bsp_document(const bsp_run *run)
{
    pdt_bsp_summary s;
    pdt_bsp_summarise(&s, run->b);
    uint64_t obj = run->objective == PDT_BSP_NODES ? s.nodes : s.fragments;
    json_t *doc = cli_result_new("bsp", json_integer((json_int_t)obj), s.optimal);
    size_t n = 0;
    const pdt_bsp_node *nodes = pdt_bsp_tree(run->b, &n);
    const pdt_search_stats *st = pdt_bsp_stats(run->b);
    bool ok = doc && cli_result_set(doc, "criterion", json_string(run->objective == PDT_BSP_NODES ? "nodes" : "fragments")) &&
              cli_result_set(doc, "depth_tiebreak", json_boolean(run->tiebreak)) &&
              cli_result_set(doc, "fragments", json_integer((json_int_t)s.fragments)) &&
              cli_result_set(doc, "nodes", json_integer((json_int_t)s.nodes)) &&
              cli_result_set(doc, "branch_nodes", json_integer((json_int_t)s.branch_nodes)) &&
              cli_result_set(doc, "depth", json_integer(s.depth)) &&
              cli_result_set(doc, "segments", json_integer((json_int_t)pdt_bsp_segments(run->b))) &&
              cli_result_set(doc, "pieces", json_integer((json_int_t)pdt_bsp_pieces(run->b))) &&
              cli_result_set(doc, "tree", node_json(run->b, nodes, 0)) &&
              (!run->has_random || cli_result_set(doc, "random", random_json(&run->rnd))) &&
              cli_result_set(doc, "seconds", json_real(st->seconds)) &&
              cli_result_set(doc, "stats", json_pack("{s:I, s:I, s:I, s:I}", "nodes", (json_int_t)st->nodes,
                                                     "candidates", (json_int_t)st->candidates, "memo_hits",
                                                     (json_int_t)st->memo_hits, "memo_entries",
                                                     (json_int_t)st->memo_entries));
    if (!ok) json_decref(doc);
    return ok ? doc : NULL;
}

static pdt_status render_bsp(const void *obj, const char *path, const char *format, pdt_error *err)
{
    return pdt_bsp_render(obj, path, format, err);
}

/* The exact optimum can never be worse than a random auto-partition. */
static bool print_random(const bsp_run *run, const pdt_bsp_summary *s)
{
    const pdt_bsp_random *r = &run->rnd;
    printf("random auto-partitions (%llu, seed %llu): fragments min %llu mean %.3f, nodes min %llu mean %.3f\n",
           (unsigned long long)r->tries, (unsigned long long)r->seed, (unsigned long long)r->min_fragments,
           (double)r->sum_fragments / (double)r->tries, (unsigned long long)r->min_nodes,
           (double)r->sum_nodes / (double)r->tries);
    uint64_t mine = run->objective == PDT_BSP_NODES ? s->nodes : s->fragments;
    uint64_t theirs = run->objective == PDT_BSP_NODES ? r->min_nodes : r->min_fragments;
    if (!s->optimal || mine <= theirs) return true;
    fprintf(stderr, "pdt bsp: internal error: the optimum (%llu) is worse than a random partition (%llu)\n",
            (unsigned long long)mine, (unsigned long long)theirs);
    return false;
}

static int report(const bsp_run *run)
{
    pdt_error err;
    pdt_error_clear(&err);
    if (!cli_flag(bsp_options, "quiet") && pdt_bsp_write_text(run->b, stdout, &err))
        fprintf(stderr, "pdt bsp: %s\n", err.message);
    pdt_bsp_summary s;
    pdt_bsp_summarise(&s, run->b);
    printf("%zu segments (%zu pieces): %llu fragments, %llu nodes (%llu branch), depth %u (%s), %.3f s\n",
           pdt_bsp_segments(run->b), pdt_bsp_pieces(run->b), (unsigned long long)s.fragments,
           (unsigned long long)s.nodes, (unsigned long long)s.branch_nodes, s.depth,
           s.optimal ? "optimal" : "NOT proven optimal: a limit was reached", pdt_bsp_stats(run->b)->seconds);
    if (run->has_random && !print_random(run, &s)) return 3;
    json_t *doc = cli_outputs_wants(&bsp_set, "output") ? bsp_document(run) : NULL;
    bool ok = cli_result_write(&bsp_set, doc, render_bsp, run->b);
    json_decref(doc);
    const char *pic = NULL;
    ok = ok && cli_outputs_stage(&pic, &bsp_set, "picture");
    if (ok && pic && pdt_bsp_picture(run->b, pic, &err)) {
        cli_outputs_fail(&bsp_set, "picture", err.message);
        ok = false;
    }
    return ok && cli_outputs_commit(&bsp_set) ? 0 : 1;
}

static bool read_options(bsp_run *run, pdt_search_opts *so, uint32_t *tries, uint32_t *seed)
{
    pdt_search_opts_init(so);
    if (!cli_uint(tries, bsp_options, "random", "bsp", 0) || !cli_uint(seed, bsp_options, "seed", "bsp", 1) ||
        !cli_double(&so->time_limit, bsp_options, "time-limit", "bsp", 0))
        return false;
    so->no_memo = cli_flag(bsp_options, "no-memo");
    run->tiebreak = cli_flag(bsp_options, "depth-tiebreak");
    const char *obj = cli_get(bsp_options, "objective");
    run->objective = obj && strcmp(obj, "fragments") == 0 ? PDT_BSP_FRAGMENTS : PDT_BSP_NODES;
    if (obj && strcmp(obj, "fragments") != 0 && strcmp(obj, "nodes") != 0) {
        fprintf(stderr, "pdt bsp: option --objective: '%s' is not nodes or fragments\n", obj);
        return false;
    }
    if (!cli_get(bsp_options, "segments")) {
        fprintf(stderr, "pdt bsp: option --segments is required (try 'pdt bsp --help')\n");
        return false;
    }
    return true;
}

static int bsp_run_cmd(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        bsp_help(stdout);
        return 0;
    }
    bsp_run run = {0};
    pdt_search_opts so;
    uint32_t tries = 0, seed = 1;
    if (!cli_parse(bsp_options, argc, argv, "bsp") || !read_options(&run, &so, &tries, &seed)) return 2;
    if (!cli_outputs_plan(&bsp_set, bsp_options, bsp_outputs, bsp_inputs, "bsp")) return 1;
    if (!cli_drawing_ready(bsp_options, "bsp")) return 1;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_bsp_load(&run.b, cli_get(bsp_options, "segments"), &err);
    if (!st) st = pdt_bsp_solve(run.b, run.objective, run.tiebreak, &so, &err);
    if (!st && tries) {
        run.has_random = true;
        st = pdt_bsp_random_run(&run.rnd, run.b, tries, seed, &err);
    }
    int rc = 0;
    if (st) {
        fprintf(stderr, "pdt bsp: %s\n", err.message);
        rc = cli_exit_status(st);
    } else {
        rc = report(&run);
    }
    cli_outputs_abort(&bsp_set);
    pdt_bsp_free(&run.b);
    return rc;
}

PDT_DEFINE_COMMAND(bsp) = {"bsp", "the smallest auto-partition (BSP) of 2-D segments", bsp_run_cmd,
                           bsp_help};
