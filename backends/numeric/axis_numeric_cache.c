/* The numeric backend's subproblem cache: for an item set, a depth limit and
 * a node budget, the optimum with its tree once known, else the best lower
 * bound proven so far.  An axis subtree's optimum depends only on its items
 * (every threshold of the family that splits them is available wherever they
 * meet), so the same set reached along different paths — x ≤ a then y ≤ b,
 * or y ≤ b then x ≤ a — is solved once.
 *
 * Keys are two independent 64-bit sums of random per-row numbers; a hit is
 * then verified against the stored rows, so a hash collision costs a search,
 * never a wrong answer.  Entries are only added while the cache is under its
 * byte limit (--memo-mb).  The root's workers share one cache (an_cache_share):
 * every look-up and insertion then holds its lock, and a hit's tree is copied
 * out before the lock is released. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "axis_numeric.h"

typedef struct entry {
    uint64_t h1, h2;
    uint32_t m, d, s, next;   /* next: chain in the bucket (UINT32_MAX: end) */
    size_t rows;              /* offset of the m rows in the row arena */
    size_t tree;              /* offset of the tree, when exact */
    uint32_t tree_len;
    int64_t lb, exact;        /* exact: AN_INF until known */
} entry;

struct an_cache {
    uint64_t *r1, *r2;        /* per-row random numbers */
    uint32_t *bucket;         /* 2^bits heads */
    unsigned bits;
    entry *e;
    size_t n_e, cap_e;
    uint32_t *rows;
    size_t n_rows, cap_rows;
    an_entry *trees;
    size_t n_trees, cap_trees;
    size_t limit, used;
    bool full;
    bool shared;
    pthread_mutex_t lock;     /* held by every operation once shared */
};

static void lock(an_cache *c)
{
    if (c->shared) pthread_mutex_lock(&c->lock);
}

static void unlock(an_cache *c)
{
    if (c->shared) pthread_mutex_unlock(&c->lock);
}

pdt_status an_cache_share(an_cache *c, pdt_error *err)
{
    if (!c->shared && pthread_mutex_init(&c->lock, NULL) != 0)
        return pdt_error_set(err, PDT_ENOMEM, "cannot create the subproblem cache's lock");
    c->shared = true;
    return PDT_OK;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

pdt_status an_cache_new(an_cache **out, size_t n, size_t limit, pdt_error *err)
{
    an_cache *c = calloc(1, sizeof *c);
    if (c) {
        c->bits = 16;
        c->r1 = malloc((n + 1) * sizeof *c->r1);
        c->r2 = malloc((n + 1) * sizeof *c->r2);
        c->bucket = malloc(((size_t)1 << c->bits) * sizeof *c->bucket);
    }
    if (!c || !c->r1 || !c->r2 || !c->bucket) {
        an_cache_free(&c);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory for the subproblem cache");
    }
    uint64_t seed = UINT64_C(0x5eed0fca4e5eed01);
    for (size_t i = 0; i < n; i++) c->r1[i] = splitmix(&seed), c->r2[i] = splitmix(&seed);
    memset(c->bucket, 0xff, ((size_t)1 << c->bits) * sizeof *c->bucket);
    c->limit = limit;
    c->used = ((size_t)1 << c->bits) * sizeof *c->bucket + 2 * n * sizeof *c->r1;
    *out = c;
    return PDT_OK;
}

void an_cache_free(an_cache **cp)
{
    an_cache *c = *cp;
    if (!c) return;
    if (c->shared) pthread_mutex_destroy(&c->lock);
    free(c->r1);
    free(c->r2);
    free(c->bucket);
    free(c->e);
    free(c->rows);
    free(c->trees);
    free(c);
    *cp = NULL;
}

size_t an_cache_entries(const an_cache *c) { return c ? c->n_e : 0; }

void an_cache_key(an_key *k, const an_cache *c, const an_node *nd, uint32_t d, uint32_t s)
{
    uint64_t h1 = 0, h2 = 0;
    for (uint32_t i = 0; i < nd->m; i++) {
        h1 += c->r1[nd->lists[i].row];
        h2 += c->r2[nd->lists[i].row];
    }
    *k = (an_key){h1, h2, nd->m, d, s};
}

static uint32_t slot(const an_cache *c, const an_key *k)
{
    return (uint32_t)((k->h1 ^ (k->h2 >> 7) ^ ((uint64_t)k->d << 40) ^ ((uint64_t)k->s << 48)) &
                      (((uint64_t)1 << c->bits) - 1));
}

/* The same rows as the node's (mark is all zero on entry and on return). */
static bool same_rows(const an_cache *c, const entry *e, const an_node *nd, uint8_t *mark)
{
    for (uint32_t i = 0; i < nd->m; i++) mark[nd->lists[i].row] = 1;
    bool same = true;
    for (uint32_t i = 0; i < e->m && same; i++) same = mark[c->rows[e->rows + i]];
    for (uint32_t i = 0; i < nd->m; i++) mark[nd->lists[i].row] = 0;
    return same;
}

static entry *find(an_cache *c, const an_key *k, const an_node *nd, uint8_t *mark)
{
    for (uint32_t i = c->bucket[slot(c, k)]; i != UINT32_MAX; i = c->e[i].next) {
        entry *e = &c->e[i];
        if (e->h1 == k->h1 && e->h2 == k->h2 && e->m == k->m && e->d == k->d && e->s == k->s &&
            same_rows(c, e, nd, mark))
            return e;
    }
    return NULL;
}

bool an_cache_get(an_cache *c, const an_key *k, const an_node *nd, uint8_t *mark, int64_t ub, int64_t *lb,
                  int64_t *exact, an_entry *tree, uint32_t *len)
{
    lock(c);
    const entry *e = find(c, k, nd, mark);
    if (e) {
        *lb = e->lb;
        *exact = e->exact;
        if (e->exact != AN_INF && e->exact < ub) {
            memcpy(tree, c->trees + e->tree, e->tree_len * sizeof *tree);
            *len = e->tree_len;
        }
    }
    unlock(c);
    return e != NULL;
}

/* Room for `more` items of `size` bytes in an arena, within the byte limit. */
static bool reserve(void **arena, size_t *cap, size_t n, size_t more, size_t size, an_cache *c)
{
    if (n + more <= *cap) return true;
    size_t want = *cap ? *cap : 1024;
    while (want < n + more) want *= 2;
    if (c->used + (want - *cap) * size > c->limit) return false;
    void *p = realloc(*arena, want * size);
    if (!p) return false;
    c->used += (want - *cap) * size;
    *arena = p;
    *cap = want;
    return true;
}

static bool store_tree(an_cache *c, entry *e, int64_t exact, const an_entry *tree, uint32_t len)
{
    if (!reserve((void **)&c->trees, &c->cap_trees, c->n_trees, len, sizeof *tree, c)) return false;
    memcpy(c->trees + c->n_trees, tree, len * sizeof *tree);
    e->tree = c->n_trees;
    e->tree_len = len;
    e->exact = e->lb = exact;
    c->n_trees += len;
    return true;
}

/* Twice the buckets once the chains average two entries (within the limit). */
static void grow_buckets(an_cache *c)
{
    size_t nb = (size_t)1 << c->bits;
    if (c->n_e < 2 * nb || c->bits >= 30 || c->used + nb * sizeof *c->bucket > c->limit) return;
    uint32_t *b = malloc(2 * nb * sizeof *b);
    if (!b) return;
    free(c->bucket);
    c->bucket = b;
    c->bits++;
    c->used += nb * sizeof *b;
    memset(b, 0xff, 2 * nb * sizeof *b);
    for (uint32_t i = 0; i < c->n_e; i++) {
        uint32_t h = slot(c, &(an_key){c->e[i].h1, c->e[i].h2, c->e[i].m, c->e[i].d, c->e[i].s});
        c->e[i].next = b[h];
        b[h] = i;
    }
}

void an_cache_put(an_cache *c, const an_key *k, const an_node *nd, uint8_t *mark, int64_t lb,
                  int64_t exact, const an_entry *tree, uint32_t len)
{
    if (exact != AN_INF) lb = exact;
    lock(c);
    entry *e = find(c, k, nd, mark);
    if (e) {
        if (exact != AN_INF && e->exact == AN_INF && !store_tree(c, e, exact, tree, len)) c->full = true;
        if (lb > e->lb) e->lb = lb;
        unlock(c);
        return;
    }
    if (c->full || c->n_e >= UINT32_MAX - 1 ||
        !reserve((void **)&c->e, &c->cap_e, c->n_e, 1, sizeof *c->e, c) ||
        !reserve((void **)&c->rows, &c->cap_rows, c->n_rows, nd->m, sizeof *c->rows, c)) {
        c->full = true;
        unlock(c);
        return;
    }
    e = &c->e[c->n_e];
    *e = (entry){k->h1, k->h2, k->m, k->d, k->s, UINT32_MAX, c->n_rows, 0, 0, lb, AN_INF};
    for (uint32_t i = 0; i < nd->m; i++) c->rows[c->n_rows + i] = nd->lists[i].row;
    c->n_rows += nd->m;
    if (exact != AN_INF && !store_tree(c, e, exact, tree, len)) c->full = true;
    uint32_t h = slot(c, k);
    e->next = c->bucket[h];
    c->bucket[h] = (uint32_t)c->n_e++;
    grow_buckets(c);
    unlock(c);
}
