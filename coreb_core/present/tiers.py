"""Rank tiers in words (``analysis.tiers``): one wording for the Overview, Model selection, the report and the
``tiers`` verb.

Example (two runs that do not differ: one tier):
    >>> from coreb_core.analysis.tiers import RunTier, TierPair, Tiers
    >>> from coreb_core.evaluation.significance import HOLM
    >>> t = Tiers((RunTier("r1", 1, 1, 0.42, 1, 2, False, 0), RunTier("r2", 2, 1, 0.41, 1, 2, False, 3)),
    ...           (TierPair("r1", "r2", 0.01, 0.2, 0.2, False, True),), "ndcg_at_10", "t2c", "tasks", HOLM, 0.05, 1123,
    ...           10_000, 1_000)
    >>> tiers_sentence(t, {"r1": "minilm", "r2": "bm25"})
    '2 runs in 1 tier on T2C (nDCG@10, the 1,123 queries every run scored): tier 1: minilm, bm25.'
    >>> rank_interval_words(t.runs[1])
    '1–2'
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from coreb_core.analysis.tiers import RunTier, Tiers
from coreb_core.data.measures import metric_label
from coreb_core.evaluation.significance import adaptive_limit

AVERAGE_WORDS = {"tasks": "mean of task means", "queries": "query-weighted mean"}
CORRECTION_WORDS = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg"}


def count_noun(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one.

    >>> count_noun(1, "tier"), count_noun(1_200, "query pair")
    ('1 tier', '1,200 query pairs')
    """
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def where_words(t: Tiers) -> str:
    """The score ranked on: one task, or every task averaged.

    >>> from coreb_core.analysis.tiers import Tiers
    >>> from coreb_core.evaluation.significance import HOLM
    >>> where_words(Tiers((), (), "ndcg_at_10", None, "queries", HOLM, 0.05, 0, 0, 0))
    'every task, query-weighted mean'
    """
    return t.task.upper() if t.task else f"every task, {AVERAGE_WORDS[t.average]}"


def rank_range(low: object, high: object) -> str:
    """A rank interval as ``low–high``, one number when it is one rank, '–' when there is none.

    >>> rank_range(1, 3), rank_range(2, 2), rank_range(None, None)
    ('1–3', '2', '–')
    """
    if low is None or high is None or pd.isna(low) or pd.isna(high):  # type: ignore[call-overload]
        return "–"
    return str(int(low)) if low == high else f"{int(low)}–{int(high)}"  # type: ignore[call-overload]


def rank_interval_words(r: RunTier) -> str:
    """A run's rank interval (``rank_range``).

    >>> rank_interval_words(RunTier("r", 1, 1, 0.5, 1, 1, False, 0))
    '1'
    """
    return rank_range(r.rank_low, r.rank_high)


def tiers_sentence(t: Tiers, names: Mapping[str, str] | None = None) -> str:
    """How many tiers, and who is in each, best first."""
    names = names or {}
    groups: dict[int, list[str]] = {}
    for r in t.runs:
        groups.setdefault(r.tier, []).append(names.get(r.run, r.run))
    listed = "; ".join(f"tier {tier}: {', '.join(members)}" for tier, members in groups.items())
    return (f"{count_noun(len(t.runs), 'run')} in {count_noun(t.tiers, 'tier')} on {where_words(t)} "
            f"({metric_label(t.metric)}, the {t.queries:,} queries every run scored): {listed}.")


def flips_words(n_permutations: int) -> str:
    """The sign flips of an adaptive randomization test (``significance.adaptive_limit``), in words.

    >>> flips_words(10_000)
    '10,000 sign flips, more where p is small (up to 200,000)'
    """
    return f"{n_permutations:,} sign flips, more where p is small (up to {adaptive_limit(n_permutations):,})"


def method_words(t: Tiers) -> str:
    """How the tiers and intervals were made, for a caption or a note."""
    chained = (f" {count_noun(t.chained, 'significant pair')} share a tier through runs that differ from neither."
               if t.chained else "")
    return (f"Tiers: every pair of runs tested (paired randomization test, {flips_words(t.n_permutations)}, "
            f"{CORRECTION_WORDS[t.correction.name]}-corrected over "
            f"{count_noun(len(t.pairs), 'pair')}, α = {t.alpha:g}); a tier ends only where every run above differs "
            "significantly from every run below, so runs that do not differ always share a tier." + chained
            + f" Rank interval: 2.5–97.5 percentile of the run's rank over {t.n_resamples:,} bootstrap resamples of "
            "the queries (the same resample for every run, within each task).")


def selection_tier_sentence(t: Tiers | None, run: str, names: Mapping[str, str] | None = None,
                            recommended: bool = True) -> str:
    """Where the first-ranked ``run`` stands among the tiers ('' without tiers); ``recommended``: the verdict chose it
    (else it is only listed first, and the sentence does not call it recommended).

    >>> from coreb_core.analysis.tiers import Tiers
    >>> from coreb_core.evaluation.significance import HOLM
    >>> t = Tiers((RunTier("a", 1, 1, 0.5, 1, 2, False, 0), RunTier("b", 2, 1, 0.4, 1, 2, False, 0),
    ...            RunTier("c", 3, 2, 0.1, 3, 3, False, 0)), (), "ndcg_at_10", "t2c", "tasks", HOLM, 0.05, 9, 10, 10)
    >>> selection_tier_sentence(t, "a", {"b": "bm25"})
    'The recommended run is in tier 1 of 2 with 1 other run (bm25): no significant difference sets them apart.'
    >>> selection_tier_sentence(t, "a", {"a": "bm25", "b": "bm25 (2)"}, recommended=False)
    'No run is recommended: bm25, listed first, is in tier 1 of 2 with 1 other run (bm25 (2)), and no significant difference sets them apart.'
    >>> one = t._replace(runs=t.runs[:2])
    >>> selection_tier_sentence(one, "a", {"a": "bm25", "b": "bm25 (2)"}, recommended=False)
    'No run is recommended: all 2 runs share tier 1, and no significant difference sets any of them apart.'
    """
    names = names or {}
    mine = t.tier_of(run) if t is not None else None
    if t is None or mine is None:
        return ""
    others = [names.get(r.run, r.run) for r in t.runs if r.tier == mine.tier and r.run != run]
    if not recommended:
        if t.tiers == 1:
            return (f"No run is recommended: all {len(t.runs)} runs share tier 1, and no significant difference sets "
                    "any of them apart.")
        return (f"No run is recommended: {names.get(run, run)}, listed first, is in tier {mine.tier} of {t.tiers} with "
                f"{count_noun(len(others), 'other run')} ({', '.join(others)}), and no significant difference sets "
                "them apart.")
    if not others:
        return f"The recommended run is alone in tier {mine.tier} of {t.tiers}: it differs significantly from every other run."
    return (f"The recommended run is in tier {mine.tier} of {t.tiers} with {count_noun(len(others), 'other run')} "
            f"({', '.join(others)}): no significant difference sets them apart.")
