/* Finding and opening the drawing module (pdt_draw_module.h) on first need.
 * Where it is looked for, in order:
 *   1. $PDT_DRAW_MODULE, when set and not empty (and then nowhere else);
 *   2. next to the running program (the directory of /proc/self/exe), which
 *      is where the build puts it;
 *   3. where `cmake --install` puts it (PDT_DRAW_MODULE_INSTALLED).
 * The outcome, success or the error, is decided once per process. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdt_draw_module.h"

#ifndef PDT_DRAW_MODULE_INSTALLED
#define PDT_DRAW_MODULE_INSTALLED ""
#endif

static const pdt_draw_module *loaded;
static pdt_error load_error;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static pdt_status check_table(const pdt_draw_module *m, const char *path, pdt_error *err)
{
    if (m->version == PDT_DRAW_MODULE_V1 && m->abi == PDT_DRAW_ABI && m->pdt_version &&
        strcmp(m->pdt_version, PDT_VERSION_STRING) == 0 && m->render_tree && m->render_picture)
        return PDT_OK;
    return pdt_error_set(err, PDT_EPLUGIN,
                         "the drawing module %s belongs to another build of pdt (pdt %.40s, table %u, "
                         "abi %u; this is pdt %s, table %u, abi %u)", path,
                         m->pdt_version ? m->pdt_version : "?", m->version, m->abi, PDT_VERSION_STRING,
                         PDT_DRAW_MODULE_V1, PDT_DRAW_ABI);
}

/* The handle is never closed: Graphviz keeps its context for the process. */
static pdt_status open_module(const char *path, const char *where, pdt_error *err)
{
    dlerror();
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        return pdt_error_set(err, PDT_EIO, "cannot load the drawing module %s (%s): %s", path, where,
                             dlerror());
    const pdt_draw_module *m = dlsym(handle, PDT_DRAW_MODULE_SYMBOL);
    pdt_status st = m ? check_table(m, path, err)
                      : pdt_error_set(err, PDT_EPLUGIN, "%s (%s) is not a pdt drawing module: no symbol %s",
                                      path, where, PDT_DRAW_MODULE_SYMBOL);
    if (st != PDT_OK) {
        dlclose(handle);
        return st;
    }
    loaded = m;
    return PDT_OK;
}

/* dirname(/proc/self/exe)/libpdt_draw.so, or "" when the link cannot be read. */
static void beside_program(char *out, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? memchr(exe, '/', (size_t)n) : NULL;
    out[0] = '\0';
    if (!slash) return;
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';
    snprintf(out, size, "%s/%s", exe, PDT_DRAW_MODULE_FILE);
}

static void load(void)
{
    pdt_error *err = &load_error;
    const char *env = getenv("PDT_DRAW_MODULE");
    if (env && env[0]) {
        open_module(env, "from PDT_DRAW_MODULE", err);
        return;
    }
    char here[PATH_MAX + sizeof PDT_DRAW_MODULE_FILE + 1];
    beside_program(here, sizeof here);
    if (here[0] && access(here, F_OK) == 0) {
        open_module(here, "next to the program", err);
        return;
    }
    const char *installed = PDT_DRAW_MODULE_INSTALLED;
    const char *hint = "drawing needs " PDT_DRAW_MODULE_FILE " (set PDT_DRAW_MODULE to its path)";
    if (!installed[0]) {
        pdt_error_set(err, PDT_EIO, "%s: it is not next to the program (%s) and this build has no "
                      "install path", hint, here[0] ? here : "unknown");
        return;
    }
    if (open_module(installed, "where pdt installs it", err) == PDT_OK) return;
    pdt_error_prefix(err, "%s: it is not next to the program (%s), and ", hint, here[0] ? here : "unknown");
}

pdt_status pdt_draw_module_get(const pdt_draw_module **out, pdt_error *err)
{
    pthread_once(&load_once, load);
    *out = loaded;
    if (loaded) return PDT_OK;
    if (err) *err = load_error;
    return load_error.status;
}

pdt_status pdt_draw_module_load(pdt_error *err)
{
    const pdt_draw_module *m;
    return pdt_draw_module_get(&m, err);
}
