"""Errors the user can act on. Each renders as one line naming file, row and field."""
from __future__ import annotations

import math
from typing import Any, Iterable

from coreb_core.text import quoted_id


class CorebError(Exception):
    """Base class: the CLI and the app show ``str(err)`` and never a traceback.

    >>> try:
    ...     raise CorebError("release demo_v2603 is not in the cache")
    ... except CorebError as err:
    ...     print(err)
    release demo_v2603 is not in the cache
    """


class DataProblem:
    """One problem found in an input file, rendered as one line naming file, row and field.

    >>> str(DataProblem("qrels.parquet", 7, "relevance", "must be 0, 1 or 2", 3))
    "qrels.parquet: row 7: field 'relevance': must be 0, 1 or 2: 3"
    """

    __slots__ = ("file", "row", "field", "message", "value")

    def __init__(self, file: str, row: int | str, field: str, message: str, value: Any = None) -> None:
        self.file, self.row, self.field, self.message, self.value = file, row, field, message, value

    def __str__(self) -> str:
        # an id is quoted as every error line quotes ids (``text.quoted_id``): an NFD ``e\u0301`` and an NFC ``\xe9``
        # read differently (was: printed raw, the two alike)
        is_id = isinstance(self.value, str) and self.field.lower().replace("-", "_").endswith("id")
        shown = "" if self.value is None else f": {quoted_id(self.value) if is_id else _short(self.value)}"
        return f"{self.file}: row {self.row}: field '{self.field}': {self.message}{shown}"

    def __repr__(self) -> str:
        return f"DataProblem({str(self)!r})"


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class DataError(CorebError):
    """Input data is invalid; carries every problem found (each one line).

    >>> print(DataError([DataProblem("a.jsonl", 1, "id", "missing"), DataProblem("a.jsonl", 4, "id", "repeats", "q1")]))
    a.jsonl: row 1: field 'id': missing
    a.jsonl: row 4: field 'id': repeats: 'q1'
    """

    def __init__(self, problems: Iterable[DataProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class NetworkUnavailable(CorebError):
    """The hub (or another host) cannot be reached from this machine.

    >>> err = NetworkUnavailable("huggingface.co cannot be reached")
    >>> isinstance(err, CorebError), str(err)
    (True, 'huggingface.co cannot be reached')
    """


def file_error(exc: OSError) -> CorebError:
    """A file-system error (permission denied, a read-only or full disk) as one line naming the path.

    >>> print(file_error(PermissionError(13, "Permission denied", "/srv/cache/runs")))
    /srv/cache/runs: Permission denied
    >>> print(file_error(OSError("Failed to open local file '/srv/x.parquet'. Detail: [errno 30] Read-only file system")))
    Failed to open local file '/srv/x.parquet'. Detail: [errno 30] Read-only file system
    """
    reason = exc.strerror or (str(exc).splitlines() or [type(exc).__name__])[0]
    if exc.filename is None:
        return CorebError(reason)
    target = f" -> {exc.filename2}" if getattr(exc, "filename2", None) else ""
    return CorebError(f"{exc.filename}{target}: {reason}")


def check_choice(value: str, choices: Iterable[str], what: str) -> str:
    """``value`` when it is one of ``choices``, else a one-line CorebError naming them (every "choose one of").

    >>> check_choice("kind", ("kind", "bug"), "level")
    'kind'
    >>> check_choice("size", ("kind", "bug"), "level")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown level 'size'; choose one of kind, bug
    """
    options = list(choices)
    if value not in options:
        raise CorebError(f"unknown {what} {value!r}; choose one of {', '.join(options)}")
    return value


# Checks of the numbers a user sets (a front end words them with the text as typed).
def check_budget(budget_b: float | None) -> float | None:
    """A parameter limit in billions: None (no limit) or a finite number >= 0; else a one-line CorebError
    (NaN would exclude nothing, since no comparison with it holds; inf and negatives say nothing usable).

    >>> check_budget(None), check_budget(0.5), check_budget(0)
    (None, 0.5, 0.0)
    >>> check_budget(float("nan"))
    Traceback (most recent call last):
    coreb_core.errors.CorebError: the parameter limit must be a finite number of billions, 0 or more, not nan
    """
    if budget_b is None:
        return None
    value = float(budget_b)
    if not math.isfinite(value) or value < 0:
        raise CorebError(f"the parameter limit must be a finite number of billions, 0 or more, not {value!r}")
    return value


def check_cost_limit(value: float | None, what: str) -> float | None:
    """A speed (ms per text) or memory (GB) limit: None (no limit) or a finite number above 0; else a one-line
    CorebError (NaN would exclude nothing; 0, negatives and inf say nothing usable).

    >>> check_cost_limit(None, "ms per text"), check_cost_limit(2, "GB of peak memory")
    (None, 2.0)
    >>> check_cost_limit(float("inf"), "ms per text")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: the ms per text limit must be a finite number above 0, not inf
    """
    if value is None:
        return None
    number = float(value)
    if not math.isfinite(number) or number <= 0:
        raise CorebError(f"the {what} limit must be a finite number above 0, not {number!r}")
    return number


def check_alpha(alpha: float) -> float:
    """A significance level strictly between 0 and 1; else a one-line CorebError.

    >>> check_alpha(0.05)
    0.05
    >>> check_alpha(1.5)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: the significance level must be a number between 0 and 1 (exclusive), not 1.5
    """
    value = float(alpha)
    if not 0 < value < 1:  # NaN fails this too
        raise CorebError(f"the significance level must be a number between 0 and 1 (exclusive), not {alpha!r}")
    return value
