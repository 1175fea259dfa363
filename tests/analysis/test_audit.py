"""The qrels audit queue on CoREB-mini's lexical runs: each candidate is unjudged for its query, of the query's own
problem, in a language the generator allows it (C2C: its target languages, the anchor's for mono_lang), and ranked by
as many runs as it says above every positive of the query within their top 10 (checked against the stored hits
straight); its class is the generator rules' (``analysis.generator_rules``); the verb and the Data page show the same
queue, with the class's words."""
from __future__ import annotations

import json

from coreb_core.analysis.generator_rules import CLASSES, classify_pairs
from coreb_core.data.store import Store
from coreb_core.runs.folders import read_hits
from coreb_core.views import audit
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope
from tests.builders import app_test, run_cli

RELEASE = "demo_v2603"


def _allowed(store: Store) -> dict[str, set[str] | None]:
    """Query id -> the languages its candidates may be in, read straight from the query rows (None: any)."""
    rows = store.sql("""SELECT task, query_id, subtask, target_language, anchor_language,
                               json_extract(meta, '$.target_languages') FROM queries""").fetchall()
    allowed: dict[str, set[str] | None] = {}
    for task, query, subtask, target, anchor, targets in rows:
        if task == "t2c":
            allowed[query] = None if target is None else {target}
        elif task == "c2c":
            allowed[query] = {anchor} if subtask == "c2c_mono_lang" else set(json.loads(targets))
        else:
            allowed[query] = None
    return allowed


def test_every_candidate_is_what_the_queue_says(lexical_cache):
    root, runs = lexical_cache
    scope = Scope.of(RELEASE, list(runs.values()), root=root)
    queue = audit.build(scope, inputs=Inputs(root)).queue
    assert len(queue) > 0 and (queue["of_runs"] == 2).all() and set(queue["grade"]) == {"unjudged"}
    with Store(RELEASE, root) as store:
        judged = {(q, d): int(r) for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels").fetchall()}
        problem_q = dict(store.sql("SELECT query_id, problem_id FROM queries").fetchall())
        problem_d = dict(store.sql("SELECT doc_id, problem_id FROM documents").fetchall())
        language = dict(store.sql("SELECT doc_id, language FROM documents").fetchall())
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE anchor_code_id IS NOT NULL")
                       .fetchall())
        allowed = _allowed(store)
        for (task, query), part in queue.groupby(["task", "query_id"]):
            assert part["class"].tolist() == classify_pairs(store, task, query, part["doc_id"]).tolist()
    lists = {}
    for run in runs.values():
        hits = read_hits(run, root)
        hits = hits[hits["in_top_k"]].sort_values(["query_id", "rank"])
        for q, part in hits.groupby("query_id"):
            docs = [d for d in part["doc_id"] if d != q and d != anchors.get(q)][:10]
            lists[(run, q)] = docs
    for r in queue.to_dict("records"):
        assert (r["query_id"], r["doc_id"]) not in judged and problem_d[r["doc_id"]] == problem_q[r["query_id"]]
        wanted = allowed[r["query_id"]]
        assert wanted is None or language[r["doc_id"]] in wanted, r
        above = 0
        for run in runs.values():
            docs = lists.get((run, r["query_id"]), [])
            first_positive = next((i for i, d in enumerate(docs) if judged.get((r["query_id"], d)) == 2), len(docs))
            above += r["doc_id"] in docs[:first_positive]
        assert above == r["runs"], r
    # would-be positives first, then passing solutions
    keys = list(zip(queue["class"] == "would_be_positive", queue["passed"].map(lambda v: v is True)))
    assert keys == sorted(keys, reverse=True)


def test_the_classes_on_coreb_mini(lexical_cache):
    """CoREB-mini, BM25 and bm25s-mteb at k=10: no would-be positive (CoREB-mini is built by the generator's rules);
    C2T's "other" are noise descriptions of c2t_match queries, which coreb 0.1.0 grades with no trap."""
    root, runs = lexical_cache
    view = audit.build(Scope.of(RELEASE, list(runs.values()), root=root), inputs=Inputs(root))
    assert view.class_counts() == {"c2c": {"trap_beyond_cap": 4, "other": 22}, "c2t": {"trap_beyond_cap": 51,
                                   "other": 16}, "t2c": {"trap_beyond_cap": 4}}
    assert int((view.queue["runs"] == 2).sum()) == 38
    # the Data page's sentence: every candidate, no would-be positive, the passing ones, the 38 both runs put there
    assert view.totals() == (len(view.queue), 0, int((view.queue["passed"] == True).sum()), 38)  # noqa: E712
    assert set(view.queue.loc[(view.queue["task"] == "c2t") & (view.queue["class"] == "other"), "subtask"]) == {
        "c2t_match"}
    with_traps = audit.build(Scope.of(RELEASE, list(runs.values()), root=root), include_traps=True,
                             inputs=Inputs(root)).queue
    traps = with_traps[with_traps["grade"] == "trap"]
    assert len(with_traps) == len(view.queue) + 1 and traps["class"].tolist() == ["trap_by_rule"]
    assert traps["passed"].tolist() == [True] and traps["task"].tolist() == ["c2c"]


def test_the_verb_and_the_data_page_show_the_queue(lexical_cache):
    root, runs = lexical_cache
    done = run_cli("audit", "--release", RELEASE, "--run", *runs.values(), "--json", env={"COREB_CACHE": str(root)})
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    candidates = data["candidates"]
    assert data["classes"] == CLASSES and data["include_traps"] is False
    assert {c["class"] for c in candidates} <= set(CLASSES) and all(c["grade"] == "unjudged" for c in candidates)
    text = run_cli("audit", "--release", RELEASE, "--run", *runs.values(), env={"COREB_CACHE": str(root)}).stdout
    assert "c2c: 26 candidates (4 trap beyond the cap, 22 other;" in text and "(passing, go): other; 1 of 2 runs" in text
    traps = run_cli("audit", "--release", RELEASE, "--run", *runs.values(), "--include-traps", "--json",
                    env={"COREB_CACHE": str(root)})
    assert [c["class"] for c in json.loads(traps.stdout)["candidates"] if c["grade"] == "trap"] == ["trap_by_rule"]
    at = app_test("data.py", root, {"release": RELEASE, "runs": list(runs.values()), "section": "audit"}).run()
    assert not at.exception and not at.error
    assert any(m.value.startswith(f"**{len(candidates):,} candidates**") for m in at.markdown)
    assert not any("missed positives" in c.value for c in at.caption)
    table = next(d.value for d in at.dataframe if "best_rank" in d.value.columns)
    assert len(table) == len(candidates)
    assert table["class"].tolist() == [CLASSES[c["class"]] for c in candidates]
    at.toggle(key="data_audit_traps").set_value(True).run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "best_rank" in d.value.columns)
    assert len(table) == len(candidates) + 1 and "trap by the rule" in set(table["class"])
