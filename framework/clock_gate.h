/* When a search reads the clock (time limits, progress, Ctrl-C, a team's
 * abort): often enough that a limit holds, rarely enough to cost nothing.
 *
 * Searches count their subproblems.  A fixed "every 1 024th" is free where a
 * subproblem takes microseconds and useless where it takes milliseconds
 * (hyperplanes on 1 000 points: a stump over 499 500 candidate rules per
 * subproblem, 8 s to the first reading).  The gate aims at a reading every
 * PDT_GATE_NS of the search's own time: after each reading the next one is
 * set from the rate of the subproblems since the last, between 1 and
 * PDT_GATE_MOST subproblems ahead, at most doubling from one reading to the
 * next (a burst of cheap subproblems after slow ones does not push the next
 * reading far away).  Internal to framework/ and the backends. */
#ifndef PDT_CLOCK_GATE_H
#define PDT_CLOCK_GATE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define PDT_GATE_NS 1000000      /* 1 ms */
#define PDT_GATE_MOST UINT64_C(1024)

typedef struct pdt_gate {
    uint64_t next;       /* the subproblem count at which the clock is read next */
    uint64_t last_count; /* ... and at which it was read last */
    uint64_t stride;
    struct timespec last;
} pdt_gate;

/* The first reading at the first subproblem counted from `count` on. */
static inline void pdt_gate_start(pdt_gate *g, uint64_t count, struct timespec now)
{
    *g = (pdt_gate){.next = count, .last_count = count, .stride = 1, .last = now};
}

static inline bool pdt_gate_due(const pdt_gate *g, uint64_t count) { return count >= g->next; }

/* Reads the clock into *now and sets the next reading; the subproblems since
 * the last reading into *since (a team's shared count). */
static inline void pdt_gate_read(pdt_gate *g, uint64_t count, struct timespec *now, uint64_t *since)
{
    clock_gettime(CLOCK_MONOTONIC, now);
    const int64_t ns = (int64_t)(now->tv_sec - g->last.tv_sec) * 1000000000 + (now->tv_nsec - g->last.tv_nsec);
    const uint64_t done = count - g->last_count;
    uint64_t stride = ns > 0 ? (uint64_t)((double)done * PDT_GATE_NS / (double)ns) : 2 * g->stride;
    if (stride > 2 * g->stride) stride = 2 * g->stride;
    if (stride > PDT_GATE_MOST) stride = PDT_GATE_MOST;
    if (stride < 1) stride = 1;
    g->stride = stride;
    g->next = count + stride;
    g->last_count = count;
    g->last = *now;
    if (since) *since = done;
}

/* The moment `seconds` (≥ 0) after t0: a time limit's deadline. */
static inline struct timespec pdt_time_after(struct timespec t0, double seconds)
{
    const double whole = (double)(time_t)seconds;
    struct timespec t = {t0.tv_sec + (time_t)whole, t0.tv_nsec + (long)((seconds - whole) * 1e9)};
    if (t.tv_nsec >= 1000000000L) t.tv_sec++, t.tv_nsec -= 1000000000L;
    return t;
}

static inline bool pdt_time_reached(struct timespec now, struct timespec deadline)
{
    return now.tv_sec > deadline.tv_sec || (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec);
}

#endif
