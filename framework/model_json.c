/* The model as a JSON result document (docs/formats.md), written with jansson. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "atomic_file.h"
#include "front.h"
#include "model_impl.h"

/* Builder state: the first failure is reported, later ones are ignored. */
typedef struct jsave {
    const pdt_model *m;
    pdt_error *err;
    pdt_status st;
} jsave;

static json_t *js_fail(jsave *s, pdt_status st, const char *what)
{
    if (s->st == PDT_OK) {
        s->st = st;
        if (st == PDT_ENOMEM)
            pdt_error_set(s->err, st, "out of memory building the JSON document");
        else
            pdt_error_set(s->err, st, "cannot save the model: %s", what);
    }
    return NULL;
}

/* A JSON string; text that is not UTF-8 is an error naming `what`. */
static json_t *js_str(jsave *s, const char *text, const char *what)
{
    json_t *v = json_string(text);
    if (v) return v;
    json_t *raw = json_stringn_nocheck(text, strlen(text));
    if (!raw) return js_fail(s, PDT_ENOMEM, what);
    json_decref(raw);
    char msg[256];
    snprintf(msg, sizeof msg, "%s is not valid UTF-8", what);
    return js_fail(s, PDT_EINVAL, msg);
}

static json_t *js_u64(jsave *s, uint64_t x)
{
    if (x > (uint64_t)INT64_MAX) return js_fail(s, PDT_EINTERNAL, "a count exceeds 2^63");
    json_t *v = json_integer((json_int_t)x);
    return v ? v : js_fail(s, PDT_ENOMEM, "");
}

static json_t *js_limit(jsave *s, uint32_t x)
{
    json_t *v = x == PDT_UNLIMITED ? json_null() : json_integer((json_int_t)x);
    return v ? v : js_fail(s, PDT_ENOMEM, "");
}

/* Sets obj[key] = v (stealing v); a NULL v is a failure already reported. */
static void js_put(jsave *s, json_t *obj, const char *key, json_t *v)
{
    if (!v) {
        js_fail(s, PDT_ENOMEM, "");
        return;
    }
    if (!obj) json_decref(v);
    if (!obj || json_object_set_new(obj, key, v) != 0) js_fail(s, PDT_ENOMEM, "");
}

static void js_append(jsave *s, json_t *arr, json_t *v)
{
    if (v && !arr) json_decref(v);
    if (!v || !arr || json_array_append_new(arr, v) != 0) js_fail(s, PDT_ENOMEM, "");
}

/* Text of an exact rational: canonical "p/q", or a terminating decimal when `decimal`. */
static json_t *js_mpq(jsave *s, mpq_srcptr q, bool decimal)
{
    pdt_buf b;
    pdt_buf_init(&b);
    if (decimal)
        pdt_buf_mpq_decimal(&b, q);
    else
        pdt_buf_mpq(&b, q);
    json_t *v = b.failed ? NULL : json_string(b.data);
    pdt_buf_clear(&b);
    return v ? v : js_fail(s, PDT_ENOMEM, "");
}

/* An integer below 2^53 in magnitude is a JSON number; anything else a string. */
static json_t *js_objective(jsave *s, mpq_srcptr q)
{
    if (mpz_cmp_ui(mpq_denref(q), 1) == 0 && mpz_sizeinbase(mpq_numref(q), 2) <= 53) {
        json_t *v = json_integer((json_int_t)mpz_get_d(mpq_numref(q)));
        return v ? v : js_fail(s, PDT_ENOMEM, "");
    }
    return js_mpq(s, q, true);
}

static json_t *js_rule(jsave *s, size_t r)
{
    const pdt_rule *rule = &s->m->rules[r];
    json_t *o = json_object(), *ints = json_array(), *rats = json_array();
    js_put(s, o, "family", js_str(s, rule->cls->name, "a rule family name"));
    pdt_buf text;
    pdt_buf_init(&text);
    pdt_status st = pdt_model_rule_text(&text, s->m, r, s->err);
    if (st != PDT_OK && s->st == PDT_OK) s->st = st;
    if (st == PDT_OK) js_put(s, o, "text", js_str(s, text.data ? text.data : "", "a rule's text"));
    pdt_buf_clear(&text);
    for (size_t k = 0; k < rule->n_ints; k++)
        js_append(s, ints, json_integer((json_int_t)rule->ints[k]));
    for (size_t k = 0; k < rule->n_rats; k++) js_append(s, rats, js_mpq(s, rule->rats[k], false));
    js_put(s, o, "ints", ints);
    js_put(s, o, "rationals", rats);
    return o;
}

static json_t *js_counts(jsave *s, size_t i)
{
    json_t *a = json_array();
    const uint64_t *counts = &s->m->counts[i * s->m->n_classes];
    for (size_t c = 0; c < s->m->n_classes; c++) js_append(s, a, js_u64(s, counts[c]));
    return a;
}

/* Trees deeper than this are saved flat: "tree" is then an array of the
 * nodes (root first, children after their parents) whose "left" and "right"
 * are indices into it, so that no reader meets a nesting deeper than a few
 * levels (jansson stops at 2048) and the indentation does not grow with the
 * depth.  Shallower trees keep the nested form. */
#define PDT_JSON_NESTED_DEPTH 100

static json_t *js_node(jsave *s, size_t i, bool flat);

/* A multiway node's ways: each its code, readable text and child. */
static json_t *js_ways(jsave *s, size_t i, bool flat)
{
    const pdt_tree_node *n = &s->m->nodes[i];
    json_t *a = json_array();
    for (size_t w = 0; w < n->n_ways && s->st == PDT_OK; w++) {
        const pdt_tree_way *way = &s->m->ways[n->first_way + w];
        json_t *o = json_object();
        js_put(s, o, "code", json_integer((json_int_t)way->code));
        pdt_buf text;
        pdt_buf_init(&text);
        pdt_status st = pdt_model_way_text(&text, s->m, i, w, s->err);
        if (st != PDT_OK && s->st == PDT_OK) s->st = st;
        if (st == PDT_OK) js_put(s, o, "text", js_str(s, text.data ? text.data : "", "a way's text"));
        pdt_buf_clear(&text);
        js_put(s, o, "node", flat ? json_integer(way->child) : js_node(s, (size_t)way->child, false));
        js_append(s, a, o);
    }
    return a;
}

static json_t *js_node(jsave *s, size_t i, bool flat)
{
    const pdt_tree_node *n = &s->m->nodes[i];
    if (n->n_ways) {
        json_t *o = json_object();
        js_put(s, o, "rule", js_rule(s, (size_t)n->rule));
        js_put(s, o, "items", js_u64(s, n->n_items));
        js_put(s, o, "counts", js_counts(s, i));
        js_put(s, o, "label", js_str(s, s->m->classes[n->label], "a class name"));
        js_put(s, o, "ways", js_ways(s, i, flat));
        return o;
    }
    json_t *o = json_object();
    json_t *label = js_str(s, s->m->classes[n->label], "a class name");
    if (n->left < 0) {
        js_put(s, o, "leaf", json_true());
        js_put(s, o, "label", label);
    } else {
        js_put(s, o, "rule", js_rule(s, (size_t)n->rule));
    }
    js_put(s, o, "items", js_u64(s, n->n_items));
    js_put(s, o, "counts", js_counts(s, i));
    if (n->left >= 0) js_put(s, o, "label", label);
    if (n->left >= 0 && flat) {
        js_put(s, o, "left", json_integer(n->left));
        js_put(s, o, "right", json_integer(n->right));
    } else if (n->left >= 0 && s->st == PDT_OK) {
        js_put(s, o, "left", js_node(s, (size_t)n->left, false));
        js_put(s, o, "right", js_node(s, (size_t)n->right, false));
    }
    return o;
}

static json_t *js_tree(jsave *s)
{
    if (s->m->depth <= PDT_JSON_NESTED_DEPTH) return js_node(s, 0, false);
    json_t *a = json_array();
    for (size_t i = 0; i < s->m->n_nodes && s->st == PDT_OK; i++) js_append(s, a, js_node(s, i, true));
    return a;
}

static json_t *js_names(jsave *s, char *const *names, size_t n, const char *what)
{
    json_t *a = json_array();
    for (size_t k = 0; k < n; k++) js_append(s, a, js_str(s, names[k], what));
    return a;
}

static json_t *js_data(jsave *s)
{
    const pdt_model *m = s->m;
    json_t *o = json_object();
    js_put(s, o, "name", js_str(s, m->data_name ? m->data_name : "", "the data name"));
    js_put(s, o, "rows", js_u64(s, m->n_train));
    js_put(s, o, "features", js_names(s, m->features, m->dims, "a feature name"));
    js_put(s, o, "classes", js_names(s, m->classes, m->n_classes, "a class name"));
    if (m->categories) { /* categorical columns: their names in code order */
        json_t *cats = json_object();
        for (size_t j = 0; j < m->dims; j++)
            if (m->categories[j])
                js_put(s, cats, m->features[j],
                       js_names(s, m->categories[j], m->n_categories[j], "a category name"));
        js_put(s, o, "categories", cats);
    }
    return o;
}

static json_t *js_constraints(jsave *s)
{
    const pdt_model *m = s->m;
    json_t *o = json_object();
    js_put(s, o, "size", js_limit(s, m->max_size));
    js_put(s, o, "depth", js_limit(s, m->max_depth));
    js_put(s, o, "min_leaf", js_u64(s, m->min_leaf));
    js_put(s, o, "class_weights",
           m->class_weights ? js_str(s, m->class_weights, "the class weights") : json_null());
    js_put(s, o, "sparse", m->sparse ? js_str(s, m->sparse, "the sparse alpha") : json_null());
    js_put(s, o, "lexicographic", json_boolean(m->lexicographic));
    return o;
}

static json_t *js_perfect(jsave *s)
{
    const pdt_perfect_info *p = &s->m->perfect;
    json_t *o = json_object();
    js_put(s, o, "mode", json_string(p->mode == PDT_PERFECT_SIZE ? "size" : "depth"));
    js_put(s, o, "floor", js_u64(s, p->floor));
    js_put(s, o, "reached", json_boolean(p->reached));
    js_put(s, o, "depth_proven", json_boolean(p->depth_proven));
    js_put(s, o, "size_proven", json_boolean(p->size_proven));
    js_put(s, o, "fits", js_u64(s, p->fits));
    return o;
}

static json_t *js_stats(jsave *s)
{
    const pdt_search_stats *st = &s->m->stats;
    json_t *o = json_object();
    js_put(s, o, "nodes", js_u64(s, st->nodes));
    js_put(s, o, "candidates", js_u64(s, st->candidates));
    js_put(s, o, "memo_hits", js_u64(s, st->memo_hits));
    js_put(s, o, "memo_entries", js_u64(s, st->memo_entries));
    js_put(s, o, "pruned", js_u64(s, st->pruned));
    if (st->workers > 1) { /* issue 13: root work shared by threads or ranks */
        js_put(s, o, "workers", js_u64(s, st->workers));
        js_put(s, o, "work_max", js_u64(s, st->work_max));
        js_put(s, o, "work_total", js_u64(s, st->work_total));
    }
    return o;
}

/* A metric fit (issue 10): the metric's value, exact, and the counts it comes from. */
static json_t *js_metric(jsave *s)
{
    const pdt_model *m = s->m;
    json_t *o = json_object(), *c = json_object();
    js_put(s, o, "name", json_string(pdt_metric_name(m->metric)));
    js_put(s, o, "positive", js_str(s, m->classes[m->positive], "the positive class"));
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_confusion cf = {m->confusion[0], m->confusion[1], m->confusion[2], m->confusion[3]};
    pdt_metric_decimal(&b, m->metric, &cf, 15);
    js_put(s, o, "value", b.failed ? js_fail(s, PDT_ENOMEM, "") : json_string(b.data));
    pdt_buf_clear(&b);
    if (m->metric == PDT_METRIC_MCC) {
        js_put(s, o, "mcc_squared", js_mpq(s, m->objective, false));
        js_put(s, o, "mcc_sign", json_integer(m->mcc_sign));
    } else {
        js_put(s, o, "exact", js_mpq(s, m->objective, false));
    }
    static const char *const keys[4] = {"tp", "fp", "fn", "tn"};
    for (int k = 0; k < 4; k++) js_put(s, c, keys[k], js_u64(s, m->confusion[k]));
    js_put(s, o, "confusion", c);
    if (m->front_points) js_put(s, o, "front_points", js_u64(s, m->front_points));
    if (m->front) {
        json_t *f = json_array();
        for (size_t i = 0; i < m->front_points; i++) {
            json_t *pt = json_array();
            js_append(s, pt, json_integer(m->front[2 * i]));
            js_append(s, pt, json_integer(m->front[2 * i + 1]));
            js_append(s, f, pt);
        }
        js_put(s, o, "front", f);
    }
    return o;
}

/* MCC's objective is a decimal (its exact square is in "metric"). */
static json_t *js_objective_of(jsave *s, const pdt_model *m)
{
    if (m->metric != PDT_METRIC_MCC) return js_objective(s, m->objective);
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_confusion cf = {m->confusion[0], m->confusion[1], m->confusion[2], m->confusion[3]};
    pdt_metric_decimal(&b, m->metric, &cf, 15);
    json_t *v = b.failed ? js_fail(s, PDT_ENOMEM, "") : json_string(b.data);
    pdt_buf_clear(&b);
    return v;
}

static json_t *js_document(jsave *s)
{
    const pdt_model *m = s->m;
    json_t *doc = json_object();
    js_put(s, doc, "format", json_string("pdt-result"));
    js_put(s, doc, "version", json_integer(1));
    js_put(s, doc, "pdt", json_string(PDT_VERSION_STRING));
    js_put(s, doc, "problem", js_str(s, m->problem ? m->problem : "classification", "the problem"));
    js_put(s, doc, "rules", js_str(s, m->families ? m->families : "", "the rule families"));
    js_put(s, doc, "objective", js_objective_of(s, m));
    if (m->metric != PDT_METRIC_ACCURACY) js_put(s, doc, "metric", js_metric(s));
    js_put(s, doc, "optimal", json_boolean(m->optimal));
    if (pdt_model_stopped_by(m)) js_put(s, doc, "stopped_by", json_string(pdt_model_stopped_by(m)));
    js_put(s, doc, "size_minimal", json_boolean(m->size_minimal));
    js_put(s, doc, "size", json_integer(m->size));
    js_put(s, doc, "depth", json_integer(m->depth));
    js_put(s, doc, "misclassifications", js_u64(s, m->misclassifications));
    js_put(s, doc, "data", js_data(s));
    js_put(s, doc, "constraints", js_constraints(s));
    if (m->perfect.mode != PDT_PERFECT_NONE) js_put(s, doc, "perfect", js_perfect(s));
    if (m->engine) js_put(s, doc, "engine", js_str(s, m->engine, "the engine name"));
    js_put(s, doc, "seconds", json_real(isfinite(m->seconds) && m->seconds > 0 ? m->seconds : 0.0));
    js_put(s, doc, "stats", js_stats(s));
    if (s->st == PDT_OK) js_put(s, doc, "tree", js_tree(s));
    return doc;
}

pdt_status pdt_model_save_json(const pdt_model *model, const char *path, pdt_error *err)
{
    pdt_status st = pdt_model_check(model, err);
    if (st != PDT_OK) return pdt_error_prefix(err, "cannot save %s: ", path);
    jsave s = {.m = model, .err = err, .st = PDT_OK};
    json_t *doc = js_document(&s);
    if (s.st != PDT_OK) {
        json_decref(doc);
        return s.st;
    }
    pdt_atomic_file af;
    st = pdt_atomic_file_open(&af, path, err);
    if (st == PDT_OK) {
        if (json_dumpf(doc, af.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 ||
            fputc('\n', af.f) == EOF) {
            pdt_atomic_file_abort(&af);
            st = pdt_error_set(err, PDT_EIO, "cannot write %s", path);
        } else {
            st = pdt_atomic_file_commit(&af, err);
        }
    }
    json_decref(doc);
    return st;
}

char *pdt_model_json_text(const pdt_model *model, pdt_error *err)
{
    if (pdt_model_check(model, err) != PDT_OK) return NULL;
    jsave s = {.m = model, .err = err, .st = PDT_OK};
    json_t *doc = js_document(&s);
    char *text = s.st == PDT_OK ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    if (!text && s.st == PDT_OK) pdt_error_set(err, PDT_ENOMEM, "out of memory");
    json_decref(doc);
    return text;
}
