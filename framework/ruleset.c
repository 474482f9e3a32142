/* The candidate rules of one or more families on a dataset, with side
 * bitsets and defining points precomputed once for the splitter. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "clock_gate.h"
#include "dataset_impl.h"
#include "pdt_parallel.h"
#include "rule_list.h"

#define MAX_FAMILIES 16
#define SIDES_LIMIT (UINT64_C(8) << 30) /* bytes of side bitsets we agree to hold */

struct pdt_ruleset {
    const pdt_dataset *ds;
    size_t n, words;
    uint64_t *sides;      /* n * words */
    uint16_t *family;     /* family index of each rule */
    uint32_t *local;      /* index of each rule in its family's list */
    uint32_t *def_off, *def, *group; /* flat defining points and same-points groups */
    size_t n_families;
    const pdt_rule_class *classes[MAX_FAMILIES];
    pdt_rule_list *lists[MAX_FAMILIES];
    void *states[MAX_FAMILIES];
    bool data_defined, region_by_items;
    bool cut; /* the fit's time or stop flag ended the build: no rules */
};

bool pdt_rule_params_expired(const pdt_rule_params *params)
{
    if (!params) return false;
    if (pdt_stop_requested(params->stop)) return true; /* (set by another thread in Python: read atomically) */
    if (!params->deadline.tv_sec && !params->deadline.tv_nsec) return false;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return pdt_time_reached(now, params->deadline);
}

static pdt_status check_class(const pdt_rule_class *cls, pdt_error *err)
{
    if (cls->version != PDT_RULE_V1)
        return pdt_error_set(err, PDT_EPLUGIN, "rule plugin \"%s\": interface version %u, expected %u",
                             cls->name, cls->version, PDT_RULE_V1);
    if (cls->route && !cls->sides) /* multiway rules: their backend fits them, not a candidate list */
        return pdt_error_set(err, PDT_EINVAL, "rule family \"%s\" splits in more than two ways: the fused and "
                             "combinations engines cannot search it (use --engine auto, alone)", cls->name);
    if (!cls->generate || !cls->sides || !cls->export_rule || !cls->classify || !cls->describe)
        return pdt_error_set(err, PDT_EPLUGIN,
                             "rule plugin \"%s\": a required slot (generate, sides, export_rule, "
                             "classify, describe) is missing", cls->name);
    return PDT_OK;
}

static void list_families(char *buf, size_t cap)
{
    buf[0] = '\0';
    for (size_t i = 0; i < pdt_rule_class_count(); i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", pdt_rule_class_at(i)->name);
    }
}

/* Splits "axis, hyperplane" into classes. */
static pdt_status parse_families(pdt_ruleset *rs, const char *families, pdt_error *err)
{
    if (!families || !*families)
        return pdt_error_set(err, PDT_EINVAL, "option --rules: no rule family given");
    const char *p = families;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        size_t len = strcspn(p, ", ");
        if (!len) break;
        char name[64];
        if (len >= sizeof name)
            return pdt_error_set(err, PDT_EINVAL, "option --rules: family name too long");
        memcpy(name, p, len);
        name[len] = '\0';
        p += len;
        const pdt_rule_class *cls = pdt_rule_class_find(name);
        if (!cls) {
            char known[512];
            list_families(known, sizeof known);
            return pdt_error_set(err, PDT_EINVAL, "option --rules: unknown rule family \"%s\" (known: %s)",
                                 name, known);
        }
        for (size_t f = 0; f < rs->n_families; f++)
            if (rs->classes[f] == cls)
                return pdt_error_set(err, PDT_EINVAL, "option --rules: family \"%s\" given twice", name);
        if (rs->n_families == MAX_FAMILIES)
            return pdt_error_set(err, PDT_EINVAL, "option --rules: at most %d families", MAX_FAMILIES);
        pdt_status st = check_class(cls, err);
        if (st) return st;
        rs->classes[rs->n_families++] = cls;
    }
    if (!rs->n_families) return pdt_error_set(err, PDT_EINVAL, "option --rules: no rule family given");
    return PDT_OK;
}

/* The fit ran out of time while the rules were made: none is kept.  Its
 * search then stops at once with the root's leaf; rules made in part would
 * only cost the rest of the build (the defining-point table: 0.12 s on the
 * 5 million conics made within a second on 40 points). */
static void cut(pdt_ruleset *rs)
{
    for (size_t f = 0; f < rs->n_families; f++)
        if (rs->lists[f]) rs->lists[f]->n = rs->lists[f]->def_len = 0;
    rs->n = 0;
    rs->cut = true;
}

static pdt_status generate_all(pdt_ruleset *rs, const pdt_rule_params *params, pdt_error *err)
{
    rs->data_defined = rs->region_by_items = true;
    for (size_t f = 0; f < rs->n_families; f++) {
        const pdt_rule_class *cls = rs->classes[f];
        if (pdt_rule_list_new(&rs->lists[f])) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
        if (rs->cut) continue; /* (an empty list: the families after the cut make no rules) */
        pdt_status st = cls->generate(&rs->states[f], rs->lists[f], rs->ds, params, err);
        if (!st && pdt_rule_params_expired(params)) cut(rs);
        if (st) return pdt_error_prefix(err, "rule plugin \"%s\": ", cls->name);
        if (cls->relation) {
            rs->data_defined = false;
            if (!(cls->flags & PDT_REGION_BY_ITEMS)) rs->region_by_items = false;
        }
        rs->n += rs->lists[f]->n;
    }
    if (rs->n >= UINT32_MAX)
        return pdt_error_set(err, PDT_ELIMIT, "%zu candidate rules: more than pdt can index", rs->n);
    if (rs->n && rs->words > SIDES_LIMIT / 8 / rs->n)
        return pdt_error_set(err, PDT_ELIMIT,
                             "%zu candidate rules on %zu items need more than %llu GiB of side bitsets; "
                             "use fewer items or a smaller rule family", rs->n, rs->ds->n,
                             (unsigned long long)(SIDES_LIMIT >> 30));
    return PDT_OK;
}

/* Each rule's family and index in it, and its defining points checked. */
static pdt_status index_rules(pdt_ruleset *rs, pdt_error *err)
{
    size_t g = 0;
    for (size_t f = 0; f < rs->n_families; f++)
        for (size_t r = 0; r < rs->lists[f]->n; r++, g++) {
            rs->family[g] = (uint16_t)f;
            rs->local[g] = (uint32_t)r;
            size_t n_def;
            const uint32_t *def = pdt_rule_list_def(rs->lists[f], r, &n_def);
            for (size_t k = 0; k < n_def; k++)
                if (def[k] >= rs->ds->n)
                    return pdt_error_set(err, PDT_EPLUGIN, "rule plugin \"%s\": rule %zu has defining "
                                         "point %u of %zu items", rs->classes[f]->name, r, def[k], rs->ds->n);
        }
    return PDT_OK;
}

/* Side bitsets of the rules in blocks `part` mod `parts` (all of them: part
 * 0 of 1), zero elsewhere; *expired when params's time ran out first. */
static pdt_status sides_part(pdt_ruleset *rs, size_t part, size_t parts, const pdt_rule_params *params,
                             bool *expired, pdt_error *err)
{
    size_t block = rs->n / (16 * parts) + 1;
    for (size_t g = 0; g < rs->n; g++) {
        if (params && g % 1024 == 0 && pdt_rule_params_expired(params)) {
            *expired = true;
            return PDT_OK;
        }
        if ((g / block) % parts != part) continue;
        const size_t f = rs->family[g];
        const pdt_rule_class *cls = rs->classes[f];
        pdt_status st = cls->sides(rs->sides + g * rs->words, rs->states[f], rs->lists[f], rs->local[g], rs->ds, err);
        if (st) return pdt_error_prefix(err, "rule plugin \"%s\": ", cls->name);
    }
    return PDT_OK;
}

/* The side bitsets on threads (every family has sides_range): blocks of
 * SIDES_BLOCK rules handed out in turn, a block's rules of one family given
 * to its sides_range at once.  The bits do not depend on the threads; of
 * several failing blocks, the first one's message is reported. */
#define SIDES_BLOCK 2048u

static pdt_status sides_threads(pdt_ruleset *rs, const pdt_rule_params *params, unsigned threads, pdt_error *err)
{
    const size_t n_blocks = (rs->n + SIDES_BLOCK - 1) / SIDES_BLOCK;
    atomic_bool halt = false, expired = false;
    size_t failed = SIZE_MAX;
    pdt_error first = {0};
    const char *failed_name = NULL;
    pdt_work work;
    pdt_work_begin(&work, NULL, n_blocks, 1);
#pragma omp parallel num_threads(threads)
    for (uint64_t b, stop; !atomic_load_explicit(&halt, memory_order_relaxed) && pdt_work_next(&work, &b, &stop);) {
        if (pdt_rule_params_expired(params)) {
            atomic_store(&expired, true);
            atomic_store(&halt, true);
            break;
        }
        const size_t end = (b + 1) * SIDES_BLOCK < rs->n ? (b + 1) * SIDES_BLOCK : rs->n;
        for (size_t g = b * SIDES_BLOCK; g < end;) {
            const size_t f = rs->family[g], r = rs->local[g], left = rs->lists[f]->n - r;
            const size_t run = end - g < left ? end - g : left;
            pdt_error e;
            pdt_status st = rs->classes[f]->sides_range(rs->sides + g * rs->words, rs->states[f], rs->lists[f], r,
                                                        r + run, rs->ds, &e);
            if (st) {
                e.status = st;
#pragma omp critical(pdt_ruleset_sides)
                if (b < failed) failed = b, first = e, failed_name = rs->classes[f]->name;
                atomic_store(&halt, true);
                break;
            }
            g += run;
        }
    }
    if (failed != SIZE_MAX) {
        if (!err) return first.status;
        *err = first;
        return pdt_error_prefix(err, "rule plugin \"%s\": ", failed_name);
    }
    if (atomic_load(&expired)) cut(rs);
    return PDT_OK;
}

/* Whether every family that made rules can make their sides on threads. */
static bool ranged(const pdt_ruleset *rs)
{
    for (size_t f = 0; f < rs->n_families; f++)
        if (rs->lists[f]->n && !rs->classes[f]->sides_range) return false;
    return true;
}

/* The side bitsets.  In an MPI job (framework/pdt_parallel.h) each rank
 * computes its blocks and the ranks or them together: for hyperplanes on 200
 * points this was 0.4 s of every rank's replicated start.  When a rank's
 * plugin fails, every rank computes them all again, so that rank 0 reports
 * the plugin's own message. */
static pdt_status compute_sides(pdt_ruleset *rs, const pdt_rule_params *params, pdt_error *err)
{
    rs->sides = calloc(rs->n ? rs->n * rs->words : 1, sizeof *rs->sides);
    rs->family = malloc((rs->n ? rs->n : 1) * sizeof *rs->family);
    rs->local = malloc((rs->n ? rs->n : 1) * sizeof *rs->local);
    if (!rs->sides || !rs->family || !rs->local) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    const pdt_distributor *d = pdt_distributor_get();
    pdt_status st = index_rules(rs, err);
    if (st) return st;
    bool expired = false;
    if (d && d->size > 1) { /* (every rank takes the same branches: agree is collective) */
        st = sides_part(rs, (size_t)d->rank, (size_t)d->size, params, &expired, err);
        d->combine(d->user, rs->sides, rs->n * rs->words, PDT_COMBINE_OR);
        if (!d->agree(d->user, st == PDT_OK)) {
            memset(rs->sides, 0, rs->n * rs->words * sizeof *rs->sides);
            st = sides_part(rs, 0, 1, NULL, &expired, err);
            if (!st) st = pdt_error_set(err, PDT_EPLUGIN, "a rule plugin failed on another rank");
        } else if (!d->agree(d->user, !expired)) { /* one rank's time ran out: every rank's rules go */
            cut(rs);
        }
    } else if (params->threads > 1 && rs->n > SIDES_BLOCK && ranged(rs)) {
        st = sides_threads(rs, params, params->threads, err);
    } else {
        st = sides_part(rs, 0, 1, params, &expired, err);
        if (!st && expired) cut(rs);
    }
    if (st) return st;
    uint64_t tail = (rs->ds->n & 63) ? ~((UINT64_C(1) << (rs->ds->n & 63)) - 1) : 0;
    for (size_t g = 0; rs->words && tail && g < rs->n; g++)
        if (rs->sides[g * rs->words + rs->words - 1] & tail)
            return pdt_error_set(err, PDT_EPLUGIN, "rule plugin \"%s\": rule %u sets bits beyond the last item",
                                 rs->classes[rs->family[g]]->name, rs->local[g]);
    return PDT_OK;
}

/* The flat defining-point table and the groups of consecutive rules sharing them. */
static pdt_status build_def_table(pdt_ruleset *rs, pdt_error *err)
{
    size_t total = 0;
    for (size_t f = 0; f < rs->n_families; f++) total += rs->lists[f]->def_len;
    rs->def_off = malloc((rs->n + 1) * sizeof *rs->def_off);
    rs->def = malloc((total ? total : 1) * sizeof *rs->def);
    rs->group = malloc((rs->n ? rs->n : 1) * sizeof *rs->group);
    if (!rs->def_off || !rs->def || !rs->group) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    size_t at = 0;
    uint32_t g = 0;
    for (size_t r = 0; r < rs->n; r++) {
        size_t n_def;
        const uint32_t *d = pdt_rule_list_def(rs->lists[rs->family[r]], rs->local[r], &n_def);
        rs->def_off[r] = (uint32_t)at;
        bool same = r > 0 && n_def == rs->def_off[r] - rs->def_off[r - 1] &&
                    memcmp(d, rs->def + rs->def_off[r - 1], n_def * sizeof *d) == 0;
        if (r > 0 && !same) g++;
        rs->group[r] = g;
        memcpy(rs->def + at, d, n_def * sizeof *d);
        at += n_def;
    }
    rs->def_off[rs->n] = (uint32_t)at;
    return PDT_OK;
}

void pdt_ruleset_def_table(const pdt_ruleset *rs, const uint32_t **off, const uint32_t **def,
                           const uint32_t **group)
{
    *off = rs->def_off;
    *def = rs->def;
    *group = rs->group;
}

pdt_status pdt_ruleset_build(pdt_ruleset **out, const pdt_dataset *ds, const char *families,
                             const pdt_rule_params *params, pdt_error *err)
{
    *out = NULL;
    pdt_ruleset *rs = calloc(1, sizeof *rs);
    if (!rs) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    rs->ds = ds;
    rs->words = pdt_bits_words(ds->n);
    pdt_rule_params none = {0}, p = params ? *params : none, gen = p;
    /* the ranks of an MPI job must hold the same rules: none stops making them early (the
     * side bitsets, split over the ranks, stop when the ranks agree) */
    const pdt_distributor *d = pdt_distributor_get();
    if (d && d->size > 1) gen.deadline = none.deadline, gen.stop = NULL;
    pdt_status st = parse_families(rs, families, err);
    if (!st) st = generate_all(rs, &gen, err);
    if (!st) st = compute_sides(rs, &p, err);
    if (!st) st = build_def_table(rs, err);
    if (st) {
        pdt_ruleset_free(&rs);
        return st;
    }
    *out = rs;
    return PDT_OK;
}

void pdt_ruleset_free(pdt_ruleset **rsp)
{
    if (!rsp || !*rsp) return;
    pdt_ruleset *rs = *rsp;
    for (size_t f = 0; f < rs->n_families; f++) {
        if (rs->states[f] && rs->classes[f]->destroy) rs->classes[f]->destroy(rs->states[f]);
        pdt_rule_list_free(&rs->lists[f]);
    }
    free(rs->sides);
    free(rs->def_off);
    free(rs->def);
    free(rs->group);
    free(rs->family);
    free(rs->local);
    free(rs);
    *rsp = NULL;
}

size_t pdt_ruleset_size(const pdt_ruleset *rs) { return rs->n; }
size_t pdt_ruleset_words(const pdt_ruleset *rs) { return rs->words; }
const pdt_dataset *pdt_ruleset_dataset(const pdt_ruleset *rs) { return rs->ds; }
bool pdt_ruleset_region_by_items(const pdt_ruleset *rs) { return rs->region_by_items; }
bool pdt_ruleset_data_defined(const pdt_ruleset *rs) { return rs->data_defined; }
bool pdt_ruleset_cut(const pdt_ruleset *rs) { return rs->cut; }

const uint64_t *pdt_ruleset_sides(const pdt_ruleset *rs, size_t r) { return rs->sides + r * rs->words; }

const uint32_t *pdt_ruleset_def(const pdt_ruleset *rs, size_t r, size_t *n_def)
{
    if (!rs->def_off) return pdt_rule_list_def(rs->lists[rs->family[r]], rs->local[r], n_def);
    *n_def = rs->def_off[r + 1] - rs->def_off[r];
    return rs->def + rs->def_off[r];
}

const pdt_rule_class *pdt_ruleset_class(const pdt_ruleset *rs, size_t r)
{
    return rs->classes[rs->family[r]];
}

/* rj's place below ri: where its defining points lie (or the class's own relation). */
pdt_relation pdt_ruleset_relation(const pdt_ruleset *rs, size_t ri, size_t rj)
{
    if (ri == rj) return PDT_REL_NONE;
    size_t f = rs->family[ri];
    if (f == rs->family[rj] && rs->classes[f]->relation)
        return rs->classes[f]->relation(rs->states[f], rs->lists[f], rs->local[ri], rs->local[rj]);
    size_t n_def;
    const uint32_t *def = pdt_ruleset_def(rs, rj, &n_def);
    const uint64_t *side = pdt_ruleset_sides(rs, ri);
    size_t left = 0;
    for (size_t k = 0; k < n_def; k++) left += pdt_bit_get(side, def[k]);
    if (n_def == 0) return PDT_REL_BOTH;
    return left == n_def ? PDT_REL_LEFT : left == 0 ? PDT_REL_RIGHT : PDT_REL_NONE;
}

pdt_status pdt_ruleset_export(pdt_rule *rule, const pdt_ruleset *rs, size_t r, pdt_error *err)
{
    size_t f = rs->family[r];
    pdt_status st = rs->classes[f]->export_rule(rule, rs->states[f], rs->lists[f], rs->local[r], rs->ds, err);
    if (st) return pdt_error_prefix(err, "rule plugin \"%s\": ", rs->classes[f]->name);
    if (rule->cls != rs->classes[f])
        return pdt_error_set(err, PDT_EPLUGIN, "rule plugin \"%s\": exported rule has another class",
                             rs->classes[f]->name);
    return PDT_OK;
}
