/* The output-path policy every command shares (outputs.h). */
#include "outputs.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <libgen.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static bool refuse(const cli_outputs *set, const char *option, const char *path, const char *why)
{
    fprintf(stderr, "pdt %s: option --%s: %s: %s\n", set->cmd, option, path, why);
    return false;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* A picture's format from its name; NULL when neither .png nor .svg. */
static const char *picture_format(const char *path)
{
    return has_suffix(path, ".png") ? "png" : has_suffix(path, ".svg") ? "svg" : NULL;
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
           : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* "DIR/BASE" with DIR resolved (symbolic links, "..") into buf: two spellings
 * of one new file compare equal.  False when the directory does not exist. */
static bool canonical(char *buf, size_t size, const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX], real[PATH_MAX];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (!realpath(dir, real)) return false;
    snprintf(buf, size, "%s/%s", real, slash ? slash + 1 : path);
    return true;
}

static bool check_directory(const cli_outputs *set, const char *option, const char *path)
{
    char canon[2 * PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!canonical(canon, sizeof canon, path))
        return refuse(set, option, path, "its directory does not exist");
    if (slash && !slash[1]) return refuse(set, option, path, "names a directory, not a file");
    *strrchr(canon, '/') = '\0';
    const char *dir = canon[0] ? canon : "/";
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "pdt %s: option --%s: %s: cannot create files in directory %s (%s)\n", set->cmd, option,
                path, dir, strerror(errno));
        return false;
    }
    return true;
}

/* What sits at path now: nothing, or a regular file we may replace. */
static bool check_target(const cli_outputs *set, const char *option, const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return check_directory(set, option, path);
        return refuse(set, option, path, strerror(errno));
    }
    if (S_ISLNK(st.st_mode))
        return refuse(set, option, path, "is a symbolic link; pdt would replace the link, so name its target");
    if (!S_ISREG(st.st_mode)) {
        char why[96];
        snprintf(why, sizeof why, "is %s; outputs are regular files (or - for standard output)", kind_of(st.st_mode));
        return refuse(set, option, path, why);
    }
    if (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) || access(path, W_OK) != 0)
        return refuse(set, option, path, "is write-protected; pdt leaves it alone");
    return check_directory(set, option, path);
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool check_inputs(const cli_outputs *set, cli_option *opts, const cli_output *o,
                         const char *const *input_options)
{
    for (size_t i = 0; input_options && input_options[i]; i++) {
        const char *in = cli_get(opts, input_options[i]);
        if (!in || !same_file(in, o->path)) continue;
        char why[256];
        snprintf(why, sizeof why, "is the input file given with --%s; refusing to overwrite it", input_options[i]);
        return refuse(set, o->option, o->path, why);
    }
    return true;
}

static bool check_others(const cli_outputs *set, const cli_output *o)
{
    char a[2 * PATH_MAX], b[2 * PATH_MAX];
    for (size_t j = 0; j < set->n; j++) {
        const cli_output *p = &set->o[j];
        if (strcmp(p->path, "-") == 0 || strcmp(o->path, "-") == 0) {
            if (strcmp(p->path, o->path) != 0) continue;
            return refuse(set, o->option, o->path, "standard output is already taken by another option");
        }
        bool clash = same_file(p->path, o->path) ||
                     (canonical(a, sizeof a, p->path) && canonical(b, sizeof b, o->path) && strcmp(a, b) == 0);
        if (!clash) continue;
        char why[128];
        snprintf(why, sizeof why, "is also the file of option --%s", p->option);
        return refuse(set, o->option, o->path, why);
    }
    return true;
}

static bool resolve_format(const cli_outputs *set, cli_output *o, const char *format)
{
    o->format = format;
    bool to_stdout = strcmp(o->path, "-") == 0;
    if (strcmp(format, "picture") == 0) {
        o->format = to_stdout ? NULL : picture_format(o->path);
        if (!o->format)
            return refuse(set, o->option, o->path, to_stdout ? "a picture needs a file name ending in .png or .svg"
                                                             : "pictures are written as .png or .svg");
    }
    if (to_stdout && strcmp(o->format, "png") == 0)
        return refuse(set, o->option, o->path, "PNG is binary and is not written to standard output; name a file");
    if (!o->path[0]) return refuse(set, o->option, o->path, "an empty file name");
    return true;
}

/* While "-" is an output the report goes to standard error. */
static bool divert_stdout(cli_outputs *set)
{
    fflush(stdout);
    set->stdout_fd = dup(STDOUT_FILENO);
    if (set->stdout_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        fprintf(stderr, "pdt %s: cannot set up standard output: %s\n", set->cmd, strerror(errno));
        return false;
    }
    return true;
}

static void restore_stdout(cli_outputs *set)
{
    if (set->stdout_fd < 0) return;
    fflush(stdout);
    dup2(set->stdout_fd, STDOUT_FILENO);
    close(set->stdout_fd);
    set->stdout_fd = -1;
}

bool cli_outputs_plan(cli_outputs *set, cli_option *opts, const cli_output_spec *specs,
                      const char *const *input_options, const char *cmd)
{
    memset(set, 0, sizeof *set);
    set->cmd = cmd;
    set->stdout_fd = -1;
    bool to_stdout = false;
    for (size_t i = 0; specs[i].option && set->n < CLI_MAX_OUTPUTS; i++) {
        const char *path = cli_get(opts, specs[i].option);
        if (!path) continue;
        cli_output *o = &set->o[set->n];
        o->option = specs[i].option;
        o->path = path;
        bool dash = strcmp(path, "-") == 0;
        if (!resolve_format(set, o, specs[i].format) || !check_others(set, o)) return false;
        if (!dash && (!check_target(set, o->option, path) || !check_inputs(set, opts, o, input_options)))
            return false;
        to_stdout |= dash;
        set->n++;
    }
    return !to_stdout || divert_stdout(set);
}

static cli_output *find(cli_outputs *set, const char *option)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->o[i].option, option) == 0) return &set->o[i];
    return NULL;
}

bool cli_outputs_wants(const cli_outputs *set, const char *option)
{
    return find((cli_outputs *)set, option) != NULL;
}

const char *cli_outputs_format(const cli_outputs *set, const char *option)
{
    const cli_output *o = find((cli_outputs *)set, option);
    return o ? o->format : NULL;
}

/* Standard output is staged in the temporary directory. */
static const char *stage_target(const cli_output *o, char *buf, size_t size)
{
    if (strcmp(o->path, "-") != 0) return o->path;
    const char *dir = getenv("TMPDIR");
    snprintf(buf, size, "%s/pdt-stdout", dir && *dir ? dir : "/tmp");
    return buf;
}

bool cli_outputs_stage(const char **path, cli_outputs *set, const char *option)
{
    *path = NULL;
    cli_output *o = find(set, option);
    if (!o) return true;
    if (!o->af.tmp_path) {
        char buf[PATH_MAX], suffix[8];
        snprintf(suffix, sizeof suffix, ".%s", o->format);
        pdt_error err;
        pdt_error_clear(&err);
        if (pdt_atomic_file_open_suffix(&o->af, stage_target(o, buf, sizeof buf), suffix, &err)) {
            cli_outputs_fail(set, option, err.message);
            return false;
        }
        fclose(o->af.f); /* the writer opens the file by its name */
        o->af.f = NULL;
    }
    *path = o->af.tmp_path;
    return true;
}

FILE *cli_outputs_open(const char *path) { return fopen(path, "r+b"); }

void cli_outputs_fail(cli_outputs *set, const char *option, const char *message)
{
    fprintf(stderr, "pdt %s: option --%s: %s\n", set->cmd, option, message);
    cli_outputs_abort(set);
}

void cli_outputs_abort(cli_outputs *set)
{
    for (size_t i = 0; i < set->n; i++) pdt_atomic_file_abort(&set->o[i].af);
    restore_stdout(set);
}

static bool copy_to_fd(int fd, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char buf[65536];
    size_t n;
    bool ok = true;
    while (ok && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t done = 0; ok && done < n;) {
            ssize_t w = write(fd, buf + done, n - done);
            if (w < 0 && errno == EINTR) continue;
            ok = w > 0;
            if (ok) done += (size_t)w;
        }
    }
    ok = ok && !ferror(f);
    fclose(f);
    return ok;
}

static bool commit_one(cli_outputs *set, cli_output *o)
{
    pdt_error err;
    pdt_error_clear(&err);
    if (strcmp(o->path, "-") != 0) {
        if (!pdt_atomic_file_commit(&o->af, &err)) return true;
        fprintf(stderr, "pdt %s: option --%s: %s\n", set->cmd, o->option, err.message);
        return false;
    }
    bool ok = copy_to_fd(set->stdout_fd, o->af.tmp_path);
    if (!ok) fprintf(stderr, "pdt %s: option --%s: cannot write standard output: %s\n", set->cmd, o->option,
                     strerror(errno));
    pdt_atomic_file_abort(&o->af);
    return ok;
}

/* ------------------------------------------------------------ committing a set */

/* The outputs' directories, locked (flock, in device/inode order, so two runs
 * cannot deadlock) while a set is renamed into place: two runs writing the
 * same outputs leave one run's whole set, never a mix of the two. */
typedef struct dir_lock {
    dev_t dev;
    ino_t ino;
    int fd;
} dir_lock;

static int dir_lock_cmp(const void *a, const void *b)
{
    const dir_lock *x = a, *y = b;
    if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
    return (x->ino > y->ino) - (x->ino < y->ino);
}

static size_t lock_dirs(dir_lock *locks, const cli_outputs *set)
{
    size_t n = 0;
    for (size_t i = 0; i < set->n; i++) {
        if (strcmp(set->o[i].path, "-") == 0) continue;
        char copy[PATH_MAX];
        snprintf(copy, sizeof copy, "%s", set->o[i].path);
        int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) { /* unlockable: the renames still work or fail alone */
            if (fd >= 0) close(fd);
            continue;
        }
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++) seen = locks[k].dev == st.st_dev && locks[k].ino == st.st_ino;
        if (seen) {
            close(fd);
            continue;
        }
        locks[n++] = (dir_lock){st.st_dev, st.st_ino, fd};
    }
    qsort(locks, n, sizeof *locks, dir_lock_cmp);
    for (size_t k = 0; k < n; k++)
        while (flock(locks[k].fd, LOCK_EX) != 0 && errno == EINTR) {}
    return n;
}

static void unlock_dirs(dir_lock *locks, size_t n)
{
    for (size_t k = 0; k < n; k++) close(locks[k].fd); /* closing releases the lock */
}

/* Test hooks (tests/test_cli_paths.c): PDT_TEST_COMMIT_DELAY_MS sleeps before
 * the last rename of a set (widening the window another run could use);
 * PDT_TEST_COMMIT_FAIL=K makes the K-th rename of the set fail. */
static long test_hook(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : 0;
}

/* The target as it was: a hard link "TARGET.bak-PID" until the set is in
 * place, so that a rename failing part-way can put the earlier ones back. */
typedef struct backup {
    char path[PATH_MAX + 32];
    bool kept;    /* the target existed and its link was made */
    bool renamed; /* the new file is in place */
} backup;

static void keep_backup(backup *b, const cli_output *o)
{
    b->kept = b->renamed = false;
    if (strcmp(o->path, "-") == 0) return;
    snprintf(b->path, sizeof b->path, "%s.bak-%ld", o->path, (long)getpid());
    b->kept = link(o->path, b->path) == 0;
}

/* After a failure: every renamed target back as it was (or gone, if it was new). */
static void roll_back(backup *b, cli_outputs *set)
{
    for (size_t i = 0; i < set->n; i++) {
        if (b[i].renamed) {
            if (b[i].kept)
                rename(b[i].path, set->o[i].path);
            else
                unlink(set->o[i].path);
        } else if (b[i].kept) {
            unlink(b[i].path);
        }
    }
}

bool cli_outputs_discard;

bool cli_outputs_commit(cli_outputs *set)
{
    if (cli_outputs_discard) { /* pdt-mpi, ranks other than 0 */
        cli_outputs_abort(set);
        return true;
    }
    for (size_t i = 0; i < set->n; i++) {
        cli_output *o = &set->o[i];
        if (!o->af.tmp_path) {
            cli_outputs_fail(set, o->option, "internal error: the output was never written");
            return false;
        }
        /* the search may have been long: a target replaced meanwhile is refused now */
        if (strcmp(o->path, "-") != 0 && !check_target(set, o->option, o->path)) {
            cli_outputs_abort(set);
            return false;
        }
    }
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    dir_lock locks[CLI_MAX_OUTPUTS];
    backup backups[CLI_MAX_OUTPUTS];
    /* A single output needs neither lock nor backup: its rename alone is
     * atomic, and nothing after it can fail and call for a roll-back. */
    bool several = set->n > 1;
    size_t n_locks = several ? lock_dirs(locks, set) : 0;
    for (size_t i = 0; i < set->n; i++) {
        backups[i].kept = backups[i].renamed = false;
        if (several) keep_backup(&backups[i], &set->o[i]);
    }
    long delay_ms = test_hook("PDT_TEST_COMMIT_DELAY_MS"), fail_at = test_hook("PDT_TEST_COMMIT_FAIL");
    bool ok = true;
    for (size_t i = 0; i < set->n && ok; i++) {
        if (delay_ms > 0 && i + 1 == set->n)
            nanosleep(&(struct timespec){delay_ms / 1000, (delay_ms % 1000) * 1000000L}, NULL);
        if (fail_at > 0 && (size_t)fail_at == i + 1) {
            fprintf(stderr, "pdt %s: option --%s: cannot write %s: failure injected (PDT_TEST_COMMIT_FAIL)\n",
                    set->cmd, set->o[i].option, set->o[i].path);
            ok = false;
            break;
        }
        ok = commit_one(set, &set->o[i]);
        backups[i].renamed = ok && strcmp(set->o[i].path, "-") != 0;
    }
    if (ok) {
        for (size_t i = 0; i < set->n; i++)
            if (backups[i].kept) unlink(backups[i].path);
    } else {
        roll_back(backups, set);
    }
    unlock_dirs(locks, n_locks);
    cli_outputs_abort(set); /* what a failure left staged */
    sigprocmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* What each signal did before: a crash handler (ASan's) still runs after ours. */
static const int handled[] = {SIGINT, SIGTERM, SIGHUP, SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT};
static struct sigaction previous[sizeof handled / sizeof *handled];

static volatile sig_atomic_t *stop_flag;

void cli_signals_arm_stop(volatile sig_atomic_t *flag) { stop_flag = flag; }

static void on_signal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    volatile sig_atomic_t *flag = stop_flag;
    if (sig == SIGINT && flag && !*flag) {
        static const char msg[] = "\npdt: interrupted: finishing with the best tree found so far "
                                  "(interrupt again to abort)\n";
        *flag = 1;
        ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)ignored;
        return;
    }
    pdt_atomic_file_unlink_all();
    for (size_t i = 0; i < sizeof handled / sizeof *handled; i++)
        if (handled[i] == sig) sigaction(sig, &previous[i], NULL);
    /* A fault returns to the faulting instruction, which meets the old
     * handler; a signal sent by kill() or raise() is sent again. */
    if (info->si_code <= 0 || sig == SIGINT || sig == SIGTERM || sig == SIGHUP) raise(sig);
}

void cli_signals_install(void)
{
    for (size_t i = 0; i < sizeof handled / sizeof *handled; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_signal;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(handled[i], &sa, &previous[i]);
    }
}
