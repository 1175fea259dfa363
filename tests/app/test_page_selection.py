"""Model selection page and coreb_core.analysis.selection: ranking by the slice mean, budget respected."""
import numpy as np
import pandas as pd
import pytest

from tests.helpers import app_test
from coreb_core.runs.run import run_name


def _runs(cache):
    from coreb_core.runs.run import list_runs

    return {m["model"]: m for m in list_runs("demo_v2603", cache) if m.get("kind") == "retrieval"}


def _slice_mean(cache, run_id, tasks, languages) -> float:
    """Independent: plain mean over tasks of the per-task mean nDCG@10 of the chosen queries."""
    from coreb_core.evaluation.evaluate import evaluate, load_hits
    from coreb_core.data.store import Store

    with Store("demo_v2603", cache) as s:
        per = evaluate(s, load_hits(run_id, cache))
        q = s.df("SELECT query_id, task, CASE WHEN task = 't2c' THEN COALESCE(target_language, 'any') "
                 "ELSE anchor_language END AS lang FROM queries")
    m = per.astype({"query_id": str, "task": str}).merge(q, on=["query_id", "task"])
    m = m[m["task"].isin(tasks) & m["lang"].isin(languages)]
    return float(m.groupby("task")["ndcg_at_10"].mean().mean())


def _ranked(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "ci_low" in d.value.columns)


@pytest.mark.parametrize("tasks,languages", [(("t2c", "c2c", "c2t"), ("any", "python", "java", "cpp", "go", "ruby")),
                                             (("c2c",), ("python", "ruby")), (("t2c", "c2t"), ("java",))])
def test_selection_ranks_by_slice_mean(app_cache, tasks, languages):
    runs = _runs(app_cache)
    ids = [m["run_id"] for m in runs.values()]
    at = app_test("selection.py", app_cache, {"release": "demo_v2603", "runs": ids, "sel_tasks": ",".join(tasks),
                                              "sel_langs": ",".join(languages)}).run()
    assert not at.exception and not at.error
    ranked = _ranked(at)
    expected = {rid: _slice_mean(app_cache, rid, tasks, languages) for rid in ids}
    order = sorted(ids, key=lambda r: -expected[r])
    assert ranked["run"].tolist() == order and ranked["rank"].tolist() == [1, 2]
    assert ranked["mean_ndcg_at_10"].tolist() == [round(expected[r] * 100, 1) for r in order]
    assert (ranked["ci_low"] <= ranked["mean_ndcg_at_10"]).all() and (ranked["mean_ndcg_at_10"] <= ranked["ci_high"]).all()
    runs_by_id = {m["run_id"]: run_name(m) for m in runs.values()}  # runs are named with their profile
    sentence = at.text[0].value
    assert sentence.startswith(f"For {', '.join(t.upper() for t in tasks)}")
    assert f"{runs_by_id[order[0]]} ranks first with mean nDCG@10 {round(expected[order[0]] * 100, 1):.1f}" in sentence


def test_selection_respects_parameter_budget(app_cache):
    runs = _runs(app_cache)
    ids = [m["run_id"] for m in runs.values()]
    at = app_test("selection.py", app_cache, {"release": "demo_v2603", "runs": ids, "budget": "0.01"}).run()
    assert not at.exception
    ranked = _ranked(at)
    assert ranked["model"].tolist() == ["bm25"] and (ranked["params_b"] <= 0.01).all()
    excluded = next(d.value for d in at.dataframe if "reason" in d.value.columns)
    assert excluded["model"].tolist() == ["minilm [official]"]  # named with its profile
    assert excluded["reason"].iloc[0] == "0.0227 B parameters exceed the 0.01 B budget"
    assert "it is the only run that qualifies" in at.text[0].value
    published = next(d.value for d in at.dataframe if "figures" in d.value.columns)
    assert published.empty  # every published model has >= 0.5 B parameters (or none recorded)
    # widgets restore the budget from the URL
    assert at.toggle(key="sel_limit").value is True and at.number_input(key="sel_budget").value == 0.01


def test_printable_view_hides_widgets_and_offers_summary(app_cache):
    runs = _runs(app_cache)
    at = app_test("selection.py", app_cache, {"release": "demo_v2603", "runs": [m["run_id"] for m in runs.values()],
                                              "print": "1", "sel_tasks": "c2t", "budget": "1"}).run()
    assert not at.exception
    assert len(at.multiselect) == 1  # only the sidebar's run picker
    labels = {b.proto.label for b in at.get("download_button")}
    assert "Download summary (markdown)" in labels
    published = next(d.value for d in at.dataframe if "figures" in d.value.columns)
    assert published["model"].tolist()[:2] == ["Jina-code-emb-0.5B", "C2LLM-0.5B"]  # Table 3 C2T, <= 1 B
    assert published["c2t"].tolist()[:2] == [75.5, 75.3] and (published["params_b"] <= 1).all()


def test_recommend_and_published_units(app_cache):
    from coreb_core.evaluation.evaluate import analyse_many, load_hits
    from coreb_core.data.published import published_rows
    from coreb_core.evaluation.schemes import V2
    from coreb_core.analysis.selection import recommend, recommend_published
    from ui.display import pct, summary_markdown, winner_sentence
    from coreb_core.data.store import Store

    runs = _runs(app_cache)
    metas = {m["run_id"]: m for m in runs.values()}
    with Store("demo_v2603", app_cache) as s:
        tables = analyse_many(s, {r: load_hits(r, app_cache) for r in metas}, (V2,), traps=True)
        rec = recommend(s, tables.per_query("v2"), tables.traps, metas, ("t2c",), ("any",), None, "queries")
    bm25 = runs["bm25"]["run_id"]
    row = rec.ranked.set_index("run").loc[bm25]
    per = tables.per_query("v2").query("task == 't2c'")
    traps = tables.traps.query("task == 't2c'")
    anyq = per["query_id"].astype(str).str.contains("_any_")
    assert row["queries"] == 120 == anyq[per["run"] == bm25].sum()  # T2C _any: 24 canonical + 24 full + 72 search
    assert pct(row["mean_ndcg_at_10"]) == round(per[(per["run"] == bm25) & anyq]["ndcg_at_10"].mean() * 100, 1)
    t_any = traps["query_id"].astype(str).str.contains("_any_")
    assert pct(row["trap_share"]) == round(traps[(traps["run"] == bm25) & t_any]["trap_above_positive"].mean() * 100, 1)
    assert "scheme v2" in winner_sentence(rec, "v2")
    # published: all languages -> paper Table 3; C2C by language -> Table 15; T2C by language -> not applicable
    ranked, _ = recommend_published(published_rows(), ("t2c", "c2c", "c2t"), ("any", "python", "java", "cpp", "go",
                                                                             "ruby"), 8.0)
    c2llm = ranked.set_index("model").loc["C2LLM-7B"]
    assert pct(c2llm["mean_ndcg_at_10"]) == round(np.mean([0.443, 0.659, 0.795]) * 100, 1) and c2llm["params_b"] == 7.0
    assert (ranked["evidence"] == "published figures only").all()
    c2c, _ = recommend_published(published_rows(), ("c2c",), ("python", "cpp"), None)
    assert pct(c2c.set_index("model").loc["GemEmb-2", "c2c"]) == round((0.681 + 0.789) / 2 * 100, 1)
    none, excluded = recommend_published(published_rows(), ("t2c",), ("python",), None)
    assert none.empty and set(excluded["reason"]) == {"no published T2C figures per language"}
    text = summary_markdown(rec, ranked, "v2", "demo_v2603")
    assert text.startswith("# CoREB model selection") and "published figures only" in text
