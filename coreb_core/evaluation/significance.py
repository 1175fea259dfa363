"""Paired comparison of runs on the queries they share.

Thin verbs over small numeric kernels: paired t-test, paired randomization (sign-flip) test,
Holm correction across pairs, win/tie/loss, and bootstrap 95% intervals of a run's mean.

Example (two per-query tables sharing q1..q3; each run has one query the other lacks):
    >>> a = pd.DataFrame({"task": ["t2c"] * 4, "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [1.0, 0.5, 0.8, 0.0]})
    >>> b = pd.DataFrame({"task": ["t2c"] * 4, "query_id": ["q1", "q2", "q3", "q5"], "ndcg_at_10": [0.5, 0.5, 0.2, 1.0]})
    >>> c = compare_pair(a, b, "ndcg_at_10", "minilm", "bm25", n_permutations=1000)
    >>> c.shared, c.dropped_a, round(c.mean_delta, 4), round(c.p_randomization, 3), (c.wins, c.ties, c.losses)
    (3, 1, 0.3667, 0.511, (2, 1, 0))
"""
from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np
import pandas as pd

KEYS = ["task", "query_id"]
TIE_TOLERANCE = 1e-12
DEFAULT_PERMUTATIONS = 10_000
DEFAULT_BOOTSTRAP = 10_000


class PairComparison(NamedTuple):
    """Run ``a`` against run ``b`` on one metric, over the queries both scored (``compare_pair``'s result).

    >>> PairComparison._fields[:6]
    ('a', 'b', 'metric', 'shared', 'dropped_a', 'dropped_b')
    """

    a: str
    b: str
    metric: str
    shared: int  # queries in both runs, the only ones compared
    dropped_a: int  # queries only run a has
    dropped_b: int
    mean_a: float
    mean_b: float
    mean_delta: float  # mean of (a - b)
    p_ttest: float
    p_randomization: float
    wins: int  # queries where a > b
    ties: int
    losses: int


def paired_ttest(delta: np.ndarray) -> float:
    """Two-sided paired t-test p-value; 1.0 when every difference is equal (no evidence).

    >>> round(paired_ttest(np.array([0.1, 0.2, 0.3])), 4)
    0.0742
    """
    if len(delta) < 2 or np.allclose(delta, delta[0], atol=TIE_TOLERANCE, rtol=0):
        return 1.0 if len(delta) < 2 or abs(delta[0]) <= TIE_TOLERANCE else 0.0
    from scipy import stats  # here, not at the top: scipy.stats takes 1-2 s to import, and most pages never test

    return float(stats.ttest_1samp(delta, 0.0).pvalue)


def randomization_test(delta: np.ndarray, n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0) -> float:
    """Two-sided paired randomization test: flip the sign of each difference at random.

    p = (1 + #{|mean of flipped| >= |observed mean|}) / (1 + n_permutations).

    >>> round(randomization_test(np.array([0.5, 0.5, 0.5]), n_permutations=1000), 4)  # 2 of 8 sign patterns
    0.2468
    """
    if len(delta) == 0:
        return 1.0
    rng = np.random.default_rng(seed)
    observed = abs(delta.mean())
    extreme = 0
    for start in range(0, n_permutations, 1000):
        n = min(1000, n_permutations - start)
        signs = rng.integers(0, 2, size=(n, len(delta)), dtype=np.int8) * 2 - 1
        extreme += int(np.sum(np.abs(signs @ delta) / len(delta) >= observed - 1e-15))
    return (1 + extreme) / (1 + n_permutations)


def holm(p_values: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the input order.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = np.argsort(p_values, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for i, idx in enumerate(order):
        running = max(running, min(1.0, (m - i) * p_values[idx]))
        adjusted[idx] = running
    return adjusted.tolist()


def bootstrap_ci(values: np.ndarray, n_resamples: int = DEFAULT_BOOTSTRAP, seed: int = 0,
                 level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean over queries.

    >>> bootstrap_ci(np.array([0.0, 1.0, 1.0, 0.0]), n_resamples=1000)
    (0.0, 1.0)
    """
    values = np.asarray(values, dtype=np.float64)
    if len(values) == 0:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    means = np.empty(n_resamples)
    for start in range(0, n_resamples, 1000):
        n = min(1000, n_resamples - start)
        idx = rng.integers(0, len(values), size=(n, len(values)))
        means[start:start + n] = values[idx].mean(axis=1)
    alpha = (1 - level) / 2
    return float(np.quantile(means, alpha)), float(np.quantile(means, 1 - alpha))


def compare_pair(a: pd.DataFrame, b: pd.DataFrame, metric: str = "ndcg_at_10", name_a: str = "a",
                 name_b: str = "b", n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0) -> PairComparison:
    """Compare two per-query tables (from ``evaluate``) on their shared queries.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3"], "ndcg_at_10": [1.0, 0.5, 0.8]})
    >>> b = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3"], "ndcg_at_10": [0.5, 0.5, 0.2]})
    >>> c = compare_pair(a, b, name_a="minilm", name_b="bm25", n_permutations=1000)
    >>> c.shared, (c.wins, c.ties, c.losses), round(c.mean_delta, 3), round(c.p_randomization, 3)
    (3, (2, 1, 0), 0.367, 0.511)
    """
    merged = a[KEYS + [metric]].merge(b[KEYS + [metric]], on=KEYS, suffixes=("_a", "_b"))
    va, vb = merged[f"{metric}_a"].to_numpy(), merged[f"{metric}_b"].to_numpy()
    delta = va - vb
    return PairComparison(
        name_a, name_b, metric, len(merged), len(a) - len(merged), len(b) - len(merged),
        float(va.mean()) if len(va) else float("nan"), float(vb.mean()) if len(vb) else float("nan"),
        float(delta.mean()) if len(delta) else float("nan"), paired_ttest(delta),
        randomization_test(delta, n_permutations, seed),
        int(np.sum(delta > TIE_TOLERANCE)), int(np.sum(np.abs(delta) <= TIE_TOLERANCE)),
        int(np.sum(delta < -TIE_TOLERANCE)),
    )


def compare_runs(per_query: dict[str, pd.DataFrame], metric: str = "ndcg_at_10",
                 n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0) -> pd.DataFrame:
    """Every pair of runs, with Holm-corrected p-values across the pairs.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [1.0, 0.5, 0.8, 0.0]})
    >>> b = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q5"], "ndcg_at_10": [0.5, 0.5, 0.2, 1.0]})
    >>> table = compare_runs({"minilm": a, "bm25": b}, n_permutations=1000)
    >>> table[["a", "b", "shared", "mean_delta", "p_randomization_holm"]].round(3).to_dict("records")
    [{'a': 'minilm', 'b': 'bm25', 'shared': 3, 'mean_delta': 0.367, 'p_randomization_holm': 0.511}]
    """
    rows = [compare_pair(per_query[x], per_query[y], metric, x, y, n_permutations, seed)._asdict()
            for x, y in combinations(per_query, 2)]
    table = pd.DataFrame(rows, columns=PairComparison._fields)
    if len(table):
        table["p_ttest_holm"] = holm(table["p_ttest"].tolist())
        table["p_randomization_holm"] = holm(table["p_randomization"].tolist())
    return table


def intervals(per_query: dict[str, pd.DataFrame], metric: str = "ndcg_at_10", seed: int = 0) -> pd.DataFrame:
    """Mean and bootstrap 95% interval of ``metric`` per run.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [1.0, 0.5, 0.8, 0.0]})
    >>> intervals({"minilm": a}).round(3).to_dict("records")
    [{'run': 'minilm', 'queries': 4, 'mean': 0.575, 'ci_low': 0.2, 'ci_high': 0.9}]
    """
    rows = []
    for name, table in per_query.items():
        low, high = bootstrap_ci(table[metric].to_numpy(), seed=seed)
        rows.append({"run": name, "queries": len(table), "mean": float(table[metric].mean()), "ci_low": low,
                     "ci_high": high})
    return pd.DataFrame(rows)
