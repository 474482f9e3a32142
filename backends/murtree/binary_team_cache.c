/* The team cache of the binary backend's threaded root.
 *
 * Every worker has a cache of its own; what one solves (depth-2 optima,
 * optima and lower bounds per limit — facts about an item set, whoever found
 * them) is published here, and a worker that misses in its own cache looks
 * here.  A worker whose own cache holds the item set looks in the shards too
 * (bt_shared_refresh), when some worker published to its hash class: the
 * other worker may have bounded it since (australian-credit, depth 5, two
 * threads: 58 500–59 000 → 57 400 search nodes a worker; 15 interleaved
 * rounds 436 → 425–428 ms, one thread 772 ms; diabetes 397 → 382 ms, yeast
 * 209 → 199 ms, kr-vs-kp depth 6 743 → 739 ms, medians of 5–7).
 *
 * Nearly everything published is a depth-2 optimum (australian-credit, depth
 * 5, two threads: 101 000 of 102 500 nodes; the depth-2 solver is three
 * quarters of the search).  Those go on the board, a table read and written
 * without locks: an entry's key, size and hash are written before a CAS links
 * it, and each of its three optima is set once (from BS_NONE) by whichever
 * worker knows it, so a reader sees either nothing or facts.  Nodes with
 * entries (optima and bounds per limit, which grow and merge) go to BT_SHARDS
 * shards by hash, each under its own mutex (with one lock, a worker publishing
 * a batch held it long enough for the other's lookups to wait: 6 % of the two
 * threads' CPU spinning), in batches; a bit per hash class (atomic, set after
 * a node is published there) spares the lookups of item sets no shard holds
 * any lock.  A lookup copies what the shard's node knows under the lock and
 * merges it into its own cache after releasing it.  The board is never grown:
 * when it is full, depth-2 optima go to the shards too.  Before the board,
 * every publication took a shard's lock, a probe and a merge (with the second
 * worker idle, the first spent 6 % more CPU than alone); with it, two threads
 * on australian-credit at depth 5 take 0.870 s of CPU instead of 0.890 and
 * 1.71× instead of 1.66× (medians of 12 interleaved rounds).
 *
 * A node or board entry keeps its worker's key rather than a copy (the team
 * is cleared before any worker is freed); a worker fetching a node copies the
 * key into its own cache, which may outlive the others.  mushroom one-hot
 * (8 124 items, a key of 1 kB against a node of 56 bytes), λ = 0.001, two
 * threads: peak 859 → 507 MB. */
#include <stdlib.h>
#include <string.h>

#include "binary_team_cache.h"
#include "bitset.h"
#include "pdt_parallel.h"

#define SEEN_BITS (UINT64_C(1) << 21)
#define COPY_MAX 16u /* entries copied out of a shard's node; more: merged under the lock */

static inline size_t seen_bit(uint64_t hash) { return (size_t)(hash >> 11) & (SEEN_BITS - 1); }

static inline bt_shard *shard_of(bt_cache *tc, uint64_t hash) { return &tc->shard[(hash >> 40) % BT_SHARDS]; }

#define BOARD_MIN ((size_t)1 << 12)
#define BOARD_MAX ((size_t)1 << 19)
#define BOARD_PROBES 32

bool bt_cache_init(bt_cache *tc, size_t words, size_t limit)
{
    memset(tc, 0, sizeof *tc);
    tc->words = words;
    /* the board: a slot per 2 KiB of the limit, 4 MiB of slots at most (written here, serially:
     * 0.85 ms for the 2 MiB of the default limit), an entry per two slots */
    size_t slots = BOARD_MIN;
    while (slots < BOARD_MAX && slots < limit / 2048) slots *= 2;
    tc->board = pdt_calloc_written(slots, sizeof *tc->board); /* probed before written */
    tc->pubs = calloc(slots / 2, sizeof *tc->pubs);
    if (!tc->board || !tc->pubs) return false;
    tc->board_mask = slots - 1;
    tc->pubs_cap = slots / 2;
    atomic_init(&tc->n_pubs, 0);
    const size_t board_bytes = slots * sizeof *tc->board + tc->pubs_cap * sizeof *tc->pubs;
    limit = limit > 2 * board_bytes ? limit - board_bytes : limit / 2;
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
    free(tc->board);
    free(tc->pubs);
    memset(tc, 0, sizeof *tc);
}

/* ------------------------------------------------------------ the board */

static bool pub_is(const bt_cache *tc, const bt_pub *e, const uint64_t *key, uint64_t hash, uint32_t m)
{
    return e->hash == hash && e->m == m && pdt_bits_equal(e->key, key, tc->words);
}

/* A slot's tag: the hash's high half (its low bits choose the slot; a slot
 * holds its entry's tag and index, so slot_tag(slot) is the entry's).  Most
 * lookups are misses (australian-credit depth 5, two threads: 48 000 of
 * 381 000 find an entry); the tag turns away a slot of another item set
 * without reading its entry, a load from 4 MiB of entries the prefetch of the
 * slot does not cover. */
static inline uint64_t slot_tag(uint64_t hash) { return hash & ~(uint64_t)UINT32_MAX; }

static inline uint64_t slot_of(const bt_cache *tc, const bt_pub *e, uint64_t hash)
{
    return slot_tag(hash) | (uint64_t)(e - tc->pubs + 1);
}

static inline bt_pub *entry_of(const bt_cache *tc, uint64_t slot) { return &tc->pubs[(uint32_t)slot - 1]; }

static const bt_pub *board_find(const bt_cache *tc, const uint64_t *key, uint64_t hash, uint32_t m)
{
    size_t p = (size_t)hash & tc->board_mask;
    for (unsigned k = 0; k < BOARD_PROBES; k++, p = (p + 1) & tc->board_mask) {
        const uint64_t slot = atomic_load_explicit(&tc->board[p], memory_order_acquire);
        if (!slot) return NULL;
        if (slot_tag(slot) != slot_tag(hash)) continue;
        const bt_pub *e = entry_of(tc, slot);
        if (pub_is(tc, e, key, hash, m)) return e;
    }
    return NULL;
}

/* Each optimum the entry lacks, from d2 (the values are facts: a set one stays). */
static void pub_set(bt_pub *e, const uint32_t *d2)
{
    for (int k = 0; k < 3; k++) {
        uint32_t none = BS_NONE;
        if (d2[k] != BS_NONE)
            atomic_compare_exchange_strong_explicit(&e->d2[k], &none, d2[k], memory_order_relaxed,
                                                    memory_order_relaxed);
    }
}

/* A board entry for the worker: from the block it took last, else a new block
 * of PUB_BLOCK (one atomic add per block, and no cache line of entries shared
 * with another worker's); NULL when the board has none left. */
#define PUB_BLOCK 256u

static bt_pub *pub_take(struct bt_shared *link)
{
    if (link->pub_next == link->pub_end) {
        bt_cache *tc = link->team;
        if (link->board_full) return NULL;
        const size_t at = atomic_fetch_add_explicit(&tc->n_pubs, PUB_BLOCK, memory_order_relaxed);
        if (at >= tc->pubs_cap) {
            link->board_full = true; /* (no more adds on the shared counter) */
            return NULL;
        }
        link->pub_next = tc->pubs + at;
        link->pub_end = tc->pubs + (at + PUB_BLOCK < tc->pubs_cap ? at + PUB_BLOCK : tc->pubs_cap);
    }
    return link->pub_next;
}

/* The node's depth-2 optima on the board; false when it has no room for them. */
static bool board_put(struct bt_shared *link, const bc_node *nd)
{
    bt_cache *tc = link->team;
    bt_pub *mine = NULL;
    size_t p = (size_t)nd->hash & tc->board_mask;
    for (unsigned k = 0; k < BOARD_PROBES; k++, p = (p + 1) & tc->board_mask) {
        uint64_t slot = atomic_load_explicit(&tc->board[p], memory_order_acquire);
        if (!slot) {
            if (!mine) {
                if (!(mine = pub_take(link))) return false;
                mine->hash = nd->hash, mine->key = nd->key, mine->m = nd->m;
                for (int j = 0; j < 3; j++) atomic_init(&mine->d2[j], nd->d2[j]);
            }
            if (atomic_compare_exchange_strong_explicit(&tc->board[p], &slot, slot_of(tc, mine, nd->hash),
                                                        memory_order_release, memory_order_acquire)) {
                link->pub_next++; /* used */
                return true;
            }
            /* slot: what another worker linked there first */
        }
        if (slot_tag(slot) != slot_tag(nd->hash)) continue;
        bt_pub *e = entry_of(tc, slot);
        if (pub_is(tc, e, nd->key, nd->hash, nd->m)) {
            pub_set(e, nd->d2); /* (an entry filled here is taken by the next put) */
            return true;
        }
    }
    return false;
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
    const bt_cache *tc = s->shared->team;
    const size_t b = seen_bit(hash);
    __builtin_prefetch(&tc->seen[b / 64]);
    __builtin_prefetch(&tc->board[(size_t)hash & tc->board_mask]);
}

/* What the shard of D's hash class knows of D, merged into *local (made in
 * s's cache first when NULL and the shard knows D); nothing when no worker
 * published to the class (its bit in `seen`: no lock then). */
static void shard_merge(bs_search *s, const bs_set *D, bc_node **local)
{
    bt_cache *tc = s->shared->team;
    const size_t b = seen_bit(D->hash);
    if (!(atomic_load_explicit(&tc->seen[b / 64], memory_order_acquire) >> (b % 64) & 1)) return;
    bt_shard *sh = shard_of(tc, D->hash);
    bc_entry entries[COPY_MAX];
    bc_node copy = {.entries = entries};
    bool found = false;
    pthread_mutex_lock(&sh->lock);
    const bc_node *sn = bc_find(&sh->cache, D->bits, D->hash, D->m);
    if (sn && sn->n_entries > COPY_MAX) { /* rare: merged here */
        if (*local || (*local = bc_insert_absent(&s->cache, D->bits, D->hash, D->m, D->leaf)))
            merge(&s->cache, *local, sn);
        pthread_mutex_unlock(&sh->lock);
        return;
    }
    if (sn) {
        found = true;
        memcpy(copy.d2, sn->d2, sizeof copy.d2);
        copy.n_entries = sn->n_entries;
        if (sn->n_entries) memcpy(entries, sn->entries, sn->n_entries * sizeof *entries);
    }
    pthread_mutex_unlock(&sh->lock);
    if (found && (*local || (*local = bc_insert_absent(&s->cache, D->bits, D->hash, D->m, D->leaf))))
        merge(&s->cache, *local, &copy);
}

/* Called on a miss in s's own cache (bs_lookup): a node found here goes into
 * it without probing it again (2 threads, australian-credit depth 5: 51 000
 * of these, 5 % of the lookups). */
bc_node *bt_shared_fetch(bs_search *s, const bs_set *D)
{
    bt_cache *tc = s->shared->team;
    bc_node *local = NULL;
    const bt_pub *e = board_find(tc, D->bits, D->hash, D->m);
    if (e) {
        uint32_t d2[3];
        for (int k = 0; k < 3; k++) d2[k] = atomic_load_explicit(&e->d2[k], memory_order_relaxed);
        if ((d2[0] != BS_NONE || d2[1] != BS_NONE || d2[2] != BS_NONE) &&
            (local = bc_insert_absent(&s->cache, D->bits, D->hash, D->m, D->leaf)))
            memcpy(local->d2, d2, sizeof d2);
    }
    shard_merge(s, D, &local);
    return local;
}

/* A node s's own cache already holds (bs_lookup): what the team's shards know
 * of its items besides, merged in. */
void bt_shared_refresh(bs_search *s, const bs_set *D)
{
    bc_node *local = D->node;
    shard_merge(s, D, &local);
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
    const bc_node *nd = D->node;
    const bool d2 = nd->d2[0] != BS_NONE || nd->d2[1] != BS_NONE || nd->d2[2] != BS_NONE;
    if (d2 && board_put(link, nd) && nd->n_entries == 0) return; /* the board holds all it knows */
    if (!d2 && nd->n_entries == 0) return; /* nothing to tell */
    link->pending[link->n_pending++] = D->node;
    if (link->n_pending == BT_BATCH) bt_shared_flush(link);
}
