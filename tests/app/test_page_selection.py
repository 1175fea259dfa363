"""The Model selection page: ranking by the slice mean, budget respected (the library:
tests/analysis/test_selection.py)."""
import pandas as pd
import pytest

from tests.builders import app_test
from coreb_core.runs.run import run_name


def _slice_mean(cache, run_id, tasks, languages) -> float:
    """Independent: plain mean over tasks of the per-task mean nDCG@10 of the chosen queries."""
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.runs.run import read_hits
    from coreb_core.data.store import Store

    with Store("demo_v2603", cache) as s:
        per = evaluate(s, read_hits(run_id, cache))
        q = s.df("SELECT query_id, task, CASE WHEN task = 't2c' THEN COALESCE(target_language, 'any') "
                 "ELSE anchor_language END AS lang FROM queries")
    m = per.astype({"query_id": str, "task": str}).merge(q, on=["query_id", "task"])
    m = m[m["task"].isin(tasks) & m["lang"].isin(languages)]
    return float(m.groupby("task")["ndcg_at_10"].mean().mean())


def _ranked(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "ci_low" in d.value.columns)


@pytest.mark.parametrize("tasks,languages", [(("t2c", "c2c", "c2t"), ("any", "python", "java", "cpp", "go", "ruby")),
                                             (("c2c",), ("python", "ruby")), (("t2c", "c2t"), ("java",))])
def test_selection_ranks_by_slice_mean(app_cache, tasks, languages, default_runs):
    runs = default_runs
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


def test_selection_respects_parameter_budget(app_cache, default_runs):
    runs = default_runs
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


def test_printable_view_hides_widgets_and_offers_summary(app_cache, default_runs):
    runs = default_runs
    at = app_test("selection.py", app_cache, {"release": "demo_v2603", "runs": [m["run_id"] for m in runs.values()],
                                              "print": "1", "sel_tasks": "c2t", "budget": "1"}).run()
    assert not at.exception
    assert len(at.multiselect) == 1  # only the sidebar's run picker
    labels = {b.proto.label for b in at.get("download_button")}
    assert "Download summary (markdown)" in labels
    published = next(d.value for d in at.dataframe if "figures" in d.value.columns)
    assert published["model"].tolist()[:2] == ["Jina-code-emb-0.5B", "C2LLM-0.5B"]  # Table 3 C2T, <= 1 B
    assert published["c2t"].tolist()[:2] == [75.5, 75.3] and (published["params_b"] <= 1).all()


