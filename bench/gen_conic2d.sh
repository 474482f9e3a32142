#!/usr/bin/env bash
# Seeded random 2-D two-class data for conic (degree-2) rules: N points on a
# 1/1000 grid in [0,1)^2; class 1 inside one of two ellipses, 0 outside;
# then 10% of labels flipped.  One ellipse is one degree-2 split, both need
# two.  Usage: gen_conic2d.sh N SEED > file.csv   (deterministic: its own LCG)
set -euo pipefail
n=${1:?N}; seed=${2:-1}
awk -v n="$n" -v seed="$seed" 'BEGIN {
  s = seed * 7919 + 17; M = 2147483647
  print "x,y,class"
  for (i = 0; i < n; i++) {
    s = (s * 48271) % M; x = int(s % 1000) / 1000
    s = (s * 48271) % M; y = int(s % 1000) / 1000
    s = (s * 48271) % M; flip = (s % 10) == 0
    a = ((x - 0.30) / 0.24) ^ 2 + ((y - 0.32) / 0.17) ^ 2
    b = ((x - 0.72) / 0.16) ^ 2 + ((y - 0.70) / 0.24) ^ 2
    c = (a < 1 || b < 1) ? 1 : 0
    if (flip) c = 1 - c
    printf "%.3f,%.3f,%d\n", x, y, c
  }
}'
