"""The Run retrieval page's question once a run has finished: the run as stored now (it may have been renamed since)
and its nDCG@10 per task, as the ``run`` verb reports it (``score_run``: scheme v2, C2C anchor excluded)."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pandas as pd

from coreb_core.evaluation.evaluate import score_run
from coreb_core.present.format import ndcg_frame
from coreb_core.runs.folders import run_meta
from coreb_core.runs.meta import RunMeta


class NewRun(NamedTuple):
    """A finished run: its provenance and its scores."""

    meta: RunMeta
    scores: pd.DataFrame  # task (t2c, c2c, c2t order), ndcg_at_10 as a fraction


def new_run(run_id: str, root: Path | None = None) -> NewRun:
    """The stored run ``run_id`` and its nDCG@10 per task.

    >>> view = new_run(bm25, root)
    >>> view.meta.model, view.scores["task"].tolist(), round(float(view.scores["ndcg_at_10"].iloc[0]), 4)
    ('bm25', ['t2c', 'c2c', 'c2t'], 0.2998)
    """
    return NewRun(run_meta(run_id, root), ndcg_frame(score_run(run_id, root)))
