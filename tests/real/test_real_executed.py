"""The ``executed`` scheme on the real release_v2603: its qrels are the facts the issue counted (C2C: 246 unjudged and
229 trap-graded passing solutions promoted; T2C and C2T unchanged), and ``eval --scheme executed`` equals pytrec_eval
on those qrels (the official procedure, ``coreb_core.evaluation.official``) for every task and cutoff."""
from __future__ import annotations

import json

import pytest

from coreb_core.data.store import Store
from coreb_core.evaluation.official import official_evaluate
from coreb_core.runs.folders import list_runs, read_hits
from tests.builders import run_cli

RELEASE = "release_v2603"


def _run(root, model: str) -> str:
    [run] = [m.run_id for m in list_runs(RELEASE, root) if m.model == model]
    return run


def test_executed_promotes_the_passing_solutions_the_labels_miss(real_cache):
    with Store(RELEASE, real_cache) as store:
        rows = store.sql("""
            SELECT e.task, count(*) FILTER (r.relevance IS NULL), count(*) FILTER (r.relevance = 1),
                   count(DISTINCT e.query_id) FILTER (r.relevance IS DISTINCT FROM 2)
            FROM qrels_executed e LEFT JOIN qrels r USING (task, query_id, doc_id)
            WHERE e.relevance = 2 GROUP BY 1 ORDER BY 1""").fetchall()
        unchanged = store.sql("SELECT count(*) FROM (SELECT * FROM qrels EXCEPT SELECT * FROM qrels_executed)"
                              " WHERE task <> 'c2c'").fetchone()[0]
        anchors = store.sql("""SELECT count(*) FROM qrels_executed e JOIN queries q USING (task, query_id)
                               WHERE e.doc_id = q.anchor_code_id AND e.relevance = 2""").fetchone()[0]
    assert rows == [("c2c", 246, 229, 202), ("c2t", 0, 0, 0), ("t2c", 0, 0, 0)]
    assert unchanged == 0 and anchors == 0


@pytest.mark.parametrize("model, v2, executed", [("bm25", 0.3548, 0.3450), ("bm25s-mteb", 0.2983, 0.2905)])
def test_c2c_under_executed_relevance(real_cache, model, v2, executed):
    run = _run(real_cache, model)
    scores = {}
    for scheme in ("v2", "executed"):
        result = run_cli("eval", "--release", RELEASE, "--run", run, "--task", "c2c", "--scheme", scheme, "--json",
                         env={"COREB_CACHE": str(real_cache)})
        assert result.returncode == 0, result.stderr
        scores[scheme] = json.loads(result.stdout)["tasks"]["c2c"]["ndcg_at_10"]
    assert (round(scores["v2"], 4), round(scores["executed"], 4)) == (v2, executed)


@pytest.mark.parametrize("task", ["t2c", "c2c", "c2t"])
def test_eval_executed_equals_pytrec_eval_on_the_executed_qrels(real_cache, task):
    run = _run(real_cache, "bm25")
    result = run_cli("eval", "--release", RELEASE, "--run", run, "--task", task, "--scheme", "executed", "--json",
                     env={"COREB_CACHE": str(real_cache)})
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)["tasks"][task]
    with Store(RELEASE, real_cache) as store:
        qrels: dict[str, dict[str, int]] = {}
        for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels_executed WHERE task = ?",
                                 [task]).fetchall():
            qrels.setdefault(q, {})[d] = int(r)
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE task = 'c2c'").fetchall())
    hits = read_hits(run, real_cache)
    # What the official runner scores: each query's top 100 (judged documents stored below it are ours, not its)
    hits = hits[(hits["task"] == task) & hits["doc_id"].notna() & hits["in_top_k"]]
    results: dict[str, dict[str, float]] = {}
    for q, d, rank in zip(hits["query_id"].astype(str), hits["doc_id"].astype(str), hits["rank"]):
        if anchors.get(q) != d:  # the runner's anchor exclusion: the anchor leaves the list, the rest move up
            results.setdefault(q, {})[d] = -float(rank)  # the stored order, which pytrec_eval sorts by score
    # C2C at the runner's anchor-excluded cutoffs (its list of 100 is 99 long without the anchor)
    ks = (1, 5, 10, 20) if task == "c2c" else (1, 10, 100)
    official = official_evaluate(qrels, results, ks, round_to=None)
    assert ours["queries"] == len(set(qrels) & set(results))
    for k in ks:
        for mine, theirs in (("ndcg", "NDCG"), ("map", "MAP"), ("recall", "Recall"), ("precision", "P")):
            assert ours[f"{mine}_at_{k}"] == pytest.approx(official[f"{theirs}@{k}"], abs=1e-9), (task, mine, k)
