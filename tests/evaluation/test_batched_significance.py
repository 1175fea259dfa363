"""The randomization tests of many pairs in one pass (issue 47) give the p-values one pair at a time gave, to the
last digit, for the same seed: ``one_at_a_time`` is the per-pair kernel as it stood before (a fresh sign matrix per
pair, one matrix-vector product per block of 1,000 patterns)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from coreb_core.evaluation.significance import compare_pair, compare_pairs, compare_runs, randomization_tests


def one_at_a_time(delta: np.ndarray, n_permutations: int = 10_000, seed: int = 0) -> float:
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


def ndcg_like(rng: np.random.Generator, n: int) -> np.ndarray:
    """Per-query scores as runs give them: many zeros and ones, the rest in between, ties between runs common."""
    return np.where(rng.random(n) < 0.3, 0.0, np.where(rng.random(n) < 0.2, 1.0, rng.random(n).round(3)))


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_many_pairs_at_once_equal_one_pair_at_a_time(seed):
    rng = np.random.default_rng(100 + seed)
    deltas = []
    for n in (1, 2, 3, 5, 8, 40, 40, 278, 1123, 1123, 1200):
        a, b = ndcg_like(rng, n), ndcg_like(rng, n)
        deltas += [a - b, b - a, np.zeros(n), np.full(n, 0.5), a - a[::-1]]
    deltas.append(np.array([]))
    batched = randomization_tests(deltas, n_permutations=3_000, seed=seed)
    assert batched == [one_at_a_time(d, 3_000, seed) for d in deltas]
    assert batched[-1] == 1.0 and min(batched) < 0.01 and max(batched[:-1]) == 1.0  # a real spread, ties included


def test_compare_runs_equals_compare_pair_one_by_one():
    rng = np.random.default_rng(5)
    queries = [f"q{i}" for i in range(300)]
    runs = {name: pd.DataFrame({"task": "t2c", "query_id": queries, "ndcg_at_10": ndcg_like(rng, 300)})
            for name in ("a", "b", "c", "d")}
    runs["e"] = runs["a"].iloc[:250]  # fewer queries: its pairs are tested on their shared 250
    runs["f"] = runs["b"].sample(frac=1.0, random_state=0)  # the same queries in another order: merged, not aligned
    table = compare_runs(runs, n_permutations=2_000)
    alone = [compare_pair(runs[x], runs[y], name_a=x, name_b=y, n_permutations=2_000) for x, y in zip(table.a, table.b)]
    assert table["p_randomization"].tolist() == [c.p_randomization for c in alone]
    assert table["shared"].tolist() == [c.shared for c in alone] and 250 in table["shared"].tolist()
    for c in alone:  # and the old kernel on the same differences
        merged = runs[c.a].merge(runs[c.b], on=["task", "query_id"])
        assert c.p_randomization == one_at_a_time((merged.ndcg_at_10_x - merged.ndcg_at_10_y).to_numpy(), 2_000)
    assert compare_pairs([], n_permutations=10) == []


def bootstrap_one_at_a_time(values: np.ndarray, n_resamples: int = 10_000, seed: int = 0) -> tuple[float, float]:
    """The per-vector bootstrap as it stood before issue 47."""
    if len(values) == 0:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    means = np.empty(n_resamples)
    for start in range(0, n_resamples, 1000):
        n = min(1000, n_resamples - start)
        idx = rng.integers(0, len(values), size=(n, len(values)))
        means[start:start + n] = values[idx].mean(axis=1)
    alpha = (1 - 0.95) / 2  # as it stood: 0.025000000000000022, which moves a quantile by an ulp against 0.025
    return float(np.quantile(means, alpha)), float(np.quantile(means, 1 - alpha))


@pytest.mark.parametrize("seed", [0, 3])
def test_bootstrap_intervals_at_once_equal_one_vector_at_a_time(seed):
    from coreb_core.evaluation.significance import bootstrap_cis

    rng = np.random.default_rng(200 + seed)
    # lengths met once or twice take a gather each, 300 (five vectors) the counted draws' matrix product
    vectors = [ndcg_like(rng, n) - ndcg_like(rng, n) for n in (1, 2, 7, 40, 40, 278, 1123, *[300] * 5)]
    vectors.append(np.array([]))
    batched = bootstrap_cis(vectors, n_resamples=2_500, seed=seed)
    expected = [bootstrap_one_at_a_time(v, 2_500, seed) for v in vectors]
    assert np.allclose(batched[:-1], expected[:-1], rtol=0, atol=1e-12)  # the same resamples, summed in another order
    assert all(np.isnan(batched[-1])) and all(np.isnan(expected[-1]))
    assert len({b for b in batched[:-1]}) == len(batched) - 1  # distinct intervals: not one repeated answer


def test_t_tests_at_once_equal_scipy_one_vector_at_a_time():
    """``paired_ttests`` groups the differences by length into one scipy call per length: bitwise scipy's p-value of
    each vector alone, and the no-spread rule (1.0 for all ties, 0.0 for one constant gain) where scipy has none."""
    from scipy import stats

    from coreb_core.evaluation.significance import paired_ttests

    rng = np.random.default_rng(5)
    deltas = [ndcg_like(rng, 300) - ndcg_like(rng, 300) for _ in range(30)]
    deltas += [ndcg_like(rng, 17) - ndcg_like(rng, 17) for _ in range(5)]     # another length: its own call
    deltas += [np.zeros(40), np.full(40, 0.25), np.array([0.3]), np.array([])]
    p = paired_ttests(deltas)
    assert p[:35] == [float(stats.ttest_1samp(d, 0.0).pvalue) for d in deltas[:35]]
    assert p[35:] == [1.0, 0.0, 1.0, 1.0]


@pytest.mark.parametrize("seed", [0, 4])
def test_pairs_tested_as_columns_equal_their_differences_tested(seed):
    """``pair_randomization_tests`` flips each run's column once and subtracts: the p-values of every pair equal
    ``randomization_tests`` of the pair's differences (themselves the old kernel's), ties and identical runs included."""
    from itertools import combinations

    from coreb_core.evaluation.significance import pair_randomization_tests

    rng = np.random.default_rng(300 + seed)
    for n in (3, 40, 1123):
        runs = [ndcg_like(rng, n) for _ in range(6)]
        runs.append(runs[0].copy())                                  # an identical run: every delta 0
        runs.append(np.where(rng.random(n) < 0.05, 1.0, runs[1]))    # a run a few queries away from another
        runs.append(np.minimum(1.0, runs[2] + 0.2))                  # a clearly better run
        pairs = list(combinations(range(len(runs)), 2))
        as_columns = pair_randomization_tests(runs, pairs, 2_000, seed)
        assert as_columns == randomization_tests([runs[a] - runs[b] for a, b in pairs], 2_000, seed)
        assert as_columns[pairs.index((0, 6))] == 1.0 and (n < 40 or min(as_columns) < 0.01)
