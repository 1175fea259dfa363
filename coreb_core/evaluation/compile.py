"""Compile the evaluation kernels once, ahead of the first evaluation.

The kernels (``judged_pairs``, ``kernels``) are numba functions cached beside their sources
(``__pycache__``). Compiling them takes about 10 s on 2 cores (the scan in six versions, for its code and rank
types); ``make`` runs this module after the install so neither the app's first page nor the first test pays for it. The public wrappers give
every kernel fixed dtypes, so tiny inputs here compile exactly the signatures real runs use.

    .venv/bin/python -m coreb_core.evaluation.compile
"""
from __future__ import annotations

import time

import numpy as np

from coreb_core.evaluation.judged_pairs import JudgedPairs, dropped_above
from coreb_core.evaluation.kernels import means_by_cell, per_query_metrics
from coreb_core.evaluation.schemes import V2
from coreb_core.runs.hits import hits_from_scores


def compile_kernels() -> float:
    """Run every kernel once on a two-query example; returns the seconds it took.

    >>> compile_kernels() < 60
    True
    """
    start = time.perf_counter()
    codes = np.array([0, 0, 1])
    pairs = JudgedPairs.build(np.array([1, 3 + 2]), n_queries=2, n_docs=3)
    for code in (np.int16, np.int32, np.int64):  # the scan's versions (``judged_pairs.code_dtype``, rank types)
        for rank in (np.int32, np.float64):
            pairs.scan(codes.astype(code), np.arange(2), np.array([1, 0, 2], dtype=code), np.arange(3),
                       np.array([1, 2, 1], dtype=rank), np.array([0, -1]), np.array([-1, -1]), np.zeros(3, dtype=bool),
                       np.zeros(2, dtype=bool))
    dropped_above(codes, np.array([1.0, 2.0, 1.0]), np.array([True, False, False]))
    per_query_metrics(codes, np.array([1.0, np.inf, 2.0]), np.array([2, 1, 2]), 2, V2)
    means_by_cell(codes, np.ones((2, 3)), 2)
    hits_from_scores("t2c", ["q"], ["a", "b"], np.array([[0.5, 0.2]], dtype=np.float32), 1, {"q": ["b"]},
                     np.array([True, False]))  # the hits builder's kernels (a retrieval run's, and its tests')
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"evaluation kernels ready in {compile_kernels():.1f} s")
