#!/usr/bin/env bash
# Issue 10: metric fits through the generic engine (the Pareto algebra, --engine fused) beside the
# binary backend's own front search, on the DL8.5 files at depth 2 and 3 (F1, positive class 1):
# both optima must be equal; times are the wall time of one `pdt fit` process (REPEAT=3: best of 3).
# Then F1 fits of rule families only the generic engine has fronts for (hyperplane, conic), on
# seeded 2-D data (bench/gen_conic2d.sh).  Prints a table; not a test.
# Usage: bench/front_engine.sh [BUILD_DIR] [DATA_DIR]   (env DEPTHS="2 3", FILES="vote hepatitis ...",
#        REPEAT=1, TIMEOUT=120)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
data=${2:-$here/../shared/data/dl85}
pdt=$build/pdt
depths=${DEPTHS:-"2 3"}
repeat=${REPEAT:-1}
limit=${TIMEOUT:-120}
files=${FILES:-$(ls "$data" | sed -n 's/\.txt$//p')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

best_time() { # prints best wall seconds of REPEAT runs of "$@" (stdout to $tmp/out), or timeout
  local best= t
  for ((r = 0; r < repeat; r++)); do
    TIMEFORMAT='%R'
    if { time timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err"; } 2>"$tmp/time"; then
      t=$(cat "$tmp/time")
      if [[ -z $best ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
    else
      echo timeout; return
    fi
  done
  echo "$best"
}
metric_of() { sed -n 's/^\(f1 [^ ]*\).*front of (FP, FN): \([0-9]*\) points.*/\1 \2/p' "$tmp/out"; }

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-20s %2s %-16s %9s %9s %6s %s\n' dataset d f1 backend_s fused_s front same
for d in $depths; do
  for f in $files; do
    tb=$(best_time "$pdt" fit --data "$data/$f.txt" --format dl85 --rules binary --depth "$d" --metric f1 \
         --positive 1 -q)
    mb=$(metric_of)
    tf=$(best_time "$pdt" fit --data "$data/$f.txt" --format dl85 --rules binary --depth "$d" --metric f1 \
         --positive 1 -q --engine fused)
    mf=$(metric_of)
    same=no; [[ -n $mb && $mb == "$mf" ]] && same=yes
    [[ $tf == timeout ]] && same=-
    printf '%-20s %2s %-16s %9s %9s %6s %s\n' "$f" "$d" "${mb% *}" "$tb" "$tf" "${mb##* }" "$same"
  done
done

echo
printf '%-28s %-12s %2s %-22s %9s %6s\n' data rules d f1 fused_s front
for n in 20 40; do
  bash "$here/bench/gen_conic2d.sh" "$n" 1 > "$tmp/conic$n.csv"
  for rules in axis hyperplane hypersurface; do
    for d in 1 2; do
      [[ $rules == hypersurface && $n -gt 20 ]] && continue
      t=$(best_time "$pdt" fit --data "$tmp/conic$n.csv" --rules "$rules" --depth "$d" --metric f1 -q)
      m=$(metric_of)
      printf '%-28s %-12s %2s %-22s %9s %6s\n' "conic2d N=$n" "$rules" "$d" "${m% *}" "$t" "${m##* }"
    done
  done
done
