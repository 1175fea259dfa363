"""Why a judged document is a trap: the trap taxonomy (failing solution, correct but in the wrong language,
another model's solution, a noise description, a judged non-match, a correct solution left out) and the one rule
that assigns it, for a whole frame of judged traps (``classify_traps``: the Trap analysis page, the CLI) and for
one query's traps with their evidence (``trap_reasons``: the inspector).

Example:
    >>> TRAP_KINDS[:2]
    ('failing_solution', 'wrong_language')
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.analysis.inspection import QueryDetails, none_if_missing
from coreb_core.data.schema import CORPUS_OF_TASK, TRAP
from coreb_core.data.store import Store

FAILING_SOLUTION = "failing_solution"  # a solution of the problem that fails some of its tests
WRONG_LANGUAGE = "wrong_language"  # a correct solution in a language the query does not ask for
OTHER_MODEL = "other_model"  # a correct solution in the asked language, by another model than the positives
NOISE_DESCRIPTION = "noise_description"  # a noise text written for the problem (C2T)
JUDGED_NON_MATCH = "judged_non_match"  # a text judged not to describe the code (c2t_match label 0)
NOT_A_POSITIVE = "not_a_positive"  # a correct solution the qrels leave out for no rule we can name
TRAP_KINDS = (FAILING_SOLUTION, WRONG_LANGUAGE, OTHER_MODEL, NOISE_DESCRIPTION, JUDGED_NON_MATCH, NOT_A_POSITIVE)


class TrapReason(NamedTuple):
    """Why one judged document is a trap of one query, from the release's ``judgments`` view.

    ``kind`` is one of ``TRAP_KINDS``. ``wanted_language`` is the language the query asks for (T2C
    language constraint, C2C mono-language: the anchor's); ``anchor_language`` the language a C2C
    cross-language query asks to leave. A failing solution also gets ``wanted_language`` or
    ``anchor_language`` when its language breaks that rule too (``off_language``).

    >>> TrapReason(FAILING_SOLUTION, "code_v202603_00090", tests_passed=2, tests_total=5, language="cpp").tests
    '2/5'
    """

    kind: str
    doc_id: str
    tests_passed: int | None = None
    tests_total: int | None = None
    language: str | None = None
    wanted_language: str | None = None
    anchor_language: str | None = None
    model: str | None = None
    problem_id: str | None = None
    off_language: bool = False

    @property
    def tests(self) -> str | None:
        """"passed/total" when the document carries test counts."""
        if self.tests_passed is None or self.tests_total is None:
            return None
        return f"{self.tests_passed}/{self.tests_total}"


def _flag(values: pd.Series, wanted: bool) -> np.ndarray:
    """Where a nullable boolean column is exactly ``wanted`` (a missing value is neither)."""
    return (values.astype("boolean") == wanted).fillna(False).to_numpy(dtype=bool)


def classify_traps(frame: pd.DataFrame) -> pd.DataFrame:
    """The kind of each judged trap: the one rule behind ``trap_reasons`` (one query) and
    ``coreb_core.analysis.traps.wins`` (every query of a run), vectorised.

    ``frame`` has one row per (query, trap): the query's ``task``, ``subtask``, ``target_language``
    (None or "any" when unconstrained) and ``anchor_language``; the document's ``language``, ``model``,
    ``passed`` and ``is_noise``. Returns, on the same index: ``kind`` (one of ``TRAP_KINDS``),
    ``off_language`` (the document breaks the query's language rule), ``wanted_language`` (the
    language asked for: T2C constraint, C2C mono-language anchor) and ``anchor_language`` (the
    language a C2C cross-language query asks to leave), the last two only where ``off_language``.

    Rules, first match wins: C2T: a noise text is a noise description, any other a judged non-match;
    code: a solution that fails its tests is a failing solution (whatever its language), a correct one
    off the language rule a wrong-language solution, a correct C2C mono-language or cross-model one
    with a model an other-model solution, anything else not a positive.

    >>> frame = pd.DataFrame({"task": ["t2c", "t2c", "c2c", "c2t"],
    ...                       "subtask": ["t2c_search_python", "t2c_search_python", "c2c_cross_lang", "c2t_match"],
    ...                       "target_language": ["python", "python", "any", None],
    ...                       "anchor_language": [None, None, "python", "go"],
    ...                       "language": ["cpp", "python", "python", None],
    ...                       "model": ["m", "m", "m", None], "passed": [True, False, False, None],
    ...                       "is_noise": [False, False, False, False]})
    >>> classify_traps(frame).values.tolist()
    [['wrong_language', True, 'python', None], ['failing_solution', False, None, None],
     ['failing_solution', True, None, 'python'], ['judged_non_match', False, None, None]]
    """
    task = frame["task"].astype(object)
    language = frame["language"].astype(object)
    target = frame["target_language"].astype(object)
    target = target.where(target.notna() & (target != "any"))
    anchor = frame["anchor_language"].astype(object)
    subtask = frame["subtask"].astype(object).fillna("").astype(str)
    text = task.map(CORPUS_OF_TASK).eq("text").to_numpy()
    known = language.notna().to_numpy()
    # The language rule: T2C asks for its constraint; C2C mono-language for the anchor's language, the
    # other C2C subtasks (cross_lang, cross_model) for any other language than the anchor's.
    t2c_rule = (task.eq("t2c") & target.notna()).to_numpy() & known & ~text
    c2c_rule = (task.eq("c2c") & anchor.notna()).to_numpy() & known & ~text
    mono = subtask.str.endswith("mono_lang").to_numpy()
    lang, tgt, anc = language.to_numpy(), target.to_numpy(), anchor.to_numpy()
    wants_target = t2c_rule & (lang != tgt)
    wants_anchor = c2c_rule & mono & (lang != anc)
    leaves_anchor = c2c_rule & ~mono & (lang == anc)
    off = wants_target | wants_anchor | leaves_anchor
    noise = _flag(frame["is_noise"], True)
    failing = _flag(frame["passed"], False) & ~text
    other_model = (task.eq("c2c") & frame["model"].notna() & subtask.str.endswith(("mono_lang", "cross_model"))
                   ).to_numpy()
    kind = np.select([text & noise, text, failing, off, other_model],
                     [NOISE_DESCRIPTION, JUDGED_NON_MATCH, FAILING_SOLUTION, WRONG_LANGUAGE, OTHER_MODEL],
                     default=NOT_A_POSITIVE).astype(object)
    wanted = np.where(wants_target, tgt, np.where(wants_anchor, anc, None))
    # Object columns: a missing language stays None (pandas would otherwise infer strings and NaN).
    return pd.DataFrame({"kind": pd.Series(kind, index=frame.index, dtype=object), "off_language": off,
                         "wanted_language": pd.Series(wanted, index=frame.index, dtype=object),
                         "anchor_language": pd.Series(np.where(leaves_anchor, anc, None), index=frame.index,
                                                      dtype=object)}, index=frame.index)


def _int(value) -> int | None:
    value = none_if_missing(value)
    return None if value is None else int(value)


def trap_reasons(store: Store, details: QueryDetails) -> dict[str, TrapReason]:
    """Doc id -> why it is a trap of the query, for every trap (rel=1) the release judges for it
    (the kinds of ``classify_traps``).

    >>> from coreb_core.analysis.inspection import query_details
    >>> q = query_details(store, "q_t2c_canonical_retro_any_0001")  # demo_v2603
    >>> trap_reasons(store, q)["code_v202603_00090"].kind
    'failing_solution'
    """
    columns = ["doc_id", "doc_problem_id", "language", "model", "passed", "test_passed", "test_total", "is_noise"]
    rows = store.sql(f"""SELECT {', '.join(columns)} FROM judgments WHERE query_id = ? AND relevance = ?
                         ORDER BY doc_id""", [details.query_id, int(TRAP)]).fetchall()
    frame = pd.DataFrame(rows, columns=columns, dtype=object)
    facts = frame.assign(task=details.task, subtask=details.subtask, target_language=details.target_language,
                         anchor_language=details.anchor_language)
    kinds = classify_traps(facts)
    reasons = {}
    for doc, kind in zip(frame.itertuples(index=False), kinds.itertuples(index=False)):
        common = dict(doc_id=doc.doc_id, language=none_if_missing(doc.language), model=none_if_missing(doc.model),
                      problem_id=none_if_missing(doc.doc_problem_id))
        if kind.kind == FAILING_SOLUTION:
            reasons[doc.doc_id] = TrapReason(kind.kind, tests_passed=_int(doc.test_passed),
                                             tests_total=_int(doc.test_total), wanted_language=kind.wanted_language,
                                             anchor_language=kind.anchor_language,
                                             off_language=bool(kind.off_language), **common)
        elif kind.kind == WRONG_LANGUAGE:
            reasons[doc.doc_id] = TrapReason(kind.kind, wanted_language=kind.wanted_language,
                                             anchor_language=kind.anchor_language, off_language=True, **common)
        else:
            reasons[doc.doc_id] = TrapReason(kind.kind, **common)
    return reasons
