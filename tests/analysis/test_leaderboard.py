"""coreb_core.analysis.leaderboard on two runs (BM25 and the Trigrams stand-in for MiniLM: ``fake_dense``) and the
published figures, in coreb_core.present.display's x100 units (the Overview page is tested in
tests/app/test_page_overview.py)."""
import numpy as np
import pytest


def test_c2c_language_pairs_add_up_to_recall(fake_dense):
    from coreb_core.analysis.leaderboard import c2c_language_hits, c2c_language_pairs
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.runs.folders import read_hits

    root, _, bm25 = fake_dense
    hits = read_hits(bm25, root)
    with Store("demo_v2603", root) as s:
        per = c2c_language_hits(s, hits)
        pairs = c2c_language_pairs(s, hits)
        recall = evaluate(s, hits).query("task == 'c2c'").set_index("query_id")["recall_at_10"]
        no_excl = c2c_language_hits(s, hits, anchor_exclusion=False)
        recall_kept = evaluate(s, hits, anchor_exclusion=False).query("task == 'c2c'").set_index("query_id")[
            "recall_at_10"]
    for frame, expected in ((per, recall), (no_excl, recall_kept)):
        g = frame.groupby("query_id")[["found", "positives"]].sum()
        got = g["found"] / g["positives"]
        assert len(got) == 144  # every C2C query of demo_v2603: 24 problems x 6
        np.testing.assert_allclose(got.to_numpy(), expected.reindex(got.index.astype(str)).to_numpy(), atol=1e-12)
    assert pairs["positives"].sum() == 24 * (1 + 10 + 4)  # every C2C positive of demo_v2603, once
    mono = pairs[(pairs["anchor_language"] == "python") & (pairs["target_language"] == "python")].iloc[0]
    sub = per[(per["anchor_language"] == "python") & (per["target_language"] == "python")]
    assert mono["queries"] == len(sub) == 24
    assert mono["recall_at_k"] == pytest.approx((sub["found"] / sub["positives"]).mean())


def test_leaderboard_units_and_published_rows():
    from coreb_core.analysis.leaderboard import canonical_model, published_task_rows, source_label
    from coreb_core.present.display import pct_columns
    from coreb_core.present.numbers import pct
    from coreb_core.results.published import published_rows

    assert pct(0.31974) == 32.0 and pct(0.7955) == 79.5 and np.isnan(pct(None))
    assert canonical_model("Jina-code-emb-1.5B") == canonical_model("jina-code-1.5b") == "jina-code-1.5b"
    assert source_label("published:readme_v202603_ndcg10") == "README (release v202603)"
    rows = pct_columns(published_task_rows(published_rows()),
                       ["t2c", "c2c", "c2t", "overall_query_weighted", "overall_task_mean"])
    c2llm = rows[rows["model"] == "C2LLM-7B"].set_index("source")
    table3 = c2llm.loc["paper Table 3 (release v202603)"]
    assert table3[["t2c", "c2c", "c2t", "overall_query_weighted"]].tolist() == [44.3, 65.9, 79.5, 62.9]
    assert np.isnan(table3["overall_task_mean"])  # Table 3 prints no plain mean: never put one in its column
    readme = c2llm.loc["README (release v202603)"]
    assert readme["overall_task_mean"] == 62.3 and np.isnan(readme["overall_query_weighted"])
    assert set(rows["scheme"]) == {"v2 (paper)", "v2 (project page)", "v2 (README)"}


def test_parameter_efficiency_and_t2c_gradient(fake_dense):
    from coreb_core.analysis.leaderboard import leaderboard, parameter_efficiency, t2c_language_gradient
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.schemes import V2
    from coreb_core.present.display import pct_columns
    from coreb_core.results.published import published_rows
    from coreb_core.runs.folders import read_hits, run_meta

    root, dense, bm25 = fake_dense
    metas = {r: run_meta(r, root) for r in (bm25, dense)}
    with Store("demo_v2603", root) as s:
        tables = analyse_many(s, {r: read_hits(r, root) for r in metas}, (V2,), groupings=("task",))
        board = leaderboard(tables.groups("v2", "task"), metas, "v2", "demo_v2603", published_rows())
        points = pct_columns(parameter_efficiency(published_rows(), board, metas), ["overall"])
        grad = pct_columns(t2c_language_gradient(s, tables.per_query("v2"), published_rows(), {}, exclude_search=True),
                           ["value"])
        per = tables.per_query("v2").query("task == 't2c'")
        facts = s.df("SELECT query_id, subtask, COALESCE(target_language, 'any') AS lang FROM queries")
    c2llm = points[points["model"] == "C2LLM-7B"].iloc[0]
    assert (c2llm["params_b"], c2llm["overall"], c2llm["kind"]) == (7.0, 62.9, "published")
    ours = points[points["kind"] == "our run"].set_index("model")
    assert ours.loc["bm25 · demo_v2603", "params_b"] == 0.0  # one name per run, the sidebar's
    assert ours.loc["minilm · official · demo_v2603", "params_b"] == 0.0227
    pub = grad[grad["kind"] == "published"].set_index("language")["value"]
    assert pub.to_dict() == {"any": 71.4, "python": 64.9, "java": 51.4, "cpp": 46.5}
    m = per.merge(facts, on="query_id")
    m = m[(m["run"] == bm25) & ~m["subtask"].str.startswith("t2c_search") & (m["lang"] == "java")]
    got = grad[(grad["series"] == bm25) & (grad["language"] == "java")].iloc[0]
    assert got["value"] == round(m["ndcg_at_10"].mean() * 100, 1) and got["queries"] == len(m)
