"""Verbs that set runs against each other: paired tests (compare), rank tiers (tiers), contrasting queries (contrast), per-problem
difficulty (difficulty), a reranker against its first stage (rerank-errors), the official labels against corrected
ones (changes). Each prints its view
(``coreb_core.views``), the one the Compare page shows for the same choices."""
from __future__ import annotations

import argparse

from coreb_core.cli.registry import ALPHA, COUNT, METRIC, anchor_option, command, scheme_option
from coreb_core.data.measures import NDCG_10
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.views.output import render
from coreb_core.views.scope import Scope

METRIC_SCHEME = ("the per-query metrics' scheme, as the sidebar's: v2 (default), v1, v1_gen, executed, judged, "
                 "traps_as_hits, trec, mteb or file:<name> (see eval --help)")


def _scope(args: argparse.Namespace) -> Scope:
    return Scope.of(args.release, args.run, args.scheme, not args.no_anchor_exclusion)


def _metric_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--metric", type=METRIC, default=NDCG_10,
                   help="a per-query metric: ndcg_at_10 (default), map_at_10, recall_at_100, … or nDCG@10")


def _correction_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--correction", default="holm", help="holm (default), bonferroni or bh (Benjamini-Hochberg)")


def _compare_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="two or more stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, required=True)
    _metric_option(p)
    p.add_argument("--baseline", default=None, help="compare each other run against this one (PyTerrier's baseline=)")
    _correction_option(p)
    scheme_option(p, METRIC_SCHEME)
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="the verdicts as objects (fractions 0..1)")


@command("compare", arguments=_compare_arguments,
         help="paired tests of stored runs: every pair or each against a --baseline, with Holm, Bonferroni or BH "
              "correction and the t-test beside randomization")
def _compare(args: argparse.Namespace) -> int:
    from coreb_core.evaluation.significance import Correction
    from coreb_core.views import compare

    correction = Correction.parse(args.correction)  # before the slow part
    view = compare.build(_scope(args), task=args.task, metric=args.metric, baseline=args.baseline,
                         correction=correction)
    print(render(view, args.json))
    return 0


def _tiers_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.analysis.tiers import AVERAGES

    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="two or more stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, default=None, help="one task (default: every task, see --average)")
    p.add_argument("--average", choices=list(AVERAGES), default="tasks",
                   help="without --task: tasks = mean of task means (default, as the README's Avg); queries = "
                        "query-weighted (as paper Table 3)")
    _metric_option(p)
    _correction_option(p)
    p.add_argument("--alpha", type=ALPHA, default=0.05, help="the significance level, between 0 and 1 (default 0.05)")
    scheme_option(p, METRIC_SCHEME)
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: runs (tier, rank interval, mean 0..1) and pairs")


@command("tiers", arguments=_tiers_arguments,
         help="rank tiers: runs grouped so that no two runs without a significant (corrected) paired difference "
              "are in different tiers, with each run's bootstrap rank interval")
def _tiers(args: argparse.Namespace) -> int:
    from coreb_core.evaluation.significance import Correction
    from coreb_core.views import tiers

    correction = Correction.parse(args.correction)  # before the slow part
    view = tiers.build(_scope(args), task=args.task, metric=args.metric, average=args.average,
                       correction=correction, alpha=args.alpha)
    print(render(view, args.json))
    return 0


def _changes_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.views.relabel import READINGS

    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", default=None, help="stored run ids of the release (default: every stored run)")
    p.add_argument("--scheme", choices=READINGS, default="executed",
                   help="the corrected reading set against v2: executed (relevance verified by execution, default) or "
                        "judged (the judgments of `judge` applied)")
    p.add_argument("--top", type=COUNT, default=20, help="the queries that move most (default 20)")
    anchor_option(p)
    p.add_argument("--json", action="store_true",
                   help="one object: per run and task v2 vs the reading (0..1), moved queries, rank and tier changes, "
                        "both verdicts")


@command("changes", arguments=_changes_arguments,
         help="what changes when the labels are corrected: every run under v2 and under executed or judged, the "
              "queries that move, the runs whose rank or tier moves, and whether the verdict flips")
def _changes(args: argparse.Namespace) -> int:
    from coreb_core.views import relabel
    from coreb_core.views.selection import release_scope

    scope = release_scope(args.release, args.run, "v2", not args.no_anchor_exclusion)
    print(render(relabel.build(scope, reading=args.scheme, top=args.top), args.json))
    return 0


def _contrast_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs=2, required=True, metavar=("A", "B"), help="two stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, required=True)
    p.add_argument("--measure", default="tau_ap", help="tau_ap (default) or weighted_tau")
    p.add_argument("--k", type=COUNT, default=10, help="the depth of each list compared")
    p.add_argument("--limit", type=COUNT, default=20)
    p.add_argument("--metric", type=METRIC, default=NDCG_10,
                   help="the per-query metric whose difference is shown (ndcg_at_10, recall_at_100, … or nDCG@10)")
    scheme_option(p, METRIC_SCHEME)
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: mean and the contrasting rows")


@command("contrast", arguments=_contrast_arguments,
         help="the queries whose two rankings differ most (tau-AP or weighted tau of the top k), with each query's "
              "metric difference")
def _contrast(args: argparse.Namespace) -> int:
    from coreb_core.views import contrasts

    scope = _scope(args)
    if len(scope.run_ids) != 2:
        raise CorebError("contrast compares exactly two runs: --run A B")
    a, b = scope.run_ids
    view = contrasts.build(scope, task=args.task, a=a, b=b, metric=args.metric, k=args.k, measure=args.measure,
                           limit=args.limit)
    print(render(view, args.json))
    return 0


def _difficulty_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="one or more stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    p.add_argument("--metric", type=METRIC, default=NDCG_10,
                   help="a per-query metric column, e.g. ndcg_at_10, recall_at_100, or nDCG@10")
    p.add_argument("--limit", type=COUNT, default=10, help="the hardest problems shown")
    scheme_option(p, METRIC_SCHEME)
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: problems, per_run, correlations (fractions 0..1)")


@command("difficulty", arguments=_difficulty_arguments,
         help="per-problem difficulty across stored runs, and how alike the runs rank the problems (Spearman)")
def _difficulty(args: argparse.Namespace) -> int:
    from coreb_core.views import difficulty

    view = difficulty.build(_scope(args), task=args.task, metric=args.metric, limit=args.limit)
    print(render(view, args.json))
    return 0


def _rerank_errors_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", required=True, help="a stored reranked run (run --rerank)")
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: summary, by_kind (fractions 0..1)")


@command("rerank-errors", arguments=_rerank_errors_arguments,
         help="what a reranked run did to its first stage: the ceiling, queries broken and rescued, by trap kind "
              "(grade-based: no scheme enters)")
def _rerank_errors(args: argparse.Namespace) -> int:
    from coreb_core.views import rerank

    print(render(rerank.build(rerank.scope_of_run(args.run, not args.no_anchor_exclusion)), args.json))
    return 0
