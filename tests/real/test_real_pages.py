"""Every page on the real release_v2603 with its BM25 and bm25s-mteb runs (AppTest): no exception, no
error box, and the deciding numbers equal the library's on the same runs."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import app_test
from ui.navigation import PAGE_SPECS

PAGES = [Path(p.script).name for p in PAGE_SPECS]


def _params(runs: dict[str, str], **extra) -> dict:
    return {"release": "release_v2603", "runs": [runs["bm25"], runs["bm25s-mteb"]], **extra}


@pytest.mark.parametrize("page", PAGES)
def test_every_page_draws_on_the_real_release(real_cache, real_runs, page):
    at = app_test(page, real_cache, _params(real_runs), timeout=300).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def test_overview_puts_bm25_beside_table_3_and_the_mteb_rerun_beside_mteb(real_cache, real_runs):
    at = app_test("overview.py", real_cache, _params(real_runs), timeout=300).run()
    board = next(d.value for d in at.dataframe if "overall_query_weighted" in d.value.columns)
    bm25 = board[board["run"] == real_runs["bm25"]].iloc[0]
    assert (bm25["t2c"], bm25["c2c"], bm25["c2t"], bm25["overall_query_weighted"]) == (20.8, 35.5, 34.0, 28.5)
    assert bm25["source"] == "this app on release_v2603 = v202603" and bm25["release"] == "v202603"
    assert "paper Table 3 (release v202603)" in set(board["source"])
    parity = next(d.value for d in at.dataframe if "mteb_model" in d.value.columns)
    assert len(parity) == 9 and (parity["difference"].abs() < 1e-9).all()
    assert sorted(parity.loc[parity["metric"] == "ndcg_at_10", "ours"].round(3)) == [15.023, 21.952, 26.86]
    assert any("like with like" in c.value for c in at.caption)


def test_deflation_shows_the_seeds_ten_to_fifteen_points_on_bm25(real_cache, real_runs):
    from coreb_core.analysis.deflation import deflation_table
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.schemes import V1, V2
    from coreb_core.runs.folders import read_hits

    with Store("release_v2603", real_cache) as store:
        tables = analyse_many(store, {"bm25": read_hits(real_runs["bm25"], real_cache)}, (V2, V1), traps=True)
        table = deflation_table(store, tables, "task").set_index("task")
    # v1 rules minus v2, per task: C2C none by rule, C2T the noise texts, T2C the failing solutions
    assert round(table.loc["c2c", "drop"], 3) == 0.0
    assert round(table.loc["c2t", "drop"], 3) == 0.237 and round(table.loc["t2c", "drop"], 3) == 0.042
    weighted = sum(table.loc[t, "drop"] * table.loc[t, "queries"] for t in table.index) / table["queries"].sum()
    assert round(weighted, 3) == 0.127  # query-weighted v1 0.412 vs v2 0.285: the seed's "10-15 points"
    # the query-weighted overall, one click away (the page's default is the mean of task means, issue 48)
    at = app_test("deflation.py", real_cache, {**_params(real_runs), "runs": [real_runs["bm25"]], "task": "c2t",
                                               "average": "queries"}, timeout=300).run()
    assert not at.exception
    shown = " ".join(m.value for m in at.markdown)
    assert "v1 rules score 57.7, v2 scores 34.0: v1 overstates by **23.7 points** (1,200 queries)" in shown, shown[:800]
    # the README's tour: "BM25: 12.7 points overall", now on the page, before the per-task lines
    assert shown.index("v1 rules score 41.2, v2 scores 28.5: v1 overstates by **12.7 points** overall (2,601 "
                       "queries, each weighing the same)") < shown.index("· T2C**"), shown[:800]


def test_traps_on_real_data_name_their_kinds(real_cache, real_runs):
    from coreb_core.analysis.traps.wins import trap_wins
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import read_hits

    with Store("release_v2603", real_cache) as store:
        wins = trap_wins(store, {"bm25": read_hits(real_runs["bm25"], real_cache)})
        failing_positives = store.sql("SELECT count(*) FROM judgments WHERE task = 't2c' AND relevance = 2 AND "
                                      "subtask LIKE 't2c_search%' AND NOT passed").fetchone()[0]
        no_trap = store.sql("SELECT count(*) FROM queries q WHERE task = 't2c' AND NOT EXISTS (SELECT 1 FROM qrels r "
                            "WHERE r.query_id = q.query_id AND r.relevance = 1)").fetchone()[0]
    kinds = wins.traps.groupby(["task", "kind"]).size().to_dict()
    assert kinds[("c2t", "noise_description")] == 3600  # every C2T trap is a noise description
    assert kinds[("t2c", "failing_solution")] + kinds[("t2c", "wrong_language")] == 3136  # every T2C trap
    search = wins.traps[wins.traps["subtask"].str.startswith("t2c_search")]
    assert set(search["kind"]) == {"failing_solution", "wrong_language"}  # passing search traps: wrong language
    assert (failing_positives, no_trap) == (176, 57)  # search positives that fail; T2C queries with no trap
    at = app_test("traps.py", real_cache, _params(real_runs, task="t2c"), timeout=300).run()
    assert not at.exception and not at.error


def test_v2602_model_names_reach_the_pages(real_cache):
    from coreb_core.data.store import Store

    with Store("release_v2602", real_cache) as store:
        models = {m for (m,) in store.sql("SELECT DISTINCT model FROM documents WHERE corpus = 'code'").fetchall()}
    assert models == {"claude-4-sonnet", "gemini-3-flash"}
    at = app_test("data.py", real_cache, {"release": "release_v2602"}, timeout=300).run()
    assert not at.exception and not at.error


def test_overview_warns_about_a_run_file_that_leaves_queries_out(real_cache, real_runs, tmp_path):
    import shutil

    from coreb_core.results.imported import import_results
    from coreb_core.runs.folders import read_hits

    cache = tmp_path / "cache"
    shutil.copytree(real_cache, cache, symlinks=True)
    hits = read_hits(real_runs["bm25"], real_cache)
    hits = hits[(hits["task"] == "t2c") & hits["doc_id"].notna() & (hits["rank"] <= 10)]
    hits = hits[hits["query_id"].astype(str).isin(sorted(hits["query_id"].astype(str).unique())[:500])]
    path = tmp_path / "in" / "part.trec"
    path.parent.mkdir()
    path.write_text("".join(f"{q} Q0 {d} {r} {s!r} x\n" for q, d, r, s in
                            zip(hits["query_id"], hits["doc_id"], hits["rank"], hits["score"])))
    [part] = import_results(path, "release_v2603", "t2c", "part", cache).runs
    at = app_test("overview.py", cache, {"release": "release_v2603", "runs": [part, real_runs["bm25"]]},
                  timeout=300).run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any("t2c: the run covers 500 of the 1,123 judged queries" in w and w.startswith("part") for w in warnings)
    assert len(warnings) == 1  # the full BM25 run covers every query


def test_imported_mteb_results_stay_out_of_the_v2_columns(real_cache, real_runs, tmp_path):
    """was: after importing shared/mteb_results, Qwen3-0.6B's C2T showed 89.3 (MTEB qrels) beside the paper's
    61.7 in the same column, and sorting by C2T put every MTEB row on top."""
    import shutil

    from coreb_core.results.imported import import_results
    from tests.builders import REPO

    cache = tmp_path / "cache"
    shutil.copytree(real_cache, cache, symlinks=True)
    import_results(REPO.parent / "shared" / "mteb_results", root=cache)
    at = app_test("overview.py", cache, _params(real_runs), timeout=300).run()
    assert not at.exception
    board = next(d.value for d in at.dataframe if "overall_query_weighted" in d.value.columns)
    assert set(board["kind"]) == {"our run", "published"}  # no MTEB row among the v2 figures
    mteb = next(d.value for d in at.dataframe if "published_name" in d.value.columns)
    qwen = mteb[mteb["model"] == "Qwen/Qwen3-Embedding-0.6B"].iloc[0]
    assert qwen["published_name"] == "Qwen3-Emb-0.6B" and qwen["c2t"] > 80  # MTEB's scale, its own column
    assert len(mteb) == 22 and not any("/shared/" in str(s) for s in list(board["source"]) + list(mteb["source"]))


def test_inspector_names_the_kept_anchor_as_the_querys_own_code(real_cache, real_runs):
    """was: with the anchor kept, the inspector showed the query's own code at rank 1 as merely "unjudged"."""
    from coreb_core.data.store import Store

    with Store("release_v2603", real_cache) as store:
        qid, anchor = store.sql("SELECT query_id, anchor_code_id FROM queries WHERE task = 'c2c' "
                                "ORDER BY query_id LIMIT 1").fetchone()
    params = {"release": "release_v2603", "task": "c2c", "query": qid, "runs": [real_runs["bm25"]]}
    kept = app_test("inspector.py", real_cache, {**params, "anchor": "0"}, timeout=300).run()
    assert not kept.exception
    listing = next(d.value for d in kept.dataframe if "why" in d.value.columns and "rank" in d.value.columns)
    first = listing.iloc[0]
    assert (first["doc_id"], first["grade"]) == (anchor, "⚓ anchor") and "own code" in first["why"]
    excluded = app_test("inspector.py", real_cache, {**params, "anchor": "1"}, timeout=300).run()
    listing = next(d.value for d in excluded.dataframe if "why" in d.value.columns and "rank" in d.value.columns)
    assert anchor not in set(listing["doc_id"]) and "⚓ anchor" not in set(listing["grade"])


def test_compare_shows_the_headlines_pair_first_oriented_as_the_headline(real_cache, real_runs):
    """was: the headline said "bm25 +5.8" while the per-query section below defaulted to "bm25s-mteb − bm25"
    (the runs' order in the sidebar) with a legend reading only "a"."""
    params = {"release": "release_v2603", "task": "t2c", "runs": [real_runs["bm25s-mteb"], real_runs["bm25"]]}
    at = app_test("compare.py", real_cache, params, timeout=300).run()
    assert not at.exception
    headline = at.markdown[0].value
    assert headline.startswith("bm25 · release\\_v2603 beats bm25s-mteb · release\\_v2603 on T2C nDCG@10 by 5.7")
    assert headline.replace("\\", "") == (  # the sentence docs/app.md quotes
        "bm25 · release_v2603 beats bm25s-mteb · release_v2603 on T2C nDCG@10 by 5.7 points (95% CI 4.3–7.2), "
        "significant after Holm correction (p < 0.001), 345 wins / 595 ties / 183 losses over 1,123 shared queries.")
    pair = at.selectbox(key="compare_pair").value
    assert pair == (real_runs["bm25"], real_runs["bm25s-mteb"])  # better − other, as the headline
    deltas = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
    assert round(deltas["delta"].mean(), 1) == 5.7  # shown in points (x100)
