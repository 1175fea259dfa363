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

from itertools import chain, repeat
from typing import Collection, Mapping

import numba
import numpy as np
import pandas as pd
import pyarrow as pa

from coreb_core.errors import DataError, DataProblem
from coreb_core.kernel_input import kernel_input

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
                     keep: Mapping[str, Collection[str]] | None = None, counted: np.ndarray | None = None) -> pd.DataFrame:
    """Rank a dense score matrix (queries x documents) into run rows.

    ``keep`` names, per query, documents to store wherever they rank (its judged documents and
    its anchor; a name that is no document is ignored). ``counted`` (a bool per document) stretches each
    stored prefix until it holds ``top_k`` counted documents: C2T lists pass "not a noise text", so that
    the v1 view, which drops noise texts, still has an exact top ``top_k`` after the drop. A NaN score is
    never listed.

    >>> scores = np.array([[0.5, 0.9, 0.5], [0.1, 0.2, 0.3]])
    >>> hits_from_scores("t2c", ["q1", "q2"], ["d1", "d2", "d3"], scores, top_k=1, keep={"q1": ["d1"]})
      task query_id doc_id  rank  score  in_top_k
    0  t2c       q1     d2     1    0.9      True
    1  t2c       q1     d1     3    0.5     False
    2  t2c       q2     d3     1    0.3      True
    >>> counted = np.array([True, True, False])   # d3 is a noise text: the list runs on to a second counted one
    >>> hits_from_scores("c2t", ["q1"], ["d1", "d2", "d3"], scores[:1], top_k=2, counted=counted)["doc_id"].tolist()
    ['d2', 'd3', 'd1']
    """
    given = np.asarray(scores)
    if given.shape != (len(query_ids), len(doc_ids)):
        raise ValueError(f"scores are {given.shape}, not (queries, documents) = ({len(query_ids)}, {len(doc_ids)})")
    # The kernels read trec_eval's float32 keys (no copy of a float32 matrix, as dense search gives): one compiled
    # version each; the stored scores keep their full value.
    s = kernel_input(given if given.dtype == np.float32 else trec_order_key(given), np.float32)
    n_q, n_d = s.shape
    doc_array = np.asarray(doc_ids, dtype=object)
    # A document's tie rank: its position in doc-id-descending order, the order trec_eval breaks ties in; it is
    # also its code in the doc_id column's categories.
    by_tie = np.argsort(doc_array, kind="stable")[::-1].copy()
    tie = np.empty(n_d, dtype=np.int64)
    tie[by_tie] = np.arange(n_d)
    docs = pd.Index(doc_array[by_tie])
    k = min(max(top_k, 0), n_d)
    if counted is None or k == 0:
        top = np.full((n_q, 2 * k + 16 if k else 0), _LAST, dtype=np.uint64)
        every = np.ones(n_d, dtype=np.bool_)
        lengths = np.minimum(_select(s, tie, every, k, _cuts(s, every, k), top), k)
        top.sort(axis=1)  # numpy's (vectorised) sort: each row in trec_eval's order
        last = top[:, k - 1] if k else np.zeros(n_q, dtype=np.uint64)
    else:
        eligible = kernel_input(np.asarray(counted, dtype=bool), np.bool_)
        if int(eligible.sum()) >= top_k:  # each row's top_k-th counted document ends its prefix
            best = np.full((n_q, 2 * top_k + 16), _LAST, dtype=np.uint64)
            _select(s, tie, eligible, top_k, _cuts(s, eligible, top_k), best)
            best.sort(axis=1)
            last = best[:, top_k - 1]
        else:  # never top_k counted documents: every document is stored
            last = np.full(n_q, _LAST, dtype=np.uint64)
        top, lengths = _prefixes(s, tie, last)
    rows_q, rows_t, ranks = _kept_below(keep, query_ids, docs, s, tie, by_tie, last)
    n = int(lengths.sum()) + len(rows_q)
    # numpy's allocation (huge pages: half the first-touch cost of numba's); codes in the width pandas keeps
    code = np.int16 if max(n_q, n_d) < 2 ** 15 else np.int32
    q_out, d_out, r_out, s_out = np.empty(n, code), np.empty(n, code), np.empty(n, np.int32), np.empty(n, np.float64)
    _assemble(s, by_tie, top, lengths, rows_q, rows_t, ranks, q_out, d_out, r_out, s_out)
    if given.dtype != np.float32:
        s_out = given[q_out, by_tie[d_out]].astype(np.float64)
    # codes are valid by construction: pandas need not check them; the arrays are fresh: no copies
    return pd.DataFrame({
        "task": pd.Categorical.from_codes(np.zeros(len(r_out), dtype=np.int8), [task], validate=False),
        "query_id": pd.Categorical.from_codes(q_out, pd.Index(query_ids), validate=False),
        "doc_id": pd.Categorical.from_codes(d_out, docs, validate=False),
        "rank": r_out, "score": s_out, "in_top_k": r_out <= k,
    }, copy=False)


def _kept_below(keep: Mapping[str, Collection[str]] | None, query_ids: list[str], docs: pd.Index, s: np.ndarray,
                tie: np.ndarray, by_tie: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kept documents ranked below their query's stored prefix: query positions, doc codes and ranks, in
    (query, rank) order; each (query, document) once, a name that is no document left out."""
    empty = np.zeros(0, dtype=np.int64)
    if not keep:
        return empty, empty, empty
    lists = [keep.get(q, ()) for q in query_ids]
    sizes = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    code = {d: i for i, d in enumerate(docs.to_numpy(dtype=object))}
    codes = np.fromiter(map(code.get, chain.from_iterable(lists), repeat(-1)), dtype=np.int64, count=int(sizes.sum()))
    rows_q = np.repeat(np.arange(len(query_ids), dtype=np.int64), sizes)
    ranks, rows_t = _ranks_below(s, tie, by_tie, last, rows_q, codes)
    below = ranks > 0
    return rows_q[below], rows_t[below], ranks[below]


# Packed keys: a score as a 32-bit float (trec_eval's precision) mapped to an unsigned integer that grows as the
# score falls, in the high half; the document's tie rank in the low half. Ascending packed keys are trec_eval's
# order (score descending, then doc id descending), and each key is unique within a row.
_LAST = np.uint64(2 ** 64 - 1)  # after every real key: padding
_LOW = np.uint64(2 ** 32 - 1)
_SIGN = np.uint64(2 ** 31)
_HALF = np.uint64(32)


@numba.njit(cache=True, nogil=True, inline="always")
def _pack(x, t, scratch, bits):
    scratch[0] = x + np.float32(0.0)  # -0.0 becomes 0.0: they tie, as floats compare
    b = np.uint64(bits[0])
    flip = ((np.uint64(0) - (b >> np.uint64(31))) & _LOW) | _SIGN  # the usual order-preserving float-to-integer
    return ((_LOW - (b ^ flip)) << _HALF) | np.uint64(t)           # map: a negative's every bit, else the sign


@numba.njit(cache=True, nogil=True, inline="always")
def _score_of(p, scratch, bits):
    ascending = _LOW - (p >> _HALF)
    bits[0] = np.uint32((ascending ^ _SIGN) if ascending >= _SIGN else (ascending ^ _LOW))
    return scratch[0]


@numba.njit(cache=True, nogil=True, inline="always")
def _nth(buf, m, n):
    """Quickselect: the n-th smallest of buf[:m] to buf[n], none larger before it, none smaller after it."""
    lo, hi = 0, m - 1
    while hi > lo:
        a, b, c = buf[lo], buf[(lo + hi) >> 1], buf[hi]
        pivot = max(min(a, b), min(max(a, b), c))  # median of three
        i, j = lo, hi
        while i <= j:
            while buf[i] < pivot:
                i += 1
            while buf[j] > pivot:
                j -= 1
            if i <= j:
                buf[i], buf[j] = buf[j], buf[i]
                i += 1
                j -= 1
        if n <= j:
            hi = j
        elif n >= i:
            lo = i
        else:
            return


_SAMPLE = 128  # scores per row that estimate its cut


def _sample_columns(eligible: np.ndarray) -> np.ndarray:
    """The columns whose scores estimate a row's cut: up to ``_SAMPLE`` eligible ones, in 8 runs of neighbours
    spread over the row (8 runs of cache lines read per row, not all of them).

    >>> _sample_columns(np.ones(1000, dtype=bool))[[0, 15, 16, 127]].tolist()
    [0, 15, 140, 999]
    """
    columns = np.flatnonzero(eligible)
    if len(columns) <= _SAMPLE:
        return columns
    starts = np.linspace(0, len(columns) - _SAMPLE // 8, 8).astype(np.int64)
    return columns[(starts[:, None] + np.arange(_SAMPLE // 8)).ravel()]


def _cuts(s: np.ndarray, eligible: np.ndarray, k: int) -> np.ndarray:
    """Per row, two scores that about 1.5 k and 6 k of its eligible documents reach, read off its sorted sample
    (numpy's vectorised sort); -inf where the sample is too small to tell."""
    columns = _sample_columns(eligible)
    sample = np.empty((len(s), len(columns)), dtype=np.float32)
    _sample(s, columns, sample)
    sample.sort(axis=1)
    cuts = np.full((len(s), 2), -np.inf, dtype=np.float32)
    for c, share in enumerate((1.5, 6.0)):
        want = int(np.ceil(share * k * sample.shape[1] / max(int(eligible.sum()), 1)))
        if 0 < want <= sample.shape[1]:
            cuts[:, c] = sample[:, sample.shape[1] - want]
    return cuts


@numba.njit(cache=True, nogil=True)
def _sample(s, columns, out):
    for i in range(s.shape[0]):
        for c in range(len(columns)):
            out[i, c] = s[i, columns[c]]


@numba.njit(cache=True, nogil=True)
def _select(s, tie, eligible, k, cuts, out):
    """Each row's k first eligible documents in trec_eval's order, and perhaps more, as packed keys into out[i]
    (unordered; the rest stays _LAST): one pass keeps the scores at or above the row's cut (``_cuts``), with
    no branch to mispredict; a row that came up short tries its second cut, then every score. Returns how many each row got (fewer
    than k only where NaN scores leave too few)."""
    n_q, n_d = s.shape
    width = out.shape[1]
    buf = np.empty(n_d, dtype=np.uint64)
    xs, js = np.empty(n_d + 1, dtype=np.float32), np.empty(n_d + 1, dtype=np.int32)
    every = eligible.all()
    got = np.zeros(n_q, dtype=np.int64)
    if k == 0:
        return got
    for i in range(n_q):
        for attempt in range(3):  # the row's first cut; if too few reach it, its second; then every score
            cut = cuts[i, attempt] if attempt < 2 and cuts[i, attempt] >= -np.inf else np.float32(-np.inf)
            m = 0
            row = s[i]
            if every:
                for j in range(n_d):
                    js[m] = j
                    m += row[j] >= cut  # NaN never passes (nor a NaN cut)
            else:
                for j in range(n_d):
                    js[m] = j
                    m += (row[j] >= cut) & eligible[j]
            if m >= k or cut == -np.inf:
                break
        for c in range(m):
            xs[c] = row[js[c]] + np.float32(0.0)  # -0.0 becomes 0.0: they tie, as floats compare
        _pack_all(xs, js, tie, m, buf)
        if m > width:
            _nth(buf, m, k - 1)
            m = k
        out[i, :m] = buf[:m]
        got[i] = m
    return got


@numba.njit(cache=True, nogil=True, inline="always")
def _pack_all(xs, js, tie, m, buf):
    bits = xs.view(np.uint32)
    for c in range(m):
        b = np.uint64(bits[c])
        flip = ((np.uint64(0) - (b >> np.uint64(31))) & _LOW) | _SIGN  # negative: every bit; else the sign
        buf[c] = ((_LOW - (b ^ flip)) << _HALF) | np.uint64(tie[js[c]])


@numba.njit(cache=True, nogil=True, inline="always")
def _ahead(row, tie, x, t):
    """How many documents of a row come before a score x (float32) of tie rank t in trec_eval's order: a
    vectorised count of higher and equal scores (32-bit counters), and a second pass only where x is tied."""
    above, level = np.int32(0), np.int32(0)
    for j in range(len(row)):
        y = np.float32(row[j])
        above += np.int32(y > x)
        level += np.int32(y == x)
    n = np.int64(above)
    if level > 1:
        for j in range(len(row)):
            n += (np.float32(row[j]) == x) & (tie[j] < t)
    return n


def _prefixes(s: np.ndarray, tie: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every document up to each row's ``last`` packed key, in trec_eval's order (rows padded with _LAST), and
    how many. The output is allocated by numpy, which asks for huge pages: a fresh array's first touch costs
    about half of what numba's allocation costs."""
    lengths = _prefix_lengths(s, tie, last)
    out = np.full((len(s), lengths.max() if len(s) else 0), _LAST, dtype=np.uint64)
    lengths = _fill_prefixes(s, tie, last, out)
    out.sort(axis=1)
    return out, lengths


@numba.njit(cache=True, nogil=True)
def _prefix_lengths(s, tie, last):
    scratch = np.zeros(1, dtype=np.float32)
    bits = scratch.view(np.uint32)
    lengths = np.zeros(len(s), dtype=np.int64)
    for i in range(len(s)):
        if last[i] == _LAST:
            lengths[i] = s.shape[1]
        else:
            lengths[i] = _ahead(s[i], tie, _score_of(last[i], scratch, bits), np.int64(last[i] & _LOW)) + 1
    return lengths


@numba.njit(cache=True, nogil=True)
def _fill_prefixes(s, tie, last, out):
    """Each row's packed keys up to ``last``: the scores at or above its float are kept with no branch (half of a
    C2T row passes: a branch would be mispredicted as often), then the keys tied at that float are cut at
    ``last``."""
    scratch = np.zeros(1, dtype=np.float32)
    bits = scratch.view(np.uint32)
    js = np.empty(s.shape[1] + 1, dtype=np.int32)
    xs = np.empty(s.shape[1] + 1, dtype=np.float32)
    buf = np.empty(s.shape[1] + 1, dtype=np.uint64)
    lengths = np.zeros(len(s), dtype=np.int64)
    for i in range(len(s)):
        row, bound = s[i], _score_of(last[i], scratch, bits) if last[i] != _LAST else np.float32(-np.inf)
        m = 0
        for j in range(s.shape[1]):
            js[m] = j
            m += row[j] >= bound  # NaN never passes
        for c in range(m):
            xs[c] = row[js[c]] + np.float32(0.0)  # -0.0 becomes 0.0
        _pack_all(xs, js, tie, m, buf)
        n = 0
        for c in range(m):  # in place: n never passes c
            buf[n] = buf[c]
            n += buf[c] <= last[i]
        out[i, :n] = buf[:n]
        lengths[i] = n  # fewer than _prefix_lengths counted only where NaN scores were skipped
    return lengths


@numba.njit(cache=True, nogil=True)
def _ranks_below(s, tie, by_tie, last, rows_q, rows_t):
    """Each (query, document code) pair's rank where the document falls below its query's stored prefix, else 0
    (also for a code of -1, no document, and a pair listed before); pairs come grouped by query and leave each
    query's pairs in rank order (the codes alongside)."""
    scratch = np.zeros(1, dtype=np.float32)
    bits = scratch.view(np.uint32)
    ranks = np.zeros(len(rows_q), dtype=np.int64)
    codes = rows_t.copy()
    for e in range(len(rows_q)):
        i, t = rows_q[e], codes[e]
        if t < 0:
            continue
        x = np.float32(s[i, by_tie[t]])
        if x == x and _pack(x, t, scratch, bits) > last[i]:  # NaN is never listed
            ranks[e] = _ahead(s[i], tie, x, t) + 1
    start = 0
    for e in range(1, len(rows_q) + 1):
        if e == len(rows_q) or rows_q[e] != rows_q[start]:
            for a in range(start + 1, e):  # a query has a few kept documents: insertion sort
                r, t, b = ranks[a], codes[a], a
                while b > start and ranks[b - 1] > r:
                    ranks[b], codes[b] = ranks[b - 1], codes[b - 1]
                    b -= 1
                ranks[b], codes[b] = r, t
            for a in range(start + 1, e):  # a document listed twice has one rank: keep it once
                if ranks[a] == ranks[a - 1]:
                    ranks[a - 1] = 0
            start = e
    return ranks, codes


@numba.njit(cache=True, nogil=True)
def _assemble(s, by_tie, top, lengths, rows_q, rows_t, ranks, q_out, d_out, r_out, s_out):
    """Run rows in (query, rank) order, into the ``_out`` arrays: each query's stored prefix (``top``'s first
    ``lengths`` keys), then its kept documents below it. A prefix row's score is its key's float32, read back
    from the key: a lookup in the score matrix would miss the cache once per row."""
    scratch = np.zeros(1, dtype=np.float32)
    bits = scratch.view(np.uint32)
    pos = e = 0
    for i in range(len(lengths)):
        for c in range(lengths[i]):
            p = top[i, c]
            q_out[pos], d_out[pos], r_out[pos] = i, np.int64(p & _LOW), c + 1
            s_out[pos] = _score_of(p, scratch, bits)
            pos += 1
        while e < len(rows_q) and rows_q[e] == i:
            t = rows_t[e]
            q_out[pos], d_out[pos], r_out[pos], s_out[pos] = i, t, ranks[e], s[i, by_tie[t]]
            pos += 1
            e += 1


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
    ids = ("task", "query_id", "doc_id")
    columns = list(dict.fromkeys(c for f in frames for c in f.columns))
    # the id columns apart: pd.concat turns categoricals of different categories into strings first (half a second
    # for a real run), and union_categoricals makes them again
    out = pd.concat([f.drop(columns=[c for c in ids if c in f.columns]) for f in frames], ignore_index=True)
    for column in ids:
        parts = [f[column] if isinstance(f[column].dtype, pd.CategoricalDtype) else f[column].astype("category")
                 for f in frames]
        out[column] = pd.Series(union_categoricals(parts), index=out.index)
    return out[columns]


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
