"""The reranker protocol end to end, as one piece of work: the training release's samples, a cross-encoder trained
on them, and a first-stage run of the test release reranked with it (the Training data page's job and
bench/reranker_protocol.py).

Example (CoREB-mini and a BM25 run in ``root``; minutes on a CPU, so skipped):
    >>> result = train_and_rerank("demo_v2602", bm25, "minilm", TrainingConfig(max_steps=4), depth=5,
    ...                           root=root)   # doctest: +SKIP
    >>> result.training.loss_after < result.training.loss_before   # doctest: +SKIP
    True
"""
from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.paths import rerankers_dir
from coreb_core.progress import Progress, part_of, silent
from coreb_core.retrieval.pipeline import rerank_run
from coreb_core.runs.folders import run_meta
from coreb_core.training.reranker import TrainingConfig, TrainingResult, train_reranker
from coreb_core.training.sample_files import write_samples
from coreb_core.training.samples import TRAIN, build_samples

TRAINING_SHARE = 0.7  # of the progress bar: training; the rest is reranking (both take minutes on a CPU)


class ProtocolResult(NamedTuple):
    """A trained reranker (its folder and training) and the reranked run it made."""

    reranker: Path
    training: TrainingResult
    reranked_run: str


def reranker_folder(base: str, release: str, root: Path | None = None) -> Path:
    """A new folder under the cache's rerankers for a reranker trained from ``base`` on ``release``.

    >>> reranker_folder("minilm", "release_v2602", Path("/tmp/c")).parent
    PosixPath('/tmp/c/rerankers')
    """
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(base).name or base).strip("-.") or "model"
    return rerankers_dir(root) / f"{stem}-on-{release}-{time.strftime('%Y%m%dT%H%M%S')}"


def train_and_rerank(train_release: str, first_stage: str, base: str, config: TrainingConfig, depth: int = 10,
                     out: Path | None = None, progress: Progress = silent, root: Path | None = None) -> ProtocolResult:
    """Train a reranker from ``base`` on ``train_release``'s samples (the train rule) and rerank the first ``depth``
    documents of ``first_stage`` (a run of the test release) with it. The training refuses samples that share a
    problem with the first stage's release. A cancel (``progress`` raising) while training leaves no reranker; while
    reranking, it keeps the trained (complete) reranker and stores no run."""
    test_release = run_meta(first_stage, root).made_on()
    if test_release == train_release:
        raise CorebError(f"the first stage {first_stage} is a run of {train_release}, the training release: "
                         "rerank a run of another release (the protocol tests on problems it never trained on)")
    progress("building the samples", 0.0)
    with Store(train_release, root) as store:
        samples = build_samples(store, TRAIN)
    out = out or reranker_folder(base, train_release, root)
    with tempfile.TemporaryDirectory(prefix="coreb-samples-") as folder:
        path = Path(folder) / f"{train_release}.jsonl"
        write_samples(samples, path)
        training = train_reranker(path, base, out, config, test_release, part_of(progress, "", 0.02, TRAINING_SHARE),
                                  root)
    reranked = rerank_run(first_stage, str(out), depth=depth, device=config.device,
                          progress=part_of(progress, "reranking: ", 0.02 + TRAINING_SHARE, 0.98 - TRAINING_SHARE),
                          root=root)
    return ProtocolResult(out, training, reranked.run_id)
