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
#include "binding.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
                           "progress", "categories", "metric", "positive", NULL};
    PyObject *x, *features, *y, *classes, *w, *progress = Py_None, *cats = Py_None;
    Py_ssize_t n, d;
    fit_job f = {0};
    pdt_fit_options_init(&f.opt);
    const char *engine = "auto", *perfect = NULL, *metric = "accuracy";
    int lexicographic = 0;
    unsigned memo_mb = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OnnOOOO|sIIIzpdIIzsIzzOOsz", keys, &x, &n, &d, &features, &y,
                                     &classes, &w, &f.opt.rules, &f.opt.max_size, &f.opt.max_depth,
                                     &f.opt.min_leaf, &f.opt.sparse, &lexicographic, &f.opt.time_limit,
                                     &f.opt.threads, &f.opt.rule_params.degree, &f.opt.rule_params.options,
                                     &engine, &memo_mb, &perfect, &f.opt.class_weights, &progress, &cats, &metric,
                                     &f.opt.positive))
        return NULL;
    if (!pdt_metric_parse(&f.opt.metric, metric))
        return PyErr_Format(PyExc_ValueError, "metric '%s' is not accuracy, f1, mcc or fm", metric);
    if (!parse_engine(&f.opt.engine, engine) || !parse_perfect(&f.opt.perfect, perfect)) return NULL;
    if (progress != Py_None && !PyCallable_Check(progress))
        return PyErr_Format(PyExc_TypeError, "progress must be callable");
    f.opt.lexicographic = lexicographic;
    f.opt.memo_megabytes = memo_mb;
    if (!(f.ds = dataset_of(x, n, d, features, y, classes, w, cats))) return NULL;
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

