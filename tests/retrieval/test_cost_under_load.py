"""The ranked speed measures MiniLM, not the machine's load (issue 48, item 1; the bench: bench/cost_bench.py): the
same 12 CoREB-mini documents encoded at one torch thread alone and beside two busy processes take CPU-ms per text
within x1.5 of each other (their wall time is not asserted: it roughly doubles, which is the point)."""
import subprocess
import sys
import time

import pytest


@pytest.mark.slow  # loads MiniLM, encodes 2 x 12 texts (the busy loops burn CPU only while the second one runs)
def test_cpu_ms_per_text_holds_beside_two_busy_processes(mini_data):
    import torch

    from coreb_core.data.store import Store
    from coreb_core.retrieval.meter import run_cpu_seconds
    from coreb_core.retrieval.models import resolve
    from coreb_core.retrieval.profiles import encoding_for, load_encoder

    with Store("demo_v2603", mini_data) as store:
        batch = [r[0] for r in store.sql("SELECT content FROM documents WHERE corpus = 'code' ORDER BY doc_id "
                                         "LIMIT 12").fetchall()]
    spec = resolve("minilm")
    model = load_encoder(spec, encoding_for(spec, "official", "cpu"), "cpu")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model.encode(batch[:4], batch_size=4)  # warm-up
        cpu = {}
        for busy in (0, 2):
            loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
            try:
                time.sleep(0.5 if busy else 0.0)
                start = run_cpu_seconds()
                model.encode(batch, batch_size=4)
                cpu[busy] = run_cpu_seconds() - start
            finally:
                for p in loops:
                    p.kill()
                    p.wait()
    finally:
        torch.set_num_threads(threads)
    assert cpu[0] > 0 and 1 / 1.5 < cpu[2] / cpu[0] < 1.5, cpu
