"""Hubs: the documents in the most top-k lists of each of the scope's runs on one task (``analysis.hubs``): the
Trap analysis page's "Hubs" section, the inspector's hub mark and the ``hubs`` verb. Rank-based: the scope's scheme
does not change them; its anchor rule does (the C2C anchor is left out of a list when it is excluded)."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from coreb_core.analysis.hubs import hubs
from coreb_core.data.schema import TaskName
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope

GRADES = ("positive", "trap", "judged_negative", "unjudged")


def hub_kind_words(table: pd.DataFrame) -> list[str]:
    """What each hub is, in words: a passing or failing solution in its language, a noise text, a text.

    >>> hub_kind_words(pd.DataFrame({"is_noise": [False, True], "passed": [False, None], "language": ["go", None]}))
    ['failing solution in go', 'noise text']
    """
    out = []
    for noise, passed, language in zip(table["is_noise"], table["passed"], table["language"]):
        what = ("noise text" if noise is True else "failing solution" if passed is False
                else "passing solution" if passed is True else "text")
        out.append(what + (f" in {language}" if isinstance(language, str) else ""))
    return out


@dataclass(frozen=True)
class HubsView:
    """``hubs`` of the scope's runs on one task, with the run names to print."""

    scope: Scope
    task: str
    k: int
    names: dict[str, str]
    table: pd.DataFrame

    def to_json(self) -> dict:
        """``hubs --json``: the hubs per run (counts of lists, their grades, share 0..1)."""
        return {"release": self.scope.release, "task": self.task, "k": self.k, "runs": list(self.scope.run_ids),
                "anchor_exclusion": self.scope.anchor_exclusion, "hubs": records(self.table)}

    def lines(self) -> list[str]:
        out = [f"hubs on {self.scope.release} {self.task}: the documents in the most top-{self.k} lists "
               "(as positive / trap / judged negative / unjudged for those queries)"]
        for run, part in self.table.groupby("run", sort=False):
            out.append(f"{terminal_safe(self.names.get(str(run), str(run)))} ({int(part['queries'].iloc[0]):,} queries):")
            for r, what in zip(part.itertuples(), hub_kind_words(part)):
                kind = f", {r.trap_kind}" if isinstance(r.trap_kind, str) else ""
                shared = f"; a hub of {r.hub_in_runs} runs" if r.hub_in_runs > 1 else ""
                out.append(f"  {r.doc_id}: in {r.lists:,} lists ({r.share * 100:.1f}%): {r.positive} / {r.trap} / "
                           f"{r.judged_negative} / {r.unjudged}{kind}; a {what} of {r.length:,} characters; its problem has "
                           f"{r.problem_queries} {self.task} queries{shared}")
        return out


def build(scope: Scope, *, task: TaskName, k: int = 10, top: int = 10, inputs: Inputs | None = None) -> HubsView:
    """The scope's hubs on ``task``.

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), task="c2t", k=10, top=2, inputs=Inputs(root))
    >>> len(view.table), view.to_json()["k"]
    (2, 10)
    """
    inputs = inputs or Inputs()
    inputs.store(scope.release).check_depth(k)  # before the runs are read
    table = hubs(inputs.store(scope.release), inputs.runs_hits(scope), task, k, top, scope.anchor_exclusion)
    return HubsView(scope, task, k, inputs.names(scope), table)
