"""The Overview page's questions: where the chosen runs stand (leaderboard beside imported and published figures,
by subtask and language, parameter efficiency), what their means average over, how our re-runs of MTEB's models
match MTEB's files, the C2C language pairs, the T2C language gradient and the article's figures.

Each is one build; those that read imported results are cached by the app on the results' version too
(``ui.cache.cached(..., results=True)``). ``labels`` (run id -> the name shown) name the runs in the tables that
carry names; without them each run's stored name."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import pandas as pd

from coreb_core.analysis.article import ArticleFigures, article_figures
from coreb_core.analysis.leaderboard import (
    c2c_language_pairs,
    group_heatmap,
    leaderboard,
    mteb_board,
    parameter_efficiency,
    published_sources_for,
    t2c_language_gradient,
)
from coreb_core.analysis.mteb_parity import MTEB_TWINS, mteb_parity
from coreb_core.evaluation.evaluate import Coverage, coverage
from coreb_core.views.inputs import Inputs
from coreb_core.views.rerank import reranked_pair
from coreb_core.views.scope import Scope


def default_sources(release: str) -> tuple[str, ...]:
    """The published per-task tables the leaderboard shows beside runs on ``release`` until the user chooses: its
    own published version's, else the test release's (``published_sources_for``).

    >>> default_sources("release_v2602")
    ('published:paper_table14_v202602_retrieval', 'published:page_b312b5b_v202602_retrieval')
    """
    return published_sources_for(release)


@dataclass(frozen=True)
class Standings:
    """The Overview's tables for the scope's runs."""

    board: pd.DataFrame  # leaderboard: our runs, imported and published rows, fractions
    by_subtask: pd.DataFrame  # group_heatmap(…, "subtask")
    by_language: pd.DataFrame  # group_heatmap(…, "language")
    efficiency: pd.DataFrame  # parameter_efficiency
    mteb: pd.DataFrame  # mteb_board: imported MTEB results on MTEB's own scale (empty unless imported results are on)


def standings(scope: Scope, *, sources: tuple[str, ...] = (), with_imported: bool = True,
              labels: Mapping[str, str] | None = None, inputs: Inputs | None = None) -> Standings:
    """The leaderboard (with the published ``sources`` and, ``with_imported``, imported results), the heatmaps by
    subtask and by language, parameter efficiency and imported MTEB results.

    >>> view = standings(Scope.of("demo_v2603", [bm25], root=root), sources=("paper_table3",), inputs=Inputs(root))
    >>> view.board.loc[view.board["run"] == bm25, "t2c"].round(4).tolist()
    [0.2998]
    """
    inputs = inputs or Inputs()
    evaluation, scheme = inputs.evaluation(scope), str(scope.scheme)
    metas, rows = inputs.runs_of(scope.release), inputs.result_rows
    names = dict(labels) if labels is not None else inputs.names(scope)
    board = leaderboard(evaluation.groups(scheme, "task"), metas, scheme, scope.release, rows, list(sources),
                        with_imported)
    return Standings(board, group_heatmap(evaluation.groups(scheme, "subtask"), "subtask", names),
                     group_heatmap(evaluation.groups(scheme, "language"), "language", names),
                     parameter_efficiency(rows, board, metas), mteb_board(rows) if with_imported else mteb_board([]))


def coverages(scope: Scope, *, inputs: Inputs | None = None) -> dict[str, dict[str, Coverage]]:
    """Per run and task, what its means average over (``coverage``): a run file that leaves judged queries out is
    warned about where its numbers are shown."""
    inputs = inputs or Inputs()
    per_query = inputs.evaluation(scope).per_query(scope.scheme)
    return {str(run): coverage(inputs.store(scope.release), group, scope.scheme)
            for run, group in per_query.groupby("run", observed=True)}


def mteb_side_by_side(scope: Scope, *, inputs: Inputs | None = None) -> pd.DataFrame:
    """``mteb_parity`` of the scope's runs that follow an MTEB model's recipe, beside MTEB's imported files."""
    inputs = inputs or Inputs()
    metas = inputs.runs_of(scope.release)
    twins = [r for r in scope.run_ids if r in metas and metas[r].model in MTEB_TWINS]
    return mteb_parity(inputs.store(scope.release), {r: inputs.hits(r) for r in twins}, metas, inputs.result_rows)


def language_pairs(scope: Scope, *, run: str, k: int = 10, inputs: Inputs | None = None) -> pd.DataFrame:
    """C2C recall@k of the positives per anchor language × target language, for one run (grade-based)."""
    inputs = inputs or Inputs()
    return c2c_language_pairs(inputs.store(scope.release), inputs.hits(run), scope.anchor_exclusion, k)


def language_gradient(scope: Scope, *, exclude_search: bool = True, labels: Mapping[str, str] | None = None,
                      inputs: Inputs | None = None) -> pd.DataFrame:
    """T2C nDCG@10 by target language: the paper's average beside each run (``t2c_language_gradient``)."""
    inputs = inputs or Inputs()
    names = dict(labels) if labels is not None else inputs.names(scope)
    return t2c_language_gradient(inputs.store(scope.release), inputs.evaluation(scope).per_query(scope.scheme),
                                 inputs.result_rows, names, exclude_search)


def article(scope: Scope, *, labels: Mapping[str, str] | None = None, inputs: Inputs | None = None) -> ArticleFigures:
    """The article's figures beside the scope's runs (``article_figures``), our reranked runs beside its rerankers."""
    inputs = inputs or Inputs()
    names = dict(labels) if labels is not None else inputs.names(scope)
    return article_figures(inputs.store(scope.release), inputs.evaluation(scope).per_query(scope.scheme),
                           inputs.result_rows, names, [p for p in (reranked_pair(scope, r, names, inputs)
                                                               for r in scope.run_ids) if p is not None])
