#!/usr/bin/env bash
# shellcheck disable=SC2059  # the table formats are kept in variables on purpose
# How pdt's time grows with the number of rows and with the depth, next to the peer
# solver ConTree (AAAI 2025) when $CONTREE is set.  Not a test: prints two tables.
#  1. avila.csv cut to its first 1000, 5000, 10000 and all rows (header kept) at each
#     depth of DEPTHS, then a least-squares fit of log(wall) against log(N): the
#     measured exponent b in  wall ~ N^b  (finished runs only, at least 2 of them).
#  2. wall time against the depth 1..MAX_DEPTH on FILE.
# A run over the limit prints "timeout"; the larger N (deeper depths) of that solver
# are then skipped.  Exits 1 if an optimum differs from REFERENCE.tsv (MISMATCH; only
# full files have a reference) or a run fails; a timeout is not a failure.
#
# Usage: bench/contree_scaling.sh [DEPTHS] [FILE]
#   DEPTHS  depths of table 1, comma/space separated (default 2; e.g. 2,3)
#   FILE    data file of table 2 in shared/data/continuous (default bank.csv)
# Environment:
#   PDT               pdt binary (default: build/pdt next to this script)
#   CONTREE           ConTree command-line binary (optional: left out when unset)
#   BENCH_TIME_LIMIT  per-run wall limit in seconds, via timeout(1) (default 300)
#   SIZES             row counts of table 1 (default "1000 5000 10000 all")
#   SCALING_FILE      data file of table 1 (default avila.csv)
#   MAX_DEPTH         deepest depth of table 2 (default 4)
#   PDT_ARGS          extra arguments for 'pdt fit'
#   PDT_SHARED_DATA   shared data directory (default: ../../shared/data from here)
# Each run is one process under /usr/bin/time -f '%e %U %M' (file reading included;
# wall is measured around it to the millisecond).  ConTree reads "label f1 f2 ..."
# (space separated, no header): its inputs are converted into a temporary directory.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0
fi
depths=${1:-2}
depths=${depths//,/ }
depth_file=${2:-bank.csv}

root=$(cd "$here/.." && pwd)
pdt=${PDT:-$root/build/pdt}
contree=${CONTREE:-}
limit=${BENCH_TIME_LIMIT:-300}
sizes=${SIZES:-1000 5000 10000 all}
scaling_file=${SCALING_FILE:-avila.csv}
max_depth=${MAX_DEPTH:-4}
read -r -a pdt_args <<< "${PDT_ARGS:-}"
data=${PDT_SHARED_DATA:-$(cd "$root/.." && pwd)/shared/data}/continuous
ref=$data/REFERENCE.tsv

[[ -x $pdt ]] || { echo "pdt binary not found: $pdt (set PDT)" >&2; exit 2; }
[[ -z $contree || -x $contree ]] || { echo "ConTree binary not executable: $contree" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time missing (apt-get install -y time)" >&2; exit 2; }
for f in "$scaling_file" "$depth_file"; do
  [[ -r $data/$f ]] || { echo "data file not found: $data/$f" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pdt-scaling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. "$here/contree_lib.sh"

pdt_value() {
  awk '$1 == "objective" { v = $2; if ($3 != "(optimal),") v = v "(np)" } END { print v }' "$1"
}
contree_value() {
  if grep -q 'Error! reported and observed' "$1"; then echo ""; return; fi
  awk -F': ' '$1 == "Misclassification score" { v = $2 } END { print v }' "$1"
}

# solve SOLVER CSV DEPTH: sets S_STATUS, S_VALUE, S_WALL, S_RSS
solve() {
  local solver=$1 csv=$2 d=$3 txt
  if [[ $solver == pdt ]]; then
    run_timed "$tmp/out" "$pdt" fit --data "$csv" --rules axis --depth "$d" -q "${pdt_args[@]}"
    S_VALUE=$(pdt_value "$tmp/out")
  else
    txt=$tmp/$(basename "$csv" .csv).txt
    [[ -s $txt ]] || to_contree "$csv" "$txt"
    # ConTree's own limit past ours: an unfinished run is killed, not silently cut short
    run_timed "$tmp/out" "$contree" -file "$txt" -max-depth "$d" -time $((limit + 60))
    S_VALUE=$(contree_value "$tmp/out")
  fi
  S_STATUS=$R_STATUS S_WALL=$R_WALL S_RSS=$R_RSS
  [[ $S_STATUS == ok && -z $S_VALUE ]] && S_STATUS=error
  [[ $S_STATUS == error ]] && errors=$((errors + 1))
  case $S_STATUS in
    timeout) S_VALUE=timeout S_WALL=">$limit" ;;
    error) S_VALUE=error ;;
  esac
  return 0
}

reference() { # file depth -> min_misclassifications or "-"
  awk -F'\t' -v f="$1" -v d="$2" '$1 == f && $2 == d { v = $3 } END { print (v == "" ? "-" : v) }' "$ref"
}

mismatches=0 errors=0
solvers=(pdt)
[[ -n $contree ]] && solvers+=(contree)
echo "# time limit ${limit} s per run; pdt=$pdt${PDT_ARGS:+ $PDT_ARGS}; contree=${contree:-none (set CONTREE)}"

# ---- table 1: rows --------------------------------------------------------------
total=$(($(wc -l < "$data/$scaling_file") - 1))
echo
echo "== wall time against rows: $scaling_file (all = $total rows)"
fmt='%-8s %5s %7s %9s %9s %7s %s\n'
printf "$fmt" solver depth N optimum wall_s MB ref
: > "$tmp/points"
for d in $depths; do
  for s in "${solvers[@]}"; do
    stopped=""
    for n in $sizes; do
      if [[ $n == all || $n -ge $total ]]; then
        n=$total csv=$data/$scaling_file
      else
        csv=$tmp/${scaling_file%.csv}_$n.csv
        [[ -s $csv ]] || head -n $((n + 1)) "$data/$scaling_file" > "$csv"
      fi
      want=-
      [[ $n == "$total" ]] && want=$(reference "$scaling_file" "$d")
      if [[ -n $stopped ]]; then
        printf "$fmt" "$s" "$d" "$n" skipped "-" "-" "$want (timeout at N=$stopped)"
        continue
      fi
      solve "$s" "$csv" "$d"
      note=$want
      if [[ $S_STATUS == ok && $want != - && $S_VALUE != "$want" ]]; then
        note+=" MISMATCH"; mismatches=$((mismatches + 1))
      fi
      printf "$fmt" "$s" "$d" "$n" "$S_VALUE" "$S_WALL" "$S_RSS" "$note"
      [[ $S_STATUS == ok ]] && echo "$s $d $n $S_WALL" >> "$tmp/points"
      [[ $S_STATUS == timeout ]] && stopped=$n
    done
  done
done
echo
echo "== fit log(wall) = a + b log(N) over the finished runs above"
for d in $depths; do
  for s in "${solvers[@]}"; do
    awk -v s="$s" -v d="$d" '
      $1 == s && $2 == d { t = ($4 < 0.001 ? 0.001 : $4); x = log($3); y = log(t)
                           n++; sx += x; sy += y; sxx += x * x; sxy += x * y
                           if (n == 1 || $3 < lo) lo = $3; if (n == 1 || $3 > hi) hi = $3 }
      END {
        if (n < 2 || sxx * n - sx * sx == 0) { printf "%-8s depth %s: fewer than 2 finished sizes, no fit\n", s, d; exit }
        b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
        printf "%-8s depth %s: exponent b = %.2f  (wall ~ %.3g * N^%.2f s, %d points, N %d..%d)\n", s, d, b, exp(a), b, n, lo, hi
      }' "$tmp/points"
  done
done

# ---- table 2: depth -------------------------------------------------------------
echo
echo "== wall time against depth: $depth_file ($(($(wc -l < "$data/$depth_file") - 1)) rows)"
fmt2='%5s %7s %9s %9s %7s %9s %9s %7s %9s %s\n'
printf "$fmt2" depth ref pdt pdt_s pdt_MB contree contree_s ct_MB ratio note
pdt_stop="" ct_stop=""
for ((d = 1; d <= max_depth; d++)); do
  want=$(reference "$depth_file" "$d")
  note=""
  if [[ -n $pdt_stop ]]; then
    pv=skipped pw=- pm=- ps=skip
  else
    solve pdt "$data/$depth_file" "$d"
    pv=$S_VALUE pw=$S_WALL pm=$S_RSS ps=$S_STATUS
    [[ $ps == timeout ]] && pdt_stop=$d
    [[ $ps == error ]] && note+=" pdt-error"
    if [[ $ps == ok && $want != - && $pv != "$want" ]]; then
      note+=" MISMATCH(pdt)"; mismatches=$((mismatches + 1))
    fi
  fi
  cv=- cw=- cm=- cs=skip
  if [[ -n $contree ]]; then
    if [[ -n $ct_stop ]]; then
      cv=skipped
    else
      solve contree "$data/$depth_file" "$d"
      cv=$S_VALUE cw=$S_WALL cm=$S_RSS cs=$S_STATUS
      [[ $cs == timeout ]] && ct_stop=$d
      [[ $cs == error ]] && note+=" contree-error"
      if [[ $cs == ok && $want != - && $cv != "$want" ]]; then
        note+=" MISMATCH(contree)"; mismatches=$((mismatches + 1))
      fi
    fi
  fi
  ratio=-
  if [[ $ps == ok && $cs == ok ]]; then
    ratio=$(awk -v a="$pw" -v b="$cw" 'BEGIN { if (b < 0.001) b = 0.001; printf "%.2f", a / b }')
  elif [[ $ps == timeout && $cs == ok ]]; then
    ratio=">"$(awk -v a="$limit" -v b="$cw" 'BEGIN { if (b < 0.001) b = 0.001; printf "%.0f", a / b }')
  fi
  printf "$fmt2" "$d" "$want" "$pv" "$pw" "$pm" "$cv" "$cw" "$cm" "$ratio" "${note# }"
done
if (( mismatches + errors )); then
  echo "FAILED: $mismatches optimum/optima differ from the reference (MISMATCH), $errors run(s) failed" >&2
  exit 1
fi
