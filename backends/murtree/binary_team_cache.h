/* The binary backend's team cache (issue 13; binary_team_cache.c): what every
 * worker of the threaded root solved, shared among them. */
#ifndef PDT_BINARY_TEAM_CACHE_H
#define PDT_BINARY_TEAM_CACHE_H

#include <pthread.h>
#include <stdatomic.h>

#include "binary_solver.h"

#define BT_SHARDS 16u
#define BT_BATCH 64u

typedef struct bt_shard {
    bc_cache cache;
    pthread_mutex_t lock;
} bt_shard;

/* An item set's depth-2 optima on the board (binary_team_cache.c): its key,
 * size and hash fixed before it is linked; each optimum set once (BS_NONE
 * until then) by whichever worker knows it. */
typedef struct bt_pub {
    uint64_t hash;
    const uint64_t *key; /* the publishing worker's node's key (the team is cleared first) */
    uint32_t m;
    _Atomic uint32_t d2[3];
} bt_pub;

typedef struct bt_cache {
    bt_shard shard[BT_SHARDS]; /* by the item set's hash */
    _Atomic uint64_t *seen;     /* a bit per hash class: some worker published one to a shard */
    unsigned n_locks;           /* locks made (for the clear) */
    /* the board: depth-2 optima without locks (open addressing, never grown); a slot
     * holds an entry's tag (its hash's high half) << 32 | its index in pubs + 1, 0 when empty */
    _Atomic uint64_t *board;
    size_t board_mask;
    bt_pub *pubs;               /* board_cap entries, handed out in order */
    _Atomic size_t n_pubs;
    size_t pubs_cap;
    size_t words;
} bt_cache;

struct bt_shared { /* a worker's link to the team's cache */
    _Alignas(64) bt_cache *team;
    bc_node *pending[BT_BATCH]; /* its own nodes solved since the last batch */
    unsigned n_pending;
    bt_pub *pub_next, *pub_end; /* the board's entries this worker took, not yet used */
    bool board_full;            /* none left to take */
};

/* limit: bytes for the whole team cache.  False when out of memory (then clear it). */
bool bt_cache_init(bt_cache *tc, size_t words, size_t limit);
void bt_cache_clear(bt_cache *tc);
/* The worker's nodes not yet published, published. */
void bt_shared_flush(struct bt_shared *link);

#endif
