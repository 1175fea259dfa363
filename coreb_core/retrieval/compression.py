"""Compressed embeddings: the score matrix a dense run would get from fewer dimensions or fewer bits per dimension.

Three steps, each as the usual tools do it:

- **Matryoshka truncation**: the first ``dims`` coordinates of each stored vector, L2-renormalised (the model's
  full width is the run itself, untouched).
- **Quantisation** with sentence-transformers' ``quantize_embeddings`` (``sentence_transformers.util.quantization``):
  ``int8`` maps each dimension's range onto 256 buckets; the ranges (per-dimension minimum and maximum) are
  *calibrated on the task's document vectors* (the corpus an index would hold) and the queries use the same ranges
  (values outside are clipped). Scores are inner products of the dequantised vectors (each code back to its
  bucket's lower edge, as sentence-transformers' rescoring dequantises), computed by faiss as for float32.
  ``binary`` keeps each coordinate's sign (``ubinary``: packed bits) and scores by faiss's Hamming distance
  (``faiss.hammings``, as ``IndexBinaryFlat`` does), turned into a similarity: ``dims - 2 * hamming``, the inner
  product of the ±1 sign vectors. Both sides (queries and documents) are compressed alike.
- **Scores**: the full (queries x documents) matrix, as ``search.dense_scores`` gives the run: the run's judged
  documents and C2C anchor are stored wherever they rank, so every score is needed.

At the model's full width and float32 the matrix *is* ``dense_scores``: the run's own scores, bit for bit.

Example:
    >>> q = np.array([[0.5, 0.5, 0.5, -0.5]])
    >>> d = np.array([[0.6, 0.0, 0.8, 0.0], [0.0, 0.6, 0.0, 0.8], [-0.6, -0.8, 0.0, 0.0]])
    >>> compressed_scores(q, d, 4, "float32").round(2)
    array([[ 0.7, -0.1, -0.7]], dtype=float32)
    >>> compressed_scores(q, d, 2, "float32").round(2)   # the first 2 coordinates, renormalised
    array([[ 0.71,  0.71, -0.99]], dtype=float32)
    >>> compressed_scores(q, d, 4, "binary")   # signs (0 counts as negative): 4 - 2 * Hamming distance
    array([[ 2., -2., -2.]], dtype=float32)
    >>> [bytes_per_vector(384, p) for p in PRECISIONS]
    [1536, 384, 48]
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from coreb_core.errors import CorebError
from coreb_core.retrieval.search import dense_scores, normalise

PRECISIONS = ("float32", "int8", "binary")
BITS = {"float32": 32, "int8": 8, "binary": 1}
DEFAULT_DIMS = (256, 128, 64, 32)  # beside the model's full width (MiniLM: 384)


def bytes_per_vector(dims: int, precision: str) -> int:
    """Bytes one stored vector takes: 4 per dimension (float32), 1 (int8), 1 bit rounded up to whole bytes (binary).

    >>> bytes_per_vector(100, "binary")
    13
    """
    return (dims * BITS[check_precision(precision)] + 7) // 8


def check_precision(precision: str) -> str:
    """``precision`` when it is one of ``PRECISIONS``.

    >>> check_precision("int4")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown precision 'int4'; use float32, int8 or binary
    """
    if precision not in PRECISIONS:
        raise CorebError(f"unknown precision {precision!r}; use float32, int8 or binary")
    return precision


def check_dims(dims: Iterable[int], width: int) -> tuple[int, ...]:
    """The truncation widths, widest first, each once: whole numbers from 1 to the model's ``width``.

    >>> check_dims([64, 384, 64], 384)
    (384, 64)
    >>> check_dims([512], 384)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --dims 512: the run's vectors have 384 dimensions; truncate to 1 to 384
    """
    out = []
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 1 <= d <= width:
            raise CorebError(f"--dims {d}: the run's vectors have {width} dimensions; truncate to 1 to {width}")
        out.append(int(d))
    return tuple(sorted(set(out), reverse=True))


def truncate(vectors: np.ndarray, dims: int) -> np.ndarray:
    """Matryoshka truncation: the first ``dims`` coordinates, L2-renormalised (float32).

    >>> truncate(np.array([[3.0, 4.0, 12.0]]), 2).tolist()
    [[0.6000000238418579, 0.800000011920929]]
    """
    return normalise(np.asarray(vectors)[:, :dims])


def compressed_scores(queries: np.ndarray, docs: np.ndarray, dims: int, precision: str) -> np.ndarray:
    """The (queries x documents) similarity matrix of the vectors truncated to ``dims`` and stored at ``precision``
    (see the module). ``float32`` at the full width is ``dense_scores(queries, docs)`` itself."""
    check_precision(precision)
    width = np.asarray(docs).shape[1] if np.ndim(docs) == 2 else 0
    if precision == "float32":
        # dense_scores normalises its inputs: the full width is the run's own computation, unchanged
        return dense_scores(queries if dims >= width else queries[:, :dims], docs if dims >= width else docs[:, :dims])
    q, d = truncate(queries, dims), truncate(docs, dims)
    if len(q) == 0 or len(d) == 0:
        return np.zeros((len(q), len(d)), dtype=np.float32)
    import faiss
    from sentence_transformers.util.quantization import quantize_embeddings

    if precision == "int8":
        # calibration: each dimension's range over the documents (the index's vectors); queries are clipped to it
        ranges = np.vstack([d.min(axis=0), d.max(axis=0)])
        dq = [dequantise(np.asarray(quantize_embeddings(x, "int8", ranges=ranges)), ranges) for x in (q, d)]
        return faiss.pairwise_distances(dq[0], dq[1], faiss.METRIC_INNER_PRODUCT)
    qb, db = (np.ascontiguousarray(quantize_embeddings(x, "ubinary")) for x in (q, d))
    hamming = np.empty((len(qb), len(db)), dtype=np.int32)
    faiss.hammings(faiss.swig_ptr(qb), faiss.swig_ptr(db), len(qb), len(db), qb.shape[1],  # type: ignore[attr-defined]
                   faiss.swig_ptr(hamming))  # faiss's own kernel; its Python stubs do not list it
    return (dims - 2 * hamming).astype(np.float32)


def dequantise(codes: np.ndarray, ranges: np.ndarray) -> np.ndarray:
    """int8 codes back to coordinates: each bucket's lower edge (sentence-transformers' dequantisation).

    >>> ranges = np.array([[-1.0], [1.0]])
    >>> dequantise(np.array([[-128], [127]], dtype=np.int8), ranges).round(4).tolist()
    [[-1.0], [1.0]]
    """
    ranges = np.asarray(ranges, dtype=np.float32)
    steps = (ranges[1] - ranges[0]) / 255
    steps = np.where(steps == 0, 1, steps)
    return ((codes.astype(np.float64) + 128) * steps + ranges[0]).astype(np.float32)
