#!/usr/bin/env bash
# Issue 5: the binary backend over every DL8.5 file at depth 2, 3, 4 (size 2^d − 1) and at
# depth 5 for the rows REFERENCE.tsv lists, next to the optimum and the MurTree / STreeD wall
# times measured on this machine kind.  Our time is wall time of the whole `pdt fit` process
# (file reading included), as the reference was measured; best of REPEAT runs (default 3).  The
# cpu_s column (user + system, best of the runs) shows how much of the wall time other jobs on a
# shared machine took.
#
# Usage: bench/issue5.sh [BUILD_DIR] [DATA_DIR]     (env REPEAT=1 for one run, DEPTHS="4 5")
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
data=${2:-$here/../shared/data/dl85}
pdt=$build/pdt
ref=$data/REFERENCE.tsv
repeat=${REPEAT:-3}
depths=${DEPTHS:-"2 3 4 5"}
[[ -x $pdt ]] || { echo "no $pdt: build first (cmake -S . -B build && cmake --build build -j)" >&2; exit 2; }
[[ -f $ref ]] || { echo "no $ref" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# ref_field DATASET DEPTH COLUMN -> the value, or empty
ref_field() { awk -F'\t' -v d="$1" -v k="$2" -v c="$3" '$1 == d && $4 == k { print $c }' "$ref"; }

printf '%-18s %6s %5s %3s %6s %5s %8s %8s %8s %8s %s\n' dataset N F d errors ref seconds cpu_s murtree streed match
fail=0
for depth in $depths; do
  for file in "$data"/*.txt; do
    name=$(basename "$file" .txt)
    expect=$(ref_field "$name" "$depth" 6)
    [[ $depth -le 4 || -n $expect ]] || continue # depth 5 only where the reference has it
    size=$(( (1 << depth) - 1 ))
    best= cpu=
    for ((r = 0; r < repeat; r++)); do
      TIMEFORMAT='%R %U %S'
      { time "$pdt" fit --data "$file" --format dl85 --rules binary --depth "$depth" --size "$size" \
          -q >"$tmp/out" 2>"$tmp/err"; } 2>"$tmp/time"
      read -r t u k <"$tmp/time"
      c=$(echo "$u + $k" | bc -l)
      if [[ -z $best ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
      if [[ -z $cpu ]] || (( $(echo "$c < $cpu" | bc -l) )); then cpu=$c; fi
    done
    out=$(<"$tmp/out")
    errors=$(sed -n 's/^objective \([0-9]*\) .*/\1/p' <<<"$out")
    optimal=$(grep -c '(optimal)' <<<"$out" || true)
    n=$(wc -l <"$file")
    f=$(( $(head -1 "$file" | wc -w) - 1 ))
    murtree=$(ref_field "$name" "$depth" 7)
    streed=$(ref_field "$name" "$depth" 8)
    match=yes
    if [[ -z $expect ]]; then match=-; elif [[ $errors != "$expect" || $optimal != 1 ]]; then match=NO; fail=1; fi
    printf '%-18s %6s %5s %3s %6s %5s %8.3f %8.3f %8s %8s %s\n' "$name" "$n" "$f" "$depth" "$errors" \
      "${expect:--}" "$best" "$cpu" "${murtree:--}" "${streed:--}" "$match"
  done
done
exit $fail
