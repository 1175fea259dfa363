"""Command line: ``python -m coreb_core <verb>``. One module per verb family, each verb's arguments beside its
handler (``registry.command``); ``main`` builds the parser and applies the one error policy.

- ``data``: fetch, import-data, demo, info, integrity, sql
- ``runs``: models, run, sweep, runs, export, import-results, results
- ``evaluate``: eval, waterfall
- ``traps``: traps, hubs, audit, compress, stability
- ``compare``: compare, tiers, contrast, difficulty, rerank-errors
- ``training``: samples, mine, train-reranker
- ``judgments``: judge, judgments
- ``selection``: select, report
"""
from coreb_core.cli.main import ORDER, build_parser, main
from coreb_core.cli.registry import COMMANDS, VERBS, UsageError

__all__ = ["COMMANDS", "ORDER", "VERBS", "UsageError", "build_parser", "main"]
