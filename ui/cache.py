"""Data the pages share, cached per server: one Store per release version, run hits, scored tables."""
from __future__ import annotations

from typing import NamedTuple

import pandas as pd
import streamlit as st

from coreb_core.analysis.trap_wins import (TrapWins, bug_shares, kind_shares, margin_summary, near_miss_curve,
                                           rank_gap_histogram, trap_wins)
from coreb_core.analysis.traps import trap_breakdown
from coreb_core.analysis.embedding_map import EmbeddingMap, embedding_map
from coreb_core.analysis.surface_bias import SurfaceBias, surface_bias
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import Evaluation, analyse_many
from coreb_core.runs.run import read_hits
from coreb_core.evaluation.schemes import V1, V2, Scheme
from coreb_core.paths import release_dir
from coreb_core.runs.run import BadRun, RunMeta, list_runs, run_listing, run_meta, run_path
from ui.labels import GROUPINGS
from ui.state import State


def release_version(release: str) -> str:
    """Cache key of a release's current contents: a re-import swaps the folder the name resolves to.

    Example (CoREB-mini and a BM25 run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> release_version("demo_v2603")   # doctest: +ELLIPSIS
    '.../coreb/.versions/demo_v2603-20261201T063347-45ed5d4a'
    """
    return str(release_dir(release).resolve())


@st.cache_resource(show_spinner=False)
def _store(release: str, version: str) -> Store:
    return Store(release)


def store(release: str) -> Store:
    """One Store per release version (a re-import swaps the version and so the cache entry).

    Example (CoREB-mini and a BM25 run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> store("demo_v2603") is store("demo_v2603")
    True
    """
    return _store(release, release_version(release))


def runs_of(release: str) -> dict[str, RunMeta]:
    """run_id -> provenance, newest last. Read fresh on every render: new runs appear at once.

    Example (CoREB-mini and a BM25 run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> runs_of("demo_v2603")["bm25__demo_v2603__20261201T062218-f8c8b6"].model
    'bm25'
    """
    return {m.run_id: m for m in sorted(list_runs(release), key=lambda m: m.created or "")}


def skipped_runs() -> list[BadRun]:
    """Entries of the runs folder that are not runs (an older version's, edited by hand), with the reason;
    every page leaves them out (``runs_of``) and the sidebar says so. Read fresh on every render.

    Example (a cache with a hand-edited run folder ``edited`` whose ``created`` is a number; not doctested):

    >>> [(bad.folder, bad.reason.endswith("field 'created' is int, expected str")) for bad in skipped_runs()]
    [('edited', True)]
    """
    return run_listing().skipped


@st.cache_resource(show_spinner=False, max_entries=32)
def _hits(run_id: str, folder: str) -> pd.DataFrame:
    return read_hits(run_id)


def hits(run_id: str) -> pd.DataFrame:
    """A run's stored hits, read once per server and shared read-only (runs are written once, atomically).

    Example (CoREB-mini and a BM25 run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> frame = hits("bm25__demo_v2603__20261201T062218-f8c8b6")
    >>> len(frame), frame is hits("bm25__demo_v2603__20261201T062218-f8c8b6")
    (128804, True)
    """
    return _hits(run_id, str(run_path(run_id)))


@st.cache_data(show_spinner="Scoring runs…", max_entries=32)
def tables(release: str, version: str, run_ids: tuple[str, ...], scheme: str, anchor_exclusion: bool
           ) -> Evaluation:
    """analyse_many for the chosen runs: per-query metrics under the scheme and v1/v2, traps, groupings.

    Example (CoREB-mini and a BM25 run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> from coreb_core.evaluation.schemes import V2
    >>> ev = tables("demo_v2603", release_version("demo_v2603"), ("bm25__demo_v2603__20261201T062218-f8c8b6",), "v2", True)
    >>> ev.schemes
    ('v2', 'v1')
    >>> ev.groups(V2, "task")[["task", "queries", "ndcg_at_10"]]
      task  queries  ndcg_at_10
    0  c2c      144    0.463078
    1  c2t      336    0.385968
    2  t2c      720    0.299759
    """
    schemes = tuple(dict.fromkeys([Scheme.parse(scheme), V2, V1]))
    return analyse_many(store(release), {rid: hits(rid) for rid in run_ids}, schemes, anchor_exclusion, traps=True,
                        groupings=GROUPINGS)


def run_tables(state: State) -> Evaluation:
    """``tables`` for what the sidebar chose.

    Example (CoREB-mini and a BM25 run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> state = State("demo_v2603", V2, ["bm25__demo_v2603__20261201T062218-f8c8b6"], "t2c", anchor_exclusion=True)
    >>> run_tables(state).groups(V2, "task")["ndcg_at_10"].round(4).tolist()
    [0.4631, 0.386, 0.2998]
    """
    return tables(state.release, release_version(state.release), tuple(state.run_ids), str(state.scheme),
                  state.anchor_exclusion)


@st.cache_data(show_spinner="Classifying trap wins…", max_entries=32)
def _trap_wins(release: str, version: str, run_ids: tuple[str, ...], anchor_exclusion: bool) -> TrapWins:
    return trap_wins(store(release), {rid: hits(rid) for rid in run_ids}, anchor_exclusion)


class TrapPage(NamedTuple):
    """The Trap analysis page's tables for one task and grouping, each from ``coreb_core.analysis``."""

    breakdown: pd.DataFrame  # trap_breakdown
    kinds_by_task: pd.DataFrame  # kind_shares(…, "task")
    kinds_by_subtask: pd.DataFrame  # kind_shares(…, "subtask")
    bugs: pd.DataFrame  # bug_shares
    near_miss: pd.DataFrame  # near_miss_curve
    margins: pd.DataFrame  # margin_summary
    rank_gaps: pd.DataFrame  # rank_gap_histogram


@st.cache_data(show_spinner=False, max_entries=64)
def _trap_page(release: str, version: str, run_ids: tuple[str, ...], scheme: str, anchor_exclusion: bool,
               task: str, level: str) -> TrapPage:
    traps = tables(release, version, run_ids, scheme, anchor_exclusion).traps
    wins = _trap_wins(release, version, run_ids, anchor_exclusion)
    wins = wins._replace(traps=wins.traps[wins.traps["task"] == task], queries=wins.queries[wins.queries["task"] == task])
    return TrapPage(trap_breakdown(store(release), traps, task, level), kind_shares(wins, "task"),
                    kind_shares(wins, "subtask"), bug_shares(wins), near_miss_curve(wins), margin_summary(wins),
                    rank_gap_histogram(wins))


def run_trap_page(state: State, level: str) -> TrapPage:
    """The Trap analysis page's tables for the sidebar's runs and task, grouped by ``level``; cached per
    server, so a second visit (a shared link, a move back to the page) recomputes nothing.

    Example (CoREB-mini and a BM25 run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> state = State("demo_v2603", V2, ["bm25__demo_v2603__20261201T062218-f8c8b6"], "c2c", anchor_exclusion=True)
    >>> run_trap_page(state, "subtask").breakdown[["subtask", "queries"]].head(1)
              subtask  queries
    0  c2c_cross_lang       96
    """
    return _trap_page(state.release, release_version(state.release), tuple(state.run_ids), str(state.scheme),
                      state.anchor_exclusion, state.task, level)


@st.cache_data(show_spinner="Measuring lexical overlap…", max_entries=32)
def surface_tables(release: str, version: str, run_ids: tuple[str, ...], anchor_exclusion: bool) -> SurfaceBias:
    """``surface_bias`` of the chosen runs' trap wins (``_trap_wins``' cached result: the best trap and
    positive come from the one definition; token overlaps are memoised on the Store, once per version).

    Example (CoREB-mini and a BM25 run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> surface_tables("demo_v2603", release_version("demo_v2603"), ("bm25__demo_v2603__20261201T062218-f8c8b6",), True
    ...                ).summary["task"].tolist()
    ['c2c', 'c2t', 't2c']
    """
    return surface_bias(store(release), _trap_wins(release, version, run_ids, anchor_exclusion))


def run_surface(state: State) -> SurfaceBias:
    """``surface_tables`` for what the sidebar chose."""
    return surface_tables(state.release, release_version(state.release), tuple(state.run_ids), state.anchor_exclusion)


@st.cache_data(show_spinner="Reading cached vectors…", max_entries=64)
def embedding_points(release: str, version: str, run_id: str, query_id: str, neighbours: int,
                     anchor_exclusion: bool) -> EmbeddingMap:
    """``embedding_map`` of one query under one dense run, from the embedding cache (nothing re-encoded).

    Example (CoREB-mini and a MiniLM run in the cache ``COREB_CACHE`` points at; not doctested):

    >>> m = embedding_points("demo_v2603", release_version("demo_v2603"), minilm_run_id,
    ...                      "q_t2c_canonical_retro_any_0001", 10, True)
    >>> m.points["role"].iloc[0], m.method
    ('query', 'PCA')
    """
    return embedding_map(store(release), run_meta(run_id), query_id, neighbours, anchor_exclusion, hits=hits(run_id))
