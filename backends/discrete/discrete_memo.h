/* The branch search's memo (discrete_memo.c): what is known of a region of
 * the data — its optimum, or a lower bound — keyed by its rows in increasing
 * order and the depth left (PDT_UNLIMITED without a depth limit).  Every
 * branch describing the same rows shares one entry (one-hot conjunctions
 * often do).  Keys are kept whole and compared on every hash match: a hit
 * is exact, never a probable one.  Internal to backends/discrete/. */
#ifndef PDT_DISCRETE_MEMO_H
#define PDT_DISCRETE_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 32 bytes, two to a cache line (kr-vs-kp multiway, λ = 0.001: 10.2 million
 * entries in a table of 2^25 slots, 1.5 GiB at 48 bytes). */
typedef struct dc_entry {
    uint64_t hash;
    int64_t lb;         /* the optimum is at least lb; solved: the optimum */
    uint32_t key, len;  /* len rows; the key at keys[key ..): the rows listed, a bitset of n_rows bits, or
                           the conditions of a branch selecting them, whichever is shortest */
    uint16_t feature;   /* solved: the best split, DC_ENTRY_LEAF for a leaf (features are < 65535) */
    uint16_t rem;       /* depth left, dc_entry_rem */
    uint16_t n_cond;    /* DC_ROWS_KEY: the key is rows; else n_cond conditions f << 16 | v (the branch) */
    bool solved : 1;
    bool incumbent : 1; /* stopped: feature is the best complete split found (its children solved) */
    bool looked : 1;    /* lb includes the region's own look-ahead bound */
} dc_entry;

_Static_assert(sizeof(dc_entry) <= 32, "a memo entry fits half a cache line");

#define DC_ROWS_KEY UINT16_MAX
#define DC_ENTRY_LEAF UINT16_MAX

/* Depth left as an entry keeps it: more than 65534 levels (PDT_UNLIMITED
 * among them) as UINT16_MAX, all alike since a branch has fewer conditions
 * than the 65535 features a search may have. */
static inline uint16_t dc_entry_rem(uint32_t rem) { return rem >= UINT16_MAX ? UINT16_MAX : (uint16_t)rem; }

typedef struct dc_memo {
    /* (cache lines: every lookup reads these fields; what every new entry moves, used and n_keys
     * below, is on lines of its own, else with threads each insertion by one would cost the
     * other's next lookup a miss) */
    _Alignas(64) dc_entry *slots; /* open addressing; hash 0 marks an empty slot */
    size_t n_slots;
    void *map;          /* the mapping holding slots (NULL: slots came from calloc) */
    size_t map_len;
    uint32_t *keys;
    size_t cap_keys;
    size_t keys_map;    /* bytes of the mapping holding keys (0: they came from realloc) */
    size_t n_rows;      /* of the data: rows are < n_rows */
    const uint64_t *salt;     /* a salt for each word of 64 rows (the caller's; NULL: every hash is 0, tests) */
    const uint16_t *x;        /* n_rows * nf codes, row by row (the caller's): checks keys of conditions */
    size_t nf;
    const uint16_t *k;        /* nf: codes of a feature are < k[f] */
    const uint64_t *bits;     /* or NULL: the rows of code v >= 1 of feature f at bits + bit_at[f] + (v - 1) * words */
    const size_t *bit_at;     /* nf; SIZE_MAX: feature f has no bitsets */
    size_t words;             /* 64-bit words of a bitset of n_rows */
    int keys_by;              /* 0: the shortest key; tests: 1 rows always, 2 a branch whenever given */
    size_t collect_at;        /* tests: a collection when this many entries are held (0: only when full;
                                 a collection: dc_memo_collect in discrete_memo.c) */
    size_t bytes, limit;
    bool full;                /* (read and written atomically: a thread may read it without the lock) */
    uint64_t moved_by_runs;   /* growths whose entries were moved by runs, with threads (grow; tests) */
    uint64_t helped_runs;     /* runs moved by a thread waiting for a lock (tests) */
    bool helped;              /* tests: a growth by runs waits for such a thread to take the first */
    uint64_t gen;             /* collections so far (a full memo drops what can be found again, keeps its
                                 optima while it can and packs its keys): an entry's place is kept within one */
    struct dc_memo_locks *locks; /* while threads share the memo (dc_memo_share), else NULL */
    bool blocked;             /* probes stay within a block of DC_BLOCK slots (threads have shared it) */
    _Alignas(64) size_t used; /* entries held */
    _Alignas(64) size_t n_keys; /* key words used (the last member: the struct ends with its line) */
} dc_memo;

static inline bool dc_memo_full(const dc_memo *m) { return __atomic_load_n(&m->full, __ATOMIC_RELAXED); }
static inline uint64_t dc_memo_gen(const dc_memo *m) { return __atomic_load_n(&m->gen, __ATOMIC_RELAXED); }

/* Threads sharing the memo (a proof on two threads, discrete.c).  From
 * dc_memo_share on, the table is cut in blocks of DC_BLOCK slots, a probe
 * sequence never leaves its block (m->blocked), and a block is guarded by a
 * spin lock (one of a few hundred, each on a cache line of its own).  Every call that looks up an entry —
 * dc_memo_get, dc_memo_get_at, dc_memo_again, dc_memo_find_subset — returns
 * with its block held by the calling thread (whatever it returns), and the
 * caller lets it go with dc_memo_unlock once done with the entry, before
 * any other call: a thread holds one block at most.  What moves entries or
 * keys — a larger table, a collection (and a larger key store where the
 * kernel gives no mapping to hold it) — holds every block; the threads
 * waiting for a lock meanwhile help move a table's entries to a larger one.
 * One thread: no locks, and dc_memo_unlock does nothing.
 * dc_memo_share returns false (nothing changed) when out of memory. */
#define DC_BLOCK 4096
bool dc_memo_share(dc_memo *m);
void dc_memo_unshare(dc_memo *m);
void dc_memo_let_go(dc_memo *m);
static inline void dc_memo_unlock(dc_memo *m)
{
    if (m->locks) dc_memo_let_go(m);
}
/* The bytes the memo may still take. */
size_t dc_memo_room(dc_memo *m);

/* A key's hash is a sum over the words of 64 rows of its rows' bitset: each
 * word that holds some of them hashed with that word's pair of salts
 * (dc_word_hash), then mixed with its length and depth left
 * (dc_hash_final).  A sum needs no order: a region held as bitsets is hashed
 * a word at a time, one listed by its rows in one pass.  And each word's
 * hash is additive over disjoint rows — x·r + bswap(x)·s modulo 2^64, where
 * rows disjoint in a word add as integers, byte-swapped too — so a split's
 * two children sum to their parent: one child is hashed, the other is its
 * parent less it (kr-vs-kp one-hot, λ = 0.001: both children hashed by
 * splitmix64's finaliser were a seventh of the search's time).  The swap
 * gives every row of a word 33 or more random bits (a row at bit b of x is
 * r·2^b plus s at byte 7 − b/8). */
static inline uint64_t dc_bswap64(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_bswap64(x);
#else
    x = (x & UINT64_C(0x00ff00ff00ff00ff)) << 8 | (x >> 8 & UINT64_C(0x00ff00ff00ff00ff));
    x = (x & UINT64_C(0x0000ffff0000ffff)) << 16 | (x >> 16 & UINT64_C(0x0000ffff0000ffff));
    return x << 32 | x >> 32;
#endif
}
static inline uint64_t dc_word_hash(const uint64_t *salt, size_t w, uint64_t x)
{
    if (!salt) return 0;
    return x * salt[2 * w] + dc_bswap64(x) * salt[2 * w + 1];
}
/* The sum of dc_word_hash over the words of rows[0 .. len) (increasing). */
uint64_t dc_hash_sum(const uint64_t *salt, const uint32_t *rows, size_t len);
uint64_t dc_hash_final(uint64_t sum, size_t len, uint32_t rem);
/* Fills salt[0 .. 2 * words) with fixed pseudo-random words; false (nothing
 * filled: hash with salt NULL) when the environment has
 * PDT_DISCRETE_WEAK_HASH: for tests, every region of a size and depth left
 * then has one hash, and every hit rests on its key's check. */
bool dc_salt_fill(uint64_t *salt, size_t words);

/* A subset of a region given without its rows: the items (increasing) whose
 * code (codes[item], one feature's column) is v.  For a two-valued feature
 * it may also be given by bitsets (64 rows a word): the region's rows `all`
 * and the feature's rows of code 1 `one` (else both NULL). */
typedef struct dc_subset {
    const uint32_t *items;
    size_t n_items;
    const uint16_t *codes;
    uint32_t v;
    const uint64_t *all, *one;
    const uint32_t *nz;     /* with all, or NULL: the words of all (64 rows each) that hold rows, n_nz */
    size_t n_nz;
    const uint32_t *cond;   /* or NULL: the region's branch (n_cond conditions), the subset's with (f, v) */
    size_t n_cond;
    uint32_t f;
} dc_subset;

/* The entry of rows[0 .. len) with rem levels left, created (lb 0, unsolved,
 * feature DC_LEAF) when absent and `create`; NULL when absent and not
 * created, or when the memo may grow no more (then m->full).  cond[0 .. n_cond)
 * (f << 16 | v, increasing f; or NULL when not creating): a branch whose
 * conditions select exactly these rows among all n_rows.  A region of
 * many rows is then kept as its branch (a few words, not a bitset of every
 * row); a match is still exact: the rows asked for all meet the conditions,
 * and are as many as the conditions select — at once when the stored
 * conditions are among the branch's. */
dc_entry *dc_memo_get(dc_memo *m, const uint32_t *rows, size_t len, uint32_t rem, const uint32_t *cond,
                      size_t n_cond, bool create);
/* dc_memo_get with the rows' hash h already known (0: not) and, when sub
 * gives the same rows by bitsets (all, one), keys compared with those a word
 * at a time, not a row at a time (else sub is not used); rows may then be
 * NULL when h is known (a key made is made from the bitsets). */
dc_entry *dc_memo_get_at(dc_memo *m, uint64_t h, const uint32_t *rows, size_t len, uint32_t rem,
                         const uint32_t *cond, size_t n_cond, const dc_subset *sub, bool create);
/* The entry `was` (a copy of it) after the table may have moved, or NULL:
 * found by its place in the key store, which no other entry of its hash,
 * size and depth left shares, so no rows are compared.  Only while m->gen
 * is `gen`, what it was: a collection moves keys (and may drop the entry);
 * else NULL and *stale. */
dc_entry *dc_memo_again(dc_memo *m, const dc_entry *was, uint64_t gen, bool *stale);
/* The entry of a subset of len rows whose final hash is h, or NULL. */
dc_entry *dc_memo_find_subset(dc_memo *m, uint64_t h, size_t len, uint32_t rem, const dc_subset *sub);
/* Starts loading the slot of hash h (a later find need not wait for memory). */
void dc_memo_prefetch(const dc_memo *m, uint64_t h);
/* Once that slot is loaded: starts loading the key of the entry there when it
 * has hash h (the find that follows compares it). */
void dc_memo_prefetch_key(const dc_memo *m, uint64_t h);
/* Every entry with its rows (e->len of them, increasing): the tests' audit (dc_problem.audit). */
void dc_memo_each(const dc_memo *m, void (*visit)(void *user, const uint32_t *rows, const dc_entry *e), void *user);
void dc_memo_clear(dc_memo *m); /* frees everything; the limit and what the caller gave are kept */
/* The test knobs of the environment: PDT_DISCRETE_WEAK_HASH (dc_salt_fill),
 * PDT_DISCRETE_KEYS=rows|branch (keys_by) and PDT_DISCRETE_COLLECT=n
 * (collect_at; a collection that frees too little doubles it). */
void dc_memo_knobs(dc_memo *m);

#endif
