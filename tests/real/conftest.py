"""The real release's reranker protocol, once per session: release_v2602's training samples (and release_v2603's
test samples and BM25's mined negatives, which several modules read), a bounded training
from the bundled MiniLM and release_v2603's BM25 C2C top 10 reranked by it, in a copy of ``real_cache``. The
protocol's tests (test_real_training.py) and the reranker-stage errors of a real cross-encoder
(test_real_rerank_errors.py) read the same reranked run: reranking 2,780 pairs twice cost the suite a minute."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.builders import run_cli


@pytest.fixture(scope="session")
def training_cache(real_cache, tmp_path_factory) -> Path:
    """A copy of ``real_cache`` for what the reranker protocol adds (samples, the reranked run)."""
    root = tmp_path_factory.mktemp("real-training") / "cache"
    shutil.copytree(real_cache, root, symlinks=True)
    return root


def _samples(release: str, cache: Path, folder: Path) -> tuple[Path, dict]:
    """``samples --release RELEASE --json`` into ``folder``: (the file, its JSON summary)."""
    out = folder / f"{release}.jsonl"
    done = run_cli("samples", "--release", release, "--out", str(out), "--json", env={"COREB_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    return out, json.loads(done.stdout)


@pytest.fixture(scope="session")
def train_file(training_cache, tmp_path_factory):
    """release_v2602's training samples (the ``samples`` verb): (file, its JSON summary)."""
    return _samples("release_v2602", training_cache, tmp_path_factory.mktemp("samples"))


@pytest.fixture(scope="session")
def test_file(training_cache, tmp_path_factory):
    """release_v2603's protocol samples (the test rule), as ``train_file``: (file, its JSON summary). The protocol
    and the guards' tests read this one file (each ``samples`` call on the real release costs about 3 CPU-s)."""
    return _samples("release_v2603", training_cache, tmp_path_factory.mktemp("samples"))


@pytest.fixture(scope="session")
def mined_file(real_cache, tmp_path_factory):
    """BM25's mined negatives of release_v2603 at the defaults, in the samples format: (file, its JSON summary)."""
    from coreb_core.runs.folders import list_runs

    bm25 = next(m.run_id for m in list_runs("release_v2603", real_cache) if m.model == "bm25")
    out = tmp_path_factory.mktemp("mined") / "mined.jsonl"
    done = run_cli("mine", "--run", bm25, "--out", str(out), "--format", "samples", "--json",
                   env={"COREB_CACHE": str(real_cache)})
    assert done.returncode == 0, done.stderr
    return out, json.loads(done.stdout)


@pytest.fixture(scope="session")
def trained(training_cache, train_file, tmp_path_factory):
    """A bounded training from the bundled MiniLM weights (a fresh head) on release_v2602's samples: 16 steps of 4
    samples, each a list of its positive and 3 negatives, each (query, document) pair cut to 32 tokens (about 25
    CPU-s at one torch thread). The reranker keeps that length, so its rerank below reads 32 tokens a pair too: at
    64 the two cost about 80 CPU-s, at 32 about 50; what the tests check (the held-out loss falls, the reranker moves
    queries only within BM25's candidates, its run scored as the evaluator scores it) does not depend on it."""
    out = tmp_path_factory.mktemp("reranker") / "minilm-coreb"
    done = run_cli("train-reranker", "--samples", str(train_file[0]), "--base", "minilm", "--out", str(out),
                   "--max-steps", "16", "--batch-size", "4", "--negatives", "3", "--max-length", "32",
                   "--eval-samples", "48", "--learning-rate", "1e-4", "--json",
                   env={"COREB_CACHE": str(training_cache)})
    assert done.returncode == 0, done.stderr
    return out, json.loads(done.stdout)


@pytest.fixture(scope="session")
def reranked(training_cache, trained):
    """A BM25 C2C run of release_v2603 (top 10) reranked by the trained reranker (2,780 pairs of 32 tokens, about
    28 CPU-s at one torch thread):
    (the rerank run's RunMeta, the verb's stdout)."""
    from coreb_core.runs.folders import list_runs

    done = run_cli("run", "--model", "bm25", "--release", "release_v2603", "--tasks", "c2c", "--top-k", "10",
                   "--rerank", str(trained[0]), "--rerank-depth", "10", env={"COREB_CACHE": str(training_cache)})
    assert done.returncode == 0, done.stderr
    runs = [m for m in list_runs("release_v2603", training_cache) if m.kind == "rerank"]
    assert len(runs) == 1
    return runs[0], done.stdout
