"""Rank tiers on the real release_v2603 (issue 36, item 2): BM25 and MTEB's bm25s recipe differ on every task
(p < 0.001 after Holm), so they are two tiers, each with a rank interval of one rank; the means are the leaderboard's
on the 2,601 queries both scored. (With MiniLM too, docs/analyses.md section 11 gives the figures.)"""
from __future__ import annotations

import json

from tests.builders import run_cli


def test_bm25_and_bm25s_are_two_tiers_on_the_real_release(real_cache):
    from coreb_core.runs.folders import list_runs

    runs = {m.model: m.run_id for m in list_runs("release_v2603", real_cache)}
    ids = [runs["bm25s-mteb"], runs["bm25"]]
    out = json.loads(run_cli("tiers", "--release", "release_v2603", "--run", *ids, "--json",
                             env={"COREB_CACHE": str(real_cache)}).stdout)
    assert (out["queries"], out["tiers"], out["chained"]) == (2601, 2, 0)
    assert [(r["run"], r["tier"], r["rank_low"], r["rank_high"], r["dropped"]) for r in out["runs"]] == [
        (runs["bm25"], 1, 1, 1, 0), (runs["bm25s-mteb"], 2, 2, 2, 0)]
    assert [round(r["mean"] * 100, 2) for r in out["runs"]] == [30.09, 22.49]  # mean of task means
    (pair,) = out["pairs"]
    assert pair["significant"] and pair["p_adjusted"] < 0.001 and round(pair["mean_delta"] * 100, 2) == 7.61
