/* The branch search's data (discrete_impl.h): a region's counts, a split's
 * children counted and hashed without moving rows (by items, or by bitsets
 * on large nodes), and the set-up: groups of equal rows, their unavoidable
 * errors, the bitsets of every feature's codes. */
#include "discrete_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"

/* Leaf errors and label of the items, and their unavoidable errors: rows
 * equal on every feature are never parted, so a region's unavoidable errors
 * are the sum of its groups', each counted on the group's first row (fl). */
dc_stats dc_region_stats(dc_search *s, const uint32_t *items, size_t len)
{
    const dc_problem *p = s->p;
    const size_t nc = p->nc;
    dc_stats st = {0, 0, 0};
    memset(s->ccount, 0, nc * sizeof *s->ccount);
    for (size_t k = 0; k < len; k++) {
        s->ccount[p->y[items[k]]]++;
        st.floor += s->fl[items[k]];
    }
    uint32_t most = 0;
    for (size_t c = 0; c < nc; c++)
        if (s->ccount[c] > most) most = s->ccount[c], st.label = (uint32_t)c;
    st.errors = len - most;
    return st;
}

void dc_frame_free(dc_frame *fr)
{
    free(fr->part), free(fr->start), free(fr->key), free(fr->clb), free(fr->cand);
    free(fr->chash), free(fr->cm), free(fr->cerr), free(fr->split), free(fr->rc), free(fr->rtot), free(fr->cfl);
    free(fr->done), free(fr->order), free(fr->bc), free(fr->seen), free(fr->qb), free(fr->nz);
    for (size_t v = 0; v < 2; v++) free(fr->kid[v].rc), free(fr->kid[v].rtot), free(fr->kid[v].bc);
    *fr = (dc_frame){0};
}

dc_frame *dc_frame_at(dc_search *s, size_t depth)
{
    const dc_problem *p = s->p;
    dc_frame *fr = &s->frames[depth];
    if (fr->part) return fr;
    fr->part = malloc((p->n ? p->n : 1) * sizeof *fr->part);
    fr->start = malloc((s->maxk + 1) * sizeof *fr->start);
    fr->key = malloc((depth + 1) * sizeof *fr->key);
    size_t cells = (p->nf ? p->nf : 1) * s->maxk;
    fr->clb = malloc(cells * sizeof *fr->clb);
    fr->chash = malloc(cells * sizeof *fr->chash);
    fr->cm = malloc(cells * sizeof *fr->cm);
    fr->cerr = malloc(cells * sizeof *fr->cerr);
    fr->cfl = malloc(cells * sizeof *fr->cfl);
    fr->cand = malloc((p->nf ? p->nf : 1) * sizeof *fr->cand);
    fr->split = malloc((p->nf ? p->nf : 1) * sizeof *fr->split);
    fr->rc = s->bits ? malloc((p->nc + 1) * s->words * sizeof *fr->rc) : NULL;
    fr->rtot = malloc((p->nc + 1) * sizeof *fr->rtot);
    fr->done = malloc(s->maxk * sizeof *fr->done);
    fr->order = malloc(s->maxk * sizeof *fr->order);
    fr->bc = s->tbits ? malloc((p->nc + s->n_planes) * s->nb * sizeof *fr->bc) : NULL;
    fr->seen = s->bits ? malloc(DC_SEEN * s->words * sizeof *fr->seen) : NULL;
    fr->nz = s->bits ? malloc(s->words * sizeof *fr->nz) : NULL;
    fr->qb = s->tbits ? malloc(s->nb * sizeof *fr->qb) : NULL;
    bool kids = true;
    for (size_t v = 0; s->tbits && v < 2; v++) {
        dc_kid *kid = &fr->kid[v];
        kid->rc = malloc((p->nc + 1) * s->words * sizeof *kid->rc);
        kid->rtot = malloc((p->nc + 1) * sizeof *kid->rtot);
        kid->bc = malloc((p->nc + s->n_planes) * s->nb * sizeof *kid->bc);
        kids = kids && kid->rc && kid->rtot && kid->bc;
    }
    if (fr->part && fr->start && fr->key && fr->clb && fr->chash && fr->cm && fr->cerr && fr->cfl && fr->cand &&
        fr->split &&
        (fr->rc || !s->bits) && fr->rtot && fr->done && fr->order && (fr->bc || !s->tbits) && kids && (fr->seen || !s->bits) &&
        (fr->qb || !s->tbits) && (fr->nz || !s->bits))
        return fr;
    dc_frame_free(fr);
    return NULL;
}

void dc_starts(const dc_search *s, uint32_t f, const uint32_t *sizes, uint32_t *start)
{
    start[0] = 0;
    for (size_t v = 0; v < s->p->k[f]; v++) start[v + 1] = start[v] + sizes[v];
}

/* Items by code of feature f: out holds them grouped, start[v] .. start[v+1].
 * sizes: the number of items of each code when known (dc_count_codes), else
 * NULL (they are counted first). */
void dc_partition(const dc_search *s, uint32_t f, const uint32_t *items, size_t len, const uint32_t *sizes,
                  uint32_t *out, uint32_t *start)
{
    const dc_problem *p = s->p;
    size_t kf = p->k[f];
    memset(start, 0, (kf + 1) * sizeof *start);
    const uint16_t *code = s->col + (size_t)f * p->n;
    if (sizes)
        for (size_t v = 0; v < kf; v++) start[v + 1] = sizes[v];
    else
        for (size_t t = 0; t < len; t++) start[code[items[t]] + 1]++;
    for (size_t v = 0; v < kf; v++) start[v + 1] += start[v];
    assert(start[kf] == len);
    if (kf == 2) { /* two cursors in registers: while both sides have room, every item is written at
                      both and one cursor moves on (the other slot is filled again later) */
        const size_t ones = start[1];
        size_t zero = 0, one = ones, t = 0;
        for (; zero < ones && one < len; t++) {
            const uint32_t i = items[t], v = code[i];
            out[zero] = i, out[one] = i;
            zero += 1 - v, one += v;
        }
        const size_t rest = len - t, at = zero < ones ? zero : one; /* all of one code: the side with room */
        assert(at + rest == (zero < ones ? ones : len));
        if (rest) memcpy(out + at, items + t, rest * sizeof *out);
        return;
    }
    for (size_t t = 0; t < len; t++) {
        uint32_t v = code[items[t]];
        out[start[v]++] = items[t];
    }
    for (size_t v = kf; v > 0; v--) start[v] = start[v - 1];
    start[0] = 0;
}

/* Counting by bitsets costs about one word per (code, class) and by items
 * about BIT_ITEMS words per item (a dependent increment each). */
#define BIT_ITEMS 4

/* Every binary feature's counts at once (fr->bc): word by word, each of the
 * node's row sets (a class; the rows of an unavoidable-error plane) against
 * that word of all the binary features, which lie side by side in s->tbits
 * (one vector loop over the features, not a short loop over words per
 * feature: anneal, DL8.5, lambda = 0.01: see docs/categorical.md). */
static void count_binary(const dc_search *s, const uint64_t *rc, uint32_t floor, uint32_t *acc)
{
    const size_t nb = s->nb, nc = s->p->nc, words = s->words;
    const size_t sets = nc + (floor ? s->n_planes : 0); /* planes only where errors are unavoidable */
    const uint64_t *all = rc + nc * words;
    memset(acc, 0, (nc + s->n_planes) * nb * sizeof *acc);
    for (size_t w = 0; w < words; w++) {
        const uint64_t *t = s->tbits + w * nb;
        for (size_t r = 0; r < sets; r++) {
            const uint64_t x = r < nc ? rc[r * words + w] : all[w] & s->planes[(r - nc) * words + w];
            if (!x) continue;
            uint32_t *a = acc + r * nb;
            for (size_t j = 0; j < nb; j++) a[j] += (uint32_t)__builtin_popcountll(x & t[j]);
        }
    }
}

bool dc_narrow(const dc_search *s)
{
    const dc_problem *p = s->p;
    return s->tbits && p->err_cost <= INT32_MAX && p->split_cost <= INT32_MAX &&
           (int64_t)p->n * p->err_cost + 2 * p->split_cost < INT32_MAX;
}

void dc_binary_bounds(const dc_search *s, const dc_frame *fr, bool child_split, int32_t *q)
{
    enum { CHUNK = 64 };
    const dc_problem *p = s->p;
    const size_t nb = s->nb, nc = p->nc;
    const int32_t E = (int32_t)p->err_cost, S = (int32_t)p->split_cost, floor = (int32_t)fr->rtot[nc];
    assert(dc_narrow(s) && fr->has_bits);
    for (size_t j0 = 0; j0 < nb; j0 += CHUNK) {
        const size_t n = nb - j0 < CHUNK ? nb - j0 : CHUNK;
        int32_t m1[CHUNK], most1[CHUNK], m0[CHUNK], most0[CHUNK], fl1[CHUNK];
        for (size_t j = 0; j < n; j++) m1[j] = most1[j] = m0[j] = most0[j] = fl1[j] = 0;
        for (size_t c = 0; c < nc; c++) {
            const uint32_t *b = fr->bc + c * nb + j0;
            const int32_t tot = (int32_t)fr->rtot[c];
            for (size_t j = 0; j < n; j++) {
                const int32_t one = (int32_t)b[j], zero = tot - one;
                m1[j] += one, m0[j] += zero;
                most1[j] = one > most1[j] ? one : most1[j];
                most0[j] = zero > most0[j] ? zero : most0[j];
            }
        }
        for (size_t k = 0; floor && k < s->n_planes; k++) {
            const uint32_t *b = fr->bc + (nc + k) * nb + j0;
            for (size_t j = 0; j < n; j++) fl1[j] += (int32_t)b[j] << k;
        }
        for (size_t j = 0; j < n; j++) { /* count_bound's terms, both children */
            const int32_t e0 = m0[j] - most0[j], e1 = m1[j] - most1[j], f0 = floor - fl1[j], f1 = fl1[j];
            int32_t lb0 = e0 * E, lb1 = e1 * E;
            const int32_t s0 = S + f0 * E, s1 = S + f1 * E;
            if (child_split && e0 > f0 && s0 < lb0) lb0 = s0;
            if (child_split && e1 > f1 && s1 < lb1) lb1 = s1;
            const int32_t g0 = m0[j] * E - lb0, g1 = m1[j] * E - lb1, least = g0 < g1 ? g0 : g1;
            q[j0 + j] = !m0[j] || !m1[j] || least <= S ? INT32_MAX : S + lb0 + lb1;
        }
    }
}

/* The node's rows of each class as bitsets in fr->rc (and their numbers in
 * fr->rtot), when some split will count faster by bitsets than by items. */
bool dc_class_bits(dc_search *s, dc_frame *fr, const uint32_t *items, size_t len)
{
    const dc_problem *p = s->p;
    const size_t nc = p->nc, words = s->words;
    fr->has_bits = fr->has_sum = false;
    if (!s->bits || nc * words >= BIT_ITEMS * len) return false;
    uint64_t *all = fr->rc + nc * words;
    memset(fr->rc, 0, (nc + 1) * words * sizeof *fr->rc);
    uint32_t floor = 0;
    for (size_t t = 0; t < len; t++) {
        pdt_bit_set(fr->rc + p->y[items[t]] * words, items[t]);
        pdt_bit_set(all, items[t]);
        floor += s->fl[items[t]];
    }
    for (size_t c = 0; c < nc; c++) fr->rtot[c] = pdt_bits_count(fr->rc + c * words, words);
    fr->rtot[nc] = floor;
    if (s->tbits) count_binary(s, fr->rc, floor, fr->bc);
    fr->has_bits = true;
    return true;
}

/* The children of a split on two-valued f from the node's bitsets: the
 * smaller one's rows as the node's and f's (or not f's) words, counted as
 * dc_class_bits counts a node; the other's as the node's less it. */
bool dc_kids_count(dc_search *s, dc_frame *fr, uint32_t f, const uint32_t *m)
{
    if (!fr->has_bits || !s->tbits || s->tpos[f] == UINT32_MAX) return false;
    const size_t nc = s->p->nc, words = s->words, nb = s->nb, j = s->tpos[f];
    const uint64_t *one = s->bits + s->bit_at[f];
    const uint32_t v = m[1] <= m[0]; /* the smaller */
    dc_kid *a = &fr->kid[v], *b = &fr->kid[1 - v];
    for (size_t r = 0; r <= nc; r++)
        for (size_t w = 0; w < words; w++) {
            const uint64_t x = fr->rc[r * words + w];
            a->rc[r * words + w] = v ? x & one[w] : x & ~one[w];
            b->rc[r * words + w] = v ? x & ~one[w] : x & one[w];
        }
    /* code 1's class counts and unavoidable errors are the node's counts of f */
    uint32_t floor1 = 0;
    for (size_t q = 0; q < s->n_planes && fr->rtot[nc]; q++) floor1 += fr->bc[(nc + q) * nb + j] << q;
    for (size_t c = 0; c < nc; c++) a->rtot[c] = v ? fr->bc[c * nb + j] : fr->rtot[c] - fr->bc[c * nb + j];
    a->rtot[nc] = v ? floor1 : fr->rtot[nc] - floor1;
    count_binary(s, a->rc, a->rtot[nc], a->bc);
    for (size_t c = 0; c <= nc; c++) b->rtot[c] = fr->rtot[c] - a->rtot[c];
    const size_t cells = (nc + (fr->rtot[nc] ? s->n_planes : 0)) * nb;
    for (size_t k = 0; k < cells; k++) b->bc[k] = fr->bc[k] - a->bc[k];
    for (size_t k = cells; k < (nc + s->n_planes) * nb; k++) b->bc[k] = 0;
    a->ready = b->ready = true;
#ifndef NDEBUG
    for (size_t u = 0; u < 2; u++) {
        for (size_t c = 0; c < nc; c++) assert(pdt_bits_count(fr->kid[u].rc + c * words, words) == fr->kid[u].rtot[c]);
        assert(pdt_bits_count(fr->kid[u].rc + nc * words, words) == m[u]);
    }
#else
    (void)m;
#endif
    return true;
}

/* (items, len: the child's rows, which the Debug builds check the counts against) */
void dc_kid_load(dc_search *s, dc_frame *fr, const dc_kid *kid, const uint32_t *items, size_t len)
{
    const size_t nc = s->p->nc;
    memcpy(fr->rc, kid->rc, (nc + 1) * s->words * sizeof *fr->rc);
    memcpy(fr->rtot, kid->rtot, (nc + 1) * sizeof *fr->rtot);
    memcpy(fr->bc, kid->bc, (nc + s->n_planes) * s->nb * sizeof *fr->bc);
    fr->has_bits = true, fr->has_sum = false;
#ifndef NDEBUG
    if (!items) return; /* (a lazy split's child: its counts are checked once its items are parted) */
    const uint64_t *all = fr->rc + nc * s->words;
    uint32_t floor = 0, *cls = s->ccount;
    memset(cls, 0, nc * sizeof *cls);
    for (size_t t = 0; t < len; t++) {
        assert(all[items[t] / 64] >> (items[t] % 64) & 1);
        assert(fr->rc[s->p->y[items[t]] * s->words + items[t] / 64] >> (items[t] % 64) & 1);
        floor += s->fl[items[t]], cls[s->p->y[items[t]]]++;
    }
    assert(pdt_bits_count(all, s->words) == len);
    assert(floor == fr->rtot[nc]);
    for (size_t c = 0; c < nc; c++) assert(cls[c] == fr->rtot[c]);
#else
    (void)items, (void)len;
#endif
}

/* Class counts by code of feature f (count[v * nc + c]) and unavoidable
 * errors (fl[v]) from the node's bitsets. */
static void count_bits(const dc_search *s, const dc_frame *fr, uint32_t f, uint32_t *count, uint32_t *fl)
{
    const size_t kf = s->p->k[f], nc = s->p->nc, words = s->words;
    const uint64_t *all = fr->rc + nc * words;
    for (size_t c = 0; c < nc; c++) count[c] = fr->rtot[c];
    fl[0] = fr->rtot[nc];
    if (s->tbits && s->tpos[f] != UINT32_MAX) { /* counted already (count_binary) */
        const size_t nb = s->nb, j = s->tpos[f];
        for (size_t c = 0; c < nc; c++) {
            count[nc + c] = fr->bc[c * nb + j];
            count[c] -= count[nc + c];
        }
        fl[1] = 0;
        for (size_t q = 0; q < s->n_planes && fl[0]; q++) fl[1] += fr->bc[(nc + q) * nb + j] << q;
#ifndef NDEBUG /* the Debug builds (the sanitizer runs of the tests) check them feature by feature */
        const uint64_t *b = s->bits + s->bit_at[f];
        for (size_t c = 0; c < nc; c++) assert(count[nc + c] == pdt_bits_and_count(fr->rc + c * words, b, words));
        uint32_t one = 0;
        for (size_t q = 0; q < s->n_planes && fl[0]; q++)
            one += pdt_bits_and3_count(fr->rc + nc * words, b, s->planes + q * words, words) << q;
        assert(one == fl[1]);
#endif
        fl[0] -= fl[1];
        return;
    }
    for (size_t v = 1; v < kf; v++) {
        const uint64_t *b = s->bits + s->bit_at[f] + (v - 1) * words;
        for (size_t c = 0; c < nc; c++) {
            count[v * nc + c] = pdt_bits_and_count(fr->rc + c * words, b, words);
            count[c] -= count[v * nc + c];
        }
        fl[v] = 0;
        for (size_t q = 0; q < s->n_planes && fl[0]; q++)
            fl[v] += pdt_bits_and3_count(all, b, s->planes + q * words, words) << q;
        fl[0] -= fl[v];
    }
}

/* The children of a split on f without moving the items: for each code v,
 * the number of items m[v], their leaf errors err[v] and unavoidable errors
 * fl[v].  The number of codes present.  bits: fr holds the node's bitsets. */
size_t dc_count_codes(dc_search *s, const dc_frame *fr, bool bits, uint32_t f, const uint32_t *items,
                      size_t len, uint32_t *m, uint32_t *err, uint32_t *fl)
{
    const dc_problem *p = s->p;
    const size_t kf = p->k[f], nc = p->nc;
    const uint16_t *code = s->col + (size_t)f * p->n;
    const uint32_t *y = p->y;
    uint32_t *count = s->pcount;
    if (bits && s->bit_at[f] != SIZE_MAX && (!items || (kf - 1) * nc * s->words < BIT_ITEMS * len)) {
        count_bits(s, fr, f, count, fl);
    } else {
        memset(count, 0, kf * nc * sizeof *count);
        memset(fl, 0, kf * sizeof *fl);
        for (size_t t = 0; t < len; t++) {
            uint32_t i = items[t];
            count[code[i] * nc + y[i]]++;
            fl[code[i]] += s->fl[i];
        }
    }
    size_t present = 0;
    for (size_t v = 0; v < kf; v++) {
        uint32_t sum = 0, most = 0;
        for (size_t c = 0; c < nc; c++) {
            sum += count[v * nc + c];
            if (count[v * nc + c] > most) most = count[v * nc + c];
        }
        m[v] = sum;
        err[v] = sum - most;
        present += sum > 0;
    }
    return present;
}

/* The memo hashes of the children of a split on f (m: their sizes), their
 * slots prefetched.  With the node's bitsets (bits), a binary feature's
 * children are hashed a word at a time from the node's words and f's (the
 * Debug builds check each against its rows'); else by items, each child's
 * word of rows assembled as its items come (increasing). */
void dc_hash_codes(dc_search *s, dc_frame *fr, bool bits, uint32_t f, const uint32_t *items, size_t len,
                   const uint32_t *m, uint32_t rem, uint64_t *h)
{
    const dc_problem *p = s->p;
    const size_t kf = p->k[f];
    const uint16_t *code = s->col + (size_t)f * p->n;
    if (kf == 2 && bits && s->bit_at[f] != SIZE_MAX && s->words < 2 * len) {
        const uint64_t *all = fr->rc + p->nc * s->words, *one = s->bits + s->bit_at[f];
        if (!fr->has_sum) { /* once a node: each child is then its parent less the other (dc_word_hash),
                               and only the node's words that hold rows are read */
            fr->sum = 0, fr->n_nz = 0;
            for (size_t w = 0; w < s->words; w++)
                if (all[w]) fr->sum += dc_word_hash(s->salt, w, all[w]), fr->nz[fr->n_nz++] = (uint32_t)w;
            fr->has_sum = true;
        }
        h[1] = 0;
        for (size_t k = 0; k < fr->n_nz; k++) {
            const size_t w = fr->nz[k];
            h[1] += dc_word_hash(s->salt, w, all[w] & one[w]);
        }
        h[0] = fr->sum - h[1];
    } else {
        uint64_t *x = s->hx;
        size_t *at = s->hw;
        for (size_t v = 0; v < kf; v++) h[v] = 0, x[v] = 0, at[v] = 0;
        for (size_t t = 0; t < len; t++) {
            const uint32_t i = items[t], v = code[i];
            if (i >> 6 != at[v]) h[v] += dc_word_hash(s->salt, at[v], x[v]), at[v] = i >> 6, x[v] = 0;
            x[v] |= UINT64_C(1) << (i & 63);
        }
        for (size_t v = 0; v < kf; v++) h[v] += dc_word_hash(s->salt, at[v], x[v]);
    }
#ifndef NDEBUG
    {
        /* each child's rows listed and hashed as the memo hashes a key (dc_hash_sum) */
        uint32_t *rows = malloc((len ? len : 1) * sizeof *rows);
        assert(rows);
        for (size_t v = 0; v < kf; v++) {
            size_t n = 0;
            for (size_t t = 0; t < len; t++)
                if (code[items[t]] == v) rows[n++] = items[t];
            assert(dc_hash_sum(s->salt, rows, n) == h[v]);
        }
        free(rows);
    }
#endif
    for (size_t v = 0; v < kf; v++) {
        if (!m[v]) continue;
        h[v] = dc_hash_final(h[v], m[v], rem);
        dc_memo_prefetch(s->memo, h[v]);
    }
}

/* ------------------------------------------------------------ set-up */

pdt_status dc_make_groups(dc_search *s, pdt_error *err)
{
    const dc_problem *p = s->p;
    size_t n = p->n, slots = 64;
    while (slots < 2 * n) slots *= 2;
    uint32_t *table = malloc(slots * sizeof *table); /* row + 1 of a group's first row */
    s->group = malloc((n ? n : 1) * sizeof *s->group);
    if (!table || !s->group) {
        free(table);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu rows)", n);
    }
    memset(table, 0, slots * sizeof *table);
    uint32_t *first = malloc((n ? n : 1) * sizeof *first); /* group -> a row */
    if (!first) {
        free(table);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu rows)", n);
    }
    s->n_groups = 0;
    for (size_t i = 0; i < n; i++) {
        const uint16_t *row = p->x + i * p->nf;
        uint64_t h = UINT64_C(1469598103934665603);
        for (size_t f = 0; f < p->nf; f++) h = (h ^ row[f]) * UINT64_C(1099511628211);
        size_t q = (size_t)(h ^ h >> 29) & (slots - 1);
        for (;; q = (q + 1) & (slots - 1)) {
            if (!table[q]) {
                table[q] = (uint32_t)s->n_groups + 1;
                first[s->n_groups] = (uint32_t)i;
                s->group[i] = (uint32_t)s->n_groups++;
                break;
            }
            uint32_t g = table[q] - 1;
            if (memcmp(p->x + (size_t)first[g] * p->nf, row, p->nf * sizeof *row) == 0) {
                s->group[i] = g;
                break;
            }
        }
    }
    free(table);
    free(first);
    return PDT_OK;
}

/* Each group's unavoidable errors (its rows less its most frequent class)
 * on its first row. */
pdt_status dc_make_floors(dc_search *s, pdt_error *err)
{
    const dc_problem *p = s->p;
    const size_t nc = p->nc;
    uint32_t *count = calloc(s->n_groups * nc, sizeof *count);
    if (!count) return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu rows)", p->n);
    for (size_t i = 0; i < p->n; i++) count[(size_t)s->group[i] * nc + p->y[i]]++;
    for (size_t i = 0; i < p->n; i++) {
        uint32_t *gc = count + (size_t)s->group[i] * nc, sum = 0, top = 0;
        for (size_t c = 0; c < nc; c++) sum += gc[c], top = gc[c] > top ? gc[c] : top;
        s->fl[i] = sum - top;          /* 0 for a group met before: its counts are cleared */
        memset(gc, 0, nc * sizeof *gc);
    }
    free(count);
    return PDT_OK;
}

/* The bit planes of fl as bitsets of rows (bit q of every row's fl). */
static bool make_planes(dc_search *s)
{
    const dc_problem *p = s->p;
    uint32_t most = 0;
    for (size_t i = 0; i < p->n; i++) most = s->fl[i] > most ? s->fl[i] : most;
    while (most >> s->n_planes) s->n_planes++;
    if (!s->n_planes) return true;
    s->planes = calloc(s->n_planes * s->words, sizeof *s->planes);
    if (!s->planes) return false;
    for (size_t i = 0; i < p->n; i++)
        for (size_t q = 0; q < s->n_planes; q++)
            if (s->fl[i] >> q & 1) pdt_bit_set(s->planes + q * s->words, i);
    return true;
}

/* Every feature's rows by code as bitsets (code 0 is counted as the rest),
 * unless they would take more than BITS_LIMIT bytes: then none. */
#define BITS_LIMIT ((size_t)256 << 20)

pdt_status dc_make_bits(dc_search *s, pdt_error *err)
{
    const dc_problem *p = s->p;
    s->words = pdt_bits_words(p->n);
    s->bit_at = malloc((p->nf ? p->nf : 1) * sizeof *s->bit_at);
    if (!s->bit_at) return pdt_error_set(err, PDT_ENOMEM, "out of memory (%zu features)", p->nf);
    size_t total = 0;
    for (size_t f = 0; f < p->nf; f++) {
        s->bit_at[f] = total;
        total += (p->k[f] > 1 ? p->k[f] - 1 : 0) * s->words;
        if (total > BITS_LIMIT / sizeof *s->bits) return PDT_OK; /* s->bits NULL: count by items */
    }
    s->bits = calloc(total ? total : 1, sizeof *s->bits);
    if (s->bits && !make_planes(s)) free(s->bits), s->bits = NULL;
    if (!s->bits) return PDT_OK;
    for (size_t f = 0; f < p->nf; f++)
        for (size_t i = 0; i < p->n; i++) {
            uint16_t v = s->col[f * p->n + i];
            if (v) pdt_bit_set(s->bits + s->bit_at[f] + (v - 1) * s->words, i);
        }
    /* the binary features side by side, word by word (count_binary) */
    s->tpos = malloc((p->nf ? p->nf : 1) * sizeof *s->tpos);
    for (size_t f = 0; s->tpos && f < p->nf; f++) s->tpos[f] = p->k[f] == 2 ? (uint32_t)s->nb++ : UINT32_MAX;
    if (s->tpos && s->nb && (s->tbits = malloc(s->words * s->nb * sizeof *s->tbits))) {
        for (size_t f = 0; f < p->nf; f++)
            for (size_t w = 0; s->tpos[f] != UINT32_MAX && w < s->words; w++)
                s->tbits[w * s->nb + s->tpos[f]] = s->bits[s->bit_at[f] + w];
    } else {
        free(s->tpos), s->tpos = NULL, s->nb = 0;
    }
    return PDT_OK;
}
