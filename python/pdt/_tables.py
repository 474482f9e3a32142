"""Tables to libpdt's arrays: exact texts of numbers, and categorical columns
coded as codes into names (the library codes the names as the CSV loader
does).  Internal to the pdt package."""
import numbers
from decimal import Decimal
from fractions import Fraction

import numpy as np

#: pdt_csv_missing: what a missing cell (None, NaN, "?", "", "NA") means
_MISSING = {"error": 0, "drop": 1, "category": 2}


def _exact_text(value):
    """An exact decimal/fraction text for a number (a float is its exact rational)."""
    if isinstance(value, str):
        return value
    q = Fraction(value)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _cell_text(cell, column):
    """An exact number's text: str as written ("0.1" is 1/10), Fraction and
    Decimal exactly, a float as the rational it is."""
    if isinstance(cell, str):
        if _number(cell) is None:
            raise ValueError(f"column {column!r} holds the text {cell!r}, which is not a number") from None
        return cell.strip()
    if isinstance(cell, (bool, np.bool_)):
        return str(int(cell))
    if isinstance(cell, (numbers.Integral, np.integer)):
        return str(int(cell))
    if isinstance(cell, (Fraction, Decimal)):
        return _exact_text(Fraction(cell))
    return _exact_text(float(cell))  # float() raises the TypeError scikit-learn expects for other objects


def _text_cells(X):
    """Row-major texts of an object table holding text, Fraction or Decimal cells
    (kept exact); None when X is plain numbers (converted to float64)."""
    names = list(X.columns) if hasattr(X, "columns") else None
    values = X.to_numpy(dtype=object) if names is not None else X
    if not isinstance(values, np.ndarray) or values.dtype != object or values.ndim != 2:
        return None
    if not any(isinstance(c, (str, Fraction, Decimal)) for c in values.flat):
        return None
    if names is None:
        names = [f"col{j + 1}" for j in range(values.shape[1])]
    return [_cell_text(c, names[j]) for row in values for j, c in enumerate(row)], values.shape


def _is_missing(cell):
    """None, NaN, pandas' NA/NaT, or a text the CSV loader reads as missing ("?", "", "NA")."""
    if cell is None:
        return True
    if isinstance(cell, str):
        return cell.strip().lower() in ("?", "", "na")
    if isinstance(cell, (float, np.floating)):
        return bool(np.isnan(cell))
    return type(cell).__name__ in ("NAType", "NaTType")


def _number(text):
    """The exact number a text names, or None."""
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        return None


def _category_name(cell):
    """A category's name as a CSV cell would hold it: text as written, an
    integer (also an integral float: pandas turns ints with NaN to floats) as
    its digits, other numbers as their repr."""
    if isinstance(cell, str):
        return cell
    if isinstance(cell, (bool, np.bool_)):
        return str(bool(cell))
    if isinstance(cell, (numbers.Integral, np.integer)):
        return str(int(cell))
    if isinstance(cell, (float, np.floating)) and float(cell).is_integer():
        return str(int(cell))
    return str(cell)


def _factorize(column):
    """(codes, names) of a column of cells: names in order of appearance, -1 missing."""
    index, names = {}, []
    codes = np.empty(len(column), dtype=np.int64)
    for i, cell in enumerate(column):
        if _is_missing(cell):
            codes[i] = -1
            continue
        name = _category_name(cell)
        codes[i] = index.setdefault(name, len(names))
        if codes[i] == len(names):
            names.append(name)
    return codes, names


def _is_category_dtype(dtype):
    return str(dtype) == "category"


def _holds_text(column):
    """The first cell that is text and neither a number nor missing (a CSV
    column holding one is categorical), else None."""
    for cell in column:
        if isinstance(cell, str) and not _is_missing(cell) and _number(cell) is None:
            return cell
    return None


def _check_text_column(column, name):
    """The CSV loader's rule: text among non-integer numbers is refused (more
    likely a stray word in a measurement than a category)."""
    text = _holds_text(column)
    for cell in column:
        if isinstance(cell, (float, np.floating)) and not _is_missing(cell) and not float(cell).is_integer():
            q = cell
        elif isinstance(cell, str) and (v := _number(cell)) is not None and v.denominator != 1:
            q = cell
        else:
            continue
        raise ValueError(f"column {name!r} holds the text {text!r} among numbers such as {q!r}; if the column is "
                         f"categorical pass categorical=[{name!r}], if the text marks a missing value use None "
                         "(or '?') and missing='drop'")


def _column_cells(X, j):
    if hasattr(X, "iloc"):
        return X.iloc[:, j].to_numpy(dtype=object)
    return X[:, j]


def _column_kinds(X, names, forced):
    """Which columns are categorical: pandas category dtype, named in
    categorical= (forced), or holding text that is not a number."""
    dtypes = list(X.dtypes) if hasattr(X, "dtypes") and hasattr(X, "columns") else None
    kinds = []
    for j, name in enumerate(names):
        if j in forced or (dtypes is not None and _is_category_dtype(dtypes[j])):
            kinds.append(True)
            continue
        if dtypes is not None and dtypes[j] != object and str(dtypes[j]) != "string":
            kinds.append(False)
            continue
        if dtypes is None and (not isinstance(X, np.ndarray) or X.dtype != object):
            kinds.append(False)
            continue
        column = _column_cells(X, j)
        if _holds_text(column) is None:
            kinds.append(False)
            continue
        _check_text_column(column, name)
        kinds.append(True)
    return kinds


def _codes_and_names(X, j):
    """A categorical column as (codes, names): a pandas category's own, else factorized."""
    if hasattr(X, "iloc") and _is_category_dtype(X.dtypes.iloc[j]):
        column = X.iloc[:, j]
        names = [_category_name(c) for c in column.cat.categories]
        return column.cat.codes.to_numpy(dtype=np.int64), names
    return _factorize(_column_cells(X, j))


def _categorical_table(X, names, kinds, missing):
    """(x for the library, (n, d), categories) of a table with categorical
    columns or missing cells: categorical columns as codes into their names;
    numeric columns as float64 unless some cell is an exact text, Fraction or
    Decimal (then every cell as text, None when missing)."""
    n, d = len(X), len(names)
    columns = [_column_cells(X, j) if not kinds[j] else None for j in range(d)]
    coded = [_codes_and_names(X, j) if kinds[j] else None for j in range(d)]
    exact = any(c is not None and any(isinstance(v, (str, Fraction, Decimal)) for v in c) for c in columns)
    categories = ([c[1] if c is not None else None for c in coded], _MISSING[missing])
    if not exact:
        x = np.empty((n, d), dtype=np.float64)
        for j in range(d):
            if kinds[j]:
                x[:, j] = coded[j][0]
            else:  # float() raises the TypeError scikit-learn expects for other objects
                x[:, j] = [np.nan if _is_missing(v) else float(v) for v in columns[j]]
        return np.ascontiguousarray(x), (n, d), categories
    cells = []
    for i in range(n):
        for j in range(d):
            if kinds[j]:
                code = coded[j][0][i]
                cells.append(None if code < 0 else str(code))
            else:
                v = columns[j][i]
                cells.append(None if _is_missing(v) else _cell_text(v, names[j]))
    return cells, (n, d), categories


def _has_missing_cells(X):
    values = X.to_numpy(dtype=object) if hasattr(X, "columns") else X
    if values.dtype.kind == "f":
        return bool(np.isnan(values).any())
    return values.dtype == object and any(_is_missing(c) for c in values.flat)


def _forced_columns(categorical, names):
    """Column indices named by categorical= (names or indices)."""
    if categorical is None:
        return set()
    if isinstance(categorical, (str, int, np.integer)):
        categorical = [categorical]
    forced = set()
    for c in categorical:
        if isinstance(c, (int, np.integer)) and not isinstance(c, bool) and 0 <= c < len(names):
            forced.add(int(c))
        elif str(c) in names:
            forced.add(names.index(str(c)))
        else:
            raise ValueError(f"categorical: no column {c!r} (columns: {', '.join(names[:10])}"
                             f"{', ...' if len(names) > 10 else ''})")
    return forced
