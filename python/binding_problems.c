/* The other problems: counting proper trees, matrix chains, BSP, k-D trees. */
#include "binding.h"

#include <stdlib.h>
#include <string.h>

#include "../problems/bsp.h"
#include "../problems/kdtree.h"
#include "../problems/matrix_chain.h"

PyObject *py_count(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *keys[] = {"x", "n", "d", "features", "rules", "size", "min_leaf", "degree", "rule_options",
                           NULL};
    PyObject *x, *features;
    Py_ssize_t n, d;
    const char *rules;
    unsigned size, min_leaf = 0, degree = 0;
    pdt_rule_params params = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OnnOsI|IIz", keys, &x, &n, &d, &features, &rules, &size,
                                     &min_leaf, &degree, &params.options))
        return NULL;
    params.degree = degree;
    pdt_dataset *ds = dataset_of(x, n, d, features, Py_None, Py_None, Py_None, Py_None);
    if (!ds) return NULL;
    pdt_count_report r;
    pdt_count_report_init(&r);
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st;
    Py_BEGIN_ALLOW_THREADS
    st = pdt_count(&r, ds, rules, &params, size, min_leaf, &err);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (st) raise_pdt(&err, st);
    else {
        PyObject *p = mpz_to_int(r.proper), *c = mpz_to_int(r.combinations), *q = mpz_to_int(r.permutations);
        if (p && c && q)
            out = Py_BuildValue("{s:n,s:I,s:O,s:O,s:O}", "rules", (Py_ssize_t)r.n_rules, "size", r.size,
                                "proper", p,
                                "combinations", c, "permutations", q);
        Py_XDECREF(p), Py_XDECREF(c), Py_XDECREF(q);
    }
    pdt_count_report_clear(&r);
    pdt_dataset_free(&ds);
    return out;
}

typedef struct search_job {
    pdt_search_opts opts;
    pdt_chain *chain;
    pdt_bsp *bsp;
    pdt_bsp_objective bsp_objective;
    bool bsp_tiebreak;
    pdt_kdtree *kd;
} search_job;

static pdt_status chain_run(job *j)
{
    search_job *s = j->ctx;
    return pdt_chain_solve(s->chain, &s->opts, &j->err);
}

static pdt_status bsp_run(job *j)
{
    search_job *s = j->ctx;
    return pdt_bsp_solve(s->bsp, s->bsp_objective, s->bsp_tiebreak, &s->opts, &j->err);
}

static pdt_status kd_run(job *j)
{
    search_job *s = j->ctx;
    return pdt_kdtree_solve(s->kd, &s->opts, &j->err);
}

/* Runs a problem's search interruptibly; -1 with an exception. */
static int search(job *j, search_job *s, double time_limit)
{
    pdt_search_opts_init(&s->opts);
    s->opts.time_limit = time_limit;
    s->opts.stop = &j->stop;
    j->ctx = s;
    if (job_run(j, Py_None) < 0) return -1;
    if (j->st) return raise_pdt(&j->err, j->st), -1;
    return 0;
}

/* chain(dims text) -> (cost, order, optimal) */
PyObject *py_chain(PyObject *self, PyObject *args)
{
    const char *text;
    Py_ssize_t len;
    double time_limit = 0;
    if (!PyArg_ParseTuple(args, "s#|d", &text, &len, &time_limit)) return NULL;
    mpz_t *dims = NULL;
    size_t n_dims = 0;
    pdt_error err;
    pdt_error_clear(&err);
    search_job s = {0};
    pdt_status st = pdt_chain_parse_dims(&dims, &n_dims, text, (size_t)len, "dims", false, &err);
    if (!st) st = pdt_chain_new(&s.chain, (const mpz_t *)dims, n_dims, &err);
    pdt_chain_dims_free(dims, n_dims);
    if (st) return raise_pdt(&err, st);
    job j = {.run = chain_run};
    PyObject *out = NULL;
    if (search(&j, &s, time_limit) == 0) {
        mpz_t cost;
        mpz_init(cost);
        pdt_chain_cost(cost, s.chain);
        PyObject *c = mpz_to_int(cost);
        mpz_clear(cost);
        PyObject *optimal = pdt_chain_optimal(s.chain) ? Py_True : Py_False;
        if (c) out = Py_BuildValue("(OsO)", c, pdt_chain_order(s.chain), optimal);
        Py_XDECREF(c);
    }
    pdt_chain_free(&s.chain);
    return out;
}

/* bsp(segments text, objective "nodes"/"fragments", depth tiebreak) -> dict */
PyObject *py_bsp(PyObject *self, PyObject *args)
{
    const char *text, *objective = "nodes";
    Py_ssize_t len;
    int tiebreak = 0;
    double time_limit = 0;
    if (!PyArg_ParseTuple(args, "s#|spd", &text, &len, &objective, &tiebreak, &time_limit)) return NULL;
    search_job s = {0};
    if (strcmp(objective, "nodes") == 0) s.bsp_objective = PDT_BSP_NODES;
    else if (strcmp(objective, "fragments") == 0) s.bsp_objective = PDT_BSP_FRAGMENTS;
    else return PyErr_Format(PyExc_ValueError, "objective '%s' is not nodes or fragments", objective);
    s.bsp_tiebreak = tiebreak;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_bsp_read(&s.bsp, text, (size_t)len, "segments", &err);
    if (st) return raise_pdt(&err, st);
    job j = {.run = bsp_run};
    PyObject *out = NULL;
    if (search(&j, &s, time_limit) == 0) {
        pdt_bsp_summary sum;
        pdt_bsp_summarise(&sum, s.bsp);
        out = Py_BuildValue("{s:K,s:K,s:K,s:I,s:O}", "nodes", (unsigned long long)sum.nodes, "branch_nodes",
                            (unsigned long long)sum.branch_nodes, "fragments", (unsigned long long)sum.fragments,
                            "depth", sum.depth, "optimal", sum.optimal ? Py_True : Py_False);
    }
    pdt_bsp_free(&s.bsp);
    return out;
}

static PyObject *kd_nodes(const pdt_kdtree *t)
{
    size_t n = 0;
    const pdt_kd_node *nodes = pdt_kdtree_nodes(t, &n);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t k = 0; list && k < n; k++) {
        PyObject *v = Py_BuildValue("(iIii)", nodes[k].point, nodes[k].dim, nodes[k].left, nodes[k].right);
        if (!v) return Py_DECREF(list), NULL;
        PyList_SET_ITEM(list, (Py_ssize_t)k, v);
    }
    return list;
}

/* kdtree(x, n, d, features, weights, order, objective) -> dict */
PyObject *py_kdtree(PyObject *self, PyObject *args)
{
    PyObject *x, *features, *w;
    Py_ssize_t n, d;
    const char *order_spec = NULL, *objective = "access";
    double time_limit = 0;
    if (!PyArg_ParseTuple(args, "OnnOO|zsd", &x, &n, &d, &features, &w, &order_spec, &objective, &time_limit))
        return NULL;
    pdt_kd_objective obj = PDT_KD_ACCESS;
    if (strcmp(objective, "height") == 0) obj = PDT_KD_HEIGHT;
    else if (strcmp(objective, "access") != 0)
        return PyErr_Format(PyExc_ValueError, "objective '%s' is not access or height", objective);
    pdt_dataset *ds = dataset_of(x, n, d, features, Py_None, Py_None, w, Py_None);
    if (!ds) return NULL;
    uint32_t *order = NULL;
    size_t n_order = 0;
    search_job s = {0};
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = order_spec ? pdt_kdtree_parse_order(&order, &n_order, ds, order_spec, &err) : PDT_OK;
    if (!st) st = pdt_kdtree_new(&s.kd, ds, order, n_order, obj, &err);
    free(order);
    PyObject *out = NULL;
    job j = {.run = kd_run};
    if (st) raise_pdt(&err, st);
    else if (search(&j, &s, time_limit) == 0) {
        mpq_t cost;
        mpq_init(cost);
        pdt_kdtree_cost(cost, s.kd);
        PyObject *c = mpq_to_str(cost), *nodes = kd_nodes(s.kd);
        mpq_clear(cost);
        if (c && nodes)
            out = Py_BuildValue("{s:O,s:I,s:O,s:O}", "cost", c, "height", pdt_kdtree_height(s.kd), "optimal",
                                pdt_kdtree_optimal(s.kd) ? Py_True : Py_False, "nodes", nodes);
        Py_XDECREF(c), Py_XDECREF(nodes);
    }
    pdt_kdtree_free(&s.kd);
    pdt_dataset_free(&ds);
    return out;
}
