/* pdt._pdt: the CPython binding of libpdt.  Thin: arrays in (buffers of
 * float64 / uint32), the library's calls, results out as bytes, strings and
 * Python ints.  The estimator (pdt/__init__.py) does the scikit-learn side.
 *
 * Long searches run on a worker thread with the GIL released; the calling
 * thread wakes every 20 ms, runs Python's signal handlers
 * (PyErr_CheckSignals: SIGINT, _thread.interrupt_main) and the progress
 * callback, and on an exception sets the search's stop flag, waits for the
 * worker (which then returns within a fraction of a second) and frees what
 * it made. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../problems/bsp.h"
#include "../problems/kdtree.h"
#include "../problems/matrix_chain.h"
#include "pdt.h"

/* ------------------------------------------------------------ errors */

static PyObject *raise_pdt(const pdt_error *err, pdt_status st)
{
    PyObject *type = PyExc_RuntimeError;
    if (st == PDT_EINVAL || st == PDT_ELIMIT) type = PyExc_ValueError;
    else if (st == PDT_ENOMEM) type = PyExc_MemoryError;
    else if (st == PDT_EIO) type = PyExc_OSError;
    PyErr_SetString(type, err->message[0] ? err->message : pdt_status_name(st));
    return NULL;
}

/* ------------------------------------------------------------ arrays */

/* The names in a list/tuple of str, as a NULL-free array of UTF-8 pointers
 * owned by the list (valid while it lives); NULL with an exception. */
static const char **names_of(PyObject *seq, size_t want, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    const char **names = NULL;
    if ((size_t)n != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd names for %zu", what, n, want);
    } else if ((names = PyMem_Calloc((size_t)n + 1, sizeof *names))) {
        for (Py_ssize_t k = 0; k < n && names; k++) {
            names[k] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, k));
            if (!names[k]) PyMem_Free(names), names = NULL;
        }
    } else {
        PyErr_NoMemory();
    }
    Py_DECREF(fast); /* the items stay alive in seq (the caller holds it) */
    return names;
}

typedef struct arrays {
    Py_buffer x, y, w;
    bool has_y, has_w;
    const char **features, **classes, **cells;
    pdt_array_data in;
} arrays;

static void arrays_release(arrays *a)
{
    if (a->x.obj) PyBuffer_Release(&a->x);
    if (a->has_y) PyBuffer_Release(&a->y);
    if (a->has_w) PyBuffer_Release(&a->w);
    PyMem_Free(a->features);
    PyMem_Free(a->classes);
    PyMem_Free(a->cells);
}

static bool buffer_of(Py_buffer *b, PyObject *obj, size_t count, size_t item, const char *what)
{
    if (PyObject_GetBuffer(obj, b, PyBUF_C_CONTIGUOUS) < 0) return false;
    if ((size_t)b->len == count * item) return true;
    PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zu", what, b->len, count * item);
    PyBuffer_Release(b);
    b->obj = NULL;
    return false;
}

/* x: n*d float64 bytes, or a list of n*d texts (exact decimals, fractions); features: d names; y (uint32 codes) with classes, and
 * w (float64), each None when absent. */
static bool arrays_get(arrays *a, PyObject *x, Py_ssize_t n, Py_ssize_t d, PyObject *features,
                       PyObject *y, PyObject *classes, PyObject *w)
{
    memset(a, 0, sizeof *a);
    if (n < 0 || d < 0) return PyErr_SetString(PyExc_ValueError, "negative shape"), false;
    a->in = (pdt_array_data){.n = (size_t)n, .d = (size_t)d, .name = "the data"};
    if (PyList_Check(x)) { /* n*d exact numbers as text */
        if (!(a->cells = names_of(x, a->in.n * a->in.d, "cells"))) return false;
        a->in.cells = a->cells;
    } else {
        if (!buffer_of(&a->x, x, a->in.n * a->in.d, sizeof(double), "x")) return false;
        a->in.x = a->x.buf;
    }
    if (!(a->features = names_of(features, a->in.d, "feature names"))) return false;
    a->in.feature_names = a->features;
    if (y != Py_None) {
        if (!(a->has_y = buffer_of(&a->y, y, a->in.n, sizeof(uint32_t), "y"))) return false;
        Py_ssize_t k = PySequence_Size(classes);
        if (k < 0 || !(a->classes = names_of(classes, (size_t)k, "class names"))) return false;
        a->in.labels = a->y.buf, a->in.class_names = a->classes, a->in.n_classes = (size_t)k;
    }
    if (w != Py_None) {
        if (!(a->has_w = buffer_of(&a->w, w, a->in.n, sizeof(double), "sample weights"))) return false;
        a->in.weights = a->w.buf;
    }
    return true;
}

/* The dataset, or NULL with an exception. */
static pdt_dataset *dataset_of(PyObject *x, Py_ssize_t n, Py_ssize_t d, PyObject *features, PyObject *y,
                               PyObject *classes, PyObject *w)
{
    arrays a;
    pdt_dataset *ds = NULL;
    if (arrays_get(&a, x, n, d, features, y, classes, w)) {
        pdt_error err;
        pdt_error_clear(&err);
        pdt_status st = pdt_dataset_from_arrays(&ds, &a.in, &err);
        if (st) raise_pdt(&err, st);
    }
    arrays_release(&a);
    return ds;
}

/* ------------------------------------------------------------ interruptible jobs */

typedef struct job job;
struct job {
    pdt_status (*run)(job *j); /* on the worker, without the GIL */
    volatile sig_atomic_t stop;
    pdt_status st;
    pdt_error err;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done, fresh;           /* under mu */
    pdt_progress last;          /* under mu; last.best points at best_text */
    char best_text[256];
    void *ctx;                  /* the job's own arguments and results */
};

static void job_progress(void *user, const pdt_progress *p)
{
    job *j = user;
    pthread_mutex_lock(&j->mu);
    j->last = *p;
    snprintf(j->best_text, sizeof j->best_text, "%s", p->best ? p->best : "");
    j->last.best = j->best_text;
    j->fresh = true;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

static void *job_main(void *arg)
{
    job *j = arg;
    pdt_status st = j->run(j);
    pthread_mutex_lock(&j->mu);
    j->st = st;
    j->done = true;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* Waits up to 20 ms for the worker to finish or report; true when done. */
static bool job_nap(job *j, pdt_progress *report, bool *fresh)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 20 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&j->mu);
    while (!j->done && !j->fresh)
        if (pthread_cond_timedwait(&j->cv, &j->mu, &until) == ETIMEDOUT) break;
    bool done = j->done;
    *fresh = j->fresh;
    if (*fresh) *report = j->last, j->fresh = false;
    pthread_mutex_unlock(&j->mu);
    return done;
}

static bool call_progress(PyObject *callback, const pdt_progress *p)
{
    PyObject *r = PyObject_CallFunction(callback, "{s:d,s:K,s:s}", "seconds", p->seconds, "nodes",
                                        (unsigned long long)p->nodes, "best", p->best);
    Py_XDECREF(r);
    return r != NULL;
}

/* Runs j->run on a worker thread; 0 when it finished (j->st says how), -1
 * with a Python exception (KeyboardInterrupt, the callback's) after
 * stopping it. */
static int job_run(job *j, PyObject *callback)
{
    pthread_t worker;
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    pdt_error_clear(&j->err);
    j->stop = 0, j->done = j->fresh = false;
    int rc = pthread_create(&worker, NULL, job_main, j);
    if (rc) {
        pthread_mutex_destroy(&j->mu);
        pthread_cond_destroy(&j->cv);
        errno = rc;
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    bool failed = false, done = false;
    while (!done) {
        pdt_progress report;
        bool fresh = false;
        Py_BEGIN_ALLOW_THREADS
        done = job_nap(j, &report, &fresh);
        Py_END_ALLOW_THREADS
        if (fresh && callback != Py_None && !failed && !call_progress(callback, &report)) failed = true;
        if (!failed && PyErr_CheckSignals() < 0) failed = true;
        if (failed) j->stop = 1; /* the worker sees it within a few milliseconds */
    }
    Py_BEGIN_ALLOW_THREADS
    pthread_join(worker, NULL);
    Py_END_ALLOW_THREADS
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    return failed ? -1 : 0;
}

/* ------------------------------------------------------------ Model */

typedef struct {
    PyObject_HEAD
    pdt_model *model;
} ModelObject;

static PyTypeObject ModelType;

static PyObject *model_wrap(pdt_model *m)
{
    ModelObject *o = PyObject_New(ModelObject, &ModelType);
    if (!o) {
        pdt_model_free(&m);
        return NULL;
    }
    o->model = m;
    return (PyObject *)o;
}

static void model_dealloc(ModelObject *o)
{
    pdt_model_free(&o->model);
    PyObject_Free(o);
}

static PyObject *mpq_to_str(mpq_srcptr q)
{
    char *text = mpq_get_str(NULL, 10, q);
    if (!text) return PyErr_NoMemory();
    PyObject *s = PyUnicode_FromString(text);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    gmp_free(text, strlen(text) + 1);
    return s;
}

static PyObject *mpz_to_int(mpz_srcptr z)
{
    char *text = mpz_get_str(NULL, 16, z);
    if (!text) return PyErr_NoMemory();
    PyObject *i = PyLong_FromString(text, NULL, 16);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    gmp_free(text, strlen(text) + 1);
    return i;
}

static PyObject *model_objective(ModelObject *o, void *closure)
{
    mpq_t q;
    mpq_init(q);
    pdt_model_objective(q, o->model);
    PyObject *s = mpq_to_str(q);
    mpq_clear(q);
    return s;
}

static PyObject *model_optimal(ModelObject *o, void *c) { return PyBool_FromLong(pdt_model_optimal(o->model)); }
static PyObject *model_size(ModelObject *o, void *c) { return PyLong_FromUnsignedLong(pdt_model_size(o->model)); }
static PyObject *model_depth(ModelObject *o, void *c) { return PyLong_FromUnsignedLong(pdt_model_depth(o->model)); }
static PyObject *model_nodes(ModelObject *o, void *c) { return PyLong_FromSize_t(pdt_model_nodes(o->model)); }
static PyObject *model_seconds(ModelObject *o, void *c) { return PyFloat_FromDouble(pdt_model_seconds(o->model)); }

static PyObject *name_list(const pdt_model *m, size_t count, const char *(*name)(const pdt_model *, size_t))
{
    PyObject *list = PyList_New((Py_ssize_t)count);
    for (size_t i = 0; list && i < count; i++) {
        PyObject *s = PyUnicode_FromString(name(m, i));
        if (!s) return Py_DECREF(list), NULL;
        PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    return list;
}

static PyObject *model_classes(ModelObject *o, void *c)
{
    return name_list(o->model, pdt_model_classes(o->model), pdt_model_class_name);
}

static PyObject *model_features(ModelObject *o, void *c)
{
    return name_list(o->model, pdt_model_dims(o->model), pdt_model_feature_name);
}

/* predict / apply: (x bytes, n, d, feature names) -> uint32 bytes. */
static PyObject *model_walk(ModelObject *o, PyObject *args, bool leaves)
{
    PyObject *x, *features;
    Py_ssize_t n, d;
    if (!PyArg_ParseTuple(args, "OnnO", &x, &n, &d, &features)) return NULL;
    pdt_dataset *ds = dataset_of(x, n, d, features, Py_None, Py_None, Py_None);
    if (!ds) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(uint32_t));
    if (out) {
        pdt_error err;
        pdt_error_clear(&err);
        uint32_t *codes = (uint32_t *)PyBytes_AS_STRING(out);
        pdt_status st;
        Py_BEGIN_ALLOW_THREADS
        st = leaves ? pdt_model_apply(codes, o->model, ds, &err) : pdt_model_predict(codes, o->model, ds, &err);
        Py_END_ALLOW_THREADS
        if (st) {
            Py_CLEAR(out);
            raise_pdt(&err, st);
        }
    }
    pdt_dataset_free(&ds);
    return out;
}

static PyObject *model_predict(ModelObject *o, PyObject *args) { return model_walk(o, args, false); }
static PyObject *model_apply(ModelObject *o, PyObject *args) { return model_walk(o, args, true); }

/* Training items per node and class: uint64 bytes, nodes × classes. */
static PyObject *model_counts(ModelObject *o, PyObject *unused)
{
    size_t nodes = pdt_model_nodes(o->model), k = pdt_model_classes(o->model);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nodes * k * sizeof(uint64_t)));
    for (size_t v = 0; out && v < nodes; v++)
        memcpy(PyBytes_AS_STRING(out) + v * k * sizeof(uint64_t), pdt_model_node_counts(o->model, v),
               k * sizeof(uint64_t));
    return out;
}

/* Node k: (left, right, label, rule text). */
static PyObject *model_node(ModelObject *o, PyObject *args)
{
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "n", &k)) return NULL;
    if (k < 0 || (size_t)k >= pdt_model_nodes(o->model))
        return PyErr_Format(PyExc_IndexError, "node %zd of %zu", k, pdt_model_nodes(o->model));
    int32_t left, right;
    pdt_model_node_children(&left, &right, o->model, (size_t)k);
    char *text = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_node_rule(&text, o->model, (size_t)k, &err);
    if (st) return raise_pdt(&err, st);
    PyObject *r = Py_BuildValue("(iiIs)", left, right, pdt_model_node_label(o->model, (size_t)k), text);
    free(text);
    return r;
}

static PyObject *model_save(ModelObject *o, PyObject *args)
{
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_save_json(o->model, path, &err);
    if (st) return raise_pdt(&err, st);
    Py_RETURN_NONE;
}

/* render(path, format): "dot", "svg", "png" through the drawing module. */
static PyObject *model_render(ModelObject *o, PyObject *args)
{
    const char *path, *format;
    if (!PyArg_ParseTuple(args, "ss", &path, &format)) return NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st;
    Py_BEGIN_ALLOW_THREADS
    st = pdt_model_render(o->model, path, format, &err);
    Py_END_ALLOW_THREADS
    if (st) return raise_pdt(&err, st);
    Py_RETURN_NONE;
}

static PyObject *model_text(ModelObject *o, PyObject *unused)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return PyErr_NoMemory();
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_write_text(o->model, f, &err);
    fclose(f);
    PyObject *r = st ? raise_pdt(&err, st) : PyUnicode_FromStringAndSize(buf, (Py_ssize_t)len);
    free(buf);
    return r;
}

static PyMethodDef model_methods[] = {
    {"predict", (PyCFunction)model_predict, METH_VARARGS, "predict(x, n, d, features) -> uint32 class codes"},
    {"apply", (PyCFunction)model_apply, METH_VARARGS, "apply(x, n, d, features) -> uint32 leaf nodes"},
    {"counts", (PyCFunction)model_counts, METH_NOARGS, "uint64 training items, nodes x classes"},
    {"node", (PyCFunction)model_node, METH_VARARGS, "node(k) -> (left, right, label, rule text)"},
    {"save", (PyCFunction)model_save, METH_VARARGS, "save(path): the JSON model"},
    {"render", (PyCFunction)model_render, METH_VARARGS, "render(path, format): dot, svg, png"},
    {"text", (PyCFunction)model_text, METH_NOARGS, "the tree as text"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef model_getset[] = {
    {"objective", (getter)model_objective, NULL, "the optimum as an exact rational text", NULL},
    {"optimal", (getter)model_optimal, NULL, "proven optimal", NULL},
    {"size", (getter)model_size, NULL, "branch nodes", NULL},
    {"depth", (getter)model_depth, NULL, "levels of branch nodes", NULL},
    {"n_nodes", (getter)model_nodes, NULL, "nodes (branch and leaf)", NULL},
    {"classes", (getter)model_classes, NULL, "class names", NULL},
    {"features", (getter)model_features, NULL, "feature names", NULL},
    {"seconds", (getter)model_seconds, NULL, "search time", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pdt._pdt.Model",
    .tp_basicsize = sizeof(ModelObject),
    .tp_dealloc = (destructor)model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A fitted libpdt model (made by fit or load).",
    .tp_methods = model_methods,
    .tp_getset = model_getset,
};

/* ------------------------------------------------------------ fit */

typedef struct fit_job {
    pdt_dataset *ds;
    pdt_fit_options opt;
    pdt_model *model;
} fit_job;

static pdt_status fit_run(job *j)
{
    fit_job *f = j->ctx;
    return pdt_fit(&f->model, f->ds, &f->opt, &j->err);
}

static bool parse_engine(pdt_engine *out, const char *name)
{
    static const char *const names[] = {"auto", "fused", "combinations", "backend"};
    for (int k = 0; k < 4; k++)
        if (strcmp(name, names[k]) == 0) return *out = (pdt_engine)k, true;
    PyErr_Format(PyExc_ValueError, "engine '%s' is not auto, fused, combinations or backend", name);
    return false;
}

static bool parse_perfect(pdt_perfect_mode *out, const char *mode)
{
    if (!mode) *out = PDT_PERFECT_NONE;
    else if (strcmp(mode, "depth") == 0) *out = PDT_PERFECT_DEPTH;
    else if (strcmp(mode, "size") == 0) *out = PDT_PERFECT_SIZE;
    else return PyErr_Format(PyExc_ValueError, "perfect '%s' is not depth or size", mode), false;
    return true;
}

static PyObject *py_fit(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *keys[] = {"x", "n", "d", "features", "y", "classes", "weights", "rules", "max_size",
                           "max_depth", "min_leaf", "sparse", "lexicographic", "time_limit", "threads",
                           "degree", "rule_options", "engine", "memo_mb", "perfect", "class_weights",
                           "progress", NULL};
    PyObject *x, *features, *y, *classes, *w, *progress = Py_None;
    Py_ssize_t n, d;
    fit_job f = {0};
    pdt_fit_options_init(&f.opt);
    const char *engine = "auto", *perfect = NULL;
    int lexicographic = 0;
    unsigned memo_mb = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OnnOOOO|sIIIzpdIIzsIzzO", keys, &x, &n, &d, &features, &y,
                                     &classes, &w, &f.opt.rules, &f.opt.max_size, &f.opt.max_depth,
                                     &f.opt.min_leaf, &f.opt.sparse, &lexicographic, &f.opt.time_limit,
                                     &f.opt.threads, &f.opt.rule_params.degree, &f.opt.rule_params.options,
                                     &engine, &memo_mb, &perfect, &f.opt.class_weights, &progress))
        return NULL;
    if (!parse_engine(&f.opt.engine, engine) || !parse_perfect(&f.opt.perfect, perfect)) return NULL;
    if (progress != Py_None && !PyCallable_Check(progress))
        return PyErr_Format(PyExc_TypeError, "progress must be callable");
    f.opt.lexicographic = lexicographic;
    f.opt.memo_megabytes = memo_mb;
    if (!(f.ds = dataset_of(x, n, d, features, y, classes, w))) return NULL;
    job j = {.run = fit_run, .ctx = &f};
    f.opt.stop = &j.stop;
    f.opt.progress = job_progress, f.opt.progress_user = &j;
    int rc = job_run(&j, progress);
    pdt_dataset_free(&f.ds);
    if (rc < 0) return pdt_model_free(&f.model), NULL;
    if (j.st) return pdt_model_free(&f.model), raise_pdt(&j.err, j.st);
    return model_wrap(f.model);
}

static PyObject *py_load(PyObject *self, PyObject *args)
{
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_model_load_json(&m, path, &err);
    if (st) return raise_pdt(&err, st);
    return model_wrap(m);
}

/* ------------------------------------------------------------ other problems */

static PyObject *py_count(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *keys[] = {"x", "n", "d", "features", "rules", "size", "min_leaf", "degree", "rule_options", NULL};
    PyObject *x, *features;
    Py_ssize_t n, d;
    const char *rules;
    unsigned size, min_leaf = 0, degree = 0;
    pdt_rule_params params = {0, NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OnnOsI|IIz", keys, &x, &n, &d, &features, &rules, &size,
                                     &min_leaf, &degree, &params.options))
        return NULL;
    params.degree = degree;
    pdt_dataset *ds = dataset_of(x, n, d, features, Py_None, Py_None, Py_None);
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
            out = Py_BuildValue("{s:n,s:I,s:O,s:O,s:O}", "rules", (Py_ssize_t)r.n_rules, "size", r.size, "proper", p,
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
static PyObject *py_chain(PyObject *self, PyObject *args)
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
        if (c) out = Py_BuildValue("(OsO)", c, pdt_chain_order(s.chain), pdt_chain_optimal(s.chain) ? Py_True : Py_False);
        Py_XDECREF(c);
    }
    pdt_chain_free(&s.chain);
    return out;
}

/* bsp(segments text, objective "nodes"/"fragments", depth tiebreak) -> dict */
static PyObject *py_bsp(PyObject *self, PyObject *args)
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
static PyObject *py_kdtree(PyObject *self, PyObject *args)
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
    pdt_dataset *ds = dataset_of(x, n, d, features, Py_None, Py_None, w);
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

/* ------------------------------------------------------------ module */

static PyMethodDef module_methods[] = {
    {"fit", (PyCFunction)(void (*)(void))py_fit, METH_VARARGS | METH_KEYWORDS, "fit(...) -> Model"},
    {"load", py_load, METH_VARARGS, "load(path) -> Model (JSON model file)"},
    {"count", (PyCFunction)(void (*)(void))py_count, METH_VARARGS | METH_KEYWORDS, "count proper trees"},
    {"chain", py_chain, METH_VARARGS, "chain(dims text[, time limit]) -> (cost, order, optimal)"},
    {"bsp", py_bsp, METH_VARARGS, "bsp(segments text[, objective, depth tiebreak, time limit]) -> dict"},
    {"kdtree", py_kdtree, METH_VARARGS, "kdtree(x, n, d, features, weights[, order, objective, time limit])"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, .m_name = "pdt._pdt", .m_doc = "libpdt binding (use the pdt package)",
    .m_size = -1, .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__pdt(void);

/* The drawing module: $PDT_DRAW_MODULE when set, else the build tree's while
 * it exists (PYTHONPATH=build/python), else the library's own search (where
 * it is installed). */
static void point_at_draw_module(void)
{
#ifdef PDT_PY_DRAW_MODULE_BUILD
    if (!getenv("PDT_DRAW_MODULE") && access(PDT_PY_DRAW_MODULE_BUILD, R_OK) == 0)
        setenv("PDT_DRAW_MODULE", PDT_PY_DRAW_MODULE_BUILD, 0);
#endif
}

PyMODINIT_FUNC PyInit__pdt(void)
{
    point_at_draw_module();
    if (PyType_Ready(&ModelType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    Py_INCREF(&ModelType);
    if (PyModule_AddObject(m, "Model", (PyObject *)&ModelType) < 0) {
        Py_DECREF(&ModelType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddStringConstant(m, "version", PDT_VERSION_STRING) < 0) return Py_DECREF(m), NULL;
    return m;
}
