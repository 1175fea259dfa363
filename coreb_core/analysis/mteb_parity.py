"""Our re-runs of MTEB's own models beside MTEB's published result files: the same numbers, when the
run follows MTEB's recipe and is scored as MTEB scores (scheme ``mteb``).

A model of our registry that reproduces an MTEB model names it here (``MTEB_TWINS``); its runs are scored
with ``MTEB`` (positives only, queries without one left out, the C2C anchor kept) and set beside the
imported MTEB rows of the twin (``import-results`` of an MTEB results tree). No Streamlit here.

Example (the real release_v2603, a bm25s-mteb run and ``mteb__baseline-bm25s`` imported; not doctested):
    >>> table = mteb_parity(store, {run: read_hits(run)}, {run: run_meta(run)}, all_rows())
    >>> table.loc[table["metric"] == "ndcg_at_10", ["task", "ours", "mteb", "difference"]]
      task     ours     mteb  difference
    0  t2c  0.15023  0.15023         0.0
    3  c2c  0.21952  0.21952         0.0
    6  c2t  0.26860  0.26860         0.0
"""
from __future__ import annotations

from typing import Iterable

import pandas as pd

from coreb_core.data.schema import TASK_NAMES
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import evaluate, summary
from coreb_core.evaluation.schemes import MTEB
from coreb_core.runs.meta import RunMeta

# Our registry id -> the MTEB model whose recipe it follows (model_meta.json's name).
MTEB_TWINS = {"bm25s-mteb": "mteb/baseline-bm25s"}
PARITY_METRICS = ("ndcg_at_10", "recall_at_10", "map_at_10")
COLUMNS = ["run", "model", "mteb_model", "task", "metric", "queries", "ours", "mteb", "difference", "mteb_source"]


def mteb_parity(store: Store, runs: dict[str, pd.DataFrame], metas: dict[str, RunMeta],
                result_rows: Iterable[dict]) -> pd.DataFrame:
    """One row per (run with an MTEB twin, task, metric): our value under scheme ``mteb`` (rounded to MTEB's
    5 decimals), the imported MTEB value of the twin's retrieval task, and ours minus MTEB's. Runs without a
    twin, or whose twin was not imported, give no rows."""
    imported = pd.DataFrame([r for r in result_rows if r.get("source_kind") == "mteb"])
    out = []
    for run_id, hits in runs.items():
        twin = MTEB_TWINS.get(getattr(metas.get(run_id), "model", None) or "")
        if twin is None or imported.empty:
            continue
        theirs = imported[(imported["model"] == twin) & imported["metric"].isin(PARITY_METRICS)
                          & ~imported["task"].astype(str).str.contains("Reranking") & (imported["split"] == "test")]
        if theirs.empty:
            continue
        ours = summary(evaluate(store, hits, MTEB, anchor_exclusion=False))["tasks"]
        for task in TASK_NAMES:
            for metric in PARITY_METRICS:
                match = theirs[(theirs["task_short"] == task) & (theirs["metric"] == metric)]
                if task not in ours or match.empty:
                    continue
                mine, published = round(ours[task][metric], 5), float(match["value"].iloc[0])
                out.append({"run": run_id, "model": metas[run_id].model, "mteb_model": twin, "task": task,
                            "metric": metric, "queries": ours[task]["queries"], "ours": mine, "mteb": published,
                            "difference": round(mine - published, 5), "mteb_source": str(match["source"].iloc[0])})
    return pd.DataFrame(out, columns=COLUMNS)
