"""Query inspector: coreb_core.analysis.inspection on exact hand-made runs, and the page on CoREB-mini."""
import pandas as pd
import pytest

from tests.helpers import app_test

C2C = "q_c2c_cross_lang_0001"  # anchor code 1; positives code 2, 4; trap code 3
C2C_LIST = [("code_v202601_00001", 0.99), ("code_v202601_00003", 0.9), ("code_v202601_00002", 0.8),
            ("code_v202601_00004", 0.7)]


def _rows(store, qid, pairs):
    from coreb_core.analysis.inspection import query_hits
    from coreb_core.runs.run import hits_from_lists

    task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
    return query_hits(hits_from_lists(task_of, {qid: pairs}, "test"), qid)


def test_find_queries(tiny_store):
    from coreb_core.analysis.inspection import facet_values, find_queries

    assert find_queries(tiny_store, text="PYTHON add")["query_id"].tolist() == ["q_t2c_search_python_0002"]
    assert find_queries(tiny_store, text="0001")["query_id"].tolist() == [
        C2C, "q_c2t_full_retro_any_0001", "q_t2c_canonical_retro_any_0001"]
    assert find_queries(tiny_store, text="%").empty  # LIKE wildcards are matched literally
    assert find_queries(tiny_store, task="t2c", target_language="any")["query_id"].tolist() == [
        "q_t2c_canonical_retro_any_0001"]
    assert facet_values(tiny_store, "t2c") == {"subtask": ["t2c_canonical_retro_any", "t2c_search_python"],
                                               "target_language": ["any", "python"]}


def test_query_details(tiny_store):
    from coreb_core.errors import CorebError
    from coreb_core.analysis.inspection import query_details

    q = query_details(tiny_store, C2C)
    assert (q.task, q.problem_id, q.anchor_language, q.anchor_code_id, q.corpus) == (
        "c2c", "lcb_3487", "python", "code_v202601_00001", "code")
    assert q.problem_statement == "Add two numbers read from input."
    assert q.problem_abbreviated == "Sum of two integers."
    assert q.query.startswith("# solution 1 in python")
    with pytest.raises(CorebError, match="not in release"):
        query_details(tiny_store, "q_nope")


def test_ranked_list_anchor_and_badges(tiny_store):
    from coreb_core.analysis.inspection import query_details, ranked_list
    from ui.display import POSITIVE_BADGE as POSITIVE, TRAP_BADGE as TRAP, UNJUDGED_BADGE as UNJUDGED, with_grades

    q = query_details(tiny_store, C2C)
    rows = _rows(tiny_store, C2C, C2C_LIST)
    excluded = with_grades(ranked_list(tiny_store, q, rows, anchor_exclusion=True, top=10), 1)
    assert excluded[["rank", "doc_id", "grade", "pass_fail", "tests", "stored_rank"]].values.tolist() == [
        [1, "code_v202601_00003", TRAP, "fail", "2/4", 2],
        [2, "code_v202601_00002", POSITIVE, "pass", "4/4", 3],
        [3, "code_v202601_00004", POSITIVE, "pass", "4/4", 4]]
    kept = with_grades(ranked_list(tiny_store, q, rows, anchor_exclusion=False, top=2), 1)
    assert kept[["rank", "doc_id", "grade"]].values.tolist() == [[1, "code_v202601_00001", UNJUDGED],
                                                                 [2, "code_v202601_00003", TRAP]]


def test_positions_pairs_and_diff(tiny_store):
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.analysis.inspection import judged_positions, outranking_pairs, query_details, unified_diff
    from coreb_core.runs.run import hits_from_lists

    q = query_details(tiny_store, C2C)
    rows = _rows(tiny_store, C2C, C2C_LIST)
    pos = judged_positions(tiny_store, q, {"r": rows}, anchor_exclusion=True)
    assert pos[["doc_id", "relevance", "rank · r"]].values.tolist() == [
        ["code_v202601_00002", 2, 2.0], ["code_v202601_00004", 2, 3.0], ["code_v202601_00003", 1, 1.0]]
    # The same ranks the evaluator scores.
    hits = hits_from_lists({C2C: "c2c"}, {C2C: C2C_LIST}, "test")
    traps = trap_table(tiny_store, hits).set_index("query_id")
    assert traps.loc[C2C, "first_positive_rank"] == 2 and traps.loc[C2C, "first_trap_rank"] == 1
    pairs = outranking_pairs(pos, "r")
    assert pairs.values.tolist() == [["code_v202601_00003", 1.0, "code_v202601_00002", 2.0],
                                     ["code_v202601_00003", 1.0, "code_v202601_00004", 3.0]]
    kept = judged_positions(tiny_store, q, {"r": rows}, anchor_exclusion=False)
    assert kept["rank · r"].tolist() == [3.0, 4.0, 2.0]
    assert unified_diff("a\nb\n", "a\nc\n", "trap", "positive") == \
        "--- trap\n+++ positive\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    assert unified_diff("same\n", "same\n", "x", "y") == ""


def test_largest_deltas_and_candidates(tiny_store):
    from coreb_core.analysis.inspection import candidates, largest_deltas

    per_query = pd.DataFrame({"run": ["a", "a", "b", "b"], "task": ["t2c"] * 4,
                              "query_id": ["q_t2c_canonical_retro_any_0001", "q_t2c_search_python_0002"] * 2,
                              "ndcg_at_10": [0.9, 0.5, 0.2, 0.6]})
    d = largest_deltas(per_query, "a", "b")
    assert d["query_id"].tolist() == ["q_t2c_canonical_retro_any_0001", "q_t2c_search_python_0002"]
    assert d["delta"].round(6).tolist() == [0.7, -0.1]
    found = candidates(tiny_store, "t2c", per_query=per_query, delta_runs=("b", "a"))
    assert found["delta"].round(6).tolist() == [-0.7, 0.1]
    traps = pd.DataFrame({"run": ["a", "a"], "query_id": ["q_t2c_canonical_retro_any_0001", "q_t2c_search_python_0002"],
                          "trap_above_positive": [False, True], "traps_above_first_positive": [0, 2]})
    found = candidates(tiny_store, "t2c", traps=traps, trap_run="a")
    assert found[["query_id", "traps_above_first_positive"]].values.tolist() == [["q_t2c_search_python_0002", 2]]


# ---------------------------------------------------------------- the page

def _default_runs(cache):
    from coreb_core.runs.run import list_runs

    return {m["model"]: m["run_id"] for m in list_runs("demo_v2603", cache) if m.get("kind") == "retrieval"}


def _label_of(at, run_id):
    return [t.value for t in at.text if t.value.endswith(run_id[-6:])]


def test_grade_badges_match_qrels(app_cache):
    from coreb_core.evaluation.evaluate import load_hits, trap_table
    from ui.display import GRADE_LABELS
    from coreb_core.data.store import Store

    runs = _default_runs(app_cache)
    qid = "q_t2c_canonical_retro_any_0001"
    at = app_test("inspector.py", app_cache, {"task": "t2c", "query": qid,
                                              "runs": [runs["bm25"], runs["minilm"]]}).run()
    assert not at.exception
    with Store("demo_v2603", app_cache) as store:
        grades = dict(store.sql("SELECT doc_id, relevance FROM qrels WHERE query_id = ?", [qid]).fetchall())
        traps = trap_table(store, load_hits(runs["bm25"], app_cache)).set_index("query_id")
    assert 2 in grades.values() and 1 in grades.values()
    lists = [d.value for d in at.dataframe[1:3]]
    for listing in lists:
        assert len(listing) == 10 and listing["rank"].tolist() == list(range(1, 11))
        for doc, grade in zip(listing["doc_id"], listing["grade"]):
            assert grade == GRADE_LABELS[grades.get(doc)], doc
    # Every judged document, with the evaluator's ranks.
    positions = at.dataframe[3].value
    assert dict(zip(positions["doc_id"], positions["grade"])) == {d: GRADE_LABELS[r] for d, r in grades.items()}
    bm25_col = [c for c in positions.columns if c.startswith("rank ·") and c.endswith(runs["bm25"][-6:])][0]
    first_pos = positions[positions["relevance"] == 2][bm25_col].min()
    assert first_pos == traps.loc[qid, "first_positive_rank"]
    assert positions[positions["relevance"] == 1][bm25_col].min() == traps.loc[qid, "first_trap_rank"]
    assert any(c.value == store_query(app_cache, qid).strip() for c in at.code)


def store_query(cache, qid):
    from coreb_core.data.store import Store

    with Store("demo_v2603", cache) as store:
        return store.sql("SELECT query FROM queries WHERE query_id = ?", [qid]).fetchone()[0]


def test_url_restores_view(app_cache):
    from coreb_core.evaluation.evaluate import load_hits, trap_table
    from coreb_core.data.store import Store

    runs = _default_runs(app_cache)
    with Store("demo_v2603", app_cache) as store:
        qid, query, lang = store.sql("""SELECT query_id, query, anchor_language FROM queries WHERE task = 'c2c'
                                        ORDER BY query_id LIMIT 1 OFFSET 5""").fetchone()
        traps = trap_table(store, load_hits(runs["minilm"], app_cache), anchor_exclusion=False).set_index("query_id")
    at = app_test("inspector.py", app_cache, {"query": qid, "task": "c2c", "scheme": "v1", "anchor": "0",
                                              "runs": [runs["minilm"]]}).run()
    assert not at.exception
    assert at.sidebar.radio(key="scheme").value == "v1"
    assert at.sidebar.selectbox(key="task").value == "c2c"
    assert at.sidebar.toggle(key="anchor").value is False
    assert at.sidebar.multiselect(key="runs").value == [runs["minilm"]]
    assert at.text[0].value.startswith(f"{qid} · Code → code (C2C)")
    shown = [c for c in at.code if c.value == query.strip()]
    assert shown and shown[0].language == lang
    positions = [d.value for d in at.dataframe if "relevance" in d.value.columns and "rank" not in d.value.columns][0]
    col = [c for c in positions.columns if c.startswith("rank ·")][0]
    assert positions[positions["relevance"] == 2][col].min() == traps.loc[qid, "first_positive_rank"]
    assert positions[positions["relevance"] == 1][col].min() == traps.loc[qid, "first_trap_rank"]
    assert at.query_params["query"] in (qid, [qid])
    assert "scheme `v1`" in " ".join(c.value for c in at.caption)


def test_trap_filter_and_diff(app_cache):
    from coreb_core.evaluation.evaluate import load_hits, trap_table
    from coreb_core.data.store import Store

    runs = _default_runs(app_cache)
    at = app_test("inspector.py", app_cache, {"task": "t2c", "runs": [runs["bm25"]]}).run()
    assert not at.exception
    assert len(at.dataframe[0].value) == 720  # every T2C query of demo_v2603
    at.radio(key="insp_mode").set_value("trap above positive in a run").run()
    assert not at.exception
    with Store("demo_v2603", app_cache) as store:
        traps = trap_table(store, load_hits(runs["bm25"], app_cache))
    expected = traps[(traps["task"] == "t2c") & traps["trap_above_positive"]]
    found = at.dataframe[0].value
    assert set(found["query_id"]) == set(expected["query_id"].astype(str))
    top = expected.sort_values(["traps_above_first_positive", "query_id"], ascending=[False, True]).iloc[0]
    assert found["query_id"].iloc[0] == str(top["query_id"])
    # Without a chosen row the first candidate is shown: it has a trap above a positive, so a diff exists.
    diffs = [c for c in at.code if c.language == "diff"]
    assert len(diffs) == 1 and diffs[0].value.startswith("--- trap code_")
    at.radio(key="insp_diff_view").set_value("side by side").run()
    assert not at.exception and not [c for c in at.code if c.language == "diff"]
    assert any(t.value.startswith("trap code_") for t in at.text)
