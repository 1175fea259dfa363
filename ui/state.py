"""What the sidebar chose (``State``), and the one way widget state holds while the user moves around.

Two mechanisms, one per way of moving:
- within a session (the sidebar menu, links from rows, back/forward): Streamlit forgets a widget's
  value when a run does not draw it, which is what happens on every page change. ``kept(key)``
  registers a widget key; ``keep_widget_state`` (called by app.py at the top of every run) writes each
  registered key's value back into Session State, which Streamlit documents as the way to stop that
  clean-up. Pages and the sidebar seed a widget only when its key is absent.
- across sessions (reload, a copied URL): read a parameter (``url_param``, ``url_values``, ``url_list``,
  ``url_float``) to seed a widget, then ``write_url`` what the widgets now hold, so a link reopens the
  page as it was. The URL seeds a session; after that the session's own values win."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, NamedTuple, NoReturn, Sequence

import streamlit as st

if TYPE_CHECKING:  # app.py imports this module before st.navigation: keep it light (no numpy)
    from coreb_core.evaluation.schemes import Scheme


class State(NamedTuple):
    """What the sidebar chose: release, scoring scheme, runs, task and whether the C2C anchor is dropped.

    >>> from coreb_core.evaluation.schemes import Scheme
    >>> State("demo_v2603", Scheme.parse("v2"), ["r1"], "t2c", anchor_exclusion=True).scheme.name
    'v2'
    """
    release: str
    scheme: Scheme
    run_ids: list[str]
    task: str
    anchor_exclusion: bool


_KEPT = "_kept_widget_keys"


def kept(key: str) -> str:
    """Register a widget key whose value must survive page changes; returns the key, for ``key=kept(…)``.

    Example (outside a page Streamlit keeps Session State in memory but draws no widget, so the widget line is
    skipped):

    >>> kept("compare_metric"), "compare_metric" in st.session_state[_KEPT]
    ('compare_metric', True)
    >>> st.selectbox("Metric", ["ndcg", "recall"], key=kept("compare_metric"))   # doctest: +SKIP
    'ndcg'
    """
    st.session_state.setdefault(_KEPT, set()).add(key)
    return key


def keep_widget_state() -> None:
    """Write every ``kept`` key's value back into Session State. app.py calls this at the top of every
    run, before the page: a page change then finds the values the user chose on every page.

    Example (outside a page, Streamlit keeps Session State in memory):

    >>> st.session_state["compare_metric"] = "recall"; _ = kept("compare_metric"); keep_widget_state()
    >>> st.session_state["compare_metric"]
    'recall'
    """
    ss = st.session_state
    for key in sorted(ss.get(_KEPT, ())):
        if key in ss:
            ss[key] = ss[key]


def remembered(key: str, url_name: str, parse: Callable[[list[str]], Any], default: Any = None,
               allowed: Sequence[Any] | None = None) -> str:
    """A page-level widget key that survives page changes (``kept``) and, in a new session, starts from
    the URL parameter ``url_name`` (``parse`` turns its values into the widget's value, or None to
    ignore them), else from ``default``. Returns the key, for ``key=remembered(…)``; give the widget no
    ``value=``/``default=`` of its own (Session State seeds it). With ``allowed`` (the widget's options),
    a kept value that is no longer among them (e.g. after the release changed) is dropped and seeded
    again. The page then ``write_url``s the value.

    Example (outside a page Streamlit keeps Session State and the parameters in memory but draws no widget,
    so the widget line is skipped):

    >>> st.query_params["metric"] = "recall"
    >>> key = remembered("remembered_metric", "metric", one_of(["ndcg", "recall"]))
    >>> key, st.session_state[key]
    ('remembered_metric', 'recall')
    >>> st.selectbox("Metric", ["ndcg", "recall"], key=key)   # doctest: +SKIP
    'recall'
    """
    ss = st.session_state
    kept(key)
    if key in ss and allowed is not None:
        values = ss[key] if isinstance(ss[key], list) else [ss[key]]
        if not all(v in allowed for v in values):
            del ss[key]
    if key not in ss:
        raw = url_values(url_name)
        value = parse(raw) if raw else None
        value = default if value is None else value
        if value is not None:
            ss[key] = value
    return key


def one_of(options: Sequence[Any]) -> Callable[[list[str]], Any]:
    """A ``remembered`` parser: the URL's last value when it names one of ``options`` (compared as text).

    >>> one_of([1, 3, 10])(["10"]), one_of(["a"])(["zzz"])
    (10, None)
    """
    by_text = {str(o): o for o in options}
    return lambda raw: by_text.get(raw[-1])


def some_of(options: Sequence[Any]) -> Callable[[list[str]], Any]:
    """A ``remembered`` parser for multi-selects: the URL's values that name options (comma lists too).

    >>> some_of(["t2c", "c2c", "c2t"])(["t2c,zzz", "c2t"]), some_of(["a"])(["b"])
    (['t2c', 'c2t'], None)
    """
    by_text = {str(o): o for o in options}
    found = lambda raw: [by_text[v] for part in raw for v in part.split(",") if v in by_text]  # noqa: E731
    return lambda raw: found(raw) or None


def flag(raw: list[str]) -> bool | None:
    """A ``remembered`` parser for toggles: "1" / "0" (anything else is ignored).

    >>> flag(["1"]), flag(["0"]), flag(["yes"])
    (True, False, None)
    """
    return {"1": True, "0": False}.get(raw[-1])


def url_param(name: str, default: str | None = None) -> str | None:
    """A URL parameter's (last) value, or ``default`` when absent.

    Example (outside a page, Streamlit keeps the parameters in memory):

    >>> st.query_params["runs"] = ["a", "b"]
    >>> url_param("runs"), url_param("task", "t2c")
    ('b', 't2c')
    """
    values = url_values(name)
    return values[-1] if values else default


def url_values(name: str) -> list[str]:
    """Every value of a repeated URL parameter (``runs=a&runs=b``).

    Example (outside a page, Streamlit keeps the parameters in memory):

    >>> st.query_params["runs"] = ["a", "b"]
    >>> url_values("runs")
    ['a', 'b']
    """
    buffered = st.session_state.get(URL_BUFFER)
    return list(buffered.get(name, [])) if buffered is not None else list(st.query_params.get_all(name))


def url_list(name: str, allowed: Sequence[str]) -> list[str]:
    """A comma-separated URL parameter restricted to ``allowed``; every allowed value when it names none.

    Example (outside a page, Streamlit keeps the parameters in memory):

    >>> st.query_params["tasks"] = "t2c,zzz,c2t"
    >>> url_list("tasks", ["t2c", "c2c", "c2t"]), url_list("absent", ["t2c", "c2c"])
    (['t2c', 'c2t'], ['t2c', 'c2c'])
    """
    values = [v for v in (url_param(name) or "").split(",") if v in allowed]
    return values or list(allowed)


def url_float(name: str) -> float | None:
    """A non-negative number from the URL, or None (absent, not a number, or negative).

    Example (outside a page, Streamlit keeps the parameters in memory):

    >>> st.query_params["k"] = "2.5"
    >>> url_float("k"), url_float("absent")
    (2.5, None)
    """
    try:
        value = float(url_param(name, "") or "")
    except ValueError:
        return None
    return value if value >= 0 else None


URL_BUFFER = "_url_buffer"  # this run's URL parameters, while app.py collects them (buffer_url)
URL_WRITTEN = "_url_written"  # the keys this run's write_url calls named (flush_url keeps only these)
# The sidebar's keys lead every URL, in this order; page keys follow by name.
URL_ORDER = {k: i for i, k in enumerate(("release", "scheme", "task", "anchor", "runs"))}


def write_url(params: Mapping[str, str | list[str] | None], owned: Iterable[str] = ()) -> None:
    """Put ``params`` in the URL (a list gives a repeated key; None or "" leaves the key out), drop the
    ``owned`` keys it does not set, and keep every other page's keys as they are.

    Example (outside a page, Streamlit keeps the parameters in memory):

    >>> st.query_params.from_dict({"runs": ["a", "b"], "k": "2.5"})
    >>> write_url({"release": "demo_v2603", "scheme": None}, owned=["k"])
    >>> st.query_params.to_dict(), url_values("runs")
    ({'release': 'demo_v2603', 'runs': 'b'}, ['a', 'b'])
    """
    drop = set(params) | set(owned)
    keep_url(drop)  # this run named them: flush_url keeps them (or drops them, when unset)
    current = url_params()
    merged = {k: v for k, v in current.items() if k not in drop}
    merged.update({k: v if isinstance(v, list) else [v] for k, v in params.items() if v is not None and v != ""})
    # One order for the keys (the sidebar's first, the rest by name): the same state is the same URL.
    ordered = {k: merged[k] for k in sorted(merged, key=lambda k: (URL_ORDER.get(k, len(URL_ORDER)), k)) if merged[k]}
    if st.session_state.get(URL_BUFFER) is not None:
        st.session_state[URL_BUFFER] = ordered  # app.py writes it once, at the end of the run (flush_url)
    else:
        _write(ordered)


def keep_url(keys: Iterable[str]) -> None:
    """Keep ``keys`` in this run's URL as they are (``flush_url`` keeps only the keys a run wrote): the inspector
    keeps the page it was opened from (``from``) and that page's keys, for its Back button.

    Example (outside a page, nothing is collected: nothing to keep):

    >>> keep_url(["from"])
    """
    if st.session_state.get(URL_BUFFER) is not None:
        st.session_state[URL_WRITTEN] = st.session_state.get(URL_WRITTEN, set()) | set(keys)


def url_params() -> dict[str, list[str]]:
    """The URL's parameters as this run has set them so far (key -> values).

    Example (outside a page, Streamlit keeps the parameters in memory):

    >>> st.query_params.from_dict({"runs": ["a", "b"]}); url_params()
    {'runs': ['a', 'b']}
    """
    buffered = st.session_state.get(URL_BUFFER)
    if buffered is not None:
        return {k: list(v) for k, v in buffered.items()}
    return {key: st.query_params.get_all(key) for key in st.query_params}


def _write(params: dict[str, list[str]]) -> None:
    current = {key: st.query_params.get_all(key) for key in st.query_params}
    if list(params.items()) != list(current.items()):  # a different query string is a new history entry
        st.query_params.from_dict({k: v if len(v) > 1 else v[0] for k, v in params.items()})


def buffer_url() -> None:
    """From now until ``flush_url``, ``write_url`` collects the parameters instead of writing them: app.py
    calls this before a page runs. Streamlit adds a browser history entry for every change of the query
    string, and the sidebar and a page write theirs in several steps (3-6 entries a page visit; Back
    seemed dead); one write per run leaves one entry per visit."""
    st.session_state[URL_BUFFER] = None  # a run stopped by an exception may have left its own
    st.session_state[URL_BUFFER] = url_params()
    st.session_state[URL_WRITTEN] = set()


def flush_url() -> dict[str, list[str]]:
    """Write the parameters ``write_url`` collected in this run, once (nothing when they did not change), and
    return them. Only the sidebar's keys and those this run wrote are kept: another page's keys (its widgets
    keep their values in the session anyway) made a copied link about 1,500 characters long (issue 34) and
    would restore state the link's reader never saw."""
    buffered = st.session_state.get(URL_BUFFER)
    written = st.session_state.get(URL_WRITTEN, set())
    st.session_state[URL_BUFFER] = None
    if buffered is None:
        return url_params()
    kept = {k: v for k, v in buffered.items() if k in URL_ORDER or k in written}
    _write(kept)
    return kept


PAGE_URLS = "_page_urls"  # url_path -> the page's own URL keys as it last wrote them in this session


def menu_links(written: Mapping[str, list[str]], current: str, targets: Iterable[str]) -> dict[str, dict]:
    """Each menu link's parameters: the sidebar's keys as this run wrote them (``written``, from ``flush_url``) and
    the target page's own keys as that page last wrote them in this session (``current``'s are in ``written``), so
    that a revisit lands on the page's URL as it left it (one history entry) while no page carries another's.

    Example (outside a page Streamlit keeps Session State in memory):

    >>> links = menu_links({"release": ["r"], "measure": ["m"]}, "traps", ["traps", "data"])
    >>> links["traps"], links["data"]
    ({'release': 'r', 'measure': 'm'}, {'release': 'r'})
    """
    own = st.session_state.setdefault(PAGE_URLS, {})
    own[current] = {k: v for k, v in written.items() if k not in URL_ORDER and v}
    shared = {k: v for k, v in written.items() if k in URL_ORDER and v}
    return {t: {k: (v[0] if len(v) == 1 else v) for k, v in {**shared, **own.get(t, {})}.items()} for t in targets}


class PageStopped(Exception):
    """A page ended early (``stop_page``); app.py catches it and still writes the URL and draws the menu."""


def stop_page() -> NoReturn:
    """End the page's run here, as ``st.stop()`` does, but so that app.py still writes the page's URL state
    and draws the menu: after ``st.stop()`` Streamlit drops whatever the run sends. A page run alone (in a
    test) stops with ``st.stop()``."""
    if st.session_state.get(URL_BUFFER) is not None:
        raise PageStopped
    st.stop()


def drop_url_buffer() -> None:
    """Forget this run's collected parameters (before ``st.switch_page``, which sets the next page's own)."""
    st.session_state[URL_BUFFER] = None
