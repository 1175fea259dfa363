"""The CLI's registry: each verb registers its handler and its arguments together (``command``), beside each other
in its module; the argparse types that turn a library check into a refusal; the option groups several verbs share.

Example:
    >>> import coreb_core.cli  # registers every verb
    >>> sorted(COMMANDS)
    ['audit', 'changes', 'compare', 'compress', 'contrast', 'demo', 'difficulty', 'eval', 'export', 'fetch', 'hubs', 'import-data',
     'import-results', 'info', 'integrity', 'judge', 'judgments', 'mine', 'models', 'report', 'rerank-errors', 'results', 'run', 'runs',
     'samples', 'select', 'sql', 'stability', 'sweep', 'tiers', 'train-reranker', 'traps',
     'waterfall']
"""
from __future__ import annotations

import argparse
from typing import Callable, NamedTuple

from coreb_core.data.measures import NDCG_10, SELECTION_MEASURES, Measure, measures
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.errors import CorebError, check_alpha, check_budget, check_cost_limit

Handler = Callable[[argparse.Namespace], int]


class Verb(NamedTuple):
    """One CLI verb: its name, its one-line help, the function adding its arguments, its handler."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Handler


VERBS: dict[str, Verb] = {}
COMMANDS: dict[str, Handler] = {}  # name -> handler (what main runs)


def command(name: str, help: str, arguments: Callable[[argparse.ArgumentParser], None]
            ) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of verb ``name``, with its ``help`` line and the function that
    adds its ``arguments`` (defined right above it)."""
    def register(fn: Handler) -> Handler:
        VERBS[name] = Verb(name, help, arguments, fn)
        COMMANDS[name] = fn
        return fn
    return register


class UsageError(CorebError):
    """A command line argparse refuses; shown like every other error, as one ``error: …`` line."""


class Parser(argparse.ArgumentParser):
    """argparse, except that a refused command line raises ``UsageError`` (``main`` prints one line,
    exit status 2) instead of printing the usage block and exiting.

    >>> from coreb_core.cli import build_parser
    >>> build_parser().parse_args(["run", "--model", "bm25"])
    Traceback (most recent call last):
    coreb_core.cli.registry.UsageError: the following arguments are required: --release
    """

    def error(self, message: str):
        raise UsageError(message.removeprefix("argument "))


def _checked(check: Callable, name: str) -> Callable[[str], object]:
    """An argparse ``type`` from a library check: the check's CorebError becomes argparse's message
    (``--top-k: …``), so the command line and the library refuse the same values in the same words."""
    def convert(text: str):
        try:
            return check(text)
        except CorebError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = name
    return convert


def _count(text: str) -> int:
    value = int(text) if text.strip().isascii() and text.strip().isdigit() else 0
    if value < 1:
        raise CorebError(f"must be a whole number of at least 1, not {text!r}")
    return value


def _tasks(text: str) -> tuple[str, ...]:
    from coreb_core.retrieval.pipeline import check_tasks

    return check_tasks(t.strip() for t in text.split(",") if t.strip())


def _device(text: str) -> str:
    from coreb_core.retrieval.device import check_device

    return check_device(text)


def _budget(text: str) -> float:
    try:  # the library's check (finite, 0 or more), worded with the text as typed
        value = float(text)
        check_budget(value)
        return value
    except (ValueError, CorebError):
        raise CorebError(f"must be a finite number of billions, 0 or more, not {text!r}") from None


def _cost_limit(text: str, what: str) -> float:
    try:  # the library's check (finite, above 0), worded with the text as typed
        value = check_cost_limit(float(text), what)
        assert value is not None
        return value
    except (ValueError, CorebError):
        raise CorebError(f"must be a finite number above 0, not {text!r}") from None


def _metric(text: str) -> Measure:
    """The ``Measure`` a per-query column (``ndcg_at_10``) or any spelling ``Measure.parse`` reads (``nDCG@10``)
    names, among those every per-query table has (``measures()``)."""
    try:
        measure = Measure.parse(text)
    except ValueError:
        measure = None
    if measure is None or measure not in measures():
        raise CorebError(f"unknown metric {text!r}; choose a per-query column such as ndcg_at_10 or recall_at_100 "
                         "(ndcg, map, recall, precision, mrr, hit_rate at 1, 3, 5, 10, 20, 100 or 1000), or nDCG@10")
    return measure


def _selection_metric(text: str) -> Measure:
    """One of the measures a selection ranks on (``SELECTION_MEASURES``), in any spelling."""
    measure = _metric(text)
    if measure not in SELECTION_MEASURES:
        raise CorebError(f"a selection ranks on {', '.join(m.column for m in SELECTION_MEASURES)} "
                         f"(or nDCG@10, MAP@10, …), not {text!r}")
    return measure


def _alpha(text: str) -> float:
    """A significance level strictly between 0 and 1 (``errors.check_alpha``)."""
    try:
        value = float(text)
    except ValueError:
        raise CorebError(f"must be a number between 0 and 1 (exclusive), not {text!r}") from None
    return check_alpha(value)


COUNT, TASK_LIST, DEVICE = _checked(_count, "count"), _checked(_tasks, "tasks"), _checked(_device, "device")
BUDGET, METRIC, ALPHA = _checked(_budget, "budget"), _checked(_metric, "metric"), _checked(_alpha, "alpha")
SELECTION_METRIC = _checked(_selection_metric, "metric")
MS_LIMIT = _checked(lambda text: _cost_limit(text, "ms per text"), "ms per text")
GB_LIMIT = _checked(lambda text: _cost_limit(text, "GB of peak memory"), "GB")


# ------------------------------------------------------------------ options several verbs share, declared once
ANCHOR_HELP = "keep the C2C anchor in ranked lists (as MTEB)"
SCHEME_HELP = ("v2 (official, default), v1 (CoREB v1 rules rebuilt from v2, T2C as the paper says), v1_gen (the same, "
               "T2C as the generator code reads them), executed (passing code of the query's problem in a positive's language "
               "counts as relevant), judged (v2 with the judgments of `judge` applied), traps_as_hits (sensitivity view), trec, mteb (MTEB's CoREB "
               "tasks: positives only, queries without one left out, C2C anchor kept), or file:<name> (e.g. file:v1)")


def anchor_option(p: argparse.ArgumentParser) -> None:
    """``--no-anchor-exclusion``: the sidebar's C2C anchor toggle."""
    p.add_argument("--no-anchor-exclusion", action="store_true", help=ANCHOR_HELP)


def scheme_option(p: argparse.ArgumentParser, help: str = SCHEME_HELP) -> None:
    """``--scheme`` (default v2): the sidebar's scoring scheme."""
    p.add_argument("--scheme", default="v2", help=help)


def selection_arguments(p: argparse.ArgumentParser) -> None:
    """The constraints of a model selection: shared by ``select`` and ``report``."""
    p.add_argument("--release", required=True)
    p.add_argument("--runs", nargs="+", default=None, help="run ids (default: every stored run of the release)")
    p.add_argument("--task", nargs="+", choices=TASK_NAMES, default=None, help="tasks that matter (default: all)")
    p.add_argument("--languages", nargs="+", choices=LANGUAGE_SCOPES, default=None,
                   help="languages that matter (default: all; T2C: the constraint, C2C/C2T: the query code's)")
    p.add_argument("--metric", type=SELECTION_METRIC, default=NDCG_10,
                   help="the measure ranked on: ndcg_at_10 (default), map_at_10, recall_at_10, mrr_at_10, or nDCG@10")
    p.add_argument("--max-params", type=BUDGET, default=None, help="parameter limit in billions (default: none)")
    p.add_argument("--max-ms-per-text", type=MS_LIMIT, default=None,
                   help="speed limit: milliseconds per text as the run measured it (default: none; a run that measured "
                        "no speed is left out)")
    p.add_argument("--max-memory-gb", type=GB_LIMIT, default=None,
                   help="peak memory limit in GB (10^9 bytes; process RSS, or GPU memory on CUDA; default: none)")
    scheme_option(p)
    p.add_argument("--average", choices=["tasks", "queries"], default="tasks",
                   help="tasks: mean of task means (default, as the README's Avg); queries: query-weighted")
    anchor_option(p)
