/* The BSP plugin against specifications written here with their own exact
 * geometry (explicit fragments with GMP rational endpoints, no pieces, no
 * bitsets, no cache): the minimum over every auto-partition tree, and the
 * minimum over every permutation with the random-permutation semantics
 * (in each region the first segment of the permutation present is the root).
 * The returned tree is replayed with the same geometry. */
#include <stdlib.h>
#include <string.h>

#include "../problems/bsp.h"
#include "../problems/lexpair.h"
#include "test_util.h"

/* ------------------------------------------------------------ geometry */

typedef struct frag {
    mpq_t x[2], y[2]; /* ends, in the direction of the original segment */
    int seg;
} frag;

typedef struct flist {
    frag *f;
    size_t n, cap;
} flist;

static frag *flist_push(flist *l, int seg)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->f = realloc(l->f, l->cap * sizeof *l->f);
    }
    frag *g = &l->f[l->n++];
    mpq_inits(g->x[0], g->y[0], g->x[1], g->y[1], NULL);
    g->seg = seg;
    return g;
}

static void flist_free(flist *l)
{
    for (size_t i = 0; i < l->n; i++) mpq_clears(l->f[i].x[0], l->f[i].y[0], l->f[i].x[1], l->f[i].y[1], NULL);
    free(l->f);
    memset(l, 0, sizeof *l);
}

/* Scratch rationals, initialised once: under ASan every mpq_init is an
 * allocation with a recorded stack, and orient and split ran millions of
 * times (the test is single-threaded; neither is re-entered while in use). */
static mpq_t scratch[8];

static void scratch_init(void)
{
    static bool done;
    if (!done) {
        for (size_t k = 0; k < sizeof scratch / sizeof *scratch; k++) mpq_init(scratch[k]);
        done = true;
    }
}

/* (b − a) × (c − a); out is not a scratch rational. */
static void orient(mpq_ptr out, mpq_srcptr ax, mpq_srcptr ay, mpq_srcptr bx, mpq_srcptr by, mpq_srcptr cx,
                   mpq_srcptr cy)
{
    scratch_init();
    mpq_ptr u = scratch[0], v = scratch[1];
    mpq_sub(u, bx, ax);
    mpq_sub(v, cy, ay);
    mpq_mul(out, u, v);
    mpq_sub(u, by, ay);
    mpq_sub(v, cx, ax);
    mpq_mul(u, u, v);
    mpq_sub(out, out, u);
}

static void copy_frag(flist *to, const frag *g, int from_end, mpq_srcptr mx, mpq_srcptr my, int to_end)
{
    frag *h = flist_push(to, g->seg);
    /* the piece from end `from_end` to (mx, my) or to end `to_end` */
    mpq_set(h->x[0], from_end == 0 ? g->x[0] : mx);
    mpq_set(h->y[0], from_end == 0 ? g->y[0] : my);
    mpq_set(h->x[1], to_end == 1 ? g->x[1] : mx);
    mpq_set(h->y[1], to_end == 1 ? g->y[1] : my);
}

/* Splits `in` by the line of fragment r: left (orient > 0), right, and the
 * number of distinct segments lying on the line. */
static int split(const flist *in, size_t r, flist *left, flist *right)
{
    const frag *R = &in->f[r];
    scratch_init();
    mpq_ptr o1 = scratch[2], o2 = scratch[3], lam = scratch[4], mx = scratch[5], my = scratch[6], t = scratch[7];
    int on_segs = 0;
    int seen[64] = {0};
    for (size_t i = 0; i < in->n; i++) {
        const frag *g = &in->f[i];
        orient(o1, R->x[0], R->y[0], R->x[1], R->y[1], g->x[0], g->y[0]);
        orient(o2, R->x[0], R->y[0], R->x[1], R->y[1], g->x[1], g->y[1]);
        int s1 = mpq_sgn(o1), s2 = mpq_sgn(o2);
        if (s1 == 0 && s2 == 0) {
            if (!seen[g->seg]) seen[g->seg] = 1, on_segs++;
        } else if (s1 >= 0 && s2 >= 0) {
            copy_frag(left, g, 0, NULL, NULL, 1);
        } else if (s1 <= 0 && s2 <= 0) {
            copy_frag(right, g, 0, NULL, NULL, 1);
        } else {
            mpq_sub(t, o1, o2);
            mpq_div(lam, o1, t);
            mpq_sub(mx, g->x[1], g->x[0]);
            mpq_mul(mx, mx, lam);
            mpq_add(mx, mx, g->x[0]);
            mpq_sub(my, g->y[1], g->y[0]);
            mpq_mul(my, my, lam);
            mpq_add(my, my, g->y[0]);
            copy_frag(s1 > 0 ? left : right, g, 0, mx, my, 0);
            copy_frag(s2 > 0 ? left : right, g, 1, mx, my, 1);
        }
    }
    return on_segs;
}

/* ------------------------------------------------------------ specifications */

typedef struct cost {
    long nodes, frags, depth;
} cost;

/* Lexicographic: primary (nodes or fragments), then depth when asked. */
static int cost_cmp(cost a, cost b, pdt_bsp_objective obj, bool tiebreak)
{
    long pa = obj == PDT_BSP_NODES ? a.nodes : a.frags, pb = obj == PDT_BSP_NODES ? b.nodes : b.frags;
    if (pa != pb) return pa < pb ? -1 : 1;
    if (tiebreak && a.depth != b.depth) return a.depth < b.depth ? -1 : 1;
    return 0;
}

/* The best auto-partition of the fragments: every fragment tried as the root. */
static cost all_trees(const flist *in, pdt_bsp_objective obj, bool tiebreak)
{
    cost best = {1, 0, 0};
    for (size_t r = 0; r < in->n; r++) {
        flist l = {0}, rr = {0};
        int on = split(in, r, &l, &rr);
        cost a = all_trees(&l, obj, tiebreak), b = all_trees(&rr, obj, tiebreak);
        cost c = {1 + a.nodes + b.nodes, on + a.frags + b.frags, 1 + (a.depth > b.depth ? a.depth : b.depth)};
        if (r == 0 || cost_cmp(c, best, obj, tiebreak) < 0) best = c;
        flist_free(&l);
        flist_free(&rr);
    }
    return best;
}

/* The auto-partition of a permutation: rank[s] orders the segments. */
static cost by_permutation(const flist *in, const int *rank)
{
    if (in->n == 0) return (cost){1, 0, 0};
    size_t r = 0;
    for (size_t i = 1; i < in->n; i++)
        if (rank[in->f[i].seg] < rank[in->f[r].seg]) r = i;
    flist l = {0}, rr = {0};
    int on = split(in, r, &l, &rr);
    cost a = by_permutation(&l, rank), b = by_permutation(&rr, rank);
    flist_free(&l);
    flist_free(&rr);
    return (cost){1 + a.nodes + b.nodes, on + a.frags + b.frags, 1 + (a.depth > b.depth ? a.depth : b.depth)};
}

/* ------------------------------------------------------------ instances */

typedef struct instance {
    int n;
    long c[8][4];
    char text[1024];
} instance;

static void to_flist(flist *l, const instance *in)
{
    for (int i = 0; i < in->n; i++) {
        frag *g = flist_push(l, i);
        mpq_set_si(g->x[0], in->c[i][0], 1);
        mpq_set_si(g->y[0], in->c[i][1], 1);
        mpq_set_si(g->x[1], in->c[i][2], 1);
        mpq_set_si(g->y[1], in->c[i][3], 1);
    }
}

static long iorient(long ax, long ay, long bx, long by, long cx, long cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/* Segments cross (interiors meet in a point) or overlap (collinear, more than a point). */
static bool conflict(const long *s, const long *t)
{
    long o1 = iorient(s[0], s[1], s[2], s[3], t[0], t[1]), o2 = iorient(s[0], s[1], s[2], s[3], t[2], t[3]);
    if (o1 == 0 && o2 == 0) {
        int k = s[0] != s[2] ? 0 : 1;
        long a0 = s[k] < s[k + 2] ? s[k] : s[k + 2], a1 = s[k] < s[k + 2] ? s[k + 2] : s[k];
        long b0 = t[k] < t[k + 2] ? t[k] : t[k + 2], b1 = t[k] < t[k + 2] ? t[k + 2] : t[k];
        return (a0 > b0 ? a0 : b0) < (a1 < b1 ? a1 : b1);
    }
    long o3 = iorient(t[0], t[1], t[2], t[3], s[0], s[1]), o4 = iorient(t[0], t[1], t[2], t[3], s[2], s[3]);
    return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

/* n segments on a small grid (collinear, touching and T-shaped pairs are common). */
static void instance_random(instance *in, tu_rng *rng, int n, int grid)
{
    in->n = 0;
    int attempts = 0;
    while (in->n < n && attempts++ < 10000) {
        long *s = in->c[in->n];
        for (int k = 0; k < 4; k++) s[k] = tu_below(rng, (uint32_t)grid);
        if (s[0] == s[2] && s[1] == s[3]) continue;
        bool ok = true;
        for (int j = 0; j < in->n && ok; j++) ok = !conflict(in->c[j], s);
        if (ok) in->n++;
    }
    size_t len = 0;
    for (int i = 0; i < in->n; i++)
        len += (size_t)snprintf(in->text + len, sizeof in->text - len, "%ld %ld %ld %ld\n", in->c[i][0],
                                in->c[i][1], in->c[i][2], in->c[i][3]);
}

static pdt_bsp *read_instance(const char *text)
{
    pdt_bsp *b = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_bsp_read(&b, text, strlen(text), "test.txt", &err)) fprintf(stderr, "%s\n%s", err.message, text);
    assert_non_null(b);
    return b;
}

/* ------------------------------------------------------------ replay */

/* Walks the plugin's tree with the explicit geometry: the root segment must
 * have a fragment in the region, the stored fragments must be the segments
 * on its line, and every leaf must be empty. */
static cost replay(const pdt_bsp *b, const pdt_bsp_node *nodes, int32_t i, const flist *in)
{
    const pdt_bsp_node *x = &nodes[i];
    if (x->segment < 0) {
        assert_int_equal(in->n, 0);
        return (cost){1, 0, 0};
    }
    size_t r = in->n;
    for (size_t k = 0; k < in->n && r == in->n; k++)
        if (in->f[k].seg == x->segment) r = k;
    assert_true(r < in->n);
    flist l = {0}, rr = {0};
    int on = split(in, r, &l, &rr);
    assert_int_equal(on, (int)x->n_fragments);
    cost a = replay(b, nodes, x->left, &l), c = replay(b, nodes, x->right, &rr);
    flist_free(&l);
    flist_free(&rr);
    return (cost){1 + a.nodes + c.nodes, on + a.frags + c.frags, 1 + (a.depth > c.depth ? a.depth : c.depth)};
}

/* The fragments of each segment, over the whole tree, chain from one end to the other. */
static void check_fragments_cover(const pdt_bsp *b)
{
    size_t nf = 0;
    const pdt_bsp_fragment *f = pdt_bsp_fragments(b, &nf);
    mpq_t ax, ay, bx, by, x1, y1, x2, y2, px, py;
    mpq_inits(ax, ay, bx, by, x1, y1, x2, y2, px, py, NULL);
    for (size_t s = 0; s < pdt_bsp_segments(b); s++) {
        pdt_bsp_segment_ends(ax, ay, bx, by, b, s);
        mpq_set(px, ax);
        mpq_set(py, ay);
        size_t used = 0, total = 0;
        for (size_t k = 0; k < nf; k++) total += f[k].segment == s;
        for (bool progress = true; progress && used < total;) { /* follow the chain from end a */
            progress = false;
            for (size_t k = 0; k < nf; k++) {
                if (f[k].segment != s) continue;
                pdt_bsp_fragment_ends(x1, y1, x2, y2, b, &f[k]);
                if (!mpq_equal(x1, px) || !mpq_equal(y1, py)) continue;
                assert_false(mpq_equal(x1, x2) && mpq_equal(y1, y2));
                mpq_set(px, x2);
                mpq_set(py, y2);
                used++;
                progress = true;
            }
        }
        assert_true(total >= 1);
        assert_int_equal(used, total);
        assert_true(mpq_equal(px, bx) && mpq_equal(py, by));
    }
    mpq_clears(ax, ay, bx, by, x1, y1, x2, y2, px, py, NULL);
}

static cost solve_and_replay(pdt_bsp *b, const instance *in, pdt_bsp_objective obj, bool tiebreak, bool no_memo)
{
    pdt_error err;
    pdt_search_opts o;
    pdt_search_opts_init(&o);
    o.no_memo = no_memo;
    assert_int_equal(pdt_bsp_solve(b, obj, tiebreak, &o, &err), PDT_OK);
    pdt_bsp_summary s;
    pdt_bsp_summarise(&s, b);
    assert_true(s.optimal);
    size_t n = 0;
    const pdt_bsp_node *nodes = pdt_bsp_tree(b, &n);
    flist all = {0};
    to_flist(&all, in);
    cost c = replay(b, nodes, 0, &all);
    flist_free(&all);
    assert_int_equal(c.nodes, (long)s.nodes);
    assert_int_equal(c.frags, (long)s.fragments);
    assert_int_equal(c.depth, (long)s.depth);
    assert_int_equal(s.nodes, 2 * s.branch_nodes + 1);
    check_fragments_cover(b);
    return c;
}

/* ------------------------------------------------------------ tests */

static void test_bsp_all_on_one_line(void **state)
{
    (void)state;
    const char *text = "0 0 1 0\n2 0 3 0\n# a touching pair\n3 0 5 0\n-4 0 -1 0\n";
    instance in = {4, {{0, 0, 1, 0}, {2, 0, 3, 0}, {3, 0, 5, 0}, {-4, 0, -1, 0}}, ""};
    pdt_bsp *b = read_instance(text);
    assert_int_equal(pdt_bsp_pieces(b), 4); /* collinear lines cut nothing */
    for (int obj = 0; obj < 2; obj++) {
        cost c = solve_and_replay(b, &in, (pdt_bsp_objective)obj, true, false);
        assert_int_equal(c.nodes, 3); /* one branch node absorbs every segment */
        assert_int_equal(c.frags, 4);
        assert_int_equal(c.depth, 1);
    }
    pdt_bsp_free(&b);
}

/* Four blades: the line of each cuts the next, so any root cuts exactly one
 * blade and, after that, nothing needs cutting: 5 fragments, 11 nodes. */
static void test_bsp_windmill(void **state)
{
    (void)state;
    instance in = {4, {{1, -2, 3, -2}, {2, 1, 2, 3}, {-1, 2, -3, 2}, {-2, -1, -2, -3}}, ""};
    const char *text = "1 -2 3 -2\n2 1 2 3\n-1 2 -3 2\n-2 -1 -2 -3\n";
    pdt_bsp *b = read_instance(text);
    assert_int_equal(pdt_bsp_pieces(b), 8);
    cost c = solve_and_replay(b, &in, PDT_BSP_NODES, false, false);
    assert_int_equal(c.frags, 5);
    assert_int_equal(c.nodes, 11);
    /* every auto-partition cuts: no permutation gets below 5 fragments */
    int perm[4] = {0, 1, 2, 3}, rank[4];
    flist all = {0};
    to_flist(&all, &in);
    for (int p = 0; p < 24; p++) {
        int a[4] = {0, 1, 2, 3}, k = p;
        for (int i = 0; i < 4; i++) { /* p-th permutation (factorial number system) */
            int f = 1;
            for (int j = 1; j < 4 - i; j++) f *= j;
            int pick = k / f;
            k %= f;
            perm[i] = a[pick];
            for (int j = pick; j < 3 - i; j++) a[j] = a[j + 1];
        }
        for (int i = 0; i < 4; i++) rank[perm[i]] = i;
        assert_true(by_permutation(&all, rank).frags >= 5);
    }
    assert_int_equal(all_trees(&all, PDT_BSP_FRAGMENTS, false).frags, 5);
    flist_free(&all);
    pdt_bsp_free(&b);
}

/* The windmill under the shear (x, y) -> (x + y/3, y): still 5 fragments,
 * and the one cut lands exactly on the image of an integer cut point. */
static void test_bsp_exact_cut(void **state)
{
    (void)state;
    pdt_bsp *b = read_instance("1/3 -2 7/3 -2\n7/3 1 3 3\n-1/3 2 -7/3 2\n-7/3 -1 -3 -3\n");
    pdt_error err;
    assert_int_equal(pdt_bsp_solve(b, PDT_BSP_FRAGMENTS, false, NULL, &err), PDT_OK);
    pdt_bsp_summary s;
    pdt_bsp_summarise(&s, b);
    assert_int_equal(s.fragments, 5);
    check_fragments_cover(b);
    size_t nf = 0;
    const pdt_bsp_fragment *f = pdt_bsp_fragments(b, &nf);
    const char *images[] = {"-8/3 -2", "4/3 -2", "8/3 2", "-4/3 2"};
    mpq_t x1, y1, x2, y2, px, py;
    mpq_inits(x1, y1, x2, y2, px, py, NULL);
    int cut_ends = 0;
    for (size_t k = 0; k < nf; k++) {
        pdt_bsp_fragment_ends(x1, y1, x2, y2, b, &f[k]);
        for (int e = 0; e < 2; e++)
            for (int m = 0; m < 4; m++) {
                char xs[8], ys[8];
                sscanf(images[m], "%7s %7s", xs, ys);
                mpq_set_str(px, xs, 10);
                mpq_set_str(py, ys, 10);
                cut_ends += mpq_equal(e ? x2 : x1, px) && mpq_equal(e ? y2 : y1, py);
            }
    }
    assert_int_equal(cut_ends, 2); /* the two halves of the cut blade meet there */
    mpq_clears(x1, y1, x2, y2, px, py, NULL);
    pdt_bsp_free(&b);
}

static uint64_t factorial(int n) { return n <= 1 ? 1 : (uint64_t)n * factorial(n - 1); }

/* Random small sets: engine = minimum over all trees <= minimum over all
 * permutations; the library's permutation walk = the one written here. */
static void test_bsp_random_vs_brute_force(void **state)
{
    (void)state;
    tu_rng rng = {31};
    int strictly_better = 0, total = 0;
    const int trials = (int)tu_scaled(300);
    for (int trial = 0; trial < trials; trial++) {
        instance in;
        instance_random(&in, &rng, trial < 240 ? 1 + (int)tu_below(&rng, 6) : 7, trial % 2 ? 6 : 12);
        pdt_bsp *b = read_instance(in.text);
        flist all = {0};
        to_flist(&all, &in);
        cost want[2];
        for (int obj = 0; obj < 2; obj++) {
            want[obj] = all_trees(&all, (pdt_bsp_objective)obj, true);
            for (int tiebreak = 0; tiebreak < 2; tiebreak++) {
                cost got = solve_and_replay(b, &in, (pdt_bsp_objective)obj, tiebreak, trial % 7 == 0);
                if (cost_cmp(got, want[obj], (pdt_bsp_objective)obj, tiebreak) != 0)
                    fprintf(stderr, "objective %d/%d: engine %ld/%ld/%ld, brute force %ld/%ld/%ld\n%s", obj,
                            tiebreak, got.nodes, got.frags, got.depth, want[obj].nodes, want[obj].frags,
                            want[obj].depth, in.text);
                assert_int_equal(cost_cmp(got, want[obj], (pdt_bsp_objective)obj, tiebreak), 0);
            }
        }
        /* every permutation */
        int perm[8], rank[8];
        cost best_perm = {0};
        for (uint64_t p = 0; p < factorial(in.n); p++) {
            int a[8];
            uint64_t k = p;
            for (int i = 0; i < in.n; i++) a[i] = i;
            for (int i = 0; i < in.n; i++) {
                uint64_t f = factorial(in.n - 1 - i), pick = k / f;
                k %= f;
                perm[i] = a[pick];
                for (int j = (int)pick; j < in.n - 1 - i; j++) a[j] = a[j + 1];
            }
            for (int i = 0; i < in.n; i++) rank[perm[i]] = i;
            cost c = by_permutation(&all, rank);
            uint32_t uperm[8];
            for (int i = 0; i < in.n; i++) uperm[i] = (uint32_t)perm[i];
            uint64_t nodes = 0, frags = 0;
            pdt_error err;
            assert_int_equal(pdt_bsp_permutation(&nodes, &frags, b, uperm, &err), PDT_OK);
            assert_int_equal(nodes, c.nodes);
            assert_int_equal(frags, c.frags);
            if (p == 0 || c.nodes < best_perm.nodes) best_perm.nodes = c.nodes;
            if (p == 0 || c.frags < best_perm.frags) best_perm.frags = c.frags;
        }
        assert_true(want[PDT_BSP_NODES].nodes <= best_perm.nodes);
        assert_true(want[PDT_BSP_FRAGMENTS].frags <= best_perm.frags);
        strictly_better += want[PDT_BSP_NODES].nodes < best_perm.nodes || want[PDT_BSP_FRAGMENTS].frags < best_perm.frags;
        total++;
        flist_free(&all);
        pdt_bsp_free(&b);
    }
    fprintf(stderr, "bsp: the optimum beat every permutation on %d of %d instances\n", strictly_better, total);
}

/* The optimum is never worse than a random auto-partition; runs are reproducible. */
static void test_bsp_random_baseline(void **state)
{
    (void)state;
    tu_rng rng = {99};
    for (int trial = 0; trial < 20; trial++) {
        instance in;
        instance_random(&in, &rng, 8, 40);
        pdt_bsp *b = read_instance(in.text);
        pdt_error err;
        assert_int_equal(pdt_bsp_solve(b, PDT_BSP_NODES, false, NULL, &err), PDT_OK);
        pdt_bsp_summary s;
        pdt_bsp_summarise(&s, b);
        pdt_bsp_random r1, r2;
        assert_int_equal(pdt_bsp_random_run(&r1, b, 200, 7, &err), PDT_OK);
        assert_int_equal(pdt_bsp_random_run(&r2, b, 200, 7, &err), PDT_OK);
        assert_true(s.nodes <= r1.min_nodes);
        assert_true(r1.min_nodes * 200 <= r1.sum_nodes);
        assert_int_equal(r1.sum_nodes, r2.sum_nodes);
        assert_int_equal(r1.sum_fragments, r2.sum_fragments);
        assert_int_equal(pdt_bsp_solve(b, PDT_BSP_FRAGMENTS, false, NULL, &err), PDT_OK);
        pdt_bsp_summarise(&s, b);
        assert_true(s.fragments <= r1.min_fragments);
        pdt_bsp_free(&b);
    }
}

/* The plugin's lower bound at the root never exceeds the optimum, in the
 * primary criterion nor in the depth. */
static void check_root_bound(pdt_bsp *b, pdt_bsp_objective obj, cost opt)
{
    const pdt_problem_class *pc = pdt_problem_class_find("bsp");
    assert_non_null(pc);
    assert_non_null(pc->lower_bound);
    pdt_error err;
    assert_int_equal(pdt_bsp_solve(b, obj, true, NULL, &err), PDT_OK); /* sets the criteria */
    size_t n = pdt_bsp_pieces(b), words = (n + 63) / 64;
    uint64_t *items = calloc(words, sizeof *items);
    for (size_t k = 0; k < n; k++) items[k / 64] |= UINT64_C(1) << (k % 64);
    pdt_node root = {items, (uint32_t)n, NULL, 0, 0};
    pdt_lex_value v;
    pc->algebra->init(&v);
    assert_int_equal(pc->lower_bound(&v, b, &root, PDT_UNLIMITED, &err), PDT_OK);
    assert_false(v.inf);
    assert_true(mpz_cmp_si(v.p, obj == PDT_BSP_NODES ? opt.nodes : opt.frags) <= 0);
    assert_true(mpz_cmp_si(v.s, opt.depth) <= 0);
    pc->algebra->clear(&v);
    free(items);
}

static void test_bsp_lower_bound(void **state)
{
    (void)state;
    tu_rng rng = {57};
    for (int trial = 0; trial < 120; trial++) {
        instance in;
        if (trial == 0) in = (instance){4, {{0, 0, 1, 0}, {2, 0, 3, 0}, {3, 0, 5, 0}, {-4, 0, -1, 0}}, ""};
        else instance_random(&in, &rng, 1 + (int)tu_below(&rng, 6), 8);
        if (trial == 0) strcpy(in.text, "0 0 1 0\n2 0 3 0\n3 0 5 0\n-4 0 -1 0\n");
        pdt_bsp *b = read_instance(in.text);
        flist all = {0};
        to_flist(&all, &in);
        for (int obj = 0; obj < 2; obj++)
            check_root_bound(b, (pdt_bsp_objective)obj, all_trees(&all, (pdt_bsp_objective)obj, true));
        flist_free(&all);
        pdt_bsp_free(&b);
    }
}

static void expect_read_error(const char *text, const char *message)
{
    pdt_bsp *b = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_bsp_read(&b, text, strlen(text), "seg.txt", &err);
    if (st == PDT_OK || !strstr(err.message, message)) fprintf(stderr, "got: %s\n", err.message);
    assert_int_equal(st, PDT_EINVAL);
    assert_null(b);
    assert_non_null(strstr(err.message, message));
}

static void test_bsp_input(void **state)
{
    (void)state;
    expect_read_error("0 0 2 2\n\n0 2 2 0\n", "seg.txt:3: the segment crosses the segment of line 1 at (1, 1)");
    expect_read_error("0 0 3 1\n0 1 3 0\n", "at (1.5, 0.5)");
    expect_read_error("0 0 1 7\n0 1 3 0\n", "at (3/22, 21/22)");
    expect_read_error("0 0 2 0\n1 0 3 0\n", "seg.txt:2: the segment overlaps the segment of line 1");
    expect_read_error("0 0 2 0\n0 0 2 0\n", "overlaps");
    expect_read_error("0 0 1 1\n# c\n2.5 3 2.5 3\n", "seg.txt:3: zero-length segment (both endpoints are (2.5, 3))");
    expect_read_error("0 0 1 1\n1 1 x 2\n", "seg.txt:2:5: \"x\" is not a number");
    expect_read_error("0 0 1 1\n1 1 nan 2\n", "seg.txt:2:5: \"nan\" is not a number");
    expect_read_error("0 0 1 1\n1 1 2\n", "seg.txt:2: expected 4 numbers (x1 y1 x2 y2), found 3");
    expect_read_error("0 0 1 1 5\n", "seg.txt:1: expected 4 numbers (x1 y1 x2 y2), found 5");
    expect_read_error("# nothing\n\n", "seg.txt: no segments");
    /* touching is allowed: shared endpoints, an endpoint on another segment, collinear neighbours */
    pdt_bsp *b = read_instance("\xEF\xBB\xBF" "0 0 2 0\r\n2 0 2 2 # corner\n1 0 1 -3\n2 2 3 2\n1/2 5 0.75 5\n");
    assert_int_equal(pdt_bsp_segments(b), 5);
    pdt_bsp_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bsp_all_on_one_line),
        cmocka_unit_test(test_bsp_windmill),
        cmocka_unit_test(test_bsp_exact_cut),
        cmocka_unit_test(test_bsp_random_vs_brute_force),
        cmocka_unit_test(test_bsp_random_baseline),
        cmocka_unit_test(test_bsp_lower_bound),
        cmocka_unit_test(test_bsp_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
