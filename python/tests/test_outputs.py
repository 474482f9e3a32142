"""Exact input, errors as exceptions, drawings, and the other problems against
independent oracles (textbook DPs written here)."""
import math
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from sklearn.datasets import load_iris

import pdt


def test_doubles_are_exact():
    """0.1 and the next double up are different numbers: one split separates them."""
    lo, hi = 0.1, math.nextafter(0.1, 1.0)
    X = np.array([[lo], [hi], [lo], [hi]])
    clf = pdt.OptimalTreeClassifier(max_depth=1).fit(X, ["a", "b", "a", "b"])
    assert clf.objective_ == 0
    assert list(clf.predict(np.array([[hi], [lo]]))) == ["b", "a"]
    assert "0.1000000000000000055511151231257827021181583404541015625" in clf.to_text()  # Fraction(0.1) in decimal


def test_integer_sample_weights_repeat_rows():
    """libpdt weighs classes, not rows: weight w counts a row w times, exactly."""
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([0, 1, 0])
    stump = pdt.OptimalTreeClassifier(max_size=0)
    assert stump.fit(X, y).objective_ == 1
    assert stump.fit(X, y, sample_weight=[1, 3, 1]).objective_ == 2
    assert list(stump.predict(X)) == [1, 1, 1]
    np.testing.assert_allclose(stump.predict_proba(X[:1]), [[2 / 5, 3 / 5]])
    assert stump.fit(X, y, sample_weight=[0, 1, 0]).objective_ == 0
    with pytest.raises(ValueError, match="integer weights"):
        stump.fit(X, y, sample_weight=[0.5, 1, 1])


def test_library_errors_are_value_errors():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="nosuch"):
        pdt.OptimalTreeClassifier(rules="nosuch", max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="sparse|ALPHA|alpha|decimal"):
        pdt.OptimalTreeClassifier(sparse="abc", max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="metric"):
        pdt.OptimalTreeClassifier(metric="f1").fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        pdt.OptimalTreeClassifier().fit(np.array([[np.nan], [1.0]]), [0, 1])
    with pytest.raises(OSError):
        pdt.load("/nonexistent/model.json")
    with pytest.raises(ValueError, match="max_depth"):
        pdt.OptimalTreeClassifier(max_depth=2**32).fit(X, y)  # would wrap to 0 in C
    with pytest.raises(ValueError, match="max_size"):
        pdt.OptimalTreeClassifier(max_size=-1).fit(X, y)


def test_sparse_and_size_options_reach_the_library():
    X, y = load_iris(return_X_y=True)
    assert pdt.OptimalTreeClassifier(max_size=1).fit(X, y).tree_.size == 1
    # alpha 1 per branch node outweighs any error rate below 1: no split pays
    assert pdt.OptimalTreeClassifier(max_depth=2, sparse="1").fit(X, y).tree_.size == 0


def test_drawings(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    X, y = load_iris(return_X_y=True)
    clf = pdt.OptimalTreeClassifier(max_depth=2).fit(X, y)
    dot = clf.to_dot()
    assert dot.startswith("digraph") and dot.count("->") == 4
    svg = clf.plot()
    assert "<svg" in svg
    fig, ax = plt.subplots()
    assert clf.plot(ax) is ax
    assert len(ax.texts) >= clf.tree_.node_count
    labels = [t.get_text() for t in ax.texts]
    assert "col3 ≤ 1.9" in labels  # the double 1.9 exactly, shown as its repr
    fig.savefig(str(tmp_path / "tree.png"))
    plt.close(fig)


def chain_dp(dims):
    n = len(dims) - 1
    m = [[0] * n for _ in range(n)]
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            m[i][j] = min(m[i][k] + m[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1] for k in range(i, j))
    return m[0][n - 1]


def test_chain_against_the_textbook_dp():
    assert pdt.chain([30, 35, 15, 5, 10, 20, 25])[:2] == (15125, "((A1(A2A3))((A4A5)A6))")
    rng = np.random.default_rng(3)
    for _ in range(20):
        dims = [int(v) for v in rng.integers(1, 10**12, rng.integers(3, 9))]
        cost, order, optimal = pdt.chain(dims)
        assert optimal and cost == chain_dp(dims)  # beyond 64 bits: Python ints, exact


def knuth_bst(weights):
    """Optimal BST cost sum w_i * (depth_i + 1) (Knuth's DP, O(n^3) here)."""
    n = len(weights)
    prefix = [Fraction(0)]
    for w in weights:
        prefix.append(prefix[-1] + w)
    cost = {}
    for length in range(0, n + 1):
        for i in range(0, n - length + 1):
            j = i + length
            if length == 0:
                cost[i, j] = Fraction(0)
            else:
                cost[i, j] = prefix[j] - prefix[i] + min(cost[i, r] + cost[r + 1, j] for r in range(i, j))
    return cost[0, n]


def test_kdtree_in_one_dimension_is_knuths_bst():
    rng = np.random.default_rng(5)
    for _ in range(10):
        n = int(rng.integers(1, 9))
        X = np.sort(rng.choice(1000, n, replace=False)).astype(float).reshape(-1, 1)
        w = rng.integers(1, 50, n).astype(float) / 8
        r = pdt.kdtree(X, weights=w)
        assert r["optimal"]
        assert r["cost"] == knuth_bst([Fraction(v) for v in w])


def test_count_trees_in_one_dimension():
    """On a line every two thresholds nest, so the proper trees on K fixed
    thresholds are the binary search trees on K keys: Catalan(K) of them."""
    X = np.array([[0.5], [1.0], [2.5], [3.0], [4.25], [7.0]])
    for size, catalan in ((1, 1), (2, 2), (3, 5)):
        r = pdt.count_trees(X, size=size)
        assert r["combinations"] == math.comb(r["rules"], size)
        assert r["proper"] == r["combinations"] * catalan


def test_bsp_never_worse_than_a_fixed_order():
    # three segments where the order "first segment first" cuts nothing
    segs = [(0, 0, 1, 0), (0, 1, 1, 1), (0, 2, 1, 2)]
    r = pdt.bsp(segs)
    assert r["optimal"] and r["fragments"] == 3 and r["branch_nodes"] == 3 and r["nodes"] == 7
    # a segment crossing another's line: the best root avoids the cut
    r = pdt.bsp([(0, 0, 2, 0), (1, Fraction(1, 3), 1, 2)])
    assert r["fragments"] == 2
    with pytest.raises(ValueError):
        pdt.bsp([(0, 0, 0, 0)])  # zero length


def test_without_scikit_learn():
    """numpy is the only requirement: with scikit-learn hidden the estimator still fits and predicts."""
    import subprocess
    import sys
    code = ("import sys; sys.modules['sklearn'] = None\n"
            "import numpy as np, pdt\n"
            "X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array(['a', 'a', 'b', 'b'])\n"
            "clf = pdt.OptimalTreeClassifier(max_depth=1).fit(X, y)\n"
            "assert not pdt._HAVE_SKLEARN and clf.objective_ == 0 and list(clf.predict(X)) == list(y)\n"
            "assert clf.score(X, y) == 1.0 and clf.get_params()['max_depth'] == 1\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def test_metric_f1_mcc_fm_any_family():
    """Nonlinear metrics (issue 10): the objective is the metric of the tree's own predictions."""
    from fractions import Fraction
    rng = np.random.default_rng(7)
    X = rng.integers(0, 12, size=(40, 2)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] + rng.integers(-3, 4, size=40) > 13, "yes", "no")
    for rules in ("axis", "hyperplane"):
        for metric in ("f1", "mcc", "fm"):
            clf = pdt.OptimalTreeClassifier(rules=rules, max_depth=2, metric=metric, positive="yes").fit(X, y)
            p = clf.predict(X)
            tp = int(np.sum((p == "yes") & (y == "yes")))
            fp = int(np.sum((p == "yes") & (y == "no")))
            fn = int(np.sum((p == "no") & (y == "yes")))
            tn = int(np.sum((p == "no") & (y == "no")))
            if metric == "f1":
                want = Fraction(2 * tp, 2 * tp + fp + fn)
            elif metric == "fm":
                want = Fraction(tp * tp, (tp + fp) * (tp + fn))
            else:
                want = Fraction((tp * tn - fp * fn) ** 2, (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
            assert clf.objective_ == want and clf.optimal_
    with pytest.raises(ValueError, match="positive"):
        pdt.OptimalTreeClassifier(max_depth=1, metric="f1", positive="maybe").fit(X, y)
    with pytest.raises(ValueError, match="metric"):
        pdt.OptimalTreeClassifier(max_depth=1, metric="auc").fit(X, y)
