"""``python -m coreb_core <verb>``: the parser built from the registry, and ``main`` with the one error policy.

Every verb turns a ``CorebError`` into plain lines on stderr and exit status 2; no traceback reaches the user for
bad input.

Example:
    >>> build_parser().parse_args(["run", "--model", "bm25", "--release", "demo_v2603"]).profile
    'official'
"""
from __future__ import annotations

import argparse
import os
import sys

from coreb_core.cli import compare, data, evaluate, judgments, runs, selection, training, traps  # noqa: F401  (each registers its verbs)
from coreb_core.cli.registry import VERBS, Parser
from coreb_core.errors import CorebError, file_error
from coreb_core.input_paths import unconfined
from coreb_core.text import terminal_safe

# The order ``--help`` lists the verbs in: data first, then runs, scoring, the analyses, the model choice.
ORDER = ("fetch", "import-data", "demo", "info", "integrity", "sql", "models", "run", "sweep", "runs", "export", "import-results", "results",
         "eval", "changes", "waterfall", "traps", "hubs", "audit", "compress", "stability", "compare", "tiers", "contrast",
         "difficulty", "rerank-errors", "samples", "mine", "train-reranker", "judge", "judgments", "select", "report")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every verb, each with the arguments its module declares beside its handler.

    >>> args = build_parser().parse_args(["run", "--model", "bm25", "--release", "demo_v2603"])
    >>> args.command, args.model, args.profile, args.tasks, args.device, args.top_k
    ('run', 'bm25', 'official', ('t2c', 'c2c', 'c2t'), 'auto', 100)
    """
    parser = Parser(prog="python -m coreb_core", description="CoREB error-analysis toolkit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="<verb>")
    for name in ORDER:
        verb = VERBS[name]
        verb.arguments(sub.add_parser(name, help=verb.help, description=verb.help))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one verb; its exit status (2 for a CorebError, whose lines go to stderr as ``error: …``).

    >>> main(["eval", "--release", "no_such_release", "--run", "r1"])   # stderr: error: release 'no_such_release' is not in the cache …
    2
    >>> main(["run", "--model", "bm25", "--release", "demo_v2603", "--top-k", "0"])   # stderr: error: --top-k: must be …
    2
    """
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help printed the usage (a refusal raises UsageError instead)
            return int(exc.code or 0)
        with unconfined():  # the CLI reads any path its user names; the web app confines its paths
            return VERBS[args.command].run(args)
    except BrokenPipeError:
        # The reader went away (`… | head`): stop quietly, as Unix tools do; stdout goes to /dev/null so the
        # interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CorebError, OSError) as exc:
        # An OSError is the file system's (an unreadable file, a read-only cache): one line naming the path.
        text = str(exc if isinstance(exc, CorebError) else file_error(exc))
        for line in text.splitlines():
            print(f"error: {terminal_safe(line)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
