"""Retrieval core: registry, encoding profiles, embedding cache, exact search, real runs, reranking."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from coreb_core.errors import CorebError
from coreb_core.retrieval.embeddings import EmbeddingCache
from coreb_core.retrieval.models import REGISTRY, ModelSpec, resolve
from coreb_core.retrieval.profiles import encoder_identity, encoding_for
from coreb_core.retrieval.search import dense_scores
from coreb_core.runs.folders import run_meta
from coreb_core.runs.hits import hits_from_scores
from coreb_core.runs.meta import run_name
from tests.builders import run_cli
from tests.rerank_fixtures import tiny_bert

LEADERBOARD = {"GemEmb-2", "C2LLM-7B", "C2LLM-0.5B", "Jina-code-1.5B", "Jina-code-0.5B", "F2LLM-4B", "F2LLM-1.7B",
               "F2LLM-0.6B", "Qwen3-Emb-4B", "Qwen3-Emb-8B", "Qwen3-Emb-0.6B"}


def test_registry_covers_the_leaderboard():
    assert {s.leaderboard_name for s in REGISTRY.values() if s.leaderboard_name} == LEADERBOARD
    assert all(s.re_runnable for s in REGISTRY.values())  # API models too, with their key (test_api_models.py)
    assert {s.provider for s in REGISTRY.values() if s.kind == "api"} == {"gemini", "openai", "voyage"}
    for spec in REGISTRY.values():
        if spec.kind == "dense":
            assert set(spec.card) == {"t2c", "c2c", "c2t"}, spec.id  # every task says what the card gives, or not
            assert all(p.source for p in spec.card.values()) and spec.card_note and spec.params_b, spec.id
    assert REGISTRY["c2llm-7b"].trust_remote_code and not REGISTRY["qwen3-embedding-4b"].trust_remote_code
    assert Path(resolve("minilm").name, "modules.json").exists()
    # card prompts are quoted, never paraphrased: C2T documents of jina-code are comments, not code
    assert REGISTRY["jina-code-1.5b"].card["c2t"].document == "Candidate comment:\n"
    assert REGISTRY["jina-code-1.5b"].card["t2c"].document == "Candidate code snippet:\n"
    assert REGISTRY["c2llm-0.5b"].card["c2c"].query.startswith("Given a Python code snippet, retrieve its semantically")
    assert all(p.query == "" for p in REGISTRY["f2llm-4b"].card.values())  # none published: none written
    assert "no instruction for code retrieval was found" in REGISTRY["f2llm-4b"].card_note


def test_registry_has_coder_1_5b_as_published():
    spec = resolve("coder-1.5b")  # the paper's name is an alias of the published model
    assert spec == REGISTRY["bge-code-v1"] and spec.name == "BAAI/bge-code-v1"
    assert len(spec.revision) == 40 and int(spec.revision, 16) >= 0 and spec.trust_remote_code
    assert spec.card["t2c"].query == ("<instruct>Given a code contest problem description, retrieve relevant code that "
                                      "can help solve the problem.\n<query>")
    assert all(p.document == "" for p in spec.card.values())
    assert "Towards A Generalist Code Embedding Model Based On Massive Data Synthesis" in spec.card_note


def test_models_command_lists_the_registry():
    done = run_cli("models", "--json")
    rows = {r["id"]: r for r in json.loads(done.stdout)}
    assert {"minilm", "bm25", "c2llm-7b", "qwen3-embedding-0.6b", "bge-code-v1"} <= set(rows)
    assert rows["gemini-embedding-2"]["re_runnable"] is True and rows["gemini-embedding-2"]["kind"] == "api"
    assert rows["bge-code-v1"]["aliases"] == ["coder-1.5b"]
    assert rows["jina-code-0.5b"]["card_prompts"]["c2t"]["document"] == "Candidate comment:\n"


def test_resolve_local_folder_and_unknown_names(tmp_path):
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "modules.json").write_text("[]")
    assert resolve(str(folder)).name == str(folder.resolve())
    with pytest.raises(CorebError, match="unknown model"):
        resolve("no-such-model")


def test_unavailable_hub_model_fails_fast_with_a_clear_message(mini_data, tmp_path):
    for env in ({"HF_HUB_OFFLINE": "1"}, {"HF_HUB_OFFLINE": "0", "HF_DATASETS_OFFLINE": "0"}):
        start = time.monotonic()
        done = run_cli("run", "--model", "some-org/some-embedder", "--release", "demo_v2603",
                       env={**env, "COREB_CACHE": str(mini_data), "HF_HOME": str(tmp_path / "hf")})
        assert time.monotonic() - start < 5.0 + 3.0  # 5 s budget plus interpreter start-up
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "some-org/some-embedder is not in the local Hugging Face cache" in done.stderr
        assert "--model PATH" in done.stderr


def test_coder_cannot_be_had_offline_and_says_so_in_one_line(mini_data, tmp_path):
    for profile in ("official", "card"):
        done = run_cli("run", "--model", "bge-code-v1", "--release", "demo_v2603", "--profile", profile,
                       env={"HF_HUB_OFFLINE": "1", "COREB_CACHE": str(mini_data), "HF_HOME": str(tmp_path / "hf")})
        assert done.returncode == 2 and "Traceback" not in done.stderr
        lines = [line for line in done.stderr.splitlines() if line.strip() and "%|" not in line]  # not the bar
        assert len(lines) == 1 and "model BAAI/bge-code-v1 is not in the local Hugging Face cache" in lines[0]


def test_unknown_profile_is_refused():
    done = run_cli("run", "--model", "minilm", "--release", "demo_v2603", "--profile", "mteb")
    assert done.returncode == 2 and "invalid choice: 'mteb'" in done.stderr
    from coreb_core.retrieval.pipeline import run_retrieval

    with pytest.raises(CorebError, match="unknown profile 'mteb'"):
        run_retrieval("minilm", "demo_v2603", profile="mteb")


# ------------------------------------------------------------------ embedding cache

def test_cache_hits_and_misses_by_prompt_revision_and_profile(tmp_path):
    spec = ModelSpec("m", "dense", "org/m", "rev1")
    official, card = encoding_for(spec, "official", "cpu"), encoding_for(spec, "card", "cpu")
    identity = encoder_identity(spec, card)
    cache = EmbeddingCache(identity, tmp_path)
    cache.put(["a", "b"], "Query: ", np.eye(2, dtype=np.float32))
    found, missing = cache.lookup(["a", "b", "c"], "Query: ")
    assert sorted(found) == [0, 1] and missing == [2]
    assert np.array_equal(found[1], [0, 1])
    assert EmbeddingCache(identity, tmp_path).lookup(["a"], "Other: ")[1] == [0]  # prompt changed
    moved = spec._replace(revision="rev2")
    assert encoder_identity(moved, card) != identity
    assert EmbeddingCache(encoder_identity(moved, card), tmp_path).lookup(["a"], "Query: ")[1] == [0]  # revision
    assert encoder_identity(spec, card._replace(precision="float16")) != identity  # GPU half precision kept apart
    assert encoder_identity(spec, official) != identity  # the other profile never sees these vectors
    assert EmbeddingCache(encoder_identity(spec, official), tmp_path).lookup(["a"], "Query: ")[1] == [0]


# ------------------------------------------------------------------ encoding profiles (real MiniLM encodes)

@pytest.fixture(scope="module")
def minilm_encoders():
    from coreb_core.retrieval.profiles import load_encoder

    spec = resolve("minilm")
    official, card = encoding_for(spec, "official", "cpu"), encoding_for(spec, "card", "cpu")
    return (official, load_encoder(spec, official, "cpu")), (card, load_encoder(spec, card, "cpu"))


def _code_by_tokens(root, tokenizer):
    from coreb_core.data.store import Store

    with Store("demo_v2603", root) as store:
        code = [c for (c,) in store.sql("SELECT content FROM documents WHERE corpus = 'code' ORDER BY doc_id").fetchall()]
    return [(len(tokenizer(c)["input_ids"]), c) for c in code]


def test_profiles_describe_what_the_runner_and_the_card_do():
    official, card = encoding_for(resolve("minilm"), "official", "cpu"), encoding_for(resolve("minilm"), "card", "cpu")
    assert (official.backend, official.max_length, official.precision) == ("transformers", 512, "float32")
    assert (card.backend, card.max_length) == ("sentence-transformers", 256)
    jina_official = encoding_for(resolve("jina-code-1.5b"), "official", "cpu")
    assert all(p.query == p.document == "" for p in jina_official.prompts.values())  # the runner adds no prompt
    jina_card = encoding_for(resolve("jina-code-1.5b"), "card", "cuda")
    assert jina_card.prompt("c2t") == REGISTRY["jina-code-1.5b"].card["c2t"] and jina_card.precision == "float16"


def test_minilm_official_differs_from_card_beyond_256_tokens_and_equals_it_below(minilm_encoders, mini_data):
    (official, runner), (card, st_model) = minilm_encoders
    assert official.prompts["t2c"].query == card.prompts["t2c"].query == ""  # MiniLM has no prompt in either profile
    sized = _code_by_tokens(mini_data, runner.tokenizer)
    # four of each: every one is checked, a count is not (each long text costs both models 300-512 tokens)
    long = [c for n, c in sized if 300 <= n <= 512][:4]  # the runner sees all of it, sentence-transformers 256 tokens
    short = [c for n, c in sized if n <= 200][:4]  # neither truncates
    assert len(long) == 4 and len(short) == 4
    for texts, expect_equal in ((long, False), (short, True)):
        a = runner.encode(texts, batch_size=8)
        b = st_model.encode(texts, batch_size=8, normalize_embeddings=True, convert_to_numpy=True)
        cosine = (a * b).sum(axis=1)
        if expect_equal:
            assert np.all(cosine > 1 - 1e-5), cosine
        else:
            assert np.all(cosine < 0.999), cosine  # real differences, not rounding
    assert runner.pooling_seen == {"mean"}  # a BERT model returns no sentence_embedding: mean pooling, as the runner


def test_official_vectors_do_not_depend_on_batch_composition(minilm_encoders, mini_data):
    """Padding to the longest text of a batch is masked out: batch size changes rounding only."""
    (_, runner), _ = minilm_encoders
    sized = _code_by_tokens(mini_data, runner.tokenizer)[:6]  # six texts: what is checked is the padding, not a count
    assert len({n for n, _ in sized}) == 6  # each of another length: every text but the longest is padded together
    texts = [c for _, c in sized]
    alone = np.vstack([runner.encode([t]) for t in texts])
    together = runner.encode(texts, batch_size=6)
    assert np.abs(alone - together).max() < 1e-5


def test_a_writer_killed_mid_write_leaves_nothing_loadable(tmp_path):
    identity = "killed"
    script = f"""
import sys, numpy as np
import coreb_core.retrieval.embeddings as e
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
def private_cache(minilm_cold_and_warm) -> Path:
    """The built releases in a cache of their own whose embeddings were empty before its first run."""
    return minilm_cold_and_warm[0]


@pytest.fixture(scope="module")
def minilm_runs(minilm_cold_and_warm):
    """(cold, warm): two identical MiniLM runs under the default profile (official), cold one first."""
    return minilm_cold_and_warm[1], minilm_cold_and_warm[2]


def test_second_identical_run_encodes_nothing_and_scores_the_same(minilm_runs, private_cache):
    mini_cache = private_cache
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import evaluate, score_run
    from coreb_core.runs.folders import read_hits

    cold, warm = minilm_runs
    assert cold.texts_encoded > 0 and warm.texts_encoded == 0
    assert score_run(warm.run_id, mini_cache) == score_run(cold.run_id, mini_cache)
    with Store("demo_v2603", mini_cache) as store:
        a = evaluate(store, read_hits(cold.run_id, mini_cache))
        b = evaluate(store, read_hits(warm.run_id, mini_cache))
    assert a.drop(columns=[]).equals(b)
    meta = run_meta(cold.run_id, mini_cache)
    assert meta.model_spec["id"] == "minilm" and meta.device == "cpu" and meta.precision == "float32"
    assert set(meta.prompts) == {"t2c", "c2c", "c2t"} and meta.corpus_fingerprint
    assert meta.texts_encoded == cold.texts_encoded and "transformers" in meta.packages
    # the profile is in the provenance, the label and the run id
    assert meta.profile == "official" and meta.label == "minilm · official · demo_v2603"
    assert run_name(meta) == meta.name and meta.name.startswith(meta.label)  # one name, numbered when repeated
    assert cold.run_id.startswith("minilm-official__demo_v2603__")
    encoding = meta.encoding
    assert (encoding["backend"], encoding["max_length"], encoding["pooling_seen"]) == ("transformers", 512, ["mean"])
    assert all(p["query"] == p["document"] == "" for p in meta.prompts.values())
    assert run_meta(warm.run_id, mini_cache).encoding["pooling_seen"] is None  # nothing encoded, no model loaded
    # MiniLM is a weak code model but far from random on CoREB-mini
    ndcg = score_run(cold.run_id, mini_cache)
    assert 0.1 < ndcg["t2c"] < 0.9 and 0.1 < ndcg["c2t"] < 0.9


def test_card_profile_run_has_its_own_vectors_label_and_provenance(minilm_runs, private_cache, minilm_card_c2c):
    from coreb_core.evaluation.evaluate import score_run
    from coreb_core.retrieval.pipeline import run_retrieval

    card = minilm_card_c2c
    assert card.texts_encoded > 0  # the official run's cached vectors are not served to the card profile
    meta = run_meta(card.run_id, private_cache)
    assert card.run_id.startswith("minilm-card__demo_v2603__") and meta.label == "minilm · card · demo_v2603"
    assert meta.profile == "card" and meta.encoding["backend"] == "sentence-transformers"
    assert meta.encoding["max_length"] == 256 and meta.prompts["c2c"]["source"]
    again = run_retrieval("minilm", "demo_v2603", tasks=("c2c",), root=private_cache, profile="card")
    assert again.texts_encoded == 0 and score_run(again.run_id, private_cache) == score_run(card.run_id, private_cache)


def test_run_keeps_every_judged_document_and_the_anchor(fake_dense):
    """A dense run (the pipeline's search and storage; its encoder the ``Trigrams`` stand-in) stores its top 100 and
    every judged document and C2C anchor beyond them."""
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import read_hits

    root, dense, _ = fake_dense
    hits = read_hits(dense, root)
    hits = hits.astype({"task": str, "query_id": str, "doc_id": str})
    with Store("demo_v2603", root) as store:
        judged = store.sql("SELECT task, query_id, doc_id FROM qrels").df()
        anchors = store.sql("SELECT task, query_id, anchor_code_id AS doc_id FROM queries WHERE task = 'c2c'").df()
    stored = set(map(tuple, hits[["task", "query_id", "doc_id"]].values))
    assert set(map(tuple, judged.values)) <= stored and set(map(tuple, anchors.values)) <= stored
    assert hits.groupby(["task", "query_id"])["in_top_k"].sum().eq(100).all()


def test_bm25_run_from_the_cli(lexical_copy):
    root, _ = lexical_copy
    done = run_cli("run", "--model", "bm25", "--release", "demo_v2603", env={"COREB_CACHE": str(root)})
    assert done.returncode == 0, done.stderr
    run_id = done.stdout.split()[1].rstrip(":")
    meta = run_meta(run_id, root)
    assert run_id.startswith("bm25__") and meta.profile is None and run_name(meta).startswith("bm25 · demo_v2603")  # no encoder, no profile
    assert "%|" in done.stderr  # the progress bar
    values = {line.split()[0]: float(line.split()[-1]) for line in done.stdout.splitlines() if "nDCG@10" in line}
    assert set(values) == {"t2c", "c2c", "c2t"} and all(0.05 < v < 0.95 for v in values.values())


def _tiny_cross_encoder(folder: Path) -> Path:
    """A 2-layer BERT cross-encoder with random weights and MiniLM's vocabulary, built offline. Its tokenizer cuts each
    (query, document) pair at 128 tokens: the tests compare a run with the same model's own scores and candidates, which
    no length changes, and 512-token pairs cost them half a minute of attention on 2 CPU cores."""
    return tiny_bert(folder, head=True, max_tokens=128)


# The reranking depth of the next test: its checks hold at any depth, and every (query, document) pair costs the
# cross-encoder (a depth of 10 on the C2T queries was over 3,000 pairs).
DEPTH = 4


def test_rerank_with_a_locally_built_cross_encoder(lexical_copy, tmp_path):
    from sentence_transformers import CrossEncoder

    from coreb_core.data.store import Store
    from coreb_core.retrieval.pipeline import rerank_run, run_retrieval
    from coreb_core.runs.folders import read_hits

    root = lexical_copy[0]  # a private copy: the runs made here go to it
    model = _tiny_cross_encoder(tmp_path / "tiny-ce")
    first = run_retrieval("bm25", "demo_v2603", tasks=("c2t",), root=root)
    reranked = rerank_run(first.run_id, str(model), depth=DEPTH, root=root)
    meta = run_meta(reranked.run_id, root)
    assert meta.first_stage == first.run_id and meta.rerank_depth == DEPTH and meta.kind == "rerank"
    a = read_hits(first.run_id, root).astype({"query_id": str, "doc_id": str})
    b = read_hits(reranked.run_id, root).astype({"query_id": str, "doc_id": str})
    qid = a["query_id"].iloc[0]
    top_a = a[(a.query_id == qid) & (a["rank"] <= DEPTH)]
    top_b = b[(b.query_id == qid) & (b["rank"] <= DEPTH)].sort_values("rank")
    assert set(top_a.doc_id) == set(top_b.doc_id)  # same documents, new order
    with Store("demo_v2603", root) as store:
        query = store.sql("SELECT query FROM queries WHERE query_id = ?", [qid]).fetchone()[0]
        docs = dict(store.sql("SELECT doc_id, content FROM documents WHERE corpus = 'text'").fetchall())
    expected = CrossEncoder(str(model), device="cpu").predict([(query, docs[d]) for d in top_b.doc_id])
    assert np.allclose(top_b["score"], expected, atol=1e-5)
    assert (np.diff(top_b["score"].to_numpy()) <= 1e-9).all()
    beyond = lambda h: h[(h.query_id == qid) & (h["rank"] > DEPTH)].set_index("doc_id")["rank"].to_dict()  # noqa: E731
    assert beyond(a) == beyond(b)  # positions beyond the depth are untouched


def test_rerank_candidates_are_exactly_the_first_depth_documents_never_the_judged_extras(mini_data, tmp_path):
    """was: --rerank-depth 128 over --top-k 100 gave the reranker the top 100 plus only the judged documents at
    ranks 101-128 (an oracle)."""
    import shutil

    from coreb_core.data.store import Store
    from coreb_core.errors import CorebError
    from coreb_core.paths import datasets_dir
    from coreb_core.retrieval.pipeline import rerank_candidates, run_retrieval
    from coreb_core.runs.folders import read_hits
    from tests.builders import run_cli

    own = tmp_path / "cache"  # a copy: the runs made here go to it
    shutil.copytree(datasets_dir(mini_data), datasets_dir(own), symlinks=True)
    with Store("demo_v2603", own) as store:
        corpus = dict(store.sql("SELECT corpus, count(*) FROM documents GROUP BY ALL").fetchall())
        shallow = read_hits(run_retrieval("bm25", "demo_v2603", top_k=100, root=own).run_id, own)
        with pytest.raises(CorebError, match="needs a first stage run with --top-k 128 or more"):
            rerank_candidates(shallow, 128, store)
        deep = read_hits(run_retrieval("bm25", "demo_v2603", top_k=128, root=own).run_id, own)
        candidates = rerank_candidates(deep, 128, store)
    sizes = candidates.groupby(["task", "query_id"], observed=True).size()
    for (task, _), n in sizes.items():
        assert n == min(128, corpus["text" if task == "c2t" else "code"]), (task, n)  # C2T: 120 texts in all
    assert candidates["in_top_k"].all() and len(sizes) == deep.groupby(["task", "query_id"], observed=True).ngroups
    # the CLI stores at least the depth in its first stage (a top-k of 2 under a depth of 3 would be refused)
    model = _tiny_cross_encoder(tmp_path / "ce")
    done = run_cli("run", "--model", "bm25", "--release", "demo_v2603", "--tasks", "c2c", "--top-k", "2",
                   "--rerank", str(model), "--rerank-depth", "3", env={"COREB_CACHE": str(own)}, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "reranked top-3" in done.stdout
