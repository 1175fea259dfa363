"""Verbs of the cached data: fetch, import-data, demo, info, and the read-only SQL console (sql)."""
from __future__ import annotations

import argparse
import json
import sys

from coreb_core.cli.registry import (
    COUNT,
    anchor_option,
    command,
)
from coreb_core.errors import CorebError
from coreb_core.input_paths import check_input_path
from coreb_core.text import terminal_safe


def _fetch_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True, help="hub split, e.g. release_v2603")
    p.add_argument("--revision", default=None, help="hub git revision (commit, tag or branch)")


@command("fetch", arguments=_fetch_arguments,
         help="download a release from the hub (hq-bench/coreb) into the cache")
def _fetch(args: argparse.Namespace) -> int:
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_hub

    raw = read_hub(args.release, args.revision)
    path = import_release(raw, args.release)
    print(f"fetched {args.release} into {path}")
    return 0


def _import_data_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("directory")
    p.add_argument("--release", default=None, help="cache name for the release (default: the hub split)")
    p.add_argument("--split", default=None, help="which hub release folder to import when there are several")


@command("import-data", arguments=_import_data_arguments,
         help="import a local copy (hub layout, <config>.parquet folder, or JSONL)")
def _import_data(args: argparse.Namespace) -> int:
    from coreb_core.paths import release_dir
    from coreb_core.results.uploads import import_dataset

    release, counts = import_dataset(check_input_path(args.directory), args.release, args.split)
    listed = ", ".join(f"{name}={n}" for name, n in counts.items())
    print(f"imported {release} into {release_dir(release)}: {listed}")
    return 0


def _demo_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.data.mini.build import RELEASES as MINI_RELEASES  # the choices from the module that owns them

    p.add_argument("--release", choices=MINI_RELEASES, default=None, help="only this release")
    p.add_argument("--scale", type=COUNT, default=1, help="write an N-times larger synthetic variant <release>_xN")
    p.add_argument("--run-toolchains", action="store_true",
                   help="also execute C++/Java/Go/Ruby solutions when their toolchain is installed "
                        "(default: Python is executed, other languages use the verdicts recorded with verdicts.json)")


@command("demo", arguments=_demo_arguments,
         help="build CoREB-mini (the bundled demo benchmark) into the cache")
def _demo(args: argparse.Namespace) -> int:
    import time

    from tqdm import tqdm

    from coreb_core.data.mini.build import RELEASES, build_release

    releases = [args.release] if args.release else list(RELEASES)
    for release in releases:
        start = time.perf_counter()
        with tqdm(total=100, desc=f"{release}: judging", unit="%", leave=False, disable=None) as bar:
            def progress(msg: str, frac: float) -> None:
                bar.n = round(100 * frac)
                bar.refresh()
            name, path = build_release(release, scale=args.scale, run_toolchains=args.run_toolchains,
                                       progress=progress)
        print(f"built {name} into {path} in {time.perf_counter() - start:.1f} s")
    return 0


def _info_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")


@command("info", arguments=_info_arguments,
         help="releases in the cache, row counts, positives and traps per task")
def _info(args: argparse.Namespace) -> int:
    from coreb_core.data.store import info

    report = info()
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=True))
        return 0
    if not report["releases"]:
        print(f"no releases cached in {report['cache']}; run: python -m coreb_core demo")
    for release, data in report["releases"].items():
        print(f"{release}")
        for config, n in data["rows"].items():
            print(f"  {config:<20} {n:>7,} rows")
        for task, c in data["tasks"].items():
            print(f"  {task}: {c['queries']:,} queries, {c['positives']:,} positives, {c['traps']:,} traps, "
                  f"{c['judged_negatives']:,} judged negatives")
    return 0


def _sql_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", nargs="?", default=None,
                   help="one SELECT (or WITH … SELECT, DESCRIBE, SHOW, SUMMARIZE) statement")
    p.add_argument("--release", required=True)
    p.add_argument("--runs", nargs="+", default=None,
                   help="run ids whose hits and per-query metrics become the tables hits and metrics (default: none)")
    p.add_argument("--scheme", default="v2", help="the metrics table's scheme besides v2 and v1, e.g. traps_as_hits")
    anchor_option(p)
    p.add_argument("--json", action="store_true", help="a list of row objects instead of a table")


@command("sql", arguments=_sql_arguments,
         help="one read-only SELECT over a cached release and chosen runs (the Data page's "
                                   "SQL console: no writes, no files, no network; rows, bytes and cells capped)")
def _sql(args: argparse.Namespace) -> int:
    from coreb_core.data.sql_console import check_select
    from coreb_core.views import data
    from coreb_core.views.scope import Scope

    if args.query is None and args.runs and " " in args.runs[-1].strip():
        # `sql --runs A B "SELECT …"`: --runs took the query too; a run id holds no space, a query does
        args.query, args.runs = args.runs[-1], args.runs[:-1]
    if args.query is None:
        raise CorebError("sql: give one SELECT statement")
    check_select(args.query)  # before the release is copied and the runs are scored
    scope = Scope.of(args.release, args.runs or (), args.scheme, not args.no_anchor_exclusion)
    with data.console(scope) as console:  # the Data page's console: the same tables, the same schemes
        result = console.query(args.query)
    frame = result.frame
    if args.json:
        if frame.columns.duplicated().any():
            raise CorebError("--json needs distinct column names; rename the repeated ones with AS")
        print(frame.to_json(orient="records", date_format="iso", indent=1))
    else:
        # Text cells with their control characters escaped (terminal_safe): a value cannot move the cursor,
        # recolour or clear the terminal, or break a table row.
        text = frame.map(lambda v: terminal_safe(v) if isinstance(v, str) else v) if len(frame) else frame
        text = text.set_axis([terminal_safe(c) for c in frame.columns], axis=1)  # was: a column name's ESC raw
        print(text.to_string(index=False) if len(frame) else "  ".join(terminal_safe(c) for c in frame.columns))
        print(f"{len(frame):,} rows")
    for note in result.notes():
        print(f"note: {note}", file=sys.stderr)
    return 0



def _integrity_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--releases", nargs=2, required=True, metavar=("FIRST", "SECOND"),
                   help="two cached releases, e.g. the training and the test release")
    p.add_argument("--json", action="store_true")


@command("integrity", arguments=_integrity_arguments,
         help="two releases share no source problem and no text (exit 1 when they do); ids reused across them")
def _integrity(args: argparse.Namespace) -> int:
    from coreb_core.views import integrity
    from coreb_core.views.output import render

    view = integrity.build(*args.releases)
    print(render(view, args.json))
    return 0 if view.check.passed else 1
