#!/usr/bin/env bash
# Axis-parallel trees: the fused engine over the D·N candidate list against
# the binary-feature backend (engine auto, rules/axis_solve.c) on the same
# data and limits.  Not a test: prints a table (same optimum required).
# Usage: bench/axis_backend.sh [path/to/pdt]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pdt=${1:-$here/../build/pdt}
data=${PDT_SHARED_DATA:-$here/../../shared/data}/csv
printf '%-10s %5s %5s %10s %10s %10s %10s\n' data K depth fused auto fused_s auto_s
run() { # file K depth
  local f=$1 k=$2 d=$3 out t0 t1 t2 a b
  t0=$(date +%s.%N)
  a=$("$pdt" fit --data "$data/$f" --rules axis --size "$k" --depth "$d" --engine fused -q --skip-nonnumeric | awk '{print $2}')
  t1=$(date +%s.%N)
  b=$("$pdt" fit --data "$data/$f" --rules axis --size "$k" --depth "$d" -q --skip-nonnumeric | awk '{print $2}')
  t2=$(date +%s.%N)
  [[ $a == "$b" ]] || { echo "MISMATCH on $f K=$k depth=$d: $a vs $b" >&2; exit 1; }
  printf '%-10s %5s %5s %10s %10s %10.3f %10.3f\n' "$f" "$k" "$d" "$a" "$b" \
    "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
}
for k in 3 4 5 7; do run iris.csv "$k" 3; done
for k in 3 4 5; do run wine.csv "$k" 3; done
for k in 3 7; do run zoo.csv "$k" 3; done
for k in 3 7; do run monk2.csv "$k" 3; done
