"""Importing CoREB dumps in every layout, and refusing malformed ones without touching the cache."""
from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests import dump
from tests.builders import run_cli


def info_json(cache: Path) -> dict:
    done = run_cli("info", "--json", env={"COREB_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def assert_exact_counts(report: dict, release: str) -> None:
    assert report["releases"][release]["rows"] == dump.EXPECTED_ROWS
    assert report["releases"][release]["tasks"] == dump.EXPECTED_TASKS


@pytest.mark.parametrize("layout,meta_as", [
    ("parquet", "struct"), ("parquet", "string"), ("parquet", "flat"), ("hub", "struct"), ("hub", "string"),
    ("hub", "flat"), ("jsonl", "struct"), ("jsonl", "string"), ("jsonl", "flat"),
])
def test_each_layout_imports_with_exact_counts(tmp_path, cache, layout, meta_as):
    src = tmp_path / "src"
    writer = {"parquet": dump.write_parquet_folder, "hub": dump.write_hub_copy, "jsonl": dump.write_jsonl}[layout]
    writer(src, dump.rows(), meta_as=meta_as)
    args = ["import-data", str(src)] + ([] if layout == "hub" else ["--release", "mine"])
    done = run_cli(*args, env={"COREB_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    assert_exact_counts(info_json(cache), "release_v2603" if layout == "hub" else "mine")


def test_meta_string_and_struct_cache_identically(tmp_path, cache):
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local

    for meta_as in ("struct", "string", "flat"):
        src = dump.write_parquet_folder(tmp_path / meta_as, dump.rows(), meta_as=meta_as)
        import_release(read_local(src)[2], meta_as, cache)
    for config in dump.EXPECTED_ROWS:
        a = pq.read_table(cache / "coreb" / "struct" / f"{config}.parquet")
        for other in ("string", "flat"):
            assert a.equals(pq.read_table(cache / "coreb" / other / f"{config}.parquet")), (config, other)
    meta = json.loads(pq.read_table(cache / "coreb" / "string" / "code2code_queries.parquet")["meta"][0].as_py())
    assert meta["anchor_code_id"] == "code_v202601_00001"
    assert meta["target_languages"] == ["cpp", "java"]


def test_legacy_score_column_becomes_relevance(tmp_path, cache):
    data = dump.rows()
    for config in ("text2code_qrels", "code2code_qrels", "code2text_qrels"):
        data[config] = [{"query_id": r["query_id"], "doc_id": r["doc_id"], "score": r["relevance"]} for r in data[config]]
    src = dump.write_jsonl(tmp_path / "legacy", data)
    assert run_cli("import-data", str(src), "--release", "legacy", env={"COREB_CACHE": str(cache)}).returncode == 0
    assert_exact_counts(info_json(cache), "legacy")


def test_hub_copy_with_two_releases_needs_split(tmp_path, cache):
    src = tmp_path / "hub"
    dump.write_hub_copy(src, dump.rows(), "release_v2602")
    dump.write_hub_copy(src, dump.rows(), "release_v2603")
    env = {"COREB_CACHE": str(cache)}
    refused = run_cli("import-data", str(src), env=env)
    assert refused.returncode == 2
    assert "--split" in refused.stderr and "release_v2602" in refused.stderr
    assert run_cli("import-data", str(src), "--split", "release_v2602", env=env).returncode == 0
    assert list(info_json(cache)["releases"]) == ["release_v2602"]


def test_reimport_replaces_release_atomically(tmp_path, cache):
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from coreb_core.data.store import Store

    src = dump.write_parquet_folder(tmp_path / "a", dump.rows())
    import_release(read_local(src)[2], "r", cache)
    reader = Store("r", cache)  # a reader opened before the swap keeps its version
    data = dump.rows()
    data["text2code_queries"] = data["text2code_queries"][:1]
    data["text2code_qrels"] = [r for r in data["text2code_qrels"] if r["query_id"].endswith("0001")]
    import_release(read_local(dump.write_parquet_folder(tmp_path / "b", data))[2], "r", cache)
    assert reader.row_counts()["text2code_queries"] == 2
    assert Store("r", cache).row_counts()["text2code_queries"] == 1


# ------------------------------------------------------------------ malformed dumps

def _drop_column(config, column):
    def mutate(d):
        for r in d[config]:
            r.pop(column, None)
    return mutate


def _set(config, index, column, value):
    def mutate(d):
        d[config][index][column] = value
    return mutate


def _append(config, row):
    def mutate(d):
        d[config].append(row)
    return mutate


def _dup_code(d):
    d["code_corpus"].append(copy.deepcopy(d["code_corpus"][0]))


def _c2c_anchor(value):
    def mutate(d):
        d["code2code_queries"][0]["meta"] = {**d["code2code_queries"][0]["meta"], "anchor_code_id": value}
        if value is None:
            del d["code2code_queries"][0]["meta"]["anchor_code_id"]
    return mutate


def _no_grade(d):
    for r in d["code2code_qrels"]:
        r.pop("relevance")


# (name, mutation on the rows, layout, field the error must name, file the error must name)
DATA_CASES = [
    ("missing_column", _drop_column("code_corpus", "language"), "parquet", "language", "code_corpus.parquet"),
    ("duplicate_id", _dup_code, "parquet", "code_id", "code_corpus.parquet"),
    ("qrel_unknown_doc", _append("text2code_qrels", {"query_id": "q_t2c_search_python_0002",
                                                     "doc_id": "code_v202601_09999", "relevance": 1}),
     "parquet", "doc_id", "text2code_qrels.parquet"),
    ("qrel_unknown_query", _append("code2text_qrels", {"query_id": "q_c2t_nope_0009",
                                                       "doc_id": "text_v202601_00001", "relevance": 2}),
     "jsonl", "query_id", "code2text_qrels.jsonl"),
    ("qrel_doc_in_wrong_corpus", _append("code2text_qrels", {"query_id": "q_c2t_match_0002",
                                                             "doc_id": "code_v202601_00001", "relevance": 1}),
     "parquet", "doc_id", "code2text_qrels.parquet"),
    ("grade_3", _set("code2code_qrels", 0, "relevance", 3), "parquet", "relevance", "code2code_qrels.parquet"),
    ("grade_not_integer", _set("text2code_qrels", 1, "relevance", "2"), "jsonl", "relevance", "text2code_qrels.jsonl"),
    ("grade_missing", _no_grade, "jsonl", "relevance", "code2code_qrels.jsonl"),
    ("unknown_subtask", _set("text2code_queries", 0, "subtask", "t2c_guess_any"), "parquet", "subtask",
     "text2code_queries.parquet"),
    ("unknown_language", _set("code_corpus", 2, "language", "rust"), "jsonl", "language", "code_corpus_v2.jsonl"),
    ("unknown_anchor_language", _set("code2code_queries", 0, "anchor_language", "kotlin"), "parquet",
     "anchor_language", "code2code_queries.parquet"),
    ("anchor_not_in_corpus", _c2c_anchor("code_v202601_07777"), "parquet", "meta.anchor_code_id",
     "code2code_queries.parquet"),
    ("anchor_missing", _c2c_anchor(None), "jsonl", "meta.anchor_code_id", "code2code_queries.jsonl"),
    ("meta_unparsable", _set("text_corpus", 0, "meta", "{'source_problem_id': "), "jsonl", "meta",
     "text_corpus_v2.jsonl"),
    ("duplicate_qrel", _append("code2code_qrels", {"query_id": "q_c2c_cross_lang_0001",
                                                   "doc_id": "code_v202601_00002", "relevance": 2}),
     "parquet", "doc_id", "code2code_qrels.parquet"),
    ("null_query_text", _set("text2code_queries", 1, "query", None), "jsonl", "query", "text2code_queries.jsonl"),
    ("empty_code_id", _set("code_corpus", 0, "code_id", "  "), "jsonl", "code_id", "code_corpus_v2.jsonl"),
]


def _write_corrupt_file(kind: str, src: Path) -> tuple[str, str]:
    """File-level damage; returns (field, file name) the error must name."""
    if kind == "truncated_parquet":
        p = src / "text_corpus.parquet"
        p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
        return "-", "text_corpus.parquet"
    if kind == "empty_parquet_file":
        (src / "code2code_qrels.parquet").write_bytes(b"")
        return "-", "code2code_qrels.parquet"
    if kind == "missing_config_file":
        (src / "code2text_queries.parquet").unlink()
        return "-", "code2text_queries.parquet"
    if kind == "non_utf8_line":
        p = src / "text_corpus_v2.jsonl"
        lines = p.read_bytes().split(b"\n")
        lines[2] = lines[2].replace(b"numbers", b"n\xff\xfembers")
        p.write_bytes(b"\n".join(lines))
        return "-", "text_corpus_v2.jsonl"
    if kind == "empty_jsonl_file":
        (src / "code2code_queries.jsonl").write_bytes(b"")
        return "-", "code2code_queries.jsonl"
    if kind == "invalid_json_line":
        p = src / "text2code_qrels.jsonl"
        p.write_text(p.read_text() + '{"query_id": "q_t2c_search_python_0002", "doc_id": \n')
        return "-", "text2code_qrels.jsonl"
    raise AssertionError(kind)


FILE_CASES = [("truncated_parquet", "parquet"), ("empty_parquet_file", "parquet"), ("missing_config_file", "parquet"),
              ("non_utf8_line", "jsonl"), ("empty_jsonl_file", "jsonl"), ("invalid_json_line", "jsonl")]


@pytest.fixture
def populated_cache(tmp_path, cache):
    """A cache already holding release 'r', and a snapshot of every byte of it."""
    src = dump.write_parquet_folder(tmp_path / "good", dump.rows())
    assert run_cli("import-data", str(src), "--release", "r", env={"COREB_CACHE": str(cache)}).returncode == 0
    return cache, _snapshot(cache)


def _snapshot(cache: Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for p in sorted((cache / "coreb").rglob("*")):
        key = str(p.relative_to(cache))
        out[key] = ("link:" + str(p.readlink())) if p.is_symlink() else (p.read_bytes() if p.is_file() else "dir")
    return out


def _assert_refused(done, field: str, file_name: str, cache: Path, before: dict) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = [l for l in done.stderr.splitlines() if l.strip()]
    assert lines and all(l.startswith("error: ") for l in lines)
    hit = [l for l in lines if file_name in l and f"field '{field}'" in l and ": row " in l]
    assert hit, done.stderr
    assert _snapshot(cache) == before, "the cache changed after a failed import"


@pytest.mark.parametrize("name,mutate,layout,field,file_name", DATA_CASES, ids=[c[0] for c in DATA_CASES])
def test_malformed_rows_are_refused(tmp_path, populated_cache, name, mutate, layout, field, file_name):
    cache, before = populated_cache
    data = dump.rows()
    mutate(data)
    writer = dump.write_parquet_folder if layout == "parquet" else dump.write_jsonl
    src = writer(tmp_path / name, data)
    done = run_cli("import-data", str(src), "--release", "r", env={"COREB_CACHE": str(cache)})
    _assert_refused(done, field, file_name, cache, before)


@pytest.mark.parametrize("kind,layout", FILE_CASES, ids=[c[0] for c in FILE_CASES])
def test_damaged_files_are_refused(tmp_path, populated_cache, kind, layout):
    cache, before = populated_cache
    writer = dump.write_parquet_folder if layout == "parquet" else dump.write_jsonl
    src = writer(tmp_path / kind, dump.rows())
    field, file_name = _write_corrupt_file(kind, src)
    done = run_cli("import-data", str(src), "--release", "r", env={"COREB_CACHE": str(cache)})
    _assert_refused(done, field, file_name, cache, before)


def test_row_numbers_point_at_the_bad_row(tmp_path, cache):
    data = dump.rows()
    data["code2code_qrels"][2]["relevance"] = 7
    src = dump.write_jsonl(tmp_path / "bad", data)
    done = run_cli("import-data", str(src), "--release", "r", env={"COREB_CACHE": str(cache)})
    assert "code2code_qrels.jsonl: row 3: field 'relevance': grade must be 0, 1 or 2: 7" in done.stderr


# ------------------------------------------------------------------ the hub

def test_fetch_offline_fails_fast_with_instructions(cache):
    for env in ({"HF_DATASETS_OFFLINE": "1"}, {"HF_DATASETS_OFFLINE": "0", "HF_HUB_OFFLINE": "0"}):
        start = time.monotonic()
        done = run_cli("fetch", "--release", "release_v2603", env={**env, "COREB_CACHE": str(cache)})
        assert time.monotonic() - start < 5.0 + 2.0  # 5 s budget plus interpreter start-up
        assert done.returncode == 2
        assert "import-data DIR --release release_v2603" in done.stderr
        assert "Traceback" not in done.stderr
