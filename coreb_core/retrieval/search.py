"""Exact search: every query against every document, as the official pipeline does.

Dense: the cosine matrix of L2-normalised float32 vectors, from faiss's ``pairwise_distances`` on the CPU and
torch on CUDA (the official runner's ``torch.mm``; it then takes ``torch.topk``). Lexical: BM25 (bm25s). Both return a
full (queries x documents) score matrix; ``coreb_core.runs.hits.hits_from_scores`` turns it into a run.

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
        import torch

        with torch.no_grad():  # the official runner's own computation: torch.mm of the normalised vectors
            return (torch.from_numpy(q).to(device) @ torch.from_numpy(d).to(device).T).float().cpu().numpy()
    # Every score is needed (judged documents and the C2C anchor are stored wherever they rank), so this is
    # faiss's whole inner-product matrix: one BLAS product, no search. ``IndexFlatIP.search`` with k = every
    # document computed the same products and then sorted and scattered them back, 13-16x slower.
    return faiss.pairwise_distances(q, d, faiss.METRIC_INNER_PRODUCT)


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
    return _bm25(k1, b, [code_tokens(d) for d in docs], [code_tokens(q) for q in queries])


def mteb_bm25_scores(queries: list[str], docs: list[str]) -> np.ndarray:
    """BM25 as MTEB's ``mteb/baseline-bm25s`` (``bm25_loader`` of mteb 2.12.30): ``bm25s.tokenize`` with
    English stopwords and PyStemmer's English stemmer (lower-cased words of two or more characters),
    ``bm25s.BM25()`` defaults (Lucene idf, k1=1.5, b=0.75), each document indexed as its title ("") and
    its text joined by a newline, queries as they are (no instruction).

    >>> docs = ["def add(a, b): return a + b  # sums two numbers", "def parse_list(text): return text.split()"]
    >>> mteb_bm25_scores(["sum of two numbers"], docs).round(4)
    array([[0.8318, 0.    ]], dtype=float32)
    """
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")

    def tokens(texts: list[str]) -> list[list[str]]:
        return bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False)

    return _bm25(1.5, 0.75, tokens(["\n".join(["", d]) for d in docs]), tokens(queries) if queries else [])


def _bm25(k1: float, b: float, doc_tokens: list[list[str]], query_tokens: list[list[str]]) -> np.ndarray:
    """Every document's BM25 score for every tokenised query (bm25s, Lucene idf)."""
    import bm25s

    retriever = bm25s.BM25(k1=k1, b=b)
    retriever.index(doc_tokens, show_progress=False)
    if not query_tokens:
        return np.zeros((0, len(doc_tokens)), dtype=np.float32)
    return np.stack([retriever.get_scores(q) for q in query_tokens]).astype(np.float32)


# The lexical models by registry id: one scoring function each.
LEXICAL = {"bm25": bm25_scores, "bm25s-mteb": mteb_bm25_scores}
