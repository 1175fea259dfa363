"""Round 5 of hostile use (issue 48, item 5): values no pandas date can hold in the SQL console (R1), a stored
join with a flipped byte (S2), a hits file rewritten in place at the same size with its modification time put back
(S3), API answers of ±3e38 (S4), an API server that trickles its answer a byte at a time (S5), ``nan`` and ``inf``
as ``COREB_API_ATTEMPTS`` (S6), a token length beyond the model's positions (S7) and a mining ``--k`` of 10**20
(S8). Each was checked to fail on the code before the fix; none encodes with MiniLM (BM25 runs, the loopback API
server of tests/api_server.py, a one-layer random BERT)."""
from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from coreb_core.cli import main
from coreb_core.data.sql_console import SqlConsole
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.schemes import V2
from coreb_core.evaluation.stored_joins import StoredRun
from coreb_core.paths import joins_dir
from coreb_core.runs.folders import read_hits, run_path
from tests.api_server import ApiServer
from tests.builders import app_test
from tests.hostile.conftest import refuses, unchanged

RELEASE = "demo_v2603"
FAR_DATES = ("SELECT DATE '5877642-06-25' AS far, 'infinity'::TIMESTAMP AS t, '-infinity'::DATE AS d, "
             "INTERVAL 100000000 YEAR AS i, DATE '2024-01-02' AS ok")
KEY = "sk-round5-test"
API_MODEL = "openai-text-embedding-3-large"


# ------------------------------------------------------------------ R1: dates no pandas date can hold

def test_console_far_and_infinite_dates_come_back_as_text(mini_data):
    """was: ``ConversionException: Could not convert DATE (5877642-06-25) to microseconds``; 'infinity'::TIMESTAMP
    came back as the concrete date 294247-01-10 04:00:54.775807"""
    with Store(RELEASE, mini_data) as store, SqlConsole(store) as console:
        result = console.query(FAR_DATES)
        single = console.query("SELECT 'infinity'::TIMESTAMPTZ AS tz").frame["tz"].tolist()
    assert result.frame.iloc[0].tolist() == ["5877642-06-25", "infinity", "-infinity", "100000000 years",
                                             pd.Timestamp("2024-01-02")]
    assert result.as_text == ("far", "t", "d", "i")
    assert result.notes() == ["'far', 't', 'd', 'i' shown as text: a value is infinite or lies outside the years "
                              "1 to 9999"]
    assert single == ["infinity"]


def test_cli_sql_far_date_prints_its_text(own_cache, capsys):
    """was: a ConversionException traceback (exit 1)"""
    with unchanged(own_cache):
        code = main(["sql", "SELECT DATE '5877642-06-25' AS far, 'infinity'::TIMESTAMP AS t", "--release", RELEASE])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in out + err, err
    assert out.splitlines() == ["          far        t", "5877642-06-25 infinity", "1 rows"]
    assert "294247" not in out
    assert err.strip() == "note: 'far', 't' shown as text: a value is infinite or lies outside the years 1 to 9999"


def test_data_page_far_date_shows_its_text(own_cache):
    """was: an exception box (ConversionException) under the SQL box"""
    at = app_test("data.py", own_cache, {"release": RELEASE, "section": "sql"}).run()
    at.text_area(key="sql_text").set_value(FAR_DATES)
    at.button(key="sql_go").click().run(timeout=60)
    assert not at.exception and not at.error
    (frame,) = [d.value for d in at.dataframe if list(d.value.columns) == ["far", "t", "d", "i", "ok"]]
    assert frame.iloc[0, :4].tolist() == ["5877642-06-25", "infinity", "-infinity", "100000000 years"]
    assert any("shown as text" in w.value for w in at.warning)


# ------------------------------------------------------------------ S2, S3: derived files that do not hold

def _scores(root: Path, run_id: str) -> pd.DataFrame:
    with Store(RELEASE, root) as store:
        return analyse_many(store, {"r": StoredRun(run_id, root)}, (V2,)).per_query(V2)


@pytest.mark.parametrize("where", ["a rank", "the last byte"])
def test_a_join_with_a_flipped_byte_is_rebuilt(lexical_copy, where):
    """was: a flipped byte in the data was read as other numbers and kept (a rank: other scores); the issue's
    ``zipfile.BadZipFile`` came from the earlier .npz format, which is now never read (no digest)"""
    root, run_id = lexical_copy
    want = _scores(root, run_id)
    (file,) = joins_dir(root).glob(f"{run_id}/*.npy")
    raw = bytearray(file.read_bytes())
    data_at = 10 + int.from_bytes(raw[8:10], "little")  # .npy 1.0: magic, version, header length, header
    # the top byte of the 11th judged pair's rank (after the 1,200 queries' in-run flags): 5.0 becomes ~1e-308
    raw[data_at + (1200 + 10) * 8 + 7 if where == "a rank" else len(raw) - 1] ^= 0x40
    file.write_bytes(bytes(raw))
    got = _scores(root, run_id)
    pd.testing.assert_frame_equal(want, got)
    assert bytes(raw) != file.read_bytes()  # rebuilt in place


def test_select_reads_past_a_flipped_index_file(lexical_copy, capsys):
    """was: a flipped byte in the release index's codes (``joins/@release/…``) was trusted as other documents"""
    root, run_id = lexical_copy
    argv = ["select", "--release", RELEASE, "--json"]
    assert main(argv) == 0
    clean = json.loads(capsys.readouterr().out)
    for file in joins_dir(root).glob("@release/*/*.npy"):
        raw = bytearray(file.read_bytes())
        raw[len(raw) // 2] ^= 0x01
        file.write_bytes(bytes(raw))
    for file in joins_dir(root).glob(f"{run_id}/*.npy"):
        raw = bytearray(file.read_bytes())
        raw[len(raw) - 100] ^= 0x80
        file.write_bytes(bytes(raw))
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err, err
    assert json.loads(out) == clean


def _same_size_parquet(table: pa.Table, size: int) -> bytes:
    """``table`` as parquet bytes of exactly ``size`` bytes (padded with footer metadata)."""
    pad = 0
    for _ in range(20):
        sink = pa.BufferOutputStream()
        with pq.ParquetWriter(sink, table.schema, compression="zstd", compression_level=19) as writer:
            writer.write_table(table)
            writer.add_key_value_metadata({"pad": "x" * pad})
        data = sink.getvalue().to_pybytes()
        if len(data) == size:
            return data
        pad += size - len(data)
        assert pad >= 0, "the new table must be smaller than the old file"
    raise AssertionError("could not pad to the size")


def test_a_hits_file_rewritten_in_place_with_its_mtime_put_back_gets_a_new_join(lexical_copy):
    """was: the join keyed on size, mtime and inode was trusted: the old scores (the issue's `select` 38.3 where
    the file then scored 33.6)"""
    root, run_id = lexical_copy
    before = _scores(root, run_id)
    path = run_path(run_id, root) / "hits.parquet"
    stat = path.stat()
    hits = read_hits(run_id, root)
    worse = hits[hits["rank"] > 1].reset_index(drop=True)  # every query loses its first hit
    data = _same_size_parquet(pa.Table.from_pandas(worse, preserve_index=False), stat.st_size)
    with open(path, "r+b") as f:  # in place: the same inode
        f.write(data)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    after_stat = path.stat()
    assert (after_stat.st_size, after_stat.st_mtime_ns, after_stat.st_ino) == (stat.st_size, stat.st_mtime_ns,
                                                                             stat.st_ino)
    with Store(RELEASE, root) as store:
        direct = analyse_many(store, {"r": worse}, (V2,)).per_query(V2)
    after = _scores(root, run_id)
    pd.testing.assert_frame_equal(after, direct)
    assert after["ndcg_at_10"].mean() < before["ndcg_at_10"].mean() - 0.05


# ------------------------------------------------------------------ S4, S5, S6: the API

@pytest.fixture
def api(own_cache, monkeypatch):
    """CoREB-mini and the OpenAI client pointed at the loopback server, tiny backoff."""
    with ApiServer() as server:
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("COREB_OPENAI_BASE_URL", server.url + "/v1")
        monkeypatch.setenv("COREB_API_BACKOFF_S", "0.001")
        monkeypatch.setenv("COREB_API_ATTEMPTS", "2")
        yield server


def run_fails(argv: list[str], capsys, *mentions: str) -> str:
    """``refuses`` for a run that had started (its progress lines on stderr): status 2, no traceback, exactly one
    ``error: …`` line, mentioning each of ``mentions``. Returns that line."""
    code = main(argv)
    out, err = capsys.readouterr()
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert "Traceback" not in out + err and code == 2 and len(errors) == 1, (code, err[-2000:])
    for m in mentions:
        assert m in errors[0], errors[0]
    return errors[0]


def test_api_vectors_of_3e38_are_refused(api, own_cache, capsys):
    """was: stored as zero vectors (their float32 length is inf) and scored: a run, exit 0"""
    api.faults = ["huge"]
    with unchanged(own_cache):
        run_fails(["run", "--model", API_MODEL, "--release", RELEASE, "--tasks", "c2c"], capsys,
                  API_MODEL, "malformed answer", "beyond float32")


def test_api_encoder_refuses_lengths_beyond_float32():
    """was: ``encode(..., normalize_embeddings=True)`` gave [0, 0] for [3e38, 3e38]"""
    from coreb_core.retrieval.api_encoders import ApiEncoder

    fake = ApiEncoder("demo", "openai", lambda texts: [[3e38, -3e38] for _ in texts], secrets=())
    with pytest.raises(CorebError) as err:
        fake.encode(["a"], normalize_embeddings=True)
    assert str(err.value) == ("demo: malformed answer from the openai API: vector 1 of 1 has a length of 4.24e+38, "
                              "beyond float32 (an embedding's length is near 1)")


def test_a_trickling_server_is_given_up_at_the_timeout(api, monkeypatch):
    """was: each read waited at most COREB_API_TIMEOUT_S, so a byte a second kept the request alive (still waiting
    at 150 s under a 5 s limit)"""
    from coreb_core.retrieval.api_encoders import ApiModel

    api.trickle_s = 0.05  # an answer of some kilobytes: minutes, a byte well within every read timeout
    monkeypatch.setenv("COREB_API_TIMEOUT_S", "1")
    model = ApiModel(API_MODEL, "openai", "text-embedding-3-large", None)
    box: dict = {}

    def encode() -> None:
        try:
            model.for_side("query").encode(["def add(a, b): return a + b"] * 8, batch_size=8)
        except CorebError as exc:
            box["error"] = str(exc)

    start = time.perf_counter()
    worker = threading.Thread(target=encode, daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "still waiting after 30 s"
    assert time.perf_counter() - start < 10
    assert box["error"] == (f"{API_MODEL}: the openai API still failed after 2 attempts (last: no complete answer "
                            "within COREB_API_TIMEOUT_S = 1 s)")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999"])
def test_api_attempts_nan_or_inf_is_one_line(api, own_cache, capsys, monkeypatch, value):
    """was: ``ValueError: cannot convert float NaN to integer`` (nan) and ``OverflowError`` (inf) tracebacks"""
    monkeypatch.setenv("COREB_API_ATTEMPTS", value)
    with unchanged(own_cache):
        run_fails(["run", "--model", API_MODEL, "--release", RELEASE, "--tasks", "c2c"], capsys,
                  f"COREB_API_ATTEMPTS must be a number from 1 to 100, not '{value}'")


# ------------------------------------------------------------------ S7: a length beyond the model's positions

def test_train_reranker_max_length_beyond_positions_is_refused_up_front(own_cache, tmp_path, capsys):
    """was: the training started and failed in the embedding layer mid-run (a tensor-size traceback)"""
    samples = tmp_path / "s.jsonl"
    samples.write_text(json.dumps({"query_id": "q", "task": "text2code", "subtask": "t2c_search_go", "query": "Sum.",
                                   "pos": [{"id": "d", "text": "a+b"}], "hard_neg": [], "easy_neg": []}) + "\n")
    with unchanged(own_cache):
        refuses(["train-reranker", "--samples", str(samples), "--base", "minilm", "--out", str(tmp_path / "r"),
                 "--max-length", "1000000000"], capsys,
                "--max-length 1,000,000,000: beyond the model's 512 positions")
    assert not (tmp_path / "r").exists()


def test_a_folder_whose_max_seq_length_exceeds_its_positions_is_refused(tiny_cache, tmp_path, capsys):
    """was: the run went ahead on a folder whose ``sentence_bert_config.json`` asks 10**9 tokens of a model of 64
    positions (the issue: a tensor-size traceback mid-run)"""
    from tests.hostile.test_model_folders import bert_folder

    folder = bert_folder(tmp_path / "long", positions=64)
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 10**9, "do_lower_case": False}))
    capsys.readouterr()  # the folder's own saving lines
    with unchanged(tiny_cache):
        refuses(["run", "--model", str(folder), "--release", "tiny", "--tasks", "c2c", "--profile", "card"], capsys,
                f"{folder / 'sentence_bert_config.json'}: field 'max_seq_length' 1,000,000,000: beyond the model's "
                "64 positions")


# ------------------------------------------------------------------ S8: mining k

@pytest.mark.parametrize("k", ["99999999999999999999", "308"])
def test_mine_k_beyond_the_corpus_is_refused(lexical_copy, tmp_path, capsys, k):
    """was: accepted; in the triplets format k columns were built (3.8 GB in 30 s, no line printed for 10**20)"""
    root, run_id = lexical_copy
    out = tmp_path / "mined.jsonl"
    refuses(["mine", "--run", run_id, "--k", k, "--format", "samples", "--out", str(out)], capsys,
            f"--k {k}: more negatives per query than the 307 documents of {RELEASE}'s largest corpus")
    assert not out.exists()


def test_mine_run_k_bound_in_the_library(lexical_copy):
    """was: ``mine_run(run, k=10**20)`` went ahead (every query "short")"""
    from coreb_core.training.mining import mine_run

    root, run_id = lexical_copy
    with pytest.raises(CorebError, match="give at most that many"):
        mine_run(run_id, 10**20, root)
    assert mine_run(run_id, 307, root).k == 307  # the bound itself is allowed


def test_join_files_carry_a_sha256_digest_and_those_of_the_blake2b_format_still_read():
    """Derived array files are checked with SHA-256 (cut to 16 bytes; twice BLAKE2b's speed on this CPU); files
    written with the BLAKE2b mark before read as they did, and a flipped byte fails either digest."""
    import hashlib
    import io

    import numpy as np

    from coreb_core.evaluation.join import CHECK_MARK, checked_npy, read_checked_npy

    array = np.arange(40, dtype=np.int32)
    raw = checked_npy(array)
    payload = raw[:-32]
    assert raw[-32:-16] == CHECK_MARK == b"coreb-sha256-16:" and raw[-16:] == hashlib.sha256(payload).digest()[:16]
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    old = buffer.getvalue() + b"coreb-blake2b-16" + hashlib.blake2b(buffer.getvalue(), digest_size=16).digest()
    for good in (raw, old):
        assert read_checked_npy(good).tolist() == array.tolist()
        flipped = good[:100] + bytes([good[100] ^ 1]) + good[101:]
        assert read_checked_npy(flipped) is None
    assert read_checked_npy(old[:-32] + b"coreb-sha256-16:" + old[-16:]) is None  # a mark must match its digest
