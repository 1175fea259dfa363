"""The app's pages and how a page reaches another. app.py builds ``st.navigation`` from ``PAGE_SPECS``."""
from __future__ import annotations

import inspect
from pathlib import Path
from typing import NamedTuple

import streamlit as st

from ui.state import State, drop_url_buffer, url_params


class PageSpec(NamedTuple):
    """One page of the app: app.py builds st.navigation from these; tests and benches read them too.

    >>> [(p.url_path, p.default) for p in PAGE_SPECS[:2]]
    [('overview', True), ('inspector', False)]
    """

    script: str
    title: str
    icon: str
    url_path: str
    default: bool = False


PAGE_SPECS = [
    PageSpec("pages/overview.py", "Overview", ":material/leaderboard:", "overview", default=True),
    PageSpec("pages/inspector.py", "Query inspector", ":material/search:", "inspector"),
    PageSpec("pages/traps.py", "Trap analysis", ":material/warning:", "traps"),
    PageSpec("pages/deflation.py", "Qrel deflation", ":material/trending_down:", "deflation"),
    PageSpec("pages/compare.py", "Compare runs", ":material/compare_arrows:", "compare"),
    PageSpec("pages/selection.py", "Model selection", ":material/recommend:", "selection"),
    PageSpec("pages/training.py", "Training data", ":material/model_training:", "training"),
    PageSpec("pages/run_retrieval.py", "Run retrieval", ":material/play_arrow:", "run"),
    PageSpec("pages/data.py", "Data", ":material/database:", "data"),
]


def ensure_navigation() -> None:
    """Hand a page over to app.py when Streamlit ran it on its own.

    Still forced by Streamlit 1.67.0: ``PagesManager`` sets ``uses_pages_directory`` when a folder named
    ``pages/`` sits beside the main script, and until some run has called ``st.navigation`` (which
    clears the flag for the whole process) ``ScriptRunner`` runs ``_mpa_v1`` instead of app.py: the
    legacy multipage mode, which serves a deep link such as ``/inspector`` by running
    ``pages/inspector.py`` alone, without app.py's navigation. The project layout keeps the folder name
    ``pages/``, so the first deep link to a fresh server lands here; running app.py registers the
    navigation and renders the requested page through it, and this run stops.

    Outside a legacy multipage run (here, or under app.py) it does nothing:

    >>> ensure_navigation()
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        import runpy

        runpy.run_path(str(Path(__file__).resolve().parent.parent / "app.py"), run_name="__main__")
        st.stop()


def open_inspector(state: State, query_id: str, origin: str | None = None) -> None:
    """Switch to the Query inspector on ``query_id``, carrying the sidebar's choices and the calling
    page's own URL parameters, plus ``from`` = ``origin`` (default: the url_path of the page script
    calling this), so the inspector's "Back" button returns there as it was.

    It needs a running page (outside one Streamlit raises NoSessionContext), so the call is skipped:

    >>> from coreb_core.evaluation.schemes import V2
    >>> state = State("demo_v2603", V2, [], "t2c", anchor_exclusion=True)
    >>> open_inspector(state, "q_t2c_canonical_retro_any_0001")   # doctest: +SKIP
    """
    if origin is None:
        # Cheaper than inspect.stack(), which reads the source of every frame.
        frame = inspect.currentframe()
        caller_frame = frame.f_back if frame is not None else None
        caller = Path(caller_frame.f_code.co_filename if caller_frame is not None else "").resolve()
        origin = next((p.url_path for p in PAGE_SPECS if caller.as_posix().endswith(p.script)), None)
    # A document chosen on an earlier visit belongs to that query, not to this one.
    carried = {k: (v[0] if len(v) == 1 else v) for k, v in url_params().items() if k not in ("doc", "from") and v}
    drop_url_buffer()  # the inspector's parameters are these, not what this run collected
    st.switch_page("pages/inspector.py", query_params={**carried,
        "release": state.release, "scheme": str(state.scheme), "task": state.task, "runs": state.run_ids,
        "anchor": "1" if state.anchor_exclusion else "0", "query": query_id, **({"from": origin} if origin else {})})
