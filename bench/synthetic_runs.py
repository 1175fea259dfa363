"""Synthetic runs for the benches: BM25's score matrices of a cached release, normalised per query, plus Gaussian
noise of growing strength, ranked and stored as the pipeline stores any run (top-100 plus every judged document and
anchor). The one definition that ``app_bench.py`` and ``scale_bench.py`` share.

Example (CoREB-mini in ``root``; seconds, so not run here):

    >>> ids, sizes = synthetic_runs("demo_v2603", root, 3, lambda r: 0.05 * (r + 1))  # doctest: +SKIP
    >>> len(ids), sizes["t2c"]  # doctest: +SKIP
    (3, (720, 307))
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np


def synthetic_runs(release: str, root: Path, n: int, sigma: Callable[[int], float], seed: int = 2603
                   ) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """``n`` synthetic runs of ``release`` stored in ``root`` (run ``r``'s noise has standard deviation
    ``sigma(r)``): (their run ids, per task (queries, documents))."""
    from coreb_core.data.store import Store
    from coreb_core.retrieval.pipeline import load_task
    from coreb_core.retrieval.search import bm25_scores
    from coreb_core.runs.folders import new_run_id, write_run
    from coreb_core.runs.hits import concat_hits, hits_from_scores

    rng = np.random.default_rng(seed)
    frames: list[list] = [[] for _ in range(n)]
    sizes = {}
    with Store(release, root) as store:
        for task in ("t2c", "c2c", "c2t"):
            data = load_task(store, task)
            sizes[task] = (len(data.query_ids), len(data.doc_ids))
            base = bm25_scores(data.queries, data.docs)
            base = base / np.maximum(base.max(axis=1, keepdims=True), 1e-9)  # per-query 0..1
            for r in range(n):
                noise = rng.normal(0.0, sigma(r), size=base.shape)
                frames[r].append(hits_from_scores(task, data.query_ids, data.doc_ids, base + noise, keep=data.keep))
    ids = []
    with Store(release, root) as store:  # stored as run_retrieval stores a run: its judged rows first
        for r, parts in enumerate(frames):
            model = f"synthetic-{r:02d}"
            run_id = new_run_id(model, release)
            write_run(concat_hits(parts), {"run_id": run_id, "release": release, "model": model, "kind": "synthetic",
                                           "created": time.strftime("%Y-%m-%dT%H:%M:%S")}, root, store=store)
            ids.append(run_id)
    return ids, sizes
