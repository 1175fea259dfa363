"""coreb_core: error analysis of code-retrieval models on CoREB, without Streamlit.

The small public API: the verbs a notebook or a script needs, loaded on first use (so ``import coreb_core`` and
``python -m coreb_core --help`` stay instant and this module imports no layer above the foundation). Everything
else is reachable by its module path (``coreb_core.analysis.traps.wins`` …); docs/architecture.md maps them.

Example (CoREB-mini in the configured cache ``COREB_CACHE``, with the BM25 run ``bm25`` that
``cc.run_retrieval("bm25", "demo_v2603")`` stored there):
    >>> import coreb_core as cc
    >>> store = cc.Store("demo_v2603")
    >>> per_query = cc.evaluate(store, cc.read_hits(bm25))      # CoREB's official v2 scoring
    >>> round(float(per_query.query("task == 't2c'")["ndcg_at_10"].mean()), 4)
    0.2998
    >>> cc.recommend_stored("demo_v2603", tasks=("t2c",)).recommendation.standings[0].model
    'bm25 · demo_v2603'
"""
from __future__ import annotations

import importlib
from typing import Any

# name -> the module that defines it
PUBLIC = {
    "Store": "coreb_core.data.store",
    "Measure": "coreb_core.data.measures",
    "Scheme": "coreb_core.evaluation.schemes",
    "V1": "coreb_core.evaluation.schemes",
    "V2": "coreb_core.evaluation.schemes",
    "RunMeta": "coreb_core.runs.meta",
    "list_runs": "coreb_core.runs.folders",
    "read_hits": "coreb_core.runs.folders",
    "run_meta": "coreb_core.runs.folders",
    "read_trec_run": "coreb_core.runs.trec",
    "run_retrieval": "coreb_core.retrieval.pipeline",
    "evaluate": "coreb_core.evaluation.evaluate",
    "analyse_many": "coreb_core.evaluation.evaluate",
    "trap_table": "coreb_core.evaluation.evaluate",
    "compare_pair": "coreb_core.evaluation.significance",
    "recommend": "coreb_core.analysis.selection",
    "recommend_stored": "coreb_core.analysis.selection",
    "classify_traps": "coreb_core.analysis.traps.kinds",
    "CorebError": "coreb_core.errors",
}
__all__ = sorted(PUBLIC)


def __getattr__(name: str) -> Any:
    """``coreb_core.<name>`` for a public name, imported from its module on first use.

    >>> __getattr__("CorebError").__name__
    'CorebError'
    """
    if name not in PUBLIC:
        raise AttributeError(f"module 'coreb_core' has no attribute {name!r}")
    return getattr(importlib.import_module(PUBLIC[name]), name)
