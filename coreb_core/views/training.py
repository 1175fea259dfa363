"""Training data, one view per question the Training data page and the ``samples`` / ``mine`` verbs answer: how many
protocol samples a release gives under a rule (``samples``), what one sample holds and why each hard negative is a
trap (``sample_detail``), and which hard negatives a run mines (``mined``).

Example (CoREB-mini in ``root``):
    >>> view = samples("demo_v2603", root=root)
    >>> view.rule, view.counts.total == len(view.samples)
    ('train', True)
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, NamedTuple

import pandas as pd

from coreb_core.analysis.inspection import query_details
from coreb_core.analysis.traps.kinds import TrapReason, trap_reasons
from coreb_core.data.store import Store
from coreb_core.present.inspection import trap_reason_text
from coreb_core.runs.folders import run_meta
from coreb_core.runs.meta import run_name
from coreb_core.text import terminal_safe
from coreb_core.training.mining import K, MinedNegatives, mine_run
from coreb_core.training.samples import (
    EASY,
    HARD,
    RULE_TEXT,
    SEED,
    Passage,
    Sample,
    SampleCounts,
    build_samples,
    check_rule,
    default_rule,
    sample_counts,
)

RULE_NOTE = ("The article does not state how a sample is made; its counts fix the rule: one sample per (query, rel=2 "
             "document) of every query with at least one rel=1 document gives 3,803 on release_v2602 and 3,882 on "
             "release_v2603, of which 3,692 are not c2t_match samples. The test rule (every subtask but c2t_match) is "
             "the default for release_v2603, the train rule (every subtask) for any other release.")


class SamplesView(NamedTuple):
    """The protocol's samples of one release under one rule, and their counts."""

    release: str
    rule: str
    hard: int
    easy: int
    seed: int
    counts: SampleCounts
    samples: list[Sample]

    def to_json(self) -> dict:
        """``samples --json``: the counts and how the samples were made (not the samples: those go to the file)."""
        return {"release": self.release, "rule": self.rule, "rule_text": RULE_TEXT[self.rule], "hard": self.hard,
                "easy": self.easy, "seed": self.seed, "samples": self.counts.total, "by_task": self.counts.by_task,
                "by_subtask": self.counts.by_subtask}

    def lines(self) -> Iterable[str]:
        yield (f"{self.counts.total:,} samples of {self.release} under the {self.rule} rule: "
               f"{RULE_TEXT[self.rule]}; up to {self.hard} hard and {self.easy} easy negatives each, seed {self.seed}")
        for row in self.counts.table().itertuples(index=False):
            yield f"  {row.task:<4} {row.subtask:<28} {row.samples:>6,}"


def samples(release: str, rule: str | None = None, hard: int = HARD, easy: int = EASY, seed: int = SEED,
            root: Path | None = None) -> SamplesView:
    """The release's samples under ``rule`` (default: ``default_rule(release)``)."""
    rule = check_rule(rule) if rule is not None else default_rule(release)
    with Store(release, root) as store:
        made = build_samples(store, rule, hard, easy, seed)
    return SamplesView(release, rule, hard, easy, seed, sample_counts(made), made)


class SampleRow(NamedTuple):
    """One document of a sample as the viewer lists it: its role (positive, hard negative, easy negative), id,
    text and, for a hard negative, why it is a trap (None for the others)."""

    role: str
    passage: Passage
    reason: TrapReason | None

    @property
    def why(self) -> str:
        """The trap kind in words for a hard negative ("" for the others)."""
        return trap_reason_text(self.reason) if self.reason is not None else ""


def sample_detail(release: str, sample: Sample, root: Path | None = None) -> list[SampleRow]:
    """Every document of ``sample`` in order (positive, hard negatives, easy negatives), each hard negative with
    the trap kind the release's judgments give it (the inspector's reasons).

    >>> view = samples("demo_v2603", root=root)
    >>> rows = sample_detail("demo_v2603", view.samples[0], root)
    >>> [r.role for r in rows][:5], rows[1].reason.kind
    (['positive', 'hard negative', 'hard negative', 'hard negative', 'easy negative'], 'failing_solution')
    """
    with Store(release, root) as store:
        reasons = trap_reasons(store, query_details(store, sample.query_id)) if sample.hard_neg else {}
    return ([SampleRow("positive", p, None) for p in sample.pos]
            + [SampleRow("hard negative", p, reasons.get(p.id)) for p in sample.hard_neg]
            + [SampleRow("easy negative", p, None) for p in sample.easy_neg])


def detail_frame(rows: list[SampleRow]) -> pd.DataFrame:
    """The viewer's table: role, document id, why (a hard negative's trap kind), rank and grade when mined, and the
    first line of the text.

    >>> detail_frame([SampleRow("positive", Passage("d1", "def f():\\n  pass"), None)]).values.tolist()
    [['positive', 'd1', '', None, '', 'def f():']]
    """
    return pd.DataFrame([{"role": r.role, "doc_id": r.passage.id, "why": r.why, "rank": r.passage.rank,
                          "grade": r.passage.grade or "", "text": (r.passage.text.strip().splitlines() or [""])[0]}
                         for r in rows], columns=["role", "doc_id", "why", "rank", "grade", "text"])


class MinedView(NamedTuple):
    """Hard negatives mined from one run, with the run's name."""

    mined: MinedNegatives
    run_name: str

    def to_json(self) -> dict:
        m = self.mined
        return {"run": m.run_id, "run_name": self.run_name, "release": m.release, "k": m.k, "samples": len(m.samples),
                "triplets": len(m.triplets()), "short_queries": m.short, "negatives_by_grade": m.grade_counts()}

    def lines(self) -> Iterable[str]:
        m, grades = self.mined, self.mined.grade_counts()
        total = sum(grades.values())
        yield (f"{terminal_safe(self.run_name)}: the top {m.k} non-positives of {len(m.samples):,} (query, positive) "
               f"samples; {total:,} distinct negatives: {grades['trap']:,} traps (rel=1), "
               f"{grades['judged_negative']:,} judged negatives (rel=0), {grades['unjudged']:,} unjudged")
        if m.short:
            yield (f"{m.short:,} queries had fewer than {m.k} non-positives in the stored list; their samples hold "
                   "fewer negatives and are left out of the triplets")


def mined(run_id: str, k: int = K, root: Path | None = None, progress=None) -> MinedView:
    """``mine_run`` with the run's name."""
    kwargs = {"progress": progress} if progress is not None else {}
    return MinedView(mine_run(run_id, k, root, **kwargs), run_name(run_meta(run_id, root)))
