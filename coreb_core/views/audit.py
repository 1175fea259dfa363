"""The qrels audit queue of the scope's runs (``analysis.audit``): the Data page's "Audit queue" and the ``audit``
verb, each candidate with its class by the official generator's rules (``analysis.generator_rules``). Rank-based: the
scope's scheme does not change it; its anchor rule does."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd

from coreb_core.analysis.audit import audit_queue
from coreb_core.analysis.generator_rules import CLASSES
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope

__all__ = ["CLASSES", "AuditTotals", "AuditView", "build", "class_words"]


def class_words(queue: pd.DataFrame) -> pd.Series:
    """The display words of each candidate's class ("would be rel=2", "trap beyond the cap", …).

    >>> class_words(pd.DataFrame({"class": ["would_be_positive", "other"]})).tolist()
    ['would be rel=2', 'other']
    """
    return queue["class"].map(CLASSES)


class AuditTotals(NamedTuple):
    """The queue's headline counts: candidates, would-be positives (rel=2 by the generator's rules), passing solutions,
    and candidates every run of the scope put above every positive."""

    candidates: int
    would_be_positive: int
    passing: int
    by_every_run: int


@dataclass(frozen=True)
class AuditView:
    """The queue, how many candidates each task has, and of which class."""

    scope: Scope
    k: int
    queue: pd.DataFrame
    include_traps: bool = False

    def class_counts(self) -> dict[str, dict[str, int]]:
        """Task -> class name -> candidates (the classes the queue holds, in ``CLASSES``' order).

        >>> view = build(Scope.of("demo_v2603", [bm25], root=root), inputs=Inputs(root))
        >>> sum(sum(c.values()) for c in view.class_counts().values()) == len(view.queue)
        True
        """
        out: dict[str, dict[str, int]] = {}
        for task, part in self.queue.groupby("task", sort=False):
            counts = part["class"].value_counts()
            out[str(task)] = {name: int(counts[name]) for name in CLASSES if name in counts.index}
        return out

    def totals(self) -> AuditTotals:
        """The counts the Data page's sentence says.

        >>> view = build(Scope.of("demo_v2603", [bm25], root=root), inputs=Inputs(root))
        >>> t = view.totals(); t.candidates == len(view.queue), t.would_be_positive
        (True, 0)
        """
        q = self.queue
        return AuditTotals(len(q), int((q["class"] == "would_be_positive").sum()),
                           int(q["passed"].map(lambda v: v is True).sum()), int((q["runs"] == q["of_runs"]).sum()))

    def to_json(self) -> dict:
        """``audit --json``: every candidate (task, query, document, grade, class, runs of of_runs, best rank,
        passing), the classes' words and the counts per task and class."""
        return {"release": self.scope.release, "runs": list(self.scope.run_ids), "k": self.k,
                "anchor_exclusion": self.scope.anchor_exclusion, "include_traps": self.include_traps,
                "classes": dict(CLASSES), "class_counts": self.class_counts(), "candidates": records(self.queue)}

    def lines(self, limit: int = 20) -> list[str]:
        q = self.queue
        traps = " and re-gradable traps (rel=1 passing solutions)" if self.include_traps else ""
        out = [f"audit queue on {self.scope.release}: {len(q):,} candidates, unjudged documents{traps} of the "
               f"query's own problem (in a language the generator allows it) ranked above every positive within a top "
               f"{self.k} by at least one of {len(self.scope.run_ids)} runs, classed by the generator's rules; "
               "would-be positives first, then passing solutions, then the most runs"]
        counts = self.class_counts()
        for task, part in q.groupby("task", sort=False):
            passing = int(part["passed"].astype("boolean").fillna(False).sum())
            every = int((part["runs"] == part["of_runs"]).sum())
            classes = ", ".join(f"{n:,} {CLASSES[name]}" for name, n in counts[str(task)].items())
            out.append(f"  {task}: {len(part):,} candidates ({classes}; {passing:,} passing solutions, {every:,} put "
                       "there by every run)")
        for r in q.head(limit).to_dict("records"):
            what = "passing" if r["passed"] is True else "failing" if r["passed"] is False else "text"
            language = f", {r['language']}" if isinstance(r["language"], str) else ""
            trap = ", graded rel=1" if r["grade"] == "trap" else ""
            out.append(f"  {r['task']} {r['query_id']} <- {r['doc_id']} ({what}{language}{trap}): "
                       f"{CLASSES[r['class']]}; {r['runs']} of {r['of_runs']} runs, best rank {r['best_rank']}")
        return out


def build(scope: Scope, *, k: int = 10, include_traps: bool = False, inputs: Inputs | None = None) -> AuditView:
    """The scope's audit queue (with ``include_traps``, the re-gradable traps too).

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), inputs=Inputs(root))
    >>> view.k, view.to_json()["runs"] == [bm25], view.to_json()["classes"]["trap_beyond_cap"]
    (10, True, 'trap beyond the cap')
    """
    inputs = inputs or Inputs()
    inputs.store(scope.release).check_depth(k)  # before the runs are read
    queue = audit_queue(inputs.store(scope.release), inputs.runs_hits(scope), k, scope.anchor_exclusion,
                        include_traps=include_traps)
    return AuditView(scope, k, queue, include_traps)
