#!/usr/bin/env bash
# Seeded random non-crossing segments for `pdt bsp`: integer endpoints in
# [0, 1000)^2, lengths 50..300, a candidate touching or crossing an earlier
# segment is redrawn (exact integer orientation tests).
# Usage: bench/gen_segments.sh N SEED > segments.txt
set -euo pipefail
python3 - "$1" "$2" <<'PY'
import random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
def orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
def on_segment(a, b, c):  # c collinear with a, b: within the box?
    return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])
def meet(s, t):
    a, b = s; c, d = t
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0: return True
    return any(o == 0 and on_segment(p, q, r) for o, p, q, r in
               ((o1, a, b, c), (o2, a, b, d), (o3, c, d, a), (o4, c, d, b)))
segs = []
while len(segs) < n:
    a = (rng.randrange(1000), rng.randrange(1000))
    length = rng.uniform(50, 300)
    import math
    ang = rng.uniform(0, math.pi)
    b = (round(a[0] + length * math.cos(ang)), round(a[1] + length * math.sin(ang)))
    if a == b or not (0 <= b[0] < 1000 and 0 <= b[1] < 1000): continue
    s = (a, b)
    if any(meet(s, t) for t in segs): continue
    segs.append(s)
print("# %d random non-crossing segments, seed %d" % (n, seed))
for (a, b) in segs: print(a[0], a[1], b[0], b[1])
PY
