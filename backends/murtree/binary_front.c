/* The front of (FP, FN) of every tree on a subproblem (items, depth ≤ d,
 * ≤ n branch nodes) — the Pareto search of Demirović & Stuckey for two classes:
 *   F(D, 0 or n = 0)  = the leaf's two points: predict positive (FP = negatives
 *                       of D, FN = 0) and predict negative (FP = 0, FN = positives);
 *   F(D, d, n)        = F(D, leaf) ∪ ⋃_f ⋃_{nl} F(D∧¬f, d−1, nl) ⊕ F(D∧f, d−1, n−1−nl),
 * ⊕ the Minkowski sum, every union filtered to its nondominated points (front.h).
 * Fronts of depth ≥ 2 are cached by item set and limits; depth 1 is computed
 * from the class counts of D∧f directly.  Each point remembers its root
 * feature and budget (how) and its child points (left, right), so the caller
 * rebuilds any tree of the front by solving the children again (cache hits,
 * or the same deterministic depth-1 computation). */
#include <stdlib.h>
#include <string.h>

#include "binary_front.h"
#include "binary_search.h"
#include "bitset.h"

#include "binary_front_impl.h"
#include "pdt_parallel.h"

void fr_normalise(uint32_t *d, uint32_t *n) { bs_normalise(d, n); }

pdt_status fr_failed(const fr_search *s) { return s->failed; }

void fr_arm(fr_search *s, bool armed) { s->disarmed = !armed; }

void fr_clear_deadline(fr_search *s)
{
    s->has_deadline = false;
    s->stop = NULL;
    if (s->failed == PDT_ELIMIT) s->failed = PDT_OK;
}
const fr_stats *fr_search_stats(const fr_search *s) { return &s->stats; }
uint32_t fr_positive(const fr_search *s) { return s->positive; }

pdt_status fr_new(fr_search **out, const bs_data *data, uint32_t positive, size_t cache_bytes,
                  double time_limit, const volatile sig_atomic_t *stop, pdt_error *err)
{
    fr_search *s = calloc(1, sizeof *s);
    if (!s) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    s->limit = cache_bytes;
    s->data = data;
    s->W = data->words;
    s->positive = positive;
    s->pos = data->cls + (size_t)positive * data->words;
    s->neg = data->cls + (size_t)(1 - positive) * data->words;
    s->P = pdt_bits_and_count(data->all, s->pos, data->words);
    s->N = pdt_bits_and_count(data->all, s->neg, data->words);
    s->stop = stop;
    s->n_slots = 1024;
    s->slots = calloc(s->n_slots, sizeof *s->slots);
    bool ok = s->slots != NULL;
    for (size_t k = 0; k <= FR_MAX_DEPTH && ok; k++) {
        s->levels[k].l = calloc(2 * s->W + 1, sizeof(uint64_t));
        s->levels[k].r = s->levels[k].l ? s->levels[k].l + s->W : NULL;
        s->levels[k].seen = calloc((data->nf + 1) * s->W + 1, sizeof(uint64_t));
        s->levels[k].seen_hash = calloc(data->nf + 1, sizeof(uint64_t));
        ok = s->levels[k].l != NULL && s->levels[k].seen && s->levels[k].seen_hash &&
             pdt_front_acc_init(&s->levels[k].acc, pdt_bits_and_count(data->all, s->neg, data->words));
    }
    ok = ok && fr_scratch_init(s);
    if (time_limit > 0) {
        s->has_deadline = true;
        clock_gettime(CLOCK_MONOTONIC, &s->deadline);
        s->deadline.tv_sec += (time_t)time_limit;
        s->deadline.tv_nsec += (long)((time_limit - (double)(time_t)time_limit) * 1e9);
        if (s->deadline.tv_nsec >= 1000000000L) s->deadline.tv_sec++, s->deadline.tv_nsec -= 1000000000L;
    }
    *out = s;
    if (!ok) {
        fr_free(out);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    }
    return PDT_OK;
}

void fr_free(fr_search **sp)
{
    fr_search *s = *sp;
    if (!s) return;
    for (size_t i = 0; i < s->n_slots; i++)
        if (s->slots[i]) {
            pdt_front_clear(&s->slots[i]->front);
            free(s->slots[i]->key);
            free(s->slots[i]);
        }
    free(s->slots);
    free(s->maxfn), free(s->sim_items);
    for (size_t k = 0; s->sim_front && k < s->sim_k; k++) pdt_front_clear(&s->sim_front[k]);
    free(s->sim_front), free(s->sim_n), free(s->sim_pq);
    fr_scratch_clear(s);
    for (size_t k = 0; k <= FR_MAX_DEPTH; k++) {
        free(s->levels[k].l);
        free(s->levels[k].seen), free(s->levels[k].seen_hash);
        pdt_front_clear(&s->levels[k].fl);
        pdt_front_clear(&s->levels[k].fr);
        pdt_front_clear(&s->levels[k].ca), pdt_front_clear(&s->levels[k].cb);
        pdt_front_acc_clear(&s->levels[k].acc);
    }
    free(s);
    *sp = NULL;
}

/* ------------------------------------------------------------ the cache */

static fr_entry **slot_of(fr_search *s, const uint64_t *items, uint64_t hash, uint32_t d, uint32_t n)
{
    size_t mask = s->n_slots - 1, i = (size_t)hash & mask;
    for (;; i = (i + 1) & mask) {
        fr_entry *e = s->slots[i];
        if (!e || (e->hash == hash && e->d == d && e->n == n && memcmp(e->key, items, s->W * 8) == 0))
            return &s->slots[i];
    }
}

static bool grow_table(fr_search *s)
{
    size_t n = s->n_slots * 2;
    fr_entry **old = s->slots, **slots = calloc(n, sizeof *slots);
    if (!slots) return false;
    size_t old_n = s->n_slots;
    s->slots = slots;
    s->n_slots = n;
    for (size_t i = 0; i < old_n; i++)
        if (old[i]) *slot_of(s, old[i]->key, old[i]->hash, old[i]->d, old[i]->n) = old[i];
    free(old);
    return true;
}

static fr_entry *new_entry(fr_search *s, const uint64_t *items, uint64_t hash, uint32_t d, uint32_t n)
{
    if (2 * (s->n_entries + 1) > s->n_slots && !grow_table(s)) return NULL;
    fr_entry *e = calloc(1, sizeof *e);
    uint64_t *key = malloc(s->W * 8 + 8);
    if (!e || !key) {
        free(e), free(key);
        return NULL;
    }
    memcpy(key, items, s->W * 8);
    *e = (fr_entry){.hash = hash, .d = d, .n = n, .key = key};
    *slot_of(s, items, hash, d, n) = e;
    s->n_entries++;
    s->stats.cache_fronts++;
    return e;
}

/* ------------------------------------------------------------ fronts */

bool fr_leaf_front(pdt_front *f, uint32_t p, uint32_t q)
{
    f->n = 0;
    bool ok = pdt_front_push(f, 0, p, FR_LEAF_NEG, 0, 0) && pdt_front_push(f, q, 0, FR_LEAF_POS, 0, 0);
    pdt_front_filter(f);
    return ok;
}

bool fr_stopped(fr_search *s)
{
    if (s->failed) return true;
    if (++s->tick % 256 || s->disarmed) return false;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (pdt_stop_requested(s->stop) ||
        (s->has_deadline && (now.tv_sec > s->deadline.tv_sec ||
                             (now.tv_sec == s->deadline.tv_sec && now.tv_nsec >= s->deadline.tv_nsec))))
        s->failed = PDT_ELIMIT;
    return s->failed != 0;
}

/* Depth 1 (n ≥ 1): the class counts of D∧g for every g, then fr_front_of_counts. */
static bool depth1_front(fr_search *s, pdt_front *f, const uint64_t *items, uint32_t p, uint32_t q,
                         const fr_off *off)
{
    const size_t W = s->W;
    for (size_t g = 0; g < s->data->nf; g++) {
        const uint64_t *col = s->data->cols + g * W;
        uint32_t p1 = 0, q1 = 0;
        for (size_t k = 0; k < W; k++) {
            uint64_t x = items[k] & col[k];
            p1 += (uint32_t)__builtin_popcountll(x & s->pos[k]);
            q1 += (uint32_t)__builtin_popcountll(x & s->neg[k]);
        }
        s->d1p[g] = p1, s->d1q[g] = q1;
    }
    return fr_front_of_counts(s, f, &s->levels[1].acc, p, q, s->d1p, s->d1q, off);
}

/* The split (l, r) was tried at this node already, as (l, r) or as (r, l): its
 * sums are the same points (the budget range is symmetric) with a larger how,
 * so they change nothing.  Otherwise r is remembered. */
static bool seen_split(fr_search *s, fr_level *here, size_t *n_seen, const uint64_t *l, const uint64_t *r)
{
    const size_t W = s->W;
    uint64_t hl = bc_hash(l, W), hr = bc_hash(r, W);
    for (size_t i = 0; i < *n_seen; i++) {
        const uint64_t *x = here->seen + i * W;
        if ((here->seen_hash[i] == hr && memcmp(x, r, W * 8) == 0) ||
            (here->seen_hash[i] == hl && memcmp(x, l, W * 8) == 0))
            return true;
    }
    memcpy(here->seen + *n_seen * W, r, W * 8);
    here->seen_hash[(*n_seen)++] = hr;
    return false;
}

static bool fail_take(pdt_front *f, pdt_front_acc *acc, uint32_t q)
{
    pdt_front_acc_take(f, acc, q); /* leaves the accumulator empty */
    return false;
}

/* The points of x within the bound under off (x itself when they all are): a
 * child's front may be whole (depth 2) or computed under a smaller offset. */
static const pdt_front *clipped(const fr_search *s, pdt_front *into, const pdt_front *x, const fr_off *off)
{
    size_t i = 0;
    while (i < x->n && fr_allowed(s, off, x->p[i].fp, x->p[i].fn)) i++;
    if (i == x->n) return x;
    into->n = 0;
    if (x->n > into->cap && !pdt_front_union(into, x)) return NULL; /* reserves the room */
    into->n = 0;
    for (i = 0; i < x->n; i++)
        if (fr_allowed(s, off, x->p[i].fp, x->p[i].fn)) into->p[into->n++] = x->p[i];
    return into;
}

static bool general_front(fr_search *s, pdt_front *f, const uint64_t *items, uint32_t p, uint32_t q,
                          uint32_t d, uint32_t n, const fr_off *off)
{
    if (d == 2) return fr_depth2_front(s, f, items, p, q, n); /* whole: fr_solve_in passes no offset */
    const size_t W = s->W;
    fr_level *lv = &s->levels[d - 1];
    pdt_front_acc *acc = &s->levels[d].acc;
    pdt_front_acc_add(acc, 0, p, FR_LEAF_NEG, 0, 0);
    pdt_front_acc_add(acc, q, 0, FR_LEAF_POS, 0, 0);
    uint32_t cap = bs_cap(d - 1);
    size_t n_seen = 0;
    for (size_t g = 0; g < s->data->nf; g++) {
        const uint64_t *col = s->data->cols + g * W;
        bool el = true, er = true;
        for (size_t k = 0; k < W; k++) {
            lv->l[k] = items[k] & ~col[k];
            lv->r[k] = items[k] & col[k];
            el &= lv->l[k] == 0, er &= lv->r[k] == 0;
        }
        if (el || er) continue;
        if (seen_split(s, &s->levels[d], &n_seen, lv->l, lv->r)) {
            s->stats.pruned++;
            continue;
        }
        uint32_t lo = n - 1 > cap ? n - 1 - cap : 0, hi = n - 1 < cap ? n - 1 : cap;
        for (uint32_t nl = lo; nl <= hi; nl++) {
            /* the right side adds at least (0, 0); once the left front is known, at least its
             * smallest FP and FN: the right side is solved under that offset */
            if (off && d == 3 &&
                fr_similar_prunes(s, lv->r, pdt_bits_and_count(lv->r, s->pos, W), pdt_bits_and_count(lv->r, s->neg, W),
                                  n - 1 - nl, off)) {
                s->stats.pruned++; /* the right side alone is out of the bound: so is every sum */
                continue;
            }
            const pdt_front *a = fr_solve_in(s, &lv->fl, lv->l, d - 1, nl, off), *b = NULL;
            if (a && off && !(a = clipped(s, &lv->ca, a, off))) return fail_take(f, acc, q);
            fr_off roff = {0, 0};
            if (a && a->n && off) roff = (fr_off){off->x + a->p[0].fp, off->y + a->p[a->n - 1].fn};
            if (a && a->n) b = fr_solve_in(s, &lv->fr, lv->r, d - 1, n - 1 - nl, off ? &roff : NULL);
            if (b && off && !(b = clipped(s, &lv->cb, b, &roff))) return fail_take(f, acc, q);
            if (!a || (a->n && !b)) {
                pdt_front_acc_take(f, acc, q); /* leaves the accumulator empty */
                return false;
            }
            if (!a->n || !b->n) { /* nothing within the bound on one side */
                s->stats.pruned++;
                continue;
            }
            pdt_front_acc_add_sums(acc, a, b, (uint32_t)g << 8 | nl);
            if (off && d == s->top_d) fr_bound_offer(s, a, b);
            s->stats.sums++;
        }
        if (acc->best[0].fn == 0) { /* a perfect tree: every later point is dominated or a later tie */
            s->stats.pruned += s->data->nf - 1 - g;
            break;
        }
    }
    bool ok = pdt_front_acc_take(f, acc, q);
    fr_clip(s, f, off);
    return ok;
}

/* A cached front serves the query: it is whole, or computed under an offset no larger. */
static bool serves(const fr_entry *e, const fr_off *off)
{
    return !e->bounded || (off && off->x >= e->off.x && off->y >= e->off.y);
}

static size_t entry_bytes(const fr_search *s, const pdt_front *f)
{
    return sizeof(fr_entry) + s->W * 8 + f->cap * sizeof *f->p + 2 * sizeof(fr_entry *);
}

/* Entry e takes front f (of `bytes`), computed under off (NULL: whole). */
static const pdt_front *store(fr_search *s, fr_entry *e, pdt_front f, const fr_off *off, size_t bytes)
{
    e->front = f;
    e->bounded = off != NULL;
    if (off) e->off = *off;
    s->bytes += bytes;
    s->stats.cache_points += f.n;
    return &e->front;
}

const pdt_front *fr_solve(fr_search *s, pdt_front *scratch, const uint64_t *items, uint32_t d, uint32_t n)
{
    return fr_solve_in(s, scratch, items, d, n, NULL);
}

const pdt_front *fr_solve_in(fr_search *s, pdt_front *scratch, const uint64_t *items, uint32_t d, uint32_t n,
                             const fr_off *off)
{
    if (fr_stopped(s)) return NULL;
    if (!s->bounded) off = NULL;
    if (off && !fr_allowed(s, off, 0, 0)) { /* no point of it can be within the bound */
        s->stats.pruned++;
        scratch->n = 0;
        return scratch;
    }
    fr_normalise(&d, &n);
    s->stats.subproblems++;
    uint32_t p = pdt_bits_and_count(items, s->pos, s->W), q = pdt_bits_and_count(items, s->neg, s->W);
    bool ok;
    if (d == 0 || n == 0 || p == 0 || q == 0) { /* a pure set: the leaf is perfect */
        ok = fr_leaf_front(scratch, p, q);
    } else if (d == 1) {
        ok = depth1_front(s, scratch, items, p, q, off);
    } else {
        uint64_t hash = bc_hash(items, s->W);
        fr_entry **slot = slot_of(s, items, hash, d, n);
        if (*slot && serves(*slot, off)) {
            s->stats.cache_hits++;
            return &(*slot)->front;
        }
        if (d == 2 && off) { /* depth 2: whole fronts, and the similarity bound from the last one */
            if (fr_similar_prunes(s, items, p, q, n, off)) {
                s->stats.pruned++;
                scratch->n = 0;
                return scratch;
            }
            off = NULL;
        }
        pdt_front f;
        pdt_front_init(&f);
        ok = general_front(s, &f, items, p, q, d, n, off);
        if (ok && d == 2 && !off && s->bounded) ok = fr_similar_keep(s, items, p, q, n, &f);
        size_t bytes = entry_bytes(s, &f);
        slot = ok ? slot_of(s, items, hash, d, n) : slot; /* the table may have grown meanwhile */
        if (ok && *slot) { /* computed again under a wider bound: it replaces the cached front */
            fr_entry *e = *slot;
            s->bytes -= entry_bytes(s, &e->front);
            s->stats.cache_points -= e->front.n;
            pdt_front_clear(&e->front);
            return store(s, e, f, off, bytes);
        }
        if (ok && s->bytes + bytes > s->limit) { /* the cache is full: the caller's scratch holds it */
            pdt_front_clear(scratch);
            *scratch = f;
            s->stats.uncached++;
            return scratch;
        }
        fr_entry *e = ok ? new_entry(s, items, hash, d, n) : NULL;
        if (!e) {
            pdt_front_clear(&f);
            if (!s->failed) s->failed = PDT_ENOMEM;
            return NULL;
        }
        return store(s, e, f, off, bytes);
    }
    if (!ok && !s->failed) s->failed = PDT_ENOMEM;
    return ok ? scratch : NULL;
}
