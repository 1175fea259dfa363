"""Qrel deflation: how much a run's score falls from the binary v1 view to the official v2 scoring.

Under v1 every judged document (rel >= 1) is relevant, so a trap (rel=1: a failing or
constraint-breaking solution of the same problem, or a noise description) counts as a hit. Under v2
only rel=2 positives earn gain: traps earn nothing and push the positives down. The drop v1 -> v2
measures how much a run relies on documents that look right but are not.

Everything here reads the tables of ``coreb_core.evaluate.analyse_many`` (group means
``"<scheme>:<by>"`` and the per-query ``"traps"`` frame); no metric is recomputed.

Example:
    >>> tables = analyse_many(store, {"bm25": hits}, (V2, V1, Scheme.parse("file:v1")), traps=True,
    ...                       groupings=("task", "subtask"))
    >>> deflation_table(tables, "task")[["run", "task", "v1_source", "v1", "v2", "drop"]]
    >>> top_drop_queries(tables["traps"], "t2c", per_run=5)
"""
from __future__ import annotations

from typing import Mapping

import numpy as np
import pandas as pd

from coreb_core.schemes import DESCRIPTIONS
from coreb_core.store import Store

METRIC = "ndcg_at_10"
COMPUTED = "v1 (computed from v2 qrels)"
FILE = "v1 (stored v1 qrel files)"
V1_SOURCES = {"v1": COMPUTED, "file:v1": FILE}
WHY_V2_DEFLATES = ("v2 deflates scores because traps (rel=1) earn no gain under v2, while under v1 they count "
                   "as hits, and every trap ranked above a positive also pushes that positive down.")


def scheme_definitions() -> pd.DataFrame:
    """The schemes this page compares, in plain language (from ``coreb_core.schemes.DESCRIPTIONS``).

    >>> scheme_definitions()["scheme"].tolist()
    ['v2', 'v1', 'file:v1']
    """
    return pd.DataFrame({"scheme": ["v2", "v1", "file:v1"],
                         "definition": [DESCRIPTIONS["v2"], DESCRIPTIONS["v1"], DESCRIPTIONS["file"]]})


def _means(tables: Mapping[str, pd.DataFrame], scheme: str, by: str) -> pd.DataFrame | None:
    frame = tables.get(f"{scheme}:{by}")
    if frame is None:
        return None
    keys = ["run", "task"] + ([by] if by != "task" else [])
    out = frame[keys + ["queries", METRIC]].copy()
    out["run"] = out["run"].astype(str)
    return out


def deflation_table(tables: Mapping[str, pd.DataFrame], by: str = "task", task: str | None = None,
                    labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """v1 against v2 nDCG@10 per run and task (``by="task"``) or per task and ``by`` group.

    One row per run, task, (group) and v1 source: ``COMPUTED`` (scheme v1 on the v2 qrels, table
    ``"v1:<by>"``) and, when ``tables`` holds ``"file:v1:<by>"``, ``FILE`` (the release's real v1
    qrels). Columns: run, [label], task, [by], v1_source, queries_v1, v1, queries_v2, v2,
    drop (= v1 - v2) and relative_drop (= drop / v1, NaN when v1 is 0). ``task`` keeps one task.

    >>> t = deflation_table(tables, "task")
    >>> t.loc[t.v1_source == COMPUTED, "drop"]  # v1 - v2 per run and task
    """
    v2 = _means(tables, "v2", by)
    if v2 is None:
        raise KeyError(f"tables lack 'v2:{by}': call analyse_many with groupings=({by!r},) and scheme v2")
    keys = ["run", "task"] + ([by] if by != "task" else [])
    v2 = v2.rename(columns={"queries": "queries_v2", METRIC: "v2"})
    parts = []
    for scheme, source in V1_SOURCES.items():
        v1 = _means(tables, scheme, by)
        if v1 is None:
            continue
        v1 = v1.rename(columns={"queries": "queries_v1", METRIC: "v1"})
        merged = v1.merge(v2, on=keys, how="inner")
        merged.insert(len(keys), "v1_source", source)
        parts.append(merged)
    columns = keys + ["v1_source", "queries_v1", "v1", "queries_v2", "v2"]
    out = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
    out = out[columns]
    if task is not None:
        out = out[out["task"] == task]
    out["drop"] = out["v1"] - out["v2"]
    out["relative_drop"] = np.where(out["v1"] > 0, out["drop"] / out["v1"].where(out["v1"] > 0, 1.0), np.nan)
    out["v1_source"] = pd.Categorical(out["v1_source"], [COMPUTED, FILE])
    out = out.sort_values(keys[1:] + ["run", "v1_source"], kind="stable").reset_index(drop=True)
    out["v1_source"] = out["v1_source"].astype(str)
    if labels is not None:
        out.insert(1, "label", out["run"].map(lambda r: labels.get(r, r)))
    return out


def slope_data(deflation: pd.DataFrame) -> pd.DataFrame:
    """Long form of a per-task ``deflation_table`` for a slope chart: one line per run, task and
    v1 source, from its v1 point (``scheme`` "v1") to its v2 point (``scheme`` "v2").

    >>> slope_data(deflation_table(tables))[["run", "task", "v1_source", "scheme", "ndcg_at_10"]]
    """
    keep = [c for c in ("run", "label", "task", "v1_source") if c in deflation]
    v1 = deflation[keep + ["v1", "queries_v1"]].rename(columns={"v1": METRIC, "queries_v1": "queries"})
    v1.insert(len(keep), "scheme", "v1")
    v2 = deflation[keep + ["v2", "queries_v2"]].rename(columns={"v2": METRIC, "queries_v2": "queries"})
    v2.insert(len(keep), "scheme", "v2")
    out = pd.concat([v1, v2], ignore_index=True)
    out["line"] = out["run"].astype(str) + " · " + out["task"].astype(str) + " · " + out["v1_source"]
    return out.sort_values(["task", "run", "v1_source", "scheme"], kind="stable").reset_index(drop=True)


def top_drop_queries(traps: pd.DataFrame, task: str, per_run: int = 10, store: Store | None = None,
                     labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Per run, the ``per_run`` queries of ``task`` with the largest v1 - v2 nDCG@10.

    Each query adds ``v1_minus_v2_ndcg_at_10 / queries`` to its run's mean drop on the task
    (``contribution``); ``share_of_drop`` is that query's part of the run's total drop (sum over
    the task's queries) and ``cumulative_share`` the running total in this order. With a ``store``
    the query's subtask and text are added. Queries whose v1 is not above v2 are left out.

    >>> top_drop_queries(tables["traps"], "t2c", per_run=3)[["run", "query_id", "v1_minus_v2_ndcg_at_10"]]
    """
    rows = traps[traps["task"] == task].copy(deep=False)
    rows.attrs = {}  # evaluate's array-valued attrs would break pandas' concat/merge of the parts
    diff = "v1_minus_v2_ndcg_at_10"
    cols = ["run", "query_id", "ndcg_at_10_v1", "ndcg_at_10", diff, "traps_above_first_positive",
            "traps_in_top_10", "first_positive_rank", "first_trap_rank"]
    parts = []
    for run, group in rows.groupby("run", observed=True, sort=False):
        n = len(group)
        total = float(group[diff].sum())
        top = group[group[diff] > 0].sort_values([diff, "query_id"], ascending=[False, True], kind="stable")
        top = top.head(per_run)[cols].copy()
        top["run"] = str(run)
        top["rank_in_run"] = np.arange(1, len(top) + 1)
        top["contribution"] = top[diff] / n
        top["share_of_drop"] = top[diff] / total if total > 0 else np.nan
        top["cumulative_share"] = top["share_of_drop"].cumsum()
        top["queries_in_task"] = n
        parts.append(top)
    out = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=cols + ["rank_in_run", "contribution", "share_of_drop", "cumulative_share", "queries_in_task"])
    out["query_id"] = out["query_id"].astype(str)
    out = out.rename(columns={"ndcg_at_10_v1": "v1_ndcg_at_10", "ndcg_at_10": "v2_ndcg_at_10"})
    out.insert(1, "task", task)
    if store is not None and len(out):
        facts = store.sql("SELECT query_id, subtask, query FROM queries WHERE task = ?", [task]).df()
        out = out.merge(facts, on="query_id", how="left")
    if labels is not None:
        out.insert(1, "label", out["run"].map(lambda r: labels.get(r, r)))
    return out.reset_index(drop=True)
