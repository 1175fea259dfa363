"""Agreement on trap wins across runs: which traps beat every model, and how alike the runs fail.

A *trap win* is ``coreb_core.analysis.traps.wins``' (a judged trap ranked above its query's best
positive, evaluator ranks, the query's own id and the C2C anchor dropped). Over the runs of one
``TrapWins``, and only queries that have a positive (elsewhere no trap can win):

- per trap document of a query: ``beats`` = how many of the runs it beats (``of`` = the runs that
  scored the query), so "beats 3 of 3" marks a trap no chosen model gets right;
- per query: how many runs lose it to some trap (``runs_lost``), and how many of its traps beat every
  run (``traps_beating_all``);
- per pair of runs and task: the Jaccard index |A ∩ B| / |A ∪ B| of the sets of queries each loses to
  a trap, over the queries both scored (1.0 = they lose exactly the same queries; NaN when neither
  loses any).

Example (CoREB-mini, two BM25 runs in ``root``):

    >>> from coreb_core.analysis.traps.wins import trap_wins
    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import read_hits
    >>> other = run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id
    >>> agree = trap_agreement(trap_wins(store, {"bm25": read_hits(bm25), "mteb": read_hits(other)}))
    >>> agree.counts.query("task == 't2c'")[["beats", "of", "traps"]]
       beats  of  traps
    6      0   2   1371
    7      1   2    258
    8      2   2    305
    >>> agree.pairs.query("task == 't2c'")[["run_a", "run_b", "lost_a", "lost_b", "both", "jaccard"]].round(3)
      run_a run_b  lost_a  lost_b  both  jaccard
    2  bm25  mteb     328     316   248    0.626
"""
from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.analysis.traps.wins import TrapWins
from coreb_core.errors import CorebError

QUERY_KEYS = ["task", "query_id"]


class TrapAgreement(NamedTuple):
    """``trap_agreement``'s result (ids and counts; shares as fractions).

    ``traps``: one row per judged trap of a query with a positive: task, query_id, subtask, doc_id, kind,
    beats (runs it beats), of (runs that scored the query); most-beating first.
    ``queries``: one row per query with a positive: task, query_id, subtask, runs_lost (runs with a trap
    win there), of, traps_beating_all.
    ``counts``: per task and k = 0..n: how many traps beat exactly k of n runs.
    ``pairs``: per pair of runs and task: lost_a, lost_b (queries each loses to a trap), both, either,
    jaccard (both / either), shared (queries both scored).
    """

    runs: tuple[str, ...]
    traps: pd.DataFrame
    queries: pd.DataFrame
    counts: pd.DataFrame
    pairs: pd.DataFrame

    def queries_lost_by(self, at_least: int) -> list[str]:
        """The ids of queries that at least ``at_least`` of the runs lose to a trap (the inspector's filter).

        >>> TrapAgreement(("a", "b"), pd.DataFrame(), pd.DataFrame({"query_id": ["q1", "q2"], "runs_lost": [2, 1]}),
        ...               pd.DataFrame(), pd.DataFrame()).queries_lost_by(2)
        ['q1']
        """
        return self.queries.loc[self.queries["runs_lost"] >= at_least, "query_id"].astype(str).tolist()

    def traps_beating_all(self, task: str | None = None) -> pd.DataFrame:
        """The rows of ``traps`` (of ``task``, or all) that beat every run that scored their query.

        >>> traps = pd.DataFrame({"task": ["t2c", "t2c"], "doc_id": ["d1", "d2"], "beats": [2, 1], "of": [2, 2]})
        >>> TrapAgreement(("a", "b"), traps, pd.DataFrame(), pd.DataFrame(), pd.DataFrame()).traps_beating_all()
          task doc_id  beats  of
        0  t2c     d1      2   2
        """
        traps = self.traps if task is None else self.traps[self.traps["task"] == task]
        return traps[(traps["beats"] == traps["of"]) & (traps["beats"] > 0)]

    def beating_all(self, task: str) -> tuple[int, int]:
        """(traps of ``task`` that beat every run that scored their query, queries of ``task`` every such run
        loses to a trap).

        >>> traps = pd.DataFrame({"task": ["t2c", "t2c"], "beats": [2, 1], "of": [2, 2]})
        >>> queries = pd.DataFrame({"task": ["t2c", "t2c"], "runs_lost": [2, 1], "of": [2, 2]})
        >>> TrapAgreement(("a", "b"), traps, queries, pd.DataFrame(), pd.DataFrame()).beating_all("t2c")
        (1, 1)
        """
        queries = self.queries[self.queries["task"] == task]
        return (len(self.traps_beating_all(task)),
                int(((queries["runs_lost"] == queries["of"]) & (queries["runs_lost"] > 0)).sum()))

    def lost_rows(self, frame: pd.DataFrame, at_least: int) -> pd.DataFrame:
        """The rows of ``frame`` (a ``query_id`` column) whose query at least ``at_least`` runs lose to a trap,
        with ``runs_lost`` added (the inspector's filter), in ``frame``'s order.

        >>> agree = TrapAgreement(("a", "b"), pd.DataFrame(), pd.DataFrame({"query_id": ["q1", "q2"],
        ...                       "runs_lost": [2, 1]}), pd.DataFrame(), pd.DataFrame())
        >>> agree.lost_rows(pd.DataFrame({"query_id": ["q2", "q1", "q3"]}), 1)
          query_id  runs_lost
        0       q2          1
        1       q1          2
        """
        lost = self.queries.assign(query_id=self.queries["query_id"].astype(str)).set_index("query_id")["runs_lost"]
        counts = frame["query_id"].astype(str).map(lost)
        keep = (counts >= at_least).to_numpy()
        return frame[keep].assign(runs_lost=counts[keep].astype(int).to_numpy()).reset_index(drop=True)

    def beats_of(self, query_id: str) -> dict[str, tuple[int, int]]:
        """Doc id -> (beats, of) for the traps of one query (the inspector's "beats k of n" badge).

        >>> TrapAgreement(("a", "b"), pd.DataFrame({"query_id": ["q1"], "doc_id": ["d7"], "beats": [2], "of": [2]}),
        ...               pd.DataFrame(), pd.DataFrame(), pd.DataFrame()).beats_of("q1")
        {'d7': (2, 2)}
        """
        rows = self.traps[self.traps["query_id"] == query_id]
        return {str(d): (int(b), int(o)) for d, b, o in zip(rows["doc_id"], rows["beats"], rows["of"])}


def _pair_rows(lost: pd.DataFrame, runs: list[str]) -> pd.DataFrame:
    """Jaccard of the lost-query sets per pair of runs and task, from a query × run table of lost flags
    (NaN where the run did not score the query)."""
    rows = []
    for task, block in lost.groupby(level="task", observed=True, sort=True):
        for a, b in combinations(runs, 2):
            shared = block[a].notna() & block[b].notna()
            la, lb = block.loc[shared, a].astype(bool).to_numpy(), block.loc[shared, b].astype(bool).to_numpy()
            both, either = int((la & lb).sum()), int((la | lb).sum())
            rows.append({"run_a": a, "run_b": b, "task": task, "shared": int(shared.sum()), "lost_a": int(la.sum()),
                         "lost_b": int(lb.sum()), "both": both, "either": either,
                         "jaccard": both / either if either else float("nan")})
    return pd.DataFrame(rows, columns=["run_a", "run_b", "task", "shared", "lost_a", "lost_b", "both", "either",
                                       "jaccard"])


def trap_agreement(wins: TrapWins) -> TrapAgreement:
    """How the runs of ``wins`` agree on trap wins (see the module docstring); a one-line ``CorebError``
    when it holds no run. Works for one run too (then every trap beats 0 or 1 of 1, and no pair)."""
    runs = [str(r) for r in wins.queries["run"].cat.categories] if len(wins.queries) else []
    if not runs:
        raise CorebError("no run to compare: trap agreement needs at least one scored run")
    traps = wins.traps[wins.traps["query_has_positive"].to_numpy(dtype=bool)]
    per_trap = (traps.groupby(["task", "query_id", "subtask", "doc_id", "kind"], observed=True, sort=False)
                .agg(beats=("wins", "sum"), of=("run", "size")).reset_index())
    per_trap["beats"] = per_trap["beats"].astype(np.int64)
    per_trap = per_trap.sort_values(["beats", "task", "query_id", "doc_id"], ascending=[False, True, True, True],
                                    kind="stable").reset_index(drop=True)
    queries = wins.queries[wins.queries["has_positive"].to_numpy(dtype=bool)]
    per_query = (queries.assign(lost=queries["trap_wins"] > 0)
                 .groupby(["task", "query_id", "subtask"], observed=True, sort=True)
                 .agg(runs_lost=("lost", "sum"), of=("run", "size")).reset_index())
    per_query["runs_lost"] = per_query["runs_lost"].astype(np.int64)
    beating_all = per_trap.assign(all=(per_trap["beats"] == per_trap["of"]) & (per_trap["beats"] > 0))
    all_count = beating_all.groupby(QUERY_KEYS, observed=True)["all"].sum()
    key = pd.MultiIndex.from_arrays([per_query["task"], per_query["query_id"]])
    per_query["traps_beating_all"] = all_count.reindex(key).fillna(0).to_numpy(dtype=np.int64)
    counts = (per_trap.groupby(["task", "of", "beats"], observed=True).size().rename("traps").reset_index()
              .sort_values(["task", "of", "beats"]).reset_index(drop=True)[["task", "beats", "of", "traps"]])
    lost = (queries.assign(lost=(queries["trap_wins"] > 0).astype(float))
            .pivot_table(index=QUERY_KEYS, columns="run", values="lost", observed=True, aggfunc="first"))
    lost = lost.reindex(columns=runs)
    return TrapAgreement(tuple(runs), per_trap, per_query, counts, _pair_rows(lost, runs))
