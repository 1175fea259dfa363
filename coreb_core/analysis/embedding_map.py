"""Embedding map: where a dense run puts one query, its positives, its traps and its nearest other
documents, drawn in two dimensions.

Vectors come from the embedding cache (``coreb_core.retrieval.embeddings``), found as the run stored
them: under the run's encoder identity (``run_encoder_identity`` of its provenance), each text keyed
with the prompt the run used on that side of the task (``RunMeta.prompts``). Nothing is re-encoded: a
vector missing from the cache is a one-line CorebError.

Projection: PCA of the L2-normalised vectors (the cosine geometry the run searched in), by NumPy's
SVD of the centred points; each axis is signed so that the query sits at or left of (below) the
centre. PCA only: umap-learn is not a dependency, and PCA says how much of the variance its two axes
show (``explained_variance``) and keeps distances along them, which UMAP does not.

"Nearest other documents" are the documents of the task's corpus most cosine-similar to the query,
judged ones aside (they are all shown), and without the query's own id and (with anchor exclusion)
the C2C anchor, as the evaluator drops them.

Example (CoREB-mini in ``root``; the MiniLM run takes minutes to encode, so those lines are skipped here):
    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import run_meta
    >>> minilm = run_retrieval("minilm", "demo_v2603", tasks=("t2c",), root=root).run_id  # doctest: +SKIP
    >>> m = embedding_map(store, run_meta(minilm), "q_t2c_canonical_retro_any_0001", neighbours=5)  # doctest: +SKIP
    >>> m.points[["role", "grade", "kind"]].head(2)  # doctest: +SKIP
           role  grade      kind
    0     query   <NA>     query
    1  positive      2  positive
    >>> m.method, [round(v, 3) for v in m.explained_variance]  # doctest: +SKIP
    ('PCA', [0.293, 0.149])

A BM25 run has no vectors to map:

    >>> embedding_map(store, run_meta(bm25), "q_t2c_canonical_retro_any_0001")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: bm25 · demo_v2603 has no encoder (model bm25): the embedding map needs a dense run
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.analysis.inspection import official_ranks, query_details, query_hits
from coreb_core.analysis.traps.kinds import trap_reasons
from coreb_core.data.schema import NEGATIVE, POSITIVE, TRAP
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.retrieval.embeddings import EmbeddingCache
from coreb_core.retrieval.profiles import run_encoder_identity
from coreb_core.retrieval.search import normalise
from coreb_core.runs.meta import RunMeta, run_name

SNIPPET = 160
ROLES = ("query", "positive", "trap", "judged negative", "neighbour")  # the order rows come in
METHOD = "PCA"


class EmbeddingMap(NamedTuple):
    """``embedding_map``'s result.

    ``points``: one row per point, in ``ROLES`` order: role, doc_id (the query id for the query), x, y,
    grade (2/1/0, NA for the query and unjudged documents), kind (``query``, ``positive``, the trap's
    kind from ``trap_kinds.trap_reasons``, ``judged_negative``, ``unjudged``), language, problem_id,
    same_problem, similarity (cosine with the query), rank (the run's evaluator rank when hits were
    given, NaN when not stored), snippet (first 160 characters). ``explained_variance``: the share of
    the points' variance on each axis.
    """

    run_id: str
    query_id: str
    points: pd.DataFrame
    explained_variance: tuple[float, float]
    method: str = METHOD


def project_2d(vectors: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    """PCA to two dimensions: (n, 2) coordinates and each axis's share of the variance. Axes are signed so
    the first point (the query) has a coordinate <= 0 on each; missing axes (fewer points) are 0.

    >>> coords, explained = project_2d(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]))   # points on a line
    >>> coords.round(4).tolist(), [round(v, 4) for v in explained]
    ([[-1.4142, 0.0], [0.0, 0.0], [1.4142, 0.0]], [1.0, 0.0])
    """
    x = np.asarray(vectors, dtype=np.float64)
    if x.ndim != 2 or len(x) == 0:
        return np.zeros((0, 2)), (float("nan"), float("nan"))
    centred = x - x.mean(axis=0)
    u, s, _ = np.linalg.svd(centred, full_matrices=False)
    k = min(2, len(s))
    coords = np.zeros((len(x), 2))
    coords[:, :k] = u[:, :k] * s[:k]
    total = float((s ** 2).sum())
    explained = np.zeros(2)
    if total > 0:
        explained[:k] = s[:k] ** 2 / total
    scale = np.abs(coords).max(initial=0.0)
    for axis in range(2):
        ref = coords[0, axis]
        if abs(ref) <= 1e-9 * max(scale, 1.0):
            # The query sits on the centre line: sign by the largest coordinate instead (still deterministic).
            ref = -coords[np.argmax(np.abs(coords[:, axis])), axis]
        if ref > 0:
            coords[:, axis] = -coords[:, axis]
    coords[np.abs(coords) <= 1e-12 * max(scale, 1.0)] = 0.0  # no -0.0 or rounding dust on an empty axis
    return coords, (float(explained[0]), float(explained[1]))


def _snippet(text: str | None) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1] + "…"


def run_cache(meta: RunMeta, root: Path | None = None) -> EmbeddingCache:
    """The embedding cache that holds ``meta``'s vectors (a CorebError for a run without an encoder).

    >>> run_cache(RunMeta("bm25-run", model="bm25"))
    Traceback (most recent call last):
    coreb_core.errors.CorebError: bm25 has no encoder (model bm25): the embedding map needs a dense run
    """
    identity = run_encoder_identity(meta.model_spec, meta.encoding)
    if identity is None:
        raise CorebError(f"{run_name(meta)} has no encoder (model {meta.model}): the embedding map needs a dense run")
    return EmbeddingCache(identity, root)


def run_vectors(cache: EmbeddingCache, meta: RunMeta, task: str, side: str, texts: list[str]) -> np.ndarray:
    """The cached vectors of ``texts`` as the run encoded them on ``side`` ("query" or "document") of
    ``task``; a one-line CorebError when any is missing (nothing is re-encoded)."""
    prompts = (meta.prompts or {}).get(task)
    if not prompts:
        raise CorebError(f"{run_name(meta)} did not search task {task}")
    found, missing = cache.lookup(texts, prompts.get(side) or "")
    if missing:
        # the run's name, not its id or the cache folder's hash: a user reads this on the page
        raise CorebError(f"{len(missing)} of {len(texts)} {side} vectors of {run_name(meta)} ({task}) are not in its "
                         f"embedding cache; nothing is re-encoded here: run {meta.model} again on Run retrieval to store "
                         "them")
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([found[i] for i in range(len(texts))])


def embedding_map(store: Store, meta: RunMeta, query_id: str, neighbours: int = 10, anchor_exclusion: bool = True,
                  hits: pd.DataFrame | None = None, root: Path | None = None,
                  cache: EmbeddingCache | None = None) -> EmbeddingMap:
    """The 2-D map of ``query_id`` under the dense run ``meta``: the query, every document the qrels judge
    for it, and its ``neighbours`` nearest other documents (see the module docstring). ``hits`` (the
    run's) adds each point's evaluator rank; ``cache`` reuses an open ``run_cache``; ``root`` defaults
    to the Store's cache root."""
    details = query_details(store, query_id)
    cache = cache or run_cache(meta, root if root is not None else store.root)
    docs = store.sql("""SELECT doc_id, content, language, problem_id FROM documents WHERE corpus = ?
                        ORDER BY doc_id""", [details.corpus]).df()
    query_vec = normalise(run_vectors(cache, meta, details.task, "query", [details.query or ""]))[0]
    doc_vecs = normalise(run_vectors(cache, meta, details.task, "document", docs["content"].fillna("").tolist()))
    similarity = doc_vecs @ query_vec if len(docs) else np.zeros(0)
    grades = dict(store.sql("SELECT doc_id, relevance FROM qrels WHERE query_id = ?", [query_id]).fetchall())
    reasons = trap_reasons(store, details)
    dropped = {query_id} | ({details.anchor_code_id} if anchor_exclusion and details.task == "c2c"
                            and details.anchor_code_id else set())
    grade = docs["doc_id"].map(grades)
    role = grade.map({POSITIVE: "positive", TRAP: "trap", NEGATIVE: "judged negative"}).astype(object)
    others = np.flatnonzero(role.isna().to_numpy() & ~docs["doc_id"].isin(dropped).to_numpy())
    # Nearest first; ties by doc id (docs are in doc-id order and the sort is stable).
    nearest = others[np.argsort(-similarity[others], kind="stable")[:max(0, int(neighbours))]]
    role.iloc[nearest] = "neighbour"
    shown = np.flatnonzero(role.notna().to_numpy())
    order = shown[np.lexsort((-similarity[shown], role.iloc[shown].map(ROLES.index).to_numpy()))]
    chosen = docs.iloc[order].reset_index(drop=True)
    kinds = [("positive" if r == "positive" else reasons[d].kind if r == "trap" and d in reasons
              else "judged_negative" if r == "judged negative" else "unjudged")
             for d, r in zip(chosen["doc_id"], role.iloc[order])]
    coords, explained = project_2d(np.vstack([query_vec[None, :], doc_vecs[order]]))
    query_language = details.anchor_language if details.query_is_code else None
    points = pd.DataFrame({
        "role": ["query"] + role.iloc[order].tolist(),
        "doc_id": [query_id] + chosen["doc_id"].tolist(),
        "x": coords[:, 0], "y": coords[:, 1],
        "grade": pd.array([pd.NA] + grade.iloc[order].tolist(), dtype="Int64"),
        "kind": ["query"] + kinds,
        "language": [query_language] + chosen["language"].tolist(),
        "problem_id": [details.problem_id] + chosen["problem_id"].tolist(),
        "same_problem": [True] + (chosen["problem_id"] == details.problem_id).tolist(),
        "similarity": np.r_[1.0, similarity[order]],
        "rank": np.nan,
        "snippet": [_snippet(details.query)] + chosen["content"].map(_snippet).tolist(),
    })
    if hits is not None:
        ranked = official_ranks(details, query_hits(hits, query_id), anchor_exclusion).set_index("doc_id")["rank"]
        points["rank"] = points["doc_id"].map(ranked).astype(float)
        points.loc[0, "rank"] = np.nan
    return EmbeddingMap(meta.run_id, query_id, points, explained)
