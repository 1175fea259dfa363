"""The qrels audit queue: unjudged documents of a query's own problem, in a language the generator lets the query's
positives be in, that one or more runs rank above every positive of the query within their top k, each with its class
by the official generator's own rules (``analysis.generator_rules``): "would be rel=2" (its positive rule selects the
document: a missed positive), "trap beyond the cap" (a hard negative the draw of 3 left out), "would be rel=1" (a pool
of 3 or fewer that the qrels left it out of), "other". What a maintainer of the benchmark would triage first; how many
of the runs put a document there says how sure the models are.

The language a query allows: T2C its language constraint (any without one); C2C the generator's target languages
(``cross_lang`` and ``cross_model``: ``meta.target_languages``; ``mono_lang``: the anchor's language); C2T any text.
With ``include_traps``, the queue also holds the re-gradable traps: rel=1 passing solutions (T2C, C2C) of the query's
problem in such a language that a run ranks above every positive (``grade`` "trap"), classed the same way
("trap by the rule" where the generator's pool holds them).

A run's list of a query is the one ``analysis.hubs.top_k_lists`` reads (its first k stored documents, the query's
own id and, with anchor exclusion, the C2C anchor left out).

Example (CoREB-mini and a BM25 run in ``root``):
    >>> from coreb_core.runs.folders import read_hits
    >>> with Store("demo_v2603", root) as store:
    ...     queue = audit_queue(store, {"bm25": read_hits(bm25, root)})
    >>> list(queue.columns[:6]), bool((queue["runs"] >= 1).all()), set(queue["grade"])
    (['task', 'query_id', 'doc_id', 'grade', 'class', 'runs'], True, {'unjudged'})
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from coreb_core.analysis.generator_rules import allowed_language, classify
from coreb_core.analysis.hubs import top_k_lists
from coreb_core.data.schema import CORPUS_OF_TASK, POSITIVE, TASK_NAMES, TRAP
from coreb_core.data.store import Store

COLUMNS = ["task", "query_id", "doc_id", "grade", "class", "runs", "of_runs", "best_rank", "passed", "language",
           "problem_id", "subtask", "run_ids"]
GRADES = ("unjudged", "trap")  # the queue's ``grade``: unjudged for the query, or a re-gradable trap (rel=1)


def audit_queue(store: Store, runs: Mapping[str, pd.DataFrame], k: int = 10, anchor_exclusion: bool = True,
                tasks: tuple[str, ...] = TASK_NAMES, include_traps: bool = False) -> pd.DataFrame:
    """Every (query, unjudged document of the query's problem in a language it allows) that some run ranks above every
    positive of the query within its top ``k``, with its ``class`` (``generator_rules.CLASSES``), how many of ``runs``
    put it there (``runs`` of ``of_runs``) and their best rank; with ``include_traps`` the re-gradable traps too
    (``grade`` "trap"). Missed positives by the generator's rule first, then passing solutions, then the most runs,
    then the best rank."""
    facts = store.df("SELECT task, query_id, subtask, problem_id FROM queries")
    anchor_rows = store.df("SELECT task, query_id, anchor_code_id FROM queries WHERE anchor_code_id IS NOT NULL")
    judged = store.df("SELECT task, query_id, doc_id, relevance FROM qrels")
    docs = store.df("SELECT corpus, doc_id, problem_id AS doc_problem, passed, language FROM documents")
    found = []
    for task in tasks:
        info = facts[facts["task"] == task]
        anchors = (dict(zip(anchor_rows.loc[anchor_rows["task"] == task, "query_id"],
                            anchor_rows.loc[anchor_rows["task"] == task, "anchor_code_id"]))
                   if anchor_exclusion else {})
        grades = judged[judged["task"] == task]
        corpus = docs[docs["corpus"] == CORPUS_OF_TASK[task]]
        has_positive = set(grades.loc[grades["relevance"] == POSITIVE, "query_id"])
        for run, hits in runs.items():
            lists = top_k_lists(hits, task, k, anchors)
            if lists.empty:
                continue
            lists = lists.merge(grades[["query_id", "doc_id", "relevance"]], on=["query_id", "doc_id"], how="left")
            first_pos = lists[lists["relevance"] == POSITIVE].groupby("query_id")["rank"].min().astype(float)
            above = lists[lists["rank"].astype(float) < lists["query_id"].map(first_pos).fillna(float("inf"))]
            # only queries that have a positive: "above every positive" means nothing without one
            above = above[above["query_id"].isin(has_positive)]
            above = above.merge(info[["query_id", "problem_id", "subtask"]], on="query_id")
            above = above.merge(corpus[["doc_id", "doc_problem", "passed", "language"]], on="doc_id")
            above = above[above["doc_problem"].notna() & (above["doc_problem"] == above["problem_id"])]
            passing = above["passed"].astype("boolean").fillna(False).to_numpy(dtype=bool)
            keep = above["relevance"].isna().to_numpy()
            if include_traps:
                keep = keep | ((above["relevance"] == TRAP).to_numpy() & passing)
            above = above[keep]
            if not above.empty:  # a document in a language the generator rules out for the query is no candidate
                above = above[allowed_language(store, above.assign(task=task))]
            found.append(above.assign(task=task, run=run))
    if not found or all(f.empty for f in found):
        return pd.DataFrame(columns=COLUMNS)
    rows = pd.concat(found, ignore_index=True)
    rows["grade"] = rows["relevance"].map(lambda r: "unjudged" if pd.isna(r) else "trap")
    queue = rows.groupby(["task", "query_id", "doc_id"], sort=False).agg(
        grade=("grade", "first"), runs=("run", "nunique"), best_rank=("rank", "min"), passed=("passed", "first"),
        language=("language", "first"), problem_id=("problem_id", "first"), subtask=("subtask", "first"),
        run_ids=("run", lambda r: ",".join(sorted(set(r))))).reset_index()
    queue["class"] = classify(store, queue)["class"].to_numpy()
    queue["of_runs"] = len(runs)
    queue["passed"] = pd.Series([None if pd.isna(v) else bool(v) for v in queue["passed"]], index=queue.index,
                                dtype=object)  # True / False / None (a text, or unknown)
    queue["passing"] = queue["passed"].astype("boolean").fillna(False)
    queue["missed"] = queue["class"] == "would_be_positive"
    queue = queue.sort_values(["missed", "passing", "runs", "best_rank", "task", "query_id", "doc_id"],
                              ascending=[False, False, False, True, True, True, True], kind="stable")
    return queue[COLUMNS].reset_index(drop=True)
