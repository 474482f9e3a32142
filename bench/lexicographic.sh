#!/usr/bin/env bash
# Issue 18: the size of the most accurate trees.  For every DL8.5 file at depth 4 and 5 (size
# 2^d − 1), the binary backend's default fit (time, errors, branch nodes, whether the size is
# proven minimal) next to `--lexicographic` (the fewest nodes among the most accurate, proven)
# and STreeD (accuracy task, its own tie-breaking).  Wall time of the whole process, best of
# REPEAT runs (default 3); a run over TIMEOUT seconds (default 300) shows as ">T".  The ratio
# column is lexicographic / default.
#
# STreeD is a peer, not part of pdt: the script only runs the program named by $STREED (a path
# you provide); without it the STreeD columns show "-".
#
# Usage: bench/lexicographic.sh [DATA_DIR]
#        env PDT=path/to/pdt (default: build/pdt), REPEAT=1, DEPTHS="4 5", FILES="mushroom vote",
#            STREED=/path/to/STREED, TIMEOUT=300
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$here/../shared/data/dl85}
pdt=${PDT:-$here/build/pdt}
repeat=${REPEAT:-3}
depths=${DEPTHS:-"4 5"}
limit=${TIMEOUT:-300}
streed=${STREED:-}
[[ -x $pdt ]] || { echo "pdt binary not found: $pdt (set PDT)" >&2; exit 2; }
[[ -z $streed || -x $streed ]] || { echo "STREED=$streed is not executable" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed OUT CMD... : best wall time of REPEAT runs into $best ("" when a run timed out), the
# last run's standard output in OUT.
timed() {
  local out=$1 t
  shift
  best=
  for ((r = 0; r < repeat; r++)); do
    TIMEFORMAT='%R'
    if ! { time timeout "$limit" "$@" >"$out" 2>"$tmp/err"; } 2>"$tmp/time"; then
      best=
      return 0
    fi
    t=$(<"$tmp/time")
    if [[ -z $best ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
  done
}

# pdt_run ARGS... : $p_time $p_err $p_size $p_min (size_minimal from the result document)
pdt_run() {
  timed "$tmp/json" "$pdt" fit --data "$file" --format dl85 --rules binary --depth "$depth" \
    --size "$size" -q -o "$tmp/model.json" "$@"
  p_time=${best:+$(printf '%.3f' "$best")}
  p_time=${p_time:->$limit}
  p_err=- p_size=- p_min=-
  [[ -n $best && -s $tmp/model.json ]] || return 0
  read -r p_err p_size p_min < <(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(d["misclassifications"], d["size"], "yes" if d.get("size_minimal") else "no")' "$tmp/model.json")
  rm -f "$tmp/model.json"
}

streed_run() {
  s_time=- s_err=- s_size=-
  [[ -n $streed ]] || return 0
  timed "$tmp/streed" "$streed" -task accuracy -file "$file" -max-depth "$depth" -max-num-nodes "$size"
  s_time=${best:+$(printf '%.3f' "$best")}
  s_time=${s_time:->$limit}
  [[ -n $best ]] || return 0
  # "Solution 0:  D  N  train-accuracy  ..."
  read -r s_size acc < <(awk '/^Solution 0:/ { print $4, $5 }' "$tmp/streed")
  s_err=$(python3 -c "print(round((1 - float('$acc')) * $n))")
}

echo "# $(date -u '+%F %T UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), best of $repeat"
printf '%-20s %2s %6s | %8s %5s %4s %3s | %8s %5s %4s %6s | %8s %5s %4s\n' dataset d N \
  default_s err size min lex_s err size ratio streed_s err size
for depth in $depths; do
  size=$(( (1 << depth) - 1 ))
  for file in "$data"/*.txt; do
    name=$(basename "$file" .txt)
    [[ -z ${FILES:-} || " $FILES " == *" $name "* ]] || continue
    n=$(wc -l <"$file")
    pdt_run
    d_time=$p_time d_err=$p_err d_size=$p_size d_min=$p_min
    pdt_run --lexicographic
    ratio=-
    [[ $d_time == '>'* || $p_time == '>'* ]] || ratio=$(echo "scale=1; $p_time / ($d_time + 0.0005)" | bc -l)
    streed_run
    printf '%-20s %2s %6s | %8s %5s %4s %3s | %8s %5s %4s %6s | %8s %5s %4s\n' "$name" "$depth" "$n" \
      "$d_time" "$d_err" "$d_size" "$d_min" "$p_time" "$p_err" "$p_size" "$ratio" "$s_time" "$s_err" "$s_size"
  done
done
