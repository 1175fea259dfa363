"""Surface bias: do a run's traps win because they share more words with the query?

A *trap win* is a query where the run ranks its best trap (rel=1) above its best positive (rel=2); a
*correct ordering* is the opposite. Both come from ``coreb_core.analysis.traps.wins`` (the one definition:
evaluator ranks, the query's own id and the C2C anchor dropped), so the trap wins here are the queries
with ``trap_wins > 0`` there, and the queries ``trap_table`` flags ``trap_above_positive``. "Best" is the
best-ranked document of the grade; when the run stores none of that grade (the losing side), the first
one by doc id stands in. A query with no positive or no trap in its qrels, with neither stored, or with
both at one rank is decided neither way and left out.

For each decided query: the lexical overlap of the query with that trap and with that positive, as
token Jaccard ``|A ∩ B| / |A ∪ B|`` of the two token sets (0 when both are empty). Tokens are the ones
BM25 sees (``coreb_core.retrieval.search.code_tokens``): words of two or more letters, runs of capitals
and digit runs, so identifiers split at camelCase and snake_case boundaries, lower-cased; no stop-word
list, so code and prose go through one rule. Each text is tokenised once per release version and the
overlap of every judged pair is kept in the Store's memo: a run then costs the evaluator's one pass
over its rows and a few array operations.

Per run and task (``surface_summary`` groups finer): the share of trap wins where the trap has the
strictly higher overlap, against the same share among correct orderings, each with a Wilson 95%
interval, and a two-sided two-proportion z-test of the difference. If surface similarity drove the
trap wins, the first share would stand well above the second.

Example (CoREB-mini and a BM25 run in ``root``):
    >>> from coreb_core.runs.folders import read_hits
    >>> bias = surface_bias(store, {"bm25": read_hits(bm25)})
    >>> bias.summary[["task", "trap_wins", "share_wins_trap_higher", "correct", "share_correct_trap_higher"]].round(3)
      task  trap_wins  share_wins_trap_higher  correct  share_correct_trap_higher
    0  c2c         85                   0.894       59                      0.305
    1  c2t        104                   0.913      184                      0.674
    2  t2c        328                   0.735      320                      0.203
"""
from __future__ import annotations

import math
from typing import Any, NamedTuple, Sequence

import numpy as np
import pandas as pd

from coreb_core.analysis.proportions import two_proportion_p, wilson_interval
from coreb_core.analysis.traps.wins import TrapWins, trap_wins
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.join import release_index
from coreb_core.retrieval.search import code_tokens

TRAP_WIN, CORRECT = "trap_win", "correct"


class SurfaceFinding(NamedTuple):
    """One run and task: how often the trap had more words in common with the query, among the trap
    wins and among the correct orderings (what the page says in one sentence).

    >>> f = SurfaceFinding("minilm", "t2c", trap_wins=140, wins_trap_higher=87, correct=500, correct_trap_higher=175,
    ...                    p_value=0.0001)
    >>> round(f.share_wins, 3), f.share_correct
    (0.621, 0.35)
    """

    run: str
    task: str
    trap_wins: int
    wins_trap_higher: int
    correct: int
    correct_trap_higher: int
    p_value: float  # two-sided two-proportion z-test; NaN when a group is empty

    @property
    def share_wins(self) -> float:
        return self.wins_trap_higher / self.trap_wins if self.trap_wins else float("nan")

    @property
    def share_correct(self) -> float:
        return self.correct_trap_higher / self.correct if self.correct else float("nan")


class SurfaceBias(NamedTuple):
    """``surface_bias``'s result.

    ``pairs``: one row per run and decided query: run, task, subtask, query_id, outcome (``TRAP_WIN`` or
    ``CORRECT``), trap_id, trap_rank, positive_id, positive_rank (evaluator ranks, NaN = not stored),
    trap_overlap, positive_overlap (token Jaccard with the query), trap_higher (trap_overlap >
    positive_overlap). ``summary``: ``surface_summary(pairs)`` per run and task.
    """

    pairs: pd.DataFrame
    summary: pd.DataFrame

    def findings(self, task: str | None = None) -> list[SurfaceFinding]:
        """The summary rows (of ``task``) as ``SurfaceFinding`` records, in run order."""
        rows = self.summary if task is None else self.summary[self.summary["task"] == task]
        return [SurfaceFinding(str(r.run), str(r.task), int(r.trap_wins), int(r.wins_trap_higher), int(r.correct),
                               int(r.correct_trap_higher), float(r.p_value)) for r in rows.itertuples()]

    def to_json(self) -> list[dict[str, Any]]:
        """The summary as JSON-ready records (NaN as None), for the CLI's ``surface_bias`` key."""
        return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
                for row in self.summary.astype(object).to_dict("records")]


def jaccard(a: set, b: set) -> float:
    """Token Jaccard of two sets: shared tokens over all tokens (0 when both are empty).

    >>> jaccard(set(code_tokens("sum of two ints")), set(code_tokens("def sum_ints(a, b)")))
    0.4
    """
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def judged_overlap(store: Store) -> np.ndarray:
    """Token Jaccard of the query and the document of every judged pair of the release, aligned with
    ``release_index(store).judged("qrels")`` (its sorted pair keys); NaN for a document the corpora lack.
    Computed once per release version (the Store's memo).

    >>> j = release_index(store).judged("qrels")  # demo_v2603
    >>> judged_overlap(store).shape == j.keys.shape
    True
    """
    if "judged_overlap" not in store.cache:
        index = release_index(store)
        j = index.judged("qrels")
        dcode = j.keys - j.qcode.astype(np.int64) * index.n_docs
        queries = store.sql("SELECT query_id, query FROM queries").fetchall()
        query_text = {int(c): t for c, (_, t) in zip(index.query_pos.get_indexer([q for q, _ in queries]), queries)}
        doc_text = dict(store.sql("SELECT doc_id, content FROM documents").fetchall())
        q_tokens: dict[int, set] = {}
        d_tokens: dict[int, set] = {}
        out = np.full(len(j.keys), np.nan)
        for i, (q, d) in enumerate(zip(j.qcode.tolist(), dcode.tolist())):
            if d < 0 or q < 0:
                continue
            if q not in q_tokens:
                q_tokens[q] = set(code_tokens(query_text.get(q) or ""))
            if d not in d_tokens:
                d_tokens[d] = set(code_tokens(doc_text.get(index.docs[d]) or ""))
            out[i] = jaccard(q_tokens[q], d_tokens[d])
        store.cache["judged_overlap"] = out
    return store.cache["judged_overlap"]


def overlap_pairs(store: Store, wins: TrapWins) -> pd.DataFrame:
    """The ``pairs`` frame of ``SurfaceBias``: the decided queries of ``wins`` (``trap_wins``' best trap
    and best positive per query) with their overlaps.

    >>> from coreb_core.runs.folders import read_hits
    >>> pairs = overlap_pairs(store, trap_wins(store, {"bm25": read_hits(bm25)}))  # demo_v2603
    >>> pairs[["query_id", "outcome", "trap_overlap"]].head(1)
                    query_id   outcome  trap_overlap
    0  q_c2c_cross_lang_0025  trap_win      0.192771
    """
    if wins.release != store.release:
        raise CorebError(f"trap wins of release {wins.release} cannot be measured on {store.release}")
    index = release_index(store)
    j = index.judged("qrels")
    q = wins.queries
    trap_rank = q["best_trap_rank"].fillna(np.inf).to_numpy(dtype=np.float64)
    positive_rank = q["best_positive_rank"].fillna(np.inf).to_numpy(dtype=np.float64)
    both = (q["best_trap_id"].notna() & q["best_positive_id"].notna()).to_numpy()
    win, correct = both & (trap_rank < positive_rank), both & (positive_rank < trap_rank)
    decided = q[win | correct]
    qcode = decided["query_id"].cat.codes.to_numpy().astype(np.int64)
    # The overlap of a judged pair sits at its key's place among the release's sorted judged pairs.
    overlap = judged_overlap(store)
    trap_over = overlap[np.searchsorted(j.keys, qcode * index.n_docs + decided["best_trap_id"].cat.codes.to_numpy())]
    positive_over = overlap[np.searchsorted(j.keys, qcode * index.n_docs
                                            + decided["best_positive_id"].cat.codes.to_numpy())]
    # Categorical columns pass through as they are (their codes, no string copies).
    return pd.DataFrame({
        "run": decided["run"].array, "task": decided["task"].array, "subtask": decided["subtask"].array,
        "query_id": decided["query_id"].array,
        "outcome": pd.Categorical.from_codes(np.where(win[win | correct], 0, 1), [TRAP_WIN, CORRECT]),
        "trap_id": decided["best_trap_id"].array, "trap_rank": decided["best_trap_rank"].to_numpy(),
        "positive_id": decided["best_positive_id"].array, "positive_rank": decided["best_positive_rank"].to_numpy(),
        "trap_overlap": trap_over, "positive_overlap": positive_over, "trap_higher": trap_over > positive_over})


def surface_summary(pairs: pd.DataFrame, by: Sequence[str] = ("run", "task")) -> pd.DataFrame:
    """Per ``by`` group of ``pairs``: trap_wins, wins_trap_higher, share_wins_trap_higher (+ wins_low,
    wins_high: Wilson 95%), correct, correct_trap_higher, share_correct_trap_higher (+ correct_low,
    correct_high), difference (the two shares), p_value (two-proportion z-test), and the mean overlaps
    among trap wins (mean_trap_overlap_wins, mean_positive_overlap_wins). Groups in first-seen order.

    >>> pairs = pd.DataFrame({"run": ["r"] * 4, "task": ["t2c"] * 4, "outcome": [TRAP_WIN, TRAP_WIN, CORRECT, CORRECT],
    ...                       "trap_overlap": [0.5, 0.1, 0.2, 0.1], "positive_overlap": [0.2, 0.3, 0.1, 0.4],
    ...                       "trap_higher": [True, False, True, False]})
    >>> surface_summary(pairs)[["trap_wins", "share_wins_trap_higher", "correct", "share_correct_trap_higher"]]
       trap_wins  share_wins_trap_higher  correct  share_correct_trap_higher
    0          2                     0.5        2                        0.5
    """
    by = list(by)
    win = (pairs["outcome"] == TRAP_WIN).to_numpy()
    higher = pairs["trap_higher"].to_numpy(dtype=bool)
    frame = pairs[by].copy()
    frame["win"], frame["win_higher"], frame["correct_higher"] = win, win & higher, ~win & higher
    frame["t_over"] = pairs["trap_overlap"].where(win)
    frame["p_over"] = pairs["positive_overlap"].where(win)
    out = frame.groupby(by, sort=False, observed=True).agg(
        trap_wins=("win", "sum"), wins_trap_higher=("win_higher", "sum"), decided=("win", "size"),
        correct_trap_higher=("correct_higher", "sum"), mean_trap_overlap_wins=("t_over", "mean"),
        mean_positive_overlap_wins=("p_over", "mean")).reset_index()
    wins, correct = out["trap_wins"].to_numpy(int), (out["decided"] - out["trap_wins"]).to_numpy(int)
    wh, ch = out["wins_trap_higher"].to_numpy(int), out["correct_trap_higher"].to_numpy(int)
    with np.errstate(invalid="ignore", divide="ignore"):
        share_w, share_c = np.where(wins > 0, wh / wins, np.nan), np.where(correct > 0, ch / correct, np.nan)
    w_low, w_high = wilson_interval(wh, wins)
    c_low, c_high = wilson_interval(ch, correct)
    result = out[by].astype(object)  # plain labels: callers map and fill them freely
    result["trap_wins"], result["wins_trap_higher"] = wins, wh
    result["share_wins_trap_higher"], result["wins_low"], result["wins_high"] = share_w, w_low, w_high
    result["correct"], result["correct_trap_higher"] = correct, ch
    result["share_correct_trap_higher"], result["correct_low"], result["correct_high"] = share_c, c_low, c_high
    result["difference"] = share_w - share_c
    result["p_value"] = two_proportion_p(wh, wins, ch, correct) if len(out) else np.zeros(0)
    result["mean_trap_overlap_wins"] = out["mean_trap_overlap_wins"].to_numpy(float)
    result["mean_positive_overlap_wins"] = out["mean_positive_overlap_wins"].to_numpy(float)
    return result


def surface_bias(store: Store, runs: dict[str, pd.DataFrame] | TrapWins, anchor_exclusion: bool = True
                 ) -> SurfaceBias:
    """Trap wins and correct orderings of every run with their lexical overlaps, and the per run x task
    summary (see the module docstring). ``runs``: run name -> hits, or their ``trap_wins`` already built
    (then ``anchor_exclusion`` is the one they were built with).

    >>> from coreb_core.runs.folders import read_hits
    >>> surface_bias(store, {"bm25": read_hits(bm25)}).findings("t2c")[0].trap_wins  # demo_v2603
    328
    """
    wins = runs if isinstance(runs, TrapWins) else trap_wins(store, runs, anchor_exclusion)
    pairs = overlap_pairs(store, wins)
    return SurfaceBias(pairs, surface_summary(pairs))
