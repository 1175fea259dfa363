"""``hits_from_scores`` ranks by partial selection; it must give exactly the rows a full sort gives, ties included
(score as float32 descending, then doc id descending: trec_eval's order)."""
from __future__ import annotations

import numpy as np
import pytest

from coreb_core.runs.hits import hits_from_scores


def full_sort(query_ids, doc_ids, scores, top_k, keep):
    """Reference: every row sorted by (float32 score desc, doc id desc); top_k rows plus kept documents below."""
    out = []
    for qi, q in enumerate(query_ids):
        order = sorted(range(len(doc_ids)), key=lambda j: (-np.float32(scores[qi, j]), tuple(-ord(c) for c in doc_ids[j])))
        for rank, j in enumerate(order, start=1):
            if rank <= top_k or doc_ids[j] in keep.get(q, ()):
                out.append((q, doc_ids[j], rank))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_partial_selection_equals_a_full_sort(seed):
    rng = np.random.default_rng(seed)
    n_q, n_d = int(rng.integers(1, 5)), int(rng.integers(1, 30))
    doc_ids = [f"d{int(rng.integers(0, 999)):03d}x{i}" for i in range(n_d)]
    # Half the cases are coarse scores, so many ties cross the top-k boundary.
    scores = np.round(rng.random((n_q, n_d)) * 3, 1) if seed % 2 else rng.random((n_q, n_d))
    query_ids = [f"q{i}" for i in range(n_q)]
    top_k = int(rng.integers(0, n_d + 2))
    keep = {q: set(rng.choice(doc_ids, size=min(3, n_d), replace=False)) | {"not-a-doc"} for q in query_ids}
    hits = hits_from_scores("t2c", query_ids, doc_ids, scores, top_k, keep)
    got = list(zip(hits["query_id"].astype(str), hits["doc_id"].astype(str), hits["rank"].tolist()))
    assert got == full_sort(query_ids, doc_ids, scores, top_k, keep)
    assert hits["in_top_k"].tolist() == [r <= min(top_k, n_d) for r in hits["rank"]]
    assert hits["score"].tolist() == [float(scores[query_ids.index(q), doc_ids.index(d)]) for q, d, _ in got]


def test_scores_beyond_float32_precision_tie_and_go_by_doc_id():
    # 0.98296352 and 0.98296349 are one float32: the larger doc id ranks first, as in pytrec_eval.
    hits = hits_from_scores("t2c", ["q"], ["a", "b", "c"], np.array([[0.9829635217396717, 0.9829634865804816, 0.1]]),
                            top_k=1, keep={"q": ["a"]})
    assert hits[["doc_id", "rank"]].astype(str).values.tolist() == [["b", "1"], ["a", "2"]]
