"""A run's scores with CoREB's official semantics (the ``eval`` verb): per task, the metrics the leaderboard prints,
what each mean averages over, the overall figures of both kinds, and optionally the breakdown by a grouping. The
run is a stored one (the scope's) or a TREC run file's hits."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from coreb_core.data.schema import GROUPINGS, TaskName
from coreb_core.data.slice_keys import SliceKey
from coreb_core.evaluation.evaluate import DENOMINATORS, Coverage, aggregate, coverage, evaluate, score_run, summary
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope


@dataclass(frozen=True)
class ScoreView:
    """The scores of one run; ``report`` is ``eval --json``'s object."""

    scope: Scope
    source: str
    covered: dict[str, Coverage]
    by: str | None  # the grouping of the breakdown (one of GROUPINGS or a slice key), if any
    report: dict

    def to_json(self) -> dict:
        return self.report

    def warnings(self) -> list[str]:
        """A run (file) that leaves judged queries out, per task: said on stderr, where its numbers are shown."""
        return [w for w in (c.warning() for c in self.covered.values()) if w]

    def lines(self) -> list[str]:
        """What ``eval`` prints: per task the leaderboard's metrics, then the breakdown and the overall figures."""
        r, scheme = self.report, self.scope.scheme
        out = [f"{terminal_safe(self.source)} on {self.scope.release}, scheme {scheme} ({scheme.description})"]
        for task, m in r["tasks"].items():
            cover = self.covered.get(task)
            zero = (f" ({cover.without_relevant:,} without a relevant document, scoring 0)"
                    if cover and cover.without_relevant else "")
            out.append(f"  {task}: {m['queries']:>5} queries{zero}  nDCG@10 {m['ndcg_at_10']:.4f}  MAP@10 "
                       f"{m['map_at_10']:.4f}  Recall@10 {m['recall_at_10']:.4f}  MRR@10 {m['mrr_at_10']:.4f}  "
                       f"nDCG@1000 {m['ndcg_at_1000']:.4f}")
        out.append(f"  {DENOMINATORS}")
        by = self.by
        for task, groups in r.get("groups", {}).items():  # --by: the breakdown, in text too
            out.append(f"  {task} by {by}:")
            for key, m in groups.items():
                out.append(f"    {terminal_safe(key)[:40]:<40} {int(m['queries']):>5} queries  nDCG@10 "
                           f"{m['ndcg_at_10']:.4f}  MAP@10 {m['map_at_10']:.4f}  Recall@10 {m['recall_at_10']:.4f}")
        o = r["overall_mean_of_tasks"]
        if o:
            out.append(f"  overall nDCG@10: query-weighted (as paper Table 3) "
                       f"{r['overall_query_weighted']['ndcg_at_10']:.4f}; mean of tasks (as the README's Avg) "
                       f"{o['ndcg_at_10']:.4f}")
        return out


def build(scope: Scope, *, hits: pd.DataFrame | None = None, source: str | None = None, task: TaskName | None = None,
          by: str | None = None, inputs: Inputs | None = None) -> ScoreView:
    """The scores of the scope's one run (or of ``hits``, a run file's, named ``source``) under the scope's scheme.

    >>> view = build(Scope.of("demo_v2603", [bm25], root=root), inputs=Inputs(root))
    >>> round(view.report["tasks"]["c2c"]["ndcg_at_10"], 4), view.source == f"run:{bm25}"
    (0.4631, True)
    """
    inputs = inputs or Inputs()
    if hits is None:
        hits, source = inputs.hits(scope.run_ids[0]), f"run:{scope.run_ids[0]}"
    if task:
        hits = hits[hits["task"] == task]
    store = inputs.store(scope.release)
    if by and by not in GROUPINGS:  # a metadata slice, refused before scoring when the release lacks it
        by = str(SliceKey.parse(by).check(store))
    per_query = evaluate(store, hits, scope.scheme, anchor_exclusion=scope.anchor_exclusion)
    covered = coverage(store, per_query, scope.scheme)
    report = {"release": scope.release, "scheme": str(scope.scheme), "scheme_description": scope.scheme.description,
              "anchor_exclusion": scope.anchor_exclusion, "source": source, **summary(per_query),
              "coverage": {t: {**c._asdict(), "missing": c.missing} for t, c in covered.items()},
              "denominators": DENOMINATORS}
    if by:
        groups: dict = {}
        for row in aggregate(store, per_query, by).to_dict("records"):
            group_task, key = row.pop("task"), row.pop(by)
            groups.setdefault(group_task, {})[str(key)] = row
        report["groups"] = groups
    return ScoreView(scope, str(source), covered, by, report)


def warn(view: ScoreView) -> None:
    """Each coverage warning of ``view`` on stderr (the numbers go to stdout)."""
    for line in view.warnings():
        print(f"warning: {terminal_safe(line)}", file=sys.stderr)


def new_run_scores(run_id: str, root: Path | None = None) -> dict[str, float]:
    """Per task, a stored run's nDCG@10 under scheme v2 (anchor excluded): what ``run`` prints and the Run
    retrieval page shows for a run just made (``score_run``)."""
    return score_run(run_id, root)
