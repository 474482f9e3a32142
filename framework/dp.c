/* The recursion over compact keys (pdt_dp_info): the same fused min
 * recursion as engine.c, for problems that name their subproblems by integer
 * keys and value them with machine integers.  Each key is solved once,
 * top-down, into a table of values and root decisions (dense when the key
 * space is small, hashed otherwise); a subproblem costs one dp_splits call,
 * one tight loop over its splits and no allocation.  Values that would reach
 * PDT_DP_LIMIT, and tables beyond the cache limit, hand the search back to
 * the generic recursion (GMP values), which stays exact at any size. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_impl.h"

#define DP_INF PDT_DP_LIMIT            /* infeasible */
#define DP_UNSOLVED (PDT_DP_LIMIT + 1) /* not solved yet */
#define DP_BUSY (PDT_DP_LIMIT + 2)     /* being solved: a child naming it closes a cycle */
#define DEC_LEAF UINT32_MAX
#define NO_KEY UINT64_MAX
#define CHECK_EVERY 1024u

typedef struct dp_state {
    const pdt_problem_class *pc;
    void *inst;
    pdt_dp_info info;
    bool two;            /* component 1 is used */
    bool dense;
    uint64_t *v0, *v1;   /* values by slot */
    /* A dense square table of g² keys (g = grid): component 0 also by
     * transposed key (key % g)·g + key / g, so that a stepped loop walking a
     * column (step g) reads consecutive values; NULL otherwise. */
    uint64_t *vt, grid;
    uint32_t *dec;       /* root decision by slot: split index or DEC_LEAF */
    uint64_t *keys;      /* hashed table: key of each slot, NO_KEY = free */
    size_t n_slots, n_used;
    /* the split arena, a stack: a subproblem's splits sit above its parent's */
    uint64_t *al, *ar, *ac0, *ac1;
    int64_t *apay;
    size_t top, cap;
    size_t max_bytes, bytes;
    pdt_search_opts o;
    struct timespec start;
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

static bool table_alloc(dp_state *s, size_t n_slots)
{
    size_t per = 2 * sizeof(uint64_t) + sizeof(uint32_t) + (s->dense ? 0 : sizeof(uint64_t));
    if (n_slots > s->max_bytes / per) return false;
    s->v0 = malloc(n_slots * sizeof *s->v0);
    s->v1 = s->two ? malloc(n_slots * sizeof *s->v1) : NULL;
    s->dec = malloc(n_slots * sizeof *s->dec);
    s->keys = s->dense ? NULL : malloc(n_slots * sizeof *s->keys);
    if (!s->v0 || (s->two && !s->v1) || !s->dec || (!s->dense && !s->keys)) return false;
    for (size_t i = 0; i < n_slots; i++) s->v0[i] = DP_UNSOLVED;
    if (s->keys) memset(s->keys, 0xff, n_slots * sizeof *s->keys);
    s->n_slots = n_slots;
    s->bytes = n_slots * per;
    uint64_t g = 0;
    while (s->dense && !s->two && g * g < n_slots) g++;
    if (g > 1 && g * g == n_slots && n_slots <= (s->max_bytes - s->bytes) / sizeof *s->vt &&
        (s->vt = malloc(n_slots * sizeof *s->vt))) {
        for (size_t i = 0; i < n_slots; i++) s->vt[i] = DP_UNSOLVED;
        s->grid = g;
        s->bytes += n_slots * sizeof *s->vt;
    }
    return true;
}

static void table_free(dp_state *s)
{
    free(s->vt);
    s->vt = NULL;
    s->grid = 0;
    free(s->v0);
    free(s->v1);
    free(s->dec);
    free(s->keys);
    s->v0 = s->v1 = NULL;
    s->dec = NULL;
    s->keys = NULL;
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
    s->dec = NULL;
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
        s->dec[j] = old.dec[i];
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

/* The splits of key on top of the arena; returns their number (or UINT32_MAX
 * with *st or s->fallback set).  With sp, evenly stepped children stay
 * described there (the key arrays are not filled); without, they are listed. */
static uint32_t push_splits(dp_state *s, uint64_t key, pdt_dp_splits *step, pdt_status *st)
{
    if (!arena_reserve(s, s->info.max_splits)) {
        *st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory for the search");
        return UINT32_MAX;
    }
    size_t b = s->top;
    pdt_dp_splits sp = {s->al + b, s->ar + b, s->apay + b, s->ac0 + b, s->two ? s->ac1 + b : NULL, false,
                        false, 0, 0, 0, 0, 0, NULL, 0};
    if (s->two) memset(s->ac1 + b, 0, s->info.max_splits * sizeof *s->ac1);
    uint32_t n = s->pc->dp_splits(&sp, s->inst, key);
    if (n > s->info.max_splits) {
        *st = pdt_error_set(s->err, PDT_EPLUGIN, "problem plugin \"%s\": %u splits, more than the %u it announced",
                            s->pc->name, n, s->info.max_splits);
        return UINT32_MAX;
    }
    if (sp.overflow) {
        s->fallback = true;
        return UINT32_MAX;
    }
    /* only the summing loop over a dense table reads stepped splits as described */
    bool keep = step && sp.stepped && s->dense && !s->two && s->info.combine[0] == PDT_DP_SUM;
    if (sp.stepped && !keep) {
        for (uint32_t i = 0; i < n; i++) {
            sp.left[i] = sp.left0 + i * sp.left_step;
            sp.right[i] = sp.right0 + i * sp.right_step;
            sp.payload[i] = sp.payload0 + (int64_t)i;
            if (sp.cost_weight) sp.cost0[i] = sp.cost_scale * sp.cost_weight[i];
        }
        sp.stepped = false;
        sp.cost_weight = NULL;
    }
    if (step) *step = sp;
    if (!(keep && sp.cost_weight)) s->top += n; /* else nothing of it sits in the arena */
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
    if (s->stats.nodes % CHECK_EVERY) return;
    if (s->o.stop && *s->o.stop) s->aborted = true;
    if (s->o.time_limit <= 0 && !s->o.progress) return;
    double t = elapsed(s);
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

static pdt_status solve_key(dp_state *s, uint64_t key, size_t slot);

/* Makes sure the child `key` is solved; its slot in *slot. */
static pdt_status ensure(dp_state *s, uint64_t key, size_t *slot)
{
    pdt_status st = PDT_OK;
    *slot = slot_get(s, key, &st);
    if (*slot == SIZE_MAX) return st;
    uint64_t v = s->v0[*slot];
    if (v == DP_BUSY)
        return pdt_error_set(s->err, PDT_EPLUGIN, "problem plugin \"%s\": subproblem %llu is its own descendant",
                             s->pc->name, (unsigned long long)key);
    if (v != DP_UNSOLVED) return PDT_OK;
    st = solve_key(s, key, *slot);
    if (!st && !s->fallback && !s->aborted) *slot = slot_find(s, key); /* a grown table moved it */
    return st;
}

static bool stopped(const dp_state *s) { return s->fallback || s->aborted; }

/* The slow side of best_sum: a child not solved yet (solved now) or
 * infeasible, or a sum reaching the limit.  *x = the candidate's value. */
static __attribute__((noinline)) uint64_t sum_cold(dp_state *s, uint64_t l, uint64_t r, uint64_t c,
                                                    pdt_status *st)
{
    size_t sl, sr;
    *st = ensure(s, l, &sl);
    if (!*st && !stopped(s)) *st = ensure(s, r, &sr);
    if (*st || stopped(s)) return DP_INF;
    uint64_t a = s->v0[l], b = s->v0[r];
    uint64_t x = a >= DP_INF || b >= DP_INF ? DP_INF : a + b + c;
    if (a < DP_INF && b < DP_INF && x >= DP_INF) s->fallback = true;
    return x;
}

/* Dense table, one summed component: the textbook loop. */
static __attribute__((noinline)) pdt_status best_sum(dp_state *s, size_t base, uint32_t n, uint64_t *best_out, uint32_t *arg_out)
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
        uint64_t x = v0[l] + v0[r] + C[i];
        if (__builtin_expect(x >= DP_INF, 0)) {
            x = sum_cold(s, l, r, C[i], &st);
            if (st || stopped(s)) break;
            L = s->al + base, R = s->ar + base, C = s->ac0 + base; /* the arena may have moved */
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

/* best_sum_stepped with both children's values consecutive: blocks of 8
 * splits summed and minimised without a branch (the compiler vectorises
 * it); a block holding an unsolved or infeasible child goes the scalar way. */
static pdt_status best_sum_runs(dp_state *s, const pdt_dp_splits *sp, const uint64_t *vl, const uint64_t *vr,
                                const uint64_t *C, uint64_t scale, size_t base, uint32_t n, uint64_t *best_out,
                                uint32_t *arg_out)
{
    uint64_t best = *best_out;
    uint32_t arg = *arg_out;
    pdt_status st = PDT_OK;
    for (uint32_t i = 0; i < n;) {
        const uint32_t end = n - i >= 8 ? i + 8 : n;
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint32_t j = i; j < end; j++) {
            uint64_t x = vl[j] + vr[j] + scale * C[j];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        if (__builtin_expect(hi >= DP_INF, 0)) {
            for (uint32_t j = i; j < end; j++) {
                uint64_t x = vl[j] + vr[j] + scale * C[j];
                if (x >= DP_INF) {
                    x = sum_cold(s, sp->left0 + j * sp->left_step, sp->right0 + j * sp->right_step, scale * C[j], &st);
                    if (st || stopped(s)) goto out;
                    if (!sp->cost_weight) C = s->ac0 + base; /* the arena may have moved */
                }
                if (x < best) best = x, arg = j;
            }
        } else if (lo < best) {
            uint32_t j = i;
            while (vl[j] + vr[j] + scale * C[j] != lo) j++;
            best = lo, arg = j;
        }
        i = end;
    }
out:
    *best_out = best;
    *arg_out = arg;
    return st;
}

/* The same for evenly stepped children: the keys are computed, not read. */
static __attribute__((noinline)) pdt_status best_sum_stepped(dp_state *s, const pdt_dp_splits *sp, size_t base, uint32_t n,
                                   uint64_t *best_out, uint32_t *arg_out)
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
    uint32_t arg = *arg_out;
    pdt_status st = PDT_OK;
    for (uint32_t i = 0; i < n; i++, l += dl, r += dr) {
        uint64_t x = v0[l] + v0[r] + scale * C[i];
        if (__builtin_expect(x >= DP_INF, 0)) {
            x = sum_cold(s, l, r, scale * C[i], &st);
            if (st || stopped(s)) break;
            if (!sp->cost_weight) C = s->ac0 + base; /* the arena may have moved */
        }
        if (x < best) best = x, arg = i;
    }
    *best_out = best;
    *arg_out = arg;
    return st;
}

/* The slow side of best_pair_dense: children not solved yet, or infeasible. */
static __attribute__((noinline)) bool pair_cold(dp_state *s, uint64_t l, uint64_t r, pdt_status *st)
{
    size_t sl, sr;
    *st = ensure(s, l, &sl);
    if (!*st && !stopped(s)) *st = ensure(s, r, &sr);
    return !*st && !stopped(s) && s->v0[l] < DP_INF && s->v0[r] < DP_INF;
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
        if (__builtin_expect(v0[l] >= DP_INF || v0[r] >= DP_INF, 0)) {
            bool ok = pair_cold(s, l, r, &st);
            if (st || stopped(s)) break;
            L = s->al + base, R = s->ar + base, C0 = s->ac0 + base, C1 = s->ac1 + base;
            if (!ok) continue;
        }
        uint64_t x0 = combine(m0, v0[l], v0[r], C0[i]), x1 = combine(m1, v1[l], v1[r], C1[i]);
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

/* Any table, any combination: lexicographic pairs. */
static pdt_status best_pair(dp_state *s, size_t b, uint32_t n, uint64_t best[2], uint32_t *arg)
{
    const pdt_dp_combine m0 = s->info.combine[0], m1 = s->info.combine[1];
    for (uint32_t i = 0; i < n; i++) {
        size_t sl, sr;
        pdt_status st = ensure(s, s->al[b + i], &sl);
        if (!st && !stopped(s)) st = ensure(s, s->ar[b + i], &sr);
        if (st || stopped(s)) return st;
        if (!s->dense) sl = slot_find(s, s->al[b + i]); /* the right child may have grown the table */
        if (s->v0[sl] >= DP_INF || s->v0[sr] >= DP_INF) continue;
        uint64_t x0 = combine(m0, s->v0[sl], s->v0[sr], s->ac0[b + i]);
        uint64_t x1 = s->two ? combine(m1, s->v1[sl], s->v1[sr], s->ac1[b + i]) : 0;
        if (x0 >= DP_INF || x1 >= DP_INF) {
            s->fallback = true;
            return PDT_OK;
        }
        if (x0 < best[0] || (x0 == best[0] && x1 < best[1])) best[0] = x0, best[1] = x1, *arg = i;
    }
    return PDT_OK;
}

static pdt_status solve_key(dp_state *s, uint64_t key, size_t slot)
{
    s->v0[slot] = DP_BUSY;
    s->stats.nodes++;
    check_limits(s);
    uint64_t best[2] = {DP_INF, 0}, leaf[2] = {0, 0};
    uint32_t arg = DEC_LEAF;
    if (s->pc->dp_leaf(leaf, s->inst, key)) {
        if (leaf[0] >= DP_INF || leaf[1] >= DP_INF) s->fallback = true;
        best[0] = leaf[0], best[1] = leaf[1];
    }
    pdt_status st = PDT_OK;
    size_t base = s->top;
    pdt_dp_splits step;
    uint32_t n = stopped(s) ? UINT32_MAX : push_splits(s, key, &step, &st);
    if (n != UINT32_MAX) {
        s->stats.candidates += n;
        bool fast = s->dense && !s->two && s->info.combine[0] == PDT_DP_SUM;
        if (fast && step.stepped) st = best_sum_stepped(s, &step, base, n, &best[0], &arg);
        else if (fast) st = best_sum(s, base, n, &best[0], &arg);
        else if (s->dense && s->two) st = best_pair_dense(s, base, n, best, &arg);
        else st = best_pair(s, base, n, best, &arg);
    }
    s->top = base;
    if (!s->dense) slot = slot_find(s, key);
    if (st || stopped(s)) {
        s->v0[slot] = DP_UNSOLVED;
        return st;
    }
    s->v0[slot] = best[0];
    if (s->vt) s->vt[key % s->grid * s->grid + key / s->grid] = best[0];
    if (s->two) s->v1[slot] = best[1];
    s->dec[slot] = arg;
    return PDT_OK;
}

/* ------------------------------------------------------------ the tree */

/* Writes the tree of key in preorder and its value v; *ok = false when key
 * has no feasible tree.  Solved keys follow their decisions; after a time
 * limit, unsolved ones take the leaf or their first feasible split. */
static pdt_status emit(dp_state *s, uint64_t key, pdt_tree_out *t, uint64_t v[2], bool *ok)
{
    *ok = false;
    if (key == NO_KEY || (s->dense && key >= s->n_slots)) {
        size_t x;
        return ensure(s, key, &x); /* reports the key */
    }
    size_t slot = slot_find(s, key);
    bool solved = slot != SIZE_MAX && s->v0[slot] <= DP_INF;
    uint64_t leaf[2] = {0, 0};
    *ok = solved ? s->v0[slot] < DP_INF : s->pc->dp_leaf(leaf, s->inst, key);
    if (solved && !*ok) return PDT_OK;
    if ((solved && s->dec[slot] == DEC_LEAF) || (!solved && *ok)) {
        v[0] = solved ? s->v0[slot] : leaf[0];
        v[1] = solved && s->two ? s->v1[slot] : (solved ? 0 : leaf[1]);
        return pdt_tree_out_push(t, PDT_LEAF) ? PDT_OK : pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    pdt_status st = PDT_OK;
    size_t base = s->top;
    uint32_t n = push_splits(s, key, NULL, &st);
    if (n == UINT32_MAX) return st ? st : pdt_error_set(s->err, PDT_EINTERNAL, "a split overflowed while rebuilding");
    uint32_t from = solved ? s->dec[slot] : 0, to = solved ? from + 1 : n;
    size_t mark = t->len;
    *ok = false;
    for (uint32_t i = from; i < to && !*ok && !st; i++) {
        uint64_t vl[2], vr[2];
        bool okl = false, okr = false;
        t->len = mark;
        if (!pdt_tree_out_push(t, s->apay[base + i])) st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
        if (!st) st = emit(s, s->al[base + i], t, vl, &okl);
        if (!st && okl) st = emit(s, s->ar[base + i], t, vr, &okr);
        if (st || !okl || !okr) continue;
        v[0] = combine(s->info.combine[0], vl[0], vr[0], s->ac0[base + i]);
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
    bool ok = false;
    st = emit(s, s->info.root, &t, v, &ok);
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
    pdt_status st = dp_run(&s, res, root, used);
    *seconds = elapsed(&s);
    dp_free(&s);
    return st;
}
