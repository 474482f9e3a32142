/* The categorical family's front search (discrete_front.h): features, the
 * cache of fronts by item set, the recursion and the split's budget
 * distribution over its ways. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "discrete_front_impl.h"

/* ------------------------------------------------------------ features */

/* A bitset of the rows per feature code, and of the positive rows, when they
 * take at most 256 MiB (else depth1 counts row by row). */
static void code_bitsets(df_search *s)
{
    size_t codes = s->code_off[s->nf];
    s->words = pdt_bits_words(s->n);
    if ((codes + 2) * s->words * sizeof(uint64_t) > ((size_t)256 << 20)) return;
    s->code_bits = calloc(codes * s->words + 1, sizeof *s->code_bits);
    s->pos_bits = calloc(s->words + 1, sizeof *s->pos_bits);
    s->region = calloc(s->words + 1, sizeof *s->region);
    if (!s->code_bits || !s->pos_bits || !s->region) {
        free(s->code_bits), free(s->pos_bits), free(s->region);
        s->code_bits = s->pos_bits = s->region = NULL;
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (s->pos[i]) pdt_bit_set(s->pos_bits, i);
        for (size_t f = 0; f < s->nf; f++)
            pdt_bit_set(s->code_bits + (s->code_off[f] + s->x[i * s->nf + f]) * s->words, i);
    }
}

/* Categorical columns split in their ways; the other columns' binarised
 * thresholds x ≤ t in two (code 0: the rule's left side), as discrete_fit.c. */
static pdt_status make_features(df_search *s)
{
    const pdt_dataset *ds = s->ds;
    size_t n = pdt_dataset_rows(ds), d = pdt_dataset_dims(ds), nf = 0;
    pdt_status st = bin_encode(&s->enc, ds, NULL, s->err);
    if (st) return st;
    s->column = malloc((d + s->enc.n + 1) * sizeof *s->column);
    s->bin = malloc((d + s->enc.n + 1) * sizeof *s->bin);
    if (!s->column || !s->bin) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    for (size_t j = 0; j < d; j++) {
        size_t k = pdt_dataset_categories(ds, j);
        if (k > 65535)
            return pdt_error_set(s->err, PDT_ELIMIT, "column \"%s\": %zu categories (at most 65535)",
                                 pdt_dataset_feature_name(ds, j), k);
        if (k >= 2 && pdt_dataset_distinct(ds, j) >= 2) s->column[nf] = (uint32_t)j, s->bin[nf++] = -1;
    }
    for (size_t b = 0; b < s->enc.n; b++)
        if (!pdt_dataset_is_categorical(ds, s->enc.f[b].column)) s->column[nf] = s->enc.f[b].column, s->bin[nf++] = (int32_t)b;
    s->n = n, s->nf = nf;
    s->x = malloc((n * nf + 1) * sizeof *s->x);
    s->k = malloc((nf + 1) * sizeof *s->k);
    s->pos = malloc(n + 1);
    if (!s->x || !s->k || !s->pos) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory (%zu rows × %zu features)", n, nf);
    for (size_t t = 0; t < nf; t++) s->k[t] = s->bin[t] < 0 ? (uint16_t)pdt_dataset_categories(ds, s->column[t]) : 2;
    s->code_off = malloc((nf + 1) * sizeof *s->code_off);
    if (!s->code_off) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    s->code_off[0] = 0;
    for (size_t t = 0; t < nf; t++) s->code_off[t + 1] = s->code_off[t] + s->k[t];
    s->cnt = malloc((2 * (size_t)s->code_off[nf] + 1) * sizeof *s->cnt);
    if (!s->cnt || !pdt_front_acc_init(&s->acc, (uint32_t)n)) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        s->pos[i] = pdt_dataset_label(ds, i) == s->positive;
        for (size_t t = 0; t < nf; t++)
            s->x[i * nf + t] = s->bin[t] < 0 ? (uint16_t)pdt_dataset_value(ds, i, s->column[t])
                                             : (uint16_t)bin_value(&s->enc, ds, (size_t)s->bin[t], i);
    }
    code_bitsets(s);
    return PDT_OK;
}

/* ------------------------------------------------------------ the cache */

static uint64_t key_hash(const uint32_t *rows, uint32_t n, uint32_t drem, uint32_t k)
{
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ ((uint64_t)drem << 32 | k);
    for (uint32_t i = 0; i < n; i++) {
        h ^= rows[i];
        h *= UINT64_C(0xff51afd7ed558ccd);
        h ^= h >> 33;
    }
    return (h ^ n) | 1;
}

static df_entry *slot_of(df_entry *slots, size_t n_slots, const uint32_t *rows, uint32_t n, uint32_t drem,
                         uint32_t k, uint64_t h)
{
    size_t mask = n_slots - 1;
    for (size_t p = (size_t)h & mask;; p = (p + 1) & mask) {
        df_entry *e = &slots[p];
        if (!e->hash) return e;
        if (e->hash == h && e->n == n && e->drem == drem && e->k == k && !memcmp(e->rows, rows, n * sizeof *rows))
            return e;
    }
}

static bool memo_grow(df_search *s)
{
    size_t n_slots = s->n_slots ? 2 * s->n_slots : 1024, add = (n_slots - s->n_slots) * sizeof(df_entry);
    if (s->bytes + add > s->memo_limit) return false;
    df_entry *slots = calloc(n_slots, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < s->n_slots; i++) {
        const df_entry *e = &s->slots[i];
        if (e->hash) *slot_of(slots, n_slots, e->rows, e->n, e->drem, e->k, e->hash) = *e;
    }
    free(s->slots);
    s->slots = slots;
    s->n_slots = n_slots;
    s->bytes += add;
    return true;
}

static const df_entry *memo_find(const df_search *s, const uint32_t *rows, uint32_t n, uint32_t drem, uint32_t k)
{
    if (!s->n_slots) return NULL;
    const df_entry *e = slot_of(s->slots, s->n_slots, rows, n, drem, k, key_hash(rows, n, drem, k));
    return e->hash ? e : NULL;
}

/* Caches the front; past the memory limit nothing more is cached (recomputed when needed). */
static void memo_put(df_search *s, const uint32_t *rows, uint32_t n, uint32_t drem, uint32_t k, const pdt_front *f)
{
    size_t need = n * sizeof *rows + f->n * sizeof *f->p;
    if (s->memo_full || s->bytes + need > s->memo_limit) {
        s->memo_full = true;
        return;
    }
    if (4 * (s->used + 1) > 3 * s->n_slots && !memo_grow(s)) {
        s->memo_full = true;
        return;
    }
    uint64_t h = key_hash(rows, n, drem, k);
    df_entry *e = slot_of(s->slots, s->n_slots, rows, n, drem, k, h);
    uint32_t *copy = malloc(n * sizeof *copy + 1);
    pdt_front_point *p = malloc(f->n * sizeof *p + 1);
    if (!copy || !p) {
        free(copy), free(p);
        s->memo_full = true;
        return;
    }
    memcpy(copy, rows, n * sizeof *rows);
    if (f->n) memcpy(p, f->p, f->n * sizeof *p);
    *e = (df_entry){h, n, drem, k, copy, {p, f->n, f->n}};
    s->used++;
    s->bytes += need;
}

/* ------------------------------------------------------------ the recursion */

uint32_t df_positives(const df_search *s, const uint32_t *rows, uint32_t n)
{
    uint32_t p = 0;
    for (uint32_t i = 0; i < n; i++) p += s->pos[rows[i]];
    return p;
}

bool df_leaf(pdt_front *out, const df_search *s, const uint32_t *rows, uint32_t n)
{
    uint32_t p = df_positives(s, rows, n);
    out->n = 0;
    bool ok = pdt_front_push(out, n - p, 0, s->positive, 0, 0) && pdt_front_push(out, 0, p, 1 - s->positive, 0, 0);
    pdt_front_filter(out);
    return ok;
}

bool df_normalise(const df_search *s, uint32_t n, uint32_t pos, uint32_t *drem, uint32_t *k)
{
    uint32_t smallest = s->min_leaf > 1 ? s->min_leaf : 1;
    if (*drem == 0 || *k == 0 || pos == 0 || pos == n || n < 2 * smallest) return false;
    /* a tree of non-degenerate splits has at most n − 1 branch nodes, and depth at most n − 1 */
    if (*k != PDT_UNLIMITED && *k > n - 1) *k = n - 1;
    if (*drem != PDT_UNLIMITED && *drem > n - 1) *drem = n - 1;
    if (*k != PDT_UNLIMITED && (*drem == PDT_UNLIMITED || *drem > *k)) *drem = *k;
    return true;
}

bool df_partition(df_split *sp, const df_search *s, const uint32_t *rows, uint32_t n, uint32_t f)
{
    uint32_t kf = s->k[f], *count = sp->start; /* start has room for kf + 1 */
    memset(count, 0, (kf + 1) * sizeof *count);
    for (uint32_t i = 0; i < n; i++) count[s->x[(size_t)rows[i] * s->nf + f] + 1]++;
    uint32_t m = 0;
    for (uint32_t v = 0; v < kf; v++) {
        if (count[v + 1] && count[v + 1] < s->min_leaf) return false;
        m += count[v + 1] != 0;
    }
    if (m < 2) return false;
    for (uint32_t v = 0; v < kf; v++) count[v + 1] += count[v];
    for (uint32_t i = 0; i < n; i++) sp->rows[count[s->x[(size_t)rows[i] * s->nf + f]]++] = rows[i];
    /* count[v] is now the end of code v's group: compact to the present codes
     * (in place: start is count, and w ≤ v) */
    uint32_t prev = 0, w = 0;
    for (uint32_t v = 0; v < kf; v++) {
        uint32_t end = count[v];
        if (end == prev) continue;
        sp->code[w] = (uint16_t)v;
        sp->start[w++] = prev;
        prev = end;
    }
    sp->start[w] = n;
    sp->m = w;
    return true;
}

static void check_stop(df_search *s)
{
    if ((!s->has_deadline && !s->stop) || (s->stats.nodes % 256u)) return;
    if (s->stop && *s->stop) s->aborted = true;
    if (!s->has_deadline) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > s->deadline.tv_sec || (now.tv_sec == s->deadline.tv_sec && now.tv_nsec >= s->deadline.tv_nsec))
        s->aborted = true;
}

/* Level j from level j−1 and way j's fronts, budget by budget. */
static pdt_status add_way(df_search *s, const df_split *sp, uint32_t j, uint32_t drem, uint32_t k,
                          const pdt_front *prev, pdt_front *cur, pdt_front *kid_fronts, bool keep)
{
    uint32_t nb = df_budgets(k), lo = sp->start[j - 1], n = sp->start[j] - lo;
    for (uint32_t b = 0; b < nb; b++) cur[b].n = 0;
    for (uint32_t b2 = 0; b2 < nb && b2 < n; b2++) { /* budgets beyond n − 1 give the same front */
        pdt_front *kid = keep ? &kid_fronts[(size_t)(j - 1) * nb + b2] : kid_fronts;
        pdt_status st = df_front(s, sp->rows + lo, n, drem, k == PDT_UNLIMITED ? k : b2, kid, false);
        if (st || s->aborted) return st;
        for (uint32_t b = b2; b < nb; b++)
            if (!pdt_front_append_sum(&cur[b], &prev[b - b2], kid, b2))
                return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    for (uint32_t b = 0; b < nb; b++) pdt_front_filter(&cur[b]);
    return PDT_OK;
}

pdt_status df_split_fronts(df_search *s, const df_split *sp, uint32_t drem, uint32_t k, pdt_front *lv,
                           pdt_front *kids, bool keep)
{
    uint32_t nb = df_budgets(k);
    for (uint32_t b = 0; b < nb; b++) { /* level 0: nothing used yet, at every budget */
        lv[b].n = 0;
        if (!pdt_front_push(&lv[b], 0, 0, 0, 0, 0)) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    for (uint32_t j = 1; j <= sp->m; j++) {
        pdt_front *prev = keep ? lv + (size_t)(j - 1) * nb : lv + (size_t)((j - 1) & 1) * nb;
        pdt_front *cur = keep ? lv + (size_t)j * nb : lv + (size_t)(j & 1) * nb;
        pdt_status st = add_way(s, sp, j, drem, k, prev, cur, kids, keep);
        if (st || s->aborted) return st;
    }
    return PDT_OK;
}

typedef struct node_scratch {
    df_split sp;
    pdt_front *lv, kid;
    uint32_t nb;
} node_scratch;

static bool scratch_init(node_scratch *x, const df_search *s, uint32_t n, uint32_t k)
{
    uint32_t most = 2;
    for (size_t f = 0; f < s->nf; f++) most = s->k[f] > most ? s->k[f] : most;
    x->nb = df_budgets(k);
    x->sp.start = malloc((most + 1) * sizeof *x->sp.start);
    x->sp.rows = malloc((n + 1) * sizeof *x->sp.rows);
    x->sp.code = malloc((most + 1) * sizeof *x->sp.code);
    x->lv = calloc(2 * (size_t)x->nb, sizeof *x->lv);
    pdt_front_init(&x->kid);
    return x->sp.start && x->sp.rows && x->sp.code && x->lv;
}

static void scratch_clear(node_scratch *x)
{
    for (uint32_t b = 0; x->lv && b < 2 * x->nb; b++) pdt_front_clear(&x->lv[b]);
    free(x->lv);
    pdt_front_clear(&x->kid);
    free(x->sp.start), free(x->sp.rows), free(x->sp.code);
}

/* The splits of a region that is not a leaf only, added to *out (which holds its leaf). */
static pdt_status splits(df_search *s, const uint32_t *rows, uint32_t n, uint32_t drem, uint32_t k, pdt_front *out,
                         bool root)
{
    uint32_t ways_k = k == PDT_UNLIMITED ? k : k - 1, ways_d = drem == PDT_UNLIMITED ? drem : drem - 1;
    node_scratch x;
    pdt_status st = scratch_init(&x, s, n, ways_k) ? PDT_OK : pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    for (uint32_t f = 0; !st && f < s->nf && !s->aborted; f++) {
        if (pdt_front_covers(out, 0, 0)) break; /* the lower bound {(0, 0)}: nothing can be added */
        if (!df_partition(&x.sp, s, rows, n, f)) continue;
        s->stats.candidates++;
        st = df_split_fronts(s, &x.sp, ways_d, ways_k, x.lv, &x.kid, false);
        if (st || s->aborted) break;
        if (!pdt_front_union(out, &x.lv[(size_t)(x.sp.m & 1) * x.nb + x.nb - 1]))
            st = pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
        if (root) s->root_done = f + 1;
    }
    scratch_clear(&x);
    return st;
}

/* s->cnt: negatives and positives of the rows per feature code — from the
 * code bitsets when the region's words are fewer than its rows × features,
 * else row by row. */
static void count_ways(df_search *s, const uint32_t *rows, uint32_t n)
{
    const size_t nf = s->nf, codes = s->code_off[nf];
    uint32_t *cnt = s->cnt;
    size_t w0 = rows[0] >> 6, w1 = (rows[n - 1] >> 6) + 1;
    if (!s->code_bits || 2 * codes * (w1 - w0) >= (size_t)n * nf) {
        memset(cnt, 0, 2 * codes * sizeof *cnt);
        for (uint32_t i = 0; i < n; i++) {
            const uint16_t *xr = s->x + (size_t)rows[i] * nf;
            const uint32_t p = s->pos[rows[i]];
            for (size_t f = 0; f < nf; f++) cnt[2 * (s->code_off[f] + xr[f]) + p]++;
        }
        return;
    }
    uint64_t *region = s->region;
    for (uint32_t i = 0; i < n; i++) pdt_bit_set(region, rows[i]);
    for (size_t c = 0; c < codes; c++) {
        const uint64_t *b = s->code_bits + c * s->words;
        uint32_t items = 0, pos = 0;
        for (size_t w = w0; w < w1; w++) {
            uint64_t x = region[w] & b[w];
            items += (uint32_t)__builtin_popcountll(x);
            pos += (uint32_t)__builtin_popcountll(x & s->pos_bits[w]);
        }
        cnt[2 * c] = items - pos, cnt[2 * c + 1] = pos;
    }
    for (size_t w = w0; w < w1; w++) region[w] = 0;
}

/* One branch level left: every split's front from the class counts of its
 * ways (one pass over the rows for all features), the sum of the ways' leaf
 * fronts {(negatives, 0), (0, positives)}, without recursion or cache. */
static pdt_status depth1(df_search *s, const uint32_t *rows, uint32_t n, pdt_front *out)
{
    const size_t nf = s->nf;
    count_ways(s, rows, n);
    const uint32_t *cnt = s->cnt;
    pdt_front *cur = &s->way_a, *nxt = &s->way_b;
    for (size_t f = 0; f < nf && !pdt_front_covers(out, 0, 0); f++) { /* the leaf pure: (0, 0) */
        const uint32_t *c = cnt + 2 * (size_t)s->code_off[f];
        uint32_t m = 0, small = 0;
        for (uint32_t v = 0; v < s->k[f]; v++) {
            uint32_t items = c[2 * v] + c[2 * v + 1];
            m += items != 0;
            small += items != 0 && items < s->min_leaf;
        }
        if (m < 2 || small) continue;
        s->stats.candidates++;
        cur->n = 0;
        bool ok = pdt_front_push(cur, 0, 0, 0, 0, 0);
        for (uint32_t v = 0; v < s->k[f] && ok; v++) {
            uint32_t neg = c[2 * v], pos = c[2 * v + 1];
            if (!neg && !pos) continue;
            nxt->n = 0;
            for (size_t i = 0; i < cur->n && ok; i++)
                ok = pdt_front_push(nxt, cur->p[i].fp + neg, cur->p[i].fn, 0, 0, 0) &&
                     pdt_front_push(nxt, cur->p[i].fp, cur->p[i].fn + pos, 0, 0, 0);
            pdt_front_filter(nxt);
            pdt_front *t = cur;
            cur = nxt, nxt = t;
        }
        if (!ok) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
        for (size_t i = 0; i < cur->n; i++) pdt_front_acc_add(&s->acc, cur->p[i].fp, cur->p[i].fn, 0, 0, 0);
        if (cur->n && cur->p[0].fp == 0 && cur->p[0].fn == 0) break;
    }
    for (size_t i = 0; i < out->n; i++) pdt_front_acc_add(&s->acc, out->p[i].fp, out->p[i].fn, out->p[i].how, 0, 0);
    return pdt_front_acc_take(out, &s->acc, n - df_positives(s, rows, n)) ? PDT_OK
                                                                           : pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
}

pdt_status df_front(df_search *s, const uint32_t *rows, uint32_t n, uint32_t drem, uint32_t k, pdt_front *out,
                    bool root)
{
    s->stats.nodes++;
    check_stop(s);
    if (!df_leaf(out, s, rows, n)) return pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    if (s->aborted || !df_normalise(s, n, df_positives(s, rows, n), &drem, &k)) return PDT_OK;
    if (drem == 1) return depth1(s, rows, n, out);
    const df_entry *e = memo_find(s, rows, n, drem, k);
    if (e) {
        s->stats.memo_hits++;
        out->n = 0;
        return pdt_front_union(out, &e->front) ? PDT_OK : pdt_error_set(s->err, PDT_ENOMEM, "out of memory");
    }
    pdt_status st = splits(s, rows, n, drem, k, out, root);
    if (!st && !s->aborted) memo_put(s, rows, n, drem, k, out);
    return st;
}

/* ------------------------------------------------------------ the session */

static void set_deadline(df_search *s, double seconds)
{
    clock_gettime(CLOCK_MONOTONIC, &s->start);
    if (seconds <= 0) return;
    s->has_deadline = true;
    s->deadline = s->start;
    double whole = (double)(long)seconds;
    s->deadline.tv_sec += (time_t)whole;
    s->deadline.tv_nsec += (long)((seconds - whole) * 1e9);
    if (s->deadline.tv_nsec >= 1000000000L) s->deadline.tv_sec++, s->deadline.tv_nsec -= 1000000000L;
}

pdt_status df_search_run(df_search **out, const pdt_dataset *ds, const pdt_fit_options *opt, uint32_t positive,
                         pdt_error *err)
{
    df_search *s = *out = calloc(1, sizeof *s);
    if (!s) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    *s = (df_search){.ds = ds, .positive = positive, .max_depth = opt->max_depth, .max_size = opt->max_size,
                     .min_leaf = opt->min_leaf, .stop = opt->stop, .err = err};
    s->memo_limit = opt->no_memo ? 0 : (opt->memo_megabytes ? opt->memo_megabytes : 1024) << 20;
    pdt_front_init(&s->front);
    set_deadline(s, opt->time_limit);
    pdt_status st = make_features(s);
    uint32_t *rows = st ? NULL : malloc((s->n + 1) * sizeof *rows);
    if (!st && !rows) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (uint32_t i = 0; !st && i < s->n; i++) rows[i] = i;
    if (!st) st = df_front(s, rows, (uint32_t)s->n, opt->max_depth, opt->max_size, &s->front, true);
    free(rows);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    s->stats.seconds = (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec);
    s->stats.memo_entries = s->used;
    return st;
}

const pdt_front *df_search_front(const df_search *s) { return &s->front; }
bool df_search_complete(const df_search *s) { return !s->aborted; }
const pdt_search_stats *df_search_stats(const df_search *s) { return &s->stats; }

void df_search_free(df_search **sp)
{
    df_search *s = *sp;
    if (!s) return;
    for (size_t i = 0; i < s->n_slots; i++)
        if (s->slots[i].hash) free(s->slots[i].rows), free(s->slots[i].front.p);
    free(s->slots);
    bin_encoding_clear(&s->enc);
    free(s->column), free(s->bin), free(s->x), free(s->k), free(s->pos), free(s->code_off), free(s->cnt);
    pdt_front_clear(&s->way_a), pdt_front_clear(&s->way_b);
    pdt_front_acc_clear(&s->acc);
    free(s->code_bits), free(s->pos_bits), free(s->region);
    pdt_front_clear(&s->front);
    free(s);
    *sp = NULL;
}
