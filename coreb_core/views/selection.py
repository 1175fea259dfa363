"""Which stored run to pick for chosen tasks, languages, a parameter limit and cost limits (ms per text, peak GB): the Model selection page's verdict,
the ``select`` verb and the report's (``coreb_core.report`` renders this view; ``recommend_stored`` on the scope's
evaluation)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from coreb_core.analysis.selection import Average, Recommendation, cost_columns, recommend_stored
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.evaluation.significance import DEFAULT_PERMUTATIONS, adaptive_limit
from coreb_core.present.format import release_words
from coreb_core.present.numbers import points
from coreb_core.present.selection import (
    average_order_sentence,
    evidence_sentence,
    is_tie,
    left_out_sentence,
    params_words,
    recommendation_sentence,
    selection_header,
    versus_first_words,
)
from coreb_core.present.tiers import rank_interval_words, selection_tier_sentence
from coreb_core.runs.cost import cost_brief
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


def release_scope(release: str, run_ids: Sequence[str] | None = None, scheme: str = "v2",
                  anchor_exclusion: bool = True, root: Path | None = None) -> Scope:
    """The scope of a selection: the given runs, or every stored run of the release (oldest first), validated by
    ``Scope.of`` (the one check, and its words, for ``select``, ``report`` and the page).

    >>> release_scope("demo_v2603", root=root).run_ids == (bm25,)
    True
    >>> release_scope("demo_v2602", root=root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: release demo_v2602 has no stored runs; make one with: python -m coreb_core run --model bm25 --release demo_v2602
    >>> release_scope("demo_v2603", [bm25, bm25], root=root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --run names bm25__demo_v2603__... more than once
    """
    from coreb_core.data.store import check_cached
    from coreb_core.runs.folders import list_runs

    check_cached(release, root)  # an unknown release is said as such, not as a release without runs
    if not run_ids:
        run_ids = [m.run_id for m in sorted(list_runs(release, root), key=lambda m: m.created or "")]
        if not run_ids:
            raise CorebError(f"{release_words(release)} has no stored runs; make one with: python -m coreb_core run "
                             f"--model bm25 --release {release}")
    return Scope.of(release, run_ids, scheme, anchor_exclusion, root)


@dataclass(frozen=True)
class SelectionView:
    """The recommendation for the scope's runs, and what it was asked under."""

    scope: Scope
    recommendation: Recommendation
    n_permutations: int = DEFAULT_PERMUTATIONS  # sign flips of each paired randomization test
    # The published models above the first run and not run here (``PublishedView.above_sentence``; '' when none or
    # not asked): a choice among our runs is not one among all models
    published_above: str = ""

    def to_json(self) -> dict:
        """``select --json``: the standings as objects (fractions, p-values; a p-value without a test is null), each
        with its measured ``cost`` (``run.json``'s cost block with its rates; null: not measured)."""
        rec = self.recommendation
        return {"release": self.scope.release, "scheme": str(self.scope.scheme), "metric": rec.metric,
                "tasks": list(rec.tasks), "languages": list(rec.languages), "budget_b": rec.budget_b,
                "max_ms_per_text": rec.max_ms_per_text, "max_memory_gb": rec.max_memory_gb,
                "average": rec.average, "verdict": recommendation_sentence(rec),
                "published_above": self.published_above or None,
                "average_order": average_order_sentence(rec) or None, "other_means": rec.other_means,
                "standings": [{**s._asdict(), "compared": s.compared, "cost": s.cost.to_json() if s.cost else None,
                               **cost_columns(s.cost)} for s in rec.standings],
                "left_out": [{**x._asdict(), "tasks": list(x.tasks), "sentence": left_out_sentence(x)}
                             for x in rec.left_out],
                "excluded": rec.excluded.to_dict("records"),
                "tiers": None if rec.tiers is None else {
                    "correction": rec.tiers.correction.name, "alpha": rec.tiers.alpha, "queries": rec.tiers.queries,
                    "tiers": rec.tiers.tiers, "chained": rec.tiers.chained, "runs": records(rec.tiers.table()),
                    "pairs": records(rec.tiers.pair_table())}}

    def lines(self) -> list[str]:
        """The page's verdict and evidence in its words, then one line per ranked run and per run left out."""
        rec, scheme = self.recommendation, str(self.scope.scheme)
        out = [selection_header(rec, scheme, self.scope.release), recommendation_sentence(rec),
               evidence_sentence(rec, scheme)]
        if rec.standings and rec.tiers is not None:
            names = {s.run: s.model for s in rec.standings}
            out.append(selection_tier_sentence(rec.tiers, rec.standings[0].run, names, recommended=not is_tie(rec)))
        if order := average_order_sentence(rec):
            out.append(order)
        if self.published_above:
            out.append(self.published_above)
        for s in rec.standings:
            vs = "" if s.rank == 1 else f"  vs #1: {versus_first_words(s, adaptive_limit(rec.n_permutations))}"
            place = rec.tiers.tier_of(s.run) if rec.tiers is not None else None
            tier = f"  tier {place.tier}, rank {rank_interval_words(place)}" if place else ""
            out.append(f"{s.rank:>3}. {s.model}  {points(s.mean)} [{points(s.ci_low)}–{points(s.ci_high)}]  "
                       f"trap {points(s.trap_share)}%  {params_words(s.params_b)}  {s.queries} queries  "
                       f"{cost_brief(s.cost)}{tier}{vs}")
        out += [f"  {left_out_sentence(left)}" for left in rec.left_out]
        return [terminal_safe(line) for line in out]


def build(scope: Scope, *, tasks: Sequence[str] = TASK_NAMES, languages: Sequence[str] = LANGUAGE_SCOPES,
          budget_b: float | None = None, metric: Measure = NDCG_10, average: Average = "tasks",
          inputs: Inputs | None = None, max_ms_per_text: float | None = None,
          max_memory_gb: float | None = None, n_permutations: int = DEFAULT_PERMUTATIONS) -> SelectionView:
    """The scope's runs ranked on the chosen slices (``recommend_stored`` on the scope's evaluation); each paired
    test with ``n_permutations`` sign flips.

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), tasks=("t2c",), budget_b=1.0, inputs=Inputs(root))
    >>> view.recommendation.standings[0].run == bm25, view.to_json()["scheme"]
    (True, 'v2')
    """
    inputs = inputs or Inputs()
    chosen = recommend_stored(scope.release, list(scope.run_ids), str(scope.scheme), tuple(tasks), tuple(languages),
                              budget_b, metric, scope.anchor_exclusion, average,
                              evaluation=inputs.evaluation(scope), root=inputs.root,
                              n_permutations=n_permutations, max_ms_per_text=max_ms_per_text,
                              max_memory_gb=max_memory_gb)
    return SelectionView(scope, chosen.recommendation, n_permutations)
