/* Whole files into memory, for the loaders. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_impl.h"

static pdt_status read_stream(char **text, size_t *len, FILE *f, const char *path, pdt_error *err)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) return pdt_error_set(err, PDT_ENOMEM, "%s: out of memory reading the file", path);
        n += fread(buf + n, 1, cap - n - 1, f);
        if (ferror(f)) {
            int e = errno;
            free(buf);
            return pdt_error_set(err, PDT_EIO, "%s: cannot read the file (%s)", path, strerror(e));
        }
        if (feof(f)) break;
        if (n + 1 < cap) continue;
        char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!bigger) free(buf);
        buf = bigger;
        cap *= 2;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return PDT_OK;
}

pdt_status pdt_file_read(char **text, size_t *len, const char *path, pdt_error *err)
{
    *text = NULL;
    *len = 0;
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return pdt_error_set(err, PDT_EIO, "%s: cannot open the file (%s)", path, strerror(errno));
    pdt_status st = read_stream(text, len, f, path, err);
    fclose(f);
    return st;
}
