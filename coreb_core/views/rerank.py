"""What a reranked run did to its first stage: the ceiling, queries broken and rescued, by trap kind (the Compare
page's "Reranker stage" and the ``rerank-errors`` verb). Grade-based: no scheme enters."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from coreb_core.analysis.rerank_errors import RerankErrors, rerank_errors_of
from coreb_core.runs.meta import run_name
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


def scope_of_run(run_id: str, anchor_exclusion: bool = True, root: Path | None = None) -> Scope:
    """The scope of one stored run, on the release it records."""
    from coreb_core.runs.folders import run_meta

    return Scope.of(run_meta(run_id, root).made_on(), [run_id], anchor_exclusion=anchor_exclusion, root=root)


@dataclass(frozen=True)
class RerankView:
    """``rerank_errors_of`` the scope's one (reranked) run, with its and its first stage's names."""

    errors: RerankErrors
    reranked_name: str
    first_stage_name: str

    def to_json(self) -> dict:
        """``rerank-errors --json``: summary and by_kind (fractions 0..1)."""
        e = self.errors
        return {"reranked": e.reranked, "first_stage": e.first_stage, "release": e.release, "depth": e.depth,
                "anchor_exclusion": e.anchor_exclusion, "summary": records(e.summary), "by_kind": records(e.by_kind)}

    def lines(self) -> list[str]:
        """Per task: the ceiling, broken, rescued and net; per trap kind that moved: broken and rescued."""
        e = self.errors
        out = [f"{terminal_safe(self.reranked_name)} against its first stage {terminal_safe(self.first_stage_name)} "
               f"(top {e.depth} reranked; right = no trap above the best positive; broken = right before, a trap above "
               "it after; rescued = the opposite)"]
        for r in e.summary.itertuples():
            out.append(f"  {r.task}: a positive within the top {e.depth} for {r.ceiling} of {r.with_positive} queries "
                       f"({r.ceiling_share * 100:.1f}%); broken {r.broken}, rescued {r.rescued}, net {r.net:+d}")
            moved = e.by_kind[(e.by_kind["task"] == r.task) & ((e.by_kind["broken"] > 0) | (e.by_kind["rescued"] > 0))]
            for k in moved.itertuples():
                out.append(f"    {k.kind}: broken {k.broken}, rescued {k.rescued}")
        return out


def build(scope: Scope, *, inputs: Inputs | None = None) -> RerankView:
    """The reranked run of ``scope`` (one run) against the first stage and depth its run.json records."""
    inputs = inputs or Inputs()
    errors = rerank_errors_of(scope.run_ids[0], inputs.root, anchor_exclusion=scope.anchor_exclusion)
    first = inputs.meta(errors.first_stage) if errors.first_stage else None
    return RerankView(errors, run_name(inputs.meta(scope.run_ids[0])), run_name(first) if first else "")
