/* Open-addressing hash table over fixed-size entries kept in chunks. */
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "memo.h"
#include "pdt_parallel.h"

#define CHUNK_ENTRIES 4096

struct pdt_memo {
    size_t words, value_off, items_off, entry_size;
    const pdt_algebra *alg;
    size_t max_bytes, bytes;
    uint64_t *slots; /* (hash tag << 32) | (entry index + 1); 0 = empty */
    size_t n_slots;  /* power of two */
    uint64_t n;      /* entries */
    char **chunks;
    size_t n_chunks, cap_chunks;
};

static size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }

pdt_status pdt_memo_new(pdt_memo **out, size_t words, const pdt_algebra *alg, size_t max_bytes)
{
    pdt_memo *m = calloc(1, sizeof *m);
    if (!m) return PDT_ENOMEM;
    m->words = words;
    m->alg = alg;
    m->value_off = align8(sizeof(pdt_memo_entry));
    m->items_off = m->value_off + align8(alg->size);
    m->entry_size = m->items_off + words * sizeof(uint64_t);
    m->max_bytes = max_bytes;
    m->n_slots = 1024;
    m->slots = pdt_calloc_written(m->n_slots, sizeof *m->slots);
    if (!m->slots) {
        free(m);
        return PDT_ENOMEM;
    }
    m->bytes = m->n_slots * sizeof *m->slots;
    *out = m;
    return PDT_OK;
}

static pdt_memo_entry *entry_at(const pdt_memo *m, uint64_t i)
{
    return (pdt_memo_entry *)(m->chunks[i / CHUNK_ENTRIES] + (i % CHUNK_ENTRIES) * m->entry_size);
}

void *pdt_memo_value(pdt_memo_entry *e)
{
    return (char *)e + align8(sizeof(pdt_memo_entry));
}

static uint64_t *entry_items(const pdt_memo *m, pdt_memo_entry *e)
{
    return (uint64_t *)((char *)e + m->items_off);
}

void pdt_memo_free(pdt_memo **mp)
{
    if (!mp || !*mp) return;
    pdt_memo *m = *mp;
    for (uint64_t i = 0; i < m->n; i++) m->alg->clear(pdt_memo_value(entry_at(m, i)));
    for (size_t c = 0; c < m->n_chunks; c++) free(m->chunks[c]);
    free(m->chunks);
    free(m->slots);
    free(m);
    *mp = NULL;
}

static uint64_t key_hash(const pdt_memo *m, const uint64_t *items, uint32_t k, uint32_t drem,
                         uint64_t extra)
{
    uint64_t seed = ((uint64_t)k << 40) ^ ((uint64_t)drem << 20) ^ extra * UINT64_C(0x9e3779b97f4a7c15);
    return pdt_bits_hash(items, m->words, seed);
}

static bool same_key(const pdt_memo *m, pdt_memo_entry *e, uint64_t h, const uint64_t *items,
                     uint32_t k, uint32_t drem, uint64_t extra)
{
    return e->hash == h && e->k == k && e->drem == drem && e->extra == extra &&
           pdt_bits_equal(entry_items(m, e), items, m->words);
}

/* A slot holds the entry's index and the high half of its hash, so probing
 * touches an entry only when the tags agree. */
static uint64_t slot_of(uint64_t hash, uint64_t index) { return (hash & UINT64_C(0xffffffff00000000)) | (index + 1); }
static uint64_t slot_index(uint64_t slot) { return (slot & 0xffffffffu) - 1; }
static bool slot_tag_matches(uint64_t slot, uint64_t hash)
{
    return (slot >> 32) == (hash >> 32);
}

pdt_memo_entry *pdt_memo_find(pdt_memo *m, const uint64_t *items, uint32_t k, uint32_t drem,
                              uint64_t extra)
{
    uint64_t h = key_hash(m, items, k, drem, extra);
    for (size_t s = h & (m->n_slots - 1);; s = (s + 1) & (m->n_slots - 1)) {
        uint64_t slot = m->slots[s];
        if (!slot) return NULL;
        if (!slot_tag_matches(slot, h)) continue;
        pdt_memo_entry *e = entry_at(m, slot_index(slot));
        if (same_key(m, e, h, items, k, drem, extra)) return e;
    }
}

static bool rehash(pdt_memo *m)
{
    size_t n_slots = m->n_slots * 2;
    uint64_t *slots = pdt_calloc_written(n_slots, sizeof *slots); /* probed before written */
    if (!slots) return false;
    for (uint64_t i = 0; i < m->n; i++) {
        uint64_t h = entry_at(m, i)->hash;
        size_t s = h & (n_slots - 1);
        while (slots[s]) s = (s + 1) & (n_slots - 1);
        slots[s] = slot_of(h, i);
    }
    free(m->slots);
    m->bytes += (n_slots - m->n_slots) * sizeof *slots;
    m->slots = slots;
    m->n_slots = n_slots;
    return true;
}

static pdt_memo_entry *new_entry(pdt_memo *m)
{
    if (m->n % CHUNK_ENTRIES == 0) {
        size_t chunk_bytes = CHUNK_ENTRIES * m->entry_size;
        if (m->bytes + chunk_bytes > m->max_bytes || m->n + CHUNK_ENTRIES >= UINT32_MAX) return NULL;
        if (m->n_chunks == m->cap_chunks) {
            size_t cap = m->cap_chunks ? 2 * m->cap_chunks : 16;
            char **c = realloc(m->chunks, cap * sizeof *c);
            if (!c) return NULL;
            m->chunks = c;
            m->cap_chunks = cap;
        }
        char *chunk = malloc(chunk_bytes);
        if (!chunk) return NULL;
        m->chunks[m->n_chunks++] = chunk;
        m->bytes += chunk_bytes;
    }
    return entry_at(m, m->n++);
}

pdt_memo_entry *pdt_memo_put(pdt_memo *m, const uint64_t *items, uint32_t k, uint32_t drem,
                             uint64_t extra)
{
    pdt_memo_entry *found = pdt_memo_find(m, items, k, drem, extra);
    if (found) return found;
    if (2 * (m->n + 1) > m->n_slots) {
        if (m->bytes + m->n_slots * sizeof(uint64_t) > m->max_bytes || !rehash(m)) return NULL;
    }
    pdt_memo_entry *e = new_entry(m);
    if (!e) return NULL;
    memset(e, 0, sizeof *e);
    e->hash = key_hash(m, items, k, drem, extra);
    e->k = k;
    e->drem = drem;
    e->extra = extra;
    e->payload = PDT_LEAF;
    memcpy(entry_items(m, e), items, m->words * sizeof *items);
    m->alg->init(pdt_memo_value(e));
    m->alg->set_zero(pdt_memo_value(e));
    size_t s = e->hash & (m->n_slots - 1);
    while (m->slots[s]) s = (s + 1) & (m->n_slots - 1);
    m->slots[s] = slot_of(e->hash, m->n - 1);
    return e;
}

uint64_t pdt_memo_count(const pdt_memo *m) { return m->n; }
