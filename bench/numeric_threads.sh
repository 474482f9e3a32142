#!/usr/bin/env bash
# Threads in the numeric axis backend: the same fit with --threads 1 and
# --threads 2 (or $THREADS), one after the other, on files of
# shared/data/continuous. Prints wall seconds, the speed-up, whether the two
# trees are identical (they must be), and the balance of the workers: the
# largest worker's evaluations over the mean, and the same of their CPU
# seconds in root tasks ("balance t"), from PDT_WORKER_STATS=1.  The two
# differ when evaluations cost unlike amounts (room at depth 4: 1.24 by
# evaluations, 1.02 by time).
# Not a test: timings depend on the machine's load (printed first).
#
# Usage: bench/numeric_threads.sh [ROWS]   ROWS: "file:depth ..." (default below)
# Environment: PDT (pdt binary, default build/pdt), THREADS (default 2),
#              PDT_SHARED_DATA (default ../../shared/data from here).
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
pdt=${PDT:-$root/build/pdt}
threads=${THREADS:-2}
data=${PDT_SHARED_DATA:-$(cd "$root/.." && pwd)/shared/data}/continuous
rows=${1:-"bank:3 raisin:3 wilt:3 page:3 segment:3 room:3 fault:3 rice:3 occupancy:3 avila:3 room:4"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; pdt: $pdt"
printf '%-10s %5s %9s %9s %8s %5s %8s %9s\n' file depth "1 thread" "$threads thr" speed-up same balance "balance t"
for row in $rows; do
  f=${row%%:*} d=${row##*:}
  for t in 1 "$threads"; do
    /usr/bin/time -f '%e' -o "$tmp/t$t" env PDT_WORKER_STATS=1 "$pdt" fit --data "$data/$f.csv" --rules axis \
      --depth "$d" --threads "$t" -q -o "$tmp/m$t.json" 2>"$tmp/e$t" >/dev/null
  done
  same=no
  if /usr/bin/python3 - "$tmp/m1.json" "$tmp/m$threads.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a["tree"] == b["tree"] and a["objective"] == b["objective"] else 1)
PY
  then same=yes; fi
  # max/mean of field $1 of the workers' lines in file $2
  ratio() {
    awk -v k="$1" '/^numeric worker/ { e[n++] = $k } END { if (!n) { print "-"; exit }
      s = 0; m = 0; for (i = 0; i < n; i++) { s += e[i]; if (e[i] > m) m = e[i] }
      printf "%.2f", (s > 0) ? m / (s / n) : 1 }' "$2"
  }
  balance=$(ratio 8 "$tmp/e$threads") balance_t=$(ratio 10 "$tmp/e$threads")
  t1=$(tail -1 "$tmp/t1") tn=$(tail -1 "$tmp/t$threads")
  printf '%-10s %5s %9s %9s %8s %5s %8s %9s\n' "$f" "$d" "$t1" "$tn" "$(awk -v a="$t1" -v b="$tn" 'BEGIN { printf "%.2f", a / b }')" \
    "$same" "$balance" "$balance_t"
done
