#!/usr/bin/env bash
# Seeded random 2-D two-class data: N points on a 1/1000 grid in [0,1)^2,
# class = XOR of (x > 0.5) and (y > 0.45), then 10% of labels flipped.
# Usage: gen_xor2d.sh N SEED > file.csv     (deterministic: its own LCG)
set -euo pipefail
n=${1:?N}; seed=${2:-1}
awk -v n="$n" -v seed="$seed" 'BEGIN {
  s = seed * 7919 + 17; M = 2147483647
  print "x,y,class"
  for (i = 0; i < n; i++) {
    s = (s * 48271) % M; x = int(s % 1000)
    s = (s * 48271) % M; y = int(s % 1000)
    s = (s * 48271) % M; flip = (s % 10) == 0
    c = ((x > 500) != (y > 450)) ? 1 : 0
    if (flip) c = 1 - c
    printf "%.3f,%.3f,%d\n", x / 1000, y / 1000, c
  }
}'
