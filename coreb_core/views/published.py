"""The published models' standings on a selection's slice (tasks, languages, a parameter limit), from the paper's
tables of the version set beside the release (``comparable_version``): the Model selection page's "Published models"
table and the report's, composed once (``recommend_published``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pandas as pd

from coreb_core.analysis.selection import PUBLISHED_ONLY, TASK_TABLES, Recommendation, recommend_published
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.errors import check_budget
from coreb_core.present.selection import published_above_sentence, published_empty_text, published_lines
from coreb_core.results.published import comparable_version, release_relation
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


@dataclass(frozen=True)
class PublishedView:
    """The published models ranked on the slice (fractions; no per-query data, so no interval and no test), those
    left out with their reason, and what was asked."""

    release: str  # the release of our runs; the figures are ``version``'s
    version: str  # the published version set beside the release (``comparable_version``)
    tasks: tuple[str, ...]
    languages: tuple[str, ...]
    budget_b: float | None
    ranked: pd.DataFrame  # ``PUBLISHED_COLUMNS``, best first
    excluded: pd.DataFrame  # ``EXCLUDED_COLUMNS``: model, run (None), params_b, reason
    ran: frozenset[str] = frozenset()  # the published names of the models the scope's runs ran (not "not run here")

    def above_sentence(self, rec: Recommendation) -> str:
        """The published models above our first-ranked run and not run here, in words ('' when none)."""
        return published_above_sentence(rec, self.ranked, release_relation(self.release, self.version), self.ran)

    @property
    def table(self) -> str:
        """The paper's per-task table the figures come from (Table 3 for v202603, Table 14 for v202602)."""
        return TASK_TABLES[self.version][1]

    def to_json(self) -> dict:
        """The standings as records (fractions, parameters in billions), with the version they come from."""
        return {"release": self.release, "version": self.version, "relation": release_relation(self.release,
                                                                                                 self.version),
                "table": self.table, "tasks": list(self.tasks), "languages": list(self.languages),
                "budget_b": self.budget_b, "ranked": records(self.ranked), "excluded": records(self.excluded)}

    def lines(self) -> list[str]:
        """A heading naming where the figures come from, then one line per ranked model (or why there is none)."""
        head = f"Published models ({PUBLISHED_ONLY}; {release_relation(self.release, self.version)})"
        return [terminal_safe(line) for line in
                [head, *(published_lines(self.ranked) or [published_empty_text(self.excluded)])]]


def build(scope: Scope, *, tasks: Sequence[str] = TASK_NAMES, languages: Sequence[str] = LANGUAGE_SCOPES,
          budget_b: float | None = None, inputs: Inputs | None = None) -> PublishedView:
    """The published standings beside the scope's release on the chosen slice (``recommend_published`` over the
    stored published figures). Only the scope's release enters: published figures have no runs, scheme or anchor rule.

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), tasks=("t2c",), budget_b=1.0, inputs=Inputs(root))
    >>> view.version, view.table, view.ranked["model"].head(2).tolist()
    ('v202603', 'paper Table 3', ['C2LLM-0.5B', 'Jina-code-emb-0.5B'])
    >>> view.lines()[:2]
    ['Published models (published figures only; real CoREB v202603, not this release)',
     '1. C2LLM-0.5B: 43.0, 500 M parameters (t2c: paper Table 3)']
    """
    inputs = inputs or Inputs()
    version = comparable_version(scope.release)
    tasks, languages, budget_b = tuple(tasks), tuple(languages), check_budget(budget_b)
    ranked, excluded = recommend_published(inputs.result_rows, tasks, languages, budget_b, version)
    return PublishedView(scope.release, version, tasks, languages, budget_b, ranked, excluded,
                         ran_published_names(scope, inputs))


def ran_published_names(scope: Scope, inputs: Inputs) -> frozenset[str]:
    """The names in the published figures of the models the scope's runs ran (a registry model's
    ``leaderboard_name``); a run whose provenance cannot be read names none."""
    from coreb_core.retrieval.models import REGISTRY

    names = set()
    for run_id in scope.run_ids:
        try:
            spec = REGISTRY.get(inputs.meta(run_id).model or "")
        except Exception:  # noqa: BLE001 - an unreadable run.json only loses the "run here" mark
            continue
        if spec is not None and spec.leaderboard_name:
            names.add(spec.leaderboard_name)
    return frozenset(names)
