"""Categorical data from pandas: a DataFrame with string categories and labels
fits, and equals `pdt fit` on the same file (objective, tree, predictions);
multiway and one-hot trees are walked here by hand from tree_ (the oracle
for prediction, unseen categories included); models cross between Python and
the command; missing values follow the command's policies."""
import json
import pickle
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import pdt
from conftest import data_path, run_pdt
from test_cli_agreement import cli_predictions

TTT = "categorical/tic-tac-toe.csv"
MONK = "monk1.csv"


def tic_tac_toe():
    df = pd.read_csv(data_path(TTT))
    return df.iloc[:, :-1], df.iloc[:, -1].to_numpy()


def monk1():
    df = pd.read_csv(data_path(MONK), encoding="utf-8-sig")
    return df.iloc[:, :-1], df.iloc[:, -1].to_numpy()


def cli_fit(pdt_bin, tmp_path, data, *args):
    path = str(tmp_path / "cli.json")
    run_pdt(pdt_bin, "fit", "--data", data, *args, "-o", path, "-q")
    with open(path, encoding="utf-8") as f:
        return path, json.load(f)


def walk(clf, row):
    """The node a row reaches, from tree_ alone: a multiway node takes the way
    "col = v" of the row's value (none: the row stops there); a one-hot node
    "col ≠ v" goes left when the value is not v."""
    t, k = clf.tree_, 0
    while not t.is_leaf[k]:
        if t.ways[k]:
            nxt = [c for text, c in t.ways[k] if text == f"{t.rule[k]} = {row[t.rule[k]]}"]
            if not nxt:
                return k
            k = nxt[0]
            continue
        column, value = t.rule[k].split(" ≠ ")
        k = t.children_left[k] if str(row[column]) != value else t.children_right[k]
    return k


def test_dataframe_with_string_categories_and_labels_fits(tmp_path, pdt_bin):
    """tic-tac-toe (x / o / b cells, labels positive / negative) as pandas reads it."""
    X, y = tic_tac_toe()
    assert X.dtypes.eq(object).all()
    path, doc = cli_fit(pdt_bin, tmp_path, data_path(TTT), "--rules", "categorical", "--sparse", "0.01")
    clf = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01").fit(X, y)
    assert clf.optimal_ and doc["optimal"]
    assert clf.objective_ == Fraction(doc["objective"])
    errors = int(np.sum(clf.predict(X) != y))  # the objective is errors/N + 0.01 * branch nodes
    assert clf.objective_ == Fraction(errors, len(y)) + Fraction(1, 100) * clf.tree_.size
    cli_text = run_pdt(pdt_bin, "fit", "--data", data_path(TTT), "--rules", "categorical", "--sparse", "0.01")
    # the command line's tree: between its heading and its summary ("objective ...", then the
    # root work's balance when threads shared it)
    cli_tree = cli_text.split("\nobjective ")[0].splitlines()[1:]
    assert clf.tree_.size == doc["size"] and clf.to_text().splitlines()[1:] == cli_tree
    assert any(len(w) == 3 for w in clf.tree_.ways)  # multiway nodes: b, o, x
    assert list(clf.predict(X)) == cli_predictions(pdt_bin, path, data_path(TTT))
    reached = [walk(clf, r) for r in X.to_dict("records")]
    assert list(clf.apply(X)) == reached
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[clf.tree_.label[reached]])


def test_binary_one_hot_equals_cli(tmp_path, pdt_bin):
    X, y = tic_tac_toe()
    path, doc = cli_fit(pdt_bin, tmp_path, data_path(TTT), "--rules", "binary", "--depth", "3")
    clf = pdt.OptimalTreeClassifier(rules="binary", max_depth=3).fit(X, y)
    assert clf.objective_ == Fraction(doc["objective"]) == np.sum(clf.predict(X) != y)
    assert list(clf.predict(X)) == cli_predictions(pdt_bin, path, data_path(TTT))
    assert all("≠" in r for r, leaf in zip(clf.tree_.rule, clf.tree_.is_leaf) if not leaf)
    assert list(clf.apply(X)) == [walk(clf, r) for r in X.to_dict("records")]


def test_unseen_category_at_predict():
    """A cell value never seen in the fit: the multiway node stops the row
    (its majority), a one-hot test sends it to the ≠ side; no crash."""
    X, y = tic_tac_toe()
    multi = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01").fit(X, y)
    onehot = pdt.OptimalTreeClassifier(rules="binary", max_depth=3).fit(X, y)
    new = X.head(20).copy()
    new.iloc[:, :] = np.where(np.arange(20)[:, None] % 3 == np.arange(9)[None, :] % 3, "z", new.to_numpy())
    for clf in (multi, onehot):
        leaves = clf.apply(new)
        assert list(leaves) == [walk(clf, r) for r in new.to_dict("records")]
        np.testing.assert_array_equal(clf.predict(new), clf.classes_[clf.tree_.label[leaves]])
        proba = clf.predict_proba(new)
        np.testing.assert_allclose(proba.sum(axis=1), 1)
    assert np.any(multi.apply(new) == 0)  # middle-middle is "z": stopped at the root
    assert multi.predict(new.iloc[[1]])[0] == multi.classes_[multi.tree_.label[0]]  # row 2: z in columns 2, 5, 8


def test_monk_codes_as_categories(tmp_path, pdt_bin):
    """monk1's integer codes made categorical (categorical=, or pandas
    category dtype) equal `--categorical`; the optima are Branches' published
    ones (REFERENCE_BRANCHES.tsv: multiway 0 errors 10 splits, one-hot 0 errors 6 splits)."""
    X, y = monk1()
    cols = list(X.columns)
    forced = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01", categorical=cols).fit(X, y)
    by_index = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01", categorical=list(range(6))).fit(X, y)
    dtype = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01").fit(X.astype("category"), y)
    assert forced.objective_ == by_index.objective_ == dtype.objective_ == Fraction(1, 10)
    assert forced.tree_.size == 10
    path, doc = cli_fit(pdt_bin, tmp_path, data_path(MONK), "--rules", "categorical", "--sparse", "0.01",
                        "--categorical", ",".join(cols))
    assert Fraction(doc["objective"]) == forced.objective_
    assert forced.to_text().splitlines()[1:] == dtype.to_text().splitlines()[1:]
    np.testing.assert_array_equal(forced.predict(X), dtype.predict(X.astype("category")))
    onehot = pdt.OptimalTreeClassifier(rules="binary", sparse="0.01", max_depth=4, categorical=cols).fit(X, y)
    assert onehot.objective_ == Fraction(6, 100)
    with pytest.raises(ValueError, match="categorical: no column 'nope'"):
        pdt.OptimalTreeClassifier(categorical=["nope"]).fit(X, y)


def test_models_cross_with_the_cli(tmp_path, pdt_bin):
    """Saved in Python, `pdt predict` on the CSV agrees; fitted by `pdt fit -o`,
    pdt.load predicts the DataFrame alike; pickling keeps the multiway tree."""
    X, y = tic_tac_toe()
    clf = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01").fit(X, y)
    mine = str(tmp_path / "py.json")
    clf.save(mine)
    assert cli_predictions(pdt_bin, mine, data_path(TTT)) == list(clf.predict(X))
    path, _ = cli_fit(pdt_bin, tmp_path, data_path(TTT), "--rules", "binary", "--depth", "2")
    loaded = pdt.load(path)
    assert list(loaded.predict(X)) == cli_predictions(pdt_bin, path, data_path(TTT))
    back = pickle.loads(pickle.dumps(clf))
    assert back.tree_.ways == clf.tree_.ways and back.objective_ == clf.objective_
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))
    again = pdt.load(mine)
    np.testing.assert_array_equal(again.predict(X), clf.predict(X))
    assert "middle-middle = o" in clf.to_dot() and "elif" in clf.to_text()


def test_missing_values_refused_or_as_the_cli(tmp_path, pdt_bin):
    X, y = tic_tac_toe()
    holes = X.copy()
    holes.iloc[3, 4] = np.nan  # row 4, column 5 (middle-middle)
    holes.iloc[10, 0] = None
    holes.iloc[12, 2] = "?"
    with pytest.raises(ValueError, match=r'row 4, column 5 \("middle-middle"\): missing value; .*missing drop'):
        pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01").fit(holes, y)
    y = y.astype(object)
    y[20] = None  # a missing label: --missing drop leaves the row out, the others refuse it
    csv = str(tmp_path / "holes.csv")
    out = holes.fillna("?")
    out["class"] = y
    out["class"] = np.where(np.arange(len(y)) == 20, "?", out["class"])
    out.to_csv(csv, index=False)
    _, doc = cli_fit(pdt_bin, tmp_path, csv, "--rules", "categorical", "--sparse", "0.01", "--missing", "drop")
    dropped = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01", missing="drop").fit(holes, y)
    assert dropped.objective_ == Fraction(doc["objective"])
    assert len(dropped.predict(holes)) == len(y)  # predict keeps every row: a missing cell is the category "?"
    y_missing = y.copy()
    y[20] = y[21]
    out["class"] = y
    out.to_csv(csv, index=False)
    _, doc = cli_fit(pdt_bin, tmp_path, csv, "--rules", "categorical", "--sparse", "0.01", "--missing", "category")
    with pytest.raises(ValueError, match="row 21: the label is missing"):
        pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01", missing="category").fit(X, y_missing)
    as_category = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01", missing="category").fit(holes, y)
    assert as_category.objective_ == Fraction(doc["objective"])
    assert len(as_category.predict(holes)) == len(y)
    kept = np.ones(len(y), dtype=bool)
    kept[[3, 10, 12, 20]] = False
    same = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01").fit(X[kept], y[kept])
    assert dropped.objective_ == same.objective_


def test_plot_draws_every_way():
    """plot(ax): one edge per way, labelled with its category; a multiway node
    says what an unseen category gets."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    X, y = tic_tac_toe()
    clf = pdt.OptimalTreeClassifier(rules="categorical", sparse="0.01").fit(X, y)
    fig, ax = plt.subplots()
    clf.plot(ax)
    texts = [t.get_text() for t in ax.texts]
    t = clf.tree_
    assert len(ax.lines) == sum(len(w) for w in t.ways) == t.node_count - 1
    assert texts.count("o") >= sum(1 for w in t.ways for text, _ in w if text.endswith(" = o"))
    assert f"middle-middle\n(other: {clf.classes_[t.label[0]]})" in texts
    assert sum(1 for s in texts if s.startswith(("positive\n", "negative\n"))) == t.n_leaves
    plt.close(fig)
    assert clf.plot().count("middle&#45;middle = ") == 3  # libpdt's SVG: an edge label per way of the root


def test_metric_fits_with_multiway_splits(tmp_path, pdt_bin):
    """metric= with rules="categorical" (issue 10): the objective is the metric
    of the tree's own predictions, and equals `pdt fit` on the same file."""
    X, y = tic_tac_toe()
    for metric in ("f1", "mcc", "fm"):
        clf = pdt.OptimalTreeClassifier(rules="categorical", max_depth=2, metric=metric,
                                        positive="positive").fit(X, y)
        p = clf.predict(X)
        tp = int(np.sum((p == "positive") & (y == "positive")))
        fp = int(np.sum((p == "positive") & (y != "positive")))
        fn = int(np.sum((p != "positive") & (y == "positive")))
        tn = int(np.sum((p != "positive") & (y != "positive")))
        if metric == "f1":
            want = Fraction(2 * tp, 2 * tp + fp + fn)
        elif metric == "fm":
            want = Fraction(tp * tp, (tp + fp) * (tp + fn))
        else:
            want = Fraction((tp * tn - fp * fn) ** 2, (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        assert clf.objective_ == want and clf.optimal_
        assert any(clf.tree_.ways[k] for k in range(len(clf.tree_.is_leaf)))
        _, doc = cli_fit(pdt_bin, tmp_path, data_path(TTT), "--rules", "categorical", "--depth", "2",
                         "--metric", metric, "--positive", "positive")
        assert Fraction(doc["metric"].get("exact", doc["metric"].get("mcc_squared"))) == want


def test_numeric_family_warns_about_the_categories_it_leaves_out():
    """A numeric family on a mixed table is fitted on its numeric columns, and says so
    (as `pdt fit` notes it); families that test categories use them, silently."""
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5], "colour": ["red", "blue", "red", "green", "blue"],
                       "size": ["s", "m", "s", "m", "s"]})
    y = np.array(["p", "q", "p", "q", "p"])
    with pytest.warns(UserWarning, match="the categorical columns colour, size are not used"):
        clf = pdt.OptimalTreeClassifier(max_depth=2).fit(df, y)
    assert list(clf.model_.features) == ["a"]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pdt.OptimalTreeClassifier(rules="binary", max_depth=2).fit(df, y)
        pdt.OptimalTreeClassifier(rules="categorical", max_depth=2).fit(df, y)
        pdt.OptimalTreeClassifier(max_depth=2).fit(df[["a"]], y)
