"""The words for trap wins across runs, releases and text lengths: one sentence each, said alike by the
Trap analysis page and the CLI (``python -m coreb_core traps`` / ``stability``)."""
from __future__ import annotations

import math

from coreb_core.present.numbers import points, signed_points


def agreement_sentence(task: str, beating_all: int, lost_by_all: int, runs: int) -> str:
    """How many traps beat every chosen run, and how many queries all of them lose.

    >>> agreement_sentence("t2c", 597, 470, 2)
    't2c: 597 traps beat all 2 runs; all 2 runs lose 470 queries to a trap.'
    >>> agreement_sentence("t2c", 12, 30, 1)
    't2c: 12 traps beat the run; it loses 30 queries to a trap.'
    """
    if runs == 1:
        return f"{task}: {beating_all} traps beat the run; it loses {lost_by_all} queries to a trap."
    return f"{task}: {beating_all} traps beat all {runs} runs; all {runs} runs lose {lost_by_all} queries to a trap."


def jaccard_sentence(task: str, name_a: str, name_b: str, both: int, either: int, jaccard: float) -> str:
    """Two runs' overlap of lost queries.

    >>> jaccard_sentence("c2c", "bm25", "minilm", 105, 191, 0.5497)
    'c2c: bm25 and minilm both lose 105 of the 191 queries either loses to a trap (Jaccard 0.55).'
    >>> jaccard_sentence("c2c", "a", "b", 0, 0, float("nan"))
    'c2c: neither a nor b loses a query to a trap.'
    """
    if not either:
        return f"{task}: neither {name_a} nor {name_b} loses a query to a trap."
    return (f"{task}: {name_a} and {name_b} both lose {both} of the {either} queries either loses to a trap "
            f"(Jaccard {jaccard:.2f}).")


def duel_sentence(task: str, name: str, decided: int, longer_first: float, low: float, high: float) -> str:
    """Whether the longer of the best trap and the best positive tends to rank first.

    >>> duel_sentence("t2c", "bm25", 1066, 0.4962, 0.466, 0.526)
    't2c, bm25: the higher-ranked of best trap and best positive is the longer text in 49.6% of 1,066 queries (95% CI 46.6–52.6).'
    """
    return (f"{task}, {name}: the higher-ranked of best trap and best positive is the longer text in "
            f"{points(longer_first)}% of {decided:,} queries (95% CI {points(low)}–{points(high)}).")


def shift_text(difference: float, low: float, high: float) -> str:
    """A rate's change between releases, in points, with its interval and whether it moved.

    >>> shift_text(0.0772, 0.0021, 0.1521)
    '+7.7 points (95% CI +0.2 to +15.2): moved'
    >>> shift_text(0.032, -0.044, 0.103)
    '+3.2 points (95% CI −4.4 to +10.3)'
    >>> shift_text(float("nan"), float("nan"), float("nan"))
    'not measurable (the group is absent from one release)'
    """
    if any(math.isnan(v) for v in (difference, low, high)):
        return "not measurable (the group is absent from one release)"
    moved = ": moved" if low > 0 or high < 0 else ""
    return f"{signed_points(difference)} points (95% CI {signed_points(low)} to {signed_points(high)}){moved}"
