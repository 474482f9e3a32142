/* The OpenMP runtime on demand, for libpdt.so alone (cmake/library.cmake).
 *
 * The library's parallel searches are compiled with -fopenmp, which makes
 * them call libgomp's entry points below.  Linked as a dependency, libgomp
 * is mapped, relocated and initialised (environment, CPU set, thread keys)
 * at every start of every program using libpdt.so, a tenth of a millisecond
 * that a run which never starts a thread (a matrix chain, `pdt --help`)
 * pays for nothing.  libpdt.so is linked without it and defines these
 * entry points itself: the first call opens libgomp (the copy already in
 * the process, if any) and every call goes on to libgomp's own.  What the
 * compiler emits for a new OpenMP construct shows up as an undefined
 * symbol when libpdt.so is linked (-z defs): forward it here.
 *
 * The static library keeps libgomp as an ordinary dependency; so do builds
 * that are not GCC's or are sanitised. */
#define _GNU_SOURCE /* dlvsym */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* libgomp's entry points (libgomp_g.h, omp.h) under their own names. */
void GOMP_parallel(void (*fn)(void *), void *data, unsigned threads, unsigned flags);
void GOMP_critical_name_start(void **name);
void GOMP_critical_name_end(void **name);
bool GOMP_loop_nonmonotonic_dynamic_start(long start, long end, long incr, long chunk, long *istart, long *iend);
bool GOMP_loop_nonmonotonic_dynamic_next(long *istart, long *iend);
void GOMP_loop_end_nowait(void);
void GOMP_barrier(void);
bool GOMP_single_start(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);

static struct {
    void (*parallel)(void (*)(void *), void *, unsigned, unsigned);
    void (*critical_start)(void **);
    void (*critical_end)(void **);
    bool (*dynamic_start)(long, long, long, long, long *, long *);
    bool (*dynamic_next)(long *, long *);
    void (*end_nowait)(void);
    void (*barrier)(void);
    bool (*single_start)(void);
    int (*max_threads)(void);
    int (*thread_num)(void);
} gomp;
static atomic_bool loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* A program that cannot find the runtime would not have started with it
 * linked in; without it, the first parallel call ends the program alike. */
static void *entry(void *lib, const char *name, const char *version)
{
    void *f = lib ? dlvsym(lib, name, version) : NULL;
    if (!f) {
        fprintf(stderr, "pdt: the OpenMP runtime libgomp.so.1 (%s@%s) cannot be loaded: %s\n", name, version,
                dlerror());
        abort();
    }
    return f;
}

static void load(void)
{
    void *lib = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL);
    *(void **)&gomp.parallel = entry(lib, "GOMP_parallel", "GOMP_4.0");
    *(void **)&gomp.critical_start = entry(lib, "GOMP_critical_name_start", "GOMP_1.0");
    *(void **)&gomp.critical_end = entry(lib, "GOMP_critical_name_end", "GOMP_1.0");
    *(void **)&gomp.dynamic_start = entry(lib, "GOMP_loop_nonmonotonic_dynamic_start", "GOMP_4.5");
    *(void **)&gomp.dynamic_next = entry(lib, "GOMP_loop_nonmonotonic_dynamic_next", "GOMP_4.5");
    *(void **)&gomp.end_nowait = entry(lib, "GOMP_loop_end_nowait", "GOMP_1.0");
    *(void **)&gomp.barrier = entry(lib, "GOMP_barrier", "GOMP_1.0");
    *(void **)&gomp.single_start = entry(lib, "GOMP_single_start", "GOMP_1.0");
    *(void **)&gomp.max_threads = entry(lib, "omp_get_max_threads", "OMP_1.0");
    *(void **)&gomp.thread_num = entry(lib, "omp_get_thread_num", "OMP_1.0");
    atomic_store_explicit(&loaded, true, memory_order_release);
}

static void need(void)
{
    if (!atomic_load_explicit(&loaded, memory_order_acquire)) pthread_once(&once, load);
}

void GOMP_parallel(void (*fn)(void *), void *data, unsigned threads, unsigned flags)
{
    need();
    gomp.parallel(fn, data, threads, flags);
}

void GOMP_critical_name_start(void **name)
{
    need();
    gomp.critical_start(name);
}

void GOMP_critical_name_end(void **name)
{
    need();
    gomp.critical_end(name);
}

bool GOMP_loop_nonmonotonic_dynamic_start(long start, long end, long incr, long chunk, long *istart, long *iend)
{
    need();
    return gomp.dynamic_start(start, end, incr, chunk, istart, iend);
}

bool GOMP_loop_nonmonotonic_dynamic_next(long *istart, long *iend)
{
    need();
    return gomp.dynamic_next(istart, iend);
}

void GOMP_loop_end_nowait(void)
{
    need();
    gomp.end_nowait();
}

void GOMP_barrier(void)
{
    need();
    gomp.barrier();
}

bool GOMP_single_start(void)
{
    need();
    return gomp.single_start();
}

int omp_get_max_threads(void)
{
    need();
    return gomp.max_threads();
}

int omp_get_thread_num(void)
{
    need();
    return gomp.thread_num();
}
