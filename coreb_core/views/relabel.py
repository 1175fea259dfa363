"""What changes when the labels are corrected (``analysis.relabel``): the scope's runs under the official v2 qrels and
under ``executed`` (relevance verified by execution) or ``judged`` (the judgments applied). The Qrel deflation page's
"Labels verified by execution" section and the ``changes`` verb: per run and task the two scores and the queries
that move, the queries that move most, and, through two model selections (every task and language, mean of tasks),
the runs whose rank or tier moves and whether the verdict flips."""
from __future__ import annotations

from dataclasses import dataclass, replace

import pandas as pd

from coreb_core.analysis.relabel import RunChange, moved_queries, standing_changes, task_changes, verdict_flips
from coreb_core.analysis.selection import Recommendation
from coreb_core.errors import CorebError
from coreb_core.evaluation.schemes import DESCRIPTIONS, V2, Scheme
from coreb_core.present.numbers import points, signed_points
from coreb_core.present.selection import recommendation_sentence
from coreb_core.text import terminal_safe
from coreb_core.views import selection
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope

READINGS = ("executed", "judged")  # the corrected readings compared with v2


@dataclass(frozen=True)
class RelabelView:
    """v2 against ``reading`` for the scope's runs (fractions; the ui formats)."""

    scope: Scope  # its scheme is the corrected reading
    names: dict[str, str]
    tasks: pd.DataFrame  # analysis.relabel.task_changes
    queries: pd.DataFrame  # analysis.relabel.moved_queries
    changes: tuple[RunChange, ...]
    verdict_base: str
    verdict_other: str
    flips: bool

    @property
    def reading(self) -> str:
        return str(self.scope.scheme)

    @property
    def moved_runs(self) -> list[RunChange]:
        return [c for c in self.changes if c.moved]

    def to_json(self) -> dict:
        """``changes --json``: per run and task v2 vs the reading, the queries that move most, rank and tier changes,
        both verdicts and whether they flip."""
        return {"release": self.scope.release, "base": "v2", "reading": self.reading,
                "reading_description": DESCRIPTIONS[self.scope.scheme.name],
                "anchor_exclusion": self.scope.anchor_exclusion, "tasks": records(self.tasks),
                "moved_queries": records(self.queries),
                "runs": [{**c._asdict(), "name": self.names.get(c.run, c.run), "moved": c.moved} for c in self.changes],
                "verdict_v2": self.verdict_base, f"verdict_{self.reading}": self.verdict_other,
                "verdict_flips": self.flips}

    def lines(self) -> list[str]:
        def name(run: str) -> str:
            return terminal_safe(self.names.get(run, run))

        out = [f"v2 (official) vs {self.reading} on {self.scope.release}: {DESCRIPTIONS[self.scope.scheme.name]}"]
        for r in self.tasks.itertuples():
            out.append(f"  {name(r.run)}  {r.task}: nDCG@10 {points(r.base)} -> {points(r.other)} "
                       f"({signed_points(r.delta)}); {r.moved:,} of {r.queries:,} queries move "
                       f"({r.up:,} up, {r.down:,} down)")
        moved = self.moved_runs
        out.append(f"  rank or tier moves for {len(moved)} of {len(self.changes)} runs" + (":" if moved else ""))
        for c in moved:
            out.append(f"    {name(c.run)}: rank {c.rank_base} -> {c.rank_other}, tier {c.tier_base} -> {c.tier_other}")
        out.append(f"  verdict under v2: {terminal_safe(self.verdict_base)}")
        out.append(f"  verdict under {self.reading}: {terminal_safe(self.verdict_other)}")
        out.append("  the verdict flips" if self.flips else "  the verdict does not flip")
        for r in self.queries.head(10).itertuples():
            out.append(f"  {name(r.run)}  {r.task} {terminal_safe(r.query_id)}: {points(r.base)} -> {points(r.other)}")
        return out


def build(scope: Scope, *, reading: str | None = None, top: int = 20, inputs: Inputs | None = None) -> RelabelView:
    """The scope's runs under v2 and under ``reading`` (executed or judged; default: the scope's scheme when it is one
    of them, which keys a cached view on the judgments' version, else executed).

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), inputs=Inputs(root))
    >>> view.reading, sorted(view.tasks["task"]), view.flips
    ('executed', ['c2c', 'c2t', 't2c'], False)
    """
    reading = reading or (str(scope.scheme) if str(scope.scheme) in READINGS else "executed")
    if reading not in READINGS:
        raise CorebError(f"unknown reading {reading!r}; compare v2 with {' or '.join(READINGS)}")
    inputs = inputs or Inputs()
    if not scope.run_ids:
        raise CorebError("choose one or more runs to compare under v2 and " + reading)
    base = replace(scope, scheme=V2)
    other = Scope.of(scope.release, scope.run_ids, Scheme.parse(reading), scope.anchor_exclusion, inputs.root)
    per_base, per_other = inputs.evaluation(base).per_query(V2), inputs.evaluation(other).per_query(other.scheme)
    rec_base, rec_other = _recommendation(base, inputs), _recommendation(other, inputs)
    names = inputs.names(scope)
    return RelabelView(other, names, task_changes(per_base, per_other), moved_queries(per_base, per_other, top=top),
                       tuple(standing_changes(rec_base, rec_other)), recommendation_sentence(rec_base, names),
                       recommendation_sentence(rec_other, names), verdict_flips(rec_base, rec_other))


def _recommendation(scope: Scope, inputs: Inputs) -> Recommendation:
    return selection.build(scope, inputs=inputs).recommendation


@dataclass(frozen=True)
class OfficialVerdict:
    """Model selection's verdict under v2 on the same slice as a selection under a corrected reading."""

    reading: str
    sentence: str  # the v2 verdict, in the page's words
    flips: bool  # the two readings recommend differently (``analysis.relabel.verdict_flips``)

    def to_json(self) -> dict:
        return {"reading": self.reading, "verdict_v2": self.sentence, "verdict_flips": self.flips}

    def lines(self) -> list[str]:
        return [terminal_safe(f"under v2 (official): {self.sentence}"),
                "the verdict flips" if self.flips else "the verdict does not flip"]


def official_verdict(scope: Scope, *, inputs: Inputs | None = None, **slice_options) -> OfficialVerdict:
    """The v2 verdict beside a selection under the scope's corrected reading (executed or judged), on the same slice
    (``slice_options``: ``selection.build``'s tasks, languages, budget_b, average and cost limits).

    >>> v = official_verdict(Scope.of("demo_v2603", [bm25], "executed", root=root), inputs=Inputs(root))
    >>> v.reading, v.flips
    ('executed', False)
    """
    if str(scope.scheme) not in READINGS:
        raise CorebError(f"scheme {scope.scheme} is not a corrected reading ({' or '.join(READINGS)})")
    inputs = inputs or Inputs()
    other = selection.build(scope, inputs=inputs, **slice_options).recommendation
    official = selection.build(replace(scope, scheme=V2), inputs=inputs, **slice_options).recommendation
    names = inputs.names(scope)
    return OfficialVerdict(str(scope.scheme), recommendation_sentence(official, names), verdict_flips(official, other))
