"""What a reranker did to a first stage, query by query: the ceiling it had, the queries it broke (a trap
promoted over a positive the first stage had right) and the ones it rescued, by trap kind.

Definitions, per evaluated query (a query of the qrels that both runs list). Ranks are the evaluator's: those of
``coreb_core.analysis.traps.wins`` (the query's own id and, with ``anchor_exclusion``, the C2C anchor leave the
list and the hits below move up), so "best positive" and "best trap" are the best-ranked rel=2 and rel=1
documents of ``TrapWins.queries``:

- ``ceiling``: some positive is among the reranker's candidates, i.e. the first stage's top ``depth`` as
  ``coreb_core.retrieval.pipeline.rerank_candidates`` cuts it (stored ranks 1..depth of its complete prefix, the
  C2C anchor included, as the reranker saw it). A query without a positive has no ceiling.
- ``right`` (in a run): the query has a positive, the run lists its best positive and no trap is listed
  above it (a trap the run does not list counts as below every listed document): ``trap_wins == 0``.
- ``broken``: right in the first stage, a trap above the best positive after reranking.
- ``rescued``: a trap above the best positive in the first stage, right after reranking.
- the trap of a broken query is the reranked run's best trap (now above the positive), of a rescued query
  the first stage's best trap (the one demoted below it); ``trap_kind`` is its kind
  (``coreb_core.analysis.traps.kinds.TRAP_KINDS``).

For a reranked run that reorders only the first stage's top ``depth`` (``rerank_run``), a query whose best
positive is deeper keeps its order with every trap, so broken and rescued queries always lie within the ceiling.

Example (CoREB-mini and a BM25 run in ``root``; a "reranker" that reverses each top 10 stands in for a model):
    >>> from coreb_core.runs.folders import read_hits
    >>> first = read_hits(bm25)
    >>> top = first["rank"] <= 10
    >>> flipped = first.assign(rank=first["rank"].where(~top, 11 - first["rank"])).sort_values(
    ...     ["task", "query_id", "rank"], ignore_index=True)
    >>> errors = rerank_errors(store, first, flipped, depth=10)
    >>> errors.summary[["task", "with_positive", "ceiling_share", "broken", "rescued", "net"]]
      task  with_positive  ceiling_share  broken  rescued  net
    0  c2c            144       0.715278      21       40   19
    1  c2t            312       0.644231      76       19  -57
    2  t2c            720       0.773611     170      165   -5
    >>> errors.by_kind.query("task == 'c2t'")[["kind", "broken", "rescued"]]
                    kind  broken  rescued
    4  noise_description      76       19
    5   judged_non_match       0        0

A reranked run stored by ``rerank_run`` (its run.json names the first stage and the depth), by id:
    >>> from coreb_core.retrieval.pipeline import rerank_run
    >>> reranked = rerank_run(bm25, "cross-encoder/ms-marco-MiniLM-L-6-v2", depth=20, root=root)  # doctest: +SKIP
    >>> rerank_errors_of(reranked.run_id, root).summary  # doctest: +SKIP
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.analysis.traps.kinds import TRAP_KINDS
from coreb_core.analysis.traps.wins import trap_wins
from coreb_core.data.schema import POSITIVE
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.join import codes_in, release_index
from coreb_core.retrieval.pipeline import check_count, rerank_candidates
from coreb_core.runs.folders import read_hits, run_meta

FIRST, RERANKED = "first_stage", "reranked"  # the two runs' names inside ``trap_wins``
HITS_COLUMNS = ("task", "query_id", "doc_id", "rank", "in_top_k")


class RerankErrors(NamedTuple):
    """A reranked run against its first stage (see the module's definitions).

    ``queries``: one row per evaluated query: task, query_id, subtask, has_positive, ceiling,
    first_positive_rank, first_trap_rank, reranked_positive_rank, reranked_trap_rank (evaluator ranks of the best
    positive and best trap, NaN when not listed or none judged), first_trap_wins, reranked_trap_wins (traps above
    the best positive), right_first, right_reranked, broken, rescued, trap_id and trap_kind (the promoted trap of a
    broken query, the demoted one of a rescued query; None otherwise).
    ``summary``: one row per task: queries, with_positive, ceiling, ceiling_share (ceiling / with_positive; NaN
    when no query has a positive), right_first, right_reranked, broken, rescued, net (rescued − broken).
    ``by_kind``: one row per task × trap kind judged for its queries (``TRAP_KINDS`` order): broken, rescued, net.
    ``first_stage`` and ``reranked`` are run ids (None when the hits were given as frames).
    """

    queries: pd.DataFrame
    summary: pd.DataFrame
    by_kind: pd.DataFrame
    depth: int
    first_stage: str | None
    reranked: str | None
    release: str
    anchor_exclusion: bool


def _query_ids(hits: pd.DataFrame, what: str) -> set:
    missing = [c for c in HITS_COLUMNS if c not in hits.columns]
    if missing:
        raise CorebError(f"the {what} hits lack the column(s) {', '.join(missing)}")
    return set(hits["query_id"].dropna().unique().tolist())


def _check_same_queries(first_stage: pd.DataFrame, reranked: pd.DataFrame) -> None:
    """A reranked run reorders the first stage's lists: both must list the same queries."""
    first, second = _query_ids(first_stage, "first-stage"), _query_ids(reranked, "reranked")
    for extra, has, lacks in ((second - first, "reranked run", "first stage"),
                              (first - second, "first stage", "reranked run")):
        if extra:
            shown = ", ".join(sorted(str(q) for q in extra)[:3]) + (", …" if len(extra) > 3 else "")
            noun = "query" if len(extra) == 1 else "queries"
            raise CorebError(f"the {has} lists {len(extra)} {noun} the {lacks} does not ({shown}): "
                             "a reranked run must reorder its first stage's lists")


def _ceiling(store: Store, first_stage: pd.DataFrame, depth: int) -> np.ndarray:
    """Per release query code: a positive is among the reranker's candidates (the first stage's top ``depth``)."""
    index = release_index(store)
    candidates = rerank_candidates(first_stage, depth, store)
    qcode = codes_in(candidates["query_id"], index.query_pos)
    dcode = codes_in(candidates["doc_id"], index.docs)
    known = (qcode >= 0) & (dcode >= 0)
    keys = qcode[known].astype(np.int64) * index.n_docs + dcode[known]
    judged = index.judged("qrels")
    positives = judged.keys[judged.grade == POSITIVE]  # sorted, as every judged key
    at = np.minimum(np.searchsorted(positives, keys), max(len(positives) - 1, 0))
    hit = positives[at] == keys if len(positives) else np.zeros(len(keys), dtype=bool)
    out = np.zeros(index.n_queries, dtype=bool)
    out[qcode[known][hit]] = True
    return out


def _kinds_of(traps: pd.DataFrame, n_docs: int, qcode: np.ndarray, dcode: np.ndarray) -> np.ndarray:
    """The kind code (into ``TRAP_KINDS``) of each judged trap (query code, doc code); -1 where none is given."""
    keys = traps["query_id"].cat.codes.to_numpy().astype(np.int64) * n_docs + traps["doc_id"].cat.codes.to_numpy()
    order = np.argsort(keys, kind="stable")
    keys, kinds = keys[order], traps["kind"].cat.codes.to_numpy()[order]
    wanted = qcode.astype(np.int64) * n_docs + dcode
    at = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
    found = (dcode >= 0) & (keys[at] == wanted) if len(keys) else np.zeros(len(wanted), dtype=bool)
    return np.where(found, kinds[at] if len(keys) else -1, -1)


def _where(mask: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` where ``mask``, None elsewhere (an object column)."""
    out = np.full(len(mask), None, dtype=object)
    out[mask] = values[mask]
    return out


def rerank_errors(store: Store, first_stage: pd.DataFrame, reranked: pd.DataFrame, depth: int,
                  anchor_exclusion: bool = True) -> RerankErrors:
    """Ceiling, broken and rescued queries of ``reranked`` against ``first_stage`` (hits frames as ``read_hits``
    returns them) reranked at ``depth`` (see the module's definitions and ``RerankErrors``).

    >>> from coreb_core.runs.folders import read_hits
    >>> same = read_hits(bm25)
    >>> errors = rerank_errors(store, same, same, depth=10)  # a run against itself: nothing moves
    >>> int(errors.summary["broken"].sum()), int(errors.summary["rescued"].sum()), errors.depth
    (0, 0, 10)
    >>> rerank_errors(store, same, same[same["task"] != "c2c"], depth=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: the first stage lists 144 queries the reranked run does not (q_c2c_cross_lang_...
    """
    depth = check_count(depth, "depth")
    _check_same_queries(first_stage, reranked)
    ceiling_of = _ceiling(store, first_stage, depth)
    wins = trap_wins(store, {FIRST: first_stage, RERANKED: reranked}, anchor_exclusion)
    q = wins.queries
    is_first = (q["run"].cat.codes == 0).to_numpy()
    a, b = q[is_first].reset_index(drop=True), q[~is_first].reset_index(drop=True)
    qcode = a["query_id"].cat.codes.to_numpy()
    if not np.array_equal(qcode, b["query_id"].cat.codes.to_numpy()):
        raise CorebError("internal: the two runs' evaluated queries differ")
    has_positive = a["has_positive"].to_numpy(dtype=bool)
    ceiling = ceiling_of[qcode] & has_positive
    wins_a, wins_b = a["trap_wins"].to_numpy(), b["trap_wins"].to_numpy()
    right_a = has_positive & a["best_positive_rank"].notna().to_numpy() & (wins_a == 0)
    right_b = has_positive & b["best_positive_rank"].notna().to_numpy() & (wins_b == 0)
    broken, rescued = right_a & (wins_b > 0), (wins_a > 0) & right_b
    # The trap that moved: the reranked run's best trap of a broken query, the first stage's of a rescued one.
    trap_doc = np.where(broken, b["best_trap_id"].cat.codes.to_numpy(),
                        np.where(rescued, a["best_trap_id"].cat.codes.to_numpy(), -1))
    docs = np.asarray(a["best_trap_id"].cat.categories, dtype=object)  # the release's documents, by code
    n_docs = len(docs)
    traps = wins.traps[(wins.traps["run"].cat.codes == 0).to_numpy()]
    kind = _kinds_of(traps, n_docs, qcode, trap_doc)
    moved = broken | rescued
    kinds = np.asarray(TRAP_KINDS, dtype=object)
    queries = pd.DataFrame({
        "task": a["task"].astype(str).to_numpy(dtype=object),
        "query_id": a["query_id"].astype(str).to_numpy(dtype=object),
        "subtask": a["subtask"].astype(str).to_numpy(dtype=object), "has_positive": has_positive, "ceiling": ceiling,
        "first_positive_rank": a["best_positive_rank"].to_numpy(dtype=np.float64),
        "first_trap_rank": a["best_trap_rank"].to_numpy(dtype=np.float64),
        "reranked_positive_rank": b["best_positive_rank"].to_numpy(dtype=np.float64),
        "reranked_trap_rank": b["best_trap_rank"].to_numpy(dtype=np.float64),
        "first_trap_wins": wins_a.astype(np.int64), "reranked_trap_wins": wins_b.astype(np.int64),
        "right_first": right_a, "right_reranked": right_b, "broken": broken, "rescued": rescued,
        "trap_id": _where(moved & (trap_doc >= 0), docs[np.maximum(trap_doc, 0)]),
        "trap_kind": _where(moved & (kind >= 0), kinds[np.maximum(kind, 0)])})
    return RerankErrors(queries, _summary(queries), _by_kind(queries, traps), depth, None, None,
                        wins.release, anchor_exclusion)


def _summary(queries: pd.DataFrame) -> pd.DataFrame:
    grouped = queries.groupby("task", sort=True)
    out = grouped.agg(queries=("query_id", "size"), with_positive=("has_positive", "sum"), ceiling=("ceiling", "sum"),
                      right_first=("right_first", "sum"), right_reranked=("right_reranked", "sum"),
                      broken=("broken", "sum"), rescued=("rescued", "sum")).astype(np.int64).reset_index()
    out.insert(4, "ceiling_share", out["ceiling"] / out["with_positive"].where(out["with_positive"] > 0))
    out["net"] = out["rescued"] - out["broken"]
    return out


def _by_kind(queries: pd.DataFrame, traps: pd.DataFrame) -> pd.DataFrame:
    judged = traps.groupby(["task", "kind"], observed=True, sort=True).size().index  # task × kind judged
    cells = pd.MultiIndex.from_tuples([(str(t), str(k)) for t, k in judged], names=["task", "kind"])
    moved = queries[queries["broken"] | queries["rescued"]]
    counts = moved.groupby(["task", "trap_kind"], sort=True)[["broken", "rescued"]].sum()
    counts.index = counts.index.set_names(["task", "kind"])
    out = counts.reindex(cells, fill_value=0).astype(np.int64).reset_index()
    out["net"] = out["rescued"] - out["broken"]
    return out[["task", "kind", "broken", "rescued", "net"]]


def rerank_errors_of(run_id: str, root: Path | None = None, anchor_exclusion: bool = True) -> RerankErrors:
    """``rerank_errors`` of a reranked run stored by ``rerank_run``, against the first stage and at the depth its
    run.json records; a one-line CorebError when the run is not a reranked run or its first stage is missing.

    >>> rerank_errors_of(bm25, root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: run bm25__demo_v2603__... is not a reranked run (kind retrieval): it records no ...
    """
    meta = run_meta(run_id, root)
    if meta.kind != "rerank" or meta.first_stage is None or meta.rerank_depth is None:
        raise CorebError(f"run {run_id} is not a reranked run (kind {meta.kind or 'not recorded'}): "
                         "it records no first stage and depth")
    try:
        first_meta = run_meta(meta.first_stage, root)
    except CorebError as err:
        raise CorebError(f"the first stage {meta.first_stage} of reranked run {run_id} is missing ({err})") from None
    if first_meta.release != meta.release:
        raise CorebError(f"reranked run {run_id} is on {meta.release} but its first stage {meta.first_stage} "
                         f"is on {first_meta.release}")
    with Store(meta.made_on(), root) as store:
        errors = rerank_errors(store, read_hits(meta.first_stage, root), read_hits(run_id, root), meta.rerank_depth,
                               anchor_exclusion)
    return errors._replace(first_stage=meta.first_stage, reranked=run_id)
