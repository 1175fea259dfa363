"""Strings from data files shown to a person: on a terminal without its control sequences, and long
lists of lines cut to a readable few with a count of the rest; p-values as a reader expects them (the
CLI and the pages say them alike); ids in error lines escaped so that look-alikes differ (``quoted_id``),
and the Unicode forms ids and names are compared in (``nfc_forms``, ``name_key``).

A model name or a file name may hold ESC sequences that clear the screen, recolour it or retitle the
window; the CLI prints every such string through ``terminal_safe``.

Example:
    >>> print(terminal_safe("model\\x1b[2J\\x1b]0;owned\\x07"))
    model\\x1b[2J\\x1b]0;owned\\x07
"""
from __future__ import annotations

import re
import unicodedata
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


def quoted_id(value: object, limit: int = 80) -> str:
    """An id (a query, document or run id, as typed or as stored) for an error line: quoted, every
    non-ASCII character escaped, so an NFD ``code_e\u0301`` and an NFC ``code_\xe9`` that look the same
    read differently; cut to ``limit`` characters.

    >>> print(quoted_id("code_e\u030101"), quoted_id("code_\u00e901"), quoted_id("q_t2c_0001"))
    'code_e\u030101' 'code_\xe901' 'q_t2c_0001'
    >>> quoted_id("x" * 200)[-5:]
    'xxxx…'
    """
    text = ascii(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def nfc_forms(text: str) -> list[str]:
    """``text`` as given, then its NFC and NFD forms where they differ: what an id lookup tries before
    saying "unknown" (an id typed or pasted in one normal form, stored in the other).

    >>> nfc_forms("code_e\u030101") == ["code_e\u030101", "code_\u00e901"]
    True
    >>> nfc_forms("q_t2c_0001")
    ['q_t2c_0001']
    """
    return list(dict.fromkeys([text, unicodedata.normalize("NFC", text), unicodedata.normalize("NFD", text)]))


def invisible_chars(text: str) -> list[str]:
    """The characters of ``text`` that draw nothing or reorder what is drawn: format characters (Unicode
    category Cf: zero-width spaces and joiners, the byte-order mark, soft hyphens) and the bidirectional
    controls (U+200E/F, U+202A-U+202E, U+2066-U+2069, U+061C, all Cf). Two names differing only in these
    look identical.

    >>> [f"U+{ord(c):04X}" for c in invisible_chars("bm25\u200b \u202egnp.exe")]
    ['U+200B', 'U+202E']
    >>> invisible_chars("bm25 · demo")
    []
    """
    return [c for c in text if unicodedata.category(c) == "Cf"]


def name_key(name: str) -> str:
    """What two names are compared by: NFKC-folded and case-folded (full-width ``ｂｍ２５`` is ``bm25``,
    ``ﬁ`` is ``fi``, ``BM25`` is ``bm25``), with invisible characters (``invisible_chars``) dropped.
    Names with the same key look alike and are not told apart in a picker.

    >>> name_key("\uff42\uff4d\uff12\uff15 \u00b7 demo") == name_key("BM25 · demo") == "bm25 · demo"
    True
    >>> name_key("bm2\u200b5"), name_key("cafe\u0301") == name_key("caf\u00e9")
    ('bm25', True)
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(c for c in folded if unicodedata.category(c) != "Cf")


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


# A Monte-Carlo p-value counted from this many extreme sign patterns has a relative error near 1/sqrt(200), about 7%:
# two significant digits (``evaluation.significance`` draws flips until a pair counts this many, or its limit).
P_RESOLVED_COUNT = 200


def p_text(p: float, flips: int | None = None) -> str:
    """A p-value as a reader expects it: two significant digits, ``p < 0.001`` when tiny.

    ``flips``: the most sign flips a randomization test drew (``significance.adaptive_limit``); then only the digits
    they support are printed. A p counted from fewer than ``P_RESOLVED_COUNT`` extreme patterns is said as ``p <
    0.001`` only where its upper bound (the count plus two standard errors) is below 0.001, else with one digit.

    >>> p_text(0.38812), p_text(0.0123), p_text(1.0), p_text(0.00004), p_text(float("nan"))
    ('p = 0.39', 'p = 0.012', 'p = 1.0', 'p < 0.001', 'p not available')
    >>> p_text(0.0008, 10_000), p_text(0.0008, 200_000), p_text(0.00095, 200_000), p_text(0.0013, 200_000)
    ('p ≈ 0.0008', 'p < 0.001', 'p ≈ 0.0009', 'p = 0.0013')
    """
    if p is None or p != p:  # missing, or NaN (a test without data)
        return "p not available"
    if flips is None or p * (flips + 1) >= P_RESOLVED_COUNT:
        return "p < 0.001" if p < 0.001 else f"p = {p:#.2g}"
    count = p * (flips + 1)  # the extreme patterns (and the one added): p's resolution
    if (count + 2 * count ** 0.5) / (flips + 1) < 0.001 and 1 / (flips + 1) < 0.001:
        return "p < 0.001"
    return f"p ≈ {p:.1g}"
