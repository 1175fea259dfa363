"""Rank tiers in the app (issue 36, item 2), on CoREB-mini's two lexical runs: the Overview's "Rank tiers" section
states the tiers the ``tiers`` verb prints, for the score chosen (and kept in the URL); Model selection says which
tier the recommended run is in and with whom, and its ranking carries each run's tier and rank interval."""
from __future__ import annotations

import json

from tests.builders import app_test, run_cli

RELEASE = "demo_v2603"


def test_the_overview_shows_the_verbs_tiers(lexical_cache):
    root, runs = lexical_cache
    ids = [runs["bm25"], runs["bm25s-mteb"]]
    at = app_test("overview.py", root, {"release": RELEASE, "runs": ids, "tiers_on": "t2c"}, timeout=300).run()
    assert not at.exception and not at.error
    verb = json.loads(run_cli("tiers", "--release", RELEASE, "--run", *ids, "--task", "t2c", "--json",
                              env={"COREB_CACHE": str(root)}).stdout)
    table = next(d.value for d in at.dataframe if "rank_low" in d.value.columns)
    assert table["run"].tolist() == [r["run"] for r in verb["runs"]]
    assert table["tier"].tolist() == [r["tier"] for r in verb["runs"]]
    assert table["ranks"].tolist() == [str(r["rank"]) if r["rank_low"] == r["rank_high"]
                                       else f"{r['rank_low']}–{r['rank_high']}" for r in verb["runs"]]
    assert table["points"].tolist() == [round(r["mean"] * 100, 1) for r in verb["runs"]]
    sentence = next(m.value for m in at.markdown if " runs in " in m.value)
    assert sentence.startswith(f"2 runs in {verb['tiers']} tier") and "on T2C (nDCG@10, the 720 queries" in sentence
    assert at.radio(key="ov_tiers").value == "t2c" and at.query_params["tiers_on"] in ("t2c", ["t2c"])
    assert any("runs that do not differ always share a tier" in c.value for c in at.caption)

    at.radio(key="ov_tiers").set_value("queries").run()  # the leaderboard's query-weighted overall
    assert not at.exception
    assert any(m.value.startswith("2 runs in") and "every task, query-weighted mean" in m.value for m in at.markdown)


def test_the_overview_with_one_run_asks_for_more(lexical_cache):
    root, runs = lexical_cache
    at = app_test("overview.py", root, {"release": RELEASE, "runs": [runs["bm25"]]}, timeout=300).run()
    assert not at.exception
    assert any(i.value.startswith("Rank tiers compare two or more runs") for i in at.info)


def test_model_selection_names_the_recommended_runs_tier(lexical_cache):
    root, runs = lexical_cache
    ids = [runs["bm25"], runs["bm25s-mteb"]]
    at = app_test("selection.py", root, {"release": RELEASE, "runs": ids, "sel_tasks": "t2c"}, timeout=300).run()
    assert not at.exception and not at.error
    chosen = json.loads(run_cli("select", "--release", RELEASE, "--runs", *ids, "--task", "t2c", "--json",
                                env={"COREB_CACHE": str(root)}).stdout)
    tiers = {r["run"]: r for r in chosen["tiers"]["runs"]}
    ranked = next(d.value for d in at.dataframe if "ci_low" in d.value.columns)
    assert ranked["tier"].tolist() == [tiers[r]["tier"] for r in ranked["run"]]
    first = ranked["run"].iloc[0]
    words = next(t.value for t in at.text if t.value.startswith(("The recommended run is", "No run is recommended")))
    if chosen["tiers"]["tiers"] == 1:  # one tier: nothing sets the runs apart, so no run is recommended (issue 48)
        assert words == "No run is recommended: all 2 runs share tier 1, and no significant difference sets any of them apart."
    else:
        assert words == "The recommended run is alone in tier 1 of 2: it differs significantly from every other run."
    assert tiers[first]["tier"] == 1
    assert any(c.value.startswith("Tiers: every pair of runs tested") for c in at.caption)
