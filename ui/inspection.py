"""How the Query inspector prints what ``coreb_core.analysis.inspection`` returns: trap reasons in
words, where a document sits in the other runs, row colours by grade, and the way back to the page
the user came from."""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from coreb_core.data.schema import POSITIVE, TRAP
from ui.navigation import PAGE_SPECS, PageSpec

# The inspector's own URL keys: dropped when going back to the page that opened it.
INSPECTOR_KEYS = ("query", "doc", "view", "k", "shown", "from", "find", "subtask", "lang", "filter")

# Row colours by grade: light enough for dark text; the grade badge column carries the same in words.
ROW_COLOURS = {POSITIVE: "#d9f2d9", TRAP: "#ffe6b3"}
SELECTED_COLOUR = "#cfe2ff"


def row_colours(relevance: pd.Series, doc_ids: pd.Series, selected: str | None, width: int) -> pd.DataFrame:
    """CSS for each cell of a listing: green-ish positives, amber traps, blue the selected document.

    >>> row_colours(pd.Series([2.0, None]), pd.Series(["a", "b"]), "b", 1)[0].tolist()
    ['background-color: #d9f2d9; color: #111', 'background-color: #cfe2ff; color: #111']
    """
    styles = []
    for rel, doc in zip(relevance, doc_ids):
        colour = SELECTED_COLOUR if doc == selected else (None if pd.isna(rel) else ROW_COLOURS.get(int(rel)))
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
