"""The runner export (``export --format coreb``) against the official evaluator: what is thrown at it is a run
whose stored lists are shallow (its top k, then its judged documents at their true ranks far below, as
every retrieval run stores them), a query that retrieved nothing, and a C2C run whose anchor sits in its
shallow top. The folder must agree with itself: the official evaluator (``coreb_core.evaluation.official``,
pytrec_eval, ranking by score) scoring the exported predictions gets the JSON's number at every cutoff the
JSON states, and the cutoffs it cannot state are named. The cache stays byte-identical."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from coreb_core.evaluation.official import ANCHOR_K, OFFICIAL_K, official_c2c_without_anchor, official_evaluate
from coreb_core.runs.folders import write_run
from coreb_core.runs.hits import hits_from_lists, hits_from_scores
from tests.builders import Q1, Q2, QC, code
from tests.hostile.conftest import unchanged

CODES = [code(n) for n in range(1, 7)]


def _qrels(cache: Path, task: str) -> dict[str, dict[str, int]]:
    from coreb_core.data.store import Store

    out: dict[str, dict[str, int]] = {}
    with Store("tiny", cache) as store:
        for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels WHERE task = ?", [task]).fetchall():
            out.setdefault(q, {})[d] = r
    return out


def _export(cache: Path, hits, out: Path, capsys) -> Path:
    """Store ``hits`` as a run of the tiny release and export it with the CLI, in process."""
    from coreb_core.cli import main

    write_run(hits, {"run_id": "shallow", "release": "tiny", "model": "test", "created": "2026-01-01T00:00:00",
                     "kind": "imported"}, cache)
    with unchanged(cache):
        assert main(["export", "--run", "shallow", "--format", "coreb", "--out", str(out)]) == 0
    assert "exported shallow as coreb" in capsys.readouterr().out
    return out


def _stated(written: dict) -> dict[str, float]:
    return {key: value for family in written["metrics"].values() for key, value in family.items()}


def _official(cache: Path, task: str, predictions: dict) -> dict[str, float]:
    results = {q: {h["corpus_id"]: h["score"] for h in hits} for q, hits in predictions.items()}
    return official_evaluate(_qrels(cache, task), results, OFFICIAL_K)


def test_a_shallow_t2c_run_states_only_the_cutoffs_its_predictions_carry(tiny_cache, tmp_path, capsys):
    """was: text2code.json stated every official cutoff from the run's true ranks (nDCG@3 0.5: Q1 0, Q2 1)
    while the predictions beside it, scored by the official evaluator, gave nDCG@3 0.617: Q1's judged documents,
    stored at true ranks 4-6 below its top 2, sat at places 3-5 of the file."""
    # Q1's positives code1, code2, code4 rank 5, 4, 6 (trap code3 at 2); stored: the top 2 and the judged ones.
    scores = np.array([[0.5, 0.6, 0.8, 0.4, 0.9, 0.7], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]])
    hits = hits_from_scores("t2c", [Q1, Q2], CODES, scores, top_k=2,
                            keep={Q1: [code(1), code(2), code(3), code(4)], Q2: [code(1), code(2), code(3)]})
    folder = _export(tiny_cache, hits, tmp_path / "out", capsys)
    written = json.loads((folder / "text2code.json").read_text())
    predictions = json.loads((folder / "text2code_predictions.json").read_text())
    assert [h["rank"] for h in predictions[Q1]] == [1, 2, 4, 5, 6]  # the run's true ranks, a gap after 2
    official = _official(tiny_cache, "t2c", predictions)
    stated = _stated(written)
    for key, value in stated.items():
        assert value == pytest.approx(official[key], abs=1e-5), key
    assert sorted(stated) == ["MAP@1", "NDCG@1", "P@1", "Recall@1"]
    assert stated["NDCG@1"] == 0.5  # Q1 0 (code5 is unjudged), Q2 1 (code1 at rank 1)
    assert written["cutoffs_left_out"] == [3, 5, 10, 100, 1000]
    assert "down to rank 2 only" in written["cutoffs_left_out_why"]
    assert official["NDCG@3"] == pytest.approx(0.61732)  # what the JSON's 0.5 (the run's truth) contradicted


def test_a_query_that_retrieved_nothing_is_written_and_counted(tiny_cache, tmp_path, capsys):
    """was: the query with an empty list was missing from text2code_predictions.json, so the official evaluator
    averaged over Q1 alone (nDCG 1.0 at every cutoff) where text2code.json said 0.5."""
    hits = hits_from_lists({Q1: "t2c", Q2: "t2c"}, {Q1: [(code(1), 0.9), (code(2), 0.8), (code(4), 0.7)], Q2: []},
                           "test")
    folder = _export(tiny_cache, hits, tmp_path / "out", capsys)
    written = json.loads((folder / "text2code.json").read_text())
    predictions = json.loads((folder / "text2code_predictions.json").read_text())
    official = _official(tiny_cache, "t2c", predictions)
    stated = _stated(written)
    for key, value in stated.items():
        assert value == pytest.approx(official[key], abs=1e-5), key
    assert predictions[Q2] == []
    assert len(stated) == 4 * len(OFFICIAL_K) and "cutoffs_left_out" not in written  # a list without gap: all
    assert stated["NDCG@10"] == 0.5


def test_a_shallow_c2c_run_states_only_the_anchor_cutoffs_it_carries(tiny_cache, tmp_path, capsys):
    """was: code2code.json stated the anchor-excluded recompute at k 1, 5, 10, 20 (ndcg_at_5 0.54 of the true
    list) while the runner's recompute on the predictions, where the judged code2, code3, code4 follow the top 2
    at true ranks 4-6, gave ndcg_at_5 0.65."""
    # QC: anchor code1 at rank 1, positives code2 (rank 4) and code4 (rank 6), trap code3 (rank 5); stored: the
    # top 2 and the judged ones below a gap.
    scores = np.array([[0.99, 0.3, 0.2, 0.1, 0.9, 0.8]])
    hits = hits_from_scores("c2c", [QC], CODES, scores, top_k=2, keep={QC: [code(1), code(2), code(3), code(4)]})
    folder = _export(tiny_cache, hits, tmp_path / "out", capsys)
    written = json.loads((folder / "code2code.json").read_text())
    predictions = json.loads((folder / "code2code_predictions.json").read_text())
    assert [h["rank"] for h in predictions[QC]] == [1, 2, 4, 5, 6]
    ranked = {q: [h["corpus_id"] for h in sorted(hits, key=lambda h: h["rank"])] for q, hits in predictions.items()}
    recompute = official_c2c_without_anchor(ranked, _qrels(tiny_cache, "c2c"), {QC: code(1)}, ANCHOR_K)
    stated = {key: written[key] for key in written if key.startswith(("ndcg_at_", "recall_at_", "mrr_at_"))}
    for key, value in stated.items():
        assert value == pytest.approx(recompute[key], abs=1e-9), key
    assert sorted(stated) == ["mrr_at_1", "ndcg_at_1", "recall_at_1"]
    official = _official(tiny_cache, "c2c", predictions)
    for key, value in _stated(written).items():
        assert value == pytest.approx(official[key], abs=1e-5), key
    assert sorted(_stated(written)) == ["MAP@1", "NDCG@1", "P@1", "Recall@1"]
    assert written["anchor_cutoffs_left_out"] == [5, 10, 20]
    assert written["cutoffs_left_out"] == [3, 5, 10, 100, 1000]
    assert recompute["ndcg_at_5"] == pytest.approx(0.651, abs=1e-3)  # what the JSON's 0.54 contradicted


def test_the_real_bm25_export_agrees_with_itself_at_every_cutoff_it_states(real_cache, tmp_path):
    """was: the real BM25 run's text2code.json said Recall@1000 0.84015 (nDCG@1000 0.30682) while the official
    evaluator scored the predictions beside it 1.0 (0.34865): each query's top 100 and, below it, its judged
    documents at their true ranks, read by score as ranks 101, 102, …"""
    from coreb_core.data.store import Store
    from coreb_core.evaluation.export import export_run
    from coreb_core.runs.folders import list_runs

    [run] = [m.run_id for m in list_runs("release_v2603", real_cache) if m.model == "bm25"]
    folder = export_run(run, "coreb", tmp_path / "out", real_cache)
    with Store("release_v2603", real_cache) as store:
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE task = 'c2c'").fetchall())
        qrels: dict[str, dict[str, dict[str, int]]] = {}
        for t, q, d, r in store.sql("SELECT task, query_id, doc_id, relevance FROM qrels").fetchall():
            qrels.setdefault(t, {}).setdefault(q, {})[d] = r
    for task, long in (("t2c", "text2code"), ("c2c", "code2code"), ("c2t", "code2text")):
        written = json.loads((folder / f"{long}.json").read_text())
        predictions = json.loads((folder / f"{long}_predictions.json").read_text())
        results = {q: {h["corpus_id"]: h["score"] for h in hits} for q, hits in predictions.items()}
        official = official_evaluate(qrels[task], results, OFFICIAL_K)
        for key, value in _stated(written).items():
            assert value == pytest.approx(official[key], abs=1e-5), (task, key)
        assert written["cutoffs_left_out"] == [1000], task
        assert len(_stated(written)) == 4 * 5
        # retrieval runs store the top 100 (C2T deeper: down to its 100th text that is not a noise text)
        depth = int(re.search(r"down to rank (\d+) only", written["cutoffs_left_out_why"]).group(1))
        assert depth == 100 if task != "c2t" else 100 < depth < 1000, (task, depth)
    written = json.loads((folder / "code2code.json").read_text())
    predictions = json.loads((folder / "code2code_predictions.json").read_text())
    ranked = {q: [h["corpus_id"] for h in sorted(hits, key=lambda h: h["rank"])] for q, hits in predictions.items()}
    recompute = official_c2c_without_anchor(ranked, qrels["c2c"], anchors, ANCHOR_K)
    assert len(recompute) == 12 and "anchor_cutoffs_left_out" not in written
    for key, value in recompute.items():
        assert written[key] == pytest.approx(value, abs=1e-9), key
