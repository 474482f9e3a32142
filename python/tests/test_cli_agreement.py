"""A fit in Python equals `pdt fit` on the same file (same objective, same
predictions), and models cross between the two: saved from Python, predicted
by `pdt predict`; fitted by `pdt fit -o`, loaded and predicted in Python."""
import json
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import pdt
from conftest import data_path, read_csv, read_dl85, run_pdt

CASES = [  # (file, reader, depth)
    ("iris.csv", read_csv, 3),
    ("wine.csv", read_csv, 2),
    ("dl85/hepatitis.txt", read_dl85, 3),
]


def cli_predictions(pdt_bin, model, data):
    out = run_pdt(pdt_bin, "predict", "--model", model, "--data", data, "-o", "-", "-q")
    lines = [l for l in out.splitlines() if l and l[0].isdigit()]
    return [l.split(",")[1] for l in lines]


def exact_csv(path, X, y):
    """X's doubles written as their exact decimal expansions (Decimal(float)),
    so `pdt` reads the very rationals Python fitted on."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(",".join(list(X.columns) + ["label"]) + "\n")
        for row, label in zip(X.to_numpy(dtype=float), y):
            f.write(",".join(str(Decimal(v)) for v in row) + f",{label}\n")


@pytest.mark.parametrize("name,reader,depth", CASES)
def test_fit_equals_cli(tmp_path, pdt_bin, name, reader, depth):
    X, y = reader(name)
    model = str(tmp_path / "cli.json")
    run_pdt(pdt_bin, "fit", "--data", data_path(name), "--depth", str(depth), "-o", model, "-q")
    with open(model, encoding="utf-8") as f:
        doc = json.load(f)
    clf = pdt.OptimalTreeClassifier(max_depth=depth).fit(X, y)
    assert clf.optimal_ and doc["optimal"]
    assert clf.objective_ == doc["objective"]
    assert clf.tree_.size == doc["size"]
    # predictions on the training rows: Python's on its doubles, the CLI's on the file's decimals
    # (both trees split between the same neighbouring values, so the sides agree)
    theirs = cli_predictions(pdt_bin, model, data_path(name))
    assert len(theirs) == len(y)
    np.testing.assert_array_equal(clf.predict(X).astype(float), np.array(theirs, dtype=float))


SPARSE_CASES = [  # (file, reader, rules, lambda): the branch search, no limit
    ("iris.csv", read_csv, "axis", "0.001"),
    ("dl85/hepatitis.txt", read_dl85, "binary", "0.01"),
]


@pytest.mark.parametrize("name,reader,rules,lam", SPARSE_CASES)
def test_unlimited_sparse_equals_cli(tmp_path, pdt_bin, name, reader, rules, lam):
    """sparse with rules "axis" or "binary" and no limit is `pdt fit --sparse`
    without one: trees of any size, not the default depth (iris with axis
    rules at 0.001: 7 nodes, depth 5; hepatitis at 0.01: depth 5)."""
    X, y = reader(name)
    model = str(tmp_path / "cli.json")
    run_pdt(pdt_bin, "fit", "--data", data_path(name), "--rules", rules, "--sparse", lam, "-o", model, "-q")
    with open(model, encoding="utf-8") as f:
        doc = json.load(f)
    clf = pdt.OptimalTreeClassifier(rules=rules, sparse=lam).fit(X, y)
    assert clf.optimal_ and doc["optimal"]
    assert clf.objective_ == Fraction(doc["objective"])
    assert clf.tree_.size == doc["size"]
    assert clf.tree_.max_depth > pdt.DEFAULT_MAX_DEPTH
    np.testing.assert_array_equal(clf.predict(X).astype(float),
                                  np.array(cli_predictions(pdt_bin, model, data_path(name)), dtype=float))


def test_python_model_predicts_with_the_cli(tmp_path, pdt_bin):
    X, y = read_csv("iris.csv")
    clf = pdt.OptimalTreeClassifier(max_depth=3).fit(X, y)
    path, data = str(tmp_path / "py.json"), str(tmp_path / "iris_exact.csv")
    clf.save(path)
    exact_csv(data, X, y)
    theirs = cli_predictions(pdt_bin, path, data)
    np.testing.assert_array_equal(np.array(theirs, dtype=float), clf.predict(X).astype(float))
    fitted = str(tmp_path / "cli.json")  # and the CLI on those exact values finds the same optimum
    run_pdt(pdt_bin, "fit", "--data", data, "--depth", "3", "-o", fitted, "-q")
    with open(fitted, encoding="utf-8") as f:
        assert json.load(f)["objective"] == clf.objective_


def test_cli_model_loads_in_python(tmp_path, pdt_bin):
    X, y = read_dl85("dl85/hepatitis.txt")
    path = str(tmp_path / "cli.json")
    run_pdt(pdt_bin, "fit", "--data", data_path("dl85/hepatitis.txt"), "--depth", "3", "-o", path, "-q")
    clf = pdt.load(path)
    assert list(clf.feature_names_in_) == list(X.columns)
    assert list(clf.classes_) == [0, 1]  # the model's class names "0", "1" back as numbers
    assert clf.objective_ == np.sum(clf.predict(X) != y)
    theirs = cli_predictions(pdt_bin, path, data_path("dl85/hepatitis.txt"))
    np.testing.assert_array_equal(clf.predict(X), np.array(theirs, dtype=int))
    clf.save(str(tmp_path / "again.json"))
    np.testing.assert_array_equal(pdt.load(str(tmp_path / "again.json")).predict(X), clf.predict(X))


def test_exact_texts_agree_with_the_cli_everywhere(tmp_path, pdt_bin):
    """Floats cannot hold decimals (3.6 is not 36/10), so a row lying on a CLI
    threshold may fall on the other side; read as text, every value is the
    CLI's rational: the CLI's model predicts the same in Python on every row,
    and a Python fit prints the CLI's thresholds."""
    X = pd.read_csv(data_path("wine.csv"), encoding="utf-8-sig", dtype=str)
    y = X.pop("target").astype(int).to_numpy()
    path = str(tmp_path / "cli.json")
    run_pdt(pdt_bin, "fit", "--data", data_path("wine.csv"), "--depth", "2", "-o", path, "-q")
    clf = pdt.load(path)
    theirs = np.array(cli_predictions(pdt_bin, path, data_path("wine.csv")), dtype=int)
    np.testing.assert_array_equal(clf.predict(X), theirs)
    # The float pitfall itself, on a file made for it: the one threshold is x <= 3.6
    # (a data value), and the double nearest 3.6 lies above 36/10, so as a float the
    # row x = 3.6 falls on the right, read as text on the left.
    small = str(tmp_path / "small.csv")
    with open(small, "w", encoding="utf-8") as f:
        f.write("x,label\n3.5,0\n3.6,0\n3.7,1\n3.8,1\n")
    tiny = str(tmp_path / "tiny.json")
    run_pdt(pdt_bin, "fit", "--data", small, "--depth", "1", "-o", tiny, "-q")
    Xs = pd.DataFrame({"x": ["3.5", "3.6", "3.7", "3.8"]})
    np.testing.assert_array_equal(pdt.load(tiny).predict(Xs), [0, 0, 1, 1])
    np.testing.assert_array_equal(pdt.load(tiny).predict(Xs.astype(float)), [0, 1, 1, 1])
    mine = pdt.OptimalTreeClassifier(max_depth=2).fit(X, y)
    assert mine.objective_ == clf.objective_
    assert mine.to_text().splitlines()[1:] == clf.to_text().splitlines()[1:]
