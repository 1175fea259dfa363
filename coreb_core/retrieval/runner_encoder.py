"""The ``official`` encoder: coreb_runner 0.1.0's ``HuggingFaceWrapper``, step by step.

Line numbers are those of ``coreb_runner/benchmark/models.py`` in the ``coreb`` 0.1.0 wheel:

- load: ``AutoTokenizer.from_pretrained`` and ``AutoModel.from_pretrained`` (134-135), then
  ``.to(device)`` and ``.eval()`` (153-154); device = cuda when available, else cpu (149-152);
- tokenize each batch with ``padding=True, truncation=True, max_length=512`` (195-201); 512 is the
  default of ``_encode_texts`` (184) and no caller passes another (``DenseRetrievalExactSearch``
  passes only ``show_progress_bar`` and ``convert_to_tensor``, evaluation.py 93-98 and 122-127);
- no prompt: queries and documents go in as they are (173-182);
- pool: the model's own ``sentence_embedding`` output when its forward returns one (C2LLM's remote
  code, per the comment at 161-162), else the mean of the last hidden state over the attention mask
  (158-171); ``jina-embeddings-v4`` gets ``task_label`` and its ``single_vec_emb`` (137-146, 206-210);
- L2-normalise, always (213: the ``normalize_embeddings`` option read at 61 is never used), and
  return float32 (216).

The wrapper passes no dtype of its own (only what a run config's ``model_kwargs`` adds, which the
package does not ship). We load float32: that is what ``from_pretrained`` gives without a dtype in
transformers 4.x (transformers 5 loads the checkpoint's dtype instead), and it is the exact
computation; see README "Encoding profiles".

Example (loads MiniLM from the local Hugging Face cache and encodes with it, so it is skipped):
    >>> from coreb_core.retrieval.models import resolve
    >>> encoder = RunnerEncoder.load(resolve("minilm").name, device="cpu")   # doctest: +SKIP
    >>> encoder.encode(["def f(): pass"], batch_size=8).shape   # doctest: +SKIP
    (1, 384)
"""
from __future__ import annotations

from typing import Any

import numpy as np

OFFICIAL_MAX_LENGTH = 512  # coreb_runner models.py:184
OFFICIAL_PRECISION = "float32"


def check_positions(name: str, positions: object) -> None:
    """The runner tokenizes to 512 tokens whatever the model takes, so a model with fewer positions fails in its
    embedding layer mid-run (as the runner would): refuse it before anything is encoded.

    >>> check_positions("bert-512", 512)
    >>> check_positions("tiny", 64)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: tiny: the model takes 64 positions, but the official profile tokenizes to 512 (coreb_runner models.py:184); use the card profile
    """
    from coreb_core.errors import CorebError

    if isinstance(positions, int) and positions < OFFICIAL_MAX_LENGTH:
        raise CorebError(f"{name}: the model takes {positions} positions, but the official profile tokenizes to "
                         f"{OFFICIAL_MAX_LENGTH} (coreb_runner models.py:184); use the card profile")


class RunnerEncoder:
    """AutoTokenizer + AutoModel with the runner's tokenization and pooling. ``encode`` has the
    signature of sentence-transformers' ``encode`` so the cached, length-sorted batching of
    ``coreb_core.retrieval.encode`` drives both backends.

    >>> from coreb_core.retrieval.models import resolve
    >>> encoder = RunnerEncoder.load(resolve("minilm").name, device="cpu")   # doctest: +SKIP
    >>> vectors = encoder.encode(["def f(): pass", "a comment"], batch_size=8)   # doctest: +SKIP
    >>> vectors.shape, vectors.dtype, sorted(encoder.pooling_seen)   # doctest: +SKIP
    ((2, 384), dtype('float32'), ['mean'])
    """

    def __init__(self, tokenizer, model, device: str, jina_task: str | None = None) -> None:
        self.tokenizer, self.model, self.device, self.jina_task = tokenizer, model, device, jina_task
        self.pooling_seen: set[str] = set()  # which pooling the model's outputs called for

    @classmethod
    def load(cls, name: str, device: str, revision: str | None = None, trust_remote_code: bool = False,
             precision: str = OFFICIAL_PRECISION) -> "RunnerEncoder":
        """Load tokenizer and model as the runner does (``from_pretrained``, ``.to(device)``, ``.eval()``).

        >>> from coreb_core.retrieval.models import resolve
        >>> type(RunnerEncoder.load(resolve("minilm").name, "cpu")).__name__   # doctest: +SKIP
        'RunnerEncoder'
        """
        import torch
        from transformers import AutoModel, AutoTokenizer

        kwargs: dict[str, Any] = {"revision": revision, "trust_remote_code": trust_remote_code}
        tokenizer = AutoTokenizer.from_pretrained(name, **kwargs)
        model = AutoModel.from_pretrained(name, dtype=getattr(torch, precision), **kwargs)
        check_positions(name, getattr(model.config, "max_position_embeddings", None))
        model.to(device)
        model.eval()
        # models.py:140-142: jina-embeddings-v4 needs a task label; "retrieval" when the config gives none.
        jina_task = "retrieval" if "jina-embeddings-v4" in name.lower() else None
        return cls(tokenizer, model, device, jina_task)

    def encode(self, texts: list[str], prompt: str | None = None, batch_size: int = 12,
               max_length: int = OFFICIAL_MAX_LENGTH, **_ignored) -> np.ndarray:
        """Unit vectors (float32), one row per text. ``prompt`` is prepended when given (the
        official profile gives none); ``normalize_embeddings`` and other sentence-transformers
        options are accepted and ignored, as the runner ignores them.

        >>> from coreb_core.retrieval.models import resolve
        >>> vectors = RunnerEncoder.load(resolve("minilm").name, "cpu").encode(["def f(): pass"])   # doctest: +SKIP
        >>> vectors.shape, vectors.dtype, round(float((vectors ** 2).sum()), 4)   # doctest: +SKIP
        ((1, 384), dtype('float32'), 1.0)
        """
        import torch

        if prompt:
            texts = [prompt + t for t in texts]
        out = []
        for start in range(0, len(texts), batch_size):
            encoded = self.tokenizer(texts[start:start + batch_size], padding=True, truncation=True,
                                     max_length=max_length, return_tensors="pt").to(self.device)
            with torch.no_grad():
                forward = dict(encoded)
                if self.jina_task:
                    forward["task_label"] = self.jina_task
                output = self.model(**forward)
                vectors = self._pool(output, encoded["attention_mask"])
                vectors = torch.nn.functional.normalize(vectors, p=2, dim=1)
            out.append(vectors.detach().float().cpu().numpy())
        return np.vstack(out) if out else np.zeros((0, 0), dtype=np.float32)

    def _pool(self, output, attention_mask):
        import torch

        if self.jina_task and getattr(output, "single_vec_emb", None) is not None:
            self.pooling_seen.add("single_vec_emb")
            return output.single_vec_emb
        if isinstance(output, dict) and "sentence_embedding" in output:
            self.pooling_seen.add("sentence_embedding")
            return output["sentence_embedding"]
        if hasattr(output, "sentence_embedding"):
            self.pooling_seen.add("sentence_embedding")
            return output.sentence_embedding
        self.pooling_seen.add("mean")
        token_embeddings = output[0]
        mask = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).float()
        return torch.sum(token_embeddings * mask, 1) / torch.clamp(mask.sum(1), min=1e-9)
