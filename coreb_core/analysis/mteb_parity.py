"""Our re-runs of MTEB's own models beside MTEB's published result files: the same numbers, when the
run follows MTEB's recipe and is scored as MTEB scores (scheme ``mteb``).

A model of our registry that reproduces an MTEB model names it here (``MTEB_TWINS``); its runs are scored
with ``MTEB`` (positives only, queries without one left out, the C2C anchor kept) and set beside the
imported MTEB rows of the twin (``import-results`` of an MTEB results tree). No Streamlit here.

Example (the real release_v2603 from ``../shared/coreb_real`` and MTEB's own bm25s results imported into the
cache, then a bm25s-mteb run on it; skipped here, as it needs the real data):
    >>> from pathlib import Path
    >>> from coreb_core.data.ingest import import_release
    >>> from coreb_core.data.sources import read_local
    >>> from coreb_core.data.store import Store
    >>> from coreb_core.results.imported import all_rows, import_results
    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import read_hits, run_meta
    >>> _ = import_release(read_local(Path("../shared/coreb_real/release_v2603"))[2], "release_v2603")  # doctest: +SKIP
    >>> _ = import_results(Path("../shared/mteb_results/mteb__baseline-bm25s"))  # doctest: +SKIP
    >>> run = run_retrieval("bm25s-mteb", "release_v2603").run_id  # doctest: +SKIP
    >>> real = Store("release_v2603")  # doctest: +SKIP
    >>> table = mteb_parity(real, {run: read_hits(run)}, {run: run_meta(run)}, all_rows())  # doctest: +SKIP
    >>> table.loc[table["metric"] == "ndcg_at_10", ["task", "ours", "mteb", "difference"]]  # doctest: +SKIP
      task     ours     mteb  difference
    0  t2c  0.15023  0.15023         0.0
    3  c2c  0.21952  0.21952         0.0
    6  c2t  0.26860  0.26860         0.0
"""
from __future__ import annotations

from typing import Iterable

import pandas as pd

from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import TASK_NAMES
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import evaluate, summary
from coreb_core.evaluation.schemes import MTEB
from coreb_core.runs.meta import RunMeta

# Our registry id -> the MTEB model whose recipe it follows (model_meta.json's name).
MTEB_TWINS = {"bm25s-mteb": "mteb/baseline-bm25s"}
PARITY_METRICS = tuple(m.column for m in (NDCG_10, Measure("recall", 10), Measure("map", 10)))
COLUMNS = ["run", "model", "mteb_model", "task", "metric", "queries", "ours", "mteb", "difference", "mteb_source"]


def mteb_parity(store: Store, runs: dict[str, pd.DataFrame], metas: dict[str, RunMeta],
                result_rows: Iterable[dict]) -> pd.DataFrame:
    """One row per (run with an MTEB twin, task, metric): our value under scheme ``mteb`` (rounded to MTEB's
    5 decimals), the imported MTEB value of the twin's retrieval task, and ours minus MTEB's. Runs without a
    twin, or whose twin was not imported, give no rows.

    Example (CoREB-mini in ``root``, a bm25s-mteb run made here, and one MTEB row written by hand as
    ``import-results`` stores it; MTEB publishes no figures for CoREB-mini):

    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import read_hits, run_meta
    >>> run = run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id
    >>> row = {"source_kind": "mteb", "source": "mteb:example", "model": "mteb/baseline-bm25s", "split": "test",
    ...        "task": "CorebT2CRetrieval", "task_short": "t2c", "metric": "ndcg_at_10", "value": 0.25}
    >>> table = mteb_parity(store, {run: read_hits(run)}, {run: run_meta(run)}, [row])
    >>> table[["model", "task", "metric", "queries", "ours", "mteb", "difference"]]
            model task      metric  queries     ours  mteb  difference
    0  bm25s-mteb  t2c  ndcg_at_10      720  0.27891  0.25     0.02891
    >>> len(mteb_parity(store, {bm25: read_hits(bm25)}, {bm25: run_meta(bm25)}, [row]))  # bm25 has no twin
    0
    """
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
