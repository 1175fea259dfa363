"""Data the pages share, cached per server: one Store per release version, run hits, scored tables.

The examples need a page's session and the cache ``COREB_CACHE`` points at (CoREB-mini with the first launch's
BM25 and MiniLM runs; MiniLM takes minutes to build), so they are skipped. Each continues this setup:

    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import list_runs
    >>> from ui.state import State
    >>> bm25_id = next(m.run_id for m in list_runs("demo_v2603") if m.model == "bm25")   # doctest: +SKIP
    >>> minilm_id = next(m.run_id for m in list_runs("demo_v2603") if m.model == "minilm")   # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, TypeVar

import pandas as pd
import streamlit as st

from coreb_core.analysis.console_tables import console_tables
from coreb_core.analysis.inspection import (
    candidates,
    judged_positions,
    query_details,
    query_hits,
    ranked_list,
    run_ranks,
)
from coreb_core.analysis.trap_kinds import TrapReason, trap_reasons
from coreb_core.analysis.trap_wins import TrapWins, trap_wins
from coreb_core.data.schema import APP_GROUPINGS
from coreb_core.data.sql_console import SqlConsole
from coreb_core.data.statistics import release_statistics
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import Evaluation, analyse_many
from coreb_core.evaluation.schemes import V1, V2, Scheme
from coreb_core.paths import release_dir, results_file
from coreb_core.present.display import mark_anchor, text_preview, with_grades
from coreb_core.results.imported import all_rows
from coreb_core.runs.folders import BadRun, list_runs, read_hits, run_listing, run_path
from coreb_core.runs.meta import RunMeta, run_name
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope
from ui.inspection import cross_run_marker, trap_reason_short, trap_reason_text
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


def _view(state: State) -> tuple[str, str, tuple[str, ...], str, bool]:
    """The key every cached view starts with: release, its version, runs, scheme and anchor exclusion."""
    return (state.release, release_version(state.release), tuple(state.run_ids), str(state.scheme),
            state.anchor_exclusion)


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
        return tables(scope.release, scope.version, scope.run_ids, str(scope.scheme), scope.anchor_exclusion)

    def trap_wins(self, scope: Scope) -> TrapWins:
        return _trap_wins(scope.release, scope.version, scope.run_ids, scope.anchor_exclusion)


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
def tables(release: str, version: str, run_ids: tuple[str, ...], scheme: str, anchor_exclusion: bool
           ) -> Evaluation:
    """analyse_many for the chosen runs: per-query metrics under the scheme and v1/v2, traps, groupings.

    Example (the module's setup, then):

    >>> ev = tables("demo_v2603", release_version("demo_v2603"), (bm25_id,), "v2", True)   # doctest: +SKIP
    >>> ev.schemes   # doctest: +SKIP
    ('v2', 'v1')
    >>> ev.groups(V2, "task")[["task", "queries", "ndcg_at_10"]]   # doctest: +SKIP
      task  queries  ndcg_at_10
    0  c2c      144    0.463078
    1  c2t      336    0.385968
    2  t2c      720    0.299759
    """
    schemes = tuple(dict.fromkeys([Scheme.parse(scheme), V2, V1]))
    return analyse_many(store(release), {rid: hits(rid) for rid in run_ids}, schemes, anchor_exclusion, traps=True,
                        groupings=APP_GROUPINGS)


def run_tables(state: State) -> Evaluation:
    """``tables`` for what the sidebar chose.

    Example (the module's setup, then):

    >>> state = State("demo_v2603", V2, [bm25_id], "t2c", anchor_exclusion=True)   # doctest: +SKIP
    >>> run_tables(state).groups(V2, "task")["ndcg_at_10"].round(4).tolist()   # doctest: +SKIP
    [0.4631, 0.386, 0.2998]
    """
    return tables(*_view(state))


@st.cache_data(show_spinner="Classifying trap wins…", max_entries=32)
def _trap_wins(release: str, version: str, run_ids: tuple[str, ...], anchor_exclusion: bool) -> TrapWins:
    return trap_wins(store(release), {rid: hits(rid) for rid in run_ids}, anchor_exclusion)


class QueryFinder(NamedTuple):
    """The inspector's query finder: the matching queries (``coreb_core.analysis.inspection.candidates``)."""

    found: pd.DataFrame  # candidates: full query texts (the CSV)
    shown: pd.DataFrame  # the same rows with each query text cut to a preview (the table)


@st.cache_data(show_spinner=False, max_entries=128)
def _query_finder(release: str, version: str, run_ids: tuple[str, ...], scheme: str, anchor_exclusion: bool,
                  task: str, text: str, subtask: str | None, language: str | None, trap_run: str | None,
                  delta_runs: tuple[str, str] | None) -> QueryFinder:
    evaluation = tables(release, version, run_ids, scheme, anchor_exclusion) if run_ids else None
    found = candidates(store(release), task, text, subtask, language, trap_run=trap_run,
                       traps=evaluation.traps if evaluation else None,
                       per_query=evaluation.per_query(scheme) if evaluation else None, delta_runs=delta_runs)
    return QueryFinder(found, found.assign(query=text_preview(found["query"])))


def query_finder(state: State, text: str, subtask: str | None, language: str | None, trap_run: str | None = None,
                 delta_runs: tuple[str, str] | None = None) -> QueryFinder:
    """The sidebar's task's queries matching the inspector's search and filters, cached per server.

    Example (the module's setup, then):

    >>> state = State("demo_v2603", V2, [bm25_id], "c2c", anchor_exclusion=True)   # doctest: +SKIP
    >>> found = query_finder(state, "", None, None, trap_run=bm25_id).found   # doctest: +SKIP
    >>> int(found["traps_above_first_positive"].iloc[0])   # doctest: +SKIP
    3
    """
    return _query_finder(*_view(state), state.task, text, subtask, language, trap_run, delta_runs)


class QueryLists(NamedTuple):
    """The inspector's tables for one query and the runs shown side by side (``query_lists``)."""

    ranks: pd.DataFrame  # run_ranks: doc_id index, one column per shown run's label, its rank
    reasons: dict[str, TrapReason]  # trap_reasons: why each trap is one
    positions: pd.DataFrame  # judged_positions with grades and the reason ("why")
    listings: dict[str, pd.DataFrame]  # run id -> its top ``top`` with grades, "in <letter>" markers and "why"


@st.cache_data(show_spinner=False, max_entries=128)
def _query_lists(release: str, version: str, query_id: str, shown: tuple[str, ...], labels: tuple[str, ...],
                 letters: tuple[str, ...], anchor_exclusion: bool, top: int) -> QueryLists:
    s = store(release)
    q = query_details(s, query_id)
    rows_by_run = {label: query_hits(hits(rid), query_id) for rid, label in zip(shown, labels)}
    ranks = run_ranks(q, rows_by_run, anchor_exclusion).set_index("doc_id")
    reasons = trap_reasons(s, q)
    positions = with_grades(judged_positions(s, q, rows_by_run, anchor_exclusion), 0)
    positions.insert(positions.columns.get_loc("tests") + 1, "why",
                     [trap_reason_text(reasons.get(d)) for d in positions["doc_id"]])
    listings = {}
    for rid, label in zip(shown, labels):
        if rows_by_run[label].empty:
            continue
        listing = with_grades(ranked_list(s, q, rows_by_run[label], anchor_exclusion, top), 1)
        for other_label, letter in zip(labels, letters):
            if other_label != label:
                where = listing["doc_id"].map(ranks[other_label])
                listing[f"in {letter}"] = [cross_run_marker(r, o, top) for r, o in zip(listing["rank"], where)]
        listing["why"] = [trap_reason_short(reasons.get(d)) for d in listing["doc_id"]]
        listings[rid] = mark_anchor(listing, q.anchor_code_id)
    return QueryLists(ranks, reasons, positions, listings)


def query_lists(release: str, query_id: str, shown: list[str], labels: dict[str, str], letters: dict[str, str],
                anchor_exclusion: bool, top: int) -> QueryLists:
    """The inspector's ranked lists of ``shown`` runs for one query, their cross-run markers and the judged
    documents' positions, cached per server (a shared link or a move back recomputes nothing).

    Example (the module's setup, then):

    >>> views = query_lists("demo_v2603", "q_t2c_canonical_retro_cpp_0020", [bm25_id], {bm25_id: "bm25"},
    ...                     {bm25_id: "A"}, True, 10)   # doctest: +SKIP
    >>> len(views.listings[bm25_id]), list(views.ranks.columns)   # doctest: +SKIP
    (10, ['bm25'])
    """
    return _query_lists(release, release_version(release), query_id, tuple(shown), tuple(labels[r] for r in shown),
                        tuple(letters[r] for r in shown), anchor_exclusion, top)


@st.cache_data(show_spinner="Counting…", max_entries=16)
def _release_stats(release: str, version: str) -> dict[str, pd.DataFrame]:
    return release_statistics(store(release))


def release_stats(release: str) -> dict[str, pd.DataFrame]:
    """``release_statistics`` of one cached release, once per version of it."""
    return _release_stats(release, release_version(release))


@st.cache_resource(show_spinner="Copying the release and the chosen runs into the console…", max_entries=4)
def _sql_console(release: str, version: str, run_ids: tuple[str, ...], scheme: str,
                 anchor_exclusion: bool) -> SqlConsole:
    names = {rid: run_name(meta) for rid, meta in runs_of(release).items()}
    evaluation = tables(release, version, run_ids, scheme, anchor_exclusion) if run_ids else None
    extra = console_tables({rid: hits(rid) for rid in run_ids}, names, evaluation)
    return SqlConsole(store(release), extra_tables=extra.as_dict())


def sql_console(state: State) -> SqlConsole:
    """The Data page's read-only console over the sidebar's release and its runs' hits and per-query metrics,
    one per choice and server (building it copies the release into DuckDB)."""
    return _sql_console(*_view(state))
