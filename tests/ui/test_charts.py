"""ui/charts.py: the spec values that keep charts readable (sizes, written values, label limits, sorting)."""
import doctest

import pandas as pd

import coreb_core.present.charts
from coreb_core.present.charts import (
    CELL_PX,
    MIN_HEIGHT,
    dodge_labels,
    dumbbell,
    hbar,
    heatmap,
    label_limit,
    labelled_scatter,
    line_chart,
    rows_height,
)

LONG = "t2c_canonical_retrieval_python"


def _heatmap_frame(rows: int) -> pd.DataFrame:
    cells = [f"{LONG}_{i:02d}" for i in range(rows)]
    return pd.DataFrame({"run": ["bm25 · default · demo_v2603"] * rows + ["minilm · default · demo_v2603"] * rows,
                         "cell": cells * 2, "value": [float(i) for i in range(2 * rows)]})


def test_docstring_examples_run():
    result = doctest.testmod(coreb_core.present.charts, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_heatmap_height_follows_rows_and_never_under_160():
    assert heatmap(_heatmap_frame(3), "run", "cell", "value", x_title="Run", y_title="Cell",
                   legend_title="v").to_dict()["height"] == MIN_HEIGHT == 160
    spec = heatmap(_heatmap_frame(30), "run", "cell", "value", x_title="Run", y_title="Cell",
                   legend_title="v").to_dict()
    assert spec["height"] == 30 * CELL_PX == max(160, 30 * CELL_PX) and CELL_PX >= 16
    assert rows_height(30, per_row=16) == 480 and rows_height(1) == 160


def test_heatmap_writes_values_and_shows_full_sorted_labels():
    frame = _heatmap_frame(4).sample(frac=1, random_state=0)
    spec = heatmap(frame, "run", "cell", "value", x_title="Run", y_title="Cell", legend_title="v",
                   value_format=".0%", y_sort=[f"{LONG}_03"]).to_dict()
    rect, text = spec["layer"]
    assert rect["mark"]["type"] == "rect" and text["mark"]["type"] == "text"
    assert text["encoding"]["text"] == {"field": "value", "type": "quantitative", "format": ".0%"}
    y = rect["encoding"]["y"]
    assert y["axis"]["labelLimit"] >= len(f"{LONG}_03") * 6 and y["axis"]["labelOverlap"] is False
    # the given order first, then ascending: a sorted axis whatever the frame's order
    assert y["sort"] == [f"{LONG}_03", f"{LONG}_00", f"{LONG}_01", f"{LONG}_02"]
    x = rect["encoding"]["x"]
    assert x["sort"] == ["bm25 · default · demo_v2603", "minilm · default · demo_v2603"]
    # two run columns: horizontal labels wrapped at " · ", each line wide enough
    assert x["axis"]["labelAngle"] == 0 and "split(datum.label" in x["axis"]["labelExpr"]
    assert x["axis"]["labelLimit"] >= len("demo_v2603") * 6
    assert x["axis"]["orient"] == "top"  # above the cells: 18 rows put labels under them off the first screen
    assert spec["width"] == "container"


def test_heatmap_angles_many_long_column_labels():
    frame = pd.DataFrame({"x": [f"language_{i}_long_name" for i in range(12)], "y": ["a"] * 12,
                          "value": range(12)})
    x = heatmap(frame, "x", "y", "value", x_title="X", y_title="Y", legend_title="v").to_dict()["layer"][0]
    axis = x["encoding"]["x"]["axis"]
    assert axis["labelAngle"] == -40 and axis["labelLimit"] >= label_limit(["language_10_long_name"])
    assert axis["orient"] == "top"


def test_hbar_full_labels_values_and_one_row_per_bar():
    frame = pd.DataFrame({"subtask": [f"{LONG}_{i}" for i in range(3)] * 2, "run": ["a"] * 3 + ["b"] * 3,
                          "drop": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]})
    spec = hbar(frame, "subtask", "drop", x_title="drop", color="run", bar_px=16).to_dict()
    bars, text = spec["layer"]
    assert spec["height"] == max(160, 3 * 2 * 16)
    assert bars["encoding"]["y"]["axis"]["labelLimit"] >= len(f"{LONG}_0") * 6
    assert bars["encoding"]["yOffset"]["field"] == "run"
    assert text["encoding"]["text"]["field"] == "drop"
    stacked = hbar(frame, "subtask", "drop", x_title="drop", color="run", stack=True).to_dict()
    assert "yOffset" not in stacked["encoding"] and stacked["height"] == 160


def test_dodge_labels_never_overlap():
    xs, ys = [100.0] * 5, [50.0, 51.0, 52.0, 50.5, 200.0]
    texts = ["C2LLM-7B", "Qwen3-Embedding-8B", "bm25", "minilm", "far"]
    offsets = dodge_labels(xs, ys, texts)
    centres = sorted(y + o for y, o in zip(ys[:4], offsets[:4]))
    assert all(b - a >= 12 for a, b in zip(centres, centres[1:]))
    assert offsets[4] == 0.0


def test_labelled_scatter_moves_crowded_labels():
    frame = pd.DataFrame({"model": ["a-model", "b-model", "c"], "params_b": [0.1, 0.1, 7.0],
                          "overall": [40.0, 40.1, 60.0], "kind": ["published", "our run", "published"]})
    chart = labelled_scatter(frame, "params_b", "overall", "model", x_title="p", y_title="o", series="kind",
                             series_title="Source", log_x=True)
    spec = chart.to_dict()
    points = spec["layer"][0]["encoding"]
    assert points["color"]["field"] == points["shape"]["field"] == "kind"
    data = chart.data
    gap = abs((data["label_y"].iloc[0] - data["label_y"].iloc[1]) / (60.0 - 40.0) * (380 - 40))
    assert gap >= 12  # the two close points' labels sit at least a line (12 px) apart on a 380 px chart
    assert spec["layer"][2]["encoding"]["y"]["field"] == "label_y"


def test_line_chart_legend_tells_styles_apart():
    frame = pd.DataFrame({"language": ["python", "java"] * 2, "value": [40.0, 35.0, 30.0, 28.0],
                          "series": ["paper", "paper", "bm25", "bm25"],
                          "kind": ["published", "published", "our run", "our run"]})
    spec = line_chart(frame, "language", "value", "series", x_title="l", y_title="v", series_title="s",
                      style="kind", style_title="Source", x_sort=["python", "java"]).to_dict()
    lines, points = spec["layer"]
    assert lines["encoding"]["strokeDash"]["legend"]["symbolType"] == "stroke"
    assert points["encoding"]["shape"]["field"] == "kind"
    assert lines["encoding"]["x"]["sort"] == ["python", "java"]
    assert spec["height"] >= 160


def test_dumbbell_rows_and_ends():
    frame = pd.DataFrame({"row": ["T2C · bm25"] * 2 + ["C2T · bm25"] * 2, "scheme": ["v1", "v2"] * 2,
                          "value": [40.0, 30.0, 50.0, 45.0]})
    spec = dumbbell(frame, "row", "value", "scheme", x_title="x", y_title=None, end_title="scheme",
                    end_order=["v1", "v2"], y_sort=["T2C · bm25", "C2T · bm25"]).to_dict()
    line, dots, text = spec["layer"]
    assert line["encoding"]["y"]["sort"] == ["T2C · bm25", "C2T · bm25"]
    assert dots["encoding"]["shape"]["scale"]["domain"] == ["v1", "v2"]
    assert text["encoding"]["text"]["field"] == "value"
    assert spec["height"] == 160
