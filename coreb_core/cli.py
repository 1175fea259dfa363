"""Command line: ``python -m coreb_core <command>``.

Every command turns a ``CorebError`` into plain lines on stderr and exit status 2; no traceback
reaches the user for bad input.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

from coreb_core.errors import CorebError

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}


def command(name: str):
    def register(fn: Callable[[argparse.Namespace], int]):
        COMMANDS[name] = fn
        return fn
    return register


@command("fetch")
def _fetch(args: argparse.Namespace) -> int:
    from coreb_core.ingest import import_release
    from coreb_core.sources import read_hub

    raw = read_hub(args.release, args.revision)
    path = import_release(raw, args.release)
    print(f"fetched {args.release} into {path}")
    return 0


@command("import-data")
def _import_data(args: argparse.Namespace) -> int:
    from coreb_core.ingest import import_release
    from coreb_core.sources import read_local

    layout, found_release, raw = read_local(Path(args.directory), args.split)
    release = args.release or found_release
    if not release:
        raise CorebError(f"{args.directory}: a {layout} layout names no release; pass --release NAME")
    path = import_release(raw, release)
    counts = ", ".join(f"{name}={len(t.rows)}" for name, t in raw.items())
    print(f"imported {release} ({layout} layout) into {path}: {counts}")
    return 0


@command("info")
def _info(args: argparse.Namespace) -> int:
    from coreb_core.store import info

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m coreb_core", description="CoREB error-analysis toolkit")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("fetch", help="download a release from the hub (hq-bench/coreb) into the cache")
    p.add_argument("--release", required=True, help="hub split, e.g. release_v2603")
    p.add_argument("--revision", default=None, help="hub git revision (commit, tag or branch)")

    p = sub.add_parser("import-data", help="import a local copy (hub layout, <config>.parquet folder, or JSONL)")
    p.add_argument("directory")
    p.add_argument("--release", default=None, help="cache name for the release (default: the hub split)")
    p.add_argument("--split", default=None, help="which hub release folder to import when there are several")

    p = sub.add_parser("info", help="releases in the cache, row counts, positives and traps per task")
    p.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except CorebError as exc:
        for line in str(exc).splitlines():
            print(f"error: {line}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
