"""Verbs of a model choice: the Model selection page's verdict (select) and the stakeholders' HTML report (report)."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from coreb_core.cli.registry import (
    command,
    selection_arguments,
)
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES

if TYPE_CHECKING:
    from coreb_core.views.selection import SelectionView


def _selection(args: argparse.Namespace) -> SelectionView:
    """The selection the arguments ask for: the one scope (``release_scope``, validated once by ``Scope.of``), then
    ``selection.build``. ``select`` prints it and ``report`` renders it, so both refuse the same arguments in the
    same words."""
    from coreb_core.views import selection

    scope = selection.release_scope(args.release, args.runs, args.scheme, not args.no_anchor_exclusion)
    return selection.build(scope, tasks=args.task or TASK_NAMES, languages=args.languages or LANGUAGE_SCOPES,
                           budget_b=args.max_params, metric=args.metric, average=args.average,
                           max_ms_per_text=args.max_ms_per_text, max_memory_gb=args.max_memory_gb)


def _select_arguments(p: argparse.ArgumentParser) -> None:
    selection_arguments(p)
    p.add_argument("--json", action="store_true", help="the standings as JSON (fractions, p-values, records)")


@command("select", arguments=_select_arguments,
         help="rank stored runs for chosen tasks, languages, a parameter limit and speed or memory limits: the Model "
              "selection page's verdict, in the same words")
def _select(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from coreb_core.views import published
    from coreb_core.views.output import render

    view = _selection(args)
    rec = view.recommendation  # the published models above the choice, as the page and the report name them
    above = published.build(view.scope, tasks=rec.tasks, languages=rec.languages,
                            budget_b=rec.budget_b).above_sentence(rec)
    print(render(replace(view, published_above=above), args.json))
    return 0


def _report_arguments(p: argparse.ArgumentParser) -> None:
    selection_arguments(p)
    p.add_argument("--out", required=True, help="the HTML file to write, e.g. report.html")


@command("report", arguments=_report_arguments,
         help="write a self-contained HTML report for stakeholders (prints to two A4 pages)")
def _report(args: argparse.Namespace) -> int:
    from coreb_core import report
    from coreb_core.views import published

    out = report.check_out(args.out)  # before the slow part: nothing is evaluated for an unusable --out
    view = _selection(args)
    rec = view.recommendation  # the published standings on the slice the selection was asked (and checked) for
    page = report.html(view, published.build(view.scope, tasks=rec.tasks, languages=rec.languages,
                                             budget_b=rec.budget_b))
    report.write_report(out, page)
    print(f"wrote {out} ({len(page.encode('utf-8')) / 1024:.0f} KiB)")
    return 0
