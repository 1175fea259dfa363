"""Compressed embeddings: a dense run searched again from its own cached vectors truncated to fewer dimensions
(Matryoshka style, renormalised) and stored as int8 or binary, each variant scored with the official evaluation and
trap-analysed. Does compression make traps win more? (QwenLM/Qwen3-Embedding#14 asks for these benchmarks.)

Nothing is re-encoded: the vectors are the run's, read from the embedding cache under its encoder identity and its
prompts (as the embedding map reads them); a vector missing from the cache is a one-line CorebError. How a variant
scores is ``coreb_core.retrieval.compression`` (int8 calibrated on the task's documents; binary by Hamming distance).
Each variant's hits are made exactly as the run's own search made them (``hits_from_scores``: the run's top-k, its
judged documents and C2C anchor stored wherever they rank, trec_eval's tie rule), and evaluated as the run is
(``analyse_many``, nDCG@10 under v2, the anchor rule given). So the variant at the model's full width and float32 *is*
the run: ``Compression.reproduces`` checks that its per-query scores equal the run's exactly. (A run searched on CUDA
took torch's product, which can differ from faiss's CPU product in the last bits: ``reproduces`` would say so.)

Per variant and task: nDCG@10 and its change from the run; the share of queries (with a positive) lost to a trap
(a trap ranked above every positive: ``trap_above_positive`` of the trap table) and its change; bytes per vector.

Example (CoREB-mini and a BM25 run in ``root``; the MiniLM run takes minutes to encode, so its lines are skipped):
    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import run_meta
    >>> minilm = run_retrieval("minilm", "demo_v2603", tasks=("c2c",), root=root).run_id  # doctest: +SKIP
    >>> result = compression(store, run_meta(minilm, root), dims=[64], precisions=["int8", "binary"])  # doctest: +SKIP
    >>> result.reproduces, [v.label for v in result.variants]  # doctest: +SKIP
    (True, ['384 · float32', '384 · int8', '384 · binary', '64 · int8', '64 · binary'])
    >>> result.table[["dims", "precision", "bytes_per_vector"]].iloc[-1].tolist()  # doctest: +SKIP
    [64, 'binary', 8]

A BM25 run has no vectors to compress:

    >>> compression(store, run_meta(bm25, root), root=root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: bm25 · demo_v2603 has no encoder (model bm25): compressed embeddings need a dense run
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, NamedTuple

import pandas as pd

from coreb_core.analysis.embedding_map import run_vectors
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.schemes import V2
from coreb_core.retrieval.compression import (
    DEFAULT_DIMS,
    PRECISIONS,
    bytes_per_vector,
    check_dims,
    check_precision,
    compressed_scores,
)
from coreb_core.retrieval.embeddings import EmbeddingCache
from coreb_core.retrieval.pipeline import load_task
from coreb_core.retrieval.profiles import run_encoder_identity
from coreb_core.runs.folders import read_hits
from coreb_core.runs.hits import DEFAULT_TOP_K, concat_hits, hits_from_scores
from coreb_core.runs.meta import RunMeta, run_name

RUN = "run"  # the stored run's own label in the evaluation
COLUMNS = ["task", "dims", "precision", "bytes_per_vector", "full", "queries", "ndcg_at_10", "ndcg_change",
           "with_positive", "lost", "lost_share", "lost_change"]


class Variant(NamedTuple):
    """One compression: the first ``dims`` coordinates at ``precision``.

    >>> Variant(128, "int8").label, Variant(128, "int8").bytes
    ('128 · int8', 128)
    """

    dims: int
    precision: str

    @property
    def label(self) -> str:
        return f"{self.dims} · {self.precision}"

    @property
    def bytes(self) -> int:
        return bytes_per_vector(self.dims, self.precision)


class Compression(NamedTuple):
    """``compression``'s result. ``table``: one row per variant and task (``COLUMNS``): dims, precision,
    bytes_per_vector, full (the model's width at float32: the run itself), queries, ndcg_at_10 (v2 mean) and
    ndcg_change (minus the run's), with_positive, lost (queries with a positive lost to a trap), lost_share and
    lost_change (minus the run's share). ``per_query``: variant label, task, query_id, ndcg_at_10, lost. ``reproduces``:
    the full-width float32 variant scores every query exactly as the run does."""

    run_id: str
    release: str
    width: int  # the model's dimensions
    top_k: int
    variants: tuple[Variant, ...]
    table: pd.DataFrame
    per_query: pd.DataFrame
    reproduces: bool


def dense_cache(meta: RunMeta, root: Path | None = None) -> EmbeddingCache:
    """The embedding cache holding ``meta``'s vectors; a CorebError for a run without an encoder (BM25, imported,
    reranked)."""
    identity = run_encoder_identity(meta.model_spec, meta.encoding)
    if identity is None:
        raise CorebError(f"{run_name(meta)} has no encoder (model {meta.model}): compressed embeddings need a dense run")
    return EmbeddingCache(identity, root)


def variants_of(width: int, dims: Iterable[int] | None = None, precisions: Iterable[str] = PRECISIONS
                ) -> tuple[Variant, ...]:
    """Every (dims, precision) asked, widest first, the full width at float32 (the run) always first. ``dims`` None:
    the full width and ``DEFAULT_DIMS`` below it.

    >>> [v.label for v in variants_of(384, [64], ["binary"])]
    ['384 · float32', '384 · binary', '64 · binary']
    """
    asked = [check_precision(p) for p in dict.fromkeys(precisions)]
    if not asked:
        raise CorebError(f"give at least one precision of {', '.join(PRECISIONS)}")
    widths = check_dims([width, *(d for d in DEFAULT_DIMS if d < width)] if dims is None else [width, *dims], width)
    out = [Variant(width, "float32")]
    out += [Variant(d, p) for d in widths for p in asked if (d, p) != (width, "float32")]
    return tuple(out)


def compressed_hits(store: Store, meta: RunMeta, dims: Iterable[int] | None = None,
                    precisions: Iterable[str] = PRECISIONS, tasks: Iterable[str] | None = None,
                    root: Path | None = None) -> tuple[int, dict[Variant, pd.DataFrame]]:
    """The model's width and each variant's hits on ``tasks`` (default: the run's), searched from the run's cached
    vectors and ranked as the run's own search ranked them (see the module)."""
    cache = dense_cache(meta, root if root is not None else store.root)
    tasks = tuple(meta.tasks or ()) if tasks is None else tuple(tasks)
    for task in tasks:
        if task not in (meta.tasks or ()):
            raise CorebError(f"{run_name(meta)} did not search task {task} (it searched "
                             f"{', '.join(meta.tasks or ()) or 'none'})")
    top_k = meta.top_k or DEFAULT_TOP_K
    loaded = []
    for task in tasks:
        data = load_task(store, task)
        # the run's texts in the run's order, with its prompts: exactly the inputs its vectors are keyed by
        loaded.append((task, data, run_vectors(cache, meta, task, "query", data.queries),
                       run_vectors(cache, meta, task, "document", data.docs)))
    width = next((dv.shape[1] for *_, dv in loaded if dv.size), 0)
    if not width:
        raise CorebError(f"{run_name(meta)}: no vectors to compress")
    chosen = variants_of(width, dims, precisions)
    frames: dict[Variant, list[pd.DataFrame]] = {v: [] for v in chosen}
    for task, data, qv, dv in loaded:
        for v in chosen:
            scores = compressed_scores(qv, dv, v.dims, v.precision)
            frames[v].append(hits_from_scores(task, data.query_ids, data.doc_ids, scores, top_k, data.keep,
                                              data.counted))
    return width, {v: concat_hits(parts) for v, parts in frames.items()}


def compression(store: Store, meta: RunMeta, dims: Iterable[int] | None = None, precisions: Iterable[str] = PRECISIONS,
                tasks: Iterable[str] | None = None, anchor_exclusion: bool = True, root: Path | None = None,
                run_hits: pd.DataFrame | None = None) -> Compression:
    """Each variant of the dense run ``meta`` scored and trap-analysed beside the run (see the module); ``run_hits``
    reuses the run's hits when the caller has them read."""
    root = root if root is not None else store.root
    width, variants = compressed_hits(store, meta, dims, precisions, tasks, root)
    hits = run_hits if run_hits is not None else read_hits(meta.run_id, root)
    first = next(iter(variants.values()))
    tasks_done = sorted(set(first["task"].astype(str)))
    hits = hits[hits["task"].astype(str).isin(tasks_done)]
    runs = {RUN: hits, **{v.label: h for v, h in variants.items()}}
    ev = analyse_many(store, runs, (V2,), anchor_exclusion, traps=True, groupings=("task",))
    traps = ev.traps.astype({"run": str, "task": str, "query_id": str})
    per_query = traps[["run", "task", "query_id", "ndcg_at_10"]].assign(
        lost=traps["trap_above_positive"].astype(bool) & traps["has_positive"].astype(bool))
    counts = (per_query.assign(with_positive=traps["has_positive"].astype(bool))
              .groupby(["run", "task"], observed=True)
              .agg(queries=("query_id", "size"), ndcg_at_10=("ndcg_at_10", "mean"),
                   with_positive=("with_positive", "sum"), lost=("lost", "sum")).reset_index())
    counts["lost_share"] = counts["lost"] / counts["with_positive"].where(counts["with_positive"] > 0)
    own = counts[counts["run"] == RUN].set_index("task")
    rows = []
    for v in variants:
        for r in counts[counts["run"] == v.label].itertuples():
            rows.append({"task": r.task, "dims": v.dims, "precision": v.precision, "bytes_per_vector": v.bytes,
                         "full": v == (width, "float32"), "queries": int(r.queries), "ndcg_at_10": r.ndcg_at_10,
                         "ndcg_change": r.ndcg_at_10 - own.at[r.task, "ndcg_at_10"],
                         "with_positive": int(r.with_positive), "lost": int(r.lost), "lost_share": r.lost_share,
                         "lost_change": r.lost_share - own.at[r.task, "lost_share"]})
    table = pd.DataFrame(rows, columns=COLUMNS)
    full = Variant(width, "float32").label
    mine = per_query[per_query["run"] == full].drop(columns="run").reset_index(drop=True)
    theirs = per_query[per_query["run"] == RUN].drop(columns="run").reset_index(drop=True)
    metrics = ev.per_query(V2).astype({"run": str})
    same_metrics = metrics[metrics["run"] == full].drop(columns="run").reset_index(drop=True).equals(
        metrics[metrics["run"] == RUN].drop(columns="run").reset_index(drop=True))
    reproduces = bool(mine.equals(theirs) and same_metrics)
    per_query = per_query[per_query["run"] != RUN].rename(columns={"run": "variant"}).reset_index(drop=True)
    return Compression(meta.run_id, meta.made_on(), width, meta.top_k or DEFAULT_TOP_K, tuple(variants), table,
                       per_query, reproduces)
