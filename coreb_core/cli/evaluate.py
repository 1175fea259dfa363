"""The eval verb: a stored run or a TREC run file scored with CoREB's official semantics."""
from __future__ import annotations

import argparse
import sys

from coreb_core.cli.registry import (
    DEVICE,
    anchor_option,
    command,
    scheme_option,
)
from coreb_core.data.schema import GROUPINGS, TASK_NAMES
from coreb_core.input_paths import check_input_path


def _eval_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--run", help="a stored run id")
    src.add_argument("--run-file", help="a TREC run file: qid Q0 docid rank score tag")
    p.add_argument("--task", choices=TASK_NAMES)
    scheme_option(p)
    anchor_option(p)
    p.add_argument("--by", metavar="GROUPING",
                   help=f"break the means down by {', '.join(GROUPINGS)} or any metadata field: query.FIELD, "
                        "anchor.FIELD or positive.FIELD (e.g. query.anchor_model, positive.pass_rate)")
    p.add_argument("--json", action="store_true")


@command("eval", arguments=_eval_arguments,
         help="score a stored run or a TREC run file with CoREB's official semantics")
def _eval(args: argparse.Namespace) -> int:
    from coreb_core.runs.trec import read_trec_run
    from coreb_core.views import scores
    from coreb_core.views.inputs import Inputs
    from coreb_core.views.output import render
    from coreb_core.views.scope import Scope

    # the scheme decides the anchor: mteb keeps it (Scope.of)
    scope = Scope.of(args.release, [args.run] if args.run else [], args.scheme, not args.no_anchor_exclusion)
    inputs, hits, source = Inputs(), None, None
    if not args.run:
        task_of = dict(inputs.store(args.release).sql("SELECT query_id, task FROM queries").fetchall())
        hits, source = read_trec_run(check_input_path(args.run_file), task_of), f"trec:{args.run_file}"
    view = scores.build(scope, hits=hits, source=source, task=args.task, by=args.by, inputs=inputs)
    scores.warn(view)
    print(render(view, args.json))
    return 0


def _waterfall_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    p.add_argument("--model", required=True, help="a model of the registry (`models`) with runs on the release")
    p.add_argument("--task", choices=TASK_NAMES)
    p.add_argument("--make", action="store_true",
                   help="first make the step runs not stored yet (one encode of the release per step: minutes each)")
    p.add_argument("--device", type=DEVICE, default="cpu",
                   help="the device whose card precision the steps use, and --make encodes on (default cpu)")
    p.add_argument("--json", action="store_true")


@command("waterfall", arguments=_waterfall_arguments,
         help="why a number is not the leaderboard's: nDCG@10 step by step from MTEB's protocol to CoREB's")
def _waterfall(args: argparse.Namespace) -> int:
    from coreb_core.progress import TqdmProgress
    from coreb_core.views import waterfall
    from coreb_core.views.output import render

    if args.make:
        bar = TqdmProgress(f"{args.model} waterfall steps on {args.release}")
        try:
            made = waterfall.make_missing(args.release, args.model, device=args.device, progress=bar)
        finally:
            bar.close()
        print(f"made {len(made)} step run(s): {', '.join(made) or 'none needed'}", file=sys.stderr)
    view = waterfall.build(args.release, args.model, device=args.device, task=args.task)
    print(render(view, args.json))
    return 0
