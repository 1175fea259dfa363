"""coreb_core.analysis.article: the article's figures (read by hand from the paper and project page) and ours
beside them, on CoREB-mini's default runs."""
import pandas as pd
import pytest

from coreb_core.analysis.article import (
    PUBLISHED_RERANKERS,
    LanguageRange,
    RerankedPair,
    article_figures,
    ndcg1_anchor_excluded,
    reranker_deltas,
    t2c_kind,
    table4,
    task_order,
)
from coreb_core.results.published import published_rows


def test_table4_is_the_papers():
    t4 = table4(published_rows()).set_index("model")
    assert len(t4) == 11 and list(t4.columns) == ["canonical", "full", "search"]
    assert t4.loc["C2LLM-7B"].tolist() == [0.582, 0.578, 0.004] and t4.index[0] == "C2LLM-7B"
    assert t4["search"].max() == 0.015 == t4.loc["Qwen3-4B", "search"]  # search is near 0 for every model


def test_task_order_has_three_exceptions_in_table3():
    # Table 3 (v202603), by hand: F2LLM-1.7B T2C 38.3 = C2C 38.3; F2LLM-0.6B 34.4 > 33.4; Qwen3-Emb-8B 32.8 > 32.0
    order = task_order(published_rows())
    assert (order.models, order.holding) == (11, 8)
    assert order.exceptions == ("F2LLM-1.7B (C2T > C2C = T2C)", "F2LLM-0.6B (C2T > T2C > C2C)",
                                "Qwen3-Emb-8B (C2T > T2C > C2C)")


def test_reranker_deltas_are_percent_and_ndcg1_is_the_papers():
    deltas = reranker_deltas(published_rows()).set_index("model")
    assert deltas.loc["Jina Reranker v2", ["t2c", "c2c", "c2t", "mean"]].tolist() == [-8.3, -8.8, -22.4, -13.17]
    # the same change in nDCG@10: the page's percent of C2LLM-7B's paper Table 3 score (T2C 0.443, C2C 0.659)
    assert deltas.loc["Jina Reranker v2", "t2c_delta"] == pytest.approx(-0.083 * 0.443)
    assert deltas.loc["CoREB-Reranker", "c2c_delta"] == pytest.approx(0.051 * 0.659)
    assert set(deltas["source"]) == {PUBLISHED_RERANKERS}


def test_our_reranked_run_sits_beside_the_published_rerankers():
    ours = RerankedPair("bm25+rerank", "bm25", 10, "release_v2602", {"t2c": 0.30, "c2c": 0.50, "c2t": 0.40},
                        {"t2c": 0.25, "c2c": 0.40, "c2t": 0.50})
    deltas = reranker_deltas(published_rows(), [ours]).set_index("model")
    row = deltas.loc["bm25+rerank"]
    assert row[["t2c", "c2c", "c2t"]].tolist() == pytest.approx([20.0, 25.0, -20.0])  # % of the first stage
    assert row[["t2c_delta", "c2c_delta", "c2t_delta"]].tolist() == pytest.approx([0.05, 0.10, -0.10])
    assert row["source"] == "ours: over bm25's top 10, trained on release_v2602" and len(deltas) == 6
    assert deltas.index[0] == "CoREB-Reranker" and (deltas.loc["CoREB-Reranker", ["t2c", "c2c", "c2t"]] > 0).all()
    ndcg1 = ndcg1_anchor_excluded(published_rows())
    assert ndcg1.iloc[0].tolist() == ["Jina-code-0.5b", 0.378] and len(ndcg1) == 5


def test_our_runs_beside_the_article(lexical_copy, lexical_cache):
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.schemes import V2
    from coreb_core.runs.folders import read_hits

    root, bm25 = lexical_copy
    metas = list(lexical_cache[1].values())  # bm25 and bm25s-mteb
    with Store("demo_v2603", root) as store:
        per_query = analyse_many(store, {r: read_hits(r, root) for r in metas}, (V2,)).per_query(V2)
        subtasks = store.df("SELECT query_id, subtask FROM queries WHERE task = 't2c'")
        figures = article_figures(store, per_query, published_rows(), {r: f"run {r}" for r in metas})
    assert figures.ranges == [LanguageRange(("ruby", "go"), 0.383, 0.387)]
    # independently: the mean nDCG@10 of the run's T2C queries whose subtask starts with t2c_search
    t2c = per_query[(per_query["run"] == bm25) & (per_query["task"] == "t2c")].astype({"query_id": str})
    t2c = t2c.merge(subtasks, on="query_id")
    ours = figures.our_t2c.set_index("run")
    for kind in ("canonical", "full", "search"):
        expected = t2c[t2c["subtask"].str.startswith(f"t2c_{kind}")]["ndcg_at_10"].mean()
        assert abs(ours.loc[bm25, kind] - expected) < 1e-12
        assert t2c_kind(f"t2c_{kind}_x") == kind
    assert ours.loc[bm25, "queries"] == len(t2c) and ours.loc[bm25, "model"] == f"run {bm25}"
    c2c = per_query[(per_query["run"] == bm25) & (per_query["task"] == "c2c")]
    assert abs(figures.our_ndcg1.set_index("run").loc[bm25, "ndcg_at_1"] - c2c["ndcg_at_1"].mean()) < 1e-12
    assert isinstance(figures.table4, pd.DataFrame) and figures.order.holding == 8


def test_overview_shows_the_article_figures(lexical_copy, lexical_cache):
    from tests.builders import app_test

    at = app_test("overview.py", lexical_copy[0], {"release": "demo_v2603", "runs": list(lexical_cache[1].values())}).run()
    assert not at.exception
    assert [t.label for t in at.tabs] == ["T2C by subtask (Table 4)", "C2C nDCG@1, anchor excluded", "Rerankers",
                                          "Task order"]
    order = next(m.value for m in at.markdown if m.value.startswith("The article says"))
    assert "**8 of 11** models do" in order and "Qwen3-Emb-8B" in order
    assert any("ruby and go together as a range: 38.3–38.7" in c.value for c in at.caption)
    assert any(c.value.startswith("Each reranker reorders a first stage's top documents.") for c in at.caption)
    rerankers = next(d.value for d in at.dataframe if "source" in d.value.columns and "c2c_delta" in d.value.columns)
    assert len(rerankers) == 5 and rerankers["source"].str.startswith("published").all()  # no reranked run here
    t4 = next(d.value for d in at.dataframe if "search" in d.value.columns)
    assert t4.set_index("model").loc["Qwen3-4B", "search"] == 1.5  # x100, one decimal
