"""The Model selection page's speed and memory limits and its accuracy / cost chart (issue 36, item 3; the
library: tests/analysis/test_selection_cost.py)."""
import json

import pytest

from coreb_core.runs.cost import cost_words
from coreb_core.runs.folders import run_meta
from tests.builders import app_test, one_table


def test_cost_chart_and_columns_without_limits(unmeasured_cost_cache):
    root, runs = unmeasured_cost_cache
    at = app_test("selection.py", root, {"release": "demo_v2603", "runs": list(runs.values()), "sel_tasks": "t2c"}).run()
    assert not at.exception and not at.error
    ranked = one_table(at, "texts_per_s")  # the cost section's table (issue 48: off the ranking, which fits 1600 px)
    bm25 = run_meta(runs["bm25"], root).cost
    row = ranked.set_index("run").loc[runs["bm25"]]
    # a lexical run: per query (index and search), off the encoding axis and the chart (issue 48)
    assert row["ms_per_query"] == pytest.approx(bm25.speed_ms) and row["peak_memory_gb"] == bm25.peak_rss_gb
    assert str(row["texts_per_s"]) in ("nan", "None", "<NA>") and row["busy"] == bm25.busy
    assert row["speed_basis"] == bm25.speed_basis == "cpu"  # the "timed by" column
    assert ranked.set_index("run").loc[runs["bm25s-mteb"]][["ms_per_query", "peak_memory_gb"]].isna().all()
    charts = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    assert not [c for c in charts if "texts encoded per CPU-second" in json.dumps(c)]  # no encoder: no chart
    assert any("Not drawn (no encoding speed): bm25 · demo\\_v2603, bm25s-mteb · demo\\_v2603." in c.value
               and "Lexical runs, per query: bm25 · demo\\_v2603: " in c.value and "CPU-ms per query" in c.value
               for c in at.caption)
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
    ranked = one_table(at, "texts_per_s")  # the cost section's table (issue 48: off the ranking, which fits 1600 px)
    assert ranked["run"].tolist() == [runs["bm25"]]
    excluded = one_table(at, "reason")
    assert excluded["reason"].tolist() == ["speed not measured"]
    verdict = next(m.value for m in at.markdown if m.value.startswith("Choose"))
    assert "at most 1000 ms per text and at most 64 GB peak memory" in verdict
    evidence = at.text[0].value
    assert evidence.endswith(f" Its cost: {cost_words(bm25)}.") and "CPU-ms per query" in evidence
    # a limit the run's measurement exceeds: said with both figures
    at = app_test("selection.py", root, {"release": "demo_v2603", "runs": [runs["bm25"]], "sel_tasks": "t2c",
                                         "max_gb": "0.001"}).run()
    assert not at.exception
    assert one_table(at, "reason")["reason"].tolist() == [f"{bm25.peak_rss_gb:.3g} GB peak memory exceeds the "
                                                          "0.001 GB limit"]
