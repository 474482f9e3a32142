/* Threads and ranks for root loops (pdt_parallel.h). */
#include "pdt_parallel.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static const pdt_distributor *installed;

void pdt_distributor_set(const pdt_distributor *d) { installed = d; }

const pdt_distributor *pdt_distributor_get(void) { return installed; }

unsigned pdt_threads_resolve(uint32_t requested)
{
#ifdef _OPENMP
    unsigned t = requested ? requested : (unsigned)omp_get_max_threads();
    return t ? t : 1;
#else
    (void)requested;
    return 1;
#endif
}

void *pdt_calloc_written(size_t n, size_t size)
{
    unsigned char *p = calloc(n, size);
    if (p)
        for (size_t k = 0; k < n * size; k += 4096) ((volatile unsigned char *)p)[k] = 0;
    return p;
}

uint64_t pdt_parallel_min(void)
{
    const char *env = getenv("PDT_PARALLEL_MIN");
    return env ? strtoull(env, NULL, 10) : UINT64_C(1) << 18;
}

static void work_begin(pdt_work *w, const pdt_distributor *dist, uint64_t n, uint64_t chunk, bool in_order)
{
    const char *env = getenv("PDT_WORK_LAST_FIRST");
    w->last_first = !dist && env && strcmp(env, "1") == 0;
    w->dist = dist;
    w->n = n;
    w->chunk = chunk ? chunk : 1;
    atomic_store_explicit(&w->next, 0, memory_order_relaxed);
    if (dist && in_order && dist->begin_in_order) dist->begin_in_order(dist->user, n, w->chunk);
    else if (dist) dist->begin(dist->user, n, w->chunk);
}

void pdt_work_begin(pdt_work *w, const pdt_distributor *dist, uint64_t n, uint64_t chunk)
{
    work_begin(w, dist, n, chunk, false);
}

void pdt_work_begin_in_order(pdt_work *w, const pdt_distributor *dist, uint64_t n, uint64_t chunk)
{
    work_begin(w, dist, n, chunk, true);
}

/* The chunk handed out when `left` positions remain: the loop's own until the
 * last four chunks, then a quarter of what is left (at least one), so that
 * the workers finish together.  The binary backend's root (runs of three
 * features, the last ones 4-12 ms each on australian-credit at depth 5): the
 * second thread idled 8-15 ms at the end of a 0.44 s loop, 3-9 ms since. */
static uint64_t tail_chunk(uint64_t chunk, uint64_t left)
{
    const uint64_t quarter = left / 4 ? left / 4 : 1;
    return quarter < chunk ? quarter : chunk;
}

bool pdt_work_next(pdt_work *w, uint64_t *lo, uint64_t *hi)
{
    if (w->dist) {
        bool ok;
#pragma omp critical(pdt_distributor)
        ok = w->dist->next(w->dist->user, lo, hi);
        return ok;
    }
    uint64_t at = atomic_load_explicit(&w->next, memory_order_relaxed), c;
    do {
        if (at >= w->n) return false;
        c = tail_chunk(w->chunk, w->n - at);
    } while (!atomic_compare_exchange_weak_explicit(&w->next, &at, at + c, memory_order_relaxed,
                                                    memory_order_relaxed));
    if (w->last_first) {
        *hi = w->n - at;
        *lo = *hi - c;
    } else {
        *lo = at;
        *hi = at + c;
    }
    return true;
}
