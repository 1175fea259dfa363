"""Hubs: documents that crowd many queries' top k. A hub is a failure of its own kind: one document (often a trap of
some queries, or a noise description) that a model puts near the top for everything, pushing each query's answers
down. Per run and task: the documents in the most top-k lists, their grade for each of those queries (positive,
trap, judged negative, unjudged), the trap kind when they are a trap, their length, language, whether they pass their
tests (code) or are noise (text), their problem's number of queries, and in how many of the runs they are hubs too.

A run's top k of a query is its first k stored documents in rank order, the query's own id and (with anchor
exclusion, as the evaluator) the C2C anchor left out: the list the evaluator scores at k.

Example (CoREB-mini and a BM25 run in ``root``):
    >>> from coreb_core.runs.folders import read_hits
    >>> with Store("demo_v2603", root) as store:
    ...     table = hubs(store, {"bm25": read_hits(bm25, root)}, "c2t", k=10, top=3)
    >>> list(table.columns[:4]), len(table), bool(table["lists"].is_monotonic_decreasing)
    (['run', 'task', 'doc_id', 'lists'], 3, True)
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from coreb_core.analysis.traps.kinds import classify_traps
from coreb_core.data.schema import CORPUS_OF_TASK, NEGATIVE, POSITIVE, TRAP
from coreb_core.data.store import Store

GRADE_COLUMNS = {POSITIVE: "positive", TRAP: "trap", NEGATIVE: "judged_negative"}
COLUMNS = ["run", "task", "doc_id", "lists", "queries", "share", "positive", "trap", "judged_negative", "unjudged",
           "trap_kind", "length", "language", "passed", "is_noise", "problem_id", "problem_queries", "hub_in_runs"]


def top_k_lists(hits: pd.DataFrame, task: str, k: int, anchors: Mapping[str, str] | None = None) -> pd.DataFrame:
    """(query_id, doc_id, rank) of each query's first ``k`` stored documents of ``task``, in rank order, without the
    query's own id and the documents ``anchors`` names for it (query id -> anchor id: C2C with anchor exclusion).

    >>> hits = pd.DataFrame({"task": ["c2c"] * 3, "query_id": ["q"] * 3, "doc_id": ["a", "b", "c"], "rank": [1, 2, 3],
    ...                      "in_top_k": [True] * 3})
    >>> top_k_lists(hits, "c2c", 2, {"q": "a"})["doc_id"].tolist()
    ['b', 'c']
    """
    part = hits[(hits["task"] == task) & hits["in_top_k"].astype(bool) & hits["doc_id"].notna()]
    part = part[["query_id", "doc_id", "rank"]].astype({"query_id": str, "doc_id": str})
    drop = part["doc_id"] == part["query_id"]
    if anchors:
        drop |= part["query_id"].map(anchors) == part["doc_id"]
    part = part[~drop].sort_values(["query_id", "rank"], kind="stable")
    return part.groupby("query_id", sort=False).head(k).reset_index(drop=True)


def hubs(store: Store, runs: Mapping[str, pd.DataFrame], task: str, k: int = 10, top: int = 20,
         anchor_exclusion: bool = True) -> pd.DataFrame:
    """The ``top`` documents in the most top-``k`` lists of each run on ``task`` (see the module), most lists first.

    ``lists`` counts the queries whose top k holds the document (``share``: of the task's queries the run lists);
    ``positive`` / ``trap`` / ``judged_negative`` / ``unjudged`` split them by the document's grade for each query;
    ``trap_kind`` is its most frequent trap kind where it is a trap; ``hub_in_runs`` is in how many of ``runs`` it is
    among the ``top`` hubs too.
    """
    corpus = CORPUS_OF_TASK[task]
    anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE task = ? AND anchor_code_id IS NOT "
                             "NULL", [task]).fetchall()) if anchor_exclusion else {}
    grades = store.df("SELECT query_id, doc_id, relevance FROM qrels WHERE task = ?", [task])
    facts = store.df("SELECT query_id, subtask, problem_id, target_language, anchor_language FROM queries "
                     "WHERE task = ?", [task])
    docs = store.df("SELECT doc_id, length(content) AS length, problem_id, language, model, passed, is_noise "
                    "FROM documents WHERE corpus = ?", [corpus])
    per_problem = facts.groupby("problem_id").size()
    frames = []
    for run, hits in runs.items():
        lists = top_k_lists(hits, task, k, anchors)
        if lists.empty:
            continue
        graded = lists.merge(grades, on=["query_id", "doc_id"], how="left")
        counts = graded.groupby("doc_id").size().rename("lists").sort_values(ascending=False, kind="stable")
        chosen = counts.head(top).index
        rows = graded[graded["doc_id"].isin(chosen)]
        split = pd.crosstab(rows["doc_id"], rows["relevance"].fillna(-1).astype(int))
        table = pd.DataFrame({"run": run, "task": task, "doc_id": chosen, "lists": counts.loc[chosen].to_numpy(),
                              "queries": lists["query_id"].nunique()})
        for grade, name in GRADE_COLUMNS.items():
            table[name] = table["doc_id"].map(split[grade] if grade in split else {}).fillna(0).astype(int)
        table["unjudged"] = table["doc_id"].map(split[-1] if -1 in split else {}).fillna(0).astype(int)
        table["trap_kind"] = table["doc_id"].map(_trap_kinds(rows, facts, docs, task))
        frames.append(table)
    if not frames:
        return pd.DataFrame(columns=COLUMNS)
    out = pd.concat(frames, ignore_index=True)
    out["share"] = out["lists"] / out["queries"]
    out = out.merge(docs[["doc_id", "length", "language", "passed", "is_noise", "problem_id"]], on="doc_id", how="left")
    out["problem_queries"] = out["problem_id"].map(per_problem).fillna(0).astype(int)
    out["hub_in_runs"] = out.groupby("doc_id")["run"].transform("nunique")
    return out[COLUMNS].sort_values(["run", "lists", "doc_id"], ascending=[True, False, True],
                                    kind="stable").reset_index(drop=True)


def _trap_kinds(rows: pd.DataFrame, facts: pd.DataFrame, docs: pd.DataFrame, task: str) -> pd.Series:
    """Doc id -> its most frequent trap kind among the lists where it is a trap (absent where it is none)."""
    traps = rows[rows["relevance"] == TRAP]
    if traps.empty:
        return pd.Series(dtype=object)
    frame = traps.merge(facts, on="query_id").merge(docs, on="doc_id", suffixes=("", "_doc")).assign(task=task)
    frame["kind"] = classify_traps(frame)["kind"].to_numpy()
    return frame.groupby("doc_id")["kind"].agg(lambda kinds: kinds.value_counts().index[0])

