"""Retrieval core: registry, embedding cache, exact search, real runs, reranking."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO, run_cli
from coreb_core.embeddings import EmbeddingCache
from coreb_core.errors import CorebError
from coreb_core.models import REGISTRY, ModelSpec, resolve
from coreb_core.runs import hits_from_scores, run_meta
from coreb_core.search import dense_scores

LEADERBOARD = {"GemEmb-2", "C2LLM-7B", "C2LLM-0.5B", "Jina-code-1.5B", "Jina-code-0.5B", "F2LLM-4B", "F2LLM-1.7B",
               "F2LLM-0.6B", "Qwen3-Emb-4B", "Qwen3-Emb-8B", "Qwen3-Emb-0.6B"}


def test_registry_covers_the_leaderboard():
    assert {s.leaderboard_name for s in REGISTRY.values() if s.leaderboard_name} == LEADERBOARD
    assert not REGISTRY["gemini-embedding-2"].re_runnable
    assert all(s.re_runnable for s in REGISTRY.values() if s.id != "gemini-embedding-2")
    for spec in REGISTRY.values():
        if spec.kind == "dense" and spec.leaderboard_name:
            assert set(spec.query_prompts) == {"t2c", "c2c", "c2t"}, spec.id
            assert spec.params_b and spec.prompt_source
    assert REGISTRY["c2llm-7b"].trust_remote_code and not REGISTRY["qwen3-embedding-4b"].trust_remote_code
    assert Path(resolve("minilm").name, "modules.json").exists()


def test_models_command_lists_the_registry():
    done = run_cli("models", "--json")
    rows = {r["id"]: r for r in json.loads(done.stdout)}
    assert {"minilm", "bm25", "c2llm-7b", "qwen3-embedding-0.6b"} <= set(rows)
    assert rows["gemini-embedding-2"]["re_runnable"] is False


def test_resolve_local_folder_and_unknown_names(tmp_path):
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "modules.json").write_text("[]")
    assert resolve(str(folder)).name == str(folder.resolve())
    with pytest.raises(CorebError, match="unknown model"):
        resolve("no-such-model")


def test_unavailable_hub_model_fails_fast_with_a_clear_message(mini_cache, tmp_path):
    for env in ({"HF_HUB_OFFLINE": "1"}, {"HF_HUB_OFFLINE": "0", "HF_DATASETS_OFFLINE": "0"}):
        start = time.monotonic()
        done = run_cli("run", "--model", "some-org/some-embedder", "--release", "demo_v2603",
                       env={**env, "COREB_CACHE": str(mini_cache), "HF_HOME": str(tmp_path / "hf")})
        assert time.monotonic() - start < 5.0 + 3.0  # 5 s budget plus interpreter start-up
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "some-org/some-embedder is not in the local Hugging Face cache" in done.stderr
        assert "--model PATH" in done.stderr


# ------------------------------------------------------------------ embedding cache

def test_cache_hits_and_misses_by_prompt_and_revision(tmp_path):
    spec = ModelSpec("m", "dense", "org/m", "rev1")
    cache = EmbeddingCache(spec.identity("float32"), tmp_path)
    cache.put(["a", "b"], "Query: ", np.eye(2, dtype=np.float32))
    found, missing = cache.lookup(["a", "b", "c"], "Query: ")
    assert sorted(found) == [0, 1] and missing == [2]
    assert np.array_equal(found[1], [0, 1])
    assert EmbeddingCache(spec.identity("float32"), tmp_path).lookup(["a"], "Other: ")[1] == [0]  # prompt changed
    moved = spec._replace(revision="rev2")
    assert moved.identity("float32") != spec.identity("float32")
    assert EmbeddingCache(moved.identity("float32"), tmp_path).lookup(["a"], "Query: ")[1] == [0]  # revision changed
    assert spec.identity("float16") != spec.identity("float32")  # GPU half precision is kept apart


def test_a_writer_killed_mid_write_leaves_nothing_loadable(tmp_path):
    identity = "killed"
    script = f"""
import sys, numpy as np
sys.path.insert(0, {str(REPO)!r})
import coreb_core.embeddings as e
real = e.np.savez
def slow_savez(f, **arrays):
    f.write(b"PK\\x03\\x04 partial shard")
    f.flush()
    print("writing", flush=True)
    import time; time.sleep(60)
e.np.savez = slow_savez
e.EmbeddingCache({identity!r}, __import__("pathlib").Path({str(tmp_path)!r})).put(["x"], "", np.ones((1, 4)))
"""
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "writing"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    folder = tmp_path / "embeddings" / identity
    assert [p.suffix for p in folder.iterdir()] == [".tmp"]  # only the temp file is there
    cache = EmbeddingCache(identity, tmp_path)
    assert len(cache) == 0 and cache.lookup(["x"], "")[1] == [0]
    # a torn shard under the final name is never trusted either
    (folder / "shard-torn.npz").write_bytes(b"PK\x03\x04 torn")
    assert len(EmbeddingCache(identity, tmp_path)) == 0


# ------------------------------------------------------------------ exact search

def test_faiss_and_brute_force_rank_identically():
    rng = np.random.default_rng(0)
    q, d = rng.normal(size=(40, 32)).astype(np.float32), rng.normal(size=(300, 32)).astype(np.float32)
    qn, dn = q / np.linalg.norm(q, axis=1, keepdims=True), d / np.linalg.norm(d, axis=1, keepdims=True)
    brute = qn.astype(np.float64) @ dn.astype(np.float64).T
    ids = [f"d{i:03d}" for i in range(300)]
    qids = [f"q{i}" for i in range(40)]
    a = hits_from_scores("t2c", qids, ids, dense_scores(q, d), top_k=300)
    b = hits_from_scores("t2c", qids, ids, brute, top_k=300)
    assert a["doc_id"].astype(str).tolist() == b["doc_id"].astype(str).tolist()
    assert np.allclose(a["score"], b["score"], atol=1e-6)


# ------------------------------------------------------------------ real runs on CoREB-mini

@pytest.fixture(scope="module")
def private_cache(mini_cache, tmp_path_factory) -> Path:
    """The built releases with an empty embedding cache and no runs, whatever ran before."""
    import shutil

    root = tmp_path_factory.mktemp("retrieval-cache")
    shutil.copytree(mini_cache / "coreb", root / "coreb", symlinks=True)
    return root


@pytest.fixture(scope="module")
def minilm_runs(private_cache):
    from coreb_core.retrieval import run_retrieval

    cold = run_retrieval("minilm", "demo_v2603", root=private_cache)
    warm = run_retrieval("minilm", "demo_v2603", root=private_cache)
    return cold, warm


def test_second_identical_run_encodes_nothing_and_scores_the_same(minilm_runs, private_cache):
    mini_cache = private_cache
    from coreb_core.evaluate import evaluate, load_hits
    from coreb_core.store import Store

    cold, warm = minilm_runs
    assert cold.texts_encoded > 0 and warm.texts_encoded == 0
    assert warm.ndcg_at_10 == cold.ndcg_at_10
    with Store("demo_v2603", mini_cache) as store:
        a = evaluate(store, load_hits(cold.run_id, mini_cache))
        b = evaluate(store, load_hits(warm.run_id, mini_cache))
    assert a.drop(columns=[]).equals(b)
    meta = run_meta(cold.run_id, mini_cache)
    assert meta["model_spec"]["id"] == "minilm" and meta["device"] == "cpu" and meta["precision"] == "float32"
    assert set(meta["prompts"]) == {"t2c", "c2c", "c2t"} and meta["corpus_fingerprint"]
    assert meta["texts_encoded"] == cold.texts_encoded and "sentence-transformers" in meta["packages"]
    # MiniLM is a weak code model but far from random on CoREB-mini
    assert 0.1 < cold.ndcg_at_10["t2c"] < 0.9 and 0.1 < cold.ndcg_at_10["c2t"] < 0.9


def test_run_keeps_every_judged_document_and_the_anchor(minilm_runs, private_cache):
    mini_cache = private_cache
    from coreb_core.evaluate import load_hits
    from coreb_core.store import Store

    hits = load_hits(minilm_runs[0].run_id, mini_cache)
    hits = hits.astype({"task": str, "query_id": str, "doc_id": str})
    with Store("demo_v2603", mini_cache) as store:
        judged = store.sql("SELECT task, query_id, doc_id FROM qrels").df()
        anchors = store.sql("SELECT task, query_id, anchor_code_id AS doc_id FROM queries WHERE task = 'c2c'").df()
    stored = set(map(tuple, hits[["task", "query_id", "doc_id"]].values))
    assert set(map(tuple, judged.values)) <= stored and set(map(tuple, anchors.values)) <= stored
    assert hits.groupby(["task", "query_id"])["in_top_k"].sum().eq(100).all()


def test_bm25_run_from_the_cli(mini_cache):
    done = run_cli("run", "--model", "bm25", "--release", "demo_v2603", env={"COREB_CACHE": str(mini_cache)})
    assert done.returncode == 0, done.stderr
    assert "%|" in done.stderr  # the progress bar
    values = {line.split()[0]: float(line.split()[-1]) for line in done.stdout.splitlines() if "nDCG@10" in line}
    assert set(values) == {"t2c", "c2c", "c2t"} and all(0.05 < v < 0.95 for v in values.values())


def _tiny_cross_encoder(folder: Path) -> Path:
    """A 2-layer BERT cross-encoder with random weights and MiniLM's vocabulary, built offline."""
    import shutil

    from transformers import BertConfig, BertForSequenceClassification

    import torch

    torch.manual_seed(0)
    config = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, num_labels=1, max_position_embeddings=512)
    BertForSequenceClassification(config).save_pretrained(folder)
    source = Path(resolve("minilm").name)
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(source / name, folder / name)
    return folder


def test_rerank_with_a_locally_built_cross_encoder(mini_cache, tmp_path):
    from sentence_transformers import CrossEncoder

    from coreb_core.evaluate import load_hits
    from coreb_core.retrieval import rerank_run, run_retrieval
    from coreb_core.store import Store

    model = _tiny_cross_encoder(tmp_path / "tiny-ce")
    first = run_retrieval("bm25", "demo_v2603", tasks=("c2t",), root=mini_cache)
    reranked = rerank_run(first.run_id, str(model), depth=10, root=mini_cache)
    meta = run_meta(reranked.run_id, mini_cache)
    assert meta["first_stage"] == first.run_id and meta["rerank_depth"] == 10 and meta["kind"] == "rerank"
    a = load_hits(first.run_id, mini_cache).astype({"query_id": str, "doc_id": str})
    b = load_hits(reranked.run_id, mini_cache).astype({"query_id": str, "doc_id": str})
    qid = a["query_id"].iloc[0]
    top_a = a[(a.query_id == qid) & (a["rank"] <= 10)]
    top_b = b[(b.query_id == qid) & (b["rank"] <= 10)].sort_values("rank")
    assert set(top_a.doc_id) == set(top_b.doc_id)  # same documents, new order
    with Store("demo_v2603", mini_cache) as store:
        query = store.sql("SELECT query FROM queries WHERE query_id = ?", [qid]).fetchone()[0]
        docs = dict(store.sql("SELECT doc_id, content FROM documents WHERE corpus = 'text'").fetchall())
    expected = CrossEncoder(str(model), device="cpu").predict([(query, docs[d]) for d in top_b.doc_id])
    assert np.allclose(top_b["score"], expected, atol=1e-5)
    assert (np.diff(top_b["score"].to_numpy()) <= 1e-9).all()
    beyond = lambda h: h[(h.query_id == qid) & (h["rank"] > 10)].set_index("doc_id")["rank"].to_dict()  # noqa: E731
    assert beyond(a) == beyond(b)  # positions beyond the depth are untouched
