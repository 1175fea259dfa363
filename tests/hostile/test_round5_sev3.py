"""Round 5 of hostile use, severity 3 (issue 48, item 6): an empty ``--ray``; temporaries a killed sweep or ``mine``
left; ``--out newdir/`` and ``--out ''``; ``--k`` of 10**20 in ``audit``, ``contrast`` and ``hubs``; ``integrity`` of a
release against itself; a refused ``tiers`` that wrote a join first; a corrupt cached ONNX export; a bad
``COREB_API_TIMEOUT_S``; an NFD id in an ``import-data`` error; control bytes in an ``export`` line and in SQL column
names; ``PIVOT`` in the SQL console. Each was checked to fail on the code before its fix (the API timeout's on the
code before item 5's commit e4bbe8d, which fixed it); none encodes with MiniLM (BM25 runs, the tiny release, a
one-layer random BERT, the loopback API server)."""
from __future__ import annotations

import json
import os
import time
import unicodedata
from pathlib import Path

import pytest

from coreb_core.cli import main
from coreb_core.errors import CorebError
from coreb_core.paths import joins_dir, runs_dir
from tests.hostile.conftest import refuses, unchanged

RELEASE = "demo_v2603"
HOUR = 3600


def _age(path: Path, seconds: float) -> None:
    """``path`` and everything in it last written ``seconds`` ago."""
    then = time.time() - seconds
    for inner in [*path.rglob("*"), path] if path.is_dir() else [path]:
        os.utime(inner, (then, then))


# ------------------------------------------------------------------ sweep --ray ''

def test_sweep_with_an_empty_ray_address_is_refused(own_cache, capsys):
    """was: ``--ray ''`` is false, so the sweep ran locally (a BM25 run stored) and exited 0"""
    with unchanged(own_cache):
        refuses(["sweep", "--models", "bm25", "--releases", RELEASE, "--ray", ""], capsys,
                "--ray '': use local, HOST:PORT")
    assert not runs_dir(own_cache).exists()


# ------------------------------------------------------------------ temporaries a killed writer left

def test_a_sweep_removes_what_a_killed_sweep_left(lexical_copy, capsys):
    """was: a killed sweep's ``runs/.tmp-<run>`` folder and embedding shard ``.tmp`` stayed forever (nothing removed
    a run folder's temporary; a shard's only when that model wrote again). Stale = nothing in it written for an
    hour: a live writer's fresh temporary is kept."""
    root, run_id = lexical_copy
    old_run = runs_dir(root) / ".tmp-bm25__demo_v2603__20260101T000000-dead00"
    old_run.mkdir()
    (old_run / "hits.parquet").write_bytes(b"half")
    shards = root / "embeddings" / "minilm-x"
    shards.mkdir(parents=True)
    old_shard = shards / "shard-20260101T000000-abc-c0.npz.tmp"
    old_shard.write_bytes(b"half")
    live = runs_dir(root) / ".tmp-bm25__demo_v2603__20261207T000000-live00"
    live.mkdir()
    (live / "hits.parquet").write_bytes(b"being written")
    _age(old_run, 2 * HOUR)
    _age(old_shard, 2 * HOUR)
    _age(live / "hits.parquet", 60)
    assert main(["sweep", "--models", "bm25", "--releases", RELEASE]) == 0
    capsys.readouterr()
    assert not old_run.exists() and not old_shard.exists()
    assert (live / "hits.parquet").read_bytes() == b"being written"
    assert (runs_dir(root) / run_id / "hits.parquet").exists()


def test_mine_removes_what_a_killed_mine_left_beside_its_out(lexical_copy, tmp_path, capsys):
    """was: a killed ``mine --out a.jsonl`` left ``.a.jsonl.tmp``, kept forever once the next call named another file;
    an old temporary of another program (not one of ours: no .jsonl or .parquet) and a fresh one stay"""
    _, run_id = lexical_copy
    out = tmp_path / "out"
    out.mkdir()
    ours, fresh, theirs = out / ".a.jsonl.tmp", out / ".c.jsonl.tmp", out / ".editor.tmp"
    for path in (ours, fresh, theirs):
        path.write_text("half")
    _age(ours, 2 * HOUR)
    _age(theirs, 2 * HOUR)
    assert main(["mine", "--run", run_id, "--k", "3", "--out", str(out / "b.jsonl")]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in out.iterdir()) == [".c.jsonl.tmp", ".editor.tmp", "b.jsonl"]


# ------------------------------------------------------------------ --out newdir/ and --out ''

@pytest.mark.parametrize("verb", ["export", "mine", "report"])
def test_out_ending_in_a_slash_is_a_folder(lexical_copy, tmp_path, capsys, verb):
    """was: ``--out newdir/`` wrote a file named ``newdir`` (export trec, mine, report). A trailing slash names a
    folder, as for ``cp``; the verbs have no default file name to write inside it, so the refusal says one"""
    _, run_id = lexical_copy
    given = f"{tmp_path / 'newdir'}/"
    argv, example = {
        "export": (["export", "--run", run_id, "--format", "trec", "--out", given], "run.trec"),
        "mine": (["mine", "--run", run_id, "--k", "3", "--out", given], "negatives.jsonl"),
        "report": (["report", "--release", RELEASE, "--out", given], "report.html"),
    }[verb]
    refuses(argv, capsys, f"{given} ends with '/', so it names a folder; name a file such as {given}{example}")
    assert not (tmp_path / "newdir").exists()


@pytest.mark.parametrize("verb", ["export", "mine", "samples", "train-reranker", "judgments"])
def test_an_empty_out_is_refused(lexical_copy, tmp_path, capsys, monkeypatch, verb):
    """was: ``--out ''`` named ``.``: 'is a folder' for a file, and the current folder itself for train-reranker"""
    root, run_id = lexical_copy
    monkeypatch.chdir(tmp_path)
    argv = {
        "export": ["export", "--run", run_id, "--format", "trec", "--out", ""],
        "mine": ["mine", "--run", run_id, "--out", ""],
        "samples": ["samples", "--release", RELEASE, "--out", ""],
        "train-reranker": ["train-reranker", "--samples", "s.jsonl", "--base", "minilm", "--out", ""],
        "judgments": ["judgments", "--release", RELEASE, "--export", "trec", "--out", ""],
    }[verb]
    with unchanged(root):
        line = refuses(argv, capsys, "an empty path names no")
    assert "(it would be the current folder)" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]


# ------------------------------------------------------------------ --k beyond any list

@pytest.mark.parametrize("verb, k", [("audit", "100000000000000000000"), ("contrast", "1000000000000"),
                                     ("hubs", "308")])
def test_k_deeper_than_the_largest_corpus_is_refused(lexical_cache, lexical_copy, capsys, verb, k):
    """was: accepted and echoed back ("within a top 100000000000000000000", "70 of the top 1000000000000 shared")"""
    a, b = lexical_cache[1]["bm25"], lexical_cache[1]["bm25s-mteb"]
    argv = {"audit": ["audit", "--release", RELEASE, "--run", a, "--k", k],
            "contrast": ["contrast", "--release", RELEASE, "--run", a, b, "--task", "c2c", "--k", k],
            "hubs": ["hubs", "--release", RELEASE, "--run", a, "--task", "c2c", "--k", k]}[verb]
    refuses(argv, capsys, f"--k {k}: deeper than the 307 documents of {RELEASE}'s largest corpus; give at most 307")


def test_k_at_the_largest_corpus_is_allowed(lexical_copy, capsys):
    assert main(["hubs", "--release", RELEASE, "--run", lexical_copy[1], "--task", "c2c", "--k", "307"]) == 0
    assert "top-307 lists" in capsys.readouterr().out


# ------------------------------------------------------------------ integrity of a release against itself

def test_integrity_of_a_release_against_itself_is_refused(own_cache, capsys):
    """was: "FAILED: demo_v2603 (24 problems) and demo_v2603 (24 problems) share 24 source problems", exit 1 (true
    of every release, and no leak between two). Refused, exit 2, as the Data page says "Choose two different
    releases": a pass (exit 0) would call the worst case clean"""
    with unchanged(own_cache):
        refuses(["integrity", "--releases", RELEASE, RELEASE], capsys,
                f"--releases names {RELEASE} twice: integrity compares two different releases")


# ------------------------------------------------------------------ a refused tiers call

def test_a_refused_tiers_call_writes_no_join(lexical_copy, capsys):
    """was: both runs scored (their joins and the release index written under joins/), then "run … has no scored
    query on T2C", exit 2"""
    from coreb_core.retrieval.pipeline import run_retrieval

    root, run_id = lexical_copy
    c2c_only = run_retrieval("bm25", RELEASE, tasks=("c2c",), root=root).run_id
    capsys.readouterr()
    assert not joins_dir(root).exists()
    with unchanged(root):
        refuses(["tiers", "--release", RELEASE, "--run", run_id, c2c_only, "--task", "t2c"], capsys,
                f"run {c2c_only} has no scored query on T2C")
    assert not joins_dir(root).exists()
    assert main(["tiers", "--release", RELEASE, "--run", run_id, c2c_only, "--task", "c2c"]) == 0


# ------------------------------------------------------------------ a corrupt cached ONNX export

@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    from tests.hostile.test_model_folders import bert_folder

    return bert_folder(tmp_path_factory.mktemp("ov") / "bert")


@pytest.mark.parametrize("damage", ["cut", "garbage", "empty"])
def test_a_corrupt_cached_onnx_export_is_rebuilt(tiny_bert, tmp_path, damage):
    """was: OpenVINO's RuntimeError on every load, which the run blamed on the model folder ("transformers cannot load
    this model folder"); the export was never made again"""
    from coreb_core.retrieval.openvino_encoder import OpenVinoEncoder, onnx_dir

    want = OpenVinoEncoder.load(str(tiny_bert), "tiny", root=tmp_path).encode(["def f(): pass"])
    exported = onnx_dir(tmp_path) / "tiny" / "model.onnx"
    good = exported.read_bytes()
    exported.write_bytes({"cut": good[: len(good) // 2], "garbage": b"garbage" * 100, "empty": b""}[damage])
    got = OpenVinoEncoder.load(str(tiny_bert), "tiny", root=tmp_path).encode(["def f(): pass"])
    assert abs(got - want).max() < 1e-5
    assert exported.read_bytes() == good
    assert sorted(p.name for p in exported.parent.iterdir()) == ["model.onnx"]  # no temporary left


def test_an_unreadable_export_blames_the_export(tiny_bert, tiny_cache, capsys, monkeypatch):
    """was: "<model folder>: transformers cannot load this model folder (RuntimeError: Exception from src/…)": the
    folder blamed for the cache's file"""
    from coreb_core.paths import cache_root
    from coreb_core.retrieval import openvino_encoder

    def broken_export(name, revision, trust_remote_code, tokenizer, model_file: Path) -> None:
        model_file.parent.mkdir(parents=True, exist_ok=True)
        model_file.write_bytes(b"garbage")

    monkeypatch.setattr(openvino_encoder, "_export", broken_export)
    code = main(["run", "--model", str(tiny_bert), "--release", "tiny", "--tasks", "c2c", "--backend", "openvino"])
    out, err = capsys.readouterr()
    errors = [line for line in err.splitlines() if line.startswith("error:")]  # after the run's progress lines
    assert code == 2 and "Traceback" not in out + err and len(errors) == 1, err[-2000:]
    folder = openvino_encoder.onnx_dir(cache_root())
    assert errors[0].startswith(f"error: {folder}/") and errors[0].endswith(
        "/model.onnx: OpenVINO cannot read the model exported here (Unable to read the model); use --backend torch")
    assert "model folder" not in errors[0]


# ------------------------------------------------------------------ COREB_API_TIMEOUT_S

@pytest.mark.parametrize("value", ["abc", "-1", "nan", "inf", "0"])
def test_a_bad_api_timeout_blames_the_variable(own_cache, capsys, monkeypatch, value):
    """was (before item 5's e4bbe8d): ``abc`` a ValueError traceback; ``-1``, ``nan``, ``0`` handed to the client, whose
    failure read as the API's answer; fixed there (``_setting``), tested here"""
    from tests.api_server import ApiServer

    with ApiServer() as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-round5-sev3")
        monkeypatch.setenv("COREB_OPENAI_BASE_URL", server.url + "/v1")
        monkeypatch.setenv("COREB_API_BACKOFF_S", "0.001")
        monkeypatch.setenv("COREB_API_TIMEOUT_S", value)
        code = main(["run", "--model", "openai-text-embedding-3-large", "--release", RELEASE, "--tasks", "c2c"])
    out, err = capsys.readouterr()
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and "Traceback" not in out + err and len(errors) == 1, err[-2000:]
    assert errors[0] == f"error: COREB_API_TIMEOUT_S must be a number from 0.001 to 86400, not {value!r}"


# ------------------------------------------------------------------ ids and control bytes printed

def test_import_data_quotes_an_nfd_id(cache, tmp_path, capsys):
    """was: ``unknown document (not in code_corpus): 'code_v202601_0000é'`` with the NFD é printed raw: the same on
    screen as the NFC id the corpus holds"""
    from tests import dump

    nfc = "code_v202601_0000\u00e9"
    rows = json.loads(json.dumps(dump.rows()).replace("code_v202601_00001", nfc))
    rows["text2code_qrels"][0]["doc_id"] = unicodedata.normalize("NFD", nfc)
    folder = dump.write_parquet_folder(tmp_path / "src", rows)
    line = refuses(["import-data", str(folder), "--release", "nfd"], capsys)
    assert line == (f"error: {folder / 'text2code_qrels.parquet'}: row 1: field 'doc_id': unknown document (not in "
                    "code_corpus): 'code_v202601_0000e\\u0301'")


def test_export_line_escapes_control_bytes(lexical_copy, tmp_path, capsys):
    """was: ``exported … to …/run\\x1b[2J.trec`` printed with the ESC byte raw (the terminal cleared)"""
    _, run_id = lexical_copy
    out = tmp_path / "run\x1b[2J.trec"
    assert main(["export", "--run", run_id, "--format", "trec", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "\x1b" not in printed
    assert printed == f"exported {run_id} as trec to {tmp_path}/run\\x1b[2J.trec\n"
    assert out.exists()


def test_sql_column_names_escape_control_bytes(own_cache, capsys):
    """was: the header printed ``a<ESC>[31mb`` raw (cells were escaped, names were not), with rows and without"""
    for query, rows in (("SELECT 1 AS \"a\x1b[31mb\"", "1 rows"), ("SELECT 1 AS \"a\x1b[31mb\" WHERE false", "0 rows")):
        assert main(["sql", query, "--release", RELEASE]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "a\\x1b[31mb" in out.splitlines()[0] and out.splitlines()[-1] == rows


# ------------------------------------------------------------------ PIVOT

def test_sql_pivot_runs(own_cache, capsys):
    """was: "only a single SELECT (or WITH … SELECT) statement is allowed, not MULTI": DuckDB parses a PIVOT without
    an IN list as several statements (a temporary ENUM of the column's values, then the select)"""
    assert main(["sql", "PIVOT (SELECT task FROM queries) ON task USING count(*)", "--release", RELEASE]) == 0
    assert capsys.readouterr().out.splitlines() == [" c2c  c2t  t2c", " 144  336  720", "1 rows"]
    assert main(["sql", "SELECT * FROM (PIVOT queries ON task USING count(*) GROUP BY subtask) WHERE "
                 "subtask = 'c2c_cross_lang'", "--release", RELEASE, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"subtask": "c2c_cross_lang", "c2c": 96, "c2t": 0, "t2c": 0}]


def test_console_refuses_what_pivot_does_not_open(own_cache):
    from coreb_core.data.sql_console import check_select

    with pytest.raises(CorebError, match="not DROP"):
        check_select("DROP TABLE queries")
    with pytest.raises(CorebError, match="this text holds 2"):
        check_select("PIVOT queries ON task USING count(*); DROP TABLE queries")
