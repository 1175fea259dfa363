"""The Qrel deflation page against independent evaluations (the library by hand:
tests/analysis/test_deflation.py). Fast: a BM25 run and a dense run encoded by the ``Trigrams`` stand-in
(``fake_dense``); what the page shows does not depend on which dense model made the run."""
from __future__ import annotations

import json

import pytest

from coreb_core.analysis.deflation import COMPUTED, FILE
from coreb_core.evaluation.schemes import DESCRIPTIONS
from coreb_core.present.display import WHERE_IT_COMES_FROM
from tests.builders import app_test, one_table

RELEASE = "demo_v2603"


@pytest.fixture(scope="module")
def runs(fake_dense) -> tuple:
    """(cache root, model -> run id): ``minilm`` is the stand-in dense run."""
    root, dense, bm25 = fake_dense
    return root, {"bm25": bm25, "minilm": dense}


def test_page_v1_at_least_v2_for_minilm_on_t2c(runs):
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.evaluation.schemes import V1, V2, Scheme
    from coreb_core.runs.folders import read_hits

    app_cache, runs = runs
    minilm = runs["minilm"]
    at = app_test("deflation.py", app_cache, {"task": "t2c", "release": RELEASE, "runs": [runs["bm25"], minilm]}).run()
    assert not at.exception
    assert not at.error
    by_task = one_table(at, "run", "v1_source", lacks=("subtask",))
    row = by_task[(by_task["run"] == minilm) & (by_task["task"] == "t2c") & (by_task["v1_source"] == COMPUTED)]
    assert len(row) == 1
    v1, v2 = float(row["v1"].iloc[0]), float(row["v2"].iloc[0])  # shown x100, one decimal (points)
    assert v1 >= v2

    with Store(RELEASE, app_cache) as store:
        hits = read_hits(minilm, app_cache)
        exp_v1 = evaluate(store, hits, V1)
        exp_v2 = evaluate(store, hits, V2)
        exp_file = evaluate(store, hits, Scheme.parse("file:v1"))
    exp_v1, exp_v2, exp_file = (f[f["task"] == "t2c"] for f in (exp_v1, exp_v2, exp_file))
    assert v1 == round(exp_v1["ndcg_at_10"].mean() * 100, 1)
    assert v2 == round(exp_v2["ndcg_at_10"].mean() * 100, 1)
    assert int(row["queries_v2"].iloc[0]) == len(exp_v2) == 720
    assert float(row["drop"].iloc[0]) == round((exp_v1["ndcg_at_10"].mean() - exp_v2["ndcg_at_10"].mean()) * 100, 1)

    # the real-file v1 row exists for demo_v2603, and equals scheme file:v1 evaluated directly
    file_rows = by_task[by_task["v1_source"] == FILE]
    assert set(file_rows["task"]) == {"t2c", "c2c", "c2t"} and set(file_rows["run"]) == {runs["bm25"], minilm}
    f = file_rows[(file_rows["run"] == minilm) & (file_rows["task"] == "t2c")]
    assert float(f["v1"].iloc[0]) == round(exp_file["ndcg_at_10"].mean() * 100, 1)
    assert int(f["queries"].iloc[0]) == len(exp_file)

    # the page opens with the answer: "v1 rules score X, v2 scores Y: v1 overstates by Z points", x100
    sentence = next(m.value for m in at.markdown if "overstates by" in m.value and "T2C" in m.value
                    and m.value.startswith("**minilm"))
    assert f"v1 rules score {v1:.1f}, v2 scores {v2:.1f}" in sentence
    assert f"overstates by **{round(v1 - v2, 1):.1f} points**" in sentence  # the scores as shown, subtracted
    # and first, per run, every task's queries at once (query-weighted)
    first = next(m.value for m in at.markdown if "overstates by" in m.value)
    assert "· all tasks**" in first and " overall (" in first
    texts = [m.value for m in at.markdown]
    assert all(WHERE_IT_COMES_FROM[t] in texts for t in ("t2c", "c2c", "c2t"))
    assert any("10–15 points" in c.value for c in at.caption)
    # C2C: no difference by rule
    c2c = by_task[(by_task["task"] == "c2c") & (by_task["v1_source"] == COMPUTED)]
    assert (c2c["drop"].abs() < 1e-12).all() and len(c2c) == 2

    # run names and the deciding drop first; the slope chart is one row per task, run and v1 source
    table = next(d for d in at.dataframe if "v1_source" in d.value.columns and "subtask" not in d.value.columns)
    assert list(table.proto.column_order)[:5] == ["label", "task", "v1_source", "drop", "v1"]
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["height"] == max(160, 30 * 3 * 2 * 2) and spec["layer"][2]["encoding"]["text"]["field"] == "value"

    # the definitions are on the page
    defs = one_table(at, "scheme", "definition")
    assert defs["definition"].tolist()[0] == DESCRIPTIONS["v2"]
    assert len(at.get("download_button")) >= 3


def test_page_top_queries_and_subtasks(runs):
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.folders import read_hits

    app_cache, runs = runs
    minilm = runs["bm25"]  # 83 T2C queries lose under v2 (the stand-in dense run: 8), enough for ten a run
    at = app_test("deflation.py", app_cache, {"task": "t2c", "release": RELEASE, "runs": [minilm]}).run()
    assert not at.exception
    top = one_table(at, "run", "v1_minus_v2_ndcg_at_10")
    with Store(RELEASE, app_cache) as store:
        traps = trap_table(store, read_hits(minilm, app_cache))
    t2c = traps[traps["task"] == "t2c"]
    expected = t2c["v1_minus_v2_ndcg_at_10"].sort_values(ascending=False).head(10).tolist()
    assert len(top) == 10
    assert top["v1_minus_v2_ndcg_at_10"].tolist() == [round(e * 100, 1) for e in expected]  # points
    assert top["share_of_drop"].iloc[0] == round(expected[0] / t2c["v1_minus_v2_ndcg_at_10"].sum() * 100, 1)
    assert top["subtask"].str.startswith("t2c").all() and top["query"].notna().all()

    sub = one_table(at, "subtask", "v1_source", lacks=("query",))
    assert set(sub["task"]) == {"t2c"}
    computed = sub[sub["v1_source"] == COMPUTED]
    # query-weighted mean of the subtask means is the task mean
    task_row = one_table(at, "run", "v1_source", lacks=("subtask",))
    task_v2 = task_row[(task_row["task"] == "t2c") & (task_row["v1_source"] == COMPUTED)]["v2"].iloc[0]
    weighted = (computed["v2"] * computed["queries_v2"]).sum() / computed["queries_v2"].sum()
    assert weighted == pytest.approx(task_v2, abs=0.05)  # each shown x100 with one decimal

    # fewer per run
    at.slider(key="deflation_per_run").set_value(3).run()
    assert len(one_table(at, "run", "v1_minus_v2_ndcg_at_10")) == 3

    # a shared link's count holds on the first render (the tables are read before the slider is drawn)
    shared = app_test("deflation.py", app_cache, {"task": "t2c", "release": RELEASE, "runs": [minilm],
                                                  "per_run": "4"}).run()
    assert len(one_table(shared, "run", "v1_minus_v2_ndcg_at_10")) == 4
    assert shared.slider(key="deflation_per_run").value == 4


def test_page_offers_the_generators_reading_of_v1(runs):
    from coreb_core.analysis.deflation import GENERATOR
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.evaluation.schemes import V1_GEN, V2
    from coreb_core.runs.folders import read_hits

    app_cache, runs = runs
    bm25 = runs["bm25"]
    at = app_test("deflation.py", app_cache, {"task": "t2c", "release": RELEASE, "runs": [bm25],
                                              "reading": "v1_gen"}).run()
    assert not at.exception and not at.error
    assert at.radio(key="deflation_reading").value == "v1_gen"
    by_task = one_table(at, "run", "v1_source", lacks=("subtask",))
    assert set(by_task["v1_source"]) == {GENERATOR, FILE}  # the paper's reading is not mixed in
    row = by_task[(by_task["task"] == "t2c") & (by_task["v1_source"] == GENERATOR)]
    with Store(RELEASE, app_cache) as store:
        hits = read_hits(bm25, app_cache)
        gen, v2 = (f[f["task"] == "t2c"]["ndcg_at_10"].mean() for f in (evaluate(store, hits, V1_GEN),
                                                                          evaluate(store, hits, V2)))
    assert float(row["v1"].iloc[0]) == round(gen * 100, 1) and float(row["v2"].iloc[0]) == round(v2 * 100, 1)
    assert any(m.value.startswith("T2C (generator's reading)") for m in at.markdown)
    assert any("`v1_gen`" in c.value for c in at.caption)
    # back to the paper's reading: the v1 rules rows return and the URL forgets the choice
    at.radio(key="deflation_reading").set_value("v1").run()
    assert set(one_table(at, "run", "v1_source", lacks=("subtask",))["v1_source"]) == {COMPUTED, FILE}
    assert "reading" not in at.query_params
