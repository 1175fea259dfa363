"""Rank tiers of the scope's runs (``analysis.tiers``): the Overview's "Rank tiers" section and the ``tiers`` verb
(Model selection and the report read the tiers of their own slice, ``Recommendation.tiers``). Per-query metrics
under the scope's scheme, on one task or every task averaged; only the queries every run scored."""
from __future__ import annotations

from dataclasses import dataclass

from coreb_core.analysis.tiers import (
    AVERAGES,
    DEFAULT_ALPHA,
    DEFAULT_RESAMPLES,
    Average,
    Tiers,
    check_choice_of_task,
    rank_tiers,
    shared_values,
)
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.errors import CorebError, check_alpha
from coreb_core.evaluation.significance import DEFAULT_PERMUTATIONS, Correction, CorrectionName, adaptive_limit
from coreb_core.present.numbers import points
from coreb_core.present.selection import average_order_words
from coreb_core.present.tiers import method_words, rank_interval_words, tiers_sentence
from coreb_core.text import p_text, terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


@dataclass(frozen=True)
class TiersView:
    """The tiers of the scope's runs, with the names to print."""

    scope: Scope
    names: dict[str, str]
    tiers: Tiers
    average_order: str = ""  # where the other average orders two runs the other way, in words ('' when nowhere)

    def to_json(self) -> dict:
        """``tiers --json``: the runs (rank, tier, rank interval, mean as a fraction) and every pair's test."""
        t = self.tiers
        return {"release": self.scope.release, "scheme": str(self.scope.scheme),
                "anchor_exclusion": self.scope.anchor_exclusion, "task": t.task, "average": t.average,
                "metric": t.metric, "correction": t.correction.name, "alpha": t.alpha, "queries": t.queries,
                "n_permutations": t.n_permutations, "n_resamples": t.n_resamples, "tiers": t.tiers,
                "chained": t.chained, "average_order": self.average_order or None, "runs": [{**r, "name": self.names.get(r["run"], r["run"])}
                                               for r in records(t.table())],
                "pairs": records(t.pair_table())}

    def lines(self) -> list[str]:
        """The sentence, a line per run (tier, rank interval, mean ×100), a line per pair, the method."""
        t = self.tiers

        def name(run: str) -> str:
            return terminal_safe(self.names.get(run, run))

        out = [terminal_safe(tiers_sentence(t, self.names))]
        if self.average_order:
            out.append(terminal_safe(self.average_order))
        flips = adaptive_limit(t.n_permutations)  # the most flips a pair's test drew: the digits its p supports
        for r in t.runs:
            dropped = f"  ({r.dropped:,} of its queries dropped: not every run scored them)" if r.dropped else ""
            out.append(f"  tier {r.tier}  #{r.rank}  rank {rank_interval_words(r):<5}  {points(r.mean)}  "
                       f"{name(r.run)}{dropped}")
        for p in t.pairs:
            verdict = "differ" if p.significant else "do not differ"
            out.append(f"  {name(p.a)} vs {name(p.b)}: {verdict} ({p_text(p.p_adjusted, flips)} corrected, "
                       f"{p_text(p.p, flips)} alone), Δ {points(p.mean_delta)}")
        out.append(terminal_safe(method_words(t)))
        return out


def check_tasks_searched(scope: Scope, task: str | None, inputs: Inputs) -> None:
    """The refusals of ``rank_tiers`` that a run's recorded tasks already decide, said before anything is scored
    (and a join written): a run that did not search ``task``, or runs that searched no task in common. A run that
    records no tasks (an older one) is left to the scoring's own check."""
    searched = {r: set(inputs.meta(r).tasks or ()) for r in scope.run_ids if inputs.meta(r).tasks is not None}
    missing = [r for r, tasks in searched.items() if task is not None and task not in tasks]
    if missing:  # rank_tiers' words
        raise CorebError(f"run {missing[0]} has no scored query on {str(task).upper()}")
    if task is None and len(searched) == len(scope.run_ids) and not set.intersection(*searched.values()):
        raise CorebError("the runs share no scored query on any task: no tiers without common queries")


def build(scope: Scope, *, task: str | None = None, metric: Measure = NDCG_10,
          average: Average = "tasks", correction: CorrectionName | Correction = "holm",
          alpha: float = DEFAULT_ALPHA, n_permutations: int = DEFAULT_PERMUTATIONS,
          n_resamples: int = DEFAULT_RESAMPLES, inputs: Inputs | None = None) -> TiersView:
    """The scope's runs (two or more) in tiers on ``task`` (None: every task, averaged as ``average`` says).

    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> other = run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id
    >>> view = build(Scope.of("demo_v2603", [bm25, other], root=root), task="t2c", inputs=Inputs(root))
    >>> [r.run == bm25 for r in view.tiers.runs], view.tiers.queries, view.to_json()["tiers"]
    ([True, False], 720, 2)
    """
    inputs = inputs or Inputs()
    check_choice_of_task(task)
    chosen, alpha = Correction.parse(correction), check_alpha(alpha)  # before the slow part
    if average not in AVERAGES:
        raise CorebError(f"unknown average {average!r}; choose {' or '.join(AVERAGES)}")
    if len(scope.run_ids) < 2:
        raise CorebError("tiers need two or more runs")
    check_tasks_searched(scope, task, inputs)  # before the evaluation writes a join (was: refused after it)
    per_query = inputs.evaluation(scope).per_query(scope.scheme)
    tiers = rank_tiers(per_query, metric, task, average, list(scope.run_ids), chosen, alpha,
                       n_permutations, n_resamples)
    names, order = inputs.names(scope), ""
    if task is None:  # every task averaged: say where the other average orders runs differently
        other, _ = shared_values(per_query, metric, None, "queries" if average == "tasks" else "tasks",
                                 list(scope.run_ids))
        order = average_order_words({r.run: r.mean for r in tiers.runs}, other.mean().to_dict(), average, names)
    return TiersView(scope, names, tiers, order)
