"""Table headers from one vocabulary: a column that means the same on every page is labelled once, here.

A page asks for the shared columns by name and adds its own: ``columns("run_label", "subtask", ndcg=...)``.
``col(name, width=...)`` changes one setting of a shared column for one table (its label stays the vocabulary's).
Pages add their own shared columns in their section below, so that parallel edits do not collide."""
from __future__ import annotations

from typing import Any, Callable, cast

import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig as Config  # what st.column_config.* returns

_TEXT, _NUMBER, _CHECK = st.column_config.TextColumn, st.column_config.NumberColumn, st.column_config.CheckboxColumn

VOCABULARY: dict[str, Callable[[], Config]] = {
    # ------------------------------------------------------------------ every page
    "run_label": lambda: _TEXT("Run", width="medium"),
    "label": lambda: _TEXT("Run", width="medium"),
    "task": lambda: _TEXT("Task", width="small"),
    "subtask": lambda: _TEXT("Subtask", width="medium"),
    "target_language": lambda: _TEXT("Language", width="small"),
    "query_id": lambda: _TEXT("Query", width="medium"),
    "query": lambda: _TEXT("Query text", width="large"),
    "doc_id": lambda: _TEXT("Document", width="medium"),
    "grade": lambda: _TEXT("Grade", width="small"),
    "why": lambda: _TEXT("Why a trap", width="medium"),
    "rank": lambda: _NUMBER("#", format="%d", width="small"),
    "queries": lambda: _NUMBER("Queries", format="%d", width="small"),
    "source": lambda: _TEXT("Source", width="medium"),
    "scheme": lambda: _TEXT("Scheme", width="small"),
    "first_positive_rank": lambda: _NUMBER("1st positive rank", format="%d", width="small"),
    "traps_above_first_positive": lambda: _NUMBER("Traps above 1st positive", format="%d", width="small"),
    "trap_at_1": lambda: _CHECK("Trap at 1", width="small"),
    # ------------------------------------------------------------------ trap analysis
    "kind_label": lambda: _TEXT("Trap kind", width="medium"),
    "trap_wins": lambda: _NUMBER("Trap wins", format="%d", width="small"),
    "share_of_wins": lambda: _NUMBER("Share of wins (%)", format="%.1f", width="small"),
    "judged": lambda: _NUMBER("Judged traps", format="%d", width="small"),
    # ------------------------------------------------------------------ compare
    "delta": lambda: _NUMBER("Δ ×100 (a − b)", format="%+.1f", width="small"),
    # ------------------------------------------------------------------ overview, deflation, selection, inspector
}


def col(name: str, **changes: Any) -> Config:
    """The shared column ``name``, with ``changes`` (e.g. a ``width``, a ``help``) for one table.

    >>> col("subtask")["label"], col("subtask", width=150)["width"]
    ('Subtask', 150)
    """
    config: dict[str, Any] = dict(VOCABULARY[name]())
    unknown = set(changes) - set(config) - {"format"}
    if unknown:
        raise TypeError(f"column setting(s) {sorted(unknown)} are not column_config settings")
    if "format" in changes:  # a number column's format lives in its type_config
        config["type_config"] = {**config["type_config"], "format": changes.pop("format")}
    return cast(Config, {**config, **changes})


def columns(*shared: str, **own: Config | None) -> dict[str, Config | None]:
    """A table's ``column_config``: the shared columns by name, then the table's own (which win on a clash).

    >>> sorted(columns("run_label", "subtask", score=None))
    ['run_label', 'score', 'subtask']
    """
    return {**{name: col(name) for name in shared}, **own}
