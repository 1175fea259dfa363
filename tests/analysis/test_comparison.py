"""coreb_core.analysis.comparison by hand (the Compare page is tested in tests/app/test_page_compare.py)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from coreb_core.analysis.comparison import (
    PairVerdict,
    coverage,
    headline_verdict,
    metric_columns,
    pair_deltas,
    pair_table,
    pair_verdicts,
    run_intervals,
    split_runs,
)
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.evaluation.significance import bootstrap_ci, holm


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
    pairs = pair_table(per, NDCG_10, labels={"A": "model A"}, n_permutations=500)
    assert list(zip(pairs["a"], pairs["b"])) == [("A", "B"), ("A", "C"), ("B", "C")]
    assert pairs["label_a"].tolist() == ["model A", "model A", "B"]
    ab = pairs.iloc[0]
    assert (ab["shared"], ab["dropped_a"], ab["dropped_b"]) == (2, 1, 1)
    assert ab["mean_delta"] == pytest.approx(0.25)  # (1 - 0.5 + 0.5 - 0.5) / 2
    assert (ab["wins"], ab["ties"], ab["losses"]) == (1, 1, 0)
    ac = pairs.iloc[1]  # deltas 1.0, -0.5, -0.2
    assert ac["mean_delta"] == pytest.approx(0.1) and (ac["wins"], ac["ties"], ac["losses"]) == (1, 0, 2)
    assert pairs["p_ttest_holm"].tolist() == pytest.approx(holm(pairs["p_ttest"].tolist()))

    d = pair_deltas(per, "A", "C", NDCG_10)
    assert d["query_id"].tolist() == ["q1", "q3", "q2"]  # sorted by delta, largest first
    assert d["delta"].tolist() == pytest.approx([1.0, -0.2, -0.5])
    assert d["outcome"].tolist() == ["win", "loss", "loss"]
    assert d["ndcg_at_10 (a)"].tolist() == [1.0, 0.2, 0.5]
    assert pair_deltas(per, "A", "B", Measure("map", 10))["delta"].tolist() == pytest.approx([0.25, 0.0])

    ci = run_intervals(per, NDCG_10, labels={"B": "model B"})
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


def test_pair_verdicts_by_hand():
    per = split_runs(HAND, "t2c", ["B", "A", "C"])
    pairs = pair_table(per, NDCG_10, n_permutations=500)
    verdicts = pair_verdicts(per, pairs, "t2c")
    assert all(isinstance(v, PairVerdict) for v in verdicts) and len(verdicts) == 3
    ba = verdicts[0]  # the table has B - A = -0.25: the verdict puts the better run A first
    assert (ba.a, ba.b, ba.metric, ba.task, ba.shared) == ("A", "B", "ndcg_at_10", "t2c", 2)
    assert ba.delta == pytest.approx(0.25) and (ba.wins, ba.ties, ba.losses) == (1, 1, 0)
    assert (ba.ci_low, ba.ci_high) == pytest.approx(bootstrap_ci(np.array([0.5, 0.0])))
    assert ba.p == pytest.approx(pairs.iloc[0]["p_randomization"])
    assert [v.p_holm for v in verdicts] == pytest.approx(pairs["p_randomization_holm"].tolist())
    assert not any(v.significant for v in verdicts)  # two or three queries never reach 0.05
    ac = verdicts[2]  # A - C = 0.1 on q1..q3: A first as given, wins 1 / losses 2
    assert (ac.a, ac.b, ac.delta, ac.wins, ac.losses) == ("A", "C", pytest.approx(0.1), 1, 2)
    means = run_intervals(per, NDCG_10)  # A 0.567, C 0.467, B 0.367
    assert (headline_verdict(verdicts, means).a, headline_verdict(verdicts, means).b) == ("A", "C")
    assert headline_verdict([], means) is None


def test_pair_verdict_significant_when_holm_p_small():
    rng = np.random.default_rng(1)
    qids = [f"q{i}" for i in range(60)]
    a = pd.DataFrame({"task": "t2c", "query_id": qids, "ndcg_at_10": rng.uniform(0.4, 0.9, 60)})
    b = a.assign(ndcg_at_10=a["ndcg_at_10"] - 0.2)
    per = {"a": a, "b": b}
    [v] = pair_verdicts(per, pair_table(per, n_permutations=1000), "t2c")
    assert v.significant and v.p_holm < 0.01 and (v.wins, v.ties, v.losses) == (60, 0, 0)
    assert v.delta == pytest.approx(0.2) and v.ci_low == pytest.approx(0.2) and v.ci_high == pytest.approx(0.2)
