"""The article's figures a reader looks for, each beside what our runs give on the chosen release, with
its source and the release it was measured on: paper Table 4 (T2C by subtask, search near 0), the C2C
nDCG@1 with the anchor excluded, the T2C language gradient (ruby and go printed as one range), the
reranker deltas (in % of C2LLM-7B's nDCG@10, not points) and the task order the published figures show.

Every frame holds fractions (the reranker deltas: percent, as printed); ``ui`` prints them.

Example:
    >>> table4(published_rows())[["model", "canonical", "full", "search"]].head(1)   # doctest: +SKIP
          model  canonical   full  search
    0  C2LLM-7B      0.582  0.578   0.004
"""
from __future__ import annotations

from typing import Iterable, NamedTuple

import pandas as pd

from coreb_core.data.measures import NDCG_10
from coreb_core.data.schema import TASK_NAMES
from coreb_core.data.store import Store, with_query_facts
from coreb_core.results.published import published_figures

TABLE4 = "published:paper_table4_v202603_t2c_subtask_ndcg10"
NDCG1_EXCLUDED = "published:paper_c2c_ndcg1_anchor_excluded_v202603"
RERANKERS = "published:reranker_delta_ndcg10_pct_top128_C2LLM7B_v202603"
TABLE3 = "published:paper_table3_v202603_retrieval"
LANGUAGE_AVERAGE = "paper_t2c_by_language_avg_over_models_excl_search"
ARTICLE_TASK_ORDER = tuple(reversed(TASK_NAMES))  # the article's "C2T > C2C > T2C"
T2C_KINDS = ("canonical", "full", "search")  # Table 4's columns: the T2C subtask families


def t2c_kind(subtask: str) -> str | None:
    """Table 4's column of a T2C subtask: ``canonical``, ``full`` or ``search``.

    >>> t2c_kind("t2c_canonical_retro_python"), t2c_kind("t2c_search_fail_java"), t2c_kind("c2c_cross_lang")
    ('canonical', 'search', None)
    """
    return next((kind for kind in T2C_KINDS if subtask.startswith(f"t2c_{kind}")), None)


def _wide(rows: Iterable[dict], source: str, key: str, columns: Iterable[str]) -> pd.DataFrame:
    """model x ``key`` values of one published source, one row per model (in the source's order)."""
    frame = pd.DataFrame([r for r in rows if r.get("source") == source])
    columns = list(columns)
    if frame.empty:
        return pd.DataFrame(columns=["model", *columns])
    wide = frame.pivot_table(index="model", columns=key, values="value", aggfunc="first", sort=False)
    return wide.reindex(columns=columns).reset_index().rename_axis(columns=None)


def table4(rows: Iterable[dict]) -> pd.DataFrame:
    """Paper Table 4: T2C nDCG@10 per model and subtask family (fractions), best canonical first.

    >>> table4(published_rows()).set_index("model").loc["Qwen3-4B", "search"]   # doctest: +SKIP
    0.015
    """
    frame = _wide(rows, TABLE4, "subset", T2C_KINDS)
    return frame.sort_values("canonical", ascending=False, kind="stable").reset_index(drop=True)


def our_t2c_kinds(store: Store, per_query: pd.DataFrame, labels: dict[str, str]) -> pd.DataFrame:
    """Our runs' T2C nDCG@10 per subtask family, as Table 4 splits it (mean over the family's queries).

    >>> our_t2c_kinds(store, per_query, {"bm25": "BM25"})[["model", "canonical", "search"]]  # doctest: +SKIP
      model  canonical  search
    0  BM25      0.402   0.188
    """
    t2c = per_query[per_query["task"] == "t2c"][["run", "query_id", NDCG_10.column]]
    if t2c.empty:
        return pd.DataFrame(columns=["model", "run", *T2C_KINDS, "queries"])
    facts = with_query_facts(store, t2c[["query_id"]], ("subtask",))
    t2c = t2c.assign(kind=facts["subtask"].astype(str).map(t2c_kind).to_numpy())
    means = t2c.groupby(["run", "kind"], observed=True)[NDCG_10.column].mean().unstack("kind")
    counts = t2c.groupby("run", observed=True).size()
    out = means.reindex(columns=list(T2C_KINDS)).reset_index().rename_axis(columns=None)
    out.insert(0, "model", out["run"].astype(str).map(lambda r: labels.get(r, r)))
    out["queries"] = out["run"].map(counts).astype(int)
    return out


def ndcg1_anchor_excluded(rows: Iterable[dict]) -> pd.DataFrame:
    """The paper's C2C nDCG@1 with the anchor excluded (five models, fractions).

    >>> ndcg1_anchor_excluded(published_rows())["model"].tolist()[:2]   # doctest: +SKIP
    ['Jina-code-0.5b', 'Jina-code-1.5b']
    """
    frame = pd.DataFrame([{"model": r["model"], "ndcg_at_1": r["value"]} for r in rows
                          if r.get("source") == NDCG1_EXCLUDED], columns=["model", "ndcg_at_1"])
    return frame.sort_values("ndcg_at_1", ascending=False, kind="stable").reset_index(drop=True)


def our_c2c_ndcg1(per_query: pd.DataFrame, labels: dict[str, str]) -> pd.DataFrame:
    """Our runs' C2C nDCG@1 (whatever the anchor rule of ``per_query``; the page says which).

    >>> our_c2c_ndcg1(per_query, {"bm25": "BM25"})   # doctest: +SKIP
      model   run  ndcg_at_1  queries
    0  BM25  bm25      0.195       87
    """
    c2c = per_query[per_query["task"] == "c2c"]
    grouped = c2c.groupby("run", observed=True)["ndcg_at_1"].agg(["mean", "size"]).reset_index()
    return pd.DataFrame({"model": grouped["run"].astype(str).map(lambda r: labels.get(r, r)),
                         "run": grouped["run"].astype(str), "ndcg_at_1": grouped["mean"],
                         "queries": grouped["size"].astype(int)})


class LanguageRange(NamedTuple):
    """A figure the source prints as a range of two values for a group of languages."""

    languages: tuple[str, ...]
    low: float
    high: float


def language_ranges() -> list[LanguageRange]:
    """The T2C language gradient's figures printed as a range (ruby and go: 38.3–38.7).

    >>> language_ranges()
    [LanguageRange(languages=('ruby', 'go'), low=0.383, high=0.387)]
    """
    out = []
    for key, value in published_figures()[LANGUAGE_AVERAGE].items():
        if isinstance(value, str) and "-" in value:
            low, high = (float(v) for v in value.split("-"))
            out.append(LanguageRange(tuple(key.split("_")), low, high))
    return out


# The article's finding 5 (shared/seeds): the nDCG@10 change (0..1) a reranker brings, the range over its four
# representative models, per task.
ARTICLE_RERANKER_RANGES = {"t2c": (-0.009, 0.015), "c2c": (0.005, 0.046), "c2t": (-0.079, -0.042)}
PUBLISHED_RERANKERS = "published: over C2LLM-7B's top 128 (project page, v202603)"


class RerankedPair(NamedTuple):
    """One of our reranked runs and its first stage: names, depth, where the reranker's training samples came from
    (None: a reranker not trained here), and per task the nDCG@10 of both (fractions; official scheme)."""

    name: str
    first_stage: str
    depth: int
    trained_on: str | None
    reranked: dict[str, float]
    first: dict[str, float]


def reranker_deltas(rows: Iterable[dict], ours: Iterable[RerankedPair] = ()) -> pd.DataFrame:
    """Each reranker's change of its first stage's nDCG@10, per task, in two units: percent of the first stage's
    score (``t2c``…, ``-8.3`` = 8.3 % lower, as the project page prints it) and nDCG@10 itself (``t2c_delta``…,
    0..1, as the article's finding 5 gives it). The published rerankers reorder C2LLM-7B's top 128 (their nDCG@10
    change is the page's percent of C2LLM-7B's paper Table 3 score); ours reorder the first stage their run records.

    >>> d = reranker_deltas(published_rows()).set_index("model")   # doctest: +SKIP
    >>> d.loc["CoREB-Reranker", "c2c"], round(d.loc["CoREB-Reranker", "c2c_delta"], 4)   # doctest: +SKIP
    (5.1, 0.0336)
    """
    rows = list(rows)
    frame = _wide(rows, RERANKERS, "task", TASK_NAMES)
    base = _wide([r for r in rows if r.get("metric") == NDCG_10.column], TABLE3, "task", TASK_NAMES)
    c2llm = base.set_index("model").loc["C2LLM-7B"] if "C2LLM-7B" in set(base["model"]) else None
    for t in TASK_NAMES:
        frame[f"{t}_delta"] = frame[t] / 100 * (float(c2llm[t]) if c2llm is not None else float("nan"))
    frame = frame.assign(source=PUBLISHED_RERANKERS)
    mine = [{"model": p.name, "source": f"ours: over {p.first_stage}'s top {p.depth}"
             + (f", trained on {p.trained_on}" if p.trained_on else ""),
             **{t: 100 * (p.reranked[t] - p.first[t]) / p.first[t] if p.first.get(t) else float("nan")
                for t in TASK_NAMES if t in p.reranked},
             **{f"{t}_delta": p.reranked[t] - p.first[t] for t in TASK_NAMES if t in p.reranked and t in p.first}}
            for p in ours]
    frame = pd.concat([frame, pd.DataFrame(mine)], ignore_index=True) if mine else frame
    frame = frame.reindex(columns=["model", "source", *TASK_NAMES, *(f"{t}_delta" for t in TASK_NAMES)])
    frame[list(TASK_NAMES)] = frame[list(TASK_NAMES)].astype(float)
    return frame.assign(mean=frame[list(TASK_NAMES)].mean(axis=1).round(2)).sort_values(
        ["source", "mean"], ascending=[False, False], kind="stable").reset_index(drop=True)


class TaskOrder(NamedTuple):
    """How many published models rank their tasks in the article's order, and the ones that do not."""

    order: tuple[str, ...]  # the stated order, best task first
    models: int
    holding: int
    exceptions: tuple[str, ...]  # "<model> (<its order>)", ties written with "="


def task_order(rows: Iterable[dict], order: tuple[str, ...] = ARTICLE_TASK_ORDER, source: str = TABLE3) -> TaskOrder:
    """Which published models score their tasks strictly in ``order`` in ``source`` (paper Table 3): the
    article says C2T > C2C > T2C for all eleven models; the figures show three exceptions.

    >>> t = task_order(published_rows())   # doctest: +SKIP
    >>> t.models, t.holding, t.exceptions[0]   # doctest: +SKIP
    (11, 8, 'F2LLM-1.7B (C2T > C2C = T2C)')
    """
    table = _wide([r for r in rows if r.get("metric") == NDCG_10.column], source, "task", order)
    exceptions = []
    for _, row in table.iterrows():
        values = [row[t] for t in order]
        if not all(a > b for a, b in zip(values, values[1:])):
            ranked = sorted(order, key=lambda t: -row[t])
            words = ranked[0].upper()
            for prev, task in zip(ranked, ranked[1:]):
                words += (" = " if row[prev] == row[task] else " > ") + task.upper()
            exceptions.append(f"{row['model']} ({words})")
    return TaskOrder(order, len(table), len(table) - len(exceptions), tuple(exceptions))


class ArticleFigures(NamedTuple):
    """Everything the Overview's "article's figures" section shows, for one release and set of runs."""

    table4: pd.DataFrame  # published T2C by subtask family
    our_t2c: pd.DataFrame  # our runs, the same split
    ndcg1: pd.DataFrame  # published C2C nDCG@1, anchor excluded
    our_ndcg1: pd.DataFrame  # our runs' C2C nDCG@1 under the page's anchor rule
    ranges: list[LanguageRange]
    rerankers: pd.DataFrame  # percent of the first stage's nDCG@10, and its change (0..1): published and ours
    order: TaskOrder


def article_figures(store: Store, per_query: pd.DataFrame, rows: Iterable[dict], labels: dict[str, str],
                    reranked: Iterable[RerankedPair] = ()) -> ArticleFigures:
    """The article's figures and ours beside them (see the module docstring).

    >>> figures = article_figures(store, per_query, published_rows(), {"bm25": "BM25"})   # doctest: +SKIP
    >>> figures.order.holding, len(figures.table4)   # doctest: +SKIP
    (8, 11)
    """
    rows = list(rows)
    return ArticleFigures(table4(rows), our_t2c_kinds(store, per_query, labels), ndcg1_anchor_excluded(rows),
                          our_c2c_ndcg1(per_query, labels), language_ranges(), reranker_deltas(rows, reranked),
                          task_order(rows))
