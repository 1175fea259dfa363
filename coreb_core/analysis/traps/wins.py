"""Why traps win, over whole runs: every trap a run ranks above its query's best positive, by kind.

A *trap win* is a judged trap (rel=1) that a run ranks above the best-ranked positive of its query
(the same count as ``traps_above_first_positive`` of ``coreb_core.evaluation.evaluate.trap_table``:
evaluator ranks, the query's own id and the C2C anchor dropped, a query without a positive has no
win). Each trap gets the kind of ``coreb_core.analysis.traps.kinds.classify_traps`` (the rule the query
inspector uses), its test pass fraction (failing solutions; binned gross < 0.2 ≤ partial < 0.8 ≤
near-miss) and, where the corpus records it (CoREB-mini's ``meta.variant``), the kind of bug.

Verbs, all over one ``TrapWins`` (built once per set of runs, vectorised over every query):
``kind_shares`` (share of trap wins by kind per run × task × subtask, with counts), ``bug_shares``,
``near_miss_curve`` (P(a failing solution outranks the query's best positive) per pass-fraction bin,
with Wilson 95% intervals), ``margin_summary`` and ``rank_gap_histogram`` (how far the best trap is
ahead: best trap score − best positive score, and best positive rank − best trap rank).

Example (CoREB-mini and a BM25 run in ``root``):
    >>> from coreb_core.runs.folders import read_hits
    >>> wins = trap_wins(store, {"bm25": read_hits(bm25)})
    >>> kind_shares(wins, level="task")[["run", "task", "kind", "trap_wins", "share_of_wins"]].head(2)
        run task              kind  trap_wins  share_of_wins
    0  bm25  c2c  failing_solution        102       0.927273
    1  bm25  c2c    wrong_language          0       0.000000
    >>> near_miss_curve(wins)[["run", "bin_low", "failing", "outranking", "probability"]].tail(1)
        run  bin_low  failing  outranking  probability
    4  bm25      0.8      451         110     0.243902
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numba
import numpy as np
import pandas as pd

from coreb_core.analysis.proportions import wilson_interval
from coreb_core.analysis.traps.kinds import FAILING_SOLUTION, TRAP_KINDS, classify_traps
from coreb_core.data.schema import POSITIVE, TRAP
from coreb_core.data.store import Store
from coreb_core.errors import CorebError, check_choice
from coreb_core.evaluation.join import ReleaseIndex, judged_ranks, release_index
from coreb_core.evaluation.kernels import kernel_input

GROSS, PARTIAL, NEAR_MISS = "gross", "partial", "near_miss"
PASS_BINS = (GROSS, PARTIAL, NEAR_MISS)
GROSS_BELOW, NEAR_MISS_FROM = 0.2, 0.8
CURVE_EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)  # the near-miss curve's bins; the last one holds 1.0
RANK_GAP_EDGES = (1, 2, 3, 6, 11, 21, 51)  # bins [1, 2), [2, 3), [3, 6), …, [51, ∞)
LEVELS = ("task", "subtask")
MARGIN_MEASURES = ("score_margin", "rank_gap")


class TrapWins(NamedTuple):
    """Every judged trap and every scored query of some runs, with the facts the verbs aggregate.

    ``traps``: one row per run × evaluated query × judged trap: run, task, query_id, subtask, doc_id,
    kind, pass_fraction (test_passed / test_total, failing solutions only), pass_bin, bug (the corpus's
    bug kind, where recorded), language, rank (evaluator's; NaN = not listed or dropped), score,
    in_top_k (the run's own cut), query_has_positive, wins (ranked above the best positive).
    ``queries``: one row per run × evaluated query: run, task, query_id, subtask, has_positive,
    best_positive_id, best_positive_rank, best_positive_score, best_trap_id, best_trap_rank,
    best_trap_score (the best-ranked document of the grade; ties, and a grade the run did not list, by
    doc order; no id when the query has none of the grade), trap_wins (count),
    score_margin (best trap score − best positive score; NaN unless both are listed), rank_gap (best
    positive rank − best trap rank; likewise). Ranks are floats; scores the run's own.
    """

    traps: pd.DataFrame
    queries: pd.DataFrame
    release: str
    anchor_exclusion: bool


def pass_bin(fraction: np.ndarray | pd.Series) -> np.ndarray:
    """The bin of each test pass fraction: gross (< 0.2), partial, near-miss (≥ 0.8); None when missing.

    >>> pass_bin(np.array([0.0, 0.19, 0.2, 0.79, 0.8, 1.0, np.nan])).tolist()
    ['gross', 'gross', 'partial', 'partial', 'near_miss', 'near_miss', None]
    """
    f = np.asarray(fraction, dtype=np.float64)
    return np.select([np.isnan(f), f >= NEAR_MISS_FROM, f < GROSS_BELOW], [None, NEAR_MISS, GROSS],  # type: ignore
                     default=PARTIAL).astype(object)


# ------------------------------------------------------------------ per release: the traps' facts
class _TrapFacts(NamedTuple):
    """Every judged trap of the release, sorted by its pair key (query code * n_docs + doc code)."""

    keys: np.ndarray
    kind: np.ndarray  # codes into TRAP_KINDS
    pass_fraction: np.ndarray
    pass_bin: np.ndarray  # codes into PASS_BINS, -1 = none
    bug: np.ndarray  # codes into ``bugs`` (-1: none recorded)
    language: np.ndarray  # codes into ``languages`` (-1: none)
    bugs: list[str]
    languages: list[str]


def _trap_facts(store: Store, index: ReleaseIndex) -> _TrapFacts:
    """The kind and test facts of every judged trap (classified once per release version)."""
    if "trap_facts" in store.cache:
        return store.cache["trap_facts"]
    frame = store.sql("""
        SELECT j.query_id, j.doc_id, j.language, j.model, j.passed, j.test_passed, j.test_total, j.is_noise,
               CASE WHEN j.task <> 'c2t' THEN json_extract_string(d.meta, '$.variant') END AS variant
        FROM judgments j
        LEFT JOIN documents d ON d.doc_id = j.doc_id AND d.corpus = 'code' AND j.task <> 'c2t'
        WHERE j.relevance = ?""", [int(TRAP)]).df()
    qcode = index.query_pos.get_indexer(frame["query_id"])
    facts = index.queries.iloc[np.maximum(qcode, 0)]
    frame = frame.assign(task=facts["task"].to_numpy(), subtask=facts["subtask"].to_numpy(),
                         target_language=facts["target_language"].to_numpy(),
                         anchor_language=facts["anchor_language"].to_numpy())
    kinds = classify_traps(frame)
    failing = (kinds["kind"] == FAILING_SOLUTION).to_numpy()
    passed = pd.to_numeric(frame["test_passed"], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    total = pd.to_numeric(frame["test_total"], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        fraction = np.where(failing & (total > 0), passed / total, np.nan)
    bins = pd.Categorical(pass_bin(fraction), categories=PASS_BINS).codes
    variant = frame["variant"].astype(object)
    bug = np.where(failing & variant.notna().to_numpy() & (variant != "correct").to_numpy(), variant.to_numpy(), None)
    keys = qcode.astype(np.int64) * index.n_docs + index.docs.get_indexer(frame["doc_id"])
    order = np.argsort(keys, kind="stable")
    # Categorical codes: per-run frames gather small integers, never strings.
    bug_codes, bugs = pd.factorize(pd.Series(bug, dtype=object), sort=True)
    language_codes, languages = pd.factorize(frame["language"].astype(object), sort=True)
    out = _TrapFacts(keys[order], pd.Categorical(kinds["kind"], categories=TRAP_KINDS).codes[order],
                     fraction[order], bins[order], bug_codes[order], language_codes[order],
                     [str(b) for b in bugs], [str(lang) for lang in languages])
    store.cache["trap_facts"] = out
    return out


# ------------------------------------------------------------------ per run
@numba.njit(cache=True, nogil=True)
def _pair_rows(q_local, query_map, d_local, doc_map, starts, pair_docs, n_docs):  # pragma: no cover - compiled
    """For each judged pair (``pair_docs[starts[q]:starts[q + 1]]`` are query q's documents), the run row
    that lists it (-1: none). One pass over the rows; the current query's documents sit in a
    document-sized scratch array (as ``evaluation.judged_pairs``' scan), so each row is one load."""
    row_of_pair = np.full(len(pair_docs), -1, dtype=np.int64)
    pair_of_doc = np.full(n_docs, -1, dtype=np.int64)
    current = -1
    for i in range(len(q_local)):
        q = query_map[q_local[i]] if q_local[i] >= 0 else -1
        if q < 0:
            continue
        if q != current:
            if current >= 0:
                for k in range(starts[current], starts[current + 1]):
                    if pair_docs[k] >= 0:
                        pair_of_doc[pair_docs[k]] = -1
            for k in range(starts[q], starts[q + 1]):
                if pair_docs[k] >= 0:
                    pair_of_doc[pair_docs[k]] = k
            current = q
        d = doc_map[d_local[i]] if d_local[i] >= 0 else -1
        if d >= 0 and pair_of_doc[d] >= 0:
            row_of_pair[pair_of_doc[d]] = i
    return row_of_pair


def _pair_values(index: ReleaseIndex, coded, hits: pd.DataFrame, qcode: np.ndarray, dcode: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Score and in_top_k of the run's row for each judged pair (sorted by query); NaN / False when unlisted."""
    starts = np.searchsorted(qcode, np.arange(index.n_queries + 1)).astype(np.int64)
    rows = _pair_rows(kernel_input(coded.q_local, np.int64), kernel_input(coded.query_map, np.int64),
                      kernel_input(coded.d_local, np.int64), kernel_input(coded.doc_map, np.int64), kernel_input(starts, np.int64),
                      kernel_input(dcode, np.int64), index.n_docs)
    listed = rows >= 0
    score = np.full(len(rows), np.nan)
    score[listed] = pd.to_numeric(hits["score"], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)[rows[listed]]
    top = np.zeros(len(rows), dtype=bool)
    top[listed] = pd.array(hits["in_top_k"], dtype="boolean").to_numpy(dtype=bool, na_value=False)[rows[listed]]
    return score, top


def _best(qpos: np.ndarray, rank: np.ndarray, score: np.ndarray, dcode: np.ndarray, mask: np.ndarray, n: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per query position (``qpos`` sorted, every position present): the smallest rank among ``mask``
    pairs (inf: none listed), that pair's score (NaN) and its document code (-1: the query has no such
    pair). Ties, and a grade the run did not list, go to the first document in doc order."""
    masked = np.where(mask, rank, np.inf)
    firsts = np.flatnonzero(np.r_[True, qpos[1:] != qpos[:-1]]) if len(qpos) else np.zeros(0, dtype=np.int64)
    best_rank = np.full(n, np.inf)
    if len(firsts):
        best_rank[qpos[firsts]] = np.minimum.reduceat(masked, firsts)
    best_score = np.full(n, np.nan)
    at_best = np.isfinite(masked) & (masked == best_rank[qpos])
    best_score[qpos[at_best]] = score[at_best]
    # Pairs are in doc order within a query: the first one at the best rank (inf == inf when none is listed).
    chosen = np.flatnonzero(mask & (masked == best_rank[qpos]))
    chosen = chosen[np.r_[True, qpos[chosen[1:]] != qpos[chosen[:-1]]]] if len(chosen) else chosen
    best_doc = np.full(n, -1, dtype=np.int64)
    best_doc[qpos[chosen]] = dcode[chosen]
    return best_rank, best_score, best_doc


def _finite(values: np.ndarray) -> np.ndarray:
    return np.where(np.isfinite(values), values, np.nan)


def _one_run(index: ReleaseIndex, facts: _TrapFacts, hits: pd.DataFrame, anchor_exclusion: bool
             ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    coded = index.code_run(hits)
    scored, qpos, rank, grade = judged_ranks(index, coded, "qrels", anchor_exclusion)
    judged = index.judged("qrels")
    # judged_ranks walks the query-sorted judged pairs of the scored queries in order: the same pairs.
    wanted = np.zeros(index.n_queries, dtype=bool)
    wanted[scored] = True
    pairs = np.flatnonzero(wanted[judged.qcode])
    if len(pairs) != len(rank):
        raise CorebError("internal: judged pairs and evaluator ranks disagree")
    keys = judged.keys[pairs]
    pair_q = judged.qcode[pairs]
    dcode = keys - pair_q.astype(np.int64) * index.n_docs
    score, top = _pair_values(index, coded, hits, pair_q, dcode)
    score = np.where(np.isfinite(rank), score, np.nan)
    top &= np.isfinite(rank)
    n = len(scored)
    positive, trap = grade == POSITIVE, grade == TRAP
    has_positive = np.bincount(qpos, weights=positive, minlength=n) > 0
    pos_rank, pos_score, pos_doc = _best(qpos, rank, score, dcode, positive, n)
    trap_rank, trap_score, trap_doc = _best(qpos, rank, score, dcode, trap, n)
    wins = trap & np.isfinite(rank) & (rank < pos_rank[qpos]) & has_positive[qpos]
    t = np.flatnonzero(trap)
    at = np.searchsorted(facts.keys, keys[t])
    if len(t) and (at.max() >= len(facts.keys) or not np.array_equal(facts.keys[at], keys[t])):
        raise CorebError("internal: a judged trap has no facts")
    both = np.isfinite(pos_rank) & np.isfinite(trap_rank)
    trap_rows = {"qcode": scored[qpos[t]], "dcode": dcode[t],
                 "kind": facts.kind[at], "pass_fraction": facts.pass_fraction[at], "pass_bin": facts.pass_bin[at],
                 "bug": facts.bug[at], "language": facts.language[at], "rank": _finite(rank[t]), "score": score[t],
                 "in_top_k": top[t], "query_has_positive": has_positive[qpos[t]], "wins": wins[t]}
    query_rows = {"qcode": scored, "has_positive": has_positive,
                  "best_positive_id": pos_doc, "best_positive_rank": _finite(pos_rank), "best_positive_score": pos_score,
                  "best_trap_id": trap_doc, "best_trap_rank": _finite(trap_rank), "best_trap_score": trap_score,
                  "trap_wins": np.bincount(qpos[t], weights=wins[t], minlength=n).astype(np.int64),
                  "score_margin": np.where(both, trap_score - pos_score, np.nan),
                  "rank_gap": np.where(both, pos_rank - trap_rank, np.nan)}
    return trap_rows, query_rows


def _frame(index: ReleaseIndex, parts: list[dict[str, np.ndarray]], names: list[str], categorical: dict
           ) -> pd.DataFrame:
    """Concatenate per-run columns into one frame with run, task, query_id, subtask first (categoricals)."""
    sizes = [len(p["qcode"]) for p in parts]
    columns = {k: np.concatenate([p[k] for p in parts]) if parts else np.zeros(0) for k in (parts[0] if parts else {})}
    qcode = columns.pop("qcode", np.zeros(0, dtype=np.int64)).astype(np.int64)
    task_codes, task_values = index.group_codes["task"]
    sub_codes, sub_values = index.group_codes["subtask"]
    out = {"run": pd.Categorical.from_codes(np.repeat(np.arange(len(names)), sizes), names),
           "task": pd.Categorical.from_codes(task_codes[qcode], task_values),
           "query_id": pd.Categorical.from_codes(qcode, index.query_pos),
           "subtask": pd.Categorical.from_codes(sub_codes[qcode], sub_values)}
    if "dcode" in columns:
        out["doc_id"] = pd.Categorical.from_codes(columns.pop("dcode").astype(np.int64), index.docs)
    for name, values in columns.items():
        if name.endswith("_id"):  # document codes (-1: none)
            out[name] = pd.Categorical.from_codes(values.astype(np.int64), index.docs)
        else:
            out[name] = pd.Categorical.from_codes(values, categorical[name]) if name in categorical else values
    return pd.DataFrame(out)


def trap_wins(store: Store, runs: dict[str, pd.DataFrame], anchor_exclusion: bool = True,
              task: str | None = None) -> TrapWins:
    """Every judged trap and scored query of ``runs`` (name -> hits), with kinds, ranks and margins.

    >>> from coreb_core.evaluation.evaluate import trap_table
    >>> from coreb_core.runs.folders import read_hits
    >>> hits = read_hits(bm25)
    >>> wins = trap_wins(store, {"bm25": hits}, task="t2c")  # demo_v2603
    >>> int(wins.traps["wins"].sum())
    432
    >>> int(trap_table(store, hits).query("task == 't2c'")["traps_above_first_positive"].sum())  # the same count
    432
    """
    if not runs:
        raise CorebError("no run to analyse")
    index = release_index(store)
    facts = _trap_facts(store, index)
    index.group_codes  # noqa: B018  (memoised before the threads read it)
    names = [str(n) for n in runs]
    with ThreadPoolExecutor(max_workers=max(1, min(len(runs), os.cpu_count() or 1))) as pool:
        done = list(pool.map(lambda hits: _one_run(index, facts, hits, anchor_exclusion), runs.values()))
    categorical = {"kind": list(TRAP_KINDS), "pass_bin": list(PASS_BINS), "bug": facts.bugs,
                   "language": facts.languages}
    traps = _frame(index, [d[0] for d in done], names, categorical)
    queries = _frame(index, [d[1] for d in done], names, categorical)
    if task is not None:
        traps = traps[traps["task"] == task].reset_index(drop=True)
        queries = queries[queries["task"] == task].reset_index(drop=True)
    return TrapWins(traps, queries, store.release, anchor_exclusion)


# ------------------------------------------------------------------ what the pages and the CLI show
def _keys(level: str) -> list[str]:
    check_choice(level, LEVELS, "level")
    return ["run", "task"] + (["subtask"] if level == "subtask" else [])


def _strings(frame: pd.DataFrame, columns) -> pd.DataFrame:
    for column in columns:
        frame[column] = frame[column].astype(str)
    return frame


def _cells(frame: pd.DataFrame, columns: list[str]) -> tuple[np.ndarray, list[np.ndarray]]:
    """One integer per row for the combination of categorical ``columns`` (mixed radix over their codes, so
    sorting the integers sorts by the columns' category order), and each column's categories."""
    cell = np.zeros(len(frame), dtype=np.int64)
    categories = []
    for column in columns:
        values = frame[column].cat
        cell = cell * len(values.categories) + values.codes.to_numpy().astype(np.int64)
        categories.append(np.asarray(values.categories, dtype=object))
    return cell, categories


def _cell_labels(cells: np.ndarray, columns: list[str], categories: list[np.ndarray]) -> dict[str, np.ndarray]:
    """The column values (strings) of each combined cell integer of ``_cells``."""
    out, rest = {}, cells.copy()
    for column, values in zip(columns[::-1], categories[::-1]):
        out[column] = values[rest % len(values)].astype(str).astype(object)
        rest //= len(values)
    return {c: out[c] for c in columns}


def kind_shares(wins: TrapWins, level: str = "subtask") -> pd.DataFrame:
    """Per run × task (× subtask) × kind: how many trap wins and top-k traps each kind has, and its share.

    Columns: run, task, (subtask,) kind, trap_wins, share_of_wins (of the group's trap wins; NaN when
    it has none), traps_in_top_k, share_of_top_k (over every scored query: a trap in the top k needs no
    positive), judged (the kind's judged traps of the scored queries with a positive: only those can win),
    win_rate (the trap-win rate per judged trap: trap_wins / judged, as ``release_stability`` and
    ``bug_shares`` count it), queries (the scored queries of the group with a positive) and queries_with_win
    (those lost to a trap: ``coreb_core.analysis.traps.share_lost`` of the two is the share of queries lost
    to a trap). Kinds with neither a win nor a top-k trap are left out.

    >>> from coreb_core.runs.folders import read_hits
    >>> kind_shares(trap_wins(store, {"bm25": read_hits(bm25)}), "task").columns.tolist()[:6]  # demo_v2603
    ['run', 'task', 'kind', 'trap_wins', 'share_of_wins', 'traps_in_top_k']
    """
    keys = _keys(level)
    # Counting on category codes (bincount), not a pandas groupby: 11 runs' traps are 200,000+ rows.
    cell, categories = _cells(wins.traps, keys + ["kind"])
    n_kinds = len(categories[-1])
    listed = np.bincount(cell)
    # One denominator rule for trap wins (issue 31): the judged traps of queries that have a positive.
    judged = np.bincount(cell, weights=wins.traps["query_has_positive"].to_numpy(dtype=np.float64),
                         minlength=len(listed))
    won = np.bincount(cell, weights=wins.traps["wins"].to_numpy(dtype=np.float64), minlength=len(listed))
    top = np.bincount(cell, weights=wins.traps["in_top_k"].to_numpy(dtype=np.float64), minlength=len(listed))
    kept = np.flatnonzero((listed > 0) & ((won > 0) | (top > 0)))
    group = kept // n_kinds
    group_won = np.bincount(group, weights=won[kept]) if len(kept) else np.zeros(0)
    group_top = np.bincount(group, weights=top[kept]) if len(kept) else np.zeros(0)
    q_cell, _ = _cells(wins.queries, keys)
    has_win = (wins.queries["trap_wins"] > 0).to_numpy(dtype=np.float64)
    size = max(int(group.max()) + 1 if len(group) else 0, int(q_cell.max()) + 1 if len(q_cell) else 0)
    queries = np.bincount(q_cell, weights=wins.queries["has_positive"].to_numpy(dtype=np.float64), minlength=size)
    with_win = np.bincount(q_cell, weights=has_win, minlength=size)
    with np.errstate(divide="ignore", invalid="ignore"):
        share_won = np.where(group_won[group] > 0, won[kept] / group_won[group], np.nan)
        share_top = np.where(group_top[group] > 0, top[kept] / group_top[group], np.nan)
    out = pd.DataFrame(_cell_labels(kept, keys + ["kind"], categories))
    out["trap_wins"] = won[kept].astype(np.int64)
    out["share_of_wins"] = share_won
    out["traps_in_top_k"] = top[kept].astype(np.int64)
    out["share_of_top_k"] = share_top
    out["judged"] = judged[kept].astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["win_rate"] = np.where(judged[kept] > 0, won[kept] / judged[kept], np.nan)
    out["queries"] = queries[group].astype(np.int64)
    out["queries_with_win"] = with_win[group].astype(np.int64)
    return out


def bug_shares(wins: TrapWins) -> pd.DataFrame:
    """Per run × task × recorded bug kind (failing solutions whose corpus row names it; CoREB-mini):
    trap_wins, share_of_wins (of the failing-solution wins with a recorded bug), judged, win_rate
    (trap_wins / judged). Empty where the corpus records no bug kind (the real CoREB).

    >>> from coreb_core.runs.folders import read_hits
    >>> bug_shares(trap_wins(store, {"bm25": read_hits(bm25)}))["bug"].unique().tolist()[:2]  # demo_v2603
    ['edgecase', 'offbyone']
    """
    traps = wins.traps[wins.traps["bug"].notna() & wins.traps["query_has_positive"]]
    grouped = traps.groupby(["run", "task", "bug"], observed=True, sort=True).agg(
        trap_wins=("wins", "sum"), judged=("wins", "size")).reset_index()
    totals = grouped.groupby(["run", "task"], observed=True)["trap_wins"].transform("sum")
    grouped["share_of_wins"] = grouped["trap_wins"] / totals.where(totals > 0)
    grouped["win_rate"] = grouped["trap_wins"] / grouped["judged"]
    grouped["trap_wins"] = grouped["trap_wins"].astype(np.int64)
    out = _strings(grouped, ["run", "task", "bug"])
    return out[["run", "task", "bug", "trap_wins", "share_of_wins", "judged", "win_rate"]]


def near_miss_curve(wins: TrapWins, edges=CURVE_EDGES) -> pd.DataFrame:
    """Per run and test-pass-fraction bin: P(a failing solution outranks its query's best positive).

    Over the failing-solution traps with test counts of the scored queries that have a positive (a
    trap the run did not list does not outrank). Columns: run, bin_low, bin_high (fractions; the last
    bin includes its upper edge), pass_bin (gross / partial / near_miss by the bin's lower edge),
    failing (judged failing solutions in the bin), outranking, probability, low, high (Wilson 95%).
    Bins without any failing solution are left out.

    >>> from coreb_core.runs.folders import read_hits
    >>> near_miss_curve(trap_wins(store, {"bm25": read_hits(bm25)})).columns.tolist()[:5]  # demo_v2603
    ['run', 'bin_low', 'bin_high', 'pass_bin', 'failing']
    """
    edges = np.asarray(edges, dtype=np.float64)
    traps = wins.traps
    rows = traps[(traps["kind"] == FAILING_SOLUTION) & traps["pass_fraction"].notna() & traps["query_has_positive"]]
    fraction = rows["pass_fraction"].to_numpy(dtype=np.float64)
    bin_of = np.clip(np.searchsorted(edges, fraction, side="right") - 1, 0, len(edges) - 2)
    grouped = pd.DataFrame({"run": rows["run"].values, "bin": bin_of,
                            "wins": rows["wins"].to_numpy()}).groupby(
        ["run", "bin"], observed=True, sort=True).agg(failing=("wins", "size"), outranking=("wins", "sum")).reset_index()
    low, high = wilson_interval(grouped["outranking"], grouped["failing"])
    bin_low = edges[grouped["bin"].to_numpy()]
    return pd.DataFrame({
        "run": grouped["run"].astype(str), "bin_low": bin_low, "bin_high": edges[grouped["bin"].to_numpy() + 1],
        "pass_bin": pass_bin(bin_low), "failing": grouped["failing"].astype(np.int64),
        "outranking": grouped["outranking"].astype(np.int64),
        "probability": grouped["outranking"] / grouped["failing"], "low": low, "high": high})


def margin_summary(wins: TrapWins, over: str = "wins") -> pd.DataFrame:
    """Quantiles of the score margin and the rank gap per run × task.

    ``over="wins"``: queries whose best trap is ahead of every positive (how far ahead; a query whose
    positives the run did not list has no margin and counts in ``unmeasured``); ``over="all"``: every
    scored query with a positive and a trap both listed (a negative value: the positive is ahead).
    Columns: run, task, measure (score_margin / rank_gap), queries (with a value), unmeasured, mean,
    q10, q25, median, q75, q90. Scores are each run's own: compare score margins within a run.

    >>> from coreb_core.runs.folders import read_hits
    >>> margin_summary(trap_wins(store, {"bm25": read_hits(bm25)}))["measure"].unique().tolist()  # demo_v2603
    ['score_margin', 'rank_gap']
    """
    if over not in ("wins", "all"):
        raise CorebError(f"unknown population {over!r}; choose wins or all")
    q = wins.queries
    # Every run × task present gets a row; grouping stays on the categorical codes (no string copies).
    cells = q.groupby(["run", "task"], observed=True, sort=True).size().index
    q = q[q["trap_wins"] > 0] if over == "wins" else q[q["has_positive"]]
    quantiles = {"q10": 0.1, "q25": 0.25, "median": 0.5, "q75": 0.75, "q90": 0.9}
    tables = []
    for measure in MARGIN_MEASURES:
        grouped = q.groupby(["run", "task"], observed=True, sort=True)[measure]
        stats = {"queries": grouped.count(), "size": grouped.size(), "mean": grouped.mean(),
                 **{name: grouped.quantile(p) for name, p in quantiles.items()}}
        table = (pd.DataFrame(stats).reindex(cells) if len(q) else
                 pd.DataFrame(np.nan, index=cells, columns=list(stats)))  # every run × task, a row
        table["queries"] = table["queries"].fillna(0).astype(np.int64)
        table["unmeasured"] = (table["size"].fillna(0) - table["queries"]).astype(np.int64)
        tables.append(table.reset_index().assign(measure=measure))
    out = _strings(pd.concat(tables, ignore_index=True), ["run", "task"])
    return out[["run", "task", "measure", "queries", "unmeasured", "mean", *quantiles]]


def rank_gap_histogram(wins: TrapWins, edges=RANK_GAP_EDGES) -> pd.DataFrame:
    """How many trap-win queries per run × task have their best positive 1, 2, 3–5, … places below the
    best trap. Columns: run, task, gap_low, gap_high (exclusive; NaN for the open last bin), queries,
    share (of the run × task's trap-win queries with a rank gap). Empty bins are kept (zero).

    >>> from coreb_core.runs.folders import read_hits
    >>> rank_gap_histogram(trap_wins(store, {"bm25": read_hits(bm25)}))["gap_low"].unique().tolist()  # demo_v2603
    [1, 2, 3, 6, 11, 21, 51]
    """
    edges = np.asarray(edges, dtype=np.float64)
    n_bins = len(edges)
    runs, tasks = wins.queries["run"].cat, wins.queries["task"].cat
    n_tasks = len(tasks.categories)
    cell = runs.codes.to_numpy().astype(np.int64) * n_tasks + tasks.codes.to_numpy()
    present = np.unique(cell)  # the run × task cells with a scored query, in run then task order
    chosen = ((wins.queries["trap_wins"] > 0) & wins.queries["rank_gap"].notna()).to_numpy()
    bin_of = np.clip(np.searchsorted(edges, wins.queries["rank_gap"].to_numpy(dtype=np.float64)[chosen], side="right")
                     - 1, 0, n_bins - 1)
    counts = np.bincount(np.searchsorted(present, cell[chosen]) * n_bins + bin_of, minlength=len(present) * n_bins)
    cells = pd.DataFrame({"run": np.asarray(runs.categories, dtype=object)[present // n_tasks],
                          "task": np.asarray(tasks.categories, dtype=object)[present % n_tasks]})
    totals = np.repeat(counts.reshape(len(cells), n_bins).sum(axis=1), n_bins).astype(np.float64)
    b = np.tile(np.arange(n_bins), len(cells))
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(totals > 0, counts / totals, np.nan)
    return pd.DataFrame({"run": np.repeat(cells["run"].to_numpy(), n_bins),
                         "task": np.repeat(cells["task"].to_numpy(), n_bins),
                         "gap_low": edges[b].astype(np.int64),
                         "gap_high": np.where(b + 1 < n_bins, edges[np.minimum(b + 1, n_bins - 1)], np.nan),
                         "queries": counts.astype(np.int64), "share": share})


class WhyTrapsWin(NamedTuple):
    """Everything the trap wins of some runs say about why traps win: the Trap analysis page, the CLI's ``traps``
    and ``bench/traps_bench.py`` all read this one result (fractions and counts; ``present`` words them)."""

    kinds_by_task: pd.DataFrame  # kind_shares(wins, "task")
    kinds_by_subtask: pd.DataFrame  # kind_shares(wins, "subtask")
    bugs: pd.DataFrame  # bug_shares
    near_miss: pd.DataFrame  # near_miss_curve
    margins: pd.DataFrame  # margin_summary
    rank_gaps: pd.DataFrame  # rank_gap_histogram


def why_traps_win(wins: TrapWins) -> WhyTrapsWin:
    """The kinds, bug kinds, near-miss curve and margins of ``wins`` (see ``WhyTrapsWin``).

    >>> from coreb_core.runs.folders import read_hits
    >>> why = why_traps_win(trap_wins(store, {"bm25": read_hits(bm25)}))  # demo_v2603
    >>> why.kinds_by_task.columns[:3].tolist()
    ['run', 'task', 'kind']
    """
    return WhyTrapsWin(kind_shares(wins, "task"), kind_shares(wins, "subtask"), bug_shares(wins),
                       near_miss_curve(wins), margin_summary(wins), rank_gap_histogram(wins))
