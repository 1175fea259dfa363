"""Leaderboard views: our runs, imported results and published figures side by side, plus the
frames behind the overview's heatmaps and charts. No Streamlit here; pages only lay these out.

Every score this module returns is a fraction (0..1) and every row carries the source and scheme it
comes from; ``coreb_core.present.display`` prints scores x100 with one decimal (the paper's convention).

Example (CoREB-mini and a BM25 run ``bm25`` in ``root``):
    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.results.imported import all_rows
    >>> from coreb_core.runs.folders import read_hits, run_meta
    >>> tables = analyse_many(store, {bm25: read_hits(bm25)}, (V2,), groupings=("task",))
    >>> board = leaderboard(tables.groups("v2", "task"), {bm25: run_meta(bm25)}, "v2", "demo_v2603", all_rows())
    >>> board.loc[board["kind"] == "our run", ["model", *TASK_NAMES, "overall_query_weighted"]]
                   model       t2c       c2c       c2t  overall_query_weighted
    0  bm25 · demo_v2603  0.299759  0.463078  0.385968                0.343496
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

import numpy as np
import pandas as pd

from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import LANGUAGE_SCOPES, POSITIVE, TASK_NAMES
from coreb_core.data.store import Store, with_query_facts
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import aggregate
from coreb_core.evaluation.join import judged_ranks, release_index
from coreb_core.results.published import QUERY_WEIGHTED, TASK_MEAN, comparable_version, published_version
from coreb_core.retrieval.models import REGISTRY
from coreb_core.runs.meta import RunMeta, run_name

# The scores come right after the model, so both overall kinds are visible without scrolling.
BOARD_COLUMNS = ["kind", "model", *TASK_NAMES, QUERY_WEIGHTED, TASK_MEAN, "release", "scheme", "source", "run"]
# The per-task retrieval tables among the published figures (Table 3/14, project page, README).
PUBLISHED_TASK_SOURCES = {
    "published:paper_table3_v202603_retrieval": "paper Table 3 (release v202603)",
    "published:page_b312b5b_v202603_retrieval": "project page b312b5b (release v202603)",
    "published:readme_v202603_ndcg10": "README (release v202603)",
    "published:paper_table14_v202602_retrieval": "paper Table 14 (release v202602)",
    "published:page_b312b5b_v202602_retrieval": "project page b312b5b (release v202602)",
}
DEFAULT_PUBLISHED = tuple(k for k in PUBLISHED_TASK_SOURCES if "v202603" in k)


def published_sources_for(release: str) -> tuple[str, ...]:
    """The published per-task tables to show beside runs on ``release``: those of its own published version
    (Table 14 and the page for release_v2602), else the test release's (v202603).

    >>> published_sources_for("release_v2602")
    ('published:paper_table14_v202602_retrieval', 'published:page_b312b5b_v202602_retrieval')
    >>> published_sources_for("demo_v2603") == DEFAULT_PUBLISHED
    True
    """
    version = comparable_version(release)
    return tuple(k for k in PUBLISHED_TASK_SOURCES if version in k)
EFFICIENCY_SOURCE = "published:page_1a0d779_parameter_efficiency"
T2C_LANGUAGE_SOURCE = "published:paper_t2c_by_language_avg_over_models_excl_search"


def score(value: Any) -> float:
    """A score as a plain float (None and NaN give NaN).

    >>> score(None), score("0.5"), score(np.float32(0.25))
    (nan, 0.5, 0.25)
    """
    return float("nan") if value is None or pd.isna(value) else float(value)


def source_label(source: str) -> str:
    """Human label of a result row's ``source`` (published keys get their table/page name).

    >>> source_label("published:paper_table3_v202603_retrieval"), source_label("published:readme_table")
    ('paper Table 3 (release v202603)', 'readme table')
    """
    if source in PUBLISHED_TASK_SOURCES:
        return PUBLISHED_TASK_SOURCES[source]
    if source == EFFICIENCY_SOURCE:
        return "project page 1a0d779 parameter efficiency"
    if source.startswith("published:"):
        return source.split(":", 1)[1].replace("_", " ")
    return source


def canonical_model(name: str) -> str:
    """One key for a model across sources ("Jina-code-emb-1.5B", "jina-code-1.5b" -> "jina-code-1.5b").

    >>> canonical_model("Jina-code-emb-1.5B"), canonical_model("jina-code-1.5b")
    ('jina-code-1.5b', 'jina-code-1.5b')
    """
    return re.sub(r"-emb-", "-", str(name).strip().lower())


def run_params(meta: RunMeta | None) -> float | None:
    """Parameters (billions) recorded in a run's model spec, or None (also for an unknown run).

    >>> from coreb_core.runs.folders import run_meta
    >>> run_params(run_meta(bm25)), run_params(None)  # a BM25 run records 0 parameters
    (0.0, None)
    """
    value = (meta.model_spec or {}).get("params_b") if meta is not None else None
    return None if value is None else float(value)


def _our_task_rows(task_means: pd.DataFrame, metas: Mapping[str, RunMeta], scheme: str, release: str,
                  metric: Measure = NDCG_10) -> pd.DataFrame:
    """Our runs, one row each, from ``Evaluation.groups(scheme, "task")`` of analyse_many, with both overall
    kinds, only when the run has all three tasks: ``overall_query_weighted`` (mean over every
    evaluated query, as paper Table 3) and ``overall_task_mean`` (plain mean of tasks, as the README)."""
    rows = []
    for run, group in task_means.groupby("run", observed=True, sort=False):
        values = dict(zip(group["task"].astype(str), group[metric.column]))
        counts = dict(zip(group["task"].astype(str), group["queries"]))
        meta = metas.get(str(run))
        complete = all(t in values for t in TASK_NAMES)
        weighted = (sum(values[t] * counts[t] for t in TASK_NAMES) / sum(counts[t] for t in TASK_NAMES)
                    if complete else np.nan)
        mean = np.mean([values[t] for t in TASK_NAMES]) if complete else np.nan
        # A cached hub split is the published version: its release cell matches the published rows'.
        rows.append({"kind": "our run", "model": run_name(meta) if meta else str(run), "source": f"our run {run}",
                     "scheme": f"{scheme} (this app's evaluator)", "release": published_version(release) or release,
                     **{t: score(values.get(t)) for t in TASK_NAMES}, QUERY_WEIGHTED: score(weighted),
                     TASK_MEAN: score(mean), "run": str(run)})
    return pd.DataFrame(rows, columns=BOARD_COLUMNS)


# MTEB's CoREB tasks score on their own scale (positives only, no anchor exclusion, C2T without label-0 pairs):
# their rows never share the v2 columns (``mteb_board``).
IMPORTED_V2_KINDS = ("coreb-runner",)
MTEB_BOARD_COLUMNS = ["model", "published_name", *TASK_NAMES, TASK_MEAN, "revision", "source", "scheme"]


def published_name(model: str) -> str | None:
    """The published leaderboard's name of a model known by its hub name (``Qwen/Qwen3-Embedding-0.6B`` ->
    ``Qwen3-Emb-0.6B``), from the model registry; None for a model the paper does not list.

    >>> published_name("Qwen/Qwen3-Embedding-0.6B"), published_name("codefuse-ai/C2LLM-7B"), published_name("x/y")
    ('Qwen3-Emb-0.6B', 'C2LLM-7B', None)
    """
    names = {spec.name.lower(): spec.leaderboard_name for spec in REGISTRY.values() if spec.leaderboard_name}
    return names.get(str(model).split("@")[0].strip().lower())


def mteb_board(rows: Iterable[dict]) -> pd.DataFrame:
    """Imported MTEB results on MTEB's own scale, one row per model and revision: nDCG@10 per task (the
    retrieval tasks, ``test`` split, ``default`` subset), their plain mean, and the name the paper gives the
    model where it lists it. Fractions; never mixed into ``leaderboard``'s v2 columns.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from coreb_core.results.imported import all_rows, example_mteb_tree, import_results
    >>> _ = import_results(example_mteb_tree(Path(tempfile.mkdtemp())))  # org/model: T2C nDCG@10 0.41 only
    >>> mteb_board(all_rows())[["model", "published_name", "t2c", "c2c", "c2t", "overall_task_mean", "revision"]]
           model published_name   t2c  c2c  c2t  overall_task_mean revision
    0  org/model           None  0.41  NaN  NaN                NaN   abc123
    """
    # One row per model and revision, however many times its files were imported (the first source is named).
    frame = _imported_frame(rows, ("mteb",)).drop_duplicates(["model", "revision", "task_short"])
    out = []
    for (model, revision, scheme), g in frame.groupby(["model", "revision", "scheme"], sort=True):
        values, source = dict(zip(g["task_short"], g["value"])), g["source"].iloc[0]
        mean = np.mean([values[t] for t in TASK_NAMES]) if all(t in values for t in TASK_NAMES) else np.nan
        out.append({"model": model, "published_name": published_name(model),
                    **{t: score(values.get(t)) for t in TASK_NAMES}, TASK_MEAN: score(mean),
                    "revision": revision or None, "source": source, "scheme": scheme})
    return pd.DataFrame(out, columns=MTEB_BOARD_COLUMNS)


def _imported_frame(rows: Iterable[dict], kinds: tuple[str, ...]) -> pd.DataFrame:
    """Imported retrieval nDCG@10 rows of ``kinds`` (``ndcg_at_10``, else the task's ``main_score``; ``test``
    split, ``default`` subset), one per source, model, revision and task."""
    frame = pd.DataFrame([r for r in rows if r.get("source_kind") in kinds])
    columns = ["source", "model", "revision", "scheme", "task_short", "value", "dataset_revision"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    frame = frame[frame["task_short"].isin(TASK_NAMES) & ~frame["task"].astype(str).str.contains("Reranking")
                  & (frame["split"] == "test") & (frame["subset"].fillna("default") == "default")]
    frame = frame[frame["metric"].isin([NDCG_10.column, "main_score"])]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    frame = frame.assign(pref=(frame["metric"] != NDCG_10.column).astype(int), revision=frame["revision"].fillna(""),
                         dataset_revision=frame["dataset_revision"].fillna(""))
    return frame.sort_values("pref").drop_duplicates(["source", "model", "revision", "task_short"])[columns]


def _imported_task_rows(rows: Iterable[dict]) -> pd.DataFrame:
    """Imported retrieval results on CoREB's own scale (official runner outputs), nDCG@10 per task.

    Uses ``ndcg_at_10`` (else the retrieval task's ``main_score``) of the ``test`` split and the
    ``default`` subset; one row per (source kind, model, revision, source folder). Only the mean of
    tasks is given: their per-task query counts are not the release's (MTEB leaves label-0 pairs out)."""
    frame = _imported_frame(rows, IMPORTED_V2_KINDS)
    if frame.empty:
        return pd.DataFrame(columns=BOARD_COLUMNS)
    out = []
    for (source, model, revision, scheme), g in frame.groupby(["source", "model", "revision", "scheme"], sort=True):
        values = dict(zip(g["task_short"], g["value"]))
        overall = np.mean([values[t] for t in TASK_NAMES]) if all(t in values for t in TASK_NAMES) else np.nan
        label = f"{model}@{revision[:10]}" if revision else model
        out.append({"kind": "imported", "model": label, "source": source, "scheme": scheme,
                    "release": ",".join(sorted(set(g["dataset_revision"]) - {""})) or None,
                    **{t: score(values.get(t)) for t in TASK_NAMES}, QUERY_WEIGHTED: np.nan, TASK_MEAN: score(overall),
                    "run": None})
    return pd.DataFrame(out, columns=BOARD_COLUMNS)


def published_task_rows(rows: Iterable[dict], sources: Iterable[str] = DEFAULT_PUBLISHED) -> pd.DataFrame:
    """Published per-task nDCG@10 (paper Table 3/14, project page, README), one row per model and
    source; each source's own overall sits in the column of its kind (Table 3/14 and the project page
    are query-weighted, the README's Avg a mean of tasks).

    >>> from coreb_core.results.imported import all_rows
    >>> published_task_rows(all_rows())[["model", "t2c", "c2c", "c2t", "overall_query_weighted"]].head(2)
            model    t2c    c2c    c2t  overall_query_weighted
    0  C2LLM-0.5B  0.430  0.656  0.753                   0.603
    1    C2LLM-7B  0.443  0.659  0.795                   0.629
    """
    wanted = set(sources)
    frame = pd.DataFrame([r for r in rows if r.get("source") in wanted and r.get("metric") == NDCG_10.column])
    if frame.empty:
        return pd.DataFrame(columns=BOARD_COLUMNS)
    out = []
    order = {s: i for i, s in enumerate(PUBLISHED_TASK_SOURCES)}
    for (source, model), g in sorted(frame.groupby(["source", "model"], sort=False),
                                     key=lambda item: (order.get(item[0][0], 99), item[0][1])):
        values = dict(zip(g["task"], g["value"]))
        out.append({"kind": "published", "model": model, "source": source_label(source),
                    "scheme": g["scheme"].iloc[0], "release": g["dataset_revision"].iloc[0],
                    **{t: score(values.get(t)) for t in TASK_NAMES}, QUERY_WEIGHTED: score(values.get(QUERY_WEIGHTED)),
                    TASK_MEAN: score(values.get(TASK_MEAN)), "run": None})
    return pd.DataFrame(out, columns=BOARD_COLUMNS)


def leaderboard(task_means: pd.DataFrame, metas: Mapping[str, RunMeta], scheme: str, release: str,
                result_rows: Iterable[dict], published_sources: Iterable[str] = DEFAULT_PUBLISHED,
                include_imported: bool = True) -> pd.DataFrame:
    """Our runs, then imported results, then published figures: nDCG@10 per task (fractions).

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.results.imported import all_rows
    >>> from coreb_core.runs.folders import read_hits, run_meta
    >>> tables = analyse_many(store, {bm25: read_hits(bm25)}, (V2,), groupings=("task",))  # demo_v2603
    >>> board = leaderboard(tables.groups("v2", "task"), {bm25: run_meta(bm25)}, "v2", "demo_v2603", all_rows())
    >>> board["kind"].value_counts().to_dict()
    {'published': 33, 'our run': 1}
    """
    result_rows = list(result_rows)
    parts = [_our_task_rows(task_means, metas, scheme, release)]
    if include_imported:
        parts.append(_imported_task_rows(result_rows))
    parts.append(published_task_rows(result_rows, published_sources))
    parts = [p for p in parts if len(p)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=BOARD_COLUMNS)


def group_heatmap(group_means: pd.DataFrame, by: str, labels: dict[str, str],
                  metric: Measure = NDCG_10) -> pd.DataFrame:
    """Long frame for a heatmap from a ``"<scheme>:<by>"`` table: run label, task, group, queries and
    ``metric`` (a fraction). ``cell`` is "task · group" (subtask names already carry the task).

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import read_hits
    >>> tables = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,), groupings=("language",))  # demo_v2603
    >>> group_heatmap(tables.groups("v2", "language"), "language", {"bm25": "BM25"}).head(2)
        run run_label task language  queries  ndcg_at_10       cell
    0  bm25      BM25  c2c      any      144    0.463078  c2c · any
    1  bm25      BM25  c2t      any       96    0.487238  c2t · any
    """
    frame = group_means[["run", "task", by, "queries", metric.column]].copy()
    frame["run"] = frame["run"].astype(str)
    frame.insert(1, "run_label", frame["run"].map(lambda r: labels.get(r, r)))
    frame["task"] = frame["task"].astype(str)
    frame[by] = frame[by].astype(str)
    frame["cell"] = frame[by] if by == "subtask" else frame["task"] + " · " + frame[by]
    return frame.reset_index(drop=True)


def c2c_language_hits(store: Store, hits: pd.DataFrame, anchor_exclusion: bool = True, k: int = 10) -> pd.DataFrame:
    """Per evaluated C2C query and target language: the query's positives (rel=2) in that language
    and how many of them rank within the top ``k`` (ranks as the evaluator has them: anchor and
    self hits dropped, lower hits moved up). Columns: query_id, anchor_language, target_language,
    positives, found.

    >>> from coreb_core.runs.folders import read_hits
    >>> c2c_language_hits(store, read_hits(bm25)).head(3)  # demo_v2603
                    query_id anchor_language target_language  positives  found
    0  q_c2c_cross_lang_0025            ruby             cpp          1      1
    1  q_c2c_cross_lang_0025            ruby              go          1      1
    2  q_c2c_cross_lang_0025            ruby            java          1      1
    """
    index = release_index(store)
    run = index.code_run(hits)
    scored, qpos, rank, grade = judged_ranks(index, run, "qrels", anchor_exclusion)
    judged = index.judged("qrels")
    listed = np.zeros(index.n_queries, dtype=bool)
    listed[scored] = True  # the run's scored queries: every judged query it lists
    keep = listed[judged.qcode]
    qcode = judged.qcode[keep]
    if not np.array_equal(scored[qpos], qcode):
        raise CorebError("internal: judged ranks are not aligned with the qrels index")
    dcode = (judged.keys - judged.qcode.astype(np.int64) * index.n_docs)[keep]
    ranks = pd.DataFrame({"query_id": index.query_array[qcode], "doc_id": np.asarray(index.docs)[dcode],
                          "rank": rank, "grade": grade})
    ranks = ranks[(index.task_array[qcode] == "c2c") & (ranks["grade"] == POSITIVE)]
    ranks = with_query_facts(store, ranks, ("anchor_language",))
    langs = store.sql("""SELECT query_id, doc_id, language AS target_language FROM judgments
                         WHERE task = 'c2c' AND relevance = ?""", [POSITIVE]).df()
    merged = ranks.merge(langs, on=["query_id", "doc_id"], how="left")
    merged["found"] = merged["rank"] <= k
    out = (merged.groupby(["query_id", "anchor_language", "target_language"], dropna=False)
           .agg(positives=("doc_id", "size"), found=("found", "sum")).reset_index())
    out["found"] = out["found"].astype(int)
    return out


def c2c_language_pairs(store: Store, hits: pd.DataFrame, anchor_exclusion: bool = True, k: int = 10) -> pd.DataFrame:
    """Anchor language x target language for C2C: per pair, the mean over queries of the share of
    that query's positives in the target language found in the top ``k`` (recall@k restricted to
    the language), with the number of queries and positives.

    >>> from coreb_core.runs.folders import read_hits
    >>> pairs = c2c_language_pairs(store, read_hits(bm25))  # demo_v2603
    >>> pairs[["anchor_language", "target_language", "queries", "recall_at_k"]].head(2)
      anchor_language target_language  queries  recall_at_k
    0             cpp              go       16          1.0
    1             cpp            java       11          1.0
    """
    per = c2c_language_hits(store, hits, anchor_exclusion, k)
    per = per.assign(share=per["found"] / per["positives"])
    out = (per.groupby(["anchor_language", "target_language"])
           .agg(queries=("query_id", "nunique"), positives=("positives", "sum"), found=("found", "sum"),
                recall_at_k=("share", "mean")).reset_index())
    out["k"] = k
    return out


def parameter_efficiency(result_rows: Iterable[dict], board: pd.DataFrame, metas: Mapping[str, RunMeta]) -> pd.DataFrame:
    """Published parameter-efficiency points (project page 1a0d779: params, Table 3's query-weighted
    overall nDCG@10) and our runs whose model spec records ``params_b``, with the same kind of overall.

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.results.imported import all_rows
    >>> from coreb_core.runs.folders import read_hits, run_meta
    >>> tables = analyse_many(store, {bm25: read_hits(bm25)}, (V2,), groupings=("task",))  # demo_v2603
    >>> metas = {bm25: run_meta(bm25)}
    >>> board = leaderboard(tables.groups("v2", "task"), metas, "v2", "demo_v2603", all_rows())
    >>> parameter_efficiency(all_rows(), board, metas)[["model", "kind", "params_b", "overall"]].tail(2)
                    model       kind  params_b   overall
    9        Qwen3-Emb-8B  published       8.0  0.481000
    10  bm25 · demo_v2603    our run       0.0  0.343496
    """
    rows = [r for r in result_rows if r.get("source") == EFFICIENCY_SOURCE]
    points: dict[str, dict] = {}
    for r in rows:
        p = points.setdefault(r["model"], {"model": r["model"], "source": source_label(EFFICIENCY_SOURCE),
                                           "kind": "published", "scheme": r["scheme"]})
        if r["metric"] == "params_b":
            p["params_b"] = r["value"]
        elif r["metric"] == NDCG_10.column:
            p["overall"] = score(r["value"])
    out = [p for p in points.values() if "params_b" in p and "overall" in p]
    ours = board[board["kind"] == "our run"] if len(board) else board
    for _, row in ours.iterrows():
        params = run_params(metas.get(row["run"]))
        if params is not None and not pd.isna(row[QUERY_WEIGHTED]):
            out.append({"model": row["model"], "source": row["source"], "kind": "our run", "scheme": row["scheme"],
                        "params_b": params, "overall": row[QUERY_WEIGHTED]})
    return pd.DataFrame(out, columns=["model", "kind", "params_b", "overall", "source", "scheme"])


def t2c_language_gradient(store: Store, per_query: pd.DataFrame, result_rows: Iterable[dict],
                          labels: dict[str, str], exclude_search: bool = True) -> pd.DataFrame:
    """T2C nDCG@10 (``value``, a fraction) by target language: the paper's average over models (search subtask
    excluded) and each of our runs (search excluded too when ``exclude_search``, to match).

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V2
    >>> from coreb_core.runs.folders import read_hits
    >>> per_query = analyse_many(store, {"bm25": read_hits(bm25)}, (V2,)).per_query(V2)  # demo_v2603
    >>> gradient = t2c_language_gradient(store, per_query, [], {"bm25": "BM25"})  # no published rows given
    >>> gradient[["series", "language", "value", "queries"]].head(3)
      series language     value  queries
    0   BM25      any  0.435459       48
    1   BM25   python  0.265118       48
    2   BM25     java  0.199770       48
    """
    out = [{"series": "published: average of models (paper)", "kind": "published", "language": r["subset"],
            "value": score(r["value"]), "queries": None, "source": "paper, T2C by language (excl. search)"}
           for r in result_rows if r.get("source") == T2C_LANGUAGE_SOURCE]
    t2c = per_query[per_query["task"] == "t2c"]
    if exclude_search:
        subtask = with_query_facts(store, t2c[["query_id"]], ("subtask",))["subtask"]
        t2c = t2c[~subtask.str.startswith("t2c_search").to_numpy()]
    if len(t2c):
        means = aggregate(store, t2c[["run", "task", "query_id", NDCG_10.column]], "language")
        for _, m in means.iterrows():
            out.append({"series": labels.get(str(m["run"]), str(m["run"])), "kind": "our run",
                        "language": m["language"], "value": score(m[NDCG_10.column]), "queries": int(m["queries"]),
                        "source": f"our run {m['run']}"})
    frame = pd.DataFrame(out, columns=["series", "kind", "language", "value", "queries", "source"])
    frame["order"] = frame["language"].map({lang: i for i, lang in enumerate(LANGUAGE_SCOPES)}).fillna(99)
    return frame.sort_values(["kind", "series", "order"]).drop(columns="order").reset_index(drop=True)
