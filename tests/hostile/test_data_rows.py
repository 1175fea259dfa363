"""Values inside data files: dataset rows (JSONL), MTEB task JSON, official runner predictions and TREC run
lines whose values have a type, size or encoding the format does not allow (lone surrogates, integers
beyond int64, lists where ids belong, ranks that are no int32, a 17 MB MTEB file). Each is refused with
one line naming the file, row and field, exit status 2, and the cache stays byte-identical; an upload of
such a file on the Run retrieval page shows that line instead of an exception box.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from coreb_core.present.format import plain
from tests import dump
from tests.builders import app_test
from tests.hostile.conftest import flat_hub_release, refuses, shows_error, unchanged

T2C_QUERY = "q_t2c_canonical_retro_any_0001"


def _jsonl(tmp_path: Path, change) -> Path:
    """The tiny release as runner JSONL files, after ``change(rows)``."""
    rows = dump.rows()
    change(rows)
    return dump.write_jsonl(tmp_path / "jsonl", rows)


# ---------------------------------------------------------------- dataset rows

def test_lone_surrogate_in_a_jsonl_value(tmp_path, tiny_cache, capsys):
    """was: UnicodeEncodeError while writing the Arrow table."""
    folder = _jsonl(tmp_path, lambda r: r["text2code_queries"][0].update(query="\ud800 sum"))
    with unchanged(tiny_cache):
        line = refuses(["import-data", str(folder), "--release", "x"], capsys,
                       "text2code_queries.jsonl: row 1: field 'query'", "surrogate")
    assert "\\ud800" in line  # shown escaped: printing the raw character would itself fail


def test_lone_surrogate_in_a_meta_key(tmp_path, tiny_cache, capsys):
    """was: UnicodeEncodeError while writing the Arrow table."""
    folder = _jsonl(tmp_path, lambda r: r["code_corpus"][1]["meta"].update({"\udfff": 1}))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code_corpus_v2.jsonl: row 2: field 'meta'", "surrogate")


def test_lone_surrogate_in_a_flat_meta_column(tmp_path, tiny_cache, capsys):
    """A hub row's flat ``meta_*`` value is checked as the nested meta is: one line naming ``meta``."""
    folder = flat_hub_release(tmp_path, lambda r: r["code_corpus"][2].update(meta_solution_key="\udfff"))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code_corpus.jsonl: row 3: field 'meta'", "surrogate")


def test_a_flat_c2c_anchor_that_is_a_list(tmp_path, tiny_cache, capsys):
    folder = flat_hub_release(tmp_path, lambda r: r["code2code_queries"][0].update(meta_anchor_code_id=["code_v202601_00001"]))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code2code_queries.jsonl: row 1: field 'meta.anchor_code_id'", "must be a string")


def test_flat_meta_beside_a_nested_meta_that_is_no_dict(tmp_path, tiny_cache, capsys):
    folder = flat_hub_release(tmp_path, lambda r: r["text_corpus"][0].update(meta="[1, 2]"))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "text_corpus.jsonl: row 1: field 'meta'", "neither a JSON object nor a Python dict")


def test_code_length_beyond_int64(tmp_path, tiny_cache, capsys):
    """was: OverflowError from Arrow."""
    folder = _jsonl(tmp_path, lambda r: r["code_corpus"][0].update(code_length=2 ** 70))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code_corpus_v2.jsonl: row 1: field 'code_length'", "64-bit", str(2 ** 70))


def test_label_below_int64(tmp_path, tiny_cache, capsys):
    """was: OverflowError from Arrow."""
    folder = _jsonl(tmp_path, lambda r: r["code2text_queries"][1].update(label=-2 ** 63 - 1))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code2text_queries.jsonl: row 2: field 'label'", "64-bit")


@pytest.mark.parametrize("anchor", [["code_v202601_00001"], {"id": "code_v202601_00001"}], ids=["list", "object"])
def test_c2c_anchor_that_is_not_a_string(tmp_path, tiny_cache, capsys, anchor):
    """was: TypeError (unhashable) in validate's anchor lookup."""
    folder = _jsonl(tmp_path, lambda r: r["code2code_queries"][0]["meta"].update(anchor_code_id=anchor))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code2code_queries.jsonl: row 1: field 'meta.anchor_code_id'", "must be a string")


def test_jsonl_nested_too_deep(tmp_path, tiny_cache, capsys):
    """was: RecursionError from the JSON parser."""
    folder = _jsonl(tmp_path, lambda r: None)
    path = folder / "code_corpus_v2.jsonl"
    lines = path.read_text().splitlines()
    lines[2] = '{"code_id": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path.write_text("\n".join(lines) + "\n")
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys, "code_corpus_v2.jsonl: row 3", "nested")


def test_parquet_text_that_is_not_utf8(tmp_path, tiny_cache, capsys):
    """was: UnicodeDecodeError while reading the rows (Arrow stores such bytes in a string column)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = dump.write_parquet_folder(tmp_path / "parquet", dump.rows())
    path = folder / "text2code_queries.parquet"
    table = pq.read_table(path)
    raw = pa.array([b"Sum of two integers.", b"\xff\xfe python"], type=pa.binary())
    bad = pa.Array.from_buffers(pa.string(), len(raw), raw.buffers())  # bytes kept as they are, unchecked
    pq.write_table(table.set_column(table.column_names.index("query"), "query", bad), path)
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "text2code_queries.parquet: row 2: field 'query'", "not valid UTF-8")


def test_run_page_upload_with_a_lone_surrogate_shows_the_line(tmp_path, tiny_cache):
    """was: an exception box (UnicodeEncodeError) on the Run retrieval page."""
    folder = _jsonl(tmp_path, lambda r: r["text2code_queries"][0].update(query="\ud800 sum"))
    files = [(p.name, p.read_bytes(), "application/octet-stream") for p in sorted(folder.iterdir())]
    at = app_test("run_retrieval.py", tiny_cache, {"release": "tiny"}).run()
    assert not at.exception
    with unchanged(tiny_cache):
        at.text_input(key="ds_release").set_value("x")
        at.get("file_uploader")[0].set_value(files)
        at.run()
        at.button(key="ds_up").click().run()
    shows_error(at, plain("text2code_queries.jsonl: row 1: field 'query'"), "surrogate")


# ---------------------------------------------------------------- MTEB task files and runner predictions

ENTRY = {"hf_subset": "default", "main_score": 0.41, "ndcg_at_10": 0.41}


def _mteb(tmp_path: Path, data: dict, meta: dict | None = None) -> Path:
    folder = tmp_path / "results" / "org__model" / "rev1"
    folder.mkdir(parents=True)
    (folder / "CorebT2CRetrieval.json").write_text(json.dumps(data))
    if meta is not None:
        (folder / "model_meta.json").write_text(json.dumps(meta))
    return folder / "CorebT2CRetrieval.json"


def test_mteb_task_name_as_a_list(tmp_path, tiny_cache, capsys):
    """was: TypeError (unhashable list) in the task-name check."""
    path = _mteb(tmp_path, {"task_name": ["CorebT2CRetrieval"], "scores": {"test": [ENTRY]}})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "'task_name'", "must be a string")


def test_mteb_hf_subset_as_a_list(tmp_path, tiny_cache, capsys):
    """was: TypeError (unhashable list) in the duplicate-subset check."""
    path = _mteb(tmp_path, {"task_name": "CorebT2CRetrieval", "scores": {"test": [{**ENTRY, "hf_subset": ["x"]}]}})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "scores.test[0].hf_subset", "must be a string")


def test_mteb_model_meta_revision_as_a_list(tmp_path, tiny_cache, capsys):
    """was: TypeError (unhashable list) when the numbers were stored."""
    path = _mteb(tmp_path, {"task_name": "CorebT2CRetrieval", "scores": {"test": [ENTRY]}},
                 {"name": "org/model", "revision": ["rev1"]})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path.parent / "model_meta.json"), "'revision'",
                "must be a string")


def test_mteb_file_over_16_mb(tmp_path, tiny_cache, capsys):
    """was: DuckDB InvalidInputException ("maximum_object_size" of 16777216 bytes exceeded)."""
    path = _mteb(tmp_path, {"task_name": "CorebT2CRetrieval", "scores": {"test": [ENTRY]},
                            "padding": "x" * (17 * 2 ** 20)})
    with unchanged(tiny_cache):
        refuses(["import-results", str(path)], capsys, str(path), "17 MB", "at most 16 MB")


def test_predictions_corpus_id_as_a_list(tmp_path, tiny_cache, capsys):
    """was: TypeError (unhashable list) in the duplicate-entry check."""
    path = tmp_path / "runner" / "text2code_predictions.json"
    path.parent.mkdir()
    path.write_text(json.dumps({T2C_QUERY: [{"corpus_id": ["code_v202601_00001"], "score": 1.0, "rank": 1}]}))
    with unchanged(tiny_cache):
        refuses(["import-results", str(path), "--release", "tiny"], capsys, str(path),
                f"{T2C_QUERY}[0].corpus_id", "must be a string")


def test_predictions_rank_beyond_int32(tmp_path, tiny_cache, capsys):
    """was: OverflowError while ranking the lists."""
    path = tmp_path / "runner" / "text2code_predictions.json"
    path.parent.mkdir()
    path.write_text(json.dumps({T2C_QUERY: [{"corpus_id": "code_v202601_00001", "score": 1.0, "rank": 10 ** 30}]}))
    with unchanged(tiny_cache):
        refuses(["import-results", str(path), "--release", "tiny"], capsys, str(path), f"{T2C_QUERY}[0].rank")


# ---------------------------------------------------------------- TREC run lines

@pytest.mark.parametrize("rank", ["²", "3000000000", str(10 ** 30)], ids=["superscript-two", "3e9", "1e30"])
def test_trec_rank_that_is_no_int32(tmp_path, tiny_cache, capsys, rank):
    """was: ValueError from int('²'); TypeError (int64 to int32) for 3e9; OverflowError for 10**30."""
    path = tmp_path / "run.trec"
    path.write_text(f"{T2C_QUERY} Q0 code_v202601_00002 1 2.0 x\n{T2C_QUERY} Q0 code_v202601_00001 {rank} 0.9 x\n",
                    encoding="utf-8")
    with unchanged(tiny_cache):
        refuses(["eval", "--release", "tiny", "--run-file", str(path)], capsys,
                f"{path}: row 2: field 'rank'", repr(rank))
