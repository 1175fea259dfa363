"""Published CoREB figures, bundled as data (``coreb_core/results/published_figures.json``, copied from
the paper arXiv:2605.04615, the project page and the README), flattened into result rows.

Paper Table 3 and the later project page/README disagree on C2T (about x0.964 for every model);
both are kept, each labelled with its source.

Example:
    >>> rows = published_rows()
    >>> sorted((r["source"], r["value"]) for r in rows if r["model"] == "C2LLM-7B" and r["task"] == "c2t"
    ...        and r["metric"] == "ndcg_at_10" and r["dataset_revision"] == "v202603")
    [('published:page_b312b5b_v202603_retrieval', 0.766), ('published:paper_table3_v202603_retrieval', 0.795),
     ('published:readme_v202603_ndcg10', 0.766)]
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from coreb_core.data.measures import NDCG_10, Measure, metric_label
from coreb_core.data.schema import TASK_NAMES

FILE = Path(__file__).resolve().parent / "published_figures.json"
_METRIC = {"ndcg10": NDCG_10.column, "recall10": Measure("recall", 10).column}

# Two kinds of overall average are published, and each published overall is stored under its kind:
# - QUERY_WEIGHTED: paper Table 3 / Table 14 and the project page. Their Overall is the mean over every
#   query of the release, i.e. per-task means weighted by query counts. Found by fitting: with the
#   counts below it reproduces every model's Overall nDCG@10 and Recall@10 within 0.0008 (rounding);
#   the plain mean of tasks misses by up to 0.07. On v202603 the counts are the dataset's row counts
#   (T2C 1,123, C2C 278, C2T 1,200 including the 190 c2t_match label-0 pairs that score 0), not paper
#   Table 11's (1,117 / 166 / 1,200, which lists only cross-language C2C); on v202602 Table 11's counts.
# - TASK_MEAN: the README's "Avg", the plain mean of the three tasks.
QUERY_WEIGHTED = "overall_query_weighted"
TASK_MEAN = "overall_task_mean"
OVERALL_QUERY_COUNTS = {"v202603": {"t2c": 1123, "c2c": 278, "c2t": 1200},
                        "v202602": {"t2c": 1165, "c2c": 169, "c2t": 1270}}
# Tables whose key names no release: the parameter-efficiency table of project page 1a0d779 prints paper
# Table 3's v202603 Overall for every model; the T2C-by-language averages come from the paper's analysis
# of its test release (v202603), like Tables 4 and 15.
RELEASE_OF_UNDATED = {"page_1a0d779_parameter_efficiency": "v202603",
                      "reranker_delta_earlier_page_1a0d779_top100_projected": "v202603",
                      "paper_t2c_by_language_avg_over_models_excl_search": "v202603"}


# The hub's split names and the dataset versions the paper and project page print: a release cached under a
# split's name (import-data of a hub copy or the real export, fetch) is that published version.
VERSION_OF_SPLIT = {"release_v2603": "v202603", "release_v2602": "v202602"}


def published_version(release: str) -> str | None:
    """The published dataset version a cached release is, by its hub split name; None for any other release
    (CoREB-mini, a release imported under a name of its own).

    >>> published_version("release_v2603"), published_version("release_v2602"), published_version("demo_v2603")
    ('v202603', 'v202602', None)
    """
    return VERSION_OF_SPLIT.get(release)


def comparable_version(release: str) -> str:
    """The published version whose figures are set beside runs on ``release``: its own when it is one, else
    the test release's (v202603).

    >>> comparable_version("release_v2602"), comparable_version("demo_v2603")
    ('v202602', 'v202603')
    """
    return published_version(release) or "v202603"


def release_relation(release: str, version: str | None = None) -> str:
    """How published figures of ``version`` (default: ``comparable_version``) stand to runs on ``release``,
    in words for a caption.

    >>> release_relation("release_v2603"), release_relation("demo_v2603")
    ('real CoREB v202603, the release of our runs (release_v2603): like with like', 'real CoREB v202603, not this release')
    """
    version = version or comparable_version(release)
    if published_version(release) == version:
        return f"real CoREB {version}, the release of our runs ({release}): like with like"
    return f"real CoREB {version}, not this release"


def query_weighted_overall(task_values: dict[str, float], counts: dict[str, int]) -> float:
    """Overall as paper Table 3 computes it: the per-task means weighted by each task's query count.

    >>> round(query_weighted_overall({"t2c": 0.443, "c2c": 0.659, "c2t": 0.795}, OVERALL_QUERY_COUNTS["v202603"]), 3)
    0.628
    """
    total = sum(counts[t] for t in task_values)
    return sum(task_values[t] * counts[t] for t in task_values) / total


@lru_cache(maxsize=1)
def published_figures() -> dict[str, Any]:
    """The bundled figures file as read: one table per source, keyed as in the JSON (read once).

    >>> published_figures()["page_1a0d779_parameter_efficiency"]["C2LLM-0.5B"]   # params_b, Overall, per billion
    [0.5, 0.603, 1.206]
    """
    return json.loads(FILE.read_text(encoding="utf-8"))


def _scheme(key: str) -> str:
    if key.startswith("paper"):
        return "v2 (paper)"
    if key.startswith("page"):
        return "v2 (project page)"
    if key.startswith("readme"):
        return "v2 (README)"
    return "v2 (published)"


def _row(key: str, model: str, task: str, metric: str, value: Any, subset: str = "default") -> dict[str, Any] | None:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None  # projected figures such as "~+2%" are not numbers to compare
    dated = re.search(r"v2026\d\d", key)
    release = dated.group(0) if dated else RELEASE_OF_UNDATED.get(key)
    return {"source": f"published:{key}", "source_kind": "published", "file": str(FILE.name), "model": model,
            "revision": None, "dataset_revision": release, "task": task,
            "task_short": task if task in TASK_NAMES else None, "subset": subset, "split": "test",
            "metric": metric, "label": metric_label(metric), "value": float(value), "scheme": _scheme(key)}



def published_rows() -> list[dict[str, Any]]:
    """Every numeric published figure as a row (same fields as imported results).

    >>> row = published_rows()[0]
    >>> row["source"], row["model"], row["task"], row["label"], row["value"], row["dataset_revision"]
    ('published:paper_table3_v202603_retrieval', 'GemEmb-2', 't2c', 'nDCG@10', 0.434, 'v202603')
    """
    figures = published_figures()
    rows: list[dict[str, Any] | None] = []
    for key, table in figures.items():
        if key.startswith("_"):
            continue
        if key.endswith("_retrieval"):  # Table 3/14 and the project page: {model: {"t2c_ndcg10": x}}
            for model, values in table.items():
                for name, v in values.items():
                    task, metric = name.split("_", 1)
                    rows.append(_row(key, model, QUERY_WEIGHTED if task == "overall" else task, _METRIC[metric], v))
        elif key.startswith("readme_"):
            for model, values in table.items():
                for task, v in values.items():
                    rows.append(_row(key, model, TASK_MEAN if task == "avg_simple_mean" else task, NDCG_10.column, v))
        elif key.startswith("paper_table4"):
            for model, values in table.items():
                rows += [_row(key, model, "t2c", NDCG_10.column, v, kind) for kind, v in values.items()]
        elif key.startswith("paper_table15"):
            for model, values in table.items():
                rows += [_row(key, model, "c2c", NDCG_10.column, v, lang) for lang, v in values.items()]
        elif key.startswith("paper_c2c_ndcg1"):
            rows += [_row(key, model, "c2c", "ndcg_at_1", v) for model, v in table.items()]
        elif key.startswith("reranker_delta"):
            for model, values in table.items():
                rows += [_row(key, model, task, "ndcg_at_10_delta_pct", v) for task, v in values.items()]
        elif key.endswith("parameter_efficiency"):
            for model, values in table.items():
                if isinstance(values, list) and not model.startswith("_"):
                    rows += [_row(key, model, QUERY_WEIGHTED, "params_b", values[0]),
                             _row(key, model, QUERY_WEIGHTED, NDCG_10.column, values[1]),
                             _row(key, model, QUERY_WEIGHTED, "ndcg_at_10_per_billion_params", values[2])]
        elif key == "paper_model_avg_ndcg10_by_task_v202603":
            rows += [_row(key, "average of models", task, NDCG_10.column, v) for task, v in table.items()]
        elif key == "paper_t2c_by_language_avg_over_models_excl_search":
            rows += [_row(key, "average of models", "t2c", NDCG_10.column, v, lang) for lang, v in table.items()]
    return [r for r in rows if r is not None]


def parameter_counts() -> dict[str, float]:
    """Leaderboard name -> parameters (billions), from the project page's efficiency table.

    >>> parameter_counts()["C2LLM-0.5B"]
    0.5
    """
    table = published_figures()["page_1a0d779_parameter_efficiency"]
    return {m: v[0] for m, v in table.items() if isinstance(v, list)}
