"""Runs: ranked lists in one canonical format, stored as parquet with provenance.

A run holds, per (task, query), the top-K hits and additionally every judged document and the
C2C anchor wherever they rank, so the position of each positive and trap is exact even beyond K.

Columns of ``hits.parquet``: ``task, query_id, doc_id, rank, score, in_top_k``. Ranks are 1-based
and follow score descending; equal scores are broken by doc id *descending*, which is trec_eval's
(and so pytrec_eval's and the official CoREB evaluator's) rule. Any other rule would make our
metrics differ from the official ones on runs with ties (BM25 has many). "Equal" is as trec_eval
compares: it keeps a score as a 32-bit float, so two scores that differ only beyond float32's
precision tie (``trec_order_key``); the stored score keeps its full value. A query whose list is
empty is kept as one row with ``doc_id`` NULL (it is still evaluated, scoring 0, as pytrec_eval does).

Example:
    >>> hits = hits_from_scores("t2c", ["q1"], ["d1", "d2", "d3"], np.array([[0.5, 0.9, 0.5]]), top_k=3)
    >>> hits[["doc_id", "rank"]].values.tolist()
    [['d2', 1], ['d3', 2], ['d1', 3]]
"""
from __future__ import annotations

from typing import Iterable, Mapping

import numpy as np
import pandas as pd
import pyarrow as pa

from coreb_core.errors import DataError, DataProblem

HITS_SCHEMA = pa.schema([("task", pa.string()), ("query_id", pa.string()), ("doc_id", pa.string()),
                         ("rank", pa.int32()), ("score", pa.float64()), ("in_top_k", pa.bool_())])


DEFAULT_TOP_K = 100


MAX_RANK = 2 ** 31 - 1  # ranks are stored as int32


def trec_order_key(scores) -> np.ndarray:
    """Scores as trec_eval orders them: 32-bit floats (its ``sim`` field), so scores that differ only
    beyond float32's precision tie and go by doc id descending. Seen on a random run: 0.98296352 and
    0.98296349 tie in pytrec_eval, which ranked the second one's doc first by its larger id.

    >>> key = trec_order_key([0.9829635217396717, 0.9829634865804816, 0.5])
    >>> bool(key[0] == key[1]), bool(key[1] > key[2])
    (True, True)
    """
    return np.asarray(scores, dtype=np.float64).astype(np.float32)


def hits_from_scores(task: str, query_ids: list[str], doc_ids: list[str], scores: np.ndarray, top_k: int = DEFAULT_TOP_K,
                     keep: Mapping[str, Iterable[str]] | None = None, counted: np.ndarray | None = None) -> pd.DataFrame:
    """Rank a dense score matrix (queries x documents) into run rows.

    ``keep`` names, per query, documents to store wherever they rank (its judged documents and
    its anchor). ``counted`` (a bool per document) stretches each stored prefix until it holds
    ``top_k`` counted documents: C2T lists pass "not a noise text", so that the v1 view, which drops
    noise texts, still has an exact top ``top_k`` after the drop.

    >>> scores = np.array([[0.5, 0.9, 0.5], [0.1, 0.2, 0.3]])
    >>> hits_from_scores("t2c", ["q1", "q2"], ["d1", "d2", "d3"], scores, top_k=1, keep={"q1": ["d1"]})
      task query_id doc_id  rank  score  in_top_k
    0  t2c       q1     d2     1    0.9      True
    1  t2c       q1     d1     3    0.5     False
    2  t2c       q2     d3     1    0.3      True
    """
    doc_array = np.asarray(doc_ids, dtype=object)
    by_id = np.argsort(doc_array, kind="stable")[::-1]
    if counted is None:
        return _top_k_hits(task, query_ids, doc_array[by_id], np.asarray(scores), by_id, top_k, keep)
    doc_sorted, s = doc_array[by_id], np.asarray(scores, dtype=np.float64)[:, by_id]
    # Stable sort of -score (as trec_eval compares it) over doc-id-descending columns: score desc, then doc
    # id desc (trec_eval).
    order = np.argsort(-trec_order_key(s), axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, s.shape[1] + 1)[None, :].repeat(s.shape[0], 0), axis=1)
    k = min(top_k, s.shape[1])
    depth = np.full(len(query_ids), k)
    if counted is not None and len(query_ids):
        seen = np.cumsum(np.asarray(counted, dtype=bool)[by_id][order], axis=1)
        reached = seen >= top_k
        depth = np.maximum(depth, np.where(reached.any(axis=1), reached.argmax(axis=1) + 1, s.shape[1]))
    rows_q, cols = np.nonzero(np.arange(s.shape[1])[None, :] < depth[:, None])
    rows_d = order[rows_q, cols]
    if keep:
        col = {d: i for i, d in enumerate(doc_sorted)}
        extra = [(qi, col[d]) for qi, q in enumerate(query_ids) for d in keep.get(q, ()) if d in col]
        if extra:
            eq, ed = np.array(extra).T
            beyond = ranks[eq, ed] > depth[eq]
            rows_q = np.r_[rows_q, eq[beyond]]
            rows_d = np.r_[rows_d, ed[beyond]]
    return _run_rows(task, query_ids, doc_sorted, rows_q, rows_d, ranks[rows_q, rows_d], s[rows_q, rows_d], k)


def _run_rows(task: str, query_ids: list[str], doc_sorted: np.ndarray, rows_q: np.ndarray, rows_d: np.ndarray,
              r: np.ndarray, score: np.ndarray, k: int) -> pd.DataFrame:
    """Run rows in (query, rank) order, from per-row query positions, positions in ``doc_sorted``, ranks and
    scores; categorical id columns: compact in memory and on disk, and nearly free to code in evaluation."""
    order = np.lexsort((r, rows_q))
    rows_q, rows_d, r = rows_q[order], rows_d[order], r[order]
    return pd.DataFrame({
        "task": pd.Categorical.from_codes(np.zeros(len(r), dtype=np.int8), [task]),
        "query_id": pd.Categorical.from_codes(rows_q, pd.Index(query_ids)),
        "doc_id": pd.Categorical.from_codes(rows_d, pd.Index(doc_sorted)),
        "rank": r.astype(np.int32), "score": score[order].astype(np.float64), "in_top_k": r <= k,
    })


def _top_k_hits(task: str, query_ids: list[str], doc_sorted: np.ndarray, scores: np.ndarray, by_id: np.ndarray,
                top_k: int, keep: Mapping[str, Iterable[str]] | None) -> pd.DataFrame:
    """``hits_from_scores`` without a stretch: the top ``top_k`` of each row and the kept documents below it,
    from a partial selection (no full sort; about two score-sized temporaries). Columns are in doc-id-descending
    order, so among equal keys the lower column wins, as trec_eval breaks ties."""
    n_q, n_d = scores.shape
    k = min(top_k, n_d)
    key = trec_order_key(scores)[:, by_id]  # float32, doc-id-descending columns
    rows = np.zeros((n_q, 0), dtype=np.int64)
    if k:
        kth = np.partition(key, n_d - k, axis=1)[:, n_d - k]  # each row's k-th largest key
        above = key > kth[:, None]
        tied = key == kth[:, None]
        # Of the keys tied with the k-th, the lowest columns fill the row up to k.
        room = k - above.sum(axis=1)
        chosen = above | (tied & (np.cumsum(tied, axis=1, dtype=np.int32) <= room[:, None]))
        cols = np.nonzero(chosen)[1].reshape(n_q, k)  # ascending columns per row
        picked = np.take_along_axis(key, cols, axis=1)
        rows = np.take_along_axis(cols, np.argsort(-picked, axis=1, kind="stable"), axis=1)
    rows_q = np.repeat(np.arange(n_q), k)
    rows_d = rows.ravel()
    r = np.tile(np.arange(1, k + 1), n_q)
    if keep:
        col = {d: i for i, d in enumerate(doc_sorted)}
        extra = [(qi, col[d]) for qi, q in enumerate(query_ids) for d in keep.get(q, ()) if d in col]
        if extra:
            eq, ed = np.array(extra).T
            ranks = np.empty(len(eq), dtype=np.int64)
            for start in range(0, len(eq), 2048):  # bounded memory: 2,048 rows of keys at a time
                part = slice(start, start + 2048)
                row_keys, own = key[eq[part]], key[eq[part], ed[part]][:, None]
                before = (row_keys > own) | ((row_keys == own) & (np.arange(n_d)[None, :] < ed[part][:, None]))
                ranks[part] = before.sum(axis=1) + 1
            beyond = ranks > k
            rows_q, rows_d, r = np.r_[rows_q, eq[beyond]], np.r_[rows_d, ed[beyond]], np.r_[r, ranks[beyond]]
    # ``scores`` keeps the caller's column order: each row's score is looked up through ``by_id`` (no matrix copy)
    return _run_rows(task, query_ids, doc_sorted, rows_q, rows_d, r, scores[rows_q, by_id[rows_d]], k)


def concat_hits(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate run rows keeping the id columns categorical (plain ``pd.concat`` of categoricals
    with different categories falls back to strings).

    >>> a = hits_from_scores("t2c", ["q1"], ["d1", "d2"], np.array([[0.5, 0.9]]), top_k=2)
    >>> b = hits_from_scores("c2c", ["q9"], ["d3", "d4"], np.array([[0.2, 0.1]]), top_k=2)
    >>> both = concat_hits([a, b])
    >>> both[["task", "query_id", "doc_id", "rank"]].values.tolist(), str(both["doc_id"].dtype)
    ([['t2c', 'q1', 'd2', 1], ['t2c', 'q1', 'd1', 2], ['c2c', 'q9', 'd3', 1], ['c2c', 'q9', 'd4', 2]], 'category')
    """
    from pandas.api.types import union_categoricals

    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=[f.name for f in HITS_SCHEMA])
    out = pd.concat(frames, ignore_index=True)
    for column in ("task", "query_id", "doc_id"):
        parts = [f[column] if isinstance(f[column].dtype, pd.CategoricalDtype) else f[column].astype("category")
                 for f in frames]
        out[column] = pd.Series(union_categoricals(parts), index=out.index)
    return out


def hits_from_lists(task_of: dict[str, str], lists: dict[str, list[tuple]], source: str) -> pd.DataFrame:
    """Rank explicit (doc, score) lists, as read from TREC files or official predictions, exactly as the
    official evaluator reads them: a hit whose doc id equals its query id is dropped (whether or not that id
    is a corpus document), and the order is score descending, ties by doc id descending (trec_eval, scores
    compared as ``trec_order_key`` does). Any rank in the file is ignored, as trec_eval ignores the column:
    ranks are positions in that order, so a file whose ranks have gaps scores as pytrec_eval scores it.

    >>> lists = {"q1": [("d1", 0.5), ("d2", 0.9), ("d3", 0.5), ("q1", 0.95)]}
    >>> hits_from_lists({"q1": "t2c"}, lists, "example")[["doc_id", "rank"]].values.tolist()
    [['d2', 1], ['d3', 2], ['d1', 3]]
    >>> lists = {"q1": [("d2", 0.9, 1), ("d7", 0.1, 250)]}   # a (doc, score, rank) item: the rank is ignored
    >>> hits_from_lists({"q1": "t2c"}, lists, "example")[["doc_id", "rank"]].values.tolist()
    [['d2', 1], ['d7', 2]]
    """
    problems: list[DataProblem] = []
    records = []
    for qid, pairs in lists.items():
        task = task_of.get(qid)
        if task is None:
            problems.append(DataProblem(source, "-", "query_id", "query not in this release", qid))
            continue
        kept = [(task, qid, p[0], p[1]) for p in pairs if p[0] != qid]  # the official ignore_identical_ids
        records += kept or [(task, qid, None, np.nan)]  # an empty list still counts (it scores 0)
    if problems:
        raise DataError(problems[:20])
    frame = pd.DataFrame.from_records(records, columns=["task", "query_id", "doc_id", "score"])
    frame["key"] = trec_order_key(frame["score"])
    frame = frame.sort_values(["task", "query_id", "key", "doc_id"], ascending=[True, True, False, False],
                              kind="stable", ignore_index=True).drop(columns="key")
    frame["rank"] = (frame.groupby(["task", "query_id"]).cumcount() + 1).astype("Int32")
    frame.loc[frame["doc_id"].isna(), "rank"] = pd.NA
    frame["in_top_k"] = frame["doc_id"].notna()
    for column in ("task", "query_id", "doc_id"):
        frame[column] = frame[column].astype("category")
    return frame[["task", "query_id", "doc_id", "rank", "score", "in_top_k"]]
