"""Every pair of runs tested at once (issue 47, item 1): `compare_runs` on 1, 11, 20 and 50 runs of release_v2603's
size (2,601 queries: 1,123 T2C, 278 C2C, 1,200 C2T; per-query nDCG@10 drawn as runs give them), against the same
tests one pair at a time with a fresh sign matrix per pair (the kernel as it stood before, kept in
tests/evaluation/test_batched_significance.py), measured in the same process. Prints seconds, the ratio, and the
exponent of the time in runs fitted over 11..50 runs (2 is quadratic: every pair; 0 would be free).

    .venv/bin/python bench/pairwise_bench.py [--permutations 10000]

The p-values are checked equal before any time is taken. The machine's load is printed beside the figures."""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coreb_core.evaluation.significance import compare_runs, run_pairs  # noqa: E402
from tests.evaluation.test_batched_significance import ndcg_like, one_at_a_time  # noqa: E402

QUERIES = {"t2c": 1123, "c2c": 278, "c2t": 1200}


def tables(n_runs: int, seed: int = 0) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    keys = pd.DataFrame([(t, f"{t}-{i}") for t, n in QUERIES.items() for i in range(n)], columns=["task", "query_id"])
    return {f"run{r:02d}": keys.assign(ndcg_at_10=ndcg_like(rng, len(keys))) for r in range(n_runs)}


def per_pair(runs: dict[str, pd.DataFrame], n_permutations: int) -> list[float]:
    """What compare_runs did before: one merge and one fresh sign matrix per pair."""
    out = []
    for a, b in run_pairs(list(runs)):
        merged = runs[a].merge(runs[b], on=["task", "query_id"])
        out.append(one_at_a_time((merged.ndcg_at_10_x - merged.ndcg_at_10_y).to_numpy(), n_permutations))
    return out


def timed(f, *args) -> tuple[float, object]:
    start = time.perf_counter()
    result = f(*args)
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--permutations", type=int, default=10_000)
    args = parser.parse_args(argv)
    print(f"load {os.getloadavg()[0]:.1f} at the start on {os.cpu_count()} cores; {args.permutations} sign patterns")
    print("runs  pairs  one pair at a time (s)  batched (s)  ratio")
    points = []
    for n_runs in (1, 11, 20, 50):
        runs = tables(n_runs)
        batched_s, table = timed(compare_runs, runs, "ndcg_at_10", args.permutations)
        old_s, old = timed(per_pair, runs, args.permutations)
        assert table["p_randomization"].tolist() == old, "the batched p-values differ from one pair at a time"
        n_pairs = len(old)
        ratio = f"{old_s / batched_s:5.1f}x" if n_pairs else "  -"
        print(f"{n_runs:4d}  {n_pairs:5d}  {old_s:22.2f}  {batched_s:11.2f}  {ratio}")
        if n_runs > 1:
            points.append((n_runs, old_s, batched_s))
    x = np.log([p[0] for p in points])
    for label, column in (("one pair at a time", 1), ("batched", 2)):
        slope = np.polyfit(x, np.log([p[column] for p in points]), 1)[0]
        print(f"time ~ runs^{slope:.2f} ({label}, fitted over 11, 20, 50 runs)")
    print(f"load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
