"""Query inspector library: coreb_core.analysis.inspection on exact hand-made runs over the tiny release
(with coreb_core.present.display's grade badges; the page is tested in tests/app/test_page_inspector.py)."""
import pandas as pd
import pytest

from tests.builders import QC, scored_hits

C2C = QC  # anchor code 1; positives code 2, 4; trap code 3
C2C_LIST = [("code_v202601_00001", 0.99), ("code_v202601_00003", 0.9), ("code_v202601_00002", 0.8),
            ("code_v202601_00004", 0.7)]


def _rows(store, qid, pairs):
    from coreb_core.analysis.inspection import query_hits

    return query_hits(scored_hits(store, {qid: pairs}), qid)


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
    from coreb_core.analysis.inspection import query_details
    from coreb_core.errors import CorebError

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
    from coreb_core.present.display import POSITIVE_BADGE as POSITIVE
    from coreb_core.present.display import TRAP_BADGE as TRAP
    from coreb_core.present.display import UNJUDGED_BADGE as UNJUDGED
    from coreb_core.present.display import with_grades

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
    from coreb_core.analysis.inspection import judged_positions, outranking_pairs, query_details, unified_diff
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.hits import hits_from_lists

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


def test_trap_reasons(tiny_store):
    from coreb_core.analysis.inspection import query_details
    from coreb_core.analysis.traps.kinds import (
        FAILING_SOLUTION,
        NOISE_DESCRIPTION,
        WRONG_LANGUAGE,
        TrapReason,
        trap_reasons,
    )

    c2c = trap_reasons(tiny_store, query_details(tiny_store, C2C))
    # A failing Python solution; the cross-language query also asks for another language than the anchor's.
    assert c2c == {"code_v202601_00003": TrapReason(
        FAILING_SOLUTION, "code_v202601_00003", tests_passed=2, tests_total=4, language="python",
        anchor_language="python", model="gemini-3-flash", problem_id="lcb_3487", off_language=True)}
    assert c2c["code_v202601_00003"].tests == "2/4"
    t2c = trap_reasons(tiny_store, query_details(tiny_store, "q_t2c_search_python_0002"))
    assert t2c["code_v202601_00002"] == TrapReason(WRONG_LANGUAGE, "code_v202601_00002", language="cpp",
                                                   wanted_language="python", model="claude-sonnet-4-5",
                                                   problem_id="lcb_3487", off_language=True)
    assert (t2c["code_v202601_00003"].kind, t2c["code_v202601_00003"].off_language) == (FAILING_SOLUTION, False)
    c2t = trap_reasons(tiny_store, query_details(tiny_store, "q_c2t_full_retro_any_0001"))
    assert sorted(c2t) == [f"text_v202601_00001_noise{i}" for i in (1, 2, 3)]
    assert {(r.kind, r.problem_id) for r in c2t.values()} == {(NOISE_DESCRIPTION, "lcb_3487")}
    assert trap_reasons(tiny_store, query_details(tiny_store, "q_c2t_match_0002")) == {}


def test_run_ranks_and_same_language_pair(tiny_store):
    from coreb_core.analysis.inspection import (
        DiffPair,
        diff_pair,
        judged_positions,
        outranking_traps,
        query_details,
        run_ranks,
    )
    from coreb_core.errors import CorebError

    q = query_details(tiny_store, C2C)
    rows = {"a": _rows(tiny_store, C2C, C2C_LIST),
            "b": _rows(tiny_store, C2C, [("code_v202601_00004", 0.9), ("code_v202601_00003", 0.8)])}
    ranks = run_ranks(q, rows, anchor_exclusion=True)
    assert ranks.columns.tolist() == ["doc_id", "a", "b"]
    assert ranks.fillna(-1).values.tolist() == [["code_v202601_00002", 2.0, -1.0], ["code_v202601_00003", 1.0, 2.0],
                                                ["code_v202601_00004", 3.0, 1.0]]
    positions = judged_positions(tiny_store, q, rows, anchor_exclusion=True)
    assert outranking_traps(positions, "a") == ["code_v202601_00003"]
    # The Python trap has no Python positive: the best-ranked positive it outranks, flagged.
    assert diff_pair(positions, "a", "code_v202601_00003") == DiffPair(
        "code_v202601_00003", 1.0, "python", "code_v202601_00002", 2.0, "cpp", False, True)
    # In b it outranks only the positive b did not store (rank NaN), not the Java one above it.
    b = diff_pair(positions, "b", "code_v202601_00003")
    assert (b.trap_rank, b.positive, b.positive_language, b.same_language, b.outranked) == (
        2.0, "code_v202601_00002", "cpp", False, True) and pd.isna(b.positive_rank)
    with pytest.raises(CorebError, match="not a trap"):
        diff_pair(positions, "a", "code_v202601_00002")
