"""Small widgets every page uses: errors shown as lines, CSV downloads, provenance captions, run labels."""
from __future__ import annotations

import functools
from typing import Callable, NamedTuple, ParamSpec, TypeVar

import pandas as pd
import streamlit as st

from coreb_core.errors import CorebError
from coreb_core.present.csv_cells import csv_bytes
from coreb_core.present.format import code, plain
from coreb_core.retrieval.jobs import board
from coreb_core.runs.meta import RunMeta, run_created, run_name
from ui.state import State

P = ParamSpec("P")
R = TypeVar("R")


def run_label(meta: RunMeta) -> str:
    """How a run is shown everywhere (pickers, tables, chart axes): its name. Ids belong in tooltips
    (``run_tooltip``) and downloads only.

    >>> run_label(RunMeta("bm25__demo_v2603__20261201T062218-f8c8b6", model="bm25", release="demo_v2603",
    ...                   name="bm25 · demo_v2603 (2)"))
    'bm25 · demo_v2603 (2)'
    >>> run_label(RunMeta("r1", model="minilm", profile="card", release="demo_v2603"))  # no name stored yet
    'minilm · card · demo_v2603'
    """
    return run_name(meta)


def run_tooltip(meta: RunMeta) -> str:
    """What a run's tooltip (a widget's ``help=``, which is Markdown) says beside its name: its id as
    code, its kind, when it was made and its tags (literal).

    >>> run_tooltip(RunMeta("bm25__demo_v2603__20261201T062218-f8c8b6", model="bm25", kind="retrieval",
    ...                     created="2026-12-01T06:22:18", tags=("baseline",)))
    'id `bm25__demo_v2603__20261201T062218-f8c8b6` · retrieval · made 2026-12-01 06:22 · tags: baseline'
    """
    made = run_created(meta)[:16].replace("T", " ")
    parts = [f"id {code(meta.run_id)}", plain(meta.kind or ""), f"made {made}" if made else "",
             f"tags: {plain(', '.join(meta.tags))}" if meta.tags else ""]
    return " · ".join(p for p in parts if p)


def show_error(exc: BaseException) -> None:
    """An error the user caused, one box per line, its text shown literally (ids and paths may hold
    Markdown characters).

    Outside a page Streamlit draws nothing, so the example shows only the call:

    >>> show_error(ValueError("file_a.jsonl: row 3: *bold*\\nsecond problem"))   # two red boxes  # doctest: +SKIP
    """
    for line in str(exc).splitlines() or [type(exc).__name__]:
        st.error(plain(line))


def guarded(section: Callable[P, R]) -> Callable[P, R | None]:
    """A page section whose refusal (a ``CorebError``) is shown inside it, as ``show_error`` lines, and never hides
    the sections below: the page reads as a list of such sections.

    >>> @guarded
    ... def section() -> int:
    ...     raise CorebError("no vectors cached for run r1")
    >>> section() is None   # one red box, and the page goes on
    True
    """
    @functools.wraps(section)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return section(*args, **kwargs)
        except CorebError as exc:
            show_error(exc)
            return None
    return drawn


def download(label: str, make: Callable[[], bytes], file_name: str, mime: str, key: str,
             help: str | None = None, building: str = "Preparing the download…") -> None:
    """A download button whose file ``make()`` builds when the button is pressed, or now, under a spinner
    saying ``building``, while a background run is going.

    Why: a file built on the press is kept by Streamlit only until the second script run after it, and while a
    run is going the sidebar's progress reruns every second, so the browser could ask for a file already gone
    (no file, or one named by its hash: issue 34). A file built with the page is kept as long as the button is
    shown.

    >>> download("Download notes", lambda: b"# notes", "notes.md", "text/markdown", key="notes")   # doctest: +SKIP
    """
    data: bytes | Callable[[], bytes] = make
    if board().running():
        with st.spinner(building):
            data = make()
    # on_click="ignore": a download changes nothing on the page, so it does not run the page again
    st.download_button(label, data, file_name=file_name, mime=mime, key=key, help=help, on_click="ignore")


def csv_download(frame: pd.DataFrame, name: str, label: str = "Download CSV") -> None:
    """A download button for ``frame`` as ``<name>.csv`` (its key is derived from ``name``, so one per name),
    built when the button is pressed (see ``download``). Text cells that a spreadsheet would run as a formula
    (a run named ``=HYPERLINK(…)``) are written inert (``csv_bytes``).

    Outside a page Streamlit draws nothing, so the example shows only the call:

    >>> csv_download(pd.DataFrame({"task": ["t2c"], "ndcg_at_10": [0.3]}), "scores")   # doctest: +SKIP
    """
    download(label, lambda: csv_bytes(frame), f"{name}.csv", "text/csv", key=f"csv-{name}")


def provenance(state: State, extra: str = "") -> str:
    """The one-line caption every number on a page carries.

    >>> from coreb_core.evaluation.schemes import V2
    >>> provenance(State("demo_v2603", V2, ["r1"], "t2c", anchor_exclusion=True), "top 10")
    'Source: our runs on `demo_v2603` · scheme `v2` · C2C anchor excluded · top 10'
    """
    anchor = "C2C anchor excluded" if state.anchor_exclusion else "C2C anchor kept"
    return f"Source: our runs on {code(state.release)} · scheme {code(state.scheme)} · {anchor}{' · ' + extra if extra else ''}"


class PathOrUpload(NamedTuple):
    """What the user gave an import panel: a path on the server or uploaded files, and which button went."""

    path: str
    path_clicked: bool
    files: list
    upload_clicked: bool


def path_or_upload(key: str, path_label: str, path_button: str, upload_label: str, upload_button: str,
                   path_tab: str = "Path on the server") -> PathOrUpload:
    """Two tabs, a server path with its button and an uploader with its button; widget keys are
    ``<key>_path``, ``<key>_go``, ``<key>_files`` and ``<key>_up`` (tests click them by key).

    Outside a page Streamlit draws nothing, so the example shows only the call:

    >>> given = path_or_upload("ds", "Folder path", "Import folder", "The eight config files", "Import")  # doctest: +SKIP
    """
    by_path, by_upload = st.tabs([path_tab, "Upload files"])
    with by_path:
        path = st.text_input(path_label, key=f"{key}_path")
        path_clicked = st.button(path_button, key=f"{key}_go", disabled=not path.strip())
    with by_upload:
        files = st.file_uploader(upload_label, accept_multiple_files=True, key=f"{key}_files")
        upload_clicked = st.button(upload_button, key=f"{key}_up", disabled=not files)
    return PathOrUpload(path.strip(), path_clicked, files or [], upload_clicked)
