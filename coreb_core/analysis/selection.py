"""Model selection for stakeholders: pick tasks, languages and a parameter budget; get a ranked,
evidenced recommendation of our runs (and of published models where the filter can be applied).

A query's *language* for selection is the language it is about: the T2C language constraint
("any" when unconstrained), and for C2C and C2T the language of the query code (anchor language).
The score is the mean nDCG@10 over the selected queries, either the plain mean of the per-task
means (``average="tasks"``, the paper's convention) or query-weighted (``average="queries"``); the
95% interval is ``coreb_core.evaluation.significance.intervals`` (percentile bootstrap over queries) of per-query
values weighted so that their plain mean equals that score.

Example:
    >>> rec = recommend(store, tables.per_query("v2"), tables.traps, metas, tasks=("t2c",), languages=("python",),
    ...                 budget_b=1.0)
    >>> rec.ranked[["rank", "model", "mean_ndcg_at_10", "ci_low", "ci_high", "trap_share", "params_b"]]

Scores, interval bounds and trap shares are fractions (0..1); ``ui.display`` prints them x100 and
words the recommendation (``recommendation_sentence``, ``winner_sentence``, ``summary_markdown``).
"""
from __future__ import annotations

import math
from typing import Iterable, NamedTuple

import numpy as np
import pandas as pd

from coreb_core.evaluation.significance import bootstrap_ci, compare_pair, holm, intervals
from coreb_core.analysis.comparison import SIGNIFICANCE_LEVEL, PairVerdict
from coreb_core.analysis.leaderboard import canonical_model, run_params, score
from coreb_core.data.published import parameter_counts
from coreb_core.runs.run import run_name
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.data.store import Store

RANKED_COLUMNS = ["rank", "model", "run", "params_b", "queries", "mean_ndcg_at_10", "ci_low", "ci_high",
                  "trap_share", *TASK_NAMES, "evidence"]
PUBLISHED_COLUMNS = ["rank", "model", "params_b", "mean_ndcg_at_10", *TASK_NAMES, "figures", "evidence"]
EXCLUDED_COLUMNS = ["model", "run", "params_b", "reason"]
PUBLISHED_ONLY = "published figures only"
TABLE3 = "published:paper_table3_v202603_retrieval"
# The paper's per-task table of each published version: Table 3 (the test release), Table 14 (v202602).
TASK_TABLES = {"v202603": (TABLE3, "paper Table 3"),
               "v202602": ("published:paper_table14_v202602_retrieval", "paper Table 14")}
TABLE15 = "published:paper_table15_v202603_c2c_by_anchor_language_ndcg10"


class Recommendation(NamedTuple):
    """What ``recommend`` returns: the ranked runs, those left out, and the slice that was asked for.

    >>> Recommendation._fields
    ('ranked', 'excluded', 'tasks', 'languages', 'budget_b', 'average', 'lead')
    """

    ranked: pd.DataFrame  # our runs within budget, best first (scores as fractions)
    excluded: pd.DataFrame  # our runs left out, with the reason
    tasks: tuple[str, ...]
    languages: tuple[str, ...]
    budget_b: float | None
    average: str
    # The first-ranked run against the second on the queries both scored (paired randomization test,
    # Holm-corrected across the first run's comparisons with every other ranked run); None with < 2 runs.
    lead: PairVerdict | None = None


def parameter_text(params_b: float | None) -> str:
    """A parameter count (billions) in words: millions below one billion, "not reported" when unknown.

    >>> parameter_text(0.0227), parameter_text(0.5), parameter_text(7.0), parameter_text(1.5), parameter_text(None)
    ('22.7 M', '500 M', '7 B', '1.5 B', 'not reported')
    >>> parameter_text(0.0)
    '0'
    """
    if params_b is None or pd.isna(params_b):
        return "not reported"
    if params_b == 0:
        return "0"
    return f"{params_b * 1000:.3g} M" if params_b < 1 else f"{params_b:.3g} B"


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

    >>> len(selected_queries(store, ["t2c"], LANGUAGE_SCOPES))   # demo_v2603, not doctested
    720
    """
    ql = query_languages(store)
    return set(ql.loc[ql["task"].isin(list(tasks)) & ql["language"].isin(list(languages)), "query_id"])


def slice_scores(per_query: pd.DataFrame, chosen: set[str], average: str = "tasks",
                 metric: str = "ndcg_at_10") -> dict[str, pd.DataFrame]:
    """Per run: its chosen queries with ``score``, the per-query value weighted so that the plain
    mean of ``score`` is the selection mean (mean of task means, or the query-weighted mean).

    >>> frames = slice_scores(per_query, selected_queries(store, ["t2c"], LANGUAGE_SCOPES))  # not doctested
    >>> round(frames["bm25"]["score"].mean(), 4)   # demo_v2603: BM25's T2C nDCG@10
    0.2998
    """
    rows = per_query[per_query["query_id"].astype(str).isin(chosen)]
    out = {}
    for run, g in rows.groupby("run", observed=True, sort=False):
        g = g[["task", "query_id", metric]].copy()
        g["task"], g["query_id"] = g["task"].astype(str), g["query_id"].astype(str)
        if average == "tasks":
            counts = g["task"].map(g["task"].value_counts())
            g["score"] = g[metric] * len(g) / (counts * g["task"].nunique())
        else:
            g["score"] = g[metric]
        out[str(run)] = g.reset_index(drop=True)
    return out


def recommend(store: Store, per_query: pd.DataFrame, traps: pd.DataFrame, metas: dict[str, dict],
              tasks: Iterable[str] = TASK_NAMES, languages: Iterable[str] = LANGUAGE_SCOPES,
              budget_b: float | None = None,
              average: str = "tasks", seed: int = 0) -> Recommendation:
    """Rank our runs on the chosen slices: mean nDCG@10, bootstrap 95% interval, share of
    chosen queries with a trap above the first positive (graded qrels), parameters. Runs over the
    budget, or with an unknown parameter count while a budget is set, go to ``excluded``.

    >>> tables = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,), traps=True)  # demo_v2603
    >>> rec = recommend(store, tables.per_query("v2"), tables.traps, {"bm25": run_meta(bm25)}, tasks=("t2c",),
    ...                 languages=("python",))
    >>> rec.ranked[["rank", "model", "queries", "mean_ndcg_at_10", "ci_low", "ci_high", "trap_share"]].round(4)
       rank model  queries  mean_ndcg_at_10  ci_low  ci_high  trap_share
    0     1  bm25      120           0.2514  0.2168   0.2859      0.4583
    """
    tasks, languages = tuple(tasks), tuple(languages)
    chosen = selected_queries(store, tasks, languages)
    scores = slice_scores(per_query, chosen, average)
    trap_rows = traps[traps["query_id"].astype(str).isin(chosen)]
    trap_share = trap_rows.groupby("run", observed=True)["trap_above_positive"].mean()
    excluded, kept = [], {}
    for run in per_query["run"].astype(str).unique():
        meta = metas.get(run)
        params = run_params(meta)
        model = run_name(meta) if meta else run
        if run not in scores or scores[run].empty:
            excluded.append({"model": model, "run": run, "params_b": params,
                             "reason": "no evaluated queries in the chosen tasks and languages"})
        elif budget_b is not None and params is None:
            excluded.append({"model": model, "run": run, "params_b": params, "reason": "parameter count unknown"})
        elif budget_b is not None and params > budget_b:
            excluded.append({"model": model, "run": run, "params_b": params,
                             "reason": f"{parameter_text(params)} parameters exceed the {parameter_text(budget_b)} "
                                       "budget"})
        else:
            kept[run] = scores[run]
    ci = intervals(kept, "score", seed=seed) if kept else pd.DataFrame(columns=["run", "queries", "mean", "ci_low",
                                                                               "ci_high"])
    rows = []
    for _, r in ci.iterrows():
        g = kept[r["run"]]
        per_task = g.groupby("task")["ndcg_at_10"].mean()
        meta = metas.get(r["run"])
        rows.append({"model": run_name(meta) if meta else r["run"], "run": r["run"], "params_b": run_params(meta),
                     "queries": int(r["queries"]), "mean_ndcg_at_10": score(r["mean"]),
                     "ci_low": score(r["ci_low"]), "ci_high": score(r["ci_high"]),
                     "trap_share": score(trap_share.get(r["run"], np.nan)),
                     **{t: score(per_task.get(t)) for t in TASK_NAMES},
                     "evidence": "our run: per-query metrics on this release"})
    ranked = pd.DataFrame(rows, columns=RANKED_COLUMNS[1:])
    if len(ranked):
        ranked = ranked.sort_values(["mean_ndcg_at_10", "trap_share", "params_b", "run"],
                                    ascending=[False, True, True, True], na_position="last")
    ranked = ranked.reset_index(drop=True)
    ranked.insert(0, "rank", np.arange(1, len(ranked) + 1))
    return Recommendation(ranked, pd.DataFrame(excluded, columns=EXCLUDED_COLUMNS), tasks, languages, budget_b,
                          average, _lead(kept, ranked["run"].astype(str).tolist(), tasks, seed))


def _lead(kept: dict[str, pd.DataFrame], order: list[str], tasks: tuple[str, ...], seed: int) -> PairVerdict | None:
    """The first-ranked run against the second, paired on the selection ``score`` of the queries both
    scored; Holm over the first run's comparisons with every other run (so "significant" holds for
    the whole ranking's top, not one hand-picked pair)."""
    if len(order) < 2:
        return None
    top = order[0]
    tests = [compare_pair(kept[top], kept[other], "score", top, other, seed=seed) for other in order[1:]]
    p_holm = holm([t.p_randomization for t in tests])
    first = tests[0]
    merged = kept[top][["task", "query_id", "score"]].merge(kept[order[1]][["task", "query_id", "score"]],
                                                            on=["task", "query_id"], suffixes=("_a", "_b"))
    low, high = bootstrap_ci((merged["score_a"] - merged["score_b"]).to_numpy(), seed=seed)
    return PairVerdict(top, order[1], "ndcg_at_10", "+".join(tasks), first.shared, first.mean_delta, low, high,
                       first.p_randomization, p_holm[0], bool(p_holm[0] < SIGNIFICANCE_LEVEL), first.wins,
                       first.ties, first.losses)


def recommend_published(result_rows: Iterable[dict], tasks: Iterable[str] = TASK_NAMES,
                        languages: Iterable[str] = LANGUAGE_SCOPES, budget_b: float | None = None,
                        version: str = "v202603") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Published models ranked by the plain mean of their nDCG@10 over the chosen tasks,
    ``"published figures only"`` (real CoREB ``version``, no per-query data, no interval).

    With every language chosen: the version's per-task table (paper Table 3 for v202603, Table 14 for
    v202602). With fewer languages only C2C can be filtered, on v202603 (Table 15, by anchor language:
    python, java, cpp, go); other tasks exclude the model.
    Parameters come from the project page's efficiency table. Returns (ranked, excluded).

    >>> ranked, excluded = recommend_published(all_rows(), tasks=("t2c",), budget_b=1.0)
    >>> ranked[["rank", "model", "params_b", "mean_ndcg_at_10"]].head(2)
       rank               model  params_b  mean_ndcg_at_10
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
        if r.get("metric") != "ndcg_at_10":
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
        elif reason is None and budget_b is not None and p > budget_b:
            reason = f"{parameter_text(p)} parameters exceed the {parameter_text(budget_b)} budget"
        if reason is None and any(v is None for v in per_task.values()):
            reason = "a chosen task has no published figure"
        if reason:
            excluded.append({"model": model, "run": None, "params_b": p, "reason": reason})
            continue
        mean = float(np.mean(list(per_task.values()))) if per_task else math.nan
        ranked.append({"model": model, "params_b": p, "mean_ndcg_at_10": score(mean),
                       **{t: score(per_task.get(t)) for t in TASK_NAMES}, "figures": "; ".join(figures),
                       "evidence": PUBLISHED_ONLY})
    frame = pd.DataFrame(ranked, columns=PUBLISHED_COLUMNS[1:])
    if len(frame):
        frame = frame.sort_values(["mean_ndcg_at_10", "params_b", "model"], ascending=[False, True, True],
                                  na_position="last")
    frame = frame.reset_index(drop=True)
    frame.insert(0, "rank", np.arange(1, len(frame) + 1))
    return frame, pd.DataFrame(excluded, columns=EXCLUDED_COLUMNS)
