"""The Model selection page: ranking by the slice mean, budget respected (the library:
tests/analysis/test_selection.py). Fast: BM25 and a dense run ``minilm`` encoded by the ``Trigrams`` stand-in
(``fake_dense``; MiniLM's spec, 22.7 M parameters), not the MiniLM first launch."""
import pandas as pd
import pytest

from coreb_core.runs.meta import run_name
from tests.builders import app_test
from ui.widgets import run_label


@pytest.fixture(scope="module")
def root(fake_dense):
    return fake_dense[0]


def _recommendation(at) -> str:
    """The recommendation sentence: the first Markdown block of the page that starts with a verdict."""
    return next(m.value for m in at.markdown if m.value.startswith(("Choose", "No clear winner", "No run")))


def _slice_mean(cache, run_id, tasks, languages) -> float:
    """Independent: plain mean over tasks of the per-task mean nDCG@10 of the chosen queries."""
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.runs.folders import read_hits

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
def test_selection_ranks_by_slice_mean(root, tasks, languages, fake_dense_metas):
    runs = fake_dense_metas
    ids = [m.run_id for m in runs.values()]
    at = app_test("selection.py", root, {"release": "demo_v2603", "runs": ids, "sel_tasks": ",".join(tasks),
                                              "sel_langs": ",".join(languages)}).run()
    assert not at.exception and not at.error
    ranked = _ranked(at)
    expected = {rid: _slice_mean(root, rid, tasks, languages) for rid in ids}
    order = sorted(ids, key=lambda r: -expected[r])
    assert ranked["run"].tolist() == order and ranked["rank"].tolist() == [1, 2]
    assert ranked["mean"].tolist() == [round(expected[r] * 100, 1) for r in order]
    assert (ranked["ci_low"] <= ranked["mean"]).all() and (ranked["mean"] <= ranked["ci_high"]).all()
    runs_by_id = {m.run_id: run_name(m) for m in runs.values()}  # one name per run: the sidebar's
    assert runs_by_id == {m.run_id: run_label(m) for m in runs.values()}
    evidence = at.text[0].value
    assert evidence.startswith((f"{runs_by_id[order[0]]} ranks first with mean nDCG@10 "
                                f"{round(expected[order[0]] * 100, 1):.1f}",  # a tie has only an order (issue 48)
                                f"{runs_by_id[order[0]]} is listed first with mean nDCG@10 "
                                f"{round(expected[order[0]] * 100, 1):.1f}"))
    # issue 12: the recommendation in one sentence, with the runs' names and the lead's significance in words
    labels = {m.run_id: run_label(m) for m in runs.values()}
    first, second = (round(expected[r] * 100, 1) for r in order)
    words = _recommendation(at).replace("\\", "")  # the page escapes Markdown characters of names
    assert words.startswith((f"Choose {labels[order[0]]}: best nDCG@10 on", f"No clear winner: {labels[order[0]]} and"))
    gap = round(first - second, 1)  # as shown; a tie names no lead (issue 48)
    assert f"{first:.1f} vs {second:.1f}" in words or (gap == 0 and f"{first:.1f} and {second:.1f}" in words)
    assert (f"{gap:.1f} points ahead" in words if words.startswith("Choose") else
            gap == 0 or f"the {gap:.1f}-point difference is not significant" in words)
    assert "after Holm correction" in words and ("p = 0." in words or "p < 0.001" in words) and "e-" not in words
    assert any(m.value.startswith(f"#### {', '.join(t.upper() for t in tasks)} · ") for m in at.markdown)


def test_selection_respects_parameter_budget(root, fake_dense_metas):
    runs = fake_dense_metas
    ids = [m.run_id for m in runs.values()]
    at = app_test("selection.py", root, {"release": "demo_v2603", "runs": ids, "budget": "0.01"}).run()
    assert not at.exception
    ranked = _ranked(at)
    assert ranked["model"].tolist() == ["bm25 · demo_v2603"] and (ranked["params_b"] <= 0.01).all()
    excluded = next(d.value for d in at.dataframe if "reason" in d.value.columns)
    assert excluded["model"].tolist() == ["minilm · official · demo_v2603"]  # the sidebar's name
    # issue 12: parameters in words ("22.7 M", not "0.0227 B")
    assert excluded["reason"].iloc[0] == "22.7 M parameters exceed the 10 M budget"
    assert excluded["parameters"].tolist() == ["22.7 M"] and ranked["parameters"].tolist() == ["none (lexical)"]
    assert "it is the only run that qualifies" in _recommendation(at)
    assert _recommendation(at).startswith("Choose bm25 · demo\\_v2603: it is the only run")
    assert "at most 10 M parameters" in _recommendation(at)
    # every published model has >= 0.5 B parameters (or none recorded): no empty table, the page says why
    assert not any("figures" in d.value.columns for d in at.dataframe)
    why = next(i.value for i in at.info if i.value.startswith("No published model fits"))
    assert "are over the 10 M budget" in why and "no parameter count" in why
    # widgets restore the budget from the URL
    assert at.toggle(key="sel_limit").value is True and at.number_input(key="sel_budget").value == 0.01


def test_printable_view_hides_widgets_and_offers_summary(root, fake_dense_metas):
    runs = fake_dense_metas
    at = app_test("selection.py", root, {"release": "demo_v2603", "runs": [m.run_id for m in runs.values()],
                                              "print": "1", "sel_tasks": "c2t", "budget": "1"}).run()
    assert not at.exception
    assert len(at.multiselect) == 1  # only the sidebar's run picker
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download summary (markdown)" in labels
    assert len(labels) == len(set(labels)) == 5  # issue 12: no two buttons both "Download CSV"; the HTML report
    assert labels[1:] == ["Download report (HTML)", "Download ranking (CSV)", "Download published models (CSV)",
                          "Download left-out models (CSV)"]
    # issue 12: no app chrome (sidebar, toggles) on the printable page, a way back, one chart
    css = " ".join(h.proto.body for h in at.get("html"))
    assert '[data-testid="stSidebar"]' in css and ".st-key-sel_print" in css
    assert at.button(key="sel_print_exit").label == "Leave the printable view"
    assert len(at.get("vega_lite_chart")) == 1
    published = next(d.value for d in at.dataframe if "figures" in d.value.columns)
    assert published["model"].tolist()[:2] == ["Jina-code-emb-0.5B", "C2LLM-0.5B"]  # Table 3 C2T, <= 1 B
    assert published["c2t"].tolist()[:2] == [75.5, 75.3] and (published["params_b"] <= 1).all()
    assert published["parameters"].tolist()[:2] == ["500 M", "500 M"]
    assert "run" not in published.columns  # published models carry no run id

    at.button(key="sel_print_exit").click().run()
    assert not at.exception and at.toggle(key="sel_print").value is False and not at.get("html")


