"""coreb_core.analysis.traps.breakdown on exact hand-made runs over the tiny release."""
import pandas as pd
import pytest

from tests.builders import scored_hits

T2C_LISTS = {
    # q1: positives code 1, 2, 4; trap code 3 ranked first -> trap above positive, trap at 1.
    "q_t2c_canonical_retro_any_0001": [("code_v202601_00003", 0.9), ("code_v202601_00001", 0.8),
                                       ("code_v202601_00002", 0.7), ("code_v202601_00004", 0.6)],
    # q2: positive code 1 first, then both traps (codes 2 and 3).
    "q_t2c_search_python_0002": [("code_v202601_00001", 0.9), ("code_v202601_00002", 0.8),
                                 ("code_v202601_00003", 0.7)],
}


def tiny_traps(store, runs: dict[str, dict]) -> pd.DataFrame:
    """The trap table of hand-written runs (run name -> scored lists per query)."""
    from coreb_core.evaluation.evaluate import analyse_many

    hits = {name: scored_hits(store, lists, name) for name, lists in runs.items()}
    return analyse_many(store, hits, (), traps=True).traps


def test_breakdown_exact_values(tiny_store):
    from coreb_core.analysis.traps.breakdown import trap_breakdown

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
    from coreb_core.analysis.traps.breakdown import trap_breakdown

    table = trap_breakdown(tiny_store, tiny_traps(tiny_store, {"a": T2C_LISTS}), "c2c", "subtask")
    assert len(table) == 0 and "group" in table.columns


def test_breakdown_rejects_unknown_level(tiny_store):
    from coreb_core.analysis.traps.breakdown import trap_breakdown
    from coreb_core.errors import CorebError

    with pytest.raises(CorebError, match="unknown level"):
        trap_breakdown(tiny_store, tiny_traps(tiny_store, {"a": T2C_LISTS}), "t2c", "model")


def test_worst_queries_order(tiny_store):
    from coreb_core.analysis.traps.breakdown import worst_queries

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
