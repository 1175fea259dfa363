"""Qrel deflation: how much CoREB's retired binary v1 qrels overstate a run against the official v2.

v1 is rebuilt from the v2 release by its own rules (scheme ``v1``, see ``coreb_core.evaluation.schemes``):
T2C counts every solution of the problem in the query's language constraint, failing ones too;
C2C's v1 positives are exactly the v2 positives; C2T's v1 text corpus had no noise descriptions,
so they leave the ranked list. That T2C rule is the paper's sentence; the official generator's code reads
it as passing solutions only for canonical and full retro (scheme ``v1_gen``, the other ``reading``; on
release_v2603 its T2C relevant pairs are exactly the v2 positives, so its T2C drop is 0 by rule).
Where a release also stores real v1 qrel files (``file:v1``), they
are compared with v2 on the queries both have. The seed article's "nDCG@10 fell 10-15 points from
v1 to v2 for nearly every model" is this quantity measured on the real release.

Everything here reads the per-query tables of ``coreb_core.evaluation.evaluate.analyse_many``; no metric is
recomputed, only averaged over the queries both schemes score.

Example (CoREB-mini and a BM25 run in ``root``):
    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V1, V2, Scheme
    >>> from coreb_core.runs.folders import read_hits
    >>> tables = analyse_many(store, {"bm25": read_hits(bm25)}, (V2, V1, Scheme.parse("file:v1")), traps=True)
    >>> deflation_table(store, tables, "task")[["task", "v1_source", "queries", "v1", "v2"]]
      task                               v1_source  queries        v1        v2
    0  c2c  v1 rules (rebuilt from the v2 release)      144  0.463078  0.463078
    1  c2c               v1 (stored v1 qrel files)      144  0.463078  0.463078
    2  c2t  v1 rules (rebuilt from the v2 release)      336  0.533067  0.385968
    3  c2t               v1 (stored v1 qrel files)      312  0.574072  0.415658
    4  t2c  v1 rules (rebuilt from the v2 release)      720  0.310204  0.299759
    5  t2c               v1 (stored v1 qrel files)      720  0.310204  0.299759
    >>> top_drop_queries(tables.traps, "t2c", per_run=2)[["query_id", "v1_minus_v2_ndcg_at_10", "share_of_drop"]]
                             query_id  v1_minus_v2_ndcg_at_10  share_of_drop
    0       q_t2c_full_retro_cpp_0230                0.378508       0.050327
    1  q_t2c_canonical_retro_cpp_0002                0.224148       0.029803
"""
from __future__ import annotations

from typing import Literal, Mapping, NamedTuple

import numpy as np
import pandas as pd

from coreb_core.data.measures import NDCG_10
from coreb_core.data.schema import TASK_NAMES
from coreb_core.data.store import Store, with_query_facts
from coreb_core.evaluation.evaluate import Evaluation, aggregate
from coreb_core.evaluation.schemes import DESCRIPTIONS

METRIC = NDCG_10.column  # the one measure the deflation reads, as its tables' column
COMPUTED = "v1 rules (rebuilt from the v2 release)"
GENERATOR = "v1 rules, generator's reading (rebuilt from the v2 release)"
FILE = "v1 (stored v1 qrel files)"
# The two readings of the v1 rules (docs/semantics.md): the paper's (T2C every solution) and the official
# generator code's (T2C canonical and full retro: passing solutions only). One of them is compared at a time.
READINGS = {"v1": COMPUTED, "v1_gen": GENERATOR}
Reading = Literal["v1", "v1_gen"]  # READINGS' keys as a type
By = Literal["task", "subtask"]


class Deflation(NamedTuple):
    """One run on one task: nDCG@10 under the v1 rules and under v2, on the same queries.

    >>> d = Deflation("bm25", "t2c", v1=0.41, v2=0.30, queries=720)
    >>> round(d.overstatement, 2)
    0.11
    """

    run: str
    task: str
    v1: float
    v2: float
    queries: int
    # ``ALL_TASKS`` findings: how the tasks were averaged ("tasks": mean of task means, "queries": query-weighted)
    average: str | None = None

    @property
    def overstatement(self) -> float:
        """v1 - v2 (a fraction; x100 for points)."""
        return self.v1 - self.v2


def scheme_definitions() -> pd.DataFrame:
    """The schemes this page compares, in plain language (from ``coreb_core.evaluation.schemes.DESCRIPTIONS``).

    >>> scheme_definitions()["scheme"].tolist()
    ['v2', 'v1', 'v1_gen', 'file:v1']
    """
    return pd.DataFrame({"scheme": ["v2", "v1", "v1_gen", "file:v1"],
                         "definition": [DESCRIPTIONS["v2"], DESCRIPTIONS["v1"], DESCRIPTIONS["v1_gen"],
                                        DESCRIPTIONS["file"]]})


def deflation_table(store: Store, tables: Evaluation, by: By = "task", task: str | None = None,
                    labels: Mapping[str, str] | None = None, reading: Reading = "v1") -> pd.DataFrame:
    """v1 against v2 nDCG@10 per run and task (``by="task"``) or per task and ``by`` group.

    One row per run, task, (group) and v1 source: the rebuilt v1 rules in ``reading`` (``"v1"``, the paper's:
    ``COMPUTED``; ``"v1_gen"``, the generator code's: ``GENERATOR``; per-query table ``tables.per_query(reading)``)
    and, when ``tables`` evaluated ``"file:v1"``, ``FILE`` (the release's stored v1
    qrels). Both are averaged over the queries that v1 source and v2 both score (``queries``);
    ``queries_v2`` is every query v2 scores in the group. drop = v1 - v2, relative_drop = drop / v1
    (NaN when v1 is 0). ``task`` keeps one task.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V1, V2
    >>> from coreb_core.runs.folders import read_hits
    >>> tables = analyse_many(store, {"bm25": read_hits(bm25)}, (V2, V1))  # demo_v2603
    >>> t = deflation_table(store, tables, "task")
    >>> t.loc[t.v1_source == COMPUTED, ["run", "task", "v1", "v2", "drop"]]  # drop = v1 - v2
        run task        v1        v2      drop
    0  bm25  c2c  0.463078  0.463078  0.000000
    1  bm25  c2t  0.533067  0.385968  0.147099
    2  bm25  t2c  0.310204  0.299759  0.010446
    """
    if not tables.has("v2"):
        raise KeyError("tables lack 'v2': call analyse_many with scheme v2")
    if reading not in READINGS:
        raise ValueError(f"unknown v1 reading {reading!r}; use {' or '.join(READINGS)}")
    keys = ["run", "task"] + ([by] if by != "task" else [])
    v2 = _plain(tables.per_query("v2"), METRIC)
    totals = aggregate(store, v2, by).rename(columns={"queries": "queries_v2"})[keys + ["queries_v2"]]
    parts = []
    for scheme, source in ((reading, READINGS[reading]), ("file:v1", FILE)):
        if not tables.has(scheme):
            continue
        v1 = _plain(tables.per_query(scheme), METRIC).rename(columns={METRIC: "v1"}).drop(columns="task")
        both = v2.rename(columns={METRIC: "v2"}).merge(v1, on=["run", "query_id"], how="inner")
        means = aggregate(store, both, by)
        means.insert(len(keys), "v1_source", source)
        parts.append(means.merge(totals, on=keys, how="left"))
    columns = keys + ["v1_source", "queries", "queries_v2", "v1", "v2"]
    out = pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)
    if task is not None:
        out = out[out["task"] == task]
    out["drop"] = out["v1"] - out["v2"]
    out["relative_drop"] = np.where(out["v1"] > 0, out["drop"] / out["v1"].where(out["v1"] > 0, 1.0), np.nan)
    out["v1_source"] = pd.Categorical(out["v1_source"], [COMPUTED, GENERATOR, FILE])
    out = out.sort_values(keys[1:] + ["run", "v1_source"], kind="stable").reset_index(drop=True)
    out["v1_source"] = out["v1_source"].astype(str)
    out["queries"] = out["queries"].astype(int)
    if labels is not None:
        out.insert(1, "label", out["run"].map(lambda r: labels.get(r, r)))
    return out


def _with_v1(traps: pd.DataFrame, v1: pd.DataFrame) -> pd.DataFrame:
    """``traps`` with its v1 nDCG@10 (and v1 - v2) taken from the per-query table ``v1``; a query ``v1`` lacks
    gets NaN (then never among the top drops)."""
    value = _plain(v1, METRIC).set_index(["run", "query_id"])[METRIC]
    keys = pd.MultiIndex.from_arrays([traps["run"].astype(str), traps["query_id"].astype(str)])
    out = traps.copy()
    out["ndcg_at_10_v1"] = value.reindex(keys).to_numpy()
    out["v1_minus_v2_ndcg_at_10"] = out["ndcg_at_10_v1"] - out["ndcg_at_10"]
    return out


def _plain(per_query: pd.DataFrame, column: str) -> pd.DataFrame:
    """run, task, query_id (as strings) and one metric column of a per-query table."""
    return pd.DataFrame({"run": per_query["run"].astype(str), "task": per_query["task"].astype(str),
                         "query_id": per_query["query_id"].astype(str), column: per_query[column].to_numpy()})


def headline(deflation: pd.DataFrame) -> list[Deflation]:
    """The page's answer, from a per-task ``deflation_table``: the rebuilt v1 rules (either reading) against v2
    per run and task.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V1, V2
    >>> from coreb_core.runs.folders import read_hits
    >>> tables = analyse_many(store, {"bm25": read_hits(bm25)}, (V2, V1))  # demo_v2603
    >>> [(d.task, round(d.overstatement, 3)) for d in headline(deflation_table(store, tables))]
    [('t2c', 0.01), ('c2c', 0.0), ('c2t', 0.147)]
    """
    rows = deflation[deflation["v1_source"] != FILE]
    found = [Deflation(str(r.run), str(r.task), float(r.v1), float(r.v2), int(r.queries)) for r in rows.itertuples()]
    order = {task: i for i, task in enumerate(TASK_NAMES)}  # T2C, C2C, C2T as the paper lists them
    return sorted(found, key=lambda d: order.get(d.task, len(order)))


ALL_TASKS = "all tasks"  # the task of an ``overall`` finding


def overall(deflation: pd.DataFrame, average: str = "tasks") -> list[Deflation]:
    """Per run, the rebuilt v1 rules against v2 over every task: by default the mean of the task means (each task
    weighs the same, as Model selection, ``select``, ``tiers`` and the report rank), or with ``average="queries"``
    query-weighted, each query weighing the same (paper Table 3's Overall; the README's "12.7 points overall" for BM25
    on release_v2603).

    >>> t = pd.DataFrame({"run": ["bm25", "bm25"], "task": ["t2c", "c2t"], "v1_source": [COMPUTED] * 2,
    ...                   "v1": [0.5, 0.3], "v2": [0.4, 0.3], "queries": [300, 100]})
    >>> [(d.run, d.task, round(d.v1, 3), round(d.overstatement, 3), d.queries) for d in overall(t)]
    [('bm25', 'all tasks', 0.4, 0.05, 400)]
    >>> [(round(d.v1, 3), round(d.overstatement, 3), d.average) for d in overall(t, "queries")]
    [(0.45, 0.075, 'queries')]
    """
    if average not in ("tasks", "queries"):
        raise ValueError(f"unknown average {average!r}: tasks or queries")
    rows = deflation[deflation["v1_source"] != FILE]
    found = []
    for run, group in rows.groupby("run", sort=False):
        queries = group["queries"].to_numpy(dtype=float)
        if queries.sum() == 0:
            continue
        weight = queries if average == "queries" else (queries > 0).astype(float)
        found.append(Deflation(str(run), ALL_TASKS, float(np.average(group["v1"], weights=weight)),
                               float(np.average(group["v2"], weights=weight)), int(queries.sum()), average))
    return found


class OrderFlip(NamedTuple):
    """Two runs whose order under one view (``a`` above ``b``) is the reverse of their order under another: the
    scores of each under both (fractions)."""

    a: str
    b: str
    a_one: float  # under the first view (a above b)
    b_one: float
    a_other: float  # under the other view (b above a)
    b_other: float


def order_flips(one: Mapping[str, float], other: Mapping[str, float]) -> list[OrderFlip]:
    """The pairs ordered one way by ``one`` and the other way by ``other``; a pair tied when shown (x100, one
    decimal) under either is no flip."""
    runs = [r for r in one if r in other]
    out = []
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            d1 = round(one[a] * 100, 1) - round(one[b] * 100, 1)
            d2 = round(other[a] * 100, 1) - round(other[b] * 100, 1)
            if d1 * d2 < 0:
                x, y = (a, b) if d1 > 0 else (b, a)
                out.append(OrderFlip(x, y, one[x], one[y], other[x], other[y]))
    return out


def average_flips(deflation: pd.DataFrame) -> list[OrderFlip]:
    """The runs whose v2 overall order under the mean of task means is the reverse of their query-weighted order.

    >>> t = pd.DataFrame({"run": ["A", "A", "B", "B"], "task": ["t2c", "c2t"] * 2, "v1_source": [COMPUTED] * 4,
    ...                   "v1": [0.5, 0.3, 0.4, 0.4], "v2": [0.5, 0.1, 0.2, 0.35], "queries": [100, 300] * 2})
    >>> [(f.a, f.b, round(f.a_one, 3), round(f.b_one, 3), round(f.a_other, 3), round(f.b_other, 3))
    ...  for f in average_flips(t)]
    [('A', 'B', 0.3, 0.275, 0.2, 0.312)]
    """
    tasks = {d.run: d.v2 for d in overall(deflation, "tasks")}
    queries = {d.run: d.v2 for d in overall(deflation, "queries")}
    return order_flips(tasks, queries)


def scheme_flips(deflation: pd.DataFrame, task: str) -> list[OrderFlip]:
    """The runs whose order on ``task`` under v2 is the reverse of their order under the rebuilt v1 rules.

    >>> t = pd.DataFrame({"run": ["A", "B"], "task": ["t2c"] * 2, "v1_source": [COMPUTED] * 2,
    ...                   "v1": [0.30, 0.35], "v2": [0.25, 0.21], "queries": [100] * 2})
    >>> [(f.a, f.b) for f in scheme_flips(t, "t2c")]
    [('A', 'B')]
    """
    rows = deflation[(deflation["v1_source"] != FILE) & (deflation["task"] == task)]
    return order_flips(dict(zip(rows["run"].astype(str), rows["v2"])), dict(zip(rows["run"].astype(str), rows["v1"])))


def slope_data(deflation: pd.DataFrame) -> pd.DataFrame:
    """Long form of a per-task ``deflation_table`` for a slope chart: one line per run, task and
    v1 source, from its v1 point (``scheme`` "v1") to its v2 point (``scheme`` "v2"), both on the
    queries that v1 source and v2 share.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V1, V2
    >>> from coreb_core.runs.folders import read_hits
    >>> tables = analyse_many(store, {"bm25": read_hits(bm25)}, (V2, V1))  # demo_v2603
    >>> slope_data(deflation_table(store, tables))[["run", "task", "scheme", "ndcg_at_10"]].tail(2)
        run task scheme  ndcg_at_10
    4  bm25  t2c     v1    0.310204
    5  bm25  t2c     v2    0.299759
    """
    keep = [c for c in ("run", "label", "task", "v1_source") if c in deflation]
    v1 = deflation[keep + ["v1", "queries"]].rename(columns={"v1": METRIC})
    v1.insert(len(keep), "scheme", "v1")
    v2 = deflation[keep + ["v2", "queries"]].rename(columns={"v2": METRIC})
    v2.insert(len(keep), "scheme", "v2")
    out = pd.concat([v1, v2], ignore_index=True)
    out["line"] = out["run"].astype(str) + " · " + out["task"].astype(str) + " · " + out["v1_source"]
    source_order = {COMPUTED: 0, GENERATOR: 0, FILE: 1}
    return out.sort_values(["task", "run", "v1_source", "scheme"], kind="stable",
                           key=lambda c: c.map(source_order) if c.name == "v1_source" else c).reset_index(drop=True)


def top_drop_queries(traps: pd.DataFrame, task: str, per_run: int = 10, store: Store | None = None,
                     labels: Mapping[str, str] | None = None, v1: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per run, the ``per_run`` queries of ``task`` with the largest v1 - v2 nDCG@10.

    v1 is the trap table's (scheme ``v1``, the paper's reading) unless ``v1`` gives another reading's per-query
    table (``Evaluation.per_query("v1_gen")``), whose nDCG@10 then replaces it query by query.

    Each query adds ``v1_minus_v2_ndcg_at_10 / queries`` to its run's mean drop on the task
    (``contribution``); ``share_of_drop`` is that query's part of the run's total drop (sum over
    the task's queries) and ``cumulative_share`` the running total in this order. With a ``store``
    the query's subtask and text are added. Queries whose v1 is not above v2 are left out.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import read_hits
    >>> hits = read_hits(bm25)
    >>> tables = analyse_many(store, {"bm25": hits, "no_top1": hits[hits["rank"] != 1]}, (V2,), traps=True)
    >>> top_drop_queries(tables.traps, "t2c", per_run=1)[["run", "query_id", "v1_minus_v2_ndcg_at_10"]]
           run                       query_id  v1_minus_v2_ndcg_at_10
    0     bm25      q_t2c_full_retro_cpp_0230                0.378508
    1  no_top1  q_t2c_canonical_retro_go_0129                0.296082
    >>> top_drop_queries(tables.traps, "t2c", per_run=1, store=store)[["run", "subtask", "share_of_drop"]]
           run                 subtask  share_of_drop
    0     bm25      t2c_full_retro_cpp       0.050327
    1  no_top1  t2c_canonical_retro_go       0.034025

    (demo_v2603, ``hits`` a BM25 run; ``no_top1`` is that run without its rank-1 hits.)
    """
    rows = traps[traps["task"] == task]
    diff = "v1_minus_v2_ndcg_at_10"
    if v1 is not None:
        rows = _with_v1(rows, v1)
    cols = ["run", "query_id", "ndcg_at_10_v1", "ndcg_at_10", diff, "traps_above_first_positive",
            "traps_in_top_10", "first_positive_rank", "first_trap_rank"]
    parts = []
    for run, group in rows.groupby("run", observed=True, sort=False):
        n = len(group)
        total = float(group[diff].sum())
        top = group[group[diff] > 0].sort_values([diff, "query_id"], ascending=[False, True], kind="stable")
        top = top.head(per_run)[cols].copy()
        top["run"] = str(run)
        top["rank_in_run"] = np.arange(1, len(top) + 1)
        top["contribution"] = top[diff] / n
        top["share_of_drop"] = top[diff] / total if total > 0 else np.nan
        top["cumulative_share"] = top["share_of_drop"].cumsum()
        top["queries_in_task"] = n
        parts.append(top)
    out = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=cols + ["rank_in_run", "contribution", "share_of_drop", "cumulative_share", "queries_in_task"])
    out["query_id"] = out["query_id"].astype(str)
    out = out.rename(columns={"ndcg_at_10_v1": "v1_ndcg_at_10", "ndcg_at_10": "v2_ndcg_at_10"})
    out.insert(1, "task", task)
    if store is not None and len(out):
        out = with_query_facts(store, out, ("subtask", "query"))
    if labels is not None:
        out.insert(1, "label", out["run"].map(lambda r: labels.get(r, r)))
    return out.reset_index(drop=True)
