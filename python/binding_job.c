/* Interruptible jobs: a libpdt search on a worker thread while the calling
 * thread (holding the GIL only briefly) runs Python's signal handlers and the
 * progress callback every 20 ms, and sets the search's stop flag on an
 * exception. */
#include "binding.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

void job_progress(void *user, const pdt_progress *p)
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
int job_run(job *j, PyObject *callback)
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
