"""Why traps win, for some runs of a release: the Trap analysis page's sections and the ``traps`` verb.

Each section is one build, so the page recomputes only what a widget changed and the verb composes them all
(``build``); the page and the verb call the same builds. Every number here is grade-based (a trap win compares
rel=1 with rel=2 as judged) or nDCG@10 under v2, as the labels say: the scope's scheme does not change them, and
``to_json`` records it so that a reader knows which sidebar choice the numbers were asked under."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from coreb_core.analysis.slices import DEFAULT_QUANTILES, LengthSlices, length_slices
from coreb_core.analysis.traps.agreement import TrapAgreement, trap_agreement
from coreb_core.analysis.traps.breakdown import share_lost, trap_breakdown, worst_queries
from coreb_core.analysis.traps.surface import SurfaceBias, surface_bias
from coreb_core.analysis.traps.wins import TrapWins, WhyTrapsWin, why_traps_win
from coreb_core.data.schema import TaskName
from coreb_core.data.slice_keys import SUBJECTS, SliceKey, slice_fields
from coreb_core.evaluation.schemes import V2
from coreb_core.present.numbers import points
from coreb_core.present.trap_patterns import agreement_sentence, duel_sentence, jaccard_sentence
from coreb_core.text import p_text, terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


def of_task(wins: TrapWins, task: str | None) -> TrapWins:
    """``wins`` of one task (all when ``task`` is None): every section of one task reads the same rows."""
    if task is None:
        return wins
    return wins._replace(traps=wins.traps[wins.traps["task"] == task],
                         queries=wins.queries[wins.queries["task"] == task])


def breakdown(scope: Scope, *, task: TaskName, level: str = "task", inputs: Inputs | None = None) -> pd.DataFrame:
    """Traps per run and group of one task: the share lost to a trap, traps in the top 10, a trap at 1, nDCG@10 (v2)
    (``trap_breakdown``).

    >>> frame = breakdown(Scope.of("demo_v2603", [bm25], root=root), task="c2c", level="subtask", inputs=Inputs(root))
    >>> frame[["subtask", "queries"]].head(1)
              subtask  queries
    0  c2c_cross_lang       96
    """
    inputs = inputs or Inputs()
    return trap_breakdown(inputs.store(scope.release), inputs.evaluation(scope).traps, task, level)


def slice_choices(scope: Scope, *, inputs: Inputs | None = None) -> list[str]:
    """Every metadata slice key the release holds (``subject.field``), queries' first: the page's "metadata field"
    choices of the breakdown.

    >>> slice_choices(Scope.of("demo_v2603", [bm25], root=root), inputs=Inputs(root))[:2]
    ['query.anchor_code_id', 'query.anchor_language']
    """
    inputs = inputs or Inputs()
    fields = slice_fields(inputs.store(scope.release))
    return [str(SliceKey(subject, f)) for subject in SUBJECTS for f in sorted(fields[subject])]


def worst(scope: Scope, *, task: TaskName, run: str | None = None, limit: int = 25, inputs: Inputs | None = None
          ) -> pd.DataFrame:
    """The queries traps hurt most: most traps above the first positive, then lowest nDCG@10 (v2)
    (``worst_queries``), of one run or all."""
    inputs = inputs or Inputs()
    return worst_queries(inputs.store(scope.release), inputs.evaluation(scope).traps, task, run, limit)


def why(scope: Scope, *, task: TaskName | None = None, inputs: Inputs | None = None) -> WhyTrapsWin:
    """Trap kinds, bug kinds, the near-miss curve, margins and rank gaps of the scope's trap wins (``why_traps_win``)."""
    inputs = inputs or Inputs()
    return why_traps_win(of_task(inputs.trap_wins(scope), task))


def surface(scope: Scope, *, inputs: Inputs | None = None) -> SurfaceBias:
    """Word overlap of the query with the best trap against the best positive, every task (``surface_bias``)."""
    inputs = inputs or Inputs()
    return surface_bias(inputs.store(scope.release), inputs.trap_wins(scope))


def agreement(scope: Scope, *, inputs: Inputs | None = None) -> TrapAgreement:
    """Which traps beat several of the runs, and how alike the runs' lost queries are (``trap_agreement``)."""
    inputs = inputs or Inputs()
    return trap_agreement(inputs.trap_wins(scope))


def slices(scope: Scope, *, quantiles: int = DEFAULT_QUANTILES, inputs: Inputs | None = None) -> LengthSlices:
    """nDCG@10 (v2, whatever the scope's scheme: the page labels it so) and the trap-win rate by text length
    (``length_slices``)."""
    inputs = inputs or Inputs()
    per_query = inputs.evaluation(scope).per_query(V2)
    return length_slices(inputs.store(scope.release), inputs.trap_wins(scope), per_query, quantiles=quantiles)


def _rows(frame: pd.DataFrame, task: str | None) -> pd.DataFrame:
    return frame if task is None or "task" not in frame else frame[frame["task"] == task].reset_index(drop=True)


@dataclass(frozen=True)
class TrapView:
    """Why traps win for the scope's runs (one task, or all): what ``traps`` prints and the page's sections show."""

    scope: Scope
    task: str | None
    level: str  # one of LEVELS or a metadata slice key
    names: dict[str, str]  # run id -> the name shown for it
    breakdown: pd.DataFrame  # the page's first table: per run and group of ``level`` (every task's when task is None)
    why: WhyTrapsWin
    surface: SurfaceBias
    agreement: TrapAgreement
    slices: LengthSlices

    def to_json(self) -> dict:
        """``traps --json``: fractions 0..1, ranks as scored."""
        why, agreement, slices, task = self.why, self.agreement, self.slices, self.task
        surface = self.surface
        if task is not None:
            surface = surface._replace(summary=_rows(surface.summary, task))
        return {"release": self.scope.release, "runs": list(self.scope.run_ids), "task": task,
                "scheme": str(self.scope.scheme), "anchor_exclusion": self.scope.anchor_exclusion,
                "level": self.level, "breakdown": records(self.breakdown),
                "kinds": {"by_task": records(why.kinds_by_task), "by_subtask": records(why.kinds_by_subtask),
                          "bugs": records(why.bugs)},
                "near_miss": records(why.near_miss),
                "margins": {"quantiles": records(why.margins), "rank_gap_histogram": records(why.rank_gaps)},
                "surface_bias": surface.to_json(),
                "agreement": {"counts": records(_rows(agreement.counts, task)),
                              "pairs": records(_rows(agreement.pairs, task)),
                              "traps_beating_all": records(agreement.traps_beating_all(task))},
                "slices": {"metric": slices.metric, "quantiles": slices.quantiles,
                           "by_query_length": records(_rows(slices.by_query_length, task)),
                           "by_document_length": records(_rows(slices.by_document_length, task)),
                           "duels": records(_rows(slices.duels, task))}}

    def lines(self) -> list[str]:
        """What ``traps`` prints: per run and task, the trap wins by kind, bug kinds, the near-miss curve, margins,
        surface bias and length duels; then the agreement across runs."""
        anchor = "C2C anchor excluded" if self.scope.anchor_exclusion else "C2C anchor kept"
        out = [f"why traps win on {self.scope.release} ({anchor}; a trap win = a rel=1 trap ranked above the query's "
               "best positive)"]
        by_task, bugs, curve, margins = self.why.kinds_by_task, self.why.bugs, self.why.near_miss, self.why.margins
        duels = _rows(self.slices.duels, self.task)
        for run_id in self.scope.run_ids:
            out.append(f"run {terminal_safe(run_id)}")
            for r in self.breakdown[self.breakdown["run"] == run_id].itertuples():
                # Two lines, one denominator each: only queries with a positive can be lost; the rest is of all.
                out.append(f"  {r.task} {terminal_safe(r.group)}: {r.queries_trap_above_positive:,} of "
                           f"{r.queries_with_positive:,} queries with a positive lost to a trap "
                           f"({points(r.share_trap_above_positive)}%)")
                out.append(f"  {r.task} {terminal_safe(r.group)}, all {r.queries:,} queries: a trap at rank 1 in "
                           f"{round(r.share_trap_at_1 * r.queries):,} ({points(r.share_trap_at_1)}%); "
                           f"{r.traps_in_top_10_per_query:.2f} traps in the top 10 per query; nDCG@10 (v2) "
                           f"{points(r.ndcg_at_10)}")
            mine = by_task[by_task["run"] == run_id]
            for task, rows in mine.groupby("task", sort=True):
                total = int(rows["trap_wins"].sum())
                parts = ", ".join(f"{r.kind} {r.trap_wins} ({r.share_of_wins:.0%})" for r in rows.itertuples()
                                  if r.trap_wins > 0)
                lost, with_positive = int(rows["queries_with_win"].iloc[0]), int(rows["queries"].iloc[0])
                # Of the queries with a positive: only those can be lost (share_lost, the one definition).
                share = f" ({share_lost(lost, with_positive):.1%})" if with_positive else ""
                out.append(f"  {task}: {total} trap wins; {lost:,} of {with_positive:,} queries with a positive lost "
                           f"to a trap{share}; {parts or 'none'}")
            for r in bugs[bugs["run"] == run_id].itertuples():
                out.append(f"  {r.task} bug {r.bug}: {r.trap_wins} of {r.judged} outrank the best positive "
                           f"({r.win_rate:.0%})")
            for r in curve[curve["run"] == run_id].itertuples():
                out.append(f"  near-miss curve: pass {r.bin_low:.0%}–{r.bin_high:.0%}: {r.outranking}/{r.failing} "
                           f"failing solutions outrank the best positive ({r.probability:.0%}, 95% CI "
                           f"{r.low:.0%}–{r.high:.0%})")
            for r in margins[margins["run"] == run_id].itertuples():
                if r.queries:
                    out.append(f"  {r.task} {r.measure} of trap wins: median {r.median:.4g} (q25 {r.q25:.4g}, "
                               f"q75 {r.q75:.4g}; {r.queries} queries, {r.unmeasured} without a listed positive)")
            for f in self.surface.findings(self.task):
                if f.run == run_id:
                    out.append(f"  {f.task} surface bias: the trap shares more words with the query in "
                               f"{f.wins_trap_higher} of {f.trap_wins} trap wins, against {f.correct_trap_higher} of "
                               f"{f.correct} correct orderings ({p_text(f.p_value)})")
            for r in duels[duels["run"] == run_id].itertuples():
                out.append("  " + duel_sentence(r.task, "length duels", r.decided, r.longer_first, r.longer_low,
                                                r.longer_high))
        names = {run_id: terminal_safe(name) for run_id, name in self.names.items()}
        counts, pairs = _rows(self.agreement.counts, self.task), _rows(self.agreement.pairs, self.task)
        for task in sorted(counts["task"].unique()):
            out.append(agreement_sentence(task, *self.agreement.beating_all(task), len(self.agreement.runs)))
        for r in pairs.itertuples():
            out.append(jaccard_sentence(r.task, names[r.run_a], names[r.run_b], r.both, r.either, r.jaccard))
        return out


def build(scope: Scope, *, task: TaskName | None = None, level: str = "task", quantiles: int = DEFAULT_QUANTILES,
          inputs: Inputs | None = None) -> TrapView:
    """Every trap section of the scope's runs, for one task (or all): ``traps``' whole answer.

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), task="t2c", inputs=Inputs(root))
    >>> int(view.why.kinds_by_task["trap_wins"].sum()), view.to_json()["scheme"]
    (432, 'v2')
    >>> view.lines()[1].startswith("run bm25__demo_v2603__")
    True
    """
    inputs = inputs or Inputs()
    tasks = [task] if task is not None else sorted(inputs.evaluation(scope).traps["task"].unique())
    table = pd.concat([breakdown(scope, task=t, level=level, inputs=inputs) for t in tasks], ignore_index=True)
    return TrapView(scope, task, level, inputs.names(scope), table, why(scope, task=task, inputs=inputs),
                    surface(scope, inputs=inputs), agreement(scope, inputs=inputs),
                    slices(scope, quantiles=quantiles, inputs=inputs))
