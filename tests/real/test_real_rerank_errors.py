"""On the real release_v2603: reranker-stage errors (ceiling, broken, rescued by trap kind) of a real
cross-encoder over a BM25 first stage of C2C at depth 10 (2,780 pairs), and ``rerank_errors`` warm at the whole
release's scale. The cross-encoder and its reranked run are the session's reranker protocol (tests/real/conftest.py:
the bundled MiniLM trained 16 steps on release_v2602's samples), in a copy of ``real_cache``: nothing is added to
the shared cache."""
from __future__ import annotations

import time

import pytest

RELEASE = "release_v2603"
DEPTH = 10
C2C_KINDS = ["failing_solution", "wrong_language", "other_model", "not_a_positive"]


@pytest.fixture(scope="module")
def real_rerank(training_cache, reranked):
    from coreb_core.analysis.rerank_errors import rerank_errors_of

    meta, _ = reranked
    assert meta.rerank_depth == DEPTH and meta.tasks == ("c2c",)
    return rerank_errors_of(meta.run_id, training_cache)


def test_a_real_cross_encoder_on_real_c2c(real_rerank):
    errors = real_rerank
    q, s = errors.queries, errors.summary.set_index("task")
    assert len(q) == 278 and errors.depth == DEPTH and errors.release == RELEASE
    # The first stage's figures are BM25's (no model): 165 of the 278 C2C queries have a positive among the
    # stored top 10 (the anchor takes one of the 10 places), 123 have it above every trap.
    assert s.loc["c2c", ["queries", "with_positive", "ceiling", "right_first"]].tolist() == [278, 278, 165, 123]
    assert s.loc["c2c", "ceiling_share"] == pytest.approx(165 / 278)
    # The reranker reorders, only within its candidates.
    moved = q["broken"] | q["rescued"]
    assert moved.sum() > 0 and not (moved & ~q["ceiling"]).any() and not (q["broken"] & q["rescued"]).any()
    assert s.loc["c2c", "net"] == s.loc["c2c", "right_reranked"] - s.loc["c2c", "right_first"]
    assert errors.by_kind["kind"].tolist() == C2C_KINDS
    assert errors.by_kind[["broken", "rescued"]].sum().tolist() == s.loc["c2c", ["broken", "rescued"]].tolist()
    assert q.loc[moved, "trap_kind"].isin(C2C_KINDS).all()


def test_rerank_errors_at_the_release_scale_is_fast_warm(real_cache):
    """The whole release (2,601 queries, BM25's top 100) against a "reranker" that reverses each top 10."""
    from coreb_core.analysis.rerank_errors import rerank_errors
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import list_runs, read_hits

    bm25 = next(m.run_id for m in list_runs(RELEASE, real_cache) if m.model == "bm25")
    first = read_hits(bm25, real_cache)
    top = first["rank"] <= DEPTH
    flipped = first.assign(rank=first["rank"].where(~top, DEPTH + 1 - first["rank"])).sort_values(
        ["task", "query_id", "rank"], ignore_index=True)
    with Store(RELEASE, real_cache) as store:
        errors = rerank_errors(store, first, flipped, DEPTH)
        start = time.perf_counter()
        rerank_errors(store, first, flipped, DEPTH)
        warm = time.perf_counter() - start
    s = errors.summary.set_index("task")
    # BM25's ceiling at depth 10, as in the C2C test above: C2T 614 of the 1,010 queries with a positive
    # (190 c2t_match queries have none), T2C 498 of 1,123.
    assert s["queries"].to_dict() == {"c2c": 278, "c2t": 1200, "t2c": 1123}
    assert s["ceiling"].to_dict() == {"c2c": 165, "c2t": 614, "t2c": 498}
    assert s["with_positive"].to_dict() == {"c2c": 278, "c2t": 1010, "t2c": 1123}
    moved = errors.queries["broken"] | errors.queries["rescued"]
    assert moved.any() and not (moved & ~errors.queries["ceiling"]).any()
    assert warm < 1.0, f"rerank_errors took {warm:.2f} s warm at the release's scale"
