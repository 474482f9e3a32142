#!/usr/bin/env bash
# Issue 13: threads and MPI ranks on the root work, measured in one run.
#
#   bench/scaling.sh [BUILD_DIR] [N80_SECONDS]
#
# For hyperplanes K = 2 on N = 200 2-D points (gen_xor2d.sh 200 1) and conics
# K = 2 on N = 40 (gen_conic2d.sh 40 1): pdt fit with --threads 1 and 2, and
# `mpirun -np 2 pdt-mpi fit --threads 1`; the same for the binary backend at
# depth 5 on australian-credit ($DL85_DIR, default ../shared/data/dl85 beside
# the checkout), and for the numeric axis backend at depth 4 on room
# ($CONTINUOUS_DIR).  Prints the median and best wall seconds of $REPEAT
# (default 1) interleaved rounds, the speed-ups against one thread, the
# optimum of each run (they must agree) and the work balance line of the
# closing note (max/mean of the root work per thread or rank); CEILING=1 adds
# two serial copies run at once, the most two cores of this machine give.  ONLY=binary,
# hyperplane, conic, conic60 or numeric (or a list of them) runs only those.  With N80_SECONDS = S it runs
# conics K = 2 on N = 80 with 2 threads and a time limit of S seconds, and
# reports the time to proof (or that the limit struck); N80_RANKS=1 adds one
# thread and `mpirun -np 2` on it.  Conics K = 2 on N = 60 (ONLY=all or
# conic60) is the rank run long enough that the job's fixed start (printed
# first: `mpirun -np 2 pdt-mpi --help`, best of 5) weighs little.  The machine
# has 2 cores and is shared: the load average is printed with every figure.
set -euo pipefail
build=${1:-build}
n80=${2:-0}
here=$(cd "$(dirname "$0")" && pwd)
pdt=$build/pdt
mpi=$build/pdt-mpi
repeat=${REPEAT:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash "$here/gen_xor2d.sh" 200 1 > "$tmp/xor200.csv"
bash "$here/gen_conic2d.sh" 40 1 > "$tmp/conic40.csv"
bash "$here/gen_conic2d.sh" 60 1 > "$tmp/conic60.csv"

# timed TIMEFILE OUTFILE CMD...: CMD's wall and user seconds (children included) to
# TIMEFILE to the millisecond — /usr/bin/time's 10 ms steps are 2 % of a
# 0.44 s run, enough to move a speed-up by 0.04 — and its output to OUTFILE
timed() {
  local tf=$1 of=$2 TIMEFORMAT='%3R %3U'
  shift 2
  { time "$@" > "$of" 2>&1; } 2> "$tf"
}

# run LABEL CMD...: best wall time of $repeat runs (with that run's user
# time, children included); the last run's output kept
run() {
  local label=$1 best="" user=""
  shift
  for ((r = 0; r < repeat; r++)); do
    timed "$tmp/time" "$tmp/out" "$@"
    local s u
    read -r s u < "$tmp/time"
    if [[ -z $best ]] || (($(echo "$s < $best" | bc -l))); then best=$s user=$u; fi
  done
  local obj work
  obj=$(grep -o '^objective [^ ]*' "$tmp/out" | head -1)
  work=$(grep -o 'max/mean [0-9.]*' "$tmp/out" || echo "max/mean -")
  printf '%-38s %8.2f s  user %7.2f s  %-14s %-14s load %s\n' "$label" "$best" "$user" "$obj" "$work" \
    "$(cut -d' ' -f1 /proc/loadavg)"
  echo "$best" > "$tmp/last"
}

# once LABEL CMD...: one run; its wall time appended to $tmp/LABEL.times, its
# output kept in $tmp/out
once() {
  local label=$1
  shift
  timed "$tmp/time" "$tmp/out" "$@"
  local s u
  read -r s u < "$tmp/time"
  echo "$s $u" >> "$tmp/$label.times"
  grep -o '^objective [^ ]*' "$tmp/out" | head -1 > "$tmp/$label.obj" || true
  grep -o 'max/mean [0-9.]*' "$tmp/out" > "$tmp/$label.work" || echo "max/mean -" > "$tmp/$label.work"
}

# pair CMD...: two copies of a one-thread run at once; the later one's wall
# time appended to $tmp/pair.times.  Two independent serial jobs share nothing
# but the machine, so 2 × (one alone) / (the pair) is the most two workers
# can gain here (CEILING=1: the machine's own ceiling for the speed-ups).
pair() {
  timed "$tmp/time.a" /dev/null "$@" &
  timed "$tmp/time.b" /dev/null "$@"
  wait
  sort -n "$tmp/time.a" "$tmp/time.b" | tail -1 >> "$tmp/pair.times"
}

# median of the first column of a file
median() { sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# The runs of a case interleaved, REPEAT rounds of (1 thread, 2 threads, 2
# ranks): this machine's speed drifts by ±30 % within minutes, so runs taken
# one kind after the other compare different machines.  Medians, best and
# the speed-up of the medians; the speed-up of each round on its own.
case_() {
  local name=$1 data=$2
  shift 2
  local kinds="one two" k
  [[ -x $mpi && ${NOMPI:-0} == 0 ]] && kinds="one two ranks"
  rm -f "$tmp"/{one,two,ranks,pair}.times
  for ((r = 0; r < repeat; r++)); do
    once one "$pdt" fit --data "$data" "$@" --threads 1
    once two "$pdt" fit --data "$data" "$@" --threads 2
    [[ $kinds == *ranks* ]] &&
      once ranks mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" fit --data "$data" "$@" --threads 1
    [[ ${CEILING:-0} == 1 ]] && pair "$pdt" fit --data "$data" "$@" --threads 1
  done
  local m1
  m1=$(median "$tmp/one.times")
  for k in $kinds; do
    local label m best user
    case $k in one) label="1 thread" ;; two) label="2 threads" ;; ranks) label="mpirun -np 2" ;; esac
    m=$(median "$tmp/$k.times")
    best=$(sort -n "$tmp/$k.times" | head -1)
    printf '%-44s median %6.3f s  best %6.3f s (user %6.2f s)  %-13s %-14s load %s\n' "$name, $label" "$m" \
      ${best% *} ${best#* } "$(cat "$tmp/$k.obj")" "$(cat "$tmp/$k.work")" "$(cut -d' ' -f1 /proc/loadavg)"
    if [[ $k != one ]]; then
      printf '  speed-up of the medians %5.2f x; by round:' "$(echo "$m1 / $m" | bc -l)"
      paste -d' ' "$tmp/one.times" "$tmp/$k.times" | awk '{printf " %.2f", $1 / $3}'
      echo
    fi
  done
  if [[ ${CEILING:-0} == 1 ]]; then
    local mp
    mp=$(median "$tmp/pair.times")
    printf '%-44s median %6.3f s; the ceiling 2 x %.3f / %.3f = %5.2f x; by round:' "$name, 2 serial copies at once" \
      "$mp" "$m1" "$mp" "$(echo "2 * $m1 / $mp" | bc -l)"
    paste -d' ' "$tmp/one.times" "$tmp/pair.times" | awk '{printf " %.2f", 2 * $1 / $3}'
    echo
  fi
}

echo "bench/scaling.sh: $(date -u +%FT%TZ), $(nproc) cores, $(git -C "$here/.." rev-parse --short HEAD)"
only=${ONLY:-all}
if [[ -x $mpi && ${NOMPI:-0} == 0 ]]; then
  start=$(for _ in 1 2 3 4 5; do
    timed "$tmp/time" /dev/null mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" --help
    cut -d' ' -f1 "$tmp/time"
  done | sort -n | head -1)
  printf '%-38s %8.3f s  (fixed cost of every rank run)\n' "mpirun -np 2 pdt-mpi --help" "$start"
fi
[[ $only == all || " $only " == *" hyperplane "* ]] && case_ "hyperplane K=2 N=200" "$tmp/xor200.csv" --rules hyperplane --size 2
[[ $only == all || " $only " == *" conic "* ]] && case_ "conic K=2 N=40" "$tmp/conic40.csv" --rules hypersurface --size 2
[[ $only == all || " $only " == *" conic60 "* ]] && case_ "conic K=2 N=60" "$tmp/conic60.csv" --rules hypersurface --size 2
dl85=${DL85_DIR:-$here/../../shared/data/dl85}
if [[ ($only == all || " $only " == *" binary "*) && -r $dl85/australian-credit.txt ]]; then
  case_ "binary depth 5 australian-credit" "$dl85/australian-credit.txt" --format dl85 --rules binary --depth 5
fi
# The numeric axis backend at depth 4 on room (10 129 rows × 16 features),
# $CONTINUOUS_DIR (default ../shared/data/continuous beside the checkout).
continuous=${CONTINUOUS_DIR:-$here/../../shared/data/continuous}
if [[ ($only == all || " $only " == *" numeric "*) && -r $continuous/room.csv ]]; then
  case_ "numeric depth 4 room (10129 rows)" "$continuous/room.csv" --rules axis --depth 4
fi
if [[ $n80 != 0 ]]; then
  repeat=1 # minutes per run: once each
  bash "$here/gen_conic2d.sh" 80 1 > "$tmp/conic80.csv"
  run "conic K=2 N=80, 2 threads, limit ${n80}s" "$pdt" fit --data "$tmp/conic80.csv" --rules hypersurface \
    --size 2 --threads 2 --time-limit "$n80"
  grep -E '^objective' "$tmp/out"
  if [[ ${N80_RANKS:-0} == 1 ]]; then
    run "conic K=2 N=80, 1 thread" "$pdt" fit --data "$tmp/conic80.csv" --rules hypersurface --size 2 --threads 1
    run "conic K=2 N=80, mpirun -np 2" mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" fit \
      --data "$tmp/conic80.csv" --rules hypersurface --size 2 --threads 1
  fi
fi
