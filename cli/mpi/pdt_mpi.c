/* pdt-mpi: pdt's commands on the ranks of an MPI job (issue 13).
 *
 *   mpirun -np R pdt-mpi fit --data FILE --rules hyperplane --size 2 -o model.json
 *
 * Every rank runs the same command on the same data (the pdt CLI itself,
 * cli/pdt.c, built into this program under another name); the searches that
 * split their root work (framework/pdt_parallel.h: the engine's root
 * candidates, the hypersurface backend's root tuples) split it over the ranks
 * through the distributor below, and every other search runs whole on every
 * rank — the serial answer everywhere.  Rank 0 alone prints and writes files.
 *
 * Work (the loops that call next(): the hypersurface backend's tuples; the
 * engine assigns its root positions to ranks by partition itself,
 * framework/engine_threads.c): the first half of a loop's positions in
 * static blocks (rank r takes chunks r, r + R, r + 2R, ...), the rest handed
 * out dynamically from a counter on rank 0 (MPI_Fetch_and_op on a window,
 * passive target); loops begun in order (begin_in_order: the hypersurface
 * backend's root tuples) take every chunk from the counter.  The engine's
 * owned lists: a third cell on every rank holds the front and back of that
 * rank's list; the owner takes chunks from the front, a rank done with its
 * own from the back of another's, each by one MPI_Fetch_and_op on the cell.
 * The incumbent: each rank publishes its best value into a second cell of
 * that window with MPI_MIN and reads the least back (every few chunks).  At
 * the end of a loop two reductions give the least (value, position), so ties go
 * to the first position as in the serial search.  PDT_MPI_TIMING=1 prints
 * where each rank's time went (below). */
#include <dirent.h>
#include <mpi.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../outputs.h"
#include "pdt_parallel.h"

#undef main /* this file's main is the program's; cli/pdt.c's is pdt_cli_main (cli_main.h) */

typedef struct ranks {
    int rank, size;
    MPI_Win win;
    int64_t *cell;        /* [0] the next dynamic position, [1] the least value published (rank 0's);
                           * [2] this rank's own list: front | (back + OWN_BIAS) << 32 */
    uint64_t n, chunk, static_end, next_static;
    bool own_left;        /* this rank's own list may have entries left */
    int victim;           /* the next rank to steal from (== rank: none left) */
    bool steal_first;     /* PDT_MPI_STEAL_FIRST=1 (tests): steal before taking one's own */
    MPI_Comm hints;       /* the hints' messages (a communicator of their own) */
    MPI_Request *sent;    /* hints posted and not yet known delivered, with their buffers */
    void **sent_buf;
    int n_sent, cap_sent;
    int ends_early;       /* ends of the current exchange received by a poll (before r_drain) */
} ranks;

/* The back of an owned list sits biased in the cell's high half, so that
 * thieves' failed takes (each lowers it by a chunk) never carry below zero. */
#define OWN_BIAS (UINT64_C(1) << 30)

/* PDT_MPI_TIMING=1 (measurements, docs/scaling.md): each rank prints to the
 * stderr it started with (before rank 0's peers are silenced) its MPI_Init,
 * command and MPI_Finalize times, every collective of the distributor (when
 * entered, process CPU then, time spent in it: mostly waiting for the other
 * ranks), then a summary: time waiting in collectives and in one-sided
 * operations, chunks fetched, bounds shared, hint messages and bytes.  Off:
 * one test of a pointer per call. */
typedef struct timing {
    FILE *out;          /* NULL: off */
    double t0;          /* before MPI_Init */
    double collective;  /* seconds in the distributor's collectives */
    double onesided;    /* seconds in MPI_Fetch_and_op and its flush */
    uint64_t nexts, shares, posts, post_bytes, recvs, recv_bytes;
    int nodelay;        /* loopback connections given TCP_NODELAY (loopback_nodelay) */
} timing;

static timing tim;

static double now(void)
{
    if (!tim.out) return 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* `what`, begun at `since`, ends now (a collective when `collective`). */
static void tim_event(const char *what, double since, bool collective)
{
    if (!tim.out) return;
    double t = now();
    if (collective) tim.collective += t - since;
    fprintf(tim.out, "pdt-mpi timing: %-8s at %.3f s (cpu %.3f s) took %.4f s\n", what, since - tim.t0, cpu(),
            t - since);
}

static void tim_summary(int rank)
{
    if (!tim.out) return;
    fprintf(tim.out,
            "pdt-mpi timing: rank %d: %.3f s from before MPI_Init, %.3f s cpu, %.3f s in collectives, %.4f s in "
            "one-sided operations; chunks fetched %llu, bounds shared %llu, hints posted %llu (%llu bytes), "
            "received %llu (%llu bytes); TCP_NODELAY set on %d loopback connection(s)\n",
            rank, now() - tim.t0, cpu(), tim.collective, tim.onesided, (unsigned long long)tim.nexts,
            (unsigned long long)tim.shares, (unsigned long long)tim.posts, (unsigned long long)tim.post_bytes,
            (unsigned long long)tim.recvs, (unsigned long long)tim.recv_bytes, tim.nodelay);
    fclose(tim.out);
}

static bool r_agree(void *user, bool mine)
{
    (void)user;
    int in = mine, out = 0;
    double t = now();
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    tim_event("agree", t, true);
    return out != 0;
}

/* A loop: its first half in static blocks (when `static_half`), the rest from the counter. */
static void begin_loop(ranks *r, uint64_t n, uint64_t chunk, bool static_half)
{
    r->n = n;
    r->chunk = chunk ? chunk : 1;
    uint64_t blocks = static_half ? n / 2 / r->chunk : 0;
    r->static_end = blocks * r->chunk;
    r->next_static = (uint64_t)r->rank;
    double t = now();
    MPI_Barrier(MPI_COMM_WORLD);
    if (r->rank == 0) {
        int64_t init[2] = {(int64_t)r->static_end, INT64_MAX};
        MPI_Put(init, 2, MPI_INT64_T, 0, 0, 2, MPI_INT64_T, r->win);
        MPI_Win_flush(0, r->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    tim_event("begin", t, true);
}

static void r_begin(void *user, uint64_t n, uint64_t chunk) { begin_loop(user, n, chunk, true); }

static void r_begin_in_order(void *user, uint64_t n, uint64_t chunk) { begin_loop(user, n, chunk, false); }

static bool r_next(void *user, uint64_t *lo, uint64_t *hi)
{
    ranks *r = user;
    uint64_t at = r->next_static * r->chunk;
    if (at < r->static_end) {
        r->next_static += (uint64_t)r->size;
        *lo = at;
        *hi = at + r->chunk;
        return true;
    }
    int64_t add = (int64_t)r->chunk, old = 0;
    tim.nexts++;
    double t = now();
    MPI_Fetch_and_op(&add, &old, MPI_INT64_T, 0, 0, MPI_SUM, r->win);
    MPI_Win_flush(0, r->win);
    tim.onesided += now() - t;
    if ((uint64_t)old >= r->n) return false;
    *lo = (uint64_t)old;
    *hi = *lo + r->chunk < r->n ? *lo + r->chunk : r->n;
    return true;
}

static int64_t r_share(void *user, int64_t mine)
{
    ranks *r = user;
    int64_t old = INT64_MAX;
    tim.shares++;
    double t = now();
    MPI_Fetch_and_op(&mine, &old, MPI_INT64_T, 0, 1, MPI_MIN, r->win);
    MPI_Win_flush(0, r->win);
    tim.onesided += now() - t;
    return old < mine ? old : mine;
}

static void r_own_begin(void *user, uint64_t mine)
{
    ranks *r = user;
    int64_t init = (int64_t)((mine + OWN_BIAS) << 32);
    double t = now();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Accumulate(&init, 1, MPI_INT64_T, r->rank, 2, 1, MPI_INT64_T, MPI_REPLACE, r->win);
    MPI_Win_flush(r->rank, r->win);
    MPI_Barrier(MPI_COMM_WORLD);
    tim_event("own", t, true);
    r->own_left = true;
    r->victim = r->size > 1 ? (r->rank + 1) % r->size : r->rank;
    const char *env = getenv("PDT_MPI_STEAL_FIRST");
    r->steal_first = env && strcmp(env, "1") == 0;
}

/* One atomic add on rank `at`'s own-list cell; the cell before it. */
static void own_cell_add(ranks *r, int at, int64_t add, uint64_t *front, uint64_t *back)
{
    int64_t old = 0;
    MPI_Fetch_and_op(&add, &old, MPI_INT64_T, at, 2, MPI_SUM, r->win);
    MPI_Win_flush(at, r->win);
    *front = (uint64_t)old & UINT32_MAX;
    *back = ((uint64_t)old >> 32) - OWN_BIAS;
}

/* The owner takes from the front (front += chunk), a thief from the back
 * (back -= chunk): both are one atomic add on the same cell, so each entry
 * falls on the side of exactly one take, whatever their order. */
static bool own_take(ranks *r, uint64_t chunk, int *owner, uint64_t *lo, uint64_t *hi)
{
    uint64_t front, back;
    own_cell_add(r, r->rank, (int64_t)chunk, &front, &back);
    if (front >= back || (int64_t)back < 0) return r->own_left = false;
    *owner = r->rank;
    *lo = front;
    *hi = front + chunk < back ? front + chunk : back;
    return true;
}

static bool own_steal(ranks *r, uint64_t chunk, int *owner, uint64_t *lo, uint64_t *hi)
{
    while (r->victim != r->rank) {
        uint64_t front, back;
        own_cell_add(r, r->victim, -(int64_t)(chunk << 32), &front, &back);
        if (front < back && (int64_t)back > 0) {
            *owner = r->victim;
            *hi = back;
            *lo = back - front > chunk ? back - chunk : front;
            return true;
        }
        r->victim = (r->victim + 1) % r->size;
    }
    return false;
}

static bool r_own_next(void *user, uint64_t chunk, int *owner, uint64_t *lo, uint64_t *hi)
{
    ranks *r = user;
    chunk = chunk ? chunk : 1;
    if (r->steal_first && own_steal(r, chunk, owner, lo, hi)) return true;
    if (r->own_left && own_take(r, chunk, owner, lo, hi)) return true;
    return own_steal(r, chunk, owner, lo, hi);
}

/* Frees the buffers of the hints delivered (all of them when `all`). */
static void hints_settle(ranks *r, bool all)
{
    int kept = 0;
    for (int k = 0; k < r->n_sent; k++) {
        int done = 0;
        if (all) MPI_Wait(&r->sent[k], MPI_STATUS_IGNORE), done = 1;
        else MPI_Test(&r->sent[k], &done, MPI_STATUS_IGNORE);
        if (done) {
            free(r->sent_buf[k]);
        } else {
            r->sent[kept] = r->sent[k];
            r->sent_buf[kept++] = r->sent_buf[k];
        }
    }
    r->n_sent = kept;
}

static void r_post(void *user, const void *buf, uint64_t bytes)
{
    ranks *r = user;
    hints_settle(r, false);
    if (bytes == 0 || bytes > INT32_MAX) return; /* an empty message ends an exchange (r_drain) */
    for (int k = 0; k < r->size; k++) {
        if (k == r->rank) continue;
        if (r->n_sent == r->cap_sent) {
            int cap = r->cap_sent ? 2 * r->cap_sent : 64;
            MPI_Request *q = realloc(r->sent, (size_t)cap * sizeof *q);
            if (q) r->sent = q;
            void **b = realloc(r->sent_buf, (size_t)cap * sizeof *b);
            if (b) r->sent_buf = b;
            if (!q || !b) return; /* a hint may be lost */
            r->cap_sent = cap;
        }
        void *copy = malloc(bytes);
        if (!copy) return;
        memcpy(copy, buf, bytes);
        MPI_Isend(copy, (int)bytes, MPI_BYTE, k, 0, r->hints, &r->sent[r->n_sent]);
        tim.posts++, tim.post_bytes += bytes;
        r->sent_buf[r->n_sent++] = copy;
    }
}

/* Receives one message waiting (false: none); *bytes 0 for an exchange's end. */
static bool hint_recv(ranks *r, bool wait, void **buf, int *bytes)
{
    int flag = 1;
    MPI_Message msg;
    MPI_Status status;
    if (wait) MPI_Mprobe(MPI_ANY_SOURCE, 0, r->hints, &msg, &status);
    else MPI_Improbe(MPI_ANY_SOURCE, 0, r->hints, &flag, &msg, &status);
    if (!flag) return false;
    MPI_Get_count(&status, MPI_BYTE, bytes);
    *buf = *bytes ? malloc((size_t)*bytes) : NULL;
    if (*bytes && !*buf) MPI_Abort(MPI_COMM_WORLD, 1); /* a message matched must be received */
    char none;
    MPI_Mrecv(*buf ? *buf : &none, *bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    if (*bytes) tim.recvs++, tim.recv_bytes += (uint64_t)*bytes;
    return true;
}

static void r_poll(void *user, void (*take)(void *arg, const void *buf, uint64_t bytes), void *arg)
{
    ranks *r = user;
    void *buf;
    int bytes;
    while (hint_recv(r, false, &buf, &bytes)) {
        if (bytes > 0) take(arg, buf, (uint64_t)bytes);
        else r->ends_early++; /* a rank already in r_drain: counted there */
        free(buf);
    }
    hints_settle(r, false);
}

/* Every rank sends an empty message to every other and receives until it has
 * one from each (some may have come to a poll already): messages between two
 * ranks arrive in order, so no hint of this exchange is left behind.  A rank
 * cannot send the end of the next exchange before this one's is complete
 * everywhere: a collective (the loop's finish) lies between them. */
static void r_drain(void *user)
{
    ranks *r = user;
    double t = now();
    MPI_Request *end = malloc((size_t)r->size * sizeof *end);
    if (!end) MPI_Abort(MPI_COMM_WORLD, 1); /* a few requests: nothing sensible is left to do */
    int n_end = 0, ends = r->ends_early;
    r->ends_early = 0;
    char none = 0;
    for (int k = 0; k < r->size; k++)
        if (k != r->rank) MPI_Isend(&none, 0, MPI_BYTE, k, 0, r->hints, &end[n_end++]);
    while (ends < r->size - 1) {
        void *buf;
        int bytes;
        hint_recv(r, true, &buf, &bytes);
        ends += bytes == 0;
        free(buf);
    }
    MPI_Waitall(n_end, end, MPI_STATUSES_IGNORE);
    free(end);
    hints_settle(r, true);
    tim_event("drain", t, true);
}

static void r_finish(void *user, int64_t *value, uint64_t *pos, bool *complete, uint64_t *work,
                     uint64_t *total)
{
    (void)user;
    int64_t least = INT64_MAX;
    double t = now();
    MPI_Allreduce(value, &least, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    uint64_t mine = *value == least ? *pos : UINT64_MAX, first = UINT64_MAX;
    MPI_Allreduce(&mine, &first, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    *value = least;
    *pos = first;
    *complete = r_agree(user, *complete);
    uint64_t w = *work, most = 0, sum = 0;
    MPI_Allreduce(&w, &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&w, &sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    *work = most;
    *total = sum;
    tim_event("finish", t, true);
}

static void r_combine(void *user, void *buf, uint64_t n, int how)
{
    (void)user;
    MPI_Datatype type = how == PDT_COMBINE_OR ? MPI_UINT64_T : how == PDT_COMBINE_MIN ? MPI_INT64_T : MPI_UINT8_T;
    MPI_Op op = how == PDT_COMBINE_OR ? MPI_BOR : how == PDT_COMBINE_MIN ? MPI_MIN : MPI_MAX;
    size_t size = how == PDT_COMBINE_MAXB ? 1 : 8;
    const uint64_t step = UINT64_C(1) << 26; /* MPI counts are int */
    double t = now();
    for (uint64_t at = 0; at < n; at += step) {
        int count = (int)(n - at < step ? n - at : step);
        MPI_Allreduce(MPI_IN_PLACE, (char *)buf + at * size, count, type, op, MPI_COMM_WORLD);
    }
    tim_event("combine", t, true);
}

static void *r_gather(void *user, const void *mine, uint64_t bytes, uint64_t *total)
{
    ranks *r = user;
    double t = now();
    int *counts = malloc(2 * (size_t)r->size * sizeof *counts);
    if (!counts) MPI_Abort(MPI_COMM_WORLD, 1); /* a few ints: nothing sensible is left to do */
    int *at = counts + r->size, own = bytes > INT32_MAX ? -1 : (int)bytes;
    MPI_Allgather(&own, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    uint64_t sum = 0;
    bool fits = true;
    for (int k = 0; k < r->size; k++) {
        if (counts[k] < 0) fits = false;
        at[k] = (int)(sum <= INT32_MAX ? sum : 0);
        sum += counts[k] < 0 ? 0 : (uint64_t)counts[k];
    }
    char *out = fits && sum <= INT32_MAX ? malloc(sum + 1) : NULL;
    int ok = out != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all_ok) MPI_Allgatherv(mine, own, MPI_BYTE, out, counts, at, MPI_BYTE, MPI_COMM_WORLD);
    free(counts);
    tim_event("gather", t, true);
    if (!all_ok) {
        free(out);
        return NULL;
    }
    *total = sum;
    return out;
}

/* Open MPI's default point-to-point layer (UCX) costs about 0.2 s of every
 * start on this kind of machine, probing network devices, even when every
 * rank runs on one machine and talks through shared memory anyway.  When
 * mpirun says so (all ranks local) and the user chose no layer, take ob1
 * (shared memory, self): 0.50 -> 0.30 s for `mpirun -np 2 pdt-mpi --help`.
 * A job over several machines keeps Open MPI's own choice. */
static void prefer_shared_memory(void)
{
    const char *all = getenv("OMPI_COMM_WORLD_SIZE"), *here = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (all && here && strcmp(all, here) == 0 && !getenv("OMPI_MCA_pml"))
        setenv("OMPI_MCA_pml", "ob1", 0);
}

/* Whether a socket address is the loopback (127.0.0.0/8 or ::1). */
static bool is_loopback(const struct sockaddr_storage *a)
{
    if (a->ss_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
    if (a->ss_family == AF_INET6) return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)a)->sin6_addr);
    return false;
}

/* Each rank talks to its local PMIx server (mpirun or orted) over a TCP
 * connection to the loopback that PMIx 4 opens without TCP_NODELAY.
 * MPI_Finalize sends several small messages on it in a row, and Nagle's
 * algorithm holds the second until the server acknowledges the first, which
 * the server's delayed acknowledgement puts off by 40 ms: MPI_Finalize took
 * 44-47 ms in every run, 2-3 ms with TCP_NODELAY (strace: the messages
 * written at once, the server reading the second 40 ms later).  Open MPI has
 * no setting for it, so after MPI_Init set TCP_NODELAY on this process's TCP
 * connections to the loopback: it changes when bytes go out, never which.
 * Quietly does nothing where /proc/self/fd is absent. */
static int loopback_nodelay(void)
{
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) return 0;
    int set = 0, self = dirfd(dir);
    for (struct dirent *e; (e = readdir(dir));) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (*end || end == e->d_name || fd == self) continue;
        int type = 0, one = 1;
        socklen_t len = sizeof type;
        if (getsockopt((int)fd, SOL_SOCKET, SO_TYPE, &type, &len) || type != SOCK_STREAM) continue;
        struct sockaddr_storage peer;
        len = sizeof peer;
        if (getpeername((int)fd, (struct sockaddr *)&peer, &len) || !is_loopback(&peer)) continue;
        if (setsockopt((int)fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0) set++;
    }
    closedir(dir);
    return set;
}

int main(int argc, char **argv)
{
    int provided = 0;
    const char *timing_env = getenv("PDT_MPI_TIMING");
    if (timing_env && strcmp(timing_env, "1") == 0) tim.out = fdopen(dup(2), "w");
    tim.t0 = now();
    prefer_shared_memory();
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    tim_event("init", tim.t0, false);
    tim.nodelay = loopback_nodelay();
    ranks r = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
    if (provided < MPI_THREAD_SERIALIZED && r.rank == 0)
        fprintf(stderr, "pdt-mpi: this MPI does not allow calls from several threads: use --threads 1\n");
    MPI_Win_allocate(3 * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &r.cell, &r.win);
    MPI_Win_lock_all(0, r.win);
    MPI_Comm_dup(MPI_COMM_WORLD, &r.hints);
    pdt_distributor d = {r.rank,    r.size,    &r,       r_agree,     r_begin,    r_next, r_share, r_finish,
                         r_combine, r_gather,  r_own_begin, r_own_next, r_post, r_poll, r_drain, r_begin_in_order};
    pdt_distributor_set(&d);
    if (r.rank != 0) { /* rank 0 prints and writes; the others compute */
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) return 1;
        cli_outputs_discard = true;
    }
    double t = now();
    int code = pdt_cli_main(argc, argv);
    tim_event("command", t, false);
    int worst = 0;
    t = now();
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    tim_event("exit", t, true);
    pdt_distributor_set(NULL);
    hints_settle(&r, true);
    free(r.sent);
    free(r.sent_buf);
    MPI_Comm_free(&r.hints);
    MPI_Win_unlock_all(r.win);
    MPI_Win_free(&r.win);
    t = now();
    MPI_Finalize();
    tim_event("finalize", t, false);
    tim_summary(r.rank);
    return r.rank == 0 ? code : worst;
}
