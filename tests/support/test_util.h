/* Shared helpers for the cmocka tests. */
#ifndef PDT_TEST_UTIL_H
#define PDT_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the three above first */
#include <cmocka.h>

#include "pdt.h"

/* Output of a child process run to completion. */
typedef struct tu_run {
    int status;     /* exit status, or 128 + signal number when killed */
    char *out;      /* captured stdout (NUL terminated) */
    char *err;      /* captured stderr */
} tu_run;

/* Runs the `pdt` binary (env PDT_BIN) with the NULL-terminated arguments. */
void tu_run_pdt(tu_run *r, const char *arg0, ...);
/* Runs argv[0] with argv (NULL terminated). */
void tu_run_argv(tu_run *r, char *const argv[]);
void tu_run_free(tu_run *r);

/* Path under tests/data (env PDT_DATA_DIR); static buffer, valid until the next call. */
const char *tu_data(const char *relative);
/* Path under the source tree (env PDT_SOURCE_DIR). */
const char *tu_source(const char *relative);
/* A fresh empty temporary directory (removed at exit). */
const char *tu_tmpdir(void);
/* Writes text to a new file in the temporary directory; returns its path (malloc'd). */
char *tu_write_file(const char *name, const char *text);
/* True when the file exists. */
int tu_exists(const char *path);
/* Size of a file in bytes, -1 if absent. */
long tu_file_size(const char *path);
/* Reads a whole file (malloc'd, NUL terminated) or NULL. */
char *tu_read_file(const char *path);

/* Deterministic PRNG (splitmix64) for generated instances. */
typedef struct tu_rng { uint64_t s; } tu_rng;
uint64_t tu_rand(tu_rng *r);
uint32_t tu_below(tu_rng *r, uint32_t n); /* uniform in [0, n) */
/* A random-instance count scaled by PDT_TEST_SCALE (a fraction, default 1;
 * at least 1): scripts/check runs the sanitizer builds, 2-5 times slower,
 * on a share of the instances the release build checks in full. */
uint64_t tu_scaled(uint64_t count);

/* An optimal fit (the test fails on an error or an unproven answer): rules,
 * depth limit (PDT_UNLIMITED: none), --sparse (NULL: none), engine. */
pdt_model *tu_fit(const pdt_dataset *ds, const char *rules, uint32_t depth, const char *sparse, pdt_engine engine);
/* tu_fit with `threads` (0: the default, which CTest's OMP_NUM_THREADS=1 makes one). */
pdt_model *tu_fit_threads(const pdt_dataset *ds, const char *rules, uint32_t depth, const char *sparse,
                          pdt_engine engine, uint32_t threads);
/* Rows of ds the model predicts wrong, by class name (its own training rows:
 * the errors it must report). */
size_t tu_training_errors(const pdt_model *m, const pdt_dataset *ds);

/* C(n, k) for small arguments (exact while the result fits in 64 bits). */
uint64_t tu_binom(uint64_t n, uint64_t k);
/* qsort comparator for uint64_t. */
int tu_cmp_u64(const void *a, const void *b);

#endif
