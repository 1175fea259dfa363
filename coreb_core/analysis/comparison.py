"""Compare runs on one task: paired tests, intervals and per-query deltas, ready to display.

Thin verbs over ``coreb_core.evaluation.significance`` (paired t-test, paired randomization test, Holm correction,
win/tie/loss, bootstrap intervals) applied to the per-query frame of ``analyse_many`` (one frame,
leading ``run`` column). Comparisons always use the queries both runs share; how many were dropped
is reported.

Example:
    >>> tables = analyse_many(store, {"bm25": h1, "minilm": h2}, (V2,))
    >>> per_query = split_runs(tables.per_query("v2"), "t2c", ["bm25", "minilm"])
    >>> pairs = pair_table(per_query, "ndcg_at_10")          # mean Δ, p-values (Holm), win/tie/loss
    >>> pairs[["a", "b", "mean_delta", "p_randomization_holm", "wins", "ties", "losses"]]
    >>> deltas = pair_deltas(per_query, "bm25", "minilm", "ndcg_at_10")   # per query, sorted by Δ
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from coreb_core.evaluation.significance import KEYS, TIE_TOLERANCE, compare_runs, intervals
from coreb_core.data.store import Store, with_query_facts

ID_COLUMNS = ("run", "task", "query_id")


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """A view of ``frame`` without ``attrs``: a caller's frame may carry array-valued attrs, which make
    pandas' merge/concat fail when two different runs' frames meet."""
    out = frame.copy(deep=False)
    out.attrs = {}
    return out


def _plain_all(per_query: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    return {k: _plain(v) for k, v in per_query.items()}


def metric_columns(per_query: pd.DataFrame) -> list[str]:
    """The metric columns of a per-query frame (``ndcg_at_10``, ``map_at_10``, …), in frame order.

    >>> metric_columns(pd.DataFrame({"run": ["a"], "task": ["t2c"], "query_id": ["q"], "ndcg_at_10": [1.0]}))
    ['ndcg_at_10']
    """
    return [c for c, t in per_query.dtypes.items() if c not in ID_COLUMNS and t.kind == "f"]


def split_runs(per_query: pd.DataFrame, task: str, run_ids: Sequence[str]) -> dict[str, pd.DataFrame]:
    """One task's per-query rows of each run (in ``run_ids`` order; a run without rows gets an
    empty frame), with plain string ``task``/``query_id`` columns.

    >>> split_runs(tables.per_query("v2"), "t2c", ["bm25", "minilm"])["bm25"].shape[0]
    216
    """
    rows = per_query[per_query["task"] == task]
    runs = rows["run"].astype(str).to_numpy()
    out = {}
    for run in run_ids:
        part = _plain(rows[runs == run].drop(columns="run").reset_index(drop=True))
        part["task"] = part["task"].astype(str)
        part["query_id"] = part["query_id"].astype(str)
        out[run] = part
    return out


def coverage(per_query: Mapping[str, pd.DataFrame]) -> dict[str, int]:
    """Queries in every run (``shared``), in at least one (``any``), and ``dropped`` = any - shared.

    >>> coverage({"a": frame_with_q1_q2, "b": frame_with_q2})
    {'shared': 1, 'any': 2, 'dropped': 1}
    """
    sets = [set(zip(*(t[k].astype(str) for k in KEYS))) for t in per_query.values()]
    if not sets:
        return {"shared": 0, "any": 0, "dropped": 0}
    shared, union = set.intersection(*sets), set.union(*sets)
    return {"shared": len(shared), "any": len(union), "dropped": len(union) - len(shared)}


def pair_table(per_query: Mapping[str, pd.DataFrame], metric: str = "ndcg_at_10",
               labels: Mapping[str, str] | None = None, n_permutations: int = 10_000, seed: int = 0) -> pd.DataFrame:
    """Every pair (a, b) in input order: ``coreb_core.evaluation.significance.compare_runs`` (shared / dropped queries,
    means, mean Δ = a - b, paired t-test and randomization p-values and their Holm-corrected values,
    wins / ties / losses of a), plus ``label_a`` / ``label_b`` when ``labels`` is given.

    >>> pair_table({"A": a, "B": b})[["a", "b", "mean_delta", "wins", "ties", "losses"]]
    """
    table = compare_runs(_plain_all(per_query), metric, n_permutations, seed)
    if labels is not None and len(table):
        table.insert(2, "label_a", table["a"].map(lambda r: labels.get(r, r)))
        table.insert(3, "label_b", table["b"].map(lambda r: labels.get(r, r)))
    return table


def run_intervals(per_query: Mapping[str, pd.DataFrame], metric: str = "ndcg_at_10",
                  labels: Mapping[str, str] | None = None, seed: int = 0) -> pd.DataFrame:
    """Mean and percentile-bootstrap 95% interval per run (``coreb_core.evaluation.significance.intervals``), on each
    run's own queries.

    >>> run_intervals({"A": a})[["run", "queries", "mean", "ci_low", "ci_high"]]
    """
    table = intervals({k: v for k, v in _plain_all(per_query).items() if len(v)}, metric, seed)
    if labels is not None and len(table):
        table.insert(1, "label", table["run"].map(lambda r: labels.get(r, r)))
    return table


def pair_deltas(per_query: Mapping[str, pd.DataFrame], a: str, b: str, metric: str = "ndcg_at_10",
                store: Store | None = None) -> pd.DataFrame:
    """Per shared query: ``a`` and ``b``'s metric, ``delta`` = a - b and ``outcome`` (win / tie / loss
    for a, with ``coreb_core.evaluation.significance``'s tie tolerance); sorted by delta, largest first. With a
    ``store`` the query's subtask and text are added.

    >>> tables = analyse_many(store, {"bm25": hits, "no_top1": hits[hits["rank"] != 1]}, (V2,))  # demo_v2603
    >>> per_query = split_runs(tables.per_query("v2"), "t2c", ["bm25", "no_top1"])
    >>> pair_deltas(per_query, "bm25", "no_top1", store=store)[["query_id", "delta", "outcome", "subtask"]].head(2)
                             query_id     delta outcome                  subtask
    0  q_t2c_canonical_retro_cpp_0092  0.613147     win  t2c_canonical_retro_cpp
    1  q_t2c_canonical_retro_cpp_0122  0.613147     win  t2c_canonical_retro_cpp
    """
    left = _plain(per_query[a])[KEYS + [metric]].rename(columns={metric: "value_a"})
    right = _plain(per_query[b])[KEYS + [metric]].rename(columns={metric: "value_b"})
    merged = left.merge(right, on=KEYS)
    merged["delta"] = merged["value_a"] - merged["value_b"]
    merged["outcome"] = np.select([merged["delta"] > TIE_TOLERANCE, merged["delta"] < -TIE_TOLERANCE],
                                  ["win", "loss"], "tie")
    merged = merged.sort_values(["delta", "query_id"], ascending=[False, True], kind="stable").reset_index(drop=True)
    if store is not None and len(merged):
        merged = with_query_facts(store, merged, ("subtask", "query"))
    return merged.rename(columns={"value_a": f"{metric} (a)", "value_b": f"{metric} (b)"})
