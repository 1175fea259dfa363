"""ui/chart_specs.py: a chart's spec is altair's own, made once per distinct input and never served for
another input."""
import doctest
import json

import altair as alt
import pandas as pd

import ui.chart_specs
from coreb_core.present.charts import hbar, heatmap
from ui.chart_specs import _SPECS, MAX_SPECS, chart_spec, input_key


def _frame(value: float = 0.41) -> pd.DataFrame:
    return pd.DataFrame({"task": ["t2c", "c2t"], "ndcg": [value, 0.35]})


def test_docstring_examples_run():
    result = doctest.testmod(ui.chart_specs, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_the_spec_is_altairs_own_with_the_data_inline():
    built = hbar(_frame(), "task", "ndcg", x_title="nDCG@10").to_dict()
    spec = chart_spec(hbar, _frame(), "task", "ndcg", x_title="nDCG@10")
    assert {k: v for k, v in spec.items() if k not in ("datasets", "config")} == \
        {k: v for k, v in built.items() if k not in ("datasets", "config")}
    (rows,) = spec["datasets"].values()
    assert rows == [{"task": "t2c", "ndcg": 0.41}, {"task": "c2t", "ndcg": 0.35}]
    assert "config" not in spec  # altair's default theme (a 300 px view) is off, as in st.altair_chart
    assert alt.theme.active == "default"  # and back on for everyone else


def test_every_input_is_part_of_the_key():
    base = input_key(hbar, (_frame(), "task", "ndcg"), {"x_title": "nDCG@10"})
    assert base == input_key(hbar, (_frame().copy(), "task", "ndcg"), {"x_title": "nDCG@10"})
    others = [
        input_key(heatmap, (_frame(), "task", "ndcg"), {"x_title": "nDCG@10"}),  # another builder
        input_key(hbar, (_frame(0.42), "task", "ndcg"), {"x_title": "nDCG@10"}),  # one value
        input_key(hbar, (_frame().iloc[::-1], "task", "ndcg"), {"x_title": "nDCG@10"}),  # row order
        input_key(hbar, (_frame().rename(columns={"ndcg": "ndcg2"}), "task", "ndcg"), {"x_title": "nDCG@10"}),
        input_key(hbar, (_frame().astype({"ndcg": "float32"}), "task", "ndcg"), {"x_title": "nDCG@10"}),
        input_key(hbar, (_frame(), "task", "ndcg"), {"x_title": "nDCG@100"}),  # a keyword value
        input_key(hbar, (_frame(), "task", "ndcg"), {"x_title": "nDCG@10", "title": "t"}),  # one more keyword
        input_key(hbar, (_frame(), "task", "ndcg"), {"x_title": "nDCG@10",
                                                      "tooltip": [alt.Tooltip("ndcg", format=".1f")]}),
        input_key(hbar, (_frame(), "task", "ndcg"), {"x_title": "nDCG@10",
                                                      "tooltip": [alt.Tooltip("ndcg", format=".2f")]}),
    ]
    assert len({base, *others}) == len(others) + 1


def test_a_changed_frame_gets_its_own_spec_and_the_store_stays_bounded(monkeypatch):
    first = chart_spec(hbar, _frame(0.41), "task", "ndcg", x_title="x")
    second = chart_spec(hbar, _frame(0.47), "task", "ndcg", x_title="x")
    assert next(iter(first["datasets"].values()))[0]["ndcg"] == 0.41
    assert next(iter(second["datasets"].values()))[0]["ndcg"] == 0.47
    second["height"] = 1  # a caller (Streamlit moves datasets out) cannot change what is stored
    assert chart_spec(hbar, _frame(0.47), "task", "ndcg", x_title="x")["height"] == 160
    assert MAX_SPECS >= 256
    monkeypatch.setattr(ui.chart_specs, "MAX_SPECS", 4)  # the bound, checked small
    for i in range(7):
        chart_spec(hbar, _frame(float(i)), "task", "ndcg", x_title="bounded")
    assert len(_SPECS) == 4
    assert input_key(hbar, (_frame(6.0), "task", "ndcg"), {"x_title": "bounded"}) in _SPECS  # the newest kept
    assert input_key(hbar, (_frame(0.0), "task", "ndcg"), {"x_title": "bounded"}) not in _SPECS


def test_frames_with_list_cells_still_key_by_value():
    one = pd.DataFrame({"task": ["t2c"], "ids": [["a", "b"]]})
    two = pd.DataFrame({"task": ["t2c"], "ids": [["a", "c"]]})
    assert input_key(hbar, (one,), {}) != input_key(hbar, (two,), {})
    assert input_key(hbar, (one,), {}) == input_key(hbar, (one.copy(),), {})


def test_draw_hands_streamlit_the_arrow_bytes_it_would_make_of_the_rows():
    from streamlit import dataframe_util
    from streamlit.testing.v1 import AppTest

    def page():
        import pandas as pd

        from coreb_core.present.charts import hbar
        from ui.chart_specs import draw

        draw(hbar, pd.DataFrame({"task": ["t2c", "c2t"], "ndcg": [0.41, 0.35]}), "task", "ndcg", x_title="x")

    at = AppTest.from_function(page, default_timeout=60).run()
    (chart,) = at.get("vega_lite_chart")
    (dataset,) = chart.proto.datasets
    rows = [{"task": "t2c", "ndcg": 0.41}, {"task": "c2t", "ndcg": 0.35}]
    assert dataset.data.data == dataframe_util.convert_anything_to_arrow_bytes(rows)
    assert dataframe_util.convert_arrow_bytes_to_pandas_df(dataset.data.data).to_dict("records") == rows
    assert json.loads(chart.proto.spec)["data"] == {"name": dataset.name}  # the spec names the dataset sent


def test_a_frame_back_from_streamlits_cache_keys_as_the_frame_itself():
    """st.cache_data hands each session an unpickled copy: it must find the spec the first session built."""
    import pickle

    frame = pd.DataFrame({"task": pd.array(["t2c", "c2t"], dtype="string"), "ndcg": [0.41, 0.35]})
    assert input_key(hbar, (pickle.loads(pickle.dumps(frame)),), {}) == input_key(hbar, (frame,), {})
