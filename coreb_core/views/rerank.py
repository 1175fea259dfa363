"""What a reranked run did to its first stage: the ceiling, queries broken and rescued, by trap kind (the Compare
page's "Reranker stage" and the ``rerank-errors`` verb). Grade-based: no scheme enters."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from coreb_core.analysis.article import ARTICLE_RERANKER_RANGES, RerankedPair
from coreb_core.analysis.rerank_errors import RerankErrors, rerank_errors_of
from coreb_core.runs.meta import run_name
from coreb_core.text import terminal_safe
from coreb_core.training.reranker import reranker_provenance
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
    pair: RerankedPair | None = None  # both runs' nDCG@10 per task (None: the first stage is not stored)
    training: dict[str, Any] | None = None  # coreb_reranker.json of a reranker trained here

    def training_words(self) -> str:
        """How the reranker was trained, when it was trained here ("" otherwise)."""
        t = self.training
        if not t:
            return ""
        return (f"trained here from {t.get('base')} on {t.get('trained', 0):,} samples of {t.get('release') or 'no cached release'}"
                f" ({t.get('steps')} steps, {t.get('seconds', 0):.0f} s on {t.get('device')}); held-out loss "
                f"{t.get('loss_before', float('nan')):.4f} before, {t.get('loss_after', float('nan')):.4f} after")

    def delta_words(self, task: str) -> str:
        """The nDCG@10 change on ``task`` beside the article's range ("" when unknown)."""
        p = self.pair
        if p is None or task not in p.reranked or task not in p.first:
            return ""
        lo, hi = ARTICLE_RERANKER_RANGES[task]
        return (f"nDCG@10 {p.first[task] * 100:.1f} → {p.reranked[task] * 100:.1f} "
                f"({(p.reranked[task] - p.first[task]) * 100:+.1f} ×100; the article's rerankers: "
                f"{lo * 100:+.1f} to {hi * 100:+.1f})")

    def to_json(self) -> dict:
        """``rerank-errors --json``: summary and by_kind (fractions 0..1)."""
        e = self.errors
        return {"reranked": e.reranked, "first_stage": e.first_stage, "release": e.release, "depth": e.depth,
                "anchor_exclusion": e.anchor_exclusion, "summary": records(e.summary), "by_kind": records(e.by_kind),
                "ndcg_at_10": ({"reranked": self.pair.reranked, "first_stage": self.pair.first}
                               if self.pair else None), "training": self.training}

    def lines(self) -> list[str]:
        """Per task: the ceiling, broken, rescued and net; per trap kind that moved: broken and rescued."""
        e = self.errors
        out = [f"{terminal_safe(self.reranked_name)} against its first stage {terminal_safe(self.first_stage_name)} "
               f"(top {e.depth} reranked; right = no trap above the best positive; broken = right before, a trap above "
               "it after; rescued = the opposite)"]
        if self.training:
            out.append(f"  reranker {terminal_safe(self.training_words())}")
        for r in e.summary.itertuples():
            out.append(f"  {r.task}: a positive within the top {e.depth} for {r.ceiling} of {r.with_positive} queries "
                       f"({r.ceiling_share * 100:.1f}%); broken {r.broken}, rescued {r.rescued}, net {r.net:+d}")
            if self.delta_words(r.task):
                out.append(f"    {self.delta_words(r.task)}")
            moved = e.by_kind[(e.by_kind["task"] == r.task) & ((e.by_kind["broken"] > 0) | (e.by_kind["rescued"] > 0))]
            for k in moved.itertuples():
                out.append(f"    {k.kind}: broken {k.broken}, rescued {k.rescued}")
        return out


def reranked_pair(scope: Scope, run_id: str, names: Mapping[str, str], inputs: Inputs) -> RerankedPair | None:
    """A reranked run of the scope's release and its stored first stage, with both runs' nDCG@10 per task under the
    scope's scheme and anchor rule; None for a run that is not reranked or whose first stage is not stored."""
    stored = inputs.runs_of(scope.release)
    meta = stored.get(run_id) or inputs.meta(run_id)
    if meta.kind != "rerank" or meta.first_stage not in stored:
        return None
    first = str(meta.first_stage)
    means = inputs.evaluation(scope.with_runs([run_id, first])).groups(scope.scheme, "task")
    ndcg = {(r.run, r.task): float(r.ndcg_at_10) for r in means.itertuples()}
    trained = reranker_provenance(meta.reranker) if meta.reranker else None
    return RerankedPair(names.get(run_id, run_name(meta)), run_name(stored[first]), meta.rerank_depth or 0,
                        str(trained["release"]) if trained and trained.get("release") else None,
                        {t: v for (r, t), v in ndcg.items() if r == run_id},
                        {t: v for (r, t), v in ndcg.items() if r == first})


def build(scope: Scope, *, inputs: Inputs | None = None) -> RerankView:
    """The reranked run of ``scope`` (one run) against the first stage and depth its run.json records, with both
    runs' nDCG@10 and how its reranker was trained when it was trained here."""
    inputs = inputs or Inputs()
    run_id = scope.run_ids[0]
    errors = rerank_errors_of(run_id, inputs.root, anchor_exclusion=scope.anchor_exclusion)
    meta = inputs.meta(run_id)
    first = inputs.meta(errors.first_stage) if errors.first_stage else None
    pair = reranked_pair(scope, run_id, {}, inputs) if first else None
    return RerankView(errors, run_name(meta), run_name(first) if first else "", pair,
                      reranker_provenance(meta.reranker) if meta.reranker else None)
