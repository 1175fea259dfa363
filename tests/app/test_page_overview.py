"""The Overview page: the library's fractions, printed x100 (coreb_core.present.display) as coreb_core.evaluation.evaluate
gives them (the leaderboard library: tests/analysis/test_leaderboard.py). Fast: BM25 and a dense run encoded by the
``Trigrams`` stand-in (``fake_dense``), not the MiniLM first launch."""
import json

import numpy as np
import pandas as pd
import pytest

from tests.builders import app_test

BM25 = "bm25"


@pytest.fixture(scope="module")
def runs(fake_dense) -> tuple:
    """(cache root, model -> RunMeta) of the BM25 run and the stand-in dense run ``minilm``."""
    from coreb_core.runs.folders import run_meta

    root, dense, bm25 = fake_dense
    return root, {BM25: run_meta(bm25, root), "minilm": run_meta(dense, root)}


def _board(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "overall_query_weighted" in d.value.columns)


def _chart_rows(chart) -> list[dict]:
    """The rows of a chart's first dataset (Streamlit sends the frames apart from the spec)."""
    from streamlit import dataframe_util

    return dataframe_util.convert_arrow_bytes_to_pandas_df(chart.proto.datasets[0].data.data).to_dict("records")


def test_overview_shows_bm25_t2c_as_evaluate_and_both_published_c2t(runs):
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate, summary
    from coreb_core.runs.folders import read_hits

    app_cache, runs = runs
    bm25 = runs[BM25].run_id
    with Store("demo_v2603", app_cache) as s:
        ours = summary(evaluate(s, read_hits(bm25, app_cache)))["tasks"]
    at = app_test("overview.py", app_cache, {"release": "demo_v2603", "runs": [m.run_id for m in runs.values()]})
    at.run()
    assert not at.exception and not at.error
    board = _board(at)
    row = board[board["run"] == bm25].iloc[0]
    assert row["t2c"] == round(ours["t2c"]["ndcg_at_10"] * 100, 1) == 30.0  # bench/mini_difficulty.py: 0.2998
    assert row["c2c"] == round(ours["c2c"]["ndcg_at_10"] * 100, 1)
    assert row["overall_task_mean"] == round(np.mean([ours[t]["ndcg_at_10"] for t in ("t2c", "c2c", "c2t")]) * 100, 1)
    weighted = sum(ours[t]["ndcg_at_10"] * ours[t]["queries"] for t in ours) / sum(ours[t]["queries"] for t in ours)
    assert row["overall_query_weighted"] == round(weighted * 100, 1) != row["overall_task_mean"]
    assert row["scheme"].startswith("v2")
    c2llm = board[(board["model"] == "C2LLM-7B") & (board["kind"] == "published")]
    by_source = dict(zip(c2llm["source"], c2llm["c2t"]))
    assert by_source["paper Table 3 (release v202603)"] == 79.5
    assert by_source["README (release v202603)"] == 76.6
    assert by_source["project page b312b5b (release v202603)"] == 76.6
    assert board["source"].notna().all() and board["scheme"].notna().all()
    # every table has a CSV download, every chart is altair
    names = {b.proto.label for b in at.get("download_button")}
    assert names == {"Download CSV"} and len(at.get("download_button")) == 8
    # the rank intervals first (issue 36, item 2), then the heatmaps; the protocol waterfall (item 7) near the end
    assert len(at.get("vega_lite_chart")) == 7
    # readable charts: never under 160 px; the heatmaps write their values and size their rows
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    assert all(spec["height"] >= 160 for spec in specs)
    by_subtask = specs[1]
    rows = len({row["cell"] for row in _chart_rows(at.get("vega_lite_chart")[1])})
    assert by_subtask["height"] == max(160, 22 * rows) and rows >= 10
    assert by_subtask["layer"][1]["mark"]["type"] == "text"
    assert by_subtask["layer"][1]["encoding"]["text"]["field"] == "value"
    # the table names runs (ids only in the CSV) and puts the deciding overall column next
    table = next(d for d in at.dataframe if "overall_query_weighted" in d.value.columns)
    assert list(table.proto.column_order)[:2] == ["name", "overall_query_weighted"]
    assert "run" not in table.proto.column_order


def test_overview_scheme_v1_changes_our_rows(runs):
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate, summary
    from coreb_core.evaluation.schemes import V1
    from coreb_core.runs.folders import read_hits

    app_cache, default_runs = runs
    bm25 = default_runs[BM25].run_id
    with Store("demo_v2603", app_cache) as s:
        v1 = summary(evaluate(s, read_hits(bm25, app_cache), V1))["tasks"]["t2c"]["ndcg_at_10"]
    at = app_test("overview.py", app_cache, {"release": "demo_v2603", "runs": [bm25], "scheme": "v1"}).run()
    assert not at.exception
    row = _board(at).query("kind == 'our run'").iloc[0]
    assert row["t2c"] == round(v1 * 100, 1) and row["scheme"].startswith("v1")


def test_overview_shows_an_import_at_once_though_its_tables_are_cached(runs, tmp_path):
    """The Overview's tables are cached per server (ui.cache.cached over coreb_core.views.overview, keyed on the results' version); an import replaces
    results.parquet, which is part of the key, so the next visit lists the imported model."""
    import shutil

    from coreb_core.results.imported import example_mteb_tree, import_results

    app_cache, default_runs = runs
    cache = tmp_path / "cache"  # a copy: the import must not touch the session's cache
    shutil.copytree(app_cache, cache, symlinks=True, ignore=shutil.ignore_patterns("embeddings"))
    params = {"release": "demo_v2603", "runs": [default_runs[BM25].run_id]}
    before = app_test("overview.py", cache, params).run()
    assert not before.exception and not _board(before)["model"].str.startswith("org/model").any()
    import_results(example_mteb_tree(tmp_path), root=cache)
    after = app_test("overview.py", cache, params).run()
    assert not after.exception and not _board(after)["model"].str.startswith("org/model").any()  # not a v2 row
    mteb = next(d.value for d in after.dataframe if "published_name" in d.value.columns)  # MTEB's own block
    assert mteb[["model", "revision", "t2c"]].values.tolist() == [["org/model", "abc123", 41.0]]
