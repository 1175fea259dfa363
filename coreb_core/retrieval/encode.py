"""Encoding texts: cached, length-sorted, OOM-safe, with progress.

The encoder is anything with sentence-transformers' ``encode`` signature: a SentenceTransformer
(``card`` profile) or ``coreb_core.retrieval.runner_encoder.RunnerEncoder`` (``official`` profile).

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> class Lengths:   # a stand-in encoder: the vector of a text is (its length, 1)
    ...     def encode(self, texts, batch_size, **options):
    ...         return np.array([[len(t), 1.0] for t in texts])
    >>> cache = EmbeddingCache("lengths", root=Path(tempfile.mkdtemp()))
    >>> vectors, encoded = encode_cached(Lengths, ["ab", "abcd", "ab"], "", cache, batch_size=64, normalize=False)
    >>> vectors.tolist(), encoded
    ([[2.0, 1.0], [4.0, 1.0], [2.0, 1.0]], 2)
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from coreb_core.progress import Progress, silent
from coreb_core.retrieval.embeddings import EmbeddingCache


def _is_oom(exc: BaseException) -> bool:
    return "out of memory" in str(exc).lower() or type(exc).__name__ == "OutOfMemoryError"


FIRST_BATCH = 8  # texts in the first batch of a step (see encode_texts)


def encode_texts(model, texts: list[str], prompt: str, batch_size: int, normalize: bool,
                 progress: Progress = silent, label: str = "", pool=None) -> np.ndarray:
    """Encode in length-sorted batches (longest first, so padding is small and memory peaks early);
    on out-of-memory, retry the batch at half the size.

    >>> class Lengths:   # a stand-in encoder: the vector of a text is (its length, 1)
    ...     def encode(self, texts, batch_size, **options):
    ...         return np.array([[len(t), 1.0] for t in texts])
    >>> encode_texts(Lengths(), ["ab", "abcd", "a"], prompt="", batch_size=2, normalize=False)
    array([[2., 1.],
           [4., 1.],
           [1., 1.]], dtype=float32)
    """
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    order = np.argsort([-len(t) for t in texts], kind="stable")
    out: np.ndarray | None = None
    done, size = 0, max(1, batch_size)
    progress(f"{label} 0/{len(texts)}", 0.0)  # the step has begun (the model load before it has ended)
    while done < len(texts):
        # A small first batch: its pace gives a time left within seconds, where a full batch of the
        # longest texts can take a minute on a busy machine.
        idx = order[done:done + (min(size, FIRST_BATCH) if done == 0 else size)]
        batch = [texts[i] for i in idx]
        try:
            kwargs = {"pool": pool} if pool is not None else {}
            vectors = model.encode(batch, prompt=prompt or None, batch_size=size, normalize_embeddings=normalize,
                                   convert_to_numpy=True, show_progress_bar=False, **kwargs)
        except (RuntimeError, MemoryError) as exc:
            if not _is_oom(exc) or size == 1:
                raise
            size = max(1, size // 2)
            _empty_cuda_cache()
            continue
        vectors = np.asarray(vectors, dtype=np.float32)
        if out is None:
            out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
        out[idx] = vectors
        done += len(batch)
        progress(f"{label} {done}/{len(texts)}", done / len(texts))
    return out if out is not None else np.zeros((0, 0), dtype=np.float32)  # no texts: no vectors


def _empty_cuda_cache() -> None:
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:
        pass


def encode_cached(get_model: Callable[[], object], texts: list[str], prompt: str, cache: EmbeddingCache,
                  batch_size: int, normalize: bool, progress: Progress = silent, label: str = "",
                  pool_factory: Callable[[object], object] | None = None) -> tuple[np.ndarray, int]:
    """Vectors for ``texts`` (deduplicated), encoding only what the cache lacks. The model is
    loaded through ``get_model`` only when something is missing. Returns (vectors, texts encoded).

    >>> import tempfile
    >>> from pathlib import Path
    >>> class Lengths:   # a stand-in encoder: the vector of a text is (its length, 1)
    ...     def encode(self, texts, batch_size, **options):
    ...         return np.array([[len(t), 1.0] for t in texts])
    >>> cache = EmbeddingCache("lengths", root=Path(tempfile.mkdtemp()))
    >>> encode_cached(Lengths, ["ab", "abcd"], "", cache, batch_size=8, normalize=False)[1]
    2
    >>> vectors, encoded = encode_cached(Lengths, ["ab", "abcd"], "", cache, batch_size=8, normalize=False)
    >>> vectors.tolist(), encoded   # all from the cache: the model is not even loaded
    ([[2.0, 1.0], [4.0, 1.0]], 0)
    """
    unique = list(dict.fromkeys(texts))
    found, missing = cache.lookup(unique, prompt)
    if missing:
        model = get_model()
        pool = pool_factory(model) if pool_factory else None
        new = encode_texts(model, [unique[i] for i in missing], prompt, batch_size, normalize, progress, label, pool)
        cache.put([unique[i] for i in missing], prompt, new)
        if any(len(v) != new.shape[1] for v in found.values()):
            # the encoder's width is not the cached one (put dropped those shards): the found vectors are stale too
            stale = sorted(found)
            missing = missing + stale
            again = encode_texts(model, [unique[i] for i in stale], prompt, batch_size, normalize, progress, label, pool)
            cache.put([unique[i] for i in stale], prompt, again)
            found = dict(zip(stale, again))
        for j, i in enumerate(missing[:len(new)]):
            found[i] = new[j]
    else:
        progress(f"{label} {len(unique)}/{len(unique)} (cached)", 1.0)
    position = {t: i for i, t in enumerate(unique)}
    matrix = np.stack([found[position[t]] for t in texts]) if texts else np.zeros((0, 0), dtype=np.float32)
    return matrix.astype(np.float32, copy=False), len(missing)
