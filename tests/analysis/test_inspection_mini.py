"""Trap reasons and same-language trap/positive pairs on CoREB-mini (demo_v2603), with exact values."""
import pytest

from tests.builders import scored_hits


@pytest.fixture
def mini_store(mini_data):
    from coreb_core.data.store import Store

    with Store("demo_v2603", mini_data) as store:
        yield store


def test_failing_solution_trap(mini_store):
    from coreb_core.analysis.inspection import query_details
    from coreb_core.analysis.traps.kinds import FAILING_SOLUTION, trap_reasons
    from coreb_core.present.inspection import trap_reason_text

    reasons = trap_reasons(mini_store, query_details(mini_store, "q_t2c_canonical_retro_any_0001"))
    assert sorted(reasons) == ["code_v202603_00053", "code_v202603_00066", "code_v202603_00090"]
    java = reasons["code_v202603_00053"]
    assert (java.kind, java.tests_passed, java.tests_total, java.language, java.off_language) == (
        FAILING_SOLUTION, 7, 10, "java", False)
    assert trap_reason_text(java) == "failing solution: 7/10 tests passed (java)"
    assert trap_reason_text(reasons["code_v202603_00090"]) == "failing solution: 8/10 tests passed (cpp)"


def test_wrong_language_noise_and_non_match_traps(mini_store):
    from coreb_core.analysis.inspection import query_details
    from coreb_core.analysis.traps.kinds import JUDGED_NON_MATCH, NOISE_DESCRIPTION, WRONG_LANGUAGE, trap_reasons
    from coreb_core.present.inspection import trap_reason_text

    wrong = trap_reasons(mini_store, query_details(mini_store, "q_t2c_canonical_retro_cpp_0020"))["code_v202603_00121"]
    assert (wrong.kind, wrong.language, wrong.wanted_language) == (WRONG_LANGUAGE, "python", "cpp")
    assert trap_reason_text(wrong) == "correct solution in the wrong language: python; the query asks for cpp"
    noise = trap_reasons(mini_store, query_details(mini_store, "q_c2t_full_retro_any_0001"))
    assert {r.kind for r in noise.values()} == {NOISE_DESCRIPTION}
    assert trap_reason_text(noise["text_v202603_00001_noise1"]) == "noise description of problem demo_fuel_loop"
    match = trap_reasons(mini_store, query_details(mini_store, "q_c2t_match_0290"))["text_v202603_00014"]
    assert (match.kind, match.problem_id) == (JUDGED_NON_MATCH, "demo_signal_reach")
    assert trap_reason_text(match) == ("judged non-match: the description of another problem "
                                       "(demo_signal_reach)")


def test_diff_pairs_the_same_language(mini_store):
    from coreb_core.analysis.inspection import diff_pair, judged_positions, outranking_pairs, query_details, query_hits

    q = query_details(mini_store, "q_t2c_canonical_retro_any_0001")
    # The Java trap first, a C++ positive second, the Java positive fifth.
    listed = ["code_v202603_00053", "code_v202603_00018", "code_v202603_00066", "code_v202603_00001",
              "code_v202603_00126"]
    rows = {"r": query_hits(scored_hits(mini_store, {q.query_id: [(d, 1 - i / 10) for i, d in enumerate(listed)]}),
                            q.query_id)}
    positions = judged_positions(mini_store, q, rows)
    assert outranking_pairs(positions, "r").iloc[0][["trap", "positive"]].tolist() == [
        "code_v202603_00053", "code_v202603_00018"]  # the old pairing: Java trap vs C++ positive
    pair = diff_pair(positions, "r", "code_v202603_00053")
    assert (pair.positive, pair.positive_rank, pair.positive_language, pair.same_language, pair.outranked) == (
        "code_v202603_00126", 5.0, "java", True, True)
    # The Python trap (rank 3): a Python positive exists (not stored by this run), so it is the one shown.
    python = diff_pair(positions, "r", "code_v202603_00066")
    assert (python.positive, python.positive_language, python.same_language) == ("code_v202603_00160", "python", True)
    # A C++-only query: a Ruby trap has no Ruby positive; the C++ one it outranks, flagged.
    cpp = query_details(mini_store, "q_t2c_canonical_retro_cpp_0020")
    traps = [d for d, in mini_store.sql("SELECT doc_id FROM judgments WHERE query_id = ? AND language = 'ruby'",
                                        [cpp.query_id]).fetchall()]
    positives = [d for d, in mini_store.sql("SELECT doc_id FROM judgments WHERE query_id = ? AND relevance = 2 "
                                            "ORDER BY doc_id", [cpp.query_id]).fetchall()]
    rows = {"r": query_hits(scored_hits(mini_store, {cpp.query_id: [(traps[0], 0.9), (positives[0], 0.8)]}),
                            cpp.query_id)}
    pair = diff_pair(judged_positions(mini_store, cpp, rows), "r", traps[0])
    assert (pair.trap_language, pair.positive, pair.positive_language, pair.same_language, pair.outranked) == (
        "ruby", positives[0], "cpp", False, True)
