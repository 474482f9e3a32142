/* Temporary file + rename, so a failed write never leaves a partial file. */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_uint tmp_counter;

/* The live temporary files: a handler reads the slots, the writer fills a free
 * slot before creating the file and empties it after the rename or unlink. */
#define LIVE_SLOTS 64
static _Atomic(char *) live[LIVE_SLOTS];

static int live_add(char *path)
{
    for (int i = 0; i < LIVE_SLOTS; i++) {
        char *expected = NULL;
        if (atomic_compare_exchange_strong(&live[i], &expected, path)) return i + 1;
    }
    return 0;
}

static void live_remove(int slot)
{
    if (slot > 0) atomic_store(&live[slot - 1], NULL);
}

void pdt_atomic_file_unlink_all(void)
{
    for (int i = 0; i < LIVE_SLOTS; i++) {
        char *path = atomic_exchange(&live[i], NULL);
        if (path) unlink(path);
    }
}

static void release(pdt_atomic_file *af)
{
    live_remove(af->slot);
    af->slot = 0;
    free(af->target);
    free(af->tmp_path);
    af->target = af->tmp_path = NULL;
    af->f = NULL;
}

/* O_EXCL on a fresh name: unlike mkstemp the umask decides the mode. */
static int create_tmp(pdt_atomic_file *af, size_t size, const char *path, const char *suffix)
{
    char *buf = af->tmp_path;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned n = atomic_fetch_add(&tmp_counter, 1u);
        snprintf(buf, size, "%s.tmp-%ld-%lx-%u%s", path, (long)getpid(), (unsigned long)ts.tv_nsec,
                 n, suffix);
        /* listed before it exists: a signal in between unlinks a missing name */
        af->slot = live_add(buf);
        int fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        int e = errno;
        live_remove(af->slot);
        af->slot = 0;
        errno = e;
        if (e != EEXIST) return -1;
    }
    return -1;
}

pdt_status pdt_atomic_file_open(pdt_atomic_file *af, const char *path, pdt_error *err)
{
    return pdt_atomic_file_open_suffix(af, path, "", err);
}

pdt_status pdt_atomic_file_open_suffix(pdt_atomic_file *af, const char *path, const char *suffix,
                                       pdt_error *err)
{
    memset(af, 0, sizeof *af);
    size_t size = strlen(path) + strlen(suffix) + 64;
    af->target = strdup(path);
    af->tmp_path = malloc(size);
    if (!af->target || !af->tmp_path) {
        release(af);
        return pdt_error_set(err, PDT_ENOMEM, "out of memory opening %s", path);
    }
    int fd = create_tmp(af, size, path, suffix);
    if (fd < 0) {
        int e = errno;
        release(af);
        return pdt_error_set(err, PDT_EIO, "cannot create %s: %s", path, strerror(e));
    }
    af->f = fdopen(fd, "wb");
    if (!af->f) {
        int e = errno;
        close(fd);
        unlink(af->tmp_path);
        release(af);
        return pdt_error_set(err, PDT_EIO, "cannot create %s: %s", path, strerror(e));
    }
    return PDT_OK;
}

pdt_status pdt_atomic_file_commit(pdt_atomic_file *af, pdt_error *err)
{
    int failed = 0, e = 0;
    if (af->f) {
        failed = ferror(af->f) || fflush(af->f) != 0;
        if (failed) e = errno;
        if (fclose(af->f) != 0 && !failed) {
            failed = 1;
            e = errno;
        }
        af->f = NULL;
    }
    if (!failed && rename(af->tmp_path, af->target) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed) {
        pdt_error_set(err, PDT_EIO, "cannot write %s: %s", af->target,
                      e ? strerror(e) : "write error");
        pdt_atomic_file_abort(af);
        return PDT_EIO;
    }
    release(af);
    return PDT_OK;
}

void pdt_atomic_file_abort(pdt_atomic_file *af)
{
    if (af->f) fclose(af->f);
    if (af->tmp_path) unlink(af->tmp_path);
    release(af);
}
