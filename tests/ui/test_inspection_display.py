"""ui.inspection: trap reasons in words, cross-run markers, row colours, the way back (its examples run too)."""
import doctest

import pandas as pd


def test_examples_run():
    import ui.inspection

    result = doctest.testmod(ui.inspection, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_reason_texts():
    from coreb_core.analysis.traps.kinds import TrapReason
    from coreb_core.present.inspection import trap_reason_text

    assert trap_reason_text(None) == ""
    assert trap_reason_text(TrapReason("failing_solution", "d", tests_passed=2, tests_total=4, language="python",
                                       anchor_language="python", off_language=True)) == (
        "failing solution: 2/4 tests passed (python); also the wrong language: the query asks for another "
        "language than the anchor's python")
    assert trap_reason_text(TrapReason("other_model", "d", model="mini-verbose")) == (
        "correct solution by another model (mini-verbose) than the positives")
    assert trap_reason_text(TrapReason("not_a_positive", "d", language="go")) == (
        "correct solution (go) that the qrels do not count as a positive")


def test_markers_colours_and_back():
    from coreb_core.present.inspection import cross_run_marker
    from ui.inspection import back_params, back_target, row_colours

    assert [cross_run_marker(4, r, 5) for r in (4.0, 1.0, 5.0, 6.0, float("nan"))] == ["=", "#1 ↑3", "#5 ↓1", "#6", "—"]
    styles = row_colours(pd.Series([1.0, 0.0, None]), pd.Series(["t", "n", "u"]), None, 2)
    assert styles[1].tolist() == ["background-color: #ffe6b3; color: #111", "", ""]
    assert back_target("compare").script == "pages/compare.py" and back_target("nowhere") is None
    assert back_params({"metric": ["map"], "doc": ["d"], "view": ["side"], "k": ["5"], "shown": ["a"]}) == {
        "metric": "map"}
