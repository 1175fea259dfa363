"""Issue 26's analyses at real scale, warm: each one's median time beside the evaluation it builds on.

The real CoREB (``--real``, default ../shared/coreb_real) is imported into a cache (``--cache``, reused when
it already holds the releases and runs), with BM25 and MiniLM runs on release_v2603 and release_v2602 (MiniLM
takes minutes on two cores the first time; its vectors are cached). Each analysis is timed warm (the Store's
memo and the release index built, as on a server after the first page): the median of ``--repeats`` calls.
The baseline, measured in the same run, is ``analyse_many`` of the same runs (the scoring every page does
first); the ratio says what an analysis adds to it. The page target is 1 s warm per page (``app_bench.py
--real`` renders the pages themselves).

    .venv/bin/python bench/analyses_bench.py [--cache DIR] [--repeats 7]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]


def _median(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def _runs(root: Path, real: Path) -> dict[tuple[str, str], str]:
    from coreb_core.data.store import list_releases
    from coreb_core.results.uploads import import_dataset
    from coreb_core.retrieval.pipeline import run_retrieval
    from coreb_core.runs.folders import list_runs

    runs = {}
    for release in ("release_v2603", "release_v2602"):
        if release not in list_releases(root):
            import_dataset(real, split=release, root=root)
        have = {m.model: m.run_id for m in sorted(list_runs(release, root), key=lambda m: m.created or "")}
        for model in ("bm25", "minilm"):
            runs[(model, release)] = have.get(model) or run_retrieval(model, release, root=root).run_id
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", type=Path, default=REPO.parent / "shared" / "coreb_real")
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    from coreb_core.analysis.difficulty import problem_difficulty
    from coreb_core.analysis.slices import length_slices
    from coreb_core.analysis.stability import release_stability
    from coreb_core.analysis.traps.agreement import trap_agreement
    from coreb_core.analysis.traps.wins import trap_wins
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits

    root = args.cache or Path(tempfile.mkdtemp(prefix="analyses-bench-"))
    runs = _runs(root, args.real)
    new, old = Store("release_v2603", root), Store("release_v2602", root)
    hits = {m: read_hits(runs[(m, "release_v2603")], root) for m in ("bm25", "minilm")}
    old_hits = {"minilm": read_hits(runs[("minilm", "release_v2602")], root)}
    base = _median(lambda: analyse_many(new, hits), args.repeats)
    wins = trap_wins(new, hits)
    per_query = analyse_many(new, hits).per_query("v2")
    old_wins, new_minilm = trap_wins(old, old_hits), trap_wins(new, {"minilm": hits["minilm"]})
    timed = {
        "trap_wins (shared by 1-3)": lambda: trap_wins(new, hits),
        "1 agreement": lambda: trap_agreement(wins),
        "2 stability (MiniLM v2602 vs v2603)": lambda: release_stability(old_wins, new_minilm),
        "3 length slices": lambda: length_slices(new, wins, per_query),
        "4 difficulty": lambda: problem_difficulty(new, per_query),
    }
    try:
        from coreb_core.analysis.rank_contrast import contrasting_queries

        timed["6 contrasting queries"] = lambda: contrasting_queries(hits["bm25"], hits["minilm"])
    except ImportError:
        pass
    print(f"release_v2603, BM25 + MiniLM, warm medians of {args.repeats} calls; baseline analyse_many "
          f"{base * 1000:.0f} ms")
    for name, fn in timed.items():
        t = _median(fn, args.repeats)
        print(f"  {name:40s} {t * 1000:7.1f} ms   {t / base:5.2f}x the baseline")


if __name__ == "__main__":
    main()
