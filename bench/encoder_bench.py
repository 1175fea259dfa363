"""The CPU encoder: MiniLM's official profile on PyTorch fp32 against the same model on OpenVINO (fp32 and bf16), on
real CoREB texts, in one run; and each against an estimate of what these cores can do at its own precision.

Texts: ``--texts`` real code and text documents of release_v2603 (every k-th of each corpus), encoded through
``encode_texts`` (length-sorted batches, as a run encodes). Each backend runs in its own process (two runtimes'
thread pools in one process slow each other down), on the same texts; the vectors are compared (cosine) before
the times are printed. The peak: FLOPs per text from its token count
(2 x the transformer's non-embedding weights per token, plus attention's 4 x layers x length x width per
token), against the matrix-multiply GFLOP/s measured here in the same run on 2,048 x 2,048 matrices: float32 (the
better of NumPy's and torch's) for the fp32 backends, bfloat16 in torch (AMX where the CPU has it) for openvino-bf16.

    .venv/bin/python bench/encoder_bench.py [--texts 160] [--batch-size 64] [--cache DIR]
"""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

BACKENDS = ("torch", "openvino", "openvino-bf16")
REAL = Path(__file__).resolve().parents[1].parent / "shared" / "coreb_real" / "release_v2603"


def real_texts(n: int) -> list[str]:
    code = [json.loads(line)["code"] for line in (REAL / "code_corpus.jsonl").open(encoding="utf-8")]
    text = [json.loads(line)["text"] for line in (REAL / "text_corpus.jsonl").open(encoding="utf-8")]
    pool = code + text
    return pool[:: max(1, len(pool) // n)][:n]


def gemm_gflops(library: str = "numpy", dtype: str = "float32") -> float:
    """Matrix-multiply GFLOP/s of 2,048 x 2,048 matrices, best of three timings of five products each."""
    import torch

    a = np.random.default_rng(0).random((2048, 2048), dtype=np.float32)
    if library == "torch":
        a = torch.from_numpy(a).to(getattr(torch, dtype))
    a @ a
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(5):
            a @ a
        best = min(best, time.perf_counter() - t0)
    return 5 * 2 * 2048 ** 3 / best / 1e9


def peaks() -> dict[str, float]:
    """GFLOP/s per precision: fp32 the better of NumPy's and torch's, bf16 torch's."""
    fp32 = {"numpy": gemm_gflops("numpy"), "torch": gemm_gflops("torch", "float32")}
    bf16 = gemm_gflops("torch", "bfloat16")
    print(f"matrix multiply here: float32 {fp32['numpy']:.0f} GFLOP/s (NumPy), {fp32['torch']:.0f} (torch); "
          f"bfloat16 {bf16:.0f} (torch) = {bf16 / max(fp32.values()):.1f}x float32")
    return {"fp32": max(fp32.values()), "bf16": bf16}


PRECISION = {"torch": "fp32", "openvino": "fp32", "openvino-bf16": "bf16"}


def encode_one(backend: str, n_texts: int, batch_size: int, cache: Path, out: Path) -> None:
    """One backend in this process only (two runtimes' thread pools in one process slow each other down)."""
    from coreb_core.retrieval.encode import encode_texts
    from coreb_core.retrieval.models import resolve
    from coreb_core.retrieval.openvino_encoder import OpenVinoEncoder
    from coreb_core.retrieval.runner_encoder import RunnerEncoder

    texts = real_texts(n_texts)
    name = resolve("minilm").name
    t0 = time.perf_counter()
    if backend == "torch":
        encoder = RunnerEncoder.load(name, "cpu")
    else:
        precision = "bfloat16" if backend == "openvino-bf16" else "float32"
        encoder = OpenVinoEncoder.load(name, "bench", precision=precision, root=cache)
    loaded = time.perf_counter() - t0
    encode_texts(encoder, texts[:8], "", 8, True)  # first calls: graph optimisation, allocator warm-up
    t0 = time.perf_counter()
    vectors = encode_texts(encoder, texts, "", batch_size, True)
    np.save(out, vectors)
    print(json.dumps({"seconds": time.perf_counter() - t0, "load_s": loaded}))


def main() -> None:
    import subprocess
    import sys

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=160)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--one", choices=BACKENDS, help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return encode_one(args.one, args.texts, args.batch_size, args.cache, args.out)
    texts = real_texts(args.texts)
    results, vectors = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for backend in ("openvino", *BACKENDS):  # the first call exports the model; the rest are timed
            out = Path(tmp) / f"{backend}.npy"
            done = subprocess.run([sys.executable, __file__, "--one", backend, "--texts", str(args.texts),
                                   "--batch-size", str(args.batch_size), "--cache", tmp, "--out", str(out)],
                                  capture_output=True, text=True, check=True)
            results[backend] = json.loads(done.stdout.splitlines()[-1])
            vectors[backend] = np.load(out)
    for backend in BACKENDS[1:]:
        cosine = (vectors["torch"] * vectors[backend]).sum(axis=1)
        print(f"{len(texts)} real texts, {backend} against torch: cosine min {cosine.min():.7f}, mean {cosine.mean():.7f}")
    from transformers import AutoConfig, AutoModel, AutoTokenizer

    from coreb_core.retrieval.models import resolve

    name = resolve("minilm").name
    tokenizer, config = AutoTokenizer.from_pretrained(name), AutoConfig.from_pretrained(name)
    weights = sum(p.numel() for n, p in AutoModel.from_pretrained(name).named_parameters() if "embeddings" not in n)
    lengths = np.array([len(tokenizer(t, truncation=True, max_length=512)["input_ids"]) for t in texts])
    flops = (2 * weights * lengths + 4 * config.num_hidden_layers * lengths ** 2 * config.hidden_size).astype(float)
    gflops = peaks()
    peak = {precision: g * 1e9 / flops.mean() for precision, g in gflops.items()}
    print(f"tokens per text: mean {lengths.mean():.0f}, max {lengths.max()}; {flops.mean() / 1e9:.1f} GFLOP per text "
          f"-> peak about {peak['fp32']:.1f} texts/s in fp32, {peak['bf16']:.1f} in bf16")
    for backend in BACKENDS:
        rate, precision = len(texts) / results[backend]["seconds"], PRECISION[backend]
        print(f"{backend}: {rate:.1f} texts/s ({rate / peak[precision]:.2f} of the {precision} peak; "
              f"{results['torch']['seconds'] / results[backend]['seconds']:.2f}x torch), model loaded in "
              f"{results[backend]['load_s']:.1f} s")


if __name__ == "__main__":
    main()
