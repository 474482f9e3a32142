/* Files that appear whole or not at all: write a temporary file in the
 * target's directory, then rename it over the target. */
#ifndef PDT_ATOMIC_FILE_H
#define PDT_ATOMIC_FILE_H

#include "pdt.h"

typedef struct pdt_atomic_file {
    char *target;   /* the final path */
    char *tmp_path; /* the temporary file next to it */
    FILE *f;        /* open for writing ("wb") */
} pdt_atomic_file;

/* Creates and opens the temporary file (mode 0666 less the umask). */
pdt_status pdt_atomic_file_open(pdt_atomic_file *af, const char *path, pdt_error *err);
/* Closes the stream (if still open) and renames the temporary file over the
 * target; on failure the temporary file is removed. */
pdt_status pdt_atomic_file_commit(pdt_atomic_file *af, pdt_error *err);
/* Closes and removes the temporary file. Safe after commit and on a zeroed struct. */
void pdt_atomic_file_abort(pdt_atomic_file *af);

#endif
