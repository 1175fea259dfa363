"""coreb_core.analysis.difficulty by hand (a stand-in store and per-query frame), on the tiny release, and on
CoREB-mini with BM25 and bm25s-mteb runs."""
from __future__ import annotations

import math
import shutil

import numpy as np
import pandas as pd
import pytest

from coreb_core.analysis.difficulty import (
    ProblemDifficulty,
    hardest_problems,
    problem_difficulty,
    problem_queries,
    spearman,
)
from coreb_core.data.measures import Measure
from coreb_core.errors import CorebError


class FakeStore:
    """What ``problem_difficulty`` reads of a Store: the query facts (and their ids as an Index)."""

    def __init__(self, facts: list[tuple[str, str, str | None]]) -> None:
        self.query_facts = pd.DataFrame(facts, columns=["task", "query_id", "problem_id"])
        self.query_ids = pd.Index(self.query_facts["query_id"])


# Problems p1..p4 on t2c (p1 also on c2t); qx has no problem; qz is not in the release.
STORE = FakeStore([("c2t", "c1", "p1"), ("t2c", "q1", "p1"), ("t2c", "q2", "p1"), ("t2c", "q3", "p2"),
                   ("t2c", "q4", "p3"), ("t2c", "q5", "p3"), ("t2c", "q6", "p4"), ("t2c", "qx", None)])


def frame(rows: list[tuple[str, str, str, float]]) -> pd.DataFrame:
    """A per-query frame as ``Evaluation.per_query`` gives it (categorical ids, float metrics)."""
    run, task, qid, value = zip(*rows)
    return pd.DataFrame({"run": pd.Categorical(run), "task": pd.Categorical(task), "query_id": pd.Categorical(qid),
                         "ndcg_at_10": value, "map_at_10": [v / 2 for v in value]})


# Dyadic values, so every mean below is exact.
#            A              B
# p1 t2c  q1 .25 q2 .75   q1 .75 q2 .75   run means A .5  B .75  -> mean .625, spread .25, residuals -.125 / +.125
# p2 t2c  q3 1.0          q3 .5           A 1.0 B .5              -> mean .75,  spread .5,  residuals +.25 / -.25
# p3 t2c  q4 0   q5 .5    q4 .25 q5 .25   A .25 B .25             -> mean .25,  spread 0 (no hardest run)
# p4 t2c  q6 .5           q6 0            A .5  B 0               -> mean .25,  spread .5,  residuals +.25 / -.25
# p1 c2t  c1 .5           c1 1.0          A .5  B 1.0             -> mean .75,  spread .5,  residuals -.25 / +.25
HAND = frame([("A", "t2c", "q1", 0.25), ("A", "t2c", "q2", 0.75), ("A", "t2c", "q3", 1.0), ("A", "t2c", "q4", 0.0),
              ("A", "t2c", "q5", 0.5), ("A", "t2c", "q6", 0.5), ("A", "c2t", "c1", 0.5), ("A", "t2c", "qx", 0.0),
              ("A", "t2c", "qz", 1.0),
              ("B", "t2c", "q1", 0.75), ("B", "t2c", "q2", 0.75), ("B", "t2c", "q3", 0.5), ("B", "t2c", "q4", 0.25),
              ("B", "t2c", "q5", 0.25), ("B", "t2c", "q6", 0.0), ("B", "c2t", "c1", 1.0), ("B", "t2c", "qx", 0.0)])


def test_problems_by_hand():
    hard = problem_difficulty(STORE, HAND)
    assert isinstance(hard, ProblemDifficulty)
    assert (hard.metric, hard.task, hard.runs, hard.unassigned) == ("ndcg_at_10", None, ("A", "B"), 2)  # qx, qz
    p = hard.problems
    # Hardest first: p3 and p4 tie at .25 (p3 has more queries), p1 t2c .625, then c2t p1 and t2c p2 at .75 (by task)
    assert list(zip(p["task"], p["problem_id"])) == [("t2c", "p3"), ("t2c", "p4"), ("t2c", "p1"), ("c2t", "p1"),
                                                     ("t2c", "p2")]
    assert p["mean"].tolist() == [0.25, 0.25, 0.625, 0.75, 0.75]
    assert p["spread"].tolist() == [0.0, 0.5, 0.25, 0.5, 0.5]
    assert p["queries"].tolist() == [2, 1, 2, 1, 1] and p["runs"].tolist() == [2, 2, 2, 2, 2]
    assert p["hardest_run"].tolist() == [None, "B", "A", "A", "B"]
    assert np.isnan(p["hardest_residual"][0]) and p["hardest_residual"][1:].tolist() == [-0.25, -0.125, -0.25, -0.25]
    # p3's queries: q4 (0 + .25) / 2 = .125 is below q5 (.5 + .25) / 2 = .375; p1's: q1 .5 below q2 .75
    assert p["worst_query"].tolist() == ["q4", "q6", "q1", "c1", "q3"]
    assert p["rank"].tolist() == [1, 2, 3, 1, 4]  # within each task


def test_per_run_means_and_residuals_by_hand():
    per_run = problem_difficulty(STORE, HAND).per_run
    # problems' order, then run order
    assert per_run["problem_id"].tolist() == ["p3", "p3", "p4", "p4", "p1", "p1", "p1", "p1", "p2", "p2"]
    assert per_run["run"].tolist() == ["A", "B"] * 5
    assert per_run["mean"].tolist() == [0.25, 0.25, 0.5, 0.0, 0.5, 0.75, 0.5, 1.0, 1.0, 0.5]
    assert per_run["residual"].tolist() == [0.0, 0.0, 0.25, -0.25, -0.125, 0.125, -0.25, 0.25, 0.25, -0.25]
    assert per_run["queries"].tolist() == [2, 2, 1, 1, 2, 2, 1, 1, 1, 1]
    assert (per_run.groupby(["task", "problem_id"])["residual"].sum() == 0).all()


def test_spearman_by_hand():
    corr = problem_difficulty(STORE, HAND).correlations
    assert corr[["task", "a", "b", "problems"]].values.tolist() == [["t2c", "A", "B", 4], ["c2t", "A", "B", 1]]
    # t2c means:  A p1 .5  p2 1.0 p3 .25 p4 .5  -> ranks 2.5 4 1 2.5 -> centred (- 2.5)  0  1.5 -1.5  0
    #             B p1 .75 p2 .5  p3 .25 p4 0   -> ranks 4   3 2 1   -> centred        1.5 .5  -.5 -1.5
    # rho = (0 + .75 + .75 + 0) / sqrt((0 + 2.25 + 2.25 + 0) * (2.25 + .25 + .25 + 2.25)) = 1.5 / sqrt(22.5)
    assert corr["spearman"][0] == pytest.approx(1 / math.sqrt(10))
    assert np.isnan(corr["spearman"][1])  # one problem on c2t: no correlation
    # identical and reversed rankings; a constant run
    assert spearman(np.array([0.1, 0.2, 0.3]), np.array([1.0, 5.0, 9.0])) == pytest.approx(1.0)
    assert spearman(np.array([0.1, 0.2, 0.3]), np.array([9.0, 5.0, 1.0])) == pytest.approx(-1.0)
    assert np.isnan(spearman(np.array([0.1, 0.2, 0.3]), np.zeros(3)))


def test_spearman_is_scipys():
    from scipy import stats

    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 5, 40) / 4, rng.integers(0, 5, 40) / 4  # many ties
    assert spearman(x, y) == pytest.approx(stats.spearmanr(x, y).statistic)


def test_one_task_another_metric_and_a_spelling():
    hard = problem_difficulty(STORE, HAND, Measure("map", 10), task="c2t")
    assert hard.task == "c2t" and hard.metric == "map_at_10" and hard.unassigned == 0
    # map_at_10 is half ndcg_at_10 here: A .25, B .5
    assert hard.problems[["problem_id", "mean", "spread", "hardest_run"]].values.tolist() == [["p1", 0.375, 0.25, "A"]]
    assert hard.correlations[["task", "problems"]].values.tolist() == [["c2t", 1]]
    assert problem_difficulty(STORE, HAND, Measure.parse("nDCG@10")).metric == "ndcg_at_10"


def test_a_run_missing_queries_and_a_single_run():
    # C scored p1 (q1 only) and p2: its mean is over its own queries; it correlates over the 2 problems it has
    extra = frame([("C", "t2c", "q1", 0.0), ("C", "t2c", "q3", 1.0)])
    hard = problem_difficulty(STORE, pd.concat([HAND, extra], ignore_index=True), task="t2c")
    assert hard.runs == ("A", "B", "C")
    p = hard.problems.set_index("problem_id")
    assert p.loc["p1", "runs"] == 3 and p.loc["p1", "mean"] == pytest.approx((0.5 + 0.75 + 0.0) / 3)
    assert p.loc["p1", "hardest_run"] == "C" and p.loc["p3", "runs"] == 2
    corr = hard.correlations.set_index(["a", "b"])["problems"].to_dict()
    assert corr == {("A", "B"): 4, ("A", "C"): 2, ("B", "C"): 2}
    # A: p1 .5 < p2 1.0; C: p1 0 < p2 1.0 -> +1; B: p1 .75 > p2 .5 -> -1
    rho = hard.correlations.set_index(["a", "b"])["spearman"]
    assert rho[("A", "C")] == pytest.approx(1.0) and rho[("B", "C")] == pytest.approx(-1.0)
    alone = problem_difficulty(STORE, HAND[HAND["run"] == "A"])
    assert alone.correlations.empty and alone.problems["hardest_run"].isna().all()
    assert (alone.per_run["residual"] == 0).all()


def test_hardest_problems():
    hard = problem_difficulty(STORE, HAND, task="t2c")
    assert hardest_problems(hard, n=2)["problem_id"].tolist() == ["p3", "p4"]
    # B: p4 0 first, then p3 .25 (p3's mean over runs .25), then p2 .5 and p1 .75
    mine = hardest_problems(hard, "B", n=3)
    assert mine["problem_id"].tolist() == ["p4", "p3", "p2"] and mine["mean"].tolist() == [0.0, 0.25, 0.5]
    assert mine["rank"].tolist() == [2, 1, 4] and mine["problem_mean"].tolist() == [0.25, 0.25, 0.75]


def test_problem_queries_on_the_tiny_release(tiny_store):
    assert problem_queries(tiny_store, "lcb_3487", "t2c") == ["q_t2c_canonical_retro_any_0001",
                                                              "q_t2c_search_python_0002"]
    assert len(problem_queries(tiny_store, "lcb_3487")) == 4  # t2c 2, c2c 1, c2t 1: one problem spans the tasks
    assert problem_queries(tiny_store, "lcb_abc380_d") == ["q_c2t_match_0002"]
    assert problem_queries(tiny_store, "lcb_abc380_d", "t2c") == []


def test_empty_and_malformed_input():
    empty = problem_difficulty(STORE, HAND.iloc[:0])
    assert empty.problems.empty and empty.per_run.empty and empty.correlations.empty and empty.runs == ()
    assert "worst_query" in empty.problems and "residual" in empty.per_run and "spearman" in empty.correlations
    cases = [(lambda: problem_difficulty(STORE, HAND, Measure("ndcg", 7)), "unknown metric 'nDCG@7'"),
             (lambda: problem_difficulty(STORE, HAND, Measure("ndcg", 1000)), "unknown metric 'nDCG@1000'"),
             (lambda: problem_difficulty(STORE, HAND, task="t2t"), "unknown task 't2t' (tasks: t2c, c2c, c2t)"),
             (lambda: problem_difficulty(STORE, HAND.drop(columns="run")), "missing: run"),
             (lambda: problem_queries(STORE, "p9"), "problem 'p9' has no queries"),
             (lambda: problem_queries(STORE, "p1", "code"), "unknown task 'code'"),
             (lambda: hardest_problems(problem_difficulty(STORE, HAND), "Z"), "run 'Z' is not in")]
    for call, words in cases:
        with pytest.raises(CorebError) as err:
            call()
        assert words in str(err.value) and "\n" not in str(err.value)


@pytest.fixture(scope="module")
def mini_two_runs(mini_data, tmp_path_factory):
    """CoREB-mini demo_v2603 in a private copy (the session's mini_data keeps no run) with BM25 and bm25s-mteb."""
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.retrieval.pipeline import run_retrieval
    from coreb_core.runs.folders import read_hits

    root = tmp_path_factory.mktemp("difficulty")
    shutil.copytree(mini_data / "coreb", root / "coreb", symlinks=True)
    runs = {model: run_retrieval(model, "demo_v2603", root=root).run_id for model in ("bm25", "bm25s-mteb")}
    with Store("demo_v2603", root) as store:
        evaluation = analyse_many(store, {m: read_hits(r, root) for m, r in runs.items()}, groupings=("task",))
        yield store, evaluation


def test_on_coreb_mini(mini_two_runs):
    from scipy import stats

    store, evaluation = mini_two_runs
    per_query = evaluation.per_query("v2")
    hard = problem_difficulty(store, per_query)
    p, per_run = hard.problems, hard.per_run
    # 24 problems, each with queries on all three tasks; every query in exactly one problem
    assert len(p) == 72 and p.groupby("task").size().to_dict() == {"c2c": 24, "c2t": 24, "t2c": 24}
    assert p["queries"].sum() == 1200 and hard.unassigned == 0 and (p["runs"] == 2).all()
    assert p["mean"].is_monotonic_increasing and len(per_run) == 144
    # the query-weighted mean of a run's problem means is the run's task mean (Evaluation.groups)
    weighted = (per_run.assign(w=per_run["mean"] * per_run["queries"]).groupby(["run", "task"])[["w", "queries"]]
                .sum())
    groups = evaluation.groups("v2", "task").assign(run=lambda f: f["run"].astype(str),
                                                    task=lambda f: f["task"].astype(str)).set_index(["run", "task"])
    assert np.allclose((weighted["w"] / weighted["queries"]).sort_index(),
                       groups.loc[weighted.index, "ndcg_at_10"].sort_index())
    # the worst query is one of the problem's queries on the task, and scores no higher than the others
    per_query_mean = per_query.assign(query_id=per_query["query_id"].astype(str)).groupby("query_id",
                                                                                            observed=True)["ndcg_at_10"]
    means = per_query_mean.mean()
    for row in p.head(5).itertuples():
        mine = problem_queries(store, row.problem_id, row.task)
        assert len(mine) == row.queries and row.worst_query in mine
        assert means[row.worst_query] == means[mine].min()
    # a hardest run has a negative residual, and a problem's residuals cancel
    ranked = p[p["hardest_run"].notna()]
    assert len(ranked) > 60 and (ranked["hardest_residual"] < 0).all()
    assert set(ranked["hardest_run"]) == {"bm25", "bm25s-mteb"}  # each run finds some problems hardest
    assert np.allclose(per_run.groupby(["task", "problem_id"])["residual"].sum(), 0)
    # one correlation per task, the same as scipy's on the runs' per-problem means; both BM25s broadly agree
    corr = hard.correlations
    assert corr["task"].tolist() == ["t2c", "c2c", "c2t"] and (corr["problems"] == 24).all()
    wide = per_run.pivot(index=["task", "problem_id"], columns="run", values="mean")
    for row in corr.itertuples():
        part = wide.loc[row.task]
        assert row.spearman == pytest.approx(stats.spearmanr(part["bm25"], part["bm25s-mteb"]).statistic)
    assert (corr["spearman"] > 0.4).all()
    # one task alone gives that task's rows
    t2c = problem_difficulty(store, per_query, task="t2c")
    assert t2c.problems.equals(p[p["task"] == "t2c"].reset_index(drop=True).assign(rank=t2c.problems["rank"]))
    assert t2c.problems["rank"].tolist() == list(range(1, 25))
