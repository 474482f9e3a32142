#!/usr/bin/env bash
# Benchmarks of the problem plugins (issue 4).  Not a test: prints a table and
# writes bench/results/issue4.tsv.  `wall_s` is the whole command (reading,
# geometry, search, reconstruction, random baseline, output); `search_s` is
# the engine's own time (pdt_search).
#   BSP: exact optimum of seeded random non-crossing segments (gen_segments.sh,
#        seed 1), n = 8, 10, 12, 14, next to 1000 random auto-partitions.
#   Matrix chain: seeded random dimensions in 1..100, n = 100, 200, 400.
#   k-D tree: D = 2, seeded random points in [0, 1000)², weights 1..9, n = 10, 14, 18.
# Usage: bench/issue4.sh [path/to/pdt]    (PDT_BENCH_TIMEOUT: seconds per run, default 1800)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pdt=${1:-$here/../build/pdt}
limit=${PDT_BENCH_TIMEOUT:-1800}
out=$here/results
mkdir -p "$out"
tsv=$out/issue4.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'problem\tn\tresult\toptimal\twall_s\tsearch_s\tsubproblems\tmemo_entries\tbaseline\n' > "$tsv"

# run NAME N CMD... : times one command writing $tmp/r.json, appends a row
run() {
  local name=$1 n=$2; shift 2
  local t0 t1 rc=0
  rm -f "$tmp/r.json"
  t0=$(date +%s.%N)
  timeout "$limit" "$@" -q -o "$tmp/r.json" > /dev/null || rc=$?
  t1=$(date +%s.%N)
  if [[ $rc -ne 0 ]]; then
    printf '%s\t%s\t%s\t-\t%.1f\t-\t-\t-\t-\n' "$name" "$n" \
      "$([[ $rc -eq 124 ]] && echo "timeout ${limit}s" || echo "exit $rc")" "$(awk "BEGIN { print $t1 - $t0 }")" >> "$tsv"
    return
  fi
  python3 - "$tmp/r.json" "$name" "$n" "$t0" "$t1" >> "$tsv" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
name, n, t0, t1 = sys.argv[2:6]
s = j.get("stats", {})
if j["problem"] == "bsp":
    result = "%d fragments, %d nodes" % (j["fragments"], j["nodes"])
    r = j.get("random")
    base = ("random x%d: fragments min %d mean %.2f, nodes min %d mean %.2f"
            % (r["tries"], r["min_fragments"], r["mean_fragments"], r["min_nodes"], r["mean_nodes"])) if r else ""
elif j["problem"] == "kdtree":
    result = "access %s, height %d" % (j["access_cost"], j["height"])
    base = ""
else:
    result = str(j["objective"])
    base = ""
print("\t".join([name, n, result, str(j["optimal"]).lower(), "%.3f" % (float(t1) - float(t0)),
                 "%.3f" % j.get("seconds", 0), str(s.get("nodes", "")), str(s.get("memo_entries", "")), base]))
PY
}

for n in 8 10 12 14; do
  "$here/gen_segments.sh" "$n" 1 > "$tmp/seg$n.txt"
  run bsp "$n" "$pdt" bsp --segments "$tmp/seg$n.txt" --random 1000 --seed 1
done

for n in 100 200 400; do
  python3 -c "import random; r = random.Random($n); print(' '.join(str(r.randint(1, 100)) for _ in range($n + 1)))" \
    > "$tmp/dims$n.txt"
  run matrix-chain "$n" "$pdt" chain --dims-file "$tmp/dims$n.txt"
done

for n in 10 14 18; do
  python3 - "$n" > "$tmp/kd$n.csv" <<'PY'
import random, sys
n = int(sys.argv[1]); r = random.Random(n)
print("x,y,w")
for _ in range(n): print("%d,%d,%d" % (r.randrange(1000), r.randrange(1000), r.randint(1, 9)))
PY
  run kdtree "$n" "$pdt" kdtree --data "$tmp/kd$n.csv" --weights w
done

column -t -s $'\t' "$tsv"
