#define _GNU_SOURCE
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *slurp_fd(int fd)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 1 >= cap) buf = realloc(buf, cap *= 2);
        ssize_t n = read(fd, buf + len, cap - len - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        len += (size_t)n;
    }
    buf[len] = '\0';
    return buf;
}

void tu_run_argv(tu_run *r, char *const argv[])
{
    char outname[] = "/tmp/pdt_test_outXXXXXX", errname[] = "/tmp/pdt_test_errXXXXXX";
    int out = mkstemp(outname), err = mkstemp(errname);
    assert_true(out >= 0 && err >= 0);
    unlink(outname);
    unlink(errname);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(out, 1);
        dup2(err, 2);
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) dup2(nul, 0);
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    lseek(out, 0, SEEK_SET);
    lseek(err, 0, SEEK_SET);
    r->out = slurp_fd(out);
    r->err = slurp_fd(err);
    close(out);
    close(err);
}

void tu_run_pdt(tu_run *r, const char *arg0, ...)
{
    const char *bin = getenv("PDT_BIN");
    assert_non_null(bin);
    char *argv[64];
    size_t n = 0;
    argv[n++] = (char *)bin;
    va_list ap;
    va_start(ap, arg0);
    for (const char *a = arg0; a && n < 63; a = va_arg(ap, const char *)) argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    tu_run_argv(r, argv);
}

void tu_run_free(tu_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

static const char *join(const char *env, const char *fallback, const char *rel)
{
    static char buf[4096];
    const char *base = getenv(env);
    snprintf(buf, sizeof buf, "%s/%s", base ? base : fallback, rel);
    return buf;
}

const char *tu_data(const char *relative) { return join("PDT_DATA_DIR", "tests/data", relative); }
const char *tu_source(const char *relative) { return join("PDT_SOURCE_DIR", ".", relative); }

static char tmpdir[256];

static void remove_tmpdir(void)
{
    if (!tmpdir[0]) return;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
}

const char *tu_tmpdir(void)
{
    if (!tmpdir[0]) {
        strcpy(tmpdir, "/tmp/pdt_testXXXXXX");
        assert_non_null(mkdtemp(tmpdir));
        atexit(remove_tmpdir);
    }
    return tmpdir;
}

char *tu_write_file(const char *name, const char *text)
{
    char *path = NULL;
    assert_true(asprintf(&path, "%s/%s", tu_tmpdir(), name) > 0);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

int tu_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

long tu_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

char *tu_read_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    char *s = slurp_fd(fd);
    close(fd);
    return s;
}

uint64_t tu_scaled(uint64_t count)
{
    const char *v = getenv("PDT_TEST_SCALE");
    double f = v && *v ? strtod(v, NULL) : 1.0;
    if (!(f > 0.0) || f >= 1.0) return count;
    uint64_t n = (uint64_t)((double)count * f + 0.5);
    return n ? n : 1;
}

uint64_t tu_rand(tu_rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint32_t tu_below(tu_rng *r, uint32_t n) { return n ? (uint32_t)(tu_rand(r) % n) : 0; }

uint64_t tu_binom(uint64_t n, uint64_t k)
{
    uint64_t c = 1;
    for (uint64_t i = 0; i < k; i++) c = c * (n - i) / (i + 1);
    return c;
}

int tu_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

pdt_model *tu_fit(const pdt_dataset *ds, const char *rules, uint32_t depth, const char *sparse, pdt_engine engine)
{
    return tu_fit_threads(ds, rules, depth, sparse, engine, 0);
}

pdt_model *tu_fit_threads(const pdt_dataset *ds, const char *rules, uint32_t depth, const char *sparse,
                          pdt_engine engine, uint32_t threads)
{
    pdt_fit_options opt;
    pdt_fit_options_init(&opt);
    opt.threads = threads;
    opt.rules = rules;
    opt.max_depth = depth;
    opt.sparse = sparse;
    opt.engine = engine;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &opt, &err) != PDT_OK) fail_msg("fit %s: %s", rules, err.message);
    assert_true(pdt_model_optimal(m));
    return m;
}

size_t tu_training_errors(const pdt_model *m, const pdt_dataset *ds)
{
    size_t n = pdt_dataset_rows(ds), wrong = 0;
    uint32_t *pred = malloc((n ? n : 1) * sizeof *pred);
    assert_non_null(pred);
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_model_predict(pred, m, ds, &err) != PDT_OK) fail_msg("predict: %s", err.message);
    for (size_t i = 0; i < n; i++)
        wrong += strcmp(pdt_model_class_name(m, pred[i]), pdt_dataset_class_name(ds, pdt_dataset_label(ds, i))) != 0;
    free(pred);
    return wrong;
}
