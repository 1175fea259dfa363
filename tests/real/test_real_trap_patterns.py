"""The trap analyses across runs, releases and lengths on the real CoREB (release_v2603 and release_v2602, BM25 and bm25s-mteb): agreement
across runs, stability across releases and the length slices, with figures measured on the real release.
(MiniLM's figures in docs/analyses.md were measured the same way; a real MiniLM encode takes minutes, so the suite
uses the two lexical runs.)"""
import shutil

import pytest

from tests.builders import retrieval_runs


@pytest.fixture(scope="module")
def real_pair(real_cache, tmp_path_factory):
    """A copy of the real cache (the shared one gains nothing) with a BM25 run on release_v2602 too."""
    from coreb_core.retrieval.pipeline import run_retrieval

    root = shutil.copytree(real_cache, tmp_path_factory.mktemp("real26") / "cache", symlinks=True)
    run_retrieval("bm25", "release_v2602", root=root)
    return root


def _wins(root, release, models):
    from coreb_core.analysis.traps.wins import trap_wins
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import read_hits

    runs = retrieval_runs(release, root)
    store = Store(release, root)
    return store, trap_wins(store, {runs[m].run_id: read_hits(runs[m].run_id, root) for m in models})


def test_agreement_of_the_two_lexical_runs(real_pair):
    from coreb_core.analysis.traps.agreement import trap_agreement

    _, wins = _wins(real_pair, "release_v2603", ("bm25", "bm25s-mteb"))
    agreement = trap_agreement(wins)
    counts = agreement.counts
    assert set(counts["of"]) == {2} and set(counts["task"]) == {"t2c", "c2c", "c2t"}
    # Every judged trap of a query with a positive is counted once, whatever it beats.
    for task, rows in counts.groupby("task"):
        assert rows["traps"].sum() == len(agreement.traps[agreement.traps["task"] == task])
    pairs = agreement.pairs.set_index("task")
    assert pairs["shared"].to_dict() == {"c2c": 278, "c2t": 1010, "t2c": 1123}  # the queries with a positive
    assert ((pairs["both"] <= pairs[["lost_a", "lost_b"]].min(axis=1)) & (pairs["jaccard"] > 0.3)).all()
    beating_all, lost_by_all = agreement.beating_all("t2c")
    assert lost_by_all == pairs.loc["t2c", "both"] and beating_all > 0


def test_stability_of_bm25_between_the_releases(real_pair):
    from coreb_core.analysis.stability import release_stability

    _, old = _wins(real_pair, "release_v2602", ("bm25",))
    _, new = _wins(real_pair, "release_v2603", ("bm25",))
    shift = release_stability(old, new)
    kinds = shift.by_kind.set_index(["task", "kind"])
    # docs/analyses.md's figures: C2T noise descriptions beat the true description 9.5% -> 27.3% of the time.
    noise = kinds.loc[("c2t", "noise_description")]
    assert noise[["wins_a", "traps_a", "wins_b", "traps_b"]].tolist() == [303, 3192, 826, 3030]
    assert (round(noise["low"] * 100, 1), round(noise["high"] * 100, 1)) == (15.9, 19.7)
    assert kinds.loc[("c2c", "failing_solution"), ["wins_a", "traps_a", "wins_b", "traps_b"]].tolist() == \
        [61, 267, 78, 255]
    assert shift.by_bug.empty  # the real corpus records no bug kind
    # Subtasks only v2603 has (C2C cross-model, mono-language) have no change to measure.
    subtasks = shift.by_subtask.set_index("subtask")
    assert subtasks.loc["c2c_cross_model", "traps_a"] == 0 and subtasks["difference"].isna().sum() >= 2


def test_length_slices_of_bm25(real_pair):
    from coreb_core.analysis.slices import length_slices
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits

    store, wins = _wins(real_pair, "release_v2603", ("bm25",))
    run_id = str(wins.queries["run"].iloc[0])
    per_query = analyse_many(store, {run_id: read_hits(run_id, real_pair)}).per_query("v2")
    cut = length_slices(store, wins, per_query)
    t2c = cut.by_query_length[cut.by_query_length["task"] == "t2c"].set_index("bin")
    # docs/analyses.md: the shortest T2C quartile (the search queries) scores nDCG@10 2.3; 281 queries a bin.
    assert t2c["queries"].tolist() == [281, 281, 280, 281] and round(t2c.loc[1, "mean"] * 100, 1) == 2.3
    assert (t2c.loc[1, "low"], t2c.loc[4, "high"]) == (57, 2958)
    duels = cut.duels.set_index("task")
    assert duels.loc["t2c", "decided"] == 1066 and round(duels.loc["t2c", "longer_first"] * 100, 1) == 49.6
