"""The shared sidebar: release, scheme, runs, task and anchor exclusion, restored from and written to the URL."""
from __future__ import annotations

import streamlit as st

from coreb_core.data.store import list_releases
from coreb_core.defaults import default_release
from coreb_core.evaluation.schemes import C2T_LABEL0_NOTE, DESCRIPTIONS, SIDEBAR_SCHEMES, Scheme
from coreb_core.present.format import plain, without_release
from coreb_core.present.labels import TASK_LABELS
from ui.cache import runs_of, skipped_runs, store
from ui.jobs import note_ended_jobs, show_jobs
from ui.navigation import ensure_navigation
from ui.state import State, kept, stop_page, url_param, url_values, write_url
from ui.widgets import run_label

SKIPPED_SHOWN = 5  # bad run folders named in the sidebar; the rest are counted


def sidebar(multi_run: bool = True) -> State:
    """Release, scheme, runs, task and anchor exclusion, restored from and written to the URL.

    Example (skipped: a page run by Streamlit's test harness, which reads CoREB-mini and a BM25 run from the
    cache ``COREB_CACHE`` points at, as every page does):

    >>> from streamlit.testing.v1 import AppTest
    >>> at = AppTest.from_string("from ui.sidebar import sidebar\\nimport streamlit as st\\n"
    ...                          "state = sidebar()\\nst.write(state.release, str(state.scheme), state.task)")
    >>> at.query_params["release"], at.query_params["task"] = "demo_v2603", "c2t"
    >>> [m.value for m in at.run().markdown], at.sidebar.toggle[0].value, at.query_params["anchor"]   # doctest: +SKIP
    (['demo_v2603 v2 c2t'], True, '1')
    """
    ensure_navigation()
    releases = list_releases()
    if not releases:
        st.error("No release is cached. Run `python -m coreb_core demo` or import one on the Run retrieval page.")
        stop_page()
    ss = st.session_state
    if "release" not in ss or ss.release not in releases:
        wanted = url_param("release", default_release(releases))
        ss.release = wanted if wanted in releases else default_release(releases)
    release = st.sidebar.selectbox("Release", releases, key=kept("release"))
    note_ended_jobs()  # a background run that ended since the last look: listed below, and chosen if ours
    runs = runs_of(release)
    show_jobs({r: run_label(m) for r, m in runs.items()})  # near the top: a running job is seen without scrolling
    schemes = [*SIDEBAR_SCHEMES, *(f"file:{n}" for n in store(release).extra_qrels)]
    if "scheme" not in ss or ss.scheme not in schemes:
        wanted = url_param("scheme", "v2")
        ss.scheme = wanted if wanted in schemes else "v2"
    help_text = "\n\n".join(f"**{s}**: {DESCRIPTIONS[Scheme.parse(s).name]}" for s in schemes)
    scheme = st.sidebar.radio("Scheme", schemes, key=kept("scheme"), help=help_text, horizontal=True)
    skipped = skipped_runs()  # a bad folder is left out, never fatal: every page (Run retrieval too) still works
    for bad in skipped[:SKIPPED_SHOWN]:
        st.sidebar.warning(plain(f"Skipped run folder {bad.folder}: {bad.reason}"))
    if len(skipped) > SKIPPED_SHOWN:
        st.sidebar.warning(f"… and {len(skipped) - SKIPPED_SHOWN} more folders that are not runs "
                           "(`python -m coreb_core runs list` names them all).")
    if "runs" not in ss or not set(ss.runs) <= set(runs):
        from_url = [r for r in url_values("runs") if r in runs]
        ss.runs = from_url or list(runs)[-3:]
    # The release is chosen just above: the chips leave out its " · <release>" (they cut longer names at 1280 px).
    run_ids = st.sidebar.multiselect("Runs", list(runs), key=kept("runs"),
                                     format_func=lambda r: without_release(run_label(runs[r]), release),
                                     help=f"Stored runs of {release} (newest last), named here without "
                                          f"\" · {release}\". Add more on Run retrieval.")
    if "task" not in ss:
        wanted = url_param("task", "t2c")
        ss.task = wanted if wanted in TASK_LABELS else "t2c"
    task = st.sidebar.selectbox("Task", list(TASK_LABELS), key=kept("task"), format_func=lambda t: TASK_LABELS[t])
    if "anchor" not in ss:
        ss.anchor = url_param("anchor", "1") != "0"
    anchor = st.sidebar.toggle("C2C anchor exclusion", key=kept("anchor"),
                               help="As the official runner: drop each C2C query's anchor from its ranked list "
                                    "(MTEB keeps it). Documents below it move up one rank.")
    st.sidebar.caption(C2T_LABEL0_NOTE)
    write_url({"release": release, "scheme": scheme, "task": task, "anchor": "1" if anchor else "0",
               "runs": list(run_ids)})
    return State(release, Scheme.parse(scheme), list(run_ids), task, anchor)
