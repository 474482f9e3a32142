/* The binding's shared parts: errors, arrays to datasets, interruptible
 * jobs, the Model type, and the functions of the module's files. */
#ifndef PDT_PY_BINDING_H
#define PDT_PY_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include "pdt.h"

/* Raises libpdt's error as ValueError (bad input, a limit), MemoryError,
 * OSError (files) or RuntimeError; returns NULL. */
PyObject *raise_pdt(const pdt_error *err, pdt_status st);
/* A dataset from x (n*d float64 bytes, or a list of n*d exact texts, None
 * for a missing cell), d feature names, y (uint32 codes) with class names, w
 * (float64 weights) and cats (categorical columns and the missing-value
 * policy: see columns_get); y, w and cats may be None.  NULL with an
 * exception. */
pdt_dataset *dataset_of(PyObject *x, Py_ssize_t n, Py_ssize_t d, PyObject *features, PyObject *y,
                        PyObject *classes, PyObject *w, PyObject *cats);
PyObject *mpq_to_str(mpq_srcptr q);  /* "p/q" or "p" */
PyObject *mpz_to_int(mpz_srcptr z);  /* a Python int */

/* A long search on a worker thread (binding_job.c). */
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

/* Progress callback for libpdt (user: the job). */
void job_progress(void *user, const pdt_progress *p);
/* Runs j->run on a worker thread; 0 when it finished (j->st says how), -1
 * with a Python exception (KeyboardInterrupt, the callback's) after
 * stopping it.  callback: None or a callable given each progress report. */
int job_run(job *j, PyObject *callback);

extern PyTypeObject ModelType;
PyObject *model_wrap(pdt_model *m); /* takes m (freed on failure) */

PyObject *py_count(PyObject *self, PyObject *args, PyObject *kw);
PyObject *py_chain(PyObject *self, PyObject *args);
PyObject *py_bsp(PyObject *self, PyObject *args);
PyObject *py_kdtree(PyObject *self, PyObject *args);

#endif
