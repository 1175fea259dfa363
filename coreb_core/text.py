"""Strings from data files shown to a person: on a terminal without its control sequences, and long
lists of lines cut to a readable few with a count of the rest; p-values as a reader expects them (the
CLI and the pages say them alike).

A model name or a file name may hold ESC sequences that clear the screen, recolour it or retitle the
window; the CLI prints every such string through ``terminal_safe``.

Example:
    >>> print(terminal_safe("model\\x1b[2J\\x1b]0;owned\\x07"))
    model\\x1b[2J\\x1b]0;owned\\x07
"""
from __future__ import annotations

import re
from typing import NamedTuple, Sequence

MAX_LINES_SHOWN = 20

# C0 controls, DEL, C1 controls, and the bidirectional overrides that reorder what a terminal shows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: object) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\n``→``\\x0a``,
    ``\\u202e``), so that printing it can neither run a terminal sequence nor break the line.

    >>> terminal_safe("a\\tb\\nc\\u202ed"), terminal_safe("plain · text")
    ('a\\\\x09b\\\\x0ac\\\\u202ed', 'plain · text')
    """
    return _CONTROL.sub(_escape, str(text))


class Capped(NamedTuple):
    """The lines to show, and the line that counts the rest (None when none were left out)."""

    shown: list[str]
    more: str | None


def capped(lines: Sequence[str], what: str = "files skipped", limit: int = MAX_LINES_SHOWN) -> Capped:
    """At most ``limit`` of ``lines``, and a line counting the rest: a folder like /etc gives 20 reasons,
    not a thousand.

    >>> cut = capped([f"f{i}: unreadable" for i in range(1100)])
    >>> len(cut.shown), cut.shown[-1], cut.more
    (20, 'f19: unreadable', '… and 1,080 more files skipped')
    >>> capped(["one"])
    Capped(shown=['one'], more=None)
    """
    lines = list(lines)
    if len(lines) <= limit:
        return Capped(lines, None)
    return Capped(lines[:limit], f"… and {len(lines) - limit:,} more {what}")


def p_text(p: float) -> str:
    """A p-value as a reader expects it: two significant digits, ``p < 0.001`` when tiny.

    >>> p_text(0.38812), p_text(0.0123), p_text(1.0), p_text(0.00004), p_text(float("nan"))
    ('p = 0.39', 'p = 0.012', 'p = 1.0', 'p < 0.001', 'p not available')
    """
    if p is None or p != p:  # missing, or NaN (a test without data)
        return "p not available"
    return "p < 0.001" if p < 0.001 else f"p = {p:#.2g}"
