"""Rank tiers (issue 36, item 2): on hand-made per-query tables whose significant pairs are known, the tiers are the
ones worked out by hand; over many random tables no two runs whose corrected paired test is not significant are in
different tiers (the done-means property), every boundary is one every crossing pair is significant across, the
p-values are ``compare_runs``' own, and each rank interval holds the observed rank."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from coreb_core.analysis.tiers import assign_tiers, rank_tiers, shared_values
from coreb_core.data.measures import Measure
from coreb_core.errors import CorebError
from coreb_core.evaluation.significance import adaptive_limit, compare_runs

N = 40
BASE = np.linspace(0.5, 0.9, N)
WIGGLE = np.where(np.arange(N) % 2 == 0, 1.0, -1.0)  # +1, -1, …: a difference of mean 0


def table(values: dict[str, np.ndarray], task: str = "t2c") -> pd.DataFrame:
    return pd.DataFrame([(run, task, f"q{i}", float(v)) for run, vs in values.items() for i, v in enumerate(vs)],
                        columns=["run", "task", "query_id", "ndcg_at_10"])


def test_two_clear_tiers_worked_out_by_hand():
    # a ≈ b (their difference alternates +-0.02: mean 0), c ≈ d; each of a, b beats each of c, d on every query.
    values = {"a": BASE, "b": BASE - 0.02 * WIGGLE, "c": BASE - 0.3, "d": BASE - 0.3 + 0.01 * WIGGLE}
    t = rank_tiers(table(values), task="t2c", n_permutations=2000, n_resamples=200)
    assert {r.run: r.tier for r in t.runs} == {"a": 1, "b": 1, "c": 2, "d": 2}
    significant = {frozenset((p.a, p.b)) for p in t.pairs if p.significant}
    assert significant == {frozenset(p) for p in [("a", "c"), ("a", "d"), ("b", "c"), ("b", "d")]}
    assert all(p.p_adjusted == pytest.approx(1.0) for p in t.pairs if not p.significant)
    # 40 same-sign differences: no sign flip reaches them, so they draw flips up to the adaptive limit (20 x 2,000,
    # issue 48) and p = 1 / 40,001; Holm: 6 x the smallest of six p-values, its running maximum keeps the equal ones
    assert [round(p.p * 40_001) for p in t.pairs if p.significant] == [1, 1, 1, 1]
    assert [round(p.p_adjusted * 40_001) for p in t.pairs if p.significant] == [6, 6, 6, 6]
    assert (t.queries, t.tiers, t.chained) == (N, 2, 0)
    assert {r.run: (r.rank_low, r.rank_high) for r in t.runs if r.run in "cd"} == {"c": (3, 4), "d": (3, 4)}


def test_a_chain_joins_a_significant_pair_and_says_so():
    # a > c on every query (significant); b is noisy between them and differs from neither: one tier of three.
    values = {"a": BASE, "b": BASE - 0.05 + 0.3 * WIGGLE, "c": BASE - 0.1}
    t = rank_tiers(table(values), task="t2c", n_permutations=2000, n_resamples=200)
    assert [r.run for r in t.runs] == ["a", "b", "c"] and [r.tier for r in t.runs] == [1, 1, 1]
    assert [(p.a, p.b, p.significant) for p in t.pairs] == [("a", "b", False), ("a", "c", True), ("b", "c", False)]
    assert t.chained == 1


def test_the_tests_are_compare_runs_under_the_chosen_correction():
    rng = np.random.default_rng(3)
    values = {r: np.clip(BASE + rng.normal(shift, 0.2, N), 0, 1) for r, shift in zip("wxyz", (0.1, 0.05, 0, -0.1))}
    t = rank_tiers(table(values), task="t2c", correction="bh", n_permutations=1000, n_resamples=100)
    order = [r.run for r in t.runs]
    # the same queries in the same (sorted) order: the sign flips fall on the same queries
    frames = {r: table({r: values[r]}).drop(columns="run").rename(columns={"ndcg_at_10": "value"})
              .sort_values("query_id", ignore_index=True) for r in order}
    direct = compare_runs(frames, "value", 1000, correction="bh", max_permutations=adaptive_limit(1000))
    assert [(p.a, p.b) for p in t.pairs] == list(zip(direct["a"], direct["b"]))
    assert [p.p_adjusted for p in t.pairs] == pytest.approx(direct["p_randomization_adjusted"].tolist())
    assert [p.p for p in t.pairs] == pytest.approx(direct["p_randomization"].tolist())
    assert t.correction.name == "bh"


@pytest.mark.parametrize("seed", range(60))
def test_no_non_significant_pair_is_split_and_every_boundary_is_earned(seed):
    rng = np.random.default_rng(seed)
    runs, queries = int(rng.integers(2, 7)), int(rng.integers(8, 50))
    tasks = rng.choice(["t2c", "c2t", "c2c"], size=queries)
    values = {f"r{i}": np.clip(rng.uniform(0.2, 0.8) + rng.normal(0, rng.uniform(0.05, 0.4), queries), 0, 1)
              for i in range(runs)}
    frame = pd.DataFrame([(run, tasks[i], f"q{i}", float(v)) for run, vs in values.items() for i, v in enumerate(vs)],
                         columns=["run", "task", "query_id", "ndcg_at_10"])
    frame = frame.drop(index=rng.choice(len(frame), size=int(rng.integers(0, 4)), replace=False))  # some unscored
    average = "tasks" if seed % 2 else "queries"
    t = rank_tiers(frame, average=average, alpha=float(rng.choice([0.01, 0.05, 0.2])), n_permutations=300,
                   n_resamples=60, seed=seed)
    tier = {r.run: r.tier for r in t.runs}
    position = {r.run: i for i, r in enumerate(t.runs)}
    for p in t.pairs:
        if not p.significant:
            assert tier[p.a] == tier[p.b], (seed, p)
        assert p.same_tier == (tier[p.a] == tier[p.b])
    for i in range(1, len(t.runs)):  # a boundary between i-1 and i: every pair across it is significant
        if t.runs[i].tier != t.runs[i - 1].tier:
            crossing = [p for p in t.pairs if min(position[p.a], position[p.b]) < i <= max(position[p.a], position[p.b])]
            assert crossing and all(p.significant for p in crossing)
    assert [r.tier for r in t.runs] == sorted(r.tier for r in t.runs)  # tiers are stretches of the ranking
    assert all(r.rank_low <= r.rank <= r.rank_high for r in t.runs)
    assert [r.mean for r in t.runs] == sorted((r.mean for r in t.runs), reverse=True)
    assert len(t.pairs) == runs * (runs - 1) // 2


def test_assign_tiers_by_hand():
    s = {frozenset(p) for p in [("a", "b"), ("a", "c"), ("a", "d"), ("b", "d"), ("c", "d")]}
    assert assign_tiers(["a", "b", "c", "d"], s) == [1, 2, 2, 3]  # b ≈ c only
    assert assign_tiers(["a", "b", "c", "d"], set()) == [1, 1, 1, 1]
    every = {frozenset((x, y)) for x in "abcd" for y in "abcd" if x != y}
    assert assign_tiers(["a", "b", "c", "d"], every) == [1, 2, 3, 4]
    assert assign_tiers(["a", "b", "c", "d"], every - {frozenset("ad")}) == [1, 1, 1, 1]  # a ≈ d spans them all


def test_only_queries_every_run_scored_count_and_the_rest_are_said():
    frame = table({"a": BASE, "b": BASE - 0.2})
    frame = frame.drop(index=frame.index[(frame["run"] == "b") & frame["query_id"].isin(["q0", "q1", "q2"])])
    t = rank_tiers(frame, task="t2c", n_permutations=500, n_resamples=50)
    assert t.queries == N - 3
    assert {r.run: r.dropped for r in t.runs} == {"a": 3, "b": 0}
    assert t.runs[0].mean == pytest.approx(BASE[3:].mean())


def test_runs_that_share_no_query_have_no_tiers():
    frame = pd.concat([table({"a": BASE}, "t2c"), table({"b": BASE}, "c2t")])
    with pytest.raises(CorebError, match="share no scored query on any task"):
        rank_tiers(frame)


def test_mean_of_tasks_weighs_each_task_alike():
    frame = pd.concat([table({"a": np.full(30, 0.9), "b": np.full(30, 0.1)}, "t2c"),
                       table({"a": np.full(10, 0.0), "b": np.full(10, 1.0)}, "c2t")])
    wide, _ = shared_values(frame, average="tasks")
    assert wide.mean().round(6).to_dict() == {"a": 0.45, "b": 0.55}
    by_queries, _ = shared_values(frame, average="queries")
    assert by_queries.mean().round(6).to_dict() == {"a": 0.675, "b": 0.325}
    assert [r.run for r in rank_tiers(frame, average="tasks", n_permutations=200, n_resamples=20).runs] == ["b", "a"]


@pytest.mark.parametrize("kwargs, message", [
    ({"task": "x2y"}, "unknown task 'x2y'"),
    ({"alpha": 0.0}, "between 0 and 1"),
    ({"alpha": float("nan")}, "between 0 and 1"),
    ({"metric": Measure("ndcg", 7)}, "unknown metric 'nDCG@7'"),
    ({"correction": "sidak"}, "unknown correction 'sidak'"),
    ({"runs": ["a", "zzz"]}, "run zzz has no scored query on any task"),
])
def test_bad_choices_are_one_line_errors(kwargs, message):
    with pytest.raises(CorebError, match=message) as err:
        rank_tiers(table({"a": BASE, "b": BASE}), **kwargs)
    assert "\n" not in str(err.value)
