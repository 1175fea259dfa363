"""Verbs of a model choice: the Model selection page's verdict (select) and the stakeholders' HTML report (report)."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from coreb_core.cli.registry import (
    command,
    selection_arguments,
)
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.text import terminal_safe
from coreb_core.views.output import json_ready


def _select_arguments(p: argparse.ArgumentParser) -> None:
    selection_arguments(p)
    p.add_argument("--json", action="store_true", help="the standings as JSON (fractions, p-values, records)")


@command("select", arguments=_select_arguments,
         help="rank stored runs for chosen tasks, languages and a parameter limit: the Model "
                                      "selection page's verdict, in the same words")
def _select(args: argparse.Namespace) -> int:
    from coreb_core.analysis.selection import recommend_stored
    from coreb_core.present.numbers import points
    from coreb_core.present.selection import (
        evidence_sentence,
        left_out_sentence,
        params_words,
        recommendation_sentence,
        selection_header,
        versus_first_words,
    )

    chosen = recommend_stored(args.release, args.runs, args.scheme, args.task or TASK_NAMES,
                              args.languages or LANGUAGE_SCOPES, args.max_params, args.metric,
                              not args.no_anchor_exclusion, args.average)
    rec = chosen.recommendation
    if args.json:
        # Strict JSON: a p-value without a test (the first run, a run sharing no query with it) is null, not NaN.
        print(json.dumps(json_ready({
            "release": args.release, "scheme": str(chosen.scheme), "metric": rec.metric, "tasks": list(rec.tasks),
            "languages": list(rec.languages), "budget_b": rec.budget_b, "average": rec.average,
            "verdict": recommendation_sentence(rec),
            "standings": [{**s._asdict(), "compared": s.compared} for s in rec.standings],
            "left_out": [{**x._asdict(), "tasks": list(x.tasks), "sentence": left_out_sentence(x)}
                         for x in rec.left_out],
            "excluded": rec.excluded.to_dict("records")}), indent=1, allow_nan=False))
        return 0
    print(terminal_safe(selection_header(rec, str(chosen.scheme), args.release)))
    print(terminal_safe(recommendation_sentence(rec)))
    print(terminal_safe(evidence_sentence(rec, str(chosen.scheme))))
    for s in rec.standings:
        vs = "" if s.rank == 1 else f"  vs #1: {versus_first_words(s)}"
        print(terminal_safe(f"{s.rank:>3}. {s.model}  {points(s.mean)} [{points(s.ci_low)}–{points(s.ci_high)}]  "
                            f"trap {points(s.trap_share)}%  {params_words(s.params_b)}  {s.queries} queries{vs}"))
    for left in rec.left_out:
        print(terminal_safe(f"  {left_out_sentence(left)}"))
    return 0


def _report_arguments(p: argparse.ArgumentParser) -> None:
    selection_arguments(p)
    p.add_argument("--out", required=True, help="the HTML file to write, e.g. report.html")


@command("report", arguments=_report_arguments,
         help="write a self-contained HTML report for stakeholders (prints to two A4 pages)")
def _report(args: argparse.Namespace) -> int:
    from coreb_core.report import build_report, check_out, write_report

    out = check_out(Path(args.out))  # before the slow part: nothing is evaluated for an unusable --out
    html = build_report(args.release, args.runs, args.scheme, args.task or TASK_NAMES, args.languages or LANGUAGE_SCOPES,
                        args.max_params, args.metric, not args.no_anchor_exclusion, args.average)
    write_report(out, html)
    print(f"wrote {out} ({len(html.encode('utf-8')) / 1024:.0f} KiB)")
    return 0

