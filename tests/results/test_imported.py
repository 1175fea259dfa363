"""Result JSONs in and out: MTEB trees, official runner outputs, TREC runs, exported runs, published figures."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import evaluate, summary
from coreb_core.evaluation.export import export_run
from coreb_core.evaluation.official import official_evaluate
from coreb_core.results.imported import all_rows, import_results
from coreb_core.runs.folders import read_hits
from tests.builders import REPO, run_cli

SHARED_MTEB = REPO.parent / "shared" / "mteb_results"


def _mteb_file(folder: Path, task: str, entries: dict[str, list[dict]], name: str, revision: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{task}.json").write_text(json.dumps({"dataset_revision": "abc", "task_name": task,
                                                      "mteb_version": "2.1.0", "scores": entries}))
    (folder / "model_meta.json").write_text(json.dumps({"name": name, "revision": revision, "n_parameters": 1}))


def _entry(subset: str, ndcg: float, **extra) -> dict:
    return {"ndcg_at_10": ndcg, "map_at_10": ndcg / 2, "accuracy": 0.25, "main_score": extra.pop("main", ndcg),
            "hf_subset": subset, "languages": ["eng-Latn"], **extra}


def test_mteb_tree_imports_every_split_and_subset_exactly(tmp_path, cache):
    tree = tmp_path / "results" / "deeper"
    _mteb_file(tree / "org__a" / "r1", "CorebT2CRetrieval",
               {"test": [_entry("default", 0.41), _entry("python", 0.52)], "dev": [_entry("default", 0.3)]}, "org/a", "r1")
    _mteb_file(tree / "org__a" / "r1", "CorebC2CReranking", {"test": [_entry("default", 0.7, main=0.6)]}, "org/a", "r1")
    _mteb_file(tree / "org__b" / "r9", "CorebC2TRetrieval", {"test": [_entry("default", 0.9)]}, "org/b", "r9")
    done = run_cli("import-results", str(tmp_path / "results"), env={"COREB_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    assert "imported 3 files" in done.stdout and "skipped 0 files" in done.stdout
    rows = json.loads(run_cli("results", "--json", "--source-kind", "mteb", env={"COREB_CACHE": str(cache)}).stdout)
    got = {(r["model"], r["task"], r["split"], r["subset"], r["metric"]): r for r in rows}
    assert got[("org/a", "CorebT2CRetrieval", "test", "python", "ndcg_at_10")]["value"] == 0.52
    assert got[("org/a", "CorebT2CRetrieval", "dev", "default", "map_at_10")]["value"] == 0.15
    assert got[("org/a", "CorebC2CReranking", "test", "default", "main_score")]["label"] == "MAP@10 (main score)"
    assert got[("org/b", "CorebC2TRetrieval", "test", "default", "accuracy")]["label"] == "Recall@1 (MTEB accuracy)"
    row = got[("org/b", "CorebC2TRetrieval", "test", "default", "ndcg_at_10")]
    assert row["revision"] == "r9" and row["task_short"] == "c2t" and row["dataset_revision"] == "abc"
    assert row["scheme"].startswith("MTEB qrels: positives only, no anchor exclusion")
    assert "label-0" in row["scheme"] and "1200/1010" in row["scheme"]
    assert len(rows) == 4 * 3 + 4 + 4  # ndcg, map, accuracy, main_score per entry


@pytest.mark.skipif(not SHARED_MTEB.exists(), reason="shared/mteb_results is not beside this checkout")
def test_real_mteb_results_import_in_one_command_with_exact_values(cache):
    done = run_cli("import-results", str(SHARED_MTEB), env={"COREB_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    rows = json.loads(run_cli("results", "--json", "--source-kind", "mteb", env={"COREB_CACHE": str(cache)}).stdout)
    got = {(r["file"], r["split"], r["subset"], r["metric"]): r["value"] for r in rows}
    files = sorted(SHARED_MTEB.rglob("Coreb*.json"))
    assert len({r["model"] for r in rows}) == len({f.parent.parent for f in files}) >= 21
    checked = 0
    for f in files:
        data = json.loads(f.read_text())
        for split, entries in data["scores"].items():
            for e in entries:
                for metric in ("ndcg_at_10", "map_at_10", "main_score"):
                    if metric in e:
                        assert got[(str(f), split, e.get("hf_subset", "default"), metric)] == e[metric]
                        checked += 1
    assert checked >= 21 * 6 * 3


@pytest.mark.skipif(not SHARED_MTEB.exists(), reason="shared/mteb_results is not beside this checkout")
def test_import_counts_every_file_it_reads(tmp_path, cache):
    """Issue 34: the page's import sat behind a bare "Importing…" for 155 s; now each file read is counted, once,
    up to every file the folder holds (the README and model_meta.json files included)."""
    tree = tmp_path / "tree"
    shutil.copytree(SHARED_MTEB, tree)
    (tree / "notes.txt").write_text("hello")  # skipped, but read: counted too
    seen: list[tuple[str, float]] = []
    report = import_results(tree, root=cache, progress=lambda message, fraction: seen.append((message, fraction)))
    total = sum(1 for f in tree.rglob("*") if f.is_file())
    assert report.imported == 132 and total == 156
    assert [m for m, _ in seen] == [f"{n:,} of {total:,} files read" for n in range(1, total + 1)]
    assert [f for _, f in seen] == sorted(f for _, f in seen) and seen[-1][1] == 1.0


def test_malformed_files_are_skipped_one_line_each(tmp_path, cache):
    root = tmp_path / "mixed"
    _mteb_file(root / "org__ok" / "r", "CorebT2CRetrieval", {"test": [_entry("default", 0.4)]}, "org/ok", "r")
    bad = root / "org__bad" / "r"
    bad.mkdir(parents=True)
    (bad / "CorebT2CRetrieval.json").write_text('{"scores": {"test": [')
    (bad / "CorebC2CRetrieval.json").write_text(json.dumps({"task_name": "CorebC2CRetrieval", "scores": [1, 2]}))
    (bad / "CorebC2TRetrieval.json").write_text('{"task_name": "CorebC2TRetrieval", "scores": {"test": '
                                                '[{"main_score": NaN, "hf_subset": "default"}]}}')
    (bad / "CorebT2CReranking.json").write_text(json.dumps({"task_name": "CorebT2CReranking", "scores": {
        "test": [_entry("default", 0.1), _entry("default", 0.2)]}}))
    copy = root / "copy" / "org__ok" / "r"
    copy.mkdir(parents=True)
    shutil.copy(root / "org__ok" / "r" / "CorebT2CRetrieval.json", copy)
    shutil.copy(root / "org__ok" / "r" / "model_meta.json", copy)
    (root / "runner").mkdir()
    (root / "runner" / "text2code.json").write_text(json.dumps({"metrics": {"NDCG": {"NDCG@10": float("inf")}}}))
    done = run_cli("import-results", str(root), env={"COREB_CACHE": str(cache)})
    assert done.returncode == 0 and "Traceback" not in done.stderr
    reasons = [l for l in done.stderr.splitlines() if l.startswith("skipped: ")]
    expect = {"org__bad/r/CorebT2CRetrieval.json": "not valid JSON",
              "org__bad/r/CorebC2CRetrieval.json": "wrong shape",
              "org__bad/r/CorebC2TRetrieval.json": "NaN, infinite or missing main_score",
              "org__bad/r/CorebT2CReranking.json": "duplicate entries",
              "copy/org__ok/r/CorebT2CRetrieval.json": "duplicate of",
              "runner/text2code.json": "NaN or infinite value"}
    for file, reason in expect.items():
        assert any(file in l and reason in l for l in reasons), (file, reasons)
    assert len(reasons) == len(expect)
    assert "imported 1 files" in done.stdout and "skipped 6 files" in done.stdout


@pytest.fixture(scope="module")
def bm25_run(mini_data):
    from coreb_core.retrieval.pipeline import run_retrieval

    return run_retrieval("bm25", "demo_v2603", root=mini_data).run_id


def _per_query(store: Store, hits) -> dict:
    """Per-query v2 metrics at k < 100. An exported file holds the stored top 100 and the judged documents
    below it, read back (as pytrec_eval reads it) at positions 101, 102, …, so cutoffs from 100 on differ
    (at 100 itself through the C2C anchor's drop, which moves position 101 up)."""
    frame = evaluate(store, hits).assign(query_id=lambda f: f["query_id"].astype(str)).set_index("query_id")
    return frame[[c for c in frame.columns if not c.endswith(("_at_100", "_at_1000"))]]


def test_trec_round_trip_and_pytrec_eval_agreement(bm25_run, mini_data, tmp_path):
    out = export_run(bm25_run, "trec", tmp_path / "run.trec", mini_data)
    report = import_results(out, release="demo_v2603", root=mini_data)
    assert len(report.runs) == 1 and not report.skipped
    with Store("demo_v2603", mini_data) as store:
        original = _per_query(store, read_hits(bm25_run, mini_data))
        back = _per_query(store, read_hits(report.runs[0], mini_data))
        assert np.allclose(back.loc[original.index].select_dtypes("number"), original.select_dtypes("number"))
        # the exported file, scored by the official procedure (pytrec_eval), gives our v2 numbers
        ours = summary(evaluate(store, read_hits(bm25_run, mini_data), anchor_exclusion=False))["tasks"]
        for task in ("t2c", "c2t", "c2c"):
            qrels: dict = {}
            for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels WHERE task = ?", [task]).fetchall():
                qrels.setdefault(q, {})[d] = r
            run: dict = {}
            for line in out.read_text().splitlines():
                q, _, d, _, s, _ = line.split()
                if q in qrels:
                    run.setdefault(q, {})[d] = float(s)
            official = official_evaluate(qrels, run, [1, 10, 100], round_to=None)
            assert ours[task]["ndcg_at_10"] == pytest.approx(official["NDCG@10"], abs=1e-9)
            assert ours[task]["map_at_100"] == pytest.approx(official["MAP@100"], abs=1e-9)


def test_official_predictions_round_trip(bm25_run, mini_data, tmp_path):
    folder = export_run(bm25_run, "coreb", tmp_path / "runner_out", mini_data)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{t}{s}.json" for t in ("text2code", "code2code", "code2text") for s in ("", "_predictions"))
    metrics = json.loads((folder / "text2code.json").read_text())["metrics"]
    assert set(metrics) == {"NDCG", "MAP", "Recall", "Precision"} and "P@10" in metrics["Precision"]
    report = import_results(folder, release="demo_v2603", model="bm25-again", root=mini_data)
    assert len(report.runs) == 3 and report.imported == 6 and not report.skipped
    with Store("demo_v2603", mini_data) as store:
        original = _per_query(store, read_hits(bm25_run, mini_data))
        for run_id in report.runs:
            back = _per_query(store, read_hits(run_id, mini_data))
            assert np.allclose(back.select_dtypes("number"), original.loc[back.index].select_dtypes("number"))
    stored = [r for r in all_rows(mini_data, include_published=False) if r["source_kind"] == "coreb-runner"]
    t2c = {r["metric"]: r["value"] for r in stored if r["task"] == "text2code"}
    assert t2c["ndcg_at_10"] == metrics["NDCG"]["NDCG@10"] and stored[0]["model"] == "bm25-again"


def test_bad_predictions_and_trec_files_are_skipped(mini_data, tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "text2code_predictions.json").write_text(json.dumps(
        {"q_t2c_search_any_0001": [{"corpus_id": "x", "score": 1.0, "rank": 1}, {"corpus_id": "x", "score": 0.5, "rank": 2}]}))
    (folder / "code2text_predictions.json").write_text('{"q": [{"corpus_id": "a", "score": NaN, "rank": 1}]}')
    (folder / "run.trec").write_text("q_t2c_search_any_0001 Q0 code_v202603_00001 1 inf tag\n")
    report = import_results(folder, release="demo_v2603", root=mini_data)
    assert not report.runs and len(report.skipped) == 3
    assert any("duplicate entry" in s for s in report.skipped)
    assert any("NaN or infinite score" in s for s in report.skipped)
    assert any("run.trec" in s and "must be finite" in s for s in report.skipped)


def test_exported_project_run_and_mteb_export_import_back(bm25_run, mini_data, tmp_path):
    from coreb_core.paths import runs_dir

    shutil.copytree(runs_dir(mini_data) / bm25_run, tmp_path / "shared-run")
    other = tmp_path / "other-cache"
    shutil.copytree(mini_data / "coreb", other / "coreb", symlinks=True)
    report = import_results(tmp_path / "shared-run", root=other)
    assert report.runs == [bm25_run] and (runs_dir(other) / bm25_run / "hits.parquet").exists()
    folder = export_run(bm25_run, "mteb", tmp_path / "mteb", mini_data)
    back = import_results(folder, root=other)
    assert back.imported == 3 and not back.skipped
    rows = {(r["task"], r["metric"]): r["value"] for r in all_rows(other, include_published=False)}
    with Store("demo_v2603", mini_data) as store:
        ours = summary(evaluate(store, read_hits(bm25_run, mini_data)))["tasks"]
    assert rows[("CorebT2CRetrieval", "main_score")] == pytest.approx(ours["t2c"]["ndcg_at_10"])
    assert rows[("CorebC2TRetrieval", "recall_at_10")] == pytest.approx(ours["c2t"]["recall_at_10"])


def test_published_figures_are_bundled_and_labelled():
    rows = all_rows(root=Path("/nonexistent"), include_published=True)
    c2t = {r["source"]: r["value"] for r in rows if r["model"] == "C2LLM-7B" and r["task"] == "c2t"
           and r["metric"] == "ndcg_at_10" and "v202603" in r["source"]}
    assert c2t == {"published:paper_table3_v202603_retrieval": 0.795,
                   "published:page_b312b5b_v202603_retrieval": 0.766, "published:readme_v202603_ndcg10": 0.766}
    t4 = {r["subset"]: r["value"] for r in rows if r["source"] == "published:paper_table4_v202603_t2c_subtask_ndcg10"
          and r["model"] == "C2LLM-7B"}
    assert t4 == {"canonical": 0.582, "full": 0.578, "search": 0.004}
    t15 = [r for r in rows if r["source"].endswith("table15_v202603_c2c_by_anchor_language_ndcg10")]
    assert {r["subset"] for r in t15} == {"python", "java", "cpp", "go"}
    deltas = {r["task"]: r["value"] for r in rows if r["model"] == "CoREB-Reranker" and r["metric"] == "ndcg_at_10_delta_pct"}
    assert deltas == {"t2c": 1.1, "c2t": 0.8, "c2c": 5.1}
    params = {r["model"]: r["value"] for r in rows if r["metric"] == "params_b"}
    assert params["C2LLM-7B"] == 7.0 and all(r["scheme"].startswith("v2") for r in rows)


def test_scores_that_tie_in_float32_rank_as_pytrec_eval_ranks_them():
    """trec_eval keeps scores as 32-bit floats: two scores that differ only beyond float32 precision tie and
    go by doc id descending. A random float64 run once put a positive one place off (nDCG@100 0.28204 here,
    0.27670 in pytrec_eval: q_t2c_search_ruby_0294, seed 115 of tests/evaluation/test_v1_rules.py)."""
    import pytrec_eval

    from coreb_core.runs.hits import hits_from_lists, hits_from_scores

    a, b, c = 0.9829635217396717, 0.9829634865804816, 0.5  # a > b in float64, equal in float32
    lists = {"q1": [("d1", a), ("d2", b), ("d0", c)]}
    ranked = hits_from_lists({"q1": "t2c"}, lists, "example")
    assert ranked["doc_id"].astype(str).tolist() == ["d2", "d1", "d0"]  # the tie goes to the larger id
    dense = hits_from_scores("t2c", ["q1"], ["d1", "d2", "d0"], np.array([[a, b, c]]), top_k=3)
    assert dense["doc_id"].astype(str).tolist() == ["d2", "d1", "d0"]
    assert dense["score"].tolist() == [b, a, c]  # the stored scores keep their full value
    # The reference: with d1 the only relevant document, pytrec_eval puts it second.
    got = pytrec_eval.RelevanceEvaluator({"q1": {"d1": 1, "d2": 0}}, {"P.1", "recip_rank"}).evaluate(
        {"q1": {d: s for d, s in lists["q1"]}})["q1"]
    assert got["P_1"] == 0.0 and got["recip_rank"] == 0.5
