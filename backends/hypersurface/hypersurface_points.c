/* The tuples in colex order and their points (hss_unrank), and the points of
 * the tuples by value (h->order_pts), which the regions' searches read
 * instead of unranking. */
#include <stdlib.h>
#include <string.h>

#include "hypersurface_solve_impl.h"
#include "pdt_parallel.h"

/* The tuple of colex rank r. */
void hss_unrank(const hss *h, uint64_t r, uint32_t *t)
{
    size_t hi = h->n;
    for (size_t k = h->G; k-- > 0;) {
        size_t lo = k; /* largest x in [k, hi) with C(x, k+1) <= r */
        size_t top = hi;
        while (top - lo > 1) {
            size_t mid = (lo + top) / 2;
            if (hss_binom(h, mid, k + 1) <= r) lo = mid;
            else top = mid;
        }
        t[k] = (uint32_t)lo;
        r -= hss_binom(h, lo, k + 1);
        hi = lo;
    }
}

/* The points of sorted tuples [lo, hi), on the threads in blocks. */
static void points_of(hss *h, uint64_t lo, uint64_t hi)
{
    const int64_t block = INT64_C(1) << 16, blocks = (int64_t)((hi - lo + (uint64_t)block - 1) / (uint64_t)block);
    unsigned threads = pdt_threads_resolve(h->opt->threads);
    if (blocks < 2) threads = 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
    for (int64_t b = 0; b < blocks; b++) {
        uint32_t t[HS_MAX_LIFTED];
        uint64_t from = lo + (uint64_t)(b * block), end = from + (uint64_t)block < hi ? from + (uint64_t)block : hi;
        for (uint64_t i = from; i < end; i++) {
            hss_unrank(h, h->order[i], t);
            for (size_t k = 0; k < h->G; k++) h->order_pts[i * h->G + k] = (uint8_t)t[k];
        }
    }
}

/* h->order_pts when there are at most 256 rows (one byte a point; else it
 * stays NULL).  The ranks of an MPI job each fill a contiguous 1/R of it,
 * zero elsewhere, and combine the parts (the largest byte of each: 24 M
 * tuples at N = 80, 2.5 s of every rank before, when each built all of it;
 * an in-place MPI_Allreduce moved 3.3 MB in 5-10 ms at N = 40 where
 * MPI_Allgatherv took 20 ms, loaded).  Out of memory on one rank, it stays
 * NULL on every rank. */
void hss_order_points(hss *h)
{
    const pdt_distributor *d = pdt_distributor_get();
    if (d && d->size <= 1) d = NULL;
    if (h->n > 256 || h->order_pts) return;
    h->order_pts = d ? calloc(h->n_order * h->G + 1, 1) : malloc(h->n_order * h->G + 1);
    if (d && !d->agree(d->user, h->order_pts != NULL)) free(h->order_pts), h->order_pts = NULL;
    if (!h->order_pts) return;
    uint64_t lo = 0, hi = h->n_order;
    if (d) {
        lo = h->n_order * (uint64_t)d->rank / (uint64_t)d->size;
        hi = h->n_order * (uint64_t)(d->rank + 1) / (uint64_t)d->size;
    }
    points_of(h, lo, hi);
    if (d) d->combine(d->user, h->order_pts, h->n_order * h->G, PDT_COMBINE_MAXB);
}
