"""Verbs of the trap questions: why traps win (traps), how trap-win rates move between releases (stability), hubs, the
qrels audit queue, and whether compressed embeddings lose more queries to traps (compress)."""
from __future__ import annotations

import argparse

from coreb_core.cli.registry import (
    anchor_option,
    command,
    scheme_option,
)
from coreb_core.data.schema import TASK_NAMES


def _traps_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="one or more stored run ids")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    p.add_argument("--level", "--by", dest="level", default="task", metavar="GROUPING",
                   help="the groups of the breakdown (the page's 'Group by'): task (default), subtask, target language, "
                        "'subtask × target language', or any metadata field: query.FIELD, anchor.FIELD or "
                        "positive.FIELD (e.g. query.anchor_model, positive.pass_rate)")
    scheme_option(p, "the sidebar's scheme (default v2); recorded with the numbers, which do not depend on it: a "
                     "trap win compares the judged grades, and nDCG@10 is v2's as labelled")
    anchor_option(p)
    p.add_argument("--json", action="store_true",
                   help="one object: breakdown, kinds, near_miss, margins, surface_bias, agreement, slices (fractions 0..1, "
                        "ranks as scored)")


@command("traps", arguments=_traps_arguments,
         help="why traps win: trap kinds, the near-miss curve, the margins and the surface bias of stored runs")
def _traps(args: argparse.Namespace) -> int:
    from coreb_core.views import traps
    from coreb_core.views.output import render
    from coreb_core.views.scope import Scope

    scope = Scope.of(args.release, args.run, args.scheme, not args.no_anchor_exclusion)
    print(render(traps.build(scope, task=args.task, level=args.level), args.json))
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
         help="one model on two releases: trap-win rates by kind, bug kind and subtask, with Newcombe 95%% intervals "
              "of the change (grade-based: no scheme enters)")
def _stability(args: argparse.Namespace) -> int:
    from coreb_core.views import stability
    from coreb_core.views.output import render

    pair = stability.TwoReleases.of(args.run, args.against, not args.no_anchor_exclusion, args.any_model)
    print(render(stability.build(pair, task=args.task), args.json))
    return 0


def _hubs_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.cli.registry import COUNT

    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="one or more stored run ids")
    p.add_argument("--task", choices=TASK_NAMES, required=True)
    p.add_argument("--k", type=COUNT, default=10, help="the list length (default 10: the top 10 nDCG@10 reads)")
    p.add_argument("--top", type=COUNT, default=10, help="hubs per run (default 10)")
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="one object: the hubs per run (share 0..1)")


@command("hubs", arguments=_hubs_arguments,
         help="hubs: the documents in the most top-k lists of each run, their grades for those queries, trap kind, "
              "length and the runs they are hubs of")
def _hubs(args: argparse.Namespace) -> int:
    from coreb_core.views import hubs
    from coreb_core.views.output import render
    from coreb_core.views.scope import Scope

    scope = Scope.of(args.release, args.run, anchor_exclusion=not args.no_anchor_exclusion)
    print(render(hubs.build(scope, task=args.task, k=args.k, top=args.top), args.json))
    return 0


def _audit_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.cli.registry import COUNT

    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="one or more stored run ids")
    p.add_argument("--k", type=COUNT, default=10, help="within the top k (default 10)")
    p.add_argument("--include-traps", action="store_true",
                   help="also the re-gradable traps: rel=1 passing solutions of the query's problem, in a language it "
                        "allows, that runs rank above every positive (grade 'trap')")
    anchor_option(p)
    p.add_argument("--json", action="store_true",
                   help="one object: every candidate with its grade and class, the classes' words, counts per task")


@command("audit", arguments=_audit_arguments,
         help="the qrels audit queue: unjudged documents of a query's problem, in a language the generator allows "
              "it, that runs rank above every positive, each classed by the generator's rules (would be rel=2, trap "
              "beyond the cap, would be rel=1, other), with how many runs put each there")
def _audit(args: argparse.Namespace) -> int:
    from coreb_core.views import audit
    from coreb_core.views.output import render
    from coreb_core.views.scope import Scope

    scope = Scope.of(args.release, args.run, anchor_exclusion=not args.no_anchor_exclusion)
    print(render(audit.build(scope, k=args.k, include_traps=args.include_traps), args.json))
    return 0


def _compress_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.cli.registry import COUNT
    from coreb_core.retrieval.compression import DEFAULT_DIMS, PRECISIONS

    p.add_argument("--release", required=True)
    p.add_argument("--run", required=True, help="a stored dense run (its vectors are read from the embedding cache)")
    p.add_argument("--dims", type=COUNT, nargs="+", default=None,
                   help="truncation widths, renormalised (default: " + " ".join(map(str, DEFAULT_DIMS)) + " below the "
                        "model's width); the full width is always scored: it is the run")
    p.add_argument("--precision", nargs="+", choices=PRECISIONS, default=list(PRECISIONS),
                   help="float32, int8 (calibrated on the task's documents), binary (Hamming); default all three")
    p.add_argument("--task", choices=TASK_NAMES, default=None, help="one task (default: every task the run searched)")
    anchor_option(p)
    p.add_argument("--json", action="store_true",
                   help="one object: per variant and task, nDCG@10 and the share lost to a trap (0..1), their "
                        "changes from the run, bytes per vector")


@command("compress", arguments=_compress_arguments,
         help="compressed embeddings: a dense run searched again from its cached vectors truncated (Matryoshka, "
              "renormalised) and int8 / binary; nDCG@10 and the share of queries lost to a trap per variant")
def _compress(args: argparse.Namespace) -> int:
    from coreb_core.views import compression
    from coreb_core.views.output import render
    from coreb_core.views.scope import Scope

    scope = Scope.of(args.release, [args.run], anchor_exclusion=not args.no_anchor_exclusion)
    view = compression.build(scope, run=args.run, dims=None if args.dims is None else tuple(args.dims),
                             precisions=tuple(args.precision), task=args.task)
    print(render(view, args.json))
    return 0
