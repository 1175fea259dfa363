"""What changes when the labels are read otherwise: the official v2 qrels against a corrected reading (``executed``:
relevance verified by execution; ``judged``: the researchers' judgments applied). Per run and task, the score under
each and how many queries move; the queries that move most; and, from two model selections, the runs whose rank or
tier moves and whether the verdict flips.

Everything reads per-query tables (``Evaluation.per_query``) and ``Recommendation`` values; nothing is scored here.

Example:
    >>> base = pd.DataFrame({"run": ["a", "a"], "task": ["c2c", "c2c"], "query_id": ["q1", "q2"],
    ...                      "ndcg_at_10": [0.5, 1.0]})
    >>> other = base.assign(ndcg_at_10=[0.4, 1.0])
    >>> task_changes(base, other)[["run", "task", "queries", "base", "other", "moved", "down"]].values.tolist()
    [['a', 'c2c', 2, 0.75, 0.7, 1, 1]]
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.analysis.selection import Recommendation
from coreb_core.data.measures import NDCG_10, Measure

KEYS = ["run", "task", "query_id"]
SAME = 1e-12  # a per-query score closer than this under both readings has not moved


def paired(base: pd.DataFrame, other: pd.DataFrame, metric: Measure = NDCG_10) -> pd.DataFrame:
    """One row per (run, task, query) scored under both readings: ``base``, ``other`` and ``delta`` (other - base)."""
    column = metric.column
    both = base[KEYS + [column]].merge(other[KEYS + [column]], on=KEYS, suffixes=("_base", "_other"))
    both = both.rename(columns={f"{column}_base": "base", f"{column}_other": "other"})
    both["delta"] = both["other"] - both["base"]
    return both


def task_changes(base: pd.DataFrame, other: pd.DataFrame, metric: Measure = NDCG_10) -> pd.DataFrame:
    """Per run and task: the queries both readings score, the mean under each (fractions), the change, and how many
    queries moved (up, down)."""
    both = paired(base, other, metric)
    moved = both["delta"].abs() > SAME
    out = both.assign(moved=moved, up=moved & (both["delta"] > 0), down=moved & (both["delta"] < 0)).groupby(
        ["run", "task"], sort=True, observed=True).agg(queries=("query_id", "size"), base=("base", "mean"),
                                                       other=("other", "mean"), moved=("moved", "sum"),
                                                       up=("up", "sum"), down=("down", "sum")).reset_index()
    out["delta"] = out["other"] - out["base"]
    out[["moved", "up", "down"]] = out[["moved", "up", "down"]].astype(int)
    return out[["run", "task", "queries", "base", "other", "delta", "moved", "up", "down"]]


def moved_queries(base: pd.DataFrame, other: pd.DataFrame, metric: Measure = NDCG_10, top: int = 20
                  ) -> pd.DataFrame:
    """The ``top`` (run, query) pairs whose score moved most between the readings, largest change first."""
    both = paired(base, other, metric)
    both = both[both["delta"].abs() > SAME]
    order = np.lexsort((both["query_id"].to_numpy(), both["run"].to_numpy(), -both["delta"].abs().to_numpy()))
    return both.iloc[order].head(top).reset_index(drop=True)


class RunChange(NamedTuple):
    """One run's place in the model selection under each reading (rank 1 is best; tier None: fewer than two runs)."""

    run: str
    rank_base: int | None  # None: the run is not ranked under that reading (left out)
    rank_other: int | None
    tier_base: int | None
    tier_other: int | None
    mean_base: float | None
    mean_other: float | None

    @property
    def moved(self) -> bool:
        """The run's rank or tier is not the same under both readings."""
        return (self.rank_base, self.tier_base) != (self.rank_other, self.tier_other)


def _places(rec: Recommendation) -> dict[str, tuple[int, int | None, float]]:
    out = {}
    for s in rec.standings:
        place = rec.tiers.tier_of(s.run) if rec.tiers is not None else None
        out[s.run] = (s.rank, place.tier if place is not None else None, s.mean)
    return out


def standing_changes(base: Recommendation, other: Recommendation) -> list[RunChange]:
    """Every run ranked under either reading, in its base order, with its rank, tier and mean under both."""
    a, b = _places(base), _places(other)
    runs = list(a) + [r for r in b if r not in a]
    return [RunChange(r, a[r][0] if r in a else None, b[r][0] if r in b else None,
                      a[r][1] if r in a else None, b[r][1] if r in b else None,
                      a[r][2] if r in a else None, b[r][2] if r in b else None) for r in runs]


def verdict_flips(base: Recommendation, other: Recommendation) -> bool:
    """True when the two readings recommend differently: another first run, or a clear winner under one only.

    >>> from coreb_core.analysis.selection import Recommendation
    >>> empty = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), ("any",), None, "tasks")
    >>> verdict_flips(empty, empty)
    False
    """
    def verdict(rec: Recommendation) -> tuple[str | None, bool]:
        if not rec.standings:
            return None, False
        clear = len(rec.standings) == 1 or bool(rec.standings[1].significant)
        return rec.standings[0].run, clear
    return verdict(base) != verdict(other)
