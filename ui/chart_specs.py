"""Charts on the page, drawn from Vega-Lite specs that are built and validated once per distinct input.

Building an altair chart and validating its spec against the Vega-Lite schema costs 50–200 ms per chart
on 2 cores; a page has up to eight charts, and every new session (a shared link, a reload) runs the whole
page script again. A spec depends only on its builder (a function of ``coreb_core.present.charts``) and the builder's
inputs, so ``draw`` keys it by them, keeps it (the newest ``MAX_SPECS``), and a later session draws it in
milliseconds. The spec is the one altair makes, validated as ``st.altair_chart`` would validate it, with
the data inline. Streamlit sends each named dataset to the browser as Arrow bytes, converting it on every
draw unless it is bytes already (7 ms for a 68-row frame), so each dataset's Arrow bytes are kept beside
the spec and ``draw`` hands those over.

Example:
    >>> import pandas as pd
    >>> from coreb_core.present.charts import hbar
    >>> frame = pd.DataFrame({"task": ["t2c", "c2t"], "ndcg": [0.41, 0.35]})
    >>> first = chart_spec(hbar, frame, "task", "ndcg", x_title="nDCG@10")
    >>> first == chart_spec(hbar, frame.copy(), "task", "ndcg", x_title="nDCG@10"), first["height"]
    (True, 160)
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
import threading
from collections import OrderedDict
from typing import Any, Callable, NamedTuple

import altair as alt
import pandas as pd
import streamlit as st

MAX_SPECS = 512  # a few KB each (inline data included); enough for every chart of every page and release


class _Built(NamedTuple):
    spec: str  # the validated spec as JSON, without its datasets
    datasets: str  # its named datasets (rows) as JSON
    arrow: dict[str, bytes]  # each named dataset as the Arrow bytes Streamlit would make of it


_SPECS: OrderedDict[str, _Built] = OrderedDict()
# Altair's theme and data transformer are process-wide: one spec is made at a time.
_LOCK = threading.Lock()


def _part(value: Any) -> bytes:
    """The bytes that stand for one builder input in its key: a frame by its pickle, which holds its
    columns, types, index and values (not its identity: each session builds its own equal frame), anything
    else by its repr. Pickling a 68-row frame takes 0.6 ms where ``pd.util.hash_pandas_object`` took 10 ms;
    two equal frames laid out differently in memory may pickle apart, which costs one more build, never a
    wrong chart."""
    if isinstance(value, (pd.DataFrame, pd.Series)):
        try:
            return pickle.dumps(value, protocol=5)
        except (pickle.PicklingError, TypeError, AttributeError):  # cells that do not pickle: their text
            return repr((type(value).__name__, value.to_csv(), [str(t) for t in getattr(value, "dtypes", [])])).encode()
    return repr(value).encode()


def input_key(builder: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> str:
    """A digest of the builder's name and of every input it is called with.

    >>> from coreb_core.present.charts import hbar
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


def _built(chart: alt.TopLevelMixin) -> _Built:
    """The chart's validated spec as JSON, data inline, without altair's default theme (as Streamlit
    converts it: the default theme would add a fixed 300 px view size), and its datasets as Arrow."""
    from streamlit import dataframe_util

    with _LOCK:
        theme = alt.theme.enable("none") if alt.theme.active == "default" else contextlib.nullcontext()
        with theme, alt.data_transformers.enable("default", max_rows=None):
            spec = chart.to_dict(validate=True)
    datasets = spec.pop("datasets", {})
    arrow = {str(name): dataframe_util.convert_anything_to_arrow_bytes(rows) for name, rows in datasets.items()}
    return _Built(json.dumps(spec), json.dumps(datasets), arrow)


def _stored(builder: Callable[..., alt.TopLevelMixin], args: tuple, kwargs: dict[str, Any]) -> _Built:
    """The built spec of ``builder(*args, **kwargs)``: from the store, else built now and stored."""
    key = input_key(builder, args, kwargs)
    with _LOCK:
        built = _SPECS.get(key)
        if built is not None:
            _SPECS.move_to_end(key)
    if built is None:
        built = _built(builder(*args, **kwargs))
        with _LOCK:
            _SPECS[key] = built
            while len(_SPECS) > MAX_SPECS:
                _SPECS.popitem(last=False)
    return built


def chart_spec(builder: Callable[..., alt.TopLevelMixin], *args: Any, **kwargs: Any) -> dict:
    """The Vega-Lite spec of ``builder(*args, **kwargs)``, datasets inline, built once per distinct input
    (a fresh copy each call: Streamlit moves the datasets out of the spec it is given)."""
    built = _stored(builder, args, kwargs)
    spec = json.loads(built.spec)
    if built.arrow:
        spec["datasets"] = json.loads(built.datasets)
    return spec


def draw(builder: Callable[..., alt.TopLevelMixin], *args: Any, **kwargs: Any) -> None:
    """Draw ``builder(*args, **kwargs)`` across the container's width (see ``chart_spec``), its datasets
    handed to Streamlit as the Arrow bytes it would make of them."""
    built = _stored(builder, args, kwargs)
    spec = json.loads(built.spec)
    if built.arrow:
        spec["datasets"] = dict(built.arrow)
    st.vega_lite_chart(spec=spec, width="stretch")
