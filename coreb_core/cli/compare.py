"""Verbs that set runs against each other: paired tests (compare), contrasting queries (contrast), per-problem difficulty (difficulty), a reranker against its first stage (rerank-errors)."""
from __future__ import annotations

import argparse
import json

from coreb_core.cli.registry import (
    COUNT,
    METRIC,
    anchor_option,
    command,
)
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.text import terminal_safe
from coreb_core.views.output import records


def _stored_runs(release: str, run_ids: list[str]) -> dict[str, str]:
    """Run id -> name of stored runs made on ``release`` (``Scope.of``: the one rule)."""
    from coreb_core.views.inputs import Inputs
    from coreb_core.views.scope import Scope

    return Inputs().names(Scope.of(release, run_ids))


def _compare_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="two or more stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, required=True)
    p.add_argument("--metric", type=METRIC, default="ndcg_at_10",
                   help="a per-query metric: ndcg_at_10 (default), map_at_10, recall_at_100, … or nDCG@10")
    p.add_argument("--baseline", default=None, help="compare each other run against this one (PyTerrier's baseline=)")
    p.add_argument("--correction", default="holm", help="holm (default), bonferroni or bh (Benjamini-Hochberg)")
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="the verdicts as objects (fractions 0..1)")


@command("compare", arguments=_compare_arguments,
         help="paired tests of stored runs: every pair or each against a --baseline, with "
                                       "Holm, Bonferroni or BH correction and the t-test beside randomization")
def _compare(args: argparse.Namespace) -> int:
    from coreb_core.analysis.comparison import pair_table, pair_verdicts, split_runs
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.significance import Correction
    from coreb_core.present.display import verdict_sentence
    from coreb_core.runs.folders import read_hits

    names = _stored_runs(args.release, args.run)
    if len(names) < 2:
        raise CorebError("compare needs two or more runs")
    if args.baseline is not None and args.baseline not in names:
        raise CorebError(f"--baseline {terminal_safe(args.baseline)} is not one of the --run ids")
    correction = Correction.parse(args.correction)
    with Store(args.release) as store:
        per_query = analyse_many(store, {r: read_hits(r) for r in names},
                                 anchor_exclusion=not args.no_anchor_exclusion).per_query("v2")
    runs = split_runs(per_query, args.task, list(names))
    pairs = pair_table(runs, args.metric, labels=names, baseline=args.baseline, correction=correction)
    verdicts = pair_verdicts(runs, pairs, args.task, correction=correction, baseline=args.baseline)
    if args.json:
        print(json.dumps({"release": args.release, "task": args.task, "metric": args.metric,
                          "baseline": args.baseline, "correction": str(correction),
                          "verdicts": [{**v._asdict(), "correction": str(v.correction)} for v in verdicts]},
                         indent=1, default=float))
        return 0
    for v in verdicts:  # a pair that shares no query has no test to report (a run made for other tasks)
        print(terminal_safe(verdict_sentence(v, names)) + (f" Paired t-test: p = {v.p_ttest:.3g}." if v.shared else ""))
    return 0


def _contrast_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs=2, required=True, metavar=("A", "B"), help="two stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, required=True)
    p.add_argument("--measure", default="tau_ap", help="tau_ap (default) or weighted_tau")
    p.add_argument("--k", type=COUNT, default=10, help="the depth of each list compared")
    p.add_argument("--limit", type=COUNT, default=20)
    p.add_argument("--metric", type=METRIC, default="ndcg_at_10",
                   help="the per-query metric whose difference is shown (ndcg_at_10, recall_at_100, … or nDCG@10)")
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: mean and the contrasting rows")


@command("contrast", arguments=_contrast_arguments,
         help="the queries whose two rankings differ most (tau-AP or weighted tau of the "
                                        "top k), with each query's metric difference")
def _contrast(args: argparse.Namespace) -> int:
    from coreb_core.analysis.comparison import pair_deltas, split_runs
    from coreb_core.analysis.rank_contrast import anchor_exclusions, contrasting_queries
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits

    names = _stored_runs(args.release, args.run)
    if len(names) != 2:
        raise CorebError("contrast compares exactly two runs: --run A B")
    a, b = list(names)
    hits = {r: read_hits(r) for r in names}
    with Store(args.release) as store:
        per_query = analyse_many(store, hits, anchor_exclusion=not args.no_anchor_exclusion).per_query("v2")
        exclude = {} if args.no_anchor_exclusion else anchor_exclusions(store)
    deltas = pair_deltas(split_runs(per_query, args.task, [a, b]), a, b, args.metric)
    found = contrasting_queries(hits[a], hits[b], args.k, args.measure, args.limit, per_query=deltas,
                                task=args.task, exclude=exclude)
    if args.json:
        print(json.dumps({"release": args.release, "task": args.task, "a": a, "b": b, "k": found.k,
                          "measure": found.measure.name, "queries": found.queries, "mean": found.mean,
                          "rows": records(found.rows)}, indent=1))
        return 0
    if not found.queries:
        print(f"{terminal_safe(names[a])} and {terminal_safe(names[b])} share no query on {args.task}: there is "
              "nothing to contrast.")
        return 0
    print(f"{terminal_safe(names[a])} against {terminal_safe(names[b])} on {args.task}, top {found.k}: mean "
          f"{found.measure.name} {found.mean:.3f} over {found.queries} queries; the {len(found.rows)} that agree least "
          f"(Δ = {args.metric} of a − b under v2):")
    for r in found.rows.itertuples():
        delta = getattr(r, "delta", float("nan"))
        print(f"  {r.query_id}: tau-AP {r.tau_ap:+.3f}, weighted tau {r.weighted_tau:+.3f}, "
              f"{r.overlap} of the top {found.k} shared, Δ {delta * 100:+.1f} points")
    return 0


def _difficulty_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="one or more stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    p.add_argument("--metric", default="ndcg_at_10", help="a per-query metric column, e.g. ndcg_at_10, recall_at_100")
    p.add_argument("--limit", type=COUNT, default=10, help="the hardest problems shown")
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: problems, per_run, correlations (fractions 0..1)")


@command("difficulty", arguments=_difficulty_arguments,
         help="per-problem difficulty across stored runs, and how alike the runs rank the "
                                          "problems (Spearman)")
def _difficulty(args: argparse.Namespace) -> int:
    from coreb_core.analysis.difficulty import hardest_problems, problem_difficulty
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.meta import run_name

    repeated = sorted({r for r in args.run if args.run.count(r) > 1})
    if repeated:
        raise CorebError(f"--run names {terminal_safe(repeated[0])} more than once")
    names = {}
    for run_id in args.run:
        meta = run_meta(run_id)
        if meta.made_on() != args.release:
            raise CorebError(f"run {run_id} was made on release {meta.made_on()}, not {args.release}")
        names[run_id] = run_name(meta)
    with Store(args.release) as store:
        per_query = analyse_many(store, {r: read_hits(r) for r in args.run},
                                 anchor_exclusion=not args.no_anchor_exclusion).per_query("v2")
        hard = problem_difficulty(store, per_query, args.metric, task=args.task)
    if args.json:
        print(json.dumps({"release": args.release, "runs": list(args.run), "metric": hard.metric, "task": hard.task,
                          "problems": records(hard.problems), "per_run": records(hard.per_run),
                          "correlations": records(hard.correlations)}, indent=1))
        return 0
    print(f"per-problem difficulty on {args.release} ({hard.metric} under v2, a problem's mean = the mean of the "
          f"runs' means over its queries on a task; hardest first)")
    for r in hardest_problems(hard, n=args.limit).itertuples():
        who = f", hardest for {terminal_safe(names.get(r.hardest_run, r.hardest_run))}" \
            if isinstance(r.hardest_run, str) else ""
        print(f"  {r.task} {r.problem_id}: mean {r.mean * 100:.1f} over {r.queries} queries, spread "
              f"{r.spread * 100:.1f} points{who}; worst query {r.worst_query}")
    for r in hard.correlations.itertuples():
        print(f"{r.task}: Spearman's rho of {terminal_safe(names[r.a])} and {terminal_safe(names[r.b])} over "
              f"{r.problems} problems: {r.spearman:.2f}")
    return 0


def _rerank_errors_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", required=True, help="a stored reranked run (run --rerank)")
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: summary, by_kind (fractions 0..1)")


@command("rerank-errors", arguments=_rerank_errors_arguments,
         help="what a reranked run did to its first stage: the ceiling, queries "
                                             "broken and rescued, by trap kind")
def _rerank_errors(args: argparse.Namespace) -> int:
    from coreb_core.analysis.rerank_errors import rerank_errors_of
    from coreb_core.runs.folders import run_meta
    from coreb_core.runs.meta import run_name

    errors = rerank_errors_of(args.run, anchor_exclusion=not args.no_anchor_exclusion)
    if args.json:
        print(json.dumps({"reranked": errors.reranked, "first_stage": errors.first_stage, "release": errors.release,
                          "depth": errors.depth, "anchor_exclusion": errors.anchor_exclusion,
                          "summary": records(errors.summary), "by_kind": records(errors.by_kind)}, indent=1))
        return 0
    first, reranked = (terminal_safe(run_name(run_meta(r))) for r in (errors.first_stage or "", errors.reranked or ""))
    print(f"{reranked} against its first stage {first} (top {errors.depth} reranked; right = no trap above the "
          "best positive; broken = right before, a trap above it after; rescued = the opposite)")
    for r in errors.summary.itertuples():
        print(f"  {r.task}: a positive within the top {errors.depth} for {r.ceiling} of {r.with_positive} queries "
              f"({r.ceiling_share * 100:.1f}%); broken {r.broken}, rescued {r.rescued}, net {r.net:+d}")
        for k in errors.by_kind[(errors.by_kind["task"] == r.task)
                                & ((errors.by_kind["broken"] > 0) | (errors.by_kind["rescued"] > 0))].itertuples():
            print(f"    {k.kind}: broken {k.broken}, rescued {k.rescued}")
    return 0

