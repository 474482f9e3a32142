/* Arrays in, numbers out: Python objects to libpdt datasets and back. */
#include "binding.h"

#include <string.h>

/* ------------------------------------------------------------ errors */

PyObject *raise_pdt(const pdt_error *err, pdt_status st)
{
    PyObject *type = PyExc_RuntimeError;
    if (st == PDT_EINVAL || st == PDT_ELIMIT) type = PyExc_ValueError;
    else if (st == PDT_ENOMEM) type = PyExc_MemoryError;
    else if (st == PDT_EIO) type = PyExc_OSError;
    PyErr_SetString(type, err->message[0] ? err->message : pdt_status_name(st));
    return NULL;
}

/* ------------------------------------------------------------ arrays */

/* The names in a list/tuple of str, as an array of UTF-8 pointers owned by
 * the list (valid while it lives), NULL where none_ok lets an item be None
 * (a missing cell); NULL with an exception. */
static const char **names_or_none(PyObject *seq, size_t want, const char *what, bool none_ok)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    const char **names = NULL;
    if ((size_t)n != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd names for %zu", what, n, want);
    } else if ((names = PyMem_Calloc((size_t)n + 1, sizeof *names))) {
        for (Py_ssize_t k = 0; k < n && names; k++) {
            PyObject *item = PySequence_Fast_GET_ITEM(fast, k);
            if (none_ok && item == Py_None) continue; /* NULL: a missing cell */
            names[k] = PyUnicode_AsUTF8(item);
            if (!names[k]) PyMem_Free(names), names = NULL;
        }
    } else {
        PyErr_NoMemory();
    }
    Py_DECREF(fast); /* the items stay alive in seq (the caller holds it) */
    return names;
}

static const char **names_of(PyObject *seq, size_t want, const char *what)
{
    return names_or_none(seq, want, what, false);
}

typedef struct arrays {
    Py_buffer x, y, w;
    bool has_y, has_w;
    const char **features, **classes, **cells;
    pdt_column_kind *kinds;
    const char ***category_names; /* d, PyMem */
    size_t *n_category_names;
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
    for (size_t j = 0; a->category_names && j < a->in.d; j++) PyMem_Free(a->category_names[j]);
    PyMem_Free(a->category_names);
    PyMem_Free(a->n_category_names);
    PyMem_Free(a->kinds);
}

/* cats: None (every column numeric) or (columns, missing): columns holds d
 * entries, None for a numeric column, a list of names for a categorical
 * column given by codes (x holds code c of names[c]; NaN or -1 missing), or
 * "text" for one whose cells are the names; missing is a pdt_csv_missing. */
static bool columns_get(arrays *a, PyObject *cats)
{
    PyObject *columns;
    int missing;
    if (!PyArg_ParseTuple(cats, "Oi;categories: (columns, missing)", &columns, &missing)) return false;
    if (PySequence_Size(columns) != (Py_ssize_t)a->in.d)
        return PyErr_SetString(PyExc_ValueError, "categories: one entry per column"), false;
    size_t d = a->in.d ? a->in.d : 1;
    a->kinds = PyMem_Calloc(d, sizeof *a->kinds);
    a->category_names = PyMem_Calloc(d, sizeof *a->category_names);
    a->n_category_names = PyMem_Calloc(d, sizeof *a->n_category_names);
    if (!a->kinds || !a->category_names || !a->n_category_names) return PyErr_NoMemory(), false;
    a->in.kinds = a->kinds, a->in.missing = (pdt_csv_missing)missing;
    a->in.category_names = (const char *const *const *)a->category_names;
    a->in.n_category_names = a->n_category_names;
    for (size_t j = 0; j < a->in.d; j++) {
        PyObject *c = PySequence_GetItem(columns, (Py_ssize_t)j);
        if (!c) return false;
        bool ok = true;
        if (c != Py_None) a->kinds[j] = PDT_COLUMN_CATEGORICAL;
        if (c != Py_None && !PyUnicode_Check(c)) {
            Py_ssize_t k = PySequence_Size(c);
            ok = k >= 0 && (a->category_names[j] = names_of(c, (size_t)k, "category names"));
            a->n_category_names[j] = ok ? (size_t)k : 0;
        }
        Py_DECREF(c); /* the names stay alive in columns (the caller holds it) */
        if (!ok) return false;
    }
    return true;
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

/* x: n*d float64 bytes, or a list of n*d texts (exact decimals, fractions);
 * features: d names; y (uint32 codes) with classes, and w (float64), each
 * None when absent. */
static bool arrays_get(arrays *a, PyObject *x, Py_ssize_t n, Py_ssize_t d, PyObject *features,
                       PyObject *y, PyObject *classes, PyObject *w, PyObject *cats)
{
    memset(a, 0, sizeof *a);
    if (n < 0 || d < 0) return PyErr_SetString(PyExc_ValueError, "negative shape"), false;
    a->in = (pdt_array_data){.n = (size_t)n, .d = (size_t)d, .name = "the data"};
    if (PyList_Check(x)) { /* n*d exact numbers as text */
        if (!(a->cells = names_or_none(x, a->in.n * a->in.d, "cells", true))) return false;
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
    return cats == Py_None || columns_get(a, cats);
}

/* The dataset, or NULL with an exception. */
pdt_dataset *dataset_of(PyObject *x, Py_ssize_t n, Py_ssize_t d, PyObject *features, PyObject *y,
                        PyObject *classes, PyObject *w, PyObject *cats)
{
    arrays a;
    pdt_dataset *ds = NULL;
    if (arrays_get(&a, x, n, d, features, y, classes, w, cats)) {
        pdt_error err;
        pdt_error_clear(&err);
        pdt_status st = pdt_dataset_from_arrays(&ds, &a.in, &err);
        if (st) raise_pdt(&err, st);
    }
    arrays_release(&a);
    return ds;
}

/* ------------------------------------------------------------ numbers */

PyObject *mpq_to_str(mpq_srcptr q)
{
    char *text = mpq_get_str(NULL, 10, q);
    if (!text) return PyErr_NoMemory();
    PyObject *s = PyUnicode_FromString(text);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    gmp_free(text, strlen(text) + 1);
    return s;
}

PyObject *mpz_to_int(mpz_srcptr z)
{
    char *text = mpz_get_str(NULL, 16, z);
    if (!text) return PyErr_NoMemory();
    PyObject *i = PyLong_FromString(text, NULL, 16);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    gmp_free(text, strlen(text) + 1);
    return i;
}
