"""How the Query inspector prints what ``coreb_core.analysis.inspection`` returns: trap reasons in
words, where a document sits in the other runs, row colours by grade, and the way back to the page
the user came from."""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from coreb_core.analysis.trap_kinds import (
    FAILING_SOLUTION,
    JUDGED_NON_MATCH,
    NOISE_DESCRIPTION,
    OTHER_MODEL,
    WRONG_LANGUAGE,
    TrapReason,
)
from coreb_core.data.schema import POSITIVE, TRAP
from ui.navigation import PAGE_SPECS, PageSpec

# The inspector's own URL keys: dropped when going back to the page that opened it.
INSPECTOR_KEYS = ("query", "doc", "view", "k", "shown", "from", "find", "subtask", "lang", "filter")

# Row colours by grade: light enough for dark text; the grade badge column carries the same in words.
ROW_COLOURS = {POSITIVE: "#d9f2d9", TRAP: "#ffe6b3"}
SELECTED_COLOUR = "#cfe2ff"


def _language_rule(reason: TrapReason) -> str:
    if reason.wanted_language:
        return f"the query asks for {reason.wanted_language}"
    if reason.anchor_language:
        return f"the query asks for another language than the anchor's {reason.anchor_language}"
    return ""


def trap_reason_text(reason: TrapReason | None) -> str:
    """One line saying why a document is a trap ("" for None: not a trap).

    >>> trap_reason_text(TrapReason("failing_solution", "d", tests_passed=7, tests_total=10, language="java"))
    'failing solution: 7/10 tests passed (java)'
    >>> trap_reason_text(TrapReason("wrong_language", "d", language="python", wanted_language="cpp"))
    'correct solution in the wrong language: python; the query asks for cpp'
    """
    if reason is None:
        return ""
    language = reason.language or "unknown language"
    if reason.kind == FAILING_SOLUTION:
        tests = f"{reason.tests} tests passed" if reason.tests else "fails its tests"
        rule = f"; also the wrong language: {_language_rule(reason)}" if reason.off_language else ""
        return f"failing solution: {tests} ({language}){rule}"
    if reason.kind == WRONG_LANGUAGE:
        return f"correct solution in the wrong language: {language}; {_language_rule(reason)}"
    if reason.kind == OTHER_MODEL:
        return f"correct solution by another model ({reason.model}) than the positives"
    if reason.kind == NOISE_DESCRIPTION:
        return f"noise description of problem {reason.problem_id}"
    if reason.kind == JUDGED_NON_MATCH:
        return f"judged non-match: the description of another problem ({reason.problem_id})"
    return f"correct solution ({language}) that the qrels do not count as a positive"


def trap_reason_short(reason: TrapReason | None) -> str:
    """``trap_reason_text`` in a few words, for a narrow column of a ranked list (the open document and
    the positions table say it in full).

    >>> trap_reason_short(TrapReason("failing_solution", "d", tests_passed=7, tests_total=10, language="java"))
    'fails: 7/10 tests'
    >>> trap_reason_short(TrapReason("wrong_language", "d", language="python", wanted_language="cpp")), trap_reason_short(None)
    ('wrong language: python', '')
    """
    if reason is None:
        return ""
    if reason.kind == FAILING_SOLUTION:
        return f"fails: {reason.tests} tests" if reason.tests else "fails its tests"
    if reason.kind == WRONG_LANGUAGE:
        return f"wrong language: {reason.language or 'unknown'}"
    return {OTHER_MODEL: f"other model: {reason.model}", NOISE_DESCRIPTION: "noise description",
            JUDGED_NON_MATCH: "judged non-match"}.get(reason.kind, "not a positive")


def cross_run_marker(rank: float, other_rank: float, k: int) -> str:
    """Where a document at ``rank`` in one run sits in another run, for top-``k`` lists, short enough for
    three lists side by side: "=" (same rank), "#3 ↑2" (the other run ranks it 2 places higher), "#9 ↓4",
    just "#57" when that is below the other run's top ``k``, or "—" when the other run did not store it
    (beyond its top 100).

    >>> [cross_run_marker(5, r, 10) for r in (5, 3, 9, 57, float("nan"))]
    ['=', '#3 ↑2', '#9 ↓4', '#57', '—']
    """
    if pd.isna(other_rank):
        return "—"
    other = int(other_rank)
    if other > k:
        return f"#{other}"
    if other == int(rank):
        return "="
    return f"#{other} ↑{int(rank) - other}" if other < rank else f"#{other} ↓{other - int(rank)}"


def row_colours(relevance: pd.Series, doc_ids: pd.Series, selected: str | None, width: int) -> pd.DataFrame:
    """CSS for each cell of a listing: green-ish positives, amber traps, blue the selected document.

    >>> row_colours(pd.Series([2.0, None]), pd.Series(["a", "b"]), "b", 1)[0].tolist()
    ['background-color: #d9f2d9; color: #111', 'background-color: #cfe2ff; color: #111']
    """
    styles = []
    for rel, doc in zip(relevance, doc_ids):
        colour = SELECTED_COLOUR if doc == selected else ROW_COLOURS.get(None if pd.isna(rel) else int(rel))
        styles.append(f"background-color: {colour}; color: #111" if colour else "")
    return pd.DataFrame({i: styles for i in range(width)})


def back_target(origin: str | None) -> PageSpec | None:
    """The page the inspector was opened from (its ``from`` URL parameter), None when unknown or itself.

    >>> back_target("traps").title, back_target("inspector"), back_target(None)
    ('Trap analysis', None, None)
    """
    return next((p for p in PAGE_SPECS if p.url_path == origin and p.url_path != "inspector"), None)


def back_params(params: Mapping[str, list[str]]) -> dict[str, str | list[str]]:
    """The URL parameters to carry back: all but the inspector's own (a single value stays a string).

    >>> back_params({"release": ["demo_v2603"], "runs": ["a", "b"], "query": ["q1"], "from": ["traps"]})
    {'release': 'demo_v2603', 'runs': ['a', 'b']}
    """
    return {k: (v[0] if len(v) == 1 else list(v)) for k, v in params.items() if k not in INSPECTOR_KEYS and v}
