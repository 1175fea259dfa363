"""Model selection for stakeholders: pick tasks, languages and a parameter budget; get a ranked,
evidenced recommendation of our runs (and of published models where the filter can be applied).

A query's *language* for selection is the language it is about: the T2C language constraint
("any" when unconstrained), and for C2C and C2T the language of the query code (anchor language).
The score is the mean nDCG@10 over the selected queries, either the plain mean of the per-task
means (``average="tasks"``, the paper's convention) or query-weighted (``average="queries"``); the
95% interval is ``coreb_core.evaluation.significance.intervals`` (percentile bootstrap over queries) of per-query
values weighted so that their plain mean equals that score.

Example (CoREB-mini and a BM25 run ``bm25`` in ``root``, and a run of MTEB's BM25 recipe made here):
    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import read_hits, run_meta
    >>> mteb = run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id  # seconds
    >>> metas = {r: run_meta(r) for r in (bm25, mteb)}
    >>> tables = analyse_many(store, {r: read_hits(r) for r in metas}, (V2,), traps=True)
    >>> rec = recommend(store, tables.per_query("v2"), tables.traps, metas, tasks=("t2c",), languages=("python",),
    ...                 budget_b=1.0)
    >>> rec.ranked[["rank", "model", "mean", "ci_low", "ci_high", "trap_share", "params_b"]].round(4)
       rank                    model    mean  ci_low  ci_high  trap_share  params_b
    0     1        bm25 · demo_v2603  0.2514  0.2168   0.2859      0.4583       0.0
    1     2  bm25s-mteb · demo_v2603  0.2194  0.1838   0.2546      0.5083       0.0
    >>> lead = rec.lead  # the first run against the second: ahead, but not significantly
    >>> lead.a == bm25, lead.shared, round(lead.delta, 4), round(lead.p_holm, 3), lead.significant
    (True, 120, 0.032, 0.058, False)

Scores, interval bounds and trap shares are fractions (0..1); ``coreb_core.present.selection`` prints them
x100 and words the recommendation for the page, the report and the CLI alike.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable, Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd

from coreb_core.analysis.comparison import SIGNIFICANCE_LEVEL, PairVerdict
from coreb_core.analysis.leaderboard import canonical_model, run_params, score
from coreb_core.analysis.tiers import Average, Tiers, rank_tiers
from coreb_core.analysis.traps.breakdown import share_lost
from coreb_core.data.measures import NDCG_10, SELECTION_METRICS, Measure
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.data.store import Store
from coreb_core.errors import CorebError, check_budget, check_choice, check_cost_limit
from coreb_core.evaluation.evaluate import Evaluation, analyse_many
from coreb_core.evaluation.schemes import V1, V2, Scheme
from coreb_core.evaluation.significance import (
    DEFAULT_PERMUTATIONS,
    HOLM,
    adaptive_limit,
    bootstrap_ci,
    compare_pairs,
    holm,
    intervals,
)
from coreb_core.evaluation.stored_joins import StoredRun
from coreb_core.results.published import parameter_counts
from coreb_core.runs.cost import LEXICAL, RunCost, rate_text
from coreb_core.runs.folders import list_runs, run_meta
from coreb_core.runs.meta import RunMeta, run_name

RANKED_COLUMNS = ["rank", "model", "run", "params_b", "queries", "mean", "ci_low", "ci_high",
                  "trap_share", *TASK_NAMES, "texts_per_s", "ms_per_text", "ms_per_query", "peak_memory_gb",
                  "speed_basis", "load", "busy", "evidence", "tier", "rank_low", "rank_high"]
PUBLISHED_COLUMNS = ["rank", "model", "params_b", "mean", *TASK_NAMES, "figures", "evidence"]
EXCLUDED_COLUMNS = ["model", "run", "params_b", "reason"]
# A run's measured cost (None: not measured): the ranked speed (``RunCost.speed_ms``: CPU time where recorded on
# the CPU, so a busy machine does not change it) as texts per second and ms per text for an encoder, ms per query for
# a lexical run (index and search: not on the encoding axis), its basis ("cpu" / "wall"), the load it was measured
# at and whether that load was above the core count.
COST_COLUMNS = ("texts_per_s", "ms_per_text", "ms_per_query", "peak_memory_gb", "speed_basis", "load", "busy")
PUBLISHED_ONLY = "published figures only"
TABLE3 = "published:paper_table3_v202603_retrieval"
# The paper's per-task table of each published version: Table 3 (the test release), Table 14 (v202602).
TASK_TABLES = {"v202603": (TABLE3, "paper Table 3"),
               "v202602": ("published:paper_table14_v202602_retrieval", "paper Table 14")}
TABLE15 = "published:paper_table15_v202603_c2c_by_anchor_language_ndcg10"

# Average, how several tasks make one score (AVERAGES): analysis.tiers' vocabulary, which ranks runs the same way.


# Why a run is left out of the ranking (``LeftOut.why``); coreb_core.present.selection words each one.
NO_QUERIES, MISSING_TASKS, PARAMS_UNKNOWN, OVER_BUDGET = "no_queries", "missing_tasks", "params_unknown", "over_budget"
# Cost budgets: a run over the speed or memory limit, or one whose cost was not measured while such a limit is set
# (older, imported and reranked runs; for the speed limit also a run whose vectors all came from the cache). An
# unmeasured run is left out and said so, as a run of unknown size is under a parameter limit: a budget is a promise.
SPEED_UNMEASURED, OVER_SPEED = "speed_unmeasured", "over_speed"
MEMORY_UNMEASURED, OVER_MEMORY = "memory_unmeasured", "over_memory"
LEFT_OUT_REASONS = (NO_QUERIES, MISSING_TASKS, PARAMS_UNKNOWN, OVER_BUDGET, SPEED_UNMEASURED, OVER_SPEED,
                    MEMORY_UNMEASURED, OVER_MEMORY)


class LeftOut(NamedTuple):
    """One run left out of the ranking: ``why`` is one of ``LEFT_OUT_REASONS``; ``tasks`` the chosen tasks it
    has no evaluated query in (``missing_tasks``: its mean would be over other tasks than the others' means).

    >>> LeftOut("r1", "bm25 · demo_v2603", 0.0, MISSING_TASKS, ("t2c", "c2t")).reason()
    'no evaluated queries in T2C, C2T'
    """

    run: str
    model: str
    params_b: float | None
    why: str
    tasks: tuple[str, ...] = ()
    budget_b: float | None = None  # the limit exceeded (``over_budget``)
    measured: float | None = None  # ``over_speed``: the run's ms per text; ``over_memory``: its peak GB
    limit: float | None = None  # the cost limit exceeded (``over_speed``, ``over_memory``)
    cached: bool = False  # ``*_unmeasured``: the run's vectors all came from the embedding cache (no model loaded)

    def reason(self) -> str:
        """The short reason of the ``excluded`` table (its ``reason`` column).

        >>> LeftOut("r1", "minilm", 0.0227, OVER_SPEED, measured=4.2, limit=1.0).reason()
        '4.2 ms per text exceed the 1 ms limit'
        >>> LeftOut("r1", "minilm", 0.0227, SPEED_UNMEASURED, cached=True).reason()
        'speed not measured (vectors from the embedding cache)'
        """
        if self.why == OVER_SPEED:
            return f"{rate_text(self.measured)} ms per text exceed the {self.limit:g} ms limit"
        if self.why == OVER_MEMORY:
            return f"{rate_text(self.measured)} GB peak memory exceeds the {self.limit:g} GB limit"
        if self.why == SPEED_UNMEASURED:
            return "speed not measured" + (" (vectors from the embedding cache)" if self.cached else "")
        if self.why == MEMORY_UNMEASURED:
            return "peak memory not measured" + (" (vectors from the embedding cache: no model loaded)"
                                                 if self.cached else "")
        if self.why == MISSING_TASKS:
            return f"no evaluated queries in {', '.join(t.upper() for t in self.tasks)}"
        if self.why == PARAMS_UNKNOWN:
            return "parameter count unknown"
        if self.why == OVER_BUDGET:
            return f"{parameter_text(self.params_b)} parameters exceed the {parameter_text(self.budget_b)} budget"
        return "no evaluated queries in the chosen tasks and languages"


class Recommendation(NamedTuple):
    """What ``recommend`` returns: the ranked runs, those left out, and the slice that was asked for.

    >>> Recommendation._fields[6:]
    ('lead', 'metric', 'standings', 'left_out', 'tiers', 'max_ms_per_text', 'max_memory_gb', 'n_permutations',
     'other_means')
    """

    ranked: pd.DataFrame  # our runs within budget, best first (scores as fractions)
    excluded: pd.DataFrame  # our runs left out, with the reason
    tasks: tuple[str, ...]
    languages: tuple[str, ...]
    budget_b: float | None
    average: Average
    # The first-ranked run against the second on the queries both scored (paired randomization test,
    # Holm-corrected across the first run's comparisons with every other ranked run); None with < 2 runs.
    lead: PairVerdict | None = None
    metric: str = NDCG_10.column  # the column of the measure ranked on (``mean`` and the per-task columns)
    standings: tuple["Standing", ...] = ()  # every ranked run against the first, in rank order
    left_out: tuple[LeftOut, ...] = ()  # the runs of ``excluded``, with their typed reasons
    # The ranked runs in rank tiers (``analysis.tiers``: every pair tested, Holm over all pairs) on the chosen
    # slices; None with fewer than two ranked runs.
    tiers: Tiers | None = None
    max_ms_per_text: float | None = None  # the speed limit (None: none), see ``RunCost.ms_per_text``
    max_memory_gb: float | None = None  # the peak memory limit (None: none), see ``RunCost.peak_memory_gb``
    n_permutations: int = DEFAULT_PERMUTATIONS  # base sign flips of each paired test (adaptive: ``adaptive_limit``)
    # Each ranked run's mean under the other average (query-weighted when ``average`` is "tasks", else the mean of task
    # means), on the same queries: where the two order runs differently, the verdict's words say so
    other_means: Mapping[str, float] | None = None


def parameter_text(params_b: float | None) -> str:
    """A parameter count (billions) in words: millions below one billion, "not reported" when unknown.

    >>> parameter_text(0.0227), parameter_text(0.5), parameter_text(7.0), parameter_text(1.5), parameter_text(None)
    ('22.7 M', '500 M', '7 B', '1.5 B', 'not reported')
    >>> parameter_text(0.0)   # BM25: a lexical model learns none
    'none (lexical)'
    """
    if params_b is None or pd.isna(params_b):
        return "not reported"
    if params_b == 0:
        return "none (lexical)"
    return f"{params_b * 1000:.3g} M" if params_b < 1 else f"{params_b:.3g} B"


def cost_left_out(run: str, model: str, params: float | None, cost: RunCost | None,
                  max_ms_per_text: float | None, max_memory_gb: float | None) -> LeftOut | None:
    """Why a run falls outside the cost budgets (None: it is within them, or no cost limit is set).

    >>> fast = RunCost("encode", "cpu", "float32", texts=1000, seconds=2.0, peak_rss_gb=1.5)
    >>> cost_left_out("r1", "minilm", 0.02, fast, 1.0, None).reason()
    '2 ms per text exceed the 1 ms limit'
    >>> cost_left_out("r1", "minilm", 0.02, fast, 5.0, 2.0) is None
    True
    >>> cost_left_out("r2", "old run", 0.02, None, None, 2.0).reason()
    'peak memory not measured'

    The speed limit is on ``speed_ms`` (CPU-ms per text where recorded, wall ms before), and on encoders only: a
    lexical run encodes nothing (its figure is per query, index and search), so an encoding limit does not apply.

    >>> busy = RunCost("encode", "cpu", "float32", texts=1000, seconds=9.0, cpu_s=2.0, cpus=2, load_start=8.0)
    >>> cost_left_out("r1", "minilm", 0.02, busy, 3.0, None) is None   # 9 ms wall at load 8, 2 CPU-ms: within 3
    True
    >>> cost_left_out("r3", "bm25", 0.0, RunCost("lexical", "cpu", "none", 9, 9.0, queries=3), 1.0, None) is None
    True
    """
    lexical = cost is not None and cost.kind == LEXICAL
    for limit, measured, unmeasured, over in (
            (None if lexical else max_ms_per_text, cost.speed_ms if cost else None, SPEED_UNMEASURED, OVER_SPEED),
            (max_memory_gb, cost.peak_memory_gb if cost else None, MEMORY_UNMEASURED, OVER_MEMORY)):
        if limit is None:
            continue
        if measured is None:
            return LeftOut(run, model, params, unmeasured, cached=bool(cost and cost.cached))
        if measured > limit:
            return LeftOut(run, model, params, over, measured=measured, limit=limit)
    return None


def cost_columns(cost: RunCost | None) -> dict[str, float | str | bool | None]:
    """A run's cost as the ranked table's columns (None where not measured).

    >>> cost_columns(RunCost("lexical", "cpu", "none", texts=500, seconds=0.25, queries=100, peak_rss_gb=0.7))
    {'texts_per_s': None, 'ms_per_text': None, 'ms_per_query': 2.5, 'peak_memory_gb': 0.7, 'speed_basis': 'wall', 'load': None, 'busy': False}
    >>> cost_columns(RunCost("encode", "cpu", "fp32", 1000, 9.0, cpu_s=2.0, cpus=2, load_end=8.0))["texts_per_s"]
    500.0
    """
    if cost is None:
        return dict.fromkeys(COST_COLUMNS)
    ms, lexical = cost.speed_ms, cost.kind == LEXICAL
    return {"texts_per_s": None if lexical or not ms else 1000.0 / ms, "ms_per_text": None if lexical else ms,
            "ms_per_query": ms if lexical else None, "peak_memory_gb": cost.peak_memory_gb,
            "speed_basis": cost.speed_basis if ms else None, "load": cost.load, "busy": cost.busy}


def query_languages(store: Store) -> pd.DataFrame:
    """Per query of the release: task and selection language (see module docstring).

    >>> query_languages(store).head(2)  # demo_v2603
                    query_id task language
    0  q_c2c_cross_lang_0025  c2c     ruby
    1  q_c2c_cross_lang_0026  c2c   python
    """
    q = store.query_facts
    lang = np.where(q["task"] == "t2c", q["target_language"].fillna("any"), q["anchor_language"].fillna("any"))
    return pd.DataFrame({"query_id": q["query_id"].astype(str), "task": q["task"].astype(str), "language": lang})


def selected_queries(store: Store, tasks: Iterable[str], languages: Iterable[str]) -> set[str]:
    """Ids of the release's queries in the chosen tasks and languages.

    >>> len(selected_queries(store, ["t2c"], LANGUAGE_SCOPES)), len(selected_queries(store, ["t2c"], ["python"]))
    (720, 120)
    """
    ql = query_languages(store)
    return set(ql.loc[ql["task"].isin(list(tasks)) & ql["language"].isin(list(languages)), "query_id"])


def slice_scores(per_query: pd.DataFrame, chosen: set[str], average: Average = "tasks",
                 metric: Measure = NDCG_10) -> dict[str, pd.DataFrame]:
    """Per run: its chosen queries with ``score``, the per-query value weighted so that the plain
    mean of ``score`` is the selection mean (mean of task means, or the query-weighted mean).

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import read_hits
    >>> per_query = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,)).per_query("v2")
    >>> frames = slice_scores(per_query, selected_queries(store, ["t2c"], LANGUAGE_SCOPES))
    >>> round(float(frames["bm25"]["score"].mean()), 4)   # demo_v2603: BM25's T2C nDCG@10
    0.2998
    """
    rows = per_query[per_query["query_id"].astype(str).isin(chosen)]
    out = {}
    for run, g in rows.groupby("run", observed=True, sort=False):
        g = g[["task", "query_id", metric.column]].copy()
        g["task"], g["query_id"] = g["task"].astype(str), g["query_id"].astype(str)
        if average == "tasks":
            counts = g["task"].map(g["task"].value_counts())
            g["score"] = g[metric.column] * len(g) / (counts * g["task"].nunique())
        else:
            g["score"] = g[metric.column]
        out[str(run)] = g.reset_index(drop=True)
    return out


class Standing(NamedTuple):
    """One ranked run of a ``Recommendation``: its slice score (a fraction) with its bootstrap 95% interval,
    its trap share, and how it compares with the first-ranked run on the queries both scored (paired
    randomization test, Holm-corrected across every comparison with the first run).

    >>> Standing._fields[:6]
    ('rank', 'run', 'model', 'params_b', 'queries', 'mean')
    """

    rank: int
    run: str
    model: str
    params_b: float | None
    queries: int
    mean: float
    ci_low: float
    ci_high: float
    trap_share: float
    delta_vs_best: float  # mean - the first run's mean (0 for the first)
    p: float  # two-sided paired randomization test against the first run (nan for the first)
    p_holm: float  # the same, Holm-corrected across the first run's comparisons
    significant: bool  # p_holm < SIGNIFICANCE_LEVEL: the first run is significantly better than this one
    wins: int  # shared queries where this run beats the first
    ties: int
    losses: int
    cost: RunCost | None = None  # what the run measured while it was made (None: not measured)

    @property
    def compared(self) -> int:
        """The queries this run and the first both scored (0: no test was possible; p is NaN)."""
        return self.wins + self.ties + self.losses


def recommend(store: Store, per_query: pd.DataFrame, traps: pd.DataFrame, metas: Mapping[str, RunMeta],
              tasks: Iterable[str] = TASK_NAMES, languages: Iterable[str] = LANGUAGE_SCOPES,
              budget_b: float | None = None, average: Average = "tasks", seed: int = 0, metric: Measure = NDCG_10,
              n_permutations: int = DEFAULT_PERMUTATIONS, max_ms_per_text: float | None = None,
              max_memory_gb: float | None = None) -> Recommendation:
    """Rank our runs on the chosen slices: mean ``metric`` (nDCG@10 by default), bootstrap 95% interval,
    share of the chosen queries with a positive that are lost to a trap (graded qrels), parameters; ties
    broken by the lower trap share, then fewer parameters. Every run is tested against the first
    (``standings``): the one verdict the page, the report and the CLI word alike
    (``coreb_core.present.selection``). Runs over the budget, or with an unknown parameter count while a
    budget is set, go to ``excluded``; so do runs over a cost limit (``max_ms_per_text``, ``max_memory_gb``) or
    without the measurement a set limit needs (``cost_left_out``).

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import read_hits, run_meta
    >>> tables = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,), traps=True)  # demo_v2603
    >>> rec = recommend(store, tables.per_query("v2"), tables.traps, {"bm25": run_meta(bm25)}, tasks=("t2c",),
    ...                 languages=("python",))
    >>> rec.ranked[["rank", "model", "queries", "mean", "ci_low", "ci_high", "trap_share"]].round(4)
       rank              model  queries    mean  ci_low  ci_high  trap_share
    0     1  bm25 · demo_v2603      120  0.2514  0.2168   0.2859      0.4583
    """
    tasks, languages = tuple(tasks), tuple(languages)
    chosen = selected_queries(store, tasks, languages)
    scores = slice_scores(per_query, chosen, average, metric)
    trap_rows = traps[traps["query_id"].astype(str).isin(chosen)]
    lost = trap_rows.groupby("run", observed=True)[["trap_above_positive", "has_positive"]].sum()
    trap_share = pd.Series(share_lost(lost["trap_above_positive"], lost["has_positive"]), index=lost.index)
    # The chosen tasks the release has queries for in the chosen languages: a run must cover each of them,
    # or its mean (over the tasks it has) would be set against means over all of them.
    ql = query_languages(store)
    needed = [t for t in tasks if t in set(ql.loc[ql["query_id"].isin(chosen), "task"])]
    left_out: list[LeftOut] = []
    kept = {}
    for run in per_query["run"].astype(str).unique():
        meta = metas.get(run)
        params = run_params(meta)
        model = run_name(meta) if meta else run
        missing = tuple(t for t in needed if run not in scores or not (scores[run]["task"] == t).any())
        if run not in scores or scores[run].empty:
            left_out.append(LeftOut(run, model, params, NO_QUERIES))
        elif missing:
            left_out.append(LeftOut(run, model, params, MISSING_TASKS, missing))
        elif budget_b is not None and params is None:
            left_out.append(LeftOut(run, model, params, PARAMS_UNKNOWN))
        elif budget_b is not None and params is not None and params > budget_b:
            left_out.append(LeftOut(run, model, params, OVER_BUDGET, budget_b=budget_b))
        elif over := cost_left_out(run, model, params, meta.cost if meta else None, max_ms_per_text, max_memory_gb):
            left_out.append(over)
        else:
            kept[run] = scores[run]
    excluded = [{"model": x.model, "run": x.run, "params_b": x.params_b, "reason": x.reason()} for x in left_out]
    ci = intervals(kept, "score", seed=seed) if kept else pd.DataFrame(columns=["run", "queries", "mean", "ci_low",
                                                                               "ci_high"])
    rows = []
    for _, r in ci.iterrows():
        g = kept[r["run"]]
        per_task = g.groupby("task")[metric.column].mean()
        meta = metas.get(r["run"])
        rows.append({"model": run_name(meta) if meta else r["run"], "run": r["run"], "params_b": run_params(meta),
                     "queries": int(r["queries"]), "mean": score(r["mean"]),
                     "ci_low": score(r["ci_low"]), "ci_high": score(r["ci_high"]),
                     "trap_share": score(trap_share.get(r["run"], np.nan)),
                     **{t: score(per_task.get(t)) for t in TASK_NAMES}, **cost_columns(meta.cost if meta else None),
                     "evidence": "our run: per-query metrics on this release"})
    ranked = pd.DataFrame(rows, columns=RANKED_COLUMNS[1:-3])
    if len(ranked):
        ranked = ranked.sort_values(["mean", "trap_share", "params_b", "run"],
                                    ascending=[False, True, True, True],
                                    na_position="last")
    ranked = ranked.reset_index(drop=True)
    ranked.insert(0, "rank", np.arange(1, len(ranked) + 1))
    standings = tuple(s._replace(cost=metas[s.run].cost if s.run in metas else None)
                      for s in _standings(kept, ranked, n_permutations, seed))
    tiers = _tiers(kept, metric, average, n_permutations, seed)
    places = {r.run: r for r in tiers.runs} if tiers else {}
    ranked["tier"] = [places[r].tier if r in places else pd.NA for r in ranked["run"]]
    ranked["rank_low"] = [places[r].rank_low if r in places else pd.NA for r in ranked["run"]]
    ranked["rank_high"] = [places[r].rank_high if r in places else pd.NA for r in ranked["run"]]
    ranked = ranked.astype({"tier": "Int64", "rank_low": "Int64", "rank_high": "Int64"})
    return Recommendation(ranked, pd.DataFrame(excluded, columns=EXCLUDED_COLUMNS), tasks, languages, budget_b,
                          average, _lead(kept, standings, metric, tasks, seed), metric.column, standings, tuple(left_out),
                          tiers, max_ms_per_text, max_memory_gb, n_permutations, _other_means(kept, metric, average))


def _other_means(kept: dict[str, pd.DataFrame], metric: Measure, average: Average) -> dict[str, float]:
    """Each kept run's mean of ``metric`` under the average not chosen (see ``Recommendation.other_means``)."""
    if average == "tasks":
        return {run: float(g[metric.column].mean()) for run, g in kept.items()}
    return {run: float(g.groupby("task")[metric.column].mean().mean()) for run, g in kept.items()}


def _tiers(kept: dict[str, pd.DataFrame], metric: Measure, average: Average, n_permutations: int,
           seed: int) -> Tiers | None:
    """The ranked runs in rank tiers over the chosen queries every one of them scored (None below two runs, or
    when they share none: then no pair has a test)."""
    if len(kept) < 2:
        return None
    frame = pd.concat([g[["task", "query_id", metric.column]].assign(run=run) for run, g in kept.items()], ignore_index=True)
    try:
        return rank_tiers(frame, metric, None, average, list(kept), HOLM, SIGNIFICANCE_LEVEL, n_permutations,
                          seed=seed)
    except CorebError:  # the runs share no chosen query: the standings say so, run by run
        return None


def _standings(kept: dict[str, pd.DataFrame], ranked: pd.DataFrame, n_permutations: int,
               seed: int) -> tuple[Standing, ...]:
    """Every ranked run against the first one on the queries both scored; Holm over those comparisons,
    so "significantly below the first" holds for the whole ranking, not one hand-picked pair."""
    if ranked.empty:
        return ()
    rows = list(ranked.itertuples(index=False))
    best = rows[0]
    tests = compare_pairs([(kept[r.run], kept[best.run], r.run, best.run) for r in rows[1:]], "score",
                          n_permutations, seed, adaptive_limit(n_permutations))  # flips for the printed digits
    # A run that shares no query with the first has no test (its "p" would be 1 or NaN): NaN, outside Holm's family.
    tested = [i for i, t in enumerate(tests) if t.shared]
    adjusted = dict(zip(tested, holm([tests[i].p_randomization for i in tested]))) if tested else {}
    out = []
    for i, r in enumerate(rows):
        t, p_holm = (tests[i - 1], adjusted.get(i - 1, math.nan)) if i else (None, math.nan)
        if t is not None and not t.shared:
            t = t._replace(p_randomization=math.nan)
        params = None if r.params_b is None or pd.isna(r.params_b) else float(r.params_b)
        out.append(Standing(int(r.rank), str(r.run), str(r.model), params, int(r.queries), float(r.mean),
                            float(r.ci_low), float(r.ci_high), float(r.trap_share), float(r.mean - best.mean),
                            t.p_randomization if t else math.nan, float(p_holm),
                            bool(p_holm < SIGNIFICANCE_LEVEL), t.wins if t else 0, t.ties if t else 0,
                            t.losses if t else 0))
    return tuple(out)


def _lead(kept: dict[str, pd.DataFrame], standings: tuple[Standing, ...], metric: Measure, tasks: tuple[str, ...],
          seed: int) -> PairVerdict | None:
    """The first-ranked run against the second, told from the first's side (``standings[1]``'s test)."""
    if len(standings) < 2:
        return None
    top, second = standings[0], standings[1]
    merged = kept[top.run][["task", "query_id", "score"]].merge(kept[second.run][["task", "query_id", "score"]],
                                                                on=["task", "query_id"], suffixes=("_a", "_b"))
    low, high = bootstrap_ci((merged["score_a"] - merged["score_b"]).to_numpy(), seed=seed)
    delta = float((merged["score_a"] - merged["score_b"]).mean()) if len(merged) else math.nan
    return PairVerdict(top.run, second.run, metric.column, "+".join(tasks), len(merged), delta, low, high, second.p,
                       second.p_holm, second.significant, second.losses, second.ties, second.wins)


def recommend_published(result_rows: Iterable[dict], tasks: Iterable[str] = TASK_NAMES,
                        languages: Iterable[str] = LANGUAGE_SCOPES, budget_b: float | None = None,
                        version: str = "v202603") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Published models ranked by the plain mean of their nDCG@10 over the chosen tasks,
    ``"published figures only"`` (real CoREB ``version``, no per-query data, no interval).

    With every language chosen: the version's per-task table (paper Table 3 for v202603, Table 14 for
    v202602). With fewer languages only C2C can be filtered, on v202603 (Table 15, by anchor language:
    python, java, cpp, go); other tasks exclude the model.
    Parameters come from the project page's efficiency table. Returns (ranked, excluded).

    >>> from coreb_core.results.imported import all_rows
    >>> ranked, excluded = recommend_published(all_rows(), tasks=("t2c",), budget_b=1.0)
    >>> ranked[["rank", "model", "params_b", "mean"]].head(2)
       rank               model  params_b  mean
    0     1          C2LLM-0.5B       0.5            0.430
    1     2  Jina-code-emb-0.5B       0.5            0.386
    >>> excluded[["model", "reason"]].head(2)
          model                                reason
    0  GemEmb-2               parameter count unknown
    1  C2LLM-7B  7 B parameters exceed the 1 B budget
    """
    tasks, languages = tuple(tasks), tuple(languages)
    table_source, table_name = TASK_TABLES[version]
    rows = list(result_rows)
    all_langs = set(LANGUAGE_SCOPES) <= set(languages)
    table3: dict[str, dict] = {}
    table15: dict[str, dict] = {}
    names: dict[str, str] = {}
    for r in rows:
        if r.get("metric") != NDCG_10.column:
            continue
        key = canonical_model(r["model"])
        if r.get("source") == table_source:
            table3.setdefault(key, {})[r["task"]] = r["value"]
            names.setdefault(key, r["model"])
        elif r.get("source") == TABLE15 and version == "v202603":
            table15.setdefault(key, {})[r["subset"]] = r["value"]
    params = {canonical_model(m): v for m, v in parameter_counts().items()}
    ranked, excluded = [], []
    for key, values in table3.items():
        model, p = names[key], params.get(key)
        per_task, figures, reason = {}, [], None
        for task in tasks:
            if all_langs:
                per_task[task] = values.get(task)
                figures.append(f"{task}: {table_name}")
            elif task == "c2c" and key in table15 and set(languages) & set(table15[key]):
                langs = [lang for lang in languages if lang in table15[key]]
                missing = [lang for lang in languages if lang not in table15[key] and lang != "any"]
                per_task[task] = float(np.mean([table15[key][lang] for lang in langs]))
                figures.append(f"c2c: paper Table 15 ({', '.join(langs)})"
                               + (f"; no figure for {', '.join(missing)}" if missing else ""))
            else:
                reason = f"no published {task.upper()} figures per language"
                break
        if reason is None and budget_b is not None and p is None:
            reason = "parameter count unknown"
        elif reason is None and budget_b is not None and p is not None and p > budget_b:
            reason = f"{parameter_text(p)} parameters exceed the {parameter_text(budget_b)} budget"
        if reason is None and any(v is None for v in per_task.values()):
            reason = "a chosen task has no published figure"
        if reason:
            excluded.append({"model": model, "run": None, "params_b": p, "reason": reason})
            continue
        mean = float(np.mean(list(per_task.values()))) if per_task else math.nan
        ranked.append({"model": model, "params_b": p, "mean": score(mean),
                       **{t: score(per_task.get(t)) for t in TASK_NAMES}, "figures": "; ".join(figures),
                       "evidence": PUBLISHED_ONLY})
    frame = pd.DataFrame(ranked, columns=PUBLISHED_COLUMNS[1:])
    if len(frame):
        frame = frame.sort_values(["mean", "params_b", "model"], ascending=[False, True, True],
                                  na_position="last")
    frame = frame.reset_index(drop=True)
    frame.insert(0, "rank", np.arange(1, len(frame) + 1))
    return frame, pd.DataFrame(excluded, columns=EXCLUDED_COLUMNS)


class StoredSelection(NamedTuple):
    """``recommend_stored``'s answer: the recommendation and what it was computed from."""

    store: Store
    scheme: Scheme
    metas: dict[str, RunMeta]
    evaluation: Evaluation
    recommendation: Recommendation


def recommend_stored(release: str, run_ids: Sequence[str] | None = None, scheme: str = "v2",
                     tasks: Sequence[str] = TASK_NAMES, languages: Sequence[str] = LANGUAGE_SCOPES,
                     budget_b: float | None = None, metric: Measure = NDCG_10, anchor_exclusion: bool = True,
                     average: Average = "tasks", evaluation: Evaluation | None = None,
                     n_permutations: int = DEFAULT_PERMUTATIONS, root: Path | None = None,
                     max_ms_per_text: float | None = None, max_memory_gb: float | None = None) -> StoredSelection:
    """``recommend`` over stored runs of a cached release (every run of the release by default), as the
    selection view (``coreb_core.views.selection.build``) asks it; ``evaluation`` may pass the runs already
    evaluated (the scope's evaluation, which every view shares). A one-line ``CorebError`` for an unknown scheme,
    metric or task, a release without runs, or a run of another release.

    >>> chosen = recommend_stored("demo_v2603", tasks=("t2c",), budget_b=1.0)  # the cache's runs: bm25 alone
    >>> chosen.recommendation.standings[0].run == bm25, str(chosen.scheme), chosen.evaluation.schemes
    (True, 'v2', ('v2', 'v1'))
    """
    try:
        parsed = Scheme.parse(scheme)
    except ValueError as exc:
        raise CorebError(str(exc)) from None
    check_choice(metric.column, SELECTION_METRICS, "metric")
    budget_b = check_budget(budget_b)
    max_ms_per_text = check_cost_limit(max_ms_per_text, "ms per text")
    max_memory_gb = check_cost_limit(max_memory_gb, "GB of peak memory")
    unknown = [t for t in tasks if t not in TASK_NAMES]
    if unknown or not tasks:
        raise CorebError(f"unknown task {', '.join(unknown) or '(none)'}; choose from {', '.join(TASK_NAMES)}")
    store = Store(release, root)
    if run_ids:
        metas = {r: run_meta(r, root) for r in run_ids}
        # the one "made on this release" rule (coreb_core.views.scope): a run that records no release is refused
        other = [f"{r} ({m.release})" for r, m in metas.items() if m.release != release]
        if other:
            raise CorebError(f"runs made on another release than {release}: {', '.join(other)}")
    else:
        metas = {m.run_id: m for m in sorted(list_runs(release, root), key=lambda m: m.created or "")}
        if not metas:
            raise CorebError(f"release {release} has no stored runs; make one with: python -m coreb_core run "
                             f"--model bm25 --release {release}")
    if evaluation is None:
        schemes = tuple(dict.fromkeys([parsed, V2, V1]))
        evaluation = analyse_many(store, {r: StoredRun(r, root) for r in metas}, schemes, anchor_exclusion, traps=True)
    rec = recommend(store, evaluation.per_query(parsed), evaluation.traps, metas, tasks, languages, budget_b, average,
                    metric=metric, n_permutations=n_permutations, max_ms_per_text=max_ms_per_text,
                    max_memory_gb=max_memory_gb)
    return StoredSelection(store, parsed, metas, evaluation, rec)
