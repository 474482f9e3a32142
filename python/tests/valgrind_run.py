"""Run by scripts/check under valgrind (not a pytest module): every function of
the binding once, a fit interrupted by KeyboardInterrupt and one stopped by its
progress callback.  scripts/check fails on any invalid access and on any block
definitely lost with a frame of pdt's own (CPython and numpy keep module state
until exit, which valgrind reports too)."""
import sys, threading, _thread
sys.modules['sklearn'] = None   # numpy only: keeps the run short
import numpy as np, pdt, tempfile, os
rng = np.random.default_rng(1)
X = rng.integers(0, 1000, (60, 2)).astype(float); y = rng.integers(0, 2, 60)
t = threading.Timer(1.0, _thread.interrupt_main); t.start()
try:
    pdt.OptimalTreeClassifier(rules="hyperplane", max_size=4, time_limit=60).fit(X, y)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
t.join()
def stop(p): raise RuntimeError("stop")
try:
    pdt.OptimalTreeClassifier(rules="hyperplane", max_size=4, time_limit=60, progress=stop).fit(X, y)
except RuntimeError:
    print("callback stopped it")
Xi = rng.normal(size=(40, 3)); yi = rng.integers(0, 3, 40)
c = pdt.OptimalTreeClassifier(max_depth=2).fit(Xi, yi)
c.predict(Xi); c.predict_proba(Xi); c.to_text(); c.tree_
d = tempfile.mkdtemp(); p = os.path.join(d, "m.json"); c.save(p); pdt.load(p).predict(Xi)
cells = np.array([["0.1", "1/3"], ["2", "-5"], ["7", "0.5"]], dtype=object)
pdt.OptimalTreeClassifier(max_depth=1).fit(cells, [0, 1, 0]).predict(cells)
for bad in (dict(rules="nosuch"), dict(sparse="x")):
    try: pdt.OptimalTreeClassifier(max_depth=1, **bad).fit(Xi, yi)
    except ValueError: pass
try: pdt.OptimalTreeClassifier().fit(np.array([["a"], ["b"]], dtype=object), [0, 1])
except ValueError: pass
print(pdt.chain([30, 35, 15, 5, 10, 20, 25]))
print(pdt.kdtree(Xi[:8], weights=np.arange(1, 9.0))["cost"])
print(pdt.count_trees(Xi[:6, :2], size=2)["proper"])
print(pdt.bsp([(0, 0, 1, 0), (0, 1, 1, 1.5)])["nodes"])
try: pdt.bsp("0 0 0 0\n")
except ValueError: pass
# categorical columns: codes into names as doubles, and as texts beside exact numbers; multiway ways
cat = np.array([["red", 1.0], ["blue", 2.0], [None, 1.0], ["red", 2.0], ["green", 1.0], ["blue", 2.0]], dtype=object)
m = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01", missing="category").fit(cat, [0, 1, 0, 0, 1, 1])
m.tree_; m.to_text(); m.predict(np.array([["pink", 1.0], [None, 2.0]], dtype=object))
cat[:, 1] = ["0.5", "1", "0.5", "1/3", "1", "2"]
pdt.OptimalTreeClassifier(rules="axis,binary", max_depth=2, missing="drop").fit(cat, [0, 1, 0, 0, 1, 1]).predict(cat)
try: pdt.OptimalTreeClassifier(rules="binary", max_depth=1).fit(cat, [0, 1, 0, 0, 1, 1])
except ValueError: pass
