/* Finding and opening the drawing module (pdt_draw_module.h) on first need.
 * Where it is looked for, in order:
 *   1. $PDT_DRAW_MODULE, when set and not empty (and then nowhere else);
 *   2. next to the running program (the directory of /proc/self/exe), which
 *      is where the build puts it;
 *   3. where `cmake --install` puts it (PDT_DRAW_MODULE_INSTALLED).
 * The outcome, success or the error, is decided once per process. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
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

/* ------------------------------------------------------------ isolation */

static void write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w, len -= (size_t)w;
    }
}

/* The child: default signal actions (the parent's handlers would remove the
 * parent's temporary files), draw, report. */
static void child_draw(pdt_status (*draw)(void *, FILE *, pdt_error *), void *arg, FILE *f, int fd)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP, SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) signal(sigs[k], SIG_DFL);
    pdt_error e;
    pdt_error_clear(&e);
    pdt_status st = draw(arg, f, &e);
    if (st == PDT_OK && fflush(f) != 0) st = pdt_error_set(&e, PDT_EIO, "write error: %s", strerror(errno));
    if (st != PDT_OK) {
        write_all(fd, &st, sizeof st);
        write_all(fd, e.message, strlen(e.message));
    }
    _exit(st == PDT_OK ? 0 : 1);
}

pdt_status pdt_draw_isolated(pdt_status (*draw)(void *arg, FILE *f, pdt_error *err), void *arg, FILE *f,
                             const char *path, pdt_error *err)
{
    int fds[2];
    if (fflush(f) != 0 || pipe(fds) != 0) return draw(arg, f, err);
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return draw(arg, f, err); /* no process to spare: drawn here */
    }
    if (pid == 0) {
        close(fds[0]);
        child_draw(draw, arg, f, fds[1]);
    }
    close(fds[1]);
    char msg[sizeof(pdt_status) + sizeof err->message];
    size_t got = 0;
    for (ssize_t r; got < sizeof msg && (r = read(fds[0], msg + got, sizeof msg - got)) != 0;)
        if (r > 0) got += (size_t)r;
        else if (errno != EINTR) break;
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return pdt_error_set(err, PDT_EINTERNAL, "waiting for the drawing of %s: %s", path, strerror(errno));
    if (WIFSIGNALED(status))
        return pdt_error_set(err, PDT_ELIMIT, "the drawing library died (signal %d, %s): a picture this large "
                             "may need more memory than allowed (a PNG is rasterised whole; --svg or --dot draw "
                             "the same without that)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return PDT_OK;
    pdt_status st = PDT_EINTERNAL;
    if (got >= sizeof st) memcpy(&st, msg, sizeof st);
    int len = got > sizeof st ? (int)(got - sizeof st) : 0;
    return pdt_error_set(err, st != PDT_OK ? st : PDT_EINTERNAL, "%.*s", len, len ? msg + sizeof st : "the drawing failed");
}
