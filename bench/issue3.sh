#!/usr/bin/env bash
# Benchmarks of issue 3: conics (hypersurfaces of degree 2 in the plane,
# G = 5 defining points) with K = 1 and 2 branch nodes on seeded data
# (bench/gen_conic2d.sh: two ellipses, 10% label noise), N = 20, 40, 80.
# Not a test: prints a table, writes bench/results/issue3.tsv, and the
# measured growth exponent of the time between sizes, next to the worst case
# O(N^(G·K+1)) (N^6 for K = 1, N^11 for K = 2).  The default engine is the
# hypersurface backend (rules/hypersurface_solve.c); BENCH_ENGINE=fused runs
# the candidate-list engine instead (feasible up to about N = 40).
# K = 2 also runs at N = 30: at N = 20 this data set has a perfect tree, which
# ends the search at once, so 20 -> 40 says little about growth.
# Usage: bench/issue3.sh [path/to/pdt]   (BENCH_LIMIT: seconds per fit, default 900)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pdt=${1:-$here/../build/pdt}
limit=${BENCH_LIMIT:-900}
engine=${BENCH_ENGINE:-auto}
out=$here/results
mkdir -p "$out"
tsv=$out/issue3.tsv
printf 'N\tK\tengine\toptimum\toptimal\twall_s\tsearch_s\tregions\tcandidates\n' > "$tsv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # N K
  local n=$1 k=$2 json=$tmp/m.json t0 t1
  "$here/gen_conic2d.sh" "$n" 1 > "$tmp/conic$n.csv"
  t0=$(date +%s.%N)
  "$pdt" fit --data "$tmp/conic$n.csv" --rules hypersurface --degree 2 --size "$k" --engine "$engine" \
    --time-limit "$limit" -q -o "$json" > /dev/null
  t1=$(date +%s.%N)
  python3 - "$json" "$n" "$k" "$engine" "$t0" "$t1" >> "$tsv" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
n, k, engine, t0, t1 = sys.argv[2:7]
s = j.get("stats", {})
print("\t".join([n, k, engine, str(j["objective"]), str(j["optimal"]).lower(),
                 "%.2f" % (float(t1) - float(t0)), "%.2f" % j.get("seconds", 0),
                 str(s.get("nodes", "")), str(s.get("candidates", ""))]))
PY
}

for n in 20 40 80; do run "$n" 1; done
for n in 20 30 40 80; do run "$n" 2; done
column -t -s $'\t' "$tsv"
python3 - "$tsv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print("\ngrowth of the time (exponent e in t ~ N^e) against the worst case N^(5K+1):")
for k in ("1", "2"):
    r = [x for x in rows if x["K"] == k]
    for a, b in zip(r, r[1:]):
        ta, tb = float(a["wall_s"]), float(b["wall_s"])
        note = "" if b["optimal"] == "true" else "  (time limit: a lower bound on the exponent)"
        if ta > 0 and tb > 0:
            e = math.log(tb / ta) / math.log(int(b["N"]) / int(a["N"]))
            print("  K=%s  N %s -> %s: e = %.1f   (worst case %d)%s" % (k, a["N"], b["N"], e, 5 * int(k) + 1, note))
PY
