"""What changes when the labels are corrected (``analysis.relabel``, ``views.relabel``, the ``changes`` verb): the
arithmetic on hand-made tables, and CoREB-mini's figures, the verb's and the view's the same."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from coreb_core.analysis.relabel import RunChange, moved_queries, standing_changes, task_changes, verdict_flips
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import evaluate
from coreb_core.evaluation.schemes import EXECUTED, V2
from coreb_core.evaluation.stored_joins import StoredRun
from coreb_core.views import relabel
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope
from tests.builders import run_cli


def _table(scores):
    return pd.DataFrame([{"run": r, "task": t, "query_id": q, "ndcg_at_10": s} for (r, t, q), s in scores.items()])


def test_task_changes_count_the_queries_that_move_each_way():
    base = _table({("a", "c2c", "q1"): 0.5, ("a", "c2c", "q2"): 1.0, ("a", "c2c", "q3"): 0.0, ("a", "t2c", "q4"): 0.2})
    other = _table({("a", "c2c", "q1"): 0.25, ("a", "c2c", "q2"): 1.0, ("a", "c2c", "q3"): 0.6, ("a", "t2c", "q4"): 0.2})
    table = task_changes(base, other).set_index("task")
    assert table.loc["c2c", ["queries", "moved", "up", "down"]].tolist() == [3, 2, 1, 1]
    assert table.loc["c2c", "base"] == pytest.approx(0.5) and table.loc["c2c", "other"] == pytest.approx(0.6166667)
    assert table.loc["c2c", "delta"] == pytest.approx(0.1166667)
    assert table.loc["t2c", ["moved", "up", "down"]].tolist() == [0, 0, 0]
    moved = moved_queries(base, other, top=5)
    assert moved["query_id"].tolist() == ["q3", "q1"] and moved["delta"].round(2).tolist() == [0.6, -0.25]


def test_a_query_scored_under_one_reading_only_is_not_compared():
    base = _table({("a", "c2c", "q1"): 0.5, ("a", "c2c", "q2"): 1.0})
    other = _table({("a", "c2c", "q1"): 0.5})
    assert task_changes(base, other)["queries"].tolist() == [1]


def test_standing_changes_and_verdict_flips():
    from coreb_core.analysis.selection import Recommendation, Standing

    def standing(rank, run, mean, significant):
        return Standing(rank, run, run, None, 10, mean, mean, mean, 0.0, 0.0, 0.01, 0.01, significant, 0, 0, 0)

    def rec(*standings):
        return Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), ("any",), None, "tasks", standings=standings)

    base = rec(standing(1, "a", 0.5, False), standing(2, "b", 0.4, True))
    other = rec(standing(1, "b", 0.5, False), standing(2, "a", 0.45, True))
    changes = standing_changes(base, other)
    assert changes == [RunChange("a", 1, 2, None, None, 0.5, 0.45), RunChange("b", 2, 1, None, None, 0.4, 0.5)]
    assert all(c.moved for c in changes) and verdict_flips(base, other)
    assert not verdict_flips(base, base)
    # the same first run, but a clear winner under one reading only: the verdict flips too
    assert verdict_flips(base, rec(standing(1, "a", 0.5, False), standing(2, "b", 0.4, False)))


def test_relabel_view_equals_the_evaluations_under_both_schemes(lexical_cache):
    root, runs = lexical_cache
    scope = Scope.of("demo_v2603", list(runs.values()), root=root)
    view = relabel.build(scope, inputs=Inputs(root))
    assert view.reading == "executed" and str(view.scope.scheme) == "executed"
    with Store("demo_v2603", root) as store:
        for run_id in runs.values():
            for scheme, column in ((V2, "base"), (EXECUTED, "other")):
                per_query = evaluate(store, StoredRun(run_id, root), scheme)
                means = per_query.groupby("task")["ndcg_at_10"].mean()
                mine = view.tasks[view.tasks["run"] == run_id].set_index("task")[column]
                assert mine.to_dict() == pytest.approx(means.to_dict(), abs=1e-12)
    table = view.tasks.set_index(["run", "task"])
    # CoREB-mini's C2C labels follow the generator, so executed promotes passing code there and nowhere else
    assert (table.xs("t2c", level="task")["moved"] == 0).all() and (table.xs("c2t", level="task")["moved"] == 0).all()
    assert (table.xs("c2c", level="task")["moved"] > 0).all()
    assert table.loc[(runs["bm25"], "c2c"), "base"] == pytest.approx(0.463078, abs=1e-6)
    assert len(view.changes) == 2 and not view.flips


def test_the_changes_verb_prints_the_view(lexical_cache):
    root, runs = lexical_cache
    env = {"COREB_CACHE": str(root)}
    result = run_cli("changes", "--release", "demo_v2603", "--json", "--top", "3", env=env)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    view = relabel.build(Scope.of("demo_v2603", list(runs.values()), root=root), top=3, inputs=Inputs(root))
    assert data["reading"] == "executed" and len(data["moved_queries"]) == 3
    assert [r["other"] for r in data["tasks"]] == pytest.approx(view.tasks["other"].tolist())
    assert data["verdict_flips"] is False and data["verdict_v2"] == view.verdict_base
    text = run_cli("changes", "--release", "demo_v2603", env=env).stdout
    assert "the verdict does not flip" in text and "c2c: nDCG@10 46.3 -> " in text


@pytest.mark.parametrize("argv, words", [
    (["--scheme", "v1"], "invalid choice: 'v1'"),
    (["--scheme", "executed", "--run", "no_such_run"], "no_such_run"),
    (["--top", "0"], "--top"),
])
def test_the_changes_verb_refuses_in_one_line(lexical_cache, argv, words):
    root, _ = lexical_cache
    result = run_cli("changes", "--release", "demo_v2603", *argv, env={"COREB_CACHE": str(root)})
    assert result.returncode == 2 and words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_relabel_refuses_a_reading_that_is_not_a_correction(lexical_cache):
    root, runs = lexical_cache
    with pytest.raises(CorebError, match="unknown reading 'v1'"):
        relabel.build(Scope.of("demo_v2603", [runs["bm25"]], root=root), reading="v1", inputs=Inputs(root))
    with pytest.raises(CorebError, match="not a corrected reading"):
        relabel.official_verdict(Scope.of("demo_v2603", [runs["bm25"]], root=root), inputs=Inputs(root))


@pytest.fixture
def judged_cache(lexical_cache, tmp_path):
    """A copy of the lexical cache (two runs on demo_v2603) to judge in."""
    import shutil

    root, runs = lexical_cache
    copy = tmp_path / "cache"
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns("joins"))
    return copy, runs


def test_a_judgment_rescores_the_judged_scheme_and_every_view_keyed_on_it(judged_cache):
    """An unjudged document at rank 1 of a BM25 list judged relevant: under ``judged`` that query scores 1 at
    nDCG@1 and no other query moves; the scope's version (every cached view's key) changes with the judgment, and the
    changes verb names the query."""
    from coreb_core.data.judgments import judge
    from coreb_core.evaluation.schemes import JUDGED
    from coreb_core.runs.folders import read_hits

    root, runs = judged_cache
    bm25 = runs["bm25"]
    hits = read_hits(bm25, root)
    with Store("demo_v2603", root) as store:
        judged = set(store.sql("SELECT query_id || '|' || doc_id FROM qrels").df().iloc[:, 0])
        before = evaluate(store, StoredRun(bm25, root), JUDGED).set_index("query_id")
    first = hits[(hits["rank"] == 1) & (hits["task"] == "t2c")]
    query, doc = next((q, d) for q, d in zip(first["query_id"], first["doc_id"]) if f"{q}|{d}" not in judged)
    version = Scope.of("demo_v2603", [bm25], "judged", root=root).version
    assert before.loc[query, "ndcg_at_1"] == 0.0
    judge("demo_v2603", query, doc, 2, "ada", root=root)
    assert Scope.of("demo_v2603", [bm25], "judged", root=root).version != version
    with Store("demo_v2603", root) as store:
        after = evaluate(store, StoredRun(bm25, root), JUDGED).set_index("query_id")
        v2 = evaluate(store, StoredRun(bm25, root), V2).set_index("query_id")
    assert after.loc[query, "ndcg_at_1"] == 1.0
    moved = (after["ndcg_at_10"] - v2["ndcg_at_10"]).abs() > 1e-12
    assert moved[moved].index.tolist() == [query]
    data = json.loads(run_cli("changes", "--release", "demo_v2603", "--run", bm25, "--scheme", "judged", "--json",
                              env={"COREB_CACHE": str(root)}).stdout)
    assert [q["query_id"] for q in data["moved_queries"]] == [query]
    assert [(t["task"], t["moved"]) for t in data["tasks"]] == [("c2c", 0), ("c2t", 0), ("t2c", 1)]
