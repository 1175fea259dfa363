"""A compact form to judge one (query, document) pair of a release: grade 0/1/2, annotator, note, Save. Drawn as a
fragment, so saving reruns the form alone, not the page. A refusal is one error line (``show_error``); the pair's
judgments so far and, where two annotators judged it, their agreement are shown under the form.

The judgments themselves are ``coreb_core.data.judgments``; this module only draws them."""
from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st

from coreb_core.data.judgments import GRADE_WORDS, Agreement, agreement, judge, judgment_table
from coreb_core.data.schema import GRADES
from coreb_core.errors import CorebError
from coreb_core.present.format import plain
from ui.cache import store
from ui.widgets import show_error

ANNOTATOR_KEY = "judging_annotator"  # the last name saved with, offered again on every form of the session
PAIR_COLUMNS = {"judged_at": "When (UTC)", "annotator": "Annotator", "grade": "Grade", "note": "Note",
                "status": "Status"}


def grade_label(grade: int) -> str:
    """A grade as the form's radio shows it.

    >>> [grade_label(g) for g in (0, 1, 2)]
    ['0 · not relevant', '1 · trap or partial', '2 · relevant']
    """
    return f"{grade} · {GRADE_WORDS[grade]}"


def form_key(release: str, query_id: str, doc_id: str) -> str:
    """The widget keys' suffix of one pair's form: short, and the same for the same pair (ids may hold any character).

    >>> form_key("demo_v2603", "q1", "d1") == form_key("demo_v2603", "q1", "d1") != form_key("demo_v2603", "q1", "d2")
    True
    """
    return hashlib.sha256("\x00".join((release, query_id, doc_id)).encode("utf-8", "surrogatepass")).hexdigest()[:12]


def pair_rows(table: pd.DataFrame, query_id: str, doc_id: str) -> pd.DataFrame:
    """The judgments of one pair from ``judgment_table``, newest first, with the form's column names.

    >>> table = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["d1", "d1", "d1"], "grade": [2, 1, 0],
    ...                       "annotator": ["ada", "bob", "ada"], "note": [None, "close", None], "status": ["superseded",
    ...                       "applied", "applied"], "judged_at": pd.to_datetime(["2026-12-06 10:00", "2026-12-06 11:00",
    ...                       "2026-12-06 12:00"])})
    >>> pair_rows(table, "q1", "d1")[["Annotator", "Grade", "Status"]].to_dict("records")
    [{'Annotator': 'bob', 'Grade': '1 · trap or partial', 'Status': 'applied'}, {'Annotator': 'ada', 'Grade': '2 · relevant', 'Status': 'superseded'}]
    """
    rows = table[(table["query_id"] == query_id) & (table["doc_id"] == doc_id)].iloc[::-1]
    shown = rows.assign(judged_at=pd.to_datetime(rows["judged_at"]).dt.strftime("%Y-%m-%d %H:%M"),
                        grade=rows["grade"].map(lambda g: grade_label(int(g))),
                        note=rows["note"].map(lambda n: n if isinstance(n, str) else ""))
    return shown[list(PAIR_COLUMNS)].rename(columns=PAIR_COLUMNS).reset_index(drop=True)


def pair_agreements(agreements: list[Agreement], annotators: set[str]) -> list[Agreement]:
    """The agreements between annotators of whom at least two judged this pair.

    >>> pair_agreements([Agreement("ada", "bob", 3, 1.0, 1.0), Agreement("ada", "cy", 2, 0.5, 0.0)], {"ada", "bob"})
    [Agreement(annotator_a='ada', annotator_b='bob', pairs=3, observed=1.0, kappa=1.0)]
    """
    return [a for a in agreements if a.annotator_a in annotators and a.annotator_b in annotators]


@st.fragment
def judgment_form(release: str, query_id: str, doc_id: str) -> None:
    """Draw the form for (query, document) of ``release``, the pair's judgments and its annotators' agreement.

    Outside a page Streamlit draws nothing, so the example shows only the call:

    >>> judgment_form("demo_v2603", "q_t2c_canonical_retro_any_0001", "code_v202603_00018")   # doctest: +SKIP
    """
    ss, key = st.session_state, form_key(release, query_id, doc_id)
    with st.form(f"judge_form_{key}", border=True):
        st.markdown("**Your judgment of this pair**")
        grade = st.radio("Grade", GRADES, index=None, format_func=grade_label, horizontal=True, key=f"judge_grade_{key}")
        left, right = st.columns([1, 2])
        annotator = left.text_input("Annotator", value=ss.get(ANNOTATOR_KEY, ""), max_chars=64,
                                    placeholder="your name or initials", key=f"judge_annotator_{key}")
        note = right.text_area("Note (optional)", max_chars=2000, height=68, placeholder="why",
                               key=f"judge_note_{key}")
        saved = st.form_submit_button("Save judgment")
    if saved:
        try:
            if grade is None:
                raise CorebError("grade: choose 0, 1 or 2")
            made = judge(release, query_id, doc_id, grade, annotator, note.replace("\r\n", "\n") or None)
        except CorebError as exc:
            show_error(exc)
        else:
            ss[ANNOTATOR_KEY] = made.annotator
            st.success(plain(f"Saved: {grade_label(made.grade)} by {made.annotator} (judgment {made.id}). "
                             "Scores under the judged scheme use it from the next page load."))
    try:
        rows = pair_rows(judgment_table(store(release)), query_id, doc_id)
        if rows.empty:
            st.caption("No judgment of this pair yet.")
            return
        st.dataframe(rows, hide_index=True, width="stretch")
        for line in pair_agreements(agreement(release), set(rows["Annotator"])):
            st.caption(plain(f"Agreement of {line.line()}"))
    except CorebError as exc:
        show_error(exc)
