"""Qrel deflation: coreb_core.analysis.deflation by hand (the page is tested in tests/app/test_page_deflation.py)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from coreb_core.analysis.deflation import (
    COMPUTED,
    FILE,
    GENERATOR,
    deflation_table,
    headline,
    scheme_definitions,
    slope_data,
    top_drop_queries,
)
from coreb_core.evaluation.evaluate import Evaluation
from coreb_core.evaluation.schemes import DESCRIPTIONS
from tests.builders import Q1, Q2, QM, QT


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


def test_deflation_table_under_the_generators_reading(tiny_store):
    # v1_gen: A's Q1 is 0.25 (its passing solutions only), as v2; the rest as v1
    gen = {**HAND, "v1_gen": per_query({("A", Q1): 0.25, ("A", Q2): 0.75, ("A", QT): 0.25, ("A", QM): 0.0,
                                         ("B", Q1): 0.0, ("B", Q2): 0.0})}
    t = deflation_table(tiny_store, evaluation(gen), "task", reading="v1_gen")
    assert list(zip(t["task"], t["run"], t["v1_source"])) == [
        ("c2t", "A", GENERATOR), ("c2t", "A", FILE), ("t2c", "A", GENERATOR), ("t2c", "A", FILE),
        ("t2c", "B", GENERATOR), ("t2c", "B", FILE)]
    assert t["drop"].tolist() == pytest.approx([-0.125, 0.5, 0.0, 0.25, 0.0, 0.5])
    assert [(d.run, d.task, d.overstatement) for d in headline(t)] == [("A", "t2c", 0.0), ("B", "t2c", 0.0),
                                                                       ("A", "c2t", -0.125)]
    assert set(deflation_table(tiny_store, evaluation(gen), "task")["v1_source"]) == {COMPUTED, FILE}
    with pytest.raises(ValueError, match="unknown v1 reading 'v3'"):
        deflation_table(tiny_store, evaluation(gen), "task", reading="v3")
    assert scheme_definitions().set_index("scheme")["definition"]["v1_gen"] == DESCRIPTIONS["v1_gen"]


def test_top_drop_queries_under_another_reading():
    traps = pd.DataFrame({
        "run": pd.Categorical(["A", "A"]), "task": ["t2c", "t2c"], "query_id": ["q1", "q2"],
        "ndcg_at_10_v1": [1.0, 0.5], "ndcg_at_10": [0.5, 0.25], "traps_above_first_positive": [2, 1],
        "traps_in_top_10": [2, 1], "first_positive_rank": [3.0, 2.0], "first_trap_rank": [1.0, 1.0]})
    traps["v1_minus_v2_ndcg_at_10"] = traps["ndcg_at_10_v1"] - traps["ndcg_at_10"]
    gen = pd.DataFrame({"run": ["A", "A"], "task": ["t2c", "t2c"], "query_id": ["q1", "q2"], "ndcg_at_10": [0.5, 0.75]})
    top = top_drop_queries(traps, "t2c", per_run=5, v1=gen)
    # q1 no longer drops (0.5 - 0.5); q2 drops 0.5, the whole of the run's drop
    assert top["query_id"].tolist() == ["q2"] and top["v1_ndcg_at_10"].tolist() == [0.75]
    assert top["v1_minus_v2_ndcg_at_10"].tolist() == [0.5] and top["share_of_drop"].tolist() == [1.0]
