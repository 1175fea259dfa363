"""The app's caches, per server: one Store per release version, each run's hits, each scope's evaluation and trap
wins (``AppInputs``, what every view reads), and ``cached``: any view of ``coreb_core.views`` cached on its scope and
options. No page knowledge and no analysis here: the views compose, the pages draw.

The examples need a page's session and the cache ``COREB_CACHE`` points at (CoREB-mini with the first launch's
BM25 and MiniLM runs; MiniLM takes minutes to build), so they are skipped. Each continues this setup:

    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import list_runs
    >>> from ui.state import State
    >>> bm25_id = next(m.run_id for m in list_runs("demo_v2603") if m.model == "bm25")   # doctest: +SKIP
    >>> minilm_id = next(m.run_id for m in list_runs("demo_v2603") if m.model == "minilm")   # doctest: +SKIP
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, TypeVar

import pandas as pd
import streamlit as st

from coreb_core.analysis.traps.wins import TrapWins
from coreb_core.data.sql_console import SqlConsole
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import Evaluation
from coreb_core.evaluation.schemes import V2
from coreb_core.evaluation.stored_joins import StoredRun
from coreb_core.paths import release_dir, results_file
from coreb_core.results.imported import all_rows
from coreb_core.runs.folders import BadRun, list_runs, read_hits, run_listing, run_path
from coreb_core.runs.meta import RunMeta
from coreb_core.views import data
from coreb_core.views.inputs import Inputs, scope_evaluation, scope_trap_wins
from coreb_core.views.scope import Scope
from coreb_core.views.training import SamplesView
from coreb_core.views.training import samples as training_samples
from ui.state import State


def release_version(release: str) -> str:
    """Cache key of a release's current contents: a re-import swaps the folder the name resolves to.

    Example (the module's setup, then):

    >>> release_version("demo_v2603")   # doctest: +SKIP
    '.../coreb/.versions/demo_v2603-...'
    """
    return str(release_dir(release).resolve())


@st.cache_resource(show_spinner=False)
def _store(release: str, version: str) -> Store:
    return Store(release)


def store(release: str) -> Store:
    """One Store per release version (a re-import swaps the version and so the cache entry).

    Example (the module's setup, then):

    >>> store("demo_v2603") is store("demo_v2603")   # doctest: +SKIP
    True
    """
    return _store(release, release_version(release))


def scope_of(state: State) -> Scope:
    """The sidebar's choice as the views' ``Scope`` (the sidebar lists only runs of the release: nothing to refuse).

    Example (the module's setup, then):

    >>> scope_of(State("demo_v2603", V2, [bm25_id], "t2c", True)).run_ids == (bm25_id,)   # doctest: +SKIP
    True
    """
    return Scope(state.release, release_version(state.release), tuple(state.run_ids), state.scheme,
                 state.anchor_exclusion)


class AppInputs(Inputs):
    """The views' inputs from this module's per-server caches: every session and page shares one Store per
    release version, one read of each run, one evaluation and one trap-win table per scope."""

    def store(self, release: str) -> Store:
        return store(release)

    def hits(self, run_id: str) -> pd.DataFrame:
        return hits(run_id)

    def runs_of(self, release: str) -> dict[str, RunMeta]:
        return runs_of(release)

    @property
    def result_rows(self) -> list[dict]:  # type: ignore[override]
        return result_rows()

    def evaluation(self, scope: Scope) -> Evaluation:
        return _evaluation(scope)

    def trap_wins(self, scope: Scope) -> TrapWins:
        return _trap_wins(replace(scope, scheme=V2))  # one entry whatever the sidebar's scheme


APP_INPUTS = AppInputs()
V = TypeVar("V")


@st.cache_data(show_spinner=False, max_entries=256)
def _built(name: str, scope: Any, options: tuple[tuple[str, Any], ...], results: str,
           _build: Callable[..., Any]) -> Any:
    # The key: the view's name, its scope, its options and (for views that read them) the imported results'
    # version; the build function itself is not hashed ("_").
    return _build(scope, inputs=APP_INPUTS, **dict(options))


def cached(build: Callable[..., V], spinner: str | None = None, results: bool = False) -> Callable[..., V]:
    """``build(scope, **options)`` of a view module, cached per server on the scope and the options (a second
    visit, a shared link or a move back recomputes nothing), reading its inputs from the app's caches. With
    ``results`` the view reads the imported results, and an import (a new ``results_version``) rebuilds it.

    Example (the module's setup, then):

    >>> from coreb_core.views import traps
    >>> view = cached(traps.build)(scope_of(State("demo_v2603", V2, [bm25_id], "t2c", True)), task="t2c")   # doctest: +SKIP
    """
    name = f"{build.__module__}.{build.__qualname__}"

    def call(scope: Any, **options: Any) -> V:
        key = tuple(sorted(options.items()))
        version = results_version() if results else ""
        if spinner is None:
            return _built(name, scope, key, version, build)
        with st.spinner(spinner, show_time=True):  # shown while it computes; a cached view returns at once
            return _built(name, scope, key, version, build)
    return call


@st.cache_resource(show_spinner="Building the protocol's samples…", max_entries=4)
def _samples_view(release: str, version: str, rule: str, hard: int, easy: int, seed: int) -> SamplesView:
    # a resource, not data: thousands of samples with their texts (hundreds of MB) are not copied on each read
    return training_samples(release, rule, hard, easy, seed)


def samples_view(release: str, rule: str, hard: int, easy: int, seed: int) -> SamplesView:
    """The protocol's samples of a release (``coreb_core.views.training.samples``), once per server and release
    version."""
    return _samples_view(release, release_version(release), rule, hard, easy, seed)


def runs_of(release: str) -> dict[str, RunMeta]:
    """run_id -> provenance, newest last. Read fresh on every render: new runs appear at once.

    Example (the module's setup, then):

    >>> runs_of("demo_v2603")[bm25_id].model   # doctest: +SKIP
    'bm25'
    """
    return {m.run_id: m for m in sorted(list_runs(release), key=lambda m: m.created or "")}


def skipped_runs() -> list[BadRun]:
    """Entries of the runs folder that are not runs (an older version's, edited by hand), with the reason;
    every page leaves them out (``runs_of``) and the sidebar says so. Read fresh on every render.

    Example (skipped: it reads the cache ``COREB_CACHE`` points at, as a page does; there a copy of the BM25 run is
    edited by hand, its ``created`` made a number):

    >>> import json
    >>> import shutil
    >>> from coreb_core.paths import runs_dir
    >>> edited = runs_dir() / "edited"
    >>> _ = shutil.copytree(runs_dir() / bm25_id, edited)   # doctest: +SKIP
    >>> meta = {**json.loads((edited / "run.json").read_text()), "created": 5}   # doctest: +SKIP
    >>> _ = (edited / "run.json").write_text(json.dumps(meta))   # doctest: +SKIP
    >>> skipped = skipped_runs()   # doctest: +SKIP
    >>> [(b.folder, b.reason.endswith("field 'created' is int, expected str")) for b in skipped]   # doctest: +SKIP
    [('edited', True)]
    """
    return run_listing().skipped


def results_version() -> str:
    """Cache key of the imported results: ``results.parquet`` is replaced (a new file renamed over the old)
    on every import, so its inode, time and size change.

    Example (skipped: the cache ``COREB_CACHE`` points at decides, as on a page; ``"none"`` before any import):

    >>> results_version()   # doctest: +SKIP
    '1835021-1764633120123456789-48213'
    """
    try:
        stat = results_file().stat()
    except FileNotFoundError:
        return "none"
    return f"{stat.st_ino}-{stat.st_mtime_ns}-{stat.st_size}"


@st.cache_data(show_spinner=False, max_entries=4)
def _result_rows(version: str) -> list[dict]:
    return all_rows()


def result_rows() -> list[dict]:
    """``coreb_core.results.imported.all_rows`` (imported numbers and the bundled published figures), read once
    per version of ``results.parquet``: an import shows at once, a shared link reads nothing."""
    return _result_rows(results_version())


@st.cache_resource(show_spinner=False, max_entries=32)
def _hits(run_id: str, folder: str) -> pd.DataFrame:
    return read_hits(run_id)


def hits(run_id: str) -> pd.DataFrame:
    """A run's stored hits, read once per server and shared read-only (runs are written once, atomically).

    Example (the module's setup, then):

    >>> frame = hits(bm25_id)   # doctest: +SKIP
    >>> len(frame), frame is hits(bm25_id)   # doctest: +SKIP
    (128804, True)
    """
    return _hits(run_id, str(run_path(run_id)))


@st.cache_data(show_spinner="Scoring runs…", max_entries=32)
def _evaluation(scope: Scope) -> Evaluation:
    # Scored from each run's cached join (``stored_joins``): no ranked list is read unless a run is new.
    return scope_evaluation(store(scope.release), {rid: StoredRun(rid) for rid in scope.run_ids}, scope)


@st.cache_data(show_spinner="Classifying trap wins…", max_entries=32)
def _trap_wins(scope: Scope) -> TrapWins:
    # keyed without the scheme: trap wins do not depend on it
    return scope_trap_wins(store(scope.release), {rid: hits(rid) for rid in scope.run_ids}, scope)


@st.cache_resource(show_spinner="Copying the release and the chosen runs into the console…", max_entries=4)
def _sql_console(scope: Scope) -> SqlConsole:
    return data.console(scope, inputs=APP_INPUTS)


def sql_console(state: State) -> SqlConsole:
    """The Data page's read-only console over the sidebar's release and its runs' hits and per-query metrics,
    one per choice and server (building it copies the release into DuckDB)."""
    return _sql_console(scope_of(state))
