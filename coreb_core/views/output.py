"""How a view's result becomes JSON and terminal text: one rendering for every verb (``render``).

A view result is any object with ``to_json()`` (plain, JSON-ready values: fractions 0..1, ids, records) and
``lines()`` (the terminal's sentences, from ``present/``)."""
from __future__ import annotations

import json
import math
import numbers
from typing import Iterable, Protocol

import numpy as np
import pandas as pd


class ViewResult(Protocol):
    """What every view's result offers its front ends."""

    def to_json(self) -> dict: ...

    def lines(self) -> Iterable[str]: ...


def records(frame: pd.DataFrame) -> list[dict]:
    """A frame as JSON-ready row objects at full precision (NaN, NA and NaT -> None, numpy scalars -> Python's).

    >>> records(pd.DataFrame({"run": ["a"], "p": [float("nan")], "x": [7 / 6], "ok": [True]}))
    [{'run': 'a', 'p': None, 'x': 1.1666666666666667, 'ok': True}]
    """
    return [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict("records")]


def _plain(value: object) -> object:
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def json_ready(value: object) -> object:
    """``value`` with every NaN or infinite float (numpy's too) as None, so that ``json.dumps(allow_nan=False)``
    writes strict JSON.

    >>> json_ready({"p": float("nan"), "xs": [1.5, float("inf")], "t": (1,)})
    {'p': None, 'xs': [1.5, None], 't': [1]}
    """
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, bool) or not isinstance(value, numbers.Real):  # numpy's numbers register as Real
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    return float(value) if math.isfinite(value) else None


def render(view: ViewResult, as_json: bool) -> str:
    """The text a verb prints for ``view``: its JSON (strict: NaN as null) or its lines.

    >>> class Tiny:
    ...     def to_json(self): return {"mean": float("nan")}
    ...     def lines(self): return ["mean: n/a"]
    >>> print(render(Tiny(), True)); print(render(Tiny(), False))
    {
     "mean": null
    }
    mean: n/a
    """
    if as_json:
        return json.dumps(json_ready(view.to_json()), indent=1, allow_nan=False)
    return "\n".join(view.lines())
