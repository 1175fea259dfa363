"""Exact search: every query against every document, as the official pipeline does.

Dense: faiss ``IndexFlatIP`` on L2-normalised float32 (cosine), on the GPU through faiss-gpu when it
is installed, else torch matmul on CUDA, else faiss on the CPU. Lexical: BM25 (bm25s). Both return a
full (queries x documents) score matrix; ``coreb_core.runs.run.hits_from_scores`` turns it into a run.

Example:
    >>> dense_scores(np.array([[1.0, 0.0]]), np.array([[2.0, 0.0], [1.0, 1.0], [0.0, 3.0]])).round(4)  # (Q, N) cosines
    array([[1.    , 0.7071, 0.    ]], dtype=float32)
"""
from __future__ import annotations

import re

import numpy as np

_TOKEN = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|\d+")


def normalise(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length, as float32 (all-zero rows stay zero).

    >>> normalise(np.array([[3.0, 4.0], [0.0, 0.0]]))
    array([[0.6, 0.8],
           [0. , 0. ]], dtype=float32)
    """
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms > 0, norms, 1.0)


def dense_scores(queries: np.ndarray, docs: np.ndarray, device: str = "cpu") -> np.ndarray:
    """Cosine similarity of every query with every document (exact).

    >>> dense_scores(np.array([[1.0, 0.0]]), np.array([[2.0, 0.0], [0.0, 3.0]]))
    array([[1., 0.]], dtype=float32)
    """
    q, d = normalise(queries), normalise(docs)
    if len(q) == 0 or len(d) == 0:
        return np.zeros((len(q), len(d)), dtype=np.float32)
    import faiss

    if device.startswith("cuda"):
        if hasattr(faiss, "StandardGpuResources") and faiss.get_num_gpus() > 0:
            index = faiss.GpuIndexFlatIP(faiss.StandardGpuResources(), d.shape[1])
        else:
            import torch

            with torch.no_grad():
                return (torch.from_numpy(q).to(device) @ torch.from_numpy(d).to(device).T).float().cpu().numpy()
    else:
        index = faiss.IndexFlatIP(d.shape[1])
    index.add(d)
    scores, ids = index.search(q, d.shape[0])
    out = np.empty_like(scores)
    np.put_along_axis(out, ids, scores, axis=1)
    return out


def code_tokens(text: str) -> list[str]:
    """Lower-cased words, with identifiers split at camelCase and snake_case boundaries.

    >>> code_tokens("def parseHTTPResponse(raw_text, max_len2):")
    ['def', 'parse', 'http', 'response', 'raw', 'text', 'max', 'len', '2']
    """
    return [t.lower() for t in _TOKEN.findall(text)]


def bm25_scores(queries: list[str], docs: list[str], k1: float = 1.5, b: float = 0.75) -> np.ndarray:
    """BM25 score of every document for every query (bm25s, Lucene-style idf).

    >>> docs = ["def add(a, b): return a + b  # sum two numbers", "def parse_list(text): return text.split()"]
    >>> bm25_scores(["sum of two numbers"], docs).round(4)
    array([[0.8616, 0.    ]], dtype=float32)
    """
    import bm25s

    retriever = bm25s.BM25(k1=k1, b=b)
    retriever.index([code_tokens(d) for d in docs], show_progress=False)
    if not queries:
        return np.zeros((0, len(docs)), dtype=np.float32)
    return np.stack([retriever.get_scores(code_tokens(q)) for q in queries]).astype(np.float32)
