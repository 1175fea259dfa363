"""How good is the time-left estimate of a background run? Runs one retrieval job (``coreb_core.retrieval.jobs``)
on a cache and samples its state every few seconds; at the end, prints for each quarter of the run the estimate
shown then against the time that was really left, and the old estimate (elapsed x (1 - f) / f, the one issue 24
found 23 minutes off two minutes before the end) for the same samples: a ratio against a baseline measured in
the same run.

    COREB_CACHE=/tmp/cache python bench/eta_bench.py --model minilm --release release_v2603 [--fresh-vectors]

``--fresh-vectors`` moves the cache's vectors aside first (and back after), so the model loads and encodes.

Under load (issue 48, item 2): ``--synthetic S --loads 2 6 12`` runs, at each load, a CPU-bound job of about S
seconds on a quiet core (steps of pure-Python work in three phases of different step sizes, as a run's documents,
queries and search), on CPU 1 only beside load/2 busy processes on the same CPU (``while True: pass``, killed
after): the same runnable processes per core as a load of 2, 6 and 12 on 2 cores, leaving CPU 0 to the machine's
other users. Prints, per load, the estimate shown (with its range) and the raw last-minute estimate (``eta_from``)
against the truth, their mean error over the second half, and the largest change of each within a minute for the
same work left (issue 48's bound: x2).

    python bench/eta_bench.py --synthetic 30 --loads 2 6 12
    python bench/eta_bench.py --synthetic 30 --loads 2 12 --change 20 80   # load 12 from 20 s to 80 s only
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

from coreb_core.paths import cache_root, embeddings_dir
from coreb_core.retrieval.jobs import JobBoard, RunRequest, WorkOutcome, WorkRequest, board, eta_from


def old_eta(elapsed: float, fraction: float) -> float | None:
    """The estimate before issue 24: the whole run's average pace, load included."""
    return None if fraction <= 0.01 else elapsed * (1 - fraction) / fraction


def synthetic_work(seconds: float):
    """A job of about ``seconds`` of one core's CPU: 3 phases (40 % in 60 big steps, 20 % in 200 small ones, 40 % in
    20 big ones), each step pure-Python arithmetic, reported as a run reports its batches."""
    start = time.process_time()
    sum(range(2_000_000))
    per_unit = (time.process_time() - start) / 2_000_000  # seconds of CPU per unit of work, measured now
    phases = [(0.4, 60), (0.2, 200), (0.4, 20)]

    def work(progress):
        done = 0.0
        for share, steps in phases:
            for _ in range(steps):
                sum(range(int(share * seconds / steps / per_unit)))
                done += share / steps
                progress("step", min(done, 1.0))
        return WorkOutcome()

    return work


def worst_change(rows: list[tuple[float, float, float | None]]) -> float:
    """The largest factor between two estimates under a minute apart, per unit of work left (time, fraction, eta);
    estimates of 10 s and more (shown to 0.1 s: below, the rounding alone moves the ratio)."""
    per = [(t, e / (1 - f)) for t, f, e in rows if e is not None and e >= 10 and f < 1]  # 0.1 s rounding below
    worst = 1.0
    for i, (t1, a) in enumerate(per):
        for t2, b in per[i + 1:]:
            if t2 - t1 > 60:
                break
            worst = max(worst, a / b, b / a)
    return worst


def _busy(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen(["taskset", "-c", "1", sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def under_load(seconds: float, loads: list[int], every: float, change: tuple[float, float] | None = None) -> None:
    """``change`` (t1, t2): the last of ``loads`` from t1 to t2 s into the run only, the first one before and after
    (the issue's case: a load that comes and goes while a run encodes)."""
    os.sched_setaffinity(0, {1})  # this process (the job's thread is created after) on CPU 1 only
    print(f"synthetic job of about {seconds:.0f} CPU-s on CPU 1; loads as runnable processes per core x 2")
    for load in (loads[:1] if change else loads):
        busy = max(0, load // 2 - 1)  # the job itself is one of the load/2 runnable processes on CPU 1
        loops, extra, phase = _busy(busy), [], 0  # phase: 0 before the change, 1 during, 2 after
        try:
            time.sleep(2.0)
            load_start = os.getloadavg()[0]
            jobs = JobBoard()
            job = jobs.submit_work(WorkRequest("bench", "eta bench", "none"), synthetic_work(seconds))
            samples = []
            while True:
                state = jobs.state(job)
                raw = eta_from(list(jobs._jobs[job].samples), state.elapsed_s)
                samples.append((state.elapsed_s, state.fraction, state.eta_s, state.eta_low_s, state.eta_high_s, raw))
                if state.finished:
                    break
                if change and phase == 0 and change[0] <= state.elapsed_s < change[1]:
                    extra, phase = _busy(max(0, loads[-1] // 2 - 1) - busy), 1
                    print(f"at {state.elapsed_s:.0f} s: load {loads[-1]}")
                if change and phase == 1 and state.elapsed_s >= change[1]:
                    for p in extra:
                        p.kill()
                        p.wait()
                    extra, phase = [], 2
                    print(f"at {state.elapsed_s:.0f} s: load {load} again")
                time.sleep(every)
            load_end = os.getloadavg()[0]
        finally:
            for p in loops + extra:
                p.kill()
                p.wait()
        total = state.elapsed_s
        print(f"\nload {load} ({busy} busy + the job on CPU 1; 1-min load average {load_start:.1f} -> "
              f"{load_end:.1f} on the machine): {state.status} in {total:.0f} s")
        print(f"{'at':>6} {'left':>6} {'shown':>7} {'range':>13} {'raw':>7}")
        for share in (0.1, 0.25, 0.5, 0.75, 0.9):
            t, f, eta, low, high, raw = min(samples, key=lambda s: abs(s[0] - share * total))
            rng = f"{low:.0f}-{high:.0f}" if low is not None else "-"
            print(f"{t:6.0f} {total - t:6.0f} {eta if eta is not None else float('nan'):7.0f} {rng:>13} "
                  f"{raw if raw is not None else float('nan'):7.0f}")
        late = [s for s in samples[:-1] if s[0] >= 0.5 * total and s[2] is not None and s[5] is not None]
        if late:
            shown = sum(abs(s[2] - (total - s[0])) for s in late) / len(late)
            raw = sum(abs(s[5] - (total - s[0])) for s in late) / len(late)
            print(f"second half, mean |estimate - truth|: shown {shown:.1f} s, raw {raw:.1f} s")
        ranged = sum(s[3] is not None for s in samples) / len(samples)
        print(f"largest change within a minute per work left: shown x{worst_change([s[:3] for s in samples[:-1]]):.2f}, "
              f"raw x{worst_change([(s[0], s[1], s[5]) for s in samples[:-1]]):.2f}; a range on {ranged:.0%} of reads")
        time.sleep(3.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--release", default="release_v2603")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between samples")
    parser.add_argument("--fresh-vectors", action="store_true")
    parser.add_argument("--synthetic", type=float, help="a synthetic job of this many CPU-seconds, under --loads")
    parser.add_argument("--loads", type=int, nargs="+", default=[2, 6, 12])
    parser.add_argument("--change", type=float, nargs=2, metavar=("FROM", "TO"),
                        help="the last of --loads only from FROM to TO seconds into the run, the first otherwise")
    args = parser.parse_args()
    if args.synthetic:
        return under_load(args.synthetic, args.loads, min(args.every, 1.0), tuple(args.change) if args.change else None)
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
