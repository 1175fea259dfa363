"""Damaged embedding cache shards (``data_cache/embeddings/<identity>/shard-*.npz``) under a warm run: NaN rows,
128-wide vectors where the encoder makes 384, rows permuted, a flipped byte, a zero-byte shard (a write cut
short), float64 vectors; each in a shard written with a checksum in its name and, where the checksum is not
what catches it, in a shard written before checksums. The run must say which shard it dropped (one
``warning:`` line), encode that shard's texts again, score exactly as the clean run did, and replace the shard.

The encoder is a deterministic stand-in (character trigrams hashed into 384 dimensions) put in place of the
official profile's loader: the cache, the pipeline and the CLI under test are the real ones. One test runs the
real MiniLM on the tiny release.
"""
from __future__ import annotations

import re
import zlib
from pathlib import Path

import numpy as np
import pytest

from coreb_core.cli import main
from coreb_core.retrieval.embeddings import EmbeddingCache
from coreb_core.retrieval.runner_encoder import RunnerEncoder

WIDTH = 384


class Trigrams:
    """The vector of a text: its character trigrams, hashed into 384 dimensions, L2-normalised."""

    def encode(self, texts, prompt=None, batch_size=8, **options):
        out = np.zeros((len(texts), WIDTH), dtype=np.float32)
        for row, text in enumerate(texts):
            for i in range(max(1, len(text) - 2)):
                out[row, zlib.crc32(text[i:i + 3].encode()) % WIDTH] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


@pytest.fixture
def trigram_encoder(monkeypatch):
    """The official profile loads ``Trigrams`` instead of a transformers model."""
    monkeypatch.setattr(RunnerEncoder, "load", classmethod(lambda cls, *args, **kwargs: Trigrams()))


def run(capsys, release: str = "demo_v2603") -> tuple[int, str, list[str]]:
    """``run --model minilm --tasks c2c`` in process: (texts encoded, the nDCG line, the warning lines)."""
    assert main(["run", "--model", "minilm", "--release", release, "--tasks", "c2c", "--device", "cpu"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    encoded = int(re.search(r"encoded (\d+) texts", out)[1])
    ndcg = re.search(r"c2c nDCG@10 \(v2\) [0-9.]+", out)[0]
    return encoded, ndcg, [line for line in err.splitlines() if line.startswith("warning:")]


def shards(cache_root: Path) -> list[Path]:
    return sorted((cache_root / "embeddings").glob("*/shard-*.npz"))


def docs_shard(cache_root: Path) -> Path:
    """The largest shard (the documents': C2C's queries are code texts of the corpus, already encoded)."""
    return max(shards(cache_root), key=lambda p: p.stat().st_size)


def rewrite(path: Path, case: str) -> None:
    """Damage ``path`` in place as ``case`` says (keys kept where the case allows)."""
    with np.load(path) as arrays:
        keys, vectors = arrays["keys"], arrays["vectors"]
    if case == "nan rows":
        vectors[:50] = np.nan
    elif case == "128 wide":
        vectors = vectors[:, :128].copy()
    elif case == "rows permuted":
        vectors = vectors[np.random.default_rng(0).permutation(len(vectors))]
    elif case == "float64":
        vectors = vectors.astype(np.float64)
    if case == "zero bytes":
        path.write_bytes(b"")
    elif case == "flipped byte":
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x10
        path.write_bytes(bytes(data))
    else:
        np.savez(path, keys=keys, vectors=vectors)


def legacy(path: Path) -> Path:
    """Rename a shard as the cache named shards before checksums (shard-<time>-<uuid>.npz)."""
    old = path.with_name(re.sub(r"-c[0-9a-f]{32}\.npz$", ".npz", path.name))
    path.rename(old)
    return old


@pytest.mark.parametrize("case", ["nan rows", "128 wide", "rows permuted", "flipped byte", "zero bytes", "float64"])
def test_a_damaged_shard_is_dropped_with_a_warning_and_re_encoded(own_cache, trigram_encoder, capsys, case):
    """was: the warm run used the damaged vectors silently ("encoded 0 texts", another nDCG@10: 0.2657 for NaN
    rows, 0.0182 for permuted rows), and a zero-byte shard ended the run in a traceback (EOFError)."""
    clean_encoded, clean_ndcg, warned = run(capsys)
    assert clean_encoded > 0 and not warned
    count = len(shards(own_cache))
    bad = docs_shard(own_cache)
    with np.load(bad) as arrays:
        rows = len(arrays["keys"])
    rewrite(bad, case)
    encoded, ndcg, warned = run(capsys)
    reason = {"zero bytes": "empty (0 bytes", "flipped byte": "vectors (BadZipFile)"}.get(case,
                                                                                              "checksum mismatch")
    assert len(warned) == 1 and str(bad) in warned[0] and reason in warned[0], warned
    assert encoded == rows  # the dropped shard's texts, and nothing else
    assert ndcg == clean_ndcg
    assert not bad.exists() and len(shards(own_cache)) == count  # replaced: its texts are in a new shard
    assert run(capsys)[::2] == (0, [])  # the next run finds everything, and nothing to say


@pytest.mark.parametrize("case, reason", [
    ("nan rows", "50 of its"),
    ("flipped byte", "not a readable .npz"),
    ("zero bytes", "empty (0 bytes"),
    ("float64", "vectors are float64"),
])
def test_a_damaged_shard_written_before_checksums_is_dropped_by_its_other_checks(own_cache, trigram_encoder, capsys,
                                                                                 case, reason):
    """was: NaN rows and float64 vectors of a shard were used silently; a zero-byte shard ended the run in a
    traceback (EOFError)."""
    clean_encoded, clean_ndcg, _ = run(capsys)
    for path in shards(own_cache):
        legacy(path)
    bad = docs_shard(own_cache)
    with np.load(bad) as arrays:
        rows = len(arrays["keys"])
    rewrite(bad, case)
    encoded, ndcg, warned = run(capsys)
    assert len(warned) == 1 and str(bad) in warned[0] and reason in warned[0], warned
    assert (encoded, ndcg) == (rows, clean_ndcg)
    assert not bad.exists()


def test_a_narrow_shard_written_before_checksums_is_dropped_once_the_encoder_runs(own_cache, trigram_encoder,
                                                                                   capsys):
    """was: 128-wide vectors in a shard of a 384-wide encoder were used silently (C2C nDCG@10 0.2787 for
    0.2956), and a run that encoded new 384-wide texts beside them ended in a traceback (shapes not aligned)."""
    clean_encoded, clean_ndcg, _ = run(capsys)
    (bad,) = [legacy(path) for path in shards(own_cache)]
    rewrite(bad, "128 wide")
    # T2C searches the same code corpus (found in the narrow shard) with new queries: the encoder runs
    assert main(["run", "--model", "minilm", "--release", "demo_v2603", "--tasks", "t2c", "--device", "cpu"]) == 0
    out, err = capsys.readouterr()
    assert [line for line in err.splitlines() if line.startswith("warning:")] == [f"warning: embedding cache: {bad}: 128-wide vectors, but the encoder now makes "
        "384-wide ones; dropped, its texts are encoded again"]
    assert not bad.exists()
    assert run(capsys) == (0, clean_ndcg, [])


def test_a_shard_written_before_checksums_is_still_used(own_cache, trigram_encoder, capsys):
    """was: (kept) an old cache's shards, whose names carry no checksum, serve a warm run: nothing re-encoded."""
    clean_encoded, clean_ndcg, _ = run(capsys)
    before = [legacy(path) for path in shards(own_cache)]
    assert run(capsys) == (0, clean_ndcg, [])
    assert shards(own_cache) == sorted(before)


def test_a_shard_name_carries_the_checksum_of_its_bytes(tmp_path):
    """was: shard names carried no checksum, so a shard rewritten in place (rows swapped) could not be told from
    the original."""
    from coreb_core.retrieval.embeddings import shard_checksum

    cache = EmbeddingCache("abc", tmp_path)
    cache.put(["a", "b"], "", np.eye(2))
    (path,) = cache.folder.glob("shard-*.npz")
    with np.load(path) as arrays:
        keys, vectors = arrays["keys"], arrays["vectors"]
    assert path.name.endswith(f"-c{shard_checksum(keys, vectors)}.npz")
    assert shard_checksum(keys, vectors[::-1]) != shard_checksum(keys, vectors)  # rows swapped


def test_shards_of_two_widths_serve_the_one_most_rows_have(tmp_path):
    """was: vectors of two widths under one encoder identity were both served, and stacking them ended the
    run in a ValueError traceback."""
    cache = EmbeddingCache("abc", tmp_path)
    cache.put(["a", "b", "c"], "", np.ones((3, 4)))
    (good,) = cache.folder.glob("shard-*.npz")
    other = cache.folder / "shard-20200101T000000-0123456789.npz"  # written before checksums, 2 wide
    np.savez(other, keys=np.frombuffer(b"k" * 16, dtype="S16"), vectors=np.ones((1, 2), dtype=np.float32))
    legacy(good)
    reader = EmbeddingCache("abc", tmp_path)
    assert (len(reader), reader.width) == (3, 4)
    assert reader.warnings == [f"embedding cache: {other}: 2-wide vectors where this encoder's hold 4; dropped, "
                               "its texts are encoded again"]


def test_a_real_minilm_run_re_encodes_a_shard_with_nan_rows(tiny_cache, capsys):
    """was: the real MiniLM's warm run used NaN vectors silently ("encoded 0 texts", another score)."""
    clean_encoded, clean_ndcg, _ = run(capsys, "tiny")
    bad = docs_shard(tiny_cache)
    with np.load(bad) as arrays:
        keys, vectors = arrays["keys"], arrays["vectors"]
    vectors[:3] = np.nan
    np.savez(bad, keys=keys, vectors=vectors)
    encoded, ndcg, warned = run(capsys, "tiny")
    assert len(warned) == 1 and str(bad) in warned[0] and "checksum mismatch" in warned[0]
    assert (encoded, ndcg) == (len(keys), clean_ndcg)


def test_a_job_on_the_board_carries_the_dropped_shard_warning_to_the_app(own_cache, trigram_encoder, capsys):
    """was: a run started from the app (a job) dropped and re-encoded a damaged shard without a word: the job
    ended "done" and the warning the CLI prints went nowhere. Now ``JobState.warnings`` holds it, and the
    sidebar shows it beside the outcome (ui/jobs.py)."""
    from coreb_core.retrieval.jobs import DONE, JobBoard, RunRequest

    run(capsys)
    bad = docs_shard(own_cache)
    rewrite(bad, "nan rows")
    jobs = JobBoard()
    state = jobs.wait(jobs.submit(RunRequest("minilm", "demo_v2603", tasks=("c2c",), device="cpu"), root=own_cache),
                      120)
    assert state.status == DONE, state
    assert len(state.warnings) == 1 and str(bad) in state.warnings[0] and "checksum mismatch" in state.warnings[0]
