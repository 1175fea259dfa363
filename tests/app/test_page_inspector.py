"""The Query inspector page on CoREB-mini (the library on hand-made runs: tests/analysis/test_inspection.py), with
a BM25 run and a dense run encoded by the ``Trigrams`` stand-in (``fake_dense``: the fast loop; what the page shows
does not depend on which dense model ranked)."""
import pytest

from coreb_core.present.display import TRAP_BADGE
from tests.builders import app_test


@pytest.fixture
def cache_runs(fake_dense):
    """(cache root, model -> run id) of a BM25 run and a dense run named minilm on demo_v2603."""
    root, dense, bm25 = fake_dense
    return root, {"bm25": bm25, "minilm": dense}


def test_grade_badges_match_qrels(cache_runs):
    app_cache, default_run_ids = cache_runs
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.present.display import GRADE_LABELS
    from coreb_core.runs.folders import read_hits

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
    bm25_col = [c for c in positions.columns if c.startswith("rank ·") and c.endswith("bm25 · demo_v2603")][0]  # by name
    first_pos = positions[positions["relevance"] == 2][bm25_col].min()
    assert first_pos == traps.loc[qid, "first_positive_rank"]
    assert positions[positions["relevance"] == 1][bm25_col].min() == traps.loc[qid, "first_trap_rank"]
    assert any(c.value == store_query(app_cache, qid).strip() for c in at.code)


def store_query(cache, qid):
    from coreb_core.data.store import Store

    with Store("demo_v2603", cache) as store:
        return store.sql("SELECT query FROM queries WHERE query_id = ?", [qid]).fetchone()[0]


def test_url_restores_view(cache_runs):
    app_cache, default_run_ids = cache_runs
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.folders import read_hits

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


def test_trap_filter_and_diff(cache_runs):
    app_cache, default_run_ids = cache_runs
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.folders import read_hits

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


def _outranking(app_cache, run_id, label_tail, qid):
    """The library's traps above a positive, for ``qid`` in one run (what the page's selector must offer)."""
    from coreb_core.analysis.inspection import judged_positions, outranking_traps, query_details, query_hits
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import read_hits

    with Store("demo_v2603", app_cache) as store:
        q = query_details(store, qid)
        rows = {label_tail: query_hits(read_hits(run_id, app_cache), qid)}
        return outranking_traps(judged_positions(store, q, rows), label_tail)


def test_pair_selector_follows_the_query(cache_runs):
    app_cache, default_run_ids = cache_runs
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.folders import read_hits

    bm25 = default_run_ids["bm25"]
    with Store("demo_v2603", app_cache) as store:
        traps = trap_table(store, read_hits(bm25, app_cache))
    several = traps[(traps["task"] == "t2c") & (traps["traps_above_first_positive"] >= 2)]
    first, second = sorted(several["query_id"].astype(str))[:2]
    at = app_test("inspector.py", app_cache, {"task": "t2c", "query": first, "runs": [bm25]}).run()
    assert not at.exception
    pick = [s for s in at.selectbox if s.label == "Trap (ranked above a positive)"][0]
    assert pick.value == _outranking(app_cache, bm25, "r", first)[0]
    pick.set_value(_outranking(app_cache, bm25, "r", first)[1]).run()
    assert [c for c in at.code if c.language == "diff"][0].value.startswith(
        f"--- trap {_outranking(app_cache, bm25, 'r', first)[1]}")
    # Another query: the selector offers that query's traps, from its first one, and the diff follows it.
    at.query_params["query"] = second
    at.run()
    assert not at.exception
    expected = _outranking(app_cache, bm25, "r", second)
    pick = [s for s in at.selectbox if s.label == "Trap (ranked above a positive)"][0]
    assert pick.value == expected[0]
    assert [o.split(" ")[1] for o in pick.options] == expected
    assert [c for c in at.code if c.language == "diff"][0].value.startswith(f"--- trap {expected[0]}")


def test_document_beside_query_with_reason_and_way_back(cache_runs):
    app_cache, default_run_ids = cache_runs
    from coreb_core.data.store import Store

    runs = default_run_ids
    qid, doc = "q_t2c_canonical_retro_cpp_0020", "code_v202603_00121"
    at = app_test("inspector.py", app_cache, {"task": "t2c", "query": qid, "runs": [runs["bm25"], runs["minilm"]],
                                              "doc": doc, "from": "traps", "metric": "map"}).run()
    assert not at.exception
    with Store("demo_v2603", app_cache) as store:
        content = store.sql("SELECT content FROM documents WHERE doc_id = ?", [doc]).fetchone()[0]
    assert any(c.value == content.strip() and c.language == "python" for c in at.code)
    texts = [t.value for t in at.text]
    assert any(t.startswith(f"{doc} · {TRAP_BADGE} · A: #") for t in texts)
    assert "Why a trap: correct solution in the wrong language: python; the query asks for cpp" in texts
    assert at.button(key="insp_back").label == "← Back to Trap analysis"
    assert at.query_params["doc"] in (doc, [doc]) and at.query_params["metric"] in ("map", ["map"])
    # Runs side by side, linked: each list says where the other run puts the same document.
    a, b = at.dataframe[1].value, at.dataframe[2].value
    assert "in B" in a.columns and "in A" in b.columns
    rank_in_b = dict(zip(b["doc_id"], b["rank"]))
    for rank, doc_id, marker in zip(a["rank"], a["doc_id"], a["in B"]):
        if doc_id in rank_in_b:
            other = rank_in_b[doc_id]
            assert marker == ("=" if other == rank else f"#{other} ↑{rank - other}" if other < rank
                              else f"#{other} ↓{other - rank}")
        else:  # below B's top 10 (its rank) or not stored by B at all
            assert marker == "—" or (marker.startswith("#") and int(marker[1:]) > 10), marker
    # Every trap carries its reason, in the lists (in a few words, the column is narrow) and in the table of
    # judged documents (in full).
    for listing in (a, b):
        shown = listing.set_index("doc_id")["why"]
        if doc in shown.index:
            assert shown[doc] == "wrong language: python"
        # an unjudged document: its class by the generator's rules
        assert all(w == "" or w.startswith(("fails", "wrong language", "other model", "noise", "judged", "not a",
                                            "would be rel=", "trap beyond the cap"))
                   for w in shown) and shown.str.len().max() <= 24
    positions = at.dataframe[3].value
    assert (positions["why"] != "").tolist() == (positions["relevance"] == 1).tolist()
    assert positions.set_index("doc_id").loc[doc, "why"].startswith("correct solution in the wrong language")
    # Without a `from`, no way back is offered.
    plain = app_test("inspector.py", app_cache, {"task": "t2c", "query": qid, "runs": [runs["bm25"]]}).run()
    assert not plain.exception and not [b for b in plain.button if b.key == "insp_back"]
