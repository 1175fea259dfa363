"""Trap analysis's "Across runs, releases and text lengths" tabs and the inspector's "lost by several runs" filter
show exactly what coreb_core.analysis says (agreement, stability, slices), on CoREB-mini with BM25 runs."""
import shutil

import pytest

from coreb_core.present.trap_patterns import agreement_sentence, duel_sentence, shift_text
from coreb_core.runs.folders import run_meta
from coreb_core.runs.meta import run_name
from tests.builders import app_test


@pytest.fixture(scope="module")
def pattern_cache(mini_data, tmp_path_factory):
    """CoREB-mini, BM25 and bm25s-mteb on demo_v2603, and BM25 on demo_v2602 (its counterpart)."""
    from coreb_core.retrieval.pipeline import run_retrieval

    root = shutil.copytree(mini_data, tmp_path_factory.mktemp("patterns") / "cache")
    runs = {m: run_retrieval(m, "demo_v2603", root=root).run_id for m in ("bm25", "bm25s-mteb")}
    runs["old"] = run_retrieval("bm25", "demo_v2602", root=root).run_id
    return root, runs


def _library(root, runs):
    from coreb_core.analysis.agreement import trap_agreement
    from coreb_core.analysis.slices import length_slices
    from coreb_core.analysis.stability import release_stability
    from coreb_core.analysis.trap_wins import trap_wins
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits

    new, old = Store("demo_v2603", root), Store("demo_v2602", root)
    hits = {r: read_hits(runs[r], root) for r in ("bm25", "bm25s-mteb")}
    named = {runs[k]: v for k, v in hits.items()}
    wins = trap_wins(new, named)
    shift = release_stability(trap_wins(old, {runs["old"]: read_hits(runs["old"], root)}),
                              trap_wins(new, {runs["bm25"]: hits["bm25"]}))
    return trap_agreement(wins), length_slices(new, wins, analyse_many(new, named).per_query("v2")), shift


def test_trap_page_tabs_say_what_the_library_computes(pattern_cache):
    root, runs = pattern_cache
    agreement, slices, shift = _library(root, runs)
    at = app_test("traps.py", root, {"release": "demo_v2603", "task": "t2c",
                                     "runs": [runs["bm25"], runs["bm25s-mteb"]]}, timeout=300).run()
    assert not at.exception, [e.value for e in at.exception]
    texts = [m.value for m in at.markdown]
    assert agreement_sentence("t2c", *agreement.beating_all("t2c"), 2) in texts
    duel = slices.duels.set_index(["run", "task"]).loc[(runs["bm25"], "t2c")]
    name = run_name(run_meta(runs["bm25"], root))
    assert duel_sentence("t2c", name, int(duel.decided), duel.longer_first, duel.longer_low, duel.longer_high) in texts
    every = next(d.value for d in at.dataframe if {"beats", "of", "kind_label"} <= set(d.value.columns))
    t2c = agreement.traps[agreement.traps["task"] == "t2c"]
    assert len(every) == min(200, int(((t2c["beats"] == t2c["of"]) & (t2c["beats"] > 0)).sum()))
    # Across releases: BM25's counterpart on demo_v2602, by kind; the table's change column is shift_text's.
    table = next(d.value for d in at.dataframe if "change" in d.value.columns)
    expected = shift.by_kind[shift.by_kind["task"] == "t2c"]
    assert table["change"].tolist() == [shift_text(d, lo, hi) for d, lo, hi in
                                        zip(expected["difference"], expected["low"], expected["high"])]
    assert table["rate_a_pts"].round(6).tolist() == (expected["rate_a"] * 100).round(6).tolist()


def test_inspector_filters_queries_lost_by_several_runs(pattern_cache):
    root, runs = pattern_cache
    agreement, _, _ = _library(root, runs)
    at = app_test("inspector.py", root, {"release": "demo_v2603", "task": "t2c",
                                         "runs": [runs["bm25"], runs["bm25s-mteb"]],
                                         "filter": "lost to a trap by several runs", "lost_by": "2"},
                  timeout=300).run()
    assert not at.exception, [e.value for e in at.exception]
    found = at.dataframe[0].value
    lost = set(agreement.queries[(agreement.queries["task"] == "t2c")
                                 & (agreement.queries["runs_lost"] >= 2)]["query_id"].astype(str))
    assert set(found["query_id"]) == lost and set(found["runs_lost"]) == {2}
    # The open query's traps carry "beats k of 2".
    positions = next(d.value for d in at.dataframe if "beats" in d.value.columns)
    query = str(found["query_id"].iloc[0])
    assert {d: b for d, b in zip(positions["doc_id"], positions["beats"]) if isinstance(b, str)} == \
        {d: f"{k} of {n}" for d, (k, n) in agreement.beats_of(query).items()}
