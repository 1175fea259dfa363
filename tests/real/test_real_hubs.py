"""Hubs on the real release_v2603 (issue 36, item 1): BM25 puts one failing T2C solution in 121 top-10 lists and one
C2T noise description in 164, although that description's problem has only 12 C2T queries."""
from __future__ import annotations

from tests.builders import run_cli


def test_bm25s_hubs_on_the_real_release(real_cache):
    import json

    from coreb_core.runs.folders import list_runs

    bm25 = next(m.run_id for m in list_runs("release_v2603", real_cache) if m.model == "bm25")
    env = {"COREB_CACHE": str(real_cache)}
    t2c = json.loads(run_cli("hubs", "--release", "release_v2603", "--run", bm25, "--task", "t2c", "--json",
                             env=env).stdout)["hubs"][0]
    assert t2c["lists"] == 121 and t2c["passed"] is False and t2c["unjudged"] == 121
    c2t = json.loads(run_cli("hubs", "--release", "release_v2603", "--run", bm25, "--task", "c2t", "--json",
                             env=env).stdout)["hubs"][0]
    assert c2t["lists"] == 164 and c2t["is_noise"] is True and c2t["trap_kind"] == "noise_description"
    assert c2t["trap"] == 7 and c2t["problem_queries"] == 12


def test_the_real_releases_share_no_problem_and_no_text(real_cache):
    """Release integrity (issue 36, item 6): release_v2602 (167 problems) and release_v2603 (175) share none and no
    text; 3,457 ids name different texts in the two."""
    import json

    done = run_cli("integrity", "--releases", "release_v2602", "release_v2603", "--json",
                   env={"COREB_CACHE": str(real_cache)})
    assert done.returncode == 0, done.stdout
    check = json.loads(done.stdout)
    assert check["passed"] and check["problems"] == [167, 175] and check["shared_texts"] == []
    assert check["reused_ids"] == 3457 and check["same_ids"] == 0


def test_slices_by_metadata_fields_of_the_real_release(real_cache):
    """Issue 36, item 8: BM25's C2T queries whose anchor gemini-3-flash wrote score far lower than claude-sonnet-4-5's
    (0.170 against 0.389) and lose more of them to a trap; T2C queries whose positives include a failing solution
    (positive.pass_rate below 1) are almost never solved."""
    import json

    from coreb_core.runs.folders import list_runs

    bm25 = next(m.run_id for m in list_runs("release_v2603", real_cache) if m.model == "bm25")
    env = {"COREB_CACHE": str(real_cache)}
    by_model = json.loads(run_cli("eval", "--release", "release_v2603", "--run", bm25, "--by", "meta_anchor_model",
                                  "--json", env=env).stdout)["groups"]["c2t"]
    assert {k: (v["queries"], round(v["ndcg_at_10"], 4)) for k, v in by_model.items()} == {
        "claude-sonnet-4-5": (936, 0.3886), "gemini-3-flash": (264, 0.1697)}
    rate = json.loads(run_cli("eval", "--release", "release_v2603", "--run", bm25, "--by", "positive.pass_rate",
                              "--json", env=env).stdout)["groups"]["t2c"]
    assert rate["= 1"]["queries"] == 1010 and sum(v["queries"] for v in rate.values()) == 1123
    assert all(v["ndcg_at_10"] < 0.01 for k, v in rate.items() if k != "= 1")
    traps = json.loads(run_cli("traps", "--release", "release_v2603", "--run", bm25, "--task", "c2t", "--by",
                               "query.anchor_model", "--json", env=env).stdout)["breakdown"]
    lost = {r["query.anchor_model"]: (r["queries_trap_above_positive"], r["queries_with_positive"]) for r in traps}
    assert lost == {"claude-sonnet-4-5": (384, 796), "gemini-3-flash": (142, 214)}
