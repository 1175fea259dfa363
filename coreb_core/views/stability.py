"""One model on two releases: how its trap-win rates moved, by trap kind, bug kind and subtask (the Trap analysis
page's "Across releases" section and the ``stability`` verb). Grade-based: no scheme enters."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from coreb_core.analysis.stability import (
    STABILITY_LEVELS,
    ReleaseStability,
    StabilityLevel,
    counterpart,
    model_difference,
    release_stability,
)
from coreb_core.errors import CorebError
from coreb_core.present.trap_patterns import shift_text
from coreb_core.runs.meta import RunMeta
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


@dataclass(frozen=True)
class TwoReleases:
    """Run ``a`` on one release against run ``b`` on another (each its own ``Scope``); the cache key of the view."""

    a: Scope
    b: Scope

    @classmethod
    def of(cls, run_a: str, run_b: str, anchor_exclusion: bool = True, any_model: bool = False,
           root: Path | None = None) -> TwoReleases:
        """The validated pair: two different runs of one model (unless ``any_model``), each on the release it
        records. One ``CorebError`` line otherwise."""
        from coreb_core.runs.folders import run_meta

        if run_a == run_b:
            raise CorebError("--run and --against name the same run: stability compares one model on two releases")
        metas = run_meta(run_a, root), run_meta(run_b, root)
        different = model_difference(*metas)
        if different and not any_model:  # before the slow part; the flag keeps the comparison possible
            raise CorebError(f"{terminal_safe(different)}: stability compares one model on two releases (a change "
                             "would be the model's, not the release's); --any-model compares them anyway")
        a, b = (Scope.of(m.made_on(), [m.run_id], anchor_exclusion=anchor_exclusion, root=root) for m in metas)
        return cls(a, b)


def counterparts(scope: Scope, *, inputs: Inputs | None = None) -> dict[str, RunMeta]:
    """Each of the scope's runs' counterpart on another cached release (``counterpart``): run id -> its meta."""
    from coreb_core.data.store import list_releases

    inputs = inputs or Inputs()
    others = [m for r in list_releases(inputs.root) if r != scope.release for m in inputs.runs_of(r).values()]
    mine = inputs.runs_of(scope.release)
    found = {rid: counterpart(mine[rid], others) for rid in scope.run_ids if rid in mine}
    return {rid: meta for rid, meta in found.items() if meta is not None}


@dataclass(frozen=True)
class StabilityView:
    """``release_stability`` of the pair, with the names to print and the task shown (None: every task)."""

    pair: TwoReleases
    task: str | None
    names: tuple[str, str]
    shift: ReleaseStability

    def level(self, name: StabilityLevel) -> pd.DataFrame:
        """The rows of one of ``STABILITY_LEVELS`` for the view's task."""
        frame = self.shift.level(name)
        return frame if self.task is None else frame[frame["task"] == self.task].reset_index(drop=True)

    def to_json(self) -> dict:
        """``stability --json``: fractions 0..1."""
        s = self.shift
        return {"run_a": s.run_a, "release_a": s.release_a, "run_b": s.run_b, "release_b": s.release_b,
                "anchor_exclusion": self.pair.a.anchor_exclusion,
                **{f"by_{level}": records(self.level(level)) for level in STABILITY_LEVELS}}

    def lines(self) -> list[str]:
        """What ``stability`` prints: per level, each group's wins of judged traps on a and b, and b − a."""
        a, b = (terminal_safe(n) for n in self.names)
        out = [f"trap-win rates (a trap ranked above the query's best positive, per judged trap of queries with a "
               f"positive): {a} (a) against {b} (b); b − a with Newcombe's 95% interval"]
        for level in STABILITY_LEVELS:
            frame = self.level(level)
            if frame.empty:
                out.append(f"by {level}: neither release records one")
                continue
            out.append(f"by {level}:")
            for r in frame.itertuples():
                out.append(f"  {r.task} {terminal_safe(getattr(r, level))}: a {r.wins_a}/{r.traps_a}, b "
                           f"{r.wins_b}/{r.traps_b}, b − a {shift_text(r.difference, r.low, r.high)}")
        return out


def build(pair: TwoReleases, *, task: str | None = None, inputs: Inputs | None = None) -> StabilityView:
    """How run b's trap-win rates differ from run a's (b − a, Newcombe 95%), every task's rows or ``task``'s.

    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> old = run_retrieval("bm25", "demo_v2602", root=root).run_id
    >>> view = build(TwoReleases.of(old, bm25, root=root), task="t2c", inputs=Inputs(root))
    >>> view.shift.release_a, view.shift.release_b, sorted(view.level("kind")["task"].unique())
    ('demo_v2602', 'demo_v2603', ['t2c'])
    """
    inputs = inputs or Inputs()
    shift = release_stability(inputs.trap_wins(pair.a), inputs.trap_wins(pair.b))
    names = inputs.names(pair.a)[pair.a.run_ids[0]], inputs.names(pair.b)[pair.b.run_ids[0]]
    return StabilityView(pair, task, names, shift)
