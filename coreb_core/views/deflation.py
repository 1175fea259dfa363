"""How much CoREB's v1 rules overstate each run against v2, per task and subtask, and the queries behind the drop
(the Qrel deflation page). The v1 view is the release's stored v1 qrel files (``file:v1``) where it has them, else
the v1 rules rebuilt from v2 under one of two readings (``v1``: the paper's; ``v1_gen``: the generator code's)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

import pandas as pd

from coreb_core.analysis.deflation import (
    FILE,
    Deflation,
    Reading,
    average_flips,
    deflation_table,
    headline,
    overall,
    scheme_definitions,
    scheme_flips,
    slope_data,
    top_drop_queries,
)
from coreb_core.data.schema import TASK_NAMES, TaskName
from coreb_core.evaluation.schemes import Scheme
from coreb_core.present.display import average_flip_sentence, scheme_flip_sentence
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope


def v1_scope(scope: Scope, *, inputs: Inputs | None = None) -> Scope:
    """The scope whose scheme names the v1 view: ``file:v1`` where the release stores v1 qrel files."""
    inputs = inputs or Inputs()
    if "v1" in inputs.store(scope.release).extra_qrels:
        return replace(scope, scheme=Scheme.parse("file:v1"))
    return scope


@dataclass(frozen=True)
class DeflationView:
    """The Qrel deflation page's tables (fractions)."""

    by_task: pd.DataFrame  # deflation_table(…, "task")
    slopes: pd.DataFrame  # slope_data(by_task)
    by_subtask: pd.DataFrame  # deflation_table(…, "subtask", task)
    top: pd.DataFrame  # top_drop_queries(…, task, per_run)
    findings: list[Deflation]  # the answer: per run over every task (overall), then per task (headline)
    definitions: pd.DataFrame  # scheme_definitions(): each scheme compared, in plain language
    # Where the two averages order two runs differently (v2), and where v1 and v2 order two runs differently on each
    # task, in words: the page says so beside the answer
    order_notes: tuple[str, ...] = ()

    @property
    def rebuilt_subtasks(self) -> pd.DataFrame:
        """The per-subtask rows of the rebuilt v1 rules (the stored v1 files' rows left out): the drop chart's."""
        return self.by_subtask[self.by_subtask["v1_source"] != FILE]


def build(scope: Scope, *, task: TaskName, per_run: int = 10, reading: Reading = "v1",
          labels: Mapping[str, str] | None = None, inputs: Inputs | None = None,
          average: str = "tasks") -> DeflationView:
    """Deflation of the scope's runs (the scope's scheme names the v1 view, see ``v1_scope``) under ``reading``, by
    task, by ``task``'s subtasks, and the ``per_run`` queries of ``task`` that lose most; the overall answer averages
    the tasks as ``average`` says (the mean of task means by default, as Model selection ranks; or "queries").

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), task="t2c", inputs=Inputs(root))
    >>> sorted(view.by_task["task"].unique())
    ['c2c', 'c2t', 't2c']
    >>> [(f.task, f.run == bm25) for f in view.findings]   # every task at once first, then each task
    [('all tasks', True), ('t2c', True), ('c2c', True), ('c2t', True)]
    """
    inputs = inputs or Inputs()
    evaluation, store = inputs.evaluation(scope), inputs.store(scope.release)
    names = dict(labels) if labels is not None else inputs.names(scope)
    if not evaluation.has(reading):  # the generator's reading: its per-query table beside the paper's v1
        other = inputs.evaluation(replace(scope, scheme=Scheme.parse(reading))).per_query(reading)
        evaluation = replace(evaluation, schemes=evaluation.schemes + (reading,),
                             per_query_tables={**evaluation.per_query_tables, reading: other})
    by_task = deflation_table(store, evaluation, "task", labels=names, reading=reading)
    notes = [average_flip_sentence(f, names) for f in average_flips(by_task)]
    notes += [scheme_flip_sentence(f, t, names) for t in TASK_NAMES for f in scheme_flips(by_task, t)]
    return DeflationView(by_task, slope_data(by_task),
                         deflation_table(store, evaluation, "subtask", task=task, labels=names, reading=reading),
                         top_drop_queries(evaluation.traps, task, per_run, store=store, labels=names,
                                          v1=evaluation.per_query(reading)),
                         overall(by_task, average) + headline(by_task), scheme_definitions(), tuple(notes))
