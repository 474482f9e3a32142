/* Root work shared over processes (issue 13): the hook an MPI driver
 * (cli/mpi/pdt_mpi.c) installs so that the searches that split their root
 * work — the engine's root candidates, the hypersurface backend's root
 * tuples — split it over ranks as well as threads.
 *
 * Every rank runs the same program on the same data, so every rank reaches
 * the same root loops in the same order with the same number n of positions
 * (candidates or tuples in a fixed order).  A loop is: begin(n) (collective);
 * next() chunks of positions for this rank until none is left; share() its
 * best value now and then (non-blocking in spirit: the answer may be stale);
 * finish() (collective): the least (value, position) of all ranks, so ties go
 * to the first position — the serial search's choice.  next and share are
 * called by one thread of a rank at a time.  Values are int64 (misclassified
 * weight): searches over other values stay serial on every rank. */
#ifndef PDT_PARALLEL_H
#define PDT_PARALLEL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether *stop (pdt_fit_options.stop; NULL: never) asks a search to end.
 * Read atomically: besides a signal handler, another thread may set it (a
 * caller's, or a binding's: the searches themselves poll it on several). */
static inline bool pdt_stop_requested(const volatile sig_atomic_t *stop)
{
    return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

typedef struct pdt_distributor {
    int rank, size;
    void *user;
    /* Collective: true when every rank says true. */
    bool (*agree)(void *user, bool mine);
    /* Collective: a loop over n positions starts, handed out in chunks of about `chunk`. */
    void (*begin)(void *user, uint64_t n, uint64_t chunk);
    /* The next chunk [*lo, *hi) of this rank's positions; false when none is left. */
    bool (*next)(void *user, uint64_t *lo, uint64_t *hi);
    /* Publishes this rank's best value; returns the least value any rank published. */
    int64_t (*share)(void *user, int64_t mine);
    /* Collective: *value, *pos := the least (value, pos) over the ranks
     * (INT64_MAX, UINT64_MAX from a rank without any); *complete := all
     * complete; *work (this rank's work count) := the largest over the ranks,
     * *total := their sum. */
    void (*finish)(void *user, int64_t *value, uint64_t *pos, bool *complete, uint64_t *work,
                   uint64_t *total);
    /* Collective, in place: n elements of buf combined over the ranks element
     * by element (PDT_COMBINE_*), so that work split over ranks (a table each
     * rank filled in part) is whole on every rank. */
    void (*combine)(void *user, void *buf, uint64_t n, int how);
    /* Collective: every rank's `bytes` bytes at mine, concatenated in rank
     * order into a new allocation (NULL when out of memory); *total its size. */
    void *(*gather)(void *user, const void *mine, uint64_t bytes, uint64_t *total);
    /* Owned work with stealing (the engine's root loop, whose positions each
     * rank assigns to ranks itself).  Collective: this rank's own list has
     * `mine` entries.  own_next: a chunk [*lo, *hi) of at most `chunk`
     * entries of rank *owner's list — this rank's own from the front while
     * any is left, then others' from the back; false when every list is
     * empty.  Each entry goes to exactly one rank.  May be NULL (no stealing:
     * each rank solves its own list). */
    void (*own_begin)(void *user, uint64_t mine);
    bool (*own_next)(void *user, uint64_t chunk, int *owner, uint64_t *lo, uint64_t *hi);
    /* Hints between ranks (the hypersurface backend's root partitions met):
     * post sends `bytes` bytes to every other rank without waiting; poll
     * hands every message received since to take(); drain (collective) ends
     * an exchange — what was posted before it is delivered to a poll or
     * dropped, none reaches a later exchange.  A hint may be late or lost:
     * it may only save work.  May be NULL. */
    void (*post)(void *user, const void *buf, uint64_t bytes);
    void (*poll)(void *user, void (*take)(void *arg, const void *buf, uint64_t bytes), void *arg);
    void (*drain)(void *user);
    /* Collective: as begin, but every chunk handed out in order, none in
     * static blocks, so that the ranks stay side by side in the order (for
     * loops whose workers skip what another met at an earlier position: a
     * rank running ahead meets first, at later positions, what the one
     * behind must then try again).  May be NULL: begin. */
    void (*begin_in_order)(void *user, uint64_t n, uint64_t chunk);
} pdt_distributor;

enum {
    PDT_COMBINE_OR = 0,   /* uint64_t, bitwise or */
    PDT_COMBINE_MIN = 1,  /* int64_t, least */
    PDT_COMBINE_MAXB = 2, /* uint8_t, largest */
};

/* Installs d (NULL: none) for every later search of the process. */
void pdt_distributor_set(const pdt_distributor *d);
const pdt_distributor *pdt_distributor_get(void);

/* Threads to use for a request (0: every core, OMP_NUM_THREADS honoured). */
unsigned pdt_threads_resolve(uint32_t requested);
/* Root work below this many item visits (positions × items) stays on one
 * thread: a parallel region costs more than it saves, and idle OpenMP
 * threads spin.  $PDT_PARALLEL_MIN overrides (the tests set 0). */
uint64_t pdt_parallel_min(void);

/* n zeroed elements of `size` bytes (NULL: out of memory), every page already
 * written.  For tables that threads probe before they write: calloc's fresh
 * pages, read first, map the kernel's shared zero page, and the first write to
 * each must then flush that mapping from every core running the process (an
 * interprocessor interrupt per page).  The binary backend's caches, two
 * threads on australian-credit at depth 5: 2.3 % of the samples in those
 * interrupts before, none after.  (Not in transparent
 * huge pages: asking for them made the allocation of the team's 4 MiB board
 * take 6–13 ms instead of 0.6 in one run of three, the kernel compacting
 * memory to find them, and the board probed from 4 kB pages was as fast.) */
void *pdt_calloc_written(size_t n, size_t size);

/* Chunks of a root loop over n positions handed out to the threads of one
 * process, or to the ranks when a distributor is installed (its policy:
 * cli/mpi/pdt_mpi.c hands out static blocks, then the rest dynamically).
 * Each thread receives increasing chunks (the last few smaller, so that the
 * workers finish together); with PDT_WORK_LAST_FIRST=1 in the
 * environment (the tests; threads only) the last chunk goes first, so that
 * every threaded run depends on ties being resolved by position.
 * pdt_work_next is thread-safe. */
typedef struct pdt_work {
    const pdt_distributor *dist;
    uint64_t n, chunk;
    bool last_first;
    _Atomic uint64_t next; /* without a distributor: the next position handed out */
} pdt_work;

void pdt_work_begin(pdt_work *w, const pdt_distributor *dist, uint64_t n, uint64_t chunk);
/* The same, the ranks' chunks handed out in order (begin_in_order). */
void pdt_work_begin_in_order(pdt_work *w, const pdt_distributor *dist, uint64_t n, uint64_t chunk);
bool pdt_work_next(pdt_work *w, uint64_t *lo, uint64_t *hi);

#endif
