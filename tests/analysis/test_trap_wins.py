"""coreb_core.analysis.traps.wins on hand-made runs over a hand-made release (the tiny dump plus a
recorded bug kind and a c2t_match non-match), the ``traps`` CLI and the Trap analysis page's new
sections. Every expected number is worked out by hand in the comments."""
import json

import numpy as np
import pandas as pd
import pytest

from tests import dump
from tests.builders import Q1, Q2, QC, QT, app_test, code, run_cli, scored_hits

QN = "q_c2t_match_0003"  # added here: the go solution paired with P1's description, label 0
T1 = "text_v202601_00001"
NOISE = [f"text_v202601_00001_noise{i}" for i in (1, 2, 3)]

# Run "a" (scores as given, so ranks follow the list order):
# Q1 (positives 1, 2, 4; trap 3 failing 2/4): trap first -> a win; margin 0.9 - 0.8, gap 2 - 1.
# Q2 (positive 1; traps 3 failing, 2 cpp): code 2 first (win), unjudged 4, positive 1 at 3, failing 3 at 4
#    (no win); margin 0.95 - 0.9, gap 3 - 1.
# QC (anchor 1, positives 2, 4; trap 3): the anchor leaves, so trap 3 is rank 1 (stored 2), positive 2 rank 2.
# QT (positive text 1, noise 1-3): positive first, noise 1 and 2 below; noise 3 unlisted -> no win.
# QN (no positive; trap text 1): text 1 at rank 1, but a query without a positive has no win.
RUN_A = {
    Q1: [(code(3), 0.9), (code(1), 0.8), (code(2), 0.7), (code(4), 0.6)],
    Q2: [(code(2), 0.95), (code(4), 0.92), (code(1), 0.9), (code(3), 0.5)],
    QC: [(code(1), 1.0), (code(3), 0.7), (code(2), 0.6), (code(4), 0.1)],
    QT: [(T1, 0.9), (NOISE[0], 0.8), (NOISE[1], 0.3)],
    QN: [(T1, 0.9)],
}


def _kinds_rows() -> dict:
    data = dump.rows()
    data["code_corpus"][2]["meta"]["variant"] = "offbyone"  # code 3, the failing solution
    data["code2text_queries"].append({
        "query_id": QN, "query": data["code_corpus"][4]["code"], "split": "code2text", "subtask": "c2t_match",
        "anchor_language": "go", "anchor_model": "claude-sonnet-4-5", "label": 0, "text_id": T1,
        "meta": {"source_problem_id": dump.P2, "anchor_code_id": code(5), "pair_type": "negative_random"}})
    data["code2text_qrels"].append({"query_id": QN, "doc_id": T1, "relevance": 1})
    return data


@pytest.fixture
def kinds_store(tmp_path):
    """The tiny release with a recorded bug kind on code 3 and a judged non-match (c2t_match label 0)."""
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from coreb_core.data.store import Store

    root = tmp_path / "kinds-cache"
    import_release(read_local(dump.write_parquet_folder(tmp_path / "kinds", _kinds_rows()))[2], "tiny", root)
    with Store("tiny", root) as store:
        yield store


def _wins(store, runs=None, **kwargs):
    from coreb_core.analysis.traps.wins import trap_wins

    runs = runs or {"a": RUN_A}
    return trap_wins(store, {name: scored_hits(store, lists, name) for name, lists in runs.items()}, **kwargs)


def test_classify_traps_one_kind_per_case():
    from coreb_core.analysis.traps.kinds import classify_traps

    cases = pd.DataFrame.from_records([
        # task, subtask, target, anchor, language, model, passed, is_noise -> kind, off, wanted, anchor
        ("t2c", "t2c_search_python", "python", None, "python", "m", False, False),  # failing, in language
        ("t2c", "t2c_search_python", "python", None, "cpp", "m", True, False),  # correct, wrong language
        ("t2c", "t2c_search_any", "any", None, "cpp", "m", True, False),  # correct, no rule broken
        ("c2c", "c2c_mono_lang", None, "python", "python", "m2", True, False),  # correct, other model
        ("c2c", "c2c_mono_lang", None, "python", "java", "m2", True, False),  # mono: leaves the anchor's language
        ("c2c", "c2c_cross_lang", None, "python", "python", "m", False, False),  # failing and in the anchor's language
        ("c2t", "c2t_full_retro_any", None, "python", None, None, None, True),  # noise description
        ("c2t", "c2t_match", None, "go", None, None, None, False),  # judged non-match
    ], columns=["task", "subtask", "target_language", "anchor_language", "language", "model", "passed", "is_noise"])
    got = classify_traps(cases)
    assert got["kind"].tolist() == ["failing_solution", "wrong_language", "not_a_positive", "other_model",
                                    "wrong_language", "failing_solution", "noise_description", "judged_non_match"]
    assert got["off_language"].tolist() == [False, True, False, False, True, True, False, False]
    assert got["wanted_language"].tolist() == [None, "python", None, None, "python", None, None, None]
    assert got["anchor_language"].tolist() == [None, None, None, None, None, "python", None, None]


def test_every_trap_gets_its_kind_rank_and_bug(kinds_store):
    wins = _wins(kinds_store)
    traps = wins.traps.set_index(["query_id", "doc_id"])
    row = traps.loc[(Q1, code(3))]
    assert (row["kind"], row["pass_fraction"], row["pass_bin"], row["bug"], row["rank"], row["wins"]) == (
        "failing_solution", 0.5, "partial", "offbyone", 1.0, True)
    assert (traps.loc[(Q2, code(2)), "kind"], traps.loc[(Q2, code(2)), "wins"]) == ("wrong_language", True)
    assert (traps.loc[(Q2, code(3)), "rank"], traps.loc[(Q2, code(3)), "wins"]) == (4.0, False)
    # The evaluator's rank: the C2C anchor (stored rank 1) leaves the list, so the trap moves from 2 to 1.
    assert (traps.loc[(QC, code(3)), "rank"], traps.loc[(QC, code(3)), "wins"]) == (1.0, True)
    assert [traps.loc[(QT, n), "kind"] for n in NOISE] == ["noise_description"] * 3
    assert np.isnan(traps.loc[(QT, NOISE[2]), "rank"]) and not traps.loc[(QT, NOISE[2]), "in_top_k"]
    match = traps.loc[(QN, T1)]
    assert (match["kind"], match["rank"], match["query_has_positive"], match["wins"]) == (
        "judged_non_match", 1.0, False, False)
    assert pd.isna(traps.loc[(QT, NOISE[0]), "bug"]) and np.isnan(traps.loc[(QT, NOISE[0]), "pass_fraction"])


def test_wins_agree_with_the_trap_table(kinds_store):
    from coreb_core.evaluation.evaluate import trap_table

    hits = scored_hits(kinds_store, RUN_A, "a")
    wins = _wins(kinds_store)
    per_query = wins.traps.groupby("query_id", observed=True)["wins"].sum()
    table = trap_table(kinds_store, hits).set_index("query_id")["traps_above_first_positive"]
    assert per_query.sort_index().astype(int).to_dict() == table.sort_index().astype(int).to_dict()


def test_kind_shares_per_task_and_subtask(kinds_store):
    from coreb_core.analysis.traps.wins import bug_shares, kind_shares

    wins = _wins(kinds_store)
    by_task = kind_shares(wins, "task").set_index(["task", "kind"])
    # T2C wins: Q1's failing solution and Q2's cpp solution -> half each; two queries, both with a win.
    assert by_task.loc[("t2c", "failing_solution"), ["trap_wins", "share_of_wins", "traps_in_top_k", "queries",
                                                     "queries_with_win"]].tolist() == [1, 0.5, 2, 2, 2]
    assert by_task.loc[("t2c", "wrong_language"), ["trap_wins", "share_of_wins"]].tolist() == [1, 0.5]
    assert by_task.loc[("c2c", "failing_solution"), ["trap_wins", "share_of_wins"]].tolist() == [1, 1.0]
    # C2T: no win, so no share of wins; noise 1 and 2 and the non-match are in the top-k.
    assert by_task.loc[("c2t", "noise_description"), "traps_in_top_k"] == 2
    assert by_task.loc[("c2t", "judged_non_match"), "share_of_top_k"] == pytest.approx(1 / 3)
    assert np.isnan(by_task.loc[("c2t", "noise_description"), "share_of_wins"])
    by_subtask = kind_shares(wins, "subtask").set_index(["subtask", "kind"])
    assert by_subtask.loc[("t2c_search_python", "failing_solution"), ["trap_wins", "share_of_wins"]].tolist() == [0, 0.0]
    assert by_subtask.loc[("t2c_search_python", "wrong_language"), "share_of_wins"] == 1.0
    bugs = bug_shares(wins).set_index(["task", "bug"])
    # Code 3 (offbyone) is a trap of Q1, Q2 and QC: it wins in Q1 and QC, not in Q2.
    assert bugs.loc[("t2c", "offbyone"), ["trap_wins", "judged", "win_rate"]].tolist() == [1, 2, 0.5]
    assert bugs.loc[("c2c", "offbyone"), ["trap_wins", "share_of_wins"]].tolist() == [1, 1.0]


def test_near_miss_bin_probability_and_wilson_interval(kinds_store):
    from coreb_core.analysis.traps.wins import near_miss_curve

    curve = near_miss_curve(_wins(kinds_store, task="t2c"))
    # T2C's failing solutions: code 3 of Q1 (wins) and of Q2 (below the positive): 1 of 2 in the 40-60% bin.
    assert curve[["run", "bin_low", "bin_high", "pass_bin", "failing", "outranking", "probability"]].values.tolist() == [
        ["a", 0.4, 0.6, "partial", 2, 1, 0.5]]
    # Wilson 95%, by hand: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n) with p = 1/2, n = 2, z = 1.95996
    # = (0.5 + 0.96036 ± 1.18427) / 2.92073 -> 0.09453 and 0.90547.
    assert curve["low"].iloc[0] == pytest.approx(0.09453, abs=1e-5)
    assert curve["high"].iloc[0] == pytest.approx(0.90547, abs=1e-5)
    all_tasks = near_miss_curve(_wins(kinds_store))
    assert all_tasks[["failing", "outranking"]].values.tolist() == [[3, 2]]  # plus QC's trap, which wins


def test_margins_and_rank_gaps_by_hand(kinds_store):
    from coreb_core.analysis.traps.wins import margin_summary, rank_gap_histogram

    wins = _wins(kinds_store)
    queries = wins.queries.set_index("query_id")
    assert queries.loc[Q1, "score_margin"] == pytest.approx(0.9 - 0.8)
    assert queries.loc[Q2, ["best_trap_rank", "best_positive_rank", "rank_gap"]].tolist() == [1.0, 3.0, 2.0]
    assert queries.loc[Q2, "score_margin"] == pytest.approx(0.95 - 0.9)
    assert queries.loc[QC, ["best_trap_rank", "best_positive_rank", "rank_gap"]].tolist() == [1.0, 2.0, 1.0]
    assert queries.loc[QT, ["rank_gap", "trap_wins"]].tolist() == [-1.0, 0]  # the positive is ahead
    assert np.isnan(queries.loc[QN, "rank_gap"]) and not queries.loc[QN, "has_positive"]
    summary = margin_summary(wins).set_index(["task", "measure"])
    # T2C trap wins: margins 0.1 and 0.05 (median 0.075, q25 0.0625), gaps 1 and 2 (median 1.5).
    assert summary.loc[("t2c", "score_margin"), ["queries", "unmeasured"]].tolist() == [2, 0]
    assert summary.loc[("t2c", "score_margin"), "median"] == pytest.approx(0.075)
    assert summary.loc[("t2c", "score_margin"), "q25"] == pytest.approx(0.0625)
    assert summary.loc[("t2c", "rank_gap"), "median"] == 1.5
    assert summary.loc[("c2t", "rank_gap"), "queries"] == 0  # no trap win in C2T
    everyone = margin_summary(wins, over="all").set_index(["task", "measure"])
    assert everyone.loc[("c2t", "rank_gap"), ["queries", "median"]].tolist() == [1, -1.0]
    gaps = rank_gap_histogram(wins)
    t2c = gaps[gaps["task"] == "t2c"].set_index("gap_low")
    assert t2c.loc[1, ["queries", "share"]].tolist() == [1, 0.5] and t2c.loc[2, ["queries", "share"]].tolist() == [1, 0.5]
    assert int(t2c["queries"].sum()) == 2 and np.isnan(t2c.loc[51, "gap_high"])


def _stored_run(store) -> str:
    from coreb_core.runs.folders import new_run_id, write_run

    run_id = new_run_id("hand", "tiny")
    write_run(scored_hits(store, RUN_A, "a"), {"run_id": run_id, "release": "tiny", "model": "hand",
                                                "kind": "synthetic"}, store.root)
    return run_id


def test_cli_traps_json_and_errors(kinds_store):
    run_id = _stored_run(kinds_store)
    env = {"COREB_CACHE": str(kinds_store.root)}
    done = run_cli("traps", "--release", "tiny", "--run", run_id, "--task", "t2c", "--json", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {"kinds", "near_miss", "margins", "surface_bias"} <= set(report)
    # Surface bias over the same trap wins: Q1 and Q2 are both trap wins (above), no correct ordering, so
    # no share among correct orderings (null, not NaN) and no test.
    surface = report["surface_bias"]
    assert [(r["run"], r["task"], r["trap_wins"], r["correct"]) for r in surface] == [(run_id, "t2c", 2, 0)]
    assert surface[0]["share_correct_trap_higher"] is None and surface[0]["p_value"] is None
    shares = {(r["task"], r["kind"]): r["share_of_wins"] for r in report["kinds"]["by_task"]}
    assert shares == {("t2c", "failing_solution"): 0.5, ("t2c", "wrong_language"): 0.5}
    assert [(r["failing"], r["outranking"]) for r in report["near_miss"]] == [(2, 1)]
    medians = {r["measure"]: r["median"] for r in report["margins"]["quantiles"]}
    assert medians["rank_gap"] == 1.5
    text = run_cli("traps", "--release", "tiny", "--run", run_id, env=env)
    # Issue 31: the queries lost to a trap are counted of the queries with a positive, and the share is given.
    assert text.returncode == 0 and "t2c: 2 trap wins; 2 of 2 queries with a positive lost to a trap (100.0%)" in text.stdout
    assert "against 0 of 0 correct orderings (p not available)" in text.stdout
    bad = run_cli("traps", "--release", "tiny", "--run", "no_such_run", env=env)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_page_shows_why_traps_win(kinds_store):
    from coreb_core.analysis.traps.wins import kind_shares

    run_id = _stored_run(kinds_store)
    at = app_test("traps.py", kinds_store.root, {"release": "tiny", "task": "t2c", "runs": [run_id]}).run()
    assert not at.exception, [e.value for e in at.exception]
    headers = [h.value for h in at.subheader]
    assert {"Why traps win: kinds", "Near-miss curve", "Margins"} <= set(headers)
    kinds = [d.value for d in at.dataframe if "kind_label" in d.value.columns][0]
    expected = kind_shares(_wins(kinds_store, task="t2c"), "subtask")
    assert sorted(kinds["trap_wins"].tolist()) == sorted(expected["trap_wins"].tolist())
    assert set(kinds["kind_label"]) == {"failing solution", "correct, wrong language"}
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    assert all(s.get("height", 160) >= 160 for s in specs)
    # trap measure, kinds, near-miss, two margin boxes, rank-gap heatmap, the agreement counts (issue 26), the two
    # length charts (issue 26; no other release has a run here, so no stability chart), surface bias
    assert len(specs) == 10
