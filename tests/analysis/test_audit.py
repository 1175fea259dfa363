"""The qrels audit queue on CoREB-mini's lexical runs: each candidate is unjudged for its query, of the query's own
problem, and ranked by as many runs as it says above every positive of the query within their top 10 (checked
against the stored hits straight); the verb and the Data page show the same queue."""
from __future__ import annotations

import json

from coreb_core.data.store import Store
from coreb_core.runs.folders import read_hits
from coreb_core.views import audit
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope
from tests.builders import app_test, run_cli

RELEASE = "demo_v2603"


def test_every_candidate_is_what_the_queue_says(lexical_cache):
    root, runs = lexical_cache
    scope = Scope.of(RELEASE, list(runs.values()), root=root)
    queue = audit.build(scope, inputs=Inputs(root)).queue
    assert len(queue) > 0 and (queue["of_runs"] == 2).all()
    with Store(RELEASE, root) as store:
        judged = {(q, d): int(r) for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels").fetchall()}
        problem_q = dict(store.sql("SELECT query_id, problem_id FROM queries").fetchall())
        problem_d = dict(store.sql("SELECT doc_id, problem_id FROM documents").fetchall())
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE anchor_code_id IS NOT NULL")
                       .fetchall())
    lists = {}
    for run in runs.values():
        hits = read_hits(run, root)
        hits = hits[hits["in_top_k"]].sort_values(["query_id", "rank"])
        for q, part in hits.groupby("query_id"):
            docs = [d for d in part["doc_id"] if d != q and d != anchors.get(q)][:10]
            lists[(run, q)] = docs
    for r in queue.itertuples():
        assert (r.query_id, r.doc_id) not in judged and problem_d[r.doc_id] == problem_q[r.query_id]
        above = 0
        for run in runs.values():
            docs = lists.get((run, r.query_id), [])
            first_positive = next((i for i, d in enumerate(docs) if judged.get((r.query_id, d)) == 2), len(docs))
            above += r.doc_id in docs[:first_positive]
        assert above == r.runs, r
    assert list(queue["passed"].map(lambda v: v is True)) == sorted(queue["passed"].map(lambda v: v is True),
                                                                    reverse=True)


def test_the_verb_and_the_data_page_show_the_queue(lexical_cache):
    root, runs = lexical_cache
    done = run_cli("audit", "--release", RELEASE, "--run", *runs.values(), "--json", env={"COREB_CACHE": str(root)})
    assert done.returncode == 0, done.stderr
    candidates = json.loads(done.stdout)["candidates"]
    at = app_test("data.py", root, {"release": RELEASE, "runs": list(runs.values()), "section": "audit"}).run()
    assert not at.exception and not at.error
    assert any(m.value.startswith(f"**{len(candidates):,} candidates**") for m in at.markdown)
    assert len(next(d.value for d in at.dataframe if "best_rank" in d.value.columns)) == len(candidates)
