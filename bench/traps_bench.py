"""Why traps win at real scale: the whole trap-wins computation for 11 runs, warm, against a 1 s target
and against the evaluation of the same runs (the baseline, measured in the same run).

Real scale as in ``bench/app_bench.py`` (whose ``build`` and ``reuse`` make it): CoREB-mini scaled 6x
(7,200 queries; the real release has 2,601) with 11 runs of top-100 (1 BM25 + 10 synthetic). Warm means
what a page view after the first finds: the Store, its release index and the traps' facts built, the
runs' hits read. What is timed is everything the Trap analysis page and ``python -m coreb_core traps``
compute: ``trap_wins`` over the 11 runs (all tasks) plus ``kind_shares`` (task and subtask),
``bug_shares``, ``near_miss_curve``, ``margin_summary``, ``rank_gap_histogram`` and ``surface_bias``.
The figure that counts is the median of ``--repeats`` runs; the baseline is ``analyse_many`` of the same
runs (v2 and the trap table: what the page's upper half shows), printed as a ratio. A warm page view also
prints: the page keeps ``trap_wins`` and ``surface_bias`` in ``st.cache_data``, so it reads them back
(one unpickling each) and only aggregates the chosen task.

    .venv/bin/python bench/traps_bench.py [--scale 6] [--repeats 5] [--cache DIR]
"""
from __future__ import annotations

import argparse
import os
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.app_bench import build, reuse  # the scaled release and its 11 runs, made once

TARGET_S = 1.0


def compute(store, hits: dict) -> dict:
    """Everything one page view of the trap-wins sections (or the CLI) computes."""
    from coreb_core.analysis.traps.surface import surface_bias
    from coreb_core.analysis.traps.wins import trap_wins, why_traps_win

    wins = trap_wins(store, hits)
    return {"wins": wins, "why": why_traps_win(wins), "surface": surface_bias(store, wins)}


def baseline(store, hits: dict) -> None:
    """The evaluation of the same runs that the page's upper half shows (v2 metrics and the trap table)."""
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.schemes import V2

    analyse_many(store, hits, (V2,), traps=True)


def page_view(cached: bytes, task: str = "t2c") -> None:
    """What a warm view of the Trap analysis page computes: ``trap_wins`` and ``surface_bias`` are kept by
    ``st.cache_data`` (``ui.cache``), which unpickles them on every hit; then the task's aggregations run."""
    from coreb_core.analysis.traps.wins import (
        bug_shares,
        kind_shares,
        margin_summary,
        near_miss_curve,
        rank_gap_histogram,
    )

    wins, surface = pickle.loads(cached)
    surface.findings(task)
    wins = wins._replace(traps=wins.traps[wins.traps["task"] == task],
                         queries=wins.queries[wins.queries["task"] == task])
    kind_shares(wins, "task"), kind_shares(wins, "subtask"), bug_shares(wins), near_miss_curve(wins)
    margin_summary(wins), rank_gap_histogram(wins)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cache", type=Path, help="build into (or reuse) this cache folder instead of a temp one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="coreb-traps-bench-") as tmp:
        root = args.cache or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        os.environ["COREB_CACHE"] = str(root)
        release, run_ids = reuse(root, args.scale) or build(root, args.scale)

        from coreb_core.data.store import Store
        from coreb_core.runs.folders import read_hits

        with Store(release, root) as store:
            hits = {rid: read_hits(rid, root) for rid in run_ids}
            rows = sum(len(h) for h in hits.values())
            start = time.perf_counter()
            out = compute(store, hits)  # cold: builds the release index and the traps' facts
            cold = time.perf_counter() - start
            times, bases = [], []
            for _ in range(args.repeats):
                start = time.perf_counter()
                baseline(store, hits)
                bases.append(time.perf_counter() - start)
                start = time.perf_counter()
                out = compute(store, hits)
                times.append(time.perf_counter() - start)
            cached = pickle.dumps((out["wins"], out["surface"]))
            views = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                page_view(cached)
                views.append(time.perf_counter() - start)
        median, base = statistics.median(times), statistics.median(bases)
        wins = out["wins"]
        print(f"{len(run_ids)} runs, {rows:,} hit rows, {wins.queries['query_id'].nunique():,} queries, "
              f"{len(wins.traps):,} (run, query, trap) rows, {int(wins.traps['wins'].sum()):,} trap wins")
        print(f"trap-wins computation: cold {cold:.3f} s; warm median {median:.3f} s "
              f"(min {min(times):.3f}, max {max(times):.3f}) over {args.repeats}; target {TARGET_S:.0f} s: "
              f"{'ok' if median < TARGET_S else 'OVER'}")
        print(f"baseline, evaluating the same runs (analyse_many, v2 + trap table): warm median {base:.3f} s; "
              f"trap wins / baseline = {median / base:.2f}x")
        print(f"warm page view (trap wins cached, T2C aggregations): median {statistics.median(views):.3f} s; "
              f"{'ok' if statistics.median(views) < TARGET_S else 'OVER'}")
    return 0 if median < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
