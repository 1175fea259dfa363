"""The Model selection page's speed and memory limits and its accuracy / cost chart (issue 36, item 3; the
library: tests/analysis/test_selection_cost.py)."""
import json

import pytest

from coreb_core.runs.folders import run_meta
from tests.builders import app_test, one_table


def _scatter(at) -> dict:
    charts = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    found = [c for c in charts if "layer" in c and any("texts per second" in json.dumps(layer) for layer in c["layer"])]
    assert len(found) == 1, f"{len(found)} accuracy / cost charts"
    return found[0]


def test_cost_chart_and_columns_without_limits(unmeasured_cost_cache):
    root, runs = unmeasured_cost_cache
    at = app_test("selection.py", root, {"release": "demo_v2603", "runs": list(runs.values()), "sel_tasks": "t2c"}).run()
    assert not at.exception and not at.error
    ranked = one_table(at, "ci_low", "texts_per_s")
    bm25 = run_meta(runs["bm25"], root).cost
    row = ranked.set_index("run").loc[runs["bm25"]]
    assert row["texts_per_s"] == pytest.approx(bm25.texts_per_s) and row["peak_memory_gb"] == bm25.peak_rss_gb
    assert ranked.set_index("run").loc[runs["bm25s-mteb"]][["texts_per_s", "peak_memory_gb"]].isna().all()
    spec = _scatter(at)
    points = next(iter(spec["datasets"].values())) if "datasets" in spec else None
    assert points is None or len(points) == 1  # one run measured its speed
    layer = spec["layer"][0]
    assert layer["encoding"]["x"]["scale"]["type"] == "symlog" and "nDCG@10" in layer["encoding"]["y"]["title"]
    assert any("Not drawn, speed not measured: bm25s-mteb · demo\\_v2603." in c.value for c in at.caption)
    assert any(t.value.endswith(" Its cost was not measured.") or " Its cost: " in t.value for t in at.text)
    assert at.toggle(key="sel_ms_on").value is False and at.toggle(key="sel_gb_on").value is False


def test_speed_and_memory_limits_from_the_url(unmeasured_cost_cache):
    root, runs = unmeasured_cost_cache
    bm25 = run_meta(runs["bm25"], root).cost
    at = app_test("selection.py", root, {"release": "demo_v2603", "runs": list(runs.values()), "sel_tasks": "t2c",
                                         "max_ms": "1000", "max_gb": "64"}).run()
    assert not at.exception and not at.error
    assert at.toggle(key="sel_ms_on").value is True and at.number_input(key="sel_ms").value == 1000
    assert at.toggle(key="sel_gb_on").value is True and at.number_input(key="sel_gb").value == 64
    ranked = one_table(at, "ci_low", "texts_per_s")
    assert ranked["run"].tolist() == [runs["bm25"]]
    excluded = one_table(at, "reason")
    assert excluded["reason"].tolist() == ["speed not measured"]
    verdict = next(m.value for m in at.markdown if m.value.startswith("Choose"))
    assert "at most 1000 ms per text and at most 64 GB peak memory" in verdict
    evidence = at.text[0].value
    assert evidence.endswith(f"texts/s ({bm25.ms_per_text:.3g} ms/text) on cpu; peak memory {bm25.peak_rss_gb:.2f} GB "
                             "(process RSS).")
    # a limit the run's measurement exceeds: said with both figures
    at = app_test("selection.py", root, {"release": "demo_v2603", "runs": [runs["bm25"]], "sel_tasks": "t2c",
                                         "max_gb": "0.001"}).run()
    assert not at.exception
    assert one_table(at, "reason")["reason"].tolist() == [f"{bm25.peak_rss_gb:.3g} GB peak memory exceeds the "
                                                          "0.001 GB limit"]
