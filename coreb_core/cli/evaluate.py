"""The eval verb: a stored run or a TREC run file scored with CoREB's official semantics."""
from __future__ import annotations

import argparse
import json
import sys

from coreb_core.cli.registry import (
    anchor_option,
    command,
    scheme_option,
)
from coreb_core.data.schema import GROUPINGS, TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.input_paths import check_input_path
from coreb_core.text import terminal_safe


def _eval_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--run", help="a stored run id")
    src.add_argument("--run-file", help="a TREC run file: qid Q0 docid rank score tag")
    p.add_argument("--task", choices=TASK_NAMES)
    scheme_option(p)
    anchor_option(p)
    p.add_argument("--by", choices=list(GROUPINGS))
    p.add_argument("--json", action="store_true")


@command("eval", arguments=_eval_arguments,
         help="score a stored run or a TREC run file with CoREB's official semantics")
def _eval(args: argparse.Namespace) -> int:
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import DENOMINATORS, aggregate, coverage, evaluate, summary
    from coreb_core.evaluation.schemes import Scheme
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.trec import read_trec_run

    try:
        scheme = Scheme.parse(args.scheme)
    except ValueError as exc:
        raise CorebError(str(exc)) from None
    store = Store(args.release)
    if args.run:
        meta = run_meta(args.run)
        if meta.release not in (None, args.release):
            raise CorebError(f"run {args.run} was made on release {meta.release}, not {args.release}")
        hits, source = read_hits(args.run), f"run:{args.run}"
    else:
        task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
        hits, source = read_trec_run(check_input_path(args.run_file), task_of), f"trec:{args.run_file}"
    if args.task:
        hits = hits[hits["task"] == args.task]
    anchor_exclusion = scheme.anchor_exclusion(not args.no_anchor_exclusion)  # mteb keeps the anchor
    per_query = evaluate(store, hits, scheme, anchor_exclusion=anchor_exclusion)
    covered = coverage(store, per_query, scheme)
    report = {"release": args.release, "scheme": str(scheme), "scheme_description": scheme.description,
              "anchor_exclusion": anchor_exclusion, "source": source, **summary(per_query),
              "coverage": {t: {**c._asdict(), "missing": c.missing} for t, c in covered.items()},
              "denominators": DENOMINATORS}
    for c in covered.values():
        if c.warning():
            print(f"warning: {terminal_safe(c.warning())}", file=sys.stderr)
    if args.by:
        table = aggregate(store, per_query, args.by)
        groups: dict = {}
        for row in table.to_dict("records"):
            task, key = row.pop("task"), row.pop(args.by)
            groups.setdefault(task, {})[str(key)] = row
        report["groups"] = groups
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=False, default=float))
        return 0
    print(f"{terminal_safe(source)} on {args.release}, scheme {scheme} ({scheme.description})")
    for task, m in report["tasks"].items():
        task_cover = covered.get(task)
        zero = (f" ({task_cover.without_relevant:,} without a relevant document, scoring 0)"
                if task_cover and task_cover.without_relevant else "")
        print(f"  {task}: {m['queries']:>5} queries{zero}  nDCG@10 {m['ndcg_at_10']:.4f}  MAP@10 {m['map_at_10']:.4f}  "
              f"Recall@10 {m['recall_at_10']:.4f}  MRR@10 {m['mrr_at_10']:.4f}  nDCG@1000 {m['ndcg_at_1000']:.4f}")
    print(f"  {DENOMINATORS}")
    for task, groups in report.get("groups", {}).items():  # --by: the breakdown, in text too
        print(f"  {task} by {args.by}:")
        for key, m in groups.items():
            print(f"    {terminal_safe(key)[:40]:<40} {int(m['queries']):>5} queries  nDCG@10 {m['ndcg_at_10']:.4f}  "
                  f"MAP@10 {m['map_at_10']:.4f}  Recall@10 {m['recall_at_10']:.4f}")
    o = report["overall_mean_of_tasks"]
    if o:
        print(f"  overall nDCG@10: query-weighted (as paper Table 3) "
              f"{report['overall_query_weighted']['ndcg_at_10']:.4f}; mean of tasks (as the README's Avg) "
              f"{o['ndcg_at_10']:.4f}")
    return 0

