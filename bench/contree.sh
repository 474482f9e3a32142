#!/usr/bin/env bash
# shellcheck disable=SC2059  # the table formats are kept in variables on purpose
# pdt against the peer solver ConTree (Brita, van der Linden, Demirovic, AAAI 2025)
# on the continuous-feature data of its paper: axis-parallel trees of maximum depth D,
# minimum misclassifications.  Not a test: prints a table, flags every optimum that
# differs from shared/data/continuous/REFERENCE.tsv with MISMATCH and then exits 1
# (also when a run fails; a timeout is not a failure).
#
# Usage: bench/contree.sh [--pdt-only] [FILE_REGEX] [DEPTHS]
#   FILE_REGEX  extended regex on the file name (default: all rows), e.g. 'bank|raisin'
#   DEPTHS      comma/space separated depths (default: all rows), e.g. 2 or 2,3
# Environment:
#   PDT               pdt binary (default: build/pdt next to this script)
#   CONTREE           ConTree command-line binary (required unless --pdt-only);
#                     (ConTree's public command-line program; this script only runs it)
#   BENCH_TIME_LIMIT  per-run wall limit in seconds, via timeout(1) (default 300)
#   PDT_ARGS          extra arguments for 'pdt fit' (e.g. '--memo-mb 256')
#   PDT_SHARED_DATA   shared data directory (default: ../../shared/data from here)
# Each run is one process under /usr/bin/time -f '%e %U %M' (file reading included);
# a run under a second is repeated five times and its median wall time shown;
# a run that exceeds the limit prints "timeout" (its MB is the peak until killed)
# and the script carries on.
# ConTree reads "label f1 f2 ..." (space separated, no header): the CSVs are converted
# into a temporary directory first (not timed).
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)

pdt_only=0
if [[ ${1:-} == --pdt-only ]]; then pdt_only=1; shift; fi
if [[ ${1:-} == -h || ${1:-} == --help ]]; then awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0; fi
file_re=${1:-.}
depths=${2:-}
depths=${depths//,/ }

root=$(cd "$here/.." && pwd)
pdt=${PDT:-$root/build/pdt}
contree=${CONTREE:-}
limit=${BENCH_TIME_LIMIT:-300}
read -r -a pdt_args <<< "${PDT_ARGS:-}"
data=${PDT_SHARED_DATA:-$(cd "$root/.." && pwd)/shared/data}/continuous
ref=$data/REFERENCE.tsv

[[ -x $pdt ]] || { echo "pdt binary not found: $pdt (set PDT)" >&2; exit 2; }
if (( pdt_only )); then
  contree=""
else
  [[ -n $contree ]] || { echo "set CONTREE to the ConTree binary (or pass --pdt-only)" >&2; exit 2; }
  [[ -x $contree ]] || { echo "ConTree binary not executable: $contree" >&2; exit 2; }
fi
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time missing (apt-get install -y time)" >&2; exit 2; }
[[ -r $ref ]] || { echo "reference table not found: $ref" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pdt-contree.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. "$here/contree_lib.sh"

# optimum printed by each solver ("" if none); pdt marks a not-proven value with "(np)"
pdt_value() { # out
  awk '$1 == "objective" { v = $2; if ($3 != "(optimal),") v = v "(np)" } END { print v }' "$1"
}
contree_value() { # out
  if grep -q 'Error! reported and observed' "$1"; then echo ""; return; fi
  awk -F': ' '$1 == "Misclassification score" { v = $2 } END { print v }' "$1"
}

cell() { # status value -> table cell
  case $1 in ok) echo "${2:-?}" ;; timeout) echo timeout ;; *) echo error ;; esac
}

fmt='%-14s %5s %7s %9s %9s %9s %9s %9s %7s %7s %s\n'
printf "$fmt" file depth ref pdt contree pdt_s contree_s ratio pdt_MB ct_MB note
echo "# time limit ${limit} s per run; pdt=$pdt${PDT_ARGS:+ $PDT_ARGS}; contree=${contree:-none}"

mismatches=0 errors=0 rows=0
while IFS=$'\t' read -r f d want _; do
  [[ $f == \#* || $f == file || -z $f ]] && continue
  [[ $f =~ $file_re ]] || continue
  if [[ -n $depths ]]; then
    [[ " $depths " == *" $d "* ]] || continue
  fi
  rows=$((rows + 1))
  note=""

  run_median "$tmp/pdt.out" "$pdt" fit --data "$data/$f" --rules axis --depth "$d" -q "${pdt_args[@]}"
  ps=$R_STATUS pw=$R_WALL pm=$R_RSS pv=$(pdt_value "$tmp/pdt.out")
  [[ $ps == ok && -z $pv ]] && ps=error
  pcell=$(cell "$ps" "$pv")
  [[ $ps == timeout ]] && pw=">$limit"
  if [[ $ps == ok && $pv != "$want" ]]; then
    if [[ $pv == *"(np)" ]]; then note+=" pdt-not-proven"; else note+=" MISMATCH(pdt)"; mismatches=$((mismatches + 1)); fi
  fi
  [[ $ps == error ]] && { note+=" pdt-error"; errors=$((errors + 1)); }

  cs=skip cw=- cm=- ccell=-
  if (( !pdt_only )); then
    base=${f%.csv}
    [[ -s $tmp/$base.txt ]] || to_contree "$data/$f" "$tmp/$base.txt"
    # ConTree's own limit (-time) is set past ours so that an unfinished run is killed
    # (it would otherwise print a possibly non-optimal tree without saying so)
    run_median "$tmp/ct.out" "$contree" -file "$tmp/$base.txt" -max-depth "$d" -time $((limit + 60))
    cs=$R_STATUS cw=$R_WALL cm=$R_RSS cv=$(contree_value "$tmp/ct.out")
    [[ $cs == ok && -z $cv ]] && cs=error
    ccell=$(cell "$cs" "$cv")
    [[ $cs == timeout ]] && cw=">$limit"
    if [[ $cs == ok && $cv != "$want" ]]; then note+=" MISMATCH(contree)"; mismatches=$((mismatches + 1)); fi
    [[ $cs == error ]] && { note+=" contree-error"; errors=$((errors + 1)); }
  fi

  # ratio pdt/ConTree wall (bounded when one side timed out); 0.001 s floor
  ratio=-
  if [[ $ps == ok && $cs == ok ]]; then
    ratio=$(awk -v a="$pw" -v b="$cw" 'BEGIN { if (b < 0.001) b = 0.001; printf "%.2f", a / b }')
  elif [[ $ps == timeout && $cs == ok ]]; then
    ratio=">"$(awk -v a="$limit" -v b="$cw" 'BEGIN { if (b < 0.001) b = 0.001; printf "%.0f", a / b }')
  elif [[ $ps == ok && $cs == timeout ]]; then
    ratio="<"$(awk -v a="$pw" -v b="$limit" 'BEGIN { printf "%.3f", a / b }')
  fi
  printf "$fmt" "$f" "$d" "$want" "$pcell" "$ccell" "$pw" "$cw" "$ratio" "$pm" "$cm" "${note# }"
done < "$ref"

(( rows > 0 )) || { echo "no row of $ref matches \"$file_re\"${depths:+ at depths $depths}" >&2; exit 2; }
if (( mismatches + errors )); then
  echo "FAILED: $mismatches optimum/optima differ from the reference (MISMATCH), $errors run(s) failed" >&2
  exit 1
fi
echo "# all finished runs match the reference"
