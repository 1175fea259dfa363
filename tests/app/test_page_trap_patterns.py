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
    from coreb_core.analysis.slices import length_slices
    from coreb_core.analysis.stability import release_stability
    from coreb_core.analysis.traps.agreement import trap_agreement
    from coreb_core.analysis.traps.wins import trap_wins
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


def test_compare_page_shows_difficulty_and_the_reranker_stage(pattern_cache, tmp_path):
    """Compare runs: Spearman's rho per pair as problem_difficulty gives it, and a reranked run (BM25's top 10
    reversed, stored as a rerank of BM25) set beside its first stage as rerank_errors_of says."""
    from coreb_core.analysis.difficulty import problem_difficulty
    from coreb_core.analysis.rerank_errors import rerank_errors_of
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits, write_run

    source, runs = pattern_cache
    root = shutil.copytree(source, tmp_path / "cache")  # the module's cache stays as it is
    first = read_hits(runs["bm25"], root)
    top = first["rank"] <= 10
    flipped = first.assign(rank=first["rank"].where(~top, 11 - first["rank"]))
    write_run(flipped, {"run_id": "flipped", "release": "demo_v2603", "model": "bm25+rerank", "kind": "rerank",
                        "first_stage": runs["bm25"], "rerank_depth": 10, "reranker": "reverse"}, root)
    chosen = [runs["bm25"], runs["bm25s-mteb"], "flipped"]
    at = app_test("compare.py", root, {"release": "demo_v2603", "task": "t2c", "runs": chosen,
                                       "compare": chosen}, timeout=300).run()
    assert not at.exception, [e.value for e in at.exception]
    store = Store("demo_v2603", root)
    per_query = analyse_many(store, {r: read_hits(r, root) for r in chosen}).per_query("v2")
    hard = problem_difficulty(store, per_query, task="t2c")  # nDCG@10, the default
    shown = [m.value for m in at.markdown if m.value.startswith("Spearman's rho")]
    assert [s.split("**")[1] for s in shown] == [f"{rho:.2f}" for rho in hard.correlations["spearman"]]
    problems = next(d.value for d in at.dataframe if "worst_query" in d.value.columns)
    assert problems["problem_id"].tolist() == hard.problems["problem_id"].tolist()
    errors = rerank_errors_of("flipped", root).summary.set_index("task").loc["t2c"]
    stage = next(m.value for m in at.markdown if "broken" in m.value)
    assert f"**{int(errors.ceiling)} of {int(errors.with_positive)}**" in stage
    assert f"**{int(errors.broken)} broken**" in stage and f"**{int(errors.rescued)} rescued**" in stage
