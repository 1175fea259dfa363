"""Numbers as every page, report and CLI line prints them: fractions as x100 points with one decimal
(the paper's convention), differences signed with a true minus, intervals in points, p-values in words.

Example:
    >>> points(0.43219), signed_points(-0.004), interval_text(0.004, 0.022)
    ('43.2', '−0.4', '0.4–2.2')
"""
from __future__ import annotations

from typing import Any

import pandas as pd


def pct(value: Any) -> float:
    """A fraction as the paper prints it: x100, one decimal (NaN and None give NaN).

    >>> pct(0.43219), pct(None)
    (43.2, nan)
    """
    return float("nan") if value is None or pd.isna(value) else round(float(value) * 100, 1)


def points(value: Any) -> str:
    """A fraction as x100 points with one decimal, or an en dash when missing.

    >>> points(0.43219), points(None), points(float("nan"))
    ('43.2', '–', '–')
    """
    return "–" if value is None or pd.isna(value) else f"{float(value) * 100:.1f}"


def signed_points(delta: float) -> str:
    """A difference of fractions as signed points, one decimal (``−`` for a minus); one that rounds to zero has no
    sign (a "+0.0" beside a difference of −0.04 said a gain that is not there).

    >>> signed_points(0.0134), signed_points(-0.004), signed_points(-0.0004), signed_points(0.0)
    ('+1.3', '−0.4', '0.0', '0.0')
    """
    text = f"{delta * 100:+.1f}"
    return "0.0" if float(text) == 0 else text.replace("-", "−")


def shown_difference(a: float, b: float) -> float:
    """``a - b`` in points as a reader computes it from the two values as shown (``points``: x100, one decimal),
    so that a sentence's or a table's difference adds up with the scores beside it.

    >>> shown_difference(0.4034, 0.3786)   # 40.3 and 37.9 are shown: 2.4 (the difference itself rounds to 2.5)
    2.4
    >>> signed_points(shown_difference(0.3786, 0.4034) / 100)
    '−2.4'
    """
    return round(round(float(a) * 100, 1) - round(float(b) * 100, 1), 1)


def interval_text(low: float, high: float) -> str:
    """A 95% interval of fractions in points: ``0.4–2.2``, or ``−0.5 to 1.3`` when a bound is negative.

    >>> interval_text(0.004, 0.022), interval_text(-0.005, 0.013)
    ('0.4–2.2', '−0.5 to 1.3')
    """
    lo, hi = (f"{v * 100:.1f}".replace("-", "−") for v in (low, high))
    return f"{lo}–{hi}" if low >= 0 else f"{lo} to {hi}"


def duration_text(seconds: float) -> str:
    """Seconds as a person reads them: ``45 s`` under 90 s, else ``2 min 05 s``.

    >>> duration_text(44.6), duration_text(125)
    ('45 s', '2 min 05 s')
    """
    seconds = int(round(seconds))
    return f"{seconds} s" if seconds < 90 else f"{seconds // 60} min {seconds % 60:02d} s"
