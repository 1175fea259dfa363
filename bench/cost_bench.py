"""Does a run's ranked speed measure the model, or the machine's load (issue 48, item 1)? Encodes a few CoREB-mini
documents with MiniLM (the official profile, on the CPU, as ``run_retrieval`` does) on a quiet machine and beside
busy processes (``python -c "while True: pass"``, killed after), at 1 torch thread and at the default, and prints for
each the wall ms per text and the CPU-ms per text (``meter.run_cpu_seconds``, what ``RunCost.speed_ms`` ranks by)
with the 1-minute load beside it; then the busy/quiet ratio of each figure.

    python bench/cost_bench.py [--texts 48] [--busy 2] [--threads 1 0]

Costs about 30-60 s of CPU on 2 cores (the busy loops' included). The load average lags (1-minute mean): the bench
waits a few seconds after starting the loops and prints the load at the end of each measurement too.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def texts(count: int) -> list[str]:
    """The first ``count`` code documents of CoREB-mini's demo_v2603 (built in a temporary cache)."""
    from coreb_core.data.mini.build import build_release
    from coreb_core.data.store import Store

    root = Path(tempfile.mkdtemp(prefix="cost-bench-"))
    build_release("demo_v2603", root=root, execute_python=False)
    with Store("demo_v2603", root) as store:
        rows = store.sql("SELECT content FROM documents WHERE corpus = 'code' ORDER BY doc_id").fetchall()
    return [r[0] for r in rows[:count]]


def measure(model, batch: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of encoding ``batch`` as the pipeline does (batches of 16)."""
    from coreb_core.retrieval.meter import run_cpu_seconds

    t0, c0 = time.perf_counter(), run_cpu_seconds()
    model.encode(batch, batch_size=16, normalize_embeddings=True)
    return time.perf_counter() - t0, run_cpu_seconds() - c0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=48)
    parser.add_argument("--busy", type=int, default=2, help="busy processes beside the busy measurement")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 0], help="torch threads (0: torch's default)")
    args = parser.parse_args()
    import torch

    from coreb_core.retrieval.meter import cpus_available, load_average
    from coreb_core.retrieval.models import resolve
    from coreb_core.retrieval.profiles import encoding_for, load_encoder

    default_threads = torch.get_num_threads()
    spec = resolve("minilm")
    model = load_encoder(spec, encoding_for(spec, "official", "cpu"), "cpu")
    batch = texts(args.texts)
    measure(model, batch[:16])  # warm-up: the first batch pays for lazy initialisation
    print(f"MiniLM, {len(batch)} CoREB-mini code documents, {cpus_available()} CPUs")
    print(f"{'threads':>7} {'busy':>4} {'load':>11} {'wall ms/text':>12} {'CPU-ms/text':>11}")
    results = {}
    for threads in args.threads:
        torch.set_num_threads(threads or default_threads)
        for busy in (0, args.busy):
            loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
            try:
                time.sleep(5.0 if busy else 1.0)
                before = load_average()
                wall, cpu = measure(model, batch)
                after = load_average()
            finally:
                for p in loops:
                    p.kill()
                    p.wait()
            results[threads, busy] = (1000 * wall / len(batch), 1000 * cpu / len(batch))
            print(f"{threads or default_threads:>7} {busy:>4} {before:>5.2f}-{after:<5.2f} "
                  f"{results[threads, busy][0]:>12.1f} {results[threads, busy][1]:>11.1f}")
            time.sleep(3.0)
    for threads in args.threads:
        (qw, qc), (bw, bc) = results[threads, 0], results[threads, args.busy]
        print(f"threads {threads or default_threads}: busy/quiet wall x{bw / qw:.2f}, CPU x{bc / qc:.2f}")


if __name__ == "__main__":
    main()
