/* A metric fit's "metric" member of the result document (issue 10), read and
 * checked against the tree: the confusion counts must be the leaves' own, and
 * the objective the metric of those counts, exactly. */
#include <string.h>

#include "front.h"
#include "model_json_load.h"

static pdt_status read_positive(mload *L, const json_t *obj)
{
    char *name = NULL;
    TRY(pdt_json_string(&L->j, &name, obj, "positive", true));
    pdt_model *m = L->m;
    size_t c = 0;
    while (c < m->n_classes && strcmp(m->classes[c], name) != 0) c++;
    pdt_status st = PDT_OK;
    if (m->n_classes != 2)
        st = pdt_json_error(&L->j, "a metric needs two classes; data.classes has %zu", m->n_classes);
    else if (c == m->n_classes)
        st = pdt_json_error(&L->j, "positive: '%s' is not one of data.classes", name);
    m->positive = (uint32_t)c;
    free(name);
    return st;
}

static pdt_status read_confusion(mload *L, const json_t *obj)
{
    static const char *const keys[4] = {"tp", "fp", "fn", "tn"};
    pdt_model *m = L->m;
    uint64_t leaves[4] = {0};
    for (size_t i = 0; i < m->n_nodes; i++) {
        if (!pdt_node_is_leaf(&m->nodes[i])) continue;
        const uint64_t *c = m->counts + i * m->n_classes;
        bool pos = m->nodes[i].label == m->positive;
        leaves[pos ? 0 : 2] += c[m->positive];
        leaves[pos ? 1 : 3] += c[1 - m->positive];
    }
    const json_t *conf;
    TRY(pdt_json_get(&L->j, &conf, obj, "confusion", true));
    size_t mark = pdt_json_push(&L->j, "confusion");
    TRY(pdt_json_expect(&L->j, conf, JSON_OBJECT, "an object {tp, fp, fn, tn}"));
    for (int k = 0; k < 4; k++) {
        TRY(pdt_json_uint(&L->j, &m->confusion[k], conf, keys[k], UINT64_MAX, true));
        if (m->confusion[k] != leaves[k]) {
            pdt_json_push(&L->j, keys[k]);
            return pdt_json_error(&L->j, "%llu, but the tree's leaves give %llu",
                                  (unsigned long long)m->confusion[k], (unsigned long long)leaves[k]);
        }
    }
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

/* The member key holds the exact rational q. */
static pdt_status check_exact(mload *L, const json_t *obj, const char *key, mpq_srcptr q)
{
    const json_t *v;
    TRY(pdt_json_get(&L->j, &v, obj, key, true));
    size_t mark = pdt_json_push(&L->j, key);
    mpq_t got;
    mpq_init(got);
    pdt_status st = pdt_json_rational_value(&L->j, got, v);
    if (!st && !mpq_equal(got, q)) {
        char *want = mpq_get_str(NULL, 10, q);
        st = pdt_json_error(&L->j, "the confusion counts give %s", want ? want : "another value");
        void (*gmp_free)(void *, size_t);
        mp_get_memory_functions(NULL, NULL, &gmp_free);
        if (want) gmp_free(want, strlen(want) + 1);
    }
    mpq_clear(got);
    pdt_json_pop(&L->j, mark);
    return st;
}

static pdt_status read_value(mload *L, const json_t *obj)
{
    pdt_model *m = L->m;
    pdt_confusion c = {m->confusion[0], m->confusion[1], m->confusion[2], m->confusion[3]};
    pdt_metric_exact(m->objective, &m->mcc_sign, m->metric, &c);
    if (m->metric != PDT_METRIC_MCC) return check_exact(L, obj, "exact", m->objective);
    TRY(check_exact(L, obj, "mcc_squared", m->objective));
    uint64_t sign_plus1 = 0;
    const json_t *v;
    TRY(pdt_json_get(&L->j, &v, obj, "mcc_sign", true));
    size_t mark = pdt_json_push(&L->j, "mcc_sign");
    if (!json_is_integer(v) || json_integer_value(v) < -1 || json_integer_value(v) > 1)
        return pdt_json_error(&L->j, "expected -1, 0 or 1");
    sign_plus1 = (uint64_t)(json_integer_value(v) + 1);
    if ((int)sign_plus1 - 1 != m->mcc_sign)
        return pdt_json_error(&L->j, "%d, but the confusion counts give %d", (int)sign_plus1 - 1, m->mcc_sign);
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

/* One point [fp, fn] of "front", nondominated after the previous one. */
static pdt_status read_point(mload *L, uint32_t *out, const json_t *v, size_t i)
{
    size_t mark = pdt_json_push_index(&L->j, i);
    TRY(pdt_json_expect(&L->j, v, JSON_ARRAY, "an array [fp, fn]"));
    if (json_array_size(v) != 2) return pdt_json_error(&L->j, "expected [fp, fn]");
    const pdt_model *m = L->m;
    uint64_t lim[2] = {m->confusion[1] + m->confusion[3], m->confusion[0] + m->confusion[2]}, x[2];
    for (size_t k = 0; k < 2; k++) {
        size_t inner = pdt_json_push_index(&L->j, k);
        TRY(pdt_json_uint_value(&L->j, &x[k], json_array_get(v, k), lim[k]));
        pdt_json_pop(&L->j, inner);
        out[2 * i + k] = (uint32_t)x[k];
    }
    if (i > 0 && !(out[2 * i] > out[2 * i - 2] && out[2 * i + 1] < out[2 * i - 1]))
        return pdt_json_error(&L->j, "[%u, %u] after [%u, %u]: a front's points have FP increasing and FN "
                              "decreasing", out[2 * i], out[2 * i + 1], out[2 * i - 2], out[2 * i - 1]);
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

/* The optional root front: sorted, nondominated, holding the chosen tree's
 * point, and no point with a better metric. */
static pdt_status read_front(mload *L, const json_t *obj)
{
    const json_t *arr;
    TRY(pdt_json_get(&L->j, &arr, obj, "front", false));
    if (!arr) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, "front");
    TRY(pdt_json_expect(&L->j, arr, JSON_ARRAY, "an array of [fp, fn]"));
    pdt_model *m = L->m;
    size_t n = json_array_size(arr);
    if (n == 0 || (m->front_points && m->front_points != n))
        return pdt_json_error(&L->j, "%zu points; front_points says %zu", n, m->front_points);
    m->front = malloc(2 * n * sizeof *m->front);
    if (!m->front) return pdt_model_json_nomem(L);
    m->front_points = n;
    const uint64_t P = m->confusion[0] + m->confusion[2], N = m->confusion[1] + m->confusion[3];
    pdt_confusion chosen = {m->confusion[0], m->confusion[1], m->confusion[2], m->confusion[3]};
    bool on = false;
    for (size_t i = 0; i < n; i++) {
        TRY(read_point(L, m->front, json_array_get(arr, i), i));
        on |= m->front[2 * i] == chosen.fp && m->front[2 * i + 1] == chosen.fn;
        pdt_confusion c = pdt_confusion_of(m->front[2 * i], m->front[2 * i + 1], P, N);
        if (pdt_metric_cmp(m->metric, &c, &chosen) > 0)
            return pdt_json_error(&L->j, "point [%u, %u] has a better %s than the tree's", m->front[2 * i],
                                  m->front[2 * i + 1], pdt_metric_name(m->metric));
    }
    if (!on)
        return pdt_json_error(&L->j, "the tree's point [%llu, %llu] is not on it", (unsigned long long)chosen.fp,
                              (unsigned long long)chosen.fn);
    pdt_json_pop(&L->j, mark);
    return PDT_OK;
}

pdt_status pdt_model_json_metric(mload *L, const json_t *doc)
{
    const json_t *obj;
    TRY(pdt_json_get(&L->j, &obj, doc, "metric", false));
    if (!obj || json_is_null(obj)) return PDT_OK;
    size_t mark = pdt_json_push(&L->j, "metric");
    TRY(pdt_json_expect(&L->j, obj, JSON_OBJECT, "an object"));
    char *name = NULL;
    TRY(pdt_json_string(&L->j, &name, obj, "name", true));
    bool known = pdt_metric_parse(&L->m->metric, name) && L->m->metric != PDT_METRIC_ACCURACY;
    pdt_status st = known ? PDT_OK : pdt_json_error(&L->j, "name: '%s' is not f1, mcc or fm", name);
    free(name);
    TRY(st);
    TRY(read_positive(L, obj));
    TRY(read_confusion(L, obj));
    uint64_t points = 0;
    TRY(pdt_json_uint(&L->j, &points, obj, "front_points", SIZE_MAX, false));
    L->m->front_points = (size_t)points;
    TRY(read_front(L, obj));
    TRY(read_value(L, obj));
    pdt_json_pop(&L->j, mark);
    /* F1 and FM²: the objective is the exact value; MCC: a decimal, its exact square is in the member */
    return L->m->metric == PDT_METRIC_MCC ? PDT_OK : check_exact(L, doc, "objective", L->m->objective);
}
