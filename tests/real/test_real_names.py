"""A real release cached under its hub split name is the published version wherever figures stand side by
side: the leaderboard's release cell, the default published tables, and the captions' words."""
from __future__ import annotations

from coreb_core.analysis.leaderboard import leaderboard, published_sources_for
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.schemes import V2
from coreb_core.results.imported import all_rows
from coreb_core.results.published import release_relation
from coreb_core.runs.folders import list_runs, read_hits


def test_our_bm25_row_on_release_v2603_carries_the_published_version(real_cache):
    [meta] = [m for m in list_runs("release_v2603", real_cache) if m.model == "bm25"]
    with Store("release_v2603", real_cache) as store:
        tables = analyse_many(store, {meta.run_id: read_hits(meta.run_id, real_cache)}, (V2,), groupings=("task",))
    board = leaderboard(tables.groups("v2", "task"), {meta.run_id: meta}, "v2", "release_v2603",
                        all_rows(real_cache), published_sources_for("release_v2603"))
    ours = board[board["kind"] == "our run"].iloc[0]
    assert ours["release"] == "v202603"
    table3 = board[board["source"] == "paper Table 3 (release v202603)"]
    assert len(table3) and set(table3["release"]) == {"v202603"}
    # BM25 on the real v2603, official v2 scheme (query-weighted over 2,601 queries)
    assert round(ours["overall_query_weighted"], 3) == 0.285


def test_release_v2602_is_shown_beside_table_14():
    from coreb_core.analysis.selection import recommend_published

    assert published_sources_for("release_v2602")[0] == "published:paper_table14_v202602_retrieval"
    assert "like with like" in release_relation("release_v2603")
    assert "like with like" in release_relation("release_v2602") and "v202602" in release_relation("release_v2602")
    assert "not this release" in release_relation("demo_v2603")
    assert "not this release" in release_relation("release_v2602", "v202603")  # Table 3 beside v2602's runs
    ranked, _ = recommend_published(all_rows(), version="v202602")
    c2llm = ranked[ranked["model"] == "C2LLM-7B"].iloc[0]
    assert c2llm["figures"].startswith("t2c: paper Table 14") and len(ranked) >= 10
