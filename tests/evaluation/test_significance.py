"""Paired comparisons, checked by hand on three-query fixtures."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from coreb_core.evaluation.significance import (
    bootstrap_ci,
    compare_pair,
    compare_runs,
    holm,
    intervals,
    paired_ttest,
    randomization_test,
)


def table(values: list[float], queries: list[str] | None = None) -> pd.DataFrame:
    queries = queries or [f"q{i}" for i in range(len(values))]
    return pd.DataFrame({"task": "t2c", "query_id": queries, "ndcg_at_10": values})


def test_pair_on_shared_queries_by_hand():
    a = table([1.0, 0.5, 0.2, 0.9], ["q0", "q1", "q2", "only_a"])
    b = table([0.5, 0.5, 0.1, 0.3], ["q0", "q1", "q2", "only_b"])
    c = compare_pair(a, b, "ndcg_at_10", "A", "B")
    assert (c.shared, c.dropped_a, c.dropped_b) == (3, 1, 1)
    assert c.mean_delta == pytest.approx(0.2)  # deltas 0.5, 0, 0.1
    assert (c.wins, c.ties, c.losses) == (2, 1, 0)
    # t = 0.2 / (sd / sqrt 3), sd = sqrt(0.07); two-sided p with 2 df: 1 - t / sqrt(2 + t^2)
    t = 0.2 / (np.sqrt(0.07) / np.sqrt(3))
    assert c.p_ttest == pytest.approx(1 - t / np.sqrt(2 + t * t), rel=1e-9)
    # sign flips of (0.5, 0, 0.1): |mean| >= 0.2 for exactly half of them
    assert c.p_randomization == pytest.approx(0.5, abs=0.02)


def test_degenerate_differences():
    assert paired_ttest(np.zeros(5)) == 1.0
    assert randomization_test(np.zeros(5), 500) == 1.0
    assert paired_ttest(np.full(4, 0.1)) == 0.0  # identical non-zero gains: no variance, certain
    assert randomization_test(np.array([]), 10) == 1.0


def test_randomization_test_detects_a_consistent_gain():
    delta = np.full(20, 0.1) + np.random.default_rng(0).normal(0, 0.01, 20)
    # only the two all-same-sign flips reach the observed mean: p ~ 2 / 2^20, floored at 1/(n+1)
    assert randomization_test(delta, 2000) == pytest.approx(1 / 2001)


def test_holm_by_hand():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])


def test_bootstrap_interval():
    assert bootstrap_ci(np.full(30, 0.25)) == pytest.approx((0.25, 0.25))
    low, high = bootstrap_ci(np.r_[np.zeros(50), np.ones(50)], n_resamples=4000)
    assert 0.38 < low < 0.42 and 0.58 < high < 0.62  # mean 0.5, standard error 0.05


def test_compare_runs_applies_holm_across_pairs():
    runs = {"A": table([1.0, 0.5, 0.2]), "B": table([0.5, 0.5, 0.1]), "C": table([0.0, 0.1, 0.1])}
    t = compare_runs(runs, n_permutations=500)
    assert list(zip(t["a"], t["b"])) == [("A", "B"), ("A", "C"), ("B", "C")]
    assert t["p_ttest_holm"].tolist() == pytest.approx(holm(t["p_ttest"].tolist()))
    ci = intervals(runs).set_index("run")
    assert ci.loc["A", "mean"] == pytest.approx(1.7 / 3)


def test_compare_pair_takes_evaluate_output_directly(tiny_store):
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.runs.hits import hits_from_lists

    task_of = dict(tiny_store.sql("SELECT query_id, task FROM queries").fetchall())
    q1 = "q_t2c_canonical_retro_any_0001"
    a = evaluate(tiny_store, hits_from_lists(task_of, {q1: [("code_v202601_00001", 1.0)]}, "a"))
    b = evaluate(tiny_store, hits_from_lists(task_of, {q1: [("code_v202601_00003", 1.0)]}, "b"))
    c = compare_pair(a, b, "ndcg_at_10", n_permutations=100)
    assert c.shared == 1 and c.wins == 1 and c.mean_delta == pytest.approx(a["ndcg_at_10"].iloc[0])
