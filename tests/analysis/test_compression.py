"""Compressed embeddings (issue 36, item 4): a dense run searched again from its cached vectors, truncated and
quantised. The run here is "minilm" encoded by a fake encoder (``tests.builders.Trigrams``, 64 dimensions, seconds):
the compression reads whatever vectors the run stored, so the encoder's quality does not matter, only that the
variants are searched and scored as the run was."""
import json
import shutil
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from coreb_core.analysis.compression import RUN, Variant, compressed_hits, compression, variants_of
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import evaluate
from coreb_core.retrieval.compression import bytes_per_vector, compressed_scores, truncate
from coreb_core.runs.folders import read_hits, run_meta
from tests.builders import FAKE_WIDTH as WIDTH


@pytest.fixture(scope="module")
def dense(fake_dense):
    return fake_dense


@pytest.fixture(scope="module")
def result(dense):
    root, run, _ = dense
    with Store("demo_v2603", root) as store:
        return compression(store, run_meta(run, root), dims=[32, 8], root=root)


def test_full_width_float32_is_the_run_itself(dense):
    root, run, _ = dense
    with Store("demo_v2603", root) as store:
        width, variants = compressed_hits(store, run_meta(run, root), dims=[], precisions=["float32"], root=root)
        assert width == WIDTH and list(variants) == [Variant(WIDTH, "float32")]
        mine, theirs = variants[Variant(WIDTH, "float32")], read_hits(run, root)
        # the same rows, ranks and scores, bit for bit
        key = ["task", "query_id", "rank"]
        a = mine.astype({"task": str, "query_id": str, "doc_id": str, "rank": "int64"}).sort_values(key, ignore_index=True)
        b = theirs.astype({"task": str, "query_id": str, "doc_id": str, "rank": "int64"}).sort_values(key, ignore_index=True)
        pd.testing.assert_frame_equal(a[b.columns], b, check_exact=True)
        # and so the official per-query scores
        pd.testing.assert_frame_equal(evaluate(store, mine), evaluate(store, theirs), check_exact=True)


def test_table_per_variant_and_task(result):
    t = result.table
    assert result.reproduces and result.width == WIDTH
    assert [v.label for v in result.variants] == ["64 · float32", "64 · int8", "64 · binary", "32 · float32",
                                                  "32 · int8", "32 · binary", "8 · float32", "8 · int8", "8 · binary"]
    assert len(t) == 9 * 3 and set(t["task"]) == {"t2c", "c2c", "c2t"}
    full = t[t["full"]]
    assert len(full) == 3 and (full["ndcg_change"] == 0).all() and (full["lost_change"] == 0).all()
    assert t.set_index(["dims", "precision"])["bytes_per_vector"].groupby(level=[0, 1]).first().to_dict() == {
            (64, "float32"): 256, (64, "int8"): 64, (64, "binary"): 8, (32, "float32"): 128, (32, "int8"): 32,
            (32, "binary"): 4, (8, "float32"): 32, (8, "int8"): 8, (8, "binary"): 1}
    # changes are against the run's own means; lost shares count queries with a positive
    assert np.allclose(t["lost_share"], t["lost"] / t["with_positive"])
    per_task = t[t["full"]].set_index("task")
    assert np.allclose(t["ndcg_change"], t["ndcg_at_10"] - t["task"].map(per_task["ndcg_at_10"]))
    assert np.allclose(t["lost_change"], t["lost_share"] - t["task"].map(per_task["lost_share"]))
    # 8 binary dimensions (1 byte: 256 codes at most) cannot rank like 64 float32 ones
    t2c = t[t["task"] == "t2c"].set_index(["dims", "precision"])
    assert t2c.at[(8, "binary"), "ndcg_at_10"] < t2c.at[(64, "float32"), "ndcg_at_10"]
    assert RUN not in set(result.per_query["variant"]) and len(result.per_query) == 9 * 1200


def test_truncation_renormalises():
    x = np.array([[3.0, 4.0, 12.0], [1.0, 0.0, 5.0]])
    t = truncate(x, 2)
    assert t.dtype == np.float32 and np.allclose(np.linalg.norm(t, axis=1), 1.0)
    assert np.allclose(t, [[0.6, 0.8], [1.0, 0.0]])
    q = np.array([[1.0, 0.0, 9.0]])
    # the 2-dimensional cosine, not the 3-dimensional one
    assert np.allclose(compressed_scores(q, x, 2, "float32"), [[0.6, 1.0]])


def test_bytes_and_a_plausible_ordering_on_a_hand_made_fixture():
    assert [bytes_per_vector(d, p) for d in (384, 32, 7) for p in ("float32", "int8", "binary")] == [
        1536, 384, 48, 128, 32, 4, 28, 7, 1]
    rng = np.random.default_rng(0)
    docs = rng.normal(size=(200, 64)).astype(np.float32)
    queries = docs[:50] + 0.3 * rng.normal(size=(50, 64)).astype(np.float32)  # each query near its own document
    found = {}
    for precision in ("float32", "int8", "binary"):
        scores = compressed_scores(queries, docs, 64, precision)
        found[precision] = float((scores.argmax(axis=1) == np.arange(50)).mean())
    assert found["float32"] == 1.0 and found["int8"] == 1.0 and 0.8 <= found["binary"] <= 1.0
    # int8 scores stay close to the float32 cosines; binary ones are ±1 inner products of 64 signs
    assert np.abs(compressed_scores(queries, docs, 64, "int8") - compressed_scores(queries, docs, 64, "float32")).max() < 0.05
    binary = compressed_scores(queries, docs, 64, "binary")
    assert binary.max() <= 64 and (binary % 2 == 0).all()
    coarse = float((compressed_scores(queries, docs, 4, "binary").argmax(axis=1) == np.arange(50)).mean())
    assert coarse < found["binary"]


def test_hostile_inputs(dense):
    root, run, bm25 = dense
    with Store("demo_v2603", root) as store:
        meta = run_meta(run, root)
        with pytest.raises(CorebError, match="has no encoder.*need a dense run"):
            compression(store, run_meta(bm25, root), root=root)
        with pytest.raises(CorebError, match="--dims 65: the run's vectors have 64 dimensions"):
            compressed_hits(store, meta, dims=[65], root=root)
        with pytest.raises(CorebError, match="--dims 0"):
            compressed_hits(store, meta, dims=[0], root=root)
        with pytest.raises(CorebError, match="unknown precision 'int4'"):
            compressed_hits(store, meta, precisions=["int4"], root=root)
        with pytest.raises(CorebError, match="at least one precision"):
            variants_of(64, [], [])
        with pytest.raises(CorebError, match="did not search task t2c"):
            compressed_hits(store, replace(meta, tasks=("c2c",)), tasks=["t2c"], root=root)
    with pytest.raises(CorebError, match="not in its embedding cache; nothing is re-encoded"):
        empty = root.parent / "no-vectors"
        shutil.copytree(root, empty, ignore=shutil.ignore_patterns("embeddings"))
        with Store("demo_v2603", empty) as store:
            compressed_hits(store, run_meta(run, empty), tasks=["c2c"], root=empty)


def test_cli_in_process(dense, capsys, monkeypatch):
    from coreb_core.cli import main

    root, run, bm25 = dense
    monkeypatch.setenv("COREB_CACHE", str(root))
    assert main(["compress", "--release", "demo_v2603", "--run", run, "--dims", "16", "--precision", "int8",
                 "--task", "c2c", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reproduces"] is True and out["width"] == WIDTH
    assert [(r["dims"], r["precision"]) for r in out["rows"]] == [(64, "float32"), (64, "int8"), (16, "int8")]
    assert {r["task"] for r in out["rows"]} == {"c2c"}
    assert main(["compress", "--release", "demo_v2603", "--run", run, "--dims", "16", "--task", "c2c"]) == 0
    text = capsys.readouterr().out
    assert "64 · float32 (the run)" in text and "16 · binary" in text and "2 B" in text
    for argv, words in (([ "--run", bm25], "need a dense run"), (["--run", run, "--dims", "99"], "--dims 99"),
                        (["--run", run, "--dims", "0"], "--dims"), (["--run", run, "--precision", "fp8"], "fp8"),
                        (["--run", "no_such_run"], "no_such_run")):
        assert main(["compress", "--release", "demo_v2603", *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error:") and words in err[0], err

