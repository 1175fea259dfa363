"""Overview page and coreb_core.analysis.leaderboard: the library's fractions, printed x100 (ui.display) as
coreb_core.evaluation.evaluate gives them."""
import numpy as np
import pandas as pd
import pytest

from tests.helpers import app_test

BM25 = "bm25"


def _runs(cache):
    from coreb_core.runs.run import list_runs

    return {m["model"]: m for m in list_runs("demo_v2603", cache) if m.get("kind") == "retrieval"}


def _board(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "overall_query_weighted" in d.value.columns)


def test_overview_shows_bm25_t2c_as_evaluate_and_both_published_c2t(app_cache):
    from coreb_core.evaluation.evaluate import evaluate, load_hits, summary
    from coreb_core.data.store import Store

    runs = _runs(app_cache)
    bm25 = runs[BM25]["run_id"]
    with Store("demo_v2603", app_cache) as s:
        ours = summary(evaluate(s, load_hits(bm25, app_cache)))["tasks"]
    at = app_test("overview.py", app_cache, {"release": "demo_v2603", "runs": [m["run_id"] for m in runs.values()]})
    at.run()
    assert not at.exception and not at.error
    board = _board(at)
    row = board[board["run"] == bm25].iloc[0]
    assert row["t2c"] == round(ours["t2c"]["ndcg_at_10"] * 100, 1) == 30.0  # bench/mini_difficulty.py: 0.2998
    assert row["c2c"] == round(ours["c2c"]["ndcg_at_10"] * 100, 1)
    assert row["overall_task_mean"] == round(np.mean([ours[t]["ndcg_at_10"] for t in ("t2c", "c2c", "c2t")]) * 100, 1)
    weighted = sum(ours[t]["ndcg_at_10"] * ours[t]["queries"] for t in ours) / sum(ours[t]["queries"] for t in ours)
    assert row["overall_query_weighted"] == round(weighted * 100, 1) != row["overall_task_mean"]
    assert row["scheme"].startswith("v2")
    c2llm = board[(board["model"] == "C2LLM-7B") & (board["kind"] == "published")]
    by_source = dict(zip(c2llm["source"], c2llm["c2t"]))
    assert by_source["paper Table 3 (release v202603)"] == 79.5
    assert by_source["README (release v202603)"] == 76.6
    assert by_source["project page b312b5b (release v202603)"] == 76.6
    assert board["source"].notna().all() and board["scheme"].notna().all()
    # every table has a CSV download, every chart is altair
    names = {b.proto.label for b in at.get("download_button")}
    assert names == {"Download CSV"} and len(at.get("download_button")) == 6
    assert len(at.get("vega_lite_chart")) == 5


def test_overview_scheme_v1_changes_our_rows(app_cache):
    from coreb_core.evaluation.evaluate import evaluate, load_hits, summary
    from coreb_core.evaluation.schemes import V1
    from coreb_core.data.store import Store

    bm25 = _runs(app_cache)[BM25]["run_id"]
    with Store("demo_v2603", app_cache) as s:
        v1 = summary(evaluate(s, load_hits(bm25, app_cache), V1))["tasks"]["t2c"]["ndcg_at_10"]
    at = app_test("overview.py", app_cache, {"release": "demo_v2603", "runs": [bm25], "scheme": "v1"}).run()
    assert not at.exception
    row = _board(at).query("kind == 'our run'").iloc[0]
    assert row["t2c"] == round(v1 * 100, 1) and row["scheme"].startswith("v1")


def test_c2c_language_pairs_add_up_to_recall(app_cache):
    from coreb_core.evaluation.evaluate import evaluate, load_hits
    from coreb_core.analysis.leaderboard import c2c_language_hits, c2c_language_pairs
    from coreb_core.data.store import Store

    bm25 = _runs(app_cache)[BM25]["run_id"]
    hits = load_hits(bm25, app_cache)
    with Store("demo_v2603", app_cache) as s:
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
    from coreb_core.data.published import published_rows
    from ui.display import pct, pct_columns

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


def test_parameter_efficiency_and_t2c_gradient(app_cache):
    from coreb_core.evaluation.evaluate import analyse_many, load_hits
    from coreb_core.analysis.leaderboard import leaderboard, parameter_efficiency, t2c_language_gradient
    from coreb_core.data.published import published_rows
    from coreb_core.evaluation.schemes import V2
    from coreb_core.data.store import Store
    from ui.display import pct_columns

    runs = _runs(app_cache)
    metas = {m["run_id"]: m for m in runs.values()}
    with Store("demo_v2603", app_cache) as s:
        tables = analyse_many(s, {r: load_hits(r, app_cache) for r in metas}, (V2,), groupings=("task",))
        board = leaderboard(tables.groups("v2", "task"), metas, "v2", "demo_v2603", published_rows())
        points = pct_columns(parameter_efficiency(published_rows(), board, metas), ["overall"])
        grad = pct_columns(t2c_language_gradient(s, tables.per_query("v2"), published_rows(), {}, exclude_search=True),
                           ["value"])
        per = tables.per_query("v2").query("task == 't2c'")
        facts = s.df("SELECT query_id, subtask, COALESCE(target_language, 'any') AS lang FROM queries")
    c2llm = points[points["model"] == "C2LLM-7B"].iloc[0]
    assert (c2llm["params_b"], c2llm["overall"], c2llm["kind"]) == (7.0, 62.9, "published")
    ours = points[points["kind"] == "our run"].set_index("model")
    assert ours.loc["bm25", "params_b"] == 0.0 and ours.loc["minilm [official]", "params_b"] == 0.0227  # run labels
    pub = grad[grad["kind"] == "published"].set_index("language")["value"]
    assert pub.to_dict() == {"any": 71.4, "python": 64.9, "java": 51.4, "cpp": 46.5}
    bm25 = runs[BM25]["run_id"]
    m = per.merge(facts, on="query_id")
    m = m[(m["run"] == bm25) & ~m["subtask"].str.startswith("t2c_search") & (m["lang"] == "java")]
    got = grad[(grad["series"] == bm25) & (grad["language"] == "java")].iloc[0]
    assert got["value"] == round(m["ndcg_at_10"].mean() * 100, 1) and got["queries"] == len(m)


@pytest.mark.parametrize("table, release", [("paper_table3_v202603_retrieval", "v202603"),
                                            ("paper_table14_v202602_retrieval", "v202602"),
                                            ("page_b312b5b_v202603_retrieval", "v202603")])
def test_published_overall_is_query_weighted(table, release):
    """Table 3's (and Table 14's, the page's) Overall = per-task values weighted by the release's query counts."""
    from coreb_core.data.published import OVERALL_QUERY_COUNTS, published_figures, query_weighted_overall

    counts = OVERALL_QUERY_COUNTS[release]
    for model, v in published_figures()[table].items():
        for metric in ("ndcg10", "recall10"):
            tasks = {t: v[f"{t}_{metric}"] for t in ("t2c", "c2c", "c2t")}
            assert query_weighted_overall(tasks, counts) == pytest.approx(v[f"overall_{metric}"], abs=0.001), \
                (model, metric)
            # the plain mean of tasks is a different quantity: it misses Table 3 for some model by far more
    means = [abs(np.mean([v[f"{t}_ndcg10"] for t in ("t2c", "c2c", "c2t")]) - v["overall_ndcg10"])
             for v in published_figures()[table].values()]
    assert max(means) > 0.02


def test_readme_avg_is_the_mean_of_tasks():
    from coreb_core.data.published import published_figures

    for model, v in published_figures()["readme_v202603_ndcg10"].items():
        assert np.mean([v["t2c"], v["c2c"], v["c2t"]]) == pytest.approx(v["avg_simple_mean"], abs=0.001), model


def test_undated_published_tables_carry_their_release():
    from coreb_core.data.published import published_rows

    rows = published_rows()
    for source in ("published:page_1a0d779_parameter_efficiency",
                   "published:paper_t2c_by_language_avg_over_models_excl_search"):
        assert {r["dataset_revision"] for r in rows if r["source"] == source} == {"v202603"}
    # the efficiency table's overall is Table 3's query-weighted Overall, model for model
    table3 = {r["model"]: r["value"] for r in rows if r["source"] == "published:paper_table3_v202603_retrieval"
              and r["task"] == "overall_query_weighted" and r["metric"] == "ndcg_at_10"}
    page = {r["model"]: r["value"] for r in rows if r["source"] == "published:page_1a0d779_parameter_efficiency"
            and r["metric"] == "ndcg_at_10"}
    shared = {"C2LLM-7B", "C2LLM-0.5B", "F2LLM-4B"} & set(table3) & set(page)
    assert shared and all(page[m] == table3[m] for m in shared)
