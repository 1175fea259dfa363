"""Per-problem difficulty across runs: which problems are hard, for whom, and whether runs agree.

A CoREB problem (``problem_id``, the contest problem every query is written from) has queries in up to three
tasks (T2C, C2C, C2T; on release_v2603, 69 of the 95 problems have all three). Metrics are not on one scale
across tasks, so the unit here is a problem *on a task*: its mean is the mean of the metric over its queries
on that task. Each run gets its own mean (over the queries it scored); a problem's ``mean`` is the mean of
the runs' means (each run counts once), its ``spread`` the best run's mean minus the worst's, and a run's
``residual`` its mean minus the problem's: the run with the lowest residual finds the problem hardest
relative to the others (``hardest_run``; none with one run, or when every run scores it the same).
``correlations`` rank-correlates two runs' per-problem means within a task (Spearman's rho: the Pearson
correlation of average ranks, over the problems both runs scored), so a task's hard problems can be hard
for every run (rho near 1) or for some runs only. Every evaluated query counts, as in the official means: a
query without a positive (a C2T label-0 match pair) scores 0 for every run.

Verbs: ``problem_difficulty`` (everything, once per per-query frame), ``hardest_problems`` (the n hardest,
overall or for one run), ``problem_queries`` (a problem's query ids, e.g. for the query inspector; the
``problems`` frame's ``worst_query`` is the one scored lowest on average).

Example (CoREB-mini and a BM25 run ``bm25`` in ``root``, beside a run of MTEB's BM25 recipe made here):
    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import read_hits
    >>> mteb = run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id  # seconds
    >>> per_query = analyse_many(store, {"bm25": read_hits(bm25), "mteb": read_hits(mteb)}).per_query("v2")
    >>> hard = problem_difficulty(store, per_query, NDCG_10, task="t2c")
    >>> hard.problems[["problem_id", "queries", "mean", "spread", "hardest_run"]].head(2)
               problem_id  queries      mean    spread hardest_run
    0  demo_cable_network       30  0.189132  0.024011        bm25
    1   demo_pattern_hits       30  0.200797  0.019723        mteb
    >>> hard.correlations[["task", "a", "b", "problems", "spearman"]]
      task     a     b  problems  spearman
    0  t2c  bm25  mteb        24  0.652174
    >>> hard.problems["worst_query"][0]  # where the query inspector opens on the hardest problem
    'q_t2c_canonical_retro_any_0043'
    >>> problem_queries(store, "demo_cable_network", "t2c")[1:3]
    ['q_t2c_canonical_retro_cpp_0044', 'q_t2c_canonical_retro_go_0045']
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.analysis.comparison import metric_columns
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import TASK_NAMES
from coreb_core.data.store import Store
from coreb_core.errors import CorebError

KEY = ["task", "problem_id"]


class ProblemDifficulty(NamedTuple):
    """Per-problem difficulty of some runs on one metric (fractions, not points; ids, not labels).

    ``problems``: one row per task × problem, hardest first (``mean`` ascending; ties: more queries first, then
    task, problem_id; on the real release many problems score 0 for every run):
    task, problem_id, queries (its queries on the task that some run scored), runs (runs that scored one),
    mean (mean over runs of each run's mean), spread (max − min of the runs' means), hardest_run (lowest
    residual; None with one run or no spread), hardest_residual (its residual; NaN likewise), worst_query
    (the query with the lowest mean over runs; ties by id), rank (1 = hardest on its task).
    ``per_run``: one row per task × problem × run that scored it, in ``problems``' order then run order:
    task, problem_id, run, queries, mean, residual (the run's mean − the problem's mean).
    ``correlations``: one row per task × pair of runs (input order): task, a, b, problems (scored by both),
    spearman (NaN below two problems or when a run scores them all alike).
    ``unassigned``: evaluated queries dropped because the release gives them no problem.

    >>> ProblemDifficulty._fields
    ('problems', 'per_run', 'correlations', 'metric', 'task', 'runs', 'unassigned')
    """

    problems: pd.DataFrame
    per_run: pd.DataFrame
    correlations: pd.DataFrame
    metric: str  # the measure's column (``ndcg_at_10``)
    task: str | None  # None: every task (problems are still per task)
    runs: tuple[str, ...]
    unassigned: int


def _check_task(task: str | None) -> None:
    if task is not None and task not in TASK_NAMES:
        raise CorebError(f"unknown task {task!r} (tasks: {', '.join(TASK_NAMES)})")


def _metric_column(per_query: pd.DataFrame, metric: Measure) -> str:
    """The per-query column of ``metric``; refused when ``per_query`` has none."""
    metrics = metric_columns(per_query)
    if metric.column in metrics:
        return metric.column
    shown = ", ".join(metrics[:2]) + (", …" if len(metrics) > 2 else "")
    raise CorebError(f"unknown metric {str(metric)!r} ({len(metrics)} per-query metrics: {shown or 'none'})")


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho of two equal-length arrays: the Pearson correlation of their average ranks (NaN below
    two values or when either is constant), as ``scipy.stats.spearmanr``.

    >>> spearman(np.array([0.1, 0.4, 0.2, 0.9]), np.array([0.3, 0.2, 0.1, 0.8]))  # ranks 1 3 2 4 and 3 2 1 4
    0.4
    """
    if len(x) < 2:
        return float("nan")
    rx = pd.Series(x).rank(method="average").to_numpy() - (len(x) + 1) / 2
    ry = pd.Series(y).rank(method="average").to_numpy() - (len(y) + 1) / 2
    denominator = np.sqrt((rx @ rx) * (ry @ ry))
    return float(rx @ ry / denominator) if denominator > 0 else float("nan")


def problem_difficulty(store: Store, per_query: pd.DataFrame, metric: Measure = NDCG_10,
                       task: str | None = None) -> ProblemDifficulty:
    """How hard each problem is on each task for each run of ``per_query`` (``Evaluation.per_query(scheme)``:
    run, task, query_id and metric columns), with the runs' rank correlations. ``task`` keeps one task.
    Problems come from ``store.query_facts``; a query without one is counted in ``unassigned``.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.runs.folders import read_hits
    >>> per_query = analyse_many(store, {"bm25": read_hits(bm25)}).per_query("v2")  # demo_v2603
    >>> hard = problem_difficulty(store, per_query, NDCG_10)
    >>> len(hard.problems), int(hard.problems["queries"].sum()), hard.correlations.empty  # 24 problems × 3 tasks
    (72, 1200, True)
    >>> hard.metric  # the measure's column
    'ndcg_at_10'
    >>> problem_difficulty(store, per_query, Measure("ndcg", 7))
    Traceback (most recent call last):
    ...
    coreb_core.errors.CorebError: unknown metric 'nDCG@7' (42 per-query metrics: ndcg_at_1, ndcg_at_3, …)
    >>> problem_difficulty(store, per_query, task="t2t")
    Traceback (most recent call last):
    ...
    coreb_core.errors.CorebError: unknown task 't2t' (tasks: t2c, c2c, c2t)
    """
    _check_task(task)
    column = _metric_column(per_query, metric)
    missing = [c for c in ("run", "task", "query_id") if c not in per_query.columns]
    if missing:
        raise CorebError(f"a per-query frame needs run, task and query_id columns (missing: {', '.join(missing)})")
    rows = pd.DataFrame({"run": per_query["run"].astype(str).to_numpy(),
                         "task": per_query["task"].astype(str).to_numpy(),
                         "query_id": per_query["query_id"].astype(str).to_numpy(),
                         "value": per_query[column].to_numpy(dtype=np.float64, na_value=np.nan)})
    if task is not None:
        rows = rows[rows["task"].to_numpy() == task]
    runs = tuple(dict.fromkeys(rows["run"]))
    positions = store.query_ids.get_indexer(rows["query_id"])
    problem = store.query_facts["problem_id"].to_numpy(dtype=object)[np.maximum(positions, 0)]
    assigned = (positions >= 0) & pd.notna(problem)
    unassigned = int(rows.loc[~assigned, "query_id"].nunique())
    rows = rows.assign(problem_id=problem)[assigned & ~np.isnan(rows["value"].to_numpy())]
    rows["problem_id"] = rows["problem_id"].astype(str)
    per_run, problems = _means(rows, runs)
    return ProblemDifficulty(problems, per_run, _correlations(per_run, runs), column, task, runs, unassigned)


def _means(rows: pd.DataFrame, runs: tuple[str, ...]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``per_run`` and ``problems`` frames of ``rows`` (run, task, query_id, value, problem_id)."""
    run_order = {r: i for i, r in enumerate(runs)}
    per_run = (rows.groupby([*KEY, "run"], sort=False).agg(queries=("value", "size"), mean=("value", "mean"))
               .reset_index())
    per_run["order"] = per_run["run"].map(run_order).astype(np.int64)
    per_run = per_run.sort_values([*KEY, "order"], ignore_index=True)
    by_problem = per_run.groupby(KEY, sort=False)["mean"]
    per_run["residual"] = per_run["mean"] - by_problem.transform("mean")
    problems = by_problem.agg(runs="size", mean="mean", low="min", high="max").reset_index()
    problems["spread"] = problems["high"] - problems["low"]
    problems["queries"] = (rows.groupby(KEY, sort=False)["query_id"].nunique()
                           .reindex(pd.MultiIndex.from_frame(problems[KEY])).to_numpy(dtype=np.int64))
    # The lowest residual of each problem: rows are in run order within a problem, so ties go to the first run.
    lowest = per_run.loc[per_run.groupby(KEY, sort=False)["residual"].idxmin().to_numpy(), [*KEY, "run", "residual"]]
    problems = problems.merge(lowest.rename(columns={"run": "hardest_run", "residual": "hardest_residual"}), on=KEY)
    agree = (problems["runs"] < 2) | (problems["spread"] <= 0)
    problems["hardest_run"] = problems["hardest_run"].astype(object).where(~agree, None)
    problems["hardest_residual"] = problems["hardest_residual"].where(~agree, np.nan)
    per_query = rows.groupby([*KEY, "query_id"], sort=False)["value"].mean().reset_index()
    worst = per_query.sort_values([*KEY, "value", "query_id"]).drop_duplicates(KEY)
    problems = problems.merge(worst[[*KEY, "query_id"]].rename(columns={"query_id": "worst_query"}), on=KEY)
    problems = problems.sort_values(["mean", "queries", *KEY], ascending=[True, False, True, True], ignore_index=True)
    problems["rank"] = problems.groupby("task", sort=False).cumcount().astype(np.int64) + 1
    problems = problems[[*KEY, "queries", "runs", "mean", "spread", "hardest_run", "hardest_residual",
                         "worst_query", "rank"]]
    order = pd.MultiIndex.from_frame(problems[KEY]).get_indexer(pd.MultiIndex.from_frame(per_run[KEY]))
    per_run = per_run.assign(at=order).sort_values(["at", "order"], ignore_index=True)
    return per_run[[*KEY, "run", "queries", "mean", "residual"]], problems


def _correlations(per_run: pd.DataFrame, runs: tuple[str, ...]) -> pd.DataFrame:
    """Spearman's rho of every pair of runs' per-problem means, per task, over the problems both scored."""
    out = []
    wide = per_run.pivot(index=KEY, columns="run", values="mean")
    tasks = wide.index.get_level_values("task")
    for task in [t for t in (*TASK_NAMES, *sorted(set(tasks) - set(TASK_NAMES))) if t in set(tasks)]:
        part = wide[tasks == task]
        for i, a in enumerate(runs):
            for b in runs[i + 1:]:
                both = part[[a, b]].dropna() if a in part and b in part else part.iloc[:0, :0]
                x = both[a].to_numpy() if len(both) else np.zeros(0)
                y = both[b].to_numpy() if len(both) else np.zeros(0)
                out.append((task, a, b, len(both), spearman(x, y)))
    frame = pd.DataFrame(out, columns=["task", "a", "b", "problems", "spearman"])
    return frame.astype({"problems": np.int64, "spearman": np.float64})


def hardest_problems(difficulty: ProblemDifficulty, run: str | None = None, n: int = 10) -> pd.DataFrame:
    """The ``n`` hardest task × problem rows: ``problems``' first rows (mean over runs), or, for one ``run``,
    its ``per_run`` rows by its own mean, with the problem's mean over runs (``problem_mean``, which breaks
    ties: hard for every run first; then more queries, task, problem_id) and ``rank``.

    >>> rows = [("A", "t2c", "q1", 0.0), ("A", "t2c", "q2", 0.5), ("B", "t2c", "q1", 1.0), ("B", "t2c", "q2", 0.1)]
    >>> per_query = pd.DataFrame(rows, columns=["run", "task", "query_id", "ndcg_at_10"])
    >>> facts = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2"], "problem_id": ["p1", "p2"]})
    >>> class Facts:  # a stand-in for a Store: the query facts are all it reads
    ...     query_facts, query_ids = facts, pd.Index(facts["query_id"])
    >>> hard = problem_difficulty(Facts(), per_query)
    >>> hardest_problems(hard, n=1)[["problem_id", "mean", "hardest_run", "hardest_residual"]]
      problem_id  mean hardest_run  hardest_residual
    0         p2   0.3           B              -0.2
    >>> hardest_problems(hard, "A")[["problem_id", "mean", "residual", "problem_mean", "rank"]]
      problem_id  mean  residual  problem_mean  rank
    0         p1   0.0      -0.5           0.5     2
    1         p2   0.5       0.2           0.3     1
    """
    if run is None:
        return difficulty.problems.head(n).reset_index(drop=True)
    if run not in difficulty.runs:
        raise CorebError(f"run {run!r} is not in this difficulty table (runs: {', '.join(difficulty.runs) or 'none'})")
    problems = difficulty.problems[[*KEY, "mean", "rank"]].rename(columns={"mean": "problem_mean"})
    rows = difficulty.per_run[difficulty.per_run["run"] == run].merge(problems, on=KEY, how="left")
    rows = rows.sort_values(["mean", "problem_mean", "queries", *KEY], ascending=[True, True, False, True, True])
    return rows.head(n).reset_index(drop=True)


def problem_queries(store: Store, problem_id: str, task: str | None = None) -> list[str]:
    """The query ids of a problem (on one task, or all), in the release's order (task, then id).

    >>> problem_queries(store, "demo_cable_network", "c2c")[:2]  # demo_v2603
    ['q_c2c_cross_lang_0053', 'q_c2c_cross_lang_0054']
    >>> problem_queries(store, "lcb_nope")
    Traceback (most recent call last):
    ...
    coreb_core.errors.CorebError: problem 'lcb_nope' has no queries in this release
    """
    _check_task(task)
    facts = store.query_facts
    mine = (facts["problem_id"] == problem_id).to_numpy(dtype=bool, na_value=False)
    if not mine.any():
        raise CorebError(f"problem {problem_id!r} has no queries in this release")
    if task is not None:
        mine = mine & (facts["task"] == task).to_numpy(dtype=bool)
    return [str(q) for q in facts.loc[mine, "query_id"]]
