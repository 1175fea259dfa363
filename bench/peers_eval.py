"""The peers' side of ``eval_real_bench.py``, run by the peers' own Python (ranx and ir_measures do not
share the project's environment): reads the qrels and the runs the bench wrote as parquet (each query's top
100, what the official runner's run dict holds for these cutoffs), checks nDCG@10 per run, times each
library's evaluation of every run, prints one JSON line.

    bench/.peers/bin/python bench/peers_eval.py FOLDER
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pandas as pd

KS = (1, 3, 5, 10, 100)


def main(folder: Path) -> None:
    import ir_measures
    from ranx import Qrels, Run, evaluate

    # qrels.parquet: task, query_id, doc_id, relevance (below 2 written as 0, as the official procedure filters).
    # ranx wants object (str) id columns and int relevance, not pandas' string dtype.
    qrels = pd.read_parquet(folder / "qrels.parquet").astype({"query_id": object, "doc_id": object, "relevance": int})
    ranx_metrics = [f"{m}@{k}" for k in KS for m in ("ndcg", "map", "recall", "precision")]
    measures = [m @ k for k in KS for m in (ir_measures.nDCG, ir_measures.AP, ir_measures.R, ir_measures.P)]
    runs = sorted(folder.glob("run-*.parquet"))  # task, query_id, doc_id, score
    from importlib.metadata import version

    out: dict[str, object] = {"runs": len(runs), "ranx_s": 0.0, "ir_measures_s": 0.0,
                              "ranx_version": version("ranx"), "ir_measures_version": version("ir_measures")}
    compiled = False
    # One run at a time (at 10x, every run at once in these libraries' structures does not fit in 24 GiB);
    # only the libraries' evaluation calls are timed, per task, as the official procedure scores each task apart.
    for i, path in enumerate(runs):
        frame = pd.read_parquet(path).astype({"query_id": object, "doc_id": object})
        for task, part in frame.groupby("task", observed=True):
            q = qrels[qrels["task"] == task][["query_id", "doc_id", "relevance"]]
            pairs = (Qrels.from_df(q, q_id_col="query_id", doc_id_col="doc_id", score_col="relevance"),
                     Run.from_df(part[["query_id", "doc_id", "score"]], q_id_col="query_id", doc_id_col="doc_id",
                                 score_col="score"))
            if not compiled:
                evaluate(*pairs, ranx_metrics)  # numba compiles here, not in the timing
                compiled = True
            t0 = time.perf_counter()
            scores = evaluate(*pairs, ranx_metrics, make_comparable=True)
            out["ranx_s"] += time.perf_counter() - t0
            if i == 0:
                out.setdefault("ranx_ndcg10_first_run", {})[str(task)] = scores["ndcg@10"]
            t0 = time.perf_counter()
            ir_measures.calc_aggregate(measures, q, part[["query_id", "doc_id", "score"]])
            out["ir_measures_s"] += time.perf_counter() - t0
            del pairs
        del frame
    print(json.dumps(out))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
