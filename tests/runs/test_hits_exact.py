"""``hits_from_scores`` (one selection pass per row, numba) against a straightforward reference: every row sorted
fully as trec_eval orders it (score as float32 descending, then doc id descending), its prefix (top_k, or on to its
top_k-th counted document) and the kept documents below it. Every column's values are compared, on matrices with
many ties, both score dtypes, top_k 0, 1 and beyond the documents, and rows built to mislead the sampled cut."""
from __future__ import annotations

import numpy as np
import pytest

from coreb_core.runs.hits import _cuts, _sample_columns, hits_from_scores


def reference(query_ids, doc_ids, scores, top_k, keep=None, counted=None):
    """(query, doc, rank, score, in_top_k) rows from a full stable sort of each row."""
    k = min(top_k, len(doc_ids))
    rows = []
    for qi, q in enumerate(query_ids):
        by_id = sorted(range(len(doc_ids)), key=lambda j: doc_ids[j], reverse=True)
        order = sorted(by_id, key=lambda j: -np.float32(scores[qi, j]))  # stable: ties stay doc id descending
        depth = k
        if counted is not None and top_k > 0:
            seen = np.cumsum([bool(counted[j]) for j in order])
            depth = int(np.argmax(seen >= top_k)) + 1 if seen[-1] >= top_k else len(doc_ids)
        wanted = set((keep or {}).get(q, ()))
        for rank, j in enumerate(order, start=1):
            if rank <= depth or doc_ids[j] in wanted:
                rows.append((q, doc_ids[j], rank, float(scores[qi, j]), rank <= k))
    return rows


def rows_of(hits):
    return list(zip(hits["query_id"].astype(str), hits["doc_id"].astype(str), hits["rank"].tolist(),
                    hits["score"].tolist(), hits["in_top_k"].tolist()))


def random_case(seed):
    rng = np.random.default_rng(seed)
    n_q, n_d = int(rng.integers(1, 6)), int(rng.choice([1, 2, 7, 40, 150, 400]))
    # ids with shared prefixes ("d7" and "d70"): descending order is the strings', as trec_eval's strcmp
    doc_ids = [f"d{i}" for i in rng.permutation(n_d * 3)[:n_d]]
    kind = seed % 5
    if kind == 0:
        scores = rng.random((n_q, n_d))
    elif kind == 1:  # coarse: ties everywhere, across every cut
        scores = np.round(rng.random((n_q, n_d)) * 3, 1)
    elif kind == 2:  # float32, negative, -0.0 beside 0.0
        scores = (np.round(rng.random((n_q, n_d)) * 4, 0) - 2).astype(np.float32) * np.float32(0.5)
        scores[scores == 0] *= np.where(rng.random(int((scores == 0).sum())) < 0.5, -1, 1).astype(np.float32)
    elif kind == 3:  # ties that exist only at float32 precision
        scores = 0.5 + rng.integers(0, 3, (n_q, n_d)) * 1e-9
    else:  # BM25-like: mostly zeros
        scores = np.where(rng.random((n_q, n_d)) < 0.9, 0.0, rng.random((n_q, n_d)) * 10)
    query_ids = [f"q{i}" for i in range(n_q)]
    top_k = int(rng.choice([0, 1, 3, 10, 100, n_d, n_d + 5]))
    keep = {q: list(rng.choice(doc_ids, size=min(4, n_d))) + ["no-such-doc"] for q in query_ids}  # may repeat
    counted = rng.random(n_d) < rng.choice([0.2, 0.5, 1.0]) if seed % 3 == 0 else None
    return query_ids, doc_ids, scores, top_k, keep, counted


@pytest.mark.parametrize("seed", range(150))
def test_equals_a_full_sort(seed):
    query_ids, doc_ids, scores, top_k, keep, counted = random_case(seed)
    hits = hits_from_scores("t2c", query_ids, doc_ids, scores, top_k, keep, counted)
    assert rows_of(hits) == reference(query_ids, doc_ids, scores, top_k, keep, counted)
    assert set(hits["task"]) <= {"t2c"}
    assert (str(hits["rank"].dtype), str(hits["score"].dtype)) == ("int32", "float64")


@pytest.mark.parametrize("k", [10, 100])
@pytest.mark.parametrize("counted_share", [None, 0.5])
def test_rows_whose_sample_misleads_the_cut(k, counted_share):
    # The columns that estimate each row's cut score highest in every other row, so fewer than k reach the first
    # cut: those rows fall back to their second cut, or to every score, and must still be exact.
    rng = np.random.default_rng(k)
    n_d = 2000
    scores = rng.random((6, n_d))
    counted = rng.random(n_d) < counted_share if counted_share else None
    eligible = np.ones(n_d, dtype=bool) if counted is None else counted
    scores[::2, _sample_columns(eligible)] += 10.0
    cuts = _cuts(scores.astype(np.float32), eligible, k)
    assert all(((scores[i] >= cuts[i, 0]) & eligible).sum() < k for i in (0, 2, 4))  # the first cut misleads
    doc_ids = [f"code_{i:04d}" for i in range(n_d)]
    keep = {"q0": ["code_0001", "code_1999"], "q3": ["code_0002"]}
    query_ids = [f"q{i}" for i in range(6)]
    hits = hits_from_scores("t2c", query_ids, doc_ids, scores, k, keep, counted)
    assert rows_of(hits) == reference(query_ids, doc_ids, scores, k, keep, counted)


def test_stretch_runs_on_to_the_top_k_th_counted_document():
    # d4 and d2 are noise texts (not counted): the list holds 2 counted texts only at rank 4
    scores = np.array([[0.9, 0.8, 0.7, 0.6, 0.1]])
    hits = hits_from_scores("c2t", ["q"], ["d5", "d4", "d3", "d2", "d1"], scores, top_k=2,
                            counted=np.array([True, False, False, True, True]))
    assert hits["doc_id"].astype(str).tolist() == ["d5", "d4", "d3", "d2"]
    assert hits["rank"].tolist() == [1, 2, 3, 4]
    assert hits["in_top_k"].tolist() == [True, True, False, False]


def test_kept_document_listed_twice_is_stored_once_with_its_rank():
    scores = np.array([[0.9, 0.1, 0.5, 0.3]])
    hits = hits_from_scores("t2c", ["q"], ["a", "b", "c", "d"], scores, top_k=1, keep={"q": ["b", "d", "b", "zz"]})
    assert rows_of(hits) == [("q", "a", 1, 0.9, True), ("q", "d", 3, 0.3, False), ("q", "b", 4, 0.1, False)]


def test_nan_scores_are_never_listed():
    scores = np.array([[0.2, np.nan, 0.7], [np.nan, np.nan, np.nan]])
    hits = hits_from_scores("t2c", ["q1", "q2"], ["a", "b", "c"], scores, top_k=3, keep={"q1": ["b"]})
    assert rows_of(hits) == [("q1", "c", 1, 0.7, True), ("q1", "a", 2, 0.2, True)]


def test_a_matrix_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError, match="not \\(queries, documents\\)"):
        hits_from_scores("t2c", ["q1", "q2"], ["a", "b"], np.zeros((2, 3)))
