"""Judged pairs grouped by query, and the compiled pass that reads a run against them with the
official rank rule.

A run has ~100 rows per query and a release judges a handful of documents per query, so this is the
hot loop of evaluation (28.6 M rows at 10x CoREB). NumPy needed about ten full passes over the rows
(key, hash, filter, exact lookup, the drop tests, the drop counts); one compiled loop reads each row
once. A run's rows come grouped by query, so the loop marks the current query's few judged documents
in a document-sized scratch array that stays in cache: each row is then one load (a hash table over
all pairs missed the cache on nearly every row and was 5x slower). Memory grows with the judged
pairs, the queries and the documents, never with queries x documents.

The official rank rule (CoREB's runner): the query's own id, the C2C anchor and, under v1, noise
texts in C2T lists leave the list, and every hit below moves up by the number of dropped hits above
it. ``dropped_above`` is that counter for any rows; ``JudgedPairs.scan`` applies it while matching.

Example: judged (q0, d1), (q1, d0), (q1, d2); the run lists q0: d0 (its own id), d1 and q1: d2.
    >>> pairs = JudgedPairs.build(np.array([0 * 3 + 1, 1 * 3 + 0, 1 * 3 + 2]), n_queries=2, n_docs=3)
    >>> same = np.arange(3)  # local codes equal to the release's codes
    >>> scan = pairs.scan(np.array([0, 0, 1]), same, np.array([0, 1, 2]), same, np.array([1., 2., 1.]),
    ...                   self_doc=np.array([0, -1]), anchor=np.array([-1, -1]), noise_doc=np.zeros(3, bool),
    ...                   c2t_query=np.zeros(2, bool))
    >>> scan.rank, scan.excluded_above  # per judged pair: stored rank (inf: not listed), drops above
    (array([ 2., inf,  1.]), array([1., 0., 0.]))
    >>> scan.in_run  # per query code: listed by the run
    array([ True,  True])
"""
from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from coreb_core.kernel_input import kernel_input


@numba.njit(cache=True, nogil=True, inline="always")
def _next_rank(rank, last_rank, strictly_above, at_last_rank):
    """The drop counter's step to a row of ``rank`` (rows in rank order): drops at the previous rank
    become "strictly above" once the rank grows, so tied hits never count each other."""
    if rank > last_rank:
        return rank, strictly_above + at_last_rank, 0.0
    return last_rank, strictly_above, at_last_rank


@numba.njit(cache=True, nogil=True)
def _dropped_above(qcode, rank, dropped, n_queries) -> tuple[np.ndarray, bool]:
    above = np.zeros(len(qcode))
    seen = np.zeros(n_queries, dtype=np.bool_)
    current, last_rank, strictly_above, at_last_rank = -1, -np.inf, 0.0, 0.0
    for i in range(len(qcode)):
        q, r = qcode[i], rank[i]
        if q < 0:
            continue
        if q != current:
            if seen[q]:
                return above, False  # the query's rows are not contiguous
            seen[q] = True
            current, last_rank, strictly_above, at_last_rank = q, -np.inf, 0.0, 0.0
        if r < last_rank:
            return above, False  # not in rank order
        last_rank, strictly_above, at_last_rank = _next_rank(r, last_rank, strictly_above, at_last_rank)
        above[i] = strictly_above
        if dropped[i] and np.isfinite(r):
            at_last_rank += 1.0
    return above, True


def dropped_above(qcode: np.ndarray, rank: np.ndarray, dropped: np.ndarray) -> np.ndarray:
    """For each row, how many ``dropped`` rows of the same query have a smaller (finite) rank: the
    evaluator's rank of a kept row is its stored rank minus this count.

    One pass when rows are grouped by query in rank order (as stored runs are); otherwise the rows
    are put in that order first. Rows with a negative query code count 0.

    >>> dropped_above(np.array([0, 0, 0, 1, 1]), np.array([1., 2., 3., 1., 2.]),
    ...               np.array([False, True, False, True, False]))
    array([0., 0., 1., 0., 1.])
    """
    qcode, rank, dropped = kernel_input(qcode, np.int64), kernel_input(rank, np.float64), kernel_input(dropped, np.bool_)
    n_queries = int(qcode.max(initial=-1)) + 1
    above, in_order = _dropped_above(qcode, rank, dropped, n_queries)
    if in_order:
        return above
    order = np.lexsort((rank, qcode))
    sorted_above, in_order = _dropped_above(kernel_input(qcode[order], np.int64), kernel_input(rank[order], np.float64),
                                            kernel_input(dropped[order], np.bool_), n_queries)
    above = np.zeros(len(qcode))
    above[order] = sorted_above
    return above


@numba.njit(cache=True, nogil=True)
def _scan(q_local, query_map, d_local, doc_map, rank, starts, docs, self_doc, anchor, noise_doc, c2t_query,
          pair_rank, excluded_above, noise_above, seen) -> bool:
    n_docs = len(noise_doc)
    # ``pair_of_doc`` holds the current query's judged docs (position of the pair, -1 elsewhere): it is
    # filled when the query changes and cleared after, so each row is one cached load, no search.
    pair_of_doc = np.full(n_docs, -1, dtype=np.int64)
    current, last_rank = -1, -np.inf
    excluded_strictly, excluded_at, noise_strictly, noise_at = 0.0, 0.0, 0.0, 0.0
    for i in range(len(q_local)):
        q = query_map[q_local[i]] if q_local[i] >= 0 else -1
        d = doc_map[d_local[i]] if d_local[i] >= 0 else -1
        r = np.float64(rank[i])  # ranks may come as int32 (a stored run without an empty list): no copy made
        if q < 0:
            continue
        if q != current:
            if seen[q]:
                return False  # the query's rows are not contiguous
            seen[q] = True
            if current >= 0:
                for k in range(starts[current], starts[current + 1]):
                    pair_of_doc[docs[k]] = -1
            for k in range(starts[q], starts[q + 1]):
                pair_of_doc[docs[k]] = k
            current, last_rank = q, -np.inf
            excluded_strictly, excluded_at, noise_strictly, noise_at = 0.0, 0.0, 0.0, 0.0
        if r < last_rank:
            return False  # not in rank order
        _, excluded_strictly, excluded_at = _next_rank(r, last_rank, excluded_strictly, excluded_at)
        last_rank, noise_strictly, noise_at = _next_rank(r, last_rank, noise_strictly, noise_at)
        if d < 0:
            continue
        pos = pair_of_doc[d]
        if pos >= 0:
            pair_rank[pos] = r
            excluded_above[pos] = excluded_strictly
            noise_above[pos] = noise_strictly
        if np.isfinite(r):
            if self_doc[q] == d or anchor[q] == d:
                excluded_at += 1.0
            elif noise_doc[d] and c2t_query[q]:
                noise_at += 1.0
    return True


def code_dtype(*dtypes: np.dtype) -> type:
    """The integer type ``JudgedPairs.scan`` reads local codes in: int16, int32 or int64, the narrowest that
    holds every one of ``dtypes`` (anything else: int64).

    >>> code_dtype(np.dtype(np.int8), np.dtype(np.int16)).__name__, code_dtype(np.dtype(np.int16), np.dtype(np.int32)).__name__
    ('int16', 'int32')
    """
    for t in (np.int16, np.int32):
        if all(d.kind in "iu" and np.can_cast(d, t) for d in dtypes):
            return t
    return np.int64


class RunScan(NamedTuple):
    """A run read against judged pairs: per pair, the stored rank (inf when the run does not list
    it) and the dropped hits above it, own id / C2C anchor and C2T noise texts counted apart; per
    query code, whether the run lists the query (an empty list counts)."""

    rank: np.ndarray
    excluded_above: np.ndarray
    noise_above: np.ndarray
    in_run: np.ndarray


class JudgedPairs(NamedTuple):
    """Sorted, unique pair keys ``query code * n_docs + doc code``, split into per-query ranges."""

    keys: np.ndarray  # int64, sorted, unique
    starts: np.ndarray  # int64 per query code + 1: the query's pairs are keys[starts[q]:starts[q + 1]]
    docs: np.ndarray  # int64 doc code of each pair (sorted within a query)

    @staticmethod
    def build(keys: np.ndarray, n_queries: int, n_docs: int) -> "JudgedPairs":
        keys = np.ascontiguousarray(keys, dtype=np.int64)
        starts = np.searchsorted(keys // n_docs, np.arange(n_queries + 1)).astype(np.int64)
        return JudgedPairs(keys, starts, keys % n_docs)

    def scan(self, q_local: np.ndarray, query_map: np.ndarray, d_local: np.ndarray, doc_map: np.ndarray,
             rank: np.ndarray, self_doc: np.ndarray, anchor: np.ndarray, noise_doc: np.ndarray, c2t_query: np.ndarray
             ) -> RunScan:
        """Read a run in one pass. Per row: local query and doc codes (-1: missing) that
        ``query_map`` / ``doc_map`` turn into the release's codes (-1: not in the release; such rows
        are skipped) and the stored rank. Per query code: ``self_doc`` and ``anchor`` are the
        documents that leave its list (-1: none; pass all -1 anchors to keep C2C anchors),
        ``c2t_query`` marks the queries whose ``noise_doc`` hits count as noise. Rows with an
        infinite rank (the empty-list marker) drop nothing. Rows out of (query, rank) order are
        sorted first.
        """
        i, b = np.int64, np.bool_
        # Local codes keep a narrow integer type (a stored run's dictionary indices are int16 up to 32,767
        # ids): widening them would copy every row twice. Both take the wider type of the two (``code_dtype``):
        # with int32 or float64 ranks the kernel has six versions, compiled ahead by ``coreb_core.evaluation.compile``.
        c = code_dtype(np.asarray(q_local).dtype, np.asarray(d_local).dtype)
        q_local, d_local = kernel_input(q_local, c), kernel_input(d_local, c)
        query_map, doc_map = kernel_input(query_map, i), kernel_input(doc_map, i)
        # Likewise int32 ranks (a stored run's column) are read as they are; anything else as float64.
        rank = kernel_input(rank, np.int32 if np.asarray(rank).dtype == np.int32 else np.float64)
        args = (query_map, d_local, doc_map, rank, kernel_input(self.starts, i), kernel_input(self.docs, i),
                kernel_input(self_doc, i), kernel_input(anchor, i), kernel_input(noise_doc, b),
                kernel_input(c2t_query, b))
        out = self._empty_scan()
        if not _scan(q_local, *args, *out):
            query = np.where(q_local >= 0, query_map[q_local], -1)
            order = np.lexsort((rank, query))
            args = (query_map, kernel_input(d_local[order], c), doc_map, kernel_input(rank[order], np.float64)) + args[4:]
            out = self._empty_scan()
            _scan(kernel_input(q_local[order], c), *args, *out)
        return out

    def _empty_scan(self) -> RunScan:
        n = len(self.keys)
        return RunScan(np.full(n, np.inf), np.zeros(n), np.zeros(n), np.zeros(len(self.starts) - 1, dtype=np.bool_))
