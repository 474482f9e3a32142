#!/usr/bin/env bash
# Start-up cost (issue 18): the whole process of `pdt --help` and of a depth-2 fit that
# draws nothing, next to an older pdt (PDT_BASE, e.g. one that linked Graphviz and cairo)
# and the peer ConTree when they are given.  Not a test: prints one table.
# Every command runs RUNS times in a loop, one process after the other (stdout to
# /dev/null); the rounds of the solvers are interleaved (ROUNDS of them) so that they share
# the machine's state, and the table gives the fastest round's mean per process.  The
# last column counts the shared objects the process maps (LD_DEBUG=files).
#
# Usage: bench/lean_start.sh [FILE]
#   FILE  data file in shared/data/continuous (default bank.csv)
# Environment:
#   PDT              pdt binary (default: build/pdt next to this script)
#   PDT_BASE         a second pdt binary to compare with (optional)
#   CONTREE          ConTree command-line binary (optional; its "help" is a run without
#                    arguments, which prints its parameters)
#   RUNS, ROUNDS     processes per round (default 200) and rounds (default 3)
#   DEPTH            depth of the fit (default 2)
#   PDT_SHARED_DATA  shared data directory (default: ../../shared/data from here)
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0
fi
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/contree_lib.sh
source "$here/contree_lib.sh"
file=${1:-bank.csv}
data=${PDT_SHARED_DATA:-$here/../../shared/data}/continuous/$file
runs=${RUNS:-200} rounds=${ROUNDS:-3} depth=${DEPTH:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -r $data ]] || { echo "no data file $data" >&2; exit 1; }

names=(pdt) bins=("${PDT:-$root/build/pdt}")
[[ -n ${PDT_BASE:-} ]] && names+=(pdt-base) bins+=("$PDT_BASE")
[[ -n ${CONTREE:-} ]] && { names+=(ConTree) bins+=("$CONTREE"); to_contree "$data" "$tmp/data.txt"; }

help_cmd() { # index
  if [[ ${names[$1]} == ConTree ]]; then echo "${bins[$1]}"; else echo "${bins[$1]} --help"; fi
}
fit_cmd() {
  if [[ ${names[$1]} == ConTree ]]; then echo "${bins[$1]} -file $tmp/data.txt -max-depth $depth"
  else echo "${bins[$1]} fit --data $data --rules axis --depth $depth -q"; fi
}
# loop_ms CMD: mean wall milliseconds per process over $runs processes
loop_ms() {
  local t0 t1 i
  t0=$EPOCHREALTIME
  for ((i = 0; i < runs; i++)); do $1 > /dev/null 2>&1 || true; done
  t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" -v n="$runs" 'BEGIN { printf "%.2f", (b - a) * 1000 / n }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }

declare -A best
for ((r = 0; r < rounds; r++)); do
  for i in "${!names[@]}"; do
    best[help$i]=$(min "$(loop_ms "$(help_cmd "$i")")" "${best[help$i]:-}")
    best[fit$i]=$(min "$(loop_ms "$(fit_cmd "$i")")" "${best[fit$i]:-}")
  done
done
printf '%-10s %14s %22s %8s\n' solver "help (ms)" "$file depth $depth (ms)" objects
for i in "${!names[@]}"; do
  # shellcheck disable=SC2046  # the command is split into words on purpose
  objects=$(env LD_DEBUG=files $(fit_cmd "$i") 2>&1 >/dev/null | grep -c 'generating link map' || true)
  printf '%-10s %14s %22s %8s\n' "${names[$i]}" "${best[help$i]}" "${best[fit$i]}" "$objects"
done
