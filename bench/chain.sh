#!/usr/bin/env bash
# `pdt chain` against a plain O(n³) C dynamic programme (issue 14).  Not a
# test: builds the DP from source here (cc -O2), draws seeded dimensions in
# 1..100 (minstd, so the same on every machine), runs both on the same file,
# checks the optima agree and prints the times, their ratios and the growth
# exponent of pdt's time.  Each program runs BENCH_REPEAT times (default 5)
# and the least time counts (the machine is shared).  `pdt_s`, `dp_s`: CPU
# seconds (user + system) of the whole process (start, reading, solving,
# printing), which other load on the machine disturbs less than wall time;
# `search_s`: pdt's search time from its result document; `loop_s`: the DP's
# own timing of its loop.
# Usage: bench/chain.sh [path/to/pdt] [n ...]     (default n: 200 400 800)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pdt=${1:-$here/../build/pdt}
shift || true
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(200 400 800)
seed=${BENCH_SEED:-14}
out=$here/results
mkdir -p "$out"
tsv=$out/chain.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/dp.c" <<'C'
/* The textbook matrix-chain DP: m[i][j] = min_k m[i][k] + m[k+1][j] + p_i p_{k+1} p_{j+1}. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "r");
    size_t cap = 1024, m = 0;
    unsigned long long *p = malloc(cap * sizeof *p), x;
    while (fscanf(f, "%llu", &x) == 1) {
        if (m == cap) p = realloc(p, (cap *= 2) * sizeof *p);
        p[m++] = x;
    }
    fclose(f);
    size_t n = m - 1;
    double t0 = now();
    unsigned long long *c = calloc(n * n, sizeof *c);
    for (size_t len = 2; len <= n; len++)
        for (size_t i = 0; i + len <= n; i++) {
            size_t j = i + len - 1;
            unsigned long long best = ~0ull;
            for (size_t k = i; k < j; k++) {
                unsigned long long v = c[i * n + k] + c[(k + 1) * n + j] + p[i] * p[k + 1] * p[j + 1];
                if (v < best) best = v;
            }
            c[i * n + j] = best;
        }
    printf("%llu %.6f\n", c[n - 1], now() - t0);
    (void)argc;
    return 0;
}
C
cc -O2 -o "$tmp/dp" "$tmp/dp.c"

dims() { # n seed: n+1 integers in 1..100 (minstd)
  awk -v n="$1" -v s="$2" 'BEGIN { x = s % 2147483647; if (x <= 0) x += 2147483646
    for (i = 0; i <= n; i++) { x = (x * 48271) % 2147483647; printf "%d\n", 1 + x % 100 } }'
}

for n in "${sizes[@]}"; do dims "$n" "$seed" > "$tmp/d$n.txt"; done

/usr/bin/python3 - "$pdt" "$tmp" "$tsv" "${BENCH_REPEAT:-5}" "${sizes[@]}" <<'PY'
import json, os, subprocess, sys
pdt, tmp, tsv, repeat = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def run(argv):  # (cpu seconds of the child, its stdout)
    with open(os.path.join(tmp, "out"), "w") as out:
        p = subprocess.Popen(argv, stdout=out)
        _, status, ru = os.wait4(p.pid, 0)
    if status:
        sys.exit("%s failed" % argv[0])
    return ru.ru_utime + ru.ru_stime, open(os.path.join(tmp, "out")).read()
with open(tsv, "w") as f:
    f.write("n\tpdt_s\tdp_s\tratio\tsearch_s\tloop_s\tratio_inner\toptimum\tsame\n")
    for n in sys.argv[5:]:
        d, r = os.path.join(tmp, "d%s.txt" % n), os.path.join(tmp, "r.json")
        dp = pdt_t = loop = search = float("inf")
        for _ in range(repeat):
            t, out = run([os.path.join(tmp, "dp"), d])
            want, l = out.split()
            dp, loop = min(dp, t), min(loop, float(l))
            t, _ = run([pdt, "chain", "--dims-file", d, "-q", "-o", r])
            j = json.load(open(r))
            pdt_t, search = min(pdt_t, t), min(search, float(j["seconds"]))
        got = str(j["objective"])
        f.write("\t".join([n, "%.4f" % pdt_t, "%.4f" % dp, "%.2f" % (pdt_t / dp), "%.4f" % search,
                           "%.4f" % loop, "%.2f" % (search / loop), got,
                           "yes" if got == want else "NO (dp %s)" % want]) + "\n")
PY
column -t -s $'\t' "$tsv"
/usr/bin/python3 - "$tsv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
for a, b in zip(rows, rows[1:]):
    e = math.log(float(b["search_s"]) / float(a["search_s"])) / math.log(int(b["n"]) / int(a["n"]))
    print("growth of pdt's search time, n %s -> %s: exponent %.2f" % (a["n"], b["n"], e))
if any(r["same"] != "yes" for r in rows):
    sys.exit("optima differ")
PY
