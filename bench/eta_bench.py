"""How good is the time-left estimate of a background run? Runs one retrieval job (``coreb_core.retrieval.jobs``)
on a cache and samples its state every few seconds; at the end, prints for each quarter of the run the estimate
shown then against the time that was really left, and the old estimate (elapsed x (1 - f) / f, the one issue 24
found 23 minutes off two minutes before the end) for the same samples: a ratio against a baseline measured in
the same run.

    COREB_CACHE=/tmp/cache python bench/eta_bench.py --model minilm --release release_v2603 [--fresh-vectors]

``--fresh-vectors`` moves the cache's vectors aside first (and back after), so the model loads and encodes.
"""
from __future__ import annotations

import argparse
import shutil
import time

from coreb_core.paths import cache_root, embeddings_dir
from coreb_core.retrieval.jobs import RunRequest, board


def old_eta(elapsed: float, fraction: float) -> float | None:
    """The estimate before issue 24: the whole run's average pace, load included."""
    return None if fraction <= 0.01 else elapsed * (1 - fraction) / fraction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--release", default="release_v2603")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between samples")
    parser.add_argument("--fresh-vectors", action="store_true")
    args = parser.parse_args()
    vectors, aside = embeddings_dir(), cache_root() / "embeddings.eta-bench-aside"
    if args.fresh_vectors and vectors.exists():
        vectors.rename(aside)
    try:
        jobs = board()
        job = jobs.submit(RunRequest(args.model, args.release))
        samples = []
        while True:
            state = jobs.state(job)
            samples.append((state.elapsed_s, state.fraction, state.eta_s, state.message))
            if state.finished:
                break
            time.sleep(args.every)
        total = state.elapsed_s
        print(f"{args.model} on {args.release}: {state.status} in {total:.0f} s ({state.message})")
        print(f"{'at':>6} {'fraction':>8} {'left':>6} {'new ETA':>8} {'old ETA':>8}  step")
        for share in (0.1, 0.25, 0.5, 0.75, 0.9):
            t, f, eta, message = min(samples, key=lambda s: abs(s[0] - share * total))
            old = old_eta(t, f)
            print(f"{t:6.0f} {f:8.2f} {total - t:6.0f} {eta if eta is not None else float('nan'):8.0f} "
                  f"{old if old is not None else float('nan'):8.0f}  {message[:50]}")
        late = [s for s in samples if s[0] >= 0.5 * total and s[2] is not None and old_eta(s[0], s[1])]
        if late:
            new_err = sum(abs(s[2] - (total - s[0])) for s in late) / len(late)
            old_err = sum(abs(old_eta(s[0], s[1]) - (total - s[0])) for s in late) / len(late)
            print(f"second half, mean |estimate - truth|: new {new_err:.0f} s, old {old_err:.0f} s "
                  f"(ratio old/new {old_err / max(new_err, 1e-9):.1f})")
    finally:
        if args.fresh_vectors and aside.exists():
            shutil.rmtree(vectors, ignore_errors=True)
            aside.rename(vectors)


if __name__ == "__main__":
    main()
