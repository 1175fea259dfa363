"""Numeric kernels: per-query IR metrics from the ranks of judged documents only.

Every cutoff metric CoREB reports can be computed from the judged documents of a query and their
ranks, because unjudged documents have zero gain and are never relevant. So a run of Q queries
reduces to three flat arrays (query index, rank, grade), and every metric is a handful of
``np.bincount`` calls — no per-query Python loop. Definitions follow trec_eval / pytrec_eval:

- ``ndcg_cut_k``  DCG@k / IDCG@k, gain from the scheme, discount 1/log2(rank+1); 0 when IDCG is 0
- ``recall_k``    relevant retrieved in the top k / all relevant (0 when none are relevant)
- ``P_k``         relevant retrieved in the top k / k (k, even when fewer documents were retrieved)
- ``map_cut_k``   sum of precision at each relevant rank <= k / all relevant
- ``mrr_k``       1 / rank of the first relevant document if it is within k, else 0
- ``hit_rate_k``  1 if a relevant document is within k, else 0

Example:
    >>> m = per_query_metrics(np.array([0, 0]), np.array([2.0, 1.0]), np.array([2, 1]), 1, V2, ks=(1, 10))
    >>> float(m["ndcg_at_1"][0]), round(float(m["ndcg_at_10"][0]), 4)
    (0.0, 0.6309)
"""
from __future__ import annotations

import numba
import numpy as np

from coreb_core.data.measures import FAMILIES, KS, measures
from coreb_core.evaluation.schemes import V2, Scheme  # noqa: F401  (V2: the docstring example)
from coreb_core.kernel_input import kernel_input  # noqa: F401  (kept importable from here)


def metric_names(ks=KS) -> list[str]:
    """The per-query table's metric columns (``Measure.column``), family-major.

    >>> metric_names((10,))
    ['ndcg_at_10', 'recall_at_10', 'precision_at_10', 'map_at_10', 'mrr_at_10', 'hit_rate_at_10']
    """
    return [m.column for m in measures(FAMILIES, ks)]


def _position_in_group(group: np.ndarray) -> np.ndarray:
    """0-based position of each element within its run of equal ``group`` values (group is sorted)."""
    n = len(group)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(group)) + 1]
    first = np.repeat(starts, np.diff(np.r_[starts, n]))
    return np.arange(n) - first


def ideal_gains(qidx: np.ndarray, grade: np.ndarray, n_queries: int, scheme: Scheme, ks=KS
                ) -> tuple[np.ndarray, np.ndarray]:
    """Per query: number of relevant documents and IDCG@k (columns follow ``ks``).

    Depends on the qrels only, so callers evaluating many runs compute it once.

    >>> n_rel, idcg = ideal_gains(np.array([0, 0, 1]), np.array([2, 1, 1]), 2, V2, ks=(1, 10))
    >>> n_rel.tolist(), idcg.tolist()
    ([1.0, 0.0], [[1.0, 1.0], [0.0, 0.0]])
    """
    qidx = np.asarray(qidx, dtype=np.int64)
    gain = scheme.gain(grade)
    n_rel = np.bincount(qidx, weights=scheme.relevant(grade).astype(np.float64), minlength=n_queries)
    ideal = np.lexsort((-gain, qidx))
    ideal_pos = _position_in_group(qidx[ideal])
    ideal_gain = gain[ideal] / np.log2(ideal_pos + 2.0)
    idcg = np.stack([np.bincount(qidx[ideal], weights=ideal_gain * (ideal_pos < k), minlength=n_queries) for k in ks],
                    axis=1) if len(ks) else np.zeros((n_queries, 0))
    return n_rel, idcg


# The kernel writes the families in this order; ``metric_names`` must agree (checked at import).
_KERNEL_FAMILIES = ("ndcg", "recall", "precision", "map", "mrr", "hit_rate")
assert FAMILIES == _KERNEL_FAMILIES, "per_query_metrics' kernel writes the families in _KERNEL_FAMILIES order"


_BLOCK = 64  # queries per block of ``_metrics_kernel``'s output buffer (8 x k rows x 64 values: a few KiB)


@numba.njit(cache=True, nogil=True, error_model="numpy")  # numpy: x / 0 needs no exception check
def _metrics_kernel(qidx, rank, gain_discount, rel, rr_q, rr_rank, ks, n_rel, idcg_all, out) -> None:
    """Fill ``out`` (rows: 6 families x k, then DCG@k, then IDCG@k; columns: queries), one query at a
    time: ``qidx`` and ``rr_q`` are sorted, so each query's pairs are one block and the accumulators
    are k-sized (no queries-sized temporaries to allocate and fault in).

    Sums run in item order, exactly as ``np.bincount`` adds its weights, so results are bit-identical
    to the NumPy formulation they replaced."""
    n_k, n_queries = len(ks), out.shape[1]
    k_max = ks.max() if n_k else -np.inf
    dcg, hits, ap = np.zeros(n_k), np.zeros(n_k), np.zeros(n_k)
    # Rows of ``out`` are queries-long: a query's values land in 8 x k rows far apart. They are gathered for a
    # block of queries in a small buffer (it stays in cache) and copied out row by row, a block at a time.
    block = np.empty((out.shape[0], _BLOCK))
    p = t = 0
    for q in range(n_queries):
        b = q % _BLOCK
        dcg[:] = 0.0
        hits[:] = 0.0
        ap[:] = 0.0
        while p < len(qidx) and qidx[p] == q:
            r = rank[p]
            if r <= k_max:  # else beyond every cutoff (or not retrieved): adds nothing
                for j in range(n_k):
                    if r <= ks[j]:
                        dcg[j] += gain_discount[p]
                        if rel[p]:
                            hits[j] += 1.0
            p += 1
        # Relevant retrieved documents in rank order: MAP and the first relevant rank.
        first_rel, position = np.inf, 0.0
        while t < len(rr_q) and rr_q[t] == q:
            if position == 0.0:
                first_rel = rr_rank[t]
            precision = (position + 1.0) / rr_rank[t]
            for j in range(n_k):
                if rr_rank[t] <= ks[j]:
                    ap[j] += precision
            position += 1.0
            t += 1
        has_rel = n_rel[q] > 0
        for j in range(n_k):
            k = ks[j]
            idcg = idcg_all[q, j]
            block[0 * n_k + j, b] = dcg[j] / idcg if idcg > 0 else 0.0
            block[1 * n_k + j, b] = hits[j] / n_rel[q] if has_rel else 0.0
            block[2 * n_k + j, b] = hits[j] / k
            block[3 * n_k + j, b] = ap[j] / n_rel[q] if has_rel else 0.0
            block[4 * n_k + j, b] = 1.0 / first_rel if first_rel <= k else 0.0
            block[5 * n_k + j, b] = 1.0 if first_rel <= k else 0.0
            block[6 * n_k + j, b] = dcg[j]
            block[7 * n_k + j, b] = idcg
        if b == _BLOCK - 1 or q == n_queries - 1:
            out[:, q - b:q + 1] = block[:, :b + 1]


class QueryMetrics:
    """Per-query metric values: one (names x queries) matrix, read by name.

    ``names`` are ``metric_names(ks)`` (family-major), then ``dcg_at_k`` and ``idcg_at_k`` per k;
    ``metric_rows`` is the leading block of the matrix that holds ``metric_names(ks)``."""

    def __init__(self, names: list[str], values: np.ndarray, n_metrics: int) -> None:
        self.names, self.values = names, values
        self._row = {n: i for i, n in enumerate(names)}
        self.metric_rows = values[:n_metrics]

    def __getitem__(self, name: str) -> np.ndarray:
        return self.values[self._row[name]]

    def __contains__(self, name: str) -> bool:
        return name in self._row


def per_query_metrics(qidx: np.ndarray, rank: np.ndarray, grade: np.ndarray, n_queries: int, scheme: Scheme,
                      ks=KS, ideal: tuple[np.ndarray, np.ndarray] | None = None) -> QueryMetrics:
    """Metrics per query from judged documents.

    ``qidx``  query index (0..n_queries-1) of each judged (query, document) pair
    ``rank``  1-based rank of that document in the query's list, ``np.inf`` when not retrieved
    ``grade`` its qrel grade
    ``ideal`` optional precomputed ``ideal_gains`` for these n_queries (same scheme and ks)
    Returns a ``QueryMetrics``: an array of n_queries per name, ``dcg_at_k`` / ``idcg_at_k`` included.

    >>> m = per_query_metrics(np.array([0, 0]), np.array([2.0, np.inf]), np.array([2, 1]), 1, V2, ks=(10,))
    >>> float(m["recall_at_10"][0]), float(m["mrr_at_10"][0])
    (1.0, 0.5)
    """
    qidx = np.ascontiguousarray(qidx, dtype=np.int64)
    rank = np.ascontiguousarray(rank, dtype=np.float64)
    grade = np.asarray(grade)
    ks = tuple(ks)
    if len(qidx) and (np.diff(qidx) < 0).any():  # the kernel reads each query's pairs as one block
        order = np.argsort(qidx, kind="stable")
        qidx, rank, grade = qidx[order], rank[order], grade[order]
    rel = scheme.relevant(grade)
    retrieved = np.isfinite(rank)
    # NumPy computes the discounts, so they match pytrec_eval-checked values to the last bit.
    discount = np.zeros_like(rank)
    discount[retrieved] = 1.0 / np.log2(rank[retrieved] + 1.0)
    n_rel, idcg_all = ideal if ideal is not None else ideal_gains(qidx, grade, n_queries, scheme, ks)
    rr = np.flatnonzero(rel & retrieved)
    rr = rr[np.argsort(qidx[rr] * (rank[rr].max(initial=0.0) + 1.0) + rank[rr], kind="stable")]
    names = metric_names(ks)
    values = np.empty((len(names) + 2 * len(ks), n_queries))
    f, i = np.float64, np.int64
    _metrics_kernel(kernel_input(qidx, i), kernel_input(rank, f), kernel_input(scheme.gain(grade) * discount, f),
                    kernel_input(rel, np.bool_), kernel_input(qidx[rr], i), kernel_input(rank[rr], f),
                    kernel_input(ks, f), kernel_input(n_rel, f),
                    kernel_input(np.reshape(idcg_all, (n_queries, len(ks))), f), values)
    return QueryMetrics(names + [f"dcg_at_{k}" for k in ks] + [f"idcg_at_{k}" for k in ks], values, len(names))


@numba.njit(cache=True, nogil=True)
def _sums_by_cell(cell: np.ndarray, values: np.ndarray, n_cells: int) -> tuple[np.ndarray, np.ndarray]:
    total = np.zeros((values.shape[0], n_cells))
    missing = np.zeros((values.shape[0], n_cells))  # NaN values are rare: count those, not the others
    size = np.zeros(n_cells)
    for i in range(values.shape[1]):
        size[cell[i]] += 1.0
    for m in range(values.shape[0]):
        for i in range(values.shape[1]):
            v = values[m, i]
            if np.isnan(v):
                missing[m, cell[i]] += 1.0
            else:
                total[m, cell[i]] += v
    return total, size - missing


def means_by_cell(cell: np.ndarray, values: np.ndarray, n_cells: int) -> np.ndarray:
    """NaN-aware means of each row of ``values`` (metrics x items) per cell (0..n_cells-1): one
    compiled pass, summing in item order (as ``np.bincount`` does). A cell with no value is NaN.

    >>> means_by_cell(np.array([0, 1, 0]), np.array([[1.0, 5.0, 3.0], [np.nan, 2.0, 4.0]]), 2)
    array([[2., 5.],
           [4., 2.]])
    """
    total, count = _sums_by_cell(kernel_input(cell, np.int64), kernel_input(values, np.float64), n_cells)
    return np.divide(total, count, out=np.full(total.shape, np.nan), where=count > 0)
