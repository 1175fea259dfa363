"""Trap wins across runs (agreement), across releases (stability) and by text length (slices), on the tiny
hand-made release of tests/dump.py, with every expected value worked out by hand below.

The tiny release (code ids by number, ``builders.code``):
- t2c Q1 ``q_t2c_canonical_retro_any_0001``: positives 1, 2, 4; trap 3 (a failing Python solution);
- t2c Q2 ``q_t2c_search_python_0002`` (Python only): positive 1; traps 3 (failing) and 2 (C++: wrong language);
- c2c Q3 ``q_c2c_cross_lang_0001`` (anchor 1, dropped): positives 2, 4; trap 3.

Run A: Q1 [3, 1, 2, 4] (trap 3 above every positive: a win), Q2 [1, 3, 2] (no win), Q3 [1, 3, 2, 4] (the anchor
dropped, trap 3 first: a win). Run B: Q1 [3, 2, 1, 4] (win), Q2 [2, 3, 1] (traps 2 and 3 both win), Q3 [2, 3, 4]
(no win).
"""
import numpy as np
import pandas as pd
import pytest

from coreb_core.analysis.proportions import difference_interval
from coreb_core.analysis.slices import length_bins, length_slices
from coreb_core.analysis.stability import release_stability
from coreb_core.analysis.traps.agreement import trap_agreement
from coreb_core.analysis.traps.wins import trap_wins
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import analyse_many
from tests.builders import code, tiny_hits

Q1, Q2, Q3 = "q_t2c_canonical_retro_any_0001", "q_t2c_search_python_0002", "q_c2c_cross_lang_0001"
A = {Q1: [code(3), code(1), code(2), code(4)], Q2: [code(1), code(3), code(2)],
     Q3: [code(1), code(3), code(2), code(4)]}
B = {Q1: [code(3), code(2), code(1), code(4)], Q2: [code(2), code(3), code(1)], Q3: [code(2), code(3), code(4)]}


@pytest.fixture
def two_runs(tiny_store):
    return trap_wins(tiny_store, {"A": tiny_hits(tiny_store, A), "B": tiny_hits(tiny_store, B)})


def test_agreement_counts_traps_beating_k_of_n_runs(two_runs):
    agree = trap_agreement(two_runs)
    beats = {(q, d): (b, n) for q, d, b, n in agree.traps[["query_id", "doc_id", "beats", "of"]].itertuples(index=False)}
    # Q1's trap 3 beats both runs; Q2's traps 3 and 2 beat B only; Q3's trap 3 beats A only.
    assert beats == {(Q1, code(3)): (2, 2), (Q2, code(3)): (1, 2), (Q2, code(2)): (1, 2), (Q3, code(3)): (1, 2)}
    assert agree.traps["beats"].iloc[0] == 2  # most-beating first
    counts = {(t, b): n for t, b, n in agree.counts[["task", "beats", "traps"]].itertuples(index=False)}
    assert counts == {("t2c", 1): 2, ("t2c", 2): 1, ("c2c", 1): 1}
    lost = agree.queries.set_index("query_id")
    assert lost.loc[Q1, ["runs_lost", "of", "traps_beating_all"]].tolist() == [2, 2, 1]
    assert lost.loc[Q2, ["runs_lost", "traps_beating_all"]].tolist() == [1, 0]
    assert lost.loc[Q3, ["runs_lost", "traps_beating_all"]].tolist() == [1, 0]
    assert agree.queries_lost_by(2) == [Q1] and sorted(agree.queries_lost_by(1)) == sorted([Q1, Q2, Q3])
    assert agree.beats_of(Q2) == {code(3): (1, 2), code(2): (1, 2)}


def test_agreement_jaccard_of_lost_queries(two_runs):
    pairs = trap_agreement(two_runs).pairs.set_index("task")
    # t2c: A loses {Q1}, B loses {Q1, Q2}: 1 in common of 2 -> 0.5.  c2c: A loses {Q3}, B none: 0 of 1 -> 0.
    assert pairs.loc["t2c", ["run_a", "run_b", "lost_a", "lost_b", "both", "either", "shared"]].tolist() == \
        ["A", "B", 1, 2, 1, 2, 2]
    assert pairs.loc["t2c", "jaccard"] == 0.5 and pairs.loc["c2c", "jaccard"] == 0.0


def test_agreement_of_one_run_has_no_pairs(tiny_store):
    agree = trap_agreement(trap_wins(tiny_store, {"A": tiny_hits(tiny_store, A)}))
    assert agree.pairs.empty and set(agree.traps["of"]) == {1}
    assert sorted(agree.queries_lost_by(1)) == sorted([Q1, Q3])


def test_stability_rates_by_kind_with_newcombe_intervals(tmp_path):
    """The tiny release imported twice, as two releases: A on the first, B on the second."""
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from coreb_core.data.store import Store
    from tests import dump

    root = tmp_path / "cache"
    source = read_local(dump.write_parquet_folder(tmp_path / "tiny", dump.rows()))[2]
    import_release(source, "release_a", root)
    import_release(source, "release_b", root)
    with Store("release_a", root) as first, Store("release_b", root) as second:
        shift = release_stability(trap_wins(first, {"A": tiny_hits(first, A)}),
                                  trap_wins(second, {"B": tiny_hits(second, B)}))
        with pytest.raises(CorebError, match="both runs are on release_a"):
            release_stability(trap_wins(first, {"A": tiny_hits(first, A)}), trap_wins(first, {"B": tiny_hits(first, B)}))
    kinds = shift.by_kind.set_index(["task", "kind"])
    # t2c failing solutions (trap 3 of Q1 and Q2): A beats 1 of 2, B 2 of 2. Wrong language (trap 2 of Q2): 0/1, 1/1.
    failing = kinds.loc[("t2c", "failing_solution")]
    assert failing[["traps_a", "wins_a", "traps_b", "wins_b"]].tolist() == [2, 1, 2, 2]
    assert (failing["rate_a"], failing["rate_b"], failing["difference"]) == (0.5, 1.0, 0.5)
    # Newcombe by hand: Wilson(2/2) = [0.3424, 1], Wilson(1/2) = [0.0945, 0.9055];
    # low = 0.5 - sqrt((1 - 0.3424)^2 + (0.9055 - 0.5)^2) = -0.2726, high = 0.5 + sqrt(0 + (0.5 - 0.0945)^2) = 0.9055.
    assert failing["low"] == pytest.approx(-0.2726, abs=1e-3) and failing["high"] == pytest.approx(0.9055, abs=1e-3)
    assert kinds.loc[("t2c", "wrong_language"), ["wins_a", "traps_a", "wins_b", "traps_b"]].tolist() == [0, 1, 1, 1]
    assert kinds.loc[("c2c", "failing_solution"), ["wins_a", "wins_b"]].tolist() == [1, 0]
    subtasks = shift.by_subtask.set_index("subtask")
    assert subtasks.loc["t2c_search_python", ["traps_a", "wins_a", "traps_b", "wins_b"]].tolist() == [2, 0, 2, 2]
    assert shift.by_bug.empty  # the tiny corpus records no bug kind
    assert (shift.release_a, shift.release_b, shift.run_a, shift.run_b) == ("release_a", "release_b", "A", "B")


def test_difference_interval_is_newcombes():
    low, high = difference_interval(np.array([56, 0]), np.array([70, 0]), np.array([48, 1]), np.array([80, 2]))
    assert (round(low[0], 4), round(high[0], 4)) == (0.0524, 0.3339)  # Newcombe (1998), Table II
    assert np.isnan(low[1]) and np.isnan(high[1])  # an empty group has no interval


def test_length_slices_and_duels(tiny_store):
    hits = {"B": tiny_hits(tiny_store, B)}
    per_query = analyse_many(tiny_store, hits).per_query("v2")
    cut = length_slices(tiny_store, trap_wins(tiny_store, hits), per_query, quantiles=2)
    t2c = cut.by_query_length[cut.by_query_length["task"] == "t2c"].set_index("bin")
    # Q2 "python add two ints" (19 characters) is the shorter half, Q1 "Sum of two integers." (20) the longer;
    # B loses both to a trap.
    assert t2c[["low", "high", "queries", "trap_wins", "trap_win_rate"]].to_dict("index") == {
        1: {"low": 19, "high": 19, "queries": 1, "trap_wins": 1, "trap_win_rate": 1.0},
        2: {"low": 20, "high": 20, "queries": 1, "trap_wins": 1, "trap_win_rate": 1.0}}
    ndcg = per_query.set_index("query_id")["ndcg_at_10"]
    assert t2c.loc[1, "mean"] == pytest.approx(ndcg[Q2]) and t2c.loc[2, "mean"] == pytest.approx(ndcg[Q1])
    # Duels: Q1 trap 3 (Python, longer) over positive 2 (C++): the longer first; Q2 trap 2 (C++) over positive 1
    # (Python): the shorter first. Q3 (c2c): trap 3 (Python) under positive 2 (C++): a correct ordering, and the
    # higher-ranked positive is the shorter.
    duels = cut.duels.set_index("task")
    assert duels.loc["t2c", ["decided", "trap_wins", "wins_trap_longer", "correct"]].tolist() == [2, 2, 1, 0]
    assert duels.loc["t2c", "longer_first"] == 0.5
    assert duels.loc["c2c", ["decided", "trap_wins", "correct", "correct_trap_longer"]].tolist() == [1, 0, 1, 1]
    assert duels.loc["c2c", "longer_first"] == 0.0


def test_length_bins_by_hand():
    # Per task, equal-count halves by rank (ties broken by order); NaN lengths get bin 0.
    lengths = np.array([10.0, 20.0, 30.0, 40.0, 5.0, 5.0, np.nan])
    tasks = np.array(["t2c"] * 4 + ["c2c"] * 3)
    assert length_bins(lengths, tasks, 2).tolist() == [1, 1, 2, 2, 1, 2, 0]


@pytest.mark.parametrize("metric, quantiles, message", [
    (Measure("ndcg", 11), 4, "unknown metric 'nDCG@11'"),
    (NDCG_10, 1, "quantiles must be 2 or more"),
])
def test_length_slices_refuse_bad_arguments(tiny_store, metric, quantiles, message):
    hits = {"B": tiny_hits(tiny_store, B)}
    with pytest.raises(CorebError, match=message):
        length_slices(tiny_store, trap_wins(tiny_store, hits), analyse_many(tiny_store, hits).per_query("v2"),
                      metric=metric, quantiles=quantiles)


def test_stability_refuses_several_runs_per_release(two_runs):
    with pytest.raises(CorebError, match="one run per release"):
        release_stability(two_runs, two_runs)


def test_agreement_refuses_no_run():
    from coreb_core.analysis.traps.wins import TrapWins

    empty = pd.DataFrame({"run": pd.Categorical([])})
    with pytest.raises(CorebError, match="at least one scored run"):
        trap_agreement(TrapWins(empty, empty, "tiny", True))


def _store_run(store, lists: dict, name: str) -> str:
    from coreb_core.runs.folders import new_run_id, write_run

    run_id = new_run_id(name, store.release)
    write_run(tiny_hits(store, lists), {"run_id": run_id, "release": store.release, "model": name,
                                        "kind": "synthetic"}, store.root)
    return run_id


def test_cli_traps_reports_agreement_and_slices(tiny_store):
    import json

    from tests.builders import run_cli

    a, b = _store_run(tiny_store, A, "a"), _store_run(tiny_store, B, "b")
    env = {"COREB_CACHE": str(tiny_store.root)}
    done = run_cli("traps", "--release", "tiny", "--run", a, b, "--json", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [(r["task"], r["beats"], r["traps"]) for r in report["agreement"]["counts"]] == \
        [("c2c", 1, 1), ("t2c", 1, 2), ("t2c", 2, 1)]
    assert [(r["query_id"], r["doc_id"]) for r in report["agreement"]["traps_beating_all"]] == [(Q1, code(3))]
    jaccard = {r["task"]: r["jaccard"] for r in report["agreement"]["pairs"]}
    assert jaccard == {"c2c": 0.0, "t2c": 0.5}
    duels = {(r["run"], r["task"]): (r["decided"], r["longer_first"]) for r in report["slices"]["duels"]}
    assert duels[(b, "t2c")] == (2, 0.5)
    text = run_cli("traps", "--release", "tiny", "--run", a, b, env=env)
    assert text.returncode == 0, text.stderr
    assert "t2c: 1 traps beat all 2 runs; all 2 runs lose 1 queries to a trap." in text.stdout
    assert "both lose 1 of the 2 queries either loses to a trap (Jaccard 0.50)" in text.stdout


def test_cli_stability_and_its_errors(tmp_path):
    import json

    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from coreb_core.data.store import Store
    from tests import dump
    from tests.builders import run_cli

    root = tmp_path / "cache"
    source = read_local(dump.write_parquet_folder(tmp_path / "tiny", dump.rows()))[2]
    for release in ("release_a", "release_b"):
        import_release(source, release, root)
    with Store("release_a", root) as first, Store("release_b", root) as second:
        a, b = _store_run(first, A, "hand"), _store_run(second, B, "hand")
    env = {"COREB_CACHE": str(root)}
    done = run_cli("stability", "--run", a, "--against", b, "--json", env=env)
    assert done.returncode == 0, done.stderr
    kinds = {(r["task"], r["kind"]): (r["wins_a"], r["traps_a"], r["wins_b"], r["traps_b"])
             for r in json.loads(done.stdout)["by_kind"]}
    assert kinds[("t2c", "failing_solution")] == (1, 2, 2, 2) and kinds[("c2c", "failing_solution")] == (1, 1, 0, 1)
    text = run_cli("stability", "--run", a, "--against", b, "--task", "t2c", env=env)
    assert "t2c failing_solution: a 1/2, b 2/2, b − a +50.0 points (95% CI −27.3 to +90.5)\n" in text.stdout
    assert "by bug: neither release records one" in text.stdout
    for args, message in ((("--run", a, "--against", a), "name the same run"),
                          (("--run", "../../etc", "--against", b), "not a run id"),
                          (("--run", a), "--against")):
        bad = run_cli("stability", *args, env=env)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and message in bad.stderr, bad.stderr
