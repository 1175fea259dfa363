"""Charts on the page, drawn from Vega-Lite specs that are built and validated once per distinct input.

Building an altair chart and validating its spec against the Vega-Lite schema costs 50–200 ms per chart
on 2 cores; a page has up to eight charts, and every new session (a shared link, a reload) runs the whole
page script again. A spec depends only on its builder (a function of ``ui.charts``) and the builder's
inputs, so ``draw`` keys it by them, keeps it (the newest ``MAX_SPECS``), and a later session draws it in
milliseconds. The spec is the one altair makes, validated as ``st.altair_chart`` would validate it, with
the data inline (Streamlit sends named datasets to the browser as Arrow either way).

Example:
    >>> import pandas as pd
    >>> from ui.charts import hbar
    >>> frame = pd.DataFrame({"task": ["t2c", "c2t"], "ndcg": [0.41, 0.35]})
    >>> first = chart_spec(hbar, frame, "task", "ndcg", x_title="nDCG@10")
    >>> first == chart_spec(hbar, frame.copy(), "task", "ndcg", x_title="nDCG@10"), first["height"]
    (True, 160)
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any, Callable

import altair as alt
import pandas as pd
import streamlit as st

MAX_SPECS = 512  # a few KB each (inline data included); enough for every chart of every page and release
_SPECS: OrderedDict[str, str] = OrderedDict()
# Altair's theme and data transformer are process-wide: one spec is made at a time.
_LOCK = threading.Lock()


def _part(value: Any) -> bytes:
    """The bytes that stand for one builder input in its key: a frame by its columns, types and values (not
    its identity: each session builds its own equal frame), anything else by its repr."""
    if isinstance(value, (pd.DataFrame, pd.Series)):
        head = repr((list(value.columns) if isinstance(value, pd.DataFrame) else value.name,
                     [str(t) for t in (value.dtypes if isinstance(value, pd.DataFrame) else [value.dtype])]))
        try:
            body = pd.util.hash_pandas_object(value, index=True).to_numpy().tobytes()
        except TypeError:  # unhashable cells (lists): their text form
            body = value.to_csv().encode()
        return head.encode() + body
    return repr(value).encode()


def input_key(builder: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> str:
    """A digest of the builder's name and of every input it is called with.

    >>> from ui.charts import hbar
    >>> one = pd.DataFrame({"task": ["t2c"], "ndcg": [0.41]})
    >>> input_key(hbar, (one, "task", "ndcg"), {}) == input_key(hbar, (one.assign(ndcg=0.42), "task", "ndcg"), {})
    False
    """
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{builder.__module__}.{builder.__qualname__}".encode())
    for value in args:
        digest.update(b"\x00" + _part(value))
    for name in sorted(kwargs):
        digest.update(b"\x01" + name.encode() + b"=" + _part(kwargs[name]))
    return digest.hexdigest()


def _built(chart: alt.TopLevelMixin) -> str:
    """The chart's validated spec as JSON, data inline, without altair's default theme (as Streamlit
    converts it: the default theme would add a fixed 300 px view size)."""
    with _LOCK:
        theme = alt.theme.enable("none") if alt.theme.active == "default" else contextlib.nullcontext()
        with theme, alt.data_transformers.enable("default", max_rows=None):
            return json.dumps(chart.to_dict(validate=True))


def chart_spec(builder: Callable[..., alt.TopLevelMixin], *args: Any, **kwargs: Any) -> dict:
    """The Vega-Lite spec of ``builder(*args, **kwargs)``, built once per distinct input (a fresh copy each
    call: Streamlit moves the datasets out of the spec it is given)."""
    key = input_key(builder, args, kwargs)
    with _LOCK:
        text = _SPECS.get(key)
        if text is not None:
            _SPECS.move_to_end(key)
    if text is None:
        text = _built(builder(*args, **kwargs))
        with _LOCK:
            _SPECS[key] = text
            while len(_SPECS) > MAX_SPECS:
                _SPECS.popitem(last=False)
    return json.loads(text)


def draw(builder: Callable[..., alt.TopLevelMixin], *args: Any, **kwargs: Any) -> None:
    """Draw ``builder(*args, **kwargs)`` across the container's width (see ``chart_spec``)."""
    st.vega_lite_chart(spec=chart_spec(builder, *args, **kwargs), width="stretch")
