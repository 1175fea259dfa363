"""On the real release_v2603 (BM25 and bm25s-mteb runs): per-problem difficulty across runs, the runs'
rank correlation per task, and the time it takes at real scale."""
from __future__ import annotations

import time

import pytest


@pytest.fixture(scope="module")
def real_per_query(real_cache):
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import list_runs, read_hits

    runs = {m.model: m.run_id for m in list_runs("release_v2603", real_cache)}
    with Store("release_v2603", real_cache) as store:
        hits = {model: read_hits(runs[model], real_cache) for model in ("bm25", "bm25s-mteb")}
        yield store, analyse_many(store, hits).per_query("v2")


def test_difficulty_on_the_real_release(real_per_query):
    from coreb_core.analysis.difficulty import hardest_problems, problem_difficulty, problem_queries

    store, per_query = real_per_query
    hard = problem_difficulty(store, per_query)
    p = hard.problems
    # 95 problems: every one has T2C and C2T queries, 69 have C2C queries too; every query has its problem
    assert p["problem_id"].nunique() == 95 and p.groupby("task").size().to_dict() == {"c2c": 69, "c2t": 95, "t2c": 95}
    assert p["queries"].sum() == 2601 and hard.unassigned == 0 and len(hard.per_run) == 2 * 259
    # BM25 and bm25s-mteb rank problems alike, most on C2C (measured: 0.6205, 0.8267, 0.6650)
    rho = hard.correlations.set_index("task")["spearman"]
    assert hard.correlations["problems"].tolist() == [95, 69, 95]
    assert rho.to_dict() == pytest.approx({"t2c": 0.6205, "c2c": 0.8267, "c2t": 0.6650}, abs=1e-3)
    # T2C: BM25 scores nDCG@10 = 0 on 12 problems, bm25s-mteb on 40; 10 are 0 for both. The hardest for
    # BM25 (ties: hard for both, then more queries) is lcb_abc387_a ((M + N)², 18 queries)
    t2c = problem_difficulty(store, per_query, task="t2c")
    zeros = t2c.per_run[t2c.per_run["mean"] == 0].groupby("run").size().to_dict()
    assert zeros == {"bm25": 12, "bm25s-mteb": 40} and (t2c.problems["mean"] == 0).sum() == 10
    top = hardest_problems(t2c, "bm25", 5)
    assert top["problem_id"].tolist() == ["lcb_abc387_a", "lcb_arc194_b", "lcb_abc398_a", "lcb_abc397_f",
                                          "lcb_abc388_e"]
    assert t2c.problems["worst_query"][0] in problem_queries(store, "lcb_abc387_a", "t2c")
    # bm25s-mteb finds more T2C problems hardest than BM25 does (it is the weaker run there)
    assert (t2c.problems["hardest_run"] == "bm25s-mteb").sum() > (t2c.problems["hardest_run"] == "bm25").sum()
    # warm, at real scale, well under a second (measured ~0.05 s)
    start = time.perf_counter()
    problem_difficulty(store, per_query)
    assert time.perf_counter() - start < 1.0
