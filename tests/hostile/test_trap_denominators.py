"""One denominator for trap wins (issue 31, items 15 and 17): the share of queries lost to a trap is over the
queries with a positive, on the Trap analysis page, in the CLI's ``traps``, in the model selection (and so the
report); the kinds table counts judged traps of queries with a positive, as the release-stability panel does.
C2T is where it matters: its c2t_match label-0 pairs have no positive and cannot lose. CoREB-mini demo_v2603
(336 C2T queries, 312 with a positive) with a BM25 run, and the real release_v2603 (1,200 C2T, 1,010 with one)."""
from __future__ import annotations

import shutil

import pytest

from coreb_core.analysis.traps.breakdown import trap_breakdown
from coreb_core.analysis.traps.wins import kind_shares, trap_wins
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.schemes import V2
from coreb_core.runs.folders import read_hits
from tests.builders import app_test, one_table, retrieval_runs

RELEASE = "demo_v2603"


@pytest.fixture(scope="module")
def bm25(mini_data, tmp_path_factory):
    """CoREB-mini with one BM25 run of demo_v2603, its id and its evaluation (with the trap table)."""
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("denominators") / "cache"
    shutil.copytree(mini_data, root, symlinks=True, ignore=shutil.ignore_patterns("runs", "embeddings", "results"))
    run_id = run_retrieval("bm25", RELEASE, root=root).run_id
    with Store(RELEASE, root) as store:
        evaluation = analyse_many(store, {run_id: read_hits(run_id, root)}, (V2,), traps=True)
    return root, run_id, evaluation


def test_share_lost_is_of_the_queries_with_a_positive():
    """was: no one definition; each place divided by every evaluated query."""
    from coreb_core.analysis.traps.breakdown import share_lost

    assert share_lost(526, 1010) == pytest.approx(0.520792, abs=1e-6)
    assert share_lost([1, 0], [2, 0]).tolist()[0] == 0.5 and share_lost(0, 0) != share_lost(0, 0)  # NaN


def test_breakdown_counts_c2t_queries_lost_of_those_with_a_positive(bm25):
    """was: 104 of 336 C2T queries (31.0%): the 24 c2t_match label-0 pairs, which cannot lose, counted as not lost."""
    root, _, evaluation = bm25
    with Store(RELEASE, root) as store:
        row = trap_breakdown(store, evaluation.traps, task="c2t", level="task").iloc[0]
    assert (row["queries"], row["queries_with_positive"], row["queries_trap_above_positive"]) == (336, 312, 104)
    assert row["share_trap_above_positive"] == pytest.approx(104 / 312)  # 33.3%, not 104 / 336
    traps = evaluation.traps[evaluation.traps["task"] == "c2t"]
    assert int(traps["has_positive"].sum()) == 312 and not traps[~traps["has_positive"]]["trap_above_positive"].any()


def test_t2c_share_is_unchanged_as_every_t2c_query_has_a_positive(bm25):
    """was: the same value (every T2C query has a positive): the rule changes only tasks with queries without one."""
    root, _, evaluation = bm25
    with Store(RELEASE, root) as store:
        row = trap_breakdown(store, evaluation.traps, task="t2c", level="task").iloc[0]
    assert row["queries"] == row["queries_with_positive"] == 720
    assert row["share_trap_above_positive"] == pytest.approx(row["queries_trap_above_positive"] / 720)


def test_kinds_table_counts_judged_traps_of_queries_with_a_positive(bm25):
    """was: the kinds table counted 888 judged C2T traps (every scored query's) where the stability panel's rule,
    judged traps of queries with a positive, counts 864; its queries were 336, not the 312 that can lose."""
    root, run_id, _ = bm25
    with Store(RELEASE, root) as store:
        wins = trap_wins(store, {run_id: read_hits(run_id, root)}, task="c2t")
    kinds = kind_shares(wins, "task").set_index("kind")
    assert len(wins.traps) == 888 and int(wins.traps["query_has_positive"].sum()) == 864
    noise = kinds.loc["noise_description"]
    assert (noise["trap_wins"], noise["judged"], noise["queries"], noise["queries_with_win"]) == (132, 864, 312, 104)
    assert noise["win_rate"] == pytest.approx(132 / 864)  # the trap-win rate per judged trap, as stability's
    # The label-0 pairs' traps are all in queries without a positive: listed in the top k, never judged for a win.
    assert kinds.loc["judged_non_match", "judged"] == 0 and kinds.loc["judged_non_match", "traps_in_top_k"] > 0


def test_cli_traps_says_lost_of_the_queries_with_a_positive(bm25, monkeypatch, capsys):
    """was: "c2t: 132 trap wins in 104 of 336 queries"."""
    from coreb_core.cli import main

    root, run_id, _ = bm25
    monkeypatch.setenv("COREB_CACHE", str(root))
    assert main(["traps", "--release", RELEASE, "--run", run_id, "--task", "c2t"]) == 0
    out = capsys.readouterr().out
    assert "  c2t: 132 trap wins; 104 of 312 queries with a positive lost to a trap (33.3%); " in out


def test_model_selection_trap_share_is_of_the_queries_with_a_positive(bm25):
    """was: 0.3095 (104 / 336) as the C2T trap share of the selection, and so of the report's "trap %"."""
    from coreb_core.analysis.selection import recommend

    root, run_id, evaluation = bm25
    with Store(RELEASE, root) as store:
        metas = {m.run_id: m for m in retrieval_runs(RELEASE, root).values()}
        rec = recommend(store, evaluation.per_query("v2"), evaluation.traps, metas, tasks=("c2t",))
    assert rec.ranked["trap_share"].tolist() == [pytest.approx(104 / 312)]


def test_trap_page_shows_the_share_and_names_both_measures(bm25):
    """was: "Trap above 1st positive" 31.0% on C2T, and "trap-win rate" named a per-trap rate (across releases)
    and a per-query share (by text length)."""
    root, run_id, _ = bm25
    at = app_test("traps.py", root, {"release": RELEASE, "task": "c2t", "runs": [run_id], "level": "task"}).run()
    assert not at.exception
    shown = one_table(at, "share_trap_above_positive")
    assert shown["share_trap_above_positive"].tolist() == [33.3] and shown["queries_with_positive"].tolist() == [312]
    kinds = one_table(at, "win_rate", "kind_label")
    assert kinds.groupby("kind")["judged"].sum().to_dict()["noise_description"] == 864  # summed over subtasks
    captions = " ".join(c.value for c in at.caption)
    assert "trap-win rate per judged trap" in captions and "share of queries lost to a trap" in captions
    assert "trap-win rate =" not in captions.lower()


def test_real_c2t_bm25_loses_526_of_the_1010_queries_with_a_positive(real_cache, monkeypatch, capsys):
    """was: 526 "of 1,200" (43.8%) on the page and in the CLI, and 3,600 judged C2T traps in the kinds table
    where the stability panel counts 3,030."""
    from coreb_core.cli import main

    run_id = retrieval_runs("release_v2603", real_cache)["bm25"].run_id
    with Store("release_v2603", real_cache) as store:
        hits = read_hits(run_id, real_cache)
        traps = analyse_many(store, {run_id: hits}, (), traps=True).traps
        row = trap_breakdown(store, traps, task="c2t", level="task").iloc[0]
        wins = trap_wins(store, {run_id: hits}, task="c2t")
    assert (row["queries"], row["queries_with_positive"], row["queries_trap_above_positive"]) == (1200, 1010, 526)
    assert row["share_trap_above_positive"] == pytest.approx(526 / 1010)
    kinds = kind_shares(wins, "task")
    assert int(kinds["judged"].sum()) == 3030 and len(wins.traps) == 3600
    monkeypatch.setenv("COREB_CACHE", str(real_cache))
    assert main(["traps", "--release", "release_v2603", "--run", run_id, "--task", "c2t"]) == 0
    assert "c2t: 826 trap wins; 526 of 1,010 queries with a positive lost to a trap (52.1%)" in capsys.readouterr().out
