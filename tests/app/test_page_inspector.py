"""The Query inspector page on CoREB-mini (the library on hand-made runs: tests/analysis/test_inspection.py)."""
from tests.builders import app_test


def test_grade_badges_match_qrels(app_cache, default_run_ids):
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.run import read_hits
    from ui.display import GRADE_LABELS
    from coreb_core.data.store import Store

    runs = default_run_ids
    qid = "q_t2c_canonical_retro_any_0001"
    at = app_test("inspector.py", app_cache, {"task": "t2c", "query": qid,
                                              "runs": [runs["bm25"], runs["minilm"]]}).run()
    assert not at.exception
    with Store("demo_v2603", app_cache) as store:
        grades = dict(store.sql("SELECT doc_id, relevance FROM qrels WHERE query_id = ?", [qid]).fetchall())
        traps = trap_table(store, read_hits(runs["bm25"], app_cache)).set_index("query_id")
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


def test_url_restores_view(app_cache, default_run_ids):
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.run import read_hits
    from coreb_core.data.store import Store

    runs = default_run_ids
    with Store("demo_v2603", app_cache) as store:
        qid, query, lang = store.sql("""SELECT query_id, query, anchor_language FROM queries WHERE task = 'c2c'
                                        ORDER BY query_id LIMIT 1 OFFSET 5""").fetchone()
        traps = trap_table(store, read_hits(runs["minilm"], app_cache), anchor_exclusion=False).set_index("query_id")
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


def test_trap_filter_and_diff(app_cache, default_run_ids):
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.run import read_hits
    from coreb_core.data.store import Store

    runs = default_run_ids
    at = app_test("inspector.py", app_cache, {"task": "t2c", "runs": [runs["bm25"]]}).run()
    assert not at.exception
    assert len(at.dataframe[0].value) == 720  # every T2C query of demo_v2603
    at.radio(key="insp_mode").set_value("trap above positive in a run").run()
    assert not at.exception
    with Store("demo_v2603", app_cache) as store:
        traps = trap_table(store, read_hits(runs["bm25"], app_cache))
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
