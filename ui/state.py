"""What the sidebar chose (``State``), and the one way pages keep widget state in the URL: read a
parameter (``url_param``, ``url_values``, ``url_list``, ``url_float``) to seed a widget, then ``write_url`` what the
widgets now hold, so a link reopens the page as it was."""
from __future__ import annotations

from typing import Iterable, Mapping, NamedTuple, Sequence

import streamlit as st

from coreb_core.evaluation.schemes import Scheme


class State(NamedTuple):
    """What the sidebar chose: release, scoring scheme, runs, task and whether the C2C anchor is dropped.

    >>> State("demo_v2603", Scheme.parse("v2"), ["r1"], "t2c", anchor_exclusion=True).scheme.name
    'v2'
    """
    release: str
    scheme: Scheme
    run_ids: list[str]
    task: str
    anchor_exclusion: bool


def url_param(name: str, default: str | None = None) -> str | None:
    """A URL parameter's (last) value, or ``default`` when absent.

    Example (outside a page, Streamlit keeps the parameters in memory; not doctested):

    >>> st.query_params["runs"] = ["a", "b"]
    >>> url_param("runs"), url_param("task", "t2c")
    ('b', 't2c')
    """
    value = st.query_params.get(name)
    return default if value is None else value


def url_values(name: str) -> list[str]:
    """Every value of a repeated URL parameter (``runs=a&runs=b``).

    Example (outside a page; not doctested):

    >>> st.query_params["runs"] = ["a", "b"]
    >>> url_values("runs")
    ['a', 'b']
    """
    return list(st.query_params.get_all(name))


def url_list(name: str, allowed: Sequence[str]) -> list[str]:
    """A comma-separated URL parameter restricted to ``allowed``; every allowed value when it names none.

    Example (outside a page; not doctested):

    >>> st.query_params["tasks"] = "t2c,zzz,c2t"
    >>> url_list("tasks", ["t2c", "c2c", "c2t"]), url_list("absent", ["t2c", "c2c"])
    (['t2c', 'c2t'], ['t2c', 'c2c'])
    """
    values = [v for v in (st.query_params.get(name) or "").split(",") if v in allowed]
    return values or list(allowed)


def url_float(name: str) -> float | None:
    """A non-negative number from the URL, or None (absent, not a number, or negative).

    Example (outside a page; not doctested):

    >>> st.query_params["k"] = "2.5"
    >>> url_float("k"), url_float("absent")
    (2.5, None)
    """
    try:
        value = float(st.query_params.get(name, ""))
    except ValueError:
        return None
    return value if value >= 0 else None


def write_url(params: Mapping[str, str | list[str] | None], owned: Iterable[str] = ()) -> None:
    """Put ``params`` in the URL (a list gives a repeated key; None or "" leaves the key out), drop the
    ``owned`` keys it does not set, and keep every other page's keys as they are.

    Example (outside a page; not doctested):

    >>> st.query_params.from_dict({"runs": ["a", "b"], "k": "2.5"})
    >>> write_url({"release": "demo_v2603", "scheme": None}, owned=["k"])
    >>> st.query_params.to_dict(), url_values("runs")
    ({'runs': 'b', 'release': 'demo_v2603'}, ['a', 'b'])
    """
    drop = set(params) | set(owned)
    keep = {}
    for key in list(st.query_params):
        if key not in drop:
            values = st.query_params.get_all(key)
            keep[key] = values if len(values) > 1 else values[0] if values else ""
    st.query_params.from_dict({**keep, **{k: v for k, v in params.items() if v is not None and v != ""}})
