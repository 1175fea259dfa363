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
from coreb_core.data.schema import TASK_NAMES
from coreb_core.data.store import Store
from coreb_core.present.inspection import trap_reason_text
from coreb_core.runs.folders import run_meta
from coreb_core.runs.meta import run_name
from coreb_core.text import terminal_safe
from coreb_core.training.mining import GRADES, PASSING, K, MinedNegatives, correct_pairs, mine_run
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
    test_release_of,
)

RULE_NOTE = ("The article does not state how a sample is made; its counts fix the rule: one sample per (query, rel=2 "
             "document) of every query with at least one rel=1 document gives 3,803 on release_v2602 and 3,882 on "
             "release_v2603, of which 3,692 are not c2t_match samples. The test rule (every subtask but c2t_match) is "
             "the default for release_v2603, the train rule (every subtask) for any other release.")


class SamplesView(NamedTuple):
    """The protocol's samples of one release under one rule, their counts, and how many of their hard negatives
    (the released rel=1 documents) the executed view makes relevant (``passing_hard``, per task: passing code of
    the query's own problem in a positive's language; ``hard_total``: every hard negative, per task; both count
    a sample's entries, so a document is counted once per sample that holds it)."""

    release: str
    rule: str
    hard: int
    easy: int
    seed: int
    counts: SampleCounts
    samples: list[Sample]
    hard_total: dict[str, int]
    passing_hard: dict[str, int]

    def to_json(self) -> dict:
        """``samples --json``: the counts and how the samples were made (not the samples: those go to the file)."""
        return {"release": self.release, "rule": self.rule, "rule_text": RULE_TEXT[self.rule], "hard": self.hard,
                "easy": self.easy, "seed": self.seed, "samples": self.counts.total, "by_task": self.counts.by_task,
                "by_subtask": self.counts.by_subtask, "hard_negatives_by_task": self.hard_total,
                "passing_hard_negatives_by_task": self.passing_hard,
                "samples_by_hard_negatives": {str(n): c for n, c in self.hard_per_sample().items()}}

    def hard_per_sample(self) -> dict[int, int]:
        """Samples per number of hard negatives held, fewest first: a query with fewer rel=1 documents than
        ``hard`` gives samples with fewer (the article says three per sample; not every sample has them)."""
        counts: dict[int, int] = {}
        for s in self.samples:
            counts[len(s.hard_neg)] = counts.get(len(s.hard_neg), 0) + 1
        return dict(sorted(counts.items()))

    def short_hard_note(self) -> str:
        """How many samples hold fewer than ``hard`` hard negatives, in words ("" when none does).

        >>> print(samples("demo_v2603", root=root).short_hard_note())   # doctest: +ELLIPSIS
        100 of the 2,529 samples hold fewer than 3 hard negatives (100 with 2): their query has fewer rel=1 documents, ...
        """
        fewer = {n: c for n, c in self.hard_per_sample().items() if n < self.hard}
        if not fewer:
            return ""
        parts = ", ".join(f"{c:,} with {n}" for n, c in fewer.items())
        article = f", though the article says each sample holds {HARD}" if self.hard == HARD else ""
        return (f"{sum(fewer.values()):,} of the {self.counts.total:,} samples hold fewer than {self.hard} hard "
                f"negatives ({parts}): their query has fewer rel=1 documents{article}")

    def passing_note(self) -> str:
        """How many hard negatives are passing code, in words (the page's caption and the verb's last line).

        >>> view = samples("demo_v2603", root=root)
        >>> print(view.passing_note())   # doctest: +ELLIPSIS
        96 (1.3%) of the 7,487 hard negatives (the released rel=1 documents) are passing code of the query's own problem in a positive's language (T2C 0 of 5,543, C2C 96 of 1,080, C2T 0 of 864): ...
        """
        total, passing = sum(self.hard_total.values()), sum(self.passing_hard.values())
        share = f" ({passing / total:.1%})" if total else ""
        per_task = ", ".join(f"{t.upper()} {self.passing_hard[t]:,} of {self.hard_total[t]:,}" for t in TASK_NAMES)
        return (f"{passing:,}{share} of the {total:,} hard negatives (the released rel=1 documents) are passing code "
                f"of the query's own problem in a positive's language ({per_task}): the executed view counts them "
                "as relevant; the protocol keeps them as released (mine leaves such documents out)")

    def lines(self) -> Iterable[str]:
        yield (f"{self.counts.total:,} samples of {self.release} under the {self.rule} rule: "
               f"{RULE_TEXT[self.rule]}; up to {self.hard} hard and {self.easy} easy negatives each, seed {self.seed}")
        for row in self.counts.table().itertuples(index=False):
            yield f"  {row.task:<4} {row.subtask:<28} {row.samples:>6,}"
        if self.short_hard_note():
            yield self.short_hard_note()
        yield self.passing_note()


def samples(release: str, rule: str | None = None, hard: int = HARD, easy: int = EASY, seed: int = SEED,
            root: Path | None = None) -> SamplesView:
    """The release's samples under ``rule`` (default: ``default_rule(release)``)."""
    rule = check_rule(rule) if rule is not None else default_rule(release)
    with Store(release, root) as store:
        made = build_samples(store, rule, hard, easy, seed)
        correct = correct_pairs(store)
    total = {t: 0 for t in TASK_NAMES}
    passing = {t: 0 for t in TASK_NAMES}
    for s in made:
        task = s.short_task
        total[task] += len(s.hard_neg)
        passing[task] += sum((task, s.query_id, p.id) in correct for p in s.hard_neg)
    return SamplesView(release, rule, hard, easy, seed, sample_counts(made), made, total, passing)


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


PAIRS = "distinct (query, document) pairs"
MINED_UNITS = {"samples": "(query, positive) pairs: a query with 3 positives gives 3 samples",
               "triplets": "samples holding k negatives (one row each)",
               "negatives_by_grade": PAIRS + ": a query's negative counts once, not once per positive",
               "left_out_by_task": PAIRS, "correct_kept_by_task": PAIRS, "short_queries": "queries"}


class MinedView(NamedTuple):
    """Hard negatives mined from one run, with the run's name and the test release (mining it is for analysis)."""

    mined: MinedNegatives
    run_name: str
    test_release: str | None = None  # None: the test release of the run's benchmark (``test_release_of``)

    @property
    def of_test_release(self) -> bool:
        """True when the run is of the test release: its negatives are for analysis, and train-reranker refuses
        them (a mined samples file is tied to its release)."""
        return self.mined.release == (self.test_release or test_release_of(self.mined.release))

    def test_release_note(self) -> str:
        """The warning for a mined test release ("" for any other release)."""
        if not self.of_test_release:
            return ""
        return (f"{self.mined.release} is the test release: these negatives are for analysis, not training; "
                "train-reranker refuses them")

    def correct_note(self) -> str:
        """What the executed view's guard did: how many correct documents it left out per task, or how many
        ``keep_correct`` kept and with which labels."""
        m = self.mined
        if m.keep_correct:
            kept = m.correct_kept()
            grades = m.grade_counts()
            labels = ", ".join(f"{grades[g]:,} {g}" for g in GRADES if g.startswith(PASSING))
            return (f"kept {sum(kept.values()):,} documents the executed view makes relevant (passing code of the "
                    f"query's own problem in a positive's language; {_per_task(kept)}), labelled: {labels}. They are "
                    "correct answers, not negatives")
        left = m.left_out()
        return (f"left out {sum(left.values()):,} documents the executed view makes relevant (passing code of the "
                f"query's own problem in a positive's language, each ranked above a kept negative; "
                f"{_per_task(left)}): they are correct answers, not negatives (--keep-correct keeps them, labelled)")

    def to_json(self) -> dict:
        m = self.mined
        # "samples" and "negatives_by_grade" stay (tests and scripts read them); "units" and the *_per_* keys say
        # what each count counts: samples per (query, positive) pair, negatives per distinct (query, document) pair.
        return {"run": m.run_id, "run_name": self.run_name, "release": m.release, "k": m.k, "samples": len(m.samples),
                "queries": self.queries(), "samples_per_query_positive_pair": len(m.samples),
                "negatives_per_query_document_pair_by_grade": m.grade_counts(),
                "units": MINED_UNITS,
                "triplets": None if m.keep_correct else len(m.triplets()), "short_queries": m.short,
                "negatives_by_grade": m.grade_counts(), "keep_correct": m.keep_correct,
                "left_out_by_task": m.left_out(), "correct_kept_by_task": m.correct_kept(),
                "test_release": self.test_release, "for_training": not self.of_test_release,
                "test_release_note": self.test_release_note() or None}

    def queries(self) -> int:
        """The queries mined (each gives one sample per positive)."""
        return len({(s.task, s.query_id) for s in self.mined.samples})

    def lines(self) -> Iterable[str]:
        m, grades = self.mined, self.mined.grade_counts()
        total = sum(grades.values())
        passing = sum(grades[g] for g in GRADES if g.startswith(PASSING))
        yield (f"{terminal_safe(self.run_name)}: the top {m.k} non-positives of each of {self.queries():,} queries; "
               f"{len(m.samples):,} samples, one per (query, positive) pair; {total:,} negatives, each counted once "
               f"per (query, document) pair however many positives the query has: {grades['trap']:,} traps (rel=1), "
               f"{grades['judged_negative']:,} judged negatives (rel=0), {grades['unjudged']:,} unjudged"
               + (f", {passing:,} passing code (kept)" if m.keep_correct else ""))
        yield self.correct_note()
        if m.short:
            yield (f"{m.short:,} queries had fewer than {m.k} negatives in the stored list; their samples hold "
                   "fewer negatives and are left out of the triplets")
        if self.of_test_release:
            yield self.test_release_note()


def _per_task(counts: dict[str, int]) -> str:
    """``T2C 0, C2C 126, C2T 0``."""
    return ", ".join(f"{t.upper()} {counts[t]:,}" for t in TASK_NAMES)


def mined(run_id: str, k: int = K, root: Path | None = None, progress=None, keep_correct: bool = False,
          test_release: str | None = None) -> MinedView:
    """``mine_run`` with the run's name; ``test_release`` (by default the test release of the run's benchmark:
    release_v2603, or CoREB-mini's demo_v2603) is named in the output when the run is of it."""
    kwargs = {"progress": progress} if progress is not None else {}
    return MinedView(mine_run(run_id, k, root, keep_correct=keep_correct, **kwargs), run_name(run_meta(run_id, root)),
                     test_release)
