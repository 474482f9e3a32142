#!/usr/bin/env bash
# `pdt kdtree` against Knuth's O(n²) optimal binary search tree (issue 14).
# Not a test.  D = 1: seeded distinct keys with weights p/q (p in 0..9, q in
# 1..4, as in tests/oracle_kdtree.c); the baseline is the test's own oracle
# (Knuth's DP in GMP rationals, copied here and built with cc -O2), and a
# machine-integer Knuth for reference.  D = 2: seeded points in 0..999², the
# size pdt proves in the time.  Times: CPU seconds of the whole process, the
# least of BENCH_REPEAT runs (default 3).
# Usage: bench/kdtree.sh [path/to/pdt]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pdt=${1:-$here/../build/pdt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/knuth.c" <<'C'
/* e[i][j] = W(i..j) + min over r in [R(i, j-1), R(i+1, j)] of e[i][r-1] + e[r+1][j] (keys sorted). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { long x; mpq_t w; } key;
static int by_x(const void *a, const void *b) { long p = ((const key *)a)->x, q = ((const key *)b)->x; return (p > q) - (p < q); }
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "r");
    char line[256];
    size_t n = 0, cap = 1024;
    key *k = malloc(cap * sizeof *k);
    fgets(line, sizeof line, f); /* header */
    while (fgets(line, sizeof line, f)) {
        char *c = strchr(line, ',');
        *c = 0;
        c[strcspn(c + 1, "\n") + 1] = 0;
        k[n].x = atol(line);
        mpq_init(k[n].w);
        mpq_set_str(k[n].w, c + 1, 10);
        mpq_canonicalize(k[n].w);
        n++;
    }
    qsort(k, n, sizeof *k, by_x);
    int integer = argc > 2;
    size_t m = n + 2;
    if (integer) { /* the same with weights scaled by 12 (every q divides it) in machine integers */
        long long *e = calloc(m * m, sizeof *e), *W = calloc(m * m, sizeof *W);
        size_t *root = calloc(m * m, sizeof *root);
        mpq_t t;
        mpq_init(t);
        for (size_t len = 1; len <= n; len++)
            for (size_t i = 1; i + len - 1 <= n; i++) {
                size_t j = i + len - 1;
                mpq_set_ui(t, 12, 1);
                mpq_mul(t, t, k[j - 1].w);
                W[i * m + j] = W[i * m + j - 1] + (long long)mpz_get_si(mpq_numref(t));
                size_t lo = len == 1 ? i : root[i * m + j - 1], hi = len == 1 ? i : root[(i + 1) * m + j];
                long long best = -1;
                for (size_t r = lo; r <= hi; r++) {
                    long long v = e[i * m + r - 1] + e[(r + 1) * m + j];
                    if (best < 0 || v < best) best = v, root[i * m + j] = r;
                }
                e[i * m + j] = best + W[i * m + j];
            }
        mpq_set_si(t, e[1 * m + n], 12);
        mpq_canonicalize(t);
        gmp_printf("%Qd\n", t);
        return 0;
    }
    mpq_t *e = malloc(m * m * sizeof *e), *W = malloc(m * m * sizeof *W), t;
    size_t *root = calloc(m * m, sizeof *root);
    mpq_init(t);
    for (size_t q = 0; q < m * m; q++) mpq_init(e[q]), mpq_init(W[q]);
    for (size_t len = 1; len <= n; len++)
        for (size_t i = 1; i + len - 1 <= n; i++) {
            size_t j = i + len - 1;
            mpq_add(W[i * m + j], W[i * m + j - 1], k[j - 1].w);
            size_t lo = len == 1 ? i : root[i * m + j - 1], hi = len == 1 ? i : root[(i + 1) * m + j];
            int first = 1;
            for (size_t r = lo; r <= hi; r++) {
                mpq_add(t, e[i * m + r - 1], e[(r + 1) * m + j]);
                if (first || mpq_cmp(t, e[i * m + j]) < 0) mpq_set(e[i * m + j], t), root[i * m + j] = r;
                first = 0;
            }
            mpq_add(e[i * m + j], e[i * m + j], W[i * m + j]);
        }
    gmp_printf("%Qd\n", e[1 * m + n]);
    return 0;
}
C
cc -O2 -o "$tmp/knuth" "$tmp/knuth.c" -lgmp

/usr/bin/python3 - "$pdt" "$tmp" "${BENCH_REPEAT:-3}" <<'PY'
import json, os, random, subprocess, sys
pdt, tmp, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
def run(argv):
    best, out = float("inf"), ""
    for _ in range(repeat):
        with open(os.path.join(tmp, "out"), "w") as o:
            p = subprocess.Popen(argv, stdout=o)
            _, status, ru = os.wait4(p.pid, 0)
        if status:
            sys.exit("%s failed" % argv[0])
        best = min(best, ru.ru_utime + ru.ru_stime)
        out = open(os.path.join(tmp, "out")).read().strip()
    return best, out
rng = random.Random(14)
print("D = 1 (optimal BST):")
print("n\tpdt_s\tknuth_mpq_s\tratio\tknuth_int_s\toptimum\tsame")
for n in (250, 500):
    csv = os.path.join(tmp, "k%d.csv" % n)
    with open(csv, "w") as f:
        f.write("x,w\n")
        for x in rng.sample(range(10 * n), n):
            f.write("%d,%d/%d\n" % (x, rng.randrange(10), 1 + rng.randrange(4)))
    r = os.path.join(tmp, "r.json")
    tp, _ = run([pdt, "kdtree", "--data", csv, "--weights", "w", "-q", "-o", r])
    got = json.load(open(r))
    tk, want = run([os.path.join(tmp, "knuth"), csv])
    ti, want_i = run([os.path.join(tmp, "knuth"), csv, "int"])
    cost = str(got.get("cost", got.get("objective")))
    print("%d\t%.3f\t%.3f\t%.2f\t%.3f\t%s\t%s" % (n, tp, tk, tp / tk, ti, cost,
          "yes" if cost == want == want_i else "NO (knuth %s / %s)" % (want, want_i)))
print("\nD = 2 (points in 0..999^2):")
print("n\tpdt_s\toptimal\tcost\theight")
for n in (18, 40, 48, 56, 62):
    csv = os.path.join(tmp, "p%d.csv" % n)
    with open(csv, "w") as f:
        f.write("x,y\n")
        for _ in range(n):
            f.write("%d,%d\n" % (rng.randrange(1000), rng.randrange(1000)))
    r = os.path.join(tmp, "r.json")
    tp, _ = run([pdt, "kdtree", "--data", csv, "-q", "-o", r])
    j = json.load(open(r))
    print("%d\t%.3f\t%s\t%s\t%s" % (n, tp, j.get("optimal"), j.get("cost", j.get("objective")), j.get("height")))
PY
