"""Rank contrasts: how differently two runs order one query's documents, and the queries where they differ
most (diffir's way of choosing which queries to read).

Two measures of agreement between two ranked lists (value objects with one name, ``RankCorrelation``), both
1.0 for identical lists, and a disagreement near the top costs more than one near the bottom:

- ``tau_ap``: AP rank correlation (Yilmaz, Aslam & Robertson, SIGIR 2008). One-sided, ranking x against a
  reference y: τ_AP(x | y) = 2 / (n - 1) · Σ_{i=2..n} C(i) / (i - 1) - 1, where C(i) counts the documents
  x ranks above its i-th that y ranks above it too. Two runs have no reference, so the contrast uses
  the mean of both sides (the paper's symmetric form); -1.0 for one list reversed.
- ``weighted_tau``: Vigna's weighted Kendall tau (WWW 2015) as ``scipy.stats.weightedtau`` computes it by
  default (hyperbolic weight 1 / (r + 1) of the 0-based rank r, additive, the mean over both runs' ranks).

Which documents: a query's union of both runs' top ``k``. A document missing from one run's top k is placed
below that run's list; the lists are then two orderings of the same documents, without ties, on which both
measures are defined. How the missing documents are ordered there, that run's top k does not say, so each
measure is the mean of its values under the two extreme placements: in the order the other run ranks them
(every pair of them agreeing) and in the reverse of it (every pair disagreeing). A pair of documents that only
one run ranked thus counts half, as Fagin, Kumar & Sivakumar's neutral penalty (p = 1/2, "Comparing top k
lists", 2003); a pair with one document in each list only always disagrees. So two disjoint top-k lists are
far apart (tau-AP -5/9 for two documents each), not close as the first placement alone would make them
(-1/9). A single missing document is placed alike by both. Deeper ranks (a run's hits beyond k) are not read:
this is a contrast of the two top-k lists, as diffir's. A document to leave out (``exclude``: the C2C anchor
under the official rule) leaves both lists before they are cut at k.

Example (a swap at the top costs more than the same swap at the bottom; Kendall's tau is 1/3 for both):
    >>> tau_ap(["d1", "d2", "d3"], ["d2", "d1", "d3"]), tau_ap(["d1", "d2", "d3"], ["d1", "d3", "d2"])
    (0.0, 0.5)
    >>> hits_a = pd.DataFrame({"task": "t2c", "query_id": ["q1"] * 3 + ["q2"] * 2,
    ...                        "doc_id": ["d1", "d2", "d3", "e1", "e2"], "rank": [1, 2, 3, 1, 2]})
    >>> hits_b = hits_a.assign(doc_id=["d3", "d2", "d1", "e1", "e2"])  # q1 reversed, q2 the same
    >>> c = contrasting_queries(hits_a, hits_b, k=3, limit=1)
    >>> c.measure, c.queries, c.mean, c.rows[["query_id", "tau_ap", "overlap"]].values.tolist()
    (RankCorrelation(name='tau_ap'), 2, 0.0, [['q1', -1.0, 3]])
"""
from __future__ import annotations

from typing import Literal, Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd

from coreb_core.data.store import Store
from coreb_core.errors import CorebError

KEYS = ["task", "query_id"]
DEFAULT_K = 10
DEFAULT_LIMIT = 20
_CHUNK_CELLS = 4_000_000  # pair cells (queries x m x m) per block of the vectorised kernel: ~4 MB of booleans


class RankCorrelation(NamedTuple):
    """An agreement measure of two rankings, with one canonical name: ``tau_ap`` or ``weighted_tau`` (also the
    column of ``rank_contrasts``). Hashable; ``str`` is the name. The names in words are the page's.

    >>> RankCorrelation.parse("tau-AP"), str(WEIGHTED_TAU), RankCorrelation.parse("weightedtau") == WEIGHTED_TAU
    (RankCorrelation(name='tau_ap'), 'weighted_tau', True)
    """

    name: str

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: "str | RankCorrelation") -> "RankCorrelation":
        """A measure from its name or a usual spelling (case-insensitive): ``tau_ap``, ``tau-AP``, ``tauap``,
        ``weighted_tau``, ``weighted tau``, ``weightedtau``; a ``RankCorrelation`` is returned as is.

        >>> RankCorrelation.parse("Weighted tau").name
        'weighted_tau'
        """
        if isinstance(text, RankCorrelation):
            return text
        key = "".join(ch for ch in str(text).lower() if ch.isalnum())
        name = {"tauap": "tau_ap", "weightedtau": "weighted_tau"}.get(key)
        if name is None:
            raise CorebError(f"unknown rank correlation {text!r} (known: tau_ap, weighted_tau)")
        return cls(name)


TAU_AP, WEIGHTED_TAU = RankCorrelation("tau_ap"), RankCorrelation("weighted_tau")
RANK_CORRELATIONS: tuple[RankCorrelation, ...] = (TAU_AP, WEIGHTED_TAU)
RankMeasure = Literal["tau_ap", "weighted_tau"]  # RANK_CORRELATIONS' names as a type


class Contrasts(NamedTuple):
    """``contrasting_queries``' result: the queries whose two rankings agree least under ``measure``.

    >>> Contrasts._fields
    ('measure', 'k', 'queries', 'mean', 'rows')
    """

    measure: RankCorrelation  # what ``rows`` is sorted by (lowest first)
    k: int  # the depth of each run's list that was compared
    queries: int  # queries both runs ranked at least one document for: the ones compared
    mean: float  # the measure's mean over those queries (NaN without any)
    rows: pd.DataFrame  # the most contrasting ``limit`` queries: task, query_id, tau_ap, weighted_tau, overlap,
    # union, and the per-query frame's columns (delta, …) when one was given


# ---------------------------------------------------------------- the kernel
def _agreement(order: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric tau-AP and weighted tau per query from ``order`` (queries x m: order[q, i] = the position in b of
    a's i-th document, -1 past the query's union) and the size ``n`` of each union.

    Both come from one boolean matrix, both[q, i, j] = document j is above document i in a and in b:
    C(i) = its row sums, the documents above i in both runs, which is τ_AP's count for a's i-th document
    and for b's R[i]-th alike (τ_AP(a | b) divides it by i, τ_AP(b | a) by R[i]); for weighted tau, each
    pair's sign is +1 where both agree, so Σ_{j<i} s_ij = 2 C(i) - i and Σ_{i>j} s_ij = 2 D(j) - (n - 1 - j),
    D = the column sums, and each run's weighted sum of signs follows without a float matrix."""
    tau_ap_out, weighted_out = np.full(len(n), np.nan), np.full(len(n), np.nan)
    m = order.shape[1]
    if len(n) == 0 or m == 0:
        return tau_ap_out, weighted_out
    i = np.arange(m)
    below = i[:, None] > i[None, :]  # [i, j]: j above i in a
    step = max(1, _CHUNK_CELLS // (m * m))
    for start in range(0, len(n), step):
        part, nn = order[start:start + step], n[start:start + step]
        valid = i[None, :] < nn[:, None]
        both = (part[:, None, :] < part[:, :, None]) & below[None, :, :] & valid[:, :, None]
        c = both.sum(axis=2, dtype=np.int64)  # above i in both runs
        d = both.sum(axis=1, dtype=np.int64)  # below j in both runs
        pos_b = np.where(valid, part, 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            tau_a = (c[:, 1:] / i[None, 1:]).sum(axis=1)  # padding rows have c = 0
            tau_b = np.where(valid & (pos_b >= 1), c / np.maximum(pos_b, 1), 0.0).sum(axis=1)
            tau = ((2 * tau_a / (nn - 1) - 1) + (2 * tau_b / (nn - 1) - 1)) / 2
            up = np.where(valid, 2 * c - i[None, :], 0)  # Σ of the signs of the pairs with a document above
            down = np.where(valid, 2 * d - (nn[:, None] - 1 - i[None, :]), 0)  # … with one below (in a)
            w_a = np.where(valid, 1.0 / (i[None, :] + 1), 0.0)  # scipy's hyperbolic weigher 1 / (r + 1)
            w_b = np.where(valid, 1.0 / (pos_b + 1.0), 0.0)
            signed = ((w_a + w_b) * (up + down)).sum(axis=1)
            total = (nn - 1) * w_a.sum(axis=1)  # every pair's weight, there being no ties: the same for both runs
            weighted = signed / (2 * total)
        one = nn == 1  # one document in both lists: nothing to disagree about
        tau_ap_out[start:start + step] = np.where(one, 1.0, tau)
        weighted_out[start:start + step] = np.where(one, 1.0, weighted)
    return tau_ap_out, weighted_out


def _placed(a: Sequence[str], b: Sequence[str], reverse: bool = False) -> tuple[list[str], list[str]]:
    """Both lists over their union: each list, then the other's documents it lacks, in the other's order (or
    its reverse)."""
    missing_a, missing_b = [d for d in b if d not in set(a)], [d for d in a if d not in set(b)]
    if reverse:
        missing_a, missing_b = missing_a[::-1], missing_b[::-1]
    return list(a) + missing_a, list(b) + missing_b


def _lists_agreement(a: Sequence[str], b: Sequence[str]) -> tuple[float, float]:
    """(tau-AP, weighted tau) of two lists: the mean over the two placements."""
    values = []
    for reverse in (False, True):
        ext_a, ext_b = _placed(a, b, reverse)
        at_b = {d: j for j, d in enumerate(ext_b)}
        order = np.array([[at_b[d] for d in ext_a]], dtype=np.int64).reshape(1, len(ext_a))
        tau, weighted = _agreement(order, np.array([len(ext_a)]))
        values.append((tau[0], weighted[0]))
    return float((values[0][0] + values[1][0]) / 2), float((values[0][1] + values[1][1]) / 2)


def tau_ap(a: Sequence[str], b: Sequence[str]) -> float:
    """Symmetric tau-AP of two ranked lists of document ids (best first): the mean of τ_AP(a | b) and
    τ_AP(b | a), over their union placed by the module's rule.

    By hand, a = d1 d2 d3 and b = d1 d3 d2: τ_AP(a | b): a's 2nd (d2) has d1 above it, above in b too:
    C = 1, 1 / 1; a's 3rd (d3) has d1, d2 above, b has only d1 above d3: C = 1, 1 / 2; so
    2 / 2 · (1 + 0.5) - 1 = 0.5, and τ_AP(b | a) is 0.5 the same way. With d3 missing from a and d1 from b
    (a = d1 d2, b = d2 d3; one document each, so both placements agree): a becomes d1 d2 d3 and b d2 d3 d1;
    τ_AP(a | b) = (0 / 1 + 1 / 2) - 1 = -0.5 and τ_AP(b | a) = (1 / 1 + 0 / 2) - 1 = 0, mean -0.25.
    Disjoint, a = d1 d2 and b = e1 e2: in the other's order a becomes d1 d2 e1 e2 and b e1 e2 d1 d2;
    τ_AP(a | b) = 2 / 3 · (1 / 1 + 0 / 2 + 1 / 3) - 1 = -1/9, and τ_AP(b | a) the same; reversed, a becomes
    d1 d2 e2 e1 and b e1 e2 d2 d1, which disagree on every pair: -1. The mean: -5/9.

    >>> tau_ap(["d1", "d2", "d3"], ["d1", "d3", "d2"]), tau_ap(["d1", "d2"], ["d2", "d3"])
    (0.5, -0.25)
    >>> round(tau_ap(["d1", "d2"], ["e1", "e2"]), 6), round(-5 / 9, 6)
    (-0.555556, -0.555556)
    >>> four = ["d1", "d2", "d3", "d4"]
    >>> tau_ap(four, four), tau_ap(four, four[::-1])
    (1.0, -1.0)
    """
    return _lists_agreement(a, b)[0]


def weighted_tau(a: Sequence[str], b: Sequence[str]) -> float:
    """Weighted tau of two ranked lists of document ids (best first), over their union placed by the module's
    rule: the mean of ``scipy.stats.weightedtau`` with its defaults on each placement (scores = minus positions).

    By hand, a = d1 d2 d3 and b = d2 d1 d3: the pair (d1, d2) disagrees, (d1, d3) and (d2, d3) agree. Weighted
    by a's ranks (d1 1, d2 1/2, d3 1/3), each pair by the sum of its two weights: -(1 + 1/2) + (1 + 1/3) +
    (1/2 + 1/3) = 2/3, over all pairs' weight 2 · (1 + 1/2 + 1/3) = 11/3: 2/11; by b's ranks 2/11 too
    (``scipy.stats.weightedtau([3, 2, 1], [2, 3, 1])`` gives the same):

    >>> round(weighted_tau(["d1", "d2", "d3"], ["d2", "d1", "d3"]), 6), round(2 / 11, 6)
    (0.181818, 0.181818)
    >>> weighted_tau(["d1", "d2"], ["d1", "d2"]), weighted_tau(["d1", "d2"], ["d2", "d1"])
    (1.0, -1.0)
    """
    return _lists_agreement(a, b)[1]


# ---------------------------------------------------------------- runs
def _top(hits: pd.DataFrame, k: int, task: str | None, exclude: Mapping[str, str] | None) -> pd.DataFrame:
    """Each query's first ``k`` documents (task, query_id, doc_id, pos 0-based), after ``exclude``."""
    rank = hits["rank"].to_numpy(dtype=np.float64, na_value=np.nan)  # a nullable column too
    rows = hits.loc[rank <= k + (1 if exclude else 0), ["task", "query_id", "doc_id", "rank"]]
    if task is not None:
        rows = rows[rows["task"].astype(str).to_numpy() == task]
    rows = rows[rows["doc_id"].notna().to_numpy()]
    rows = rows.assign(task=rows["task"].astype(str), query_id=rows["query_id"].astype(str),
                       doc_id=rows["doc_id"].astype(str))
    if exclude:
        rows = rows[(rows["query_id"].map(exclude) != rows["doc_id"]).to_numpy()]
    rows = rows.sort_values(["task", "query_id", "rank"], kind="stable")
    pos = rows.groupby(["task", "query_id"], sort=False).cumcount().to_numpy()
    return rows[pos < k].assign(pos=pos[pos < k])


def _within(groups: np.ndarray) -> np.ndarray:
    """0, 1, 2, … within each run of equal values of the sorted ``groups``."""
    if len(groups) == 0:
        return groups.astype(np.int64)
    starts = np.r_[0, np.flatnonzero(groups[1:] != groups[:-1]) + 1]
    first = np.repeat(starts, np.diff(np.r_[starts, len(groups)]))
    return np.arange(len(groups)) - first


def _extended(q: np.ndarray, own: np.ndarray, other: np.ndarray, length: np.ndarray, reverse: bool) -> np.ndarray:
    """One run's position of every union document: its own for its top-k documents; the others below its list
    (from ``length[q]`` on), in the other run's order or its reverse."""
    out = own.copy()
    missing = np.flatnonzero(own < 0)
    order = missing[np.lexsort((-other[missing] if reverse else other[missing], q[missing]))]
    out[order] = length[q[order]] + _within(q[order])
    return out


def rank_contrasts(hits_a: pd.DataFrame, hits_b: pd.DataFrame, k: int = DEFAULT_K, task: str | None = None,
                   exclude: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Per query both runs ranked (``hits``' frames: task, query_id, doc_id, rank), on the sidebar's ``task``
    or all: ``tau_ap`` and ``weighted_tau`` of their top ``k`` lists (placed by the module's rule),
    ``overlap`` (documents in both top k) and ``union``. ``exclude`` maps a query id to a document that
    leaves both lists first (the C2C anchor). Sorted by task and query id.

    >>> hits_a = pd.DataFrame({"task": "t2c", "query_id": ["q1"] * 3, "doc_id": ["d1", "d2", "d3"], "rank": [1, 2, 3]})
    >>> hits_b = hits_a.assign(doc_id=["d2", "d1", "d3"])
    >>> rank_contrasts(hits_a, hits_b, k=3).round(6).to_dict("records")  # as tau_ap and weighted_tau above
    [{'task': 't2c', 'query_id': 'q1', 'tau_ap': 0.0, 'weighted_tau': 0.181818, 'overlap': 3, 'union': 3}]
    >>> rank_contrasts(hits_a, hits_b, k=2, exclude={"q1": "d1"})[["tau_ap", "overlap"]].values.tolist()
    [[1.0, 2.0]]
    """
    if k < 1:
        raise CorebError(f"the depth k must be at least 1 (got {k})")
    a, b = _top(hits_a, k, task, exclude), _top(hits_b, k, task, exclude)
    both = pd.concat([a, b], ignore_index=True)
    columns = ["task", "query_id", "tau_ap", "weighted_tau", "overlap", "union"]
    if len(a) == 0 or len(b) == 0:
        return pd.DataFrame({c: pd.Series(dtype=float if c in ("tau_ap", "weighted_tau") else object)
                             for c in columns})
    query, queries = pd.MultiIndex.from_frame(both[KEYS]).factorize()
    doc = pd.factorize(both["doc_id"])[0].astype(np.int64)
    side = np.r_[np.zeros(len(a), dtype=np.int8), np.ones(len(b), dtype=np.int8)]
    seen = np.zeros((len(queries), 2), dtype=bool)
    seen[query, side] = True
    shared = np.asarray(seen.all(axis=1))
    keep = shared[query]
    query, doc, side, pos = query[keep], doc[keep], side[keep], both["pos"].to_numpy()[keep]
    # the queries compared, numbered 0.. in task / query id order
    renumber = np.full(len(queries), -1)
    kept_ids = np.flatnonzero(shared)
    by_name = kept_ids[np.lexsort((queries.get_level_values(1)[kept_ids], queries.get_level_values(0)[kept_ids]))]
    renumber[by_name] = np.arange(len(by_name))
    q = renumber[query].astype(np.int64)
    nq = len(by_name)
    key = q * (int(doc.max()) + 1) + doc
    union, where = np.unique(key, return_inverse=True)
    q_u = union // (int(doc.max()) + 1)
    pos_a, pos_b = np.full(len(union), -1), np.full(len(union), -1)
    pos_a[where[side == 0]], pos_b[where[side == 1]] = pos[side == 0], pos[side == 1]
    len_a, len_b = np.bincount(q[side == 0], minlength=nq), np.bincount(q[side == 1], minlength=nq)
    n = np.bincount(q_u, minlength=nq)
    tau, weighted = np.zeros(nq), np.zeros(nq)
    for reverse in (False, True):  # the two placements of the documents one run lacks; the mean of both
        ext_a, ext_b = _extended(q_u, pos_a, pos_b, len_a, reverse), _extended(q_u, pos_b, pos_a, len_b, reverse)
        order = np.full((nq, int(n.max())), -1, dtype=np.int64)
        order[q_u, ext_a] = ext_b
        one_tau, one_weighted = _agreement(order, n)
        tau, weighted = tau + one_tau / 2, weighted + one_weighted / 2
    overlap = np.bincount(q_u[(pos_a >= 0) & (pos_b >= 0)], minlength=nq)
    return pd.DataFrame({"task": queries.get_level_values(0)[by_name].astype(str),
                         "query_id": queries.get_level_values(1)[by_name].astype(str),
                         "tau_ap": tau, "weighted_tau": weighted, "overlap": overlap, "union": n})


def anchor_exclusions(store: Store) -> dict[str, str]:
    """Query id -> its C2C anchor document: what ``exclude`` leaves out of both lists under anchor exclusion.

    >>> anchors = anchor_exclusions(store)  # demo_v2603
    >>> all(q.startswith("q_c2c") for q in anchors), len(anchors) > 0
    (True, True)
    """
    facts = store.query_facts
    anchors = facts[(facts["task"] == "c2c") & facts["anchor_code_id"].notna()]
    return dict(zip(anchors["query_id"].astype(str), anchors["anchor_code_id"].astype(str)))


def contrasting_queries(hits_a: pd.DataFrame, hits_b: pd.DataFrame, k: int = DEFAULT_K,
                        measure: RankCorrelation | str = TAU_AP, limit: int | None = DEFAULT_LIMIT,
                        per_query: pd.DataFrame | None = None, task: str | None = None,
                        exclude: Mapping[str, str] | None = None) -> Contrasts:
    """The ``limit`` queries (all with None) whose two rankings agree least under ``measure`` (``rank_contrasts``),
    lowest first; ties go to the larger metric difference, then by task and query id. ``per_query``: one row
    per query with ``task``, ``query_id`` and ``delta`` (a - b on a metric, as ``comparison.pair_deltas``
    gives it); its columns join the rows (a query it lacks gets NaN).

    >>> hits_a = pd.DataFrame({"task": "t2c", "query_id": ["q1"] * 2 + ["q2"] * 2, "doc_id": ["d1", "d2", "e1", "e2"],
    ...                        "rank": [1, 2, 1, 2]})
    >>> hits_b = hits_a.assign(doc_id=["d2", "d1", "e1", "e3"])  # q1 swapped; q2: e2 missing from b, e3 from a
    >>> deltas = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2"], "delta": [0.25, -0.5]})
    >>> c = contrasting_queries(hits_a, hits_b, k=2, measure="weighted_tau", per_query=deltas)
    >>> c.measure.name, c.queries, c.rows[["query_id", "weighted_tau", "tau_ap", "delta"]].round(4).values.tolist()
    ('weighted_tau', 2, [['q1', -1.0, -1.0, 0.25], ['q2', 0.5455, 0.5, -0.5]])
    """
    measure = RankCorrelation.parse(measure)
    rows = rank_contrasts(hits_a, hits_b, k, task, exclude)
    mean = float(rows[measure.name].mean()) if len(rows) else float("nan")
    by, ascending = [measure.name], [True]
    if per_query is not None:
        extra = per_query.drop(columns=[c for c in rows.columns if c not in KEYS and c in per_query.columns])
        extra = extra.assign(task=extra["task"].astype(str), query_id=extra["query_id"].astype(str))
        rows = rows.merge(extra, on=KEYS, how="left")
        if "delta" in rows:
            rows["_size"] = rows["delta"].abs()
            by, ascending = [measure.name, "_size"], [True, False]
    rows = rows.sort_values([*by, *KEYS], ascending=[*ascending, True, True], kind="stable", na_position="last")
    rows = rows.drop(columns=[c for c in ("_size",) if c in rows]).reset_index(drop=True)
    return Contrasts(measure, k, int(rows[measure.name].notna().sum()), mean,
                     rows if limit is None else rows.head(limit).reset_index(drop=True))
