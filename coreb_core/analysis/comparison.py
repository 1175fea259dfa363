"""Compare runs on one task: paired tests, intervals and per-query deltas, ready to display.

Thin verbs over ``coreb_core.evaluation.significance`` (paired t-test, paired randomization test, a correction
for multiple comparisons: Holm by default, Bonferroni or Benjamini-Hochberg; win/tie/loss, bootstrap intervals)
applied to the per-query frame of ``analyse_many`` (one frame, leading ``run`` column). Comparisons always use
the queries both runs share; how many were dropped is reported. Every pair is compared, or with a ``baseline``
each other run against it (PyTerrier's ``baseline=``).

Example (CoREB-mini and a BM25 run ``bm25`` in ``root``, against a run of MTEB's BM25 recipe made here):
    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import read_hits
    >>> mteb = run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id  # seconds
    >>> tables = analyse_many(store, {"bm25": read_hits(bm25), "mteb": read_hits(mteb)}, (V2,))
    >>> per_query = split_runs(tables.per_query("v2"), "t2c", ["bm25", "mteb"])
    >>> pairs = pair_table(per_query, NDCG_10)          # mean Δ, p-values (Holm), win/tie/loss
    >>> pairs[["a", "b", "mean_delta", "p_randomization_holm", "wins", "ties", "losses"]]
          a     b  mean_delta  p_randomization_holm  wins  ties  losses
    0  bm25  mteb    0.020844              0.002094   254   248     218
    >>> deltas = pair_deltas(per_query, "bm25", "mteb", NDCG_10)   # per query, sorted by Δ
    >>> deltas[["query_id", "delta", "outcome"]].head(1)
                    query_id     delta outcome
    0  q_t2c_search_cpp_0506  0.765361     win
    >>> verdicts = pair_verdicts(per_query, pairs, "t2c")     # one typed verdict per pair, better run first
    >>> v = headline_verdict(verdicts, run_intervals(per_query))  # the top two runs' verdict
    >>> v.a, v.b, v.shared, round(v.delta, 4), v.significant
    ('bm25', 'mteb', 720, 0.0208, True)
"""
from __future__ import annotations

import math
from typing import Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd

from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.store import Store, with_query_facts
from coreb_core.evaluation.significance import (
    HOLM,
    KEYS,
    TIE_TOLERANCE,
    Correction,
    adaptive_limit,
    bootstrap_cis,
    compare_runs,
    holm,
    intervals,
    run_pairs,
)

ID_COLUMNS = ("run", "task", "query_id")
SIGNIFICANCE_LEVEL = 0.05  # corrected randomization p (Holm by default) below this: the difference is significant


class PairVerdict(NamedTuple):
    """The result of comparing two runs on one task and metric, oriented so that ``a`` is the run with
    the higher mean on the shared queries (``delta`` >= 0). Fractions, not points. The last four fields came
    with the choice of correction; a verdict built from the first fourteen is a Holm verdict (``p_adjusted``
    NaN: ``p_holm`` is it).

    >>> PairVerdict._fields[:11]
    ('a', 'b', 'metric', 'task', 'shared', 'delta', 'ci_low', 'ci_high', 'p', 'p_holm', 'significant')
    >>> PairVerdict._fields[11:]
    ('wins', 'ties', 'losses', 'correction', 'p_adjusted', 'p_ttest', 'p_ttest_adjusted')
    """

    a: str  # run id of the better run on the shared queries
    b: str
    metric: str  # the measure's column (``ndcg_at_10``), as the pair table holds it
    task: str
    shared: int  # queries both runs scored: the only ones compared
    delta: float  # mean of (a - b) over the shared queries, a fraction
    ci_low: float  # percentile bootstrap 95% interval of that mean difference
    ci_high: float
    p: float  # two-sided paired randomization test
    p_holm: float  # the same, Holm-corrected across every pair compared together
    significant: bool  # p_adjusted < SIGNIFICANCE_LEVEL (so p_holm < it under the default Holm)
    wins: int  # shared queries where a scores higher than b
    ties: int
    losses: int
    correction: Correction = HOLM  # the correction of p_adjusted and p_ttest_adjusted, and of significant
    p_adjusted: float = math.nan  # p under ``correction`` across every pair compared together (= p_holm for Holm)
    p_ttest: float = math.nan  # two-sided paired t-test on the same shared queries, uncorrected
    p_ttest_adjusted: float = math.nan  # p_ttest under ``correction``


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """A view of ``frame`` without ``attrs``: a caller's frame may carry array-valued attrs, which make
    pandas' merge/concat fail when two different runs' frames meet."""
    out = frame.copy(deep=False)
    out.attrs = {}
    return out


def _plain_all(per_query: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    return {k: _plain(v) for k, v in per_query.items()}


def metric_columns(per_query: pd.DataFrame) -> list[str]:
    """The metric columns of a per-query frame (``ndcg_at_10``, ``map_at_10``, …), in frame order.

    >>> metric_columns(pd.DataFrame({"run": ["a"], "task": ["t2c"], "query_id": ["q"], "ndcg_at_10": [1.0]}))
    ['ndcg_at_10']
    """
    return [c for c, t in per_query.dtypes.items() if c not in ID_COLUMNS and t.kind == "f"]


def split_runs(per_query: pd.DataFrame, task: str, run_ids: Sequence[str]) -> dict[str, pd.DataFrame]:
    """One task's per-query rows of each run (in ``run_ids`` order; a run without rows gets an
    empty frame), with plain string ``task``/``query_id`` columns.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import read_hits
    >>> per_query = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,)).per_query("v2")  # demo_v2603
    >>> parts = split_runs(per_query, "t2c", ["bm25", "other"])
    >>> len(parts["bm25"]), len(parts["other"])  # "other" has no rows here
    (720, 0)
    """
    rows = per_query[per_query["task"] == task]
    runs = rows["run"].astype(str).to_numpy()
    out = {}
    for run in run_ids:
        part = _plain(rows[runs == run].drop(columns="run").reset_index(drop=True))
        part["task"] = part["task"].astype(str)
        part["query_id"] = part["query_id"].astype(str)
        out[run] = part
    return out


def coverage(per_query: Mapping[str, pd.DataFrame]) -> dict[str, int]:
    """Queries in every run (``shared``), in at least one (``any``), and ``dropped`` = any - shared.

    >>> q1_q2 = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2"], "ndcg_at_10": [0.5, 1.0]})
    >>> coverage({"a": q1_q2, "b": q1_q2.tail(1)})
    {'shared': 1, 'any': 2, 'dropped': 1}
    """
    sets = [set(zip(*(t[k].astype(str) for k in KEYS))) for t in per_query.values()]
    if not sets:
        return {"shared": 0, "any": 0, "dropped": 0}
    shared, union = set.intersection(*sets), set.union(*sets)
    return {"shared": len(shared), "any": len(union), "dropped": len(union) - len(shared)}


def pair_table(per_query: Mapping[str, pd.DataFrame], metric: Measure = NDCG_10,
               labels: Mapping[str, str] | None = None, n_permutations: int = 10_000, seed: int = 0,
               baseline: str | None = None, correction: Correction | str = HOLM) -> pd.DataFrame:
    """Every pair (a, b) in input order, or with a ``baseline`` each other run a against it (b = the baseline):
    ``coreb_core.evaluation.significance.compare_runs`` (shared / dropped queries, means, mean Δ = a - b,
    paired t-test and randomization p-values, their Holm-corrected values and their values under
    ``correction``, wins / ties / losses of a), plus ``label_a`` / ``label_b`` when ``labels`` is given.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [0.2, 0.5, 0.3, 0.0]})
    >>> b = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [0.6, 0.5, 0.9, 0.5]})
    >>> table = pair_table({"A": a, "B": b}, labels={"A": "BM25"})
    >>> table[["a", "label_a", "b", "mean_delta", "wins", "ties", "losses"]]
       a label_a  b  mean_delta  wins  ties  losses
    0  A    BM25  B      -0.375     0     1       3
    >>> pair_table({"A": a, "B": b, "C": b}, baseline="B", n_permutations=100)[["a", "b", "mean_delta"]]
       a  b  mean_delta
    0  A  B      -0.375
    1  C  B       0.000
    """
    table = compare_runs(_plain_all(per_query), metric.column, n_permutations, seed, baseline, correction,
                         adaptive_limit(n_permutations))  # more flips where the printed digits need them
    if labels is not None and len(table):
        table.insert(2, "label_a", table["a"].map(lambda r: labels.get(r, r)))
        table.insert(3, "label_b", table["b"].map(lambda r: labels.get(r, r)))
    return table


def run_intervals(per_query: Mapping[str, pd.DataFrame], metric: Measure = NDCG_10,
                  labels: Mapping[str, str] | None = None, seed: int = 0) -> pd.DataFrame:
    """Mean and percentile-bootstrap 95% interval per run (``coreb_core.evaluation.significance.intervals``), on each
    run's own queries.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [0.2, 0.5, 0.3, 0.0]})
    >>> run_intervals({"A": a})[["run", "queries", "mean", "ci_low", "ci_high"]]
      run  queries  mean  ci_low  ci_high
    0   A        4  0.25   0.075    0.425
    """
    table = intervals({k: v for k, v in _plain_all(per_query).items() if len(v)}, metric.column, seed)
    if labels is not None and len(table):
        table.insert(1, "label", table["run"].map(lambda r: labels.get(r, r)))
    return table


def pair_deltas(per_query: Mapping[str, pd.DataFrame], a: str, b: str, metric: Measure = NDCG_10,
                store: Store | None = None) -> pd.DataFrame:
    """Per shared query: ``a`` and ``b``'s metric, ``delta`` = a - b and ``outcome`` (win / tie / loss
    for a, with ``coreb_core.evaluation.significance``'s tie tolerance); sorted by delta, largest first. With a
    ``store`` the query's subtask and text are added.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import read_hits
    >>> hits = read_hits(bm25)  # and the same run without its first hits: a second run to compare
    >>> tables = analyse_many(store, {"bm25": hits, "no_top1": hits[hits["rank"] != 1]}, (V2,))  # demo_v2603
    >>> per_query = split_runs(tables.per_query("v2"), "t2c", ["bm25", "no_top1"])
    >>> pair_deltas(per_query, "bm25", "no_top1", store=store)[["query_id", "delta", "outcome", "subtask"]].head(2)
                             query_id     delta outcome                  subtask
    0  q_t2c_canonical_retro_cpp_0092  0.613147     win  t2c_canonical_retro_cpp
    1  q_t2c_canonical_retro_cpp_0122  0.613147     win  t2c_canonical_retro_cpp
    """
    column = metric.column
    left = _plain(per_query[a])[KEYS + [column]].rename(columns={column: "value_a"})
    right = _plain(per_query[b])[KEYS + [column]].rename(columns={column: "value_b"})
    merged = left.merge(right, on=KEYS)
    merged["delta"] = merged["value_a"] - merged["value_b"]
    merged["outcome"] = np.select([merged["delta"] > TIE_TOLERANCE, merged["delta"] < -TIE_TOLERANCE],
                                  ["win", "loss"], "tie")
    merged = merged.sort_values(["delta", "query_id"], ascending=[False, True], kind="stable").reset_index(drop=True)
    if store is not None:
        # Two runs that share no query (one made with --tasks c2c, the other on T2C) still give the columns.
        merged = (with_query_facts(store, merged, ("subtask", "query")) if len(merged)
                  else merged.assign(subtask=pd.Series(dtype=object), query=pd.Series(dtype=object)))
    return merged.rename(columns={"value_a": f"{column} (a)", "value_b": f"{column} (b)"})


def pair_verdicts(per_query: Mapping[str, pd.DataFrame], pairs: pd.DataFrame, task: str,
                  alpha: float = SIGNIFICANCE_LEVEL, seed: int = 0, correction: Correction | str = HOLM,
                  baseline: str | None = None) -> list[PairVerdict]:
    """One ``PairVerdict`` per row of ``pair_table(per_query, metric)`` (same order): its randomization
    p-value, its Holm-corrected value and its value under ``correction`` (Holm, Bonferroni or
    Benjamini-Hochberg, across the pairs judged together), the paired t-test p beside it, win/tie/loss,
    and a bootstrap 95% interval of the mean paired difference; each oriented so that the better run
    comes first. With a ``baseline`` only the rows with the baseline are judged (PyTerrier's
    ``baseline=``: each run against the baseline; ``pair_table(…, baseline=…)`` has only those), and the
    corrections run across those.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [0.2, 0.5, 0.3, 0.0]})
    >>> b = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [0.6, 0.5, 0.9, 0.5]})
    >>> per_query = {"bm25": a, "minilm": b}
    >>> v = pair_verdicts(per_query, pair_table(per_query, n_permutations=1000), "t2c")[0]
    >>> v.a, v.b, round(v.delta, 3), (round(v.ci_low, 3), round(v.ci_high, 3)), (v.wins, v.ties, v.losses)
    ('minilm', 'bm25', 0.375, (0.125, 0.55), (3, 1, 0))
    >>> round(v.p_holm, 3), v.significant, v.shared
    (0.255, False, 4)
    >>> v.correction.name, v.p_adjusted == v.p_holm, round(v.p_ttest, 3)  # one pair: no correction changes p
    ('holm', True, 0.065)
    >>> per_query["zero"] = a.assign(ndcg_at_10=0.0)  # two runs against the baseline bm25; Bonferroni: p x 2,
    >>> # Holm: the smaller p x 2 (0.245 x 2 = 0.49), the larger x 1 but never below that (0.49)
    >>> pairs = pair_table(per_query, n_permutations=1000, baseline="bm25")
    >>> vs = pair_verdicts(per_query, pairs, "t2c", correction="bonferroni", baseline="bm25")
    >>> [(v.a, v.b, round(v.p, 3), round(v.p_adjusted, 3), round(v.p_holm, 3), str(v.correction)) for v in vs]
    [('minilm', 'bm25', 0.255, 0.509, 0.49, 'bonferroni'), ('bm25', 'zero', 0.245, 0.49, 0.49, 'bonferroni')]
    """
    correction = Correction.parse(correction)
    rows = list(pairs.itertuples(index=False))
    if baseline is not None:
        run_pairs(list(per_query), baseline)  # a baseline that is not among the runs is refused here
        rows = [r for r in rows if baseline in (r.a, r.b)]
    p_random = [float(r.p_randomization) for r in rows]
    p_ttest = [float(r.p_ttest) for r in rows]
    p_holm, p_adjusted, p_ttest_adjusted = holm(p_random), correction.adjust(p_random), correction.adjust(p_ttest)
    oriented, deltas = [], []
    for r in rows:
        flip = r.mean_delta < 0  # orient: the run with the higher mean first
        a, b = (r.b, r.a) if flip else (r.a, r.b)
        left = _plain(per_query[a])[KEYS + [r.metric]]
        right = _plain(per_query[b])[KEYS + [r.metric]]
        merged = left.merge(right, on=KEYS, suffixes=("_a", "_b"))
        oriented.append((flip, a, b))
        deltas.append((merged[f"{r.metric}_a"] - merged[f"{r.metric}_b"]).to_numpy())
    out = []
    for i, (r, (flip, a, b), (low, high)) in enumerate(zip(rows, oriented, bootstrap_cis(deltas, seed=seed))):
        out.append(PairVerdict(str(a), str(b), str(r.metric), task, int(r.shared),
                               float(-r.mean_delta if flip else r.mean_delta), low, high, p_random[i],
                               float(p_holm[i]), bool(p_adjusted[i] < alpha), int(r.losses if flip else r.wins),
                               int(r.ties), int(r.wins if flip else r.losses), correction, float(p_adjusted[i]),
                               p_ttest[i], float(p_ttest_adjusted[i])))
    return out


def recorrect(verdicts: Sequence[PairVerdict], correction: Correction | str,
              alpha: float = SIGNIFICANCE_LEVEL) -> list[PairVerdict]:
    """The same verdicts judged under another ``correction``, across them (``p_adjusted``, ``p_ttest_adjusted``,
    ``significant``; nothing is tested again): ``pair_verdicts``' verdicts under Holm, then under the
    correction a user picks.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [0.2, 0.5, 0.3, 0.0]})
    >>> per_query = {"bm25": a, "minilm": a.assign(ndcg_at_10=a["ndcg_at_10"] + 0.3), "zero": a.assign(ndcg_at_10=0.0)}
    >>> holm_verdicts = pair_verdicts(per_query, pair_table(per_query, n_permutations=1000), "t2c")
    >>> bh = recorrect(holm_verdicts, "bh")
    >>> [(v.a, v.b) for v in bh], [round(v.p, 3) for v in bh]
    ([('minilm', 'bm25'), ('bm25', 'zero'), ('minilm', 'zero')], [0.118, 0.245, 0.118])
    >>> # Holm: 0.123 x 3, then x 2 and 0.245 x 1, never below 0.369; BH: 0.123 x 3 / 1 and x 3 / 2 = 0.1845,
    >>> # 0.245 x 3 / 3, then the minimum from the largest down
    >>> [round(v.p_holm, 3) for v in bh], [round(v.p_adjusted, 3) for v in bh], str(bh[0].correction)
    ([0.355, 0.355, 0.355], [0.178, 0.245, 0.178], 'bh')
    """
    correction = Correction.parse(correction)
    p_adjusted = correction.adjust([v.p for v in verdicts])
    p_ttest_adjusted = correction.adjust([v.p_ttest for v in verdicts])
    return [v._replace(correction=correction, p_adjusted=float(p), p_ttest_adjusted=float(t),
                       significant=bool(p < alpha)) for v, p, t in zip(verdicts, p_adjusted, p_ttest_adjusted)]


def headline_verdict(verdicts: Sequence[PairVerdict], means: pd.DataFrame) -> PairVerdict | None:
    """The verdict to state first: the pair of the two runs with the highest means (``run_intervals``'
    ``run`` and ``mean`` columns); the first verdict when those two were not compared; None without any.

    >>> v = [PairVerdict("b", "a", "ndcg_at_10", "t2c", 3, 0.1, 0.0, 0.2, 0.3, 0.6, False, 2, 1, 0),
    ...      PairVerdict("c", "b", "ndcg_at_10", "t2c", 3, 0.2, 0.1, 0.3, 0.01, 0.03, True, 3, 0, 0)]
    >>> headline_verdict(v, pd.DataFrame({"run": ["a", "b", "c"], "mean": [0.1, 0.2, 0.4]})).a
    'c'
    """
    if not verdicts:
        return None
    top = set(means.sort_values("mean", ascending=False, kind="stable")["run"].head(2).astype(str))
    return next((v for v in verdicts if {v.a, v.b} == top), verdicts[0])
