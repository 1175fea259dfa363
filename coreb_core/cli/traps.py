"""Verbs of the trap questions: why traps win (traps) and how trap-win rates move between releases (stability)."""
from __future__ import annotations

import argparse
import json

from coreb_core.cli.registry import (
    anchor_option,
    command,
)
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.text import p_text, terminal_safe
from coreb_core.views.output import records


def _traps_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="one or more stored run ids")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    anchor_option(p)
    p.add_argument("--json", action="store_true",
                   help="one object: kinds, near_miss, margins, surface_bias, agreement, slices (fractions 0..1, "
                        "ranks as scored)")


@command("traps", arguments=_traps_arguments,
         help="why traps win: trap kinds, the near-miss curve, the margins and the surface bias of stored runs")
def _traps(args: argparse.Namespace) -> int:
    from coreb_core.analysis.agreement import trap_agreement
    from coreb_core.analysis.slices import length_slices
    from coreb_core.analysis.surface_bias import surface_bias
    from coreb_core.analysis.trap_wins import trap_wins, why_traps_win
    from coreb_core.analysis.traps import share_lost
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.present.trap_patterns import agreement_sentence, duel_sentence, jaccard_sentence
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.meta import run_name

    repeated = sorted({r for r in args.run if args.run.count(r) > 1})
    if repeated:
        raise CorebError(f"--run names {terminal_safe(repeated[0])} more than once")
    with Store(args.release) as store:
        hits = {}
        for run_id in args.run:
            meta = run_meta(run_id)
            if meta.release not in (None, args.release):
                raise CorebError(f"run {run_id} was made on release {meta.release}, not {args.release}")
            hits[run_id] = read_hits(run_id)
        wins = trap_wins(store, hits, not args.no_anchor_exclusion, args.task)
        surface = surface_bias(store, wins)
        per_query = analyse_many(store, hits, anchor_exclusion=not args.no_anchor_exclusion).per_query("v2")
        slices = length_slices(store, wins, per_query)
    agreement = trap_agreement(wins)
    why = why_traps_win(wins)
    kinds, bugs, by_task = why.kinds_by_subtask, why.bugs, why.kinds_by_task
    curve, margins, gaps = why.near_miss, why.margins, why.rank_gaps
    if args.json:
        report = {"release": args.release, "runs": list(args.run), "task": args.task,
                  "anchor_exclusion": not args.no_anchor_exclusion,
                  "kinds": {"by_task": records(by_task), "by_subtask": records(kinds), "bugs": records(bugs)},
                  "near_miss": records(curve),
                  "margins": {"quantiles": records(margins), "rank_gap_histogram": records(gaps)},
                  "surface_bias": surface.to_json(),
                  "agreement": {"counts": records(agreement.counts), "pairs": records(agreement.pairs),
                                "traps_beating_all": records(agreement.traps_beating_all())},
                  "slices": {"metric": slices.metric, "quantiles": slices.quantiles,
                             "by_query_length": records(slices.by_query_length),
                             "by_document_length": records(slices.by_document_length),
                             "duels": records(slices.duels)}}
        print(json.dumps(report, indent=1))
        return 0
    anchor = "C2C anchor excluded" if not args.no_anchor_exclusion else "C2C anchor kept"
    print(f"why traps win on {args.release} ({anchor}; a trap win = a rel=1 trap ranked above the query's best positive)")
    for run_id in args.run:
        print(f"run {terminal_safe(run_id)}")
        mine = by_task[by_task["run"] == run_id]
        for task, rows in mine.groupby("task", sort=True):
            total = int(rows["trap_wins"].sum())
            parts = ", ".join(f"{r.kind} {r.trap_wins} ({r.share_of_wins:.0%})" for r in rows.itertuples()
                              if r.trap_wins > 0)
            lost, with_positive = int(rows["queries_with_win"].iloc[0]), int(rows["queries"].iloc[0])
            # Of the queries with a positive: only those can be lost (share_lost, the one definition).
            share = f" ({share_lost(lost, with_positive):.1%})" if with_positive else ""
            print(f"  {task}: {total} trap wins; {lost:,} of {with_positive:,} queries with a positive lost to a "
                  f"trap{share}; {parts or 'none'}")
        for r in bugs[bugs["run"] == run_id].itertuples():
            print(f"  {r.task} bug {r.bug}: {r.trap_wins} of {r.judged} outrank the best positive ({r.win_rate:.0%})")
        for r in curve[curve["run"] == run_id].itertuples():
            print(f"  near-miss curve: pass {r.bin_low:.0%}–{r.bin_high:.0%}: {r.outranking}/{r.failing} failing "
                  f"solutions outrank the best positive ({r.probability:.0%}, 95% CI {r.low:.0%}–{r.high:.0%})")
        for r in margins[margins["run"] == run_id].itertuples():
            if r.queries:
                print(f"  {r.task} {r.measure} of trap wins: median {r.median:.4g} (q25 {r.q25:.4g}, q75 {r.q75:.4g}; "
                      f"{r.queries} queries, {r.unmeasured} without a listed positive)")
        for f in surface.findings():
            if f.run == run_id:
                print(f"  {f.task} surface bias: the trap shares more words with the query in {f.wins_trap_higher} of "
                      f"{f.trap_wins} trap wins, against {f.correct_trap_higher} of {f.correct} correct orderings "
                      f"({p_text(f.p_value)})")
        for r in slices.duels[slices.duels["run"] == run_id].itertuples():
            print("  " + duel_sentence(r.task, "length duels", r.decided, r.longer_first, r.longer_low, r.longer_high))
    names = {run_id: terminal_safe(run_name(run_meta(run_id))) for run_id in args.run}
    for task in sorted(agreement.counts["task"].unique()):
        print(agreement_sentence(task, *agreement.beating_all(task), len(agreement.runs)))
    for r in agreement.pairs.itertuples():
        print(jaccard_sentence(r.task, names[r.run_a], names[r.run_b], r.both, r.either, r.jaccard))
    return 0


def _stability_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", required=True, help="a stored run on one release")
    p.add_argument("--against", required=True, help="a stored run of the same model on the other release")
    p.add_argument("--any-model", action="store_true",
                   help="allow --against to be another model (or a run that records none): the change is then "
                        "the model's and the release's together")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: by_kind, by_bug, by_subtask (fractions 0..1)")


@command("stability", arguments=_stability_arguments,
         help="one model on two releases: trap-win rates by kind, bug kind and subtask, "
                                         "with Newcombe 95%% intervals of the change")
def _stability(args: argparse.Namespace) -> int:
    from coreb_core.analysis.stability import STABILITY_LEVELS, model_difference, release_stability
    from coreb_core.analysis.trap_wins import trap_wins
    from coreb_core.data.store import Store
    from coreb_core.present.trap_patterns import shift_text
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.meta import run_name

    if args.run == args.against:
        raise CorebError("--run and --against name the same run: stability compares one model on two releases")
    different = model_difference(run_meta(args.run), run_meta(args.against))
    if different and not args.any_model:  # before the slow part; the flag keeps the comparison possible
        raise CorebError(f"{terminal_safe(different)}: stability compares one model on two releases (a change "
                         "would be the model's, not the release's); --any-model compares them anyway")
    wins = []
    for run_id in (args.run, args.against):
        release = run_meta(run_id).made_on()
        with Store(release) as store:
            wins.append(trap_wins(store, {run_id: read_hits(run_id)}, not args.no_anchor_exclusion, args.task))
    shift = release_stability(*wins)
    if args.json:
        print(json.dumps({"run_a": shift.run_a, "release_a": shift.release_a, "run_b": shift.run_b,
                          "release_b": shift.release_b, "anchor_exclusion": not args.no_anchor_exclusion,
                          **{f"by_{level}": records(shift.level(level)) for level in STABILITY_LEVELS}}, indent=1))
        return 0
    names = [terminal_safe(run_name(run_meta(r))) for r in (shift.run_a, shift.run_b)]
    print(f"trap-win rates (a trap ranked above the query's best positive, per judged trap of queries with a "
          f"positive): {names[0]} (a) against {names[1]} (b); b − a with Newcombe's 95% interval")
    for level in STABILITY_LEVELS:
        frame = shift.level(level)
        if frame.empty:
            print(f"by {level}: neither release records one")
            continue
        print(f"by {level}:")
        for r in frame.itertuples():
            print(f"  {r.task} {terminal_safe(getattr(r, level))}: a {r.wins_a}/{r.traps_a}, b {r.wins_b}/{r.traps_b}, "
                  f"b − a {shift_text(r.difference, r.low, r.high)}")
    return 0

