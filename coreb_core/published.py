"""Published CoREB figures, bundled as data (``coreb_core/data/published_figures.json``, copied from
the paper arXiv:2605.04615, the project page and the README), flattened into result rows.

Paper Table 3 and the later project page/README disagree on C2T (about x0.964 for every model);
both are kept, each labelled with its source.

Example:
    >>> rows = published_rows()
    >>> {r["source"] for r in rows if r["model"] == "C2LLM-7B" and r["task"] == "c2t" and r["metric"] == "ndcg_at_10"}
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

FILE = Path(__file__).resolve().parent / "data" / "published_figures.json"
_METRIC = {"ndcg10": "ndcg_at_10", "recall10": "recall_at_10"}


@lru_cache(maxsize=1)
def published_figures() -> dict[str, Any]:
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
    release = re.search(r"v2026\d\d", key)
    return {"source": f"published:{key}", "source_kind": "published", "file": str(FILE.name), "model": model,
            "revision": None, "dataset_revision": release.group(0) if release else None, "task": task,
            "task_short": task if task in ("t2c", "c2c", "c2t") else None, "subset": subset, "split": "test",
            "metric": metric, "label": _label(metric), "value": float(value), "scheme": _scheme(key)}


def _label(metric: str) -> str:
    m = re.match(r"(ndcg|recall|map|mrr|precision|hit_rate)_at_(\d+)$", metric)
    names = {"ndcg": "nDCG", "recall": "Recall", "map": "MAP", "mrr": "MRR", "precision": "P", "hit_rate": "Hit rate"}
    return f"{names[m.group(1)]}@{m.group(2)}" if m else metric


def published_rows() -> list[dict[str, Any]]:
    """Every numeric published figure as a row (same fields as imported results)."""
    figures = published_figures()
    rows: list[dict[str, Any] | None] = []
    for key, table in figures.items():
        if key.startswith("_"):
            continue
        if key.endswith("_retrieval"):  # Table 3/14 and the project page: {model: {"t2c_ndcg10": x}}
            for model, values in table.items():
                for name, v in values.items():
                    task, metric = name.split("_", 1)
                    rows.append(_row(key, model, task, _METRIC[metric], v))
        elif key.startswith("readme_"):
            for model, values in table.items():
                for task, v in values.items():
                    rows.append(_row(key, model, "overall" if task == "avg_simple_mean" else task, "ndcg_at_10", v))
        elif key.startswith("paper_table4"):
            for model, values in table.items():
                rows += [_row(key, model, "t2c", "ndcg_at_10", v, kind) for kind, v in values.items()]
        elif key.startswith("paper_table15"):
            for model, values in table.items():
                rows += [_row(key, model, "c2c", "ndcg_at_10", v, lang) for lang, v in values.items()]
        elif key.startswith("paper_c2c_ndcg1"):
            rows += [_row(key, model, "c2c", "ndcg_at_1", v) for model, v in table.items()]
        elif key.startswith("reranker_delta"):
            for model, values in table.items():
                rows += [_row(key, model, task, "ndcg_at_10_delta_pct", v) for task, v in values.items()]
        elif key.endswith("parameter_efficiency"):
            for model, values in table.items():
                if isinstance(values, list) and not model.startswith("_"):
                    rows += [_row(key, model, "overall", "params_b", values[0]),
                             _row(key, model, "overall", "ndcg_at_10", values[1]),
                             _row(key, model, "overall", "ndcg_at_10_per_billion_params", values[2])]
        elif key == "paper_model_avg_ndcg10_by_task_v202603":
            rows += [_row(key, "average of models", task, "ndcg_at_10", v) for task, v in table.items()]
        elif key == "paper_t2c_by_language_avg_over_models_excl_search":
            rows += [_row(key, "average of models", "t2c", "ndcg_at_10", v, lang) for lang, v in table.items()]
    return [r for r in rows if r is not None]


def parameter_counts() -> dict[str, float]:
    """Leaderboard name -> parameters (billions), from the project page's efficiency table."""
    table = published_figures()["page_1a0d779_parameter_efficiency"]
    return {m: v[0] for m, v in table.items() if isinstance(v, list)}
