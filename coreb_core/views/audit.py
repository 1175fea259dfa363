"""The qrels audit queue of the scope's runs (``analysis.audit``): the Data page's "Audit queue" and the ``audit``
verb. Rank-based: the scope's scheme does not change it; its anchor rule does."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from coreb_core.analysis.audit import audit_queue
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


@dataclass(frozen=True)
class AuditView:
    """The queue, and how many candidates each task has."""

    scope: Scope
    k: int
    queue: pd.DataFrame

    def to_json(self) -> dict:
        """``audit --json``: every candidate (task, query, document, runs of of_runs, best rank, passing)."""
        return {"release": self.scope.release, "runs": list(self.scope.run_ids), "k": self.k,
                "anchor_exclusion": self.scope.anchor_exclusion, "candidates": records(self.queue)}

    def lines(self, limit: int = 20) -> list[str]:
        q = self.queue
        out = [f"audit queue on {self.scope.release}: {len(q):,} unjudged documents of the query's own problem (in a "
               f"language it allows) ranked above every positive within a top {self.k} by at least one of "
               f"{len(self.scope.run_ids)} runs; passing solutions first, then the most runs"]
        for task, part in q.groupby("task", sort=False):
            passing = int(part["passed"].astype("boolean").fillna(False).sum())
            every = int((part["runs"] == part["of_runs"]).sum())
            out.append(f"  {task}: {len(part):,} candidates ({passing:,} passing solutions, {every:,} put there by "
                       "every run)")
        for r in q.head(limit).itertuples():
            what = "passing" if r.passed is True else "failing" if r.passed is False else "text"
            language = f", {r.language}" if isinstance(r.language, str) else ""
            out.append(f"  {r.task} {r.query_id} <- {r.doc_id} ({what}{language}): {r.runs} of {r.of_runs} runs, "
                       f"best rank {r.best_rank}")
        return out


def build(scope: Scope, *, k: int = 10, inputs: Inputs | None = None) -> AuditView:
    """The scope's audit queue.

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), inputs=Inputs(root))
    >>> view.k, view.to_json()["runs"] == [bm25]
    (10, True)
    """
    inputs = inputs or Inputs()
    queue = audit_queue(inputs.store(scope.release), inputs.runs_hits(scope), k, scope.anchor_exclusion)
    return AuditView(scope, k, queue)
