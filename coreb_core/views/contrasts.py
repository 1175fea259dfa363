"""The queries whose two rankings differ most (tau-AP or weighted tau of the top k), with each query's metric
difference under the scope's scheme: the Compare page's "Contrasting queries" and the ``contrast`` verb."""
from __future__ import annotations

from dataclasses import dataclass

from coreb_core.analysis.rank_contrast import Contrasts, RankMeasure, anchor_exclusions, contrasting_queries
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import TaskName
from coreb_core.errors import CorebError
from coreb_core.present.numbers import signed_points
from coreb_core.text import terminal_safe
from coreb_core.views.compare import deltas
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


@dataclass(frozen=True)
class ContrastView:
    """``contrasting_queries`` of runs a and b, with the names to print."""

    scope: Scope
    task: str
    a: str
    b: str
    metric: Measure
    names: dict[str, str]
    found: Contrasts

    def to_json(self) -> dict:
        """``contrast --json``: the mean and the contrasting rows."""
        f = self.found
        return {"release": self.scope.release, "task": self.task, "scheme": str(self.scope.scheme),
                "anchor_exclusion": self.scope.anchor_exclusion, "a": self.a, "b": self.b, "k": f.k,
                "measure": f.measure.name, "queries": f.queries, "mean": f.mean, "rows": records(f.rows)}

    def lines(self) -> list[str]:
        """The mean and one line per contrasting query."""
        a, b, f = terminal_safe(self.names[self.a]), terminal_safe(self.names[self.b]), self.found
        if not f.queries:
            return [f"{a} and {b} share no query on {self.task}: there is nothing to contrast."]
        out = [f"{a} against {b} on {self.task}, top {f.k}: mean {f.measure.name} {f.mean:.3f} over {f.queries} "
               f"queries; the {len(f.rows)} that agree least (Δ = {self.metric.column} of a − b under {self.scope.scheme}):"]
        for r in f.rows.itertuples():
            delta = getattr(r, "delta", float("nan"))
            out.append(f"  {r.query_id}: tau-AP {r.tau_ap:+.3f}, weighted tau {r.weighted_tau:+.3f}, "
                       f"{r.overlap} of the top {f.k} shared, Δ {signed_points(delta)} points")
        return out


def build(scope: Scope, *, task: TaskName, a: str, b: str, metric: Measure = NDCG_10, k: int = 10,
          measure: RankMeasure = "tau_ap", limit: int = 20, inputs: Inputs | None = None) -> ContrastView:
    """Runs ``a`` and ``b`` (two of the scope's) on ``task``: the ``limit`` queries whose top-``k`` lists agree least
    (the C2C anchor left out under anchor exclusion), with each query's Δ ``metric``.

    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> other = run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id
    >>> view = build(Scope.of("demo_v2603", [bm25, other], root=root), task="c2c", a=bm25, b=other, limit=3,
    ...              inputs=Inputs(root))
    >>> view.found.queries, len(view.found.rows)
    (144, 3)
    """
    inputs = inputs or Inputs()
    if a not in scope.run_ids or b not in scope.run_ids or a == b:
        raise CorebError("contrast compares exactly two runs: --run A B")
    inputs.store(scope.release).check_depth(k)  # before the runs are read
    exclude = anchor_exclusions(inputs.store(scope.release)) if scope.anchor_exclusion else {}
    found = contrasting_queries(inputs.hits(a), inputs.hits(b), k, measure, limit, task=task, exclude=exclude,
                                per_query=deltas(scope, task=task, a=a, b=b, metric=metric, inputs=inputs))
    return ContrastView(scope, task, a, b, metric, inputs.names(scope), found)
