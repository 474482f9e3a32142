/* Error objects: a status plus a formatted message naming what is at fault. */
#include <stdarg.h>
#include <string.h>

#include "pdt.h"

const char *pdt_status_name(pdt_status status)
{
    switch (status) {
    case PDT_OK: return "ok";
    case PDT_ENOMEM: return "out of memory";
    case PDT_EINVAL: return "invalid input";
    case PDT_EIO: return "input/output error";
    case PDT_ELIMIT: return "limit reached";
    case PDT_EPLUGIN: return "plugin error";
    case PDT_EINTERNAL: return "internal error";
    }
    return "unknown status";
}

void pdt_error_clear(pdt_error *err)
{
    if (!err) return;
    err->status = PDT_OK;
    err->message[0] = '\0';
}

pdt_status pdt_error_set(pdt_error *err, pdt_status status, const char *fmt, ...)
{
    if (!err) return status;
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return status;
}

pdt_status pdt_error_prefix(pdt_error *err, const char *fmt, ...)
{
    if (!err) return PDT_EINTERNAL;
    char prefix[512], old[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->message, sizeof old);
    size_t n = strlen(prefix);
    if (n >= sizeof err->message) n = sizeof err->message - 1;
    memcpy(err->message, prefix, n);
    size_t rest = strlen(old);
    if (rest > sizeof err->message - 1 - n) rest = sizeof err->message - 1 - n;
    memcpy(err->message + n, old, rest);
    err->message[n + rest] = '\0';
    return err->status;
}
