/* The root partitions met, told to the other ranks (issue 13).
 *
 * The threads of one process share one set of root partitions met, each with
 * the first position it was tried at (hypersurface_two.c, consider_root): a
 * partition met again at a later position is skipped — it gives the same
 * trees there, and ties go to the earlier position.  Ranks used to keep a set
 * each, and on conics K = 2 every rank tried almost every partition: N = 60,
 * 341 281 partitions tried serially, 339 393 and 339 726 by two ranks.  Each
 * try costs the children's certificate bounds, and at N = 80 two ranks used
 * 33 % more CPU than one process.
 *
 * Now each rank posts the partitions it tries, with their positions, to the
 * other ranks after every chunk of tuples, and enters theirs into its own
 * set.  Skipping a partition another rank tried at an earlier position p' is
 * safe for the same reason as between threads: that rank tried it against
 * its best (v, q) at the time, which is at least the final winner in
 * (value, position) order; a tree from the partition at p' that it did not
 * keep is no better than (v, q), and the same tree at a later position is
 * worse still.  A hint that comes late only costs the try it would have
 * saved; one lost (out of memory) costs nothing else. */
#include <stdlib.h>
#include <string.h>

#include "hypersurface_solve_impl.h"

/* Notes partition `key` tried at `pos` (the caller holds hss_seen). */
void hss_hints_note(hss_hints *x, const uint64_t *key, int64_t pos)
{
    const size_t entry = 1 + x->words;
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 256;
        uint64_t *buf = realloc(x->buf, cap * entry * sizeof *buf);
        if (!buf) return; /* a hint lost */
        x->buf = buf;
        x->cap = cap;
    }
    uint64_t *at = x->buf + x->n++ * entry;
    at[0] = (uint64_t)pos;
    memcpy(at + 1, key, x->words * sizeof *key);
}

typedef struct take_arg {
    hss_map *seen;
    size_t words;
} take_arg;

/* Another rank's message: its partitions, entered at their positions. */
static void take(void *arg, const void *buf, uint64_t bytes)
{
    take_arg *a = arg;
    const size_t entry = (1 + a->words) * sizeof(uint64_t);
    const uint64_t *e = buf;
    const uint64_t n = bytes / entry;
#pragma omp critical(hss_seen)
    for (uint64_t k = 0; k < n; k++, e += 1 + a->words) hss_map_first(a->seen, e + 1, (int64_t)e[0]);
}

/* Posts this rank's partitions noted since the last swap and enters the
 * other ranks' (one thread at a time: the caller holds pdt_distributor). */
void hss_hints_swap(hss_hints *x, hss_map *seen, const pdt_distributor *d)
{
    uint64_t *buf = NULL;
    size_t n = 0, cap = 0;
#pragma omp critical(hss_seen)
    { /* the workers go on noting into the spare buffer */
        buf = x->buf;
        cap = x->cap;
        n = x->n;
        x->buf = x->spare;
        x->cap = x->cap_spare;
        x->n = 0;
    }
    const size_t entry = (1 + x->words) * sizeof *buf;
    const size_t most = ((size_t)1 << 30) / entry; /* an MPI count is an int */
    for (size_t at = 0; at < n; at += most)
        d->post(d->user, buf + at * (1 + x->words), (n - at < most ? n - at : most) * entry);
    x->spare = buf;
    x->cap_spare = cap;
    take_arg a = {seen, x->words};
    d->poll(d->user, take, &a);
}

/* The end of a loop (collective): nothing of it is left in flight. */
void hss_hints_end(hss_hints *x, const pdt_distributor *d)
{
    d->drain(d->user);
    x->n = 0;
}

void hss_hints_free(hss_hints *x)
{
    free(x->buf);
    free(x->spare);
    memset(x, 0, sizeof *x);
}
