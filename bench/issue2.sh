#!/usr/bin/env bash
# Benchmarks of the foundation (issue 2).  Not a test: prints a table and
# writes bench/results/issue2.tsv.  Times are wall seconds of one `pdt fit`
# (process start, loading, rule generation and search) and of pdt_fit alone.
# Usage: bench/issue2.sh [path/to/pdt]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pdt=${1:-$here/../build/pdt}
data=${PDT_SHARED_DATA:-$here/../../shared/data}
iris=$data/csv/iris.csv
[[ -f $iris ]] || iris=$here/../tests/data/iris.csv
out=$here/results
mkdir -p "$out"
tsv=$out/issue2.tsv
printf 'bench\tdata\tN\trules\tK\toptimum\toptimal\twall_s\tfit_s\tnodes\tmemo_hits\n' > "$tsv"

run() { # name data rules K [extra...]
  local name=$1 file=$2 rules=$3 k=$4; shift 4
  local json; json=$(mktemp)
  local t0 t1
  t0=$(date +%s.%N)
  "$pdt" fit --data "$file" --rules "$rules" --size "$k" -q -o "$json" "$@" >/dev/null
  t1=$(date +%s.%N)
  local n; n=$(($(wc -l < "$file") - 1))
  python3 - "$json" "$name" "$(basename "$file")" "$n" "$rules" "$k" "$t0" "$t1" >> "$tsv" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
name, data, n, rules, k, t0, t1 = sys.argv[2:9]
s = j.get("stats", {})
print("\t".join([name, data, n, rules, k, str(j["objective"]), str(j["optimal"]).lower(),
                 "%.3f" % (float(t1) - float(t0)), "%.3f" % j.get("seconds", 0),
                 str(s.get("nodes", "")), str(s.get("memo_hits", ""))]))
PY
  rm -f "$json"
}

for k in 1 2 3; do run axis-iris "$iris" axis "$k"; done
tmp=$(mktemp -d)
for n in 50 100 200; do
  "$here/gen_xor2d.sh" "$n" 1 > "$tmp/xor$n.csv"
  for k in 1 2; do run hyperplane-xor2d "$tmp/xor$n.csv" hyperplane "$k"; done
done
rm -rf "$tmp"
column -t -s $'\t' "$tsv"
