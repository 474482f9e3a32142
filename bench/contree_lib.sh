# Helpers shared by bench/contree.sh and bench/contree_scaling.sh (sourced; they
# set $tmp, a scratch directory, and $limit, the per-run wall limit in seconds).

# CSV (header, label last) -> ConTree text (no header, label first, space separated)
to_contree() { # csv out
  awk -F, 'NR > 1 && NF > 0 { sub(/\r$/, ""); printf "%s", $NF
           for (i = 1; i < NF; i++) printf " %s", $i; printf "\n" }' "$1" > "$2"
}

# run_timed OUT CMD...: runs CMD under /usr/bin/time and timeout; sets R_STATUS
# (ok|timeout|error), R_WALL (s, 3 decimals), R_RSS (MB)
run_timed() {
  local out=$1 rc=0 t0 t1 kb
  shift
  t0=$EPOCHREALTIME
  /usr/bin/time -f '%e %U %M' -o "$tmp/time" timeout -k 5 "$limit" "$@" > "$out" 2>&1 || rc=$?
  t1=$EPOCHREALTIME
  read -r _ _ kb < <(tail -n 1 "$tmp/time")   # %e %U %M: only the peak RSS is used
  R_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  R_RSS=$(awk -v k="$kb" 'BEGIN { printf "%.0f", k / 1024 }')
  case $rc in
    0) R_STATUS=ok ;;
    124 | 137) R_STATUS=timeout ;;
    *) R_STATUS=error; echo "  [exit $rc: $* ]" >&2; tail -n 3 "$out" | sed 's/^/  | /' >&2 ;;
  esac
}

# run_median OUT CMD...: run_timed, and when the run took under a second, four
# more runs: R_WALL is then the median of five (a single run of a few
# milliseconds mostly measures the machine's noise).  Stops at a failed run.
run_median() {
  local out=$1 walls k
  shift
  run_timed "$out" "$@"
  [[ $R_STATUS == ok ]] || return 0
  walls=("$R_WALL")
  if awk -v w="$R_WALL" 'BEGIN { exit !(w < 1) }'; then
    for k in 1 2 3 4; do
      run_timed "$out" "$@"
      [[ $R_STATUS == ok ]] || return 0
      walls+=("$R_WALL")
    done
    R_WALL=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 3p)
  fi
}
