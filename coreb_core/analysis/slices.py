"""Slices by text length: does a run do worse on long queries, on long positives, and does the longer
document win a trap/positive duel?

Lengths are characters of the stored text (a query's ``query``, a document's ``content``). Queries are
binned per task into ``quantiles`` equal-count bins of the release's queries that have a positive (so
every run is sliced the same way): by the query's own length, and by its positives' mean length
(the *document length* of the query). Per run, task and bin: the queries, the mean of a per-query
metric (the official per-query values the caller passes, e.g. ``Evaluation.per_query("v2")``) and the
*trap-win rate*, the share of the bin's queries where some trap outranks the best positive
(``coreb_core.analysis.traps.wins``), with a Wilson 95% interval.

The duel: every query where a run lists both its best trap and its best positive at different ranks;
``longer_first`` is the share where the higher-ranked of the two is the longer text, split into trap
wins (the trap is the longer) and correct orderings (the trap is the longer). A length bias would show
as a share far from one half.

Example (CoREB-mini and a BM25 run in ``root``):

    >>> from coreb_core.analysis.traps.wins import trap_wins
    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.runs.folders import read_hits
    >>> hits = {"bm25": read_hits(bm25)}
    >>> cut = length_slices(store, trap_wins(store, hits), analyse_many(store, hits).per_query("v2"))
    >>> cut.by_query_length.query("task == 't2c'")[["bin", "low", "high", "queries", "mean", "trap_win_rate"]].round(3)
        bin  low  high  queries   mean  trap_win_rate
    8     1   31    44      180  0.347          0.450
    9     2   44    52      180  0.290          0.444
    10    3   53   433      180  0.296          0.478
    11    4  475  1933      180  0.266          0.450
    >>> cut.duels.query("task == 't2c'")[["decided", "longer_first", "trap_wins", "wins_trap_longer"]].round(3)
       decided  longer_first  trap_wins  wins_trap_longer
    2      648         0.431        328               149
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.analysis.proportions import wilson_interval
from coreb_core.analysis.traps.wins import TrapWins
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import POSITIVE
from coreb_core.data.store import Store
from coreb_core.errors import CorebError, check_choice
from coreb_core.evaluation.join import release_index

DEFAULT_QUANTILES = 4
SLICE_BYS = ("query_length", "document_length")


class LengthSlices(NamedTuple):
    """``length_slices``' result. ``by_query_length`` / ``by_document_length``: one row per run, task and
    bin (1 = shortest): low, high (the bin's lengths in characters, inclusive), queries, mean (of
    ``metric``), trap_wins (queries lost to a trap), trap_win_rate, rate_low, rate_high (Wilson 95%).
    ``duels``: per run and task: decided, longer_first (share where the higher-ranked is the longer),
    longer_low, longer_high, trap_wins, wins_trap_longer, correct, correct_trap_longer."""

    metric: str  # the measure's column (``ndcg_at_10``)
    quantiles: int
    by_query_length: pd.DataFrame
    by_document_length: pd.DataFrame
    duels: pd.DataFrame

    def by(self, name: str) -> pd.DataFrame:
        """One of ``SLICE_BYS``' frames."""
        check_choice(name, SLICE_BYS, "slice")
        return self.by_query_length if name == "query_length" else self.by_document_length


def text_lengths(store: Store) -> tuple[np.ndarray, np.ndarray]:
    """Characters per query (in query-code order) and per document (in the release index's doc order),
    read once per release version.

    >>> queries, docs = text_lengths(store)  # demo_v2603
    >>> len(queries) == len(store.query_facts), int(docs.min()) > 0
    (True, True)
    """
    if "text_lengths" not in store.cache:
        index = release_index(store)
        q = store.df("SELECT query_id, length(query) AS n FROM queries")
        d = store.df("SELECT doc_id, max(length(content)) AS n FROM documents GROUP BY doc_id")
        queries = np.zeros(index.n_queries, dtype=np.int64)
        queries[index.query_pos.get_indexer(q["query_id"])] = q["n"].fillna(0).to_numpy(np.int64)
        docs = np.zeros(index.n_docs, dtype=np.int64)
        docs[index.docs.get_indexer(d["doc_id"])] = d["n"].fillna(0).to_numpy(np.int64)
        store.cache["text_lengths"] = (queries, docs)
    return store.cache["text_lengths"]


def positive_lengths(store: Store) -> np.ndarray:
    """Each query's positives' mean length in characters (NaN for a query without a positive).

    >>> lengths = positive_lengths(store)  # demo_v2603
    >>> bool(np.isfinite(lengths).any()), len(lengths) == len(store.query_facts)
    (True, True)
    """
    index = release_index(store)
    judged = index.judged("qrels")
    _, docs = text_lengths(store)
    positive = judged.grade == POSITIVE
    qcode = judged.qcode[positive]
    dcode = judged.keys[positive] - qcode.astype(np.int64) * index.n_docs
    total = np.bincount(qcode, weights=docs[dcode], minlength=index.n_queries)
    count = np.bincount(qcode, minlength=index.n_queries)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(count > 0, total / count, np.nan)


def length_bins(lengths: np.ndarray, tasks: np.ndarray, quantiles: int = DEFAULT_QUANTILES) -> np.ndarray:
    """Equal-count bins 1..quantiles of ``lengths`` within each task (0 where the length is NaN; fewer bins
    where ties leave fewer distinct edges).

    >>> length_bins(np.array([10, 20, 30, 40, 5, np.nan]), np.array(["t2c"] * 4 + ["c2c"] * 2), 2).tolist()
    [1, 1, 2, 2, 1, 0]
    """
    out = np.zeros(len(lengths), dtype=np.int64)
    for task in pd.unique(tasks):
        at = np.flatnonzero((tasks == task) & np.isfinite(lengths))
        if len(at):
            codes = pd.qcut(pd.Series(lengths[at]).rank(method="first"), min(quantiles, len(at)), labels=False)
            out[at] = codes.to_numpy(dtype=np.int64) + 1
    return out


def _slice_table(queries: pd.DataFrame, bins: np.ndarray, lengths: np.ndarray, column: str) -> pd.DataFrame:
    frame = queries.assign(bin=bins, length=lengths, lost=queries["trap_wins"] > 0)
    frame = frame[frame["bin"] > 0]
    out = (frame.groupby(["run", "task", "bin"], observed=True, sort=True)
           .agg(low=("length", "min"), high=("length", "max"), queries=("lost", "size"), mean=(column, "mean"),
                trap_wins=("lost", "sum")).reset_index())
    out["trap_wins"] = out["trap_wins"].astype(np.int64)
    out["trap_win_rate"] = out["trap_wins"] / out["queries"]
    out["rate_low"], out["rate_high"] = wilson_interval(out["trap_wins"], out["queries"])
    return out


def _duels(queries: pd.DataFrame, docs: np.ndarray) -> pd.DataFrame:
    both = queries["best_trap_id"].notna() & queries["best_positive_id"].notna()
    q = queries[both & (queries["best_trap_rank"] != queries["best_positive_rank"])]
    trap_len = docs[q["best_trap_id"].cat.codes.to_numpy()]
    positive_len = docs[q["best_positive_id"].cat.codes.to_numpy()]
    win = (q["best_trap_rank"] < q["best_positive_rank"]).to_numpy()
    trap_longer = trap_len > positive_len
    first_longer = np.where(win, trap_longer, positive_len > trap_len)
    frame = pd.DataFrame({"run": q["run"].to_numpy(), "task": q["task"].to_numpy(), "first_longer": first_longer,
                          "win": win, "win_longer": win & trap_longer, "correct_longer": ~win & trap_longer})
    out = (frame.groupby(["run", "task"], sort=True)
           .agg(decided=("win", "size"), longer=("first_longer", "sum"), trap_wins=("win", "sum"),
                wins_trap_longer=("win_longer", "sum"), correct_trap_longer=("correct_longer", "sum")).reset_index())
    out["longer_first"] = out["longer"] / out["decided"]
    out["longer_low"], out["longer_high"] = wilson_interval(out["longer"], out["decided"])
    out["correct"] = out["decided"] - out["trap_wins"]
    return out[["run", "task", "decided", "longer_first", "longer_low", "longer_high", "trap_wins",
                "wins_trap_longer", "correct", "correct_trap_longer"]]


def length_slices(store: Store, wins: TrapWins, per_query: pd.DataFrame, metric: Measure = NDCG_10,
                  quantiles: int = DEFAULT_QUANTILES) -> LengthSlices:
    """``metric`` and the trap-win rate by query-length and document-length bins, and the length duels
    (module docstring). ``per_query``: the same runs' per-query rows (run, task, query_id, ``metric``)."""
    if wins.release != store.release:
        raise CorebError(f"trap wins of release {wins.release} cannot be sliced on {store.release}")
    column = metric.column
    if column not in per_query.columns:
        raise CorebError(f"unknown metric {str(metric)!r}: the per-query rows hold "
                         f"{', '.join(c for c in per_query.columns if c.endswith(tuple('0123456789')))}")
    if quantiles < 2:
        raise CorebError(f"quantiles must be 2 or more, not {quantiles}")
    index = release_index(store)
    query_len, docs = text_lengths(store)
    positive_len = positive_lengths(store)
    eligible = np.isfinite(positive_len)  # queries with a positive: no trap can win elsewhere
    tasks = index.task_array
    query_bins = length_bins(np.where(eligible, query_len, np.nan), tasks, quantiles)
    doc_bins = length_bins(positive_len, tasks, quantiles)
    queries = wins.queries[wins.queries["has_positive"].to_numpy(dtype=bool)]
    values = per_query[["run", "task", "query_id", column]].astype({"run": str, "task": str, "query_id": str})
    queries = queries.assign(**{column: pd.MultiIndex.from_arrays(
        [queries["run"].astype(str), queries["task"].astype(str), queries["query_id"].astype(str)]).map(
        values.set_index(["run", "task", "query_id"])[column]).to_numpy(dtype=np.float64)})
    qcode = queries["query_id"].cat.codes.to_numpy()
    return LengthSlices(column, quantiles,
                        _slice_table(queries, query_bins[qcode], query_len[qcode], column),
                        _slice_table(queries, doc_bins[qcode], positive_len[qcode], column),
                        _duels(queries, docs))
