"""coreb_core.analysis.comparison by hand (the Compare page is tested in tests/app/test_page_compare.py)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from coreb_core.evaluation.significance import holm
from coreb_core.analysis.comparison import coverage, metric_columns, pair_deltas, pair_table, run_intervals, split_runs


def frame(rows: list[tuple[str, str, str, float]]) -> pd.DataFrame:
    run, task, qid, value = zip(*rows)
    return pd.DataFrame({"run": pd.Categorical(run), "task": pd.Categorical(task), "query_id": pd.Categorical(qid),
                         "ndcg_at_10": value, "map_at_10": [v / 2 for v in value]})


HAND = frame([("A", "t2c", "q1", 1.0), ("A", "t2c", "q2", 0.5), ("A", "t2c", "q3", 0.2), ("A", "c2t", "x", 0.9),
              ("B", "t2c", "q1", 0.5), ("B", "t2c", "q2", 0.5), ("B", "t2c", "q4", 0.1),
              ("C", "t2c", "q1", 0.0), ("C", "t2c", "q2", 1.0), ("C", "t2c", "q3", 0.4)])


def test_split_and_coverage_by_hand():
    per = split_runs(HAND, "t2c", ["B", "A", "C", "D"])
    assert list(per) == ["B", "A", "C", "D"]
    assert per["A"]["query_id"].tolist() == ["q1", "q2", "q3"] and "run" not in per["A"]
    assert per["D"].empty
    assert metric_columns(HAND) == ["ndcg_at_10", "map_at_10"]
    assert coverage({k: per[k] for k in "ABC"}) == {"shared": 2, "any": 4, "dropped": 2}
    assert coverage({k: per[k] for k in "AC"}) == {"shared": 3, "any": 3, "dropped": 0}


def test_pair_table_and_deltas_by_hand():
    per = split_runs(HAND, "t2c", ["A", "B", "C"])
    pairs = pair_table(per, "ndcg_at_10", labels={"A": "model A"}, n_permutations=500)
    assert list(zip(pairs["a"], pairs["b"])) == [("A", "B"), ("A", "C"), ("B", "C")]
    assert pairs["label_a"].tolist() == ["model A", "model A", "B"]
    ab = pairs.iloc[0]
    assert (ab["shared"], ab["dropped_a"], ab["dropped_b"]) == (2, 1, 1)
    assert ab["mean_delta"] == pytest.approx(0.25)  # (1 - 0.5 + 0.5 - 0.5) / 2
    assert (ab["wins"], ab["ties"], ab["losses"]) == (1, 1, 0)
    ac = pairs.iloc[1]  # deltas 1.0, -0.5, -0.2
    assert ac["mean_delta"] == pytest.approx(0.1) and (ac["wins"], ac["ties"], ac["losses"]) == (1, 0, 2)
    assert pairs["p_ttest_holm"].tolist() == pytest.approx(holm(pairs["p_ttest"].tolist()))

    d = pair_deltas(per, "A", "C", "ndcg_at_10")
    assert d["query_id"].tolist() == ["q1", "q3", "q2"]  # sorted by delta, largest first
    assert d["delta"].tolist() == pytest.approx([1.0, -0.2, -0.5])
    assert d["outcome"].tolist() == ["win", "loss", "loss"]
    assert d["ndcg_at_10 (a)"].tolist() == [1.0, 0.2, 0.5]
    assert pair_deltas(per, "A", "B", "map_at_10")["delta"].tolist() == pytest.approx([0.25, 0.0])

    ci = run_intervals(per, "ndcg_at_10", labels={"B": "model B"})
    assert ci["run"].tolist() == ["A", "B", "C"] and ci["label"].tolist() == ["A", "model B", "C"]
    assert ci["mean"].tolist() == pytest.approx([1.7 / 3, 1.1 / 3, 1.4 / 3])
    assert ci["queries"].tolist() == [3, 3, 3]


def test_frames_with_array_attrs_compare():
    # evaluate() frames carry array-valued attrs; two runs' frames must still merge
    per = split_runs(HAND, "t2c", ["A", "C"])
    per["A"].attrs["codes"] = [1, 2]
    per["C"].attrs["codes"] = np.arange(3)
    assert pair_table(per, n_permutations=100)["mean_delta"].tolist() == pytest.approx([0.1])
    assert pair_deltas(per, "A", "C")["delta"].sum() == pytest.approx(0.3)
