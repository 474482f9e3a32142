/* Issue 16, the output paths a user can trust, through the binary: no
 * command overwrites its input or replaces a link, FIFO, device, directory or
 * write-protected file; "-" is standard output for text formats; every output
 * option is checked before the search; the outputs appear all together or
 * not at all, also when a signal ends the run.  Every test works on copies
 * of the fixtures in a temporary directory and checks them unchanged. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

static char *path_in_tmp(const char *name)
{
    char *p = malloc(strlen(tu_tmpdir()) + strlen(name) + 2);
    sprintf(p, "%s/%s", tu_tmpdir(), name);
    return p;
}

/* A copy of a fixture under a new name in the temporary directory. */
static char *copy_fixture(const char *relative, const char *name)
{
    char *text = tu_read_file(tu_data(relative));
    assert_non_null(text);
    char *p = tu_write_file(name, text);
    free(text);
    return p;
}

/* Runs argv (NULL terminated, without the binary) expecting a refusal: exit
 * 1, both substrings in the message, nothing printed on stdout by a search,
 * and the file `keep` byte for byte as before. */
static void expect_refusal(const char *const *argv, const char *msg1, const char *msg2, const char *keep)
{
    char *before = keep ? tu_read_file(keep) : NULL;
    char *args[32] = {getenv("PDT_BIN")};
    size_t n = 1;
    for (; argv[n - 1] && n < 31; n++) args[n] = (char *)argv[n - 1];
    args[n] = NULL;
    tu_run r;
    tu_run_argv(&r, args);
    if (r.status != 1 || !strstr(r.err, msg1) || (msg2 && !strstr(r.err, msg2)))
        fprintf(stderr, "%s %s: status %d, stderr: %s\nexpected 1 and: %s / %s\n", argv[0], argv[1], r.status, r.err,
                msg1, msg2 ? msg2 : "");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, msg1));
    if (msg2) assert_non_null(strstr(r.err, msg2));
    assert_null(strstr(r.out, "objective"));
    if (keep) {
        char *after = tu_read_file(keep);
        assert_non_null(after);
        assert_string_equal(before, after);
        free(after);
    }
    free(before);
    tu_run_free(&r);
}

/* Every command, every output option aimed at an input: refused, input intact. */
static void test_cli_paths_output_is_input(void **state)
{
    (void)state;
    char *iris = copy_fixture("iris.csv", "iris.csv");
    char *two = copy_fixture("paths/noisy_xor50.csv", "two.png"); /* 2-D data named like a picture */
    char *seg = copy_fixture("problems/windmill.txt", "windmill.txt");
    char *pts = copy_fixture("problems/points.csv", "points.csv");
    char *dims = copy_fixture("problems/clrs_dims.txt", "dims.svg");
    char *model = path_in_tmp("model.json");
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", iris, "--size", "1", "-q", "-o", model, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    const char *in = "is the input file given with --";
    const char *fit_o[] = {"fit", "--data", iris, "--size", "1", "-o", iris, NULL};
    expect_refusal(fit_o, "option --output", in, iris);
    const char *fit_dot[] = {"fit", "--data", iris, "--size", "1", "--dot", iris, NULL};
    expect_refusal(fit_dot, "option --dot", in, iris);
    const char *fit_svg[] = {"fit", "--data", iris, "--size", "1", "--svg", iris, NULL};
    expect_refusal(fit_svg, "option --svg", in, iris);
    const char *fit_png[] = {"fit", "--data", iris, "--size", "1", "--png", iris, NULL};
    expect_refusal(fit_png, "option --png", in, iris);
    const char *fit_plot[] = {"fit", "--data", two, "--size", "1", "--plot", two, NULL};
    expect_refusal(fit_plot, "option --plot", in, two);
    const char *pr_model[] = {"predict", "--model", model, "--data", iris, "-o", model, NULL};
    expect_refusal(pr_model, "option --output", "given with --model", model);
    const char *pr_data[] = {"predict", "--model", model, "--data", iris, "-o", iris, NULL};
    expect_refusal(pr_data, "option --output", "given with --data", iris);
    const char *bsp[] = {"bsp", "--segments", seg, "-o", seg, NULL};
    expect_refusal(bsp, "option --output", "given with --segments", seg);
    const char *kd[] = {"kdtree", "--data", pts, "--svg", pts, NULL};
    expect_refusal(kd, "option --svg", "given with --data", pts);
    const char *chain[] = {"chain", "--dims-file", dims, "--svg", dims, NULL};
    expect_refusal(chain, "option --svg", "given with --dims-file", dims);
    const char *count[] = {"count", "--data", iris, "--size", "1", "-o", iris, NULL};
    expect_refusal(count, "option --output", "given with --data", iris);
    /* other spellings of the same file: "dir/../name" and a hard link */
    char *spelled = malloc(strlen(tu_tmpdir()) * 2 + 32);
    sprintf(spelled, "%s/../%s/iris.csv", tu_tmpdir(), strrchr(tu_tmpdir(), '/') + 1);
    const char *fit_spelled[] = {"fit", "--data", iris, "--size", "1", "-o", spelled, NULL};
    expect_refusal(fit_spelled, "option --output", in, iris);
    char *hard = path_in_tmp("hard.json");
    assert_int_equal(link(iris, hard), 0);
    const char *fit_hard[] = {"fit", "--data", iris, "--size", "1", "-o", hard, NULL};
    expect_refusal(fit_hard, "option --output", in, iris);
    unlink(hard);
    free(hard);
    free(spelled);
    free(iris), free(two), free(seg), free(pts), free(dims), free(model);
}

/* Whatever is not a regular file (or is write-protected) stays as it is. */
static void test_cli_paths_not_a_regular_file(void **state)
{
    (void)state;
    char *iris = copy_fixture("iris.csv", "iris_nr.csv");
    char *other = tu_write_file("other.json", "precious\n");
    char *link_in = path_in_tmp("link_in.json"), *link_other = path_in_tmp("link_other.json");
    assert_int_equal(symlink(iris, link_in), 0);
    assert_int_equal(symlink(other, link_other), 0);
    const char *a[] = {"fit", "--data", iris, "--size", "1", "-o", link_in, NULL};
    expect_refusal(a, "option --output", "is a symbolic link", iris);
    const char *b[] = {"fit", "--data", iris, "--size", "1", "--svg", link_other, NULL};
    expect_refusal(b, "option --svg", "is a symbolic link", other);
    struct stat st;
    assert_int_equal(lstat(link_other, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    /* a FIFO: refused at once (no hang), still a FIFO */
    char *fifo = path_in_tmp("fifo.json");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    const char *c[] = {"fit", "--data", iris, "--size", "1", "-o", fifo, NULL};
    expect_refusal(c, "option --output", "is a FIFO", iris);
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    /* a device node (a private copy of /dev/null, made when we may) */
    char *dev = path_in_tmp("null.json");
    if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0) {
        const char *d[] = {"fit", "--data", iris, "--size", "1", "-o", dev, NULL};
        expect_refusal(d, "option --output", "is a device", iris);
        assert_int_equal(lstat(dev, &st), 0);
        assert_true(S_ISCHR(st.st_mode));
    }
    /* a directory, named with and without a trailing slash */
    const char *e[] = {"fit", "--data", iris, "--size", "1", "--dot", tu_tmpdir(), NULL};
    expect_refusal(e, "option --dot", "is a directory", iris);
    /* a write-protected file keeps its content and its mode, even for root */
    char *ro = tu_write_file("ro.json", "keep me\n");
    assert_int_equal(chmod(ro, 0444), 0);
    const char *f[] = {"predict", "--model", "unused.json", "--data", iris, "-o", ro, NULL};
    expect_refusal(f, "option --output", "is write-protected", ro);
    assert_int_equal(stat(ro, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0444);
    free(iris), free(other), free(link_in), free(link_other), free(fifo), free(dev), free(ro);
}

/* "-" is standard output for text formats, refused for PNG; no file "-" appears. */
static void test_cli_paths_dash_is_stdout(void **state)
{
    (void)state;
    char *iris = copy_fixture("iris.csv", "iris_dash.csv");
    tu_run r;
    unlink("-");
    tu_run_pdt(&r, "fit", "--data", iris, "--size", "2", "-o", "-", NULL);
    assert_int_equal(r.status, 0);
    assert_true(r.out[0] == '{');
    assert_non_null(strstr(r.out, "\"format\": \"pdt-result\""));
    assert_null(strstr(r.out, "objective 6 (optimal)"));   /* the report went to stderr */
    assert_non_null(strstr(r.err, "objective 6 (optimal)"));
    assert_false(tu_exists("-"));
    tu_run_free(&r);
    tu_run_pdt(&r, "fit", "--data", iris, "--size", "1", "--dot", "-", "-q", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "digraph"));
    tu_run_free(&r);
    const char *png[] = {"fit", "--data", iris, "--size", "1", "--png", "-", NULL};
    expect_refusal(png, "option --png", "PNG is binary", NULL);
    const char *plot[] = {"fit", "--data", iris, "--size", "1", "--plot", "-", NULL};
    expect_refusal(plot, "option --plot", ".png or .svg", NULL);
    const char *two[] = {"fit", "--data", iris, "--size", "1", "-o", "-", "--svg", "-", NULL};
    expect_refusal(two, "option --svg", "standard output is already taken", NULL);
    assert_false(tu_exists("-"));
    free(iris);
}

/* Output options are checked before the search: nothing is computed for an
 * output that could not be written. */
static void test_cli_paths_checked_before_search(void **state)
{
    (void)state;
    char *two = copy_fixture("paths/noisy_xor50.csv", "xor50.csv");
    char *gif = path_in_tmp("p.gif"), *nodir = path_in_tmp("no/such/dir/m.json"), *same = path_in_tmp("same.out");
    const char *a[] = {"fit", "--data", two, "--size", "1", "--plot", gif, NULL};
    expect_refusal(a, "option --plot", "pictures are written as .png or .svg", NULL);
    const char *b[] = {"fit", "--data", two, "--size", "1", "-o", nodir, NULL};
    expect_refusal(b, "option --output", "its directory does not exist", NULL);
    const char *c[] = {"fit", "--data", two, "--size", "1", "--dot", same, "--svg", same, NULL};
    expect_refusal(c, "option --svg", "is also the file of option --dot", NULL);
    const char *d[] = {"bsp", "--segments", tu_data("problems/windmill.txt"), "--picture", gif, NULL};
    expect_refusal(d, "option --picture", "pictures are written as .png or .svg", NULL);
    assert_false(tu_exists(gif));
    assert_false(tu_exists(same));
    /* the extension's case does not matter */
    char *upper = path_in_tmp("p.PNG");
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", two, "--size", "1", "-q", "--plot", upper, "--plot-size", "40x30", NULL);
    assert_int_equal(r.status, 0);
    char *png = tu_read_file(upper);
    assert_non_null(png);
    assert_memory_equal(png + 1, "PNG", 3);
    free(png);
    tu_run_free(&r);
    free(two), free(gif), free(nodir), free(same), free(upper);
}

/* A missing input file is exit status 1 in every command. */
static void test_cli_paths_missing_input_status(void **state)
{
    (void)state;
    const char *cmds[][6] = {
        {"fit", "--data", "no_such.csv", "--size", "1", NULL},
        {"predict", "--model", "no_such.json", "--data", "x.csv", NULL},
        {"bsp", "--segments", "no_such.txt", NULL},
        {"kdtree", "--data", "no_such.csv", NULL},
        {"chain", "--dims-file", "no_such.txt", NULL},
        {"count", "--data", "no_such.csv", "--size", "1", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) expect_refusal(cmds[i], "no_such", NULL, NULL);
}

/* ------------------------------------------------ signals: all or none */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs argv with output to /dev/null; kills it with sig after delay seconds
 * (delay < 0: never), and again after delay2 (< 0: not).  Returns the wall
 * time; *status := exit status or 128 + signal. */
static double run_and_kill2(char *const argv[], double delay, int sig, double delay2, int *status)
{
    double t0 = now_seconds();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR);
        dup2(nul, 0), dup2(nul, 1), dup2(nul, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    if (delay >= 0) {
        struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
        kill(pid, sig);
    }
    if (delay2 >= 0) {
        struct timespec ts = {(time_t)delay2, (long)((delay2 - (double)(time_t)delay2) * 1e9)};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
        kill(pid, sig);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (delay < 0) assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    if (status) *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return now_seconds() - t0;
}

static double run_and_kill(char *const argv[], double delay, int sig)
{
    return run_and_kill2(argv, delay, sig, -1, NULL);
}

static bool ends_with_text(const char *path, const char *suffix)
{
    char *text = tu_read_file(path);
    size_t n = text ? strlen(text) : 0, m = strlen(suffix);
    bool ok = text && n >= m && strcmp(text + n - m, suffix) == 0;
    free(text);
    return ok;
}

/* A PNG is complete when its last chunk is IEND. */
static bool png_complete(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char tail[12] = {0};
    bool ok = f && fseek(f, -12, SEEK_END) == 0 && fread(tail, 1, 12, f) == 12 && memcmp(tail + 4, "IEND", 4) == 0;
    if (f) fclose(f);
    return ok;
}

/* No temporary file is left in dir. */
static void assert_no_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (strstr(e->d_name, ".tmp")) fprintf(stderr, "left behind: %s\n", e->d_name);
        assert_null(strstr(e->d_name, ".tmp"));
    }
    closedir(d);
}

static void test_cli_paths_signal_all_or_none(void **state)
{
    (void)state;
    char *data = copy_fixture("paths/noisy_xor50.csv", "sig.csv");
    char *dir = path_in_tmp("sig");
    assert_int_equal(mkdir(dir, 0755), 0);
    static const char *const names[] = {"m.json", "t.dot", "t.svg", "t.png", "p.png"};
    char out[5][512];
    for (size_t i = 0; i < 5; i++) snprintf(out[i], sizeof out[i], "%s/%s", dir, names[i]);
    char *argv[] = {getenv("PDT_BIN"), "fit", "--data", data, "--rules", "hyperplane", "--size", "3", "-o", out[0],
                    "--dot", out[1], "--svg", out[2], "--png", out[3], "--plot", out[4], "--plot-size", "600x600",
                    NULL};
    double whole = run_and_kill(argv, -1, 0);
    size_t complete = 0, none = 0;
    /* Moment k interrupts at (0.02 + 0.055·k) of the whole run with signal k mod 4.
     * Under ASan (a whole run: 6–8 s) 5 of the 20, which still send every
     * signal in the search, the drawings and the writes; the release build
     * tries 12 of them, every signal at least twice, all three phases (the
     * 20 took 39 s of the release suite on a Zen 1 machine). */
#if defined(__SANITIZE_ADDRESS__)
    static const int moments[] = {0, 5, 11, 14, 17};
#else
    static const int moments[] = {0, 1, 2, 3, 4, 6, 8, 10, 12, 14, 17, 19};
#endif
    const size_t n_moments = sizeof moments / sizeof *moments;
    for (size_t m = 0; m < n_moments; m++) {
        int k = moments[m];
        for (size_t i = 0; i < 5; i++) unlink(out[i]);
        /* moments spread over the whole run: search, drawings, writes */
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGSEGV};
        run_and_kill(argv, whole * (0.02 + 0.055 * k), sigs[k % 4]);
        size_t present = 0;
        for (size_t i = 0; i < 5; i++) present += tu_exists(out[i]) != 0;
        if (present != 0 && present != 5) fprintf(stderr, "moment %d: %zu of 5 outputs\n", k, present);
        assert_true(present == 0 || present == 5);
        if (present == 5) {
            assert_true(ends_with_text(out[0], "}\n"));
            assert_true(ends_with_text(out[1], "}\n"));
            assert_true(ends_with_text(out[2], "</svg>\n"));
            assert_true(png_complete(out[3]) && png_complete(out[4]));
        }
        complete += present == 5;
        none += present == 0;
        assert_no_tmp(dir);
    }
    fprintf(stderr, "%zu interrupted runs of %.2f s: %zu left every output, %zu none\n", n_moments, whole, complete,
            none);
    free(data);
    free(dir);
}

/* Issue 16: Ctrl-C during a long search lost the incumbent.  The first
 * SIGINT ends the search with the best tree so far, written to every output
 * and flagged "optimal": false (exit 130); a second one aborts, leaving all
 * outputs or none.  A hyperplane search of size 4 on 50 points takes far
 * longer than the test waits. */
static void test_cli_paths_sigint_keeps_the_best(void **state)
{
    (void)state;
    char *data = copy_fixture("paths/noisy_xor50.csv", "int.csv");
    char *json = path_in_tmp("int.json"), *svg = path_in_tmp("int.svg");
    char *argv[] = {getenv("PDT_BIN"), "fit", "--data", data, "--rules", "hyperplane", "--size", "4", "-q",
                    "-o", json, "--svg", svg, NULL};
    int status = 0;
    double seconds = run_and_kill2(argv, 0.5, SIGINT, -1, &status);
    assert_int_equal(status, 130);
    assert_true(seconds < 30);
    char *doc = tu_read_file(json);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"optimal\": false"));
    assert_non_null(strstr(doc, "\"tree\""));
    free(doc);
    assert_true(ends_with_text(svg, "</svg>\n"));
    /* the model loads and predicts */
    tu_run r;
    tu_run_pdt(&r, "predict", "--model", json, "--data", data, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    /* twice in a row: killed (or, if the second came late, finished); never a part */
    unlink(json), unlink(svg);
    run_and_kill2(argv, 0.5, SIGINT, 0, &status);
    assert_int_equal(status, 130);
    assert_true(tu_exists(json) == tu_exists(svg));
    assert_no_tmp(tu_tmpdir());
    free(data), free(json), free(svg);
}

/* ------------------------------------------------ a set is renamed as one */

/* A rename failing part-way (injected: PDT_TEST_COMMIT_FAIL=2) puts the first
 * output back as it was: an old model stays the old model, a new DOT file is
 * not left alone; no temporary or backup file remains. */
static void test_cli_paths_failed_rename_rolls_back(void **state)
{
    (void)state;
    char *data = copy_fixture("iris.csv", "rb.csv");
    char *dir = path_in_tmp("rollback");
    assert_int_equal(mkdir(dir, 0755), 0);
    char json[512], dot[512];
    snprintf(json, sizeof json, "%s/m.json", dir);
    snprintf(dot, sizeof dot, "%s/t.dot", dir);
    char *old = tu_write_file("rollback/m.json", "the old model\n");
    setenv("PDT_TEST_COMMIT_FAIL", "2", 1);
    tu_run r;
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "axis", "--depth", "1", "-o", json, "--dot", dot, NULL);
    unsetenv("PDT_TEST_COMMIT_FAIL");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "failure injected"));
    tu_run_free(&r);
    char *after = tu_read_file(json);
    assert_string_equal(after, "the old model\n");
    assert_false(tu_exists(dot));
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));) {
        if (strstr(e->d_name, ".tmp") || strstr(e->d_name, ".bak")) fprintf(stderr, "left: %s\n", e->d_name);
        assert_null(strstr(e->d_name, ".tmp"));
        assert_null(strstr(e->d_name, ".bak"));
    }
    closedir(d);
    /* without the failure the same command replaces both */
    tu_run_pdt(&r, "fit", "--data", data, "--rules", "axis", "--depth", "1", "-o", json, "--dot", dot, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    free(after);
    after = tu_read_file(json);
    assert_non_null(strstr(after, "\"depth\": 1"));
    assert_true(tu_exists(dot));
    free(after), free(old), free(data), free(dir);
}

/* Two runs writing the same outputs: the first holds its set's rename back
 * (PDT_TEST_COMMIT_DELAY_MS) while the second finishes; the outputs must
 * then be one run's set — the model and the drawing of the same depth —
 * not the second's model beside the first's drawing. */
static void test_cli_paths_concurrent_runs_do_not_mix(void **state)
{
    (void)state;
    char *data = copy_fixture("iris.csv", "cc.csv");
    char *json = path_in_tmp("cc.json"), *dot = path_in_tmp("cc.dot");
    char *first[] = {getenv("PDT_BIN"), "fit", "--data", data, "--rules", "axis", "--depth", "1", "-q", "-o", json,
                     "--dot", dot, NULL};
    char *second[] = {getenv("PDT_BIN"), "fit", "--data", data, "--rules", "axis", "--depth", "2", "-q", "-o", json,
                      "--dot", dot, NULL};
    setenv("PDT_TEST_COMMIT_DELAY_MS", "1500", 1);
    pid_t a = fork();
    assert_true(a >= 0);
    if (a == 0) {
        int nul = open("/dev/null", O_RDWR);
        dup2(nul, 1), dup2(nul, 2);
        execv(first[0], first);
        _exit(127);
    }
    unsetenv("PDT_TEST_COMMIT_DELAY_MS");
    struct timespec ts = {0, 400000000L}; /* the first is in its delay by now */
    nanosleep(&ts, NULL);
    int status = 0;
    run_and_kill2(second, -1, 0, -1, &status);
    while (waitpid(a, &status, 0) < 0 && errno == EINTR) {}
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char *doc = tu_read_file(json), *drawing = tu_read_file(dot);
    bool depth1 = strstr(doc, "\"depth\": 1") != NULL, depth2 = strstr(doc, "\"depth\": 2") != NULL;
    bool drawn1 = strstr(drawing, "depth 1") != NULL, drawn2 = strstr(drawing, "depth 2") != NULL;
    if (depth1 != drawn1 || depth2 != drawn2) fprintf(stderr, "model depth %s, drawing %s\n", depth1 ? "1" : "2",
                                                      drawn1 ? "1" : "2");
    assert_true(depth1 != depth2 && drawn1 != drawn2);
    assert_true(depth1 == drawn1);
    /* the second waited for the first's set, then replaced it: its own set is there */
    assert_true(depth2);
    assert_no_tmp(tu_tmpdir());
    free(doc), free(drawing), free(json), free(dot), free(data);
}

/* Ctrl-C keeps the best tree in every backend, not only the fused engine:
 * the numeric axis backend, the binary backend's branch search (one-hot,
 * --sparse without limits) and the categorical family's. */
static void test_cli_paths_sigint_in_every_backend(void **state)
{
    (void)state;
    char csv[64 * 800 + 64] = "a,b,c,d,e,f,y\n";
    size_t used = strlen(csv);
    tu_rng rng = {77};
    for (int i = 0; i < 800; i++) {
        for (int j = 0; j < 6; j++) used += (size_t)sprintf(csv + used, "%u,", tu_below(&rng, 1000));
        used += (size_t)sprintf(csv + used, "%u\n", tu_below(&rng, 3));
    }
    char *numeric = tu_write_file("sig_numeric.csv", csv);
    char *ttt = copy_fixture("categorical/kr-vs-kp.csv", "sig_krkp.csv");
    char *json = path_in_tmp("sig_backend.json");
    struct { const char *rules, *data, *a, *b; } runs[] = {
        {"axis", numeric, "--depth", "4"},
        {"binary", ttt, "--sparse", "0.001"},
        {"categorical", ttt, "--sparse", "0.001"},
    };
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        unlink(json);
        char *argv[] = {getenv("PDT_BIN"), "fit", "--data", (char *)runs[k].data, "--rules", (char *)runs[k].rules,
                        (char *)runs[k].a, (char *)runs[k].b, "--threads", "1", "-q", "-o", json, NULL};
        int status = 0;
        double seconds = run_and_kill2(argv, 1.0, SIGINT, -1, &status);
        if (status != 130) fprintf(stderr, "%s: status %d after %.1f s\n", runs[k].rules, status, seconds);
        assert_int_equal(status, 130);
        assert_true(seconds < 30);
        char *doc = tu_read_file(json);
        assert_non_null(doc);
        assert_non_null(strstr(doc, "\"optimal\": false"));
        free(doc);
    }
    free(numeric), free(ttt), free(json);
}

/* Issue 16: a large PNG meeting a memory limit crashed Graphviz/cairo and
 * with them pdt (SIGSEGV, SIGTRAP from GLib), leaving a temporary file.  The
 * drawing now runs in a child process: under every limit tried the command
 * either succeeds with whole outputs or refuses cleanly, never dies. */
static void test_cli_paths_png_under_memory_limit(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip(); /* ASan's shadow memory needs more address space than any of these limits */
#else
    char *data = copy_fixture("categorical/tic-tac-toe.csv", "mem.csv");
    char *dir = path_in_tmp("memlimit");
    assert_int_equal(mkdir(dir, 0755), 0);
    char png[512], json[512];
    snprintf(png, sizeof png, "%s/t.png", dir);
    snprintf(json, sizeof json, "%s/m.json", dir);
    char *argv[] = {getenv("PDT_BIN"), "fit", "--data", data, "--rules", "categorical", "--sparse", "0.0001", "-q",
                    "-o", json, "--png", png, NULL};
    size_t died = 0, drawn = 0;
    for (long mb = 40; mb <= 360; mb += 40) {
        unlink(png), unlink(json);
        int err_pipe[2];
        assert_int_equal(pipe(err_pipe), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            struct rlimit lim = {(rlim_t)mb << 20, (rlim_t)mb << 20};
            setrlimit(RLIMIT_AS, &lim);
            int nul = open("/dev/null", O_RDWR);
            dup2(nul, 0), dup2(nul, 1), dup2(err_pipe[1], 2);
            close(err_pipe[0]);
            execv(argv[0], argv);
            _exit(127);
        }
        close(err_pipe[1]);
        /* all of it, to the end: a child whose stderr closes early dies of
         * SIGPIPE (Fontconfig, short of memory, writes kilobytes of
         * complaints before pdt's own message) */
        size_t got = 0, cap = 4096;
        char *msg = malloc(cap);
        assert_non_null(msg);
        for (ssize_t r; (r = read(err_pipe[0], msg + got, cap - 1 - got)) != 0;) {
            if (r < 0) {
                assert_int_equal(errno, EINTR);
                continue;
            }
            got += (size_t)r;
            if (cap - 1 - got < 1024) msg = realloc(msg, cap *= 2), assert_non_null(msg);
        }
        msg[got] = '\0';
        close(err_pipe[0]);
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
        if (WIFSIGNALED(st)) fprintf(stderr, "%ld MB: killed by signal %d: %s\n", mb, WTERMSIG(st), msg);
        assert_false(WIFSIGNALED(st));
        if (WEXITSTATUS(st) == 0) {
            assert_true(png_complete(png));
            assert_true(tu_exists(json));
            drawn++;
        } else {
            assert_false(tu_exists(png)); /* all outputs or none */
            assert_false(tu_exists(json));
            died += strstr(msg, "the drawing library died") != NULL;
        }
        assert_no_tmp(dir);
        free(msg);
    }
    fprintf(stderr, "memory limits 40..360 MB: %zu drawn, %zu refused because the drawing died\n", drawn, died);
    assert_true(died >= 1 && drawn >= 1);
    free(data), free(dir);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_paths_png_under_memory_limit),
        cmocka_unit_test(test_cli_paths_failed_rename_rolls_back),
        cmocka_unit_test(test_cli_paths_concurrent_runs_do_not_mix),
        cmocka_unit_test(test_cli_paths_sigint_in_every_backend),
        cmocka_unit_test(test_cli_paths_output_is_input),
        cmocka_unit_test(test_cli_paths_not_a_regular_file),
        cmocka_unit_test(test_cli_paths_dash_is_stdout),
        cmocka_unit_test(test_cli_paths_checked_before_search),
        cmocka_unit_test(test_cli_paths_missing_input_status),
        cmocka_unit_test(test_cli_paths_signal_all_or_none),
        cmocka_unit_test(test_cli_paths_sigint_keeps_the_best),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
