"""Retrieval speed: our cold and warm runs against the official pipeline's procedure, per profile.

Same model (all-MiniLM-L6-v2, bundled), same data (CoREB-mini demo_v2603, all three tasks), one
process, CPU. The official procedure (coreb_runner DenseRetrievalExactSearch, ported in
coreb_core.evaluation.official) encodes every query and the whole corpus for each task, then searches exactly.
Ours encodes each distinct text once into the embedding cache (cold), then finds everything there
(warm: nothing encoded, no model loaded). Both sides use the profile's encoder: ``official`` the
runner's AutoModel path at 512 tokens, ``card`` sentence-transformers at the model's 256.

    .venv/bin/python bench/retrieval_bench.py
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from coreb_core.data.mini.build import build_release  # noqa: E402
from coreb_core.data.store import Store  # noqa: E402
from coreb_core.evaluation.official import official_dense_search  # noqa: E402
from coreb_core.retrieval.models import resolve  # noqa: E402
from coreb_core.retrieval.pipeline import load_task, run_retrieval  # noqa: E402
from coreb_core.retrieval.profiles import PROFILES, encoding_for, load_encoder  # noqa: E402

RELEASE = "demo_v2603"


def main() -> None:
    for profile in PROFILES:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            build_release(RELEASE, root)
            spec = resolve("minilm")
            encoding = encoding_for(spec, profile, "cpu")
            t0 = time.perf_counter()
            model = load_encoder(spec, encoding, "cpu")
            load = time.perf_counter() - t0
            with Store(RELEASE, root) as store:
                tasks = {t: load_task(store, t) for t in ("t2c", "c2c", "c2t")}
            t0 = time.perf_counter()
            for data in tasks.values():
                official_dense_search(model, dict(zip(data.doc_ids, data.docs)), dict(zip(data.query_ids, data.queries)))
            official = time.perf_counter() - t0 + load
            t0 = time.perf_counter()
            cold = run_retrieval("minilm", RELEASE, root=root, profile=profile)
            t_cold = time.perf_counter() - t0
            t0 = time.perf_counter()
            warm = run_retrieval("minilm", RELEASE, root=root, profile=profile)
            t_warm = time.perf_counter() - t0
            assert warm.texts_encoded == 0 and warm.ndcg_at_10 == cold.ndcg_at_10
            texts = sum(len(d.docs) + len(d.queries) for d in tasks.values())
            print(f"profile {profile} ({encoding.backend}, {encoding.max_length} tokens), data: {RELEASE}, 3 tasks, "
                  f"{texts} texts to encode the official way, {cold.texts_encoded} distinct")
            print(f"  official procedure (load + encode everything per task + exact search): {official:.1f} s")
            print(f"  ours, cold (load + encode missing + faiss + run stored + scored):      {t_cold:.1f} s "
                  f"-> {official / t_cold:.2f}x the official speed (target >= 1)")
            print(f"  ours, warm (nothing encoded):                                           {t_warm:.2f} s "
                  f"-> {t_cold / t_warm:.0f}x faster than cold, {official / t_warm:.0f}x faster than official "
                  "(target >= 50)")


if __name__ == "__main__":
    main()
