"""Qrel deflation: coreb_core.analysis.deflation by hand, and the page against independent evaluations."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from tests.helpers import app_test

from coreb_core.analysis.deflation import (COMPUTED, FILE, deflation_table, headline, scheme_definitions, slope_data,
                                  top_drop_queries)
from coreb_core.evaluation.evaluate import Evaluation
from ui.display import WHERE_IT_COMES_FROM
from coreb_core.evaluation.schemes import DESCRIPTIONS

RELEASE = "demo_v2603"


Q1, Q2 = "q_t2c_canonical_retro_any_0001", "q_t2c_search_python_0002"
QT, QM = "q_c2t_full_retro_any_0001", "q_c2t_match_0002"


def per_query(values: dict[tuple[str, str], float]) -> pd.DataFrame:
    task = {Q1: "t2c", Q2: "t2c", QT: "c2t", QM: "c2t"}
    return pd.DataFrame([{"run": r, "task": task[q], "query_id": q, "ndcg_at_10": v} for (r, q), v in values.items()])


def evaluation(tables: dict[str, pd.DataFrame]) -> Evaluation:
    """An Evaluation holding hand-made per-query tables."""
    return Evaluation(("A", "B"), tuple(tables), tables, {}, None)


HAND = {  # per-query nDCG@10 of runs A and B on the tiny dump's queries
    "v2": per_query({("A", Q1): 0.25, ("A", Q2): 0.75, ("A", QT): 0.5, ("A", QM): 0.0, ("B", Q1): 0.0, ("B", Q2): 0.0}),
    "v1": per_query({("A", Q1): 0.75, ("A", Q2): 0.75, ("A", QT): 0.25, ("A", QM): 0.0, ("B", Q1): 0.0,
                     ("B", Q2): 0.0}),
    # stored v1 qrels judge fewer queries: compared with v2 on the queries both have
    "file:v1": per_query({("A", Q1): 0.5, ("A", QT): 1.0, ("B", Q1): 0.5}),
}


def test_deflation_table_by_hand(tiny_store):
    t = deflation_table(tiny_store, evaluation(HAND), "task", labels={"A": "model A"})
    assert list(t.columns) == ["run", "label", "task", "v1_source", "queries", "queries_v2", "v1", "v2", "drop",
                               "relative_drop"]
    # sorted by task, then run, v1 rules before file v1
    assert list(zip(t["task"], t["run"], t["v1_source"])) == [
        ("c2t", "A", COMPUTED), ("c2t", "A", FILE), ("t2c", "A", COMPUTED), ("t2c", "A", FILE),
        ("t2c", "B", COMPUTED), ("t2c", "B", FILE)]
    assert t["v1"].tolist() == pytest.approx([0.125, 1.0, 0.75, 0.5, 0.0, 0.5])
    assert t["v2"].tolist() == pytest.approx([0.25, 0.5, 0.5, 0.25, 0.0, 0.0])  # file rows: v2 on shared queries
    assert t["drop"].tolist() == pytest.approx([-0.125, 0.5, 0.25, 0.25, 0.0, 0.5])
    assert t["relative_drop"].tolist()[:4] == pytest.approx([-1.0, 0.5, 1 / 3, 0.5])
    assert np.isnan(t["relative_drop"].iloc[4])  # v1 = 0: no relative drop
    assert t["queries"].tolist() == [2, 1, 2, 1, 2, 1]
    assert t["queries_v2"].tolist() == [2, 2, 2, 2, 2, 2]
    assert t["label"].tolist() == ["model A"] * 4 + ["B", "B"]
    without_file = evaluation({k: v for k, v in HAND.items() if k != "file:v1"})
    only = deflation_table(tiny_store, without_file, "task", task="t2c")
    assert set(only["v1_source"]) == {COMPUTED} and len(only) == 2
    found = headline(t)
    assert [(d.run, d.task, d.queries) for d in found] == [("A", "t2c", 2), ("B", "t2c", 2), ("A", "c2t", 2)]
    assert found[0].overstatement == pytest.approx(0.25) and found[2].overstatement == pytest.approx(-0.125)


def test_slope_data_by_hand(tiny_store):
    s = slope_data(deflation_table(tiny_store, evaluation(HAND), "task", task="c2t"))
    assert s[["scheme", "v1_source", "ndcg_at_10", "queries"]].values.tolist() == [
        ["v1", COMPUTED, 0.125, 2], ["v2", COMPUTED, 0.25, 2], ["v1", FILE, 1.0, 1], ["v2", FILE, 0.5, 1]]
    assert s["line"].nunique() == 2


def test_top_drop_queries_by_hand():
    traps = pd.DataFrame({
        "run": pd.Categorical(["A"] * 4 + ["B"] * 2), "task": ["t2c"] * 5 + ["c2t"],
        "query_id": ["q1", "q2", "q3", "q4", "q1", "x"],
        "ndcg_at_10_v1": [1.0, 0.5, 0.4, 0.0, 0.3, 1.0], "ndcg_at_10": [0.5, 0.25, 0.5, 0.0, 0.3, 0.0],
        "traps_above_first_positive": [2, 1, 0, 0, 0, 3], "traps_in_top_10": [2, 1, 1, 0, 0, 3],
        "first_positive_rank": [3.0, 2.0, 1.0, np.nan, 1.0, np.nan], "first_trap_rank": [1.0, 1.0, 2.0, np.nan, np.nan, 1.0],
    })
    traps["v1_minus_v2_ndcg_at_10"] = traps["ndcg_at_10_v1"] - traps["ndcg_at_10"]
    top = top_drop_queries(traps, "t2c", per_run=5)
    # A: drops 0.5, 0.25 (q3 is negative, q4 zero: left out); total 0.5 + 0.25 - 0.1 = 0.65 over 4 queries
    assert top["query_id"].tolist() == ["q1", "q2"] and set(top["run"]) == {"A"}
    assert top["contribution"].tolist() == pytest.approx([0.125, 0.0625])
    assert top["share_of_drop"].tolist() == pytest.approx([0.5 / 0.65, 0.25 / 0.65])
    assert top["cumulative_share"].tolist() == pytest.approx([0.5 / 0.65, 0.75 / 0.65])
    assert top["queries_in_task"].tolist() == [4, 4]
    assert top_drop_queries(traps, "t2c", per_run=1)["query_id"].tolist() == ["q1"]


def test_scheme_definitions_come_from_schemes():
    d = scheme_definitions().set_index("scheme")["definition"]
    assert d["v2"] == DESCRIPTIONS["v2"] and d["file:v1"] == DESCRIPTIONS["file"]


# --- the page ---------------------------------------------------------------------------------

def _runs(cache):
    from coreb_core.runs.run import list_runs

    return {m["model"]: m["run_id"] for m in sorted(list_runs(RELEASE, cache), key=lambda m: m.get("created", ""))
            if m.get("kind") == "retrieval"}


def _table(at, *has: str, lacks: tuple[str, ...] = ()) -> pd.DataFrame:
    found = [d.value for d in at.dataframe
             if all(c in d.value.columns for c in has) and not any(c in d.value.columns for c in lacks)]
    assert len(found) == 1, f"expected one table with {has} and without {lacks}, found {len(found)}"
    return found[0]


def test_page_v1_at_least_v2_for_minilm_on_t2c(app_cache):
    from coreb_core.evaluation.evaluate import evaluate, load_hits
    from coreb_core.evaluation.schemes import V1, V2, Scheme
    from coreb_core.data.store import Store

    runs = _runs(app_cache)
    minilm = runs["minilm"]
    at = app_test("deflation.py", app_cache, {"task": "t2c", "release": RELEASE, "runs": [runs["bm25"], minilm]}).run()
    assert not at.exception
    assert not at.error
    by_task = _table(at, "run", "v1_source", lacks=("subtask",))
    row = by_task[(by_task["run"] == minilm) & (by_task["task"] == "t2c") & (by_task["v1_source"] == COMPUTED)]
    assert len(row) == 1
    v1, v2 = float(row["v1"].iloc[0]), float(row["v2"].iloc[0])
    assert v1 >= v2

    with Store(RELEASE, app_cache) as store:
        hits = load_hits(minilm, app_cache)
        exp_v1 = evaluate(store, hits, V1)
        exp_v2 = evaluate(store, hits, V2)
        exp_file = evaluate(store, hits, Scheme.parse("file:v1"))
    exp_v1, exp_v2, exp_file = (f[f["task"] == "t2c"] for f in (exp_v1, exp_v2, exp_file))
    assert v1 == pytest.approx(exp_v1["ndcg_at_10"].mean(), abs=1e-12)
    assert v2 == pytest.approx(exp_v2["ndcg_at_10"].mean(), abs=1e-12)
    assert int(row["queries_v2"].iloc[0]) == len(exp_v2) == 720
    assert float(row["drop"].iloc[0]) == pytest.approx(v1 - v2)

    # the real-file v1 row exists for demo_v2603, and equals scheme file:v1 evaluated directly
    file_rows = by_task[by_task["v1_source"] == FILE]
    assert set(file_rows["task"]) == {"t2c", "c2c", "c2t"} and set(file_rows["run"]) == {runs["bm25"], minilm}
    f = file_rows[(file_rows["run"] == minilm) & (file_rows["task"] == "t2c")]
    assert float(f["v1"].iloc[0]) == pytest.approx(exp_file["ndcg_at_10"].mean(), abs=1e-12)
    assert int(f["queries"].iloc[0]) == len(exp_file)

    # the page opens with the answer: "v1 rules score X, v2 scores Y: v1 overstates by Z points", x100
    sentence = next(m.value for m in at.markdown if "overstates by" in m.value and "T2C" in m.value
                    and m.value.startswith("**minilm"))
    assert f"v1 rules score {v1 * 100:.1f}, v2 scores {v2 * 100:.1f}" in sentence
    assert f"overstates by **{(v1 - v2) * 100:.1f} points**" in sentence
    texts = [m.value for m in at.markdown]
    assert all(WHERE_IT_COMES_FROM[t] in texts for t in ("t2c", "c2c", "c2t"))
    assert any("10–15 points" in c.value for c in at.caption)
    # C2C: no difference by rule
    c2c = by_task[(by_task["task"] == "c2c") & (by_task["v1_source"] == COMPUTED)]
    assert (c2c["drop"].abs() < 1e-12).all() and len(c2c) == 2

    # the definitions are on the page
    defs = _table(at, "scheme", "definition")
    assert defs["definition"].tolist()[0] == DESCRIPTIONS["v2"]
    assert len(at.get("download_button")) >= 3


def test_page_top_queries_and_subtasks(app_cache):
    from coreb_core.evaluation.evaluate import load_hits, trap_table
    from coreb_core.data.store import Store

    runs = _runs(app_cache)
    minilm = runs["minilm"]
    at = app_test("deflation.py", app_cache, {"task": "t2c", "release": RELEASE, "runs": [minilm]}).run()
    assert not at.exception
    top = _table(at, "run", "v1_minus_v2_ndcg_at_10")
    with Store(RELEASE, app_cache) as store:
        traps = trap_table(store, load_hits(minilm, app_cache))
    t2c = traps[traps["task"] == "t2c"]
    expected = t2c["v1_minus_v2_ndcg_at_10"].sort_values(ascending=False).head(10).tolist()
    assert len(top) == 10
    assert top["v1_minus_v2_ndcg_at_10"].tolist() == pytest.approx(expected)
    assert top["share_of_drop"].iloc[0] == pytest.approx(expected[0] / t2c["v1_minus_v2_ndcg_at_10"].sum())
    assert top["subtask"].str.startswith("t2c").all() and top["query"].notna().all()

    sub = _table(at, "subtask", "v1_source", lacks=("query",))
    assert set(sub["task"]) == {"t2c"}
    computed = sub[sub["v1_source"] == COMPUTED]
    # query-weighted mean of the subtask means is the task mean
    task_row = _table(at, "run", "v1_source", lacks=("subtask",))
    task_v2 = task_row[(task_row["task"] == "t2c") & (task_row["v1_source"] == COMPUTED)]["v2"].iloc[0]
    assert (computed["v2"] * computed["queries_v2"]).sum() / computed["queries_v2"].sum() == pytest.approx(task_v2)

    # fewer per run
    at.slider(key="deflation_per_run").set_value(3).run()
    assert len(_table(at, "run", "v1_minus_v2_ndcg_at_10")) == 3
