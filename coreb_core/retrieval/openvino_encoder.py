"""The official profile on OpenVINO: the same weights, tokenizer, mean pooling and normalisation as
``RunnerEncoder`` (coreb_runner's AutoModel path), with the transformer compiled by OpenVINO for the CPU.

sentence-transformers' own ONNX and OpenVINO backends need optimum, which pins transformers < 4.56 and so does not
install beside this project's transformers; OpenVINO itself does. It is fed the model ``RunnerEncoder`` loads
(the same ``from_pretrained``, fp32), exported once with ``torch.onnx.export`` to
``data_cache/onnx/<encoder identity>/model.onnx`` (written atomically). Two precisions:

- ``float32`` (``--backend openvino``): OpenVINO told to infer in f32; vectors agree with PyTorch's to cosine
  0.9999999 (measured on 32 real texts);
- ``bfloat16`` (``--backend openvino-bf16``): OpenVINO's own default on CPUs with bf16 units; cosine 0.99998, and
  kept only because its nDCG@10 on the real release stays within 0.002 of fp32 (bench/README.md).

ONNX Runtime was tried on the same export and ran slower than PyTorch here (0.75x); dynamic int8 quantisation
moved MiniLM's vectors to cosine 0.87 of fp32 and is not offered. The backend and precision are part of the
encoder identity (``profiles.encoder_identity``), so these vectors have their own embedding cache.

Example (the bundled MiniLM; not doctested, it exports a model):
    >>> encoder = OpenVinoEncoder.load(resolve("minilm").name, identity="…", precision="float32")   # doctest: +SKIP
    >>> encoder.encode(["def f(): pass"]).shape   # doctest: +SKIP
    (1, 384)
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from coreb_core.atomic import atomic_path
from coreb_core.errors import CorebError
from coreb_core.paths import cache_root
from coreb_core.retrieval.runner_encoder import OFFICIAL_MAX_LENGTH

OPENVINO_PRECISION = {"float32": "f32", "bfloat16": "bf16"}  # our precision names -> OpenVINO's hint


def onnx_dir(root: Path | None = None) -> Path:
    """``data_cache/onnx/<encoder identity>/model.onnx``: exported models, one per encoder identity.

    >>> onnx_dir(Path("/tmp/cache"))
    PosixPath('/tmp/cache/onnx')
    """
    return (root or cache_root()) / "onnx"


class OpenVinoEncoder:
    """Tokenizer of the model, transformer compiled by OpenVINO, the runner's mean pooling and L2 normalisation in
    NumPy. ``encode`` has sentence-transformers' signature, as ``RunnerEncoder``'s."""

    def __init__(self, tokenizer, compiled, input_names: list[str]) -> None:
        self.tokenizer, self.compiled, self.input_names = tokenizer, compiled, input_names

    @classmethod
    def load(cls, name: str, identity: str, revision: str | None = None, trust_remote_code: bool = False,
             precision: str = "float32", root: Path | None = None) -> "OpenVinoEncoder":
        """The tokenizer and the exported model compiled for the CPU (exported first when ``identity`` has none)."""
        if precision not in OPENVINO_PRECISION:
            raise CorebError(f"OpenVINO runs float32 or bfloat16, not {precision!r}")
        try:
            import openvino
        except ImportError:
            raise CorebError("the openvino backend needs OpenVINO: pip install openvino "
                             "(in requirements.txt; --backend torch needs nothing more)") from None
        from transformers import AutoTokenizer

        if "jina-embeddings-v4" in name.lower():  # task heads, not mean pooling (RunnerEncoder's jina_task)
            raise CorebError(f"{name}: the openvino backend covers mean-pooled models only; use --backend torch")
        tokenizer = AutoTokenizer.from_pretrained(name, revision=revision, trust_remote_code=trust_remote_code)
        model_file = onnx_dir(root) / identity / "model.onnx"
        cached = model_file.exists()
        if not cached:
            _export(name, revision, trust_remote_code, tokenizer, model_file)
        settings = {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": OPENVINO_PRECISION[precision]}
        try:
            compiled = openvino.Core().compile_model(str(model_file), "CPU", settings)
        except RuntimeError as exc:
            if not cached:  # just exported and unreadable: the export's fault, not the model folder's
                raise _unreadable(model_file, exc) from None
            # A cached export OpenVINO cannot read (cut short, a flipped byte): exported again, atomically (was:
            # kept, and the model folder was blamed on every run).
            _export(name, revision, trust_remote_code, tokenizer, model_file)
            try:
                compiled = openvino.Core().compile_model(str(model_file), "CPU", settings)
            except RuntimeError as again:
                raise _unreadable(model_file, again) from None
        return cls(tokenizer, compiled, [i.get_any_name() for i in compiled.inputs])

    def encode(self, texts: list[str], prompt: str | None = None, batch_size: int = 12,
               max_length: int = OFFICIAL_MAX_LENGTH, **_ignored) -> np.ndarray:
        """Unit vectors (float32), one row per text (``RunnerEncoder.encode``'s rules)."""
        if prompt:
            texts = [prompt + t for t in texts]
        out = []
        for start in range(0, len(texts), batch_size):
            encoded = self.tokenizer(texts[start:start + batch_size], padding=True, truncation=True,
                                     max_length=max_length, return_tensors="np")
            feed = {n: encoded[n].astype(np.int64) for n in self.input_names}
            tokens = self.compiled(feed)[0]
            mask = encoded["attention_mask"][:, :, None].astype(np.float32)
            pooled = (tokens * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out.append((pooled / np.clip(norms, 1e-12, None)).astype(np.float32))
        return np.vstack(out) if out else np.zeros((0, 0), dtype=np.float32)


def _unreadable(model_file: Path, exc: RuntimeError) -> CorebError:
    """OpenVINO's refusal of an export it was just given, naming the exported file (its message is a page of C++
    source locations; the line naming the reason is kept)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip() and not line.startswith("Exception from")]
    reason = (lines or ["no reason given"])[0].split(":")[0][:200]  # "Unable to read the model: <the path> …"
    return CorebError(f"{model_file}: OpenVINO cannot read the model exported here ({reason}); use --backend torch")


def _export(name: str, revision: str | None, trust_remote_code: bool, tokenizer, model_file: Path) -> None:
    """The runner's AutoModel (fp32) as ONNX with dynamic batch and length, written atomically. Exported with
    eager attention: the same weights and arithmetic as the runner's SDPA (vectors agree to cosine 0.99999),
    and a simpler graph (ONNX Runtime ran it 1.6x faster than the SDPA export: 13.0 against 8.1 texts/s)."""
    import torch
    from transformers import AutoModel

    from coreb_core.retrieval.runner_encoder import check_positions

    model = AutoModel.from_pretrained(name, revision=revision, trust_remote_code=trust_remote_code,
                                      dtype=torch.float32, attn_implementation="eager").eval()
    check_positions(name, getattr(model.config, "max_position_embeddings", None))
    sample = tokenizer(["def f(): pass", "x"], padding=True, return_tensors="pt")
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in sample]
    dynamic = {n: {0: "batch", 1: "length"} for n in names} | {"last_hidden_state": {0: "batch", 1: "length"}}

    class Tokens(torch.nn.Module):  # the transformer's token vectors only (what mean pooling reads)
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, *inputs):
            return self.model(**dict(zip(names, inputs)))[0]

    with atomic_path(model_file) as tmp, torch.no_grad():
        torch.onnx.export(Tokens(model).eval(), tuple(sample[n] for n in names), str(tmp), input_names=names,
                          output_names=["last_hidden_state"], dynamic_axes=dynamic, opset_version=17, dynamo=False)
