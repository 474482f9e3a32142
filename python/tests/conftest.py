"""Shared fixtures: the data files of tests/data and the `pdt` command of this build."""
import os
import subprocess

import numpy as np
import pandas as pd
import pytest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("PDT_DATA_DIR", os.path.join(SOURCE, "tests", "data"))


def data_path(name):
    return os.path.join(DATA, name)


def read_csv(name):
    """A CSV of tests/data as the CLI reads it: the last column is the label."""
    df = pd.read_csv(data_path(name), encoding="utf-8-sig")
    return df.iloc[:, :-1], df.iloc[:, -1].to_numpy()


def read_dl85(name):
    """A DL8.5 file: "label f0 f1 ..." per line; features named f0, f1, ... as the CLI names them."""
    rows = np.loadtxt(data_path(name), dtype=np.int64, ndmin=2)
    X = pd.DataFrame(rows[:, 1:], columns=[f"f{j}" for j in range(rows.shape[1] - 1)])
    return X, rows[:, 0]


@pytest.fixture(scope="session")
def pdt_bin():
    path = os.environ.get("PDT_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("PDT_BIN (the pdt command) not set")
    return path


def run_pdt(pdt_bin, *args):
    r = subprocess.run([pdt_bin, *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout
