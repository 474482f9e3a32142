/* The branch search's memo (discrete_memo.h). */
#include "discrete_memo.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "discrete.h"

bool dc_salt_fill(uint64_t *salt, size_t words)
{
    if (getenv("PDT_DISCRETE_WEAK_HASH")) return false; /* tests: every region of a size collides */
    for (size_t i = 0; i < 2 * words; i++) { /* splitmix64 of i */
        uint64_t z = (uint64_t)(i + 1) * UINT64_C(0x9e3779b97f4a7c15);
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        salt[i] = z ^ (z >> 31);
    }
    return true;
}

uint64_t dc_hash_sum(const uint64_t *salt, const uint32_t *rows, size_t len)
{
    uint64_t sum = 0, x = 0;
    size_t w = 0;
    for (size_t k = 0; k < len; k++) {
        assert(k == 0 || rows[k - 1] < rows[k]);
        if (rows[k] >> 6 != w) sum += dc_word_hash(salt, w, x), w = rows[k] >> 6, x = 0;
        x |= UINT64_C(1) << (rows[k] & 63);
    }
    return sum + dc_word_hash(salt, w, x);
}

uint64_t dc_hash_final(uint64_t sum, size_t len, uint32_t rem)
{
    uint64_t h = sum ^ ((uint64_t)len << 32 | rem);
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    h ^= h >> 29;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 32;
    return h | 1;
}

static uint64_t hash_rows(const dc_memo *m, const uint32_t *rows, size_t len, uint32_t rem)
{
    return dc_hash_final(dc_hash_sum(m->salt, rows, len), len, rem);
}

/* A key of len rows is a bitset of n_rows bits (32 a word) when that is
 * shorter than the list. */
static size_t bitset_words(const dc_memo *m) { return (m->n_rows + 31) / 32; }
static bool dense(const dc_memo *m, size_t len) { return len > bitset_words(m); }
static size_t key_words(const dc_memo *m, size_t len) { return dense(m, len) ? bitset_words(m) : len; }
/* Keys of conditions from this many words of rows on (dc_memo_get). */
#define COND_FROM 64
static bool has(const uint32_t *bits, uint32_t i) { return bits[i >> 5] >> (i & 31) & 1; }

/* ------------------------------------------------------------ threads (dc_memo_share) */

/* Spin locks, each on a cache line of its own; block b of the table is
 * guarded by lock b mod DC_LOCKS.  And a larger table being filled (grow):
 * the thread growing it holds every lock and moves runs of DC_RUN blocks of
 * the old table, and so does every thread that waits for a lock meanwhile
 * (australian-credit, DL8.5, λ = 0.01, two threads: the growths were 1.8 s of
 * the first 25 s, the other thread waiting).  An old block's entries land in
 * two blocks of the larger table (of the same number, and that number plus
 * the old table's blocks) that no other old block's entries reach: the runs
 * are moved side by side without locks. */
#define DC_LOCKS 256
#define DC_RUN 16
typedef struct dc_memo_locks {
    struct {
        _Alignas(64) int held;
    } lock[DC_LOCKS];
    _Alignas(64) int open;        /* a growth is under way: help_grow moves runs */
    int active;                   /* threads within help_grow */
    const dc_entry *old;          /* the old table (old_n slots), the larger one (slots, n_slots) */
    size_t old_n, n_slots;
    dc_entry *slots;
    size_t next, dropped;         /* the next old block to move; entries not placed */
} dc_memo_locks;

/* The lock this thread holds (dc_memo_unlock lets it go: dc_memo_let_go). */
static _Thread_local size_t held_lock = SIZE_MAX;

static void pause_once(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static bool place(const dc_memo *m, dc_entry *slots, size_t n_slots, const dc_entry *e);

/* Moves runs of the old table's blocks into the larger one until none is left (grow; helping: a
 * thread that waited for a lock). */
static void move_runs(dc_memo *m, dc_memo_locks *L, bool helping)
{
    const size_t blocks = L->old_n / DC_BLOCK;
    for (;;) {
        const size_t b = __atomic_fetch_add(&L->next, DC_RUN, __ATOMIC_RELAXED);
        if (b >= blocks) return;
        const size_t end = b + DC_RUN < blocks ? b + DC_RUN : blocks;
        size_t dropped = 0;
        for (size_t q = b * DC_BLOCK; q < end * DC_BLOCK; q++)
            if (L->old[q].hash && !place(m, L->slots, L->n_slots, &L->old[q])) dropped++;
        if (dropped) __atomic_fetch_add(&L->dropped, dropped, __ATOMIC_RELAXED);
        if (helping) __atomic_fetch_add(&m->helped_runs, 1, __ATOMIC_RELAXED);
    }
}

/* A thread waiting for a lock: moves runs of a growth under way. */
static void help_grow(dc_memo *m)
{
    dc_memo_locks *L = m->locks;
    if (!__atomic_load_n(&L->open, __ATOMIC_RELAXED)) return;
    /* (sequentially consistent, with move_all's close and count: either move_all waits for this
     * thread to leave, or this thread sees the growth closed and touches nothing of it) */
    __atomic_fetch_add(&L->active, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&L->open, __ATOMIC_SEQ_CST)) move_runs(m, L, true);
    __atomic_fetch_sub(&L->active, 1, __ATOMIC_RELEASE); /* (its entries placed before) */
}

static void spin_lock(dc_memo *m, int *l)
{
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(l, __ATOMIC_RELAXED)) help_grow(m), pause_once();
}
static void spin_unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

/* The old table's entries into the larger one (slots, n_slots), every block held: by runs, with
 * the threads that wait for a lock meanwhile; the entries not placed. */
static size_t move_all(dc_memo *m, const dc_entry *old, size_t old_n, dc_entry *slots, size_t n_slots)
{
    dc_memo_locks *L = m->locks;
    L->old = old, L->old_n = old_n, L->slots = slots, L->n_slots = n_slots;
    __atomic_store_n(&L->next, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&L->dropped, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&L->open, 1, __ATOMIC_SEQ_CST);
    while (m->helped && !__atomic_load_n(&L->next, __ATOMIC_RELAXED)) pause_once(); /* (tests) */
    move_runs(m, L, false);
    /* every run is taken; a run is moved once the thread that took it has left */
    __atomic_store_n(&L->open, 0, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&L->active, __ATOMIC_SEQ_CST)) pause_once();
    return __atomic_load_n(&L->dropped, __ATOMIC_RELAXED);
}

/* Probes: over the whole table, or once threads have shared the memo
 * (m->blocked) within a block (the table is one block while it is smaller).
 * bm: the probe's mask; a probe ends after bm + 1 slots. */
static size_t probe_mask(const dc_memo *m, size_t n_slots)
{
    return (m->blocked && n_slots > DC_BLOCK ? DC_BLOCK : n_slots) - 1;
}
static size_t next_slot(size_t p, size_t bm) { return (p & ~bm) | ((p + 1) & bm); }

/* Puts e in the first free slot of its probe; false when its block is full
 * (then it is dropped: an entry is a fact the search can find again; with
 * hashes that are not all alike, at most half full as the table is, a block
 * of DC_BLOCK slots does not fill). */
static bool place(const dc_memo *m, dc_entry *slots, size_t n_slots, const dc_entry *e)
{
    const size_t bm = probe_mask(m, n_slots);
    size_t q = (size_t)e->hash & (n_slots - 1);
    for (size_t i = 0; i <= bm; i++, q = next_slot(q, bm))
        if (!slots[q].hash) return slots[q] = *e, true;
    return false;
}

/* Holds the block of hash h (the table's size may change until it is held). */
static void hold(dc_memo *m, uint64_t h)
{
    if (!m->locks) return;
    assert(held_lock == SIZE_MAX); /* (one block at a time) */
    for (;;) {
        const size_t n = __atomic_load_n(&m->n_slots, __ATOMIC_ACQUIRE);
        const size_t at = ((size_t)h & (n ? n - 1 : 0)) / DC_BLOCK % DC_LOCKS;
        spin_lock(m, &m->locks->lock[at].held);
        if (__atomic_load_n(&m->n_slots, __ATOMIC_RELAXED) == n) {
            held_lock = at;
            return;
        }
        spin_unlock(&m->locks->lock[at].held);
    }
}

void dc_memo_let_go(dc_memo *m)
{
    assert(held_lock != SIZE_MAX);
    spin_unlock(&m->locks->lock[held_lock].held);
    held_lock = SIZE_MAX;
}

/* Every block held (the caller holds none), or let go. */
static void hold_all(dc_memo *m)
{
    for (size_t i = 0; m->locks && i < DC_LOCKS; i++) spin_lock(m, &m->locks->lock[i].held);
}
static void let_all_go(dc_memo *m)
{
    for (size_t i = 0; m->locks && i < DC_LOCKS; i++) spin_unlock(&m->locks->lock[i].held);
}

static bool grow(dc_memo *m);
static dc_entry *slots_alloc(size_t n, void **map, size_t *map_len);
static void slots_free(dc_entry *slots, void *map, size_t map_len);

bool dc_memo_share(dc_memo *m)
{
    assert(!m->locks);
    if (!m->n_slots && !grow(m)) return false;
    dc_memo_locks *locks = aligned_alloc(_Alignof(dc_memo_locks), sizeof *locks);
    if (!locks) return false;
    memset(locks, 0, sizeof *locks);
    if (!m->blocked) { /* each entry moved into its block, once (the table is the warm runs' then) */
        void *map;
        size_t map_len;
        dc_entry *slots = slots_alloc(m->n_slots, &map, &map_len);
        if (!slots) return free(locks), false;
        m->blocked = true;
        for (size_t p = 0; p < m->n_slots; p++)
            if (m->slots[p].hash && !place(m, slots, m->n_slots, &m->slots[p])) m->used--;
        slots_free(m->slots, m->map, m->map_len);
        m->slots = slots, m->map = map, m->map_len = map_len;
    }
    m->locks = locks;
    return true;
}

size_t dc_memo_room(dc_memo *m)
{
    hold_all(m);
    const size_t left = m->bytes < m->limit ? m->limit - m->bytes : 0;
    let_all_go(m);
    return left;
}

void dc_memo_unshare(dc_memo *m)
{
    free(m->locks);
    m->locks = NULL;
}

/* Word w (32 rows) of a subset given by bitsets. */
static uint32_t subset_word(const dc_subset *sub, size_t w)
{
    uint64_t one = sub->one[w >> 1], x = sub->all[w >> 1] & (sub->v ? one : ~one);
    return (uint32_t)(x >> (32 * (w & 1)));
}

/* The rows of a subset given by bitsets, increasing, into out; how many. */
static size_t subset_rows(const dc_memo *m, const dc_subset *sub, uint32_t *out)
{
    size_t n = 0;
    for (size_t w = 0; w < m->words; w++) {
        uint64_t one = sub->one[w], x = sub->all[w] & (sub->v ? one : ~one);
        for (; x; x &= x - 1) out[n++] = (uint32_t)(64 * w) + (uint32_t)__builtin_ctzll(x);
    }
    return n;
}

static bool subset_has(const dc_subset *sub, uint32_t i)
{
    return (sub->all[i >> 6] >> (i & 63) & 1) && (sub->one[i >> 6] >> (i & 63) & 1) == sub->v;
}

/* Whether row i meets every condition of a key of conditions (its codes
 * side by side: one or two cache lines a row). */
static bool meets(const dc_memo *m, const uint32_t *cond, size_t n_cond, uint32_t i)
{
    const uint16_t *x = m->x + (size_t)i * m->nf;
    for (size_t k = 0; k < n_cond; k++)
        if (x[cond[k] >> 16] != (cond[k] & 0xffff)) return false;
    return true;
}

/* Whether the rows of a subset given by bitsets all meet the conditions, by
 * the features' bitsets (a row of code 0 has none of the others); -1: some
 * condition's feature has no bitsets. */
static int subset_meets(const dc_memo *m, const dc_subset *sub, const uint32_t *cond, size_t n_cond)
{
    if (!m->bits) return -1;
    for (size_t k = 0; k < n_cond; k++)
        if (m->bit_at[cond[k] >> 16] == SIZE_MAX) return -1;
    for (size_t t = 0, n = sub->nz ? sub->n_nz : m->words; t < n; t++) {
        const size_t w = sub->nz ? sub->nz[t] : t;
        uint64_t one = sub->one[w], x = sub->all[w] & (sub->v ? one : ~one);
        for (size_t k = 0; x && k < n_cond; k++) {
            const uint32_t f = cond[k] >> 16, v = cond[k] & 0xffff;
            const uint64_t *at = m->bits + m->bit_at[f] + w;
            if (v && (x & ~at[(v - 1) * m->words])) return 0;
            for (uint32_t u = 1; !v && u < m->k[f]; u++)
                if (x & at[(u - 1) * m->words]) return 0;
        }
    }
    return 1;
}

/* The stored conditions a[0 .. na) that are not among b[0 .. nb) nor `extra`
 * (both lists increasing), into out (room for DC_LACK_MAX); their number, or
 * SIZE_MAX when more than that.  The rows of branch b meet every stored
 * condition left out, so only these need checking (none: a hit at once, the
 * rows being as many as the stored branch selects): a key of conditions met
 * again is mostly the asking branch less one or two conditions, or one
 * swapped (one-hot: x = red for x != blue), where checking every condition
 * read the whole key's features for every word (kr-vs-kp one-hot, λ = 0.001:
 * a fifth of the search's time). */
#define DC_LACK_MAX 64
static size_t conds_lacking(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, uint32_t extra,
                            uint32_t *out)
{
    size_t j = 0, n = 0;
    for (size_t k = 0; k < na; k++) {
        if (a[k] == extra) continue;
        while (j < nb && b[j] < a[k]) j++;
        if (j < nb && b[j] == a[k]) continue;
        if (n == DC_LACK_MAX) return SIZE_MAX;
        out[n++] = a[k];
    }
    return n;
}

/* Whether the stored key of len rows holds exactly the subset's rows (len of
 * them: the subset's rows all stored, or the stored rows all in the subset,
 * is enough; a key of conditions selects len rows, so the subset's all
 * meeting them is enough: check[0 .. n_check), the stored conditions the
 * subset's rows may not meet, find). */
static bool subset_equal(const dc_memo *m, const dc_entry *e, const dc_subset *sub, const uint32_t *check,
                         size_t n_check)
{
    const uint32_t *key = m->keys + e->key;
    const size_t len = e->len;
    const bool cond = e->n_cond != DC_ROWS_KEY, bits = !cond && dense(m, len);
    if (sub->all && bits) { /* (as many rows: the subset's all stored is enough, read where it has rows) */
        for (size_t t = 0, n = sub->nz ? sub->n_nz : (bitset_words(m) + 1) / 2; t < n; t++) {
            const size_t w64 = sub->nz ? sub->nz[t] : t;
            for (size_t w = 2 * w64; w < 2 * w64 + 2 && w < bitset_words(m); w++)
                if (subset_word(sub, w) & ~key[w]) return false;
        }
        return true;
    }
    if (sub->all && cond) {
        int r = subset_meets(m, sub, check, n_check);
        if (r >= 0) return r;
        for (size_t w = 0; w < bitset_words(m); w++)
            for (uint32_t x = subset_word(sub, w); x; x &= x - 1)
                if (!meets(m, check, n_check, (uint32_t)(32 * w) + (uint32_t)__builtin_ctz(x))) return false;
        return true;
    }
    if (sub->all) {
        for (size_t t = 0; t < len; t++)
            if (!subset_has(sub, key[t])) return false;
        return true;
    }
    size_t j = 0;
    for (size_t t = 0; t < sub->n_items; t++) {
        uint32_t i = sub->items[t];
        if (sub->codes[i] != sub->v) continue;
        if (j == len) return false;
        if (cond ? !meets(m, check, n_check, i) : bits ? !has(key, i) : key[j] != i) return false;
        j++;
    }
    return j == len;
}

/* check, n_check: as subset_equal's. */
static bool rows_equal(const dc_memo *m, const dc_entry *e, const uint32_t *rows, const uint32_t *check,
                       size_t n_check)
{
    const uint32_t *key = m->keys + e->key;
    const size_t len = e->len;
    if (e->n_cond != DC_ROWS_KEY) {
        for (size_t t = 0; t < len; t++)
            if (!meets(m, check, n_check, rows[t])) return false;
        return true; /* len distinct rows, all selected by a branch that selects len */
    }
    if (!dense(m, len)) return !len || memcmp(key, rows, len * sizeof *rows) == 0;
    for (size_t t = 0; t < len; t++)
        if (!has(key, rows[t])) return false;
    return true; /* len distinct rows, all in a key of len */
}

/* The slot of (h, len, rem) whose rows equal `rows` (or the subset when rows
 * is NULL, or when the subset is given by bitsets: compared a word at a time),
 * else the empty slot ending its probe sequence, else (a full block) NULL. */
static dc_entry *find(const dc_memo *m, uint64_t h, size_t len, uint32_t rem, const uint32_t *rows,
                      const dc_subset *sub, const uint32_t *cond, size_t n_cond)
{
    if (sub && sub->all) rows = NULL;
    /* the branch asking (its rows all meet its conditions, and `extra`), when known */
    const uint32_t *asking = rows ? cond : sub->cond;
    const size_t n_asking = rows ? n_cond : sub->n_cond;
    const uint32_t extra = rows ? UINT32_MAX : sub->f << 16 | sub->v;
    const size_t bm = probe_mask(m, m->n_slots);
    size_t p = (size_t)h & (m->n_slots - 1);
    for (size_t i = 0; i <= bm; i++, p = next_slot(p, bm)) {
        dc_entry *e = &m->slots[p];
        if (!e->hash) return e;
        if (e->hash != h || e->len != len || e->rem != dc_entry_rem(rem)) continue;
        const uint32_t *check = NULL;
        size_t n_check = 0;
        uint32_t lack[DC_LACK_MAX];
        if (e->n_cond != DC_ROWS_KEY) { /* the rows asked for are as many as the stored branch selects */
            const uint32_t *key = m->keys + e->key;
            const size_t n = asking ? conds_lacking(key, e->n_cond, asking, n_asking, extra, lack) : SIZE_MAX;
            if (n == 0) return e; /* they all meet its conditions */
            check = n == SIZE_MAX ? key : lack, n_check = n == SIZE_MAX ? e->n_cond : n;
        }
        if (rows ? rows_equal(m, e, rows, check, n_check) : subset_equal(m, e, sub, check, n_check)) return e;
    }
    return NULL; /* a full block (m->blocked) without them */
}

/* Zeroed slots.  From HUGE_FROM bytes on they are a mapping of their own, in
 * transparent huge pages where the kernel offers them (madvise): lookups land
 * all over the table, and a miss in the TLB costs as much as one in the cache
 * (tic-tac-toe, DL8.5, lambda = 0.01: the prefetches were 11% of the time). */
#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_FROM ((size_t)2 << 20)

/* Transparent huge pages asked for the whole 2 MiB pages within [p, p + bytes)
 * (advice: without it, plain pages). */
static void advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    uintptr_t at = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1), end = (uintptr_t)p + bytes;
    if (end > at + HUGE_PAGE) (void)madvise((void *)at, (end - at) & ~(uintptr_t)(HUGE_PAGE - 1), MADV_HUGEPAGE);
#else
    (void)p, (void)bytes;
#endif
}

static dc_entry *slots_alloc(size_t n, void **map, size_t *map_len)
{
    size_t bytes = n * sizeof(dc_entry);
    *map = NULL;
    *map_len = 0;
    if (bytes < HUGE_FROM) return calloc(n, sizeof(dc_entry));
    size_t huge = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE, len = huge + HUGE_PAGE;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    *map = p;
    *map_len = len;
    uintptr_t at = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    advise_huge((void *)at, huge);
    return (dc_entry *)at;
}

static void slots_free(dc_entry *slots, void *map, size_t map_len)
{
    if (map) munmap(map, map_len);
    else free(slots);
}

static bool grow(dc_memo *m)
{
    size_t n_slots = m->n_slots ? 2 * m->n_slots : 4096;
    size_t add = n_slots * sizeof(dc_entry) - m->n_slots * sizeof(dc_entry);
    if (m->bytes + add > m->limit) return false;
    void *map, *old_map = m->map;
    size_t map_len, old_len = m->map_len;
    dc_entry *slots = slots_alloc(n_slots, &map, &map_len), *old = m->slots;
    if (!slots) return false;
    size_t old_n = m->n_slots;
    /* (the slots before their number: dc_memo_prefetch reads both without the lock) */
    __atomic_store_n(&m->slots, slots, __ATOMIC_RELAXED);
    __atomic_store_n(&m->n_slots, n_slots, __ATOMIC_RELEASE);
    m->map = map;
    m->map_len = map_len;
    if (m->locks && m->blocked && old_n >= 2 * DC_BLOCK) /* (blocks: with threads, by runs) */
        m->used -= move_all(m, old, old_n, slots, n_slots), m->moved_by_runs++;
    else
        for (size_t p = 0; p < old_n; p++) /* keys are distinct: the first free slot of the sequence */
            if (old[p].hash && !place(m, slots, n_slots, &old[p])) m->used--;
    slots_free(old, old_map, old_len);
    m->bytes += add;
    return true;
}

/* The key store, from the first key on: one mapping as large as the memo's
 * limit lets keys grow (address space only: a page is made when a key is
 * first written to it), so it never moves.  Moved by realloc, it was copied
 * with every block held while the threads waited (australian-credit, DL8.5,
 * λ = 0.01, two threads: 1.7 s of the first 25).  NULL when the kernel gives
 * no such mapping (the store is then realloc's). */
static uint32_t *keys_map(size_t limit, size_t *bytes)
{
    const uint64_t most = (uint64_t)UINT32_MAX * sizeof(uint32_t); /* (keys are found by 32-bit places) */
    size_t len = limit < most ? limit : (size_t)most;
    len = (len + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    *bytes = len;
    /* keys are read all over too, to check every hash match (anneal, DL8.5, λ = 0.01: the
     * first word of a bitset key compared was 8 % of the time) */
    advise_huge(p, len);
    return p;
}

static bool reserve_keys(dc_memo *m, size_t len)
{
    if (m->n_keys + len > UINT32_MAX) return false;
    if (m->n_keys + len <= m->cap_keys) return true;
    size_t cap = m->cap_keys ? 2 * m->cap_keys : 65536;
    while (cap < m->n_keys + len) cap *= 2;
    /* near the limit, what is left of it (doubling past it would end the search early) */
    size_t room = m->bytes < m->limit ? m->cap_keys + (m->limit - m->bytes) / sizeof *m->keys : m->cap_keys;
    if (cap > room && room >= m->n_keys + len) cap = room;
    size_t add = (cap - m->cap_keys) * sizeof *m->keys;
    if (m->bytes + add > m->limit) return false;
    if (!m->keys) m->keys = keys_map(m->limit, &m->keys_map);
    if (m->keys_map) { /* (the memo counts the store's room as memory it takes, as before) */
        if (cap * sizeof *m->keys > m->keys_map) return false;
    } else {
        uint32_t *keys = realloc(m->keys, cap * sizeof *keys);
        if (!keys) return false;
        advise_huge(keys, cap * sizeof *keys);
        m->keys = keys;
    }
    m->cap_keys = cap;
    m->bytes += add;
    return true;
}

static bool dc_memo_collect(dc_memo *m);

dc_entry *dc_memo_get(dc_memo *m, const uint32_t *rows, size_t len, uint32_t rem, const uint32_t *cond,
                      size_t n_cond, bool create)
{
    return dc_memo_get_at(m, 0, rows, len, rem, cond, n_cond, NULL, create);
}

/* The Debug builds: a hash given is the rows' (or the subset's, rows NULL). */
static void check_hash(const dc_memo *m, uint64_t h, const uint32_t *rows, size_t len, uint32_t rem,
                       const dc_subset *sub)
{
#ifndef NDEBUG
    uint32_t *listed = rows ? NULL : malloc((len ? len : 1) * sizeof *listed);
    assert(rows || (listed && subset_rows(m, sub, listed) == len));
    assert(h == hash_rows(m, rows ? rows : listed, len, rem));
    free(listed);
#else
    (void)m, (void)h, (void)rows, (void)len, (void)rem, (void)sub;
#endif
}

/* Room for one more entry of `words` key words (false: the memo may grow
 * no more, and a collection would free too little).  With threads, every
 * block is held. */
static bool make_room(dc_memo *m, size_t words)
{
    if (m->collect_at && m->used >= m->collect_at && !dc_memo_collect(m)) /* (tests) */
        m->collect_at = 2 * m->used;
    if (((m->used + 1) * 2 > m->n_slots && !grow(m)) || !reserve_keys(m, words)) {
        /* at the limit: collected (and every pointer into the table is stale) */
        if (!dc_memo_collect(m) || (m->used + 1) * 2 > m->n_slots || !reserve_keys(m, words)) return false;
    }
    return true;
}

/* Whether an entry of `words` key words fits as the memo is (held: its block). */
static bool has_room(const dc_memo *m, size_t words)
{
    const size_t used = __atomic_load_n(&m->used, __ATOMIC_RELAXED);
    return !(m->collect_at && used >= m->collect_at) && (used + 1) * 2 <= m->n_slots &&
           __atomic_load_n(&m->n_keys, __ATOMIC_RELAXED) + words <= m->cap_keys;
}

dc_entry *dc_memo_get_at(dc_memo *m, uint64_t h, const uint32_t *rows, size_t len, uint32_t rem,
                         const uint32_t *cond, size_t n_cond, const dc_subset *sub, bool create)
{
    assert(rows || (h && sub && sub->all)); /* (rows NULL: the subset's bitsets give them) */
    if (!h) h = hash_rows(m, rows, len, rem);
    else check_hash(m, h, rows, len, rem, sub);
    hold(m, h);
    if (m->n_slots) {
        dc_entry *e = find(m, h, len, rem, rows, sub, cond, n_cond);
        if (!e || e->hash || !create) return e && e->hash ? e : NULL; /* (NULL: a full block) */
    } else if (!create) {
        return NULL;
    }
    /* a short key of rows is checked faster than conditions (tic-tac-toe one-hot, 958 rows, λ = 0.001:
     * 5.2 s of CPU with every key of conditions, 4.3 s without, loaded) */
    const bool by_cond =
        cond && m->x && n_cond < DC_ROWS_KEY &&
        (m->keys_by ? m->keys_by == 2 : key_words(m, len) >= COND_FROM && n_cond < key_words(m, len));
    const size_t words = by_cond ? n_cond : key_words(m, len);
    uint32_t *key;
    for (;;) {
        if (!m->locks) {
            if (!make_room(m, words)) return __atomic_store_n(&m->full, true, __ATOMIC_RELAXED), NULL;
            key = m->keys + m->n_keys;
            m->n_keys += words;
            break;
        }
        if (has_room(m, words)) { /* the key's words taken (the thread beside may take some too) */
            size_t at = __atomic_load_n(&m->n_keys, __ATOMIC_RELAXED);
            while (at + words <= m->cap_keys &&
                   !__atomic_compare_exchange_n(&m->n_keys, &at, at + words, true, __ATOMIC_RELAXED,
                                                __ATOMIC_RELAXED)) {
            }
            if (at + words <= m->cap_keys) {
                key = m->keys + at;
                break;
            }
        }
        dc_memo_unlock(m); /* every block held to move the table or the keys */
        hold_all(m);
        const bool room = make_room(m, words);
        let_all_go(m);
        hold(m, h);
        if (!room) return __atomic_store_n(&m->full, true, __ATOMIC_RELAXED), NULL;
        dc_entry *e = find(m, h, len, rem, rows, sub, cond, n_cond); /* (the thread beside may have made it) */
        if (!e || e->hash) return e;
    }
    dc_entry *e = find(m, h, len, rem, rows, sub, cond, n_cond);
    if (!e) return NULL; /* a full block: not kept (its key's words go unused) */
    if (by_cond) {
        if (n_cond) memcpy(key, cond, n_cond * sizeof *cond);
    } else if (!rows && dense(m, len)) {
        for (size_t w = 0; w < words; w++) key[w] = subset_word(sub, w);
    } else if (!rows) {
        size_t n = subset_rows(m, sub, key);
        assert(n == len);
        (void)n;
    } else if (dense(m, len)) {
        memset(key, 0, words * sizeof *key);
        for (size_t t = 0; t < len; t++) key[rows[t] >> 5] |= UINT32_C(1) << (rows[t] & 31);
    } else if (len) {
        memcpy(key, rows, len * sizeof *rows);
    }
    *e = (dc_entry){.hash = h, .key = (uint32_t)(key - m->keys), .len = (uint32_t)len, .rem = dc_entry_rem(rem),
                    .n_cond = by_cond ? (uint16_t)n_cond : DC_ROWS_KEY, .feature = DC_ENTRY_LEAF};
    if (m->locks) __atomic_fetch_add(&m->used, 1, __ATOMIC_RELAXED);
    else m->used++;
    return e;
}

dc_entry *dc_memo_again(dc_memo *m, const dc_entry *was, uint64_t gen, bool *stale)
{
    hold(m, was->hash);
    *stale = m->gen != gen;
    if (*stale || !m->n_slots) return NULL;
    const size_t bm = probe_mask(m, m->n_slots);
    size_t p = (size_t)was->hash & (m->n_slots - 1);
    for (size_t i = 0; i <= bm; i++, p = next_slot(p, bm)) {
        dc_entry *e = &m->slots[p];
        if (!e->hash) return NULL;
        if (e->hash == was->hash && e->key == was->key && e->len == was->len && e->rem == was->rem) return e;
    }
    return NULL;
}

dc_entry *dc_memo_find_subset(dc_memo *m, uint64_t h, size_t len, uint32_t rem, const dc_subset *sub)
{
    hold(m, h);
    if (!m->n_slots) return NULL;
    dc_entry *e = find(m, h, len, rem, NULL, sub, NULL, 0);
    return e && e->hash ? e : NULL;
}

void dc_memo_prefetch(const dc_memo *m, uint64_t h)
{
#if defined(__GNUC__)
    /* (without the lock: another thread may be moving the table, and a prefetch never faults) */
    const size_t n = __atomic_load_n(&m->n_slots, __ATOMIC_ACQUIRE);
    const dc_entry *slots = __atomic_load_n(&m->slots, __ATOMIC_RELAXED);
    if (n) __builtin_prefetch(&slots[(size_t)h & (n - 1)]);
#else
    (void)m, (void)h;
#endif
}

void dc_memo_prefetch_key(const dc_memo *m, uint64_t h)
{
#if defined(__GNUC__)
    if (m->locks || !m->n_slots) return; /* (threads: the table may be moving) */
    const dc_entry *e = &m->slots[(size_t)h & (m->n_slots - 1)];
    if (e->hash != h) return;
    const uint32_t *key = m->keys + e->key;
    __builtin_prefetch(key);
    __builtin_prefetch(key + 16);
#else
    (void)m, (void)h;
#endif
}

/* The words of e's key. */
static size_t entry_words(const dc_memo *m, const dc_entry *e)
{
    return e->n_cond != DC_ROWS_KEY ? e->n_cond : key_words(m, e->len);
}

static int by_key(const void *a, const void *b)
{
    const dc_entry *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

/* Whether a collection keeps e: an incumbent; an optimum, when `optima`;
 * else an entry of a region of at least `least` rows. */
static bool keeps(const dc_entry *e, bool optima, size_t least)
{
    return e->hash && (e->incumbent || (optima && e->solved) || e->len >= least);
}

/* The fewest rows of a region whose entry a collection keeps (`optima`: all
 * optima kept besides) so that it keeps at most a third of the entries, and
 * in *keep how many it keeps; 0: those kept without regard to size are more. */
static size_t least_kept(const dc_memo *m, bool optima, size_t *keep)
{
    size_t *count = calloc(m->n_rows + 1, sizeof *count), kept = 0;
    if (!count) return 0;
    for (size_t p = 0; p < m->n_slots; p++) {
        const dc_entry *e = &m->slots[p];
        assert(e->len <= m->n_rows);
        if (e->hash && (e->incumbent || (optima && e->solved))) kept++;
        else if (e->hash) count[e->len]++;
    }
    size_t least = m->n_rows + 1;
    while (least > 1 && kept + count[least - 1] <= m->used / 3) kept += count[--least];
    free(count);
    *keep = kept;
    return kept <= m->used / 3 ? least : 0;
}

/* When the memo may grow no more: keeps a third of its entries at most —
 * its optima while they are that few, with the lower bounds of its largest
 * regions; else the entries of its largest regions — and every incumbent,
 * and drops the rest.  An entry is a fact the search can find again, so
 * dropping one costs time, never a wrong answer (the tree's rebuild solves
 * again a region whose optimum went).  The keys kept are packed and m->gen
 * counts the collection (entries found before it may have moved:
 * dc_memo_again).  False, with nothing changed, when that would free less
 * than a quarter of the entries (incumbents fill the memo) or memory for
 * the copy is lacking. */
static bool dc_memo_collect(dc_memo *m)
{
    if (!m->n_slots) return false;
    /* Every optimum stays while they are a third of the entries or fewer, and the lower bounds of the
     * largest regions up to that third: the search finds a large region's bound again at the most cost
     * (australian-credit, DL8.5, λ = 0.012, --memo-mb 128, one thread: 994 065 evaluations keeping no
     * bound, 753 753 keeping these; 558 365 with room).  Past that third, the largest regions' entries
     * of either kind; an optimum dropped that the tree needs is found again as it is rebuilt
     * (build_node).  Incumbents (a stopped search's best splits) always stay. */
    bool optima = true;
    size_t keep, least = least_kept(m, true, &keep);
    if (!least) optima = false, least = least_kept(m, false, &keep);
    if (!least || 4 * (m->used - keep) < m->used) return false;
    dc_entry *kept = malloc((keep ? keep : 1) * sizeof *kept);
    if (!kept) return false;
    size_t n = 0;
    for (size_t p = 0; p < m->n_slots; p++)
        if (keeps(&m->slots[p], optima, least)) kept[n++] = m->slots[p];
    /* keys packed in the order they were made: each moves down, never over one not yet moved */
    qsort(kept, n, sizeof *kept, by_key);
    size_t at = 0;
    for (size_t t = 0; t < n; t++) {
        const size_t words = entry_words(m, &kept[t]);
        if (words && at != kept[t].key) memmove(m->keys + at, m->keys + kept[t].key, words * sizeof *m->keys);
        kept[t].key = (uint32_t)at;
        at += words;
    }
    memset(m->slots, 0, m->n_slots * sizeof *m->slots);
    size_t placed = 0;
    for (size_t t = 0; t < n; t++) placed += place(m, m->slots, m->n_slots, &kept[t]); /* (keys are distinct) */
    free(kept);
    m->used = placed;
    m->n_keys = at;
    __atomic_store_n(&m->gen, m->gen + 1, __ATOMIC_RELAXED);
    return true;
}

void dc_memo_each(const dc_memo *m, void (*visit)(void *user, const uint32_t *rows, const dc_entry *e), void *user)
{
    uint32_t *rows = malloc((m->n_rows ? m->n_rows : 1) * sizeof *rows);
    if (!rows) return;
    for (size_t p = 0; p < m->n_slots; p++) {
        const dc_entry *e = &m->slots[p];
        if (!e->hash) continue;
        const uint32_t *key = m->keys + e->key;
        size_t n = 0;
        if (e->n_cond != DC_ROWS_KEY) {
            for (uint32_t i = 0; i < m->n_rows; i++)
                if (meets(m, key, e->n_cond, i)) rows[n++] = i;
        } else if (dense(m, e->len)) {
            for (uint32_t i = 0; i < m->n_rows; i++)
                if (has(key, i)) rows[n++] = i;
        } else {
            memcpy(rows, key, e->len * sizeof *rows), n = e->len;
        }
        assert(n == e->len);
        visit(user, rows, e);
    }
    free(rows);
}

void dc_memo_clear(dc_memo *m)
{
    slots_free(m->slots, m->map, m->map_len);
    if (m->keys_map) munmap(m->keys, m->keys_map);
    else free(m->keys);
    *m = (dc_memo){.limit = m->limit, .n_rows = m->n_rows, .salt = m->salt, .x = m->x, .nf = m->nf, .k = m->k,
                   .bits = m->bits, .bit_at = m->bit_at, .words = m->words, .keys_by = m->keys_by,
                   .collect_at = m->collect_at};
}

void dc_memo_knobs(dc_memo *m)
{
    const char *keys = getenv("PDT_DISCRETE_KEYS");
    m->keys_by = !keys ? 0 : !strcmp(keys, "rows") ? 1 : !strcmp(keys, "branch") ? 2 : 0;
    const char *collect = getenv("PDT_DISCRETE_COLLECT");
    m->collect_at = collect ? strtoull(collect, NULL, 10) : 0;
}
