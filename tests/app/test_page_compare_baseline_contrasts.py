"""The Compare runs page: a baseline run, the correction (Holm, Bonferroni, BH), the paired t-test's
p beside the randomization p, and the contrasting queries (tau-AP, weighted tau), each against the library.
Three lexical runs on CoREB-mini (seconds): BM25, MTEB's BM25 recipe and BM25 with each top 10 reversed."""
from __future__ import annotations

import shutil

import pytest
from streamlit.testing.v1 import AppTest

from coreb_core.analysis.comparison import headline_verdict, pair_table, pair_verdicts, run_intervals
from coreb_core.analysis.rank_contrast import contrasting_queries
from coreb_core.data.measures import NDCG_10
from coreb_core.present.display import verdict_sentence
from coreb_core.present.format import plain
from coreb_core.text import p_text
from tests.builders import REPO, app_test, one_table

RELEASE = "demo_v2603"


@pytest.fixture(scope="module")
def lexical(mini_data, tmp_path_factory):
    """CoREB-mini with three runs of demo_v2603 and their T2C per-query tables, as the library computes them."""
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.retrieval.pipeline import run_retrieval
    from coreb_core.runs.folders import read_hits, write_run
    from coreb_core.runs.meta import RunMeta

    root = tmp_path_factory.mktemp("compare26") / "cache"
    shutil.copytree(mini_data, root)
    runs = {m: run_retrieval(m, RELEASE, root=root).run_id for m in ("bm25", "bm25s-mteb")}
    hits = read_hits(runs["bm25"], root)
    top = hits["rank"] <= 10
    hits.loc[top, "rank"] = 11 - hits.loc[top, "rank"]  # each query's top 10 reversed: tau-AP -1 where 10 docs
    hits["score"] = 1000.0 - hits["rank"]
    hits = hits.sort_values(["task", "query_id", "rank"]).reset_index(drop=True)
    runs["reversed"] = write_run(hits, RunMeta("bm25_reversed_top10", release=RELEASE, kind="retrieval",
                                               model="reversed"), root)
    per, all_hits = {}, {}
    with Store(RELEASE, root) as store:
        for run_id in runs.values():
            all_hits[run_id] = read_hits(run_id, root)
            t = evaluate(store, all_hits[run_id])
            t = t[t["task"] == "t2c"].reset_index(drop=True)
            t.attrs = {}
            per[run_id] = t
    return root, runs, per, all_hits


def open_page(root, runs, **params):
    ids = [runs["bm25"], runs["bm25s-mteb"], runs["reversed"]]
    at = app_test("compare.py", root, {"task": "t2c", "release": RELEASE, "runs": ids, **params}).run()
    assert not at.exception and not at.error
    return at


def test_defaults_are_every_pair_and_holm_with_the_ttest_beside(lexical):
    root, runs, per, _ = lexical
    at = open_page(root, runs)
    assert at.selectbox(key="compare_baseline").value == "" and at.radio(key="compare_correction").value == "holm"
    shown = one_table(at, "mean_delta")
    pairs = pair_table(per, NDCG_10)
    verdicts = pair_verdicts(per, pairs, "t2c")
    assert list(zip(shown["a"], shown["b"])) == list(zip(pairs["a"], pairs["b"])) and len(shown) == 3
    assert shown["p_text"].tolist() == shown["p_holm_text"].tolist() == [p_text(v.p_holm) for v in verdicts]
    assert shown["p_ttest_text"].tolist() == [p_text(v.p_ttest_adjusted) for v in verdicts]
    assert shown["p_ttest_adjusted"].tolist() == pytest.approx(pairs["p_ttest_holm"].tolist())
    assert at.subheader[0].value.startswith("Every pair: Δ of the better run, 95% CI, p after Holm correction")


@pytest.mark.parametrize("correction, words", [("bonferroni", "Bonferroni"), ("bh", "Benjamini–Hochberg")])
def test_baseline_and_correction_match_the_library(lexical, correction, words):
    root, runs, per, _ = lexical
    at = open_page(root, runs)
    at.selectbox(key="compare_baseline").set_value(runs["bm25"]).run()
    at.radio(key="compare_correction").set_value(correction).run()
    assert not at.exception
    shown = one_table(at, "mean_delta")
    pairs = pair_table(per, NDCG_10, baseline=runs["bm25"], correction=correction)
    verdicts = pair_verdicts(per, pairs, "t2c", correction=correction, baseline=runs["bm25"])
    assert list(zip(shown["a"], shown["b"])) == [(runs["bm25s-mteb"], runs["bm25"]), (runs["reversed"], runs["bm25"])]
    assert shown["p_randomization_adjusted"].tolist() == pytest.approx(pairs["p_randomization_adjusted"].tolist())
    assert (shown["correction"] == correction).all()
    assert shown["p_text"].tolist() == [p_text(v.p_adjusted) for v in verdicts]
    assert shown["p_ttest_text"].tolist() == [p_text(v.p_ttest_adjusted) for v in verdicts]
    assert shown["verdict"].tolist() == ["significant" if v.significant else "not significant" for v in verdicts]
    from coreb_core.runs.folders import run_meta
    from ui.widgets import run_label

    labels = {r: run_label(run_meta(r, root)) for r in per}
    headline = headline_verdict(verdicts, run_intervals(per))
    assert at.markdown[0].value == plain(verdict_sentence(headline, labels))
    assert f"after {words} correction" in at.markdown[0].value
    assert at.subheader[0].value.startswith(f"Each run against {labels[runs['bm25']]}")
    assert f"p after {words} correction" in at.subheader[0].value
    assert at.query_params["baseline"] == runs["bm25"] and at.query_params["correction"] == correction


def test_contrasting_queries_match_the_library_and_open_the_inspector(lexical):
    root, runs, per, hits = lexical
    at = open_page(root, runs)
    pair = (runs["bm25"], runs["reversed"])
    at.selectbox(key="compare_contrast").set_value(pair).run()
    assert not at.exception
    shown = one_table(at, "tau_ap")
    from coreb_core.analysis.comparison import pair_deltas

    deltas = pair_deltas(per, *pair)
    expected = contrasting_queries(hits[pair[0]], hits[pair[1]], k=10, limit=20, per_query=deltas, task="t2c")
    assert shown["query_id"].tolist() == expected.rows["query_id"].tolist() and len(shown) == 20
    assert shown["tau_ap"].tolist() == expected.rows["tau_ap"].tolist()
    assert shown["tau_ap"].iloc[0] == -1.0  # a top 10 reversed
    assert shown["delta"].tolist() == [round(d * 100, 1) for d in expected.rows["delta"]]
    assert "outcome" not in shown  # the per-query Δ table alone has it
    assert any(f"{expected.queries} queries compared, mean {expected.mean:.3f}" in c.value for c in at.caption)

    at.radio(key="compare_contrast_by").set_value("weighted_tau").run()
    at.selectbox(key="compare_contrast_k").set_value(5).run()
    shown = one_table(at, "weighted_tau")
    five = contrasting_queries(hits[pair[0]], hits[pair[1]], k=5, measure="weighted_tau", per_query=deltas,
                               task="t2c")
    assert shown["query_id"].tolist() == five.rows["query_id"].tolist()
    assert shown["weighted_tau"].tolist() == pytest.approx(five.rows["weighted_tau"].tolist())
    assert at.query_params["contrast_by"] == "weighted_tau" and at.query_params["contrast_k"] == "5"
    assert len(at.get("download_button")) == 4  # and the per-problem table


def test_choices_survive_a_page_change_and_a_new_session_and_a_row_opens_the_inspector(lexical, monkeypatch):
    root, runs, _, _ = lexical
    monkeypatch.setenv("COREB_CACHE", str(root))
    ids = [runs["bm25"], runs["bm25s-mteb"], runs["reversed"]]
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.query_params.update({"release": RELEASE, "task": "t2c", "runs": ids})
    at.run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    at.selectbox(key="compare_baseline").set_value(runs["bm25s-mteb"]).run()
    at.radio(key="compare_correction").set_value("bh").run()
    at.radio(key="compare_contrast_by").set_value("weighted_tau").run()
    at.switch_page("pages/data.py").run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    assert at.selectbox(key="compare_baseline").value == runs["bm25s-mteb"]
    assert at.radio(key="compare_correction").value == "bh"
    assert at.radio(key="compare_contrast_by").value == "weighted_tau"
    # a new session from the URL the page wrote
    again = open_page(root, runs, baseline=runs["bm25s-mteb"], correction="bh", contrast_by="weighted_tau",
                      contrast_k="20")
    assert again.selectbox(key="compare_baseline").value == runs["bm25s-mteb"]
    assert again.radio(key="compare_correction").value == "bh"
    assert (again.radio(key="compare_contrast_by").value, again.selectbox(key="compare_contrast_k").value) == (
        "weighted_tau", 20)

    # a row of the contrasting queries opens the query inspector on that query, "← Back" returning here
    first = one_table(at, "weighted_tau")["query_id"].iloc[0]
    at.session_state["compare_contrasts"] = {"selection": {"rows": [0], "columns": []}}
    at.run()
    assert not at.exception and [t.value for t in at.title] == ["Query inspector"]
    assert at.query_params["query"] == first and at.query_params["from"] == "compare"
    assert at.query_params["correction"] == "bh" and at.query_params["baseline"] == runs["bm25s-mteb"]
