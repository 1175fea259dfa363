"""Scoring exactly as the official evaluator on the real release: the exported runner JSON (anchor kept in
``metrics``, the runner's anchor-excluded recompute beside it), TREC files with rank gaps, own-id hits."""
from __future__ import annotations

import json

import pytest

from coreb_core.data.store import Store
from coreb_core.evaluation.official import ANCHOR_K, official_c2c_without_anchor, official_evaluate
from coreb_core.runs.folders import list_runs, read_hits


def _bm25(root):
    [run] = [m.run_id for m in list_runs("release_v2603", root) if m.model == "bm25"]
    return run


def _task_data(store: Store, task: str):
    qrels: dict = {}
    for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels WHERE task = ?", [task]).fetchall():
        qrels.setdefault(q, {})[d] = r
    return qrels


def test_export_coreb_c2c_keeps_the_anchor_in_metrics_and_drops_it_in_the_recompute_keys(real_cache, tmp_path):
    from coreb_core.evaluation.export import export_run

    run = _bm25(real_cache)
    folder = export_run(run, "coreb", tmp_path / "out", real_cache)
    written = json.loads((folder / "code2code.json").read_text())
    predictions = json.loads((folder / "code2code_predictions.json").read_text())
    with Store("release_v2603", real_cache) as store:
        qrels = _task_data(store, "c2c")
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE task = 'c2c'").fetchall())
    results = {q: {h["corpus_id"]: h["score"] for h in hits} for q, hits in predictions.items()}
    kept = official_evaluate(qrels, results, [1, 10])  # the runner's EvaluateRetrieval.evaluate: anchor kept
    assert written["metrics"]["NDCG"]["NDCG@10"] == kept["NDCG@10"]
    assert written["metrics"]["NDCG"]["NDCG@1"] == kept["NDCG@1"]
    ranked = {q: [h["corpus_id"] for h in sorted(hits, key=lambda h: h["rank"])] for q, hits in predictions.items()}
    recomputed = official_c2c_without_anchor(ranked, qrels, anchors, ANCHOR_K)
    for key, value in recomputed.items():
        assert written[key] == pytest.approx(value, abs=1e-9), key
    assert written["ndcg_at_1"] > written["metrics"]["NDCG"]["NDCG@1"]  # the anchor wastes rank 1 when kept
    assert "ndcg_at_10" not in json.loads((folder / "text2code.json").read_text())


@pytest.mark.parametrize("shape", ["gaps", "from_7", "reversed"])
def test_a_trec_file_scores_as_pytrec_eval_whatever_its_rank_column(real_cache, tmp_path, shape):
    """was: ranks that fit the scores' order were kept, so a file with gaps differed from pytrec_eval by up
    to 0.11 nDCG@10."""
    from coreb_core.evaluation.evaluate import evaluate, summary
    from coreb_core.runs.trec import read_trec_run

    hits = read_hits(_bm25(real_cache), real_cache)
    hits = hits[(hits["task"] == "t2c") & hits["doc_id"].notna()].sort_values(["query_id", "rank"])
    lines, results = [], {}
    for q, group in hits.groupby("query_id", observed=True):
        docs = list(zip(group["doc_id"].astype(str), group["score"]))[:30]
        ranks = {"gaps": [1 + 3 * i for i in range(len(docs))], "from_7": [7 + i for i in range(len(docs))],
                 "reversed": list(range(len(docs), 0, -1))}[shape]
        lines += [f"{q} Q0 {d} {r} {s!r} x" for (d, s), r in zip(docs, ranks)]
        results[str(q)] = {d: float(s) for d, s in docs}
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n")
    with Store("release_v2603", real_cache) as store:
        task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
        ours = summary(evaluate(store, read_trec_run(path, task_of)))["tasks"]["t2c"]
        qrels = _task_data(store, "t2c")
    official = official_evaluate({q: qrels[q] for q in results}, results, [10, 20], round_to=None)
    assert ours["ndcg_at_10"] == pytest.approx(official["NDCG@10"], abs=1e-9)
    assert ours["map_at_20"] == pytest.approx(official["MAP@20"], abs=1e-9)


def test_a_hit_on_its_own_query_id_is_dropped_even_when_no_document_has_that_id(real_cache):
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.runs.hits import hits_from_lists

    with Store("release_v2603", real_cache) as store:
        qrels = _task_data(store, "t2c")
        q = sorted(qrels)[0]
        positive = next(d for d, r in qrels[q].items() if r == 2)
        lists = {q: [(q, 9.0), (positive, 1.0), ("code_v202601_99999", 0.5)]}
        ours = evaluate(store, hits_from_lists({q: "t2c"}, lists, "test")).iloc[0]
        official = official_evaluate({q: qrels[q]}, {q: {d: s for d, s in lists[q]}}, [1], round_to=None)
    assert ours["ndcg_at_1"] == official["NDCG@1"] == 1.0  # the positive is first once its own id leaves


def test_a_run_file_covering_fewer_queries_is_warned_with_both_counts(real_cache, tmp_path):
    from tests.builders import run_cli

    hits = read_hits(_bm25(real_cache), real_cache)
    hits = hits[(hits["task"] == "t2c") & hits["doc_id"].notna() & (hits["rank"] <= 10)]
    kept = sorted(hits["query_id"].astype(str).unique())[:500]
    hits = hits[hits["query_id"].astype(str).isin(kept)]
    path = tmp_path / "part.trec"
    path.write_text("".join(f"{q} Q0 {d} {r} {s!r} x\n" for q, d, r, s in
                            zip(hits["query_id"], hits["doc_id"], hits["rank"], hits["score"])))
    done = run_cli("eval", "--release", "release_v2603", "--run-file", str(path), "--json",
                   env={"COREB_CACHE": str(real_cache)})
    assert done.returncode == 0, done.stderr
    assert "warning: t2c: the run covers 500 of the 1,123 judged queries" in done.stderr
    report = json.loads(done.stdout)
    assert report["coverage"]["t2c"]["missing"] == 623 and report["tasks"]["t2c"]["queries"] == 500


def test_c2t_says_what_it_averages_over_under_v2_and_mteb(real_cache):
    from coreb_core.evaluation.evaluate import coverage, evaluate
    from coreb_core.evaluation.schemes import MTEB, V2

    with Store("release_v2603", real_cache) as store:
        hits = read_hits(_bm25(real_cache), real_cache)
        v2 = coverage(store, evaluate(store, hits, V2), V2)["c2t"]
        mteb = coverage(store, evaluate(store, hits, MTEB, anchor_exclusion=False), MTEB)["c2t"]
    assert (v2.judged, v2.scored, v2.without_relevant) == (1200, 1200, 190)  # the official way: 190 score 0
    assert (mteb.judged, mteb.scored, mteb.without_relevant) == (1010, 1010, 0)
