"""``import-results`` and the Run retrieval page's result upload: files that would store nothing (an MTEB file
with no scores, a runner ``<task>.json`` with no metric, an empty predictions file, a TREC run with no line of
the chosen task), metrics that are strings or lie outside [0, 1], JSON objects with a key given twice, TREC
scores that only Python's ``float()`` reads (Arabic-Indic digits, ``1_0``), and errors that named a file twice
or by the server's temporary folder, and uploads whose stored provenance (source, file, model) named that folder. Each is refused with one line naming the file (and row and field where
there is one), exit status 2 when nothing is imported, and the cache stays byte-identical; in a batch, the
good files import and the bad one is counted as skipped, never as imported.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from coreb_core.present.format import plain
from coreb_core.results.imported import stored_rows
from coreb_core.results.uploads import import_uploaded_dataset, import_uploaded_results
from tests import dump
from tests.builders import Q1, app_test
from tests.hostile.conftest import refuses, shows_error, unchanged

ENTRY = {"hf_subset": "default", "main_score": 0.41, "ndcg_at_10": 0.41}


def _mteb(tmp_path: Path, scores: object, task: str = "CorebT2CRetrieval") -> Path:
    folder = tmp_path / "results" / "org__model" / "rev1"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{task}.json"
    path.write_text(json.dumps({"task_name": task, "scores": scores}))
    return path


def _runner(tmp_path: Path, metrics: object, name: str = "text2code.json") -> Path:
    path = tmp_path / "runner" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"metrics": metrics}))
    return path


# ---------------------------------------------------------------- files that store nothing

@pytest.mark.parametrize("scores", [{}, {"test": []}], ids=["no-split", "empty-split"])
def test_mteb_file_without_scores(tmp_path, tiny_cache, capsys, scores):
    """was: "imported 1 files (0 numbers, 0 runs); skipped 0 files", exit status 0."""
    path = _mteb(tmp_path, scores)
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "no scores")


def test_runner_file_without_metrics(tmp_path, tiny_cache, capsys):
    """was: "imported 1 files (0 numbers, 0 runs); skipped 0 files", exit status 0."""
    path = _runner(tmp_path, {})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "no metrics")


def test_runner_file_with_only_unknown_metric_names(tmp_path, tiny_cache, capsys):
    """was: "imported 1 files (0 numbers, 0 runs)": names the runner never writes were passed over in silence."""
    path = _runner(tmp_path, {"NDCG": {"ndcg10": 0.5}})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "no metrics", "NDCG@k")


def test_empty_predictions_file(tmp_path, tiny_cache, capsys):
    """was: refused naming a temporary ``runs/.tmp-…/hits.parquet`` (field 'task': is null)."""
    path = tmp_path / "runner" / "text2code_predictions.json"
    path.parent.mkdir()
    path.write_text("{}")
    with unchanged(tiny_cache):
        line = refuses(["import-results", str(path), "--release", "tiny"], capsys, str(path), "no ranked lists")
    assert "hits.parquet" not in line and ".tmp-" not in line


def test_trec_run_with_no_line_of_the_task(tmp_path, tiny_cache, capsys):
    """was: a run of no hits stored and reported as "imported 1 files (0 numbers, 1 runs)", exit status 0."""
    path = tmp_path / "run.trec"
    path.write_text(f"{Q1} Q0 code_v202601_00001 1 2.0 x\n")
    with unchanged(tiny_cache):
        line = refuses(["import-results", str(path), "--release", "tiny", "--task", "c2c"], capsys,
                       f"{path}: no line names a c2c query of tiny")
    assert line.count(str(path)) == 1


def test_batch_with_a_file_that_stores_nothing(tmp_path, tiny_cache, capsys):
    """was: "imported 2 files (2 numbers, 0 runs); skipped 0 files": the empty runner file counted as imported."""
    from coreb_core.cli import main

    good = _mteb(tmp_path / "batch", {"test": [ENTRY]})
    empty = _runner(tmp_path / "batch", {})
    assert main(["import-results", str(tmp_path / "batch")]) == 0
    out, err = capsys.readouterr()
    assert out.strip().splitlines()[-1] == "imported 1 files (2 numbers, 0 runs); skipped 1 files"
    assert err.strip().splitlines() == [f"skipped: {empty}: no metrics: expected NDCG@k, MAP@k, Recall@k or P@k "
                                        "numbers under 'metrics'"]
    assert set(stored_rows(tiny_cache)["file"]) == {str(good)}


# ---------------------------------------------------------------- metric values

def test_mteb_metric_given_as_a_string(tmp_path, tiny_cache, capsys):
    """was: imported, the string "0.9" stored as the number 0.9 (while the runner's strings were dropped)."""
    path = _mteb(tmp_path, {"test": [{**ENTRY, "ndcg_at_10": "0.9"}]})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "'scores.test[0].ndcg_at_10'",
                "must be a number, not string")


def test_runner_metrics_given_as_strings(tmp_path, tiny_cache, capsys):
    """was: "imported 1 files (0 numbers, 0 runs); skipped 0 files", exit status 0."""
    path = _runner(tmp_path, {"NDCG": {"NDCG@10": "0.5"}, "MAP": {"MAP@10": "0.4"}})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "'metrics.NDCG.NDCG@10'",
                "must be a number, not string")


def test_mteb_metric_above_one(tmp_path, tiny_cache, capsys):
    """was: stored without a word (an nDCG@10 of 1.5 on the Results page)."""
    path = _mteb(tmp_path, {"test": [{**ENTRY, "recall_at_10": 1.5}]})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "'scores.test[0].recall_at_10'",
                "must be between 0 and 1: 1.5")


def test_runner_metric_below_zero(tmp_path, tiny_cache, capsys):
    """was: stored without a word."""
    path = _runner(tmp_path, {"NDCG": {"NDCG@10": -0.2}})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "'metrics.NDCG.NDCG@10'",
                "must be between 0 and 1: -0.2")


def test_mteb_nauc_metrics_outside_zero_one_still_import(tmp_path, tiny_cache, capsys):
    """was: imported as given, and still is: MTEB's nauc_* correlations lie outside [0, 1] in real files."""
    from coreb_core.cli import main

    _mteb(tmp_path, {"test": [{**ENTRY, "nauc_ndcg_at_10_max": -1.7, "nauc_ndcg_at_10_diff1": 2.25}]})
    assert main(["import-results", str(tmp_path / "results")]) == 0, capsys.readouterr().err
    rows = stored_rows(tiny_cache).set_index("metric")["value"]
    assert rows.to_dict() == {"main_score": 0.41, "ndcg_at_10": 0.41, "nauc_ndcg_at_10_max": -1.7,
                              "nauc_ndcg_at_10_diff1": 2.25}


# ---------------------------------------------------------------- a key given twice

def test_mteb_entry_with_a_key_given_twice(tmp_path, tiny_cache, capsys):
    """was: the checker read the last value (json.loads) and DuckDB stored the first: a file checked as one
    thing was stored as another."""
    path = _mteb(tmp_path, {"test": [ENTRY]})
    path.write_text('{"task_name": "CorebT2CRetrieval", "scores": {"test": [{"hf_subset": "default", '
                    '"main_score": 0.41, "ndcg_at_10": 0.41, "ndcg_at_10": 0.93}]}}')
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "duplicate key 'ndcg_at_10'")


def test_mteb_main_score_given_twice_with_a_nan(tmp_path, tiny_cache, capsys):
    """was: the checker saw the last main_score (finite) and passed the file; DuckDB read the first (NaN)."""
    path = _mteb(tmp_path, {"test": [ENTRY]})
    path.write_text('{"task_name": "CorebT2CRetrieval", "scores": {"test": [{"hf_subset": "default", '
                    '"main_score": NaN, "main_score": 0.41}]}}')
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "duplicate key 'main_score'")


def test_runner_metric_given_twice(tmp_path, tiny_cache, capsys):
    """was: the last value stored, the first silently lost."""
    path = _runner(tmp_path, {})
    path.write_text('{"metrics": {"NDCG": {"NDCG@10": 0.5, "NDCG@10": 0.9}}}')
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "duplicate key 'NDCG@10'")


# ---------------------------------------------------------------- TREC scores

@pytest.mark.parametrize("score", ["١٠", "1_0", "٣.٥"], ids=["arabic-indic-ten", "underscore", "arabic-indic-3.5"])
def test_trec_score_only_float_reads(tmp_path, tiny_cache, capsys, score):
    """was: imported through Python's float() ('١٠' and '1_0' became 10.0)."""
    path = tmp_path / "run.trec"
    path.write_text(f"{Q1} Q0 code_v202601_00002 1 2.0 x\n{Q1} Q0 code_v202601_00001 2 {score} x\n",
                    encoding="utf-8")
    with unchanged(tiny_cache):
        line = refuses(["import-results", str(path), "--release", "tiny"], capsys,
                       f"{path}: row 2: field 'score'", "not a number")
    assert line.endswith(repr(score))


def test_trec_score_on_the_first_line_only_float_reads(tmp_path, tiny_cache, capsys):
    """was: the file was taken for a TREC run (its first line read by float()) and imported."""
    path = tmp_path / "run.trec"
    path.write_text(f"{Q1} Q0 code_v202601_00001 1 1_0 x\n", encoding="utf-8")
    with unchanged(tiny_cache):
        refuses(["import-results", str(path), "--release", "tiny"], capsys, str(path),
                "not a recognised result file")


# ---------------------------------------------------------------- how errors name the file

def test_trec_error_names_the_file_once(tmp_path, tiny_cache, capsys):
    """was: "error: /…/run.trec: /…/run.trec: row 2: field 'rank': …"."""
    path = tmp_path / "run.trec"
    path.write_text(f"{Q1} Q0 code_v202601_00002 1 2.0 x\n{Q1} Q0 code_v202601_00001 two 0.9 x\n")
    with unchanged(tiny_cache):
        line = refuses(["import-results", str(path), "--release", "tiny"], capsys, f"{path}: row 2: field 'rank'")
    assert line.count(str(path)) == 1


def test_predictions_error_names_the_file_once(tmp_path, tiny_cache, capsys):
    """was: "error: /…/text2code_predictions.json: /…/text2code_predictions.json: row -: field 'query_id': …"."""
    path = tmp_path / "runner" / "text2code_predictions.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"q_nope": [{"corpus_id": "code_v202601_00001", "score": 1.0}]}))
    with unchanged(tiny_cache):
        line = refuses(["import-results", str(path), "--release", "tiny"], capsys,
                       f"{path}: row -: field 'query_id': query not in this release: 'q_nope'")
    assert line.count(str(path)) == 1


def test_uploaded_result_error_names_the_uploaded_file(tiny_cache):
    """was: the skipped line named the server's temporary folder (/tmp/coreb-results-…/bm25.trec)."""
    trec = f"{Q1} Q0 code_v202601_00002 1 2.0 x\n{Q1} Q0 code_v202601_00001 2 1_0 x\n".encode()
    with unchanged(tiny_cache):
        report = import_uploaded_results([("bm25.trec", trec)], "tiny", root=tiny_cache)
    assert report.skipped == ["bm25.trec: row 2: field 'score': not a number (ASCII decimal or scientific "
                              "notation): '1_0'"]


def test_uploaded_release_error_names_the_uploaded_file(tmp_path, tiny_cache):
    """was: the error named the server's temporary folder (/tmp/coreb-upload-…/text2code_queries.jsonl)."""
    from coreb_core.errors import DataError

    rows = dump.rows()
    rows["text2code_queries"][0]["query"] = ""
    folder = dump.write_jsonl(tmp_path / "jsonl", rows)
    files = [(p.name, p.read_bytes()) for p in sorted(folder.iterdir())]
    with unchanged(tiny_cache), pytest.raises(DataError) as caught:
        import_uploaded_dataset(files, "x", root=tiny_cache)
    assert str(caught.value) == "text2code_queries.jsonl: row 1: field 'query': must not be empty"


def test_run_page_result_upload_names_the_uploaded_file(tiny_cache):
    """was: the page's error named the server's temporary folder (/tmp/coreb-results-…/bm25.trec)."""
    trec = f"{Q1} Q0 code_v202601_00002 1 2.0 x\n{Q1} Q0 code_v202601_00001 two 0.9 x\n".encode()
    at = app_test("run_retrieval.py", tiny_cache, {"release": "tiny"}).run()
    assert not at.exception
    with unchanged(tiny_cache):
        [uploader] = [u for u in at.get("file_uploader") if u.proto.id.endswith("res_files")]
        uploader.set_value([("bm25.trec", trec, "application/octet-stream")])
        at.run()
        at.button(key="res_up").click().run()
    message = shows_error(at, plain("bm25.trec: row 2: field 'rank'"))
    assert message.startswith(plain("bm25.trec")) and "coreb-results-" not in message


def test_run_page_upload_that_imports_nothing_claims_no_success(tiny_cache):
    """was: "Imported 0 file(s): 0 number(s) stored, 0 run(s) created." as a success box above the file's reason."""
    at = app_test("run_retrieval.py", tiny_cache, {"release": "tiny"}).run()
    with unchanged(tiny_cache):
        [uploader] = [u for u in at.get("file_uploader") if u.proto.id.endswith("res_files")]
        uploader.set_value([("empty.json", b'{"scores": {}}', "application/json")])
        at.run()
        at.button(key="res_up").click().run()
    assert not at.success, [s.value for s in at.success]
    shows_error(at, "Nothing was imported")
    shows_error(at, "empty.json")


# ---------------------------------------------------------------- what an upload stores as its provenance

def test_an_uploaded_trec_run_records_the_uploaded_name_not_the_temporary_folder(tiny_cache):
    """was: the stored run's ``source`` and ``source_file`` named the server's temporary folder
    (``trec:/tmp/coreb-results-…/bm25.trec``), shown as the run's provenance on every page."""
    from coreb_core.runs.folders import run_meta

    trec = f"{Q1} Q0 code_v202601_00002 1 2.0 x\n".encode()
    [run_id] = import_uploaded_results([("bm25.trec", trec)], "tiny", root=tiny_cache).runs
    meta = run_meta(run_id, tiny_cache)
    assert (meta.model, meta.source, meta.source_file) == ("bm25", "trec:upload:bm25.trec", "upload:bm25.trec")


def test_an_uploaded_mteb_file_takes_its_model_from_model_meta_or_the_label_never_the_temporary_folder(tiny_cache):
    """was: an MTEB file uploaded without its ``<org>__<model>/<revision>`` folders was stored as the model
    ``tmp``, revision ``coreb-results-…`` (the temporary folder's names)."""
    task = json.dumps({"task_name": "CorebT2CRetrieval", "scores": {"test": [ENTRY]}}).encode()
    with unchanged(tiny_cache):
        report = import_uploaded_results([("CorebT2CRetrieval.json", task)], root=tiny_cache)
    assert report.imported == 0 and report.skipped == [
        "CorebT2CRetrieval.json: an uploaded MTEB file names its model in model_meta.json: upload that file "
        "beside it, or give a model label"]
    import_uploaded_results([("CorebT2CRetrieval.json", task)], model="org/labelled", root=tiny_cache)
    meta = json.dumps({"name": "org/named", "revision": None}).encode()
    import_uploaded_results([("CorebT2CRetrieval.json", task), ("model_meta.json", meta)], root=tiny_cache)
    rows = stored_rows(tiny_cache)
    stored = sorted(set(zip(rows["model"], rows["revision"].fillna("-"), rows["file"])))
    assert stored == [("org/labelled", "-", "upload:CorebT2CRetrieval.json"),
                      ("org/named", "-", "upload:CorebT2CRetrieval.json")]
