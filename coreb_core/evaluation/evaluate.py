"""Evaluate runs with CoREB's official semantics: per query, by group, overall.

Thin verbs over the compiled kernels in ``coreb_core.evaluation.judged_pairs`` (reading a run against
the judged pairs, with the official rank rule) and ``coreb_core.evaluation.kernels`` (metrics, group
means). A ``ReleaseIndex`` (built once per Store) codes queries, documents and qrels as integers; a
run is coded once (its categorical columns make that nearly free) and read in one pass, so a whole
release evaluates in well under a second.

Who owns what: the Store owns the query facts (``Store.query_facts``, one row per query in code
order; ``data.store.with_query_facts`` appends them to any per-query frame) and a per-version memo
(``Store.cache``). The ``ReleaseIndex`` is evaluation's: it takes its query codes from the Store,
codes documents and qrel views itself (with the scheme-specific ideal gains) and is kept in the
Store's memo by ``release_index``, so nothing is attached to a Store from outside and data never
imports evaluation. Per-query frames here carry only task and query_id; facts join on demand.

Official semantics reproduced (``coreb_runner`` EvaluateRetrieval.evaluate + the runner's C2C step):
- a query is evaluated when it is in the qrels and in the run (an empty list counts, scoring 0);
  means are over those queries, as pytrec_eval's output is averaged;
- hits whose doc id equals the query id are dropped; for C2C the anchor (``meta.anchor_code_id``) is
  dropped too unless ``anchor_exclusion=False`` — documents below a dropped hit move up one rank;
- ``c2t_match`` queries are evaluated like every other query: a label-0 pair has no positive, so
  under v2 it scores 0 on every metric, exactly as pytrec_eval scores a query without relevant docs.
- schemes that rebuild CoREB v1 (``v1``, ``file:v1``) also drop every noise description from C2T
  lists (the v1 text corpus had none); documents below move up, as for the anchor.

Example (CoREB-mini and a BM25 run in ``root``; ``store`` is demo_v2603):
    >>> per_query = evaluate(store, read_hits(bm25, root), V2)
    >>> round(summary(per_query)["tasks"]["t2c"]["ndcg_at_10"], 4)
    0.2998
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, NamedTuple, cast

import numpy as np
import pandas as pd

from coreb_core.data.measures import NDCG_10
from coreb_core.data.schema import POSITIVE, TRAP
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.join import (
    ReleaseIndex,
    RunJoin,
    codes_in,
    join_run,
    joint_judged,
    qrels_view,
    release_index,
    view_ranks,
)
from coreb_core.evaluation.judged_pairs import dropped_above
from coreb_core.evaluation.kernels import KS, QueryMetrics, means_by_cell, metric_names, per_query_metrics
from coreb_core.evaluation.schemes import EXECUTED, LABEL_READINGS, V1, V2, Scheme  # noqa: F401  (EXECUTED: doctests)
from coreb_core.evaluation.stored_joins import StoredRun, join_ready, stored_join
from coreb_core.runs.folders import read_hits  # noqa: F401  (the examples below read runs with it)


def official_ranks(rows: pd.DataFrame, query_id: str, task: str, anchor_id: str | None = None,
                   anchor_exclusion: bool = True) -> pd.DataFrame:
    """One query's run rows with the evaluator's ranks (the rule of ``judged_ranks``): the query's own
    id and, for C2C with ``anchor_exclusion``, the anchor leave the list; lower hits move up one rank
    per dropped hit above them. ``rows`` has ``doc_id`` and ``rank``; the result adds ``stored_rank``
    (the rank in the file) and puts the evaluator's ``rank`` first.

    >>> rows = pd.DataFrame({"doc_id": ["a", "q1", "b", "anchor", "c"], "rank": [1, 2, 3, 4, 5]})
    >>> official_ranks(rows, "q1", "c2c", "anchor")
       rank doc_id  stored_rank
    0     1      a            1
    1     2      b            3
    2     3      c            5
    """
    dropped = {query_id}
    if anchor_exclusion and task == "c2c" and anchor_id:
        dropped.add(anchor_id)
    out = rows.rename(columns={"rank": "stored_rank"})
    gone = out["doc_id"].isin(dropped).to_numpy()
    shift = dropped_above(np.zeros(len(out), dtype=np.int64), out["stored_rank"].to_numpy(dtype=np.float64), gone)
    out = out[~gone].copy()
    out.insert(0, "rank", out["stored_rank"] - shift[~gone].astype(np.int64))
    return out.reset_index(drop=True)


def _frame(index: ReleaseIndex, scored: np.ndarray, columns: dict[str, np.ndarray] | QueryMetrics,
           run_names: np.ndarray | None = None) -> pd.DataFrame:
    """Per-query rows: (run,) task, query_id, then ``columns`` (a ``QueryMetrics``: its metric rows)."""
    task_codes, task_values = index.group_codes["task"]
    # Categorical id columns: built from codes, no string copies.
    base = {"task": pd.Categorical.from_codes(task_codes[scored], task_values),
            "query_id": pd.Categorical.from_codes(scored, index.query_pos)}
    if run_names is not None:
        base = {"run": run_names if isinstance(run_names, pd.Categorical) else pd.Categorical(run_names), **base}
    if isinstance(columns, QueryMetrics):
        # The metrics matrix (metrics x queries) is already pandas' block layout: no copy.
        floats = dict(zip(columns.names, columns.metric_rows))
        stacked = columns.metric_rows.T
        columns = floats
    else:
        floats = {k: v for k, v in columns.items() if v.dtype.kind == "f"}
        stacked = np.vstack(list(floats.values())).T if floats else np.zeros((len(scored), 0))
    # One consolidated float block, handed over without a copy: fast to build, slice and aggregate.
    block = pd.DataFrame(stacked, columns=list(floats), copy=False)
    frame = pd.concat([pd.DataFrame(base), block], axis=1)
    for name, values in columns.items():
        if name not in floats:
            frame[name] = values
    frame = frame[list(base) + list(columns)]
    return frame


@dataclass(frozen=True)
class Evaluation:
    """Several runs evaluated at once (``analyse_many``): per-query metrics per scheme, group means,
    trap statistics. Every frame has a leading ``run`` column. Plain frames and tuples only, so
    the whole object pickles (Streamlit's ``st.cache_data``).

    >>> ev = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,), traps=True, groupings=("task",))  # demo_v2603
    >>> ev.runs, ev.schemes
    (('bm25',), ('v2',))
    >>> ev.groups(V2, "task")[["run", "task", "queries", "ndcg_at_10"]]
        run task  queries  ndcg_at_10
    0  bm25  c2c      144    0.463078
    1  bm25  c2t      336    0.385968
    2  bm25  t2c      720    0.299759
    """

    runs: tuple[str, ...]
    schemes: tuple[str, ...]  # str(scheme) of every scheme with per-query rows
    per_query_tables: dict[str, pd.DataFrame]
    group_tables: dict[tuple[str, str], pd.DataFrame]  # (str(scheme), by) -> group means
    trap_rows: pd.DataFrame | None

    def has(self, scheme: Scheme | str) -> bool:
        return str(scheme) in self.per_query_tables

    def per_query(self, scheme: Scheme | str) -> pd.DataFrame:
        """One row per run and evaluated query: run, task, query_id and every metric.

        >>> ev = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,), traps=True, groupings=("task",))
        >>> ev.per_query(V2)[["run", "task", "query_id", "ndcg_at_10"]].head(2)
            run task               query_id  ndcg_at_10
        0  bm25  c2c  q_c2c_cross_lang_0025    0.760640
        1  bm25  c2c  q_c2c_cross_lang_0026    0.946902
        """
        if str(scheme) not in self.per_query_tables:
            raise KeyError(f"scheme {scheme} was not evaluated (evaluated: {', '.join(self.schemes) or 'none'})")
        return self.per_query_tables[str(scheme)]

    def groups(self, scheme: Scheme | str, by: str) -> pd.DataFrame:
        """Metric means per run, task and ``by`` group (one of GROUPINGS, or "task"), with ``queries``.

        >>> ev = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,), traps=True, groupings=("task",))
        >>> ev.groups("v2", "task")[["run", "task", "ndcg_at_10"]]
            run task  ndcg_at_10
        0  bm25  c2c    0.463078
        1  bm25  c2t    0.385968
        2  bm25  t2c    0.299759
        """
        if (str(scheme), by) not in self.group_tables:
            raise KeyError(f"no group means for ({scheme}, {by}): pass groupings=({by!r},) to analyse_many")
        return self.group_tables[(str(scheme), by)]

    @property
    def traps(self) -> pd.DataFrame:
        """Per run and query: trap statistics (see ``trap_table``), under the labels being scored: v2's, or the
        corrected ones (executed, judged) when one of them is among the schemes, where a promoted document is no trap.

        >>> ev = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,), traps=True, groupings=("task",))
        >>> ev.traps[["run", "query_id", "first_positive_rank", "traps_above_first_positive"]].head(2)
            run               query_id  first_positive_rank  traps_above_first_positive
        0  bm25  q_c2c_cross_lang_0025                  2.0                           1
        1  bm25  q_c2c_cross_lang_0026                  1.0                           0
        """
        if self.trap_rows is None:
            raise KeyError("traps were not computed: call analyse_many with traps=True")
        return self.trap_rows


def analyse_many(store: Store, runs: Mapping[str, pd.DataFrame | StoredRun], schemes=(V2,), anchor_exclusion: bool = True,
                 ks=KS, traps: bool = False, groupings: tuple[str, ...] = ()) -> Evaluation:
    """Evaluate several runs at once into an ``Evaluation`` (per-query rows per scheme, trap rows,
    group means for ``groupings``). Each run is coded and joined once (threads across runs); the metric
    kernels then run once over all runs together. A run is its hits, or a ``StoredRun`` (a stored run by
    id), which is scored from the join kept beside it (``stored_joins``) and read only the first time.

    >>> ev = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,), groupings=("task",))  # demo_v2603
    >>> ev.groups("v2", "task")[["run", "task", "ndcg_at_10"]]
        run task  ndcg_at_10
    0  bm25  c2c    0.463078
    1  bm25  c2t    0.385968
    2  bm25  t2c    0.299759
    """
    if traps and 10 not in ks:
        raise ValueError("the trap table reports nDCG@10: keep 10 among the cutoffs")
    if anchor_exclusion and any(Scheme.parse(str(s)).keeps_anchor for s in schemes):
        raise CorebError("scheme mteb keeps the C2C anchor in the ranked list: evaluate it without anchor exclusion")
    index = release_index(store)
    names = np.asarray(list(runs), dtype=object)
    # The trap table reads v2 (or the corrected labels being scored: executed, judged, whose grades say which
    # documents are still traps) and v1 per query, so they are computed whenever traps are asked for.
    labels = _label_scheme(schemes)
    computed_schemes = tuple(dict.fromkeys(tuple(schemes) + ((V2, V1, labels) if traps else ())))
    views = sorted({_join_key(store, s) for s in computed_schemes})
    # Each run's rows are matched once against the union of the views' judged pairs.
    joint = joint_judged(index, tuple(sorted({v for v, _ in views})))
    noise = any(d for _, d in views)

    def code_and_join(hits: pd.DataFrame | StoredRun) -> RunJoin:
        if isinstance(hits, StoredRun):
            return stored_join(index, hits, joint, anchor_exclusion, noise)
        return join_run(index, index.code_run(hits), joint, anchor_exclusion, noise)

    def scheme_metrics(scheme: Scheme) -> QueryMetrics:
        view = _join_key(store, scheme)
        scored, _, qpos, rank, grade = joined[view]
        n_rel, idcg = index.ideal(view[0], scheme, ks)
        return per_query_metrics(qpos, rank, grade, len(scored), scheme, ks, ideal=(n_rel[scored], idcg[scored]))

    # Runs, views, schemes and groupings are independent, and NumPy releases the GIL on these array
    # passes: one thread per core where a pass is long (reading runs, a metric kernel per scheme). Joins
    # already made take a millisecond or less each: handing them to threads would cost more than it saves.
    to_read = sum(not (isinstance(h, StoredRun) and join_ready(index, h, joint, anchor_exclusion, noise))
                  for h in runs.values())
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        run_joins = list((pool.map if to_read > 1 else map)(code_and_join, runs.values()))
        joined: dict[tuple[str, bool], tuple[np.ndarray, ...]] = {}
        for view in views:
            parts = [view_ranks(index, rj, view[0], drop_noise=view[1]) for rj in run_joins]
            offsets = np.cumsum([0] + [len(p[0]) for p in parts])
            joined[view] = (
                np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, dtype=np.int64),
                pd.Categorical.from_codes(np.repeat(np.arange(len(names)), [len(p[0]) for p in parts]), names),
                np.concatenate([p[1] + o for p, o in zip(parts, offsets)]) if parts else np.zeros(0, dtype=np.int64),
                np.concatenate([p[2] for p in parts]) if parts else np.zeros(0),
                np.concatenate([p[3] for p in parts]) if parts else np.zeros(0, dtype=np.int64),
            )
        for scheme in computed_schemes:  # memoised on the index: filled before the threads read it
            index.ideal(_join_key(store, scheme)[0], scheme, ks)
        index.group_codes  # noqa: B018  (likewise)
        computed = dict(zip(map(str, computed_schemes),
                            (pool.map if len(computed_schemes) > 1 else map)(scheme_metrics, computed_schemes)))
        columns = metric_names(ks)
        per_query: dict[str, pd.DataFrame] = {}
        pending = {}
        for scheme in (s for s in computed_schemes if s in schemes):
            metrics = computed[str(scheme)]
            scored, run_names = joined[_join_key(store, scheme)][:2]
            per_query[str(scheme)] = _frame(index, scored, metrics, run_names)
            if groupings:
                by_metric = metrics.metric_rows  # one row per metric, in ``columns`` order
                for by in groupings:
                    names = cast(pd.Categorical, run_names)
                    pending[(str(scheme), by)] = pool.submit(_group_means, index, scored, names.codes,
                                                             names.categories, by_metric, columns, by)
        grouped = {key: future.result() for key, future in pending.items()}
    trap_rows = None
    if traps:
        scored, run_names, qpos, rank, grade = joined[_join_key(store, labels)]
        if not np.array_equal(joined[_join_key(store, V1)][0], scored):
            raise CorebError(f"internal: the v1 view scores other queries than {labels}")
        trap_rows = _trap_frame(index, scored, qpos, rank, grade, run_names, {**computed, "v2": computed[str(labels)]})
    return Evaluation(tuple(runs), tuple(per_query), per_query, grouped, trap_rows)


def _label_scheme(schemes) -> Scheme:
    """The labels the trap table reads: a corrected reading being scored (executed, judged), else the official v2.

    >>> str(_label_scheme((V2, EXECUTED))), str(_label_scheme((V1,)))
    ('executed', 'v2')
    """
    return next((p for p in map(lambda s: Scheme.parse(str(s)), schemes) if p in LABEL_READINGS and p != V2), V2)


def _join_key(store: Store, scheme: Scheme) -> tuple[str, bool]:
    """What a run is joined against: the scheme's qrels view and whether C2T noise texts drop."""
    return qrels_view(store, scheme), scheme.drops_noise_texts


def evaluate(store: Store, hits: pd.DataFrame | StoredRun, scheme: Scheme = V2, anchor_exclusion: bool = True,
             ks=KS) -> pd.DataFrame:
    """One row per evaluated query: task, query_id and every metric (``ndcg_at_10``, …).

    >>> evaluate(store, read_hits(bm25))[["task", "query_id", "ndcg_at_10"]].head(2)  # demo_v2603
      task               query_id  ndcg_at_10
    0  c2c  q_c2c_cross_lang_0025    0.760640
    1  c2c  q_c2c_cross_lang_0026    0.946902
    """
    return analyse_many(store, {"run": hits}, (scheme,), anchor_exclusion, ks).per_query(scheme).drop(columns="run")


def trap_table(store: Store, hits: pd.DataFrame, anchor_exclusion: bool = True) -> pd.DataFrame:
    """Per query: where positives (rel=2) and traps (rel=1) sit, and what the traps cost.

    first_positive_rank, first_trap_rank (NaN when none retrieved), has_positive (the query has a positive, so it
    can be lost to a trap), traps_above_first_positive (0 for a query without positives), trap_above_positive, trap_at_1, traps_in_top_10, dcg_at_10 / idcg_at_10 / ndcg_at_10 under v2,
    ndcg_at_10_v1 (scheme v1: CoREB's v1 rules) and v1_minus_v2_ndcg_at_10 (how much v1 overstates v2).

    >>> trap_table(store, read_hits(bm25))[["query_id", "first_positive_rank", "first_trap_rank", "trap_at_1"]].head(2)
                    query_id  first_positive_rank  first_trap_rank  trap_at_1
    0  q_c2c_cross_lang_0025                  2.0              1.0       True
    1  q_c2c_cross_lang_0026                  1.0              3.0      False
    """
    return analyse_many(store, {"run": hits}, (), anchor_exclusion, traps=True).traps.drop(columns="run")


def _trap_frame(index: ReleaseIndex, scored: np.ndarray, qidx: np.ndarray, rank: np.ndarray, grade: np.ndarray,
                run_names: np.ndarray | None, computed: dict[str, QueryMetrics]) -> pd.DataFrame:
    n = len(scored)
    positive, trap = grade == POSITIVE, grade == TRAP
    first_pos = np.full(n, np.inf)
    np.minimum.at(first_pos, qidx[positive], rank[positive])
    first_trap = np.full(n, np.inf)
    np.minimum.at(first_trap, qidx[trap], rank[trap])
    is_trap = trap & np.isfinite(rank)
    # Queries without any positive in their qrels (c2t_match label-0 pairs) have nothing to be above.
    has_positive = np.bincount(qidx, weights=positive, minlength=n) > 0
    traps_above = np.bincount(qidx, weights=is_trap & (rank < first_pos[qidx]), minlength=n) * has_positive
    v2, v1 = computed["v2"], computed["v1"]  # analyse_many computes both whenever traps are asked for
    return _frame(index, scored, {
        "first_positive_rank": np.where(np.isfinite(first_pos), first_pos, np.nan),
        "first_trap_rank": np.where(np.isfinite(first_trap), first_trap, np.nan),
        "has_positive": has_positive,
        "traps_above_first_positive": traps_above.astype(int),
        "trap_above_positive": traps_above > 0,
        "trap_at_1": first_trap == 1,
        "traps_in_top_10": np.bincount(qidx, weights=is_trap & (rank <= 10), minlength=n).astype(int),
        "dcg_at_10": v2["dcg_at_10"], "idcg_at_10": v2["idcg_at_10"], "ndcg_at_10": v2["ndcg_at_10"],
        "ndcg_at_10_v1": v1["ndcg_at_10"], "v1_minus_v2_ndcg_at_10": v1["ndcg_at_10"] - v2["ndcg_at_10"],
    }, run_names)


def _numeric_columns(frame: pd.DataFrame) -> list[str]:
    return [c for c, t in frame.dtypes.items() if c not in ("task", "query_id") and t.kind in "fiub"]


def aggregate(store: Store, per_query: pd.DataFrame, by: str) -> pd.DataFrame:
    """Mean of every metric per (run,) task and group value, with the number of queries (NaN-aware).
    ``by`` is one of GROUPINGS, or "task" for per-task means only.

    >>> aggregate(store, evaluate(store, read_hits(bm25)), "task")[["task", "queries", "ndcg_at_10"]].round(4)
      task  queries  ndcg_at_10
    0  c2c      144      0.4631
    1  c2t      336      0.3860
    2  t2c      720      0.2998
    """
    index = release_index(store)
    metrics = _numeric_columns(per_query)
    run_codes = run_values = None
    if "run" in per_query:
        runs = per_query["run"]
        if isinstance(runs.dtype, pd.CategoricalDtype):
            run_codes, run_values = runs.cat.codes.to_numpy(), runs.cat.categories
        else:
            run_codes, run_values = pd.factorize(runs)
    by_metric = per_query[metrics].to_numpy(dtype=np.float64).T
    return _group_means(index, codes_in(per_query["query_id"], index.query_pos), run_codes, run_values, by_metric, metrics,
                        by)


def _group_means(index: ReleaseIndex, qcode: np.ndarray, run_codes: np.ndarray | None, run_values,
                 by_metric: np.ndarray, metrics: list[str], by: str) -> pd.DataFrame:
    """Means of ``by_metric`` (metrics x rows) per (run,) task and group cell present."""
    task_codes, task_values = index.group_codes["task"]
    if by == "task":  # per task only
        group_codes, group_values = np.zeros(index.n_queries, dtype=np.int64), np.array(["all"], dtype=object)
    else:
        group_codes, group_values = index.codes_for(by)
    n_cells = len(task_values) * len(group_values)
    key = task_codes[qcode].astype(np.int64) * len(group_values) + group_codes[qcode]
    if run_codes is not None:
        key = key + run_codes.astype(np.int64) * n_cells
    present, cell_of_row, sizes = np.unique(key, return_inverse=True, return_counts=True)
    means = means_by_cell(cell_of_row, by_metric, len(present)).T
    out = pd.DataFrame(means, columns=metrics)
    cell = present % n_cells
    out.insert(0, "queries", sizes)
    if by != "task":
        out.insert(0, by, group_values[cell % len(group_values)])
    out.insert(0, "task", task_values[cell // len(group_values)])
    if run_values is not None:
        out.insert(0, "run", np.asarray(run_values, dtype=object)[present // n_cells])
    return out


def summary(per_query: pd.DataFrame) -> dict[str, Any]:
    """Per-task means, plus overall as the plain mean of the tasks and as the query-weighted mean.

    >>> s = summary(evaluate(store, read_hits(bm25)))  # demo_v2603
    >>> list(s), s["tasks"]["c2c"]["queries"], round(s["overall_mean_of_tasks"]["ndcg_at_10"], 4)
    (['tasks', 'overall_mean_of_tasks', 'overall_query_weighted'], 144, 0.3829)
    """
    metrics = _numeric_columns(per_query)
    codes, tasks_found = pd.factorize(per_query["task"], sort=True)
    counts = np.bincount(codes, minlength=len(tasks_found))
    values = per_query[metrics].to_numpy(dtype=np.float64)
    means = np.stack([np.bincount(codes, weights=values[:, i], minlength=len(tasks_found)) for i in range(len(metrics))],
                     axis=1) / np.maximum(counts, 1)[:, None] if len(metrics) else np.zeros((len(tasks_found), 0))
    tasks = {t: {"queries": int(counts[i]), **dict(zip(metrics, map(float, means[i])))} for i, t in enumerate(tasks_found)}
    overall_tasks = dict(zip(metrics, map(float, means.mean(axis=0)))) if len(tasks_found) else {}
    overall_queries = dict(zip(metrics, map(float, values.mean(axis=0)))) if len(per_query) else {}
    return {"tasks": tasks, "overall_mean_of_tasks": overall_tasks, "overall_query_weighted": overall_queries}


def score_run(run_id: str, root: Path | None = None) -> dict[str, float]:
    """Per task, a stored run's nDCG@10 under scheme v2 (anchor excluded): what a new run reports.

    >>> {task: round(v, 4) for task, v in score_run(bm25, root).items()}  # demo_v2603
    {'c2c': 0.4631, 'c2t': 0.386, 't2c': 0.2998}
    """
    from coreb_core.runs.folders import run_meta

    with Store(run_meta(run_id, root).made_on(), root) as store:
        result = summary(evaluate(store, StoredRun(run_id, root)))
    return {t: m[NDCG_10.column] for t, m in result["tasks"].items()}


# What every mean averages over, said wherever the numbers are printed.
DENOMINATORS = ("every metric, MRR and hit rate included, is a mean over the queries in both the run and the qrels "
                "(as pytrec_eval's output is averaged); the official runner's MRR and hit rate divide by every "
                "query in the qrels instead, which differs only when the run leaves queries out")


class Coverage(NamedTuple):
    """What one task's means average over: the queries judged under the scheme (``judged``), those the run
    scored (``scored``: judged and in the run), and how many scored queries have no relevant document
    (``without_relevant``: they score 0, as pytrec_eval scores them; C2T's c2t_match label-0 pairs under v2).
    MRR and hit rate are means over ``scored`` here; the official runner divides them by ``judged``.

    >>> Coverage("c2t", judged=1200, scored=1200, without_relevant=190).missing
    0
    """

    task: str
    judged: int
    scored: int
    without_relevant: int

    @property
    def missing(self) -> int:
        return self.judged - self.scored

    def warning(self) -> str | None:
        """One line when the run leaves some judged queries of the task out, naming both counts; None when it
        covers all, or none (a run of other tasks only).

        >>> Coverage("t2c", 1123, 1000, 0).warning()
        't2c: the run covers 1,000 of the 1,123 judged queries; means are over those 1,000 (as pytrec_eval), while the official MRR and hit rate divide by all 1,123 (the missing score 0)'
        """
        if not self.missing or not self.scored:
            return None
        return (f"{self.task}: the run covers {self.scored:,} of the {self.judged:,} judged queries; means are over "
                f"those {self.scored:,} (as pytrec_eval), while the official MRR and hit rate divide by all "
                f"{self.judged:,} (the missing score 0)")


def coverage(store: Store, per_query: pd.DataFrame, scheme: Scheme = V2) -> dict[str, Coverage]:
    """Per task, what ``per_query`` (one run's rows from ``evaluate``) averages over (``Coverage``).

    >>> coverage(store, evaluate(store, read_hits(bm25)))["c2t"]  # demo_v2603: 24 c2t_match label-0 queries
    Coverage(task='c2t', judged=336, scored=336, without_relevant=24)
    """
    view = qrels_view(store, scheme)
    rows = store.sql(f"SELECT task, query_id, max(relevance) AS top FROM {view} GROUP BY ALL").df()
    relevant = rows["top"] >= scheme.min_relevant
    scored_ids = set(per_query["query_id"].astype(str))
    out = {}
    for task, group in rows.assign(relevant=relevant).groupby("task"):
        scored = group[group["query_id"].isin(scored_ids)]
        out[str(task)] = Coverage(str(task), len(group), len(scored), int((~scored["relevant"]).sum()))
    return out
