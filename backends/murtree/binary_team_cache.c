/* The team cache of the binary backend's threaded root.
 *
 * Every worker has a cache of its own; what one solves (depth-2 optima,
 * optima and lower bounds per limit — facts about an item set, whoever found
 * them) is published here in batches, and a worker that misses in its own
 * cache looks here.  A bit per hash class (atomic, set after a node is
 * published) spares most lookups of item sets no worker solved any lock.
 *
 * The cache is split in BT_SHARDS shards by hash, each under its own mutex:
 * with one lock, a worker publishing a batch of 64 nodes held it long enough
 * for the other worker's lookups to wait on it — 6 % of the two threads' CPU
 * spinning in libgomp's lock (australian-credit, depth 5).  A lookup copies
 * what the shard's node knows under the lock and merges it into its own
 * cache after releasing it.
 *
 * A node published here keeps its worker's key rather than a copy (the team
 * is cleared before any worker is freed); a worker fetching a node copies the
 * key into its own cache, which may outlive the others.  mushroom one-hot
 * (8 124 items, a key of 1 kB against a node of 56 bytes), λ = 0.001, two
 * threads: peak 859 → 507 MB. */
#include <stdlib.h>
#include <string.h>

#include "binary_team_cache.h"
#include "pdt_parallel.h"

#define SEEN_BITS (UINT64_C(1) << 21)
#define COPY_MAX 16u /* entries copied out of a shard's node; more: merged under the lock */

static inline size_t seen_bit(uint64_t hash) { return (size_t)(hash >> 11) & (SEEN_BITS - 1); }

static inline bt_shard *shard_of(bt_cache *tc, uint64_t hash) { return &tc->shard[(hash >> 40) % BT_SHARDS]; }

bool bt_cache_init(bt_cache *tc, size_t words, size_t limit)
{
    memset(tc, 0, sizeof *tc);
    for (unsigned k = 0; k < BT_SHARDS; k++) {
        bc_init(&tc->shard[k].cache, words, limit / BT_SHARDS);
        if (pthread_mutex_init(&tc->shard[k].lock, NULL) != 0) return false;
        tc->n_locks++;
    }
    tc->seen = pdt_calloc_written(SEEN_BITS / 64, sizeof *tc->seen); /* read before written */
    return tc->seen != NULL;
}

void bt_cache_clear(bt_cache *tc)
{
    for (unsigned k = 0; k < BT_SHARDS; k++) bc_clear(&tc->shard[k].cache);
    for (unsigned k = 0; k < tc->n_locks; k++) pthread_mutex_destroy(&tc->shard[k].lock);
    free(tc->seen);
    memset(tc, 0, sizeof *tc);
}

/* What `from` knows, added to `to` (a node of cache c for the same items). */
static void merge(bc_cache *c, bc_node *to, const bc_node *from)
{
    for (int k = 0; k < 3; k++)
        if (to->d2[k] == BS_NONE) to->d2[k] = from->d2[k];
    for (uint32_t k = 0; k < from->n_entries; k++) {
        const bc_entry *e = &from->entries[k];
        if (e->opt != BS_VNONE) bc_store_optimum(c, to, e);
        else if (!bc_optimum(to, e->d, e->n)) bc_store_lower(c, to, e->d, e->n, e->lb);
    }
}

void bt_shared_prefetch(const bs_search *s, uint64_t hash)
{
    const size_t b = seen_bit(hash);
    __builtin_prefetch(&s->shared->team->seen[b / 64]);
}

/* Called on a miss in s's own cache (bs_lookup): a node found here goes into
 * it without probing it again (2 threads, australian-credit depth 5: 51 000
 * of these, 5 % of the lookups). */
bc_node *bt_shared_fetch(bs_search *s, const bs_set *D)
{
    bt_cache *tc = s->shared->team;
    const size_t b = seen_bit(D->hash);
    if (!(atomic_load_explicit(&tc->seen[b / 64], memory_order_acquire) >> (b % 64) & 1)) return NULL;
    bt_shard *sh = shard_of(tc, D->hash);
    bc_entry entries[COPY_MAX];
    bc_node copy = {.entries = entries}, *local = NULL;
    bool found = false;
    pthread_mutex_lock(&sh->lock);
    const bc_node *sn = bc_find(&sh->cache, D->bits, D->hash, D->m);
    if (sn && sn->n_entries > COPY_MAX) { /* rare: merged here */
        if ((local = bc_insert_absent(&s->cache, D->bits, D->hash, D->m, D->leaf))) merge(&s->cache, local, sn);
        pthread_mutex_unlock(&sh->lock);
        return local;
    }
    if (sn) {
        found = true;
        memcpy(copy.d2, sn->d2, sizeof copy.d2);
        copy.n_entries = sn->n_entries;
        if (sn->n_entries) memcpy(entries, sn->entries, sn->n_entries * sizeof *entries);
    }
    pthread_mutex_unlock(&sh->lock);
    if (found && (local = bc_insert_absent(&s->cache, D->bits, D->hash, D->m, D->leaf))) merge(&s->cache, local, &copy);
    return local;
}

void bt_shared_flush(struct bt_shared *link)
{
    bt_cache *tc = link->team;
    for (unsigned k = 0; k < link->n_pending; k++) {
        const bc_node *nd = link->pending[k];
        bt_shard *sh = shard_of(tc, nd->hash);
        pthread_mutex_lock(&sh->lock);
        bc_node *sn = bc_insert_borrowed(&sh->cache, nd->key, nd->hash, nd->m, nd->leaf);
        if (sn) merge(&sh->cache, sn, nd);
        pthread_mutex_unlock(&sh->lock);
        const size_t b = seen_bit(nd->hash);
        atomic_fetch_or_explicit(&tc->seen[b / 64], UINT64_C(1) << (b % 64), memory_order_release);
    }
    link->n_pending = 0;
}

void bt_shared_publish(bs_search *s, const bs_set *D)
{
    struct bt_shared *link = s->shared;
    link->pending[link->n_pending++] = D->node;
    if (link->n_pending == BT_BATCH) bt_shared_flush(link);
}
