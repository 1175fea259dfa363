"""The Compare runs page against coreb_core.evaluation.significance (the library by hand:
tests/analysis/test_comparison.py). Fast: BM25 against a dense run encoded by the ``Trigrams`` stand-in
(``fake_dense``), not the MiniLM first launch."""
from __future__ import annotations

import pytest

from coreb_core.analysis.comparison import headline_verdict, pair_table, pair_verdicts, run_intervals
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.evaluation.significance import DEFAULT_PERMUTATIONS, adaptive_limit, intervals
from coreb_core.evaluation.significance import compare_pair as fixed_compare_pair


def compare_pair(*args, **kwargs):
    """The page's test: adaptive flips up to the default limit (issue 48, item 4)."""
    return fixed_compare_pair(*args, **kwargs, max_permutations=adaptive_limit(DEFAULT_PERMUTATIONS))
from coreb_core.present.display import verdict_sentence
from coreb_core.present.format import plain
from tests.builders import app_test, one_table
from ui.widgets import run_label

RELEASE = "demo_v2603"


@pytest.fixture(scope="module")
def root(fake_dense):
    return fake_dense[0]


@pytest.fixture(scope="module")
def run_ids(fake_dense_metas) -> dict[str, str]:
    return {model: meta.run_id for model, meta in fake_dense_metas.items()}


@pytest.fixture(scope="module")
def expected(root, run_ids):
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.runs.folders import read_hits

    runs = run_ids
    with Store(RELEASE, root) as store:
        per = {m: evaluate(store, read_hits(runs[m], root)) for m in ("bm25", "minilm")}
    out = {}
    for m, t in per.items():
        # evaluate() frames carry array-valued attrs that break pandas' merge of two runs' frames
        # (a bug outside this page, reported); compare plain copies.
        t = t[t["task"] == "t2c"].reset_index(drop=True)
        t.attrs = {}
        out[m] = t
    return runs, out


def test_page_matches_compare_pair(root, expected):
    runs, per = expected
    bm25, minilm = runs["bm25"], runs["minilm"]
    at = app_test("compare.py", root, {"task": "t2c", "release": RELEASE, "runs": [bm25, minilm]}).run()
    assert not at.exception and not at.error
    pairs = one_table(at, "mean_delta")
    assert len(pairs) == 1
    row = pairs.iloc[0]
    assert {row["a"], row["b"]} == {bm25, minilm}
    name = {bm25: "bm25", minilm: "minilm"}
    c = compare_pair(per[name[row["a"]]], per[name[row["b"]]], "ndcg_at_10")
    assert c.shared == 720 and c.mean_delta != 0  # every T2C query of demo_v2603: 24 problems x 30
    assert row["mean_delta"] == pytest.approx(c.mean_delta, abs=1e-12)
    assert (row["wins"], row["ties"], row["losses"]) == (c.wins, c.ties, c.losses)
    assert (row["shared"], row["dropped_a"], row["dropped_b"]) == (720, 0, 0)
    assert row["p_ttest"] == pytest.approx(c.p_ttest) and row["p_randomization"] == pytest.approx(c.p_randomization)
    assert row["p_ttest_holm"] == pytest.approx(c.p_ttest)  # one pair: Holm changes nothing

    ci = one_table(at, "ci_low").set_index("run")
    exp_ci = intervals({bm25: per["bm25"], minilm: per["minilm"]}).set_index("run")
    for rid in (bm25, minilm):
        assert ci.loc[rid, ["mean", "ci_low", "ci_high"]].tolist() == [  # x100, one decimal
            round(v * 100, 1) for v in exp_ci.loc[rid, ["mean", "ci_low", "ci_high"]].tolist()]

    deltas = one_table(at, "delta", "outcome")
    assert len(deltas) == 720
    assert deltas["delta"].is_monotonic_decreasing
    # the per-query section opens on the headline's pair, better run first (a − b >= 0)
    assert deltas["delta"].mean() == pytest.approx(abs(c.mean_delta) * 100, abs=0.05)  # points, rounded per query
    assert (deltas["outcome"] == "win").sum() == (c.wins if c.mean_delta > 0 else c.losses)
    assert any("720 queries are in every picked run and 0 of 720 were dropped" in x.value for x in at.caption)
    assert any("scheme `v2`" in x.value for x in at.caption)
    assert len(at.get("download_button")) == 4  # and the per-problem table (issue 26)


def test_page_states_the_result_in_one_sentence(root, expected, fake_dense_metas):
    # issue 12: the verdict in words at the top, and the deciding columns first in the pairs table
    runs, per = expected
    bm25, minilm = runs["bm25"], runs["minilm"]
    at = app_test("compare.py", root, {"task": "t2c", "release": RELEASE, "runs": [bm25, minilm]}).run()
    assert not at.exception and not at.error
    by_id = {bm25: per["bm25"], minilm: per["minilm"]}
    verdicts = pair_verdicts(by_id, pair_table(by_id, NDCG_10), "t2c")
    verdict = headline_verdict(verdicts, run_intervals(by_id))
    c = compare_pair(by_id[verdict.a], by_id[verdict.b])
    assert verdict.delta == pytest.approx(abs(c.mean_delta)) and verdict.delta > 0
    labels = {m.run_id: run_label(m) for m in fake_dense_metas.values()}
    sentence = verdict_sentence(verdict, labels)
    assert at.markdown[0].value == plain(sentence)
    assert sentence.startswith(f"{labels[verdict.a]} beats {labels[verdict.b]} on T2C nDCG@10 by "
                               if verdict.significant else f"{labels[verdict.a]} is not significantly different")
    assert f"{c.wins} wins / {c.ties} ties / {c.losses} losses over 720 shared queries" in sentence
    assert "e-" not in sentence and ("p = 0." in sentence or "p < 0.001" in sentence)
    row = one_table(at, "mean_delta").iloc[0]
    assert list(row.index[:7]) == ["better", "other", "delta_points", "delta_ci", "p_holm_text", "verdict", "record"]
    assert (row["better"], row["other"]) == (labels[verdict.a], labels[verdict.b])
    assert row["delta_points"] == round(verdict.delta * 100, 1) and row["record"] == f"{c.wins} / {c.ties} / {c.losses}"
    assert row["verdict"] == ("significant" if verdict.significant else "not significant")


def test_page_other_metric_and_task(root, expected):
    runs, per = expected
    bm25, minilm = runs["bm25"], runs["minilm"]
    at = app_test("compare.py", root, {"task": "t2c", "release": RELEASE, "runs": [bm25, minilm]}).run()
    at.selectbox(key="compare_metric").set_value(Measure("map", 10)).run()
    assert "MAP@10" in str(at.query_params["metric"])  # the URL names the measure canonically
    assert not at.exception
    row = one_table(at, "mean_delta").iloc[0]
    name = {bm25: "bm25", minilm: "minilm"}
    c = compare_pair(per[name[row["a"]]], per[name[row["b"]]], "map_at_10")
    assert row["metric"] == "map_at_10" and row["mean_delta"] == pytest.approx(c.mean_delta, abs=1e-12)
    assert (row["wins"], row["ties"], row["losses"]) == (c.wins, c.ties, c.losses)

    at = app_test("compare.py", root, {"task": "c2c", "release": RELEASE, "runs": [bm25, minilm]}).run()
    assert not at.exception
    assert one_table(at, "mean_delta").iloc[0]["shared"] == 144  # C2C: 24 problems x 6


def test_page_needs_two_runs(root, run_ids):
    runs = run_ids
    at = app_test("compare.py", root, {"task": "t2c", "release": RELEASE, "runs": [runs["bm25"]]}).run()
    assert not at.exception
    # one sidebar run: the page falls back to the two newest runs of the release
    assert len(at.multiselect(key="compare_runs").value) == 2
    at.multiselect(key="compare_runs").set_value([runs["bm25"]]).run()
    assert not at.exception
    assert any("two or more" in i.value for i in at.info)
    assert not at.dataframe
