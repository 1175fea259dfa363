"""The reranker protocol on the real releases, bounded for two CPU cores: train on release_v2602's samples,
rerank release_v2603's first stage with the result, and print the per-task nDCG@10 change beside the article's.

Steps (each timed): the samples of release_v2602 (the ``train`` rule, 3,803) written to a file; a bounded training
from the bundled all-MiniLM-L6-v2 weights with a fresh head (``train_reranker``: ``--max-steps`` steps of
``--batch-size`` samples, each a list of its positive and ``--negatives`` negatives, hard ones first); a BM25 first
stage on release_v2603 (stored to at least the depth); its top ``--depth`` reranked by the trained model; both scored
with the official scheme (v2, anchor excluded). The figures printed are the training's held-out loss before and
after, its wall time against the 15-minute bound, and per task the nDCG@10 of the first stage and the reranked run,
their difference (nDCG@10 in 0..1, as the article gives it) and that difference in % of the first stage (the unit of
the project page's reranker table).

    COREB_CACHE=/tmp/realcache .venv/bin/python bench/reranker_protocol.py [--max-steps 96] [--depth 10]

The cache must hold both real releases (``python -m coreb_core import-data ../shared/coreb_real/release_v2602`` and
``…/release_v2603``). The trained reranker stays in ``--out`` (default: a new temporary folder).
"""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import score_run
from coreb_core.retrieval.pipeline import rerank_run, run_retrieval
from coreb_core.training.reranker import TrainingConfig, train_reranker
from coreb_core.training.sample_files import write_samples
from coreb_core.training.samples import PROTOCOL_TEST, PROTOCOL_TRAIN, TRAIN, build_samples

ARTICLE_RANGES = {"t2c": (-0.009, 0.015), "c2c": (0.005, 0.046), "c2t": (-0.079, -0.042)}  # the article's finding 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-steps", type=int, default=96)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--negatives", type=int, default=7)
    parser.add_argument("--max-length", type=int, default=256)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="coreb-protocol-"))
    out = args.out or work / "reranker"
    times: dict[str, float] = {}

    t = time.perf_counter()
    with Store(PROTOCOL_TRAIN) as store:
        samples = build_samples(store, TRAIN)
    write_samples(samples, work / "train.jsonl")
    times["samples"] = time.perf_counter() - t

    t = time.perf_counter()
    config = TrainingConfig(max_steps=args.max_steps, batch_size=args.batch_size, negatives=args.negatives,
                            max_length=args.max_length)
    trained = train_reranker(work / "train.jsonl", "minilm", out, config,
                             progress=lambda m, f: print(f"  {time.perf_counter() - t:6.0f} s  {m}", flush=True)
                             if m.endswith(("0", "before training", "after training")) else None)
    times["training"] = time.perf_counter() - t

    t = time.perf_counter()
    first = run_retrieval("bm25", PROTOCOL_TEST, top_k=max(100, args.depth)).run_id
    times["first_stage"] = time.perf_counter() - t
    t = time.perf_counter()
    reranked = rerank_run(first, str(out), depth=args.depth).run_id
    times["rerank"] = time.perf_counter() - t
    before, after = score_run(first), score_run(reranked)
    rows = {task: {"first_stage": round(before[task], 4), "reranked": round(after[task], 4),
                   "delta": round(after[task] - before[task], 4),
                   "delta_pct_of_first_stage": round(100 * (after[task] - before[task]) / before[task], 1),
                   "article_range": ARTICLE_RANGES[task]} for task in before}
    print(json.dumps({"samples": len(samples), "training": trained.to_json(),
                      "within_15_min": times["training"] <= 900, "first_stage_run": first, "reranked_run": reranked,
                      "depth": args.depth, "ndcg_at_10": rows, "seconds": {k: round(v, 1) for k, v in times.items()}},
                     indent=1))


if __name__ == "__main__":
    main()
