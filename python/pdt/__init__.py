"""pdt: provably optimal decision trees (a thin binding of libpdt).

    import pdt
    clf = pdt.OptimalTreeClassifier(max_depth=2).fit(X, y)
    clf.predict(X), clf.objective_, clf.optimal_, clf.tree_

Every search runs in libpdt (C); this package converts arrays (each float64
kept as the exact rational it is), maps labels to class codes, and turns the
library's errors into Python exceptions (ValueError carries libpdt's message).
Ctrl-C (KeyboardInterrupt) stops a search within a fraction of a second.
See docs/python.md.
"""
import json
import os
import re
import tempfile
import warnings
from fractions import Fraction

import numpy as np

from . import _pdt
from ._tables import (_MISSING, _categorical_table, _column_kinds, _exact_text, _forced_columns, _has_missing_cells,
                      _is_missing, _text_cells)

try:  # scikit-learn is optional: without it the estimator still fits and predicts
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import check_consistent_length, check_is_fitted, column_or_1d
    _HAVE_SKLEARN = True
except ImportError:  # pragma: no cover - Debian's python3-sklearn is a test dependency
    _HAVE_SKLEARN = False

    class BaseEstimator:
        def get_params(self, deep=True):
            return {k: getattr(self, k) for k in _PARAMS}

        def set_params(self, **params):
            for k, v in params.items():
                setattr(self, k, v)
            return self

    class ClassifierMixin:
        _estimator_type = "classifier"

        def score(self, X, y, sample_weight=None):
            return float(np.average(self.predict(X) == np.asarray(y), weights=sample_weight))

__all__ = ["OptimalTreeClassifier", "load", "count_trees", "chain", "bsp", "kdtree", "DEFAULT_MAX_DEPTH"]
__version__ = _pdt.version

#: Depth limit used when neither max_depth nor max_size nor perfect is given:
#: an exact optimiser has no natural stopping point, and depth 3 keeps a fit
#: on a few hundred rows with many distinct values well under a second.
DEFAULT_MAX_DEPTH = 3

_UNLIMITED = 0xFFFFFFFF
_PARAMS = ("rules", "max_depth", "max_size", "min_leaf", "sparse", "metric", "positive", "time_limit", "threads",
           "lexicographic", "perfect", "degree", "rule_options", "engine", "progress", "categorical", "missing")


def _limit(value, name):
    if value is None:
        return _UNLIMITED
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 0 <= value < _UNLIMITED:
        raise ValueError(f"{name}={value!r}: expected None or an integer from 0 to {_UNLIMITED - 1}")
    return int(value)


def _as_matrix(X):
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D array of features, got {X.ndim} dimension(s)")
    return X


def _warn_unused_categories(rules, features, categories, used):
    """Families that test numbers only (axis, hyperplane, ...) are fitted on the
    numeric columns: said, as `pdt fit` says it, with the columns left out."""
    if categories is None:
        return
    kept = set(used)
    unused = [name for name, cats in zip(features, categories[0]) if cats is not None and name not in kept]
    if unused:
        warnings.warn(f"rule family {rules} tests numbers; the categorical column{'s' if len(unused) > 1 else ''} "
                      f"{', '.join(unused)} {'are' if len(unused) > 1 else 'is'} not used (rules='binary' tests "
                      f"x != v on categories, rules='categorical' splits by them)", UserWarning, stacklevel=3)


def _feature_names(estimator, d):
    names = getattr(estimator, "feature_names_in_", None)
    if names is not None:
        return [str(n) for n in names]
    return [f"col{j + 1}" for j in range(d)]  # the CSV loader's names for a file without a header


def _class_names(classes):
    """Class names as text (libpdt keeps them in models); distinct and non-empty."""
    names = [str(c) for c in classes]
    if len(set(names)) != len(names) or any(not n for n in names):
        names = [f"class{k}" for k in range(len(classes))]
    return names


#: Largest total of sample weights fitted (rows are repeated: see _repeat_rows).
MAX_TOTAL_WEIGHT = 10_000_000


def _repeat_rows(X, codes, sample_weight, d):
    """libpdt weighs classes, not rows: an integer sample weight w is fitted
    exactly by repeating the row w times (0 drops it), which is what weighting
    the misclassifications means.  Other weights are refused."""
    w = np.asarray(sample_weight, dtype=np.float64)
    n = len(codes)
    if w.ndim == 0:
        w = np.full(n, float(w))
    if w.shape != (n,):
        raise ValueError(f"sample_weight has shape {w.shape}, expected ({n},)")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or np.any(w != np.floor(w)):
        raise ValueError("sample_weight: pdt fits integer weights >= 0 only (a row of weight w counts as w "
                         "rows); scale fractional weights to integers")
    if w.sum() > MAX_TOTAL_WEIGHT:
        raise ValueError(f"sample_weight: the weights add up to {w.sum():g}, more than {MAX_TOTAL_WEIGHT} rows")
    if w.sum() == 0:
        raise ValueError("sample_weight: every weight is 0")
    repeat = w.astype(np.int64)
    codes = np.ascontiguousarray(np.repeat(codes, repeat))
    if isinstance(X, list):  # exact texts, row-major
        return [c for i, k in enumerate(repeat) for c in X[i * d:(i + 1) * d] * int(k)], codes
    return np.ascontiguousarray(np.repeat(X, repeat, axis=0)), codes


def _drop_missing_labels(X, y, sample_weight, d):
    """X (converted), y and the weights without the rows whose label is missing."""
    keep = np.array([not _is_missing(v) for v in y], dtype=bool)
    if keep.all():
        return X, y, sample_weight, len(y)
    if not keep.any():
        raise ValueError(f"missing='drop' left out every one of the {len(y)} rows (every label is missing)")
    if isinstance(X, list):  # exact texts, row-major
        X = [c for i in np.flatnonzero(keep) for c in X[i * d:(i + 1) * d]]
    else:
        X = np.ascontiguousarray(X[keep])
    y = np.array(list(y[keep]))  # the labels' own dtype again (object only for text)
    if sample_weight is not None and np.ndim(sample_weight) > 0:
        sample_weight = np.asarray(sample_weight)[keep]
    return X, y, sample_weight, int(keep.sum())


class Tree:
    """The fitted tree: node arrays in the model's order (node 0 is the root).

    children_left/children_right: child node indices, -1 at leaves and at
    multiway nodes; ways: for a multiway node (a categorical split, rules
    "categorical") the list of (text, child), e.g. ("colour = red", 3), else
    []; is_leaf; rule: the split in readable form ("" at leaves; the column's
    name at a multiway node); label: class code of each node's majority (what
    a multiway node predicts for a category none of its ways takes); value:
    training items per node and class; node_count, n_leaves, size (branch
    nodes), max_depth."""

    def __init__(self, model):
        nodes = [model.node(k) for k in range(model.n_nodes)]
        self.children_left = np.array([n[0] for n in nodes], dtype=np.intp)
        self.children_right = np.array([n[1] for n in nodes], dtype=np.intp)
        self.label = np.array([n[2] for n in nodes], dtype=np.intp)
        self.rule = [n[3] for n in nodes]
        self.ways = [list(n[4]) for n in nodes]
        self.is_leaf = np.array([n[0] < 0 and not n[4] for n in nodes], dtype=bool)
        k = len(model.classes)
        self.value = np.frombuffer(model.counts(), dtype=np.uint64).reshape(len(nodes), k).astype(np.int64)
        self.node_count = len(nodes)
        self.n_leaves = int(np.sum(self.is_leaf))
        self.size = model.size
        self.max_depth = model.depth

    def __repr__(self):
        return f"Tree(size={self.size}, depth={self.max_depth}, leaves={self.n_leaves})"


class OptimalTreeClassifier(ClassifierMixin, BaseEstimator):
    """A provably optimal classification tree (libpdt).

    Parameters
    ----------
    rules : str, default "axis"
        Rule family or comma list: "axis", "hyperplane", "hypersurface", "binary",
        "axis,hyperplane", ...
    max_depth : int or None
        At most this many levels of branch nodes.  When max_depth, max_size and
        perfect are all None the depth limit is DEFAULT_MAX_DEPTH (3), except
        for rules "categorical", "binary" or "axis" with sparse (trees of any
        size, as `pdt fit --sparse` without a limit).
    max_size : int or None
        At most this many branch nodes.
    min_leaf : int or None
        Every leaf made by a split holds at least this many training rows.
    sparse : float, str or None
        alpha of the sparse objective errors/N + alpha * (branch nodes); a float is
        taken exactly (its rational), a string as an exact decimal ("0.01").
    metric : "accuracy", "f1", "mcc" or "fm"
        The objective: fewest (weighted) misclassifications, or (two classes)
        the best F1, Matthews correlation or Fowlkes-Mallows over the Pareto
        front of (false positives, false negatives) (docs/metrics.md); then
        objective_ is F1, MCC squared or FM squared, exactly.
    positive : label or None
        The positive class for metric f1/mcc/fm (None: the second of classes_).
    time_limit : float or None
        Seconds; the best tree found so far is kept (optimal_ is then False).
    threads : int or None
        Search threads: None is one (as scikit-learn's n_jobs=None), 0 every core.
        The tree does not depend on it.
    lexicographic : bool
        Fewest branch nodes among the most accurate trees.
    perfect : None, "depth" or "size"
        The smallest tree reaching the data's error floor (see docs/perfect.md).
    degree : int or None
        Polynomial degree of hypersurface rules.
    rule_options : str or None
        Plugin-specific "key=value,..." text.
    engine : "auto", "fused", "combinations" or "backend"
    progress : callable or None
        Called about once a second during long fits with a dict
        {"seconds", "nodes", "best"}; an exception it raises stops the fit.
    categorical : list or None
        Columns (names or indices) read as categories even when they hold
        numbers (`--categorical`).  pandas `category` columns and columns holding
        text that is not a number are categorical anyway.
    missing : "error", "drop" or "category"
        What a missing cell (None, NaN, "?", "", "NA") means (`--missing`):
        refused naming row and column, the row left out of the fit, or a
        category "?" of a categorical column.  A missing label leaves its row
        out with "drop" and is refused otherwise.  At predict time rows cannot be
        left out: with "drop" or "category" a missing category is the category
        "?" (unseen unless fitted with "category"); a missing number is refused.

    Attributes
    ----------
    classes_, n_features_in_, feature_names_in_ (DataFrame input), tree_ (Tree),
    optimal_ (bool: proven optimal), stopped_by_ (None, or what stopped a search
    that is not proven optimal: "time limit", "memory limit" or "interrupt"),
    objective_ (fractions.Fraction: the exact
    optimum, misclassifications or the sparse objective), model_ (the libpdt model).
    """

    def __init__(self, rules="axis", max_depth=None, max_size=None, min_leaf=None, sparse=None,
                 metric="accuracy", positive=None, time_limit=None, threads=None, lexicographic=False, perfect=None,
                 degree=None, rule_options=None, engine="auto", progress=None, categorical=None, missing="error"):
        self.rules = rules
        self.max_depth = max_depth
        self.max_size = max_size
        self.min_leaf = min_leaf
        self.sparse = sparse
        self.metric = metric
        self.positive = positive
        self.time_limit = time_limit
        self.threads = threads
        self.lexicographic = lexicographic
        self.perfect = perfect
        self.degree = degree
        self.rule_options = rule_options
        self.engine = engine
        self.progress = progress
        self.categorical = categorical
        self.missing = missing

    # ------------------------------------------------------------------ options
    def _options(self):
        if self.metric not in ("accuracy", "f1", "mcc", "fm"):
            raise ValueError(f"metric={self.metric!r}: expected 'accuracy', 'f1', 'mcc' or 'fm'")
        if self.positive is not None and self.metric == "accuracy":
            raise ValueError("positive= is for metric 'f1', 'mcc' or 'fm'")
        depth, size = _limit(self.max_depth, "max_depth"), _limit(self.max_size, "max_size")
        if depth == _UNLIMITED and size == _UNLIMITED and self.perfect is None and not self._unlimited_sparse():
            depth = DEFAULT_MAX_DEPTH
        if self.time_limit is not None and not (float(self.time_limit) >= 0):
            raise ValueError(f"time_limit={self.time_limit!r}: expected seconds >= 0")
        if not isinstance(self.rules, str):
            raise ValueError(f"rules={self.rules!r}: expected a family name such as 'axis'")
        if self.missing not in _MISSING:
            raise ValueError(f"missing={self.missing!r}: expected 'error', 'drop' or 'category'")
        return dict(rules=self.rules, max_size=size, max_depth=depth,
                    min_leaf=0 if self.min_leaf is None else _limit(self.min_leaf, "min_leaf"),
                    sparse=None if self.sparse is None else _exact_text(self.sparse),
                    lexicographic=bool(self.lexicographic),
                    time_limit=0.0 if self.time_limit is None else float(self.time_limit),
                    threads=1 if self.threads is None else _limit(self.threads, "threads"),
                    degree=0 if self.degree is None else _limit(self.degree, "degree"),
                    rule_options=self.rule_options, engine=self.engine, perfect=self.perfect,
                    progress=self.progress, metric=self.metric)

    def _unlimited_sparse(self):
        """With a sparse objective the families the branch search takes (categorical,
        binary, axis) need no limit: it searches every size, bounded by the penalty,
        as `pdt fit --sparse` without a limit.  Other families keep the default depth
        (without a limit the command refuses them)."""
        return (self.sparse is not None and isinstance(self.rules, str)
                and self.rules.strip() in ("categorical", "binary", "axis"))

    # ------------------------------------------------------------------ fitting
    def _check_names(self, X, d, reset):
        if _HAVE_SKLEARN:
            self._check_feature_names(X, reset=reset)
            self._check_n_features(X, reset=reset)
        elif reset:
            self.n_features_in_ = d

    def _categorical_input(self, X, reset):
        """(x, shape, categories) of a DataFrame or 2-D array with categorical
        columns (or missing cells under missing="drop"/"category"), else None."""
        if not hasattr(X, "columns") and not (isinstance(X, np.ndarray) and X.ndim == 2):
            return None
        d = X.shape[1]
        names = [str(c) for c in X.columns] if hasattr(X, "columns") else [f"col{j + 1}" for j in range(d)]
        if reset:
            forced = _forced_columns(self.categorical, names)
        else:  # the columns categorical in the fit stay categorical
            forced = {j for j, k in enumerate(getattr(self, "_kinds", None) or []) if k and j < d}
        kinds = _column_kinds(X, names, forced)
        missing = self.missing if reset or self.missing == "error" else "category"
        if not any(kinds) and (missing == "error" or not _has_missing_cells(X)):
            return None
        self._check_names(X, d, reset)
        if reset:
            self._kinds = kinds
        return _categorical_table(X, names, kinds, missing)

    def _check_X(self, X, reset):
        """(x for the library: float64 matrix or exact texts, shape, categories)."""
        table = self._categorical_input(X, reset)
        if table is not None:
            return table
        texts = _text_cells(X)
        if texts is not None:
            self._check_names(X, texts[1][1], reset)
            x, shape = texts
        else:
            if _HAVE_SKLEARN:
                X = self._validate_data(X, reset=reset, dtype=np.float64, order="C")
            else:
                X = _as_matrix(X)
                if reset:
                    self.n_features_in_ = X.shape[1]
            x, shape = X, X.shape
        if reset:
            self._kinds = None
        return x, shape, None

    def fit(self, X, y, sample_weight=None):
        """Finds the optimal tree for rows X and labels y (any values np.unique
        orders).  X: numbers (float64, each taken as the exact rational it is),
        or an object table of exact texts ("0.1" is 1/10), Fractions or Decimals;
        a DataFrame's column names become feature_names_in_."""
        options = self._options()
        X, (n, d), categories = self._check_X(X, reset=True)
        y = column_or_1d(y, warn=True) if _HAVE_SKLEARN else np.ravel(np.asarray(y))
        if _HAVE_SKLEARN:
            check_consistent_length(np.empty(n), y)
        if self.missing == "drop":  # rows with a missing label are left out, as --missing drop does
            X, y, sample_weight, n = _drop_missing_labels(X, y, sample_weight, d)
        elif y.dtype.kind in "fO" and (row := next((i for i, v in enumerate(y) if _is_missing(v)), None)) is not None:
            raise ValueError(f"row {row + 1}: the label is missing ({y[row]!r}); missing='drop' leaves such rows out")
        if _HAVE_SKLEARN:
            check_classification_targets(y)
        if n == 0:
            raise ValueError("0 sample(s) (shape=(0, %d)) while a minimum of 1 is required." % d)
        self.classes_, codes = np.unique(y, return_inverse=True)
        codes = np.ascontiguousarray(codes, dtype=np.uint32)
        if sample_weight is not None:
            X, codes = _repeat_rows(X, codes, sample_weight, d)
            n = len(codes)
        self._features = _feature_names(self, d)
        names = _class_names(self.classes_)
        if self.positive is not None:
            at = [k for k, c in enumerate(self.classes_) if c == self.positive]
            if not at:
                raise ValueError(f"positive={self.positive!r} is not a class of y (classes: {list(self.classes_)})")
            options["positive"] = names[at[0]]
        self.model_ = _pdt.fit(X, n, d, self._features, codes, names, None,
                               categories=categories, **options)
        self._set_fitted(self.model_)
        _warn_unused_categories(self.rules, self._features, categories, self.model_.features)
        return self

    def _set_fitted(self, model):
        self.tree_ = Tree(model)
        self.optimal_ = bool(model.optimal)
        self.stopped_by_ = model.stopped_by
        self.objective_ = Fraction(model.objective)
        self._leaf_value = self.tree_.value.astype(np.float64)

    # ------------------------------------------------------------------ prediction
    def _apply(self, X, shape, categories):
        return np.frombuffer(self.model_.apply(X, shape[0], shape[1], self._features, categories),
                             dtype=np.uint32).astype(np.intp)

    def apply(self, X):
        """The leaf (node index into tree_) each row reaches; a row whose category
        no way of a multiway node takes ends at that node."""
        if _HAVE_SKLEARN:
            check_is_fitted(self)
        return self._apply(*self._check_X(X, reset=False))

    def predict(self, X):
        """The class of each row: the label of the leaf it reaches (exact comparisons)."""
        if _HAVE_SKLEARN:
            check_is_fitted(self)
        X, (n, d), categories = self._check_X(X, reset=False)
        codes = np.frombuffer(self.model_.predict(X, n, d, self._features, categories), dtype=np.uint32)
        return self.classes_[codes]

    def predict_proba(self, X):
        """Class frequencies of the training rows in each row's leaf (a row of
        sample weight w counts w times); a leaf no training row reached gives its label 1."""
        if _HAVE_SKLEARN:
            check_is_fitted(self)
        leaves = self._apply(*self._check_X(X, reset=False))
        value = self._leaf_value[leaves]  # a multiway node's own counts for an unseen category
        total = value.sum(axis=1, keepdims=True)
        empty = total[:, 0] <= 0
        proba = np.divide(value, total, out=np.zeros_like(value), where=total > 0)
        proba[empty, self.tree_.label[leaves[empty]]] = 1.0
        return proba

    def predict_log_proba(self, X):
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    # ------------------------------------------------------------------ outputs
    def to_dot(self):
        """The tree as Graphviz DOT text (libpdt's drawing module)."""
        return self._render("dot").decode()

    def _render(self, fmt):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "tree." + fmt)
            self.model_.render(path, fmt)
            with open(path, "rb") as f:
                return f.read()

    def to_text(self):
        """The tree, one node per line (as `pdt fit` prints it)."""
        return self.model_.text()

    def save(self, path):
        """Writes the model as libpdt's JSON result document (`pdt predict --model` reads it)."""
        self.model_.save(os.fspath(path))

    def plot(self, ax=None):
        """Draws the tree on a matplotlib Axes; without one returns the SVG text
        drawn by libpdt (Graphviz)."""
        if ax is None:
            return self._render("svg").decode()
        _plot_tree(self, ax)
        return ax

    # ------------------------------------------------------------------ pickling
    def __getstate__(self):
        state = super().__getstate__() if _HAVE_SKLEARN else dict(self.__dict__)
        state = dict(state)
        model = state.pop("model_", None)
        if model is not None:
            state["_model_json"] = _model_to_json(model)
        return state

    def __setstate__(self, state):
        state = dict(state)
        text = state.pop("_model_json", None)
        if _HAVE_SKLEARN:
            super().__setstate__(state)
        else:
            self.__dict__.update(state)
        if text is not None:
            self.model_ = _model_from_json(text)

    def _more_tags(self):
        return {"requires_y": True}


def _model_to_json(model):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.json")
        model.save(path)
        with open(path, encoding="utf-8") as f:
            return f.read()


def _model_from_json(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return _pdt.load(path)


def _labels_from_names(names):
    """Class names back to numbers when every one is an integer or a decimal."""
    for kind in (int, float):
        try:
            values = [kind(n) for n in names]
        except ValueError:
            continue
        if len(set(values)) == len(values):
            return np.array(values)
    return np.array(names, dtype=object)


def load(path):
    """An OptimalTreeClassifier from a JSON model (written by save() or `pdt fit -o`).
    classes_ are the model's class names, as numbers when they all are."""
    model = _pdt.load(os.fspath(path))
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    constraints = doc.get("constraints") or {}
    clf = OptimalTreeClassifier(rules=doc.get("rules") or "axis", max_depth=constraints.get("depth"),
                                max_size=constraints.get("size"))
    clf.model_ = model
    clf.classes_ = _labels_from_names(model.classes)
    clf._features = list(model.features)
    clf.n_features_in_ = len(clf._features)
    if not all(f.startswith("col") and f[3:].isdigit() for f in clf._features):
        clf.feature_names_in_ = np.array(clf._features, dtype=object)
    clf._set_fitted(model)
    return clf


# ---------------------------------------------------------------------- drawing

_NUMBER = re.compile(r"-?\d+\.\d{17,}")


def _short_rule(text):
    """A rule's long exact decimals that are doubles, shown as the double's
    repr (1.899999999999999911182158029987476766109466552734375 is the double
    1.9): lossless, since repr identifies the double."""
    def short(m):
        value = float(m.group(0))
        return repr(value) if Fraction(value) == Fraction(m.group(0)) else m.group(0)
    return _NUMBER.sub(short, text)


def _edges(t, k):
    """(child, label) of node k's edges: yes/no, or a multiway node's categories."""
    if t.ways[k]:
        prefix = t.rule[k] + " = "
        return [(child, text[len(prefix):] if text.startswith(prefix) else text) for text, child in t.ways[k]]
    if t.children_left[k] < 0:
        return []
    return [(t.children_left[k], "yes"), (t.children_right[k], "no")]


def _plot_tree(clf, ax):
    t = clf.tree_
    xs, ys = {}, {}
    next_x = [0]

    def place(k, depth):
        ys[k] = -depth
        children = [c for c, _ in _edges(t, k)]
        if not children:
            xs[k] = next_x[0]
            next_x[0] += 1
            return
        for c in children:
            place(c, depth + 1)
        xs[k] = (xs[children[0]] + xs[children[-1]]) / 2

    place(0, 0)
    for k in range(t.node_count):
        for child, side in _edges(t, k):
            ax.plot([xs[k], xs[child]], [ys[k], ys[child]], color="0.5", zorder=1)
            ax.annotate(side, ((xs[k] + xs[child]) / 2, (ys[k] + ys[child]) / 2), fontsize=7,
                        ha="center", color="0.4")
    for k in range(t.node_count):
        leaf = bool(t.is_leaf[k])
        text = f"{clf.classes_[t.label[k]]}\n{list(t.value[k])}" if leaf else _short_rule(t.rule[k])
        if t.ways[k]:
            text += f"\n(other: {clf.classes_[t.label[k]]})"
        ax.text(xs[k], ys[k], text, ha="center", va="center", fontsize=8, zorder=2,
                bbox=dict(boxstyle="round", fc="#e8f0ff" if leaf else "white", ec="0.3"))
    ax.set_axis_off()
    ax.set_xlim(-0.7, max(next_x[0] - 0.3, 0.7))
    ax.set_ylim(min(ys.values()) - 0.5, 0.5)


# ---------------------------------------------------------------------- other problems

def _points(X):
    """(x for the library, (n, d), feature names) of a point table."""
    names = [str(c) for c in X.columns] if hasattr(X, "columns") else None
    texts = _text_cells(X)
    x, shape = texts if texts is not None else (lambda m: (m, m.shape))(_as_matrix(X))
    return x, shape, names or [f"col{j + 1}" for j in range(shape[1])]


def count_trees(X, rules="axis", size=1, min_leaf=0, degree=None, rule_options=None):
    """Counts the proper trees of exactly `size` branch nodes that the rule family
    admits on the points X: {"rules", "size", "proper", "combinations", "permutations"}."""
    X, (n, d), names = _points(X)
    return _pdt.count(X, n, d, names, rules, _limit(size, "size"), min_leaf=_limit(min_leaf, "min_leaf"),
                      degree=0 if degree is None else _limit(degree, "degree"), rule_options=rule_options)


def chain(dims, time_limit=None):
    """The optimal matrix-chain order for A_i of size dims[i-1] x dims[i]:
    (scalar multiplications, parenthesisation, optimal)."""
    text = dims if isinstance(dims, str) else " ".join(str(int(p)) for p in dims)
    return _pdt.chain(text, 0.0 if time_limit is None else float(time_limit))


def bsp(segments, objective="nodes", depth_tiebreak=False, time_limit=None):
    """The optimal auto-partition of 2-D segments [(x1, y1, x2, y2), ...] (numbers
    taken exactly) or their text: {"nodes", "branch_nodes", "fragments", "depth", "optimal"}."""
    if not isinstance(segments, str):
        segments = "\n".join(" ".join(_exact_text(v) for v in s) for s in segments) + "\n"
    return _pdt.bsp(segments, objective, bool(depth_tiebreak), 0.0 if time_limit is None else float(time_limit))


def kdtree(X, weights=None, order=None, objective="access", time_limit=None):
    """The optimal k-D tree of the points X (weights: access frequencies):
    {"cost" (Fraction), "height", "optimal", "nodes": [(point, dim, left, right)]}."""
    X, (n, d), names = _points(X)
    w = None if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    r = _pdt.kdtree(X, n, d, names, w, order, objective, 0.0 if time_limit is None else float(time_limit))
    r["cost"] = Fraction(r["cost"])
    return r
