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

import numpy as np

from coreb_core.data.measures import FAMILIES, KS, Measure, measures
from coreb_core.evaluation.schemes import Scheme, V2  # noqa: F401  (V2: the docstring example)


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


def per_query_metrics(qidx: np.ndarray, rank: np.ndarray, grade: np.ndarray, n_queries: int, scheme: Scheme,
                      ks=KS, ideal: tuple[np.ndarray, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """Metrics per query from judged documents.

    ``qidx``  query index (0..n_queries-1) of each judged (query, document) pair
    ``rank``  1-based rank of that document in the query's list, ``np.inf`` when not retrieved
    ``grade`` its qrel grade
    ``ideal`` optional precomputed ``ideal_gains`` for these n_queries (same scheme and ks)
    Returns ``{name: array of n_queries}`` plus ``dcg_at_k`` / ``idcg_at_k`` for each k.

    >>> m = per_query_metrics(np.array([0, 0]), np.array([2.0, np.inf]), np.array([2, 1]), 1, V2, ks=(10,))
    >>> float(m["recall_at_10"][0]), float(m["mrr_at_10"][0])
    (1.0, 0.5)
    """
    qidx = np.asarray(qidx, dtype=np.int64)
    rank = np.asarray(rank, dtype=np.float64)
    gain = scheme.gain(grade)
    rel = scheme.relevant(grade)
    retrieved = np.isfinite(rank)
    discount = np.zeros_like(rank)
    discount[retrieved] = 1.0 / np.log2(rank[retrieved] + 1.0)
    n_rel, idcg_all = ideal if ideal is not None else ideal_gains(qidx, grade, n_queries, scheme, ks)
    # Relevant retrieved documents in rank order within each query, for MAP and the first relevant rank.
    rr = np.flatnonzero(rel & retrieved)
    rr = rr[np.argsort(qidx[rr] * (rank[rr].max(initial=0.0) + 1.0) + rank[rr], kind="stable")]
    rr_q, rr_rank = qidx[rr], rank[rr]
    rr_precision = (_position_in_group(rr_q) + 1.0) / rr_rank
    first_rel = np.full(n_queries, np.inf)
    first_of_group = np.r_[True, rr_q[1:] != rr_q[:-1]] if len(rr_q) else np.zeros(0, dtype=bool)
    first_rel[rr_q[first_of_group]] = rr_rank[first_of_group]

    out: dict[str, np.ndarray] = {}
    has_rel = n_rel > 0
    safe_rel = np.where(has_rel, n_rel, 1.0)
    weighted_gain = gain * discount
    for i, k in enumerate(ks):
        in_k = rank <= k
        dcg = np.bincount(qidx, weights=weighted_gain * in_k, minlength=n_queries)
        idcg = idcg_all[:, i]
        hits = np.bincount(qidx, weights=rel & in_k, minlength=n_queries)
        ap = np.bincount(rr_q, weights=rr_precision * (rr_rank <= k), minlength=n_queries)
        out[Measure("ndcg", k).column] = np.divide(dcg, idcg, out=np.zeros(n_queries), where=idcg > 0)
        out[Measure("recall", k).column] = np.where(has_rel, hits / safe_rel, 0.0)
        out[Measure("precision", k).column] = hits / k
        out[Measure("map", k).column] = np.where(has_rel, ap / safe_rel, 0.0)
        out[Measure("mrr", k).column] = np.where(first_rel <= k, 1.0 / first_rel, 0.0)
        out[Measure("hit_rate", k).column] = (first_rel <= k).astype(np.float64)
        out[f"dcg_at_{k}"] = dcg
        out[f"idcg_at_{k}"] = idcg
    return out
