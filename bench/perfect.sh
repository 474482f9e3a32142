#!/usr/bin/env bash
# shellcheck disable=SC2059  # the table formats are kept in variables on purpose
# The smallest perfect tree (`pdt fit --perfect`) beside InferDT (Avellaneda, AAAI 2020,
# SAT-based), whose answers and times on this machine kind are in
# shared/data/csv/REFERENCE_PERFECT.tsv (split le: thresholds x <= v, pdt --rules axis;
# eq: equality tests x = v, pdt --rules binary --rule-options onehot=*).  Then the DL8.5
# files: the least depth and fewest nodes of a perfect tree where one is found in the limit.
# Not a test: prints tables, flags a depth or size that differs from InferDT's with
# MISMATCH and exits 1 then (a timeout is not a failure).
#
# Usage: bench/perfect.sh [FILE_REGEX]
# Environment:
#   PDT               pdt binary (default: build/pdt next to this script)
#   BENCH_TIME_LIMIT  per-run wall limit in seconds (pdt --time-limit; default 60)
#   BENCH_REPEAT      runs per row, the fastest reported (default 3)
#   PDT_ARGS          extra arguments for 'pdt fit' (e.g. '--threads 1')
#   PDT_SHARED_DATA   shared data directory (default: ../../shared/data from here)
# Each run is one process under /usr/bin/time -f '%e %M' (file reading included).
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
if [[ ${1:-} == -h || ${1:-} == --help ]]; then awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0; fi
file_re=${1:-.}
root=$(cd "$here/.." && pwd)
pdt=${PDT:-$root/build/pdt}
limit=${BENCH_TIME_LIMIT:-60}
repeat=${BENCH_REPEAT:-3}
read -r -a pdt_args <<< "${PDT_ARGS:-}"
shared=${PDT_SHARED_DATA:-$(cd "$root/.." && pwd)/shared/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run FILE ARGS...: fastest of $repeat runs; sets depth size proven wall mb
run() {
  local best=""
  for ((k = 0; k < repeat; k++)); do
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$pdt" fit --data "$@" --time-limit "$limit" \
      "${pdt_args[@]}" -o "$tmp/r.json" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; return 1; }
    read -r w m < "$tmp/time"
    if [[ -z $best ]] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$w; mb=$((m / 1024)); fi
  done
  wall=$best
  read -r depth size proven < <(/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); p = d["perfect"]
print(d["depth"] if p["reached"] else "-", d["size"] if p["reached"] else "-",
      ("yes" if p["depth_proven"] and p["size_proven"] else
       "depth" if p["depth_proven"] else "size" if p["size_proven"] else "no") if p["reached"] else "none")' "$tmp/r.json")
}

status=0
fmt="| %-10s | %-5s | %-9s | %-9s | %-7s | %9s | %9s | %8s | %5s |\n"
printf "$fmt" file split "depth" "nodes" proven "pdt s" "InferDT s" "ratio" MB
printf "$fmt" --- --- --- --- --- --- --- --- ---
while IFS=$'\t' read -r file split want_d depth_s want_s size_s; do
  [[ $file == \#* || $file == file ]] && continue
  [[ $file =~ $file_re ]] || continue
  args=("$shared/csv/$file" --perfect)
  [[ $file == zoo.csv ]] && args+=(--skip animal_name)
  if [[ $split == eq ]]; then args+=(--rules binary --rule-options 'onehot=*'); else args+=(--rules axis); fi
  run "${args[@]}"
  mark=""
  if [[ $depth != "$want_d" || $size != "$want_s" ]]; then mark=" MISMATCH (InferDT $want_d/$want_s)"; status=1; fi
  ratio=$(awk -v a="$wall" -v b="$size_s" 'BEGIN { printf "%.3f", a / b }')
  printf "$fmt" "$file" "$split" "$depth" "$size$mark" "$proven" "$wall" "$size_s" "$ratio" "$mb"
done < "$shared/csv/REFERENCE_PERFECT.tsv"

echo
fmt="| %-22s | %-5s | %-5s | %-7s | %9s | %5s |\n"
printf "$fmt" "DL8.5 file" depth nodes proven "pdt s" MB
printf "$fmt" --- --- --- --- --- ---
for f in "$shared"/dl85/*.txt; do
  name=$(basename "$f")
  [[ $name =~ $file_re ]] || continue
  repeat_saved=$repeat; repeat=1
  run "$f" --rules binary --perfect || { printf "$fmt" "$name" error - - - -; status=1; repeat=$repeat_saved; continue; }
  repeat=$repeat_saved
  printf "$fmt" "$name" "$depth" "$size" "$proven" "$wall" "$mb"
done
exit $status
