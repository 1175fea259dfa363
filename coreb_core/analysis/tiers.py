"""Rank tiers: with many runs, which differences in the ranking are real.

Runs are ranked by their mean ``metric`` over the queries every one of them scored (the others are dropped and
counted). Every pair is tested with the paired randomization test of ``evaluation.significance`` (``compare_runs``),
corrected across all the pairs (Holm by default). A *tier* is a stretch of the ranking; a boundary between two
neighbouring ranks is drawn only where every run above it differs significantly from every run below it. So two
runs whose corrected test is not significant are never in different tiers (the guarantee; ``assign_tiers``). The
price: a tier may hold a pair that does differ (A ≈ B ≈ C with A > C: a chain); ``Tiers.chained`` counts them.

Each run's *rank interval* is the 2.5-97.5 percentile of its rank over bootstrap resamples of the queries (the same
queries for every run: the resample is paired), resampled within each task so that a task's share stays fixed;
widened to hold the observed rank where many near-tied runs put it outside (``widened``).

A score over several tasks is the mean of the task means (``average="tasks"``, the README's Avg) or query-weighted
(``average="queries"``, paper Table 3): each query's value is weighted so that the plain mean of the weighted values
is that score, and the tests run on the weighted values.

Example (three runs on ten queries: ``a`` and ``b`` close, ``c`` far below both):
    >>> scores = {"a": [.9, .8, .9, .7, .8, .9, .6, .7, .8, .9], "b": [.9, .6, .8, .8, .9, .7, .5, .8, .7, .6],
    ...           "c": [.1, .2, .1, .3, .2, .1, .4, .3, .2, .1]}
    >>> per_query = pd.DataFrame([(run, "t2c", f"q{i}", v) for run, values in scores.items()
    ...                           for i, v in enumerate(values)], columns=["run", "task", "query_id", "ndcg_at_10"])
    >>> t = rank_tiers(per_query, task="t2c", n_permutations=2000, n_resamples=200)
    >>> [(r.run, r.rank, r.tier, r.rank_low, r.rank_high) for r in t.runs]
    [('a', 1, 1, 1, 2), ('b', 2, 1, 1, 2), ('c', 3, 2, 3, 3)]
    >>> [(p.a, p.b, round(p.p_adjusted, 3), p.significant) for p in t.pairs]  # Holm over the three pairs
    [('a', 'b', 0.208, False), ('a', 'c', 0.006, True), ('b', 'c', 0.006, True)]
    >>> t.queries, t.tiers, t.chained
    (10, 2, 0)
"""
from __future__ import annotations

from typing import Literal, NamedTuple, Sequence

import numpy as np
import pandas as pd

from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError, check_alpha
from coreb_core.evaluation.significance import DEFAULT_PERMUTATIONS, HOLM, Correction, adaptive_limit, compare_runs

DEFAULT_RESAMPLES = 1_000  # bootstrap resamples of the rank intervals
DEFAULT_ALPHA = 0.05
# How several tasks make one score: the mean of task means (the README's Avg) or query-weighted (paper Table 3).
# Defined here, where selection reads it too (it imports this module): one vocabulary.
AVERAGES = ("tasks", "queries")
Average = Literal["tasks", "queries"]  # AVERAGES as a type
VALUE = "value"  # the weighted per-query column the tests and the bootstrap read


class RunTier(NamedTuple):
    """One run's place: observed rank by mean (1 = best, tied means share the better rank), tier (1 = top), the
    bootstrap rank interval, and the mean (a fraction) over the shared queries."""

    run: str
    rank: int
    tier: int
    mean: float
    rank_low: int
    rank_high: int
    widened: bool  # the percentile interval left the observed rank out and was widened to hold it
    dropped: int  # queries of this run's that not every run scored (left out)


class TierPair(NamedTuple):
    """Two runs' corrected paired test; ``a`` ranks above ``b``."""

    a: str
    b: str
    mean_delta: float  # mean of (a - b) over the shared queries, a fraction
    p: float  # two-sided paired randomization test
    p_adjusted: float  # corrected across every pair
    significant: bool  # p_adjusted < alpha
    same_tier: bool


class Tiers(NamedTuple):
    """``rank_tiers``' answer: the runs in rank order, every pair's test, and what was asked."""

    runs: tuple[RunTier, ...]
    pairs: tuple[TierPair, ...]
    metric: str  # the measure's column (``ndcg_at_10``)
    task: str | None  # None: every task, averaged as ``average`` says
    average: Average
    correction: Correction
    alpha: float
    queries: int  # queries every run scored: the only ones used
    n_permutations: int
    n_resamples: int

    @property
    def tiers(self) -> int:
        """How many tiers."""
        return max((r.tier for r in self.runs), default=0)

    @property
    def chained(self) -> int:
        """Pairs in one tier whose test is significant (joined through runs that differ from neither)."""
        return sum(p.same_tier and p.significant for p in self.pairs)

    def tier_of(self, run: str) -> RunTier | None:
        """The run's ``RunTier`` (None if it was not ranked)."""
        return next((r for r in self.runs if r.run == run), None)

    def table(self) -> pd.DataFrame:
        """The runs as a frame (one row per run, rank order)."""
        return pd.DataFrame(list(self.runs), columns=list(RunTier._fields))

    def pair_table(self) -> pd.DataFrame:
        """The pairs as a frame."""
        return pd.DataFrame(list(self.pairs), columns=list(TierPair._fields))


def assign_tiers(order: Sequence[str], separable: set[frozenset[str]]) -> list[int]:
    """Tier numbers (1 = top) of the runs in ``order`` (best first): a boundary after position i only where every
    run at or above i is ``separable`` (significantly different) from every run below it.

    Why this holds the guarantee: if runs x (position i) and y (position j > i) are not separable, no boundary
    falls between i and j, since the pair (x, y) crosses each of them; so x and y share a tier. It is also the
    finest contiguous split that does: any boundary it leaves out is crossed by some non-separable pair.

    >>> assign_tiers(["a", "b", "c", "d"], {frozenset(p) for p in [("a", "c"), ("a", "d"), ("b", "d"), ("c", "d")]})
    [1, 1, 1, 2]
    >>> assign_tiers(["a", "b", "c"], {frozenset(p) for p in [("a", "b"), ("a", "c")]})  # b ≈ c only
    [1, 2, 2]
    """
    tiers, tier, reach = [], 1, -1
    for i, run in enumerate(order):
        if i and i > reach:  # no non-separable pair crosses from above i-1 to i
            tier += 1
        tiers.append(tier)
        # The lowest position this run is not separable from: the tier must reach it.
        for j in range(len(order) - 1, i, -1):
            if frozenset((run, order[j])) not in separable:
                reach = max(reach, j)
                break
    return tiers


def shared_values(per_query: pd.DataFrame, metric: Measure = NDCG_10, task: str | None = None,
                  average: Average = "tasks", runs: Sequence[str] | None = None
                  ) -> tuple[pd.DataFrame, dict[str, int]]:
    """(queries x runs frame of the weighted values over the queries every run scored, indexed by task and query id;
    queries dropped per run). The plain mean of a column is the run's score (see the module).

    >>> pq = pd.DataFrame({"run": list("aaaabbb"), "task": ["t2c", "t2c", "c2t", "c2t", "t2c", "t2c", "c2t"],
    ...                    "query_id": ["q1", "q2", "q3", "q4", "q1", "q2", "q3"],
    ...                    "ndcg_at_10": [1.0, 0.0, 0.5, 0.2, 0.5, 0.5, 0.5]})
    >>> values, dropped = shared_values(pq)  # q4: only a scored it; C2T's one query weighs as much as T2C's two
    >>> values.round(3).to_dict("list"), dropped, values.mean().to_dict()
    ({'a': [0.75, 0.75, 0.0], 'b': [0.75, 0.375, 0.375]}, {'a': 1, 'b': 0}, {'a': 0.5, 'b': 0.5})
    """
    check_choice_of_task(task)
    if average not in AVERAGES:
        raise CorebError(f"unknown average {average!r}; choose {' or '.join(AVERAGES)}")
    if metric.column not in per_query.columns:
        raise CorebError(f"unknown metric {str(metric)!r}: the per-query table has no such column")
    rows = per_query if task is None else per_query[per_query["task"].astype(str) == task]
    rows = rows.assign(run=rows["run"].astype(str), task=rows["task"].astype(str),
                       query_id=rows["query_id"].astype(str))
    names = list(dict.fromkeys(runs if runs is not None else rows["run"]))
    present = set(rows["run"].unique())
    empty = [r for r in names if r not in present]
    if empty:
        raise CorebError(f"run {empty[0]} has no scored query on {task.upper() if task else 'any task'}")
    wide = rows[rows["run"].isin(names)].pivot_table(index=["task", "query_id"], columns="run", values=metric.column,
                                                     aggfunc="first", observed=True)
    wide = wide.reindex(columns=names)
    scored = wide.notna()
    dropped = {r: int(scored[r].sum() - scored.all(axis=1).sum()) for r in names}
    wide = wide[scored.all(axis=1)].astype(float)
    if len(wide) and average == "tasks" and task is None:  # each task weighs 1 / (number of tasks)
        task_of = wide.index.get_level_values("task")
        counts = pd.Series(task_of).map(pd.Series(task_of).value_counts()).to_numpy()
        wide = wide.mul(len(wide) / (counts * len(set(task_of))), axis=0)
    return wide, dropped


def check_choice_of_task(task: str | None) -> None:
    """A task of CoREB or None (every task); else a one-line CorebError.

    >>> check_choice_of_task("x2y")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown task 'x2y'; choose from t2c, c2c, c2t (or none: every task)
    """
    if task is not None and task not in TASK_NAMES:
        raise CorebError(f"unknown task {task!r}; choose from {', '.join(TASK_NAMES)} (or none: every task)")


def rank_intervals(values: np.ndarray, strata: np.ndarray, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0,
                   level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) percentile bounds of each column's rank (1 = highest mean) over paired bootstrap resamples of the
    rows, drawn within each stratum (its row count kept).

    >>> v = np.array([[1.0, 0.0], [1.0, 0.0], [0.9, 0.1]])
    >>> rank_intervals(v, np.array(["t2c"] * 3), n_resamples=100)
    (array([1, 2]), array([1, 2]))
    """
    rng = np.random.default_rng(seed)
    means = np.zeros((n_resamples, values.shape[1]))
    for stratum in dict.fromkeys(strata.tolist()):
        rows = values[strata == stratum]
        # Counts of each query in a resample: a multinomial draw is a resample with replacement, as one matrix.
        counts = rng.multinomial(len(rows), np.full(len(rows), 1 / len(rows)), size=n_resamples)
        means += counts @ rows / len(values)  # the stratum keeps its share of the rows
    ranks = 1 + (means[:, None, :] > means[:, :, None]).sum(axis=2)
    tail = (1 - level) / 2
    low = np.quantile(ranks, tail, axis=0, method="inverted_cdf").astype(int)
    high = np.quantile(ranks, 1 - tail, axis=0, method="inverted_cdf").astype(int)
    return low, high


def rank_tiers(per_query: pd.DataFrame, metric: Measure = NDCG_10, task: str | None = None,
               average: Average = "tasks", runs: Sequence[str] | None = None,
               correction: Correction | str = HOLM, alpha: float = DEFAULT_ALPHA,
               n_permutations: int = DEFAULT_PERMUTATIONS, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0,
               level: float = 0.95) -> Tiers:
    """Tiers and rank intervals of ``runs`` (default: every run of ``per_query``) on ``task`` (None: every task,
    averaged as ``average`` says) over the queries all of them scored; see the module.

    ``per_query`` is ``Evaluation.per_query(scheme)``'s frame (columns run, task, query_id and the metrics).
    A one-line CorebError for an unknown task or metric, a level outside (0, 1), or runs that share no query.
    """
    correction, alpha = Correction.parse(correction), check_alpha(alpha)
    wide, dropped = shared_values(per_query, metric, task, average, runs)
    names = list(wide.columns)
    if not names:
        raise CorebError("no runs to put in tiers")
    if wide.empty:
        where = task.upper() if task else "any task"
        raise CorebError(f"the runs share no scored query on {where}: no tiers without common queries")
    means = wide.mean()
    order = sorted(names, key=lambda r: (-means[r], names.index(r)))  # ties keep the input order
    tables = {r: pd.DataFrame({"task": wide.index.get_level_values("task"),
                               "query_id": wide.index.get_level_values("query_id"), VALUE: wide[r].to_numpy()})
              for r in order}
    tested = compare_runs(tables, VALUE, n_permutations, seed, correction=correction,  # flips for the printed digits
                          max_permutations=adaptive_limit(n_permutations)) if len(order) > 1 else None
    separable: set[frozenset[str]] = set()
    found = []
    if tested is not None:
        for row in tested.itertuples(index=False):
            significant = bool(row.p_randomization_adjusted < alpha)
            if significant:
                separable.add(frozenset((row.a, row.b)))
            found.append((str(row.a), str(row.b), float(row.mean_delta), float(row.p_randomization),
                          float(row.p_randomization_adjusted), significant))
    tier_list = assign_tiers(order, separable)
    tier = dict(zip(order, tier_list))
    observed = {r: 1 + int(sum(means[o] > means[r] for o in order)) for r in order}
    low, high = rank_intervals(wide[order].to_numpy(), wide.index.get_level_values("task").to_numpy(),
                               n_resamples, seed, level)
    out = []
    for i, r in enumerate(order):
        lo, hi = int(low[i]), int(high[i])
        out.append(RunTier(r, observed[r], tier[r], float(means[r]), min(lo, observed[r]), max(hi, observed[r]),
                           not lo <= observed[r] <= hi, dropped[r]))
    pairs = tuple(TierPair(a, b, d, p, q, s, tier[a] == tier[b]) for a, b, d, p, q, s in found)
    return Tiers(tuple(out), pairs, metric.column, task, average, correction, alpha, len(wide), n_permutations, n_resamples)
