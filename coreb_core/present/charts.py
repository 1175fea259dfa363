"""The altair charts the pages share, built so they stay readable at 1000 px and at 1600 px wide.

Every builder sizes itself from its data: heatmap cells and bars get a fixed number of pixels per
row (the height follows the row count, never under ``MIN_HEIGHT``), widths follow the container
(``ui.chart_specs.draw``, which draws with ``width="stretch"``), axis and legend labels get a ``labelLimit`` long enough
for the longest label, categorical axes are sorted, heatmap cells and bars carry their value as text,
and series are told apart by colour and by shape or dash. Pages pass frames whose numbers come from
``coreb_core``; nothing here computes a figure, it only places it.

Example:
    >>> frame = pd.DataFrame({"run": ["bm25", "bm25", "minilm", "minilm"], "subtask": ["a", "b", "a", "b"],
    ...                       "value": [43.2, 12.0, 50.1, 33.3]})
    >>> chart = heatmap(frame, x="run", y="subtask", value="value", x_title="Run", y_title="Subtask",
    ...                 legend_title="nDCG@10 ×100")
    >>> chart.to_dict()["height"]
    160
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import altair as alt
import pandas as pd

MIN_HEIGHT = 160  # no chart is shorter: below that axis titles and legends crowd the marks
CELL_PX = 22  # pixels per heatmap row (at least 16: the value written in the cell needs it)
BAR_PX = 20  # pixels per bar of a horizontal bar chart
CHAR_PX = 7  # a generous width of one character of an 11 px axis label, for label limits
LABEL_PAD = 12
# Colour schemes that are dark at the low end: the value written in a cell is white there.
DARK_LOW = frozenset({"viridis", "magma", "inferno", "plasma", "cividis", "darkblue", "darkgreen"})
# Where multi-part names (run labels "model · profile · release", cells "task · group") may wrap.
WRAP_ON = " · "
HORIZONTAL_LABELS_PX = 560  # the plot width a heatmap has at 1000 px: wider column labels are angled


def label_limit(labels: Iterable[object], minimum: int = 80) -> int:
    """A ``labelLimit`` in pixels wide enough for the longest of ``labels`` (never under ``minimum``).

    >>> label_limit(["t2c_canonical_retrieval", "c2t"])
    173
    """
    longest = max((len(str(label)) for label in labels), default=0)
    return max(minimum, longest * CHAR_PX + LABEL_PAD)


def rows_height(rows: int, per_row: int = CELL_PX, extra: int = 0) -> int:
    """A chart height for ``rows`` rows of ``per_row`` pixels plus ``extra``, never under ``MIN_HEIGHT``.

    >>> rows_height(3), rows_height(20), rows_height(20, per_row=16)
    (160, 440, 320)
    """
    return max(MIN_HEIGHT, rows * per_row + extra)


def _rows_px(rows: int, per_row: int, width: int | None) -> int:
    """The plot height of a chart of ``rows`` rows: ``rows_height`` on screen; in print (a fixed ``width``)
    exactly the rows, since paper is short and the charts carry few rows."""
    return rows_height(rows, per_row) if width is None else rows * per_row


def tips(fields: Iterable[str | alt.Tooltip]) -> list[alt.Tooltip]:
    """Tooltip channels from field names (or ``alt.Tooltip`` objects, kept as they are).

    Altair turns a bare string in ``encode`` into a channel through a lookup that hashes every schema class
    (about 15 ms per string on 2 cores, every chart on every run); a channel object costs nothing.
    Builders and pages pass channel objects, never bare strings, for the same reason.

    >>> chart = alt.Chart(pd.DataFrame({"run": ["bm25"], "value": [0.4]})).mark_point()
    >>> chart.encode(tooltip=tips(["run", "value"])).to_dict()["encoding"]["tooltip"]
    [{'field': 'run', 'type': 'nominal'}, {'field': 'value', 'type': 'quantitative'}]
    """
    return [f if isinstance(f, alt.Tooltip) else alt.Tooltip(f) for f in fields]


def _wrapped_label_limit(labels: Iterable[object]) -> int:
    """The label limit of the longest line once labels are wrapped on ``WRAP_ON``."""
    return label_limit(part for label in labels for part in str(label).split(WRAP_ON))


def _fit_width(chart, height: int, width: int | None = None):
    """``height`` for the plot itself and the width of the container: autosize "fit-x" (Streamlit's default
    "fit" squeezes titles and axis labels into the height, shrinking heatmap cells below 16 px). A fixed
    ``width`` in pixels (the plot's, labels excluded) is for output with no container: a printed report."""
    if width is not None:
        return chart.properties(height=height, width=width)
    return chart.properties(height=height, width="container",
                            autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))


def _wrap_expr() -> str:
    """A Vega label expression that breaks a label into lines at each ``WRAP_ON`` (an array = lines)."""
    return f"split(datum.label, '{WRAP_ON}')"


def _sort(values: pd.Series, order: Sequence[str] | str | None) -> list[str] | str:
    """An explicit sort for a categorical axis: ``order`` first (those present), then the rest ascending."""
    present = [str(v) for v in pd.unique(values.astype(str))]
    if order is None or isinstance(order, str):
        return order or sorted(present)
    first = [str(v) for v in order if str(v) in present]
    return first + sorted(v for v in present if v not in first)


def heatmap(frame: pd.DataFrame, x: str, y: str, value: str, *, x_title: str | None, y_title: str | None, legend_title: str,
            value_format: str = ".1f", x_sort: Sequence[str] | str | None = None,
            y_sort: Sequence[str] | str | None = None, tooltip: Sequence[str | alt.Tooltip] = (),
            scheme: str = "viridis", title: str | None = None, cell_px: int = CELL_PX,
            width: int | None = None, legend: bool = True) -> alt.LayerChart:
    """A heatmap of ``value`` with ``y`` as rows and ``x`` as columns, every value written in its cell.

    The height is ``rows_height(rows, cell_px)``; both axes are sorted (``x_sort``/``y_sort`` first, then
    ascending); every row label shows in full (no label dropped for overlap, limit from the longest);
    column labels are above the cells, wrap at " · " and stay horizontal while they fit in
    ``HORIZONTAL_LABELS_PX``, else they are angled.
    Text is white on the dark end of ``scheme`` and black on the light end. ``width``: see ``_fit_width``;
    without ``legend`` the colour scale is not drawn (the values are written in the cells anyway).

    >>> frame = pd.DataFrame({"run": ["bm25", "minilm"], "cell": ["t2c · python"] * 2, "value": [30.0, 41.5]})
    >>> spec = heatmap(frame, "run", "cell", "value", x_title="Run", y_title="Cell", legend_title="x").to_dict()
    >>> spec["layer"][1]["encoding"]["text"]["field"], spec["height"]
    ('value', 160)
    """
    rows = frame[y].astype(str).nunique()
    columns = frame[x].astype(str).nunique()
    x_labels = frame[x].astype(str)
    # Horizontal (wrapped) column labels while they fit side by side in a 1000 px wide page.
    few_columns = columns * _wrapped_label_limit(x_labels) <= HORIZONTAL_LABELS_PX
    # Column labels above the cells: with many rows, labels under them are off the first screen (issue 34).
    x_axis = (alt.Axis(labelAngle=0, labelExpr=_wrap_expr(), labelLimit=_wrapped_label_limit(x_labels),
                       orient="top", labelOverlap=False)
              if few_columns else
              alt.Axis(labelAngle=-40, labelLimit=label_limit(x_labels), orient="top", labelOverlap=False))
    y_axis = alt.Axis(labelLimit=label_limit(frame[y]), labelOverlap=False)
    base = alt.Chart(frame).encode(
        x=alt.X(f"{x}:N", title=x_title, sort=_sort(frame[x], x_sort), axis=x_axis),
        y=alt.Y(f"{y}:N", title=y_title, sort=_sort(frame[y], y_sort), axis=y_axis))
    rect = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color(f"{value}:Q", title=legend_title, scale=alt.Scale(scheme=scheme),  # type: ignore[arg-type]  # a Vega scheme name
                        legend=alt.Legend(format=value_format, orient="top", direction="horizontal",  # takes no width
                                          titleLimit=label_limit([legend_title], minimum=120)) if legend else None),
        tooltip=tips(tooltip or [x, y, alt.Tooltip(value, format=value_format)]))
    low, high = pd.to_numeric(frame[value], errors="coerce").agg(["min", "max"]).tolist()
    middle = 0.0 if pd.isna(low) else (low + high) / 2
    dark_low = scheme in DARK_LOW
    text = base.mark_text(fontSize=11 if cell_px >= 20 else 10).encode(
        text=alt.Text(f"{value}:Q", format=value_format),
        color=alt.condition(alt.datum[value] > middle, alt.value("black" if dark_low else "white"),
                            alt.value("white" if dark_low else "black")),
        tooltip=tips(tooltip or [x, y, alt.Tooltip(value, format=value_format)]))
    chart = _fit_width(rect + text, _rows_px(rows, cell_px, width), width)
    return chart.properties(title=title) if title else chart


def hbar(frame: pd.DataFrame, y: str, x: str, *, x_title: str, y_title: str | None = None,
         color: str | None = None, color_title: str | None = None, value_format: str = ".1f",
         y_sort: Sequence[str] | str | None = "-x", stack: bool = False, tooltip: Sequence[str | alt.Tooltip] = (),
         color_scale: alt.Scale | None = None, title: str | None = None, bar_px: int = BAR_PX,
         with_values: bool = True, width: int | None = None) -> alt.Chart | alt.LayerChart:
    """Horizontal bars of ``x`` per ``y`` category, for long category names: full labels on the y axis.

    With ``color`` the bars of one category sit side by side (one row each) unless ``stack``; the
    legend sits below the chart so long series names do not squeeze the bars. ``y_sort`` is "-x"
    (longest bar first), a list of categories, "ascending" or None (the frame's order). Unstacked bars
    carry their value as text at the end of the bar (``with_values``). ``width``: see ``_fit_width``.

    >>> frame = pd.DataFrame({"subtask": ["t2c_canonical_retrieval", "t2c_search"], "drop": [3.1, 0.4]})
    >>> spec = hbar(frame, "subtask", "drop", x_title="drop").to_dict()
    >>> spec["height"], spec["layer"][0]["encoding"]["y"]["axis"]["labelLimit"]
    (160, 173)
    """
    categories = frame[y].astype(str).nunique()
    groups = frame[color].astype(str).nunique() if color and not stack else 1
    sort: Any = y_sort if y_sort in (None, "-x", "x", "ascending", "descending") else _sort(frame[y], y_sort)
    enc: dict = {
        "y": alt.Y(f"{y}:N", title=y_title, sort=sort, axis=alt.Axis(labelLimit=label_limit(frame[y]),
                                                                      labelOverlap=False)),
        "x": alt.X(f"{x}:Q", title=x_title, stack="zero" if stack else None,
                   axis=alt.Axis(format=value_format)),
        "tooltip": tips(tooltip or [y, alt.Tooltip(x, format=value_format)]),
    }
    if color:
        labels = frame[color].astype(str)
        enc["color"] = alt.Color(f"{color}:N", title=color_title, sort=sorted(labels.unique()),
                                 scale=color_scale or alt.Undefined,
                                 legend=alt.Legend(orient="bottom", direction="vertical",
                                                   labelLimit=label_limit(labels, minimum=120)))
        if not stack:
            enc["yOffset"] = alt.YOffset(f"{color}:N", sort=sorted(labels.unique()))
    base = alt.Chart(frame).encode(**enc)
    chart = base.mark_bar()
    if with_values and not stack:
        chart = chart + base.mark_text(align="left", dx=3, fontSize=10, color="black").encode(
            text=alt.Text(f"{x}:Q", format=value_format))
    chart = _fit_width(chart, _rows_px(categories * groups, bar_px, width), width)
    return chart.properties(title=title) if title else chart


def dodge_labels(x_px: Sequence[float], y_px: Sequence[float], texts: Sequence[str], *, dx: float = 7,
                 line_px: float = 12) -> list[float]:
    """Vertical pixel offsets for point labels placed right of their points so that no two overlap.

    Points are taken in order of ``y_px`` (top first); each label tries offsets 0, -12, +12, -24, …
    until its box (``CHAR_PX`` per character wide, ``line_px`` high) clears every placed label.

    >>> dodge_labels([100, 102], [50, 50], ["bm25", "minilm"])
    [0.0, -12.0]
    """
    placed: list[tuple[float, float, float, float]] = []
    offsets = [0.0] * len(texts)
    for i in sorted(range(len(texts)), key=lambda j: y_px[j]):
        left, width = x_px[i] + dx, len(str(texts[i])) * CHAR_PX
        for step in range(0, 2 * len(texts) + 2):
            offset = ((step + 1) // 2) * line_px * (-1 if step % 2 else 1)
            top = y_px[i] + offset - line_px / 2
            box = (left, top, left + width, top + line_px)
            if all(box[2] <= p[0] or box[0] >= p[2] or box[3] <= p[1] or box[1] >= p[3] for p in placed):
                break
        placed.append(box)
        offsets[i] = float(offset)
    return offsets


def labelled_scatter(frame: pd.DataFrame, x: str, y: str, label: str, *, x_title: str, y_title: str,
                     series: str, series_title: str, tooltip: Sequence[str | alt.Tooltip] = (),
                     log_x: bool = False, height: int = 380, min_width_px: int = 560) -> alt.LayerChart:
    """Points of ``y`` against ``x``, coloured and shaped by ``series``, each named by ``label`` beside it.

    Labels are moved up or down (``dodge_labels``) so none overlap at the narrowest width the chart is
    drawn (``min_width_px``; wider only spreads them) and a thin line joins a moved label to its point.
    ``log_x`` uses a symlog x scale (parameter counts from 0.02 to 8 billion).

    >>> frame = pd.DataFrame({"model": ["a", "b"], "params_b": [0.1, 0.1], "overall": [40.0, 40.2],
    ...                       "kind": ["published", "published"]})
    >>> spec = labelled_scatter(frame, "params_b", "overall", "model", x_title="p", y_title="o",
    ...                         series="kind", series_title="Source").to_dict()
    >>> len(spec["layer"]), spec["height"]
    (3, 380)
    """
    import numpy as np

    data = frame.reset_index(drop=True).copy()
    xs = pd.to_numeric(data[x], errors="coerce").to_numpy(dtype=float)
    ys = pd.to_numeric(data[y], errors="coerce").to_numpy(dtype=float)
    tx = np.arcsinh(xs / 0.2) if log_x else xs  # close to the symlog transform, enough for spacing
    span_x = (np.nanmax(tx) - np.nanmin(tx)) or 1.0
    low_y, high_y = np.nanmin(ys), np.nanmax(ys)
    span_y = (high_y - low_y) or 1.0
    plot_w, plot_h = min_width_px - 160, height - 40  # room for the y axis and a right margin
    x_px = (tx - np.nanmin(tx)) / span_x * plot_w
    y_px = (high_y - ys) / span_y * plot_h
    offsets = dodge_labels(list(x_px), list(y_px), data[label].astype(str).tolist())
    # A label moved by `offset` pixels sits `offset` pixels lower on screen: lower y in data units.
    data["label_y"] = ys - np.array(offsets) * span_y / plot_h
    scale_x = alt.Scale(type="symlog", constant=0.1) if log_x else alt.Scale(zero=False)
    y_scale = alt.Scale(zero=False, domain=[float(low_y - 0.05 * span_y), float(high_y + 0.05 * span_y)])
    kinds = sorted(data[series].astype(str).unique())
    legend = alt.Legend(orient="bottom", direction="horizontal", labelLimit=label_limit(kinds))
    base = alt.Chart(data)
    points = base.mark_point(size=90, filled=True).encode(
        x=alt.X(f"{x}:Q", title=x_title, scale=scale_x), y=alt.Y(f"{y}:Q", title=y_title, scale=y_scale),
        color=alt.Color(f"{series}:N", title=series_title, sort=kinds, legend=legend),
        shape=alt.Shape(f"{series}:N", title=series_title, sort=kinds, legend=legend),
        tooltip=tips(tooltip or [label, x, y]))
    leaders = base.mark_rule(strokeWidth=0.5, color="gray").encode(
        x=alt.X(f"{x}:Q"), y=alt.Y(f"{y}:Q"), y2=alt.Y2("label_y"))
    texts = base.mark_text(align="left", dx=7, fontSize=10).encode(
        x=alt.X(f"{x}:Q"), y=alt.Y("label_y:Q"), text=alt.Text(f"{label}:N"),
        tooltip=tips(tooltip or [label, x, y]))
    return _fit_width(points + leaders + texts, max(MIN_HEIGHT, height))


def line_chart(frame: pd.DataFrame, x: str, y: str, series: str, *, x_title: str, y_title: str,
               series_title: str, style: str | None = None, style_title: str | None = None,
               x_sort: Sequence[str] | str | None = None, tooltip: Sequence[str | alt.Tooltip] = (),
               height: int = 320) -> alt.LayerChart:
    """Lines of ``y`` over ``x``, one per ``series`` (colour); ``style`` (e.g. our run / published) also
    sets the dash and the point shape, and its legend draws dashed strokes and shapes, not plain dots.

    >>> frame = pd.DataFrame({"language": ["python", "java"] * 2, "value": [40.0, 35.0, 30.0, 28.0],
    ...                       "series": ["paper", "paper", "bm25", "bm25"], "kind": ["published"] * 2 + ["our run"] * 2})
    >>> spec = line_chart(frame, "language", "value", "series", x_title="l", y_title="v", series_title="s",
    ...                   style="kind", style_title="Source").to_dict()
    >>> spec["layer"][0]["encoding"]["strokeDash"]["legend"]["symbolType"], spec["height"]
    ('stroke', 320)
    """
    names = sorted(frame[series].astype(str).unique())
    enc: dict = {
        "x": alt.X(f"{x}:N", title=x_title, sort=_sort(frame[x], x_sort),
                   axis=alt.Axis(labelAngle=0, labelLimit=label_limit(frame[x]), labelOverlap=False)),
        "y": alt.Y(f"{y}:Q", title=y_title, scale=alt.Scale(zero=False)),
        "color": alt.Color(f"{series}:N", title=series_title, sort=names,
                           legend=alt.Legend(orient="bottom", direction="vertical",
                                             labelLimit=label_limit(names, minimum=120))),
        "tooltip": tips(tooltip or [series, x, y]),
    }
    point_enc: dict = {}
    if style:
        styles = sorted(frame[style].astype(str).unique())
        enc["strokeDash"] = alt.StrokeDash(f"{style}:N", title=style_title, sort=styles,
                                           legend=alt.Legend(orient="bottom", symbolType="stroke",
                                                             symbolStrokeWidth=2, symbolSize=400))
        point_enc["shape"] = alt.Shape(f"{style}:N", title=style_title, sort=styles,
                                       legend=alt.Legend(orient="bottom"))
    base = alt.Chart(frame).encode(**enc)
    lines = base.mark_line(strokeWidth=2)
    points = base.mark_point(size=60, filled=True).encode(**point_enc)
    return _fit_width(lines + points, max(MIN_HEIGHT, height))


def dumbbell(frame: pd.DataFrame, y: str, x: str, end: str, *, x_title: str, y_title: str | None,
             end_title: str, end_order: Sequence[str], y_sort: Sequence[str] | None = None,
             value_format: str = ".1f", tooltip: Sequence[str | alt.Tooltip] = ()) -> alt.LayerChart:
    """Two points per ``y`` row (the values of ``x`` at each of ``end_order``, e.g. v1 and v2) joined by a
    line: how far apart the two are, one row per run and task. Ends differ by colour and shape and
    carry their value as text.

    >>> frame = pd.DataFrame({"row": ["T2C · bm25"] * 2, "scheme": ["v1", "v2"], "value": [40.0, 30.0]})
    >>> spec = dumbbell(frame, "row", "value", "scheme", x_title="nDCG@10 ×100", y_title=None,
    ...                 end_title="scheme", end_order=["v1", "v2"]).to_dict()
    >>> spec["height"], [layer["mark"]["type"] for layer in spec["layer"]]
    (160, ['line', 'point', 'text'])
    """
    rows = frame[y].astype(str).nunique()
    sort = _sort(frame[y], y_sort)
    y_enc = alt.Y(f"{y}:N", title=y_title, sort=sort, axis=alt.Axis(labelLimit=label_limit(frame[y]),
                                                                   labelOverlap=False))
    ends = list(end_order)
    legend = alt.Legend(orient="bottom", direction="horizontal")
    base = alt.Chart(frame).encode(y=y_enc, x=alt.X(f"{x}:Q", title=x_title, scale=alt.Scale(zero=False)),
                                   tooltip=tips(tooltip or [y, end, alt.Tooltip(x, format=value_format)]))
    line = base.mark_line(color="gray").encode(detail=alt.Detail(f"{y}:N"))
    dots = base.mark_point(size=90, filled=True).encode(
        color=alt.Color(f"{end}:N", title=end_title, sort=ends, scale=alt.Scale(domain=ends), legend=legend),
        shape=alt.Shape(f"{end}:N", title=end_title, sort=ends, scale=alt.Scale(domain=ends), legend=legend))
    text = base.mark_text(dy=-10, fontSize=10).encode(text=alt.Text(f"{x}:Q", format=value_format))
    return _fit_width(line + dots + text, rows_height(rows, 30))


def interval_lines(frame: pd.DataFrame, x: str, y: str, low: str, high: str, series: str, *, x_title: str,
                   y_title: str, series_title: str, tooltip: Sequence[str | alt.Tooltip] = (),
                   value_format: str = ".0f", height: int = 300,
                   x_domain: tuple[float, float] | None = None) -> alt.LayerChart:
    """Lines of ``y`` over a quantitative ``x``, one per ``series`` (colour and point shape), each point
    with its interval ``low``–``high`` drawn as a translucent error bar; ``x_domain`` fixes the x range.

    >>> frame = pd.DataFrame({"x": [10.0, 30.0] * 2, "p": [20.0, 35.0, 10.0, 15.0], "lo": [5.0, 20.0, 2.0, 5.0],
    ...                       "hi": [45.0, 50.0, 30.0, 35.0], "run": ["bm25"] * 2 + ["minilm"] * 2})
    >>> spec = interval_lines(frame, "x", "p", "lo", "hi", "run", x_title="x", y_title="p", series_title="Run").to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]], spec["height"], spec["layer"][0]["encoding"]["x"]["axis"]
    (['rule', 'line', 'point'], 300, {'format': 'd', 'labelOverlap': True, 'tickMinStep': 1})
    """
    names = sorted(frame[series].astype(str).unique())
    legend = alt.Legend(orient="bottom", direction="vertical", labelLimit=label_limit(names, minimum=120))
    color = alt.Color(f"{series}:N", title=series_title, sort=names, legend=legend)
    tooltip_channels = tips(tooltip or [series, x, alt.Tooltip(y, format=value_format)])
    x_scale = alt.Scale(domain=list(x_domain)) if x_domain else alt.Undefined
    values = pd.to_numeric(frame[x], errors="coerce").dropna()
    whole = len(values) > 0 and bool((values == values.round()).all())
    # whole-number x (bins 1–4): whole ticks only, never 1.5
    x_axis = alt.Axis(labelOverlap=True, tickMinStep=1, format="d") if whole else alt.Axis(labelOverlap=True)
    x_enc = alt.X(f"{x}:Q", title=x_title, axis=x_axis, scale=x_scale)
    y_scale = alt.Scale(domain=[0, 100]) if frame[[low, high]].max().max() <= 100 else alt.Scale(zero=True)
    base = alt.Chart(frame).encode(x=x_enc, color=color, tooltip=tooltip_channels)
    bars = base.mark_rule(strokeWidth=2, opacity=0.6).encode(
        y=alt.Y(f"{low}:Q", title=y_title, scale=y_scale), y2=alt.Y2(high))
    lines = base.mark_line(strokeWidth=2).encode(y=alt.Y(f"{y}:Q", title=y_title, scale=y_scale))
    dots = base.mark_point(size=70, filled=True).encode(
        y=alt.Y(f"{y}:Q", title=y_title, scale=y_scale),
        shape=alt.Shape(f"{series}:N", sort=names, legend=None))  # the colour legend names the series
    return _fit_width(bars + lines + dots, max(MIN_HEIGHT, height))


def quantile_boxes(frame: pd.DataFrame, y: str, *, low: str, q1: str, median: str, q3: str, high: str, x_title: str,
                   y_title: str | None = None, y_sort: Sequence[str] | None = None,
                   tooltip: Sequence[str | alt.Tooltip] = (), value_format: str = ".3~g", log_x: bool = False,
                   log_constant: float = 1.0,
                   title: str | None = None) -> alt.LayerChart:
    """One horizontal box per ``y`` row from quantiles the library computed: a whisker ``low``–``high``,
    a box ``q1``–``q3`` and a tick at the ``median`` (written beside it). Nothing is computed here.

    >>> frame = pd.DataFrame({"run": ["bm25", "minilm"], "q10": [1, 1], "q25": [1, 2], "q50": [2, 4], "q75": [5, 9],
    ...                       "q90": [12, 30]})
    >>> spec = quantile_boxes(frame, "run", low="q10", q1="q25", median="q50", q3="q75", high="q90", x_title="gap").to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]], spec["height"]
    (['rule', 'bar', 'tick', 'text'], 160)
    """
    rows = frame[y].astype(str).nunique()
    y_enc = alt.Y(f"{y}:N", title=y_title, sort=_sort(frame[y], y_sort),
                  axis=alt.Axis(labelLimit=label_limit(frame[y]), labelOverlap=False))
    # symlog: linear below ``log_constant``, logarithmic above, so runs on very different scales both show.
    scale = alt.Scale(type="symlog", constant=log_constant) if log_x else alt.Scale(zero=False)
    tooltip_channels = tips(tooltip or [y] + [alt.Tooltip(c, format=value_format)
                                              for c in (low, q1, median, q3, high)])
    base = alt.Chart(frame).encode(y=y_enc, tooltip=tooltip_channels)
    # A symlog axis gets round ticks (its default ticks crowd at the high end).
    ticks = [m * 10.0 ** e for e in range(-3, 4) for m in (1, 2, 5)]
    axis = (alt.Axis(values=[0] + [t for t in ticks if t >= log_constant], format="~r") if log_x else alt.Axis())
    whisker = base.mark_rule(color="gray").encode(x=alt.X(f"{low}:Q", title=x_title, scale=scale, axis=axis),
                                                  x2=alt.X2(high))
    box = base.mark_bar(size=14, color="#9ecae1").encode(x=alt.X(f"{q1}:Q", scale=scale), x2=alt.X2(q3))
    tick = base.mark_tick(color="black", thickness=2, size=18).encode(x=alt.X(f"{median}:Q", scale=scale))
    text = base.mark_text(align="left", dx=4, dy=-12, fontSize=10).encode(
        x=alt.X(f"{median}:Q", scale=scale), text=alt.Text(f"{median}:Q", format=value_format))
    chart = _fit_width(whisker + box + tick + text, rows_height(rows, 34))
    return chart.properties(title=title) if title else chart


def map_scatter(frame: pd.DataFrame, x: str, y: str, *, color: str, color_title: str, shape: str, shape_title: str,
                marked: str, x_title: str, y_title: str, tooltip: Sequence[str | alt.Tooltip] = (),
                title: str | None = None, height: int = 420, palette: Mapping[str, str] | None = None) -> alt.Chart:
    """Points of a 2-D map (an embedding projection): coloured by ``color``, shaped by ``shape``, and the
    rows where the boolean column ``marked`` is true drawn large (the query). ``palette`` fixes the colour
    of given labels (others grey). Both legends sit below the plot with their full labels; the axes keep
    equal units only in spirit (each fits its data).

    >>> frame = pd.DataFrame({"x": [0.0, 1.0], "y": [0.0, 0.5], "kind": ["query", "trap"], "role": ["query", "trap"],
    ...                       "is_query": [True, False]})
    >>> spec = map_scatter(frame, "x", "y", color="kind", color_title="Kind", shape="role", shape_title="Role",
    ...                    marked="is_query", x_title="PCA 1", y_title="PCA 2").to_dict()
    >>> spec["height"], spec["mark"]["type"], spec["encoding"]["size"]["condition"]["value"]
    (420, 'point', 260)
    """
    colours = sorted(frame[color].astype(str).unique())
    shapes = sorted(frame[shape].astype(str).unique())
    # A fixed colour per label where given (the query and the grades must stand apart), the scheme's otherwise.
    scale = (alt.Scale(domain=colours, range=[palette.get(c, "#7f7f7f") for c in colours]) if palette
             else alt.Undefined)
    legend = lambda labels: alt.Legend(orient="bottom", direction="vertical",  # noqa: E731
                                       labelLimit=label_limit(labels, minimum=120))
    chart = alt.Chart(frame).mark_point(filled=True, opacity=0.85).encode(
        x=alt.X(f"{x}:Q", title=x_title, scale=alt.Scale(zero=False)),
        y=alt.Y(f"{y}:Q", title=y_title, scale=alt.Scale(zero=False)),
        color=alt.Color(f"{color}:N", title=color_title, sort=colours, legend=legend(colours), scale=scale),
        shape=alt.Shape(f"{shape}:N", title=shape_title, sort=shapes, legend=legend(shapes)),
        size=alt.condition(f"datum['{marked}']", alt.value(260), alt.value(70)),
        tooltip=tips(tooltip or [color, shape]))
    chart = _fit_width(chart, max(MIN_HEIGHT, height))
    return chart.properties(title=title) if title else chart


def interval_dots(frame: pd.DataFrame, y: str, mean: str, low: str, high: str, *, x_title: str,
                  y_sort: Sequence[str] | None = None, tooltip: Sequence[str | alt.Tooltip] = (),
                  title: str | None = None, row_px: int = 36, width: int | None = None,
                  with_zero: bool = False) -> alt.LayerChart:
    """One row per ``y``: a rule from ``low`` to ``high`` (a confidence interval) and a dot at ``mean``.
    Rows keep ``y_sort`` (e.g. the ranking) or the frame's order; the x axis does not start at zero, unless
    ``with_zero`` (for differences: then 0 is on the axis and marked by a rule). ``width``: see ``_fit_width``.

    >>> frame = pd.DataFrame({"run": ["minilm", "bm25"], "mean": [41.0, 35.5], "lo": [38.0, 33.0], "hi": [44.0, 38.1]})
    >>> spec = interval_dots(frame, "run", "mean", "lo", "hi", x_title="nDCG@10 ×100").to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]], spec["height"], spec["layer"][0]["encoding"]["y"]["sort"]
    (['rule', 'point'], 160, ['minilm', 'bm25'])
    """
    labels = frame[y].astype(str)
    y_enc = alt.Y(f"{y}:N", title=None, sort=list(y_sort) if y_sort is not None else labels.tolist(),
                  axis=alt.Axis(labelLimit=label_limit(labels), labelOverlap=False))
    base = alt.Chart(frame).encode(y=y_enc, tooltip=tips(tooltip or [y, mean, low, high]))
    rule = base.mark_rule(strokeWidth=3).encode(
        x=alt.X(f"{low}:Q", title=x_title, scale=alt.Scale(zero=with_zero), axis=alt.Axis(tickCount=8)),
        x2=alt.X2(high))
    dot = base.mark_point(size=80, filled=True).encode(x=alt.X(f"{mean}:Q"))
    if with_zero:  # the line a difference is read against
        rule = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color="#888", strokeDash=[4, 3]).encode(
            x=alt.X("zero:Q")) + rule
    chart = _fit_width(rule + dot, _rows_px(frame[y].nunique(), row_px, width), width)
    return chart.properties(title=title) if title else chart


def outcome_histogram(frame: pd.DataFrame, value: str, outcome: str, *, x_title: str, outcome_title: str,
                      outcomes: Mapping[str, str], height: int = 220) -> alt.Chart:
    """A histogram of ``value`` (up to 40 bins), bars stacked by ``outcome`` in fixed colours (``outcomes``:
    outcome -> colour, in legend order), e.g. the per-query Δ of two runs as wins, ties and losses.

    >>> frame = pd.DataFrame({"delta": [0.1, 0.0, -0.2], "outcome": ["win", "tie", "loss"]})
    >>> spec = outcome_histogram(frame, "delta", "outcome", x_title="Δ", outcome_title="a",
    ...                          outcomes={"win": "#2e7d32", "tie": "#9e9e9e", "loss": "#c62828"}).to_dict()
    >>> spec["encoding"]["x"]["bin"], spec["encoding"]["color"]["scale"]["domain"], spec["height"]
    ({'maxbins': 40}, ['win', 'tie', 'loss'], 220)
    """
    chart = alt.Chart(frame).mark_bar().encode(
        x=alt.X(f"{value}:Q", bin=alt.Bin(maxbins=40), title=x_title),
        y=alt.Y("count():Q", title="queries"),
        color=alt.Color(f"{outcome}:N", title=outcome_title,
                        scale=alt.Scale(domain=list(outcomes), range=list(outcomes.values()))),
        tooltip=tips([f"{outcome}:N", "count():Q"]))
    return _fit_width(chart, max(MIN_HEIGHT, height))


def waterfall_bars(frame: pd.DataFrame, step: str, start: str, end: str, *, x_title: str, label: str,
                   title: str | None = None, width: int | None = None) -> alt.LayerChart:
    """A horizontal waterfall: one row per ``step`` (in the frame's order), a bar from ``start`` to ``end``
    coloured by the sign of the change (the first row, the start, in grey), its ``label`` written beside it.

    >>> frame = pd.DataFrame({"step": ["mteb", "graded"], "start": [0, 47.3], "end": [47.3, 39.8],
    ...                       "label": ["47.3", "−7.5"]})
    >>> spec = waterfall_bars(frame, "step", "start", "end", x_title="nDCG@10 ×100", label="label").to_dict()
    >>> spec["height"], spec["layer"][0]["encoding"]["x2"]["field"]
    (160, 'end')
    """
    kinds = ["start" if n == 0 else "up" if e >= s else "down"
             for n, (s, e) in enumerate(zip(frame[start], frame[end]))]
    data = frame.assign(_kind=kinds, _right=frame[[start, end]].max(axis=1))
    order = list(frame[step].astype(str))
    y = alt.Y(f"{step}:N", title=None, sort=order, axis=alt.Axis(labelLimit=label_limit(order), labelOverlap=False))
    bars = alt.Chart(data).mark_bar().encode(
        y=y, x=alt.X(f"{start}:Q", title=x_title), x2=alt.X2(f"{end}:Q"),
        color=alt.Color("_kind:N", title=None, legend=None,
                        scale=alt.Scale(domain=["start", "up", "down"], range=["#8c8c8c", "#2ca02c", "#d62728"])),
        tooltip=tips([step, alt.Tooltip(end, format=".1f"), label]))
    text = alt.Chart(data).mark_text(align="left", dx=4, fontSize=11, color="black").encode(
        y=y, x=alt.X("_right:Q"), text=f"{label}:N")
    chart = _fit_width(bars + text, _rows_px(len(order), BAR_PX + 6, width), width)
    return chart.properties(title=title) if title else chart


def size_lines(frame: pd.DataFrame, x: str, y: str, series: str, *, x_title: str, y_title: str, series_title: str,
               percent: bool = False, tooltip: Sequence[str | alt.Tooltip] = (), height: int = 280) -> alt.LayerChart:
    """Lines of ``y`` over a size ``x`` on a log-2 axis (bytes per vector: 4 to 4,096), one per ``series`` (colour and
    point shape); ``percent`` formats the y axis as percentages of fractions.

    >>> frame = pd.DataFrame({"bytes": [1536, 384, 48], "ndcg": [0.4, 0.39, 0.3], "precision": ["float32", "int8",
    ...                       "binary"]})
    >>> spec = size_lines(frame, "bytes", "ndcg", "precision", x_title="b", y_title="n", series_title="p").to_dict()
    >>> spec["layer"][0]["encoding"]["x"]["scale"], spec["height"]
    ({'base': 2, 'type': 'log'}, 280)
    """
    names = list(dict.fromkeys(frame[series].astype(str)))
    legend = alt.Legend(orient="bottom", direction="horizontal", labelLimit=label_limit(names))
    enc: dict = {
        "x": alt.X(f"{x}:Q", title=x_title, scale=alt.Scale(type="log", base=2)),
        "y": alt.Y(f"{y}:Q", title=y_title, scale=alt.Scale(zero=False),
                   axis=alt.Axis(format="%") if percent else alt.Axis()),
        "color": alt.Color(f"{series}:N", title=series_title, sort=names, legend=legend),
        "tooltip": tips(tooltip or [series, x, y]),
    }
    base = alt.Chart(frame).encode(**enc)
    points = base.mark_point(size=60, filled=True).encode(
        shape=alt.Shape(f"{series}:N", title=series_title, sort=names, legend=legend))
    return _fit_width(base.mark_line(strokeWidth=2) + points, max(MIN_HEIGHT, height))
