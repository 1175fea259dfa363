"""Paired tests of some runs on one task and metric (the Compare page's verdicts and intervals, the ``compare``
verb): every pair or each run against a baseline, a correction across the comparisons, the t-test beside the
randomization test. Per-query metrics under the scope's scheme."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd

from coreb_core.analysis import comparison
from coreb_core.analysis.comparison import (
    PairVerdict,
    headline_verdict,
    metric_columns,
    pair_deltas,
    pair_table,
    pair_verdicts,
    recorrect,
    run_intervals,
    split_runs,
)
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import TaskName
from coreb_core.errors import CorebError
from coreb_core.evaluation.significance import Correction, CorrectionName, with_correction
from coreb_core.present.display import verdict_sentence
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


def per_query(scope: Scope, *, task: TaskName, inputs: Inputs | None = None) -> dict[str, pd.DataFrame]:
    """Each run's per-query rows of one task under the scope's scheme (a run made for other tasks: empty)."""
    inputs = inputs or Inputs()
    return split_runs(inputs.evaluation(scope).per_query(scope.scheme), task, list(scope.run_ids))


def deltas(scope: Scope, *, task: TaskName, a: str, b: str, metric: Measure = NDCG_10,
           inputs: Inputs | None = None) -> pd.DataFrame:
    """Per query both runs scored: a's and b's ``metric``, Δ = a − b and the outcome for a, with the query's subtask
    and text (``pair_deltas``), largest Δ first."""
    inputs = inputs or Inputs()
    return pair_deltas(per_query(scope, task=task, inputs=inputs), a, b, metric,
                       store=inputs.store(scope.release))


def measures_of(rows: dict[str, pd.DataFrame]) -> list[Measure]:
    """The measures a comparison can test on: the per-query columns of ``rows`` (``per_query``) that name a
    ``Measure``, in frame order (``dcg_at_10`` and the like are no measure)."""
    found = []
    for column in metric_columns(next(iter(rows.values()))) if rows else []:
        try:
            found.append(Measure.parse(column))
        except ValueError:
            continue
    return found


class QueryCoverage(NamedTuple):
    """How many queries the compared runs share: in every run, in at least one, and dropped (any − shared)."""

    shared: int
    any: int
    dropped: int


def coverage(rows: dict[str, pd.DataFrame]) -> QueryCoverage:
    """The queries of ``rows`` (``per_query``) in every run, in any and dropped.

    >>> q1_q2 = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2"], "ndcg_at_10": [0.5, 1.0]})
    >>> coverage({"a": q1_q2, "b": q1_q2.tail(1)})
    QueryCoverage(shared=1, any=2, dropped=1)
    """
    counts = comparison.coverage(rows)
    return QueryCoverage(counts["shared"], counts["any"], counts["dropped"])


@dataclass(frozen=True)
class PairedTests:
    """The slow part (10,000 resamples per pair), computed once under Holm; ``corrected`` applies a correction."""

    scope: Scope
    task: str
    metric: Measure
    baseline: str | None
    pairs: pd.DataFrame  # pair_table
    intervals: pd.DataFrame  # run_intervals
    verdicts: list[PairVerdict]  # pair_verdicts, in the order of pairs


def tests(scope: Scope, *, task: TaskName, metric: Measure = NDCG_10, baseline: str | None = None,
          inputs: Inputs | None = None) -> PairedTests:
    """Paired tests, verdicts and intervals of the scope's runs (at least two; ``baseline`` one of them)."""
    inputs = inputs or Inputs()
    if len(scope.run_ids) < 2:
        raise CorebError("compare needs two or more runs")
    if baseline is not None and baseline not in scope.run_ids:
        raise CorebError(f"--baseline {terminal_safe(baseline)} is not one of the --run ids")
    rows, names = per_query(scope, task=task, inputs=inputs), inputs.names(scope)
    pairs = pair_table(rows, metric, labels=names, baseline=baseline)
    return PairedTests(scope, task, metric, baseline, pairs, run_intervals(rows, metric, labels=names),
                       pair_verdicts(rows, pairs, task, baseline=baseline))


@dataclass(frozen=True)
class CompareView:
    """The verdicts under one correction: what ``compare`` prints and the Compare page shows."""

    tests: PairedTests
    correction: Correction
    names: dict[str, str]
    pairs: pd.DataFrame  # the pair table with the correction's p-values
    verdicts: list[PairVerdict]
    headline: PairVerdict | None  # the result stated first

    def to_json(self) -> dict:
        """``compare --json``: the verdicts as objects (fractions 0..1)."""
        t = self.tests
        return {"release": t.scope.release, "task": t.task, "metric": t.metric.column, "scheme": str(t.scope.scheme),
                "anchor_exclusion": t.scope.anchor_exclusion, "baseline": t.baseline,
                "correction": str(self.correction), "intervals": records(t.intervals),
                "verdicts": [{**v._asdict(), "correction": str(v.correction)} for v in self.verdicts]}

    def lines(self) -> list[str]:
        """A sentence per pair (a pair that shares no query has no test to report), with the t-test's p."""
        return [terminal_safe(verdict_sentence(v, self.names)) + (f" Paired t-test: p = {v.p_ttest:.3g}."
                                                                   if v.shared else "") for v in self.verdicts]


def corrected(tests: PairedTests, correction: CorrectionName | Correction = "holm",
              inputs: Inputs | None = None) -> CompareView:
    """``tests`` judged under ``correction`` (nothing is tested again)."""
    inputs = inputs or Inputs()
    chosen = correction if isinstance(correction, Correction) else Correction.parse(correction)
    verdicts = recorrect(tests.verdicts, chosen)
    return CompareView(tests, chosen, inputs.names(tests.scope), with_correction(tests.pairs, chosen), verdicts,
                       headline_verdict(verdicts, tests.intervals))


def build(scope: Scope, *, task: TaskName, metric: Measure = NDCG_10, baseline: str | None = None,
          correction: CorrectionName | Correction = "holm", inputs: Inputs | None = None) -> CompareView:
    """The paired tests of the scope's runs on ``task``, judged under ``correction``.

    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> other = run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id
    >>> view = build(Scope.of("demo_v2603", [bm25, other], root=root), task="c2c", inputs=Inputs(root))
    >>> len(view.verdicts), view.headline is view.verdicts[0], view.to_json()["correction"]
    (1, True, 'holm')
    """
    inputs = inputs or Inputs()
    return corrected(tests(scope, task=task, metric=metric, baseline=baseline, inputs=inputs), correction, inputs)
