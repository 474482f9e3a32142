/* The recursion over compact keys (pdt_dp_info): the same fused min
 * recursion as engine.c, for problems that name their subproblems by integer
 * keys and value them with machine integers.  Each key is solved once,
 * top-down, into a table of values (dense when the key space is small,
 * hashed otherwise); a subproblem costs one dp_splits call, one tight loop
 * over its splits and no allocation.  The table holds no decisions: the
 * rebuild runs a solved key's selection again (same values, same order, so
 * the same split).  Values that would reach PDT_DP_LIMIT, and tables beyond
 * the cache limit, hand the search back to the generic recursion (GMP
 * values), which stays exact at any size. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "engine_impl.h"
#include "pdt_parallel.h"

#define DP_INF PDT_DP_LIMIT /* the value of an infeasible subproblem */
/* Component 0 is stored biased, value + 1, so that a zeroed table (calloc:
 * the pages of keys never named are never touched) reads "unsolved".  A sum
 * of two stored children and a cost is the candidate's value + 2. */
#define R_UNSOLVED UINT64_C(0)
#define R_INF (DP_INF + 1)  /* infeasible */
#define R_BUSY (DP_INF + 2) /* being solved: a child naming it closes a cycle */
#define DEC_LEAF UINT32_MAX
#define NO_KEY UINT64_MAX

typedef struct dp_state {
    const pdt_problem_class *pc;
    void *inst;
    pdt_dp_info info;
    bool two;            /* component 1 is used */
    bool dense;
    bool summing;        /* dense, one component, summed: the loops of best_sum* */
    uint64_t *v0, *v1;   /* values by slot: v0 biased (R_*), v1 as it is */
    /* A dense square table of g² keys (g = grid): component 0 also by
     * transposed key (key % g)·g + key / g, so that a stepped loop walking a
     * column (step g) reads consecutive values; NULL otherwise. */
    uint64_t *vt, grid;
    uint64_t *keys;      /* hashed table: key of each slot, NO_KEY = free */
    void *map;           /* a dense table's own mapping (dense_alloc), or NULL */
    size_t map_len;
    size_t n_slots, n_used;
    /* the split arena, a stack: a subproblem's splits sit above its parent's */
    uint64_t *al, *ar, *ac0, *ac1;
    int64_t *apay;
    size_t top, cap;
    size_t max_bytes, bytes;
    pdt_search_opts o;
    struct timespec start;
    pdt_gate gate; /* when to read the clock next */
    double last_progress;
    pdt_search_stats stats;
    bool fallback, aborted;
    pdt_error *err;
} dp_state;

/* ------------------------------------------------------------ the table */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= UINT64_C(0x9e3779b97f4a7c15);
    return x ^ (x >> 29);
}

/* A dense table's words (v0, v1, vt one after the other), zeroed.  From
 * HUGE_FROM bytes on they are a mapping of their own, in transparent huge
 * pages where the kernel offers them (madvise): the search touches the
 * table all over (the chain's triangle of a square meets every 4 KiB page)
 * and one fault per 2 MiB costs less than 512 faults. */
#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_FROM ((size_t)256 << 10)

static uint64_t *dense_alloc(dp_state *s, size_t words)
{
    size_t bytes = words * sizeof(uint64_t);
    if (bytes < HUGE_FROM) return calloc(words, sizeof(uint64_t));
    size_t huge = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE, len = huge + HUGE_PAGE;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    s->map = p;
    s->map_len = len;
    uintptr_t at = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
    (void)madvise((void *)at, huge, MADV_HUGEPAGE); /* advice: without it, plain pages */
#endif
    return (uint64_t *)at;
}

/* Zeroed tables: every value reads R_UNSOLVED. */
static bool table_alloc(dp_state *s, size_t n_slots)
{
    size_t per = (s->two ? 2 : 1) * sizeof(uint64_t) + (s->dense ? 0 : sizeof(uint64_t));
    if (n_slots > s->max_bytes / per) return false;
    s->n_slots = n_slots;
    s->bytes = n_slots * per;
    if (!s->dense) {
        s->v0 = calloc(n_slots, sizeof *s->v0);
        s->v1 = s->two ? calloc(n_slots, sizeof *s->v1) : NULL;
        s->keys = malloc(n_slots * sizeof *s->keys);
        if (!s->v0 || (s->two && !s->v1) || !s->keys) return false;
        memset(s->keys, 0xff, n_slots * sizeof *s->keys);
        return true;
    }
    uint64_t g = 0;
    while (!s->two && g * g < n_slots) g++;
    bool transposed = g > 1 && g * g == n_slots && n_slots <= (s->max_bytes - s->bytes) / sizeof(uint64_t);
    uint64_t *w = dense_alloc(s, n_slots * ((s->two ? 2 : 1) + (transposed ? 1 : 0)));
    if (!w) return false;
    s->v0 = w;
    s->v1 = s->two ? w + n_slots : NULL;
    if (transposed) {
        s->vt = w + n_slots;
        s->grid = g;
        s->bytes += n_slots * sizeof *s->vt;
    }
    return true;
}

static void table_free(dp_state *s)
{
    if (s->map) munmap(s->map, s->map_len);
    else if (s->dense) free(s->v0);
    if (!s->dense) {
        free(s->v0);
        free(s->v1);
        free(s->keys);
    }
    s->map = NULL;
    s->v0 = s->v1 = s->vt = s->keys = NULL;
    s->grid = 0;
}

/* Slot of key, or SIZE_MAX when it has none. */
static size_t slot_find(const dp_state *s, uint64_t key)
{
    if (s->dense) return key < s->n_slots ? (size_t)key : SIZE_MAX;
    size_t mask = s->n_slots - 1;
    for (size_t i = mix(key) & mask;; i = (i + 1) & mask) {
        if (s->keys[i] == key) return i;
        if (s->keys[i] == NO_KEY) return SIZE_MAX;
    }
}

static size_t slot_place(dp_state *s, uint64_t key)
{
    size_t mask = s->n_slots - 1, i = mix(key) & mask;
    while (s->keys[i] != NO_KEY) i = (i + 1) & mask;
    s->keys[i] = key;
    return i;
}

/* Doubles the hashed table; false (and s->fallback) beyond the cache limit. */
static bool table_grow(dp_state *s)
{
    dp_state old = *s;
    s->v0 = s->v1 = s->keys = NULL;
    if (!table_alloc(s, 2 * old.n_slots)) {
        table_free(s);
        *s = old;
        s->fallback = true;
        return false;
    }
    for (size_t i = 0; i < old.n_slots; i++) {
        if (old.keys[i] == NO_KEY) continue;
        size_t j = slot_place(s, old.keys[i]);
        s->v0[j] = old.v0[i];
        if (s->two) s->v1[j] = old.v1[i];
    }
    table_free(&old);
    return true;
}

/* Slot of key, created unsolved if absent; SIZE_MAX when the table is full
 * (s->fallback) or the key is out of the dense range (error). */
static size_t slot_get(dp_state *s, uint64_t key, pdt_status *st)
{
    size_t i = key == NO_KEY ? SIZE_MAX : slot_find(s, key);
    if (i != SIZE_MAX) return i;
    if (s->dense || key == NO_KEY) {
        *st = pdt_error_set(s->err, PDT_EPLUGIN, "problem plugin \"%s\": key %llu outside its key space",
                            s->pc->name, (unsigned long long)key);
        return SIZE_MAX;
    }
    if (2 * (s->n_used + 1) > s->n_slots && !table_grow(s)) return SIZE_MAX;
    s->n_used++;
    return slot_place(s, key);
}

/* ------------------------------------------------------------ the arena */

static bool arena_reserve(dp_state *s, size_t n)
{
    if (s->top + n <= s->cap) return true;
    size_t cap = s->cap ? 2 * s->cap : 1024;
    while (cap < s->top + n) cap *= 2;
    uint64_t **a[] = {&s->al, &s->ar, &s->ac0, &s->ac1};
    for (size_t k = 0; k < 4; k++) {
        uint64_t *p = realloc(*a[k], cap * sizeof *p);
        if (!p) return false;
        *a[k] = p;
    }
    int64_t *p = realloc(s->apay, cap * sizeof *p);
    if (!p) return false;
    s->apay = p;
    s->cap = cap;
    return true;
}

/* The splits of key on top of the arena, described by *sp; returns their
 * number (or UINT32_MAX with *st or s->fallback set).  Evenly stepped
 * children stay described (the key arrays are not filled) where the
 * summing loop over a dense table reads them so; elsewhere they are listed.
 * *sp is the plugin's own output: no copy of it is made (a copy read back
 * right after the plugin's scalar stores stalls on store forwarding). */
static inline __attribute__((always_inline)) uint32_t push_splits(dp_state *s, uint64_t key, pdt_dp_splits *sp, pdt_status *st)
{
    if (!arena_reserve(s, s->info.max_splits)) {
        *st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory for the search");
        return UINT32_MAX;
    }
    size_t b = s->top;
    *sp = (pdt_dp_splits){.left = s->al + b, .right = s->ar + b, .payload = s->apay + b, .cost0 = s->ac0 + b,
                          .cost1 = s->two ? s->ac1 + b : NULL};
    if (s->two) memset(s->ac1 + b, 0, s->info.max_splits * sizeof *s->ac1);
    uint32_t n = s->pc->dp_splits(sp, s->inst, key);
    if (n > s->info.max_splits) {
        *st = pdt_error_set(s->err, PDT_EPLUGIN, "problem plugin \"%s\": %u splits, more than the %u it announced",
                            s->pc->name, n, s->info.max_splits);
        return UINT32_MAX;
    }
    if (sp->overflow) {
        s->fallback = true;
        return UINT32_MAX;
    }
    bool keep = sp->stepped && s->summing;
    if (sp->stepped && !keep) {
        for (uint32_t i = 0; i < n; i++) {
            sp->left[i] = sp->left0 + i * sp->left_step;
            sp->right[i] = sp->right0 + i * sp->right_step;
            sp->payload[i] = sp->payload0 + (int64_t)i;
            if (sp->cost_weight) sp->cost0[i] = sp->cost_scale * sp->cost_weight[i];
        }
        sp->stepped = false;
        sp->cost_weight = NULL;
    }
    if (!(keep && sp->cost_weight)) s->top += n; /* else nothing of it sits in the arena */
    return n;
}

/* ------------------------------------------------------------ limits */

static double elapsed(const dp_state *s)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec);
}

static void check_limits(dp_state *s)
{
    if (!pdt_gate_due(&s->gate, s->stats.nodes)) return;
    struct timespec now;
    pdt_gate_read(&s->gate, s->stats.nodes, &now, NULL);
    if (pdt_stop_requested(s->o.stop)) s->aborted = true;
    if (s->o.time_limit <= 0 && !s->o.progress) return;
    double t = (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec);
    if (s->o.time_limit > 0 && t >= s->o.time_limit) s->aborted = true;
    if (s->o.progress && t - s->last_progress >= 1.0) {
        s->last_progress = t;
        pdt_progress p = {t, s->stats.nodes, "?"};
        s->o.progress(s->o.progress_user, &p);
    }
}

/* ------------------------------------------------------------ the recursion */

static uint64_t combine(pdt_dp_combine m, uint64_t a, uint64_t b, uint64_t c)
{
    if (m == PDT_DP_SUM) return a + b + c;
    if (m == PDT_DP_MAX) return (a > b ? a : b) + c;
    return 0;
}

/* Split i of the splits described by sp (their arrays at base in the arena). */
static uint64_t split_left(const dp_state *s, const pdt_dp_splits *sp, size_t base, uint32_t i)
{
    return sp->stepped ? sp->left0 + i * sp->left_step : s->al[base + i];
}

static uint64_t split_right(const dp_state *s, const pdt_dp_splits *sp, size_t base, uint32_t i)
{
    return sp->stepped ? sp->right0 + i * sp->right_step : s->ar[base + i];
}

static int64_t split_payload(const dp_state *s, const pdt_dp_splits *sp, size_t base, uint32_t i)
{
    return sp->stepped ? sp->payload0 + (int64_t)i : s->apay[base + i];
}

static uint64_t split_cost0(const dp_state *s, const pdt_dp_splits *sp, size_t base, uint32_t i)
{
    return sp->cost_weight ? sp->cost_scale * sp->cost_weight[i] : s->ac0[base + i];
}

static pdt_status solve_key(dp_state *s, uint64_t key, size_t slot);

/* Makes sure the child `key` is solved; its slot in *slot. */
static pdt_status ensure(dp_state *s, uint64_t key, size_t *slot)
{
    pdt_status st = PDT_OK;
    *slot = slot_get(s, key, &st);
    if (*slot == SIZE_MAX) return st;
    uint64_t v = s->v0[*slot];
    if (v == R_BUSY)
        return pdt_error_set(s->err, PDT_EPLUGIN, "problem plugin \"%s\": subproblem %llu is its own descendant",
                             s->pc->name, (unsigned long long)key);
    if (v != R_UNSOLVED) return PDT_OK;
    st = solve_key(s, key, *slot);
    if (!st && !s->fallback && !s->aborted) *slot = slot_find(s, key); /* a grown table moved it */
    return st;
}

static bool stopped(const dp_state *s) { return s->fallback || s->aborted; }

/* The slow side of the summing loops: a child not solved yet (solved now)
 * or infeasible, or a sum reaching the limit.  Returns the candidate's
 * value (DP_INF: infeasible). */
static __attribute__((noinline)) uint64_t sum_cold(dp_state *s, uint64_t l, uint64_t r, uint64_t c,
                                                    pdt_status *st)
{
    size_t sl, sr;
    *st = ensure(s, l, &sl);
    if (!*st && !stopped(s)) *st = ensure(s, r, &sr);
    if (*st || stopped(s)) return DP_INF;
    uint64_t a = s->v0[l], b = s->v0[r];
    if (a >= R_INF || b >= R_INF) return DP_INF;
    uint64_t x = (a - 1) + (b - 1) + c;
    if (x >= DP_INF) s->fallback = true;
    return x;
}

/* Dense table, one summed component, listed children. */
static __attribute__((noinline)) pdt_status best_sum(dp_state *s, size_t base, uint32_t n, uint64_t *best_out,
                                                     uint32_t *arg_out)
{
    const uint64_t nk = s->n_slots, *v0 = s->v0;
    const uint64_t *L = s->al + base, *R = s->ar + base, *C = s->ac0 + base;
    uint64_t best = *best_out;
    uint32_t arg = *arg_out;
    pdt_status st = PDT_OK;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t l = L[i], r = R[i];
        if (__builtin_expect(l >= nk || r >= nk, 0)) {
            size_t x;
            st = ensure(s, l >= nk ? l : r, &x); /* reports the key */
            break;
        }
        const uint64_t a = v0[l], b = v0[r];
        uint64_t x = a + b + C[i];
        if (__builtin_expect(a == R_UNSOLVED || b == R_UNSOLVED || x >= DP_INF + 2, 0)) {
            x = sum_cold(s, l, r, C[i], &st);
            if (st || stopped(s)) break;
            L = s->al + base, R = s->ar + base, C = s->ac0 + base; /* the arena may have moved */
        } else {
            x -= 2;
        }
        if (x < best) best = x, arg = i;
    }
    *best_out = best;
    *arg_out = arg;
    return st;
}

/* The children's values of a stepped loop as one array when they are
 * consecutive in v0 (step 1) or in the transposed copy (step g). */
static const uint64_t *run_of(const dp_state *s, uint64_t key0, uint64_t step)
{
    if (step == 1) return s->v0 + key0;
    if (s->vt && step == s->grid) return s->vt + key0 % s->grid * s->grid + key0 / s->grid;
    return NULL;
}

/* run_min: the least sum vl[j] + vr[j] + scale·C[j] over a run, in one pass
 * without a branch.  *clean: every child is solved and feasible (stored
 * 1 .. DP_INF) and every candidate's value (sum − 2) is below DP_INF; only
 * then does the least sum count.  The search needs no more: which split
 * reaches it is asked only while rebuilding the tree (best_sum_runs). */
#if defined(__AVX512F__) && defined(__AVX512DQ__)
#include <immintrin.h>

/* AVX-512: unsigned minima and maxima (loop-carried chains one instruction
 * long, tested lane-wise once at the end); the last, partial block is
 * masked. */
static uint64_t run_min(bool *clean, const uint64_t *vl, const uint64_t *vr, const uint64_t *C, uint64_t scale,
                        uint32_t n)
{
    const __m512i all = _mm512_set1_epi64(-1), zero = _mm512_setzero_si512();
    const __m512i vs = _mm512_set1_epi64((long long)scale);
    __m512i least = all, child = all, most = zero; /* least sum, least child, greatest sum */
    uint32_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m512i a = _mm512_loadu_si512(vl + j), b = _mm512_loadu_si512(vr + j);
        const __m512i x = _mm512_add_epi64(_mm512_add_epi64(a, b),
                                           _mm512_mullo_epi64(vs, _mm512_loadu_si512(C + j)));
        child = _mm512_min_epu64(child, _mm512_min_epu64(a, b));
        most = _mm512_max_epu64(most, x);
        least = _mm512_min_epu64(least, x);
    }
    if (j < n) {
        const __mmask8 in = (__mmask8)((1u << (n - j)) - 1);
        const __m512i a = _mm512_maskz_loadu_epi64(in, vl + j), b = _mm512_maskz_loadu_epi64(in, vr + j);
        const __m512i c = _mm512_mullo_epi64(vs, _mm512_maskz_loadu_epi64(in, C + j));
        const __m512i x = _mm512_add_epi64(_mm512_add_epi64(a, b), c);
        child = _mm512_mask_min_epu64(child, in, child, _mm512_min_epu64(a, b));
        most = _mm512_mask_max_epu64(most, in, most, x);
        least = _mm512_mask_min_epu64(least, in, least, x);
    }
    *clean = !(_mm512_cmpeq_epu64_mask(child, zero) |
               _mm512_cmpge_epu64_mask(most, _mm512_set1_epi64((long long)(DP_INF + 2))));
    return _mm512_reduce_min_epu64(least);
}
#else
/* Plain C the compiler vectorises: minima, and the OR of every vl[j] − 1,
 * vr[j] − 1 and sum − 2, which stays below DP_INF exactly when the run is
 * clean. */
static uint64_t run_min(bool *clean, const uint64_t *vl, const uint64_t *vr, const uint64_t *C, uint64_t scale,
                        uint32_t n)
{
    uint64_t least = UINT64_MAX, flags = 0;
    for (uint32_t j = 0; j < n; j++) {
        const uint64_t a = vl[j], b = vr[j], x = a + b + scale * C[j];
        flags |= (a - 1) | (b - 1) | (x - 2);
        least = x < least ? x : least;
    }
    *clean = flags < DP_INF;
    return least;
}
#endif

/* Stepped children whose values lie in the arrays vl and vr: when the run
 * is clean (run_min) its least sum is the answer, and with arg_out the
 * first split reaching it; else the run goes the scalar way, solving the
 * children it meets. */
static pdt_status best_sum_runs(dp_state *s, const pdt_dp_splits *sp, const uint64_t *vl, const uint64_t *vr,
                                const uint64_t *C, uint64_t scale, size_t base, uint32_t n, uint64_t *best_out,
                                uint32_t *arg_out)
{
    bool clean;
    const uint64_t lo = run_min(&clean, vl, vr, C, scale, n);
    if (__builtin_expect(clean, 1)) {
        if (lo - 2 < *best_out) {
            *best_out = lo - 2;
            if (arg_out) {
                uint32_t j = 0;
                while (vl[j] + vr[j] + scale * C[j] != lo) j++;
                *arg_out = j;
            }
        }
        return PDT_OK;
    }
    uint64_t best = *best_out;
    uint32_t arg = arg_out ? *arg_out : 0;
    pdt_status st = PDT_OK;
    for (uint32_t j = 0; j < n; j++) {
        const uint64_t a = vl[j], b = vr[j];
        uint64_t x = a + b + scale * C[j];
        if (a == R_UNSOLVED || b == R_UNSOLVED || x >= DP_INF + 2) {
            x = sum_cold(s, sp->left0 + j * sp->left_step, sp->right0 + j * sp->right_step, scale * C[j], &st);
            if (st || stopped(s)) break;
            if (!sp->cost_weight) C = s->ac0 + base; /* the arena may have moved */
        } else {
            x -= 2;
        }
        if (x < best) best = x, arg = j;
    }
    *best_out = best;
    if (arg_out) *arg_out = arg;
    return st;
}

/* The same for evenly stepped children: the keys are computed, not read.
 * arg_out NULL: the value alone (the search), no index. */
static inline __attribute__((always_inline)) pdt_status best_sum_stepped(dp_state *s, const pdt_dp_splits *sp, size_t base,
                                                             uint32_t n, uint64_t *best_out, uint32_t *arg_out)
{
    if (n == 0) return PDT_OK;
    const uint64_t nk = s->n_slots, dl = sp->left_step, dr = sp->right_step, *v0 = s->v0;
    uint64_t l_end, r_end; /* the last keys, which bound the others */
    if (__builtin_mul_overflow((uint64_t)(n - 1), dl, &l_end) || __builtin_add_overflow(l_end, sp->left0, &l_end) ||
        __builtin_mul_overflow((uint64_t)(n - 1), dr, &r_end) || __builtin_add_overflow(r_end, sp->right0, &r_end) ||
        l_end >= nk || r_end >= nk) {
        size_t x;
        return ensure(s, NO_KEY, &x); /* a key out of range */
    }
    const uint64_t *C = sp->cost_weight ? sp->cost_weight : s->ac0 + base;
    const uint64_t scale = sp->cost_weight ? sp->cost_scale : 1;
    const uint64_t *vl = run_of(s, sp->left0, dl), *vr = run_of(s, sp->right0, dr);
    if (vl && vr) return best_sum_runs(s, sp, vl, vr, C, scale, base, n, best_out, arg_out);
    uint64_t best = *best_out, l = sp->left0, r = sp->right0;
    uint32_t arg = arg_out ? *arg_out : 0;
    pdt_status st = PDT_OK;
    for (uint32_t i = 0; i < n; i++, l += dl, r += dr) {
        const uint64_t a = v0[l], b = v0[r];
        uint64_t x = a + b + scale * C[i];
        if (__builtin_expect(a == R_UNSOLVED || b == R_UNSOLVED || x >= DP_INF + 2, 0)) {
            x = sum_cold(s, l, r, scale * C[i], &st);
            if (st || stopped(s)) break;
            if (!sp->cost_weight) C = s->ac0 + base; /* the arena may have moved */
        } else {
            x -= 2;
        }
        if (x < best) best = x, arg = i;
    }
    *best_out = best;
    if (arg_out) *arg_out = arg;
    return st;
}

/* The slow side of best_pair_dense: children not solved yet, or infeasible. */
static __attribute__((noinline)) bool pair_cold(dp_state *s, uint64_t l, uint64_t r, pdt_status *st)
{
    size_t sl, sr;
    *st = ensure(s, l, &sl);
    if (!*st && !stopped(s)) *st = ensure(s, r, &sr);
    return !*st && !stopped(s) && s->v0[l] < R_INF && s->v0[r] < R_INF;
}

/* Dense table, lexicographic pairs. */
static __attribute__((noinline)) pdt_status best_pair_dense(dp_state *s, size_t base, uint32_t n,
                                                            uint64_t best[2], uint32_t *arg_out)
{
    const pdt_dp_combine m0 = s->info.combine[0], m1 = s->info.combine[1];
    const uint64_t nk = s->n_slots, *v0 = s->v0, *v1 = s->v1;
    const uint64_t *L = s->al + base, *R = s->ar + base, *C0 = s->ac0 + base, *C1 = s->ac1 + base;
    uint64_t b0 = best[0], b1 = best[1];
    uint32_t arg = *arg_out;
    pdt_status st = PDT_OK;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t l = L[i], r = R[i];
        if (__builtin_expect(l >= nk || r >= nk, 0)) {
            size_t x;
            st = ensure(s, l >= nk ? l : r, &x); /* reports the key */
            break;
        }
        if (__builtin_expect(v0[l] - 1 >= DP_INF || v0[r] - 1 >= DP_INF, 0)) { /* unsolved, infeasible, busy */
            bool ok = pair_cold(s, l, r, &st);
            if (st || stopped(s)) break;
            L = s->al + base, R = s->ar + base, C0 = s->ac0 + base, C1 = s->ac1 + base;
            if (!ok) continue;
        }
        uint64_t x0 = combine(m0, v0[l] - 1, v0[r] - 1, C0[i]), x1 = combine(m1, v1[l], v1[r], C1[i]);
        if (__builtin_expect(x0 >= DP_INF || x1 >= DP_INF, 0)) {
            s->fallback = true;
            break;
        }
        if (x0 < b0 || (x0 == b0 && x1 < b1)) b0 = x0, b1 = x1, arg = i;
    }
    best[0] = b0, best[1] = b1;
    *arg_out = arg;
    return st;
}

/* Any table, any combination, split by split; sp describes the splits. */
static pdt_status best_pair(dp_state *s, const pdt_dp_splits *sp, size_t b, uint32_t n, uint64_t best[2],
                            uint32_t *arg)
{
    const pdt_dp_combine m0 = s->info.combine[0], m1 = s->info.combine[1];
    for (uint32_t i = 0; i < n; i++) {
        size_t sl, sr;
        const uint64_t l = split_left(s, sp, b, i), r = split_right(s, sp, b, i);
        pdt_status st = ensure(s, l, &sl);
        if (!st && !stopped(s)) st = ensure(s, r, &sr);
        if (st || stopped(s)) return st;
        if (!s->dense) sl = slot_find(s, l); /* the right child may have grown the table */
        if (s->v0[sl] >= R_INF || s->v0[sr] >= R_INF) continue;
        uint64_t x0 = combine(m0, s->v0[sl] - 1, s->v0[sr] - 1, split_cost0(s, sp, b, i));
        uint64_t x1 = s->two ? combine(m1, s->v1[sl], s->v1[sr], s->ac1[b + i]) : 0;
        if (x0 >= DP_INF || x1 >= DP_INF) {
            s->fallback = true;
            return PDT_OK;
        }
        if (x0 < best[0] || (x0 == best[0] && x1 < best[1])) best[0] = x0, best[1] = x1, *arg = i;
    }
    return PDT_OK;
}

/* The best of key's leaf and splits, solving the children it needs:
 * best[] (DP_INF: infeasible) and, when asked to decide, *arg (DEC_LEAF:
 * the leaf; among equal values the leaf, then the first split; without
 * `decide` *arg may be left behind).  The splits stay on the arena at
 * *base, *n of them as *sp describes them (*n = UINT32_MAX: none, stopped
 * or an error).  A solved key's children are all solved, so running it
 * again for a solved key (the rebuild) solves nothing and decides alike. */
static pdt_status select_best(dp_state *s, uint64_t key, bool decide, uint64_t best[2], uint32_t *arg, size_t *base,
                              uint32_t *n, pdt_dp_splits *sp)
{
    uint64_t leaf[2] = {0, 0};
    best[0] = DP_INF, best[1] = 0;
    *arg = DEC_LEAF;
    if (s->pc->dp_leaf(leaf, s->inst, key)) {
        if (leaf[0] >= DP_INF || leaf[1] >= DP_INF) s->fallback = true;
        best[0] = leaf[0], best[1] = leaf[1];
    }
    pdt_status st = PDT_OK;
    *base = s->top;
    *n = stopped(s) ? UINT32_MAX : push_splits(s, key, sp, &st);
    if (*n == UINT32_MAX) return st;
    if (s->summing && sp->stepped) return best_sum_stepped(s, sp, *base, *n, &best[0], decide ? arg : NULL);
    if (s->summing) return best_sum(s, *base, *n, &best[0], arg);
    if (s->dense && s->two && !sp->stepped) return best_pair_dense(s, *base, *n, best, arg);
    return best_pair(s, sp, *base, *n, best, arg);
}

static pdt_status solve_key(dp_state *s, uint64_t key, size_t slot)
{
    s->v0[slot] = R_BUSY;
    s->stats.nodes++;
    check_limits(s);
    uint64_t best[2];
    uint32_t arg, n;
    size_t base;
    pdt_dp_splits sp;
    pdt_status st = select_best(s, key, false, best, &arg, &base, &n, &sp);
    if (n != UINT32_MAX) s->stats.candidates += n;
    s->top = base;
    if (!s->dense) slot = slot_find(s, key);
    if (st || stopped(s)) {
        s->v0[slot] = R_UNSOLVED;
        return st;
    }
    s->v0[slot] = best[0] + 1;
    if (s->vt) s->vt[key % s->grid * s->grid + key / s->grid] = best[0] + 1;
    if (s->two) s->v1[slot] = best[1];
    return PDT_OK;
}

/* ------------------------------------------------------------ the tree */

/* Writes the tree of key in preorder and its value v; *ok = false when key
 * has no feasible tree.  Solved keys take the split their selection picks
 * again; after a time limit, unsolved ones take the leaf or their first
 * feasible split. */
static pdt_status emit(dp_state *s, uint64_t key, pdt_tree_out *t, uint64_t v[2], bool *ok)
{
    *ok = false;
    if (key == NO_KEY || (s->dense && key >= s->n_slots)) {
        size_t x;
        return ensure(s, key, &x); /* reports the key */
    }
    size_t slot = slot_find(s, key);
    bool solved = slot != SIZE_MAX && s->v0[slot] != R_UNSOLVED && s->v0[slot] <= R_INF;
    uint64_t best[2] = {0, 0}, leaf[2] = {0, 0};
    uint32_t arg = DEC_LEAF, n = UINT32_MAX;
    size_t base = s->top;
    pdt_dp_splits sp;
    pdt_status st = PDT_OK;
    if (solved) {
        if (s->v0[slot] == R_INF) return PDT_OK;
        st = select_best(s, key, true, best, &arg, &base, &n, &sp);
        if (!st && (stopped(s) || best[0] != s->v0[slot] - 1))
            st = pdt_error_set(s->err, PDT_EINTERNAL, "a solved subproblem decided otherwise when rebuilt");
        *ok = true;
    } else {
        *ok = s->pc->dp_leaf(leaf, s->inst, key);
        best[0] = leaf[0], best[1] = leaf[1];
        if (!*ok) n = push_splits(s, key, &sp, &st);
    }
    if (st || ((solved || *ok) && arg == DEC_LEAF)) {
        v[0] = best[0], v[1] = best[1];
        s->top = base;
        if (st) return st;
        return pdt_tree_out_push(t, PDT_LEAF) ? PDT_OK : pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    if (n == UINT32_MAX) return st ? st : pdt_error_set(s->err, PDT_EINTERNAL, "a split overflowed while rebuilding");
    uint32_t from = solved ? arg : 0, to = solved ? from + 1 : n;
    size_t mark = t->len;
    *ok = false;
    for (uint32_t i = from; i < to && !*ok && !st; i++) {
        uint64_t vl[2], vr[2];
        bool okl = false, okr = false;
        t->len = mark;
        if (!pdt_tree_out_push(t, split_payload(s, &sp, base, i)))
            st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
        if (!st) st = emit(s, split_left(s, &sp, base, i), t, vl, &okl);
        if (!st && okl) st = emit(s, split_right(s, &sp, base, i), t, vr, &okr);
        if (st || !okl || !okr) continue;
        v[0] = combine(s->info.combine[0], vl[0], vr[0], split_cost0(s, &sp, base, i));
        v[1] = s->two ? combine(s->info.combine[1], vl[1], vr[1], s->ac1[base + i]) : 0;
        *ok = v[0] < DP_INF && v[1] < DP_INF;
    }
    if (solved && !st && !*ok) st = pdt_error_set(s->err, PDT_EINTERNAL, "a solved subproblem could not be rebuilt");
    s->top = base;
    return st;
}

/* ------------------------------------------------------------ entry */

static void dp_free(dp_state *s)
{
    table_free(s);
    free(s->al);
    free(s->ar);
    free(s->ac0);
    free(s->ac1);
    free(s->apay);
}

static pdt_status dp_begin(dp_state *s, const pdt_node *root)
{
    pdt_status st = s->pc->dp_setup(&s->info, s->inst, root, s->err);
    if (st) return pdt_error_prefix(s->err, "problem plugin \"%s\": ", s->pc->name);
    if (!s->info.active) return PDT_OK;
    s->two = s->info.combine[1] != PDT_DP_UNUSED;
    s->dense = s->info.n_keys != 0;
    s->summing = s->dense && !s->two && s->info.combine[0] == PDT_DP_SUM;
    if (!table_alloc(s, s->dense ? s->info.n_keys : 1024)) {
        table_free(s);
        s->info.active = false; /* too large for the cache: the generic recursion decides */
    }
    return PDT_OK;
}

/* Runs the search over keys; *used = false when the problem has no compact
 * form here or values outgrew machine integers (res untouched). */
static pdt_status dp_run(dp_state *s, pdt_search_result *res, const pdt_node *root, bool *used)
{
    pdt_status st = dp_begin(s, root);
    if (st || !s->info.active) return st;
    size_t slot = SIZE_MAX;
    st = ensure(s, s->info.root, &slot);
    if (st || s->fallback) return st;
    pdt_tree_out t = {0};
    uint64_t v[2] = {0, 0};
    bool ok = false, aborted = s->aborted;
    s->aborted = false; /* the rebuild solves nothing: a time limit no longer stops it */
    st = emit(s, s->info.root, &t, v, &ok);
    s->aborted = aborted;
    if (!st && ok) st = s->pc->dp_value(res->value, s->inst, v, s->err);
    if (st || s->fallback) {
        free(t.a);
        return st;
    }
    *used = true;
    res->found = ok;
    res->optimal = !s->aborted;
    res->tree = ok ? t.a : NULL;
    res->tree_len = ok ? t.len : 0;
    if (!ok) free(t.a);
    s->stats.memo_entries = s->dense ? s->stats.nodes : s->n_used;
    s->stats.memo_hits = 2 * s->stats.candidates;
    s->stats.seconds = elapsed(s);
    res->stats = s->stats;
    return PDT_OK;
}

pdt_status pdt_dp_search(pdt_search_result *res, bool *used, const pdt_problem_class *pc, void *inst,
                         const pdt_node *root, const pdt_search_opts *opts, double *seconds, pdt_error *err)
{
    *used = false;
    dp_state s = {.pc = pc, .inst = inst, .o = *opts, .err = err};
    s.max_bytes = opts->memo_bytes ? opts->memo_bytes : ((size_t)1 << 30);
    clock_gettime(CLOCK_MONOTONIC, &s.start);
    pdt_gate_start(&s.gate, 0, s.start);
    pdt_status st = dp_run(&s, res, root, used);
    *seconds = elapsed(&s);
    dp_free(&s);
    return st;
}
