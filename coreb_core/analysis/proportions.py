"""Intervals and tests for shares k/n (trap-win rates, surface-bias shares): one definition for the analysis.

>>> low, high = wilson_interval(np.array([1]), np.array([2]))
>>> round(float(low[0]), 4), round(float(high[0]), 4)
(0.0945, 0.9055)
"""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson_interval(successes, trials, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of the share k/n, within [0, 1] (NaN where n = 0): honest at small n and at 0 or 1.

    >>> low, high = wilson_interval(np.array([1, 0, 0]), np.array([2, 4, 0]))
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.0945, 0.0, nan], [0.9055, 0.4899, nan])
    """
    k, n = np.asarray(successes, dtype=np.float64), np.asarray(trials, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
    return np.where(n > 0, low, np.nan), np.where(n > 0, high, np.nan)


def two_proportion_p(k1, n1, k2, n2) -> np.ndarray:
    """Two-sided p-value of the pooled two-proportion z-test of k1/n1 against k2/n2 (NaN when a group is
    empty; 1 when both shares are 0 or both are 1).

    >>> two_proportion_p(np.array([8, 0]), np.array([10, 5]), np.array([2, 0]), np.array([10, 5])).round(4).tolist()
    [0.0073, 1.0]
    """
    k1, n1, k2, n2 = (np.asarray(v, dtype=float) for v in (k1, n1, k2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = (k1 + k2) / (n1 + n2)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        z = np.abs(k1 / n1 - k2 / n2) / se
    p = np.array([math.erfc(v / math.sqrt(2)) if np.isfinite(v) else 1.0 for v in np.atleast_1d(z)])
    return np.where((n1 > 0) & (n2 > 0), p, np.nan)


def difference_interval(k1, n1, k2, n2, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Newcombe's hybrid score interval (1998, method 10) of the difference k1/n1 − k2/n2, from the two
    Wilson intervals: honest at small n and near 0 or 1, where the Wald interval is not (NaN when a
    group is empty). Newcombe's own example, 56/70 against 48/80: difference 0.2, interval 0.0524 to 0.3339.

    >>> low, high = difference_interval(np.array([56]), np.array([70]), np.array([48]), np.array([80]))
    >>> round(float(low[0]), 4), round(float(high[0]), 4)
    (0.0524, 0.3339)
    """
    k1, n1, k2, n2 = (np.asarray(v, dtype=np.float64) for v in (k1, n1, k2, n2))
    l1, u1 = wilson_interval(k1, n1, z)
    l2, u2 = wilson_interval(k2, n2, z)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    return d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
