"""Hubs on CoREB-mini's lexical runs: the counts equal a count made straight from the runs' ranked lists (DuckDB over
their hits.parquet), the grades add up, a C2C list never holds its anchor, and a document hub of both runs says so."""
from __future__ import annotations

import duckdb
import pytest

from coreb_core.data.store import Store
from coreb_core.runs.folders import read_hits, run_path
from coreb_core.views import hubs as hubs_view
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope
from tests.builders import run_cli

RELEASE = "demo_v2603"


def counted_straight(root, run_id: str, task: str, k: int, anchors: bool) -> dict[str, int]:
    """doc id -> top-k lists holding it, by SQL over the run's stored hits (rank order, the query's own id and, with
    ``anchors``, the C2C anchor left out)."""
    with Store(RELEASE, root) as store:
        anchor = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE anchor_code_id IS NOT NULL")
                      .fetchall()) if anchors else {}
    con = duckdb.connect()
    rows = con.sql(f"""SELECT query_id, doc_id, rank FROM read_parquet('{run_path(run_id, root) / "hits.parquet"}')
                       WHERE task = '{task}' AND in_top_k AND doc_id IS NOT NULL AND doc_id <> query_id
                       ORDER BY query_id, rank""").fetchall()
    counts: dict[str, int] = {}
    taken: dict[str, int] = {}
    for q, d, _ in rows:
        if anchor.get(q) == d or taken.get(q, 0) >= k:
            continue
        taken[q] = taken.get(q, 0) + 1
        counts[d] = counts.get(d, 0) + 1
    return counts


@pytest.mark.parametrize("task, k, anchor_exclusion", [("t2c", 10, True), ("c2t", 5, True), ("c2c", 10, True),
                                                       ("c2c", 3, False)])
def test_hub_counts_are_a_count_of_the_ranked_lists(lexical_cache, task, k, anchor_exclusion):
    root, runs = lexical_cache
    scope = Scope.of(RELEASE, list(runs.values()), anchor_exclusion=anchor_exclusion, root=root)
    table = hubs_view.build(scope, task=task, k=k, top=5, inputs=Inputs(root)).table
    for run in runs.values():
        straight = counted_straight(root, run, task, k, anchor_exclusion)
        mine = table[table["run"] == run]
        assert len(mine) == 5
        assert dict(zip(mine["doc_id"], mine["lists"])) == {d: straight[d] for d in mine["doc_id"]}
        assert mine["lists"].iloc[0] == max(straight.values())  # the first hub is the most listed document
        assert (mine[["positive", "trap", "judged_negative", "unjudged"]].sum(axis=1) == mine["lists"]).all()
    assert (table["trap_kind"].notna() == (table["trap"] > 0)).all()
    both = table.groupby("doc_id")["run"].nunique()
    assert (table["hub_in_runs"] == table["doc_id"].map(both)).all()


def test_a_c2c_list_holds_its_anchor_only_when_it_is_kept(lexical_cache):
    root, runs = lexical_cache
    run = runs["bm25"]
    hits = read_hits(run, root)
    with Store(RELEASE, root) as store:
        from coreb_core.analysis.hubs import top_k_lists

        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE task = 'c2c'").fetchall())
    excluded = top_k_lists(hits, "c2c", 10, anchors)
    kept = top_k_lists(hits, "c2c", 10)
    assert not (excluded["query_id"].map(anchors) == excluded["doc_id"]).any()
    assert (kept["query_id"].map(anchors) == kept["doc_id"]).sum() > 100  # BM25 ranks a query's own code first


def test_the_verb_prints_the_view(lexical_cache):
    root, runs = lexical_cache
    done = run_cli("hubs", "--release", RELEASE, "--run", runs["bm25"], "--task", "c2t", "--top", "2", "--json",
                   env={"COREB_CACHE": str(root)})
    assert done.returncode == 0, done.stderr
    import json

    out = json.loads(done.stdout)
    assert out["k"] == 10 and len(out["hubs"]) == 2 and out["hubs"][0]["lists"] >= out["hubs"][1]["lists"]
    bad = run_cli("hubs", "--release", RELEASE, "--run", "no_such_run", "--task", "c2t", env={"COREB_CACHE": str(root)})
    assert bad.returncode == 2 and bad.stderr.count("error:") == 1


def test_trap_analysis_states_the_first_hub(lexical_cache):
    from tests.builders import app_test

    root, runs = lexical_cache
    scope = Scope.of(RELEASE, [runs["bm25"]], root=root)
    first = hubs_view.build(scope, task="c2t", inputs=Inputs(root)).table.iloc[0]
    at = app_test("traps.py", root, {"release": RELEASE, "runs": [runs["bm25"]], "task": "c2t"}, timeout=300).run()
    assert not at.exception
    sentence = next(m.value for m in at.markdown if "is in the top 10 of" in m.value)
    assert f"**{int(first['lists']):,} of {int(first['queries']):,}** C2T queries" in sentence
    table = next(d.value for d in at.dataframe if "hub_in_runs" in d.value.columns)
    assert table["lists"].iloc[0] == first["lists"] and len(table) == 10


def test_the_inspector_marks_a_hub_in_a_runs_list(lexical_cache):
    from coreb_core.analysis.hubs import top_k_lists
    from coreb_core.views.inspector import lists

    root, runs = lexical_cache
    run = runs["bm25"]
    scope = Scope.of(RELEASE, [run], root=root)
    first = hubs_view.build(scope, task="c2t", inputs=Inputs(root)).table.iloc[0]
    top = top_k_lists(read_hits(run, root), "c2t", 10)
    query = top.loc[top["doc_id"] == first["doc_id"], "query_id"].iloc[0]
    listing = lists(scope, query_id=query, labels={run: "bm25"}, letters={run: "A"}, inputs=Inputs(root)).listings[run]
    hub = dict(zip(listing["doc_id"], listing["hub"]))
    assert hub[first["doc_id"]] == first["lists"] and listing["hub"].notna().sum() <= 10
