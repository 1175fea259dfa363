"""The qrels audit queue: unjudged documents of a query's own problem, in a language the query allows, that one or
more runs rank above every positive of the query, within their top k: candidates for missed positives, what a maintainer of the benchmark would triage
first. A solution that passes its problem's tests (code) is the stronger candidate; how many of the runs put it
there says how sure the models are.

A run's list of a query is the one ``analysis.hubs.top_k_lists`` reads (its first k stored documents, the query's
own id and, with anchor exclusion, the C2C anchor left out).

Example (CoREB-mini and a BM25 run in ``root``):
    >>> from coreb_core.runs.folders import read_hits
    >>> with Store("demo_v2603", root) as store:
    ...     queue = audit_queue(store, {"bm25": read_hits(bm25, root)})
    >>> list(queue.columns[:5]), bool((queue["runs"] >= 1).all())
    (['task', 'query_id', 'doc_id', 'runs', 'of_runs'], True)
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from coreb_core.analysis.hubs import top_k_lists
from coreb_core.analysis.traps.kinds import classify_traps
from coreb_core.data.schema import CORPUS_OF_TASK, POSITIVE, TASK_NAMES
from coreb_core.data.store import Store

COLUMNS = ["task", "query_id", "doc_id", "runs", "of_runs", "best_rank", "passed", "language", "problem_id",
           "subtask", "run_ids"]


def audit_queue(store: Store, runs: Mapping[str, pd.DataFrame], k: int = 10, anchor_exclusion: bool = True,
                tasks: tuple[str, ...] = TASK_NAMES) -> pd.DataFrame:
    """Every (query, unjudged document of the query's problem) that some run ranks above every positive of the query
    within its top ``k``, with how many of ``runs`` do (``runs`` of ``of_runs``) and their best rank; passing
    solutions first, then the most runs, then the best rank."""
    facts = store.df("SELECT task, query_id, subtask, problem_id, anchor_code_id, target_language, anchor_language "
                     "FROM queries")
    judged = store.df("SELECT task, query_id, doc_id, relevance FROM qrels")
    docs = store.df("SELECT corpus, doc_id, problem_id AS doc_problem, passed, language, model, is_noise FROM documents")
    found = []
    for task in tasks:
        info = facts[facts["task"] == task]
        anchors = dict(zip(info["query_id"], info["anchor_code_id"])) if anchor_exclusion else {}
        anchors = {q: a for q, a in anchors.items() if isinstance(a, str)}
        grades = judged[judged["task"] == task]
        corpus = docs[docs["corpus"] == CORPUS_OF_TASK[task]]
        for run, hits in runs.items():
            lists = top_k_lists(hits, task, k, anchors)
            if lists.empty:
                continue
            lists = lists.merge(grades[["query_id", "doc_id", "relevance"]], on=["query_id", "doc_id"], how="left")
            first_pos = lists[lists["relevance"] == POSITIVE].groupby("query_id")["rank"].min().astype(float)
            above = lists[lists["relevance"].isna()
                          & (lists["rank"].astype(float) < lists["query_id"].map(first_pos).fillna(float("inf")))]
            above = above.merge(info[["query_id", "problem_id", "subtask", "target_language", "anchor_language"]],
                                on="query_id")
            above = above.merge(corpus[["doc_id", "doc_problem", "passed", "language", "model", "is_noise"]],
                                on="doc_id")
            above = above[above["doc_problem"].notna() & (above["doc_problem"] == above["problem_id"])]
            # a solution in a language the query rules out (T2C's constraint, C2C's language rule) is no positive
            if not above.empty:
                above = above[~classify_traps(above.assign(task=task))["off_language"].to_numpy()]
            # only queries that have a positive: "above every positive" means nothing without one
            has_positive = set(grades.loc[grades["relevance"] == POSITIVE, "query_id"])
            above = above[above["query_id"].isin(has_positive)]
            found.append(above.assign(task=task, run=run))
    if not found or all(f.empty for f in found):
        return pd.DataFrame(columns=COLUMNS)
    rows = pd.concat(found, ignore_index=True)
    queue = rows.groupby(["task", "query_id", "doc_id"], sort=False).agg(
        runs=("run", "nunique"), best_rank=("rank", "min"), passed=("passed", "first"), language=("language", "first"),
        problem_id=("problem_id", "first"), subtask=("subtask", "first"),
        run_ids=("run", lambda r: ",".join(sorted(set(r))))).reset_index()
    queue["of_runs"] = len(runs)
    queue["passed"] = pd.Series([None if pd.isna(v) else bool(v) for v in queue["passed"]], index=queue.index,
                                dtype=object)  # True / False / None (a text, or unknown)
    queue["passing"] = queue["passed"].astype("boolean").fillna(False)
    queue = queue.sort_values(["passing", "runs", "best_rank", "task", "query_id", "doc_id"],
                              ascending=[False, False, True, True, True, True], kind="stable")
    return queue[COLUMNS].reset_index(drop=True)
