/* Fuzzing pdt's input loaders (docs/fuzzing.md).
 *
 * Every tests/fuzz/fuzz_<target>.c defines pdt_fuzz_<target>(data, size):
 * one untrusted input through a loader and, when it loads and is small, some
 * cheap work on the result; built with PDT_FUZZER it also defines libFuzzer's
 * LLVMFuzzerTestOneInput.  test_fuzz_replay links the same bodies and runs
 * every file of tests/fuzz/corpus/<target>/ and tests/fuzz/crashes/<target>/
 * through them, so found bugs stay fixed where clang is absent.
 *
 * A body never fails quietly: a broken contract (a crash, a leak, a wrong
 * status, a message that does not name the input) aborts via PDT_FUZZ_CHECK,
 * which libFuzzer reports as a crash and the replay test as a failure. */
#ifndef PDT_FUZZ_HARNESS_H
#define PDT_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pdt.h"

/* The bodies; each ignores inputs longer than its cap (scripts/fuzz passes the
 * same cap as -max_len), so no input makes the body itself slow. */
int pdt_fuzz_csv(const uint8_t *data, size_t size);
int pdt_fuzz_dl85(const uint8_t *data, size_t size);
int pdt_fuzz_model_json(const uint8_t *data, size_t size);
int pdt_fuzz_bsp(const uint8_t *data, size_t size);
int pdt_fuzz_kdtree(const uint8_t *data, size_t size);
int pdt_fuzz_chain(const uint8_t *data, size_t size);
int pdt_fuzz_rational(const uint8_t *data, size_t size);

#define PDT_FUZZ_MAX_CSV 4096
#define PDT_FUZZ_MAX_DL85 4096
#define PDT_FUZZ_MAX_MODEL_JSON 8192
#define PDT_FUZZ_MAX_BSP 2048
#define PDT_FUZZ_MAX_KDTREE 2048
#define PDT_FUZZ_MAX_CHAIN 1024
#define PDT_FUZZ_MAX_RATIONAL 512

#ifdef PDT_FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif

/* Prints "fuzz: FILE:LINE: message" and aborts. */
void pdt_fuzz_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
#define PDT_FUZZ_CHECK(cond, ...)                                                                  \
    do {                                                                                           \
        if (!(cond)) pdt_fuzz_fail(__FILE__, __LINE__, __VA_ARGS__);                               \
    } while (0)

/* The contract of a loader that rejected text[0..len): status EINVAL or
 * ELIMIT, the same status in err, a message starting with `name` and, when
 * the message goes on ":LINE[:COL]:", a line that exists in the text and a
 * column from 1. */
void pdt_fuzz_check_rejected(pdt_status st, const pdt_error *err, const char *name, const char *text,
                             size_t len);
/* The status of work on a loaded, valid input: it must succeed. */
void pdt_fuzz_check_ok(pdt_status st, const pdt_error *err, const char *what);

/* Every accessor of a loaded dataset, with its invariants (ranks below the
 * distinct counts, names found again, labels in range). */
void pdt_fuzz_dataset_accessors(const pdt_dataset *ds);
/* A fit of at most `size` branch nodes and `depth` levels with `rules` (and
 * the --class-weights value, may be NULL, which may be rejected as an option),
 * then prediction on the training rows (the leaves' misclassifications must
 * match) and the model's text.  ds has labels.  objective (may be NULL) gets
 * the optimum; false when the class weights were rejected. */
bool pdt_fuzz_fit(mpq_ptr objective, const pdt_dataset *ds, const char *rules, uint32_t size,
                  uint32_t depth, const char *class_weights);
/* docs/binary.md: the binary and axis families reach the same optimum on
 * numeric data.  Fits both with at most `depth` levels; ds has labels and no
 * weights. */
void pdt_fuzz_same_optimum(const pdt_dataset *ds, uint32_t depth);

/* A stream that discards what is written (opened once). */
FILE *pdt_fuzz_null(void);
/* A per-process temporary directory, removed at exit. */
const char *pdt_fuzz_tmpdir(void);
/* tmpdir/name (malloc'd). */
char *pdt_fuzz_path(const char *name);
/* Writes data to path, replacing it (removed first, which keeps ext4 from flushing it). */
void pdt_fuzz_write_file(const char *path, const uint8_t *data, size_t size);

#endif
