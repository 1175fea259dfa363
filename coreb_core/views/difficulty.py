"""How hard each problem is for the scope's runs, and how alike the runs rank the problems (Spearman): the Compare
page's "Per-problem difficulty" and the ``difficulty`` verb. Per-query metrics under the scope's scheme."""
from __future__ import annotations

from dataclasses import dataclass

from coreb_core.analysis.difficulty import ProblemDifficulty, hardest_problems, problem_difficulty
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import TaskName
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


@dataclass(frozen=True)
class DifficultyView:
    """``problem_difficulty`` of the scope's runs, with the names to print and how many problems ``lines`` lists."""

    scope: Scope
    names: dict[str, str]
    hard: ProblemDifficulty
    limit: int

    def to_json(self) -> dict:
        """``difficulty --json``: problems, per_run, correlations (fractions 0..1)."""
        h = self.hard
        return {"release": self.scope.release, "runs": list(self.scope.run_ids), "scheme": str(self.scope.scheme),
                "anchor_exclusion": self.scope.anchor_exclusion, "metric": h.metric, "task": h.task,
                "problems": records(h.problems), "per_run": records(h.per_run),
                "correlations": records(h.correlations)}

    def lines(self) -> list[str]:
        """The hardest problems, then Spearman's rho of each pair of runs."""
        names = self.names
        out = [f"per-problem difficulty on {self.scope.release} ({self.hard.metric} under {self.scope.scheme}, a "
               "problem's mean = the mean of the runs' means over its queries on a task; hardest first)"]
        for r in hardest_problems(self.hard, n=self.limit).itertuples():
            who = (f", hardest for {terminal_safe(names.get(r.hardest_run, r.hardest_run))}"
                   if isinstance(r.hardest_run, str) else "")
            out.append(f"  {r.task} {r.problem_id}: mean {r.mean * 100:.1f} over {r.queries} queries, spread "
                       f"{r.spread * 100:.1f} points{who}; worst query {r.worst_query}")
        for r in self.hard.correlations.itertuples():
            out.append(f"{r.task}: Spearman's rho of {terminal_safe(names[r.a])} and {terminal_safe(names[r.b])} over "
                       f"{r.problems} problems: {r.spearman:.2f}")
        return out


def build(scope: Scope, *, task: TaskName | None = None, metric: Measure = NDCG_10, limit: int = 10,
          inputs: Inputs | None = None) -> DifficultyView:
    """Per-problem difficulty of the scope's runs on ``task`` (every task when None).

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), task="c2c", inputs=Inputs(root))
    >>> view.hard.task, view.to_json()["scheme"]
    ('c2c', 'v2')
    """
    inputs = inputs or Inputs()
    per_query = inputs.evaluation(scope).per_query(scope.scheme)
    hard = problem_difficulty(inputs.store(scope.release), per_query, metric, task=task)
    return DifficultyView(scope, inputs.names(scope), hard, limit)
