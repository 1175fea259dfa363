"""The run tables of the SQL console: every hit of the chosen runs (``hits``) and their per-query metrics
under each evaluated scheme (``metrics``), as plain frames the console copies into its sandbox
(``coreb_core.data.sql_console.SqlConsole``'s ``extra_tables``). The metrics are the evaluator's own
per-query rows, not recomputed.

Example (CoREB-mini and a BM25 run ``bm25`` in a cache folder ``root``):
    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.evaluation.schemes import V1, V2
    >>> from coreb_core.runs.folders import read_hits
    >>> runs = {bm25: read_hits(bm25, root)}
    >>> tables = console_tables(runs, {bm25: "BM25"}, analyse_many(store, runs, (V2, V1)))
    >>> list(tables.hits.columns), len(tables.hits)
    (['run_id', 'run_name', 'task', 'query_id', 'doc_id', 'rank', 'score'], 128804)
    >>> tables.metrics[["run_name", "scheme", "task", "query_id", "ndcg_at_10"]].head(1)
      run_name scheme task               query_id  ndcg_at_10
    0     BM25     v2  c2c  q_c2c_cross_lang_0025     0.76064
    >>> tables.metrics["scheme"].value_counts().to_dict()  # every evaluated query under each scheme
    {'v2': 1200, 'v1': 1200}
"""
from __future__ import annotations

from typing import Mapping, NamedTuple

import pandas as pd

from coreb_core.evaluation.evaluate import Evaluation

HIT_COLUMNS = ["run_id", "run_name", "task", "query_id", "doc_id", "rank", "score"]


class ConsoleTables(NamedTuple):
    """The two run tables of the SQL console (see the module docstring).

    >>> empty = console_tables({}, {}, None)
    >>> list(empty.hits.columns), list(empty.metrics.columns)
    (['run_id', 'run_name', 'task', 'query_id', 'doc_id', 'rank', 'score'],
     ['run_id', 'run_name', 'scheme', 'task', 'query_id'])
    """
    hits: pd.DataFrame  # one row per stored hit: run_id, run_name, task, query_id, doc_id, rank, score
    # one row per run, scheme and evaluated query: run_id, run_name, scheme, task, query_id, metrics
    metrics: pd.DataFrame

    def as_dict(self) -> dict[str, pd.DataFrame]:
        """Table name -> frame, as ``SqlConsole(extra_tables=…)`` takes them."""
        return {"hits": self.hits, "metrics": self.metrics}


def console_tables(runs: Mapping[str, pd.DataFrame], names: Mapping[str, str],
                   evaluation: Evaluation | None) -> ConsoleTables:
    """``hits`` from each run's stored rows (run id -> hits) and ``metrics`` from ``evaluation``'s per-query
    rows (its ``run`` column holds the same run ids) under every scheme it evaluated; ``names`` gives each
    run's display name (the run id where missing).

    >>> hits = pd.DataFrame({"task": ["t2c"], "query_id": ["q1"], "doc_id": ["d1"], "rank": [1], "score": [0.5],
    ...                      "in_top_k": [True]})
    >>> console_tables({"r1": hits}, {}, None).hits
      run_id run_name task query_id doc_id  rank  score
    0     r1       r1  t2c       q1     d1     1    0.5
    """
    frames = [h.assign(run_id=run_id, run_name=names.get(run_id, run_id))[HIT_COLUMNS] for run_id, h in runs.items()]
    all_hits = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=HIT_COLUMNS)
    metric_frames = []
    for scheme in (evaluation.schemes if evaluation is not None else ()):
        assert evaluation is not None  # the loop runs only with one
        per_query = evaluation.per_query(scheme).rename(columns={"run": "run_id"})
        for column in per_query.select_dtypes("category").columns:  # plain text in SQL, not ENUMs
            per_query[column] = per_query[column].astype(str)
        per_query.insert(1, "run_name", per_query["run_id"].map(lambda r: names.get(r, r)))
        per_query.insert(2, "scheme", scheme)
        metric_frames.append(per_query)
    metrics = (pd.concat(metric_frames, ignore_index=True) if metric_frames
               else pd.DataFrame(columns=["run_id", "run_name", "scheme", "task", "query_id"]))
    return ConsoleTables(all_hits, metrics)
