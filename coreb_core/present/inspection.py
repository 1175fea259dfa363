"""The Query inspector's words: why a document is a trap, in a line or a few words, and where a document sits in
another run's list."""
from __future__ import annotations

import pandas as pd

from coreb_core.analysis.traps.kinds import (
    FAILING_SOLUTION,
    JUDGED_NON_MATCH,
    NOISE_DESCRIPTION,
    OTHER_MODEL,
    WRONG_LANGUAGE,
    TrapReason,
)


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
