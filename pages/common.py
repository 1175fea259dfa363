"""Shared sidebar state (kept in the URL) and cached data for every page. UI glue only: every
number comes from coreb_core."""
from __future__ import annotations

from typing import NamedTuple

import pandas as pd
import streamlit as st

from coreb_core.evaluate import analyse_many, load_hits
from coreb_core.paths import release_dir
from coreb_core.runs import list_runs, run_name
from coreb_core.schemes import C2T_LABEL0_NOTE, DESCRIPTIONS, V1, V2, Scheme
from coreb_core.store import Store, list_releases

class PageSpec(NamedTuple):
    """One page of the app: app.py builds st.navigation from these; tests and benches read them too."""

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
    PageSpec("pages/run_retrieval.py", "Run retrieval", ":material/play_arrow:", "run"),
    PageSpec("pages/data.py", "Data", ":material/database:", "data"),
]

TASK_LABELS = {"t2c": "Text → code (T2C)", "c2c": "Code → code (C2C)", "c2t": "Code → text (C2T)"}
GROUPINGS = ("task", "subtask", "language", "anchor_language", "problem")


class State(NamedTuple):
    release: str
    scheme: Scheme
    run_ids: list[str]
    task: str
    anchor_exclusion: bool


@st.cache_resource(show_spinner=False)
def _store(release: str, version: str) -> Store:
    return Store(release)


def store(release: str) -> Store:
    """One Store per release version (a re-import swaps the version and so the cache entry)."""
    return _store(release, str(release_dir(release).resolve()))


def runs_of(release: str) -> dict[str, dict]:
    """run_id -> provenance, newest last. Read fresh on every render: new runs appear at once."""
    return {m["run_id"]: m for m in sorted(list_runs(release), key=lambda m: m.get("created", ""))}


def run_label(meta: dict) -> str:
    when = str(meta.get("created", ""))[5:16].replace("T", " ")
    kind = "" if meta.get("kind") in (None, "retrieval") else f" ({meta['kind']})"
    return f"{run_name(meta)}{kind} · {when} · …{meta['run_id'][-6:]}"


@st.cache_resource(show_spinner=False, max_entries=32)
def _hits(run_id: str, folder: str) -> pd.DataFrame:
    return load_hits(run_id)


def hits(run_id: str) -> pd.DataFrame:
    """A run's stored hits, read once per server and shared read-only (runs are written once, atomically)."""
    from coreb_core.runs import run_path

    return _hits(run_id, str(run_path(run_id)))


@st.cache_data(show_spinner="Scoring runs…", max_entries=32)
def tables(release: str, version: str, run_ids: tuple[str, ...], scheme: str, anchor_exclusion: bool
           ) -> dict[str, pd.DataFrame]:
    """analyse_many for the chosen runs: per-query metrics under the scheme and v1/v2, traps, groupings."""
    schemes = tuple(dict.fromkeys([Scheme.parse(scheme), V2, V1]))
    return analyse_many(store(release), {rid: hits(rid) for rid in run_ids}, schemes, anchor_exclusion, traps=True,
                        groupings=GROUPINGS)


def run_tables(state: State) -> dict[str, pd.DataFrame]:
    return tables(state.release, str(release_dir(state.release).resolve()), tuple(state.run_ids), str(state.scheme),
                  state.anchor_exclusion)


def _ensure_navigation() -> None:
    """Hand a page over to app.py when Streamlit ran it on its own.

    With a ``pages/`` folder beside app.py, a fresh server treats the first deep link (say
    ``/inspector``) the legacy multipage way and runs the page file directly, skipping app.py and
    its ``st.navigation`` (Streamlit resets this once ``st.navigation`` has run). Running app.py here
    registers the navigation and renders the requested page through it; this run then stops."""
    from pathlib import Path

    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        import runpy

        runpy.run_path(str(Path(__file__).resolve().parent.parent / "app.py"), run_name="__main__")
        st.stop()


def _param(name: str, default):
    value = st.query_params.get(name)
    return default if value is None else value


def sidebar(multi_run: bool = True) -> State:
    """Release, scheme, runs, task and anchor exclusion, restored from and written to the URL."""
    _ensure_navigation()
    releases = list_releases()
    if not releases:
        st.error("No release is cached. Run `python -m coreb_core demo` or import one on the Run retrieval page.")
        st.stop()
    ss = st.session_state
    if "release" not in ss or ss.release not in releases:
        wanted = _param("release", "demo_v2603")
        ss.release = wanted if wanted in releases else releases[-1]
    release = st.sidebar.selectbox("Release", releases, key="release")
    schemes = ["v2", "v1", "traps_as_hits", "trec"] + [f"file:{n}" for n in store(release).extra_qrels]
    if "scheme" not in ss or ss.scheme not in schemes:
        wanted = _param("scheme", "v2")
        ss.scheme = wanted if wanted in schemes else "v2"
    help_text = "\n\n".join(f"**{s}**: {DESCRIPTIONS[Scheme.parse(s).name]}" for s in schemes)
    scheme = st.sidebar.radio("Scheme", schemes, key="scheme", help=help_text, horizontal=True)
    runs = runs_of(release)
    if "runs" not in ss or not set(ss.runs) <= set(runs):
        wanted = [r for r in st.query_params.get_all("runs") if r in runs]
        ss.runs = wanted or list(runs)[-3:]
    run_ids = st.sidebar.multiselect("Runs", list(runs), key="runs", format_func=lambda r: run_label(runs[r]),
                                     help="Stored runs of this release (newest last). Add more on Run retrieval.")
    if "task" not in ss:
        wanted = _param("task", "t2c")
        ss.task = wanted if wanted in TASK_LABELS else "t2c"
    task = st.sidebar.selectbox("Task", list(TASK_LABELS), key="task", format_func=TASK_LABELS.get)
    if "anchor" not in ss:
        ss.anchor = _param("anchor", "1") != "0"
    anchor = st.sidebar.toggle("C2C anchor exclusion", key="anchor",
                               help="As the official runner: drop each C2C query's anchor from its ranked list "
                                    "(MTEB keeps it). Documents below it move up one rank.")
    st.sidebar.caption(C2T_LABEL0_NOTE)
    params = {"release": release, "scheme": scheme, "task": task, "anchor": "1" if anchor else "0", "runs": run_ids}
    keep = {k: v for k, v in st.query_params.to_dict().items() if k not in params and k != "runs"}
    st.query_params.from_dict({**keep, **params})
    return State(release, Scheme.parse(scheme), list(run_ids), task, anchor)


def show_error(exc: BaseException) -> None:
    """An error the user caused, one box per line, its text shown literally (ids and paths may hold
    Markdown characters)."""
    from coreb_core.console import plain

    for line in str(exc).splitlines() or [type(exc).__name__]:
        st.error(plain(line))


def open_inspector(state: State, query_id: str) -> None:
    st.switch_page("pages/inspector.py", query_params={
        "release": state.release, "scheme": str(state.scheme), "task": state.task, "runs": state.run_ids,
        "anchor": "1" if state.anchor_exclusion else "0", "query": query_id})


def csv_download(frame: pd.DataFrame, name: str, label: str = "Download CSV") -> None:
    st.download_button(label, frame.to_csv(index=False).encode("utf-8"), file_name=f"{name}.csv", mime="text/csv",
                       key=f"csv-{name}")


def provenance(state: State, extra: str = "") -> str:
    """The one-line caption every number on a page carries."""
    anchor = "C2C anchor excluded" if state.anchor_exclusion else "C2C anchor kept"
    return f"Source: our runs on `{state.release}` · scheme `{state.scheme}` · {anchor}{' · ' + extra if extra else ''}"
