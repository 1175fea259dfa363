"""How often traps (rel=1 hard negatives) beat the positives, per run and query group.

Built on the per-query trap table of ``coreb_core.evaluation.evaluate`` (``trap_table`` or the "traps" frame of
``analyse_many``, both with the official rank semantics) plus the query facts of
``coreb_core.data.store.with_query_facts``; nothing here re-computes a metric, it only counts and averages.

The *share of queries lost to a trap* (``share_lost``, defined once here: the page, the CLI's ``traps``, the
model selection and the report use it) is over the queries that have a positive: a query without any (a
``c2t_match`` label-0 pair, 190 of release_v2603's 1,200 C2T queries) cannot lose, so it is left out of the
denominator. The two other measures, traps in the top 10 and a trap at rank 1, need no positive: they are over
every evaluated query of a group.

Example (CoREB-mini and a BM25 run in ``root``):
    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.runs.folders import read_hits
    >>> traps = analyse_many(store, {"bm25": read_hits(bm25)}, (), traps=True).traps
    >>> table = trap_breakdown(store, traps, task="t2c", level="subtask")
    >>> table[["run", "subtask", "queries", "share_trap_above_positive"]].head(3)
        run                  subtask  queries  share_trap_above_positive
    0  bm25  t2c_canonical_retro_any       24                   0.041667
    1  bm25  t2c_canonical_retro_cpp       24                   0.791667
    2  bm25   t2c_canonical_retro_go       24                   0.666667
    >>> worst_queries(store, traps, task="t2c", limit=2)[["run", "query_id", "traps_above_first_positive"]]
        run               query_id  traps_above_first_positive
    0  bm25  q_t2c_search_cpp_0332                           3
    1  bm25   q_t2c_search_go_0645                           3
"""
from __future__ import annotations

from typing import Any, Literal

import numpy as np
import pandas as pd

from coreb_core.data.schema import GROUPINGS
from coreb_core.data.slice_keys import SliceKey, slice_labels
from coreb_core.data.store import Store, with_query_facts
from coreb_core.errors import CorebError

# Group levels the page offers: label -> query-fact columns (after run and task).
Level = Literal["subtask × target language", "subtask", "target language", "task"]  # LEVELS' keys as a type
LEVELS: dict[str, list[str]] = {
    "subtask × target language": [GROUPINGS["subtask"], GROUPINGS["language"]],
    "subtask": [GROUPINGS["subtask"]],
    "target language": [GROUPINGS["language"]],
    "task": [],
}
MEASURES = {
    "share_trap_above_positive": "share of queries lost to a trap (of those with a positive)",
    "traps_in_top_10_per_query": "traps in the top 10 per query",
    "share_trap_at_1": "share of queries with a trap at rank 1",
}


def share_lost(lost: Any, with_positive: Any) -> Any:
    """The share of queries lost to a trap: ``lost`` (queries with a positive whose best positive some judged
    trap outranks) over ``with_positive`` (the queries with a positive); NaN where none has a positive.
    Numbers or arrays (then an array).

    >>> round(share_lost(526, 1010), 4), share_lost(np.array([3, 0]), np.array([4, 0])).tolist()
    (0.5208, [0.75, nan])
    """
    lost, with_positive = np.asarray(lost, dtype=np.float64), np.asarray(with_positive, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(with_positive > 0, lost / with_positive, np.nan)
    return share if share.ndim else float(share)


def _facts(store: Store, traps: pd.DataFrame, task: str | None) -> pd.DataFrame:
    if "run" not in traps:
        traps = traps.assign(run="run")
    frame = traps if task is None else traps[traps["task"] == task]
    return with_query_facts(store, frame)


def trap_breakdown(store: Store, traps: pd.DataFrame, task: str | None = None,
                   level: str = "subtask × target language") -> pd.DataFrame:
    """Per run x task x group: queries, the three trap measures and mean v2 nDCG@10. ``level``: one of ``LEVELS``
    or a metadata slice key (``coreb_core.data.slice_keys``: ``query.anchor_model``, ``positive.pass_rate``…).

    Columns: run, task, <group columns of ``LEVELS[level]``, or the slice key's canonical name>, group (those joined with " · "; the task
    for level "task"), queries, share_trap_above_positive (``share_lost``: of queries_with_positive),
    traps_in_top_10_per_query, share_trap_at_1 (of every query), queries_trap_above_positive (the queries lost
    to a trap), ndcg_at_10 (v2 mean), queries_with_positive.
    Rows ordered by run (as given), task, group.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.runs.folders import read_hits
    >>> traps = analyse_many(store, {"bm25": read_hits(bm25)}, (), traps=True).traps  # demo_v2603
    >>> trap_breakdown(store, traps, task="c2c", level="subtask")[["subtask", "queries", "share_trap_at_1"]].head(2)
               subtask  queries  share_trap_at_1
    0   c2c_cross_lang       96         0.322917
    1  c2c_cross_model       24         0.625000
    >>> trap_breakdown(store, traps, task="c2c", level="anchor_model")[["query.anchor_model", "queries"]]
      query.anchor_model  queries
    0       mini-concise       48
    1       mini-verbose       96
    """
    frame = _facts(store, traps, task)
    if level in LEVELS:
        columns = LEVELS[level]
    else:  # a metadata slice: the key's labels as one more column
        try:
            key = SliceKey.parse(level).check(store)
        except CorebError as e:
            raise CorebError(f"unknown level {level!r}: one of {', '.join(LEVELS)}, or a metadata field: {e}") from None
        columns = [str(key)]
        frame[str(key)] = slice_labels(store, key)[store.query_ids.get_indexer(frame["query_id"])]
    keys = ["run", "task", *columns]
    grouped = frame.groupby(keys, observed=True, sort=True)
    out = grouped.agg(queries=("query_id", "size"),
                      share_trap_above_positive=("trap_above_positive", "sum"),  # the share below
                      traps_in_top_10_per_query=("traps_in_top_10", "mean"),
                      share_trap_at_1=("trap_at_1", "mean"),
                      queries_trap_above_positive=("trap_above_positive", "sum"),
                      ndcg_at_10=("ndcg_at_10", "mean"),
                      queries_with_positive=("has_positive", "sum")).reset_index()
    for column in keys:
        out[column] = out[column].astype(str)
    out["queries_trap_above_positive"] = out["queries_trap_above_positive"].astype(int)
    out["queries_with_positive"] = out["queries_with_positive"].astype(int)
    out["share_trap_above_positive"] = share_lost(out["queries_trap_above_positive"], out["queries_with_positive"])
    group = columns or ["task"]
    # No query of ``task`` among the runs (e.g. runs made for other tasks): an empty table, not an error.
    labels = out[group].agg(" · ".join, axis=1) if len(out) else pd.Series([], dtype=object)
    out.insert(len(keys), "group", labels)
    return out


def worst_queries(store: Store, traps: pd.DataFrame, task: str | None = None, run: str | None = None,
                  limit: int = 25) -> pd.DataFrame:
    """The queries traps hurt most: most traps above the first positive, then lowest v2 nDCG@10
    (then run and query id, for a stable order).

    Columns: run, task, query_id, subtask, target_language, problem_id, traps_above_first_positive,
    first_positive_rank, first_trap_rank, traps_in_top_10, trap_at_1, ndcg_at_10.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.runs.folders import read_hits
    >>> traps = analyse_many(store, {"bm25": read_hits(bm25)}, (), traps=True).traps  # demo_v2603
    >>> worst = worst_queries(store, traps, task="c2c", limit=2)
    >>> worst[["query_id", "traps_above_first_positive", "first_positive_rank"]]
                     query_id  traps_above_first_positive  first_positive_rank
    0  q_c2c_cross_model_0130                           3                 14.0
    1  q_c2c_cross_model_0136                           3                 73.0
    """
    frame = _facts(store, traps, task)
    if run is not None:
        frame = frame[frame["run"] == run]
    columns = ["run", "task", "query_id", "subtask", "target_language", "problem_id", "traps_above_first_positive",
               "first_positive_rank", "first_trap_rank", "traps_in_top_10", "trap_at_1", "ndcg_at_10"]
    out = frame[columns].copy()
    for column in ("run", "task", "query_id"):
        out[column] = out[column].astype(str)
    out = out.sort_values(["traps_above_first_positive", "ndcg_at_10", "run", "query_id"],
                          ascending=[False, True, True, True], kind="stable")
    return out.head(limit).reset_index(drop=True)
