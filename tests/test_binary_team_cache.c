/* The binary backend's team cache (backends/murtree/binary_team_cache.c): what
 * one worker publishes about an item set, another fetches exactly — every
 * depth-2 optimum, every optimum with its tree's root and shape, every lower
 * bound — and facts two workers publish about the same items merge (the
 * greater bound, the optimum over a bound).  The end-to-end tests (the
 * threaded fits give the serial optimum) did not fail with every shard's lower
 * bound one too high: a bound is read back only when a later budget is exactly
 * one above it.  Here a fact read back differently from the fact published is
 * a failure, whatever the search would have made of it.
 *
 * The facts are random numbers, not results of a search: the cache stores
 * facts, it does not check them.  Paths covered: nodes with depth-2 optima
 * only (the lock-free board), with up to and over COPY_MAX (16) entries (copied
 * out of a shard, or merged under its lock), the board full (small limit: the
 * rest go to the shards), refresh of a node a worker already holds, and two
 * workers publishing at once (run under TSan in scripts/check). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pthread.h>

#include "binary_solver.h"
#include "binary_team_cache.h"
#include "test_util.h"

#define WORDS 3
#define SETS 5000

typedef struct fact_set {
    uint64_t bits[WORDS];
    uint32_t m;
    uint64_t hash;
} fact_set;

/* A worker: a search with its own cache, linked to the team. */
typedef struct worker {
    bs_search s;
    struct bt_shared link;
} worker;

static void worker_init(worker *w, bt_cache *team)
{
    memset(w, 0, sizeof *w);
    bc_init(&w->s.cache, WORDS, (size_t)64 << 20);
    w->link.team = team;
    w->s.shared = &w->link;
}

static void worker_clear(worker *w) { bc_clear(&w->s.cache); }

/* Distinct random item sets (a third of the 192 items each, about). */
static void make_sets(fact_set *sets, size_t n, uint64_t seed)
{
    tu_rng g = {seed};
    for (size_t i = 0; i < n; i++) {
        fact_set *f = &sets[i];
        for (int w = 0; w < WORDS; w++) f->bits[w] = tu_rand(&g) & tu_rand(&g) & (tu_rand(&g) | tu_rand(&g));
        f->bits[0] = (f->bits[0] & UINT32_MAX) | (uint64_t)(i + 1) << 32; /* distinct: its index + 1 */
        f->m = 0;
        for (int w = 0; w < WORDS; w++) f->m += (uint32_t)__builtin_popcountll(f->bits[w]);
        f->hash = bc_hash(f->bits, WORDS);
    }
}

/* Random facts about the set f in w's cache: depth-2 optima (some unknown), and
 * `entries` (d, n) entries, lower bounds or (when optima) optima; returns the
 * node.  An optimum's shape is its (d, n), so that it covers no other entry's
 * limits (a bound under an optimum that covers it is not kept: bc_optimum). */
static bc_node *make_facts(worker *w, const fact_set *f, tu_rng *g, uint32_t entries, bool d2, bool optima)
{
    bc_node *nd = bc_insert(&w->s.cache, f->bits, f->hash, f->m, (uint32_t)(tu_rand(g) % (f->m + 1)));
    assert_non_null(nd);
    for (int k = 0; k < 3; k++) nd->d2[k] = d2 && tu_rand(g) % 4 ? (uint32_t)(tu_rand(g) % 1000) : BS_NONE;
    for (uint32_t k = 0; k < entries; k++) {
        const uint32_t d = 3 + k / 8, n = d + k % 8; /* distinct (d, n) */
        if (optima && tu_rand(g) % 2) {
            bc_entry e = {.d = d, .n = n, .opt = tu_rand(g) % 100000, .feature = (uint32_t)(tu_rand(g) % 50),
                          .nl = (uint32_t)(tu_rand(g) % n), .size = n, .depth = d};
            e.lb = e.opt;
            bc_store_optimum(&w->s.cache, nd, &e);
        } else {
            bc_store_lower(&w->s.cache, nd, d, n, tu_rand(g) % 100000);
        }
    }
    return nd;
}

static void publish(worker *w, const fact_set *f, bc_node *nd)
{
    bs_set D = {.bits = (uint64_t *)f->bits, .m = f->m, .hash = f->hash, .node = nd};
    bt_shared_publish(&w->s, &D);
}

static bc_node *fetch(worker *w, const fact_set *f)
{
    bs_set D = {.bits = (uint64_t *)f->bits, .m = f->m, .hash = f->hash};
    return bt_shared_fetch(&w->s, &D);
}

static const bc_entry *entry_of(const bc_node *nd, uint32_t d, uint32_t n)
{
    for (uint32_t k = 0; k < nd->n_entries; k++)
        if (nd->entries[k].d == d && nd->entries[k].n == n) return &nd->entries[k];
    return NULL;
}

/* got knows exactly what want knows (want's entries, nothing more). */
static void assert_same_facts(const bc_node *got, const bc_node *want, size_t i)
{
    if (!got) fail_msg("set %zu: published, not fetched", i);
    for (int k = 0; k < 3; k++)
        if (got->d2[k] != want->d2[k])
            fail_msg("set %zu: depth-2 optimum %d fetched %u, published %u", i, k, got->d2[k], want->d2[k]);
    if (got->n_entries != want->n_entries)
        fail_msg("set %zu: %u entries fetched, %u published", i, got->n_entries, want->n_entries);
    for (uint32_t k = 0; k < want->n_entries; k++) {
        const bc_entry *w = &want->entries[k], *e = entry_of(got, w->d, w->n);
        if (!e) fail_msg("set %zu: entry (%u, %u) not fetched", i, w->d, w->n);
        if (e->lb != w->lb || e->opt != w->opt || (w->opt != BS_VNONE && (e->feature != w->feature ||
                                                                          e->nl != w->nl || e->size != w->size ||
                                                                          e->depth != w->depth)))
            fail_msg("set %zu, (%u, %u): fetched lb %llu opt %llu root %u/%u shape %u/%u, published lb %llu "
                     "opt %llu root %u/%u shape %u/%u",
                     i, w->d, w->n, (unsigned long long)e->lb, (unsigned long long)e->opt, e->feature, e->nl,
                     e->size, e->depth, (unsigned long long)w->lb, (unsigned long long)w->opt, w->feature, w->nl,
                     w->size, w->depth);
    }
}

/* One worker publishes, another fetches: the same facts, for every kind of
 * node; a set nobody published, or whose node knew nothing, is not found.
 * The limit (8 MiB: the least board, 4 096 slots) leaves the board 2 048
 * entries, so the later depth-2 nodes go to the shards; the shards have room
 * for every node (a shard that is full forgets, as a cache may). */
static void test_team_cache_published_facts_fetched(void **state)
{
    (void)state;
    bt_cache team;
    assert_true(bt_cache_init(&team, WORDS, (size_t)8 << 20));
    fact_set *sets = calloc(SETS + 100, sizeof *sets);
    bc_node **mine = calloc(SETS, sizeof *mine);
    assert_non_null(sets);
    assert_non_null(mine);
    make_sets(sets, SETS + 100, 7);
    worker a, b;
    worker_init(&a, &team);
    worker_init(&b, &team);
    tu_rng g = {11};
    for (size_t i = 0; i < SETS; i++) {
        const uint32_t kind = (uint32_t)(i % 5);
        /* 0: depth-2 optima only; 1: a few entries; 2: over COPY_MAX; 3: nothing; 4: entries only */
        const uint32_t entries = kind == 1 ? 1 + (uint32_t)(tu_rand(&g) % 6) : kind == 2 ? 17 + (uint32_t)(tu_rand(&g) % 8)
                                 : kind == 4 ? 1 + (uint32_t)(tu_rand(&g) % 20) : 0;
        mine[i] = make_facts(&a, &sets[i], &g, entries, kind <= 2, true);
        if (kind == 0) /* at least one depth-2 optimum known */
            mine[i]->d2[0] = (uint32_t)(tu_rand(&g) % 1000);
        publish(&a, &sets[i], mine[i]);
    }
    bt_shared_flush(&a.link);
    assert_true(a.link.board_full); /* both ways of a depth-2 optimum taken */
    for (size_t i = 0; i < SETS; i++) {
        const bc_node *got = fetch(&b, &sets[i]);
        if (i % 5 == 3) {
            if (got) fail_msg("set %zu: nothing published, a node fetched", i);
            continue;
        }
        assert_same_facts(got, mine[i], i);
    }
    for (size_t i = SETS; i < SETS + 100; i++)
        if (fetch(&b, &sets[i])) fail_msg("set %zu: never published, a node fetched", i);
    worker_clear(&a);
    worker_clear(&b);
    bt_cache_clear(&team);
    free(sets);
    free(mine);
}

/* A node a worker already holds learns what others published since
 * (bt_shared_refresh), and what two workers publish about the same items
 * merges: per (d, n) the greater lower bound; an optimum over any bound; the
 * depth-2 optima either knows. */
static void test_team_cache_merge_and_refresh(void **state)
{
    (void)state;
    bt_cache team;
    assert_true(bt_cache_init(&team, WORDS, (size_t)64 << 20));
    enum { N = 400 };
    fact_set sets[N];
    make_sets(sets, N, 21);
    worker a, b, c;
    worker_init(&a, &team);
    worker_init(&b, &team);
    worker_init(&c, &team);
    tu_rng g = {23};
    bc_node *na[N], *nb[N], *nc[N];
    for (size_t i = 0; i < N; i++) {
        /* c holds the set first, knowing a bound at (3, 3) and the first depth-2 optimum */
        nc[i] = bc_insert(&c.s.cache, sets[i].bits, sets[i].hash, sets[i].m, 5);
        assert_non_null(nc[i]);
        nc[i]->d2[0] = 77, nc[i]->d2[1] = nc[i]->d2[2] = BS_NONE;
        bc_store_lower(&c.s.cache, nc[i], 3, 3, 10);
        na[i] = make_facts(&a, &sets[i], &g, 2 + (uint32_t)(i % 20), false, false);
        nb[i] = make_facts(&b, &sets[i], &g, 2 + (uint32_t)((i * 7) % 20), false, false);
        na[i]->d2[1] = 88; /* a knows the second, b the third */
        nb[i]->d2[2] = 99;
        if (i % 2) { /* an optimum at (6, 6) from a, a bound there from b */
            bc_entry e = {.d = 6, .n = 6, .lb = 500, .opt = 500, .feature = 3, .nl = 2, .size = 6, .depth = 6};
            bc_store_optimum(&a.s.cache, na[i], &e);
            bc_store_lower(&b.s.cache, nb[i], 6, 6, 400 + (i % 3) * 100);
        }
        publish(&a, &sets[i], na[i]);
        publish(&b, &sets[i], nb[i]);
    }
    bt_shared_flush(&a.link);
    bt_shared_flush(&b.link);
    for (size_t i = 0; i < N; i++) {
        bs_set D = {.bits = sets[i].bits, .m = sets[i].m, .hash = sets[i].hash, .node = nc[i]};
        bt_shared_refresh(&c.s, &D);
        const bc_node *got = nc[i];
        for (uint32_t d = 3; d < 6; d++)
            for (uint32_t n = d; n < d + 8; n++) {
                const bc_entry *ea = entry_of(na[i], d, n), *eb = entry_of(nb[i], d, n), *e = entry_of(got, d, n);
                const bool mine = d == 3 && n == 3;
                if (!ea && !eb && !mine) {
                    if (e) fail_msg("set %zu: entry (%u, %u) that nobody published", i, d, n);
                    continue;
                }
                bs_value lb = mine ? 10 : 0;
                if (ea && ea->lb > lb) lb = ea->lb;
                if (eb && eb->lb > lb) lb = eb->lb;
                if (!e || e->lb != lb || e->opt != BS_VNONE)
                    fail_msg("set %zu, (%u, %u): lower bound %llu after the merge, want %llu", i, d, n,
                             e ? (unsigned long long)e->lb : 0ULL, (unsigned long long)lb);
            }
        const bc_entry *six = entry_of(got, 6, 6);
        if (i % 2 && (!six || six->opt != 500 || six->feature != 3 || six->nl != 2))
            fail_msg("set %zu: the optimum at (6, 6) lost in the merge", i);
        if (!(i % 2) && six) fail_msg("set %zu: an entry at (6, 6) that nobody published", i);
        if (got->d2[0] != 77 || got->d2[1] != 88 || got->d2[2] != 99)
            fail_msg("set %zu: depth-2 optima %u %u %u after the merge, want 77 88 99", i, got->d2[0], got->d2[1],
                     got->d2[2]);
    }
    worker_clear(&a);
    worker_clear(&b);
    worker_clear(&c);
    bt_cache_clear(&team);
}

/* Two workers publishing at once (threads: TSan checks the locks and the
 * board's ordering), each its own half of the sets plus a shared quarter;
 * then a third fetches every set: nothing lost, nothing torn. */
typedef struct pub_job {
    worker *w;
    fact_set *sets;
    bc_node **nodes;
    size_t from, to;
    uint64_t seed;
} pub_job;

static void *publish_job(void *arg)
{
    pub_job *j = arg;
    tu_rng g = {j->seed};
    for (size_t i = j->from; i < j->to; i++) {
        j->nodes[i] = make_facts(j->w, &j->sets[i], &g, (uint32_t)(i % 19), true, true);
        j->nodes[i]->d2[1] = (uint32_t)(i % 997); /* known: every node is published */
        publish(j->w, &j->sets[i], j->nodes[i]);
    }
    bt_shared_flush(&j->w->link);
    return NULL;
}

static void test_team_cache_two_publishers(void **state)
{
    (void)state;
    bt_cache team;
    assert_true(bt_cache_init(&team, WORDS, (size_t)8 << 20));
    fact_set *sets = calloc(SETS, sizeof *sets);
    bc_node **nodes = calloc(SETS, sizeof *nodes);
    assert_non_null(sets);
    assert_non_null(nodes);
    make_sets(sets, SETS, 31);
    worker a, b, c;
    worker_init(&a, &team);
    worker_init(&b, &team);
    worker_init(&c, &team);
    pub_job ja = {&a, sets, nodes, 0, SETS / 2, 41}, jb = {&b, sets, nodes, SETS / 2, SETS, 43};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, publish_job, &ja), 0);
    publish_job(&jb);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(a.link.board_full || b.link.board_full);
    for (size_t i = 0; i < SETS; i++) assert_same_facts(fetch(&c, &sets[i]), nodes[i], i);
    worker_clear(&a);
    worker_clear(&b);
    worker_clear(&c);
    bt_cache_clear(&team);
    free(sets);
    free(nodes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_team_cache_published_facts_fetched),
        cmocka_unit_test(test_team_cache_merge_and_refresh),
        cmocka_unit_test(test_team_cache_two_publishers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
