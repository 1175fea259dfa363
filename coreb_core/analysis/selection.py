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
    >>> winner_sentence(rec, "v2")
"""
from __future__ import annotations

import math
from typing import Iterable, NamedTuple

import numpy as np
import pandas as pd

from coreb_core.evaluation.significance import intervals
from coreb_core.evaluation.evaluate import release_index
from coreb_core.analysis.leaderboard import TASKS, canonical_model, run_params, x100
from coreb_core.data.published import parameter_counts
from coreb_core.runs.run import run_name
from coreb_core.data.store import Store

LANGUAGES = ("any", "python", "java", "cpp", "go", "ruby")
RANKED_COLUMNS = ["rank", "model", "run", "params_b", "queries", "mean_ndcg_at_10", "ci_low", "ci_high",
                  "trap_share", "t2c", "c2c", "c2t", "evidence"]
PUBLISHED_COLUMNS = ["rank", "model", "params_b", "mean_ndcg_at_10", "t2c", "c2c", "c2t", "figures", "evidence"]
EXCLUDED_COLUMNS = ["model", "run", "params_b", "reason"]
PUBLISHED_ONLY = "published figures only"
TABLE3 = "published:paper_table3_v202603_retrieval"
TABLE15 = "published:paper_table15_v202603_c2c_by_anchor_language_ndcg10"


class Recommendation(NamedTuple):
    ranked: pd.DataFrame  # our runs within budget, best first (values x100, one decimal)
    excluded: pd.DataFrame  # our runs left out, with the reason
    tasks: tuple[str, ...]
    languages: tuple[str, ...]
    budget_b: float | None
    average: str


def query_languages(store: Store) -> pd.DataFrame:
    """Per query of the release: task and selection language (see module docstring)."""
    q = release_index(store).queries
    lang = np.where(q["task"] == "t2c", q["target_language"].fillna("any"), q["anchor_language"].fillna("any"))
    return pd.DataFrame({"query_id": q["query_id"].astype(str), "task": q["task"].astype(str), "language": lang})


def selected_queries(store: Store, tasks: Iterable[str], languages: Iterable[str]) -> set[str]:
    """Ids of the release's queries in the chosen tasks and languages."""
    ql = query_languages(store)
    return set(ql.loc[ql["task"].isin(list(tasks)) & ql["language"].isin(list(languages)), "query_id"])


def slice_scores(per_query: pd.DataFrame, chosen: set[str], average: str = "tasks",
                 metric: str = "ndcg_at_10") -> dict[str, pd.DataFrame]:
    """Per run: its chosen queries with ``score``, the per-query value weighted so that the plain
    mean of ``score`` is the selection mean (mean of task means, or the query-weighted mean)."""
    rows = per_query[per_query["query_id"].astype(str).isin(chosen)]
    out = {}
    for run, g in rows.groupby("run", observed=True, sort=False):
        g = g[["task", "query_id", metric]].copy()
        g["task"] = g["task"].astype(str)
        if average == "tasks":
            counts = g["task"].map(g["task"].value_counts())
            g["score"] = g[metric] * len(g) / (counts * g["task"].nunique())
        else:
            g["score"] = g[metric]
        out[str(run)] = g.reset_index(drop=True)
    return out


def recommend(store: Store, per_query: pd.DataFrame, traps: pd.DataFrame, metas: dict[str, dict],
              tasks: Iterable[str] = TASKS, languages: Iterable[str] = LANGUAGES, budget_b: float | None = None,
              average: str = "tasks", seed: int = 0) -> Recommendation:
    """Rank our runs on the chosen slices: mean nDCG@10 (x100), bootstrap 95% interval, share of
    chosen queries with a trap above the first positive (graded qrels), parameters. Runs over the
    budget, or with an unknown parameter count while a budget is set, go to ``excluded``."""
    tasks, languages = tuple(tasks), tuple(languages)
    chosen = selected_queries(store, tasks, languages)
    scores = slice_scores(per_query, chosen, average)
    trap_rows = traps[traps["query_id"].astype(str).isin(chosen)]
    trap_share = trap_rows.groupby("run", observed=True)["trap_above_positive"].mean()
    excluded, kept = [], {}
    for run in per_query["run"].astype(str).unique():
        meta = metas.get(run, {})
        params = run_params(meta)
        model = run_name(meta) if meta else run
        if run not in scores or scores[run].empty:
            excluded.append({"model": model, "run": run, "params_b": params,
                             "reason": "no evaluated queries in the chosen tasks and languages"})
        elif budget_b is not None and params is None:
            excluded.append({"model": model, "run": run, "params_b": params, "reason": "parameter count unknown"})
        elif budget_b is not None and params > budget_b:
            excluded.append({"model": model, "run": run, "params_b": params,
                             "reason": f"{params:g} B parameters exceed the {budget_b:g} B budget"})
        else:
            kept[run] = scores[run]
    ci = intervals(kept, "score", seed=seed) if kept else pd.DataFrame(columns=["run", "queries", "mean", "ci_low",
                                                                               "ci_high"])
    rows = []
    for _, r in ci.iterrows():
        g = kept[r["run"]]
        per_task = g.groupby("task")["ndcg_at_10"].mean()
        meta = metas.get(r["run"], {})
        rows.append({"model": run_name(meta) if meta else r["run"], "run": r["run"], "params_b": run_params(meta),
                     "queries": int(r["queries"]), "mean_ndcg_at_10": x100(r["mean"]), "ci_low": x100(r["ci_low"]),
                     "ci_high": x100(r["ci_high"]), "trap_share": x100(trap_share.get(r["run"], np.nan)),
                     **{t: x100(per_task.get(t)) for t in TASKS}, "_exact": r["mean"],
                     "evidence": "our run: per-query metrics on this release"})
    ranked = pd.DataFrame(rows, columns=RANKED_COLUMNS[1:] + ["_exact"])
    if len(ranked):
        ranked = ranked.sort_values(["_exact", "trap_share", "params_b", "run"],
                                    ascending=[False, True, True, True], na_position="last")
    ranked = ranked.drop(columns="_exact").reset_index(drop=True)
    ranked.insert(0, "rank", np.arange(1, len(ranked) + 1))
    return Recommendation(ranked, pd.DataFrame(excluded, columns=EXCLUDED_COLUMNS), tasks, languages, budget_b,
                          average)


def recommend_published(result_rows: Iterable[dict], tasks: Iterable[str] = TASKS,
                        languages: Iterable[str] = LANGUAGES, budget_b: float | None = None
                        ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Published models ranked by the plain mean of their nDCG@10 (x100) over the chosen tasks,
    ``"published figures only"`` (real CoREB v202603, no per-query data, no interval).

    With every language chosen: paper Table 3 per task. With fewer languages only C2C can be
    filtered (Table 15, by anchor language: python, java, cpp, go); other tasks exclude the model.
    Parameters come from the project page's efficiency table. Returns (ranked, excluded)."""
    tasks, languages = tuple(tasks), tuple(languages)
    rows = list(result_rows)
    all_langs = set(LANGUAGES) <= set(languages)
    table3: dict[str, dict] = {}
    table15: dict[str, dict] = {}
    names: dict[str, str] = {}
    for r in rows:
        if r.get("metric") != "ndcg_at_10":
            continue
        key = canonical_model(r["model"])
        if r.get("source") == TABLE3:
            table3.setdefault(key, {})[r["task"]] = r["value"]
            names.setdefault(key, r["model"])
        elif r.get("source") == TABLE15:
            table15.setdefault(key, {})[r["subset"]] = r["value"]
    params = {canonical_model(m): v for m, v in parameter_counts().items()}
    ranked, excluded = [], []
    for key, values in table3.items():
        model, p = names[key], params.get(key)
        per_task, figures, reason = {}, [], None
        for task in tasks:
            if all_langs:
                per_task[task] = values.get(task)
                figures.append(f"{task}: paper Table 3")
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
            reason = f"{p:g} B parameters exceed the {budget_b:g} B budget"
        if reason is None and any(v is None for v in per_task.values()):
            reason = "a chosen task has no published figure"
        if reason:
            excluded.append({"model": model, "run": None, "params_b": p, "reason": reason})
            continue
        mean = float(np.mean(list(per_task.values()))) if per_task else math.nan
        ranked.append({"model": model, "params_b": p, "mean_ndcg_at_10": x100(mean), "_exact": mean,
                       **{t: x100(per_task.get(t)) for t in TASKS}, "figures": "; ".join(figures),
                       "evidence": PUBLISHED_ONLY})
    frame = pd.DataFrame(ranked, columns=PUBLISHED_COLUMNS[1:] + ["_exact"])
    if len(frame):
        frame = frame.sort_values(["_exact", "params_b", "model"], ascending=[False, True, True], na_position="last")
    frame = frame.drop(columns="_exact").reset_index(drop=True)
    frame.insert(0, "rank", np.arange(1, len(frame) + 1))
    return frame, pd.DataFrame(excluded, columns=EXCLUDED_COLUMNS)


def _slice_words(rec: Recommendation) -> str:
    tasks = ", ".join(t.upper() for t in rec.tasks)
    langs = "all languages" if set(LANGUAGES) <= set(rec.languages) else ", ".join(rec.languages)
    budget = "no parameter limit" if rec.budget_b is None else f"at most {rec.budget_b:g} B parameters"
    return f"{tasks} · {langs} · {budget}"


def _params_words(value: float | None) -> str:
    return "unknown parameters" if value is None or pd.isna(value) else f"{value:g} B parameters"


def winner_sentence(rec: Recommendation, scheme: str) -> str:
    """One sentence naming the winner, built from the numbers of ``rec.ranked``."""
    if rec.ranked.empty:
        return f"No run qualifies for {_slice_words(rec)}."
    top = rec.ranked.iloc[0]
    text = (f"For {_slice_words(rec)}, {top['model']} ranks first with mean nDCG@10 {top['mean_ndcg_at_10']:.1f} "
            f"(95% CI {top['ci_low']:.1f}–{top['ci_high']:.1f}, {top['queries']} queries, scheme {scheme}), "
            f"a trap above the first positive on {top['trap_share']:.1f}% of queries, {_params_words(top['params_b'])}")
    if len(rec.ranked) > 1:
        second = rec.ranked.iloc[1]
        gap = top["mean_ndcg_at_10"] - second["mean_ndcg_at_10"]
        overlap = second["ci_high"] >= top["ci_low"]
        lead = (f"level with {second['model']} ({second['mean_ndcg_at_10']:.1f}) at one decimal" if gap < 0.05
                else f"{gap:.1f} points ahead of {second['model']} ({second['mean_ndcg_at_10']:.1f})")
        text += (f"; {lead}, "
                 + ("the intervals overlap, so the lead is not conclusive." if overlap
                    else "the intervals do not overlap."))
    else:
        text += "; it is the only run that qualifies."
    return text


def summary_markdown(rec: Recommendation, published: pd.DataFrame, scheme: str, release: str) -> str:
    """A plain-text/markdown one-page summary of the recommendation (for download or printing)."""
    lines = ["# CoREB model selection", "", f"Release: {release} · scheme: {scheme} · selection: {_slice_words(rec)}",
             f"Average: {'mean of task means' if rec.average == 'tasks' else 'query-weighted mean'}; "
             "values are nDCG@10 x100; trap share = queries with a trap (rel=1) above the first positive.", "",
             winner_sentence(rec, scheme), "", "## Our runs", ""]
    if rec.ranked.empty:
        lines.append("(none qualifies)")
    for _, r in rec.ranked.iterrows():
        lines.append(f"{r['rank']}. {r['model']} ({r['run']}): {r['mean_ndcg_at_10']:.1f} "
                     f"[{r['ci_low']:.1f}, {r['ci_high']:.1f}], trap share {r['trap_share']:.1f}%, "
                     f"{_params_words(r['params_b'])}, {r['queries']} queries")
    for _, r in rec.excluded.iterrows():
        lines.append(f"- excluded: {r['model']} ({r['run']}): {r['reason']}")
    lines += ["", f"## Published models ({PUBLISHED_ONLY}; real CoREB v202603, not this release)", ""]
    if published.empty:
        lines.append("(none: the chosen filter cannot be applied to published figures)")
    for _, r in published.iterrows():
        lines.append(f"{r['rank']}. {r['model']}: {r['mean_ndcg_at_10']:.1f}, {_params_words(r['params_b'])} "
                     f"({r['figures']})")
    return "\n".join(lines) + "\n"
