"""Trap analysis: coreb_core.analysis.traps on exact hand-made runs, and the page against trap_table."""
import numpy as np
import pandas as pd
import pytest

from tests.helpers import app_test

T2C_LISTS = {
    # q1: positives code 1, 2, 4; trap code 3 ranked first -> trap above positive, trap at 1.
    "q_t2c_canonical_retro_any_0001": [("code_v202601_00003", 0.9), ("code_v202601_00001", 0.8),
                                       ("code_v202601_00002", 0.7), ("code_v202601_00004", 0.6)],
    # q2: positive code 1 first, then both traps (codes 2 and 3).
    "q_t2c_search_python_0002": [("code_v202601_00001", 0.9), ("code_v202601_00002", 0.8),
                                 ("code_v202601_00003", 0.7)],
}


def tiny_traps(store, runs: dict[str, dict]) -> pd.DataFrame:
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.run import hits_from_lists

    task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
    hits = {name: hits_from_lists(task_of, lists, name) for name, lists in runs.items()}
    return analyse_many(store, hits, (), traps=True).traps


def test_breakdown_exact_values(tiny_store):
    from coreb_core.analysis.traps import trap_breakdown

    swapped = {q: [(d, 1.0 - s) for d, s in pairs] for q, pairs in T2C_LISTS.items()}  # reversed order
    traps = tiny_traps(tiny_store, {"a": T2C_LISTS, "b": swapped})
    by_subtask = trap_breakdown(tiny_store, traps, "t2c", "subtask")
    a = by_subtask[by_subtask["run"] == "a"].set_index("subtask")
    assert a.loc["t2c_canonical_retro_any", ["queries", "share_trap_above_positive", "traps_in_top_10_per_query",
                                             "share_trap_at_1"]].tolist() == [1, 1.0, 1.0, 1.0]
    assert a.loc["t2c_search_python", ["share_trap_above_positive", "traps_in_top_10_per_query",
                                       "share_trap_at_1"]].tolist() == [0.0, 2.0, 0.0]
    assert a.loc["t2c_search_python", "group"] == "t2c_search_python"
    by_task = trap_breakdown(tiny_store, traps, "t2c", "task").set_index("run")
    assert by_task.loc["a", ["queries", "share_trap_above_positive", "traps_in_top_10_per_query", "share_trap_at_1",
                             "queries_trap_above_positive"]].tolist() == [2, 0.5, 1.5, 0.5, 1]
    # b: q1 reversed = code4, code2, code1, code3 (no trap above); q2 reversed = code3, code2, code1 (2 traps above).
    assert by_task.loc["b", ["share_trap_above_positive", "share_trap_at_1"]].tolist() == [0.5, 0.5]
    assert by_task.loc["b", "group"] == "t2c"
    both = trap_breakdown(tiny_store, traps, "t2c", "subtask × target language")
    assert set(both["group"]) == {"t2c_canonical_retro_any · any", "t2c_search_python · python"}


def test_breakdown_of_a_task_the_runs_lack_is_empty(tiny_store):
    from coreb_core.analysis.traps import trap_breakdown

    table = trap_breakdown(tiny_store, tiny_traps(tiny_store, {"a": T2C_LISTS}), "c2c", "subtask")
    assert len(table) == 0 and "group" in table.columns


def test_breakdown_rejects_unknown_level(tiny_store):
    from coreb_core.errors import CorebError
    from coreb_core.analysis.traps import trap_breakdown

    with pytest.raises(CorebError, match="unknown level"):
        trap_breakdown(tiny_store, tiny_traps(tiny_store, {"a": T2C_LISTS}), "t2c", "model")


def test_worst_queries_order(tiny_store):
    from coreb_core.analysis.traps import worst_queries

    swapped = {q: [(d, 1.0 - s) for d, s in pairs] for q, pairs in T2C_LISTS.items()}
    traps = tiny_traps(tiny_store, {"a": T2C_LISTS, "b": swapped})
    worst = worst_queries(tiny_store, traps, "t2c")
    assert worst[["run", "query_id", "traps_above_first_positive"]].values.tolist() == [
        ["b", "q_t2c_search_python_0002", 2],
        ["a", "q_t2c_canonical_retro_any_0001", 1],
        ["a", "q_t2c_search_python_0002", 0],
        ["b", "q_t2c_canonical_retro_any_0001", 0],
    ]
    assert worst_queries(tiny_store, traps, "t2c", run="a", limit=1)["query_id"].tolist() == [
        "q_t2c_canonical_retro_any_0001"]


def _default_runs(cache):
    from coreb_core.runs.run import list_runs

    return {m["model"]: m["run_id"] for m in list_runs("demo_v2603", cache) if m.get("kind") == "retrieval"}


def test_page_share_matches_trap_table(app_cache):
    from coreb_core.evaluation.evaluate import load_hits, trap_table, with_query_facts
    from coreb_core.data.store import Store

    runs = _default_runs(app_cache)
    at = app_test("traps.py", app_cache, {"task": "t2c", "runs": [runs["bm25"], runs["minilm"]]}).run()
    assert not at.exception
    at.radio(key="trap_level").set_value("subtask").run()
    assert not at.exception
    shown = at.dataframe[0].value
    with Store("demo_v2603", app_cache) as store:
        for model in ("bm25", "minilm"):
            traps = trap_table(store, load_hits(runs[model], app_cache))
            traps = with_query_facts(store, traps[traps["task"] == "t2c"])
            expected = traps.groupby("subtask")["trap_above_positive"].mean()
            mine = shown[shown["run"] == runs[model]].set_index("subtask")["share_trap_above_positive"]
            assert len(mine) == 18
            np.testing.assert_allclose(mine.sort_index().to_numpy(), expected.sort_index().to_numpy(), atol=1e-12)
            at1 = traps.groupby("subtask")["trap_at_1"].mean()
            np.testing.assert_allclose(shown[shown["run"] == runs[model]].set_index("subtask")["share_trap_at_1"]
                                       .sort_index().to_numpy(), at1.sort_index().to_numpy(), atol=1e-12)
    # Task level: one row per run, the README's "T2C queries with a trap above the first positive".
    at.radio(key="trap_level").set_value("task").run()
    per_task = at.dataframe[0].value.set_index("run")
    with Store("demo_v2603", app_cache) as store:
        bm25 = trap_table(store, load_hits(runs["bm25"], app_cache))
    bm25 = bm25[bm25["task"] == "t2c"]
    assert per_task.loc[runs["bm25"], "share_trap_above_positive"] == pytest.approx(bm25["trap_above_positive"].mean())
    assert per_task.loc[runs["bm25"], "queries"] == 720  # every T2C query of demo_v2603
    # Worst queries: ordered by traps above the first positive.
    worst = at.dataframe[1].value
    assert int(worst["traps_above_first_positive"].iloc[0]) >= int(bm25["traps_above_first_positive"].max())
    assert worst["traps_above_first_positive"].is_monotonic_decreasing
    assert len(worst) == 25
    assert len(at.get("vega_lite_chart")) == 1
    assert len([b for b in at.get("download_button")]) == 2


def test_page_c2c_and_anchor(app_cache):
    from coreb_core.evaluation.evaluate import load_hits, trap_table
    from coreb_core.data.store import Store

    runs = _default_runs(app_cache)
    at = app_test("traps.py", app_cache, {"task": "c2c", "anchor": "0", "runs": [runs["minilm"]]}).run()
    assert not at.exception
    at.radio(key="trap_level").set_value("task").run()
    row = at.dataframe[0].value.iloc[0]
    with Store("demo_v2603", app_cache) as store:
        traps = trap_table(store, load_hits(runs["minilm"], app_cache), anchor_exclusion=False)
    traps = traps[traps["task"] == "c2c"]
    assert row["queries"] == 144  # every C2C query of demo_v2603
    assert row["traps_in_top_10_per_query"] == pytest.approx(traps["traps_in_top_10"].mean())
    assert "C2C anchor kept" in " ".join(c.value for c in at.caption)
