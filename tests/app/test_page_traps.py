"""The Trap analysis page against trap_table (the library on hand-made runs: tests/analysis/test_traps.py). Fast:
BM25 and a dense run encoded by the ``Trigrams`` stand-in (``fake_dense``), not the MiniLM first launch."""
import json

import numpy as np
import pytest

from tests.builders import app_test


@pytest.fixture(scope="module")
def root(fake_dense):
    return fake_dense[0]


def test_page_share_matches_trap_table(root, fake_dense_runs):
    from coreb_core.data.store import Store, with_query_facts
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.folders import read_hits

    runs = fake_dense_runs
    at = app_test("traps.py", root, {"task": "t2c", "runs": [runs["bm25"], runs["minilm"]]}).run()
    assert not at.exception
    at.radio(key="trap_level").set_value("subtask").run()
    assert not at.exception
    shown = at.dataframe[0].value
    # the heatmap: one 22 px row per subtask with every row label in full and the share written in each cell
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    rect, text = spec["layer"]
    assert spec["height"] == max(160, 22 * 18)
    assert text["mark"]["type"] == "text" and text["encoding"]["text"]["field"] == "share_trap_above_positive"
    assert rect["encoding"]["y"]["axis"]["labelOverlap"] is False
    assert rect["encoding"]["y"]["axis"]["labelLimit"] >= 7 * shown["group"].str.len().max()
    # run names, not ids, head the table
    assert list(at.dataframe[0].proto.column_order)[:3] == ["run_label", "group", "share_trap_above_positive"]
    with Store("demo_v2603", root) as store:
        for model in ("bm25", "minilm"):
            traps = trap_table(store, read_hits(runs[model], root))
            traps = with_query_facts(store, traps[traps["task"] == "t2c"])
            expected = traps.groupby("subtask")["trap_above_positive"].mean()
            mine = shown[shown["run"] == runs[model]].set_index("subtask")["share_trap_above_positive"]
            assert len(mine) == 18
            # shown x100, one decimal (issue 24: one number format on every page)
            np.testing.assert_array_equal(mine.sort_index().to_numpy(), expected.sort_index().map(lambda v: round(v * 100, 1)).to_numpy())
            at1 = traps.groupby("subtask")["trap_at_1"].mean()
            np.testing.assert_allclose(shown[shown["run"] == runs[model]].set_index("subtask")["share_trap_at_1"]
                                       .sort_index().to_numpy(), at1.sort_index().map(lambda v: round(v * 100, 1)).to_numpy(), atol=0)
    # Task level: one row per run, the README's "T2C queries with a trap above the first positive".
    at.radio(key="trap_level").set_value("task").run()
    per_task = at.dataframe[0].value.set_index("run")
    with Store("demo_v2603", root) as store:
        bm25 = trap_table(store, read_hits(runs["bm25"], root))
    bm25 = bm25[bm25["task"] == "t2c"]
    assert per_task.loc[runs["bm25"], "share_trap_above_positive"] == round(bm25["trap_above_positive"].mean() * 100, 1)
    assert per_task.loc[runs["bm25"], "queries"] == 720  # every T2C query of demo_v2603
    # Worst queries: ordered by traps above the first positive.
    worst = at.dataframe[1].value
    assert int(worst["traps_above_first_positive"].iloc[0]) >= int(bm25["traps_above_first_positive"].max())
    assert worst["traps_above_first_positive"].is_monotonic_decreasing
    assert len(worst) == 25
    assert list(at.dataframe[1].proto.column_order)[:3] == ["run_label", "query_id", "traps_above_first_positive"]
    # The trap measure, then the trap-wins sections: kinds, near-miss curve, two margin boxes, rank-gap heatmap,
    # the agreement counts and the two length charts (issue 26; demo_v2602 has no run, so no stability chart),
    # then surface bias and the embedding map (tests/app/test_page_traps_surface.py checks those two), then MiniLM's
    # compressed embeddings: nDCG@10 and the share lost to a trap against bytes per vector (issue 36).
    assert len(at.get("vega_lite_chart")) == 13
    # the traps beating every run (issue 26), the hubs and the compressed embeddings (36)
    assert len([b for b in at.get("download_button")]) == 8


def test_page_c2c_and_anchor(root, fake_dense_runs):
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.folders import read_hits

    runs = fake_dense_runs
    at = app_test("traps.py", root, {"task": "c2c", "anchor": "0", "runs": [runs["minilm"]]}).run()
    assert not at.exception
    at.radio(key="trap_level").set_value("task").run()
    row = at.dataframe[0].value.iloc[0]
    with Store("demo_v2603", root) as store:
        traps = trap_table(store, read_hits(runs["minilm"], root), anchor_exclusion=False)
    traps = traps[traps["task"] == "c2c"]
    assert row["queries"] == 144  # every C2C query of demo_v2603
    assert row["traps_in_top_10_per_query"] == pytest.approx(traps["traps_in_top_10"].mean())
    assert "C2C anchor kept" in " ".join(c.value for c in at.caption)
