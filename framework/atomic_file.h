/* Files that appear whole or not at all: write a temporary file in the
 * target's directory, then rename it over the target.  Every temporary file
 * open in the process is listed, so a signal handler can remove them all. */
#ifndef PDT_ATOMIC_FILE_H
#define PDT_ATOMIC_FILE_H

#include "pdt.h"

typedef struct pdt_atomic_file {
    char *target;   /* the final path */
    char *tmp_path; /* the temporary file next to it */
    FILE *f;        /* open for writing ("wb") */
    int slot;       /* 1 + its index in the list of live temporary files, 0: none */
} pdt_atomic_file;

/* Creates and opens the temporary file "PATH.tmp-…" (mode 0666 less the umask). */
pdt_status pdt_atomic_file_open(pdt_atomic_file *af, const char *path, pdt_error *err);
/* The same with the temporary name ending in suffix (".png"), for writers
 * that choose a format by the file name. */
pdt_status pdt_atomic_file_open_suffix(pdt_atomic_file *af, const char *path, const char *suffix,
                                       pdt_error *err);
/* Closes the stream (if still open) and renames the temporary file over the
 * target; on failure the temporary file is removed. */
pdt_status pdt_atomic_file_commit(pdt_atomic_file *af, pdt_error *err);
/* Closes and removes the temporary file. Safe after commit and on a zeroed struct. */
void pdt_atomic_file_abort(pdt_atomic_file *af);
/* Unlinks every temporary file not yet committed or aborted.  Async-signal-safe
 * (unlink only): meant for a SIGINT/SIGTERM handler that then ends the process. */
void pdt_atomic_file_unlink_all(void);

#endif
