/* The Model type: a fitted or loaded libpdt model. */
#include "binding.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    pdt_model *model;
} ModelObject;

PyObject *model_wrap(pdt_model *m)
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

static PyObject *model_objective(ModelObject *o, void *closure)
{
    mpq_t q;
    mpq_init(q);
    pdt_model_objective(q, o->model);
    PyObject *s = mpq_to_str(q);
    mpq_clear(q);
    return s;
}

static PyObject *model_optimal(ModelObject *o, void *c)
{
    return PyBool_FromLong(pdt_model_optimal(o->model));
}

static PyObject *model_stopped_by(ModelObject *o, void *c)
{
    const char *why = pdt_model_stopped_by(o->model);
    if (why) return PyUnicode_FromString(why);
    Py_RETURN_NONE;
}

static PyObject *model_size(ModelObject *o, void *c) { return PyLong_FromUnsignedLong(pdt_model_size(o->model)); }

static PyObject *model_depth(ModelObject *o, void *c)
{
    return PyLong_FromUnsignedLong(pdt_model_depth(o->model));
}

static PyObject *model_nodes(ModelObject *o, void *c) { return PyLong_FromSize_t(pdt_model_nodes(o->model)); }

static PyObject *model_seconds(ModelObject *o, void *c)
{
    return PyFloat_FromDouble(pdt_model_seconds(o->model));
}

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

/* predict / apply: (x bytes, n, d, feature names[, categories]) -> uint32 bytes. */
static PyObject *model_walk(ModelObject *o, PyObject *args, bool leaves)
{
    PyObject *x, *features, *cats = Py_None;
    Py_ssize_t n, d;
    if (!PyArg_ParseTuple(args, "OnnO|O", &x, &n, &d, &features, &cats)) return NULL;
    pdt_dataset *ds = dataset_of(x, n, d, features, Py_None, Py_None, Py_None, cats);
    if (!ds) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(uint32_t));
    if (out) {
        pdt_error err;
        pdt_error_clear(&err);
        uint32_t *codes = (uint32_t *)PyBytes_AS_STRING(out);
        pdt_status st;
        Py_BEGIN_ALLOW_THREADS
        st = leaves ? pdt_model_apply(codes, o->model, ds, &err)
                    : pdt_model_predict(codes, o->model, ds, &err);
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

/* Node k's ways: [(text, child), ...], empty unless it is a multiway node. */
static PyObject *node_ways(const pdt_model *m, size_t k)
{
    size_t n = pdt_model_node_ways(m, k);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t w = 0; list && w < n; w++) {
        char *text = NULL;
        pdt_error err;
        pdt_error_clear(&err);
        pdt_status st = pdt_model_node_way_text(&text, m, k, w, &err);
        PyObject *item = st ? raise_pdt(&err, st) : Py_BuildValue("(si)", text, pdt_model_node_way_child(m, k, w));
        free(text);
        if (!item) return Py_DECREF(list), NULL;
        PyList_SET_ITEM(list, (Py_ssize_t)w, item);
    }
    return list;
}

/* Node k: (left, right, label, rule text, ways). */
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
    PyObject *ways = node_ways(o->model, (size_t)k);
    PyObject *r = ways ? Py_BuildValue("(iiIsN)", left, right, pdt_model_node_label(o->model, (size_t)k), text, ways)
                       : NULL;
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
    {"predict", (PyCFunction)model_predict, METH_VARARGS, "predict(x, n, d, features[, categories]) -> uint32 class codes"},
    {"apply", (PyCFunction)model_apply, METH_VARARGS, "apply(x, n, d, features[, categories]) -> uint32 nodes"},
    {"counts", (PyCFunction)model_counts, METH_NOARGS, "uint64 training items, nodes x classes"},
    {"node", (PyCFunction)model_node, METH_VARARGS, "node(k) -> (left, right, label, rule text, [(way text, child)])"},
    {"save", (PyCFunction)model_save, METH_VARARGS, "save(path): the JSON model"},
    {"render", (PyCFunction)model_render, METH_VARARGS, "render(path, format): dot, svg, png"},
    {"text", (PyCFunction)model_text, METH_NOARGS, "the tree as text"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef model_getset[] = {
    {"objective", (getter)model_objective, NULL, "the optimum as an exact rational text", NULL},
    {"optimal", (getter)model_optimal, NULL, "proven optimal", NULL},
    {"stopped_by", (getter)model_stopped_by, NULL,
     "not proven optimal: \"time limit\", \"memory limit\" or \"interrupt\" (None: optimal, or not known)", NULL},
    {"size", (getter)model_size, NULL, "branch nodes", NULL},
    {"depth", (getter)model_depth, NULL, "levels of branch nodes", NULL},
    {"n_nodes", (getter)model_nodes, NULL, "nodes (branch and leaf)", NULL},
    {"classes", (getter)model_classes, NULL, "class names", NULL},
    {"features", (getter)model_features, NULL, "feature names", NULL},
    {"seconds", (getter)model_seconds, NULL, "search time", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pdt._pdt.Model",
    .tp_basicsize = sizeof(ModelObject),
    .tp_dealloc = (destructor)model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A fitted libpdt model (made by fit or load).",
    .tp_methods = model_methods,
    .tp_getset = model_getset,
};
